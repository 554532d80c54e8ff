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
use crate::domains::{Apart, Contradiction, Domains, Propagator};
use crate::grid::Cell;
use crate::model::Puzzle;

/// The propagators of one puzzle, indexed by the cells they watch, so that propagation re-runs only those whose
/// cells changed. Propagators are numbered: the puzzle's rules that have one, in order, then the derived ones;
/// a contradiction names the number of the propagator that found it (search weighs them by it).
pub(crate) struct Engine<'a> {
    puzzle: &'a Puzzle,
    rules: Vec<Own<'a>>,
    derived: Vec<Intersection>,
    /// For each cell (row-major), the propagators that watch it.
    watchers: Vec<Vec<usize>>,
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
            puzzle,
            rules,
            derived,
            watchers: vec![Vec::new(); n * n],
        };
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

    /// Domains with the givens assigned and every rule propagated to a fixpoint.
    pub(crate) fn initial(&self) -> Result<Domains, Contradiction> {
        let mut d = Domains::full(self.puzzle.size());
        for (cell, v) in self.puzzle.givens().filled() {
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
    pub(crate) fn fixpoint_blame(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), usize> {
        let mut queue = Queue::new(self.count());
        for i in start {
            queue.push(i);
        }
        d.log.clear();
        while let Some(i) = queue.pop() {
            self.get(i).propagate(d).map_err(|_| i)?;
            for cell in d.log.drain(..) {
                for &j in &self.watchers[cell as usize] {
                    queue.push(j);
                }
            }
        }
        Ok(())
    }

    /// The propagators that watch `cell`.
    pub(crate) fn watching(&self, cell: Cell) -> &[usize] {
        &self.watchers[cell.row * self.puzzle.size() + cell.col]
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

/// The propagators waiting to run, first in first out, each at most once.
struct Queue {
    queued: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl Queue {
    fn new(count: usize) -> Self {
        Queue {
            queued: vec![false; count],
            queue: Default::default(),
        }
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
