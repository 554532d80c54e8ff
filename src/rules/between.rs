//! Between lines: the cells strictly inside a line hold values strictly between those of its two ends (the
//! circles), whichever end is the larger.
//!
//! # Encoding
//! One auxiliary column `d` ("the first end is the smaller") and the ends' order ladders ([`Compiler::at_least`]:
//! `g[v]` = "the end is at least v"). For each inside cell and value v, four clauses: with `d`, `x[cell][v]`
//! needs the first end below v and the last end above it; without `d`, the other way round. Exact: at an
//! integral point where the rule holds, `d` is set by which end is the smaller and every clause holds; where the
//! clauses hold under either setting of `d`, every inside value lies strictly between the ends. A line with
//! nothing inside says nothing and writes nothing.
//!
//! # Propagation
//! Generalised arc consistency on the line alone: a pair of end values stays when every inside cell has a
//! candidate strictly between them; an end keeps the values of the pairs that stay, and an inside cell the
//! candidates between the ends of some pair that stays (the inside cells are taken as independent: cells of
//! one row or box on the line are kept apart by their own groups).

use smallvec::SmallVec;

use super::reach::Masks;
use super::{values_of, Rule};
use crate::domains::{all_values, bit_indices, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Between {
    pub(crate) label: String,
    /// The line, end to end: the first and last cells are the circles.
    pub(crate) cells: Vec<Cell>,
}

/// The values strictly between `lo` and `hi` (bit v - 1 for v), empty when they are neighbours or equal.
fn strictly_between(lo: u32, hi: u32) -> u64 {
    if hi <= lo + 1 {
        return 0;
    }
    all_values(hi as usize - 1) & !all_values(lo as usize)
}

impl Between {
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

impl Rule for Between {
    fn label(&self) -> String {
        format!("{} (strictly between its ends)", self.label)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        if self.inside().is_empty() {
            return;
        }
        let n = c.size() as u32;
        let (first, last) = self.ends();
        let (ga, gb) = (c.at_least(first), c.at_least(last));
        // "The end is at least v" as a column, for v in 2..=n: below that it always holds, past n never.
        let column = |g: &[usize], v: u32| (2..=n).contains(&v).then(|| g[v as usize - 2]);
        let d = c.aux();
        for &cell in self.inside() {
            for v in 1..=n {
                let x = c.x(cell, v);
                // With d: first < v (not "first >= v") and last > v ("last >= v + 1"); without d, swapped.
                for (with_d, below, above) in [(true, &ga, &gb), (false, &gb, &ga)] {
                    let sign = if with_d { 1.0 } else { -1.0 };
                    // x + d (or x - d) counts 2 (or 1) exactly when the branch applies.
                    let on = if with_d { 1.0 } else { 0.0 };
                    let base = vec![(x, 1.0), (d, sign)];
                    let with = |g: usize, a: f64| {
                        let mut t = base.clone();
                        t.push((g, a));
                        t
                    };
                    // No end is below 1 (v = 1) or above n (v = n): there the branch alone rules x out.
                    match column(below, v) {
                        Some(g) => c.at_most(with(g, 1.0), 1.0 + on),
                        None => c.at_most(base.clone(), on),
                    }
                    match column(above, v + 1) {
                        Some(g) => c.at_most(with(g, -1.0), on),
                        None => c.at_most(base.clone(), on),
                    }
                }
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let (first, last) = self.ends();
        let (a, b) = (grid.get(first), grid.get(last));
        let between = strictly_between(a.min(b), a.max(b));
        if self
            .inside()
            .iter()
            .all(|&c| between >> (grid.get(c).max(1) - 1) & 1 == 1)
        {
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

impl Propagator for Between {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// A run keeps exactly the supported candidates of the line (its ends and inside cells independent), so
    /// its own prunings leave it nothing to do.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        if self.inside().is_empty() {
            return Ok(false);
        }
        let (first, last) = self.ends();
        by_ends(d, first, last, self.inside(), |a, b| {
            Some(strictly_between(a.min(b), a.max(b)))
        })
    }
}

/// Generalised arc consistency for a line whose ends say which values its inside cells may hold (a between
/// line's, a lockout line's): `allowed(a, b)` is the inside's values for ends a and b, `None` where the ends
/// themselves may not pair. A pair of end values stays when every inside cell has an allowed candidate; the
/// ends keep the values of the pairs that stay, an inside cell the candidates some such pair allows (the
/// inside cells taken as independent).
pub(super) fn by_ends(
    d: &mut Domains,
    first: Cell,
    last: Cell,
    inside_cells: &[Cell],
    allowed: impl Fn(u32, u32) -> Option<u64>,
) -> Result<bool, Contradiction> {
    // On the stack: this runs at every search node that touches the line.
    let inside: Masks = inside_cells.iter().map(|&c| d.get(c)).collect();
    let (mut keep_a, mut keep_b) = (0u64, 0u64);
    let mut keep_inside: Masks = SmallVec::from_elem(0, inside.len());
    for a in bit_indices(d.get(first)).map(|b| b as u32 + 1) {
        for b in bit_indices(d.get(last)).map(|b| b as u32 + 1) {
            let Some(mask) = allowed(a, b) else {
                continue;
            };
            if inside.iter().all(|&m| m & mask != 0) {
                keep_a |= 1 << (a - 1);
                keep_b |= 1 << (b - 1);
                for (k, &m) in keep_inside.iter_mut().zip(&inside) {
                    *k |= m & mask;
                }
            }
        }
    }
    if keep_a == 0 {
        return Err(Contradiction);
    }
    let mut changed = d.restrict(first, keep_a)?;
    changed |= d.restrict(last, keep_b)?;
    Ok(d.restrict_each(inside_cells, &keep_inside)? || changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(k: usize) -> Between {
        Between {
            label: "between line 1".into(),
            cells: (0..k).map(|c| Cell::new(0, c)).collect(),
        }
    }

    fn holds(values: &[u32]) -> bool {
        let (a, b) = (values[0], values[values.len() - 1]);
        values.len() < 3
            || values[1..values.len() - 1]
                .iter()
                .all(|&v| a.min(b) < v && v < a.max(b))
    }

    /// Propagation against brute force over every assignment of the candidates (repeats allowed: the line
    /// alone), for lines of two to five cells.
    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(8);
        for round in 0..3000 {
            let rule = line(2 + round % 4);
            let mut d = crate::rules::random_candidates(9, &rule.cells, &mut rng);
            assert!(rule.idempotent());
            crate::rules::matches_brute_force(&rule, &rule.cells, &mut d, holds);
        }
    }

    /// The rows accept exactly the grids the check accepts: every assignment of a line of three and of four
    /// cells on a 4x4, with the direction and ladder columns set every way.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for k in [3usize, 4] {
            let rule = line(k);
            let mut c = Compiler::new(4);
            let base = c.size() * c.size() * c.size();
            rule.encode(&mut c);
            let program = c.finish();
            let aux: Vec<usize> = (base..program.num_cols()).collect();
            assert_eq!(aux.len(), 7, "two ladders of three and the direction");
            for i in 0..4u32.pow(k as u32) {
                let values: Vec<u32> = (0..k).map(|j| i / 4u32.pow(j as u32) % 4 + 1).collect();
                let mut cols = vec![0.0; program.num_cols()];
                let mut grid = Grid::empty(4);
                for (&cell, &v) in rule.cells.iter().zip(&values) {
                    cols[program.x(cell, v)] = 1.0;
                    grid.set(cell, v);
                }
                let accepted = crate::rules::satisfiable(&program, &aux, &mut cols);
                assert_eq!(accepted, rule.check(&grid).is_ok(), "{values:?}");
                assert_eq!(accepted, holds(&values), "{values:?}");
            }
        }
    }

    #[test]
    fn checks_exactly() {
        let g = Grid::from_rows(&[vec![4, 2, 3, 1], vec![0; 4], vec![0; 4], vec![0; 4]]).unwrap();
        assert!(line(4).check(&g).is_ok());
        // The first three cells: 2 is not between 4 and 3.
        assert!(line(3).check(&g).is_err());
        // Equal ends leave nothing between them; a line of two says nothing.
        let g = Grid::from_rows(&[vec![3, 2, 3, 1], vec![0; 4], vec![0; 4], vec![0; 4]]).unwrap();
        assert!(line(3).check(&g).is_err());
        assert!(line(2).check(&g).is_ok());
    }
}
