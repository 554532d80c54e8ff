//! The `latin` command line: argument types, and one short function per command.
//!
//! Flags are read in two steps, the way ripgrep does it: clap parses them into the plain types below (what the
//! user wrote), and `options` turns those into the library's checked [`SolveOptions`] (what will run), so a
//! bad value is refused before any work starts. Each command lives in its own file and prints what a renderer
//! in `report/` wrote. Errors come back typed; [`main`] prints each once and takes the exit code from its kind.

mod bench;
mod check;
mod convert;
mod count;
mod draw;
mod generate;
mod grammars;
mod lines;
mod show;
mod solve;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::error::Error;
use crate::grammar::Registry;
use crate::model::load::{Reader, DEFAULT_MAX_INPUT};
use crate::model::Puzzle;
use crate::report;
use crate::solve::{BackendChoice, SolveOptions, Status, DEFAULT_SEARCH_NODES};

const EXIT_CODES: &str = "Exit codes:
  0  success
  1  no solution, or `check` found a problem
  2  bad input or usage
  3  time limit reached without an answer";

#[derive(Parser)]
#[command(name = "latin", version, about = "Solves Latin-square puzzles (Sudoku, Inshi no heya, ...) with integer programming", after_help = EXIT_CODES)]
pub(crate) struct Cli {
    /// Directory of extra grammar files (adds or overrides puzzle types)
    #[arg(long, global = true, env = "LATIN_GRAMMARS")]
    pub(crate) grammars: Option<PathBuf>,

    /// Refuse a puzzle whose backend program is estimated above this many megabytes (default: a quarter of
    /// the machine's memory)
    #[arg(long, global = true, value_name = "MB")]
    pub(crate) memory_limit: Option<u64>,

    /// The largest puzzle file read, in bytes
    #[arg(long, global = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT)]
    pub(crate) max_input: u64,

    /// Read puzzle arguments as this form instead of judging each by its text: yaml, tatham, puzzlink, fpuzzles, sudokupad, penpa, record, janko, line, picture
    #[arg(long, global = true, value_name = "FORM", value_parser = form)]
    pub(crate) from: Option<crate::import::Format>,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// `--from` and `--to`: a form's name.
fn form(name: &str) -> Result<crate::import::Format, String> {
    crate::import::Format::named(name).ok_or_else(|| {
        let names: Vec<&str> = crate::import::Format::ALL
            .iter()
            .map(|f| f.name())
            .collect();
        format!("unknown form {name:?} (known: {})", names.join(", "))
    })
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
}

/// What `latin solve` prints.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum SolveFormat {
    /// A picture of the puzzle with its answer
    Text,
    Json,
    /// Plain digits, which read back as a `solution:` section
    Grid,
    /// An SVG picture of the puzzle with its answer
    Svg,
}

/// How pictures in text are drawn.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct TextLook {
    /// Colour: auto (only on a terminal, and never when NO_COLOR is set), always, never
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub(crate) color: ColorArg,
    /// Lines in ASCII (`+ - = | #`) instead of box-drawing characters
    #[arg(long)]
    pub(crate) ascii: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum ColorArg {
    Auto,
    Always,
    Never,
}

impl TextLook {
    /// The style of text pictures on standard output.
    pub(crate) fn style(self) -> report::picture::text::TextStyle {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match self.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => !no_color && std::io::stdout().is_terminal(),
        };
        report::picture::text::TextStyle {
            ascii: self.ascii,
            color,
        }
    }
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Solve a puzzle file and print the grid; or, with --lines, a file of one-line puzzles
    #[command(after_help = EXIT_CODES)]
    Solve(solve::SolveRun),
    /// Count solutions, up to N (default 2: is the solution unique?)
    #[command(after_help = EXIT_CODES)]
    Count {
        /// Puzzle files; several are counted in turn, each under its file's name (`==> FILE <==`) in text, and
        /// the exit code is the largest of theirs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Stop counting at this many solutions (2 answers "is it unique?")
        #[arg(long, default_value_t = 2)]
        max: usize,
        /// text, or one JSON object a file
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Give up on a file after this many seconds (exit 3; the count so far is a lower bound)
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        #[command(flatten)]
        stages: Stages,
    },
    /// The true candidates of every cell: the values it holds in at least one solution, and which cells are
    /// the same in all of them
    #[command(after_help = EXIT_CODES)]
    Candidates {
        /// Puzzle files; several are worked out in turn, each under its file's name (`==> FILE <==`) in text, and
        /// the exit code is the largest of theirs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Give up on a file after this many seconds, all its solves together (exit 3)
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// text, or one JSON object a file
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Make puzzles with exactly one solution, graded: any type, its givens and clues drawn from a random
    /// solution and thinned while it stays the only one
    #[command(after_help = EXIT_CODES)]
    Generate(generate::GenerateRun),
    /// The next step a person can follow, in words, from the givens and the file's `progress:`
    #[command(after_help = EXIT_CODES)]
    Hint {
        /// Puzzle files; several are hinted in turn, each under its file's name (`==> FILE <==`) in text, and
        /// the exit code is the largest of theirs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Every step until the grid is full (or only search is left)
        #[arg(long)]
        all: bool,
        /// Give up on a file after this many seconds (exit 3)
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// text, or one JSON object a file
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Grade a puzzle: the weakest ladder of deductions that solves it (singles, intersections, subsets,
    /// fish, probing, search) and a score that grows with difficulty
    #[command(after_help = EXIT_CODES)]
    Rate {
        /// Puzzle files; several are graded in turn (each grade names its file), and the exit code is the
        /// largest of theirs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// For the search rung
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// text, or one JSON object a file
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Check a puzzle: valid, exactly one solution, equal to its `solution:` when given; with `progress:` (or a
    /// `solution:` with `.`), which filled cells are wrong so far, without showing the solution
    #[command(after_help = EXIT_CODES)]
    Check {
        /// Puzzle files; several are checked in turn (each verdict names its file), and the exit code is the
        /// largest of theirs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Give up on a file after this many seconds (exit 3)
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// text, or one JSON object a file
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[command(flatten)]
        look: TextLook,
    },
    /// Show a puzzle as a picture in text: walls, hints, signs, outside clues and givens; --solution adds the
    /// answer
    #[command(after_help = EXIT_CODES)]
    Show {
        /// Puzzle files; several are shown in turn, each under its file's name (`==> FILE <==`) in text, and
        /// the exit code is the largest of theirs
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Solve the puzzle and show its answer too
        #[arg(long)]
        solution: bool,
        /// With --solution: give up on a file after this many seconds (exit 3)
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        #[command(flatten)]
        look: TextLook,
    },
    /// Draw a puzzle as an SVG or PNG picture (by the extension of -o; SVG on standard output without -o); several with --out-dir DIR
    #[command(after_help = EXIT_CODES)]
    Draw(draw::DrawRun),
    /// Benchmark puzzle files: status, answer == `solution:`, median time per puzzle and per type
    #[command(after_help = "Exit codes:
  0  every answer equals its `solution:`, and no regression against --baseline
  1  an answer differs from `solution:`, or a regression against --baseline
  2  bad input or usage")]
    Bench(bench::BenchRun),
    /// Write a puzzle in another form: a YAML puzzle file (the default, ready to edit), a Tatham game ID, a puzz.link URL, an f-puzzles link, a SudokuPad link, a Penpa+ link, a corpus record, a janko.at data block or a bare grid line
    #[command(after_help = EXIT_CODES)]
    Convert {
        /// A puzzle file, `-` for standard input, or a puzzle ID or link
        input: PathBuf,
        /// The form to write: yaml, tatham, puzzlink, fpuzzles, sudokupad (the link that opens the f-puzzles payload), penpa (a Penpa+ solve link), record (a corpus line), janko (a page's data block), line (a plain Sudoku's grid on one line)
        #[arg(long, value_name = "FORM", value_parser = form, default_value = "yaml")]
        to: crate::import::Format,
        /// Write to this file instead of standard output
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// List the puzzle types, rules and primitives; with a type, print its grammar file (a start for one's own)
    Grammars {
        /// A type whose grammar file to print, as loaded (built in, or from `--grammars`)
        #[arg(value_name = "TYPE")]
        kind: Option<String>,
    },
}

/// Which stages run, and which backend takes what they leave (shared by solve, count and bench).
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct Stages {
    /// Send the whole program to the backend, without pruning candidates by propagation (or searching) first
    #[arg(long)]
    pub(crate) no_presolve: bool,
    /// Search nodes over the propagator before the backend takes over (0: straight to it after presolve); a
    /// clausal program goes to CaDiCaL after 2 per open cell (at least 256). Where every rule is an all-different
    /// group of a grid up to 16x16, search runs on bit boards and 32 of its nodes count as one; on such a grid
    /// past 64x64, 64
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEARCH_NODES)]
    pub(crate) search_nodes: u64,
    /// auto: CaDiCaL (clause learning) when every row of the program is a clause, CBC otherwise; cbc: always CBC
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) backend: BackendArg,
    /// Never probe candidates on the linear relaxation between CaDiCaL's turns (it does when clause learning
    /// stalls on a program with sums)
    #[arg(long)]
    pub(crate) no_relaxation: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum BackendArg {
    Auto,
    Cbc,
}

impl Default for Stages {
    fn default() -> Self {
        Stages {
            no_presolve: false,
            search_nodes: DEFAULT_SEARCH_NODES,
            backend: BackendArg::Auto,
            no_relaxation: false,
        }
    }
}

/// The exit code of a command that ran to its end (errors carry their own, [`Error::exit_code`]).
pub(crate) struct Exit(pub u8);

/// Runs the command line: the whole of `latin`'s `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let json = cli.command.format() == Some(Format::Json);
    match run(cli) {
        Ok(Exit(code)) => ExitCode::from(code),
        Err(e) => ExitCode::from(say(&e, json)),
    }
}

/// Runs a command on each of several files in turn: an error in one is said (on stderr, once) and the others go
/// on; the exit code is the largest of theirs. A closed output stops the run.
fn each(
    files: &[PathBuf],
    json: bool,
    mut one: impl FnMut(&Path) -> Result<Exit, Error>,
) -> Result<Exit, Error> {
    let mut worst = 0;
    for file in files {
        let code = match one(file) {
            Ok(Exit(code)) => code,
            Err(Error::OutputClosed) => return Err(Error::OutputClosed),
            Err(e) => say(&e, json),
        };
        worst = worst.max(code);
    }
    Ok(Exit(worst))
}

/// Loads each file's puzzle in turn and runs a command on it, as [`each`] does; in text, when there are several,
/// the output of each file that loads opens with its name (`==> FILE <==`, [`report::outcome::heading`]), and one
/// that does not is said on stderr alone, as `tail` does. JSON names the file in each object.
fn headed(
    files: &[PathBuf],
    json: bool,
    reader: &Reader,
    mut one: impl FnMut(&Path, Puzzle) -> Result<Exit, Error>,
) -> Result<Exit, Error> {
    let several = files.len() > 1;
    let mut first = true;
    each(files, json, |file| {
        let puzzle = reader.load(file)?;
        if several && !json {
            let name = file.display().to_string();
            print(&report::outcome::heading(&name, std::mem::take(&mut first)))?;
        }
        one(file, puzzle)
    })
}

/// Says an error on stderr, once, as JSON when the command writes JSON; its exit code. A closed output ends
/// quietly, as with any Unix tool.
fn say(e: &Error, json: bool) -> u8 {
    match e {
        Error::OutputClosed => {}
        e if json => eprintln!("{}", report::json::error(e)),
        e => eprintln!("error: {e}"),
    }
    e.exit_code()
}

impl Command {
    /// The output format the command was asked for, if it has one.
    fn format(&self) -> Option<Format> {
        match self {
            Command::Solve(run) => (run.format == SolveFormat::Json).then_some(Format::Json),
            Command::Count { format, .. }
            | Command::Check { format, .. }
            | Command::Candidates { format, .. }
            | Command::Rate { format, .. }
            | Command::Hint { format, .. } => Some(*format),
            Command::Bench(run) => Some(run.format),
            Command::Grammars { .. }
            | Command::Show { .. }
            | Command::Draw(_)
            | Command::Convert { .. }
            | Command::Generate(_) => None,
        }
    }
}

fn run(cli: Cli) -> Result<Exit, Error> {
    let registry = registry(cli.grammars.as_deref())?;
    let memory = cli
        .memory_limit
        .map_or_else(default_memory_limit, |mb| mb.saturating_mul(1 << 20));
    let options = |max, time_limit, stages| options(max, time_limit, stages, memory);
    // The analysis commands look for one solution with the default stages.
    let once = |time_limit| options(1, time_limit, Stages::default());
    let reader = Reader {
        registry: &registry,
        max_bytes: cli.max_input,
        from: cli.from,
    };
    match cli.command {
        Command::Grammars { kind } => grammars::run(&registry, kind.as_deref()),
        Command::Convert { input, to, output } => {
            convert::run(&input, to, output.as_deref(), &reader)
        }
        Command::Solve(run) => {
            let options = options(run.max, run.time_limit, run.stages)?;
            solve::dispatch(run, options, &reader)
        }
        Command::Count {
            files,
            max,
            format,
            time_limit,
            stages,
        } => {
            let options = options(max, time_limit, stages)?;
            let several = files.len() > 1;
            headed(&files, format == Format::Json, &reader, |file, puzzle| {
                count::run(file, &puzzle, format, &options, several)
            })
        }
        Command::Hint {
            files,
            all,
            time_limit,
            format,
        } => {
            let time_limit = once(time_limit)?.time_limit;
            headed(&files, format == Format::Json, &reader, |file, puzzle| {
                check::hint(file, &puzzle, all, format, time_limit)
            })
        }
        Command::Generate(run) => generate::run(&run, &registry, &once(run.time_limit)?),
        Command::Rate {
            files,
            time_limit,
            format,
        } => {
            // Two: a grade is of a puzzle with one answer, so `rate` says when it has more.
            let options = options(2, time_limit, Stages::default())?;
            each(&files, format == Format::Json, |file| {
                check::rate(file, format, &options, &reader)
            })
        }
        Command::Candidates {
            files,
            time_limit,
            format,
        } => {
            let options = once(time_limit)?;
            headed(&files, format == Format::Json, &reader, |file, puzzle| {
                check::candidates(file, &puzzle, format, &options)
            })
        }
        Command::Check {
            files,
            time_limit,
            format,
            look,
        } => {
            let options = options(2, time_limit, Stages::default())?;
            each(&files, format == Format::Json, |file| {
                check::run(file, format, look.style(), &options, &reader)
            })
        }
        Command::Show {
            files,
            solution,
            time_limit,
            look,
        } => {
            let options = solution.then(|| once(time_limit)).transpose()?;
            headed(&files, false, &reader, |_, puzzle| {
                show::run(&puzzle, options.as_ref(), look.style())
            })
        }
        Command::Draw(run) => {
            let options = once(run.time_limit)?;
            draw::run(&run, &options, &reader)
        }
        Command::Bench(run) => {
            let options = options(2, run.time_limit, run.stages)?;
            bench::run(&run, cli.grammars.as_deref(), &options, &reader)
        }
    }
}

/// A quarter of the machine's memory (`MemTotal` in `/proc/meminfo`), or the library's default where that
/// cannot be read.
fn default_memory_limit() -> u64 {
    let kb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        });
    kb.map_or(crate::solve::DEFAULT_MEMORY_LIMIT, |kb| kb * 1024 / 4)
}

fn registry(dir: Option<&Path>) -> Result<Registry, Error> {
    let mut r = Registry::built_in();
    if let Some(dir) = dir {
        r.load_dir(dir)?;
    }
    Ok(r)
}

/// The longest time limit accepted: beyond it, a limit means nothing on this side of the heat death.
const MAX_TIME_LIMIT_SECS: f64 = 1e9;

/// A time limit flag: seconds above 0 and at most [`MAX_TIME_LIMIT_SECS`].
fn seconds(flag: &str, value: Option<f64>) -> Result<Option<Duration>, Error> {
    match value {
        Some(s) if s.is_finite() && s > 0.0 && s <= MAX_TIME_LIMIT_SECS => {
            Ok(Some(Duration::from_secs_f64(s)))
        }
        Some(s) => {
            // As written where that is short (`0`, `-5`, `1e10` as 10000000000), else in exponent form (`1e300`).
            let shown = if s.abs() < 1e15 {
                format!("{s}")
            } else {
                format!("{s:e}")
            };
            Err(Error::section(
                flag,
                format!("{shown} is not a number of seconds above 0 and at most {MAX_TIME_LIMIT_SECS:e}"),
            ))
        }
        None => Ok(None),
    }
}

/// The checked options of a solve, from the flags as written, under the run's memory limit in bytes.
fn options(
    max: usize,
    time_limit: Option<f64>,
    stages: Stages,
    memory: u64,
) -> Result<SolveOptions, Error> {
    let time_limit = seconds("--time-limit", time_limit)?;
    if max == 0 {
        return Err(Error::section("--max", "must be at least 1"));
    }
    Ok(SolveOptions {
        max_solutions: max,
        time_limit,
        presolve: !stages.no_presolve,
        search_nodes: stages.search_nodes,
        backend: match stages.backend {
            BackendArg::Auto => BackendChoice::Auto,
            BackendArg::Cbc => BackendChoice::Cbc,
        },
        relaxation: !stages.no_relaxation,
        memory_limit: Some(memory),
        ..SolveOptions::default()
    })
}

/// `--cbc KEY=VALUE`, with a KEY that CBC knows.
fn key_value(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .ok_or_else(|| format!("{s:?} is not KEY=VALUE"))?;
    if !crate::solve::cbc_params::known(k) {
        return Err(format!("CBC has no parameter {k:?}"));
    }
    Ok((k.to_string(), v.to_string()))
}

/// The exit code of a solve: 0 solved, 1 no solution, 3 out of time.
fn exit_for(status: Status) -> u8 {
    match status {
        Status::Solved => 0,
        Status::Infeasible => 1,
        Status::Timeout => 3,
    }
}

/// Writes text to standard output; a reader that closed the pipe (`| head -1`) is [`Error::OutputClosed`], which
/// ends the program quietly instead of with a panic or a message.
fn print(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("<stdout>", &e))
}

/// A progress bar on stderr when it is a terminal; hidden otherwise (pipes and logs stay clean).
fn progress_bar(len: usize) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {per_sec} eta {eta} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
