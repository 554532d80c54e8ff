//! `latin bench PATHS`: solve every puzzle file until its time is known, print the table, save it, compare it
//! with a baseline or run another build beside it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{print, progress_bar, Exit, Format, Stages};
use crate::bench::against::Build;
use crate::bench::compare::{compare, Judge};
use crate::bench::{self, Plan};
use crate::error::Error;
use crate::model::load::Reader;
use crate::report;
use crate::report::bench::{Report, SCHEMA};
use crate::solve::SolveOptions;

/// The bench flags, as written.
#[derive(clap::Args)]
pub(crate) struct BenchRun {
    /// Puzzle files, or directories searched for .yaml and .jsonl files (grammar files among them are skipped);
    /// a .jsonl file, or a file of IDs or links one a line, is a puzzle per line
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
    /// Solve each puzzle at least this many times
    #[arg(long, default_value_t = 5)]
    pub(crate) repeat: usize,
    /// ... and at most this many, stopping sooner once the median's 95% interval is within +-5%
    #[arg(long, default_value_t = 30)]
    pub(crate) max_repeat: usize,
    /// ... or once this many seconds went to the puzzle
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    pub(crate) budget: f64,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    /// Write the results as JSON to this file (a later run's --baseline)
    #[arg(long, value_name = "FILE")]
    pub(crate) save: Option<PathBuf>,
    /// Write a self-contained HTML report here: failures, charts against the baseline, the tables
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// Compare against saved results: exit 1 when an answer or count changed, or a puzzle or type is slower
    #[arg(long, value_name = "FILE", conflicts_with = "against")]
    pub(crate) baseline: Option<PathBuf>,
    /// Run this other latin binary beside this one, interleaved puzzle by puzzle, and report the ratios
    #[arg(long, value_name = "LATIN_BINARY")]
    pub(crate) against: Option<PathBuf>,
    /// Slower counts only when the whole 95% interval of the time ratio is above 1 + this
    #[arg(long, default_value_t = 0.25)]
    pub(crate) tolerance: f64,
    /// ... and the median is at least this many milliseconds slower (timer resolution and noise)
    #[arg(long, value_name = "MS", default_value_t = 0.05)]
    pub(crate) floor_ms: f64,
    /// Give up on a puzzle after this many seconds (it counts as timed out)
    #[arg(long, value_name = "SECS")]
    pub(crate) time_limit: Option<f64>,
    #[command(flatten)]
    pub(crate) stages: Stages,
}

pub(crate) fn run(
    flags: &BenchRun,
    grammars: Option<&Path>,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let plan = check_flags(flags)?;
    let judge = Judge {
        tolerance: flags.tolerance,
        floor_ms: flags.floor_ms,
    };
    let found = bench::collect::collect(&flags.paths)?;
    if found.entries.is_empty() {
        return Err(Error::section("bench", "no puzzle files found"));
    }
    // Read the baseline and open the output files before the run, so a bad path fails fast.
    let baseline = flags.baseline.as_deref().map(read_baseline).transpose()?;
    let create = |p: &Path| {
        std::fs::File::create(p)
            .map_err(|e| Error::io(p, &e))
            .map(|f| (p.to_path_buf(), f))
    };
    let save = flags.save.as_deref().map(create).transpose()?;
    let html = flags.html.as_deref().map(create).transpose()?;
    let mut results = measure(flags, grammars, &found, options, reader, &plan, judge)?;
    if let (Some(b), Some(path)) = (&baseline, &flags.baseline) {
        results.comparison = Some(compare(&results, b, &path.display().to_string(), judge));
    }
    let json = serde_json::to_string_pretty(&results)
        .map_err(|e| Error::Solver(format!("the bench report does not serialise: {e}")))?;
    if let Some(out) = save {
        write(out, &json)?;
    }
    if let Some(out) = html {
        let page = report::bench_html::render(&results, baseline.as_ref(), flags.tolerance);
        write(out, &page)?;
    }
    print(&match flags.format {
        Format::Json => json + "\n",
        Format::Text => report::bench::table(&results),
    })?;
    Ok(Exit(u8::from(judge_run(&results))))
}

fn write((path, mut file): (PathBuf, std::fs::File), text: &str) -> Result<(), Error> {
    use std::io::Write as _;
    file.write_all(text.as_bytes())
        .map_err(|e| Error::io(&path, &e))
}

/// Runs the puzzles, alone or beside the other build, with a progress bar on a terminal.
fn measure(
    flags: &BenchRun,
    grammars: Option<&Path>,
    found: &bench::collect::Collected,
    options: &SolveOptions,
    reader: &Reader,
    plan: &Plan,
    judge: Judge,
) -> Result<Report, Error> {
    let bar = progress_bar(found.entries.len());
    let progress = |r: &report::bench::PuzzleResult| {
        bar.set_message(r.id.clone());
        bar.inc(1);
    };
    let results = match &flags.against {
        Some(other) => {
            let this = std::env::current_exe().map_err(|e| Error::io("latin", &e))?;
            let common = child_flags(flags, grammars);
            let builds = [
                Build {
                    binary: this,
                    flags: common.clone(),
                },
                Build {
                    binary: other.clone(),
                    flags: common,
                },
            ];
            builds[1]
                .check()
                .map_err(|why| Error::section("--against", why))?;
            let pair = [&builds[0], &builds[1]];
            bench::against::run(found, reader, pair, plan, judge, &progress)
        }
        None => bench::run(found, reader, options, plan, &progress),
    };
    bar.finish_and_clear();
    Ok(results)
}

/// Prints every failure and note on stderr; whether the run failed.
fn judge_run(results: &Report) -> bool {
    let mut failed = false;
    for f in report::bench::own_failures(results) {
        eprintln!("failed: {f}");
        failed = true;
    }
    if let Some(c) = &results.comparison {
        for f in &c.findings {
            let word = if f.fails { "regression" } else { "note" };
            eprintln!("{word}: {}: {}", f.id, f.what);
            failed |= f.fails;
        }
    }
    failed
}

/// The flags both builds of `--against` solve with.
fn child_flags(flags: &BenchRun, grammars: Option<&Path>) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    if let Some(g) = grammars {
        out.push("--grammars".into());
        out.push(g.into());
    }
    if let Some(t) = flags.time_limit {
        out.push("--time-limit".into());
        out.push(t.to_string().into());
    }
    if flags.stages.no_presolve {
        out.push("--no-presolve".into());
    }
    out.push("--search-nodes".into());
    out.push(flags.stages.search_nodes.to_string().into());
    if matches!(flags.stages.backend, super::BackendArg::Cbc) {
        out.push("--backend".into());
        out.push("cbc".into());
    }
    if flags.stages.no_relaxation {
        out.push("--no-relaxation".into());
    }
    out
}

/// A report saved by `--save`: bad input (exit 2) when it cannot be read, is not one, or is of another schema.
fn read_baseline(path: &Path) -> Result<Report, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
    let bad = |why: String| Error::section("--baseline", format!("{}: {why}", path.display()));
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("not a saved bench report: {e}")))?;
    if value.get("schema").and_then(serde_json::Value::as_u64) != Some(u64::from(SCHEMA)) {
        return Err(bad(format!(
            "saved with another report schema (this latin writes {SCHEMA}): save a new baseline"
        )));
    }
    serde_json::from_value(value).map_err(|e| bad(format!("not a saved bench report: {e}")))
}

/// Numbers that would make the run meaningless are refused before it starts.
fn check_flags(flags: &BenchRun) -> Result<Plan, Error> {
    if flags.repeat == 0 || flags.max_repeat < flags.repeat {
        return Err(Error::section(
            "--repeat",
            "must be at least 1, and at most --max-repeat",
        ));
    }
    for (flag, value) in [
        ("--tolerance", flags.tolerance),
        ("--floor-ms", flags.floor_ms),
        ("--budget", flags.budget),
    ] {
        if !(value.is_finite() && (0.0..=1e6).contains(&value)) {
            return Err(Error::section(
                flag,
                format!("{value} is not a number from 0 to 1e6"),
            ));
        }
    }
    Ok(Plan {
        min_runs: flags.repeat,
        max_runs: flags.max_repeat,
        budget: Duration::from_secs_f64(flags.budget),
        precision: 0.05,
    })
}
