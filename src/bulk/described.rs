//! Lines that are whole puzzles: a Tatham game ID, a puzz.link, f-puzzles or SudokuPad link, or a corpus record a line,
//! each with its own type, size and clues, read as `latin solve` reads one given as its argument; a record's
//! `solution` is compared with the answer, and so is what it says of how many solutions there are (`count`,
//! `feasible`).

use std::time::Instant;

use super::compare::{compare, compare_count, fits, Said};
use super::{invalid, solve_puzzle};
use crate::model::load::Reader;
use crate::model::Puzzle;
use crate::report::lines::LineAnswer;
use crate::solve::SolveOptions;

/// Reads and solves one line. A line latin cannot read as a puzzle, or whose clues contradict each other as
/// read (`latin solve` refuses both as bad input), is `invalid`, with the reader's reason.
pub(super) fn solve_line(
    reader: &Reader,
    line: usize,
    text: &str,
    options: &SolveOptions,
) -> LineAnswer {
    let start = Instant::now();
    let facts = record_facts(text);
    let mut answer = match reader.load_text(text) {
        Ok(puzzle) => solved(&puzzle, line, options),
        Err(e) => invalid(line, e.to_string()),
    };
    if let Some(said) = facts.said {
        compare_count(&mut answer, said);
    }
    answer.id = facts.id;
    answer.ms = start.elapsed().as_secs_f64() * 1000.0;
    answer
}

/// What a record line says beside its puzzle, which the puzzle read from it does not keep.
#[derive(Default)]
struct Facts {
    id: Option<String>,
    said: Option<Said>,
}

/// A record's `id`, and its `count` of solutions (or `feasible`), when the line is a JSON object with them
/// (read apart from the puzzle: a second parse of a short line, small beside its solve).
fn record_facts(text: &str) -> Facts {
    if !text.starts_with('{') {
        return Facts::default();
    }
    let Ok(record) = serde_json::from_str::<serde_json::Value>(text) else {
        return Facts::default();
    };
    let said = match (record["count"].as_u64(), record["feasible"].as_bool()) {
        (Some(n), _) => Some(Said::Count(n)),
        (None, Some(true)) => Some(Said::Feasible),
        (None, Some(false)) => Some(Said::Count(0)),
        (None, None) => None,
    };
    Facts {
        id: record["id"].as_str().map(str::to_owned),
        said,
    }
}

fn solved(puzzle: &Puzzle, line: usize, options: &SolveOptions) -> LineAnswer {
    let mut answer = solve_puzzle(puzzle, None, line, options);
    if let Some(expected) = puzzle.solution() {
        compare(&mut answer, expected, || fits(puzzle, expected));
    }
    answer
}
