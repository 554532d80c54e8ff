//! Some cells do not all hold the values of a known grid: the question `generate` asks when it takes givens
//! out of a puzzle with one known solution. Any other solution keeps every given left, so it differs from the
//! known one in a removed cell; the puzzle is still unique exactly when this rule over the removed cells leaves
//! it no solution at all.
//!
//! # Encoding
//! One clause, `sum_cells x[cell][known(cell)] <= k - 1` for k cells. Exact: at an integral point the sum is k
//! exactly when every cell holds its known value.
//!
//! # Propagation
//! When every cell but one can hold nothing but its known value, the last one cannot hold its own; when all
//! of them can hold nothing else, there is no solution. Exact (generalised arc consistency) for one clause.

use super::{values_of, Rule};
use crate::domains::{bit, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Differs {
    /// The cells, each with the value it must not hold while all the others hold theirs.
    pub(crate) known: Vec<(Cell, u32)>,
}

impl Rule for Differs {
    fn label(&self) -> String {
        let cells: Vec<String> = self.known.iter().map(|(c, _)| c.to_string()).collect();
        format!("{} (not all as in the known solution)", cells.join(" "))
    }

    fn cells(&self) -> Vec<Cell> {
        self.known.iter().map(|&(c, _)| c).collect()
    }

    fn encode(&self, c: &mut Compiler) {
        let terms: Vec<(usize, f64)> = self
            .known
            .iter()
            .map(|&(cell, v)| (c.x(cell, v), 1.0))
            .collect();
        let k = terms.len() as f64;
        c.at_most(terms, k - 1.0);
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        if self.known.iter().any(|&(c, v)| grid.get(c) != v) {
            Ok(())
        } else {
            Err(Violation::Table {
                rule: self.label(),
                values: values_of(grid, &Rule::cells(self)),
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Differs {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut open = None;
        for &(cell, v) in &self.known {
            let b = d.get(cell);
            if b & bit(v) == 0 {
                // This cell already differs: the rule holds whatever the others take.
                return Ok(false);
            }
            if b != bit(v) {
                if open.is_some() {
                    return Ok(false);
                }
                open = Some((cell, v));
            }
        }
        let (cell, v) = open.ok_or(Contradiction)?;
        d.restrict(cell, !bit(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over every assignment of the candidates: the values of each cell in some assignment that is
    /// not the known one everywhere.
    fn brute(rule: &Differs, d: &Domains) -> Option<Vec<u64>> {
        let cells = Rule::cells(rule);
        let mut support = vec![0u64; cells.len()];
        for acc in crate::rules::assignments(d, &cells, false) {
            if acc.iter().zip(&rule.known).any(|(&a, &(_, v))| a != v) {
                for (m, &v) in support.iter_mut().zip(&acc) {
                    *m |= bit(v);
                }
            }
        }
        support.iter().all(|&m| m != 0).then_some(support)
    }

    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(17);
        for round in 0..2_000 {
            let k = 1 + round % 4;
            let rule = Differs {
                known: (0..k)
                    .map(|i| (Cell::new(i, (i * 2) % 4), rng.u32(1..=4)))
                    .collect(),
            };
            let mut d = Domains::full(4);
            for &(cell, v) in &rule.known {
                // Often the known value alone, so that the rule has something to do.
                let mask = if rng.bool() { bit(v) } else { rng.u64(1..16) };
                d.restrict(cell, mask).unwrap();
            }
            let want = brute(&rule, &d);
            let got = rule
                .propagate(&mut d)
                .ok()
                .map(|_| Rule::cells(&rule).iter().map(|&c| d.get(c)).collect());
            assert_eq!(got, want, "{:?}", rule.known);
            if got.is_some() {
                assert_eq!(rule.propagate(&mut d), Ok(false));
            }
        }
    }

    #[test]
    fn checks_exactly() {
        let rule = Differs {
            known: vec![(Cell::new(0, 0), 3), (Cell::new(1, 1), 4)],
        };
        let mut g = Grid::empty(4);
        g.set(Cell::new(0, 0), 3);
        g.set(Cell::new(1, 1), 4);
        assert!(rule.check(&g).is_err());
        g.set(Cell::new(1, 1), 2);
        assert!(rule.check(&g).is_ok());
    }
}
