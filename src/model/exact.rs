//! The exact check of a grid against a puzzle, in integer arithmetic.
//!
//! It lives with the puzzle because it reads only the puzzle: its size, its givens, and each rule's own
//! `check`. Search and the backends use it to accept a grid; the final gate before anything is shown is
//! `verify`, which calls it again on every answer.

use crate::error::Violation;
use crate::grid::Grid;
use crate::model::Puzzle;

/// How many violations are reported at most.
const MAX_REPORTED: usize = 10;

impl Puzzle {
    /// Checks a complete grid exactly: values in range, givens kept, and every rule's own integer check (never the
    /// rows the rule compiled to, so a grid that satisfied them only through floating-point tolerance is caught).
    /// `Err` lists the first few violations.
    pub fn check_grid(&self, grid: &Grid) -> Result<(), Vec<Violation>> {
        let puzzle = self;
        let n = puzzle.size();
        if grid.size() != n {
            return Err(vec![Violation::WrongSize {
                grid: grid.size(),
                puzzle: n,
            }]);
        }
        let mut problems: Vec<Violation> = grid
            .cells()
            .map(|cell| (cell, grid.get(cell)))
            .filter(|&(_, v)| v == 0 || v as usize > n)
            .map(|(cell, value)| Violation::OutOfRange {
                cell,
                value,
                size: n,
            })
            .collect();
        problems.extend(
            puzzle
                .givens()
                .filled()
                .filter(|&(cell, given)| grid.get(cell) != given)
                .map(|(cell, given)| Violation::GivenChanged {
                    cell,
                    given,
                    value: grid.get(cell),
                }),
        );
        if problems.is_empty() {
            problems.extend(puzzle.rules().iter().filter_map(|r| r.check(grid).err()));
        }
        problems.truncate(MAX_REPORTED);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}
