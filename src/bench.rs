//! Regression benchmarks over puzzle files (`latin bench`).
//!
//! Each puzzle is solved `repeat` times; its time is the median of those runs, and a type's time is the median
//! over its puzzles (robust to the odd slow run on a noisy machine). A report can be saved as JSON and later
//! used as the baseline of another run: a changed answer, or a type whose median slowed by more than the
//! tolerance, is a regression.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::model::load::Reader;
use crate::report::bench::{describe, PuzzleResult, Report, TypeResult};
use crate::solve::{SolveOptions, Status};

/// The puzzle files under `paths`: files as given, directories searched recursively for `.yaml` and `.yml`,
/// in sorted order so that runs compare puzzle by puzzle.
pub(crate) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
        let io = |source: std::io::Error| Error::io(dir, &source);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(Error::Io {
                path: p.clone(),
                message: "no such file or directory".into(),
            });
        }
    }
    Ok(out)
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Benchmarks one file.
pub(crate) fn bench_file(
    file: &Path,
    reader: &Reader,
    options: &SolveOptions,
    repeat: usize,
) -> PuzzleResult {
    let mut result = PuzzleResult {
        file: file.display().to_string(),
        kind: String::new(),
        status: "error".into(),
        matches: None,
        answer: None,
        median_ms: 0.0,
        times_ms: Vec::new(),
        decided_by: None,
        message: None,
    };
    let puzzle = match reader.load(file) {
        Ok(p) => p,
        Err(e) => {
            result.message = Some(e.to_string());
            return result;
        }
    };
    result.kind = puzzle.kind().to_string();
    for _ in 0..repeat.max(1) {
        match crate::solve(&puzzle, options) {
            Ok(outcome) => {
                result.times_ms.push(outcome.time.as_secs_f64() * 1000.0);
                result.decided_by = Some(outcome.stats.decided_by());
                result.status = match outcome.status {
                    Status::Solved => "solved",
                    Status::Infeasible => "infeasible",
                    Status::Timeout => "timeout",
                }
                .into();
                let first = outcome.solutions.first();
                result.answer = first.map(|g| g.to_line());
                result.matches = puzzle.solution().map(|s| Some(s) == first);
            }
            Err(e) => {
                result.status = "error".into();
                result.message = Some(e.to_string());
                return result;
            }
        }
    }
    result.median_ms = median(&result.times_ms);
    result
}

/// Benchmarks every file; `progress` is called after each.
pub(crate) fn run(
    files: &[PathBuf],
    reader: &Reader,
    options: &SolveOptions,
    repeat: usize,
    progress: &dyn Fn(&PuzzleResult),
) -> Report {
    let puzzles: Vec<PuzzleResult> = files
        .iter()
        .map(|f| {
            let r = bench_file(f, reader, options, repeat);
            progress(&r);
            r
        })
        .collect();
    let mut by_type: BTreeMap<&str, Vec<&PuzzleResult>> = BTreeMap::new();
    for p in &puzzles {
        by_type.entry(p.kind.as_str()).or_default().push(p);
    }
    let types = by_type
        .into_iter()
        .map(|(kind, ps)| {
            let medians: Vec<f64> = ps.iter().map(|p| p.median_ms).collect();
            TypeResult {
                kind: if kind.is_empty() {
                    "(unreadable)"
                } else {
                    kind
                }
                .to_string(),
                puzzles: ps.len(),
                median_ms: median(&medians),
                slowest_ms: medians.iter().copied().fold(0.0, f64::max),
                total_ms: medians.iter().sum(),
                mismatches: ps.iter().filter(|p| p.matches == Some(false)).count(),
            }
        })
        .collect();
    Report {
        repeat: repeat.max(1),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        puzzles,
        types,
    }
}

/// What changed against a baseline: answers that differ, and types whose median slowed by more than
/// `tolerance` (0.25 = 25%). Medians below `floor_ms` on both sides are timer noise and never count as slower.
pub(crate) fn regressions(
    current: &Report,
    baseline: &Report,
    tolerance: f64,
    floor_ms: f64,
) -> Vec<String> {
    let mut out = Vec::new();
    let old: BTreeMap<&str, &PuzzleResult> = baseline
        .puzzles
        .iter()
        .map(|p| (p.file.as_str(), p))
        .collect();
    for p in &current.puzzles {
        if let Some(b) = old.get(p.file.as_str()) {
            if b.status != p.status || b.answer != p.answer {
                out.push(format!(
                    "{}: answer changed ({} -> {})",
                    p.file,
                    describe(b),
                    describe(p)
                ));
            }
        }
    }
    let old_types: BTreeMap<&str, &TypeResult> = baseline
        .types
        .iter()
        .map(|t| (t.kind.as_str(), t))
        .collect();
    for t in &current.types {
        if let Some(b) = old_types.get(t.kind.as_str()) {
            let slower = t.median_ms > b.median_ms * (1.0 + tolerance);
            if slower && t.median_ms.max(b.median_ms) >= floor_ms {
                out.push(format!(
                    "{}: median {:.3} ms, baseline {:.3} ms ({:+.0}%, tolerance {:.0}%)",
                    t.kind,
                    t.median_ms,
                    b.median_ms,
                    (t.median_ms / b.median_ms.max(1e-9) - 1.0) * 100.0,
                    tolerance * 100.0
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(file: &str, kind: &str, ms: f64, answer: &str) -> PuzzleResult {
        PuzzleResult {
            file: file.into(),
            kind: kind.into(),
            status: "solved".into(),
            matches: Some(true),
            answer: Some(answer.into()),
            median_ms: ms,
            times_ms: vec![ms],
            decided_by: None,
            message: None,
        }
    }

    fn report(puzzles: Vec<PuzzleResult>) -> Report {
        let kind = puzzles[0].kind.clone();
        let medians: Vec<f64> = puzzles.iter().map(|p| p.median_ms).collect();
        Report {
            repeat: 1,
            cores: 1,
            types: vec![TypeResult {
                kind,
                puzzles: puzzles.len(),
                median_ms: median(&medians),
                slowest_ms: 0.0,
                total_ms: 0.0,
                mismatches: 0,
            }],
            puzzles,
        }
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn regressions_name_changed_answers_and_slower_types() {
        let base = report(vec![
            puzzle("a.yaml", "sudoku", 10.0, "12"),
            puzzle("b.yaml", "sudoku", 10.0, "21"),
        ]);
        assert!(regressions(&base, &base, 0.25, 0.1).is_empty());
        let slower = report(vec![
            puzzle("a.yaml", "sudoku", 13.0, "12"),
            puzzle("b.yaml", "sudoku", 13.0, "21"),
        ]);
        let r = regressions(&slower, &base, 0.25, 0.1);
        assert_eq!(r.len(), 1);
        assert!(r[0].starts_with("sudoku: median 13.000 ms"), "{r:?}");
        assert!(regressions(&slower, &base, 0.5, 0.1).is_empty());
        let changed = report(vec![
            puzzle("a.yaml", "sudoku", 10.0, "21"),
            puzzle("b.yaml", "sudoku", 10.0, "21"),
        ]);
        let r = regressions(&changed, &base, 0.25, 0.1);
        assert_eq!(
            r,
            vec!["a.yaml: answer changed (solved 12 -> solved 21)".to_string()]
        );
        // Below the noise floor a doubling is not a regression.
        let tiny = report(vec![
            puzzle("a.yaml", "sudoku", 0.02, "12"),
            puzzle("b.yaml", "sudoku", 0.02, "21"),
        ]);
        let tinier = report(vec![
            puzzle("a.yaml", "sudoku", 0.04, "12"),
            puzzle("b.yaml", "sudoku", 0.04, "21"),
        ]);
        assert!(regressions(&tinier, &tiny, 0.25, 0.1).is_empty());
    }
}
