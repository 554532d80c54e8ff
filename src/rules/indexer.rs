//! Indexers: a cell whose value says where, in its row, column or box, its own index goes. A column indexer at
//! r1c1 holding 3 puts 1 (its column) in r1c3; a row indexer at r2c5 holding 7 puts 2 (its row) in r7c5; a box
//! indexer at the k-th cell of its box holding v puts k in the v-th cell of that box (cells counted in reading
//! order). "159" Sudokus are column indexers on columns 1, 5 and 9.
//!
//! # Encoding
//! One implication per value that points at another cell: `x[cell][v] <= x[target][index]`. Exact: at an
//! integral point the rows hold exactly when the value the cell holds points at a cell holding its index (a
//! value pointing at the cell itself asks it to hold that value, which it does).
//!
//! # Propagation
//! Arc consistency on the implications: the cell keeps the values whose target may still hold its index, and
//! once the cell is down to one value its target is fixed. One rule an indexer cell, so that a grid of
//! indexers costs memory in its cells, not in cells times values.

use super::Rule;
use crate::domains::{bit, Contradiction, Cost, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

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

/// One indexer cell on an n x n grid.
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    pub(crate) label: String,
    pub(crate) cell: Cell,
    pub(crate) along: Along,
    pub(crate) n: usize,
}

impl Indexer {
    /// Where `value` points: the target and the index it must hold, `None` when it points at the cell itself.
    fn target(&self, value: u32) -> Option<(Cell, u32)> {
        let (target, index) = points(self.cell, value as usize, self.along);
        (target != self.cell).then_some((target, index as u32))
    }
}

impl Indexer {
    /// The check, on a filled grid or (`partial`) one whose empty cells (0) break nothing.
    fn judge(&self, grid: &Grid, partial: bool) -> Result<(), Violation> {
        let v = grid.get(self.cell);
        // An empty cell (a partial grid's) points nowhere.
        if !(1..=self.n as u32).contains(&v) {
            return Ok(());
        }
        let Some((target, index)) = self.target(v) else {
            return Ok(());
        };
        let got = grid.get(target);
        if got == index || (partial && got == 0) {
            return Ok(());
        }
        Err(Violation::Relation {
            rule: self.label(),
            a: self.cell,
            a_value: v,
            b: target,
            b_value: got,
        })
    }
}

impl Rule for Indexer {
    fn label(&self) -> String {
        format!("{}: {} says where its index goes", self.label, self.cell)
    }

    fn cells(&self) -> Vec<Cell> {
        let mut all = vec![self.cell];
        all.extend((1..=self.n as u32).filter_map(|v| Some(self.target(v)?.0)));
        all
    }

    fn encode(&self, c: &mut Compiler) {
        for v in 1..=self.n as u32 {
            if let Some((target, index)) = self.target(v) {
                c.at_most(
                    vec![(c.x(self.cell, v), 1.0), (c.x(target, index), -1.0)],
                    0.0,
                );
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        self.judge(grid, false)
    }

    /// Broken as soon as the cell and the cell its value points at are filled and disagree.
    fn check_partial(&self, grid: &Grid) -> Result<(), Violation> {
        self.judge(grid, true)
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Indexer {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// A look-up a candidate of one cell.
    fn cost(&self) -> Cost {
        Cost::Constant
    }

    /// Narrowing the cell or fixing a target leaves every kept value its support.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let keep = d
            .values(self.cell)
            .filter(|&v| self.target(v).is_none_or(|(t, i)| d.get(t) & bit(i) != 0))
            .fold(0u64, |m, v| m | bit(v));
        let mut changed = d.restrict(self.cell, keep)?;
        if keep.count_ones() == 1 {
            if let Some((target, index)) = self.target(keep.trailing_zeros() + 1) {
                changed |= d.restrict(target, bit(index))?;
            }
        }
        Ok(changed)
    }
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

    /// Over 4x4 grids (rows made of permutations; columns free), the check accepts exactly the grids the stated
    /// rule does, at every cell and for every unit; and the rows accept exactly what the check does.
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
                let rule = Indexer {
                    label: "test".into(),
                    cell,
                    along,
                    n: 4,
                };
                let ok = rule.check(&g).is_ok();
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

    /// The implication rows at integral points, every assignment of the indexer and the cells it points at on
    /// a 4x4, against the check.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for along in [Along::Row, Along::Column, Along::Box(2, 2)] {
            let rule = Indexer {
                label: "test".into(),
                cell: Cell::new(1, 2),
                along,
                n: 4,
            };
            let (yes, no) = crate::rules::encoding_matches_check(&rule, 4);
            assert!(yes > 0 && no > 0, "{along:?}");
        }
    }

    /// Propagation against brute force: random candidates on the indexer and its targets.
    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(12);
        for round in 0..2000 {
            let along = [Along::Row, Along::Column, Along::Box(2, 2)][round % 3];
            let rule = Indexer {
                label: "test".into(),
                cell: Cell::new(rng.usize(..4), rng.usize(..4)),
                along,
                n: 4,
            };
            let cells = Rule::cells(&rule);
            let mut d = crate::rules::random_candidates(4, &cells, &mut rng);
            let mut g = Grid::empty(4);
            assert!(rule.idempotent());
            crate::rules::matches_brute_force(&rule, &cells, &mut d, |values| {
                for (&cell, &v) in cells.iter().zip(values) {
                    g.set(cell, v);
                }
                rule.check(&g).is_ok()
            });
        }
    }

    /// On a half-filled grid: broken once the indexer and its target are filled and disagree, not before.
    #[test]
    fn a_partial_grid_breaks_it_only_where_both_are_filled() {
        let rule = Indexer {
            label: "test".into(),
            cell: Cell::new(0, 0),
            along: Along::Column,
            n: 4,
        };
        let mut g = Grid::empty(4);
        assert!(rule.check_partial(&g).is_ok());
        g.set(Cell::new(0, 0), 3);
        assert!(rule.check_partial(&g).is_ok());
        g.set(Cell::new(0, 2), 2);
        assert!(rule.check_partial(&g).is_err());
        g.set(Cell::new(0, 2), 1);
        assert!(rule.check_partial(&g).is_ok());
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
