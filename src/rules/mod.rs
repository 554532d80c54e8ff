//! Rule primitives: the vocabulary every puzzle type is written in.
//!
//! A rule is a value ([`Rule`]) that knows three things about itself: how to compile to linear rows over the
//! binaries `x[r][c][v]` ([`Primitive::compile`]), how to check a finished grid exactly
//! ([`Primitive::check`]), and how to describe itself to a person. Puzzle types never appear here; grammars
//! combine these primitives (see `grammar`), and named whole-grid rules such as `diagonals` are listed in
//! [`catalogue`].
//!
//! Adding a primitive is one file here plus one entry in `grammar::primitives`.

pub mod all_different;
pub mod catalogue;
pub mod domain;
pub mod product;
pub mod relation;
pub mod sum;
pub mod table;
pub mod visibility;

use std::fmt;
use std::sync::Arc;

use crate::compile::Compiler;
use crate::grid::{Cell, Grid};
use crate::solve::presolve::{Contradiction, Domains};

pub use all_different::AllDifferent;
pub use domain::Domain;
pub use product::Product;
pub use relation::{Relation, RelationKind};
pub use sum::Sum;
pub use table::{Table, TablePredicate};
pub use visibility::Visibility;

/// One rule primitive.
pub trait Primitive: fmt::Debug + Send + Sync {
    /// What a person calls this constraint: `row 3`, `room A (product 24)`.
    fn label(&self) -> String;

    /// The cells the rule reads.
    fn cells(&self) -> Vec<Cell>;

    /// Appends this rule's rows (and auxiliary columns) to the program.
    fn compile(&self, c: &mut Compiler);

    /// Checks a complete grid in exact integer arithmetic; `Err` says what is violated.
    fn check(&self, grid: &Grid) -> Result<(), String>;

    /// Removes candidates that no solution can use (presolve); `Ok(true)` when something was removed. The
    /// default removes nothing: pruning is an optimisation, never needed for correctness.
    fn prune(&self, _domains: &mut Domains) -> Result<bool, Contradiction> {
        Ok(false)
    }

    /// The cells, when the rule says they all differ (with n cells: each value exactly once). Propagation
    /// derives pointing and claiming between such groups from these ([`crate::solve::intersection`]).
    fn permutation_cells(&self) -> Option<Vec<Cell>> {
        None
    }

    /// Checks a partly filled grid (0 = empty): an error only when the filled cells already break the rule.
    /// By default the rule is checked once all its cells are filled.
    fn check_partial(&self, grid: &Grid) -> Result<(), String> {
        if self.cells().iter().all(|&c| grid.get(c) != 0) {
            self.check(grid)
        } else {
            Ok(())
        }
    }
}

/// A shared, immutable rule.
pub type Rule = Arc<dyn Primitive>;

/// Values as written in messages: `[1, 2, 3]`.
pub(crate) fn values_of(grid: &Grid, cells: &[Cell]) -> Vec<u32> {
    cells.iter().map(|&c| grid.get(c)).collect()
}
