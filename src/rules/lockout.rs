//! Lockout lines: the two ends (the diamonds) differ by at least `by` (4 on a 9x9), and every cell between them on
//! the line holds a value outside the ends' range: below the smaller end or above the larger, never equal to
//! either. The other side of a between line, whose inside lies strictly within its ends.
//!
//! # Encoding
//! The ends' order ladders ([`Compiler::at_least`]: `g[v]` = "the end is at least v"). For each inside cell and
//! value v, two clauses: `x[cell][v]` needs the first end above v or the last end below it, and the last end
//! above v or the first below it (v lies in neither [first, last] nor [last, first]). The ends: a clause for
//! each pair of their values closer than `by`. Exact: the ladders follow their cells, and the clauses are the
//! rule read value by value.
//!
//! # Propagation
//! Generalised arc consistency on the line alone, by the between lines' [`by_ends`]: a pair of end values `by`
//! apart stays when every inside cell has a candidate outside them; the ends keep the values of the pairs that
//! stay, and an inside cell the candidates outside some pair that stays (the inside cells taken as
//! independent).

use super::between::by_ends;
use super::{values_of, Rule};
use crate::domains::{all_values, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Lockout {
    pub(crate) label: String,
    /// The line, end to end: the first and last cells are the diamonds.
    pub(crate) cells: Vec<Cell>,
    /// How far apart the ends are at least.
    pub(crate) by: u32,
}

/// The values of 1..=n outside `lo..=hi` (bit v - 1 for v).
fn outside(lo: u32, hi: u32, n: u32) -> u64 {
    all_values(n as usize) & !(all_values(hi as usize) & !all_values(lo as usize - 1))
}

impl Lockout {
    fn ends(&self) -> (Cell, Cell) {
        (self.cells[0], self.cells[self.cells.len() - 1])
    }

    fn inside(&self) -> &[Cell] {
        match self.cells.len() {
            0..=2 => &[],
            k => &self.cells[1..k - 1],
        }
    }
}

impl Rule for Lockout {
    fn label(&self) -> String {
        format!(
            "{} (ends at least {} apart, nothing between or equal to them inside)",
            self.label, self.by
        )
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let (first, last) = self.ends();
        for u in 1..=n {
            for w in (1..=n).filter(|&w| u.abs_diff(w) < self.by) {
                c.at_most(vec![(c.x(first, u), 1.0), (c.x(last, w), 1.0)], 1.0);
            }
        }
        if self.inside().is_empty() {
            return;
        }
        let (ga, gb) = (c.at_least(first), c.at_least(last));
        // "The end is at least v" as a column for v in 2..=n; below 2 it always holds, past n never.
        let column = |g: &[usize], v: u32| (2..=n).contains(&v).then(|| g[v as usize - 2]);
        for &cell in self.inside() {
            for v in 1..=n {
                // x[cell][v] needs `high` at least v + 1, or `low` below v: `x - above + at_least <= 1`.
                for (high, low) in [(&ga, &gb), (&gb, &ga)] {
                    let mut terms = vec![(c.x(cell, v), 1.0)];
                    let mut rhs = 1.0;
                    if let Some(above) = column(high, v + 1) {
                        terms.push((above, -1.0));
                    }
                    match column(low, v) {
                        Some(at_least) => terms.push((at_least, 1.0)),
                        None => rhs -= 1.0,
                    }
                    c.at_most(terms, rhs);
                }
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let (first, last) = self.ends();
        let (a, b) = (grid.get(first), grid.get(last));
        let n = grid.size() as u32;
        let out = outside(a.min(b).max(1), a.max(b), n);
        let inside_ok = self
            .inside()
            .iter()
            .all(|&c| (1..=n).contains(&grid.get(c)) && out >> (grid.get(c) - 1) & 1 == 1);
        if a.abs_diff(b) >= self.by && inside_ok {
            Ok(())
        } else {
            Err(Violation::Table {
                rule: self.label(),
                values: values_of(grid, &self.cells),
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Lockout {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// A run keeps exactly the supported candidates of the line (its ends and inside cells independent), so
    /// its own prunings leave it nothing to do.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let n = d.size() as u32;
        let (first, last) = self.ends();
        by_ends(d, first, last, self.inside(), |a, b| {
            (a.abs_diff(b) >= self.by).then(|| outside(a.min(b), a.max(b), n))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(k: usize, by: u32) -> Lockout {
        Lockout {
            label: "lockout line 1".into(),
            cells: (0..k).map(|c| Cell::new(0, c)).collect(),
            by,
        }
    }

    /// The rule as setters state it.
    fn holds(values: &[u32], by: u32) -> bool {
        let (a, b) = (values[0], values[values.len() - 1]);
        a.abs_diff(b) >= by
            && values[1..values.len() - 1]
                .iter()
                .all(|&v| v < a.min(b) || v > a.max(b))
    }

    /// Propagation against brute force over every assignment of the candidates (repeats allowed: the line
    /// alone), for lines of two to five cells and ends 1 to 5 apart.
    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(9);
        for round in 0..3000 {
            let rule = line(2 + round % 4, 1 + (round / 4) as u32 % 5);
            let mut d = crate::rules::random_candidates(9, &rule.cells, &mut rng);
            assert!(rule.idempotent());
            crate::rules::matches_brute_force(&rule, &rule.cells, &mut d, |s| holds(s, rule.by));
        }
    }

    /// The rows accept exactly the grids the check accepts: every assignment of lines of two to four cells on a
    /// 5x5, ends 1 to 3 apart, with the ladder columns set every way; and the check is the rule as stated.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for (k, by) in [(2usize, 3), (3, 1), (3, 2), (4, 3)] {
            let rule = line(k, by);
            for i in 0..5u32.pow(k as u32) {
                let values: Vec<u32> = (0..k).map(|j| i / 5u32.pow(j as u32) % 5 + 1).collect();
                let mut grid = Grid::empty(5);
                for (&cell, &v) in rule.cells.iter().zip(&values) {
                    grid.set(cell, v);
                }
                assert_eq!(rule.check(&grid).is_ok(), holds(&values, by), "{values:?}");
            }
            let (yes, no) = crate::rules::encoding_matches_check(&rule, 5);
            assert!(yes > 0 && no > 0, "{k} {by}");
        }
    }

    #[test]
    fn checks_exactly() {
        let g = Grid::from_rows(&[
            vec![2, 1, 7, 6, 9, 3, 4, 5, 8],
            vec![0; 9],
            vec![0; 9],
            vec![0; 9],
            vec![0; 9],
            vec![0; 9],
            vec![0; 9],
            vec![0; 9],
            vec![0; 9],
        ])
        .unwrap();
        // 2 ... 6 (4 apart): 1 and 7 lie outside.
        assert!(line(4, 4).check(&g).is_ok());
        // 5 apart is asked of 2 and 6: no.
        assert!(line(4, 5).check(&g).is_err());
        // 2 ... 9: 7 and 6 lie between.
        assert!(line(5, 4).check(&g).is_err());
        // A line of two is its ends alone.
        assert!(line(2, 1).check(&g).is_ok());
        assert!(line(2, 2).check(&g).is_err());
    }
}
