//! `latin check FILE`: valid, exactly one solution, and equal to its `solution:` when it has one.

use std::path::Path;

use super::{print, Exit};
use crate::error::Error;
use crate::model::load::Reader;
use crate::report::outcome::Verdict;
use crate::solve::SolveOptions;

/// `options` ask for two solutions: the uniqueness question.
pub(crate) fn run(file: &Path, options: &SolveOptions, reader: &Reader) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    let outcome = crate::solve(&puzzle, options)?;
    let verdict = Verdict::of(&puzzle, &outcome);
    print(&verdict.render(&file.display().to_string(), &puzzle))?;
    Ok(Exit(verdict.exit_code()))
}
