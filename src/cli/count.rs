//! `latin count FILE`: how many solutions, up to `--max`.

use std::path::Path;

use super::{exit_for, print, Exit};
use crate::error::Error;
use crate::grammar::Registry;
use crate::model;
use crate::report;
use crate::solve::SolveOptions;

pub(crate) fn run(file: &Path, options: &SolveOptions, registry: &Registry) -> Result<Exit, Error> {
    let puzzle = model::load(file, registry)?;
    let outcome = crate::solve(&puzzle, options)?;
    print(&report::outcome::count(&outcome, options.max_solutions))?;
    Ok(Exit(exit_for(outcome.status)))
}
