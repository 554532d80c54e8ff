//! A number read from a pill equals the sum of an arrow: arrow Sudoku's pill arrows, where the circle is an
//! elongated pill of two or more cells whose digits, read left to right or top to bottom, form one number
//! (a pill `1 4` is fourteen).
//!
//! The arrow's cells may repeat a value where the grid's other rules allow it, as on a one-cell arrow
//! ([`super::Arrow`]). A pill's digits are single digits, so the rule is bound on grids of n <= 9 only.
//!
//! # Encoding
//! One row `sum_{arrow, v} v * x[cell][v] - sum_{i, v} 10^(k-1-i) * v * x[pill_i][v] = 0`: integer
//! coefficients, so exact at an integral point. The same read as a layered automaton ([`layered`]): the
//! arrow's partial sums, then what the pill still has to make up, digit by digit from the most significant;
//! exact and clausal, so the weighted row is marked implied. A pill digit whose smallest reading already
//! passes the longest arrow's largest sum is forbidden outright (the automaton would leave it out too).
//!
//! # Propagation
//! The pill's readings below the arrow's largest sum are enumerated digit by digit (a prefix stops as soon as
//! its smallest completion is too large, so a long pill costs no more than a short one), and reachable sums
//! ([`reach`]) keep the arrow's candidates that reach one of them; the pill then keeps the digits of the
//! readings the arrow reaches. Arc consistency for the rule, in one run. Sharpened by the grid's groups
//! ([`GroupedPill`]): arrow cells that share a row, column or box cannot repeat.

use smallvec::SmallVec;

use super::grouped_sum::{enumerable, groups_apart};
use super::reach::{self, Masks, Sums};
use super::{layered, values_of, Rule};
use crate::domains::{bit, bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct PillArrow {
    pub(crate) label: String,
    /// The pill's cells, the most significant digit first.
    pub(crate) pill: Vec<Cell>,
    /// The cells adding up to its number (the arrow).
    pub(crate) cells: Vec<Cell>,
}

/// The number a pill reads from its values, each written in decimal one after another; `None` past `u64`.
pub(crate) fn reading(values: &[u32]) -> Option<u64> {
    values.iter().try_fold(0u64, |acc, &v| {
        let width = 10u64.checked_pow(v.checked_ilog10().unwrap_or(0) + 1)?;
        acc.checked_mul(width)?.checked_add(u64::from(v))
    })
}

/// A pill's worth of numbers, on the stack up to pills of 8 cells: [`readings`] runs twice on every wake-up,
/// and the propagators of the search allocate nothing per call.
type Small<T> = SmallVec<[T; 9]>;

/// The place value of each of k single digits, the first the most significant.
fn weights(k: usize) -> Small<u64> {
    (0..k)
        .map(|i| 10u64.saturating_pow((k - 1 - i) as u32))
        .collect()
}

/// Every reading of the pill's candidates (single digits, bit v - 1 = v) up to `cap`, with the digit of each
/// cell: `visit(number, digits)`. A prefix is dropped as soon as its smallest completion (every later digit
/// at its smallest) passes `cap`, and with it every larger digit at that place.
fn readings(pill: &[u64], cap: u64, visit: &mut dyn FnMut(u64, &[u32])) {
    let weights = weights(pill.len());
    // least_after[i]: the cells from i on at their smallest candidates.
    let mut least_after: Small<u64> = SmallVec::from_elem(0, pill.len() + 1);
    for i in (0..pill.len()).rev() {
        let smallest = u64::from(pill[i].trailing_zeros()) + 1;
        least_after[i] = least_after[i + 1].saturating_add(weights[i].saturating_mul(smallest));
    }
    let walk = Walk {
        pill,
        weights: &weights,
        least_after: &least_after,
        cap,
    };
    walk.go(0, 0, &mut Small::new(), visit);
}

/// What [`readings`] walks the pill's digits with.
struct Walk<'a> {
    pill: &'a [u64],
    weights: &'a [u64],
    least_after: &'a [u64],
    cap: u64,
}

impl Walk<'_> {
    fn go(
        &self,
        at: usize,
        number: u64,
        digits: &mut Small<u32>,
        visit: &mut dyn FnMut(u64, &[u32]),
    ) {
        if at == self.pill.len() {
            visit(number, digits);
            return;
        }
        for b in bit_indices(self.pill[at]) {
            let v = b as u32 + 1;
            let next = number.saturating_add(self.weights[at].saturating_mul(u64::from(v)));
            if next.saturating_add(self.least_after[at + 1]) > self.cap {
                break;
            }
            digits.push(v);
            self.go(at + 1, next, digits, visit);
            digits.pop();
        }
    }
}

impl PillArrow {
    /// The supported candidates of the arrow and the pill, the arrow's cells split into `groups` that cannot
    /// repeat (one cell a group: independent). `None` when nothing is left.
    fn supports(&self, d: &Domains, groups: Option<&[Vec<usize>]>) -> Option<(Masks, Masks)> {
        let arrow: Masks = self.cells.iter().map(|&c| d.get(c)).collect();
        let pill: Masks = self.pill.iter().map(|&c| d.get(c)).collect();
        let cap = reach::largest(&arrow);
        let mut allowed = Sums::empty(cap);
        readings(&pill, cap as u64, &mut |number, _| {
            allowed.insert(number as usize)
        });
        let (support, reached) = match groups {
            Some(groups) => reach::grouped_supports(&arrow, groups, &allowed)?,
            None => reach::supports(&arrow, &allowed)?,
        };
        let mut digits: Masks = Masks::from_elem(0, pill.len());
        readings(&pill, cap as u64, &mut |number, values| {
            if reached.contains(number as usize) {
                for (m, &v) in digits.iter_mut().zip(values) {
                    *m |= bit(v);
                }
            }
        });
        Some((support, digits))
    }

    fn restrict(
        &self,
        d: &mut Domains,
        groups: Option<&[Vec<usize>]>,
    ) -> Result<bool, Contradiction> {
        let (arrow, pill) = self.supports(d, groups).ok_or(Contradiction)?;
        let changed = d.restrict_each(&self.pill, &pill)?;
        Ok(d.restrict_each(&self.cells, &arrow)? || changed)
    }
}

impl Rule for PillArrow {
    fn label(&self) -> String {
        let pill: Vec<String> = self.pill.iter().map(Cell::to_string).collect();
        format!("{} (pill {} = sum of the rest)", self.label, pill.join(" "))
    }

    fn cells(&self) -> Vec<Cell> {
        let mut all = self.pill.clone();
        all.extend(&self.cells);
        all
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u64;
        let weights = weights(self.pill.len());
        // The arrow adds up to at most this; a pill digit whose smallest reading passes it is out.
        let most = self.cells.len() as u64 * n;
        let least: u64 = weights.iter().fold(0u64, |a, &w| a.saturating_add(w));
        for (&cell, &w) in self.pill.iter().zip(&weights) {
            for v in 1..=n {
                let smallest = (least - w).saturating_add(w.saturating_mul(v));
                if smallest > most {
                    c.forbid(cell, v as u32);
                }
            }
        }
        let mut terms = super::equal_sums::weighted(c, &self.cells, 1.0);
        for (&cell, &w) in self.pill.iter().zip(&weights) {
            terms.extend((1..=n as u32).map(|v| (c.x(cell, v), -(w as f64) * f64::from(v))));
        }
        // The arrow's partial sums, then what is left for the pill's digits to make up, most significant first.
        let k = self.cells.len();
        let step = move |i: usize, s: u64, v: u32| {
            if i < k {
                Some(s + u64::from(v)).filter(|&t| t <= most)
            } else {
                s.checked_sub(weights[i - k].saturating_mul(u64::from(v)))
            }
        };
        let accept = |q: u64| q == 0;
        let automaton = layered::Automaton {
            start: 0,
            step: &step,
            accept: &accept,
        };
        let mut order = self.cells.clone();
        order.extend(&self.pill);
        if automaton.encode(c, &order) {
            c.implied_equal(terms, 0.0);
        } else {
            c.equal(terms, 0.0);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        let got: u64 = values.iter().map(|&v| u64::from(v)).sum();
        let want = reading(&values_of(grid, &self.pill));
        if want == Some(got) {
            return Ok(());
        }
        let shown = want.map_or_else(|| "a number past 2^64".to_owned(), |w| w.to_string());
        Err(Violation::Sum {
            rule: format!("{} (the pill reads {shown})", self.label()),
            got,
            values,
        })
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for PillArrow {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        let groups = groups_apart(&self.cells, apart);
        let idempotent = enumerable(&groups, apart.size());
        groups.iter().any(|g| g.len() > 1).then(|| {
            Box::new(GroupedPill {
                rule: self.clone(),
                groups,
                idempotent,
            }) as Box<dyn Propagator>
        })
    }

    /// A run keeps exactly the supported candidates of the arrow and the pill: the readings its pruning leaves
    /// out were reached by no assignment of the arrow.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.restrict(d, None)
    }
}

/// [`PillArrow`] with the arrow's cells in groups whose members pairwise differ (cells of one box), as
/// [`super::grouped_sum::GroupedSum`] is for a one-cell circle.
#[derive(Debug)]
pub(crate) struct GroupedPill {
    rule: PillArrow,
    groups: Vec<Vec<usize>>,
    /// No group is ever split into single cells for a run (see [`enumerable`]).
    idempotent: bool,
}

impl Propagator for GroupedPill {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(&self.rule)
    }

    fn idempotent(&self) -> bool {
        self.idempotent
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.rule.restrict(d, Some(&self.groups))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pill of `p` cells in row 1 and an arrow of `k` cells in row 2.
    fn pill_arrow(p: usize, k: usize) -> PillArrow {
        PillArrow {
            label: "arrows line 1".into(),
            pill: (0..p).map(|c| Cell::new(0, c)).collect(),
            cells: (0..k).map(|c| Cell::new(1, c)).collect(),
        }
    }

    /// Random candidates on a 9x9 for the rule's cells: the pill's digits among 1 to 3 (or nothing could be
    /// reached by so short an arrow), the arrow's among 1 to 9.
    fn random_domains(rule: &PillArrow, rng: &mut fastrand::Rng) -> Domains {
        let mut d = Domains::full(9);
        for cell in Rule::cells(rule) {
            let mask = if rule.pill.contains(&cell) {
                rng.u64(1..8)
            } else {
                rng.u64(1..512)
            };
            d.restrict(cell, mask).unwrap();
        }
        d
    }

    /// Brute force over every assignment of the candidates (the arrow's cells distinct when `distinct`): the
    /// values of each cell in some assignment where the pill's number is the arrow's sum.
    fn brute(rule: &PillArrow, d: &Domains, distinct: bool) -> Option<Vec<u64>> {
        let p = rule.pill.len();
        let mut support = vec![0u64; p + rule.cells.len()];
        let pills = crate::rules::assignments(d, &rule.pill, false);
        let arrows = crate::rules::assignments(d, &rule.cells, distinct);
        for pill in &pills {
            for arrow in &arrows {
                if reading(pill) == Some(arrow.iter().map(|&v| u64::from(v)).sum()) {
                    for (m, &v) in support.iter_mut().zip(pill.iter().chain(arrow)) {
                        *m |= bit(v);
                    }
                }
            }
        }
        support.iter().all(|&m| m != 0).then_some(support)
    }

    #[test]
    fn a_pill_reads_its_digits_as_one_number() {
        assert_eq!(reading(&[1, 4]), Some(14));
        assert_eq!(reading(&[2, 0, 9]), Some(209));
        assert_eq!(reading(&[1, 12]), Some(112));
        assert_eq!(reading(&[7]), Some(7));
        assert_eq!(reading(&[9; 25]), None);
    }

    #[test]
    fn propagation_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(11);
        for round in 0..800 {
            let rule = pill_arrow(2 + round % 2, 2 + round / 2 % 5);
            let mut d = random_domains(&rule, &mut rng);
            let want = brute(&rule, &d, false);
            let got = rule
                .propagate(&mut d)
                .ok()
                .map(|_| Rule::cells(&rule).iter().map(|&c| d.get(c)).collect());
            assert_eq!(got, want, "round {round}");
            if got.is_some() {
                assert_eq!(rule.propagate(&mut d), Ok(false), "round {round}");
            }
        }
    }

    /// With the arrow inside one row, its cells cannot repeat: the grouped propagator keeps exactly what the
    /// brute force over distinct arrows keeps.
    #[test]
    fn the_grouped_propagation_equals_brute_force_over_distinct_arrows() {
        let rows = |n: usize| -> Vec<Vec<Cell>> {
            (0..n)
                .map(|r| (0..n).map(|c| Cell::new(r, c)).collect())
                .collect()
        };
        let apart = Apart::new(9, || rows(9));
        let mut rng = fastrand::Rng::with_seed(12);
        let mut pruned = 0;
        for round in 0..400 {
            let rule = pill_arrow(2, 2 + round % 3);
            let grouped = rule
                .sharpened(&apart)
                .expect("the arrow's cells share a row");
            let mut d = random_domains(&rule, &mut rng);
            let want = brute(&rule, &d, true);
            let mut plain = d.clone();
            let cells = Rule::cells(&rule);
            let got = grouped
                .propagate(&mut d)
                .ok()
                .map(|_| cells.iter().map(|&c| d.get(c)).collect::<Vec<_>>());
            assert_eq!(got, want, "round {round}");
            let alone = rule
                .propagate(&mut plain)
                .ok()
                .map(|_| cells.iter().map(|&c| plain.get(c)).collect::<Vec<_>>());
            if alone != got {
                pruned += 1;
            }
        }
        assert!(
            pruned > 0,
            "distinctness never pruned more than the plain rule"
        );
    }

    /// The rows accept exactly the grids the check accepts: a pill of two with an arrow of three on a 4x4
    /// (readings 11 and 12 only: the automaton's states stay few enough for the brute force over them); with
    /// an arrow of two (at most 8) no pill can match, and the rows accept nothing.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        let (accepted, refused) = crate::rules::encoding_matches_check(&pill_arrow(2, 3), 4);
        assert!(accepted > 0 && refused > 0);
        let (accepted, _) = crate::rules::encoding_matches_check(&pill_arrow(2, 2), 4);
        assert_eq!(accepted, 0);
    }

    #[test]
    fn checks_exactly() {
        let rule = pill_arrow(2, 3);
        let mut g = Grid::empty(9);
        for (c, v) in [(0, 1), (1, 6)] {
            g.set(Cell::new(0, c), v);
        }
        for (c, v) in [(0, 9), (1, 5), (2, 2)] {
            g.set(Cell::new(1, c), v);
        }
        assert!(rule.check(&g).is_ok());
        g.set(Cell::new(0, 0), 2);
        let e = rule.check(&g).unwrap_err().to_string();
        assert!(e.contains("the pill reads 26"), "{e}");
    }
}
