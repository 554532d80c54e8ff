//! The last stage before an answer is shown: every solution of an outcome is checked again, exactly, against
//! the puzzle ([`Puzzle::check_grid`]), independently of the stage that found it.
//!
//! Solving already rejects every grid that fails the exact check, so a failure here is a bug in a stage, and it
//! is reported as a solver failure rather than shown as an answer.

use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::Outcome;

/// Passes the outcome on when every solution in it checks exactly.
pub(crate) fn outcome(puzzle: &Puzzle, outcome: Outcome) -> Result<Outcome, Error> {
    for grid in &outcome.solutions {
        if let Err(problems) = puzzle.check_grid(grid) {
            let first = problems
                .first()
                .map(ToString::to_string)
                .unwrap_or_default();
            return Err(Error::Solver(format!(
                "an answer failed exact verification ({first}); it is not shown"
            )));
        }
    }
    Ok(outcome)
}
