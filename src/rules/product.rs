//! The values of a set of cells multiply to a hint: Inshi no heya rooms and KenKen `x` cages.
//!
//! # Encoding: a tolerance-banded log sum
//! A product is not linear, its logarithm is: `prod v_i = P` iff `sum ln(v_i) = ln P`. Over the binaries that is
//! `L(x) = sum_{cells, v} ln(v) * x[cell][v]`, and the row asks `ln P - d <= L(x) <= ln P + d`.
//!
//! Floating point cannot hold `ln P` exactly, so the band half-width `d` must be wide enough for rounding and
//! solver tolerances, yet narrow enough that no other product fits. The bound used here:
//!
//! 1. Values that do not divide P are forbidden first (a cell's value divides the product of its room).
//! 2. The products the room can reach with the remaining candidates are enumerated (a set of divisor
//!    products; small even for a 9-cell room). Let `g` be the smallest `|ln Q - ln P|` over reachable
//!    `Q != P`. Choosing `d = g / 2` leaves every other reachable product at least `g / 2` outside the band,
//!    so at an integral point the row holds iff the product is exactly P.
//! 3. When enumeration is too large, `g = ln(1 + 1/P)` is used: the log-distance from P to its nearest integer
//!    neighbour, below which no two distinct integers can be.
//!
//! The solver accepts points within its own tolerances of integrality, so `d` is also reported to the compiler
//! ([`Compiler::note_band`]), the backend tightens its tolerances to stay well inside it, and every answer is
//! verified exactly ([`Rule::check`]) before it is shown: a grid that got through on rounding is cut off and
//! the program solved again.
//!
//! # For clause learning
//! The band is a weighted row, which a clause solver cannot take. Beside it the room is written as a layered
//! automaton ([`layered`]) over its cells, the state being what is left to multiply (a divisor of the product),
//! and the band is then CBC's alone ([`Compiler::relaxation`]): CBC, and the pure path, see the log sum as
//! before; CaDiCaL sees the automaton's clauses.

use std::collections::BTreeSet;

use super::layered;
use super::tuples::{self, Listed};
use super::{values_of, Rule};
use crate::domains::{Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

/// Enumeration stops beyond this many distinct partial products and falls back to the integer gap.
const MAX_PRODUCTS: usize = 200_000;

#[derive(Clone, Debug)]
pub(crate) struct Product {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
    pub(crate) product: u64,
}

impl Product {
    /// The half-width of the band for this product, given each cell's candidate values.
    pub(crate) fn band(&self, candidates: &[Vec<u32>]) -> f64 {
        let p = self.product;
        let integer_gap = (1.0 + 1.0 / p as f64).ln();
        // Partial products above p * max_value cannot come back below it; keep them out of the set, and
        // remember that anything dropped lies at least ln(max_value) away.
        let max_v = candidates
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(1)
            .max(2) as u64;
        let cap = p.saturating_mul(max_v);
        let mut set: BTreeSet<u64> = BTreeSet::from([1]);
        for cands in candidates {
            let mut next = BTreeSet::new();
            for &q in &set {
                for &v in cands {
                    let r = q.saturating_mul(u64::from(v));
                    if r <= cap {
                        next.insert(r);
                    }
                }
            }
            if next.len() > MAX_PRODUCTS {
                return integer_gap / 2.0;
            }
            set = next;
        }
        let lp = (p as f64).ln();
        let far = (max_v as f64).ln();
        let gap = set
            .iter()
            .filter(|&&q| q != p)
            .map(|&q| ((q as f64).ln() - lp).abs())
            .fold(far, f64::min);
        gap.max(integer_gap) / 2.0
    }
}

/// True when `v` divides `p`.
fn divides(v: u32, p: u64) -> bool {
    p % u64::from(v) == 0
}

/// The clue a room holding `values` shows: their product (what `generate` writes for a room).
pub(crate) fn clue_for(values: &[u32]) -> String {
    values
        .iter()
        .map(|&v| u64::from(v))
        .product::<u64>()
        .to_string()
}

impl Rule for Product {
    fn label(&self) -> String {
        format!("{} (product {})", self.label, self.product)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        for &cell in &self.cells {
            for v in 1..=n {
                if !divides(v, self.product) {
                    c.forbid(cell, v);
                }
            }
        }
        let candidates: Vec<Vec<u32>> = self.cells.iter().map(|&cell| c.candidates(cell)).collect();
        let d = self.band(&candidates);
        c.note_band(d);
        let terms = self
            .cells
            .iter()
            .flat_map(|&cell| (2..=n).map(move |v| (cell, v)))
            .filter(|&(cell, v)| c.allowed(cell, v))
            .map(|(cell, v)| (c.x(cell, v), f64::from(v).ln()))
            .collect();
        let target = (self.product as f64).ln();
        // For clause learning, the room read cell by cell with what is left to multiply as the state (a
        // divisor of the product). With it every row of a KenKen or an Inshi no heya is a clause, and CaDiCaL
        // takes the puzzle after a short search where CBC had it after the whole search budget (generated 25x25
        // KenKens 6.5 s -> 0.63 s and 3.0 s -> 0.15 s, a 25x25 Mathrax 70.6 s -> 0.14 s).
        let product = self.product;
        let step = |_: usize, left: u64, v: u32| {
            let v = u64::from(v);
            (left % v == 0).then_some(left / v)
        };
        let accept = |left: u64| left == 1;
        let automaton = layered::Automaton {
            start: product,
            step: &step,
            accept: &accept,
        };
        if automaton.encode_clauses(c, &self.cells) {
            c.relaxation(|c| c.row(terms, target - d, target + d));
        } else {
            c.row(terms, target - d, target + d);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let got = self
            .cells
            .iter()
            .try_fold(1u64, |acc, &c| acc.checked_mul(u64::from(grid.get(c))));
        if got == Some(self.product) {
            Ok(())
        } else {
            Err(Violation::Product {
                rule: self.label(),
                got,
                values: values_of(grid, &self.cells),
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Product {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// The room's assignments listed, cells that share a row, column or box kept apart, when there are few
    /// enough ([`tuples::list`]): the exact pruning a person does with the grid in mind (a `12x` cage along a
    /// row of a 4x4 is 1, 3, 4 in some order, never 2, 2, 3), where [`Self::propagate`] keeps bounds only. Not
    /// offered to search as [`Propagator::sharpened`]: listing every room at every solve made the corpus's
    /// Inshi no heya 2.1x slower and its KenKen no faster.
    fn thorough(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        let k = self.cells.len();
        let n = apart.size() as u64;
        // The state is what the cells left must multiply to; it must stay within n to the power of their count.
        let step = |i: usize, left: u64, v: u32| {
            let v = u64::from(v);
            let room = n.checked_pow((k - i - 1) as u32).unwrap_or(u64::MAX);
            (left % v == 0 && left / v <= room).then_some(left / v)
        };
        let table = tuples::list(&self.cells, apart, self.product, &step, &|left| left == 1)?;
        Some(Box::new(Listed(table)))
    }

    /// Keeps divisors of the product whose cofactor the other cells can still reach (between the product of
    /// their smallest and of their largest candidates, and divisible as required).
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (i, &cell) in self.cells.iter().enumerate() {
            let others = self
                .cells
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &c)| c);
            let (lo, hi) = others.fold((1u64, 1u64), |(lo, hi), c| {
                (
                    lo.saturating_mul(u64::from(d.min(c))),
                    hi.saturating_mul(u64::from(d.max(c))),
                )
            });
            let mask = d
                .values(cell)
                .filter(|&v| {
                    divides(v, self.product) && (lo..=hi).contains(&(self.product / u64::from(v)))
                })
                .fold(0u64, |m, v| m | 1 << (v - 1));
            changed |= d.restrict(cell, mask)?;
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(product: u64, cells: usize) -> Product {
        Product {
            label: "room".into(),
            cells: (0..cells).map(|i| Cell::new(0, i)).collect(),
            product,
        }
    }

    /// Every product reachable from the candidates, by brute force.
    fn all_products(cands: &[Vec<u32>]) -> BTreeSet<u64> {
        let mut out = BTreeSet::from([1u64]);
        for c in cands {
            out = out
                .iter()
                .flat_map(|&q| c.iter().map(move |&v| q * u64::from(v)))
                .collect();
        }
        out
    }

    #[test]
    fn band_excludes_every_other_reachable_product() {
        for (p, k, n) in [
            (24u64, 3usize, 9u32),
            (362_880, 9, 9),
            (6, 2, 4),
            (1, 1, 9),
            (2160, 5, 9),
            (39_916_800, 11, 11),
        ] {
            let cands: Vec<Vec<u32>> = (0..k)
                .map(|_| (1..=n).filter(|&v| divides(v, p)).collect())
                .collect();
            let d = room(p, k).band(&cands);
            assert!(d > 0.0);
            let lp = (p as f64).ln();
            for q in all_products(&cands).into_iter().filter(|&q| q != p) {
                assert!(
                    ((q as f64).ln() - lp).abs() > d,
                    "product {q} fits the band of {p} (d = {d})"
                );
            }
        }
    }

    #[test]
    fn band_is_half_the_log_distance_to_the_nearest_other_product() {
        // Two cells of {1, 2, 3} reach 1, 2, 3, 4, 6 and 9; the nearest to 6 are 4 and 9, both ln(3/2) away.
        let cands = vec![vec![1, 2, 3], vec![1, 2, 3]];
        approx::assert_relative_eq!(
            room(6, 2).band(&cands),
            1.5f64.ln() / 2.0,
            max_relative = 1e-12
        );
        // One cell can only be the product itself: the band is the integer gap's half, or ln(max value).
        let d = room(7, 1).band(&[vec![7]]);
        approx::assert_relative_eq!(d, 7f64.ln() / 2.0, max_relative = 1e-12);
    }

    #[test]
    fn band_is_at_least_half_the_integer_gap() {
        let cands: Vec<Vec<u32>> = (0..9).map(|_| (1..=9).collect()).collect();
        let d = room(362_880, 9).band(&cands);
        assert!(d >= (1.0 + 1.0 / 362_880.0f64).ln() / 2.0);
    }

    /// The thorough form (the room's assignments listed with the grid's rows and columns kept apart) keeps
    /// exactly the candidates of some assignment that multiplies to the product with no value twice in a row or
    /// column, on an L-shaped room where some pairs share a line and some do not; and it prunes what the bounds
    /// alone keep.
    #[test]
    fn the_listed_room_keeps_exactly_the_assignments_the_grid_allows() {
        let cells = vec![
            Cell::new(0, 0),
            Cell::new(0, 1),
            Cell::new(1, 0),
            Cell::new(2, 0),
        ];
        let mut rng = fastrand::Rng::with_seed(41);
        let (mut refuted, mut sharper) = (0, 0);
        for round in 0..600 {
            let n = 4 + round % 3;
            let lines = move || {
                let rows = (0..n).map(|r| (0..n).map(|c| Cell::new(r, c)).collect());
                let cols = (0..n).map(|c| (0..n).map(|r| Cell::new(r, c)).collect());
                rows.chain(cols).collect()
            };
            let apart = Apart::new(n, lines);
            let product: u64 = (0..4).map(|_| rng.u64(1..=n as u64)).product();
            let rule = Product {
                cells: cells.clone(),
                ..room(product, 4)
            };
            let thorough = rule
                .thorough(&apart)
                .expect("a room of four cells is listed");
            let mut d = crate::rules::random_candidates(n, &cells, &mut rng);
            let mut bounds = d.clone();
            let holds = |s: &[u32]| {
                let apart_ok = (0..4)
                    .all(|i| (0..i).all(|j| !apart.differ(cells[j], cells[i]) || s[i] != s[j]));
                apart_ok && s.iter().map(|&v| u64::from(v)).product::<u64>() == product
            };
            refuted += usize::from(crate::rules::matches_brute_force(
                thorough.as_ref(),
                &cells,
                &mut d,
                holds,
            ));
            if rule.propagate(&mut bounds).is_ok() {
                sharper += usize::from(d != bounds);
            }
        }
        assert!(refuted > 50 && sharper > 50, "{refuted} {sharper}");
    }

    /// The room's rows accept exactly the assignments whose product is the hint, in CBC's view (the log band)
    /// and in CaDiCaL's (the automaton of what is left to multiply) alike: every assignment of 1..6 to three
    /// cells, repeats included, with the automaton's state columns set every way; and a product no values
    /// reach (7 from 1..6) is refused whole.
    #[test]
    fn the_room_is_exact_for_both_backends() {
        for product in [1, 6, 12, 24, 30, 36, 60, 216] {
            let (accepted, refused) = crate::rules::encoding_matches_check(&room(product, 3), 6);
            assert!(
                accepted > 0 && refused > 0,
                "{product}: {accepted} {refused}"
            );
        }
        let (accepted, refused) = crate::rules::encoding_matches_check(&room(7, 3), 6);
        assert_eq!((accepted, refused), (0, 216));
    }

    /// A room is clausal: with the automaton beside it the log band is CBC's alone (a clause solver leaves a
    /// relaxation row out), so a KenKen's or an Inshi no heya's program can go to CaDiCaL.
    #[test]
    fn the_log_band_is_for_cbc_alone() {
        use crate::program::Role;
        let mut c = Compiler::new(9);
        room(2160, 5).encode(&mut c);
        let program = c.finish();
        let bands: Vec<_> = program
            .rows
            .iter()
            .filter(|r| r.terms.iter().any(|t| t.1.fract() != 0.0))
            .collect();
        assert_eq!(bands.len(), 1);
        assert_eq!(bands[0].role, Role::Relaxation);
        assert!(program.rows.iter().any(|r| r.role == Role::Clause));
    }

    #[test]
    fn check_is_exact() {
        let r = room(6, 2);
        let g = Grid::from_rows(&[vec![2, 3, 1], vec![1, 1, 1], vec![1, 1, 1]]).unwrap();
        assert!(r.check(&g).is_ok());
        let g = Grid::from_rows(&[vec![3, 3, 1], vec![1, 1, 1], vec![1, 1, 1]]).unwrap();
        assert!(r
            .check(&g)
            .unwrap_err()
            .to_string()
            .contains("multiplies to 9"));
    }
}
