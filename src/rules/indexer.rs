//! Indexers: a cell whose value says where, in its row, column or box, its own index goes. A column indexer at
//! r1c1 holding 3 puts 1 (its column) in r1c3; a row indexer at r2c5 holding 7 puts 2 (its row) in r7c5; a box
//! indexer at the k-th cell of its box holding v puts k in the v-th cell of that box (cells counted in reading
//! order). "159" Sudokus are column indexers on columns 1, 5 and 9.
//!
//! The rule is one implication per value, each a [`RelationKind::Implies`] between the indexer and the cell
//! that value points at: the relation's support rows are its encoding, its check is exact (the rule is their
//! conjunction), and its arc-consistent propagator is the indexer's.

use super::{Relation, RelationKind};
use crate::grid::Cell;

/// The unit an indexer points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Along {
    /// The value is a row: the cell's column holds the cell's row there.
    Row,
    /// The value is a column: the cell's row holds the cell's column there.
    Column,
    /// The value is a place in the cell's box (reading order): the cell's own place goes there.
    Box(usize, usize),
}

/// The cell that `cell` holding `value` points at, and the value that cell must hold (1-based).
pub(crate) fn points(cell: Cell, value: usize, along: Along) -> (Cell, usize) {
    match along {
        Along::Row => (Cell::new(value - 1, cell.col), cell.row + 1),
        Along::Column => (Cell::new(cell.row, value - 1), cell.col + 1),
        Along::Box(h, w) => {
            let (top, left) = (cell.row / h * h, cell.col / w * w);
            let place = (cell.row - top) * w + (cell.col - left);
            let (r, c) = ((value - 1) / w, (value - 1) % w);
            (Cell::new(top + r, left + c), place + 1)
        }
    }
}

/// The implications of an indexer at `cell` on an n x n grid: one for each value that points at another cell
/// (a value pointing at the cell itself asks it to hold that value, which it does).
pub(crate) fn relations(cell: Cell, along: Along, n: usize, source: &str) -> Vec<Relation> {
    (1..=n)
        .filter_map(|v| {
            let (target, index) = points(cell, v, along);
            (target != cell).then(|| {
                let kind = RelationKind::Implies {
                    when: v as u32,
                    then: index as u32,
                };
                Relation::new(cell, target, kind, source)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::rules::Rule;

    /// The rule as setters state it, on a solved grid: the value v of the indexer at (r, c) says where its
    /// index goes.
    fn holds(g: &Grid, cell: Cell, along: Along) -> bool {
        let v = g.get(cell) as usize;
        match along {
            Along::Column => g.get(Cell::new(cell.row, v - 1)) as usize == cell.col + 1,
            Along::Row => g.get(Cell::new(v - 1, cell.col)) as usize == cell.row + 1,
            Along::Box(h, w) => {
                let (top, left) = (cell.row / h * h, cell.col / w * w);
                let inside: Vec<Cell> = (top..top + h)
                    .flat_map(|r| (left..left + w).map(move |c| Cell::new(r, c)))
                    .collect();
                let place = inside.iter().position(|&c| c == cell).unwrap() + 1;
                g.get(inside[v - 1]) as usize == place
            }
        }
    }

    /// Brute force over 4x4 grids (rows made of permutations, so that a row holds each value once; columns
    /// free): the implications' conjunction accepts exactly the grids the stated rule does, at every cell and
    /// for every unit.
    #[test]
    fn the_implications_accept_exactly_what_the_rule_does() {
        let mut rng = fastrand::Rng::with_seed(11);
        let perms: Vec<Vec<u32>> = (0..24)
            .map(|k| {
                let mut p = vec![1, 2, 3, 4];
                let mut k = k;
                for i in (1..4).rev() {
                    p.swap(i, k % (i + 1));
                    k /= i + 1;
                }
                p
            })
            .collect();
        let (mut held, mut broken) = (0, 0);
        for _ in 0..3000 {
            let rows: Vec<Vec<u32>> = (0..4).map(|_| perms[rng.usize(..24)].clone()).collect();
            let g = Grid::from_rows(&rows).unwrap();
            let cell = Cell::new(rng.usize(..4), rng.usize(..4));
            for along in [Along::Row, Along::Column, Along::Box(2, 2)] {
                let ok = relations(cell, along, 4, "test")
                    .iter()
                    .all(|r| r.check(&g).is_ok());
                assert_eq!(ok, holds(&g, cell, along), "{along:?} {cell}\n{g:?}");
                if ok {
                    held += 1;
                } else {
                    broken += 1;
                }
            }
        }
        // Both sides met often enough for the comparison to mean something.
        assert!(held > 500 && broken > 500, "{held} {broken}");
    }

    #[test]
    fn a_box_indexer_points_inside_its_own_box() {
        // r5c6 is the sixth cell of the centre box of a 9x9; holding 1 it puts 6 in r4c4.
        assert_eq!(
            points(Cell::new(4, 5), 1, Along::Box(3, 3)),
            (Cell::new(3, 3), 6)
        );
        assert_eq!(
            points(Cell::new(4, 5), 9, Along::Box(3, 3)),
            (Cell::new(5, 5), 6)
        );
        // A 6x6 box is 2 high and 3 wide.
        assert_eq!(
            points(Cell::new(3, 4), 4, Along::Box(2, 3)),
            (Cell::new(3, 3), 5)
        );
    }
}
