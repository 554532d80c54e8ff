//! A line of cells whose values are neither strictly increasing nor strictly decreasing along it: the negative
//! rule of Rossini Sudoku, where a side of a row with no arrow says its first three digits are not in order.
//!
//! # Encoding
//! Over the cells' order views (`g_i[v]` = "cell i holds at least v", [`Compiler::at_least`]), two auxiliary
//! binaries per neighbouring pair: `up_i` is forced to 1 when the pair rises, `g_{i+1}[v] - g_i[v] <= up_i` for
//! every v (the next cell reaches v where this one does not), and `down_i` when it falls, the same with the two
//! swapped. Then `sum up_i <= k - 2` and `sum down_i <= k - 2` for the k - 1 pairs of k cells. Exact: a strictly
//! increasing line forces every `up_i` to 1, which the first sum refuses (and a decreasing one the second);
//! any other line has a pair that does not rise and one that does not fall, whose binaries may stay 0. Every row
//! has coefficients of 1 and -1, so clause learning reads them as clauses, as CBC reads them as rows.

use super::{values_of, Rule};
use crate::domains::{bit, bit_indices, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

/// The cells' values, in line order, are neither strictly increasing nor strictly decreasing.
#[derive(Clone, Debug)]
pub(crate) struct NotMonotone {
    pub(crate) label: String,
    pub(crate) cells: Vec<Cell>,
}

/// Whether values are strictly increasing (`rising`) or strictly decreasing along the line; one value or none
/// is both.
pub(crate) fn ordered(values: &[u32], rising: bool) -> bool {
    values
        .windows(2)
        .all(|w| if rising { w[0] < w[1] } else { w[0] > w[1] })
}

impl Rule for NotMonotone {
    fn label(&self) -> String {
        format!("{} (neither increasing nor decreasing)", self.label)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let k = self.cells.len();
        if k < 2 {
            // One value is both increasing and decreasing: no grid keeps the rule, so the cell takes no value.
            let first = self
                .cells
                .first()
                .map(|&cell| (1..=c.size() as u32).map(|v| (c.x(cell, v), 1.0)).collect());
            c.at_most(first.unwrap_or_default(), 0.0);
            return;
        }
        let ladders: Vec<Vec<usize>> = self.cells.iter().map(|&cell| c.at_least(cell)).collect();
        let (mut ups, mut downs) = (Vec::new(), Vec::new());
        for pair in ladders.windows(2) {
            let (up, down) = (c.aux(), c.aux());
            for (&here, &next) in pair[0].iter().zip(&pair[1]) {
                c.at_most(vec![(next, 1.0), (here, -1.0), (up, -1.0)], 0.0);
                c.at_most(vec![(here, 1.0), (next, -1.0), (down, -1.0)], 0.0);
            }
            ups.push((up, 1.0));
            downs.push((down, 1.0));
        }
        c.at_most(ups, (k - 2) as f64);
        c.at_most(downs, (k - 2) as f64);
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        if ordered(&values, true) || ordered(&values, false) {
            return Err(Violation::Table {
                rule: self.label(),
                values,
            });
        }
        Ok(())
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl NotMonotone {
    /// Each cell's candidates that some line of its candidates neither rising nor falling uses, in line order;
    /// `None` when there is no such line.
    fn supported(&self, domains: &[u64]) -> Option<Vec<u64>> {
        if domains.contains(&0) {
            return None;
        }
        let mut support = vec![0u64; domains.len()];
        let mut chosen = vec![0u32; domains.len()];
        extend(domains, 0, (true, true), &mut chosen, &mut support);
        support.iter().all(|&s| s != 0).then_some(support)
    }
}

/// Tries every value of cell `p` after `chosen[..p]`, which are still rising and still falling as `trend`
/// says. Once a prefix of two or more cells has done neither, every completion keeps the rule, so each later
/// cell supports its whole domain and the search stops there: only prefixes in order are followed, and there
/// are few (at most one per set of values on each side).
fn extend(
    domains: &[u64],
    p: usize,
    (rising, falling): (bool, bool),
    chosen: &mut [u32],
    support: &mut [u64],
) {
    let broken = p > 0 && !rising && !falling;
    if broken || p == domains.len() {
        if broken {
            for (s, &v) in support.iter_mut().zip(&chosen[..p]) {
                *s |= bit(v);
            }
            for (s, &d) in support[p..].iter_mut().zip(&domains[p..]) {
                *s |= d;
            }
        }
        return;
    }
    for v in bit_indices(domains[p]).map(|b| b as u32 + 1) {
        let trend = match p {
            0 => (true, true),
            _ => (rising && chosen[p - 1] < v, falling && chosen[p - 1] > v),
        };
        chosen[p] = v;
        extend(domains, p + 1, trend, chosen, support);
    }
}

impl Propagator for NotMonotone {
    fn watches(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    /// A run keeps exactly the supported candidates.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let domains: Vec<u64> = self.cells.iter().map(|&c| d.get(c)).collect();
        let support = self.supported(&domains).ok_or(Contradiction)?;
        d.restrict_each(&self.cells, &support)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{encoding_matches_check, matches_brute_force};

    fn line(k: usize) -> NotMonotone {
        NotMonotone {
            label: "top of column 1".into(),
            cells: (0..k).map(|r| Cell::new(r, 0)).collect(),
        }
    }

    /// The rule as its words say it, written apart from [`ordered`]: some neighbouring pair does not go up,
    /// and some does not go down.
    fn unordered(values: &[u32]) -> bool {
        let pairs = || values.iter().zip(values.iter().skip(1));
        pairs().any(|(a, b)| a >= b) && pairs().any(|(a, b)| a <= b)
    }

    #[test]
    fn propagation_matches_brute_force() {
        let mut rng = fastrand::Rng::with_seed(29);
        let mut refuted = 0;
        let mut pruned = 0;
        for round in 0..800 {
            let n = 3 + round % 4;
            let rule = line(2 + round % (n - 1));
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let before: Vec<u64> = rule.cells.iter().map(|&c| d.get(c)).collect();
            refuted += usize::from(matches_brute_force(&rule, &rule.cells, &mut d, unordered));
            pruned += usize::from(rule.cells.iter().zip(&before).any(|(&c, &b)| d.get(c) != b));
        }
        assert!(
            refuted > 20 && pruned > 100,
            "{refuted} refuted, {pruned} pruned"
        );
        // 2 then 5 on three cells: the third may not go above 5.
        let mut d = Domains::full(6);
        d.assign(Cell::new(0, 0), 2).unwrap();
        d.assign(Cell::new(1, 0), 5).unwrap();
        line(3).propagate(&mut d).unwrap();
        assert_eq!(d.get(Cell::new(2, 0)), (1..=5).fold(0, |m, v| m | bit(v)));
    }

    #[test]
    fn encoding_accepts_exactly_what_the_check_does() {
        for k in 1..=4 {
            let (accepted, refused) = encoding_matches_check(&line(k), 4);
            assert_eq!(accepted > 0, k > 1, "{k} cells");
            assert!(refused > 0, "{k} cells");
        }
    }

    #[test]
    fn checks_exactly() {
        let mut rng = fastrand::Rng::with_seed(31);
        for _ in 0..2000 {
            let k = rng.usize(1..6);
            let values: Vec<u32> = (0..k).map(|_| rng.u32(1..=6)).collect();
            let mut g = Grid::empty(6);
            for (r, &v) in values.iter().enumerate() {
                g.set(Cell::new(r, 0), v);
            }
            assert_eq!(line(k).check(&g).is_ok(), unordered(&values), "{values:?}");
        }
        let g = crate::rules::latin_square_4();
        // Column 1 reads 2, 4, 1, 3: its first three go up and then down, its first two only up.
        assert!(line(3).check(&g).is_ok());
        let err = line(2).check(&g).unwrap_err().to_string();
        assert!(err.contains("neither increasing nor decreasing"), "{err}");
    }
}
