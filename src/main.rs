//! The `latin` command: parses flags, calls the library, prints, and sets the exit code.
//! `anyhow` lives here only; the library's errors are typed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};

use latin::grammar::{primitives::PRIMITIVES, Registry};
use latin::rules::catalogue::NAMED;
use latin::solve::BackendChoice;
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
    /// Solve a puzzle file and print the grid; or, with --lines, a file of one-line puzzles
    #[command(after_help = EXIT_CODES)]
    Solve {
        #[arg(required_unless_present = "lines")]
        file: Option<PathBuf>,
        /// Solve a file of one puzzle a line (`-` for stdin): 81 characters for 9x9, `.` or `0` empty, `1`-`9`
        /// then `A`-`Z`; writes one answer a line and a summary on stderr
        #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "write_lp", "max"])]
        lines: Option<PathBuf>,
        /// The puzzle type of every line (with --lines)
        #[arg(
            long = "type",
            value_name = "TYPE",
            default_value = "sudoku",
            requires = "lines"
        )]
        kind: String,
        /// Box shape of every line, e.g. 3x3 (with --lines; default: the square root of the size)
        #[arg(long = "box", value_name = "HxW", requires = "lines")]
        boxes: Option<String>,
        /// Extra rules for every line, e.g. diagonals,anti-knight (with --lines)
        #[arg(
            long,
            value_name = "RULE,...",
            value_delimiter = ',',
            requires = "lines"
        )]
        rules: Vec<String>,
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
        #[command(flatten)]
        stages: Stages,
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
        #[command(flatten)]
        stages: Stages,
    },
    /// Check a puzzle: valid, exactly one solution, equal to its `solution:` when given
    #[command(after_help = EXIT_CODES)]
    Check {
        file: PathBuf,
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
    },
    /// Benchmark puzzle files: status, answer == `solution:`, median time per puzzle and per type
    #[command(after_help = "Exit codes:
  0  every answer equals its `solution:`, and no regression against --baseline
  1  an answer differs from `solution:`, or a regression against --baseline
  2  bad input or usage")]
    Bench {
        /// Puzzle files, or directories searched for .yaml files
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Solve each puzzle this many times; its time is the median
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Write the results as JSON to this file (a later run's --baseline)
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// Compare against saved results: exit 1 when an answer changed or a type's median slowed
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// How much slower a type's median may get before it counts (0.25 = 25%)
        #[arg(long, default_value_t = 0.25)]
        tolerance: f64,
        /// Medians under this many milliseconds on both sides are timer noise, never a slowdown
        #[arg(long, value_name = "MS", default_value_t = 1.0)]
        floor_ms: f64,
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        #[command(flatten)]
        stages: Stages,
    },
    /// List the puzzle types, rules and primitives
    Grammars,
}

/// Which stages run, and which backend takes what they leave (shared by solve, count and bench).
#[derive(clap::Args, Clone, Copy, Debug)]
struct Stages {
    /// Send the whole program to the backend, without pruning candidates by propagation (or searching) first
    #[arg(long)]
    no_presolve: bool,
    /// Search nodes over the propagator before the backend takes over (0: straight to it after presolve); a
    /// clausal program goes to CaDiCaL after 2 per open cell
    #[arg(long, value_name = "N", default_value_t = latin::solve::DEFAULT_SEARCH_NODES)]
    search_nodes: u64,
    /// auto: CaDiCaL (clause learning) when every row of the program is a clause, CBC otherwise; cbc: always CBC
    #[arg(long, value_enum, default_value = "auto")]
    backend: BackendArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum BackendArg {
    Auto,
    Cbc,
}

impl Default for Stages {
    fn default() -> Self {
        Stages {
            no_presolve: false,
            search_nodes: latin::solve::DEFAULT_SEARCH_NODES,
            backend: BackendArg::Auto,
        }
    }
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

fn options(max: usize, time_limit: Option<f64>, stages: Stages) -> anyhow::Result<SolveOptions> {
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
        presolve: !stages.no_presolve,
        search_nodes: stages.search_nodes,
        backend: match stages.backend {
            BackendArg::Auto => BackendChoice::Auto,
            BackendArg::Cbc => BackendChoice::Cbc,
        },
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
            stages,
            cbc_defaults,
            cbc,
            lines,
            kind,
            boxes,
            rules,
        } => {
            let solve_options = SolveOptions {
                cbc_defaults,
                cbc_params: cbc,
                ..options(max, time_limit, stages)?
            };
            if let Some(lines) = lines {
                let spec = LinesSpec { kind, boxes, rules };
                return solve_lines(&lines, &spec, format, &solve_options, &registry);
            }
            let file = file.expect("clap requires FILE without --lines");
            let puzzle = model::load(&file, &registry)?;
            if let Some(lp) = write_lp {
                std::fs::write(&lp, latin::compile(&puzzle).to_lp())
                    .with_context(|| format!("writing {}", lp.display()))?;
            }
            let outcome = solve(&puzzle, &solve_options)?;
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
            stages,
        } => {
            let puzzle = model::load(&file, &registry)?;
            let outcome = solve(&puzzle, &options(max, time_limit, stages)?)?;
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
        Command::Bench {
            paths,
            repeat,
            format,
            save,
            baseline,
            tolerance,
            floor_ms,
            time_limit,
            stages,
        } => {
            let options = options(1, time_limit, stages)?;
            let files = latin::bench::collect(&paths)?;
            if files.is_empty() {
                anyhow::bail!(Error::section("bench", "no puzzle files found"));
            }
            // Read the baseline before the run, so a bad file fails fast.
            let baseline = match baseline {
                Some(path) => {
                    let text = std::fs::read_to_string(&path).map_err(|source| Error::Io {
                        path: path.clone(),
                        source,
                    })?;
                    let report: latin::bench::Report = serde_json::from_str(&text)
                        .with_context(|| format!("{}: not a saved bench report", path.display()))?;
                    Some(report)
                }
                None => None,
            };
            let bar = progress_bar(files.len());
            let report = latin::bench::run(&files, &registry, &options, repeat, &|r| {
                bar.set_message(r.file.clone());
                bar.inc(1);
            });
            bar.finish_and_clear();
            let json = serde_json::to_string_pretty(&report)?;
            if let Some(path) = save {
                std::fs::write(&path, &json)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            if format == Format::Json {
                println!("{json}");
            } else {
                print_bench(&report);
            }
            let mut failed = false;
            for p in report.puzzles.iter().filter(|p| p.matches == Some(false)) {
                eprintln!("{}: the answer differs from `solution:`", p.file);
                failed = true;
            }
            if let Some(b) = baseline {
                let found = latin::bench::regressions(&report, &b, tolerance, floor_ms);
                for r in &found {
                    eprintln!("regression: {r}");
                }
                failed |= !found.is_empty();
            }
            Ok(Exit(u8::from(failed)))
        }
    }
}

/// What every line of a --lines file is.
struct LinesSpec {
    kind: String,
    boxes: Option<String>,
    rules: Vec<String>,
}

/// `latin solve --lines`: the template puzzle is built through the type's grammar, as a puzzle file would be,
/// so a bad --type, --box or rule is reported like a bad file.
fn solve_lines(
    path: &Path,
    spec: &LinesSpec,
    format: Format,
    options: &SolveOptions,
    registry: &Registry,
) -> anyhow::Result<Exit> {
    use std::io::{BufRead, BufReader, IsTerminal, Read};
    let open = || -> anyhow::Result<Box<dyn BufRead>> {
        Ok(if path == Path::new("-") {
            Box::new(BufReader::new(std::io::stdin()))
        } else {
            let f = std::fs::File::open(path).map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })?;
            Box::new(BufReader::new(f))
        })
    };
    // The first puzzle line fixes the size; it is read once and put back in front of the rest.
    let mut input = open()?;
    let mut head = String::new();
    loop {
        head.clear();
        if input.read_line(&mut head)? == 0 {
            anyhow::bail!(Error::section("--lines", "the file holds no puzzle lines"));
        }
        if latin::bulk::is_puzzle_line(&head) {
            break;
        }
    }
    let n = latin::bulk::size_of_line(&head).ok_or_else(|| {
        Error::section(
            "--lines",
            format!(
                "the first puzzle line has {} characters, not a square number",
                head.trim().chars().count()
            ),
        )
    })?;
    let mut doc = format!("type: {}\nsize: {n}\n", spec.kind);
    if let Some(b) = &spec.boxes {
        doc += &format!("box: {b}\n");
    }
    if !spec.rules.is_empty() {
        doc += &format!("rules: [{}]\n", spec.rules.join(", "));
    }
    let template = model::load_str(&doc, registry)?;
    // The bar's length costs a second pass over the file: only when a bar is drawn, and never for stdin.
    let total = if path != Path::new("-") && std::io::stderr().is_terminal() {
        open()?
            .lines()
            .map_while(Result::ok)
            .filter(|l| latin::bulk::is_puzzle_line(l))
            .count()
    } else {
        0
    };
    let bar = progress_bar(total);
    let stdout = std::io::stdout().lock();
    let format = match format {
        Format::Text => latin::bulk::LineFormat::Text,
        Format::Json => latin::bulk::LineFormat::Json,
    };
    let input = std::io::Cursor::new(head.into_bytes()).chain(input);
    let summary = latin::bulk::run(
        &template,
        std::io::BufReader::new(input),
        std::io::BufWriter::new(stdout),
        format,
        options,
        &|done| bar.set_position(done as u64),
    )?;
    bar.finish_and_clear();
    eprintln!(
        "{} puzzles: {} solved, {} with several solutions, {} with none, {} timed out, {} invalid; \
         {} decided by propagation alone, {} by search, {} by CaDiCaL, the rest by CBC; {:.2} s, {:.1} puzzles/s on {} threads",
        summary.puzzles,
        summary.solved,
        summary.multiple,
        summary.infeasible,
        summary.timeout,
        summary.invalid,
        summary.by_presolve,
        summary.by_search,
        summary.by_cdcl,
        summary.seconds,
        summary.per_second(),
        rayon::current_num_threads()
    );
    Ok(Exit(0))
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

fn print_bench(report: &latin::bench::Report) {
    println!(
        "{:<48} {:<12} {:<10} {:<6} {:>10}",
        "puzzle", "type", "status", "ok", "median ms"
    );
    for p in &report.puzzles {
        let ok = match p.matches {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        println!(
            "{:<48} {:<12} {:<10} {:<6} {:>10.3}",
            p.file, p.kind, p.status, ok, p.median_ms
        );
        if let Some(m) = &p.message {
            println!("    {m}");
        }
    }
    println!(
        "\n{:<12} {:>7} {:>11} {:>11} {:>11} {:>10}",
        "type", "puzzles", "median ms", "slowest ms", "total ms", "mismatch"
    );
    for t in &report.types {
        println!(
            "{:<12} {:>7} {:>11.3} {:>11.3} {:>11.1} {:>10}",
            t.kind, t.puzzles, t.median_ms, t.slowest_ms, t.total_ms, t.mismatches
        );
    }
    println!(
        "({} runs each, median; {} cores)",
        report.repeat, report.cores
    );
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
    let outcome = solve(&puzzle, &options(2, time_limit, Stages::default())?)?;
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
