//! A relation between the values of two cells: Futoshiki `<`, consecutive marks, non-consecutive neighbours,
//! anti-knight and anti-king (`!=`).
//!
//! # Encoding
//! Support rows: for every value u of cell a, `x[a][u] <= sum_{v : R(u, v)} x[b][v]`, and the same from b's
//! side. Exact: if a holds u, b must hold a value compatible with u; a value with no compatible partner is
//! fixed to 0. For `!=` the two directions coincide and reduce to `x[a][u] + x[b][u] <= 1`. Support rows are
//! stronger than a single `value(a) + 1 <= value(b)` row: they cut off fractional points that the latter allows.

use super::Rule;
use crate::domains::{Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RelationKind {
    /// a < b
    Less,
    /// |a - b| = 1
    Consecutive,
    /// |a - b| != 1
    NotConsecutive,
    /// a != b
    Different,
}

impl RelationKind {
    pub(crate) fn holds(self, a: u32, b: u32) -> bool {
        match self {
            RelationKind::Less => a < b,
            RelationKind::Consecutive => a.abs_diff(b) == 1,
            RelationKind::NotConsecutive => a.abs_diff(b) != 1,
            RelationKind::Different => a != b,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            RelationKind::Less => "<",
            RelationKind::Consecutive => "differs by 1 from",
            RelationKind::NotConsecutive => "must not differ by 1 from",
            RelationKind::Different => "!=",
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Relation {
    pub(crate) a: Cell,
    pub(crate) b: Cell,
    pub(crate) kind: RelationKind,
    /// What the relation comes from, e.g. `less` or `anti-knight`.
    pub(crate) source: String,
}

impl Rule for Relation {
    fn label(&self) -> String {
        format!(
            "{}: {} {} {}",
            self.source,
            self.a,
            self.kind.symbol(),
            self.b
        )
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.a, self.b]
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        if self.kind == RelationKind::Different {
            for v in 1..=n {
                c.at_most(vec![(c.x(self.a, v), 1.0), (c.x(self.b, v), 1.0)], 1.0);
            }
            return;
        }
        for (from, to, forward) in [(self.a, self.b, true), (self.b, self.a, false)] {
            for u in 1..=n {
                let ok = |v: u32| {
                    if forward {
                        self.kind.holds(u, v)
                    } else {
                        self.kind.holds(v, u)
                    }
                };
                let support: Vec<u32> = (1..=n).filter(|&v| ok(v) && c.allowed(to, v)).collect();
                if support.is_empty() {
                    c.forbid(from, u);
                    continue;
                }
                if support.len() == n as usize {
                    continue;
                }
                let mut terms: Vec<(usize, f64)> =
                    support.iter().map(|&v| (c.x(to, v), -1.0)).collect();
                terms.push((c.x(from, u), 1.0));
                c.at_most(terms, 0.0);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let (a, b) = (grid.get(self.a), grid.get(self.b));
        if self.kind.holds(a, b) {
            Ok(())
        } else {
            Err(Violation::Relation {
                rule: self.label(),
                a: self.a,
                a_value: a,
                b: self.b,
                b_value: b,
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Relation {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Keeps the values of each cell that some value of the other supports.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let keep = |d: &Domains, from: Cell, to: Cell, forward: bool| {
            d.values(from)
                .filter(|&u| {
                    d.values(to).any(|v| {
                        if forward {
                            self.kind.holds(u, v)
                        } else {
                            self.kind.holds(v, u)
                        }
                    })
                })
                .fold(0u64, |m, u| m | 1 << (u - 1))
        };
        let a = keep(d, self.a, self.b, true);
        let mut changed = d.restrict(self.a, a)?;
        let b = keep(d, self.b, self.a, false);
        changed |= d.restrict(self.b, b)?;
        Ok(changed)
    }
}
