//! Presolve by propagation: shrink every cell's candidates before the solver sees the program.
//!
//! Each rule prunes for itself through its propagator ([`crate::rules::Rule::propagator`]), run by the
//! [`Engine`]: all-different removes placed
//! values and places hidden singles, sums and products keep only values some completion can reach, relations keep
//! only supported values. The loop runs to a fixpoint. Only candidates that no solution can use are removed, so
//! the set of solutions is unchanged: when every cell is down to one candidate, that grid is the only possible
//! answer (it is still verified), and when a cell has none, the puzzle has no solution. What remains is searched
//! ([`super::search`]) and, past the search budget, sent to the solver with the removed columns fixed to 0.

use std::time::Instant;

use super::engine::Engine;
use crate::domains::{Contradiction, Domains};
use crate::grid::Cell;
use crate::model::Puzzle;

/// How much probing presolve may do: probes (one candidate assumed, then propagated) per puzzle, and until
/// when (the solve's time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProbeBudget {
    pub probes: u64,
    pub deadline: Option<Instant>,
    /// When not 0: probing also stops after a run of this many probes that removed fewer than one in
    /// [`FRUITLESS`] of the candidates it tried (counted in whole windows, so the stop depends on the puzzle
    /// alone, not on the machine).
    pub window: u64,
}

/// A window of probes removing fewer than one candidate in this many ends probing on a budget with a window.
const FRUITLESS: u64 = 16;

impl ProbeBudget {
    /// No probing at all.
    pub(crate) const NONE: ProbeBudget = ProbeBudget {
        probes: 0,
        deadline: None,
        window: 0,
    };

    /// Enough to sweep every candidate of a 25x25 grid a few times; a fraction of a second on small grids.
    pub(crate) fn for_size(n: usize, deadline: Option<Instant>) -> Self {
        ProbeBudget {
            probes: (8 * n * n * n).max(2_000) as u64,
            deadline,
            window: 0,
        }
    }

    /// Whether probing must stop before probe number `done + 1`. The clock is read every 16 probes: a probe
    /// is one propagation, microseconds to a millisecond.
    fn spent(&self, done: u64) -> bool {
        done >= self.probes
            || (done % 16 == 0 && self.deadline.is_some_and(|t| Instant::now() >= t))
    }

    /// Whether a window of probes ends after probe number `done` (counted from this probing's start).
    fn window_ends(&self, done: u64) -> bool {
        self.window > 0 && done > 0 && done % self.window == 0
    }
}

/// What presolve did, for the stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PresolveReport {
    /// Probes run (candidates assumed and propagated).
    pub(crate) probes: u64,
    /// Candidates removed because assuming them led to a contradiction.
    pub(crate) probe_removals: u64,
}

/// Probing (singleton consistency): assume each candidate of each open cell in turn, propagate, and remove
/// the candidate when that fails. Sweeps repeat while they remove something and the budget lasts. Cells with
/// the fewest candidates go first: their probes are the most likely to fail.
pub(crate) fn probe(
    engine: &Engine,
    d: &mut Domains,
    budget: ProbeBudget,
    report: &mut PresolveReport,
) -> Result<(), Contradiction> {
    let n = d.size();
    let first = report.probes;
    let mut window_began = report.probe_removals;
    loop {
        let mut open: Vec<Cell> = (0..n * n)
            .map(|i| Cell::new(i / n, i % n))
            .filter(|&c| d.get(c).count_ones() > 1)
            .collect();
        open.sort_by_key(|&c| d.get(c).count_ones());
        let mut removed_this_sweep = false;
        for cell in open {
            for v in d.values(cell).collect::<Vec<_>>() {
                if !d.contains(cell, v) || d.get(cell).count_ones() == 1 {
                    continue;
                }
                if budget.spent(report.probes) {
                    return Ok(());
                }
                if budget.window_ends(report.probes - first) {
                    if (report.probe_removals - window_began) * FRUITLESS < budget.window {
                        return Ok(());
                    }
                    window_began = report.probe_removals;
                }
                report.probes += 1;
                let mut trial = d.clone();
                let failed =
                    trial.assign(cell, v).is_err() || engine.after(&mut trial, cell).is_err();
                if failed {
                    report.probe_removals += 1;
                    removed_this_sweep = true;
                    d.remove(cell, v)?;
                    engine.after(d, cell)?;
                    if d.fixed_count() == n * n {
                        return Ok(());
                    }
                }
            }
        }
        if !removed_this_sweep {
            return Ok(());
        }
    }
}

/// Propagates the givens and every rule to a fixpoint, then probes within the budget. `None` for sizes
/// presolve does not handle. Propagation stops at `deadline` ([`Engine::set_deadline`]).
pub(crate) fn presolve(
    puzzle: &Puzzle,
    budget: ProbeBudget,
    deadline: Option<Instant>,
    report: &mut PresolveReport,
) -> Option<Result<Domains, Contradiction>> {
    let engine = (puzzle.size() <= Domains::MAX_SIZE).then(|| Engine::new(puzzle))?;
    presolve_with(&engine, puzzle, budget, deadline, report)
}

/// [`presolve`] without probing or a deadline, for tests: the domains it leaves (it panics on a size presolve
/// does not take or on a contradiction).
#[cfg(test)]
pub(crate) fn presolved(puzzle: &Puzzle) -> Domains {
    presolve(
        puzzle,
        ProbeBudget::NONE,
        None,
        &mut PresolveReport::default(),
    )
    .expect("a size presolve takes")
    .expect("no contradiction in the givens")
}

/// [`presolve`] with an engine built before for the puzzle's rules.
pub(crate) fn presolve_with(
    engine: &Engine,
    puzzle: &Puzzle,
    budget: ProbeBudget,
    deadline: Option<Instant>,
    report: &mut PresolveReport,
) -> Option<Result<Domains, Contradiction>> {
    if puzzle.size() > Domains::MAX_SIZE {
        return None;
    }
    engine.set_deadline(deadline);
    Some(engine.initial(puzzle.givens()).and_then(|mut d| {
        if d.fixed_count() < d.size() * d.size() {
            probe(engine, &mut d, budget, report)?;
        }
        Ok(d)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::engine::tests::puzzle_text;

    /// On an empty Sudoku every candidate is in some solution, so no probe fails: without a window probing
    /// sweeps every candidate once; with one it stops after the first window.
    #[test]
    fn a_fruitless_window_ends_probing() {
        let puzzle = puzzle_text("type: sudoku\nsize: 9\n");
        let engine = Engine::new(&puzzle);
        let probes = |window| {
            let budget = ProbeBudget {
                probes: 10_000,
                deadline: None,
                window,
            };
            let mut d = presolved(&puzzle);
            let mut report = PresolveReport::default();
            probe(&engine, &mut d, budget, &mut report).unwrap();
            assert_eq!(report.probe_removals, 0);
            report.probes
        };
        assert_eq!(probes(0), 81 * 9);
        assert_eq!(probes(32), 32);
    }
}
