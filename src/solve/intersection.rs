//! Pointing and claiming, for any two groups that each hold every value once.
//!
//! When a row and a box overlap, every value the box cannot place outside the overlap must be placed inside it,
//! so the row cannot hold it anywhere else (and the same the other way round). All-different on the row or on
//! the box alone cannot see this; it follows only from both. The rule is derived from the puzzle's own
//! all-different groups of n cells (rows, columns, boxes, jigsaw regions, diagonals), whatever grammar declared
//! them, for every pair that shares two cells or more. It is implied by them, so it adds no rows to the program
//! and has nothing to check in a finished grid: it is a [`Propagator`] only, for search.

use std::sync::Arc;

use crate::domains::{all_values, Contradiction, Cost, Domains, Propagator};
use crate::grid::Cell;
use crate::rules::Rule;

/// Two full all-different groups that overlap in two cells or more.
#[derive(Debug)]
pub(crate) struct Intersection {
    /// Cells of the first group only, of both, of the second only.
    pub(crate) first: Vec<Cell>,
    pub(crate) both: Vec<Cell>,
    pub(crate) second: Vec<Cell>,
    /// The two groups, as indices into the puzzle's full groups in the order of its rules (those whose
    /// [`Rule::permutation_cells`] are n cells), so that a hint can name them.
    pub(crate) groups: (usize, usize),
}

impl Intersection {
    /// The intersection rules between the puzzle's full all-different groups.
    pub(crate) fn derive(size: usize, rules: &[Arc<dyn Rule>]) -> Vec<Intersection> {
        let groups: Vec<Vec<Cell>> = rules
            .iter()
            .filter_map(|r| r.permutation_cells())
            .filter(|cells| cells.len() == size)
            .collect();
        // Which groups hold each cell, so that only overlapping pairs are looked at.
        let mut holding: Vec<Vec<usize>> = vec![Vec::new(); size * size];
        for (g, cells) in groups.iter().enumerate() {
            for c in cells {
                holding[c.row * size + c.col].push(g);
            }
        }
        let mut out = Vec::new();
        let mut shared = vec![0usize; groups.len()];
        for (a, ga) in groups.iter().enumerate() {
            shared.iter_mut().for_each(|k| *k = 0);
            for c in ga {
                for &b in &holding[c.row * size + c.col] {
                    shared[b] += 1;
                }
            }
            for (b, gb) in groups.iter().enumerate().skip(a + 1) {
                if shared[b] < 2 || shared[b] == size {
                    continue;
                }
                let in_b = |c: &Cell| holding[c.row * size + c.col].contains(&b);
                let in_a = |c: &Cell| holding[c.row * size + c.col].contains(&a);
                out.push(Intersection {
                    first: ga.iter().copied().filter(|c| !in_b(c)).collect(),
                    both: ga.iter().copied().filter(in_b).collect(),
                    second: gb.iter().copied().filter(|c| !in_a(c)).collect(),
                    groups: (a, b),
                });
            }
        }
        out
    }
}

/// Removes from `others` the values that `outside` cannot hold (those must go in the overlap).
fn confine(d: &mut Domains, outside: &[Cell], others: &[Cell]) -> Result<bool, Contradiction> {
    let must_overlap = all_values(d.size()) & !outside.iter().fold(0u64, |m, &c| m | d.get(c));
    let mut changed = false;
    if must_overlap != 0 {
        for &c in others {
            changed |= d.restrict(c, !must_overlap)?;
        }
    }
    Ok(changed)
}

impl Propagator for Intersection {
    fn watches(&self) -> Vec<Cell> {
        let mut cells = self.first.clone();
        cells.extend(&self.both);
        cells.extend(&self.second);
        cells
    }

    /// Woken by any change in its cells, and rarely deducing anything that the singles do not: run once the
    /// singles stall. Measured on forum-hardest-1106 (search only): 61 runs a search node at low cost.
    fn cost(&self) -> Cost {
        Cost::Medium
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let a = confine(d, &self.first, &self.second)?;
        let b = confine(d, &self.second, &self.first)?;
        Ok(a || b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Puzzle;

    #[test]
    fn sudoku_pairs_are_rows_and_columns_with_boxes() {
        // A row meets a column in one cell (nothing to confine); each of 9 rows and 9 columns meets 3 boxes.
        let p = Puzzle::sudoku(9).unwrap();
        assert_eq!(Intersection::derive(9, p.rules()).len(), 54);
        // No boxes: no pairs at all.
        let latin = Puzzle::latin(9).unwrap();
        assert!(Intersection::derive(9, latin.rules()).is_empty());
    }

    #[test]
    fn a_value_confined_to_the_overlap_leaves_the_rest_of_the_row() {
        // 4x4 Sudoku: in the top-left box, 1 can only go in row 0, so row 0 has no 1 outside the box.
        let p = Puzzle::sudoku(4).unwrap();
        let rules = Intersection::derive(4, p.rules());
        let mut d = Domains::full(4);
        d.remove(Cell::new(1, 0), 1).unwrap();
        d.remove(Cell::new(1, 1), 1).unwrap();
        for rule in &rules {
            rule.propagate(&mut d).unwrap();
        }
        assert!(!d.contains(Cell::new(0, 2), 1));
        assert!(!d.contains(Cell::new(0, 3), 1));
        assert!(d.contains(Cell::new(0, 0), 1) && d.contains(Cell::new(2, 2), 1));
        // Nothing else moved: every other value is still everywhere in row 0.
        assert_eq!(d.candidate_count(), 16 * 4 - 4);
    }
}
