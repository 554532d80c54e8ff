//! All-different over a set of cells: rows, columns, boxes, jigsaw regions, diagonals, killer cages.
//!
//! Encoding: for each value v, `sum_{cells} x[cell][v] = 1` when the set has n cells (each value exactly once),
//! and `<= 1` when it has fewer. Exact: with one value per cell, a value used twice makes some row sum 2; with n
//! cells and n values, the pigeonhole principle makes "at most once" and "exactly once" the same, and the
//! equality gives the LP relaxation more to work with.

use super::{values_of, Primitive};
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};
use crate::solve::presolve::{bit, Contradiction, Domains};

#[derive(Clone, Debug)]
pub struct AllDifferent {
    pub label: String,
    pub cells: Vec<Cell>,
}

impl AllDifferent {
    pub fn new(label: impl Into<String>, cells: Vec<Cell>) -> Self {
        AllDifferent {
            label: label.into(),
            cells,
        }
    }
}

impl Primitive for AllDifferent {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn compile(&self, c: &mut Compiler) {
        let n = c.size();
        let full = self.cells.len() == n;
        for v in 1..=n as u32 {
            let terms = self.cells.iter().map(|&cell| (c.x(cell, v), 1.0)).collect();
            if full {
                c.equal(terms, 1.0);
            } else {
                c.at_most(terms, 1.0);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), String> {
        self.check_partial(grid)
    }

    /// Naked singles (a placed value leaves the other cells) and, when the set holds every value, hidden
    /// singles (a value with one possible cell goes there).
    fn prune(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        let mut placed = 0u64;
        for &cell in &self.cells {
            if let Some(v) = d.fixed(cell) {
                if placed & bit(v) != 0 {
                    return Err(Contradiction);
                }
                placed |= bit(v);
            }
        }
        if placed != 0 {
            for &cell in &self.cells {
                if d.fixed(cell).is_none() {
                    changed |= d.restrict(cell, !placed)?;
                }
            }
        }
        let union = self.cells.iter().fold(0u64, |u, &c| u | d.get(c));
        if (union.count_ones() as usize) < self.cells.len() {
            return Err(Contradiction);
        }
        if self.cells.len() == d.size() {
            for v in 1..=d.size() as u32 {
                let mut places = self.cells.iter().filter(|&&c| d.contains(c, v));
                match (places.next(), places.next()) {
                    (None, _) => return Err(Contradiction),
                    (Some(&only), None) if d.fixed(only).is_none() => {
                        changed |= d.assign(only, v)?
                    }
                    _ => {}
                }
            }
        }
        Ok(changed)
    }

    fn check_partial(&self, grid: &Grid) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for &cell in &self.cells {
            if grid.get(cell) != 0 && !seen.insert(grid.get(cell)) {
                return Err(format!(
                    "{} repeats {} ({:?})",
                    self.label,
                    grid.get(cell),
                    values_of(grid, &self.cells)
                ));
            }
        }
        Ok(())
    }
}
