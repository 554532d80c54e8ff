//! A group of cells holding listed values: every value of the entry's list appears among its cells, a value
//! listed twice in two of them (quadruples: the digits in a circle where four cells meet). The other cells of
//! the group hold anything.
//!
//! # Encoding
//! For each value v listed m times, `sum_c x[c][v] >= m` over the cells. Exact: at an integral point each cell
//! holds one value, so the sum counts the cells holding v, and the rule asks exactly that each listed value's
//! count reaches the times it is listed. Every coefficient is 1, so the rows are clausal (one clause when m is
//! 1, a cardinality row otherwise).
//!
//! # Propagation
//! Exact: the listed values are slots, each filled by a distinct cell that can hold its value (a matching). A
//! candidate w of a cell stays when every slot can be filled without that cell (it is then free to hold
//! anything), or, w being listed, when the others can be filled with the cell taking one of w's slots. No way to
//! fill every slot is a contradiction. Entries are small (four cells on f-puzzles), and each test is a matching
//! of a few slots by augmenting paths. An entry past [`EXACT_CELLS`] (a grammar's own large groups) is pruned
//! by counting instead, so that a run stays linear in its cells: a value with fewer places left than it is
//! listed is a contradiction, and one with exactly as many goes in all of them.

use std::collections::BTreeMap;

use smallvec::SmallVec;

use super::{values_of, Rule};
use crate::domains::{bit, bit_indices, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

/// The most cells an entry is propagated exactly for: a run takes up to a matching per cell and value.
const EXACT_CELLS: usize = 16;

#[derive(Clone, Debug)]
pub(crate) struct Contains {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
    /// The values to be found among the cells, a value as often as it is listed.
    pub(crate) values: Vec<u32>,
}

impl Contains {
    /// Each listed value with the times it is listed.
    fn counts(&self) -> BTreeMap<u32, usize> {
        let mut out = BTreeMap::new();
        for &v in &self.values {
            *out.entry(v).or_insert(0) += 1;
        }
        out
    }
}

/// Whether every slot (a value) can be given its own cell among `cells` (candidate masks; a cell taken out is
/// 0) whose candidates hold the slot's value: Kuhn's augmenting paths. For up to [`EXACT_CELLS`] cells, on the
/// stack: the propagator runs it a few times a cell at every wake-up in search.
fn fills(slots: &[u32], cells: &[u64]) -> bool {
    /// Per cell, the slot it holds (`NONE`: none yet).
    const NONE: u8 = u8::MAX;
    fn augment(
        slot: usize,
        slots: &[u32],
        cells: &[u64],
        holder: &mut [u8],
        seen: &mut u32,
    ) -> bool {
        for (c, &mask) in cells.iter().enumerate() {
            if mask & bit(slots[slot]) == 0 || *seen >> c & 1 == 1 {
                continue;
            }
            *seen |= 1 << c;
            let free =
                holder[c] == NONE || augment(usize::from(holder[c]), slots, cells, holder, seen);
            if free {
                holder[c] = slot as u8;
                return true;
            }
        }
        false
    }
    debug_assert!(cells.len() <= EXACT_CELLS);
    if slots.len() > cells.len() {
        return false;
    }
    let mut holder = [NONE; EXACT_CELLS];
    (0..slots.len()).all(|s| augment(s, slots, cells, &mut holder, &mut 0))
}

impl Rule for Contains {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        for (v, times) in self.counts() {
            let terms = self.cells.iter().map(|&cell| (c.x(cell, v), 1.0)).collect();
            c.row(terms, times as f64, f64::INFINITY);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        for (v, times) in self.counts() {
            if values.iter().filter(|&&x| x == v).count() < times {
                return Err(Violation::Lacks {
                    rule: self.label(),
                    value: v,
                    times,
                    values,
                });
            }
        }
        Ok(())
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Contains {
    fn watches(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    /// Exact: a run keeps exactly the candidates of some assignment that holds every listed value (up to
    /// [`EXACT_CELLS`]; counting may leave something for a second run).
    fn idempotent(&self) -> bool {
        self.cells.len() <= EXACT_CELLS
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        if self.cells.len() > EXACT_CELLS {
            return self.propagate_by_counts(d);
        }
        // Entries of up to EXACT_CELLS cells (and values) are held on the stack.
        let masks: SmallVec<[u64; EXACT_CELLS]> = self.cells.iter().map(|&c| d.get(c)).collect();
        if !fills(&self.values, &masks) {
            return Err(Contradiction);
        }
        let listed = self.values.iter().fold(0u64, |m, &v| m | bit(v));
        let mut changed = false;
        for (i, &cell) in self.cells.iter().enumerate() {
            let mut without = masks.clone();
            without[i] = 0;
            if fills(&self.values, &without) {
                continue;
            }
            // The cell must fill a slot: it keeps the listed values whose other slots the rest can fill.
            let mut keep = 0u64;
            for b in bit_indices(listed & masks[i]) {
                let v = b as u32 + 1;
                let k = self.values.iter().position(|&x| x == v).expect("listed");
                let mut rest: SmallVec<[u32; EXACT_CELLS]> = SmallVec::from_slice(&self.values);
                rest.remove(k);
                if fills(&rest, &without) {
                    keep |= bit(v);
                }
            }
            changed |= d.restrict(cell, keep)?;
        }
        Ok(changed)
    }
}

impl Contains {
    /// For large entries: each listed value's places among the cells, against the times it is listed.
    fn propagate_by_counts(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (v, times) in self.counts() {
            let places: Vec<Cell> = self
                .cells
                .iter()
                .copied()
                .filter(|&c| d.contains(c, v))
                .collect();
            if places.len() < times {
                return Err(Contradiction);
            }
            if places.len() == times {
                for c in places {
                    changed |= d.restrict(c, bit(v))?;
                }
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{encoding_matches_check, matches_brute_force};

    fn quad(values: &[u32]) -> Contains {
        Contains {
            label: "quadruples 1".into(),
            cells: vec![
                Cell::new(0, 0),
                Cell::new(0, 1),
                Cell::new(1, 0),
                Cell::new(1, 1),
            ],
            values: values.to_vec(),
        }
    }

    fn holds(values: &[u32], got: &[u32]) -> bool {
        let mut left = got.to_vec();
        values
            .iter()
            .all(|v| match left.iter().position(|x| x == v) {
                Some(k) => {
                    left.remove(k);
                    true
                }
                None => false,
            })
    }

    #[test]
    fn propagation_matches_brute_force() {
        let mut rng = fastrand::Rng::with_seed(23);
        let mut refuted = 0;
        for round in 0..1500 {
            let n = 4 + round % 3;
            let k = rng.usize(1..=4);
            let values: Vec<u32> = (0..k).map(|_| rng.u32(1..=n as u32)).collect();
            let rule = quad(&values);
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let cells = rule.cells.clone();
            refuted += usize::from(matches_brute_force(&rule, &cells, &mut d, |s| {
                holds(&values, s)
            }));
        }
        assert!(refuted > 100, "{refuted}");
    }

    /// A large group counts: its runs keep every solution, and a value with as many places as it is listed
    /// goes there.
    #[test]
    fn large_groups_are_pruned_by_counting() {
        let cells: Vec<Cell> = (0..5)
            .flat_map(|r| (0..4).map(move |c| Cell::new(r, c)))
            .collect();
        let rule = Contains {
            label: "group 1".into(),
            cells: cells.clone(),
            values: vec![2, 2, 5],
        };
        assert!(!rule.idempotent());
        let mut d = Domains::full(5);
        for &c in &cells[2..] {
            d.remove(c, 2).unwrap();
        }
        assert_eq!(rule.propagate(&mut d), Ok(true));
        assert_eq!((d.fixed(cells[0]), d.fixed(cells[1])), (Some(2), Some(2)));
        d.remove(cells[5], 5).unwrap();
        for &c in &cells[3..] {
            d.remove(c, 5).unwrap();
        }
        assert_eq!(rule.propagate(&mut d), Ok(true));
        assert_eq!(d.fixed(cells[2]), Some(5));
        let mut d = Domains::full(5);
        for &c in &cells[1..] {
            d.remove(c, 2).unwrap();
        }
        assert_eq!(rule.propagate(&mut d), Err(Contradiction));
    }

    #[test]
    fn a_value_listed_twice_needs_two_cells() {
        let rule = quad(&[3, 3, 1]);
        let mut d = Domains::full(4);
        d.assign(Cell::new(0, 0), 2).unwrap();
        // Three cells left for 3, 3 and 1: each must be one of them.
        assert_eq!(rule.propagate(&mut d), Ok(true));
        for c in [Cell::new(0, 1), Cell::new(1, 0), Cell::new(1, 1)] {
            assert_eq!(d.get(c), bit(1) | bit(3));
        }
        d.assign(Cell::new(0, 1), 1).unwrap();
        assert_eq!(rule.propagate(&mut d), Ok(true));
        assert_eq!(d.fixed(Cell::new(1, 1)), Some(3));
        let mut d = Domains::full(4);
        d.assign(Cell::new(0, 0), 2).unwrap();
        d.assign(Cell::new(0, 1), 4).unwrap();
        assert_eq!(rule.propagate(&mut d), Err(Contradiction));
    }

    #[test]
    fn encoding_accepts_exactly_what_the_check_does() {
        for values in [&[1][..], &[2, 2], &[1, 2, 4], &[3, 3, 3], &[1, 2, 3, 4]] {
            let (accepted, refused) = encoding_matches_check(&quad(values), 4);
            assert!(accepted > 0 && refused > 0, "{values:?}");
        }
    }

    #[test]
    fn checks_exactly() {
        let g = Grid::from_rows(&[
            vec![1, 2, 3, 4],
            vec![3, 4, 1, 2],
            vec![2, 1, 4, 3],
            vec![4, 3, 2, 1],
        ])
        .unwrap();
        assert!(quad(&[1, 4]).check(&g).is_ok());
        assert!(quad(&[1, 2, 3, 4]).check(&g).is_ok());
        assert!(quad(&[1, 1]).check(&g).is_err());
        assert!(quad(&[2, 3, 4, 4]).check(&g).is_err());
        let lacks = quad(&[1, 1]).check(&g).unwrap_err().to_string();
        assert!(lacks.contains("lacks 1"), "{lacks}");
    }
}
