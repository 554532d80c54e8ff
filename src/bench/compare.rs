//! A run against a saved baseline, puzzle by puzzle (matched by id).
//!
//! What fails the run: a puzzle whose status or solution count changed, or whose unique answer moved; a
//! puzzle or type that is slower beyond doubt: the whole 95% interval of its time ratio above 1 + tolerance,
//! and its median at least `floor_ms` slower (below that, a ratio is timer resolution, however sure).
//! What is listed without failing: new, missing and edited puzzles (an edited one is not compared), and work
//! counts that changed (search nodes, probes, solver calls: the same build gives the same counts, so a change
//! there is a change of behaviour even when the time is noise).

use std::collections::BTreeMap;

use super::stats;
use crate::report::bench::{describe, Compared, Comparison, Finding, PuzzleResult, Report};

/// When a slower time counts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Judge {
    /// 0.25: the interval's low end must be above 1.25.
    pub(crate) tolerance: f64,
    /// The median must be at least this many milliseconds slower.
    pub(crate) floor_ms: f64,
}

impl Judge {
    pub(crate) fn slower(&self, ratio: &stats::Ratio, now_ms: f64, before_ms: f64) -> bool {
        ratio.low > 1.0 + self.tolerance && now_ms - before_ms >= self.floor_ms
    }
}

fn finding(id: &str, what: String, fails: bool) -> Finding {
    Finding {
        id: id.to_owned(),
        what,
        fails,
    }
}

/// Whether two results of one puzzle give the same answer: the same status and count, and for a unique
/// solution the same grid (several solutions compare by count only: which comes first is not an answer).
pub(crate) fn answer_change(now: &PuzzleResult, before: &PuzzleResult) -> Option<String> {
    let same = now.status == before.status
        && now.count == before.count
        && (now.count != 1 || now.answer == before.answer);
    (!same).then(|| format!("answer changed ({} -> {})", describe(before), describe(now)))
}

/// Compares a run with its baseline.
pub(crate) fn compare(now: &Report, before: &Report, against: &str, judge: Judge) -> Comparison {
    let old: BTreeMap<&str, &PuzzleResult> =
        before.puzzles.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut out = Comparison {
        against: against.to_owned(),
        ..Comparison::default()
    };
    let mut timed: Vec<(&PuzzleResult, &PuzzleResult)> = Vec::new();
    for p in &now.puzzles {
        let Some(b) = old.get(p.id.as_str()) else {
            out.findings
                .push(finding(&p.id, "new: not in the baseline".into(), false));
            continue;
        };
        if p.hash != b.hash {
            out.findings.push(finding(
                &p.id,
                "edited since the baseline: not compared".into(),
                false,
            ));
            continue;
        }
        if let Some(what) = answer_change(p, b) {
            out.findings.push(finding(&p.id, what, true));
        }
        if let (Some(w), Some(v)) = (p.work, b.work) {
            if w != v {
                out.findings
                    .push(finding(&p.id, format!("work changed ({v} -> {w})"), false));
            }
        }
        if p.status != "error" && b.status != "error" {
            timed.push((p, b));
        }
    }
    let ids: std::collections::BTreeSet<&str> = now.puzzles.iter().map(|p| p.id.as_str()).collect();
    for b in before
        .puzzles
        .iter()
        .filter(|b| !ids.contains(b.id.as_str()))
    {
        out.findings.push(finding(
            &b.id,
            "missing: in the baseline, not in this run".into(),
            true,
        ));
    }
    let alpha = stats::alpha_for(timed.len());
    let speed = machine(now, before);
    for (p, b) in &timed {
        let r = stats::shift(&p.times_ms, &b.times_ms, speed, alpha);
        let slower = judge.slower(&r, p.median_ms, b.median_ms);
        if slower {
            let what = format!(
                "slower: {:.3} ms against {:.3} ms, ratio {:.2} [{:.2}, {:.2}]",
                p.median_ms, b.median_ms, r.ratio, r.low, r.high
            );
            out.findings.push(finding(&p.id, what, true));
        }
        out.puzzles.push(Compared {
            name: p.id.clone(),
            ratio: r,
            slower,
            times: None,
        });
    }
    out.types = type_ratios(&timed, &out.puzzles, judge, &mut out.findings);
    out
}

/// How much slower the machine was during this run than during the baseline's: the ratio of the median of
/// all calibrations taken beside the solves of each (1 when either has none). Run-wide, because one
/// puzzle's few calibrations are noisier than the drift they would correct; the rounds spread them over
/// the run.
fn machine(now: &Report, before: &Report) -> f64 {
    let all = |r: &Report| -> Vec<f64> {
        r.puzzles
            .iter()
            .flat_map(|p| p.calibration_ms.iter().copied())
            .collect()
    };
    let (a, b) = (all(now), all(before));
    if a.is_empty() || b.is_empty() {
        return 1.0;
    }
    stats::median(&a).max(1e-6) / stats::median(&b).max(1e-6)
}

/// Per type: the geometric mean of its puzzles' ratios, with its interval.
fn type_ratios(
    timed: &[(&PuzzleResult, &PuzzleResult)],
    puzzles: &[Compared],
    judge: Judge,
    findings: &mut Vec<Finding>,
) -> Vec<Compared> {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, (p, _)) in timed.iter().enumerate() {
        groups.entry(p.kind.as_str()).or_default().push(k);
    }
    groups
        .into_iter()
        .map(|(kind, members)| {
            let ratios: Vec<stats::Ratio> = members.iter().map(|&k| puzzles[k].ratio).collect();
            let r = stats::pooled(&ratios);
            let times = super::sides(members.iter().map(|&k| timed[k]));
            let slower = judge.slower(&r, times[0].median_ms, times[1].median_ms);
            if slower {
                let what = format!(
                    "type slower: ratio {:.2} [{:.2}, {:.2}]",
                    r.ratio, r.low, r.high
                );
                findings.push(finding(kind, what, true));
            }
            Compared {
                name: kind.to_owned(),
                ratio: r,
                slower,
                times: Some(times),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::bench::SCHEMA;

    fn puzzle(id: &str, times: &[f64], answer: &str, count: usize) -> PuzzleResult {
        PuzzleResult {
            id: id.into(),
            file: id.into(),
            hash: "h".into(),
            kind: "sudoku".into(),
            status: "solved".into(),
            count,
            complete: true,
            matches: None,
            answer: Some(answer.into()),
            median_ms: stats::median(times),
            low_ms: 0.0,
            high_ms: 0.0,
            times_ms: times.to_vec(),
            calibration_ms: vec![],
            work: None,
            message: None,
        }
    }

    fn report(puzzles: Vec<PuzzleResult>) -> Report {
        Report {
            schema: SCHEMA,
            min_runs: 1,
            max_runs: 1,
            cores: 1,
            types: vec![],
            puzzles,
            skipped: vec![],
            comparison: None,
        }
    }

    const JUDGE: Judge = Judge {
        tolerance: 0.25,
        floor_ms: 0.05,
    };

    fn noisy(centre: f64) -> Vec<f64> {
        (0..15)
            .map(|k| centre * (1.0 + 0.02 * f64::from(k % 5)))
            .collect()
    }

    #[test]
    fn answers_counts_and_slowdowns() {
        let base = report(vec![
            puzzle("a", &noisy(10.0), "12", 1),
            puzzle("b", &noisy(10.0), "21", 2),
        ]);
        let same = compare(&base, &base, "base", JUDGE);
        assert!(
            same.findings.iter().all(|f| !f.fails),
            "{:?}",
            same.findings
        );
        // Several solutions: a different first grid is not a change.
        let other_first = report(vec![
            puzzle("a", &noisy(10.0), "12", 1),
            puzzle("b", &noisy(10.0), "99", 2),
        ]);
        assert!(compare(&other_first, &base, "base", JUDGE)
            .findings
            .iter()
            .all(|f| !f.fails));
        // A unique answer that moved, and a count that changed, fail.
        let moved = report(vec![
            puzzle("a", &noisy(10.0), "21", 1),
            puzzle("b", &noisy(10.0), "21", 1),
        ]);
        let found = compare(&moved, &base, "base", JUDGE).findings;
        assert_eq!(found.iter().filter(|f| f.fails).count(), 2, "{found:?}");
        // One puzzle ten times slower fails, by itself and its type.
        let slow = report(vec![
            puzzle("a", &noisy(100.0), "12", 1),
            puzzle("b", &noisy(10.0), "21", 2),
        ]);
        let c = compare(&slow, &base, "base", JUDGE);
        assert!(
            c.puzzles[0].slower && !c.puzzles[1].slower,
            "{:?}",
            c.puzzles
        );
        assert!(c.findings.iter().any(|f| f.fails && f.id == "a"));
        // Ten times slower but far below the floor: not a regression.
        let tiny = report(vec![puzzle("a", &noisy(0.001), "12", 1)]);
        let tinier = report(vec![puzzle("a", &noisy(0.01), "12", 1)]);
        assert!(compare(&tinier, &tiny, "base", JUDGE)
            .findings
            .iter()
            .all(|f| !f.fails));
    }

    #[test]
    fn a_type_has_both_sides_median_and_total() {
        let base = report(vec![
            puzzle("a", &noisy(10.0), "12", 1),
            puzzle("b", &noisy(10.0), "21", 2),
        ]);
        let slow = report(vec![
            puzzle("a", &noisy(100.0), "12", 1),
            puzzle("b", &noisy(10.0), "21", 2),
        ]);
        let c = compare(&slow, &base, "base", JUDGE);
        // The puzzles' medians are 104 and 10.4 now, 10.4 and 10.4 in the baseline.
        let [now, then] = c.types[0].times.expect("a type has both sides' times");
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(
            close(now.median_ms, 57.2) && close(now.total_ms, 114.4),
            "{now:?}"
        );
        assert!(
            close(then.median_ms, 10.4) && close(then.total_ms, 20.8),
            "{then:?}"
        );
        assert!(c.puzzles.iter().all(|p| p.times.is_none()));
    }

    #[test]
    fn new_and_edited_puzzles_are_listed_and_missing_ones_fail() {
        let base = report(vec![
            puzzle("a", &noisy(1.0), "12", 1),
            puzzle("b", &noisy(1.0), "21", 1),
        ]);
        let mut edited = puzzle("b", &noisy(50.0), "99", 1);
        edited.hash = "other".into();
        let now = report(vec![edited, puzzle("c", &noisy(1.0), "12", 1)]);
        let found = compare(&now, &base, "base", JUDGE).findings;
        let words: Vec<String> = found
            .iter()
            .map(|f| format!("{} {}", f.id, f.what))
            .collect();
        assert!(
            found
                .iter()
                .all(|f| f.fails == f.what.starts_with("missing")),
            "{words:?}"
        );
        assert!(words.iter().any(|w| w.starts_with("b edited")), "{words:?}");
        assert!(words.iter().any(|w| w.starts_with("c new")), "{words:?}");
        assert!(
            words.iter().any(|w| w.starts_with("a missing")),
            "{words:?}"
        );
    }
}
