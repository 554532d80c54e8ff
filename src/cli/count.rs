//! `latin count FILE...`: how many solutions, up to `--max`.

use std::path::Path;

use super::{exit_for, print, Exit, Format};
use crate::error::Error;
use crate::model::Puzzle;
use crate::report;
use crate::solve::{SolveOptions, Status};

pub(crate) fn run(
    file: &Path,
    puzzle: &Puzzle,
    format: Format,
    options: &SolveOptions,
    several: bool,
) -> Result<Exit, Error> {
    let outcome = crate::solve(puzzle, options)?;
    let name = several.then(|| file.display().to_string());
    print(&match format {
        Format::Text => report::outcome::count(&outcome, options.max_solutions),
        Format::Json => report::json::count(puzzle, &outcome, name.as_deref()) + "\n",
    })?;
    // A count the time limit cut short has no answer to "how many, up to --max?", as `rate` and `check` say.
    let code = if outcome.count_cut_short(options.max_solutions) {
        exit_for(Status::Timeout)
    } else {
        exit_for(outcome.status)
    };
    Ok(Exit(code))
}
