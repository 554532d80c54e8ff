//! The last stage before an answer is shown: every solution of an outcome is checked again, exactly, against
//! the puzzle ([`Puzzle::check_grid`]), independently of the stage that found it.
//!
//! Solving already rejects every grid that fails the exact check, so a failure here is a bug in a stage, and it
//! is reported as a solver failure rather than shown as an answer.
//!
//! A count can list millions of grids, and checking them all takes time of its own (0.8 s for the million an
//! empty 9x9 lists in 2 s), so the check keeps to the run's time limit: past it, the grids checked so far are
//! the outcome and it is no longer complete. The first 256 are always checked, so an answer found in time is
//! never dropped. (Search stops that much sooner, so that this seldom happens: see `SearchOutcome::checking`.)

use std::time::Instant;

use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::Outcome;

/// Passes the outcome on when every solution in it checks exactly; past `deadline`, the solutions checked so
/// far (at least one), no longer complete.
pub(crate) fn outcome(
    puzzle: &Puzzle,
    mut outcome: Outcome,
    deadline: Option<Instant>,
) -> Result<Outcome, Error> {
    for (k, grid) in outcome.solutions.iter().enumerate() {
        // The clock every 256 grids: a check is about a microsecond on a 9x9.
        if k > 0 && k % 256 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            outcome.solutions.truncate(k);
            outcome.complete = false;
            break;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;
    use crate::solve::SolveOptions;

    fn squares() -> (Puzzle, Outcome) {
        let puzzle =
            crate::model::load_str("type: latin\nsize: 4\n", &Registry::built_in()).unwrap();
        let options = SolveOptions {
            max_solutions: 1000,
            ..SolveOptions::default()
        };
        let found = crate::solve::run(&puzzle, &options).unwrap();
        (puzzle, found)
    }

    #[test]
    fn every_grid_is_checked_with_time_left() {
        let (puzzle, found) = squares();
        // The 576 Latin squares of order 4, all found and the list complete.
        assert_eq!((found.solutions.len(), found.complete), (576, true));
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        let checked = outcome(&puzzle, found.clone(), Some(later)).unwrap();
        assert_eq!((checked.solutions.len(), checked.complete), (576, true));
        let checked = outcome(&puzzle, found, None).unwrap();
        assert_eq!(checked.solutions.len(), 576);
    }

    #[test]
    fn past_the_deadline_the_grids_checked_so_far_are_the_outcome() {
        let (puzzle, found) = squares();
        let first = found.solutions[..256].to_vec();
        let checked = outcome(&puzzle, found, Some(Instant::now())).unwrap();
        assert_eq!(checked.solutions, first);
        assert!(!checked.complete);
    }

    #[test]
    fn a_grid_that_fails_the_check_is_an_error_not_an_answer() {
        let (puzzle, mut found) = squares();
        let mut wrong = found.solutions[0].clone();
        let cell = crate::grid::Cell::new(0, 0);
        wrong.set(cell, wrong.get(crate::grid::Cell::new(0, 1)));
        found.solutions.insert(1, wrong);
        assert!(outcome(&puzzle, found, None).is_err());
    }
}
