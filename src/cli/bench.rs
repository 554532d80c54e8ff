//! `latin bench PATHS`: solve every puzzle file a few times, print the table, save or compare with a baseline.

use std::path::{Path, PathBuf};

use super::{print, progress_bar, Exit, Format, Stages};
use crate::bench;
use crate::error::Error;
use crate::model::load::Reader;
use crate::report;
use crate::solve::SolveOptions;

/// The bench flags, as written.
#[derive(clap::Args)]
pub(crate) struct BenchRun {
    /// Puzzle files, or directories searched for .yaml files
    #[arg(required = true)]
    pub(crate) paths: Vec<PathBuf>,
    /// Solve each puzzle this many times; its time is the median
    #[arg(long, default_value_t = 3)]
    pub(crate) repeat: usize,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    /// Write the results as JSON to this file (a later run's --baseline)
    #[arg(long, value_name = "FILE")]
    pub(crate) save: Option<PathBuf>,
    /// Compare against saved results: exit 1 when an answer changed or a type's median slowed
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,
    /// How much slower a type's median may get before it counts (0.25 = 25%)
    #[arg(long, default_value_t = 0.25)]
    pub(crate) tolerance: f64,
    /// Medians under this many milliseconds on both sides are timer noise, never a slowdown
    #[arg(long, value_name = "MS", default_value_t = 1.0)]
    pub(crate) floor_ms: f64,
    #[arg(long, value_name = "SECS")]
    pub(crate) time_limit: Option<f64>,
    #[command(flatten)]
    pub(crate) stages: Stages,
}

pub(crate) fn run(
    flags: &BenchRun,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    check_flags(flags)?;
    let files = bench::collect(&flags.paths)?;
    if files.is_empty() {
        return Err(Error::section("bench", "no puzzle files found"));
    }
    // Read the baseline and open the save file before the run, so a bad path fails fast.
    let baseline = flags.baseline.as_deref().map(read_baseline).transpose()?;
    let save = flags
        .save
        .as_deref()
        .map(|p| {
            std::fs::File::create(p)
                .map_err(|e| Error::io(p, &e))
                .map(|f| (p, f))
        })
        .transpose()?;
    let bar = progress_bar(files.len());
    let results = bench::run(&files, reader, options, flags.repeat, &|r| {
        bar.set_message(r.file.clone());
        bar.inc(1);
    });
    bar.finish_and_clear();
    let json = serde_json::to_string_pretty(&results)
        .map_err(|e| Error::Solver(format!("the bench report does not serialise: {e}")))?;
    if let Some((path, mut file)) = save {
        use std::io::Write as _;
        file.write_all(json.as_bytes())
            .map_err(|e| Error::io(path, &e))?;
    }
    print(&match flags.format {
        Format::Json => json + "\n",
        Format::Text => report::bench::table(&results),
    })?;
    let mut failed = false;
    for p in results.puzzles.iter().filter(|p| p.matches == Some(false)) {
        eprintln!("{}: the answer differs from `solution:`", p.file);
        failed = true;
    }
    if let Some(b) = baseline {
        let found = bench::regressions(&results, &b, flags.tolerance, flags.floor_ms);
        for r in &found {
            eprintln!("regression: {r}");
        }
        failed |= !found.is_empty();
    }
    Ok(Exit(u8::from(failed)))
}

/// A report saved by `--save`: bad input (exit 2) when it cannot be read or is not one.
fn read_baseline(path: &Path) -> Result<report::bench::Report, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::section(
            "--baseline",
            format!("{}: not a saved bench report: {e}", path.display()),
        )
    })
}

/// Numbers that would make the run meaningless are refused before it starts.
fn check_flags(flags: &BenchRun) -> Result<(), Error> {
    if flags.repeat == 0 {
        return Err(Error::section("--repeat", "must be at least 1"));
    }
    for (flag, value) in [
        ("--tolerance", flags.tolerance),
        ("--floor-ms", flags.floor_ms),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            return Err(Error::section(
                flag,
                format!("{value} is not a number from 0 up"),
            ));
        }
    }
    Ok(())
}
