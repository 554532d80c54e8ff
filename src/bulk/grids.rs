//! Lines of givens: each line a grid of the template puzzle (the type, box shape and rules given once), row by
//! row in the no-space form (`.` or `0` empty, `1`-`9`, then `A`-`Z` or `a`-`z` for 10..35, and `0` the value
//! n on a line of 10x10 or more that also has `.`, as hex Sudokus are written), its length fixing the size
//! (81 -> 9x9, 256 -> 16x16); in a table, the puzzle field of a row, with the row's solution field compared.

use std::borrow::Cow;
use std::time::Instant;

use super::compare::{compare, fits};
use super::{answer, invalid, solve_puzzle};
use crate::error::Error;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::parse::grid::{line_values, side_of};
use crate::parse::table::Columns;
use crate::report::lines::{LineAnswer, LineStatus};
use crate::solve::{Engines, SolveOptions};

/// Reads one line into givens for a size-n grid; `Err` says which column is wrong.
pub(crate) fn parse_line(text: &str, n: usize) -> Result<Grid, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != n * n {
        return Err(format!(
            "{} characters, expected {} for a {n}x{n} grid",
            chars.len(),
            n * n
        ));
    }
    let values = line_values(&chars, n)
        .map_err(|(i, ch)| format!("column {}: {ch:?} is not a value 1..{n}", i + 1))?;
    let mut grid = Grid::empty(n);
    for (i, v) in values.into_iter().enumerate() {
        grid.set(Cell::new(i / n, i % n), v);
    }
    Ok(grid)
}

/// The size a line's length implies (its square root), if it is a square.
pub(crate) fn size_of_line(text: &str) -> Option<usize> {
    side_of(text.trim().chars().count()).filter(|&n| n > 0)
}

/// Solves one line against the template puzzle, through `engines` built for the template's rules; in a table,
/// the line's puzzle field, and its answer compared with the line's solution field where there is one.
pub(super) fn solve_line(
    template: &Puzzle,
    engines: &Engines,
    line: usize,
    text: &str,
    columns: Option<&Columns>,
    options: &SolveOptions,
) -> LineAnswer {
    let start = Instant::now();
    let (puzzle_text, expected) = match read_row(text, columns, template.size()) {
        Ok(row) => row,
        Err(m) => return invalid(line, m),
    };
    let mut answer = match with_givens(template, &puzzle_text) {
        Ok(puzzle) => {
            let mut answer = solve_puzzle(&puzzle, Some(engines), line, options);
            if let Some(expected) = &expected {
                compare(&mut answer, expected, || fits(&puzzle, expected));
            }
            answer
        }
        Err((status, why)) => {
            let mut answer = answer(line, status, None, Some(why.clone()));
            if let Some(expected) = &expected {
                // No grid fits givens that break a rule, the file's solution included.
                compare(&mut answer, expected, || Err(why));
            }
            answer
        }
    };
    answer.ms = start.elapsed().as_secs_f64() * 1000.0;
    answer
}

/// A line's puzzle text and, in a table with a solution column the line fills, that solution as a grid.
/// (A plain line is its own puzzle text, borrowed: no copy per line of a large file.)
fn read_row<'t>(
    text: &'t str,
    columns: Option<&Columns>,
    n: usize,
) -> Result<(Cow<'t, str>, Option<Grid>), String> {
    let Some(columns) = columns else {
        return Ok((Cow::Borrowed(text), None));
    };
    let row = columns.row(text)?;
    let expected = match &row.solution {
        None => None,
        Some(s) => {
            let grid = parse_line(s, n).map_err(|m| format!("the solution field: {m}"))?;
            if let Some(cell) = grid.cells().find(|&c| grid.get(c) == 0) {
                return Err(format!(
                    "the solution field is not a full grid ({cell} is empty)"
                ));
            }
            Some(grid)
        }
    };
    Ok((Cow::Owned(row.puzzle), expected))
}

/// The template with a line's givens; or the line's status and why: invalid for a line that is no grid of the
/// template's size, infeasible for givens that break a rule (as the model words it).
fn with_givens(template: &Puzzle, text: &str) -> Result<Puzzle, (LineStatus, String)> {
    let givens = parse_line(text, template.size()).map_err(|m| (LineStatus::Invalid, m))?;
    let mut puzzle = template.clone();
    puzzle.give_all(&givens).map_err(|e| {
        let why = match e {
            Error::Model(m) => m.to_string(),
            e => e.to_string(),
        };
        (LineStatus::Infeasible, why)
    })?;
    Ok(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn lines_read_with_their_size() {
        assert_eq!(size_of_line(EASY), Some(9));
        assert_eq!(size_of_line("1234"), Some(2));
        assert_eq!(size_of_line("123"), None);
        let g = parse_line(EASY, 9).unwrap();
        assert_eq!(g.get(Cell::new(0, 0)), 5);
        assert_eq!(g.get(Cell::new(0, 2)), 0);
        let e = parse_line(&EASY.replace('7', "x"), 9).unwrap_err();
        assert!(e.starts_with("column 5:"), "{e}");
        assert!(parse_line("A.......", 3).is_err());
    }
}
