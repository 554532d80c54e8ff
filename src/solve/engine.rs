//! The propagation engine: runs every propagator of a puzzle to a fixpoint, waking only those whose cells changed.
//!
//! The engine owns the running order; the propagators themselves are the rules' own ([`Rule::propagator`]) and the
//! derived pointing and claiming ([`Intersection`]), all behind the one [`Propagator`] trait of the foundations.
//! A rule's propagator may offer a sharper one once told which cells the puzzle's all-different groups keep
//! apart ([`Propagator::sharpened`]: a little-killer diagonal through a box, a sandwich inside a row); the engine
//! runs that one in its place. Presolve, probing and search all propagate through this.
//!
//! [`Rule::propagator`]: crate::rules::Rule::propagator

use super::intersection::Intersection;
use crate::domains::{Apart, Contradiction, Cost, Domains, Propagator};
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;

/// The propagators of one puzzle, indexed by the cells they watch, so that propagation re-runs only those whose
/// cells changed. Propagators are numbered: the puzzle's rules that have one, in order, then the derived ones;
/// a contradiction names the number of the propagator that found it (search weighs them by it).
///
/// An engine depends on the rules only, never on the givens: `--lines` builds one per thread for the template
/// and runs every line's givens through it ([`Self::initial`] takes them).
pub(crate) struct Engine<'a> {
    /// The grid's size.
    n: usize,
    rules: Vec<Own<'a>>,
    derived: Vec<Intersection>,
    /// For each cell (row-major), the propagators that watch it.
    watchers: Vec<Vec<usize>>,
    /// Per propagator: whether it has a cheap part run first ([`Propagator::staged`]).
    staged: Vec<bool>,
    /// Per propagator: the queue its cheap part (or its whole, when not staged) waits in ([`Propagator::cost`]).
    tier: Vec<u8>,
    /// The queues, reused from call to call.
    queues: std::cell::Cell<Queues>,
}

impl<'a> Engine<'a> {
    /// The puzzle's rules.
    pub(crate) fn new(puzzle: &'a Puzzle) -> Self {
        Self::with(puzzle, Vec::new())
    }

    /// The puzzle's rules, then the pointing and claiming its all-different groups imply
    /// ([`Intersection`]). Stronger, and dearer per propagation: search uses it, where one pruned
    /// candidate saves a subtree; presolve, which decides most puzzles with the plain rules, does not.
    pub(crate) fn with_intersections(puzzle: &'a Puzzle) -> Self {
        Self::with(puzzle, Intersection::derive(puzzle.size(), puzzle.rules()))
    }

    fn with(puzzle: &'a Puzzle, derived: Vec<Intersection>) -> Self {
        let n = puzzle.size();
        let apart = Apart::new(n, || {
            puzzle
                .rules()
                .iter()
                .filter_map(|r| r.permutation_cells())
                .collect()
        });
        // Each rule's propagator, or the sharper one it offers once it knows which of its cells differ.
        let rules: Vec<Own> = puzzle
            .rules()
            .iter()
            .filter_map(|r| r.propagator())
            .map(|p| match p.sharpened(&apart) {
                Some(sharp) => Own::Sharpened(sharp),
                None => Own::Rule(p),
            })
            .collect();
        let mut engine = Engine {
            n,
            rules,
            derived,
            watchers: vec![Vec::new(); n * n],
            staged: Vec::new(),
            tier: Vec::new(),
            queues: Default::default(),
        };
        engine.staged = (0..engine.count())
            .map(|i| engine.get(i).staged())
            .collect();
        engine.tier = (0..engine.count())
            .map(|i| match engine.get(i).cost() {
                Cost::Low => LOW,
                Cost::Medium => MEDIUM,
            })
            .collect();
        for i in 0..engine.count() {
            for c in engine.get(i).watches() {
                engine.watchers[c.row * n + c.col].push(i);
            }
        }
        engine
    }

    /// Propagator number i.
    fn get(&self, i: usize) -> &dyn Propagator {
        match self.rules.get(i) {
            Some(Own::Rule(p)) => *p,
            Some(Own::Sharpened(p)) => p.as_ref(),
            None => &self.derived[i - self.rules.len()],
        }
    }

    /// How many propagators the engine runs (the puzzle's and derived ones).
    pub(crate) fn count(&self) -> usize {
        self.rules.len() + self.derived.len()
    }

    /// Domains with `givens` assigned and every rule propagated to a fixpoint.
    pub(crate) fn initial(&self, givens: &Grid) -> Result<Domains, Contradiction> {
        let mut d = Domains::full(self.n);
        for (cell, v) in givens.filled() {
            d.assign(cell, v)?;
        }
        self.fixpoint(&mut d, 0..self.count())?;
        Ok(d)
    }

    /// Runs the propagators in `start`, and every one whose cells they change, until nothing changes.
    pub(crate) fn fixpoint(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), Contradiction> {
        self.fixpoint_blame(d, start).map_err(|_| Contradiction)
    }

    /// [`Self::fixpoint`] that names the propagator which found the contradiction.
    ///
    /// Three queues: woken propagators run their cheap part ([`Propagator::staged`]; the whole of those that
    /// have no cheap part) in the queue of their [`Propagator::cost`], low before medium, and a staged one runs
    /// whole only when both are empty. A staged propagator is not woken again by its own whole run, which
    /// leaves its cells at its own fixpoint.
    pub(crate) fn fixpoint_blame(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), usize> {
        let mut queues = self.queues.take();
        queues.reset(self.count());
        for i in start {
            queues.wake(i, self.tier[i], self.staged[i]);
        }
        d.log.clear();
        let out = self.drain(d, &mut queues);
        self.queues.set(queues);
        out
    }

    fn drain(&self, d: &mut Domains, q: &mut Queues) -> Result<(), usize> {
        loop {
            let Some((i, tier)) = q.pop() else {
                return Ok(());
            };
            let whole = tier == DEAR || !self.staged[i];
            let p = self.get(i);
            if whole && self.staged[i] {
                // Its cheap part ran to its fixpoint: every queue before this one is empty.
                p.propagate_rest(d).map_err(|_| i)?;
            } else if whole {
                p.propagate(d).map_err(|_| i)?;
            } else {
                p.propagate_cheap(d).map_err(|_| i)?;
            }
            let skip = (whole && self.staged[i]).then_some(i);
            for cell in d.log.drain(..) {
                for &j in &self.watchers[cell as usize] {
                    if Some(j) != skip {
                        q.wake(j, self.tier[j], self.staged[j]);
                    }
                }
            }
        }
    }

    /// The propagators that watch `cell`.
    pub(crate) fn watching(&self, cell: Cell) -> &[usize] {
        &self.watchers[cell.row * self.n + cell.col]
    }

    /// Propagates after `cell`'s candidates changed.
    pub(crate) fn after(&self, d: &mut Domains, cell: Cell) -> Result<(), Contradiction> {
        self.after_blame(d, cell).map_err(|_| Contradiction)
    }

    /// [`Self::after`] that names the propagator which found the contradiction.
    pub(crate) fn after_blame(&self, d: &mut Domains, cell: Cell) -> Result<(), usize> {
        self.fixpoint_blame(d, self.watching(cell).iter().copied())
    }
}

/// A rule's propagator as the puzzle holds it, or the sharpened one the engine built in its place.
enum Own<'a> {
    Rule(&'a dyn Propagator),
    Sharpened(Box<dyn Propagator>),
}

/// The queues, lowest cost first: propagators at [`Cost::Low`], then at [`Cost::Medium`], then staged
/// propagators waiting to run whole.
const LOW: u8 = 0;
const MEDIUM: u8 = 1;
const DEAR: u8 = 2;

/// The propagators waiting to run: each at most once per queue, first in first out, and a queue only once the
/// ones before it are empty. Kept by the engine between calls (search propagates at every node), so no call
/// allocates.
#[derive(Default)]
struct Queues {
    tiers: [Queue; 3],
}

impl Queues {
    fn reset(&mut self, count: usize) {
        for q in &mut self.tiers {
            q.reset(count);
        }
    }

    /// Queues propagator i at its tier, and (when staged) its whole run.
    fn wake(&mut self, i: usize, tier: u8, staged: bool) {
        self.tiers[tier as usize].push(i);
        if staged {
            self.tiers[DEAR as usize].push(i);
        }
    }

    /// The next propagator to run, and the queue it came from.
    fn pop(&mut self) -> Option<(usize, u8)> {
        (0..3).find_map(|t| self.tiers[t].pop().map(|i| (i, t as u8)))
    }
}

#[derive(Default)]
struct Queue {
    queued: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl Queue {
    /// Empty, for `count` propagators.
    fn reset(&mut self, count: usize) {
        self.queue.clear();
        self.queued.clear();
        self.queued.resize(count, false);
    }

    fn push(&mut self, i: usize) {
        if !self.queued[i] {
            self.queued[i] = true;
            self.queue.push_back(i);
        }
    }

    fn pop(&mut self) -> Option<usize> {
        let i = self.queue.pop_front()?;
        self.queued[i] = false;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Staging changes the order of work, never where it ends: on random partial Sudoku candidates, the engine's
    /// fixpoint (and whether it finds a contradiction) equals running every propagator whole, round after
    /// round, until nothing changes. (Every propagator here only removes candidates, so the fixpoint is unique.)
    const SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn the_staged_fixpoint_equals_the_plain_one() {
        let p = Puzzle::sudoku(9).unwrap();
        let engine = Engine::with_intersections(&p);
        assert!((0..engine.count()).any(|i| engine.staged[i]));
        let mut rng = fastrand::Rng::with_seed(5);
        let mut contradictions = 0;
        for _ in 0..400 {
            // Each cell keeps its value in a known solution and a few others, so that pairs and triples (Hall
            // sets only the matching finds) are common; sometimes a cell loses its solution value, so that
            // contradictions occur too.
            let mut d = Domains::full(9);
            for (i, ch) in SOLUTION.chars().enumerate() {
                let cell = Cell::new(i / 9, i % 9);
                let v = ch.to_digit(10).unwrap();
                let others = (0..rng.usize(2..8)).fold(0u64, |m, _| m | 1 << rng.u32(0..9));
                d.restrict(cell, 1 << (v - 1) | others).unwrap();
                if rng.usize(..400) == 0 && d.get(cell).count_ones() > 1 {
                    d.remove(cell, v).unwrap();
                }
            }
            let mut plain = d.clone();
            let plain_ok = loop {
                let mut changed = false;
                let all_ok =
                    (0..engine.count()).all(|i| match engine.get(i).propagate(&mut plain) {
                        Ok(c) => {
                            changed |= c;
                            true
                        }
                        Err(Contradiction) => false,
                    });
                if !all_ok || !changed {
                    break all_ok;
                }
            };
            let staged_ok = engine.fixpoint(&mut d, 0..engine.count()).is_ok();
            assert_eq!(staged_ok, plain_ok);
            if plain_ok {
                assert_eq!(d, plain);
            } else {
                contradictions += 1;
            }
        }
        assert!(
            contradictions > 0 && contradictions < 400,
            "{contradictions}"
        );
    }
}
