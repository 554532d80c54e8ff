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
//! [`MAX_TUPLES`]), its own way or by [`list`], a walk over its cells that keeps apart cells distinct; this file
//! holds and filters them, and [`Listed`] runs a table as a rule's propagator.

use crate::domains::{bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::grid::Cell;

/// The most tuples a table holds: 16 words a set, so that a run stays a few hundred word operations.
pub(crate) const MAX_TUPLES: usize = 1024;

const MAX_WORDS: usize = MAX_TUPLES / 64;

/// The most steps [`list`] takes before it gives up: a sum's table is listed whenever an engine is built, for
/// every solve (and every line of `--lines`), so a listing must stay microseconds.
const MAX_STEPS: usize = 8 * MAX_TUPLES;

/// The assignments of `scope` (values 1..=n) that a rule read cell by cell accepts, with every two cells `apart`
/// distinct, as a table; `None` past [`MAX_TUPLES`] or [`MAX_STEPS`], or when a cell stands twice in the scope
/// (equal values, which the distinctness cannot say). The rule is a walk over states: `step(i, state, v)` is the
/// state after cell i holds v (`None`: no assignment goes on from there), and `accept` says which states after
/// the last cell are the rule's.
pub(crate) fn list(
    scope: &[Cell],
    apart: &Apart<'_>,
    start: u64,
    step: &dyn Fn(usize, u64, u32) -> Option<u64>,
    accept: &dyn Fn(u64) -> bool,
) -> Option<Tuples> {
    let distinct = scope
        .iter()
        .enumerate()
        .all(|(i, c)| !scope[..i].contains(c));
    // Values past 64 have no bit in a mask (and a table refuses them: [`Tuples::new`]).
    if scope.is_empty() || scope.len() > 64 || apart.size() > 64 || !distinct {
        return None;
    }
    let before = (0..scope.len())
        .map(|i| {
            (0..i)
                .filter(|&j| apart.differ(scope[j], scope[i]))
                .fold(0u64, |m, j| m | 1 << j)
        })
        .collect();
    let mut walk = Walk {
        n: apart.size() as u32,
        before,
        step,
        accept,
        values: vec![0; scope.len()],
        out: Vec::new(),
        steps: 0,
    };
    walk.go(0, start)
        .then(|| Tuples::new(scope, apart.size(), &walk.out))?
}

/// [`list`]'s depth-first walk.
struct Walk<'f> {
    n: u32,
    /// Per cell of the scope, the cells before it that it must differ from (bit j: the j-th).
    before: Vec<u64>,
    step: &'f dyn Fn(usize, u64, u32) -> Option<u64>,
    accept: &'f dyn Fn(u64) -> bool,
    values: Vec<u32>,
    /// The tuples found, one after the other.
    out: Vec<u32>,
    steps: usize,
}

impl Walk<'_> {
    /// Lists the assignments from cell i on, in `state` after the values before it; false once the limits are
    /// passed.
    fn go(&mut self, i: usize, state: u64) -> bool {
        self.steps += 1;
        if self.steps > MAX_STEPS || self.out.len() > MAX_TUPLES * self.values.len() {
            return false;
        }
        if i == self.values.len() {
            if (self.accept)(state) {
                self.out.extend_from_slice(&self.values);
            }
            return true;
        }
        // The values this cell must differ from, once for the cell rather than for each value tried.
        let taken = bit_indices(self.before[i]).fold(0u64, |m, j| m | 1 << (self.values[j] - 1));
        for v in (1..=self.n).filter(|v| taken >> (v - 1) & 1 == 0) {
            let Some(next) = (self.step)(i, state, v) else {
                continue;
            };
            self.values[i] = v;
            if !self.go(i + 1, next) {
                return false;
            }
        }
        true
    }
}

/// A rule's table as a propagator: what a rule offers as [`Propagator::thorough`] (or sharpened) once its
/// assignments with the grid's distinctness are listed.
#[derive(Debug)]
pub(crate) struct Listed(pub(crate) Tuples);

impl Propagator for Listed {
    fn watches(&self) -> Vec<Cell> {
        self.0.scope.clone()
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.0.propagate(d)
    }
}

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

    /// A walk that accepts everything lists every assignment with the cells `apart` distinct, in order, and gives
    /// up past the table's limit.
    #[test]
    fn a_listing_keeps_apart_cells_distinct_and_stops_at_the_limit() {
        let row = |k: usize| (0..k).map(|c| Cell::new(0, c)).collect::<Vec<_>>();
        let apart =
            |n: usize| Apart::new(n, move || vec![(0..n).map(|c| Cell::new(0, c)).collect()]);
        let any = |_: usize, s: u64, _: u32| Some(s);
        let all = |_: u64| true;
        // Three cells of a row of 4: 4 * 3 * 2 ordered tuples of distinct values.
        let table = list(&row(3), &apart(4), 0, &any, &all).unwrap();
        let mut d = Domains::full(4);
        d.assign(Cell::new(0, 0), 2).unwrap();
        d.assign(Cell::new(0, 1), 3).unwrap();
        assert_eq!(table.propagate(&mut d), Ok(true));
        assert_eq!(d.get(Cell::new(0, 2)), bit(1) | bit(4));
        // Six cells of a row of 9: 60,480 tuples, past the limit.
        assert!(list(&row(6), &apart(9), 0, &any, &all).is_none());
        // A cell twice cannot be listed.
        let twice = [Cell::new(0, 0), Cell::new(0, 0)];
        assert!(list(&twice, &apart(4), 0, &any, &all).is_none());
    }

    #[test]
    fn too_many_tuples_are_refused() {
        let scope = [Cell::new(0, 0), Cell::new(0, 1)];
        let tuples = vec![1u32; 2 * (MAX_TUPLES + 1)];
        assert!(Tuples::new(&scope, 4, &tuples).is_none());
        assert!(Tuples::new(&scope, 4, &tuples[..2 * MAX_TUPLES]).is_some());
    }
}
