//! A cell may hold only some values: even/odd marks (and any other per-cell candidate list).
//!
//! Encoding: the columns of the other values are fixed to 0. Exact by construction.

use super::Rule;
use crate::domains::{Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Allowed {
    pub(crate) cell: Cell,
    /// The allowed values, ascending.
    pub(crate) allowed: Vec<u32>,
    /// What a person calls the restriction, e.g. `even`.
    pub(crate) name: String,
}

impl Rule for Allowed {
    fn label(&self) -> String {
        format!("{} is {}", self.cell, self.name)
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.cell]
    }

    fn encode(&self, c: &mut Compiler) {
        for v in 1..=c.size() as u32 {
            if !self.allowed.contains(&v) {
                c.forbid(self.cell, v);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let v = grid.get(self.cell);
        if self.allowed.contains(&v) {
            Ok(())
        } else {
            Err(Violation::NotAllowed {
                cell: self.cell,
                name: self.name.clone(),
                value: v,
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Allowed {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mask = self
            .allowed
            .iter()
            .filter(|&&v| (1..=64).contains(&v))
            .fold(0u64, |m, &v| m | 1 << (v - 1));
        d.restrict(self.cell, mask)
    }
}
