//! Pointing with a rule in place of a box: a value that a rule must place among the cells it shares with a full
//! group leaves the rest of that group.
//!
//! A KenKen cage `6x` of three cells along a row holds 1, 2 and 3 there whatever its order, so no other cell of
//! the row holds them (the deduction Simon Tatham's keen grades Hard); a killer cage of sum 7 over three cells
//! of one box row holds 1, 2 and 4 in that row. Found for any rule by one question a value: with the value
//! taken out of the shared cells, is the rule's own propagation (to its fixpoint, on those domains alone)
//! left with no assignment? Exact where the rule's propagation keeps exactly the candidates of its assignments
//! (a listed table), sound for every rule: a contradiction is a proof. Derived from the rules whatever grammar declared them, and a
//! deduction of the intersections rung of [`super::rate`].

use crate::domains::{Contradiction, Domains, Propagator};
use crate::grid::Cell;

/// One rule and the full groups it meets without holding them.
#[derive(Debug)]
pub(crate) struct RulePointing<'a> {
    rule: &'a dyn Propagator,
    /// Per full group meeting the rule's cells: the cells both hold, and the rest of the group.
    meets: Vec<(Vec<Cell>, Vec<Cell>)>,
}

impl<'a> RulePointing<'a> {
    /// For a rule's propagator (its thorough form, as a person reads it) against the puzzle's full groups;
    /// `None` when no group both shares cells with the rule and has cells outside it (nothing to clear).
    pub(crate) fn new(rule: &'a dyn Propagator, groups: &[(String, Vec<Cell>)]) -> Option<Self> {
        let cells = rule.watches();
        let meets: Vec<_> = groups
            .iter()
            .filter_map(|(_, g)| {
                let (shared, rest): (Vec<Cell>, Vec<Cell>) =
                    g.iter().partition(|c| cells.contains(c));
                (!shared.is_empty() && !rest.is_empty()).then_some((shared, rest))
            })
            .collect();
        (!meets.is_empty()).then_some(RulePointing { rule, meets })
    }

    /// Whether the rule has no assignment with `v` out of `shared`.
    fn must_place(&self, d: &Domains, shared: &[Cell], v: u32) -> bool {
        let mut trial = d.clone();
        let emptied = shared.iter().any(|&c| trial.remove(c, v).is_err());
        emptied
            || loop {
                match self.rule.propagate(&mut trial) {
                    Err(Contradiction) => break true,
                    Ok(false) => break false,
                    Ok(true) => {}
                }
            }
    }
}

impl Propagator for RulePointing<'_> {
    fn watches(&self) -> Vec<Cell> {
        let mut cells = self.rule.watches();
        for (_, rest) in &self.meets {
            cells.extend(rest);
        }
        cells
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (shared, rest) in &self.meets {
            let union = |cells: &[Cell], d: &Domains| cells.iter().fold(0u64, |m, &c| m | d.get(c));
            // Only a value the rest of the group still has can go; the shared cells must be able to hold it.
            let open = union(shared, d) & union(rest, d);
            for b in crate::domains::bit_indices(open) {
                let v = b as u32 + 1;
                if self.must_place(d, shared, v) {
                    for &c in rest {
                        changed |= d.remove(c, v)?;
                    }
                }
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::product::Product;

    /// A `6x` cage of three cells in row 1 of a 4x4: 1, 2 and 3, so they leave the row's fourth cell, which
    /// holds 4; a `6x` cage bent over two rows (2, 3 and 1 in either) clears nothing.
    #[test]
    fn a_cage_along_a_row_clears_the_rest_of_it() {
        let row: Vec<Cell> = (0..4).map(|c| Cell::new(0, c)).collect();
        let groups = vec![("row 1".to_string(), row.clone())];
        let cage = |cells: Vec<Cell>| Product {
            label: "cage".into(),
            cells,
            product: 6,
        };
        let apart =
            crate::domains::Apart::new(4, || vec![(0..4).map(|c| Cell::new(0, c)).collect()]);
        let straight = cage(row[..3].to_vec());
        let table = crate::domains::Propagator::thorough(&straight, &apart).unwrap();
        let pointing = RulePointing::new(table.as_ref(), &groups).unwrap();
        let mut d = Domains::full(4);
        assert_eq!(pointing.propagate(&mut d), Ok(true));
        assert_eq!(d.get(Cell::new(0, 3)), 1 << 3);
        // Bent: two cells in row 1, one below. 6 is 1 x 2 x 3 in some order (a 6 is past 4): row 1's two cells
        // may hold any two of them, so none is sure to be there.
        let bent = cage(vec![Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 0)]);
        let table = crate::domains::Propagator::thorough(&bent, &apart).unwrap();
        let pointing = RulePointing::new(table.as_ref(), &groups).unwrap();
        let mut d = Domains::full(4);
        assert_eq!(pointing.propagate(&mut d), Ok(false));
    }
}
