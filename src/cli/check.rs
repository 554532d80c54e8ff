//! `latin check FILE`: valid, exactly one solution, and equal to its `solution:` when it has one.

use std::path::Path;

use super::{print, Exit};
use crate::error::Error;
use crate::grammar::Registry;
use crate::model;
use crate::report::outcome::Verdict;
use crate::solve::SolveOptions;

/// `options` ask for two solutions: the uniqueness question.
pub(crate) fn run(file: &Path, options: &SolveOptions, registry: &Registry) -> Result<Exit, Error> {
    let puzzle = model::load(file, registry)?;
    let outcome = crate::solve(&puzzle, options)?;
    let verdict = Verdict::of(&puzzle, &outcome);
    print(&verdict.render(&file.display().to_string(), &puzzle))?;
    Ok(Exit(verdict.exit_code()))
}
