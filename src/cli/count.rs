//! `latin count FILE`: how many solutions, up to `--max`.

use std::path::Path;

use super::{exit_for, print, Exit};
use crate::error::Error;
use crate::model::load::Reader;
use crate::report;
use crate::solve::SolveOptions;

pub(crate) fn run(file: &Path, options: &SolveOptions, reader: &Reader) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    let outcome = crate::solve(&puzzle, options)?;
    print(&report::outcome::count(&outcome, options.max_solutions))?;
    Ok(Exit(exit_for(outcome.status)))
}
