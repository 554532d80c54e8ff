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

use std::borrow::Cow;
use std::time::Instant;

use crate::domains::{Contradiction, Domains, Propagator};
use crate::grid::Cell;

/// A full group that meets a rule's cells without holding them all.
#[derive(Clone, Debug)]
pub(crate) struct Meet {
    /// The group's index among those given.
    group: usize,
    /// The cells the rule and the group both hold, and the rest of the group.
    shared: Vec<Cell>,
    rest: Vec<Cell>,
}

/// The full groups a rule meets without holding them, for the rule's cells; `None` when there is none (nothing
/// to clear). Worked out once per puzzle by `hint`, whose steps ask again and again.
pub(crate) fn meets(cells: &[Cell], groups: &[(String, Vec<Cell>)]) -> Option<Vec<Meet>> {
    // Sorted, so that each of the groups' cells is looked up, not searched for (a 64x64's 192 groups against
    // its hundreds of rules).
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    let meets: Vec<Meet> = groups
        .iter()
        .enumerate()
        .filter_map(|(group, (_, g))| {
            let (shared, rest): (Vec<Cell>, Vec<Cell>) =
                g.iter().partition(|c| cells.binary_search(c).is_ok());
            (!shared.is_empty() && !rest.is_empty()).then_some(Meet {
                group,
                shared,
                rest,
            })
        })
        .collect();
    (!meets.is_empty()).then_some(meets)
}

impl Meet {
    /// The values the pointing asks about: those the shared cells can hold and the rest of the group still has.
    fn open(&self, d: &Domains) -> u64 {
        let union = |cells: &[Cell]| cells.iter().fold(0u64, |m, &c| m | d.get(c));
        union(&self.shared) & union(&self.rest)
    }
}

/// One rule and the full groups it meets without holding them.
#[derive(Debug)]
pub(crate) struct RulePointing<'a> {
    rule: &'a dyn Propagator,
    meets: Cow<'a, [Meet]>,
    /// As a propagator, it stops trying values here: a trial is the rule's whole propagation (a tenth of a
    /// second for a 64x64 sandwich line), and there is one for every value of every group the rule meets.
    deadline: Option<Instant>,
}

impl<'a> RulePointing<'a> {
    /// For a rule's propagator (its thorough form, as a person reads it) against the puzzle's full groups;
    /// `None` when no group both shares cells with the rule and has cells outside it (nothing to clear).
    pub(crate) fn new(rule: &'a dyn Propagator, groups: &[(String, Vec<Cell>)]) -> Option<Self> {
        let meets = meets(&rule.watches(), groups)?;
        Some(RulePointing {
            rule,
            meets: Cow::Owned(meets),
            deadline: None,
        })
    }

    /// The same, trying nothing more as a propagator once `deadline` has passed (sound: it only finds less).
    pub(crate) fn until(self, deadline: Option<Instant>) -> Self {
        RulePointing { deadline, ..self }
    }

    /// For a rule's propagator and the groups it meets, worked out before ([`meets`]).
    pub(crate) fn with(rule: &'a dyn Propagator, meets: &'a [Meet]) -> Self {
        RulePointing {
            rule,
            meets: Cow::Borrowed(meets),
            deadline: None,
        }
    }

    /// Why `cell` cannot hold `v` on `d`: the group (its index among those given) where the rule must place `v`
    /// among the cells it shares with it, with those of the shared cells that can still hold `v`; `None` when
    /// no group the cell lies in (outside the rule) says so.
    pub(crate) fn why(&self, d: &Domains, cell: Cell, v: u32) -> Option<(usize, Vec<Cell>)> {
        let mut trial = d.clone();
        self.meets
            .iter()
            .filter(|m| m.rest.contains(&cell))
            .find(|m| self.must_place(&mut trial, &m.shared, v))
            .map(|m| (m.group, places(&m.shared, d, v)))
    }

    /// The first candidate the pointing strikes from `d` as it stands, one group at a time: the cell, the value,
    /// and why (as [`Self::why`] says it). `None` too once `late` says so, looked at before every trial.
    pub(crate) fn first(
        &self,
        d: &Domains,
        late: &dyn Fn() -> bool,
    ) -> Option<(Cell, u32, usize, Vec<Cell>)> {
        let mut trial = d.clone();
        for m in self.meets.iter() {
            for v in crate::domains::bit_indices(m.open(d)).map(|b| b as u32 + 1) {
                if late() {
                    return None;
                }
                if self.must_place(&mut trial, &m.shared, v) {
                    let cell = m.rest.iter().copied().find(|&c| d.contains(c, v))?;
                    return Some((cell, v, m.group, places(&m.shared, d, v)));
                }
            }
        }
        None
    }

    /// Whether the rule has no assignment with `v` out of `shared`, tried on `trial` (scratch domains, given
    /// back as they came: the trial is undone).
    fn must_place(&self, trial: &mut Domains, shared: &[Cell], v: u32) -> bool {
        let mark = trial.mark();
        let emptied = shared.iter().any(|&c| trial.remove(c, v).is_err());
        let fails = emptied
            || loop {
                match self.rule.propagate(trial) {
                    Err(Contradiction) => break true,
                    Ok(false) => break false,
                    Ok(true) => {}
                }
            };
        trial.undo(mark);
        fails
    }
}

/// Those of `cells` that can hold `v`.
fn places(cells: &[Cell], d: &Domains, v: u32) -> Vec<Cell> {
    cells
        .iter()
        .copied()
        .filter(|&c| d.contains(c, v))
        .collect()
}

impl Propagator for RulePointing<'_> {
    fn watches(&self) -> Vec<Cell> {
        let mut cells = self.rule.watches();
        for m in self.meets.iter() {
            cells.extend(&m.rest);
        }
        cells
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        let mut trial = d.clone();
        for m in self.meets.iter() {
            for b in crate::domains::bit_indices(m.open(d)) {
                if self.deadline.is_some_and(|t| Instant::now() >= t) {
                    return Ok(changed);
                }
                let v = b as u32 + 1;
                if self.must_place(&mut trial, &m.shared, v) {
                    for &c in &m.rest {
                        changed |= d.remove(c, v)?;
                        // The trial goes on from what is known now.
                        let _ = trial.remove(c, v);
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
