//! The values of a set of cells add up to a total: killer cages, sumdoku cages, KenKen `+` cages, magic lines.
//!
//! Encoding: one row `sum_{cells, v} v * x[cell][v] = total`. Exact: the coefficients and the total are
//! integers, so the row holds at an integral point exactly when the values add up to the total. Repeats are
//! allowed; pair it with [`super::AllDifferent`] when the cage must be distinct.

use super::{values_of, Primitive};
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};

#[derive(Clone, Debug)]
pub struct Sum {
    pub label: String,
    pub cells: Vec<Cell>,
    pub total: u64,
}

impl Primitive for Sum {
    fn label(&self) -> String {
        format!("{} (sum {})", self.label, self.total)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn compile(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let k = self.cells.len() as u64;
        // A value too large to leave room for the other cells (each at least 1) cannot be used.
        for &cell in &self.cells {
            for v in 1..=n {
                if u64::from(v) + (k - 1) > self.total {
                    c.forbid(cell, v);
                }
            }
        }
        let terms = self.cells.iter().flat_map(|&cell| (1..=n).map(move |v| (cell, v))).map(|(cell, v)| (c.x(cell, v), f64::from(v))).collect();
        c.equal(terms, self.total as f64);
    }

    fn check(&self, grid: &Grid) -> Result<(), String> {
        let got: u64 = self.cells.iter().map(|&c| u64::from(grid.get(c))).sum();
        if got == self.total {
            Ok(())
        } else {
            Err(format!("{} adds up to {got} ({:?})", self.label(), values_of(grid, &self.cells)))
        }
    }
}
