//! A sum over cells some of which must differ: the sharpened propagator of [`Sum`] with repeats allowed
//! (little-killer diagonals, KenKen `+` cages) and of [`Arrow`].
//!
//! Those rules allow repeats because their cells need not differ, but the grid often makes some of them differ:
//! a little-killer diagonal crosses a box in two or three cells, an arrow bends inside one. Taken as independent
//! cells, `r1c1 + r2c2 = 4` keeps 2 in both (2 + 2); when the two share a box it cannot, and only 1 and 3 stay.
//! The engine hands the rule the puzzle's all-different groups ([`Apart`]); the rule's cells are split into
//! groups whose members pairwise differ, and [`reach::grouped_supports`] keeps exactly the candidates of some
//! assignment that is distinct inside each group and reaches an allowed total.
//!
//! [`Sum`]: super::Sum
//! [`Arrow`]: super::Arrow

use super::reach::{self, Sums, MAX_GROUP};
use crate::domains::{bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::grid::Cell;

/// What the cells add up to.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Total {
    /// A clue.
    Fixed(u64),
    /// The value of a cell outside the sum (an arrow's circle).
    Cell(Cell),
}

#[derive(Clone, Debug)]
pub(crate) struct GroupedSum {
    cells: Vec<Cell>,
    /// Indices into `cells`: groups whose members pairwise differ, every cell in one.
    groups: Vec<Vec<usize>>,
    total: Total,
    /// No group can have more assignments than [`reach::MAX_LEAVES`] (n^size at most), so a run never splits
    /// one into single cells and is exact: its own prunings leave nothing more for it to do.
    idempotent: bool,
}

/// The cells (their indices) in groups of at most [`MAX_GROUP`] whose members pairwise differ by `apart`, greedily
/// in order, every cell in one.
pub(crate) fn groups_apart(cells: &[Cell], apart: &Apart<'_>) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        let joins = groups
            .iter_mut()
            .find(|g| g.len() < MAX_GROUP && g.iter().all(|&j| apart.differ(cells[j], c)));
        match joins {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// Whether no group can have more assignments than [`reach::MAX_LEAVES`] on a grid of n (n^size at most), so
/// that [`reach::grouped_supports`] never splits one and a run is exact.
pub(crate) fn enumerable(groups: &[Vec<usize>], n: usize) -> bool {
    groups.iter().all(|g| {
        (n as u64)
            .checked_pow(g.len() as u32)
            .is_some_and(|a| a <= reach::MAX_LEAVES)
    })
}

impl GroupedSum {
    /// The sum with its cells grouped greedily by `apart`; `None` when no two of them must differ (the plain
    /// propagator is then as strong).
    pub(crate) fn new(cells: &[Cell], total: Total, apart: &Apart<'_>) -> Option<GroupedSum> {
        let groups = groups_apart(cells, apart);
        let idempotent = enumerable(&groups, apart.size());
        groups.iter().any(|g| g.len() > 1).then(|| GroupedSum {
            cells: cells.to_vec(),
            groups,
            total,
            idempotent,
        })
    }

    /// Boxed, as [`Propagator::sharpened`] returns it.
    pub(crate) fn boxed(
        cells: &[Cell],
        total: Total,
        apart: &Apart,
    ) -> Option<Box<dyn Propagator>> {
        Self::new(cells, total, apart).map(|g| Box::new(g) as Box<dyn Propagator>)
    }
}

impl Propagator for GroupedSum {
    fn watches(&self) -> Vec<Cell> {
        let mut cells = self.cells.clone();
        if let Total::Cell(t) = self.total {
            cells.push(t);
        }
        cells
    }

    /// Exact for its cells and its target in one run (every candidate kept has an assignment reaching a total
    /// that stays), unless a group may be split for a run.
    fn idempotent(&self) -> bool {
        self.idempotent
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let domains: reach::Masks = self.cells.iter().map(|&c| d.get(c)).collect();
        let max = reach::largest(&domains);
        let allowed = match self.total {
            Total::Fixed(t) if t > max as u64 => return Err(Contradiction),
            Total::Fixed(t) => Sums::only(max, t as usize),
            Total::Cell(target) => {
                let mut set = Sums::empty(max);
                bit_indices(d.get(target)).for_each(|b| set.insert(b + 1));
                set
            }
        };
        let (support, reached) =
            reach::grouped_supports(&domains, &self.groups, &allowed).ok_or(Contradiction)?;
        let mut changed = false;
        if let Total::Cell(target) = self.total {
            let mask = reached
                .iter()
                .filter(|&s| (1..=64).contains(&s))
                .fold(0u64, |m, s| m | 1 << (s - 1));
            changed |= d.restrict(target, mask)?;
        }
        Ok(d.restrict_each(&self.cells, &support)? || changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_of_one_box_on_a_diagonal_cannot_repeat() {
        // r1c1 and r2c2 share the top-left box of a 4x4 Sudoku: they cannot both be 1, so a total of 2 is
        // impossible, and a total of 3 keeps exactly {1, 2} in each.
        let boxed = [
            Cell::new(0, 0),
            Cell::new(0, 1),
            Cell::new(1, 0),
            Cell::new(1, 1),
        ];
        let apart = Apart::new(4, || vec![boxed.to_vec()]);
        let diagonal = [Cell::new(0, 0), Cell::new(1, 1)];
        let two = GroupedSum::new(&diagonal, Total::Fixed(2), &apart).unwrap();
        assert_eq!(two.propagate(&mut Domains::full(4)), Err(Contradiction));
        let three = GroupedSum::new(&diagonal, Total::Fixed(3), &apart).unwrap();
        let mut d = Domains::full(4);
        assert_eq!(three.propagate(&mut d), Ok(true));
        assert_eq!(d.get(diagonal[0]), 0b11);
        assert_eq!(d.get(diagonal[1]), 0b11);
        // Cells that need not differ get no grouped propagator at all.
        let far = [Cell::new(0, 0), Cell::new(3, 3)];
        assert!(GroupedSum::new(&far, Total::Fixed(2), &apart).is_none());
    }

    /// On random candidates, a run leaves nothing for a second (the propagator says it is idempotent, so the
    /// engine does not wake it for its own prunings), for clues and for a circle; a group of four on a 16x16
    /// may be too large to enumerate in a run, and then it does not say so.
    #[test]
    fn one_run_reaches_its_own_fixpoint() {
        let boxed = |n: usize, h: usize| -> Vec<Cell> {
            (0..h)
                .flat_map(|r| (0..h).map(move |c| Cell::new(r, c)))
                .take(n)
                .collect()
        };
        let apart = Apart::new(9, || vec![boxed(9, 3)]);
        // Three cells of the top-left box and one outside it, and the circle far away.
        let cells = [
            Cell::new(0, 0),
            Cell::new(1, 1),
            Cell::new(2, 2),
            Cell::new(3, 3),
        ];
        let mut rng = fastrand::Rng::with_seed(9);
        for round in 0..1500 {
            let total = match round % 2 {
                0 => Total::Fixed(rng.u64(3..=36)),
                _ => Total::Cell(Cell::new(8, 8)),
            };
            let g = GroupedSum::new(&cells, total, &apart).unwrap();
            assert!(g.idempotent());
            let mut d = Domains::full(9);
            for &c in g.watches().iter() {
                d.restrict(c, rng.u64(1..512)).unwrap();
            }
            let before = d.clone();
            if g.propagate(&mut d).is_ok() {
                assert_eq!(g.propagate(&mut d), Ok(false), "{total:?} on {before:?}");
            }
        }
        let apart16 = Apart::new(16, || vec![boxed(16, 4)]);
        let four = [0, 1, 2, 3].map(|i| Cell::new(i, i));
        let g = GroupedSum::new(&four, Total::Fixed(20), &apart16).unwrap();
        assert!(!g.idempotent());
    }

    #[test]
    fn an_arrow_target_keeps_the_totals_reached() {
        // Circle r4c4; arrow r1c1, r1c2 in one row: distinct, so the circle is at least 1 + 2 = 3.
        let row = [
            Cell::new(0, 0),
            Cell::new(0, 1),
            Cell::new(0, 2),
            Cell::new(0, 3),
        ];
        let apart = Apart::new(4, || vec![row.to_vec()]);
        let g = GroupedSum::new(&row[..2], Total::Cell(Cell::new(3, 3)), &apart).unwrap();
        let mut d = Domains::full(4);
        g.propagate(&mut d).unwrap();
        assert_eq!(d.get(Cell::new(3, 3)), 0b1100);
        assert_eq!(d.get(Cell::new(0, 0)), 0b111);
    }
}
