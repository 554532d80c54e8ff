//! A sum over cells some of which must differ, or short enough to list: the sharpened propagator of [`Sum`]
//! with repeats allowed (little-killer diagonals, KenKen `+` cages) and of [`Arrow`].
//!
//! Those rules allow repeats because their cells need not differ, but the grid often makes some of them differ:
//! a little-killer diagonal crosses a box in two or three cells, an arrow bends inside one. Taken as independent
//! cells, `r1c1 + r2c2 = 4` keeps 2 in both (2 + 2); when the two share a box it cannot, and only 1 and 3 stay.
//! The engine hands the rule the puzzle's all-different groups ([`Apart`]); the rule's cells are split into
//! groups whose members pairwise differ, and [`reach::grouped_supports`] keeps exactly the candidates of some
//! assignment that is distinct inside each group and reaches an allowed total.
//!
//! Where the cells and the circle allow few assignments (every arrow on a 9x9: at most 126 ways for its cells to
//! add up to 9 or less), they are listed once instead and the run is a compact table's ([`Tuples`]): it removes
//! what the grouped programme removes and more (the table also keeps the circle apart from the arrow cells it
//! shares a group with, and every pair of apart cells distinct, not only those [`groups_apart`] puts together),
//! in bit operations. On the 20 arrow records of the corpus that took a quarter of search to a tenth.
//!
//! [`Sum`]: super::Sum
//! [`Arrow`]: super::Arrow

use super::reach::{self, Sums, MAX_GROUP};
use super::tuples::{self, Tuples, MAX_TUPLES};
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
    /// Every assignment, when few enough to list: then a run is the table's alone.
    table: Option<Tuples>,
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
    /// The sum with its cells grouped greedily by `apart`, and its table when it has one; `None` when it has
    /// none and no two of the cells must differ (the plain propagator is then as strong).
    pub(crate) fn new(cells: &[Cell], total: Total, apart: &Apart<'_>) -> Option<GroupedSum> {
        let groups = groups_apart(cells, apart);
        let table = table(cells, total, apart);
        let idempotent = table.is_some() || enumerable(&groups, apart.size());
        (table.is_some() || groups.iter().any(|g| g.len() > 1)).then(|| GroupedSum {
            cells: cells.to_vec(),
            groups,
            total,
            table,
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

#[cfg(test)]
impl GroupedSum {
    /// The same propagator without its table: the grouped programme's path.
    fn without_table(&self, n: usize) -> GroupedSum {
        GroupedSum {
            table: None,
            idempotent: enumerable(&self.groups, n),
            ..self.clone()
        }
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
        if let Some(table) = &self.table {
            return table.propagate(d);
        }
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

/// The sum's table: every assignment of its cells, then the circle's value, that reaches the total with every two
/// cells `apart` distinct (the circle among them); `None` when there are more than [`MAX_TUPLES`] or listing them
/// takes too long ([`tuples::list`]). Only sums with at most [`MAX_TUPLES`] assignments before distinctness
/// ([`compositions`]) are listed, and every step of the walk leads to one of those, so the walk's limit is a
/// guard, seldom reached: an engine's set-up stays microseconds a rule (KenKen's many cages are built for every
/// solve; listing sums that distinctness brings under the limit from up to twice it made the quickest KenKens
/// 1.4x slower).
fn table(cells: &[Cell], total: Total, apart: &Apart<'_>) -> Option<Tuples> {
    let mut scope = cells.to_vec();
    if let Total::Cell(t) = total {
        scope.push(t);
    }
    let n = apart.size() as u64;
    // The least and most the summed cells may add up to.
    let (least, most) = match total {
        Total::Fixed(t) => (t, t),
        Total::Cell(_) => (1, n),
    };
    if cells.is_empty() || compositions(cells.len(), least, most, n) > MAX_TUPLES as f64 {
        return None;
    }
    // The state is the sum so far: each summed cell keeps it where the cells left can still end within bounds,
    // and the circle, after them, holds it.
    let summed = cells.len();
    let step = |i: usize, sum: u64, v: u32| {
        let v = u64::from(v);
        if i == summed {
            return (v == sum).then_some(sum);
        }
        let left = (summed - i - 1) as u64;
        (sum + v + left <= most && sum + v + left * n >= least).then_some(sum + v)
    };
    tuples::list(&scope, apart, 0, &step, &|_| true)
}

/// About how many ways k values of 1..=n add up to a total in least..=most, by sums of the counts of one cell
/// fewer (floating point: only compared with a table's size); infinite past 2^16 steps of counting, where a sum
/// of many cells has a large total and so far more assignments than a table holds.
fn compositions(k: usize, least: u64, most: u64, n: u64) -> f64 {
    let (top, n) = (most as usize, n as usize);
    if k.saturating_mul(top) > 1 << 16 {
        return f64::INFINITY;
    }
    // ways[s]: assignments of the cells so far adding up to s.
    let mut ways = vec![0f64; top + 1];
    ways[0] = 1.0;
    let mut next = vec![0f64; top + 1];
    for _ in 0..k {
        // next[s] = ways[s - 1] + ... + ways[s - n], a running window; no way reaches 0 (each cell adds 1 or
        // more), and next holds the counts of two cells before.
        next[0] = 0.0;
        let mut window = 0.0;
        for s in 1..=top {
            window += ways[s - 1];
            if s > n {
                window -= ways[s - 1 - n];
            }
            next[s] = window;
        }
        std::mem::swap(&mut ways, &mut next);
    }
    ways[least.min(most) as usize..].iter().sum()
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
        // The same without the table.
        let two = two.without_table(4);
        assert_eq!(two.propagate(&mut Domains::full(4)), Err(Contradiction));
        let three = three.without_table(4);
        let mut d = Domains::full(4);
        assert_eq!(three.propagate(&mut d), Ok(true));
        assert_eq!(d.get(diagonal[0]), 0b11);
        // Cells that need not differ get a table while it is short, and no grouped propagator past it.
        let far = [Cell::new(0, 0), Cell::new(3, 3)];
        assert!(GroupedSum::new(&far, Total::Fixed(2), &apart).is_some_and(|g| g.table.is_some()));
        let none = Apart::new(9, Vec::new);
        let row: Vec<Cell> = (0..9).map(|c| Cell::new(0, c)).collect();
        assert!(GroupedSum::new(&row, Total::Fixed(40), &none).is_none());
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
            let with_table = GroupedSum::new(&cells, total, &apart).unwrap();
            for g in [with_table.clone(), with_table.without_table(9)] {
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
        }
        let apart16 = Apart::new(16, || vec![boxed(16, 4)]);
        let four = [0, 1, 2, 3].map(|i| Cell::new(i, i));
        let g = GroupedSum::new(&four, Total::Fixed(20), &apart16).unwrap();
        assert!(!g.without_table(16).idempotent());
    }

    /// On random candidates, the table keeps exactly the candidates of some assignment that reaches the total
    /// (a clue, or the circle's value) with every two cells that share a group distinct, the circle among
    /// them: brute force over every assignment. An arrow bent inside the top-left box of a 9x9, its circle in
    /// the box, and a diagonal through two boxes.
    #[test]
    fn the_table_keeps_exactly_what_brute_force_keeps() {
        let boxes: Vec<Vec<Cell>> = (0..9)
            .map(|b| {
                (0..9)
                    .map(|k| Cell::new(b / 3 * 3 + k / 3, b % 3 * 3 + k % 3))
                    .collect()
            })
            .collect();
        let apart = Apart::new(9, || boxes.clone());
        let bent = [
            Cell::new(0, 1),
            Cell::new(1, 1),
            Cell::new(1, 2),
            Cell::new(2, 4),
        ];
        let diagonal = [0, 1, 2, 3, 4].map(|i| Cell::new(i, i + 1));
        let mut rng = fastrand::Rng::with_seed(12);
        let mut tabled = 0;
        for round in 0..800 {
            let (cells, total): (&[Cell], Total) = match round % 3 {
                0 => (&bent[..3], Total::Cell(Cell::new(0, 0))),
                1 => (&bent, Total::Cell(Cell::new(0, 0))),
                _ => (&diagonal, Total::Fixed(rng.u64(5..=30))),
            };
            let g = GroupedSum::new(cells, total, &apart).unwrap();
            if g.table.is_none() {
                continue;
            }
            tabled += 1;
            let scope = g.watches();
            let mut d = Domains::full(9);
            for &c in &scope {
                d.restrict(c, rng.u64(1..512)).unwrap();
            }
            let mut want = vec![0u64; scope.len()];
            for values in crate::rules::assignments(&d, &scope, false) {
                let sum: u32 = values[..cells.len()].iter().sum();
                let reaches = match total {
                    Total::Fixed(t) => u64::from(sum) == t,
                    Total::Cell(_) => values[cells.len()] == sum,
                };
                let apart_ok = (0..scope.len()).all(|i| {
                    (0..i).all(|j| values[i] != values[j] || !apart.differ(scope[i], scope[j]))
                });
                if reaches && apart_ok {
                    values
                        .iter()
                        .zip(&mut want)
                        .for_each(|(&v, m)| *m |= 1 << (v - 1));
                }
            }
            let got = g
                .propagate(&mut d)
                .ok()
                .map(|_| scope.iter().map(|&c| d.get(c)).collect());
            let want = want.iter().all(|&m| m != 0).then_some(want);
            assert_eq!(got, want, "round {round}: {total:?}");
        }
        // Most diagonals' totals list within the limit; the longer sums beyond it take the grouped path.
        assert!(tabled > 600, "{tabled}");
    }

    /// The count of assignments that decides whether a sum is listed, against counting them one by one.
    #[test]
    fn compositions_count_the_assignments() {
        for (k, least, most, n) in [
            (1, 3, 3, 9),
            (2, 10, 10, 9),
            (3, 1, 9, 9),
            (4, 20, 20, 9),
            (3, 5, 12, 4),
        ] {
            let d = Domains::full(n as usize);
            let cells: Vec<Cell> = (0..k).map(|c| Cell::new(0, c)).collect();
            let want = crate::rules::assignments(&d, &cells, false)
                .iter()
                .filter(|a| (least..=most).contains(&a.iter().map(|&v| u64::from(v)).sum()))
                .count();
            assert_eq!(
                compositions(k, least, most, n),
                want as f64,
                "{k} {least} {most} {n}"
            );
        }
        assert_eq!(compositions(64, 2000, 2000, 64), f64::INFINITY);
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
