//! Candidate values per cell as bit sets, and the trait of everything that shrinks them.
//!
//! This is the state that propagation, presolve, search and the compiler share, so it sits at the bottom of the
//! crate and imports nothing above the grid: rules implement [`Propagator`] here, the engine in `solve/` runs
//! them, and `compile` reads the domains left, without any of them importing each other. One `u64` per cell
//! (bit v-1 = value v) keeps a whole 9x9 state in 648 bytes and makes the common operations single
//! instructions; sizes above 64 are not propagated.

use std::fmt;

use crate::grid::{Cell, Grid};

/// Shrinks candidate sets: a rule's deductions, or a derived one such as pointing and claiming. The engine
/// wakes a propagator when a cell it watches loses a candidate, and runs it to a fixpoint with the others.
pub(crate) trait Propagator: fmt::Debug + Send + Sync {
    /// The cells whose candidates the propagator reads.
    fn watches(&self) -> Vec<Cell>;

    /// Removes candidates that no solution can use; `Ok(true)` when something was removed. Removing nothing is
    /// always sound: pruning is an optimisation, never needed for correctness.
    fn propagate(&self, domains: &mut Domains) -> Result<bool, Contradiction>;

    /// [`Self::propagate`], for a propagator that stands for several rules: a contradiction names the rule
    /// (its index among the puzzle's rules) it is pinned on, when there is one. Search weighs rules by the
    /// contradictions they find.
    fn propagate_blaming(&self, domains: &mut Domains) -> Result<bool, Option<usize>> {
        self.propagate(domains).map_err(|_| None)
    }

    /// Whether [`Self::propagate_cheap`] is a cheaper part of [`Self::propagate`] worth running on its own.
    /// The engine then runs the cheap part at every wake-up and the whole only once no cheap part anywhere has
    /// more to do: dear deductions (Hall sets by matching) run once per stall instead of once per wake-up, and
    /// a contradiction the cheap parts find costs none at all. A staged propagator's `propagate` must reach its
    /// own fixpoint in one call (it is not woken by its own changes).
    fn staged(&self) -> bool {
        false
    }

    /// The cheap part of [`Self::propagate`] (see [`Self::staged`]).
    fn propagate_cheap(&self, _domains: &mut Domains) -> Result<bool, Contradiction> {
        Ok(false)
    }

    /// What [`Self::propagate`] does beyond [`Self::propagate_cheap`], for a staged propagator whose cheap part
    /// has nothing more to do on these domains (the engine runs it only then): a group whose singles are done
    /// need not look for them again before its matching. The default runs the whole.
    fn propagate_rest(&self, domains: &mut Domains) -> Result<bool, Contradiction> {
        self.propagate(domains)
    }

    /// Whether one run of [`Self::propagate`] leaves the propagator at its own fixpoint, so that its own changes
    /// need not wake it again.
    fn idempotent(&self) -> bool {
        false
    }

    /// When a woken propagator runs (its cheap part, if staged): [`Cost::Low`] at once, [`Cost::Medium`] only
    /// once no low one has work, so that many wake-ups in a cascade of singles collapse into one run.
    fn cost(&self) -> Cost {
        Cost::Low
    }

    /// Values that every solution of the rule, within `domains`, places on its watched cells (a renban line
    /// of five cells in 1..9 always holds a 5). The engine combines them with the puzzle's all-different
    /// groups: when every cell of the rule that can hold such a value lies in one group, the group holds it
    /// there and nowhere else. `None` (the default) from a rule that never names any, so that the engine
    /// derives nothing for it.
    fn required(&self, _domains: &Domains) -> Option<u64> {
        None
    }

    /// [`Self::propagate`] told that the rule's cells hold every value of `values` (a row whose 9 can go only
    /// on a renban line's cells puts the 9 on the line). Only asked of a rule that names required values; the
    /// default ignores what it is told.
    fn propagate_holding(
        &self,
        domains: &mut Domains,
        _values: u64,
    ) -> Result<bool, Contradiction> {
        self.propagate(domains)
    }

    /// For a rule between two cells: the cells (a, b) and, per value of a (index v - 1), the mask of b's values
    /// compatible with it. The engine composes such rules where two meet in a cell (its paths).
    /// `None` (the default) from every other rule.
    fn pairs(&self, _size: usize) -> Option<(Cell, Cell, Vec<u64>)> {
        None
    }

    /// A stronger propagator for the same rule, told which of its cells the puzzle's other rules keep apart
    /// (a little-killer diagonal crossing a box, an arrow inside one); `None` when that knowledge adds nothing.
    /// The engine runs the sharpened one in this one's place, so it must prune at least as much.
    fn sharpened(&self, _apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        None
    }

    /// The strongest propagator the rule has with the grid's distinctness in mind, for the ladders of `rate`
    /// and `hint`, which model what a person sees and where a dear set-up does not matter: at least as strong
    /// as [`Self::sharpened`], which is the default, and sound in the same way (`None`: the rule's own).
    fn thorough(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        self.sharpened(apart)
    }
}

/// How soon the engine runs a woken propagator ([`Propagator::cost`]), as constraint solvers order theirs by
/// cost class (Gecode's propagator cost, Schulte & Stuckey 2008): the whole of a staged propagator comes after
/// both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    /// A few operations whatever the grid (a relation between two cells, a path of two relations): where the
    /// engine runs the groups' singles on bit boards, a pass over the whole grid, these run to their own
    /// fixpoint before the boards do (whispers: about 4.7 runs of the boards a search node before, 0.87x the
    /// time); elsewhere as [`Cost::Low`].
    Constant,
    /// Run at once: the rules' own propagators, and the singles of all-different.
    Low,
    /// Run once no low-cost propagator has work: deductions that are rare next to the singles (pointing and
    /// claiming) and watch many cells, so that they would otherwise be woken many times in a cascade.
    Medium,
}

/// Which pairs of cells hold different values in every solution: those that share an all-different group (a row,
/// a column, a box, a region). Derived from the puzzle's rules by the engine and handed to
/// [`Propagator::sharpened`], so that a rule over many cells can use distinctness it does not state itself.
/// Built on first use: most puzzles have no rule that asks, and `--lines` builds an engine per line.
pub(crate) struct Apart<'a> {
    size: usize,
    groups: Box<dyn Fn() -> Vec<Vec<Cell>> + 'a>,
    /// Per cell (row-major), the numbers of the groups holding it, ascending.
    holding: std::cell::OnceCell<Vec<Vec<u32>>>,
}

impl<'a> Apart<'a> {
    /// From the all-different groups of an n x n grid, listed when first needed.
    pub(crate) fn new(size: usize, groups: impl Fn() -> Vec<Vec<Cell>> + 'a) -> Apart<'a> {
        Apart {
            size,
            groups: Box::new(groups),
            holding: std::cell::OnceCell::new(),
        }
    }

    /// The grid's n.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Whether `a` and `b` (distinct cells) lie in a common group.
    pub(crate) fn differ(&self, a: Cell, b: Cell) -> bool {
        let holding = self.holding.get_or_init(|| {
            let mut holding = vec![Vec::new(); self.size * self.size];
            for (g, cells) in (self.groups)().iter().enumerate() {
                for c in cells {
                    holding[c.row * self.size + c.col].push(g as u32);
                }
            }
            holding
        });
        let (ga, gb) = (
            &holding[a.row * self.size + a.col],
            &holding[b.row * self.size + b.col],
        );
        a != b && ga.iter().any(|g| gb.binary_search(g).is_ok())
    }

    /// Whether every two of `cells` lie in a common group (a row or column of a Latin square's rules).
    pub(crate) fn all_differ(&self, cells: &[Cell]) -> bool {
        cells
            .iter()
            .enumerate()
            .all(|(k, &a)| cells[..k].iter().all(|&b| self.differ(a, b)))
    }
}

/// Candidate values per cell as bit sets (bit v-1 = value v); sizes up to 64.
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    size: usize,
    bits: Vec<u64>,
    /// Cells (row-major indices) that lost candidates since the log was last cleared: propagation wakes the
    /// rules that watch these instead of comparing every cell a rule reads before and after it runs.
    pub(crate) log: Vec<u32>,
    /// While search runs: every change as (cell, candidates before), so that a subtree is left by undoing its
    /// changes ([`Domains::undo`]) instead of keeping a copy of the whole table per level, which grew with the
    /// depth (129 MB on an empty 64x64).
    trail: Option<Vec<(u32, u64)>>,
    /// On grids up to [`PLACES_MAX_SIZE`]: per value (bit v-1), the cells that can still hold it, bit
    /// `row * size + col`. The same table transposed, kept in step by every change and undo, so that the bit
    /// boards of the solver read it as it is instead of transposing the table at each of their runs (two thirds
    /// of their read and write-back on whispers). Empty on larger grids.
    places: Vec<Places>,
    /// Beside `places`: per value, the cells that lost it since [`Domains::forget_lost`] (the bit boards, at
    /// their own fixpoint, then recount only the groups where a value really left a cell, not every group of a
    /// changed cell for every value it lacks). Cleared by [`Domains::undo`], which search uses only to go back
    /// to a node at its fixpoint.
    lost: Vec<Places>,
}

/// The largest grid whose [`Domains`] keep each value's places: 16 x 16 = 256 cells, four words.
pub(crate) const PLACES_MAX_SIZE: usize = 16;

/// A set of cells of a grid up to [`PLACES_MAX_SIZE`], bit `row * size + col`.
pub(crate) type Places = [u64; 4];

impl PartialEq for Domains {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.bits == other.bits
    }
}

impl Eq for Domains {}

/// Propagation found a cell with no candidate left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

impl Domains {
    /// The largest size presolve handles (one bit per value in a `u64`).
    pub(crate) const MAX_SIZE: usize = 64;

    pub(crate) fn full(size: usize) -> Self {
        let places = match size <= PLACES_MAX_SIZE {
            true => {
                let mut every = Places::default();
                (0..size * size).for_each(|i| every[i / 64] |= 1 << (i % 64));
                vec![every; size]
            }
            false => Vec::new(),
        };
        Domains {
            size,
            bits: vec![all_values(size); size * size],
            log: Vec::new(),
            trail: None,
            lost: vec![Places::default(); places.len()],
            places,
        }
    }

    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Per value, the cells that can hold it (`None` past [`PLACES_MAX_SIZE`]).
    pub(crate) fn places(&self) -> Option<&[Places]> {
        (!self.places.is_empty()).then_some(&self.places[..])
    }

    /// Per value, the cells that lost it since the last [`Self::forget_lost`] or [`Self::undo`] (`None` past
    /// [`PLACES_MAX_SIZE`]).
    pub(crate) fn lost(&self) -> Option<&[Places]> {
        (!self.lost.is_empty()).then_some(&self.lost[..])
    }

    /// Starts [`Self::lost`] afresh.
    pub(crate) fn forget_lost(&mut self) {
        self.lost.iter_mut().for_each(|l| *l = Places::default());
    }

    pub(crate) fn get(&self, cell: Cell) -> u64 {
        self.bits[cell.row * self.size + cell.col]
    }

    pub(crate) fn contains(&self, cell: Cell, v: u32) -> bool {
        self.get(cell) >> (v - 1) & 1 == 1
    }

    /// The candidate values of a cell, ascending.
    pub(crate) fn values(&self, cell: Cell) -> impl Iterator<Item = u32> {
        bit_indices(self.get(cell)).map(|i| i as u32 + 1)
    }

    /// The value of a cell with one candidate.
    pub(crate) fn fixed(&self, cell: Cell) -> Option<u32> {
        let b = self.get(cell);
        (b.count_ones() == 1).then(|| b.trailing_zeros() + 1)
    }

    pub(crate) fn min(&self, cell: Cell) -> u32 {
        self.get(cell).trailing_zeros() + 1
    }

    pub(crate) fn max(&self, cell: Cell) -> u32 {
        64 - self.get(cell).leading_zeros()
    }

    /// Keeps only the candidates in `mask`; `Ok(true)` when something was removed. Inlined: it is the inner loop of
    /// every propagator.
    #[inline(always)]
    pub(crate) fn restrict(&mut self, cell: Cell, mask: u64) -> Result<bool, Contradiction> {
        let i = cell.row * self.size + cell.col;
        let new = self.bits[i] & mask;
        if new == 0 {
            return Err(Contradiction);
        }
        let changed = new != self.bits[i];
        if changed {
            if let Some(trail) = &mut self.trail {
                trail.push((i as u32, self.bits[i]));
            }
            if !self.places.is_empty() {
                let mut gone = self.bits[i] & !new;
                while gone != 0 {
                    let v = gone.trailing_zeros() as usize;
                    self.places[v][i / 64] &= !(1 << (i % 64));
                    self.lost[v][i / 64] |= 1 << (i % 64);
                    gone &= gone - 1;
                }
            }
            self.bits[i] = new;
            self.log.push(i as u32);
        }
        Ok(changed)
    }

    /// Keeps only `masks[i]` in `cells[i]`, for each i: how a propagator writes back the supports it computed.
    /// `Ok(true)` when something was removed.
    pub(crate) fn restrict_each(
        &mut self,
        cells: &[Cell],
        masks: &[u64],
    ) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (&cell, &mask) in cells.iter().zip(masks) {
            changed |= self.restrict(cell, mask)?;
        }
        Ok(changed)
    }

    /// Starts recording changes for [`Domains::undo`]; where the record stands now.
    pub(crate) fn mark(&mut self) -> usize {
        self.trail.get_or_insert_with(Vec::new).len()
    }

    /// Undoes every change since `mark` was taken (a value [`Domains::mark`] returned), and forgets what was
    /// lost ([`Self::lost`]).
    pub(crate) fn undo(&mut self, mark: usize) {
        self.forget_lost();
        let Some(trail) = &mut self.trail else { return };
        for (i, bits) in trail.drain(mark..).rev() {
            let i = i as usize;
            if !self.places.is_empty() {
                let mut back = bits & !self.bits[i];
                while back != 0 {
                    self.places[back.trailing_zeros() as usize][i / 64] |= 1 << (i % 64);
                    back &= back - 1;
                }
            }
            self.bits[i] = bits;
        }
    }

    pub(crate) fn remove(&mut self, cell: Cell, v: u32) -> Result<bool, Contradiction> {
        self.restrict(cell, !(1u64 << (v - 1)))
    }

    pub(crate) fn assign(&mut self, cell: Cell, v: u32) -> Result<bool, Contradiction> {
        self.restrict(cell, 1u64 << (v - 1))
    }

    /// The grid of fixed cells (0 where a cell still has several candidates).
    pub(crate) fn grid(&self) -> Grid {
        let mut g = Grid::empty(self.size);
        for cell in g.clone().cells() {
            g.set(cell, self.fixed(cell).unwrap_or(0));
        }
        g
    }

    pub(crate) fn fixed_count(&self) -> usize {
        self.bits.iter().filter(|b| b.count_ones() == 1).count()
    }

    /// Whether every cell has the same candidates here as in `other` (a comparison of the tables only).
    pub(crate) fn same_candidates(&self, other: &Domains) -> bool {
        self.bits == other.bits
    }

    pub(crate) fn candidate_count(&self) -> usize {
        self.bits.iter().map(|b| b.count_ones() as usize).sum()
    }
}

/// Bit for value v.
pub(crate) fn bit(v: u32) -> u64 {
    1u64 << (v - 1)
}

/// The bit set of the values 1..=size (size <= 64).
pub(crate) fn all_values(size: usize) -> u64 {
    if size == 64 {
        u64::MAX
    } else {
        (1u64 << size) - 1
    }
}

/// The positions of the set bits of `mask` (0 for the lowest), ascending: the values of a domain less one, or
/// the members of a set of cells.
pub(crate) fn bit_indices(mask: u64) -> impl Iterator<Item = usize> {
    let mut b = mask;
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value's places, read from the table cell by cell.
    fn transposed(d: &Domains) -> Vec<Places> {
        let mut out = vec![Places::default(); d.size()];
        for (i, &b) in d.bits.iter().enumerate() {
            for v in bit_indices(b) {
                out[v][i / 64] |= 1 << (i % 64);
            }
        }
        out
    }

    /// The places kept in step with the table: through random removals, assignments and undos to random marks,
    /// on grids of 4, 9 and 16 (up to four words), and none kept past 16. What was lost is, at every step, what
    /// the places held at the last undo or forgetting and hold no more.
    #[test]
    fn places_follow_every_change_and_undo() {
        let mut rng = fastrand::Rng::with_seed(5);
        for n in [4, 9, 16] {
            let mut d = Domains::full(n);
            assert_eq!(d.places().unwrap(), &transposed(&d)[..]);
            let mut marks = vec![d.mark()];
            let mut since = transposed(&d);
            for step in 0..3_000 {
                let cell = Cell::new(rng.usize(..n), rng.usize(..n));
                let v = rng.u32(1..=n as u32);
                match rng.usize(..12) {
                    0 => {
                        let _ = d.assign(cell, v);
                    }
                    1 => marks.push(d.mark()),
                    2 if marks.len() > 1 => {
                        d.undo(marks.pop().unwrap());
                        since = transposed(&d);
                    }
                    3 => {
                        d.forget_lost();
                        since = transposed(&d);
                    }
                    _ => {
                        let _ = d.remove(cell, v);
                    }
                }
                let now = transposed(&d);
                assert_eq!(d.places().unwrap(), &now[..], "n {n}, step {step}");
                let gone: Vec<Places> = (0..n)
                    .map(|v| std::array::from_fn(|w| since[v][w] & !now[v][w]))
                    .collect();
                assert_eq!(d.lost().unwrap(), &gone[..], "n {n}, step {step}");
            }
            d.undo(marks[0]);
            assert_eq!(d, Domains::full(n));
            assert_eq!(d.places().unwrap(), &transposed(&Domains::full(n))[..]);
        }
        assert!(Domains::full(17).places().is_none() && Domains::full(17).lost().is_none());
    }

    #[test]
    fn undo_restores_exactly_what_was_there_at_the_mark() {
        let mut rng = fastrand::Rng::with_seed(8);
        let mut d = Domains::full(6);
        let mut marks = Vec::new();
        for _ in 0..20 {
            marks.push((d.mark(), d.clone()));
            for _ in 0..rng.usize(1..10) {
                let cell = Cell::new(rng.usize(..6), rng.usize(..6));
                let _ = d.restrict(
                    cell,
                    d.get(cell) & !(1 << rng.u32(0..6)) | 1 << rng.u32(0..6),
                );
            }
        }
        // Nested levels, undone innermost first, as search leaves them.
        while let Some((mark, before)) = marks.pop() {
            d.undo(mark);
            assert_eq!(d, before);
        }
        assert_eq!(d, Domains::full(6));
    }
}
