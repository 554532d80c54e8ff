//! `latin solve FILE`: the solution(s) as text or JSON, optionally the compiled program as LP.

use std::path::Path;

use super::{exit_for, print, Exit, Format};
use crate::compile::compile;
use crate::error::Error;
use crate::model::load::Reader;
use crate::report;
use crate::solve::SolveOptions;

pub(crate) fn run(
    file: &Path,
    format: Format,
    write_lp: Option<&Path>,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    if let Some(lp) = write_lp {
        std::fs::write(lp, compile(&puzzle, None).to_lp()).map_err(|e| Error::io(lp, &e))?;
    }
    let outcome = crate::solve(&puzzle, options)?;
    let text = match format {
        Format::Json => report::json::render(&puzzle, &outcome) + "\n",
        Format::Text => report::outcome::solutions(&puzzle, &outcome, options.max_solutions),
    };
    print(&text)?;
    Ok(Exit(exit_for(outcome.status)))
}
