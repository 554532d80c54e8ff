//! Values a rule must place, confined by the groups that hold its cells: the rule's counterpart of pointing.
//!
//! Some rules place certain values somewhere on their cells in every solution ([`Propagator::required`]: a
//! renban line of five cells always holds a 5). When every cell of the rule that can still hold such a value
//! lies in one all-different group of the puzzle (a row, a column, a box), the value goes in the group there,
//! so no other cell of the group can hold it. Neither the rule nor the group sees this alone, as neither a row
//! nor a box alone sees pointing. Derived from the rules whatever grammar declared them; it is implied by them,
//! so it adds nothing to the program and is a [`Propagator`] only.

use std::sync::Arc;

use crate::domains::{all_values, bit_indices, Contradiction, Cost, Domains, Propagator};
use crate::grid::Cell;
use crate::rules::Rule;

/// One rule and the groups that share cells with it.
#[derive(Debug)]
pub(crate) struct Required {
    rule: Arc<dyn Rule>,
    cells: Vec<Cell>,
    /// Per group meeting the rule's cells but not holding them all: which of the rule's cells it holds (bit i =
    /// `cells[i]`), its cells outside the rule, and whether it holds every value (n cells).
    groups: Vec<(u64, Vec<Cell>, bool)>,
}

impl Required {
    /// For every rule whose propagator names required values, with at most 64 cells, against the puzzle's
    /// all-different groups. Search asks for these on every puzzle it takes (in a `--lines` run, on every
    /// line), so the groups are collected only once some rule names required values.
    pub(crate) fn derive(size: usize, rules: &[Arc<dyn Rule>]) -> Vec<Required> {
        let full = Domains::full(size);
        let mut groups: Option<Vec<Vec<Cell>>> = None;
        let mut out = Vec::new();
        for rule in rules {
            let Some(p) = rule.propagator() else { continue };
            if p.required(&full).is_none() || rule.permutation_cells().is_some() {
                continue;
            }
            let cells = p.watches();
            if cells.len() > 64 {
                continue;
            }
            let groups = groups.get_or_insert_with(|| {
                rules.iter().filter_map(|r| r.permutation_cells()).collect()
            });
            let mut meeting = Vec::new();
            for g in groups.iter() {
                let inside = cells
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| g.contains(c))
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                let outside: Vec<Cell> = g.iter().copied().filter(|c| !cells.contains(c)).collect();
                if inside != 0 && !outside.is_empty() {
                    meeting.push((inside, outside, g.len() == size));
                }
            }
            if !meeting.is_empty() {
                out.push(Required {
                    rule: rule.clone(),
                    cells,
                    groups: meeting,
                });
            }
        }
        out
    }
}

impl Propagator for Required {
    fn watches(&self) -> Vec<Cell> {
        let mut cells = self.cells.clone();
        for (_, outside, _) in &self.groups {
            cells.extend(outside);
        }
        cells
    }

    fn cost(&self) -> Cost {
        Cost::Medium
    }

    /// Both ways: a value a full group can place only on the rule's cells is one the rule must hold; a value
    /// the rule must hold, which only the cells of one group can take, leaves the rest of that group.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let p = self
            .rule
            .propagator()
            .expect("derived from a rule with one");
        let all = all_values(d.size());
        let holding = self
            .groups
            .iter()
            .filter(|(_, _, full)| *full)
            .fold(0u64, |m, (_, outside, _)| {
                m | all & !outside.iter().fold(0u64, |u, &c| u | d.get(c))
            });
        // Values fixed on the rule's cells are held already: telling the rule adds nothing, and its pruning
        // (a matching per run, for renban) is the dear part of this propagator.
        let placed = self
            .cells
            .iter()
            .map(|&c| d.get(c))
            .filter(|b| b.count_ones() == 1)
            .fold(0u64, |m, b| m | b);
        let holding = holding & !placed;
        let mut changed = holding != 0 && p.propagate_holding(d, holding)?;
        let Some(required) = p.required(d) else {
            return Ok(changed);
        };
        for b in bit_indices(required) {
            let v = b as u32 + 1;
            let holders = self
                .cells
                .iter()
                .enumerate()
                .filter(|(_, &c)| d.contains(c, v))
                .fold(0u64, |m, (i, _)| m | 1 << i);
            if holders == 0 {
                return Err(Contradiction);
            }
            for (inside, outside, _) in &self.groups {
                if holders & !inside == 0 {
                    for &c in outside {
                        changed |= d.restrict(c, !(1u64 << b))?;
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
    use crate::solve::engine::tests::puzzle_file;

    fn cell(name: &str) -> Cell {
        let (r, c) = name[1..].split_once('c').unwrap();
        Cell::new(
            r.parse::<usize>().unwrap() - 1,
            c.parse::<usize>().unwrap() - 1,
        )
    }

    /// The line `r1c5 r2c6 r3c6` of the 6x6 renban example, and its derived propagator.
    fn example_line() -> ([Cell; 3], Required) {
        let p = puzzle_file("puzzles/renban/renban-6x6.yaml");
        let line = ["r1c5", "r2c6", "r3c6"].map(cell);
        let r = Required::derive(6, p.rules())
            .into_iter()
            .find(|r| r.cells == line)
            .unwrap();
        (line, r)
    }

    /// The line `r1c5 r2c6 r3c6` of the 6x6 example: held to 2..5 it must hold 3 and 4; with 3 kept out of
    /// r1c5, the line's 3 is in column 6, so the rest of column 6 loses it; the boxes, which hold the line's
    /// 3s only in part, keep theirs.
    #[test]
    fn a_required_value_held_in_one_column_leaves_the_rest_of_it() {
        let (line, r) = example_line();
        let mut d = Domains::full(6);
        for c in line {
            d.restrict(c, 0b011110).unwrap();
        }
        d.remove(line[0], 3).unwrap();
        assert_eq!(r.rule.propagator().unwrap().required(&d), Some(0b001100));
        assert_eq!(r.propagate(&mut d), Ok(true));
        for name in ["r1c6", "r4c6", "r5c6", "r6c6"] {
            assert!(!d.contains(cell(name), 3), "{name}");
        }
        for name in ["r1c4", "r2c5", "r4c5", "r3c5"] {
            assert!(d.contains(cell(name), 3), "{name}");
        }
        // 4 can be anywhere on the line, which no one group holds: nothing else moved.
        assert_eq!(d.candidate_count(), 36 * 6 - 3 * 2 - 1 - 4);
    }

    /// The other way: column 6 can place its 6 only on the line's cells r2c6 and r3c6, so the line holds a 6,
    /// and its run is 4, 5, 6.
    #[test]
    fn a_value_a_column_places_only_on_the_line_is_on_the_line() {
        let (line, r) = example_line();
        let mut d = Domains::full(6);
        for name in ["r1c6", "r4c6", "r5c6", "r6c6"] {
            d.remove(cell(name), 6).unwrap();
        }
        assert_eq!(r.propagate(&mut d), Ok(true));
        for c in line {
            assert_eq!(d.get(c), 0b111000, "{c:?}");
        }
    }

    /// Sound on the examples: on random candidates that keep the solution, no derived propagator removes a
    /// value of the solution or finds a contradiction.
    #[test]
    fn never_removes_the_solution() {
        let mut rng = fastrand::Rng::with_seed(21);
        let mut removed = 0;
        for path in [
            "puzzles/renban/renban-6x6.yaml",
            "puzzles/renban/renban-9x9.yaml",
        ] {
            let p = puzzle_file(path);
            let solution = p.solution().unwrap().clone();
            let n = p.size();
            let derived = Required::derive(n, p.rules());
            assert!(!derived.is_empty(), "{path}");
            for _ in 0..500 {
                let mut d = Domains::full(n);
                for c in solution.cells() {
                    let keep = rng.u64(..1 << n) | 1 << (solution.get(c) - 1);
                    d.restrict(c, keep).unwrap();
                }
                let before = d.candidate_count();
                for r in &derived {
                    assert!(r.propagate(&mut d).is_ok(), "{path}");
                }
                for c in solution.cells() {
                    assert!(d.contains(c, solution.get(c)), "{path} {c:?}");
                }
                removed += before - d.candidate_count();
            }
        }
        // The test means something only if the propagators did remove candidates.
        assert!(removed > 100, "{removed}");
    }
}
