//! The records of a `latin bench` run, as saved in JSON (a later run's baseline), and their text table.
//!
//! The records live here, with their renderers, because they are what a person or a program reads; the bench
//! driver fills them.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::solve::DecidedBy;

/// One puzzle's result.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct PuzzleResult {
    pub(crate) file: String,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    /// `solved`, `infeasible`, `timeout`, or `error` (the file did not load, or the solver failed).
    pub(crate) status: String,
    /// Whether the answer equals the file's `solution:`; absent when the file has none.
    pub(crate) matches: Option<bool>,
    /// The answer in the one-line form, so a baseline can tell when it changed.
    pub(crate) answer: Option<String>,
    pub(crate) median_ms: f64,
    pub(crate) times_ms: Vec<f64>,
    /// What decided the puzzle (propagation, search, cdcl or cbc); none on error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) decided_by: Option<DecidedBy>,
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
    pub(crate) median_ms: f64,
    pub(crate) slowest_ms: f64,
    pub(crate) total_ms: f64,
    /// Puzzles whose answer differs from their `solution:`.
    pub(crate) mismatches: usize,
}

/// A whole run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Report {
    pub(crate) repeat: usize,
    pub(crate) cores: usize,
    pub(crate) puzzles: Vec<PuzzleResult>,
    pub(crate) types: Vec<TypeResult>,
}

/// The text table: one row per puzzle, then one per type.
pub(crate) fn table(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<48} {:<12} {:<10} {:<6} {:>10}",
        "puzzle", "type", "status", "ok", "median ms"
    );
    for p in &report.puzzles {
        let ok = match p.matches {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        let _ = writeln!(
            out,
            "{:<48} {:<12} {:<10} {:<6} {:>10.3}",
            p.file, p.kind, p.status, ok, p.median_ms
        );
        if let Some(m) = &p.message {
            let _ = writeln!(out, "    {m}");
        }
    }
    let _ = writeln!(
        out,
        "\n{:<12} {:>7} {:>11} {:>11} {:>11} {:>10}",
        "type", "puzzles", "median ms", "slowest ms", "total ms", "mismatch"
    );
    for t in &report.types {
        let _ = writeln!(
            out,
            "{:<12} {:>7} {:>11.3} {:>11.3} {:>11.1} {:>10}",
            t.kind, t.puzzles, t.median_ms, t.slowest_ms, t.total_ms, t.mismatches
        );
    }
    let _ = writeln!(
        out,
        "({} runs each, median; {} cores)",
        report.repeat, report.cores
    );
    out
}

/// A puzzle's answer in a regression message: status and grid line.
pub(crate) fn describe(p: &PuzzleResult) -> String {
    match &p.answer {
        Some(a) => format!("{} {a}", p.status),
        None => p.status.clone(),
    }
}
