//! The JSON report: `{"type", "size", "status", "solutions", "count", "complete", "time_ms", "stats"}`.

use serde::Serialize;

use crate::model::Puzzle;
use crate::solve::{Outcome, Stats, Status};

#[derive(Serialize)]
struct Report<'a> {
    r#type: &'a str,
    size: usize,
    status: Status,
    solutions: Vec<Vec<Vec<u32>>>,
    count: usize,
    complete: bool,
    time_ms: f64,
    stats: &'a Stats,
}

/// One puzzle's outcome as a JSON object (one line).
pub(crate) fn render(puzzle: &Puzzle, outcome: &Outcome) -> String {
    let report = Report {
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
