//! A set of cells takes one of a list of allowed tuples: KenKen `-` and `/` cages, and cages whose operator is
//! hidden.
//!
//! # Encoding
//! One auxiliary binary `z_t` per allowed tuple t, `sum_t z_t = 1`, and for every cell i and value v:
//! `x[cell_i][v] = sum_{t : t_i = v} z_t`. Exact: at an integral point exactly one tuple is chosen and every
//! cell's value column is forced to agree with it; values that occur in no tuple are fixed to 0. This is the
//! strongest linear description of a table constraint (its LP relaxation is the convex hull of the tuples).
//! Clause learning takes the same as clauses, `x[cell_i][v] <= sum_{t : t_i = v} z_t` and `z_t <= x[cell_i][t_i]`
//! (exact with `sum_t z_t = 1`); the equality, whose -1 terms would reach it through counters, is marked implied.
//!
//! The tuples are generated from a [`TablePredicate`], which is also what [`Rule::check`] evaluates, so the
//! check does not trust the enumeration. Tuples that repeat a value in one row or column are left out: every
//! puzzle in this family is a Latin square.

use super::{values_of, Rule};
use crate::domains::{bit_indices, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

/// Past this many candidate combinations (n^cells) a cage is too large to tabulate; the grammar builder
/// refuses such cages with an error rather than truncating the table.
pub(crate) const MAX_COMBINATIONS: u64 = 50_000_000;

/// What a tuple must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TablePredicate {
    /// Two cells: the larger minus the smaller.
    Difference(u64),
    /// Two cells: the larger divided by the smaller.
    Ratio(u64),
    /// Any of `+`, `x`, and on two cells `-` and `/`, reaches the target (a hidden operator).
    AnyOperator(u64),
}

impl TablePredicate {
    pub(crate) fn holds(self, values: &[u32]) -> bool {
        let pair = || {
            let [a, b] = values else { return None };
            Some((u64::from(*a.max(b)), u64::from(*a.min(b))))
        };
        match self {
            TablePredicate::Difference(t) => pair().is_some_and(|(a, b)| a - b == t),
            TablePredicate::Ratio(t) => pair().is_some_and(|(a, b)| b > 0 && a == b * t),
            TablePredicate::AnyOperator(t) => {
                values.iter().map(|&v| u64::from(v)).sum::<u64>() == t
                    || values
                        .iter()
                        .try_fold(1u64, |acc, &v| acc.checked_mul(u64::from(v)))
                        == Some(t)
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
pub(crate) struct Table {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
    pub(crate) predicate: TablePredicate,
}

impl Table {
    /// Every tuple of candidate values that satisfies the predicate and repeats no value within a row or column.
    pub(crate) fn tuples(&self, candidates: &[Vec<u32>]) -> Vec<Vec<u32>> {
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
            if !self.clashes(current, v) {
                current.push(v);
                self.extend(candidates, current, out);
                current.pop();
            }
        }
    }

    /// Whether `v` in the cell after `current` repeats a value of `current` in its row or column.
    fn clashes(&self, current: &[u32], v: u32) -> bool {
        let next = self.cells[current.len()];
        current
            .iter()
            .zip(&self.cells)
            .any(|(&w, c)| w == v && (c.row == next.row || c.col == next.col))
    }
}

/// The values of each cell that occur in some allowed tuple, found by depth-first search over the cells without
/// listing the tuples. With three or more cells a hidden operator can only be `+` or `x`, so a partial tuple is
/// abandoned as soon as neither its sum nor its product can still reach the target (bounds from the remaining
/// cells' smallest and largest candidates; a product must divide the target); and the search stops as soon as
/// every candidate is supported.
struct Supports<'a> {
    table: &'a Table,
    domains: &'a [u64],
    /// Bounds over the cells from i on: smallest and largest sum, smallest and largest product.
    min_sum: Vec<u64>,
    max_sum: Vec<u64>,
    min_product: Vec<u64>,
    max_product: Vec<u64>,
    current: Vec<u32>,
    support: Vec<u64>,
    /// Cells with a candidate not yet supported (the search stops when none is left).
    unsupported: usize,
}

impl<'a> Supports<'a> {
    fn new(table: &'a Table, domains: &'a [u64]) -> Self {
        let m = domains.len();
        let (mut min_sum, mut max_sum) = (vec![0u64; m + 1], vec![0u64; m + 1]);
        let (mut min_product, mut max_product) = (vec![1u64; m + 1], vec![1u64; m + 1]);
        for i in (0..m).rev() {
            let lo = u64::from(domains[i].trailing_zeros()) + 1;
            let hi = 64 - u64::from(domains[i].leading_zeros());
            min_sum[i] = min_sum[i + 1] + lo;
            max_sum[i] = max_sum[i + 1] + hi;
            min_product[i] = min_product[i + 1].saturating_mul(lo);
            max_product[i] = max_product[i + 1].saturating_mul(hi);
        }
        Supports {
            table,
            domains,
            min_sum,
            max_sum,
            min_product,
            max_product,
            current: Vec::with_capacity(m),
            support: vec![0; m],
            unsupported: m,
        }
    }

    fn run(mut self) -> Vec<u64> {
        self.extend(0, 1);
        self.support
    }

    /// Extends `current` (sum so far `sum`, product `product`); `true` when everything is supported.
    fn extend(&mut self, sum: u64, product: u64) -> bool {
        let i = self.current.len();
        let cells = &self.table.cells;
        if i == cells.len() {
            if self.table.predicate.holds(&self.current) {
                for (k, &v) in self.current.iter().enumerate() {
                    let before = self.support[k];
                    self.support[k] |= 1 << (v - 1);
                    if before != self.domains[k] && self.support[k] == self.domains[k] {
                        self.unsupported -= 1;
                    }
                }
            }
            return self.unsupported == 0;
        }
        for v in bit_indices(self.domains[i]).map(|b| b as u32 + 1) {
            if self.table.clashes(&self.current, v) {
                continue;
            }
            let (s, p) = (sum + u64::from(v), product.saturating_mul(u64::from(v)));
            if let TablePredicate::AnyOperator(t) = self.table.predicate {
                if cells.len() >= 3 {
                    let sum_open = s + self.min_sum[i + 1] <= t && t <= s + self.max_sum[i + 1];
                    let product_open = t % p == 0
                        && p.saturating_mul(self.min_product[i + 1]) <= t
                        && t <= p.saturating_mul(self.max_product[i + 1]);
                    if !sum_open && !product_open {
                        continue;
                    }
                }
            }
            self.current.push(v);
            let done = self.extend(s, p);
            self.current.pop();
            if done {
                return true;
            }
        }
        false
    }
}

/// Pruning enumerates tuples only while the candidate combinations stay below this.
const MAX_PRUNE_COMBINATIONS: u64 = 2_000_000;

impl Rule for Table {
    fn label(&self) -> String {
        format!("{} ({})", self.label, self.predicate.describe())
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let candidates: Vec<Vec<u32>> = self.cells.iter().map(|&cell| c.candidates(cell)).collect();
        let tuples = self.tuples(&candidates);
        let z: Vec<usize> = tuples.iter().map(|_| c.aux()).collect();
        c.equal(z.iter().map(|&k| (k, 1.0)).collect(), 1.0);
        for (i, &cell) in self.cells.iter().enumerate() {
            for v in 1..=n {
                let covering: Vec<usize> = tuples
                    .iter()
                    .zip(&z)
                    .filter(|(t, _)| t[i] == v)
                    .map(|(_, &k)| k)
                    .collect();
                if covering.is_empty() {
                    c.forbid(cell, v);
                    continue;
                }
                // The cell holds v exactly when the chosen tuple has v there.
                super::used_when_covered(c, vec![(c.x(cell, v), 1.0)], &covering);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        if self.predicate.holds(&values) {
            Ok(())
        } else {
            Err(Violation::Table {
                rule: self.label(),
                values,
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Table {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// It prunes only when it lists the supports exactly (above [`MAX_PRUNE_COMBINATIONS`] it prunes nothing),
    /// so its own prunings leave it nothing to do.
    fn idempotent(&self) -> bool {
        true
    }

    /// Generalised arc consistency: a value stays only if it occurs in some allowed tuple of current candidates.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let domains: Vec<u64> = self.cells.iter().map(|&c| d.get(c)).collect();
        let combinations = domains
            .iter()
            .try_fold(1u64, |acc, b| acc.checked_mul(u64::from(b.count_ones())));
        if combinations.is_none_or(|k| k > MAX_PRUNE_COMBINATIONS) {
            return Ok(false);
        }
        let support = Supports::new(self, &domains).run();
        d.restrict_each(&self.cells, &support)
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
    fn bounded_support_search_equals_listing_the_tuples() {
        // Random L-shaped and straight cages of 2 to 5 cells, random domains over 1..8, hidden and explicit
        // operators: the pruning search keeps exactly the values that occur in some listed tuple.
        let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.u64(..);
        let shapes: [&[(usize, usize)]; 4] = [
            &[(0, 0), (0, 1)],
            &[(0, 0), (0, 1), (1, 0)],
            &[(0, 0), (0, 1), (0, 2), (1, 2)],
            &[(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)],
        ];
        for round in 0..4000 {
            let shape = shapes[round % shapes.len()];
            let cells: Vec<Cell> = shape.iter().map(|&(r, c)| Cell::new(r, c)).collect();
            let target = 1 + next() % 200;
            let predicate = match next() % 4 {
                0 => TablePredicate::Difference(target % 7),
                1 => TablePredicate::Ratio(1 + target % 4),
                _ => TablePredicate::AnyOperator(target),
            };
            let table = Table {
                label: "cage".into(),
                cells,
                predicate,
            };
            let domains: Vec<u64> = shape
                .iter()
                .map(|_| (next() & 0xff) | 1 << (next() % 8))
                .collect();
            let candidates: Vec<Vec<u32>> = domains
                .iter()
                .map(|&b| (1..=8).filter(|v| b >> (v - 1) & 1 == 1).collect())
                .collect();
            let mut listed = vec![0u64; domains.len()];
            for t in table.tuples(&candidates) {
                for (s, &v) in listed.iter_mut().zip(&t) {
                    *s |= 1 << (v - 1);
                }
            }
            let searched = Supports::new(&table, &domains).run();
            assert_eq!(searched, listed, "{predicate:?} {domains:?}");
            // Idempotent, as the table says: the supports of the supports are the same.
            assert!(table.idempotent());
            if searched.iter().all(|&s| s != 0) {
                let again = Supports::new(&table, &searched).run();
                assert_eq!(again, searched, "{predicate:?} {domains:?}");
            }
        }
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

    /// The tuples' rows accept exactly the cages the check does, in CBC's view (the equalities) and in
    /// CaDiCaL's (the clauses) alike: every assignment of 1..4, with the tuples' columns set every way. The
    /// hidden operator's cells share no row or column, where the tuples and the check agree on repeats.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        let in_a_row = vec![Cell::new(0, 0), Cell::new(0, 1)];
        for (cells, predicate) in [
            (in_a_row.clone(), TablePredicate::Difference(1)),
            (in_a_row, TablePredicate::Ratio(2)),
            (
                vec![Cell::new(0, 0), Cell::new(1, 1)],
                TablePredicate::AnyOperator(4),
            ),
        ] {
            let table = Table {
                label: "cage".into(),
                cells,
                predicate,
            };
            let (accepted, refused) = crate::rules::encoding_matches_check(&table, 4);
            assert!(accepted > 0 && refused > 0, "{accepted} {refused}");
        }
    }
}
