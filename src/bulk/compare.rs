//! A line's own solution (a table's solution column, a record's `solution`) judged against latin's answer, so
//! that a dataset's errors are found, and so are latin's.

use super::solution_line;
use crate::grid::Grid;
use crate::model::Puzzle;
use crate::report::lines::{LineAnswer, LineStatus};

/// Whether the line's own solution is the answer: equal to the unique solution, or one of several that `fits`
/// (every rule and given, checked exactly). Where it is not, the message says what is wrong with it.
pub(super) fn compare(
    answer: &mut LineAnswer,
    expected: &Grid,
    fits: impl FnOnce() -> Result<(), String>,
) {
    let wrong = |why: String| format!("the file's solution is wrong: {why}");
    // The file's solution fits where latin proved another unique, or found none: a solver bug, said as such.
    let bug = |what: &str| {
        format!("the file's solution fits every rule, though latin {what}: please report this")
    };
    let verdict = match answer.status {
        LineStatus::Solved if answer.solution == Some(solution_line(expected)) => Ok(()),
        LineStatus::Solved => Err(fits().map_or_else(wrong, |()| bug("proved its own unique"))),
        LineStatus::Multiple => fits().map_err(wrong),
        LineStatus::Infeasible => Err(fits().map_or_else(wrong, |()| bug("found no solution"))),
        LineStatus::Timeout | LineStatus::Invalid => return,
    };
    answer.matches_solution = Some(verdict.is_ok());
    if let Err(why) = verdict {
        // After the line's own reason (why it has no solution), not in its place.
        answer.message = Some(match answer.message.take() {
            Some(reason) => format!("{reason}; {why}"),
            None => why,
        });
    }
}

/// What a line says of how many solutions its puzzle has: a record's `count`, or `feasible` (one or more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Said {
    Count(u64),
    Feasible,
}

/// Whether the answer is what the line says of the number of solutions: none, exactly one, or several (the
/// answer counts up to two). Answers are checked exactly, so a solution latin found against "none" says the
/// file is wrong; a count latin did not reach (none found, or one proved unique, where the file says more) may
/// be latin's error, and says so.
pub(super) fn compare_count(answer: &mut LineAnswer, said: Said) {
    let what = match said {
        Said::Count(0) => "no solution".to_owned(),
        Said::Count(1) => "one solution".to_owned(),
        Said::Count(k) => format!("{k} solutions"),
        Said::Feasible => "a solution".to_owned(),
    };
    let found = match answer.status {
        LineStatus::Timeout | LineStatus::Invalid => return,
        LineStatus::Infeasible => 0,
        LineStatus::Solved => 1,
        LineStatus::Multiple => 2,
    };
    let agrees = match said {
        Said::Count(k) => k.min(2) == found,
        Said::Feasible => found > 0,
    };
    if agrees {
        answer.matches_solution.get_or_insert(true);
        return;
    }
    let why = match found {
        0 => format!("the file says it has {what}, and latin found none: please report this"),
        1 if matches!(said, Said::Count(k) if k > 1) => {
            format!("the file says it has {what}, and latin proved one unique: please report this")
        }
        1 => format!("the file says it has {what}, and latin's answer keeps every rule (checked exactly)"),
        _ => format!("the file says it has {what}, and latin found two, each keeping every rule (checked exactly)"),
    };
    answer.matches_solution = Some(false);
    answer.message = Some(match answer.message.take() {
        Some(before) => format!("{before}; {why}"),
        None => why,
    });
}

/// Whether a grid keeps every rule and given of the puzzle; the first it breaks, in words, where not.
pub(super) fn fits(puzzle: &Puzzle, grid: &Grid) -> Result<(), String> {
    puzzle.check_grid(grid).map_err(|problems| {
        problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default()
    })
}
