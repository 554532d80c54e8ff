//! Lines that are whole puzzles: a Tatham game ID, a puzz.link or f-puzzles link, or a corpus record a line,
//! each with its own type, size and clues, read as `latin solve` reads one given as its argument; a record's
//! `solution` is compared with the answer.

use std::time::Instant;

use super::compare::{compare, fits};
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
    let mut answer = match reader.load_text(text) {
        Ok(puzzle) => solved(&puzzle, line, options),
        Err(e) => invalid(line, e.to_string()),
    };
    answer.id = record_id(text);
    answer.ms = start.elapsed().as_secs_f64() * 1000.0;
    answer
}

/// A record's `id`, when the line is a JSON object that has one (read apart from the puzzle, which keeps no
/// name: a second parse of a short line, small beside its solve).
fn record_id(text: &str) -> Option<String> {
    if !text.starts_with('{') {
        return None;
    }
    let record: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(record.get("id")?.as_str()?.to_owned())
}

fn solved(puzzle: &Puzzle, line: usize, options: &SolveOptions) -> LineAnswer {
    let mut answer = solve_puzzle(puzzle, None, line, options);
    if let Some(expected) = puzzle.solution() {
        compare(&mut answer, expected, || fits(puzzle, expected));
    }
    answer
}
