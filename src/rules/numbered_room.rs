//! Numbered-room clues: a clue outside a row or column is the digit in its X-th cell seen from that side,
//! where X is the nearest digit (a 3 nearest the clue: the third cell holds the clue).
//!
//! # Encoding
//! For each first value k, `x[first][k] <= x[k-th cell][clue]`: with k first, the k-th cell holds the clue. A
//! first value k beyond the line, or k = 1 with another clue than 1 (the first cell is its own first cell), is
//! forbidden outright. Exact: at an integral point the first cell holds one k, and its row asks exactly that
//! the k-th cell holds the clue. Clausal (two literals a row).
//!
//! # Propagation
//! A first value k stays when the k-th cell can hold the clue; the k-th cell keeps only the clue when every
//! first value left points at it. Every candidate kept has an assignment (the other cells are free, and repeats
//! are not this rule's concern), so one run reaches its own fixpoint.
//!
//! When the grid makes the line's cells all differ (a row or column, where every numbered room is set), the
//! engine asks for the sharper version ([`Propagator::sharpened`]): the clue stands once in the line, so the
//! first value is one more than the clue's place. A first value k > 1 that is the clue itself would put the
//! clue in two cells; a cell that could hold the clue keeps it only when the first cell can count to it.

use super::{values_of, Rule};
use crate::domains::{bit, bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct NumberedRoom {
    /// Where the clue stands, e.g. `top of column 3`.
    pub(crate) label: String,
    /// The row or column, nearest the clue first.
    pub(crate) cells: Vec<Cell>,
    pub(crate) clue: u32,
    /// The line's cells all differ (known from other rules): the clue's place and the first value agree.
    pub(crate) distinct: bool,
}

/// The value in the X-th of `values`, X the first of them; `None` when the line is empty or shorter than X.
pub(crate) fn room(values: &[u32]) -> Option<u32> {
    let x = *values.first()? as usize;
    values.get(x.checked_sub(1)?).copied()
}

impl Rule for NumberedRoom {
    fn label(&self) -> String {
        format!("{} (numbered room {})", self.label, self.clue)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let first = self.cells[0];
        for k in 1..=n {
            if !c.allowed(first, k) {
                continue;
            }
            match self.cells.get(k as usize - 1) {
                // The first cell points at itself: it is the room, so it must be the clue.
                Some(_) if k == 1 && self.clue != 1 => c.forbid(first, k),
                Some(_) if k == 1 => {}
                Some(&target) if c.allowed(target, self.clue) => {
                    let row = vec![(c.x(first, k), 1.0), (c.x(target, self.clue), -1.0)];
                    c.at_most(row, 0.0);
                }
                _ => c.forbid(first, k),
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        match room(&values) {
            Some(got) if got == self.clue => Ok(()),
            got => Err(Violation::Classes {
                rule: self.label(),
                why: match got {
                    Some(v) => format!("the room holds {v}"),
                    None => "the first value counts past the line".into(),
                },
                values,
            }),
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for NumberedRoom {
    fn watches(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    /// Exact with repeats allowed; the sharper version's channelling may leave something for a second run.
    fn idempotent(&self) -> bool {
        !self.distinct
    }

    /// The cells of a row or column differ: the version that ties the first value to the clue's place.
    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        let all_differ = apart.all_differ(&self.cells);
        (all_differ && !self.distinct).then(|| {
            Box::new(NumberedRoom {
                distinct: true,
                ..self.clone()
            }) as Box<dyn Propagator>
        })
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let first = self.cells[0];
        let clue = bit(self.clue);
        // The first values whose room can hold the clue (the first cell itself when k is 1).
        let points = |k: u32| match self.cells.get(k as usize - 1) {
            Some(_) if k == 1 => self.clue == 1,
            Some(&room) => d.get(room) & clue != 0,
            None => false,
        };
        let keep = bit_indices(d.get(first))
            .map(|b| b as u32 + 1)
            .filter(|&k| points(k))
            .fold(0u64, |m, k| m | bit(k));
        let mut changed = d.restrict(first, keep)?;
        if self.distinct {
            // The clue stands once: in the first cell only when it is 1 (a first value k > 1 that is the clue
            // would put it in the room too), elsewhere only where the first value counts to.
            for (p, &cell) in self.cells.iter().enumerate() {
                let counted = if p == 0 {
                    self.clue == 1
                } else {
                    keep & bit(p as u32 + 1) != 0
                };
                if !counted && d.get(cell) & clue != 0 {
                    changed |= d.restrict(cell, d.get(cell) & !clue)?;
                }
            }
        }
        // One first value left (other than 1): its room holds the clue.
        if keep.count_ones() == 1 {
            let k = keep.trailing_zeros() as usize + 1;
            if k > 1 {
                changed |= d.restrict(self.cells[k - 1], clue)?;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{
        encoding_matches_check, matches_brute_force, sharper_keeps_distinct_solutions,
    };

    fn line(n: usize, clue: u32) -> NumberedRoom {
        NumberedRoom {
            label: "left of row 1".into(),
            cells: (0..n).map(|c| Cell::new(0, c)).collect(),
            clue,
            distinct: false,
        }
    }

    #[test]
    fn the_room_is_the_cell_the_first_value_counts_to() {
        assert_eq!(room(&[3, 1, 4, 2]), Some(4));
        assert_eq!(room(&[1, 3, 4, 2]), Some(1));
        assert_eq!(room(&[4, 1, 3, 2]), Some(2));
        assert_eq!(room(&[5, 1, 2]), None);
        assert_eq!(room(&[]), None);
    }

    #[test]
    fn propagation_matches_brute_force() {
        let mut rng = fastrand::Rng::with_seed(29);
        let mut refuted = 0;
        for round in 0..900 {
            let n = 3 + round % 4;
            let rule = line(n, rng.u32(1..=n as u32));
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let holds = |s: &[u32]| room(s) == Some(rule.clue);
            refuted += usize::from(matches_brute_force(&rule, &rule.cells, &mut d, holds));
        }
        assert!(refuted > 50, "{refuted}");
    }

    /// With the cells all distinct, the sharpened version keeps every distinct solution, prunes at least as much
    /// as the plain one, and more on some.
    #[test]
    fn the_clues_place_keeps_every_distinct_solution() {
        let mut rng = fastrand::Rng::with_seed(31);
        let mut sharper = 0;
        for round in 0..900 {
            let n = 4 + round % 3;
            let rule = line(n, rng.u32(1..=n as u32));
            let sharp = NumberedRoom {
                distinct: true,
                ..rule.clone()
            };
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let holds = |s: &[u32]| room(s) == Some(rule.clue);
            sharper += usize::from(sharper_keeps_distinct_solutions(
                &rule,
                &sharp,
                &rule.cells,
                &mut d,
                holds,
            ));
        }
        assert!(sharper > 50, "{sharper}");
        // Clue 3 on a row of 5: the first cell is not 3 (its room would hold a second 3), and a 3 in the
        // fourth cell needs a first value of 4.
        let sharp = NumberedRoom {
            distinct: true,
            ..line(5, 3)
        };
        let mut d = Domains::full(5);
        d.remove(Cell::new(0, 0), 4).unwrap();
        assert_eq!(sharp.propagate(&mut d), Ok(true));
        assert!(!d.contains(Cell::new(0, 0), 3));
        assert!(!d.contains(Cell::new(0, 3), 3));
        assert!(d.contains(Cell::new(0, 4), 3));
    }

    #[test]
    fn encoding_accepts_exactly_what_the_check_does() {
        for clue in 1..=4 {
            let (accepted, refused) = encoding_matches_check(&line(4, clue), 4);
            assert!(accepted > 0 && refused > 0, "clue {clue}");
        }
    }

    #[test]
    fn checks_exactly() {
        let g = crate::rules::latin_square_4();
        let row = |r: usize, clue| NumberedRoom {
            cells: (0..4).map(|c| Cell::new(r, c)).collect(),
            ..line(4, clue)
        };
        assert!(row(0, 4).check(&g).is_ok());
        assert!(row(0, 1).check(&g).is_err());
        assert!(row(1, 2).check(&g).is_ok());
        assert!(row(2, 1).check(&g).is_ok());
        assert!(row(3, 4).check(&g).is_ok());
        assert!(row(3, 1).check(&g).is_err());
        let e = row(3, 2).check(&g).unwrap_err().to_string();
        assert!(e.contains("the room holds 4"), "{e}");
    }
}
