//! A rule over a few cells held as the list of its allowed tuples: the compact table of constraint solvers.
//!
//! Some rules allow few assignments of their cells once the grid's distinctness is counted: an arrow of three
//! cells with its circle has at most 84 on a 9x9 (three values adding up to 9 or less), fewer where the arrow
//! bends inside a box. Listed once, the rule propagates with bit operations alone, as Compact-Table does
//! (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin, Schaus, "Compact-Table: Efficiently Filtering
//! Table Constraints with Reversible Sparse Bit-Sets", CP 2016): per cell and value, the set of tuples that put
//! the value there; the tuples still possible are, for every cell, the union of its candidates' sets,
//! intersected; a candidate stays when its set meets them. That is arc consistency on the tuples, the most a
//! propagator of the rule alone can remove. Without the paper's reversible sets the live tuples are
//! recomputed at each run: the tables here are a few words, and search undoes nothing of theirs.
//!
//! What the tuples are is the rule's business: the caller lists them (and keeps their number within
//! [`MAX_TUPLES`]); this file only holds and filters them.

use crate::domains::{bit_indices, Contradiction, Domains};
use crate::grid::Cell;

/// The most tuples a table holds: 16 words a set, so that a run stays a few hundred word operations.
pub(crate) const MAX_TUPLES: usize = 1024;

const MAX_WORDS: usize = MAX_TUPLES / 64;

/// The allowed tuples of some cells, as one bit set of tuples per cell and value.
#[derive(Clone, Debug)]
pub(crate) struct Tuples {
    scope: Vec<Cell>,
    n: usize,
    /// Words in a set of tuples.
    words: usize,
    /// At `(i * n + v - 1) * words`: the tuples where `scope[i]` holds v.
    supports: Vec<u64>,
}

impl Tuples {
    /// The table of `tuples` (each a value 1..=n per cell of `scope`, in order); `None` past [`MAX_TUPLES`].
    pub(crate) fn new(scope: &[Cell], n: usize, tuples: &[u32]) -> Option<Tuples> {
        let k = scope.len();
        let count = tuples.len().checked_div(k)?;
        if count > MAX_TUPLES || n > 64 {
            return None;
        }
        let words = count.div_ceil(64).max(1);
        let mut supports = vec![0u64; k * n * words];
        for (t, tuple) in tuples.chunks_exact(k).enumerate() {
            for (i, &v) in tuple.iter().enumerate() {
                debug_assert!((1..=n as u32).contains(&v));
                supports[(i * n + v as usize - 1) * words + t / 64] |= 1 << (t % 64);
            }
        }
        Some(Tuples {
            scope: scope.to_vec(),
            n,
            words,
            supports,
        })
    }

    fn support(&self, i: usize, v: usize) -> &[u64] {
        &self.supports[(i * self.n + v) * self.words..][..self.words]
    }

    /// Keeps exactly the candidates of some tuple all of whose values are still candidates; a contradiction
    /// when there is none. Idempotent: every kept value keeps the tuple that supports it, and with it the same
    /// live tuples.
    pub(crate) fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let w = self.words;
        let mut live = [u64::MAX; MAX_WORDS];
        let live = &mut live[..w];
        for (i, &cell) in self.scope.iter().enumerate() {
            let mut any = [0u64; MAX_WORDS];
            for v in bit_indices(d.get(cell)) {
                for (a, s) in any.iter_mut().zip(self.support(i, v)) {
                    *a |= s;
                }
            }
            live.iter_mut().zip(&any).for_each(|(l, a)| *l &= a);
        }
        if live.iter().all(|&l| l == 0) {
            return Err(Contradiction);
        }
        let mut changed = false;
        for (i, &cell) in self.scope.iter().enumerate() {
            let keep = bit_indices(d.get(cell))
                .filter(|&v| {
                    self.support(i, v)
                        .iter()
                        .zip(&*live)
                        .any(|(s, l)| s & l != 0)
                })
                .fold(0u64, |m, v| m | 1 << v);
            changed |= d.restrict(cell, keep)?;
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::bit;

    /// Random tables over three cells of a 5x5 and random candidates: the table keeps exactly the values of
    /// the tuples inside the candidates, found by looking at every tuple, and a second run finds nothing.
    #[test]
    fn keeps_exactly_the_values_of_the_tuples_left() {
        let scope = [Cell::new(0, 0), Cell::new(1, 2), Cell::new(4, 4)];
        let mut rng = fastrand::Rng::with_seed(3);
        for round in 0..2000 {
            let count = [0, 1, 5, 64, 65, 130][round % 6];
            let tuples: Vec<u32> = (0..count * 3).map(|_| rng.u32(1..=5)).collect();
            let table = Tuples::new(&scope, 5, &tuples).unwrap();
            let mut d = Domains::full(5);
            for &c in &scope {
                d.restrict(c, rng.u64(1..32)).unwrap();
            }
            let mut want = [0u64; 3];
            for t in tuples.chunks_exact(3) {
                if t.iter().zip(&scope).all(|(&v, &c)| d.get(c) & bit(v) != 0) {
                    t.iter().zip(&mut want).for_each(|(&v, m)| *m |= bit(v));
                }
            }
            let got = table.propagate(&mut d);
            if want.contains(&0) {
                assert_eq!(got, Err(Contradiction), "round {round}");
                continue;
            }
            assert!(got.is_ok(), "round {round}");
            let kept: Vec<u64> = scope.iter().map(|&c| d.get(c)).collect();
            assert_eq!(kept, want, "round {round}");
            assert_eq!(table.propagate(&mut d), Ok(false), "round {round}");
        }
    }

    #[test]
    fn too_many_tuples_are_refused() {
        let scope = [Cell::new(0, 0), Cell::new(0, 1)];
        let tuples = vec![1u32; 2 * (MAX_TUPLES + 1)];
        assert!(Tuples::new(&scope, 4, &tuples).is_none());
        assert!(Tuples::new(&scope, 4, &tuples[..2 * MAX_TUPLES]).is_some());
    }
}
