//! X-sum clues: a clue outside a row or column is the sum of the first X values seen from that side, where X is
//! the first value itself (a 3 nearest the clue: the clue adds up the first three cells, the 3 included).
//!
//! # Encoding
//! A layered automaton over the line ([`layered`]): the first cell's value k opens "k - 1 cells left, k so
//! far"; each later cell adds its value and counts down; at zero the sum so far must be the clue, and after
//! that every value passes. Exact (see [`layered`]) and clausal, so clause learning can decide x-sum puzzles.
//! The states are at most (n - 1) x clue, a few hundred on a 9x9.
//!
//! # Propagation
//! For each value k the first cell may hold, the next k - 1 cells must reach the clue less k ([`reach`]); a
//! candidate stays when some k supports it: the first cell's k, the cells counted through reachable sums, the
//! cells beyond with any value. With repeats allowed this keeps exactly the candidates of some assignment
//! that meets the clue, so one run reaches its own fixpoint.
//!
//! When the grid makes the line's cells all differ (a row or column of a Latin square, where every x-sum is
//! set), the engine asks for the sharper version ([`Propagator::sharpened`]): the cells counted hold a *set* of
//! k - 1 distinct values other than k adding up to the clue less k ([`for_each_combination_capped`]), and no
//! other cell of the line holds k.

use smallvec::SmallVec;

use super::sum::{for_each_combination_capped, TooMany, PROPAGATION_STEPS};
use super::{layered, reach, values_of, Rule};
use crate::domains::{bit, bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct XSum {
    /// Where the clue stands, e.g. `top of column 3`.
    pub(crate) label: String,
    /// The row or column, nearest the clue first.
    pub(crate) cells: Vec<Cell>,
    pub(crate) clue: u64,
    /// The line's cells all differ (known from other rules): propagate with value sets.
    pub(crate) distinct: bool,
}

/// The sum of the first X of `values`, X the first of them; `None` when the line is empty or shorter than X.
pub(crate) fn seen(values: &[u32]) -> Option<u64> {
    let x = *values.first()? as usize;
    (x <= values.len()).then(|| values[..x].iter().map(|&v| u64::from(v)).sum())
}

/// The automaton's state before any cell, and once the clue is met.
const START: u64 = 0;
const DONE: u64 = 1;

impl Rule for XSum {
    fn label(&self) -> String {
        format!("{} (x-sum {})", self.label, self.clue)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let clue = self.clue;
        // States: START, DONE, or 2 + left * (clue + 1) + sum while `left` more cells are to be counted.
        let counting = move |left: u64, sum: u64| -> Option<u64> {
            match left {
                0 => (sum == clue).then_some(DONE),
                _ => (sum + left <= clue).then_some(2 + left * (clue + 1) + sum),
            }
        };
        let step = move |_: usize, q: u64, v: u32| -> Option<u64> {
            let v = u64::from(v);
            match q {
                START => counting(v - 1, v),
                DONE => Some(DONE),
                _ => {
                    let (left, sum) = ((q - 2) / (clue + 1), (q - 2) % (clue + 1));
                    counting(left - 1, sum + v)
                }
            }
        };
        let accept = |q: u64| q == DONE;
        let automaton = layered::Automaton {
            start: START,
            step: &step,
            accept: &accept,
        };
        // At most (n - 1) * (clue + 1) states a layer: within the automaton's row limit on a 16x16 (a generated
        // one compiles clausal), past it from about 20x20 (a 25x25's lines do not fit), where the line is
        // written as big-M rows instead, weighted, which leave the program to CBC.
        if !automaton.encode(c, &self.cells) {
            self.encode_big_m(c);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        match seen(&values) {
            Some(got) if got == self.clue => Ok(()),
            got => Err(Violation::Sum {
                rule: self.label(),
                got: got.unwrap_or(0),
                values,
            }),
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl XSum {
    /// The fallback for lines too long for the automaton: for each first value k, the first k cells add up to the
    /// clue when k is first ([`super::sum_when_chosen`]).
    fn encode_big_m(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let clue = self.clue as f64;
        let first = self.cells[0];
        for k in 1..=n {
            if !c.allowed(first, k) {
                continue;
            }
            if k as usize > self.cells.len() {
                // Fewer cells than k to count: k is not the first value.
                c.forbid(first, k);
                continue;
            }
            let sum: Vec<(usize, f64)> = self.cells[..k as usize]
                .iter()
                .flat_map(|&cell| (1..=n).map(move |v| (cell, v)))
                .map(|(cell, v)| (c.x(cell, v), f64::from(v)))
                .collect();
            let x = c.x(first, k);
            let spread = (f64::from(n * k) - clue, clue - f64::from(k));
            if !super::sum_when_chosen(c, sum, &[x], clue, spread) {
                // k cells cannot reach the clue (too few or too many): k is not the first value.
                c.forbid(first, k);
            }
        }
    }

    /// With the line's cells all distinct and k first: the union of the sets of k - 1 distinct values other than
    /// k that add up to `rest` and that the counted cells (`counted`) can take, one each, together. `None` when
    /// none fits; every value when there are too many sets to list ([`for_each_combination_capped`]: within
    /// `steps`, the run's budget, and within a cap for this k alone).
    fn support_by_sets(&self, counted: &[u64], k: u32, rest: u64, steps: &mut u64) -> Option<u64> {
        let reach = counted.iter().fold(0u64, |m, &d| m | d) & !bit(k);
        let (mut sets, mut fitted) = (0u64, false);
        let listed = for_each_combination_capped(counted.len(), reach, rest, steps, &mut |set| {
            if counted.iter().all(|&d| d & set != 0) {
                sets |= set;
                fitted = true;
            }
        });
        match listed {
            Ok(()) => fitted.then_some(sets),
            Err(TooMany) => Some(u64::MAX),
        }
    }
}

impl Propagator for XSum {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Exact with repeats allowed; the value sets of the sharpened version are not (they ignore which cell
    /// takes which value of a set), so it may prune more on a second run.
    fn idempotent(&self) -> bool {
        !self.distinct
    }

    /// The cells of a row or column differ: the version that reasons with value sets.
    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        let all_differ = apart.all_differ(&self.cells);
        (all_differ && !self.distinct).then(|| {
            Box::new(XSum {
                distinct: true,
                ..self.clone()
            }) as Box<dyn Propagator>
        })
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let domains: reach::Masks = self.cells.iter().map(|&c| d.get(c)).collect();
        let len = domains.len();
        let mut support: reach::Masks = SmallVec::from_elem(0, len);
        let mut steps = PROPAGATION_STEPS;
        for b in bit_indices(domains[0]) {
            let k = b as u32 + 1;
            let Some(rest) = self.clue.checked_sub(u64::from(k)) else {
                break;
            };
            let count = k as usize;
            if count > len {
                break;
            }
            // The cells counted after the first, and beyond; with distinct cells none of them holds k.
            let apart = if self.distinct { !bit(k) } else { u64::MAX };
            let counted: reach::Masks = domains[1..count].iter().map(|&m| m & apart).collect();
            let kept = if counted.is_empty() {
                (rest == 0).then(reach::Masks::new)
            } else {
                let target = reach::Sums::only(reach::largest(&counted), rest as usize);
                reach::supports(&counted, &target).map(|(s, _)| s)
            };
            let Some(kept) = kept else { continue };
            let sets = match self.distinct && !counted.is_empty() {
                true => match self.support_by_sets(&counted, k, rest, &mut steps) {
                    Some(sets) => sets,
                    None => continue,
                },
                false => u64::MAX,
            };
            support[0] |= bit(k);
            for (i, s) in support.iter_mut().enumerate().skip(1) {
                *s |= match kept.get(i - 1) {
                    Some(&m) => m & sets,
                    None => domains[i] & apart,
                };
            }
        }
        d.restrict_each(&self.cells, &support)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{
        assignments, encoding_matches_check, keeps_planted, matches_brute_force,
        sharper_keeps_distinct_solutions,
    };

    fn line(n: usize, clue: u64) -> XSum {
        XSum {
            label: "left of row 1".into(),
            cells: (0..n).map(|c| Cell::new(0, c)).collect(),
            clue,
            distinct: false,
        }
    }

    #[test]
    fn seen_adds_up_the_first_x_values() {
        assert_eq!(seen(&[3, 1, 4, 2]), Some(8));
        assert_eq!(seen(&[1, 3, 4, 2]), Some(1));
        assert_eq!(seen(&[4, 1, 3, 2]), Some(10));
        assert_eq!(seen(&[5, 1, 2]), None);
        assert_eq!(seen(&[]), None);
    }

    /// With repeats allowed the propagator keeps exactly the candidates of some assignment meeting the clue.
    #[test]
    fn propagation_matches_brute_force() {
        let mut rng = fastrand::Rng::with_seed(17);
        let mut refuted = 0;
        for round in 0..600 {
            let n = 3 + round % 3;
            let rule = line(n, rng.u64(1..=(n * (n + 1) / 2) as u64 + 1));
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let holds = |s: &[u32]| seen(s) == Some(rule.clue);
            refuted += usize::from(matches_brute_force(&rule, &rule.cells, &mut d, holds));
        }
        assert!(refuted > 50, "{refuted}");
    }

    /// With the cells all distinct, the sharpened version keeps every distinct solution and prunes at least as
    /// much as the plain one.
    #[test]
    fn value_sets_keep_every_distinct_solution() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut sharper = 0;
        for round in 0..600 {
            let n = 4 + round % 3;
            let rule = line(n, rng.u64(1..=(n * (n + 1) / 2) as u64));
            let sharp = XSum {
                distinct: true,
                ..rule.clone()
            };
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let holds = |s: &[u32]| seen(s) == Some(rule.clue);
            sharper += usize::from(sharper_keeps_distinct_solutions(
                &rule,
                &sharp,
                &rule.cells,
                &mut d,
                holds,
            ));
        }
        assert!(sharper > 20, "{sharper}");
        // 3 first on a row of 4 with clue 7: the next two add up to 4, as 1 + 3, 2 + 2 or 3 + 1. Each repeats
        // a value or the first cell's 3, so distinct cells have no way; with repeats every one stays.
        let sharp = XSum {
            distinct: true,
            ..line(4, 7)
        };
        let mut d = Domains::full(4);
        d.assign(Cell::new(0, 0), 3).unwrap();
        assert_eq!(sharp.propagate(&mut d), Err(Contradiction));
        let mut d = Domains::full(4);
        d.assign(Cell::new(0, 0), 3).unwrap();
        assert_eq!(line(4, 7).propagate(&mut d), Ok(true));
        assert_eq!(d.get(Cell::new(0, 1)), 0b111);
        // 4 first on a row of 6 with clue 12: the next three add up to 8. Distinct and without the 4 that is
        // {1, 2, 5} alone, where repeats also allow 6 + 1 + 1 and 3 + 3 + 2; the cells beyond lose the 4.
        let sharp = XSum {
            distinct: true,
            ..line(6, 12)
        };
        let mut d = Domains::full(6);
        d.assign(Cell::new(0, 0), 4).unwrap();
        assert_eq!(sharp.propagate(&mut d), Ok(true));
        for c in 1..4 {
            assert_eq!(d.get(Cell::new(0, c)), bit(1) | bit(2) | bit(5), "cell {c}");
        }
        for c in 4..6 {
            assert_eq!(d.get(Cell::new(0, c)), 0b111_111 & !bit(4), "cell {c}");
        }
    }

    /// On rows of 25 most first values have too many sets to list, and each listing stops at its own cap: the
    /// planted solution stays, and the listings that finish still prune.
    #[test]
    fn long_lines_keep_a_planted_solution() {
        let pruned = keeps_planted(8, |planted| {
            let mut rule = line(25, seen(planted).unwrap());
            rule.distinct = true;
            let cells = rule.cells.clone();
            (rule, cells)
        });
        assert!(pruned > 50, "{pruned}");
    }

    #[test]
    fn encoding_accepts_exactly_what_the_check_does() {
        for clue in [1, 5, 6, 9, 10] {
            let (accepted, refused) = encoding_matches_check(&line(4, clue), 4);
            assert!(accepted > 0 && refused > 0, "clue {clue}");
        }
    }

    #[test]
    fn the_fallback_rows_accept_exactly_what_the_check_does() {
        for clue in [1, 3, 6, 8] {
            let rule = line(3, clue);
            let mut c = Compiler::new(3);
            rule.encode_big_m(&mut c);
            let program = c.finish();
            for values in assignments(&Domains::full(3), &rule.cells, false) {
                let mut cols = vec![0.0; program.num_cols()];
                let mut grid = Grid::empty(3);
                for (&cell, &v) in rule.cells.iter().zip(&values) {
                    cols[program.x(cell, v)] = 1.0;
                    grid.set(cell, v);
                }
                let ok = crate::rules::satisfiable(&program, &[], &mut cols);
                assert_eq!(ok, rule.check(&grid).is_ok(), "clue {clue}: {values:?}");
            }
        }
    }

    #[test]
    fn checks_exactly() {
        let g = crate::rules::latin_square_4();
        let row = |r: usize, clue| XSum {
            cells: (0..4).map(|c| Cell::new(r, c)).collect(),
            ..line(4, clue)
        };
        assert!(row(0, 6).check(&g).is_ok());
        assert!(row(0, 7).check(&g).is_err());
        assert!(row(1, 10).check(&g).is_ok());
        assert!(row(2, 1).check(&g).is_ok());
        assert!(row(3, 9).check(&g).is_ok());
    }
}
