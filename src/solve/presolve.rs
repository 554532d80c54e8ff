//! Presolve by propagation: shrink every cell's candidates before the solver sees the program.
//!
//! Each rule primitive prunes for itself ([`crate::rules::Primitive::prune`]): all-different removes placed
//! values and places hidden singles, sums and products keep only values some completion can reach, relations keep
//! only supported values. The loop runs to a fixpoint. Only candidates that no solution can use are removed, so
//! the set of solutions is unchanged: when every cell is down to one candidate, that grid is the only possible
//! answer (it is still verified), and when a cell has none, the puzzle has no solution. What remains is sent to
//! the solver with the removed columns fixed to 0.

use crate::grid::{Cell, Grid};
use crate::model::Puzzle;

/// Candidate values per cell as bit sets (bit v-1 = value v); sizes up to 64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domains {
    size: usize,
    bits: Vec<u64>,
}

/// Propagation found a cell with no candidate left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

impl Domains {
    /// The largest size presolve handles (one bit per value in a `u64`).
    pub const MAX_SIZE: usize = 64;

    pub fn full(size: usize) -> Self {
        let all = if size == 64 {
            u64::MAX
        } else {
            (1u64 << size) - 1
        };
        Domains {
            size,
            bits: vec![all; size * size],
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
        let mut b = self.get(cell);
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let v = b.trailing_zeros() + 1;
                b &= b - 1;
                v
            })
        })
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
        self.bits[i] = new;
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

/// Propagates the givens and every rule to a fixpoint. `None` for sizes presolve does not handle.
pub fn propagate(puzzle: &Puzzle) -> Option<Result<Domains, Contradiction>> {
    let n = puzzle.size();
    if n > Domains::MAX_SIZE {
        return None;
    }
    let mut d = Domains::full(n);
    let run = |d: &mut Domains| -> Result<(), Contradiction> {
        for (cell, v) in puzzle.givens().filled() {
            d.assign(cell, v)?;
        }
        loop {
            let mut changed = false;
            for rule in puzzle.rules() {
                changed |= rule.prune(d)?;
            }
            if !changed {
                return Ok(());
            }
        }
    };
    Some(run(&mut d).map(|()| d))
}
