//! Regression benchmarks over puzzle files (`latin bench`).
//!
//! Each puzzle is solved for two solutions (as `check` does), so a weakened grammar shows as a changed count,
//! not only when the first answer happens to move. It is solved again until its median is known to within
//! [`Plan::precision`] (the 95% interval of [`stats`]), or the runs or the time budget run out. What the run
//! is compared with, a saved baseline ([`compare`]) or another build run beside it ([`against`]), is judged by
//! intervals, not by single figures.

pub(crate) mod against;
pub(crate) mod collect;
pub(crate) mod compare;
pub(crate) mod stats;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::model::load::Reader;
use crate::report::bench::{PuzzleResult, Report, Skipped, Times, TypeResult, Work, SCHEMA};
use crate::solve::{Outcome, SolveOptions, Status};
use collect::{Collected, Entry};

/// How many times each puzzle is solved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub(crate) min_runs: usize,
    pub(crate) max_runs: usize,
    /// Stop after the run that passes this much time on the puzzle (once `min_runs` are done).
    pub(crate) budget: Duration,
    /// Stop once the median's interval is within this fraction of it (0.05: +-5%).
    pub(crate) precision: f64,
}

impl Plan {
    /// Whether these times are enough.
    pub(crate) fn done(&self, times: &[f64], spent: Duration) -> bool {
        let n = times.len();
        if n < self.min_runs {
            return false;
        }
        if n >= self.max_runs || spent >= self.budget {
            return true;
        }
        let m = stats::median(times);
        let (low, high) = stats::median_interval(times);
        (high - low) / 2.0 <= self.precision * m
    }
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Solved => "solved",
        Status::Infeasible => "infeasible",
        Status::Timeout => "timeout",
    }
}

/// A result with nothing measured yet.
fn blank(entry: &Entry) -> PuzzleResult {
    let bytes = match &entry.record {
        Some(line) => line.as_bytes().to_vec(),
        None => std::fs::read(&entry.path).unwrap_or_default(),
    };
    PuzzleResult {
        id: entry.id.clone(),
        file: entry.path.display().to_string(),
        hash: stats::content_hash(&bytes),
        kind: String::new(),
        status: "error".into(),
        count: 0,
        complete: false,
        matches: None,
        answer: None,
        median_ms: 0.0,
        low_ms: 0.0,
        high_ms: 0.0,
        times_ms: Vec::new(),
        calibration_ms: Vec::new(),
        work: None,
        message: None,
    }
}

/// Records the answer of one solve (the same on every run, or the solver is not deterministic: the first
/// run's is kept).
fn record(result: &mut PuzzleResult, outcome: &Outcome, expected: Option<&crate::grid::Grid>) {
    result.status = status_word(outcome.status).into();
    result.count = outcome.solutions.len();
    result.complete = outcome.complete;
    let first = outcome.solutions.first();
    result.answer = first.map(|g| g.to_line());
    result.matches = expected.map(|s| Some(s) == first && outcome.solutions.len() == 1);
    let s = &outcome.stats;
    result.work = Some(Work {
        decided_by: s.decided_by(),
        search_nodes: s.search_nodes,
        search_restarts: s.search_restarts,
        probes: s.probes,
        solver_calls: s.solver_calls,
    });
}

/// The puzzle of an entry: its file, or its line (a corpus record, an ID or a link).
pub(crate) fn load(
    entry: &Entry,
    reader: &Reader,
) -> Result<crate::model::Puzzle, crate::error::Error> {
    match &entry.record {
        Some(line) => reader.load_text(line),
        None => reader.load(&entry.path),
    }
}

/// One puzzle being measured: its result so far, the puzzle (none when it did not load), the time spent.
struct Job {
    result: PuzzleResult,
    puzzle: Option<crate::model::Puzzle>,
    spent: Duration,
}

impl Job {
    fn new(entry: &Entry, reader: &Reader) -> Job {
        let mut result = blank(entry);
        let puzzle = match load(entry, reader) {
            Ok(p) => {
                result.kind = p.kind().to_string();
                Some(p)
            }
            Err(e) => {
                result.message = Some(e.to_string());
                None
            }
        };
        Job {
            result,
            puzzle,
            spent: Duration::ZERO,
        }
    }

    fn done(&self, plan: &Plan) -> bool {
        self.puzzle.is_none() || plan.done(&self.result.times_ms, self.spent)
    }

    /// One calibration and one solve.
    fn step(&mut self, options: &SolveOptions) {
        let Some(puzzle) = &self.puzzle else { return };
        let start = Instant::now();
        self.result.calibration_ms.push(stats::calibration_ms());
        match crate::solve(puzzle, options) {
            Ok(outcome) => {
                self.result
                    .times_ms
                    .push(outcome.time.as_secs_f64() * 1000.0);
                if self.result.times_ms.len() == 1 {
                    record(&mut self.result, &outcome, puzzle.solution());
                }
            }
            Err(e) => {
                self.result.status = "error".into();
                self.result.message = Some(e.to_string());
                self.puzzle = None;
            }
        }
        self.spent += start.elapsed();
    }
}

/// The median and its interval, from the times.
pub(crate) fn summarise(result: &mut PuzzleResult) {
    result.median_ms = stats::median(&result.times_ms);
    (result.low_ms, result.high_ms) = stats::median_interval(&result.times_ms);
}

/// Benchmarks every file, in rounds: each round solves every puzzle that still needs runs once, so each
/// puzzle's runs are spread over the whole bench and its interval takes in how the machine's speed wandered
/// meanwhile (runs back to back would all see the same minute). `progress` is called as each puzzle is done.
pub(crate) fn run(
    found: &Collected,
    reader: &Reader,
    options: &SolveOptions,
    plan: &Plan,
    progress: &dyn Fn(&PuzzleResult),
) -> Report {
    let mut jobs: Vec<Job> = found.entries.iter().map(|e| Job::new(e, reader)).collect();
    let mut reported = vec![false; jobs.len()];
    loop {
        let mut any = false;
        for (job, seen) in jobs.iter_mut().zip(&mut reported) {
            if !job.done(plan) {
                job.step(options);
                any = true;
            }
            if job.done(plan) && !*seen {
                *seen = true;
                progress(&job.result);
            }
        }
        if !any {
            break;
        }
    }
    let puzzles = jobs
        .into_iter()
        .map(|mut j| {
            summarise(&mut j.result);
            j.result
        })
        .collect();
    report(puzzles, found, plan)
}

/// The report of measured puzzles: per-type figures added.
pub(crate) fn report(puzzles: Vec<PuzzleResult>, found: &Collected, plan: &Plan) -> Report {
    Report {
        schema: SCHEMA,
        min_runs: plan.min_runs,
        max_runs: plan.max_runs,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        types: types(&puzzles),
        puzzles,
        skipped: found
            .skipped
            .iter()
            .map(|(id, why)| Skipped {
                id: id.clone(),
                why: why.clone(),
            })
            .collect(),
        comparison: None,
    }
}

/// Groups puzzles by type (unreadable ones under `(unreadable)`).
pub(crate) fn by_type(puzzles: &[PuzzleResult]) -> BTreeMap<&str, Vec<&PuzzleResult>> {
    let mut out: BTreeMap<&str, Vec<&PuzzleResult>> = BTreeMap::new();
    for p in puzzles {
        let kind = if p.kind.is_empty() {
            "(unreadable)"
        } else {
            p.kind.as_str()
        };
        out.entry(kind).or_default().push(p);
    }
    out
}

fn types(puzzles: &[PuzzleResult]) -> Vec<TypeResult> {
    by_type(puzzles)
        .into_iter()
        .map(|(kind, ps)| {
            let medians: Vec<f64> = ps.iter().map(|p| p.median_ms).collect();
            let Times {
                median_ms,
                total_ms,
            } = times(&medians);
            TypeResult {
                kind: kind.to_string(),
                puzzles: ps.len(),
                median_ms,
                slowest_ms: medians.iter().copied().fold(0.0, f64::max),
                total_ms,
                mismatches: ps.iter().filter(|p| p.matches == Some(false)).count(),
            }
        })
        .collect()
}

/// The median and total of each side's medians over pairs of results for the same puzzles: this run's, then the
/// other's (a baseline's, or another build's).
pub(crate) fn sides<'a>(
    pairs: impl Iterator<Item = (&'a PuzzleResult, &'a PuzzleResult)>,
) -> [Times; 2] {
    let (this, other): (Vec<f64>, Vec<f64>) =
        pairs.map(|(a, b)| (a.median_ms, b.median_ms)).unzip();
    [times(&this), times(&other)]
}

/// The median and total of some puzzles' medians: a type's figures, in its row and in a comparison alike.
fn times(medians: &[f64]) -> Times {
    Times {
        median_ms: stats::median(medians),
        total_ms: medians.iter().sum(),
    }
}
