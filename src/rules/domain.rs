//! A cell may hold only some values: even/odd marks (and any other per-cell candidate list).
//!
//! Encoding: the columns of the other values are fixed to 0. Exact by construction.

use super::Primitive;
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};
use crate::solve::presolve::{Contradiction, Domains};

#[derive(Clone, Debug)]
pub struct Domain {
    pub cell: Cell,
    /// The allowed values, ascending.
    pub allowed: Vec<u32>,
    /// What a person calls the restriction, e.g. `even`.
    pub name: String,
}

impl Primitive for Domain {
    fn label(&self) -> String {
        format!("{} is {}", self.cell, self.name)
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.cell]
    }

    fn compile(&self, c: &mut Compiler) {
        for v in 1..=c.size() as u32 {
            if !self.allowed.contains(&v) {
                c.forbid(self.cell, v);
            }
        }
    }

    fn prune(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mask = self
            .allowed
            .iter()
            .filter(|&&v| (1..=64).contains(&v))
            .fold(0u64, |m, &v| m | 1 << (v - 1));
        d.restrict(self.cell, mask)
    }

    fn check(&self, grid: &Grid) -> Result<(), String> {
        let v = grid.get(self.cell);
        if self.allowed.contains(&v) {
            Ok(())
        } else {
            Err(format!("{} must be {} but holds {v}", self.cell, self.name))
        }
    }
}
