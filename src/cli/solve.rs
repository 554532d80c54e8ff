//! `latin solve FILE`: the solution(s) as a picture, plain digits, JSON or SVG; optionally the program as LP or
//! MPS, to a file beside the solve or, with `-`, to stdout instead of it.

use std::path::Path;

use super::{exit_for, print, Exit, SolveFormat};
use crate::compile::compile;
use crate::error::Error;
use crate::model::load::Reader;
use crate::program::BinaryProgram;
use crate::report;
use crate::report::outcome::GridForm;
use crate::report::picture::{svg, text::TextStyle, Values};
use crate::solve::SolveOptions;

/// What the solve writes, and where the program goes.
pub(crate) struct Output<'a> {
    pub(crate) format: SolveFormat,
    pub(crate) style: TextStyle,
    pub(crate) write_lp: Option<&'a Path>,
    pub(crate) write_mps: Option<&'a Path>,
}

pub(crate) fn run(
    file: &Path,
    output: &Output,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    let writes = [
        (
            output.write_lp,
            BinaryProgram::to_lp as fn(&BinaryProgram) -> String,
        ),
        (output.write_mps, BinaryProgram::to_mps),
    ];
    let stdout = |path: Option<&Path>| path == Some(Path::new("-"));
    let to_stdout = stdout(output.write_lp) || stdout(output.write_mps);
    if stdout(output.write_lp) && stdout(output.write_mps) {
        return Err(Error::section(
            "--write-mps",
            "only one of --write-lp and --write-mps can go to stdout",
        ));
    }
    for (path, write) in writes {
        let Some(path) = path else { continue };
        let text = write(&compile(&puzzle, None));
        if stdout(Some(path)) {
            print(&text)?;
        } else {
            std::fs::write(path, text).map_err(|e| Error::io(path, &e))?;
        }
    }
    if to_stdout {
        // The program is the output: a solve's answer on the same stream would spoil it for the reader.
        return Ok(Exit(0));
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
