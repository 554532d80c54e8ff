//! Presolve by propagation: shrink every cell's candidates before the solver sees the program.
//!
//! Each rule primitive prunes for itself ([`crate::rules::Primitive::prune`]): all-different removes placed
//! values and places hidden singles, sums and products keep only values some completion can reach, relations keep
//! only supported values. The loop runs to a fixpoint. Only candidates that no solution can use are removed, so
//! the set of solutions is unchanged: when every cell is down to one candidate, that grid is the only possible
//! answer (it is still verified), and when a cell has none, the puzzle has no solution. What remains is searched
//! ([`super::search`]) and, past the search budget, sent to the solver with the removed columns fixed to 0.

use super::intersection::Intersection;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::rules::Rule;

/// Candidate values per cell as bit sets (bit v-1 = value v); sizes up to 64.
#[derive(Clone, Debug)]
pub struct Domains {
    size: usize,
    bits: Vec<u64>,
    /// Cells (row-major indices) that lost candidates since the log was last cleared: propagation wakes the
    /// rules that watch these instead of comparing every cell a rule reads before and after it runs.
    log: Vec<u32>,
}

impl PartialEq for Domains {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.bits == other.bits
    }
}

impl Eq for Domains {}

/// Propagation found a cell with no candidate left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

impl Domains {
    /// The largest size presolve handles (one bit per value in a `u64`).
    pub const MAX_SIZE: usize = 64;

    pub fn full(size: usize) -> Self {
        Domains {
            size,
            bits: vec![all_values(size); size * size],
            log: Vec::new(),
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn get(&self, cell: Cell) -> u64 {
        self.bits[cell.row * self.size + cell.col]
    }

    pub fn contains(&self, cell: Cell, v: u32) -> bool {
        self.get(cell) >> (v - 1) & 1 == 1
    }

    /// The candidate values of a cell, ascending.
    pub fn values(&self, cell: Cell) -> impl Iterator<Item = u32> {
        bit_indices(self.get(cell)).map(|i| i as u32 + 1)
    }

    /// The value of a cell with one candidate.
    pub fn fixed(&self, cell: Cell) -> Option<u32> {
        let b = self.get(cell);
        (b.count_ones() == 1).then(|| b.trailing_zeros() + 1)
    }

    pub fn min(&self, cell: Cell) -> u32 {
        self.get(cell).trailing_zeros() + 1
    }

    pub fn max(&self, cell: Cell) -> u32 {
        64 - self.get(cell).leading_zeros()
    }

    /// Keeps only the candidates in `mask`; `Ok(true)` when something was removed.
    pub fn restrict(&mut self, cell: Cell, mask: u64) -> Result<bool, Contradiction> {
        let i = cell.row * self.size + cell.col;
        let new = self.bits[i] & mask;
        if new == 0 {
            return Err(Contradiction);
        }
        let changed = new != self.bits[i];
        if changed {
            self.bits[i] = new;
            self.log.push(i as u32);
        }
        Ok(changed)
    }

    pub fn remove(&mut self, cell: Cell, v: u32) -> Result<bool, Contradiction> {
        self.restrict(cell, !(1u64 << (v - 1)))
    }

    pub fn assign(&mut self, cell: Cell, v: u32) -> Result<bool, Contradiction> {
        self.restrict(cell, 1u64 << (v - 1))
    }

    /// The grid of fixed cells (0 where a cell still has several candidates).
    pub fn grid(&self) -> Grid {
        let mut g = Grid::empty(self.size);
        for cell in g.clone().cells() {
            g.set(cell, self.fixed(cell).unwrap_or(0));
        }
        g
    }

    pub fn fixed_count(&self) -> usize {
        self.bits.iter().filter(|b| b.count_ones() == 1).count()
    }

    pub fn candidate_count(&self) -> usize {
        self.bits.iter().map(|b| b.count_ones() as usize).sum()
    }
}

/// Bit for value v.
pub fn bit(v: u32) -> u64 {
    1u64 << (v - 1)
}

/// The bit set of the values 1..=size (size <= 64).
pub fn all_values(size: usize) -> u64 {
    if size == 64 {
        u64::MAX
    } else {
        (1u64 << size) - 1
    }
}

/// The positions of the set bits of `mask` (0 for the lowest), ascending: the values of a domain less one, or
/// the members of a set of cells.
pub fn bit_indices(mask: u64) -> impl Iterator<Item = usize> {
    let mut b = mask;
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            i
        })
    })
}

/// How much probing presolve may do: probes (one candidate assumed, then propagated) per puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeBudget(pub u64);

impl ProbeBudget {
    /// Enough to sweep every candidate of a 25x25 grid a few times; a fraction of a second on small grids.
    pub fn for_size(n: usize) -> Self {
        ProbeBudget((8 * n * n * n).max(2_000) as u64)
    }
}

/// What presolve did, for the stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PresolveReport {
    /// Probes run (candidates assumed and propagated).
    pub probes: u64,
    /// Candidates removed because assuming them led to a contradiction.
    pub probe_removals: u64,
}

/// The rules of one puzzle, indexed by the cells they read, so that propagation re-runs only the rules whose
/// cells changed.
pub struct Propagator<'a> {
    puzzle: &'a Puzzle,
    rules: Vec<Rule>,
    cells: Vec<Vec<Cell>>,
    /// For each cell (row-major), the rules that read it.
    watchers: Vec<Vec<usize>>,
}

impl<'a> Propagator<'a> {
    /// The puzzle's rules.
    pub fn new(puzzle: &'a Puzzle) -> Self {
        Self::with_rules(puzzle, puzzle.rules().to_vec())
    }

    /// The puzzle's rules, then the pointing and claiming its all-different groups imply
    /// ([`Intersection`]). Stronger, and dearer per propagation: search uses it, where one pruned
    /// candidate saves a subtree; presolve, which decides most puzzles with the plain rules, does not.
    pub fn with_intersections(puzzle: &'a Puzzle) -> Self {
        let mut rules = puzzle.rules().to_vec();
        rules.extend(Intersection::derive(puzzle.size(), puzzle.rules()));
        Self::with_rules(puzzle, rules)
    }

    fn with_rules(puzzle: &'a Puzzle, rules: Vec<Rule>) -> Self {
        let n = puzzle.size();
        let cells: Vec<Vec<Cell>> = rules.iter().map(|r| r.cells()).collect();
        let mut watchers = vec![Vec::new(); n * n];
        for (i, cs) in cells.iter().enumerate() {
            for c in cs {
                watchers[c.row * n + c.col].push(i);
            }
        }
        Propagator {
            puzzle,
            rules,
            cells,
            watchers,
        }
    }

    /// Domains with the givens assigned and every rule propagated to a fixpoint.
    pub fn initial(&self) -> Result<Domains, Contradiction> {
        let mut d = Domains::full(self.puzzle.size());
        for (cell, v) in self.puzzle.givens().filled() {
            d.assign(cell, v)?;
        }
        self.fixpoint(&mut d, 0..self.cells.len())?;
        Ok(d)
    }

    /// Runs the rules in `queue`, and every rule whose cells they change, until nothing changes.
    pub fn fixpoint(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), Contradiction> {
        self.fixpoint_blame(d, start).map_err(|_| Contradiction)
    }

    /// [`Self::fixpoint`] that names the rule which found the contradiction (its index in the propagator's rules).
    pub fn fixpoint_blame(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), usize> {
        let rules = &self.rules;
        let mut queue = RuleQueue::new(rules.len());
        for i in start {
            queue.push(i);
        }
        d.log.clear();
        while let Some(i) = queue.pop() {
            rules[i].prune(d).map_err(|_| i)?;
            for cell in d.log.drain(..) {
                for &j in &self.watchers[cell as usize] {
                    queue.push(j);
                }
            }
        }
        Ok(())
    }

    /// The rules that read `cell` (indices into the propagator's rules: the puzzle's, then derived ones).
    pub fn rules_of(&self, cell: Cell) -> &[usize] {
        &self.watchers[cell.row * self.puzzle.size() + cell.col]
    }

    /// How many rules the propagator runs (the puzzle's and derived ones).
    pub fn rule_count(&self) -> usize {
        self.cells.len()
    }

    /// Propagates after `cell`'s candidates changed.
    pub fn after(&self, d: &mut Domains, cell: Cell) -> Result<(), Contradiction> {
        self.after_blame(d, cell).map_err(|_| Contradiction)
    }

    /// [`Self::after`] that names the rule which found the contradiction.
    pub fn after_blame(&self, d: &mut Domains, cell: Cell) -> Result<(), usize> {
        self.fixpoint_blame(d, self.rules_of(cell).iter().copied())
    }

    /// Probing (singleton consistency): assume each candidate of each open cell in turn, propagate, and remove
    /// the candidate when that fails. Sweeps repeat while they remove something and the budget lasts. Cells with
    /// the fewest candidates go first: their probes are the most likely to fail.
    pub fn probe(
        &self,
        d: &mut Domains,
        budget: ProbeBudget,
        report: &mut PresolveReport,
    ) -> Result<(), Contradiction> {
        let n = d.size();
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
                    if report.probes >= budget.0 {
                        return Ok(());
                    }
                    report.probes += 1;
                    let mut trial = d.clone();
                    let failed =
                        trial.assign(cell, v).is_err() || self.after(&mut trial, cell).is_err();
                    if failed {
                        report.probe_removals += 1;
                        removed_this_sweep = true;
                        d.remove(cell, v)?;
                        self.after(d, cell)?;
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
}

/// The rules waiting to run, first in first out, each at most once.
struct RuleQueue {
    queued: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl RuleQueue {
    fn new(rules: usize) -> Self {
        RuleQueue {
            queued: vec![false; rules],
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

/// Propagates the givens and every rule to a fixpoint, then probes within the budget. `None` for sizes
/// presolve does not handle.
pub fn presolve(
    puzzle: &Puzzle,
    budget: ProbeBudget,
    report: &mut PresolveReport,
) -> Option<Result<Domains, Contradiction>> {
    if puzzle.size() > Domains::MAX_SIZE {
        return None;
    }
    let propagator = Propagator::new(puzzle);
    Some(propagator.initial().and_then(|mut d| {
        if d.fixed_count() < d.size() * d.size() {
            propagator.probe(&mut d, budget, report)?;
        }
        Ok(d)
    }))
}
