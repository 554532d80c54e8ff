//! `latin check FILE`: valid, exactly one solution, and equal to its `solution:` when it has one.

use std::path::Path;

use super::{print, Exit, Format};
use crate::error::Error;
use crate::model::load::Reader;
use crate::report;
use crate::report::outcome::{GridForm, Verdict};
use crate::report::picture::text::TextStyle;
use crate::solve::SolveOptions;

/// `options` ask for two solutions: the uniqueness question.
pub(crate) fn run(
    file: &Path,
    format: Format,
    style: TextStyle,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    let outcome = crate::solve(&puzzle, options)?;
    let verdict = Verdict::of(&puzzle, &outcome);
    let name = file.display().to_string();
    print(&match format {
        Format::Text => verdict.render(&name, &puzzle, GridForm::Picture(style)),
        Format::Json => report::json::check(&name, verdict, &outcome) + "\n",
    })?;
    Ok(Exit(verdict.exit_code()))
}
