//! The values of a set of cells are distinct and form a run of consecutive integers, in any order: renban lines.
//!
//! # Encoding
//! For k cells, one auxiliary binary `s_m` per possible run m..m+k-1 (m = 1..n-k+1), `sum_m s_m = 1`, and for
//! every value v: `sum_{cells} x[cell][v] = sum_{m <= v <= m+k-1} s_m`. Exact: at an integral point one run is
//! chosen; every value of it appears exactly once among the k cells and no other value at all, so the cells
//! hold exactly that run. That equality is written for CBC's relaxation; clause learning gets the same as
//! clauses, which it takes directly instead of through counters: v at most once on the line,
//! `x[cell][v] <= sum_{m covering v} s_m` and `s_m <= sum_{cells} x[cell][v]` for v in run m (exact together:
//! the k cells hold k distinct values, all in the chosen run, and every value of the run is used).
//!
//! # Propagation
//! Exact (generalised arc consistency): for each run m..m+k-1 still possible, the cells' candidates inside it
//! must admit an assignment of distinct values, which with k cells and k values uses the whole run; the
//! all-different matching ([`matching_support_into`]) keeps exactly the candidates of such assignments, and is
//! not run when counting shows there is no Hall set to find ([`without_hall_sets`]: every candidate then
//! stays; renban search 0.96x, `latin bench --against` on the 14 records that search decides). A
//! candidate stays when some run keeps it. Runs are few (n - k + 1), and a run that some cell cannot reach, or
//! that the cells together cannot cover, is skipped before any matching.

use smallvec::SmallVec;

use super::all_different::{matching_support_into, without_hall_sets};
use super::reach::Masks;
use super::{values_of, Rule};
use crate::domains::{Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
}

/// The bit set of the values m..m+k-1.
fn run_mask(m: usize, k: usize) -> u64 {
    let ones = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
    ones << (m - 1)
}

impl Run {
    fn runs(&self, n: usize) -> impl Iterator<Item = usize> {
        let k = self.cells.len();
        1..(n + 2).saturating_sub(k)
    }

    /// The runs (as value masks) the candidates allow at a glance: their union covers the run and every cell
    /// can take a value of it.
    fn open_runs<'s>(&'s self, domains: &'s [u64], n: usize) -> impl Iterator<Item = u64> + 's {
        let k = self.cells.len();
        let union = domains.iter().fold(0u64, |m, &b| m | b);
        self.runs(n)
            .map(move |m| run_mask(m, k))
            .filter(move |&run| union & run == run && domains.iter().all(|&b| b & run != 0))
    }

    /// Exactly the candidates of the assignments whose run also holds every value of `holding`.
    fn prune(&self, d: &mut Domains, holding: u64) -> Result<bool, Contradiction> {
        let k = self.cells.len();
        let domains: Masks = self.cells.iter().map(|&c| d.get(c)).collect();
        let mut support: Masks = SmallVec::from_elem(0, k);
        let mut inside: Masks = SmallVec::from_elem(0, k);
        let mut keep: Masks = SmallVec::from_elem(0, k);
        for run in self.open_runs(&domains, d.size()) {
            // The matching takes at most 64 cells: a longer line keeps no run.
            if holding & !run != 0 || k > 64 {
                continue;
            }
            for (r, &b) in inside.iter_mut().zip(&domains) {
                *r = b & run;
            }
            let kept: &[u64] = if without_hall_sets(&inside) {
                &inside
            } else if matching_support_into(&inside, &mut keep) {
                &keep
            } else {
                continue;
            };
            for (s, &b) in support.iter_mut().zip(kept) {
                *s |= b;
            }
        }
        d.restrict_each(&self.cells, &support)
    }
}

impl Rule for Run {
    fn label(&self) -> String {
        format!("{} (a run of consecutive values)", self.label)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size();
        let k = self.cells.len();
        let runs: Vec<(usize, usize)> = self.runs(n).map(|m| (m, c.aux())).collect();
        c.equal(runs.iter().map(|&(_, s)| (s, 1.0)).collect(), 1.0);
        for v in 1..=n {
            let covering: Vec<usize> = runs
                .iter()
                .filter(|&&(m, _)| m <= v && v < m + k)
                .map(|&(_, s)| s)
                .collect();
            let used: Vec<(usize, f64)> = self
                .cells
                .iter()
                .map(|&cell| (c.x(cell, v as u32), 1.0))
                .collect();
            // Exact with the runs' row above: the line uses v exactly when the chosen run covers it.
            super::used_when_covered(c, used, &covering);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        let mut sorted = values.clone();
        sorted.sort_unstable();
        if sorted.windows(2).all(|w| w[1] == w[0] + 1) {
            Ok(())
        } else {
            Err(Violation::NotARun {
                rule: self.label(),
                values,
            })
        }
    }

    fn check_partial(&self, grid: &Grid) -> Result<(), Violation> {
        let filled: Vec<u32> = values_of(grid, &self.cells)
            .into_iter()
            .filter(|&v| v != 0)
            .collect();
        let spread = match (filled.iter().min(), filled.iter().max()) {
            (Some(lo), Some(hi)) => (hi - lo) as usize,
            _ => 0,
        };
        let repeats = filled
            .iter()
            .enumerate()
            .any(|(i, v)| filled[..i].contains(v));
        if repeats || spread >= self.cells.len() {
            Err(Violation::NotARun {
                rule: self.label(),
                values: values_of(grid, &self.cells),
            })
        } else {
            Ok(())
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Run {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Every run lies between the line's smallest and largest candidate, lo and hi, so every run holds the
    /// values from hi - k + 1 up to lo + k - 1.
    fn required(&self, d: &Domains) -> Option<u64> {
        let k = self.cells.len();
        let union = self.cells.iter().fold(0u64, |m, &c| m | d.get(c));
        if union == 0 || k >= 64 {
            return Some(0);
        }
        let (lo, hi) = (
            union.trailing_zeros() as usize + 1,
            64 - union.leading_zeros() as usize,
        );
        let (from, to) = ((hi + 1).saturating_sub(k).max(1), lo + k - 1);
        Some(if from > to {
            0
        } else {
            run_mask(from, to - from + 1)
        })
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.prune(d, 0)
    }

    /// A run keeps exactly the candidates of some assignment of the line (generalised arc consistency), so its
    /// own prunings give it nothing more to do.
    fn idempotent(&self) -> bool {
        true
    }

    /// Only when the values rule out a run that the candidates alone allow: otherwise the rule's own
    /// propagation (which runs whenever its cells change) already has everything, and the matchings are spared.
    fn propagate_holding(&self, d: &mut Domains, values: u64) -> Result<bool, Contradiction> {
        let domains: Masks = self.cells.iter().map(|&c| d.get(c)).collect();
        let excludes = self
            .open_runs(&domains, d.size())
            .any(|run| values & !run != 0);
        match excludes {
            true => self.prune(d, values),
            false => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::bit;

    fn line(k: usize) -> Run {
        Run {
            label: "renban line 1".into(),
            cells: (0..k).map(|c| Cell::new(0, c)).collect(),
        }
    }

    /// Every assignment of the candidates whose values form a run.
    fn runs_of(rule: &Run, d: &Domains) -> Vec<Vec<u32>> {
        crate::rules::assignments(d, &rule.cells, false)
            .into_iter()
            .filter(|acc| {
                let mut g = Grid::empty(9);
                for (&c, &v) in rule.cells.iter().zip(acc) {
                    g.set(c, v);
                }
                rule.check(&g).is_ok()
            })
            .collect()
    }

    /// The propagation against brute force, and the values it says every run holds ([`Propagator::required`]):
    /// never one that some solution lacks, and at the rule's fixpoint every one that all solutions hold.
    #[test]
    fn propagation_is_exact_and_fixed_lines_agree_with_the_check() {
        let mut rng = fastrand::Rng::with_seed(3);
        for round in 0..2000 {
            let rule = line(1 + round % 5);
            let mut d = Domains::full(9);
            for &cell in &rule.cells {
                let mask = if round % 4 == 0 {
                    bit(rng.u32(1..=9))
                } else {
                    rng.u64(1..512)
                };
                d.restrict(cell, mask).unwrap();
            }
            let solutions = runs_of(&rule, &d);
            let before = d.clone();
            // The values every solution holds (all values when there is none).
            let on_every = solutions
                .iter()
                .map(|s| s.iter().fold(0u64, |m, &v| m | bit(v)))
                .fold(u64::MAX, |m, s| m & s);
            let required = rule.required(&d).unwrap();
            assert_eq!(required & !on_every, 0, "{before:?}");
            match rule.propagate(&mut d) {
                Err(Contradiction) => assert!(solutions.is_empty(), "{before:?}"),
                Ok(_) => {
                    // Exactly the candidates some solution uses: nothing lost, nothing left over.
                    for (i, &c) in rule.cells.iter().enumerate() {
                        let used = solutions.iter().fold(0u64, |m, s| m | bit(s[i]));
                        assert_eq!(d.get(c), used, "{before:?}, cell {i}");
                    }
                    // Idempotent, as it claims: a second run finds nothing more.
                    assert!(rule.idempotent());
                    assert_eq!(rule.propagate(&mut d.clone()), Ok(false), "{before:?}");
                    // At the rule's own fixpoint, exactly the values of every solution.
                    assert_eq!(rule.required(&d), Some(on_every), "{before:?}");
                    let all_fixed = rule.cells.iter().all(|&c| d.fixed(c).is_some());
                    if all_fixed {
                        assert_eq!(solutions.len(), 1, "{before:?}");
                    }
                }
            }
        }
    }

    /// Told that the line holds some values, exactly the candidates of the solutions that hold them (from the
    /// rule's own fixpoint).
    #[test]
    fn propagation_holding_values_is_exact() {
        let mut rng = fastrand::Rng::with_seed(4);
        for round in 0..2000 {
            let rule = line(1 + round % 5);
            let mut d = Domains::full(9);
            for &cell in &rule.cells {
                d.restrict(cell, rng.u64(1..512)).unwrap();
            }
            let holding = bit(rng.u32(1..=9)) | if rng.bool() { bit(rng.u32(1..=9)) } else { 0 };
            let solutions: Vec<Vec<u32>> = runs_of(&rule, &d)
                .into_iter()
                .filter(|s| s.iter().fold(0u64, |m, &v| m | bit(v)) & holding == holding)
                .collect();
            // From the rule's own fixpoint, as the engine runs it (told nothing new, it does nothing).
            if rule.propagate(&mut d).is_err() {
                assert!(solutions.is_empty());
                continue;
            }
            let before = d.clone();
            match rule.propagate_holding(&mut d, holding) {
                Err(Contradiction) => assert!(solutions.is_empty(), "{before:?} {holding:b}"),
                Ok(_) => {
                    for (i, &c) in rule.cells.iter().enumerate() {
                        let used = solutions.iter().fold(0u64, |m, s| m | bit(s[i]));
                        assert_eq!(d.get(c), used, "{before:?} {holding:b}, cell {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn checks_exactly() {
        let g = Grid::from_rows(&[vec![3, 1, 2], vec![0; 3], vec![0; 3]]).unwrap();
        assert!(line(3).check(&g).is_ok());
        let g = Grid::from_rows(&[vec![3, 1, 3], vec![0; 3], vec![0; 3]]).unwrap();
        assert!(line(3).check(&g).is_err());
        let g = Grid::from_rows(&[vec![3, 0, 1], vec![0; 3], vec![0; 3]]).unwrap();
        assert!(line(3).check_partial(&g).is_ok());
        let g = Grid::from_rows(&[vec![3, 0, 0], vec![0; 3], vec![0; 3]]).unwrap();
        assert!(line(2).check_partial(&g).is_ok());
    }

    /// The runs' rows accept exactly the lines the check does, in CBC's view (the equalities) and in
    /// CaDiCaL's (the clauses) alike: every assignment of 1..5, with the runs' columns set every way.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for k in 2..=4 {
            let (accepted, refused) = crate::rules::encoding_matches_check(&line(k), 5);
            assert!(
                accepted > 0 && refused > 0,
                "{k} cells: {accepted} {refused}"
            );
        }
    }
}
