//! `latin show FILE...`: the puzzle as a picture in text, with its answer under `--solution`.

use super::{exit_for, print, Exit};
use crate::error::Error;
use crate::model::Puzzle;
use crate::report;
use crate::report::outcome::GridForm;
use crate::report::picture::text::{self, TextStyle};
use crate::report::picture::Values;
use crate::solve::SolveOptions;

/// `solve`: the options to solve with, when the answer is wanted.
pub(crate) fn run(
    puzzle: &Puzzle,
    solve: Option<&SolveOptions>,
    style: TextStyle,
) -> Result<Exit, Error> {
    let Some(options) = solve else {
        let values = Values {
            givens: puzzle.givens(),
            solution: None,
        };
        print(&text::render(puzzle.figure(), &values, style))?;
        return Ok(Exit(0));
    };
    let outcome = crate::solve(puzzle, options)?;
    let form = GridForm::Picture(style);
    print(&report::outcome::solutions(puzzle, &outcome, 1, form))?;
    Ok(Exit(exit_for(outcome.status)))
}
