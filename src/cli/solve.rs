//! `latin solve FILE`: the solution(s) as a picture, plain digits, JSON or SVG; optionally the program as LP.

use std::path::Path;

use super::{exit_for, print, Exit, SolveFormat};
use crate::compile::compile;
use crate::error::Error;
use crate::model::load::Reader;
use crate::report;
use crate::report::outcome::GridForm;
use crate::report::picture::{svg, text::TextStyle, Values};
use crate::solve::SolveOptions;

/// What the solve writes, and where the program goes.
pub(crate) struct Output<'a> {
    pub(crate) format: SolveFormat,
    pub(crate) style: TextStyle,
    pub(crate) write_lp: Option<&'a Path>,
}

pub(crate) fn run(
    file: &Path,
    output: &Output,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    if let Some(lp) = output.write_lp {
        std::fs::write(lp, compile(&puzzle, None).to_lp()).map_err(|e| Error::io(lp, &e))?;
    }
    let outcome = crate::solve(&puzzle, options)?;
    let max = options.max_solutions;
    let text = match output.format {
        SolveFormat::Json => report::json::render(&puzzle, &outcome) + "\n",
        SolveFormat::Text => {
            report::outcome::solutions(&puzzle, &outcome, max, GridForm::Picture(output.style))
        }
        SolveFormat::Grid => report::outcome::solutions(&puzzle, &outcome, max, GridForm::Plain),
        SolveFormat::Svg => match outcome.solutions.first() {
            Some(solution) => {
                let values = Values {
                    givens: puzzle.givens(),
                    solution: Some(solution),
                };
                svg::render(puzzle.figure(), &values)
            }
            None => {
                let plain = GridForm::Plain;
                eprint!(
                    "{}",
                    report::outcome::solutions(&puzzle, &outcome, max, plain)
                );
                String::new()
            }
        },
    };
    print(&text)?;
    Ok(Exit(exit_for(outcome.status)))
}
