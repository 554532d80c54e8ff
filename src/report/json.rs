//! JSON for programs: one object per line, with the same status words on every command (`solved`,
//! `infeasible`, `timeout`, and `multiple` where the question is uniqueness).
//!
//! - `solve`: `{"type", "size", "status", "solutions", "count", "complete", "time_ms", "stats"}`, with `"file"`
//!   first when one run solves several files
//! - `count`: `{"type", "size", "status", "count", "complete", "time_ms"}`, with `"file"` first when one run
//!   counts several files
//! - `check`: `{"file", "status", "ok", "matches_solution", "time_ms"}`
//! - an error, on stderr: `{"error", "exit"}`

use serde::Serialize;

use super::outcome::Verdict;
use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::{Outcome, Stats, Status};

#[derive(Serialize)]
struct Report<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    r#type: &'a str,
    size: usize,
    status: Status,
    solutions: Vec<Vec<Vec<u32>>>,
    count: usize,
    complete: bool,
    time_ms: f64,
    stats: &'a Stats,
}

/// One puzzle's outcome as a JSON object (one line), naming its file when given one.
pub(crate) fn render(puzzle: &Puzzle, outcome: &Outcome, file: Option<&str>) -> String {
    let report = Report {
        file,
        r#type: puzzle.kind(),
        size: puzzle.size(),
        status: outcome.status,
        solutions: outcome.solutions.iter().map(|g| g.rows()).collect(),
        count: outcome.solutions.len(),
        complete: outcome.complete,
        time_ms: outcome.time.as_secs_f64() * 1000.0,
        stats: &outcome.stats,
    };
    serde_json::to_string(&report).unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()))
}

fn to_line(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\": {:?}}}", e.to_string()))
}

/// `latin count --format json`.
pub(crate) fn count(puzzle: &Puzzle, outcome: &Outcome, file: Option<&str>) -> String {
    #[derive(Serialize)]
    struct Count<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        file: Option<&'a str>,
        r#type: &'a str,
        size: usize,
        status: Status,
        count: usize,
        complete: bool,
        time_ms: f64,
    }
    to_line(&Count {
        file,
        r#type: puzzle.kind(),
        size: puzzle.size(),
        status: outcome.status,
        count: outcome.solutions.len(),
        complete: outcome.complete,
        time_ms: outcome.time.as_secs_f64() * 1000.0,
    })
}

/// `latin check --format json`: `status` is `solved` for exactly one solution (proved), `multiple`,
/// `infeasible`, or `timeout` when the question stayed open; `ok` is the verdict.
pub(crate) fn check(file: &str, verdict: Verdict, outcome: &Outcome) -> String {
    #[derive(Serialize)]
    struct Check<'a> {
        file: &'a str,
        status: &'static str,
        ok: bool,
        /// Whether the unique solution equals the file's `solution:`; null when there is none to compare.
        matches_solution: Option<bool>,
        time_ms: f64,
    }
    let (status, matches_solution) = match verdict {
        Verdict::Timeout | Verdict::NotProved => ("timeout", None),
        Verdict::NoSolution => ("infeasible", None),
        Verdict::Several(..) => ("multiple", None),
        Verdict::Differs(_) => ("solved", Some(false)),
        Verdict::Unique { compared } => ("solved", compared.then_some(true)),
    };
    to_line(&Check {
        file,
        status,
        ok: verdict.exit_code() == 0,
        matches_solution,
        time_ms: outcome.time.as_secs_f64() * 1000.0,
    })
}

/// An error, for stderr in JSON mode.
pub(crate) fn error(e: &Error) -> String {
    to_line(&serde_json::json!({"error": e.to_string(), "exit": e.exit_code()}))
}
