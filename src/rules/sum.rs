//! The values of a set of cells add up to a total: killer cages, sumdoku cages, KenKen `+` cages, magic lines.
//!
//! Encoding: one row `sum_{cells, v} v * x[cell][v] = total`. Exact: the coefficients and the total are
//! integers, so the row holds at an integral point exactly when the values add up to the total. Repeats are
//! allowed unless `distinct` is set. Where they are, the partial sums are also written as ladders of "at least
//! t" literals ([`ladder`]), clausal and exact on their own, and the weighted row is marked implied: clause
//! learning decides little-killer and KenKen `+` cages without it, CBC keeps it for its relaxation. A sum too
//! long for the ladders gets the layered automaton of its partial sums ([`layered`]) instead.
//!
//! # Distinct cages (killer): combinations
//! When the cage's values must also differ, they form a *set* S of k values summing to the total. One auxiliary
//! binary `z_S` per such set (over the candidates), `sum_S z_S = 1`, and for every value v:
//! `sum_{cells} x[cell][v] = sum_{S containing v} z_S`. Exact: at an integral point one set is chosen; every
//! value of S is used exactly once in the cage and no other value at all, so the k cells hold exactly S, whose
//! sum is the total. Values in no set are fixed to 0. This is far tighter than the sum row alone (hard 9x9
//! killers: several seconds down to well under one), and there are at most C(n, k) sets.

use super::grouped_sum::{GroupedSum, Total};
use super::{ladder, layered, reach, values_of, Rule};
use crate::domains::{bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Sum {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
    pub(crate) total: u64,
    /// The cage's values must also differ (killer cages): compiled through value combinations.
    pub(crate) distinct: bool,
}

impl Sum {
    /// The rows of [`Rule::encode`], listing a distinct cage's value sets within `steps`.
    fn encode_listing(&self, c: &mut Compiler, steps: u64) {
        let n = c.size() as u32;
        let k = self.cells.len() as u64;
        // A value too large to leave room for the other cells (each at least 1) cannot be used.
        for &cell in &self.cells {
            for v in 1..=n {
                if u64::from(v) + (k - 1) > self.total {
                    c.forbid(cell, v);
                }
            }
        }
        let terms = self
            .cells
            .iter()
            .flat_map(|&cell| (1..=n).map(move |v| (cell, v)))
            .map(|(cell, v)| (c.x(cell, v), f64::from(v)))
            .collect();
        // Repeats allowed: the partial sums as ladders, or failing that as a layered automaton; both are
        // clausal, and the weighted row then only tightens the relaxation. The ladders alone rather than both:
        // on the 20 little-killer puzzles of the corpus (`latin bench --from record`, against the automaton
        // alone), median 1.63 -> 1.01 s and total 50.5 -> 38.4 s, where both together gave 1.38-1.48 s and
        // 47.8-49.2 s.
        let total = self.total;
        let step = |_: usize, s: u64, v: u32| Some(s + u64::from(v)).filter(|&t| t <= total);
        let accept = |s: u64| s == total;
        let automaton = layered::Automaton {
            start: 0,
            step: &step,
            accept: &accept,
        };
        // Distinct cages up to 64 values are exact through their value sets below, and repeat-allowed ones
        // through the ladders or the automaton: the weighted row is then implied (kept for CBC's relaxation
        // only). A distinct cage with too many sets to list (an 18-cell cage of a 36x36) is a repeat-allowed
        // sum whose values are each used at most once.
        let sets = match self.distinct && n <= 64 {
            true => {
                let allowed = self
                    .cells
                    .iter()
                    .flat_map(|&cell| c.candidates(cell))
                    .fold(0u64, |m, v| m | 1 << (v - 1));
                self.combinations(allowed, steps).ok()
            }
            false => None,
        };
        let exact = match sets {
            Some(_) => true,
            // The ladders for clause learning only: the weighted row below says the sum whole for CBC (the
            // automaton's flow beside them made the pure path's 6x6 little killers 1.4-2.4x slower). Where
            // they would be too large, the automaton writes both its forms.
            None => {
                c.clauses(|c| ladder::encode(c, &self.cells, Total::Fixed(self.total)))
                    || automaton.encode(c, &self.cells)
            }
        };
        if exact {
            c.implied_equal(terms, self.total as f64);
        } else {
            c.equal(terms, self.total as f64);
        }
        match sets {
            Some(sets) => self.encode_sets(c, &sets),
            None if self.distinct => {
                for v in 1..=n {
                    let used = self.cells.iter().map(|&cell| (c.x(cell, v), 1.0)).collect();
                    c.at_most(used, 1.0);
                }
            }
            None => {}
        }
    }

    /// A distinct cage through its value sets: one variable a set, exactly one chosen, and each value used in
    /// the cage exactly when the chosen set holds it (a value in no set is forbidden).
    fn encode_sets(&self, c: &mut Compiler, sets: &[u64]) {
        let n = c.size() as u32;
        let z: Vec<usize> = sets.iter().map(|_| c.aux()).collect();
        c.equal(z.iter().map(|&k| (k, 1.0)).collect(), 1.0);
        for v in 1..=n {
            let using: Vec<usize> = sets
                .iter()
                .zip(&z)
                .filter(|(s, _)| *s >> (v - 1) & 1 == 1)
                .map(|(_, &k)| k)
                .collect();
            if using.is_empty() {
                for &cell in &self.cells {
                    c.forbid(cell, v);
                }
                continue;
            }
            let used: Vec<(usize, f64)> =
                self.cells.iter().map(|&cell| (c.x(cell, v), 1.0)).collect();
            super::used_when_covered(c, used, &using);
        }
    }

    /// Every set of as many distinct values from `allowed` (a bit set) as the cage has cells, adding up to the
    /// total, as bit sets; [`TooMany`] past `budget` steps.
    pub(crate) fn combinations(&self, allowed: u64, budget: u64) -> Result<Vec<u64>, TooMany> {
        combinations(self.cells.len(), allowed, self.total, budget)
    }
}

/// The steps (values tried) a propagator's enumeration of value sets may take in one call before it gives up
/// and prunes by sums or bounds alone, which is weaker but sound. A 9x9 cage or sandwich never comes near it
/// (at most C(9, 4) = 126 sets); an 18-cell cage of a 36x36 has tens of millions, and enumerating them at every
/// propagation hung presolve past any time limit.
pub(crate) const PROPAGATION_STEPS: u64 = 1 << 16;

/// The steps the encoding of a distinct cage may take listing its value sets, each of which becomes a variable;
/// past it the cage is written as a sum whose values differ. Every cage of a 16x16 fits (at most C(16, 8) =
/// 12,870 sets).
const ENCODED_STEPS: u64 = 1 << 17;

/// The enumeration of value sets stopped at its step budget: there are too many to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooMany;

/// Every set of `k` distinct values from `allowed` (a bit set, bit v-1 = v) that adds up to `total`, as bit sets;
/// [`TooMany`] past `budget` steps.
pub(crate) fn combinations(
    k: usize,
    allowed: u64,
    total: u64,
    budget: u64,
) -> Result<Vec<u64>, TooMany> {
    let mut out = Vec::new();
    for_each_combination(k, allowed, total, &mut { budget }, &mut |set| out.push(set))?;
    Ok(out)
}

/// [`combinations`] handed to `f` one by one, smallest values first, without collecting them: propagators run
/// this at every search node. A branch stops as soon as its smallest or its largest possible sum misses the
/// total, so the steps stay close to the sets found. Each step (a value tried) is taken from `budget`; when it
/// runs out the enumeration gives up with [`TooMany`], having handed `f` only some of the sets.
pub(crate) fn for_each_combination(
    k: usize,
    allowed: u64,
    total: u64,
    budget: &mut u64,
    f: &mut impl FnMut(u64),
) -> Result<(), TooMany> {
    /// The sum of the `left` largest values of `rest`; `None` when it has fewer.
    fn largest(mut rest: u64, left: u64) -> Option<u64> {
        let mut sum = 0;
        for _ in 0..left {
            let top = rest.checked_ilog2()?;
            sum += u64::from(top) + 1;
            rest &= !(1 << top);
        }
        Some(sum)
    }
    /// Adds to `set` `left` more values from `allowed` (values below `from` already considered).
    fn go(
        allowed: u64,
        from: u32,
        left: u64,
        total: u64,
        set: u64,
        budget: &mut u64,
        f: &mut impl FnMut(u64),
    ) -> Result<(), TooMany> {
        if left == 0 {
            if total == 0 {
                f(set);
            }
            return Ok(());
        }
        let rest = if from > 64 {
            0
        } else {
            allowed & (u64::MAX << (from - 1))
        };
        if largest(rest, left).is_none_or(|most| most < total) {
            return Ok(());
        }
        for v in bit_indices(rest).map(|i| i as u64 + 1) {
            // The smallest sum of `left` distinct values from v up: v + (v + 1) + ... Values only grow.
            if left * v + left * (left - 1) / 2 > total {
                break;
            }
            *budget = budget.checked_sub(1).ok_or(TooMany)?;
            go(
                allowed,
                v as u32 + 1,
                left - 1,
                total - v,
                set | 1 << (v - 1),
                budget,
                f,
            )?;
        }
        Ok(())
    }
    go(allowed, 1, k as u64, total, 0, budget, f)
}

/// The steps one listing may take in a propagator that lists value sets many times a run (an x-sum for each
/// value its first cell may hold, a battlefield for each pair of end values). On a 25x25 many of those
/// listings have hundreds of thousands of sets, and a listing that stops keeps every candidate: listing until
/// the run's whole budget ([`PROPAGATION_STEPS`]) was spent took most of the search's time and left the later
/// listings, often short ones that prune, nothing. Measured on generated 25x25 x-sums and battlefields
/// (2026-12-02, `docs/performance-log.md`): this cap halved their time. The same cap made generated killer
/// cages and sandwiches slower, where a finished listing prunes more, so those list within the run's budget
/// alone.
pub(crate) const LISTING_STEPS: u64 = 1 << 10;

/// [`for_each_combination`] taking at most [`LISTING_STEPS`] of `budget`: [`TooMany`] past that, with the
/// rest of the budget left for the next listing.
pub(crate) fn for_each_combination_capped(
    k: usize,
    allowed: u64,
    total: u64,
    budget: &mut u64,
    f: &mut impl FnMut(u64),
) -> Result<(), TooMany> {
    let mut steps = LISTING_STEPS.min(*budget);
    let before = steps;
    let listed = for_each_combination(k, allowed, total, &mut steps, f);
    *budget -= before - steps;
    listed
}

/// The clue a region holding `values` shows: their sum (what `generate` writes for a cage).
pub(crate) fn clue_for(values: &[u32]) -> String {
    values
        .iter()
        .map(|&v| u64::from(v))
        .sum::<u64>()
        .to_string()
}

impl Rule for Sum {
    fn label(&self) -> String {
        format!("{} (sum {})", self.label, self.total)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        self.encode_listing(c, ENCODED_STEPS);
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        if self.distinct
            && values
                .iter()
                .enumerate()
                .any(|(i, v)| values[..i].contains(v))
        {
            return Err(Violation::RepeatsAValue {
                rule: self.label(),
                values,
            });
        }
        let got: u64 = self.cells.iter().map(|&c| u64::from(grid.get(c))).sum();
        if got == self.total {
            Ok(())
        } else {
            Err(Violation::Sum {
                rule: self.label(),
                got,
                values,
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Sum {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Repeats allowed, but some cells differ anyway (a diagonal crossing a box), or the sum is short enough to
    /// list: the grouped sum, or its table.
    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        if self.distinct {
            return None;
        }
        GroupedSum::boxed(&self.cells, Total::Fixed(self.total), apart)
    }

    /// Without `distinct` a run keeps exactly the supported candidates ([`reach::supports`]), so its own
    /// prunings give it nothing more to do; the bounds of a distinct sum can tighten again.
    fn idempotent(&self) -> bool {
        !self.distinct
    }

    /// Without `distinct`: exactly the candidates that take part in some assignment adding up to the total
    /// ([`reach`]). With it: bounds (each cell's value lies between the total minus the others' largest and
    /// minus their smallest), then the candidates of the value sets that can still be placed, when there are
    /// few enough to list ([`PROPAGATION_STEPS`]).
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        if !self.distinct {
            let domains: reach::Masks = self.cells.iter().map(|&c| d.get(c)).collect();
            let max = reach::largest(&domains);
            if self.total > max as u64 {
                return Err(Contradiction);
            }
            let allowed = reach::Sums::only(max, self.total as usize);
            let (support, _) = reach::supports(&domains, &allowed).ok_or(Contradiction)?;
            return d.restrict_each(&self.cells, &support);
        }
        let lo: u64 = self.cells.iter().map(|&c| u64::from(d.min(c))).sum();
        let hi: u64 = self.cells.iter().map(|&c| u64::from(d.max(c))).sum();
        if self.total < lo || self.total > hi {
            return Err(Contradiction);
        }
        let mut changed = false;
        for &cell in &self.cells {
            let (cmin, cmax) = (u64::from(d.min(cell)), u64::from(d.max(cell)));
            let low = self.total.saturating_sub(hi - cmax);
            let high = self.total - (lo - cmin);
            let mask = d
                .values(cell)
                .filter(|&v| (low..=high).contains(&u64::from(v)))
                .fold(0u64, |m, v| m | 1 << (v - 1));
            changed |= d.restrict(cell, mask)?;
        }
        if self.distinct && self.cells.len() <= 64 {
            let union = self.cells.iter().fold(0u64, |m, &c| m | d.get(c));
            let mut keep = 0u64;
            let listed = for_each_combination(
                self.cells.len(),
                union,
                self.total,
                &mut { PROPAGATION_STEPS },
                &mut |set| {
                    if self.cells.iter().all(|&c| d.get(c) & set != 0) {
                        keep |= set;
                    }
                },
            );
            // Too many sets to list: the bounds above are all this call prunes.
            if listed.is_err() {
                return Ok(changed);
            }
            for &cell in &self.cells {
                changed |= d.restrict(cell, keep)?;
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repeats allowed (a little-killer diagonal, a sumdoku cage): exactly the candidates of some assignment
    /// adding up to the total, by brute force, in one run (the rule says it is idempotent; a distinct cage,
    /// pruned by bounds, does not).
    /// A capped listing takes at most its cap from the run's budget and leaves the rest for the next one.
    #[test]
    fn a_capped_listing_leaves_the_rest_of_the_budget() {
        let all = (1u64 << 25) - 1;
        let mut budget = PROPAGATION_STEPS;
        let many = for_each_combination_capped(11, all, 140, &mut budget, &mut |_| {});
        assert_eq!(
            (many, budget),
            (Err(TooMany), PROPAGATION_STEPS - LISTING_STEPS)
        );
        let mut sets = 0;
        let few = for_each_combination_capped(3, all, 7, &mut budget, &mut |_| sets += 1);
        assert_eq!((few, sets), (Ok(()), 1));
        assert!(budget < PROPAGATION_STEPS - LISTING_STEPS);
        let mut little = 10;
        let short = for_each_combination_capped(11, all, 140, &mut little, &mut |_| {});
        assert_eq!((short, little), (Err(TooMany), 0));
    }

    #[test]
    fn repeat_allowed_propagation_is_exact_in_one_run() {
        let mut rng = fastrand::Rng::with_seed(11);
        for round in 0..600 {
            let k = 1 + round % 4;
            let rule = Sum {
                label: "diagonal".into(),
                cells: (0..k).map(|i| Cell::new(i, i)).collect(),
                total: rng.u64(1..=40),
                distinct: false,
            };
            assert!(rule.idempotent());
            let mut d = crate::rules::random_candidates(9, &rule.cells, &mut rng);
            crate::rules::matches_brute_force(&rule, &rule.cells, &mut d, |a| {
                a.iter().map(|&v| u64::from(v)).sum::<u64>() == rule.total
            });
        }
        assert!(!cage(3, 10).idempotent());
    }

    fn cage(k: usize, total: u64) -> Sum {
        Sum {
            label: "cage".into(),
            cells: (0..k).map(|i| Cell::new(0, i)).collect(),
            total,
            distinct: true,
        }
    }

    #[test]
    fn listing_stops_at_its_budget_and_not_before() {
        // 4 distinct values of 1..12 adding up to 26: count them, then list with one step too few.
        let all = combinations(4, 0xfff, 26, u64::MAX).unwrap();
        let mut steps = u64::MAX;
        for_each_combination(4, 0xfff, 26, &mut steps, &mut |_| {}).unwrap();
        let needed = u64::MAX - steps;
        assert!(needed >= all.len() as u64);
        assert_eq!(combinations(4, 0xfff, 26, needed), Ok(all));
        assert_eq!(combinations(4, 0xfff, 26, needed - 1), Err(TooMany));
        // Half a row of a 36x36 as one cage: tens of millions of sets, given up on at once.
        let mut d = Domains::full(36);
        let big = Sum {
            cells: (0..18).map(|i| Cell::new(0, i)).collect(),
            ..cage(18, 333)
        };
        assert_eq!(
            big.combinations((1 << 36) - 1, PROPAGATION_STEPS),
            Err(TooMany)
        );
        // Its propagation prunes by bounds only (nothing here), and soundly.
        assert_eq!(big.propagate(&mut d), Ok(false));
    }

    /// A distinct cage whose value sets are too many to list is written as a sum whose values are used once
    /// each: still exact. Every assignment of three cells of 1..4 is tried, with the state columns of the
    /// sums' automaton set every way.
    #[test]
    fn a_cage_with_too_many_sets_to_list_is_still_exact() {
        let rule = cage(3, 7);
        let mut c = Compiler::new(4);
        rule.encode_listing(&mut c, 0);
        let program = c.finish();
        let aux: Vec<usize> = (64..program.num_cols()).collect();
        for values in (0..64u32).map(|i| [i % 4 + 1, i / 4 % 4 + 1, i / 16 + 1]) {
            let mut cols = vec![0.0; program.num_cols()];
            for (&cell, &v) in rule.cells.iter().zip(&values) {
                cols[program.x(cell, v)] = 1.0;
            }
            let satisfiable = crate::rules::satisfiable(&program, &aux, &mut cols);
            let mut grid = Grid::empty(4);
            for (&cell, &v) in rule.cells.iter().zip(&values) {
                grid.set(cell, v);
            }
            assert_eq!(satisfiable, rule.check(&grid).is_ok(), "{values:?}");
        }
    }

    /// A distinct cage through its value sets accepts exactly the cages the check does, in CBC's view (the
    /// equalities) and in CaDiCaL's (the clauses) alike: every assignment of 1..5 to three cells, with the
    /// sets' columns set every way.
    #[test]
    fn a_cage_through_its_value_sets_is_exact_for_both_backends() {
        for total in [7, 9, 12] {
            let (accepted, refused) = crate::rules::encoding_matches_check(&cage(3, total), 5);
            assert!(accepted > 0 && refused > 0, "{total}: {accepted} {refused}");
        }
    }

    #[test]
    fn combinations_equal_brute_force() {
        for k in 1..=6usize {
            for allowed in [
                0xfffu64,
                0b1011_0110_1101,
                0b1111_0000_1111,
                0x1ff,
                0b10_1010_1010,
            ] {
                for total in 1..=60u64 {
                    let cage = Sum {
                        label: "cage".into(),
                        cells: (0..k).map(|i| Cell::new(0, i)).collect(),
                        total,
                        distinct: true,
                    };
                    let mut want: Vec<u64> = (0u64..1 << 12)
                        .filter(|&s| {
                            s & !allowed == 0
                                && s.count_ones() as usize == k
                                && (1..=12u64).filter(|v| s >> (v - 1) & 1 == 1).sum::<u64>()
                                    == total
                        })
                        .collect();
                    let mut got = cage.combinations(allowed, u64::MAX).unwrap();
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "k {k} allowed {allowed:b} total {total}");
                }
            }
        }
    }
}
