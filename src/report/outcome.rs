//! A solve, a count or a check as text for a person.

use std::fmt::Write as _;

use super::picture::{text, Values};
use super::plain;
use crate::grid::Grid;
use crate::model::Puzzle;
use crate::solve::{Outcome, Status};

/// How a grid is printed: as a picture of the puzzle, or as plain digits that read back as a `solution:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GridForm {
    Picture(text::TextStyle),
    Plain,
}

/// One solution of the puzzle, in the form asked for.
pub(crate) fn grid(puzzle: &Puzzle, solution: &Grid, form: GridForm) -> String {
    match form {
        GridForm::Picture(style) => {
            let values = Values {
                givens: puzzle.givens(),
                solution: Some(solution),
            };
            text::render(puzzle.figure(), &values, style)
        }
        GridForm::Plain => plain::render(solution, puzzle.figure()),
    }
}

/// `latin solve`: the grid (or up to `max` grids, numbered, with whether more exist), or why there is none.
pub(crate) fn solutions(puzzle: &Puzzle, outcome: &Outcome, max: usize, form: GridForm) -> String {
    let mut out = String::new();
    match outcome.status {
        Status::Infeasible => out.push_str("no solution\n"),
        Status::Timeout if outcome.solutions.is_empty() => {
            out.push_str("time limit reached without an answer\n")
        }
        _ => {
            for (i, solution) in outcome.solutions.iter().enumerate() {
                if max > 1 {
                    let _ = writeln!(out, "solution {}:", i + 1);
                }
                out.push_str(&grid(puzzle, solution, form));
                if max > 1 {
                    out.push('\n');
                }
            }
            if max > 1 {
                let k = outcome.solutions.len();
                let more = if outcome.complete {
                    "no more exist"
                } else {
                    "there may be more"
                };
                let _ = writeln!(out, "{k} solution{} ({more})", plural(k));
            }
        }
    }
    out
}

/// The line that opens one file's answer when a run solves several (`==> FILE <==`, as `head` and `tail` name
/// theirs), after a blank line but for the first.
pub(crate) fn heading(file: &str, first: bool) -> String {
    let gap = if first { "" } else { "\n" };
    format!("{gap}==> {file} <==\n")
}

/// `latin count`: how many solutions, and whether the count is complete.
pub(crate) fn count(outcome: &Outcome, max: usize) -> String {
    let k = outcome.solutions.len();
    let noun = format!("solution{}", plural(k));
    match (outcome.status, outcome.complete) {
        (Status::Timeout, _) => "time limit reached without an answer\n".into(),
        (_, true) => format!("{k} {noun}\n"),
        (_, false) if outcome.stats.memory_capped => {
            format!("at least {k} {noun} (stopped at the memory limit, --memory-limit, below --max {max})\n")
        }
        (_, false) if outcome.count_cut_short(max) => {
            format!("at least {k} {noun} (time limit reached)\n")
        }
        (_, false) => format!("at least {k} {noun} (stopped at --max {max})\n"),
    }
}

fn plural(k: usize) -> &'static str {
    if k == 1 {
        ""
    } else {
        "s"
    }
}

/// What `latin check` found.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Verdict<'a> {
    /// Out of time before any answer.
    Timeout,
    /// No solution at all.
    NoSolution,
    /// One solution, proved unique, different from the file's `solution:`.
    Differs(&'a Grid),
    /// One solution, proved unique; `compared` when the file has a `solution:` and it is equal.
    Unique { compared: bool },
    /// One solution, and out of time before uniqueness was proved.
    NotProved,
    /// Two solutions (of possibly more).
    Several(&'a Grid, &'a Grid),
}

impl<'a> Verdict<'a> {
    /// The verdict on a solve that asked for two solutions.
    pub(crate) fn of(puzzle: &'a Puzzle, outcome: &'a Outcome) -> Self {
        match (outcome.status, outcome.solutions.as_slice()) {
            (Status::Timeout, []) => Verdict::Timeout,
            (_, []) => Verdict::NoSolution,
            (_, [one]) if outcome.complete => match puzzle.solution() {
                Some(expected) if expected != one => Verdict::Differs(one),
                expected => Verdict::Unique {
                    compared: expected.is_some(),
                },
            },
            (_, [_]) => Verdict::NotProved,
            (_, [first, second, ..]) => Verdict::Several(first, second),
        }
    }

    /// The exit code: 0 ok, 1 failed, 3 out of time.
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Verdict::Unique { .. } => 0,
            Verdict::NoSolution | Verdict::Differs(_) | Verdict::Several(..) => 1,
            Verdict::Timeout | Verdict::NotProved => 3,
        }
    }

    /// The verdict as text, naming the file.
    pub(crate) fn render(self, name: &str, puzzle: &Puzzle, form: GridForm) -> String {
        let grid = |g: &Grid| grid(puzzle, g, form);
        match self {
            Verdict::Timeout => format!("{name}: time limit reached without an answer\n"),
            Verdict::NoSolution => format!("{name}: FAILED: the puzzle has no solution\n"),
            Verdict::Differs(one) => format!(
                "{name}: FAILED: the unique solution differs from `solution:`; it is:\n{}",
                grid(one)
            ),
            Verdict::Unique { compared: true } => {
                format!("{name}: ok: one solution, equal to `solution:`\n")
            }
            Verdict::Unique { compared: false } => {
                format!("{name}: ok: one solution (no `solution:` to compare)\n")
            }
            Verdict::NotProved => {
                format!("{name}: time limit reached before uniqueness was proved\n")
            }
            Verdict::Several(first, second) => format!(
                "{name}: FAILED: the puzzle has more than one solution; two of them:\n{}\n{}",
                grid(first),
                grid(second)
            ),
        }
    }
}
