//! Two builds side by side (`latin bench --against OTHER`): each puzzle is solved by both, alternately and in
//! a random order per pair, in the same run, and the ratio of their times comes with its interval. On a
//! shared machine this is the only fair comparison: whatever the machine does to one build in a given second,
//! it does to the other within a second too.
//!
//! Both builds run as child processes (`solve --format json --max 2`), and each time is the one the build
//! reports itself (`time_ms`), so process start-up is not measured. Their answers are compared too.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::collect::{Collected, Entry};
use super::compare::{answer_change, Judge};
use super::{blank, report, stats, summarise, Plan};
use crate::grid::Grid;
use crate::model::load::Reader;
use crate::report::bench::{Compared, Comparison, Finding, PuzzleResult, Report};

/// A `latin` binary and the flags every solve gets (`--grammars`, `--time-limit`, stages).
#[derive(Clone, Debug)]
pub(crate) struct Build {
    pub(crate) binary: PathBuf,
    pub(crate) flags: Vec<OsString>,
}

/// One solve by one build.
struct Solve {
    status: String,
    count: usize,
    complete: bool,
    time_ms: f64,
    first: Option<Grid>,
}

impl Build {
    /// Whether the binary runs and is a `latin` (its `--version`), before any puzzle: a path that is wrong
    /// would otherwise show as every puzzle failing on the other side.
    pub(crate) fn check(&self) -> Result<(), String> {
        let out = Command::new(&self.binary)
            .arg("--version")
            .output()
            .map_err(|e| format!("{}: cannot run it: {e}", self.binary.display()))?;
        let said = String::from_utf8_lossy(&out.stdout);
        if out.status.success() && said.starts_with("latin ") {
            Ok(())
        } else {
            Err(format!(
                "{}: not a latin binary (`--version` said {:?})",
                self.binary.display(),
                said.lines().next().unwrap_or("").trim()
            ))
        }
    }

    fn solve(&self, file: &Path) -> Result<Solve, String> {
        let out = Command::new(&self.binary)
            .args(["solve", "--format", "json", "--max", "2"])
            .args(&self.flags)
            .arg(file)
            .output()
            .map_err(|e| format!("{}: {e}", self.binary.display()))?;
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|_| {
            let err = String::from_utf8_lossy(&out.stderr);
            format!("{}: {}", self.binary.display(), err.trim())
        })?;
        if let Some(message) = v
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(|m| m.as_str())
        {
            return Err(message.to_owned());
        }
        let grids: Vec<Vec<Vec<u32>>> =
            serde_json::from_value(v["solutions"].clone()).unwrap_or_default();
        Ok(Solve {
            status: v["status"].as_str().unwrap_or("error").to_owned(),
            count: grids.len(),
            complete: v["complete"].as_bool().unwrap_or(false),
            time_ms: v["time_ms"].as_f64().unwrap_or(0.0),
            first: grids.first().and_then(|g| Grid::from_rows(g)),
        })
    }
}

/// Measures one puzzle with both builds; returns this build's result and the other's.
fn pair(
    entry: &Entry,
    reader: &Reader,
    builds: [&Build; 2],
    plan: &Plan,
    seed: u64,
) -> [PuzzleResult; 2] {
    let mut results = [blank(entry), blank(entry)];
    let expected = match super::load(entry, reader) {
        Ok(p) => {
            for r in &mut results {
                r.kind = p.kind().to_owned();
            }
            p.solution().cloned()
        }
        Err(e) => {
            for r in &mut results {
                r.message = Some(e.to_string());
            }
            return results;
        }
    };
    // A corpus record goes to the builds as a puzzle file of its own, removed when done.
    let temp = match &entry.record {
        Some(line) => match record_file(line, reader, seed) {
            Ok(path) => Some(path),
            Err(e) => {
                for r in &mut results {
                    r.status = "error".into();
                    r.message = Some(e.to_string());
                }
                return results;
            }
        },
        None => None,
    };
    let file = temp.clone().unwrap_or_else(|| entry.path.clone());
    let results = measure(results, &file, expected.as_ref(), builds, plan, seed);
    if let Some(t) = temp {
        let _ = std::fs::remove_file(t);
    }
    results
}

/// Writes a corpus record as a puzzle file in the temporary directory.
fn record_file(line: &str, reader: &Reader, seed: u64) -> Result<PathBuf, crate::error::Error> {
    let map = crate::yaml::Value::Mapping(reader.mapping(line)?);
    let text = crate::yaml::to_string(&map).map_err(crate::error::Error::Yaml)?;
    let path = std::env::temp_dir().join(format!("latin-bench-{}-{seed}.yaml", std::process::id()));
    std::fs::write(&path, text).map_err(|e| crate::error::Error::io(&path, &e))?;
    Ok(path)
}

/// Solves one file with both builds in rounds until both medians are known. A build that fails on the file
/// stops there with its error; the other goes on to its own median (an older build may not know a type).
fn measure(
    mut results: [PuzzleResult; 2],
    file: &Path,
    expected: Option<&Grid>,
    builds: [&Build; 2],
    plan: &Plan,
    seed: u64,
) -> [PuzzleResult; 2] {
    let mut rng = fastrand::Rng::with_seed(seed);
    let start = std::time::Instant::now();
    let mut failed = [false; 2];
    let done = |r: &PuzzleResult, failed: bool| failed || plan.done(&r.times_ms, start.elapsed());
    while !(done(&results[0], failed[0]) && done(&results[1], failed[1])) {
        let order = if rng.bool() { [0, 1] } else { [1, 0] };
        for k in order {
            if failed[k] {
                continue;
            }
            match builds[k].solve(file) {
                Ok(s) => {
                    let r = &mut results[k];
                    r.times_ms.push(s.time_ms);
                    if r.times_ms.len() == 1 {
                        r.status = s.status;
                        r.count = s.count;
                        r.complete = s.complete;
                        r.answer = s.first.as_ref().map(Grid::to_line);
                        r.matches = expected
                            .as_ref()
                            .map(|e| s.first.as_ref() == Some(e) && s.count == 1);
                    }
                }
                Err(message) => {
                    results[k].status = "error".into();
                    results[k].message = Some(message);
                    failed[k] = true;
                }
            }
        }
    }
    for (r, failed) in results.iter_mut().zip(failed) {
        if !failed {
            summarise(r);
        }
    }
    results
}

/// Benchmarks `this` build against `other`, puzzle by puzzle; the report is this build's, with the ratios
/// (this over other) as its comparison.
pub(crate) fn run(
    found: &Collected,
    reader: &Reader,
    builds: [&Build; 2],
    plan: &Plan,
    judge: Judge,
    progress: &dyn Fn(&PuzzleResult),
) -> Report {
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    for (k, entry) in found.entries.iter().enumerate() {
        let [a, b] = pair(entry, reader, builds, plan, k as u64);
        progress(&a);
        mine.push(a);
        theirs.push(b);
    }
    let mut comparison = Comparison {
        against: builds[1].binary.display().to_string(),
        ..Comparison::default()
    };
    let mut timed = Vec::new();
    let alpha = stats::alpha_for(mine.len());
    for (a, b) in mine.iter().zip(&theirs) {
        if let Some(m) = b.message.as_ref().filter(|_| a.message.is_none()) {
            comparison
                .findings
                .push(finding(&a.id, format!("the other build failed: {m}")));
            continue;
        }
        if let Some(what) = answer_change(a, b).filter(|_| a.status != "error") {
            comparison.findings.push(finding(
                &a.id,
                what.replace("answer changed", "the builds disagree"),
            ));
        }
        if a.status == "error" || b.status == "error" {
            continue;
        }
        // Rounds where both builds ran: the pairs.
        let rounds = a.times_ms.len().min(b.times_ms.len());
        let r = stats::paired(&a.times_ms[..rounds], &b.times_ms[..rounds], alpha);
        let slower = judge.slower(&r, a.median_ms, b.median_ms);
        if slower {
            let what = format!(
                "slower than the other build: ratio {:.2} [{:.2}, {:.2}]",
                r.ratio, r.low, r.high
            );
            comparison.findings.push(finding(&a.id, what));
        }
        comparison.puzzles.push(Compared {
            name: a.id.clone(),
            ratio: r,
            slower,
            times: None,
        });
        timed.push((a, b));
    }
    let kinds: Vec<&str> = super::by_type(&mine).into_keys().collect();
    comparison.types = kinds
        .into_iter()
        .filter_map(|kind| {
            let members: Vec<usize> = (0..timed.len())
                .filter(|&k| timed[k].0.kind == kind)
                .collect();
            if members.is_empty() {
                return None;
            }
            let ratios: Vec<stats::Ratio> = members
                .iter()
                .map(|&k| comparison.puzzles[k].ratio)
                .collect();
            let r = stats::pooled(&ratios);
            let times = super::sides(members.iter().map(|&k| timed[k]));
            Some(Compared {
                name: kind.to_owned(),
                slower: judge.slower(&r, times[0].median_ms, times[1].median_ms),
                ratio: r,
                times: Some(times),
            })
        })
        .collect();
    let mut out = report(mine, found, plan);
    out.comparison = Some(comparison);
    out
}

fn finding(id: &str, what: String) -> Finding {
    Finding {
        id: id.to_owned(),
        what,
        fails: true,
    }
}
