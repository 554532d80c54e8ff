//! Skyscrapers: looking along a line of cells, exactly `clue` buildings are seen, a taller one hiding every
//! shorter one behind it.
//!
//! # Encoding
//! The cells are listed in viewing order. For position i > 0 and height v an auxiliary binary `z[i][v]` means
//! "position i holds v and is seen"; position 0 is always seen, so `z[0][v]` is `x[0][v]` itself.
//! - `z[i][v] <= x[i][v]`: only the height actually there can be seen;
//! - `z[i][v] + sum_{w > v} x[j][w] <= 1` for each j < i: a taller building in front hides it;
//! - `x[i][v] - sum_{j < i, w > v} x[j][w] <= z[i][v]`: with nothing taller in front, it is seen;
//! - `sum_{i, v} z[i][v] = clue`.
//!
//! Exact: at an integral point the first three rows force `z[i][v] = 1` exactly when position i holds v and no
//! earlier position holds a value above v, which is the definition of being seen.

use super::{values_of, Primitive};
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};

#[derive(Clone, Debug)]
pub struct Visibility {
    /// Where the clue stands, e.g. `top of column 3`.
    pub label: String,
    /// The line in viewing order (nearest first).
    pub cells: Vec<Cell>,
    pub clue: u64,
}

/// How many buildings are seen along `values`, nearest first.
pub fn seen(values: &[u32]) -> u64 {
    let mut tallest = 0;
    let mut count = 0;
    for &v in values {
        if v > tallest {
            tallest = v;
            count += 1;
        }
    }
    count
}

impl Primitive for Visibility {
    fn label(&self) -> String {
        format!("{} (sees {})", self.label, self.clue)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn compile(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let mut count: Vec<(usize, f64)> = (1..=n).map(|v| (c.x(self.cells[0], v), 1.0)).collect();
        for (i, &cell) in self.cells.iter().enumerate().skip(1) {
            for v in 1..=n {
                if !c.allowed(cell, v) {
                    continue;
                }
                let z = c.aux();
                let x = c.x(cell, v);
                c.at_most(vec![(z, 1.0), (x, -1.0)], 0.0);
                let mut in_front = Vec::new();
                for &before in &self.cells[..i] {
                    let taller: Vec<(usize, f64)> =
                        (v + 1..=n).map(|w| (c.x(before, w), 1.0)).collect();
                    let mut hide = taller.clone();
                    hide.push((z, 1.0));
                    c.at_most(hide, 1.0);
                    in_front.extend(taller);
                }
                let mut seen_row: Vec<(usize, f64)> =
                    in_front.into_iter().map(|(k, _)| (k, -1.0)).collect();
                seen_row.push((x, 1.0));
                seen_row.push((z, -1.0));
                c.at_most(seen_row, 0.0);
                count.push((z, 1.0));
            }
        }
        c.equal(count, self.clue as f64);
    }

    fn check(&self, grid: &Grid) -> Result<(), String> {
        let values = values_of(grid, &self.cells);
        let got = seen(&values);
        if got == self.clue {
            Ok(())
        } else {
            Err(format!("{}: {got} are seen along {values:?}", self.label()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_records() {
        assert_eq!(seen(&[1, 2, 3, 4, 5]), 5);
        assert_eq!(seen(&[5, 1, 2, 3, 4]), 1);
        assert_eq!(seen(&[2, 1, 4, 3, 5]), 3);
    }
}
