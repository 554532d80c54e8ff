//! A grid filled part way, judged without giving the answer away. When the puzzle has one solution, the wrong
//! cells are exactly those that differ from it, each with the rule it breaks against the givens and the right
//! cells where it breaks one: a right cell that a wrong one repeats is not blamed, whichever comes first. With
//! several solutions (or none, or no time to tell), each filled cell that breaks a rule with the givens and the
//! cells filled before it. The solution itself is never part of the answer.

use std::time::Instant;

use super::before;
use crate::error::{Error, ModelError};
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::solve::SolveOptions;

/// What is wrong with one filled cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// It breaks a rule given the givens and the cells filled before it (reading order); the message says which.
    Breaks(String),
    /// The puzzle has one solution, and it holds another value here.
    NotTheSolution,
}

/// The verdict on a grid filled part way.
#[derive(Clone, Debug)]
pub struct Progress {
    pub filled: usize,
    pub open: usize,
    /// Filled cells that are wrong, in reading order.
    pub faults: Vec<(Cell, u32, Fault)>,
    /// How the rest was judged: the puzzle's own solution count and whether the filled cells can be completed.
    pub judged: Judged,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Against the puzzle's one solution.
    Unique,
    /// The puzzle has several solutions; the filled cells (those breaking no rule) extend to one of them.
    Completes,
    /// The puzzle has several solutions and none agrees with all the filled cells.
    NoCompletion,
    /// The puzzle itself has no solution.
    NoSolution,
    /// The time limit came first.
    Unknown,
}

impl Progress {
    pub fn is_fine(&self) -> bool {
        self.faults.is_empty() && matches!(self.judged, Judged::Unique | Judged::Completes)
    }
}

/// Judges `progress` (0 = empty) on `puzzle`.
pub fn judge(puzzle: &Puzzle, progress: &Grid, options: &SolveOptions) -> Result<Progress, Error> {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let mut faults = Vec::new();
    let mut with_progress = puzzle.clone();
    let givens = puzzle.givens();
    let mut filled = 0;
    for cell in progress.cells() {
        let value = progress.get(cell);
        if value == 0 {
            continue;
        }
        filled += 1;
        match givens.get(cell) {
            0 => {}
            g if g == value => continue,
            g => {
                faults.push((
                    cell,
                    value,
                    Fault::Breaks(format!("the puzzle gives {g} here")),
                ));
                continue;
            }
        }
        if let Err(e) = with_progress.give(cell, value) {
            faults.push((cell, value, broken(e)));
        }
    }
    let open = progress
        .cells()
        .filter(|&c| progress.get(c) == 0 && givens.get(c) == 0)
        .count();
    let mut judged = Judged::Unknown;
    if let Some(two) = before(options, deadline, 2) {
        let outcome = crate::solve(puzzle, &two)?;
        judged = match (outcome.solutions.as_slice(), outcome.complete) {
            ([only], true) => {
                faults = against(puzzle, progress, only)?;
                Judged::Unique
            }
            ([], true) => Judged::NoSolution,
            ([_, _, ..], _) => match before(options, deadline, 1) {
                Some(one) => {
                    let completed = crate::solve(&with_progress, &one)?;
                    match (completed.solutions.is_empty(), completed.complete) {
                        (false, _) => Judged::Completes,
                        (true, true) => Judged::NoCompletion,
                        (true, false) => Judged::Unknown,
                    }
                }
                None => Judged::Unknown,
            },
            _ => Judged::Unknown,
        };
    }
    Ok(Progress {
        filled,
        open,
        faults,
        judged,
    })
}

/// The filled cells that differ from the puzzle's one solution `only`, in reading order: each with the rule it
/// breaks given the givens and the filled cells that are right, or else as not the solution's value.
fn against(
    puzzle: &Puzzle,
    progress: &Grid,
    only: &Grid,
) -> Result<Vec<(Cell, u32, Fault)>, Error> {
    let givens = puzzle.givens();
    let mut right = puzzle.clone();
    for cell in progress.cells() {
        let value = progress.get(cell);
        if value != 0 && givens.get(cell) == 0 && value == only.get(cell) {
            right.give(cell, value)?;
        }
    }
    let mut faults = Vec::new();
    for cell in progress.cells() {
        let value = progress.get(cell);
        if value == 0 || value == only.get(cell) {
            continue;
        }
        let fault = match givens.get(cell) {
            0 => match right.clone().give(cell, value) {
                Ok(_) => Fault::NotTheSolution,
                Err(e) => broken(e),
            },
            g => Fault::Breaks(format!("the puzzle gives {g} here")),
        };
        faults.push((cell, value, fault));
    }
    Ok(faults)
}

/// The rule a filled cell breaks, said as the rule says it (not as a puzzle that is invalid as built).
fn broken(e: Error) -> Fault {
    Fault::Breaks(match e {
        Error::Model(ModelError::Breaks(v)) => v.to_string(),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::engine::tests::puzzle_text as load;

    #[test]
    fn wrong_cells_are_named_and_right_ones_pass() {
        // A unique 4x4 Sudoku (solution 1234/3412/2143/4321).
        let base = "type: sudoku\nsize: 4\ngivens: |\n  1 2 3 4\n  . . . .\n  2 1 . 3\n  . 3 . 1\n";
        let full = crate::solve(&load(base), &SolveOptions::default())
            .unwrap()
            .solutions[0]
            .clone();
        let mut progress = Grid::empty(4);
        progress.set(Cell::new(1, 0), full.get(Cell::new(1, 0)));
        let fine = judge(&load(base), &progress, &SolveOptions::default()).unwrap();
        assert_eq!(fine.judged, Judged::Unique);
        assert!(fine.is_fine(), "{fine:?}");
        // A value repeated in its row breaks a rule; a legal but wrong value differs from the solution.
        let wrong = full.get(Cell::new(1, 1)) % 4 + 1;
        progress.set(Cell::new(1, 1), wrong);
        progress.set(Cell::new(1, 2), full.get(Cell::new(1, 0)));
        let bad = judge(&load(base), &progress, &SolveOptions::default()).unwrap();
        assert!(!bad.is_fine());
        assert!(
            bad.faults
                .iter()
                .any(|(c, _, f)| *c == Cell::new(1, 2) && matches!(f, Fault::Breaks(_))),
            "{bad:?}"
        );
        assert!(
            bad.faults.iter().any(|(c, _, _)| *c == Cell::new(1, 1)),
            "{bad:?}"
        );
        assert!(bad.faults.iter().all(|(c, _, _)| *c != Cell::new(1, 0)));
        // A wrong cell first in reading order, repeated by a right one after it: the wrong one is blamed, with
        // the row it breaks, and the right one is not (reading order alone would blame the second).
        let mut progress = Grid::empty(4);
        let later = Cell::new(1, 3);
        progress.set(later, full.get(later));
        progress.set(Cell::new(1, 0), full.get(later));
        let verdict = judge(&load(base), &progress, &SolveOptions::default()).unwrap();
        assert_eq!(verdict.judged, Judged::Unique);
        let repeats = format!("row 2 repeats {}", full.get(later));
        match verdict.faults.as_slice() {
            [(cell, _, Fault::Breaks(why))] => {
                assert_eq!(*cell, Cell::new(1, 0));
                assert!(why.starts_with(&repeats), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn several_solutions_judge_whether_the_cells_complete() {
        let open = load("type: latin\nsize: 3\n");
        let mut progress = Grid::empty(3);
        progress.set(Cell::new(0, 0), 1);
        assert_eq!(
            judge(&open, &progress, &SolveOptions::default())
                .unwrap()
                .judged,
            Judged::Completes
        );
        // 1 . . / . 1 . / . . 2: legal cell by cell, but row 3 has its 1 nowhere left to go.
        progress.set(Cell::new(1, 1), 1);
        progress.set(Cell::new(2, 2), 2);
        let verdict = judge(&open, &progress, &SolveOptions::default()).unwrap();
        assert_eq!(verdict.judged, Judged::NoCompletion, "{verdict:?}");
        assert!(verdict.faults.is_empty() && !verdict.is_fine());
    }
}
