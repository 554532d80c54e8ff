//! The records of a `latin bench` run, as saved in JSON (a later run's baseline), and their text table.
//!
//! The records live here, with their renderers, because they are what a person or a program reads; the bench
//! driver fills them. The JSON schema is documented in the README ("Regression benchmarks"); `schema` is
//! raised whenever a field changes meaning, and a baseline of another schema is refused, not misread.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::solve::DecidedBy;

/// The version of the saved report's layout.
pub(crate) const SCHEMA: u32 = 2;

/// A ratio of times with its interval (computed in `bench::stats`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Ratio {
    pub(crate) ratio: f64,
    pub(crate) low: f64,
    pub(crate) high: f64,
}

/// Counts that do not depend on the machine: the same build gives the same counts on the same puzzle.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Work {
    pub(crate) decided_by: DecidedBy,
    pub(crate) search_nodes: u64,
    pub(crate) search_restarts: u64,
    pub(crate) probes: u64,
    pub(crate) solver_calls: usize,
}

impl std::fmt::Display for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}, {} search nodes, {} restarts, {} probes, {} solver calls",
            self.decided_by,
            self.search_nodes,
            self.search_restarts,
            self.probes,
            self.solver_calls
        )
    }
}

/// One puzzle's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct PuzzleResult {
    /// The path below the benchmarked directory's parent (`inshi/a.yaml`): what baselines match on.
    pub(crate) id: String,
    /// The path as found.
    pub(crate) file: String,
    /// FNV-1a of the file's bytes: an edited puzzle is a changed puzzle, not a slower one.
    pub(crate) hash: String,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    /// `solved`, `infeasible`, `timeout`, or `error` (the file did not load, or the solver failed).
    pub(crate) status: String,
    /// Solutions found, up to 2 (2: several).
    pub(crate) count: usize,
    /// Whether the count is exact (false when time ran out).
    pub(crate) complete: bool,
    /// Whether the answer equals the file's `solution:`; absent when the file has none.
    pub(crate) matches: Option<bool>,
    /// The first answer in the one-line form, so a baseline can tell when it changed.
    pub(crate) answer: Option<String>,
    pub(crate) median_ms: f64,
    /// The 95% interval of the median (order statistics).
    pub(crate) low_ms: f64,
    pub(crate) high_ms: f64,
    pub(crate) times_ms: Vec<f64>,
    /// A fixed piece of work timed beside each solve: how fast the machine was (see `bench::stats`).
    #[serde(default)]
    pub(crate) calibration_ms: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) work: Option<Work>,
    /// Why the status is `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
}

/// One type's figures.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct TypeResult {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) puzzles: usize,
    /// The median of its puzzles' medians.
    pub(crate) median_ms: f64,
    pub(crate) slowest_ms: f64,
    pub(crate) total_ms: f64,
    /// Puzzles whose answer differs from their `solution:`.
    pub(crate) mismatches: usize,
}

/// A ratio of times (this run or build over the other) for a puzzle or a type.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Compared {
    /// The puzzle's id, or the type's name.
    pub(crate) name: String,
    #[serde(flatten)]
    pub(crate) ratio: Ratio,
    /// The interval says slower by more than the tolerance.
    pub(crate) slower: bool,
    /// For a type: its median and total over the puzzles both sides timed, this run's then the other's (the
    /// baseline's or the other build's). A goal stated as a type's median is read here: the ratio is the
    /// geometric mean of the puzzles' ratios, and a change that halves the middle puzzles and doubles a few
    /// slow ones moves the median far more than that mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) times: Option<[Times; 2]>,
}

/// A type's median and total time, in milliseconds, over a set of puzzles.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Times {
    pub(crate) median_ms: f64,
    pub(crate) total_ms: f64,
}

/// Something a comparison found, and whether it fails the run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) id: String,
    pub(crate) what: String,
    pub(crate) fails: bool,
}

/// A run compared with a baseline or another build.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Comparison {
    /// The baseline file, or the other binary.
    pub(crate) against: String,
    pub(crate) puzzles: Vec<Compared>,
    pub(crate) types: Vec<Compared>,
    pub(crate) findings: Vec<Finding>,
}

impl Comparison {
    /// The type's median and total on both sides ([`Compared::times`]), when the comparison has the type.
    pub(crate) fn type_times(&self, kind: &str) -> Option<[Times; 2]> {
        self.types.iter().find(|t| t.name == kind)?.times
    }
}

/// A file passed over, and why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Skipped {
    pub(crate) id: String,
    pub(crate) why: String,
}

/// A whole run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Report {
    pub(crate) schema: u32,
    /// Runs per puzzle: at least `min_runs`, more until the median's interval is narrow or the budget is spent.
    pub(crate) min_runs: usize,
    pub(crate) max_runs: usize,
    pub(crate) cores: usize,
    pub(crate) puzzles: Vec<PuzzleResult>,
    pub(crate) types: Vec<TypeResult>,
    #[serde(default)]
    pub(crate) skipped: Vec<Skipped>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) comparison: Option<Comparison>,
}

/// A table with columns as wide as their widest cell; the first `left` columns are left-aligned.
fn columns(rows: &[Vec<String>], left: usize) -> String {
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|k| rows.iter().map(|r| r[k].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(k, (cell, &w))| {
                if k < left {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn ms(x: f64) -> String {
    format!("{x:.3}")
}

fn ratio_text(c: &Compared) -> String {
    let mark = if c.slower { "  SLOWER" } else { "" };
    format!(
        "{:.2} [{:.2}, {:.2}]{mark}",
        c.ratio.ratio, c.ratio.low, c.ratio.high
    )
}

/// The text table: one row per puzzle, then one per type, then what a comparison found.
pub(crate) fn table(report: &Report) -> String {
    let mut out = columns(&puzzle_rows(report), 3);
    for p in report.puzzles.iter().filter(|p| p.message.is_some()) {
        let _ = writeln!(
            out,
            "{}: {}",
            p.id,
            p.message.as_deref().unwrap_or_default()
        );
    }
    out.push('\n');
    out.push_str(&columns(&type_rows(report), 1));
    for s in &report.skipped {
        let _ = writeln!(out, "skipped {}: {}", s.id, s.why);
    }
    let _ = writeln!(
        out,
        "({}-{} runs a puzzle, median with its 95% interval; {} cores)",
        report.min_runs, report.max_runs, report.cores
    );
    if let Some(c) = &report.comparison {
        let _ = writeln!(
            out,
            "ratio: this run's time over {}'s, geometric mean per type; SLOWER: the whole interval is above 1 + tolerance; other's: the same type's median and total there, over the puzzles both timed",
            c.against
        );
    }
    out
}

/// A header row of `names`, with the ratio's column when the run was compared.
fn header(names: &[&str], compared: bool) -> Vec<String> {
    let mut row: Vec<String> = names.iter().map(|&s| s.to_owned()).collect();
    if compared {
        row.push("ratio [95%]".into());
    }
    row
}

/// The ratio of the puzzle or type `name` in a comparison's list, `-` where it has none.
fn ratio_of(list: Option<&Vec<Compared>>, name: &str) -> String {
    list.and_then(|l| l.iter().find(|c| c.name == name))
        .map_or_else(|| "-".to_owned(), ratio_text)
}

/// The table of puzzles: a header, then a row a puzzle.
fn puzzle_rows(report: &Report) -> Vec<Vec<String>> {
    let compared = report.comparison.as_ref();
    let names = [
        "puzzle",
        "type",
        "status",
        "count",
        "ok",
        "median ms",
        "95% interval",
        "runs",
    ];
    let mut rows = vec![header(&names, compared.is_some())];
    for p in &report.puzzles {
        let ok = match p.matches {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        let count = match (p.count, p.complete) {
            (2, _) => "2+".to_owned(),
            (k, true) => k.to_string(),
            (k, false) => format!("{k}?"),
        };
        let mut row = vec![
            p.id.clone(),
            p.kind.clone(),
            p.status.clone(),
            count,
            ok.into(),
            ms(p.median_ms),
            format!("{}-{}", ms(p.low_ms), ms(p.high_ms)),
            p.times_ms.len().to_string(),
        ];
        if let Some(c) = compared {
            row.push(ratio_of(Some(&c.puzzles), &p.id));
        }
        rows.push(row);
    }
    rows
}

/// The table of types: a header, then a row a type.
fn type_rows(report: &Report) -> Vec<Vec<String>> {
    let compared = report.comparison.as_ref();
    let names = [
        "type",
        "puzzles",
        "median ms",
        "slowest ms",
        "total ms",
        "mismatch",
    ];
    let mut rows = vec![header(&names, compared.is_some())];
    if compared.is_some() {
        rows[0].extend(["other's median ms".into(), "other's total ms".into()]);
    }
    for t in &report.types {
        let mut row = vec![
            t.kind.clone(),
            t.puzzles.to_string(),
            ms(t.median_ms),
            ms(t.slowest_ms),
            format!("{:.1}", t.total_ms),
            t.mismatches.to_string(),
        ];
        if let Some(c) = compared {
            row.push(ratio_of(Some(&c.types), &t.kind));
            let other = c.type_times(&t.kind).map(|[_, other]| other);
            row.push(other.map_or_else(|| "-".into(), |o| ms(o.median_ms)));
            row.push(other.map_or_else(|| "-".into(), |o| format!("{:.1}", o.total_ms)));
        }
        rows.push(row);
    }
    rows
}

/// A puzzle's answer in a message: status, count and grid line.
pub(crate) fn describe(p: &PuzzleResult) -> String {
    let count = if p.count >= 2 {
        " (several)".to_owned()
    } else {
        String::new()
    };
    match &p.answer {
        Some(a) => format!("{}{count} {a}", p.status),
        None => format!("{}{count}", p.status),
    }
}

/// What fails a run on its own, with no baseline: a puzzle that errs or runs out of time, and an answer that
/// differs from its file's `solution:` (or is not the only one).
pub(crate) fn own_failures(report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    for p in &report.puzzles {
        match p.status.as_str() {
            "error" => out.push(format!(
                "{}: error: {}",
                p.id,
                p.message.as_deref().unwrap_or("failed")
            )),
            "timeout" => out.push(format!("{}: time limit reached", p.id)),
            _ if p.matches == Some(false) => out.push(format!(
                "{}: the answer differs from `solution:`{}",
                p.id,
                if p.count >= 2 {
                    " (several solutions)"
                } else {
                    ""
                }
            )),
            _ => {}
        }
    }
    out
}
