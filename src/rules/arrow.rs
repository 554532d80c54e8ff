//! One cell equals the sum of others: arrow Sudoku (the circle equals the sum of the digits along its arrow).
//!
//! The summed cells may repeat a value where the grid's other rules allow it.
//!
//! # Encoding
//! One row `sum_{cells, v} v * x[cell][v] - sum_v v * x[target][v] = 0`. Exact: the coefficients are integers,
//! so at an integral point the row holds exactly when the target's value is the sum of the others'. The same,
//! read as partial sums along the arrow and then the circle, is a layered automaton ([`layered`]): exact and
//! clausal, so the weighted row is marked implied (CBC keeps it for its relaxation, clauses leave it out). An
//! arrow of two cells is the sum's supports instead ([`equal_sums::encode_pair_sum`]).
//!
//! # Propagation
//! Reachable sums ([`reach`]): the target keeps the totals some assignment of the other cells reaches, and
//! each other cell keeps the candidates that take part in reaching one of the target's candidates.

use super::grouped_sum::{GroupedSum, Total};
use super::{equal_sums, layered, reach, values_of, Rule};
use crate::domains::{bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Arrow {
    pub(crate) label: String,
    /// The cell holding the total (the circle).
    pub(crate) target: Cell,
    /// The cells adding up to it (the arrow).
    pub(crate) cells: Vec<Cell>,
}

impl Rule for Arrow {
    fn label(&self) -> String {
        format!("{} ({} = sum of the rest)", self.label, self.target)
    }

    fn cells(&self) -> Vec<Cell> {
        let mut all = vec![self.target];
        all.extend(&self.cells);
        all
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let k = self.cells.len() as u32;
        // Each summed cell is at least 1, so the target is at least k, and a summed cell at most n - (k - 1).
        for v in 1..=n {
            if v < k {
                c.forbid(self.target, v);
            }
            if v + k - 1 > n {
                for &cell in &self.cells {
                    c.forbid(cell, v);
                }
            }
        }
        // Two cells: the sum's supports, one clause per pair of values (with the weighted row, implied).
        if let [a, b] = self.cells[..] {
            equal_sums::encode_pair_sum(c, a, b, self.target);
            return;
        }
        let mut terms = equal_sums::weighted(c, &self.cells, 1.0);
        terms.extend(equal_sums::weighted(c, &[self.target], -1.0));
        // The arrow's partial sums, then the circle equal to the last, as a layered automaton: clausal.
        let k = self.cells.len();
        let accepted = u64::MAX;
        let step = move |i: usize, s: u64, v: u32| {
            if i < k {
                Some(s + u64::from(v)).filter(|&t| t <= u64::from(n))
            } else {
                (u64::from(v) == s).then_some(accepted)
            }
        };
        let accept = |q: u64| q == accepted;
        let automaton = layered::Automaton {
            start: 0,
            step: &step,
            accept: &accept,
        };
        let mut order = self.cells.clone();
        order.push(self.target);
        if automaton.encode(c, &order) {
            c.implied_equal(terms, 0.0);
        } else {
            c.equal(terms, 0.0);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        let got: u64 = values.iter().map(|&v| u64::from(v)).sum();
        let want = u64::from(grid.get(self.target));
        if got == want {
            Ok(())
        } else {
            Err(Violation::Sum {
                rule: format!("{} (the circle holds {want})", self.label()),
                got,
                values,
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Arrow {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Arrow cells that share a row, column or box cannot repeat: the grouped sum, as a table where the arrow
    /// is short enough to list (every arrow on a 9x9).
    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        GroupedSum::boxed(&self.cells, Total::Cell(self.target), apart)
    }

    /// A run keeps exactly the supported candidates of the cells and the circle ([`reach::supports`]).
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let domains: reach::Masks = self.cells.iter().map(|&c| d.get(c)).collect();
        let max = reach::largest(&domains);
        let mut allowed = reach::Sums::empty(max);
        bit_indices(d.get(self.target)).for_each(|b| allowed.insert(b + 1));
        let (support, reached) = reach::supports(&domains, &allowed).ok_or(Contradiction)?;
        let target = reached
            .iter()
            .filter(|&s| (1..=64).contains(&s))
            .fold(0u64, |m, s| m | 1 << (s - 1));
        let changed = d.restrict(self.target, target)?;
        Ok(d.restrict_each(&self.cells, &support)? || changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::bit;

    fn arrow(k: usize) -> Arrow {
        Arrow {
            label: "arrows line 1".into(),
            target: Cell::new(0, 0),
            cells: (1..=k).map(|c| Cell::new(1, c)).collect(),
        }
    }

    /// Brute force over every assignment of the candidates: the values of each cell in some assignment where
    /// the target equals the sum of the rest.
    fn brute(rule: &Arrow, d: &Domains) -> Option<Vec<u64>> {
        let cells = Rule::cells(rule);
        let mut support = vec![0u64; cells.len()];
        for acc in crate::rules::assignments(d, &cells, false) {
            if acc[0] == acc[1..].iter().sum::<u32>() {
                for (m, &v) in support.iter_mut().zip(&acc) {
                    *m |= bit(v);
                }
            }
        }
        support.iter().all(|&m| m != 0).then_some(support)
    }

    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(5);
        for round in 0..600 {
            let rule = arrow(1 + round % 4);
            let mut d = Domains::full(9);
            for cell in Rule::cells(&rule) {
                d.restrict(cell, rng.u64(1..512)).unwrap();
            }
            let want = brute(&rule, &d);
            let got = rule
                .propagate(&mut d)
                .ok()
                .map(|_| Rule::cells(&rule).iter().map(|&c| d.get(c)).collect());
            assert_eq!(got, want);
            // Idempotent, as it claims: a second run finds nothing more.
            assert!(rule.idempotent());
            if got.is_some() {
                assert_eq!(rule.propagate(&mut d), Ok(false));
            }
        }
    }

    /// The rows accept exactly the grids the check accepts, for arrows of one, two (the supports) and three
    /// cells (the automaton) on a 3x3.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for k in 1..=3 {
            let (accepted, refused) = crate::rules::encoding_matches_check(&arrow(k), 3);
            assert!(accepted > 0 && refused > 0, "{k}");
        }
    }

    #[test]
    fn checks_exactly() {
        let rule = arrow(2);
        let mut g = Grid::empty(9);
        g.set(Cell::new(0, 0), 7);
        g.set(Cell::new(1, 1), 3);
        g.set(Cell::new(1, 2), 4);
        assert!(rule.check(&g).is_ok());
        g.set(Cell::new(1, 2), 5);
        assert!(rule.check(&g).is_err());
    }
}
