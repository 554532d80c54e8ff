//! Two relations through one cell, whose outer cells must differ: the pair's counterpart of a Hall set.
//!
//! A relation between two cells (a whisper's neighbours, a kropki dot, an X) prunes each cell to the values some
//! value of the other supports, one pair at a time. Where two relations meet in a cell b and their other cells a
//! and c are kept apart by the puzzle's all-different groups (a whisper line bending inside a box, a row of
//! three on one line), a value of b whose only partner is the same value on both sides is in no solution: a 4
//! in the middle of a German whisper needs a 9 on each side, a 1 between two black dots a 2 on each side. Neither
//! relation nor group sees that alone. Derived from whatever binary rules a grammar declares
//! ([`Propagator::pairs`]), so it adds nothing to the program and is a [`Propagator`] only.

use std::sync::Arc;

use crate::domains::{bit_indices, Apart, Contradiction, Cost, Domains, Propagator};
use crate::grid::Cell;
use crate::rules::Rule;

/// Cells a, b, c with a relation between a and b and one between b and c, a and c apart.
#[derive(Debug)]
pub(crate) struct Path {
    a: Cell,
    b: Cell,
    c: Cell,
    /// Per value of b (bit v - 1 at index v - 1): a's values and c's values compatible with it (shared with
    /// the other paths through the same relations: a 64 x 64 grid of marks has tens of thousands of paths).
    to_a: Arc<[u64]>,
    to_c: Arc<[u64]>,
}

impl Path {
    /// Every path of two of the puzzle's two-cell rules ([`Propagator::pairs`]) whose outer cells `apart`
    /// keeps apart, where that can remove something: some value of the middle cell has one partner only, the
    /// same on both sides (at full domains; with fewer candidates a path prunes more).
    pub(crate) fn derive(
        size: usize,
        rules: &[Arc<dyn Rule>],
        apart: &Apart<'_>,
    ) -> Vec<Box<dyn Propagator>> {
        let around = Self::partners(size, rules);
        let mut out: Vec<Box<dyn Propagator>> = Vec::new();
        for (k, list) in around.iter().enumerate() {
            let b = Cell::new(k / size, k % size);
            for (i, (a, to_a)) in list.iter().enumerate() {
                for (c, to_c) in &list[i + 1..] {
                    let bites = (0..size).any(|v| to_a[v] == to_c[v] && to_a[v].count_ones() == 1);
                    if bites && apart.differ(*a, *c) {
                        out.push(Box::new(Path {
                            a: *a,
                            b,
                            c: *c,
                            to_a: Arc::clone(to_a),
                            to_c: Arc::clone(to_c),
                        }));
                    }
                }
            }
        }
        out
    }

    /// Per cell (row-major): the cells a two-cell rule ties it to and, per value of the cell, the other's
    /// values compatible with it (several rules on the same two cells combined). Only tables with a value of
    /// one partner are kept: no other takes part in a path that removes anything.
    fn partners(size: usize, rules: &[Arc<dyn Rule>]) -> Vec<Vec<(Cell, Arc<[u64]>)>> {
        let mut around: Vec<Vec<(Cell, Arc<[u64]>)>> = vec![Vec::new(); size * size];
        // The distinct tables, each kept once: a grid's relations are of a few kinds.
        let mut tables: Vec<Arc<[u64]>> = Vec::new();
        let mut intern = |table: Vec<u64>| match tables.iter().find(|t| t[..] == table[..]) {
            Some(t) => Arc::clone(t),
            None => {
                let t: Arc<[u64]> = table.into();
                tables.push(Arc::clone(&t));
                t
            }
        };
        let mut add = |from: Cell, to: Cell, table: Vec<u64>| {
            if !table.iter().any(|m| m.count_ones() == 1) {
                return;
            }
            let list = &mut around[from.row * size + from.col];
            match list.iter_mut().find(|(c, _)| *c == to) {
                Some((_, t)) => *t = intern(t.iter().zip(&table).map(|(x, y)| x & y).collect()),
                None => list.push((to, intern(table))),
            }
        };
        for (a, b, table) in rules
            .iter()
            .filter_map(|r| r.propagator().and_then(|p| p.pairs(size)))
        {
            let mut back = vec![0u64; size];
            for (u, &m) in table.iter().enumerate() {
                for v in bit_indices(m) {
                    back[v] |= 1 << u;
                }
            }
            add(a, b, table);
            add(b, a, back);
        }
        around
    }
}

impl Propagator for Path {
    fn watches(&self) -> Vec<Cell> {
        vec![self.a, self.b, self.c]
    }

    /// Three cells and two tables, like the relations it comes from, and run with them (as Medium, after
    /// the boards and with the matchings, it was 1.05x the time on whispers and 1.08x on kropki).
    fn cost(&self) -> Cost {
        Cost::Constant
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let (da, dc) = (d.get(self.a), d.get(self.c));
        let (mut keep_a, mut keep_b, mut keep_c) = (0, 0, 0);
        for v in bit_indices(d.get(self.b)) {
            let (on_a, on_c) = (da & self.to_a[v], dc & self.to_c[v]);
            if on_a == 0 || on_c == 0 || (on_a == on_c && on_a.count_ones() == 1) {
                continue;
            }
            keep_b |= 1 << v;
            // A value on one side needs another on the other.
            keep_a |= if on_c.count_ones() > 1 {
                on_a
            } else {
                on_a & !on_c
            };
            keep_c |= if on_a.count_ones() > 1 {
                on_c
            } else {
                on_c & !on_a
            };
        }
        let mut changed = d.restrict(self.b, keep_b)?;
        changed |= d.restrict(self.a, keep_a)?;
        changed |= d.restrict(self.c, keep_c)?;
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::engine::tests::puzzle_file;

    /// The 9x9 whispers example's first line, `r6c7 r6c6 r5c5 r6c5 r7c4`, turns inside box 5: r5c5's
    /// neighbours on it, r6c6 and r6c5, share row 6, so r5c5 can hold neither 4 (a 9 on both sides) nor 6 (a 1
    /// on both sides). So can no middle cell of any path the example's lines make.
    #[test]
    fn a_whisper_turning_in_a_box_keeps_4_and_6_off_its_corner() {
        let p = puzzle_file("puzzles/whispers/whispers-9x9.yaml");
        let paths = Path::derive(9, p.rules(), &p.apart());
        let (r5c5, r6c5, r6c6) = (Cell::new(4, 4), Cell::new(5, 4), Cell::new(5, 5));
        let corner = paths
            .iter()
            .filter(|path| path.watches()[1] == r5c5)
            .map(|path| path.watches())
            .collect::<Vec<_>>();
        assert!(
            corner == [vec![r6c6, r5c5, r6c5]] || corner == [vec![r6c5, r5c5, r6c6]],
            "{corner:?}"
        );
        for path in &paths {
            let cells = path.watches();
            let mut d = Domains::full(9);
            path.propagate(&mut d).unwrap();
            // 5 goes too: it has no partner at all on a whisper (each relation alone would see that).
            assert_eq!(d.get(cells[1]), 0b1_1100_0111, "{cells:?}");
            assert_eq!(d.get(cells[0]), 0b1_1110_1111, "{cells:?}");
            assert_eq!(d.get(cells[2]), 0b1_1110_1111, "{cells:?}");
        }
    }

    /// Brute force: on random relations and candidates, a path keeps exactly the values that some assignment
    /// of its three cells uses, with both relations holding and the outer cells different.
    #[test]
    fn keeps_exactly_the_supported_values() {
        let mut rng = fastrand::Rng::with_seed(5);
        let n = 6;
        let (a, b, c) = (Cell::new(0, 0), Cell::new(0, 1), Cell::new(0, 2));
        for _ in 0..3000 {
            // Sparse tables, so that single partners are common.
            let mut table = || -> Vec<u64> {
                (0..n)
                    .map(|_| {
                        1 << rng.usize(0..n) | if rng.bool() { 1 << rng.usize(0..n) } else { 0 }
                    })
                    .collect()
            };
            let path = Path {
                a,
                b,
                c,
                to_a: table().into(),
                to_c: table().into(),
            };
            let mut d = crate::rules::random_candidates(n, &[a, b, c], &mut rng);
            let mut brute = [0u64; 3];
            for (vb, va, vc) in triples(n) {
                let ok = d.get(a) >> va & 1 == 1
                    && d.get(b) >> vb & 1 == 1
                    && d.get(c) >> vc & 1 == 1
                    && path.to_a[vb] >> va & 1 == 1
                    && path.to_c[vb] >> vc & 1 == 1
                    && va != vc;
                if ok {
                    brute[0] |= 1 << va;
                    brute[1] |= 1 << vb;
                    brute[2] |= 1 << vc;
                }
            }
            let got = path
                .propagate(&mut d)
                .ok()
                .map(|_| [d.get(a), d.get(b), d.get(c)]);
            let want = brute.iter().all(|&m| m != 0).then_some(brute);
            assert_eq!(got, want);
            if got.is_some() {
                // One run reaches the path's own fixpoint.
                assert_eq!(path.propagate(&mut d), Ok(false));
            }
        }
    }

    /// Every (b, a, c) of value indices below n.
    fn triples(n: usize) -> impl Iterator<Item = (usize, usize, usize)> {
        (0..n).flat_map(move |b| (0..n).flat_map(move |a| (0..n).map(move |c| (b, a, c))))
    }
}
