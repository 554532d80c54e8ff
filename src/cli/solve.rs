//! `latin solve FILE...`: the solution(s) as a picture, plain digits, JSON or SVG, for each file in turn;
//! optionally one file's program as LP or MPS, to a file beside the solve or, with `-`, to stdout instead of it.
//! With `--lines` the command hands a file of one-line puzzles to [`super::lines`].

use std::path::{Path, PathBuf};

use super::{
    exit_for, key_value, lines, print, seconds, Exit, Format, SolveFormat, Stages, TextLook,
};
use crate::compile::compile;
use crate::error::Error;
use crate::model::load::Reader;
use crate::model::Puzzle;
use crate::program::BinaryProgram;
use crate::report;
use crate::report::outcome::GridForm;
use crate::report::picture::{svg, text::TextStyle, Values};
use crate::solve::{Cbc, SolveOptions};

/// `latin solve`'s arguments.
#[derive(clap::Args)]
pub(crate) struct SolveRun {
    /// Puzzle files; several are solved in turn, each answer under its file's name (`==> FILE <==`, or `"file"`
    /// in JSON), and the exit code is the largest of theirs
    #[arg(required_unless_present = "lines")]
    pub(crate) file: Vec<PathBuf>,
    /// Solve a file of one puzzle a line (`-` for stdin): 81 characters for 9x9, `.` or `0` empty, `1`-`9`
    /// then `A`-`Z` (or `a`-`z`; `0` is 16 on a 16x16 line that has `.` for empty), or a table of them; or
    /// whole puzzles that name their type (Tatham IDs, puzz.link or f-puzzles links, corpus records); writes one
    /// answer a line and a summary on stderr
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "write_lp", "write_mps", "max"])]
    pub(crate) lines: Option<PathBuf>,
    /// The puzzle type of every line (with --lines; default sudoku)
    #[arg(long = "type", value_name = "TYPE")]
    pub(crate) kind: Option<String>,
    /// Box shape of every line, e.g. 3x3 (with --lines; default: the square root of the size)
    #[arg(long = "box", value_name = "HxW")]
    pub(crate) boxes: Option<String>,
    /// Extra rules for every line, e.g. diagonals,anti-knight (with --lines)
    #[arg(long, value_name = "RULE,...", value_delimiter = ',')]
    pub(crate) rules: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: SolveFormat,
    #[command(flatten)]
    pub(crate) look: TextLook,
    /// List up to N solutions (no-good cuts)
    #[arg(long, default_value_t = 1)]
    pub(crate) max: usize,
    /// Give up after this many seconds (with --lines: for the whole run)
    #[arg(long, value_name = "SECS")]
    pub(crate) time_limit: Option<f64>,
    /// With --lines: give up on one line after this many seconds
    #[arg(long, value_name = "SECS")]
    pub(crate) line_time_limit: Option<f64>,
    /// Write the whole binary program (the pure path's) in CPLEX LP format to FILE; with `-`, write it to
    /// stdout and solve nothing
    #[arg(long, value_name = "FILE")]
    pub(crate) write_lp: Option<PathBuf>,
    /// Write the whole binary program in free MPS format to FILE; with `-`, to stdout and solve nothing
    #[arg(long, value_name = "FILE")]
    pub(crate) write_mps: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) stages: Stages,
    /// Keep CBC's default cuts, heuristics and strong branching (for measurements)
    #[arg(long, hide = true)]
    pub(crate) cbc_defaults: bool,
    /// Set a CBC parameter, over latin's own choices (repeatable): `--cbc cuts=on --cbc heur=on`
    #[arg(long, value_name = "KEY=VALUE", value_parser = key_value)]
    pub(crate) cbc: Vec<(String, String)>,
}

/// `latin solve` with `options` built from its flags: a puzzle file, or with `--lines` a file of one-line puzzles.
pub(crate) fn dispatch(
    run: SolveRun,
    options: SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let options = SolveOptions {
        cbc: Cbc {
            defaults: run.cbc_defaults,
            params: run.cbc.clone(),
        },
        ..options
    };
    match (&run.lines, run.file.as_slice()) {
        (Some(path), _) => solve_lines(path, &run, &options, reader),
        (None, []) => Err(Error::section("solve", "give a puzzle FILE or --lines")),
        (None, files) => {
            // A puzzle file says its own type, box and rules: these flags would do nothing.
            let unused = [
                ("--line-time-limit", run.line_time_limit.is_some()),
                ("--type", run.kind.is_some()),
                ("--box", run.boxes.is_some()),
                ("--rules", !run.rules.is_empty()),
            ];
            if let Some((flag, _)) = unused.iter().find(|(_, given)| *given) {
                return Err(Error::section(
                    *flag,
                    "goes with --lines; a puzzle file names its own type, box and rules",
                ));
            }
            let output = Output {
                format: run.format,
                style: run.look.style(),
                write_lp: run.write_lp.as_deref(),
                write_mps: run.write_mps.as_deref(),
            };
            match files {
                [file] => self::run(file, &reader.load(file)?, &output, &options, false),
                _ => run_each(files, &output, &options, reader),
            }
        }
    }
}

/// Several puzzle files, one after the other, each with its own time limit: an error in one is said and the
/// others go on. The exit code is the largest of theirs.
fn run_each(
    files: &[PathBuf],
    output: &Output,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let one = |flag: &str, what: &str| Error::section(flag, format!("{what}: give one FILE"));
    if output.write_lp.is_some() {
        return Err(one("--write-lp", "writes one program"));
    }
    if output.write_mps.is_some() {
        return Err(one("--write-mps", "writes one program"));
    }
    if output.format == SolveFormat::Svg {
        return Err(one("--format", "an SVG draws one puzzle"));
    }
    let json = output.format == SolveFormat::Json;
    super::headed(files, json, reader, |file, puzzle| {
        self::run(file, &puzzle, output, options, true)
    })
}

/// `latin solve --lines PATH`: every line of the file solved as the template its flags describe.
fn solve_lines(
    path: &Path,
    run: &SolveRun,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let spec = lines::LinesSpec {
        kind: run.kind.clone(),
        boxes: run.boxes.clone(),
        rules: run.rules.clone(),
    };
    let line_limit = seconds("--line-time-limit", run.line_time_limit)?;
    let format = match run.format {
        SolveFormat::Text => Format::Text,
        SolveFormat::Json => Format::Json,
        _ => {
            return Err(Error::section(
                "--format",
                "--lines writes text or json (one answer a line)",
            ))
        }
    };
    lines::run(path, &spec, format, options, line_limit, reader)
}

/// What the solve writes, and where the program goes.
pub(crate) struct Output<'a> {
    pub(crate) format: SolveFormat,
    pub(crate) style: TextStyle,
    pub(crate) write_lp: Option<&'a Path>,
    pub(crate) write_mps: Option<&'a Path>,
}

/// One puzzle file solved and its answer written; `named`: the JSON names the file (one of several).
pub(crate) fn run(
    file: &Path,
    puzzle: &Puzzle,
    output: &Output,
    options: &SolveOptions,
    named: bool,
) -> Result<Exit, Error> {
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
        let text = write(&compile(puzzle, None));
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
    let outcome = crate::solve(puzzle, options)?;
    let max = options.max_solutions;
    let text = match output.format {
        SolveFormat::Json => {
            let name = file.to_string_lossy();
            report::json::render(puzzle, &outcome, named.then_some(&*name)) + "\n"
        }
        SolveFormat::Text => {
            report::outcome::solutions(puzzle, &outcome, max, GridForm::Picture(output.style))
        }
        SolveFormat::Grid => report::outcome::solutions(puzzle, &outcome, max, GridForm::Plain),
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
                    report::outcome::solutions(puzzle, &outcome, max, plain)
                );
                String::new()
            }
        },
    };
    print(&text)?;
    Ok(Exit(exit_for(outcome.status)))
}
