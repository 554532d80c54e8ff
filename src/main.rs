//! The `latin` command: parses flags, calls the library, prints, and sets the exit code.
//! `anyhow` lives here only; the library's errors are typed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};

use latin::grammar::{primitives::PRIMITIVES, Registry};
use latin::rules::catalogue::NAMED;
use latin::{model, report, solve, Error, Puzzle, SolveOptions, Status};

const EXIT_CODES: &str = "Exit codes:
  0  success
  1  no solution, or `check` found a problem
  2  bad input or usage
  3  time limit reached without an answer";

#[derive(Parser)]
#[command(name = "latin", version, about = "Solves Latin-square puzzles (Sudoku, Inshi no heya, ...) with integer programming", after_help = EXIT_CODES)]
struct Cli {
    /// Directory of extra grammar files (adds or overrides puzzle types)
    #[arg(long, global = true, env = "LATIN_GRAMMARS")]
    grammars: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle file and print the grid
    #[command(after_help = EXIT_CODES)]
    Solve {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// List up to N solutions (no-good cuts)
        #[arg(long, default_value_t = 1)]
        max: usize,
        /// Give up after this many seconds
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// Write the compiled binary program in LP format to this file
        #[arg(long, value_name = "FILE")]
        write_lp: Option<PathBuf>,
        /// Send the whole program to CBC, without pruning candidates by propagation first
        #[arg(long)]
        no_presolve: bool,
        /// Keep CBC's default cuts, heuristics and strong branching (for measurements)
        #[arg(long, hide = true)]
        cbc_defaults: bool,
        /// Set a CBC parameter, over latin's own choices (repeatable): `--cbc cuts=on --cbc heur=on`
        #[arg(long, value_name = "KEY=VALUE", value_parser = key_value)]
        cbc: Vec<(String, String)>,
    },
    /// Count solutions, up to N (default 2: is the solution unique?)
    #[command(after_help = EXIT_CODES)]
    Count {
        file: PathBuf,
        #[arg(long, default_value_t = 2)]
        max: usize,
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// Send the whole program to CBC, without pruning candidates by propagation first
        #[arg(long)]
        no_presolve: bool,
    },
    /// Check a puzzle: valid, exactly one solution, equal to its `solution:` when given
    #[command(after_help = EXIT_CODES)]
    Check {
        file: PathBuf,
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
    },
    /// List the puzzle types, rules and primitives
    Grammars,
}

/// An outcome the user should see as an exit code, with its message already printed.
struct Exit(u8);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(Exit(code)) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            let input = e
                .downcast_ref::<Error>()
                .is_some_and(|e| !matches!(e, Error::Solver(_)));
            ExitCode::from(if input { 2 } else { 1 })
        }
    }
}

fn registry(dir: Option<&Path>) -> Result<Registry, Error> {
    let mut r = Registry::built_in();
    if let Some(dir) = dir {
        r.load_dir(dir)?;
    }
    Ok(r)
}

fn options(max: usize, time_limit: Option<f64>, no_presolve: bool) -> anyhow::Result<SolveOptions> {
    let time_limit = match time_limit {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => anyhow::bail!(Error::section(
            "--time-limit",
            format!("{s} is not a positive number of seconds")
        )),
        None => None,
    };
    if max == 0 {
        anyhow::bail!(Error::section("--max", "must be at least 1"));
    }
    Ok(SolveOptions {
        max_solutions: max,
        time_limit,
        presolve: !no_presolve,
        ..SolveOptions::default()
    })
}

fn run(cli: Cli) -> anyhow::Result<Exit> {
    let registry = registry(cli.grammars.as_deref())?;
    match cli.command {
        Command::Grammars => {
            println!("Puzzle types:");
            for g in registry.iter() {
                println!("  {:<14} {}", g.name, g.description);
            }
            println!("\nRules any puzzle may add with `rules:`:");
            for (name, what) in NAMED {
                println!("  {name:<16} {what}");
            }
            println!("\nPrimitives a grammar may use:");
            for p in PRIMITIVES {
                println!("  {:<12} {}", p.name, p.description);
            }
            Ok(Exit(0))
        }
        Command::Solve {
            file,
            format,
            max,
            time_limit,
            write_lp,
            no_presolve,
            cbc_defaults,
            cbc,
        } => {
            let puzzle = model::load(&file, &registry)?;
            if let Some(lp) = write_lp {
                std::fs::write(&lp, latin::compile(&puzzle).to_lp())
                    .with_context(|| format!("writing {}", lp.display()))?;
            }
            let outcome = solve(
                &puzzle,
                &SolveOptions {
                    cbc_defaults,
                    cbc_params: cbc,
                    ..options(max, time_limit, no_presolve)?
                },
            )?;
            if format == Format::Json {
                println!("{}", report::json::render(&puzzle, &outcome));
            } else {
                print_text(&puzzle, &outcome, max);
            }
            Ok(Exit(exit_for(outcome.status)))
        }
        Command::Count {
            file,
            max,
            time_limit,
            no_presolve,
        } => {
            let puzzle = model::load(&file, &registry)?;
            let outcome = solve(&puzzle, &options(max, time_limit, no_presolve)?)?;
            let k = outcome.solutions.len();
            let noun = if k == 1 { "solution" } else { "solutions" };
            match (outcome.status, outcome.complete) {
                (Status::Timeout, _) => println!("time limit reached without an answer"),
                (_, true) => println!("{k} {noun}"),
                (_, false) if outcome.status == Status::Solved && k < max => {
                    println!("at least {k} {noun} (time limit reached)")
                }
                (_, false) => println!("at least {k} {noun} (stopped at --max {max})"),
            }
            Ok(Exit(exit_for(outcome.status)))
        }
        Command::Check { file, time_limit } => check(&file, &registry, time_limit),
    }
}

fn key_value(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("{s:?} is not KEY=VALUE"))
}

fn exit_for(status: Status) -> u8 {
    match status {
        Status::Solved => 0,
        Status::Infeasible => 1,
        Status::Timeout => 3,
    }
}

fn print_text(puzzle: &Puzzle, outcome: &latin::Outcome, max: usize) {
    match outcome.status {
        Status::Infeasible => println!("no solution"),
        Status::Timeout if outcome.solutions.is_empty() => {
            println!("time limit reached without an answer")
        }
        _ => {
            for (i, grid) in outcome.solutions.iter().enumerate() {
                if max > 1 {
                    println!("solution {}:", i + 1);
                }
                print!("{}", report::text::render(grid, puzzle.layout()));
                if max > 1 {
                    println!();
                }
            }
            if max > 1 {
                let k = outcome.solutions.len();
                let more = if outcome.complete {
                    "no more exist"
                } else {
                    "there may be more"
                };
                println!("{k} solution{} ({more})", if k == 1 { "" } else { "s" });
            }
        }
    }
}

fn check(file: &Path, registry: &Registry, time_limit: Option<f64>) -> anyhow::Result<Exit> {
    let puzzle = model::load(file, registry)?;
    let outcome = solve(&puzzle, &options(2, time_limit, false)?)?;
    let name = file.display();
    match (outcome.status, outcome.solutions.as_slice()) {
        (Status::Timeout, []) => {
            println!("{name}: time limit reached without an answer");
            Ok(Exit(3))
        }
        (_, []) => {
            println!("{name}: FAILED: the puzzle has no solution");
            Ok(Exit(1))
        }
        (_, [one]) if outcome.complete => match puzzle.solution() {
            Some(expected) if expected != one => {
                println!("{name}: FAILED: the unique solution differs from `solution:`; it is:");
                print!("{}", report::text::render(one, puzzle.layout()));
                Ok(Exit(1))
            }
            Some(_) => {
                println!("{name}: ok: one solution, equal to `solution:`");
                Ok(Exit(0))
            }
            None => {
                println!("{name}: ok: one solution (no `solution:` to compare)");
                Ok(Exit(0))
            }
        },
        (_, [_]) => {
            println!("{name}: time limit reached before uniqueness was proved");
            Ok(Exit(3))
        }
        (_, [first, second, ..]) => {
            println!("{name}: FAILED: the puzzle has more than one solution; two of them:");
            print!(
                "{}\n{}",
                report::text::render(first, puzzle.layout()),
                report::text::render(second, puzzle.layout())
            );
            Ok(Exit(1))
        }
    }
}
