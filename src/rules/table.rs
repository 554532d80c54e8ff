//! A set of cells takes one of a list of allowed tuples: KenKen `-` and `/` cages, and cages whose operator is
//! hidden.
//!
//! # Encoding
//! One auxiliary binary `z_t` per allowed tuple t, `sum_t z_t = 1`, and for every cell i and value v:
//! `x[cell_i][v] = sum_{t : t_i = v} z_t`. Exact: at an integral point exactly one tuple is chosen and every
//! cell's value column is forced to agree with it; values that occur in no tuple are fixed to 0. This is the
//! strongest linear description of a table constraint (its LP relaxation is the convex hull of the tuples).
//!
//! The tuples are generated from a [`TablePredicate`], which is also what [`Primitive::check`] evaluates, so the
//! check does not trust the enumeration. Tuples that repeat a value in one row or column are left out: every
//! puzzle in this family is a Latin square.

use super::{values_of, Primitive};
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};
use crate::solve::presolve::{Contradiction, Domains};

/// Past this many candidate combinations (n^cells) a cage is too large to tabulate; the grammar builder
/// refuses such cages with an error rather than truncating the table.
pub const MAX_COMBINATIONS: u64 = 50_000_000;

/// What a tuple must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TablePredicate {
    /// Two cells: the larger minus the smaller.
    Difference(u64),
    /// Two cells: the larger divided by the smaller.
    Ratio(u64),
    /// Any of `+`, `x`, and on two cells `-` and `/`, reaches the target (a hidden operator).
    AnyOperator(u64),
}

impl TablePredicate {
    pub fn holds(self, values: &[u32]) -> bool {
        let vs: Vec<u64> = values.iter().map(|&v| u64::from(v)).collect();
        let pair = || (vs.len() == 2).then(|| (vs[0].max(vs[1]), vs[0].min(vs[1])));
        match self {
            TablePredicate::Difference(t) => pair().is_some_and(|(a, b)| a - b == t),
            TablePredicate::Ratio(t) => pair().is_some_and(|(a, b)| b > 0 && a == b * t),
            TablePredicate::AnyOperator(t) => {
                vs.iter().sum::<u64>() == t
                    || vs.iter().try_fold(1u64, |acc, &v| acc.checked_mul(v)) == Some(t)
                    || TablePredicate::Difference(t).holds(values)
                    || TablePredicate::Ratio(t).holds(values)
            }
        }
    }

    fn describe(self) -> String {
        match self {
            TablePredicate::Difference(t) => format!("difference {t}"),
            TablePredicate::Ratio(t) => format!("ratio {t}"),
            TablePredicate::AnyOperator(t) => format!("{t} with a hidden operator"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Table {
    pub label: String,
    pub cells: Vec<Cell>,
    pub predicate: TablePredicate,
}

impl Table {
    /// Every tuple of candidate values that satisfies the predicate and repeats no value within a row or column.
    pub fn tuples(&self, candidates: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut current = Vec::with_capacity(self.cells.len());
        self.extend(candidates, &mut current, &mut out);
        out
    }

    fn extend(&self, candidates: &[Vec<u32>], current: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        let i = current.len();
        if i == self.cells.len() {
            if self.predicate.holds(current) {
                out.push(current.clone());
            }
            return;
        }
        for &v in &candidates[i] {
            let clash = (0..i).any(|j| {
                current[j] == v
                    && (self.cells[j].row == self.cells[i].row
                        || self.cells[j].col == self.cells[i].col)
            });
            if !clash {
                current.push(v);
                self.extend(candidates, current, out);
                current.pop();
            }
        }
    }
}

/// Pruning enumerates tuples only while the candidate combinations stay below this.
const MAX_PRUNE_COMBINATIONS: u64 = 2_000_000;

impl Primitive for Table {
    /// Generalised arc consistency: a value stays only if it occurs in some allowed tuple of current candidates.
    fn prune(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let candidates: Vec<Vec<u32>> = self.cells.iter().map(|&c| d.values(c).collect()).collect();
        let combinations = candidates
            .iter()
            .try_fold(1u64, |acc, c| acc.checked_mul(c.len() as u64));
        if combinations.is_none_or(|k| k > MAX_PRUNE_COMBINATIONS) {
            return Ok(false);
        }
        let mut support = vec![0u64; self.cells.len()];
        for t in self.tuples(&candidates) {
            for (s, &v) in support.iter_mut().zip(&t) {
                *s |= 1 << (v - 1);
            }
        }
        let mut changed = false;
        for (&cell, &mask) in self.cells.iter().zip(&support) {
            changed |= d.restrict(cell, mask)?;
        }
        Ok(changed)
    }

    fn label(&self) -> String {
        format!("{} ({})", self.label, self.predicate.describe())
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn compile(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let candidates: Vec<Vec<u32>> = self.cells.iter().map(|&cell| c.candidates(cell)).collect();
        let tuples = self.tuples(&candidates);
        let z: Vec<usize> = tuples.iter().map(|_| c.aux()).collect();
        c.equal(z.iter().map(|&k| (k, 1.0)).collect(), 1.0);
        for (i, &cell) in self.cells.iter().enumerate() {
            for v in 1..=n {
                let mut terms: Vec<(usize, f64)> = tuples
                    .iter()
                    .zip(&z)
                    .filter(|(t, _)| t[i] == v)
                    .map(|(_, &k)| (k, -1.0))
                    .collect();
                if terms.is_empty() {
                    c.forbid(cell, v);
                    continue;
                }
                terms.push((c.x(cell, v), 1.0));
                c.equal(terms, 0.0);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), String> {
        let values = values_of(grid, &self.cells);
        if self.predicate.holds(&values) {
            Ok(())
        } else {
            Err(format!("{} does not hold for {values:?}", self.label()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_operator_accepts_any_of_the_four() {
        let p = TablePredicate::AnyOperator(3);
        assert!(p.holds(&[1, 2])); // 1 + 2
        assert!(p.holds(&[1, 3])); // 1 x 3, 3 / 1
        assert!(p.holds(&[4, 1])); // 4 - 1
        assert!(p.holds(&[2, 6])); // 6 / 2
        assert!(!p.holds(&[2, 2]));
        assert!(p.holds(&[1, 1, 1])); // sum of three
        assert!(!p.holds(&[4, 1, 2]));
    }

    #[test]
    fn tuples_respect_rows_and_columns() {
        let t = Table {
            label: "cage".into(),
            cells: vec![Cell::new(0, 0), Cell::new(0, 1)],
            predicate: TablePredicate::Difference(0),
        };
        assert!(t.tuples(&[vec![1, 2], vec![1, 2]]).is_empty());
        let t = Table {
            label: "cage".into(),
            cells: vec![Cell::new(0, 0), Cell::new(0, 1)],
            predicate: TablePredicate::Ratio(2),
        };
        assert_eq!(
            t.tuples(&[vec![1, 2, 3, 4], vec![1, 2, 3, 4]]),
            vec![vec![1, 2], vec![2, 1], vec![2, 4], vec![4, 2]]
        );
    }
}
