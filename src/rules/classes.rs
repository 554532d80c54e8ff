//! Every few cells along a line, one value of each class: entropic lines (each three cells in a row along the
//! line hold a low, a middle and a high digit), modular lines (one of each remainder mod 3), parity lines (odd
//! and even take turns). The classes are the grammar's, so each of those is a grammar file.
//!
//! With k classes, every window of k cells in a row along the line holds one value of each. Two windows side
//! by side share k - 1 cells, so cell i and cell i + k are of one class: the line's classes repeat with period
//! k, the first k cells taking each class once. A line shorter than k has no full window; its cells take
//! different classes. A value in no class cannot be on the line.
//!
//! # Encoding
//! Per window and class, `sum_{cells of the window} sum_{v in the class} x[cell][v] = 1` (on a line shorter
//! than k, `<= 1` over the whole line), and the values of no class forbidden. Exact: at an integral point each
//! cell holds one value, so a window's k cells fill its k class rows exactly when each class appears once.
//! Unit coefficients: clauses take them as cardinality constraints.
//!
//! # Propagation
//! A cell's position along the line modulo k decides its class. For each position, the classes every cell of
//! that position can still take; the positions take different classes (a matching, [`all_different`]'s); each
//! cell keeps the values of the classes its position keeps. Exact, as the cells are otherwise independent.

use super::{all_different, values_of, Rule};
use crate::domains::{bit_indices, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Classes {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
    /// The classes as value sets (bit v - 1 for value v), disjoint; at most 64.
    pub(crate) classes: Vec<u64>,
}

/// Where values along a line break their classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Break {
    /// The value at this index is in no class.
    NoClass(usize),
    /// The window starting at this index repeats a class.
    Repeat(usize),
}

/// The first break of the classes along the values (0 = empty, unread), or `None` when they hold.
pub(crate) fn first_break(classes: &[u64], values: &[u32]) -> Option<Break> {
    let class_of = |v: u32| {
        classes
            .iter()
            .position(|&c| v <= 64 && c >> (v - 1) & 1 == 1)
    };
    let of: Vec<Option<usize>> = values
        .iter()
        .map(|&v| (v > 0).then(|| class_of(v)).flatten())
        .collect();
    if let Some(i) = (0..values.len()).find(|&i| values[i] > 0 && of[i].is_none()) {
        return Some(Break::NoClass(i));
    }
    let k = classes.len().min(values.len()).max(1);
    of.windows(k)
        .position(|w| (1..w.len()).any(|i| w[i].is_some() && w[..i].contains(&w[i])))
        .map(Break::Repeat)
}

impl Classes {
    fn k(&self) -> usize {
        self.classes.len()
    }

    /// What is broken along the line, as a message.
    fn broken(&self, values: &[u32]) -> Option<String> {
        Some(match first_break(&self.classes, values)? {
            Break::NoClass(i) => format!("{} holds {}, of no class", self.cells[i], values[i]),
            Break::Repeat(s) => format!(
                "the {} cells from {} repeat a class",
                self.k().min(values.len()),
                self.cells[s]
            ),
        })
    }
}

impl Rule for Classes {
    fn label(&self) -> String {
        format!(
            "{} (one value of each class every {} cells)",
            self.label,
            self.k()
        )
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let anywhere = self.classes.iter().fold(0u64, |m, &c| m | c);
        for &cell in &self.cells {
            for v in (1..=n).filter(|&v| anywhere >> (v - 1) & 1 == 0) {
                c.forbid(cell, v);
            }
        }
        let terms = |c: &Compiler, cells: &[Cell], class: u64| -> Vec<(usize, f64)> {
            cells
                .iter()
                .flat_map(|&cell| {
                    bit_indices(class)
                        .map(|b| b as u32 + 1)
                        .filter(|&v| v <= n)
                        .map(move |v| (cell, v))
                })
                .map(|(cell, v)| (c.x(cell, v), 1.0))
                .collect()
        };
        if self.cells.len() < self.k() {
            for &class in &self.classes {
                let t = terms(c, &self.cells, class);
                c.at_most(t, 1.0);
            }
            return;
        }
        for window in self.cells.windows(self.k()) {
            for &class in &self.classes {
                let t = terms(c, window, class);
                c.equal(t, 1.0);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        match self.broken(&values) {
            None => Ok(()),
            Some(why) => Err(Violation::Classes {
                rule: self.label(),
                why,
                values,
            }),
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Classes {
    fn watches(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let positions = self.k().min(self.cells.len());
        // Per position, the classes every cell there can still take (bit c for class c).
        let mut open = [u64::MAX; 64];
        for (i, &cell) in self.cells.iter().enumerate() {
            let values = d.get(cell);
            let mine = self
                .classes
                .iter()
                .enumerate()
                .filter(|(_, &c)| c & values != 0)
                .fold(0u64, |m, (k, _)| m | 1 << k);
            open[i % self.k()] &= mine;
        }
        let mut keep = [0u64; 64];
        if !all_different::matching_support_into(&open[..positions], &mut keep[..positions]) {
            return Err(Contradiction);
        }
        let mut changed = false;
        for (i, &cell) in self.cells.iter().enumerate() {
            let allowed = bit_indices(keep[i % self.k()]).fold(0u64, |m, k| m | self.classes[k]);
            changed |= d.restrict(cell, allowed)?;
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::bit;

    /// Entropic classes (low, middle, high) on a line of `len` cells along row 1.
    fn entropic(len: usize) -> Classes {
        Classes {
            label: "entropic line 1".into(),
            cells: (0..len).map(|c| Cell::new(0, c)).collect(),
            classes: vec![0b111, 0b111_000, 0b111_000_000],
        }
    }

    /// The propagator against brute force on random candidates: the same candidates kept, or a contradiction
    /// exactly when nothing satisfies the rule; and a run leaves nothing for a second.
    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(11);
        let parity = Classes {
            label: "parity line 1".into(),
            cells: (0..5).map(|c| Cell::new(0, c)).collect(),
            classes: vec![0b1_0101_0101, 0b0_1010_1010],
        };
        let (mut solved, mut failed) = (0, 0);
        for round in 0..900 {
            let rule = match round % 3 {
                0 => entropic(2 + round % 5),
                1 => parity.clone(),
                _ => entropic(4),
            };
            let mut d = Domains::full(9);
            for &c in &rule.cells {
                let keep = (0..rng.usize(1..=3)).fold(0u64, |m, _| m | bit(rng.u32(1..=9)));
                d.restrict(c, keep).unwrap();
            }
            let holds = |s: &[u32]| rule.broken(s).is_none();
            if crate::rules::matches_brute_force(&rule, &rule.cells, &mut d, holds) {
                failed += 1;
            } else {
                solved += 1;
            }
        }
        assert!(
            solved > 100 && failed > 100,
            "{solved} solved, {failed} failed"
        );
    }

    /// The rows accept exactly the grids the check accepts: every assignment of lines of two and four cells
    /// (no auxiliary columns).
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for len in [2usize, 4] {
            let (accepted, refused) = crate::rules::encoding_matches_check(&entropic(len), 9);
            assert!(accepted > 0 && refused > 0);
        }
    }

    #[test]
    fn checks_exactly() {
        let rule = entropic(4);
        let mut g = Grid::empty(9);
        for (c, v) in [2, 5, 9, 1].into_iter().enumerate() {
            g.set(Cell::new(0, c), v);
        }
        assert!(rule.check(&g).is_ok());
        // 2 5 9 6: the last three hold two middle digits.
        g.set(Cell::new(0, 3), 6);
        let err = rule.check(&g).unwrap_err().to_string();
        assert!(err.contains("from r1c2 repeat"), "{err}");
        // A value of no class: 9 on a line whose classes stop at 6.
        let low = Classes {
            classes: vec![0b11, 0b1100, 0b11_0000],
            ..entropic(3)
        };
        let e = low.check(&g).unwrap_err().to_string();
        assert!(e.contains("of no class"), "{e}");
    }
}
