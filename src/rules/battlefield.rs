//! Battlefield clues: two armies march into a row or column, one from each end, each as many cells as the value
//! it starts on (the first cell counted); a clue outside is the sum of the cells where they meet (overlap), or
//! of the cells between them where they stop short (a truce), 0 where they just touch. The clue does not say
//! which: the puzzle's logic turns on it. The same clue reads from either end, as the armies are the same.
//!
//! # Encoding
//! The clue turns on both ends of the line at once, so the layered automaton ([`layered`]) reads the last cell
//! first, then the line from its first cell: after the two ends the window of counted cells is known, and the
//! state is that window and the sum so far (the ends' own values added at once when the window holds them).
//! A window passed collapses to its sum alone, and a sum past the clue is no state, so states that differ only
//! in what no later cell needs are one. Exact and clausal, and a network flow for CBC, as [`layered`] writes
//! every automaton. Where the automaton would take more than its row budget ([`layered::MAX_ROWS`]; long lines
//! with many candidates open), big-M rows per pair of end values instead, weighted, which leave the program to
//! CBC.
//!
//! # Propagation
//! Pair of end values by pair, as the automaton reads it: the ends fix the window, and the window's inner cells
//! must reach what the ends leave of the clue, summed over bit sets ([`reach`]). That keeps every candidate of
//! some assignment that meets the clue (arc consistency for the line alone) at a fraction of the automaton's
//! cost (which was 85% of a search's time on generated 9x9s when it propagated too). When the grid makes the
//! line's cells all differ (a row or column of a Latin square), the engine asks for the sharper version
//! ([`Propagator::sharpened`]): the ends differ, no inner cell holds an end's value, and the window's inner
//! cells hold a *set* of distinct values adding up to the rest ([`for_each_combination_capped`]).

use super::sum::{for_each_combination_capped, TooMany, PROPAGATION_STEPS};
use super::{either_way, layered, reach, values_of, Rule};
use crate::domains::{bit, bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct Battlefield {
    /// Where the clue stands, e.g. `top of column 3`.
    pub(crate) label: String,
    /// The row or column, nearest the clue first (either end serves: the clue is the same).
    pub(crate) cells: Vec<Cell>,
    pub(crate) clue: u64,
}

/// The cells counted for a line of `m` cells whose ends hold `x` (first) and `y` (last): positions `lo..hi`,
/// where both armies reach (`x + y > m`) or neither does (`x + y < m`); `None` when an army is longer than the
/// line.
fn window(m: usize, x: u32, y: u32) -> Option<(usize, usize)> {
    let (x, y) = (x as usize, y as usize);
    (x <= m && y <= m).then(|| (x.min(m - y), x.max(m - y)))
}

/// The clue a whole line gives: the sum of the cells both armies reach, or of those neither reaches; `None`
/// when the line is empty or an army is longer than it.
pub(crate) fn clue_of(values: &[u32]) -> Option<u64> {
    let (lo, hi) = window(values.len(), *values.first()?, *values.last()?)?;
    Some(values[lo..hi].iter().map(|&v| u64::from(v)).sum())
}

/// The automaton's state once both ends are read: the window still ahead (`lo..hi`, `0..0` once passed) and
/// the sum so far, packed into a word (the sum in the low 32 bits).
#[derive(Clone, Copy)]
struct State {
    lo: usize,
    hi: usize,
    sum: u64,
}

impl State {
    fn pack(self) -> u64 {
        (self.lo as u64) << 48 | (self.hi as u64) << 32 | self.sum
    }

    fn unpack(q: u64) -> State {
        State {
            lo: (q >> 48) as usize,
            hi: (q >> 32 & 0xffff) as usize,
            sum: q & 0xffff_ffff,
        }
    }

    /// The state after position `p` is read: what no later position needs is forgotten, so that states that
    /// differ only there are one.
    fn after(self, p: usize) -> State {
        match (p + 1 >= self.hi, p + 1 >= self.lo) {
            (true, _) => State {
                lo: 0,
                hi: 0,
                sum: self.sum,
            },
            (false, true) => State { lo: 0, ..self },
            (false, false) => self,
        }
    }
}

impl Battlefield {
    /// The cells in the order the automaton reads them: the last, then the first to the one before the last.
    fn reading_order(&self) -> Vec<Cell> {
        match self.cells.split_last() {
            Some((&last, rest)) if !rest.is_empty() => {
                std::iter::once(last).chain(rest.iter().copied()).collect()
            }
            _ => self.cells.clone(),
        }
    }

    /// The step from state `q` with value `v` at reading step `k` (see [`Battlefield::reading_order`]): at
    /// step 0 the state is the last value; at step 1 the first value fixes the window; then each position
    /// inside it adds its value. `None` past the clue or where an army is longer than the line.
    fn step(&self, k: usize, q: u64, v: u32) -> Option<u64> {
        let m = self.cells.len();
        let state = match (m, k) {
            (1, _) => State {
                lo: 0,
                hi: 0,
                sum: clue_of(&[v])?,
            },
            (_, 0) => return Some(u64::from(v)),
            (_, 1) => {
                let y = q as u32;
                let (lo, hi) = window(m, v, y)?;
                let inside = |p: usize| lo <= p && p < hi;
                let sum = if inside(0) { u64::from(v) } else { 0 }
                    + if inside(m - 1) { u64::from(y) } else { 0 };
                State { lo, hi, sum }.after(0)
            }
            _ => {
                let (p, s) = (k - 1, State::unpack(q));
                let counted = s.lo <= p && p < s.hi;
                let sum = s.sum + if counted { u64::from(v) } else { 0 };
                State { sum, ..s }.after(p)
            }
        };
        (state.sum <= self.clue).then(|| state.pack())
    }

    fn automaton<'a>(
        &'a self,
        step: &'a dyn Fn(usize, u64, u32) -> Option<u64>,
        accept: &'a dyn Fn(u64) -> bool,
    ) -> layered::Automaton<'a> {
        layered::Automaton {
            start: 0,
            step,
            accept,
        }
    }

    /// Whether the last state read is the clue met.
    fn accepts(&self, q: u64) -> bool {
        State::unpack(q).sum == self.clue
    }

    /// The fallback for lines too long for the automaton. For each pair of end values `x`, `y` (`a`, `b` their
    /// columns), the window's cells add up to the clue when both are chosen ([`super::sum_when_chosen`]); a pair
    /// that cannot meet the clue at all is refused outright (`a + b <= 1`).
    fn encode_big_m(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let m = self.cells.len();
        let (first, last) = (self.cells[0], self.cells[m - 1]);
        if m == 1 {
            for v in 1..=n {
                if clue_of(&[v]) != Some(self.clue) {
                    c.forbid(first, v);
                }
            }
            return;
        }
        let clue = self.clue as f64;
        for x in c.candidates(first) {
            for y in c.candidates(last) {
                let (a, b) = (c.x(first, x), c.x(last, y));
                let Some((lo, hi)) = window(m, x, y) else {
                    c.at_most(vec![(a, 1.0), (b, 1.0)], 1.0);
                    continue;
                };
                let sum: Vec<(usize, f64)> = self.cells[lo..hi]
                    .iter()
                    .flat_map(|&cell| (1..=n).map(move |v| (cell, v)))
                    .map(|(cell, v)| (c.x(cell, v), f64::from(v)))
                    .collect();
                let len = (hi - lo) as f64;
                let spread = (len * f64::from(n) - clue, clue - len);
                if !super::sum_when_chosen(c, sum, &[a, b], clue, spread) {
                    c.at_most(vec![(a, 1.0), (b, 1.0)], 1.0);
                }
            }
        }
    }
}

impl Rule for Battlefield {
    fn label(&self) -> String {
        format!("{} (battlefield {})", self.label, self.clue)
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let step = |k, q, v| self.step(k, q, v);
        let accept = |q| self.accepts(q);
        if !self
            .automaton(&step, &accept)
            .encode(c, &self.reading_order())
        {
            self.encode_big_m(c);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        match clue_of(&values) {
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

    /// The armies are the same from either end, so is the clue, whatever the cells hold.
    fn meaning(&self, _apart: &Apart<'_>) -> Option<String> {
        Some(format!(
            "battlefield {} {:?}",
            self.clue,
            either_way(&self.cells)
        ))
    }
}

impl Battlefield {
    /// Each cell's candidates in some assignment that meets the clue, as masks in the line's order; `None` when
    /// there is none. Pair of end values by pair: the ends fix the window, the window's inner cells must reach
    /// what the ends leave of the clue ([`reach`]), and the other inner cells are free. With `distinct` (the
    /// line's cells all differ) the ends differ, no inner cell holds an end's value, and the window's inner
    /// cells keep the values of some set of distinct values that adds up to the rest, when the sets are few
    /// enough to list ([`for_each_combination_capped`]).
    fn supported(&self, domains: &[u64], distinct: bool) -> Option<Vec<u64>> {
        let m = domains.len();
        let values = |mask: u64| bit_indices(mask).map(|b| b as u32 + 1);
        if m == 1 {
            let kept = values(domains[0])
                .filter(|&v| clue_of(&[v]) == Some(self.clue))
                .fold(0, |k, v| k | bit(v));
            return (kept != 0).then(|| vec![kept]);
        }
        let mut support = vec![0u64; m];
        let mut steps = PROPAGATION_STEPS;
        for x in values(domains[0]) {
            for y in values(domains[m - 1]).filter(|&y| !distinct || y != x) {
                if let Some(kept) = self.with_ends(domains, x, y, distinct, &mut steps) {
                    support.iter_mut().zip(kept).for_each(|(s, k)| *s |= k);
                }
            }
        }
        support.iter().all(|&s| s != 0).then_some(support)
    }

    /// Keeps each cell's supported candidates ([`Battlefield::supported`]): both propagators' run.
    fn restrict(&self, d: &mut Domains, distinct: bool) -> Result<bool, Contradiction> {
        let domains: Vec<u64> = self.cells.iter().map(|&c| d.get(c)).collect();
        let support = self.supported(&domains, distinct).ok_or(Contradiction)?;
        d.restrict_each(&self.cells, &support)
    }

    /// [`Battlefield::supported`] with `x` first and `y` last (a line of two cells or more).
    fn with_ends(
        &self,
        domains: &[u64],
        x: u32,
        y: u32,
        distinct: bool,
        steps: &mut u64,
    ) -> Option<Vec<u64>> {
        let m = domains.len();
        let (lo, hi) = window(m, x, y)?;
        let inside = |p: usize| lo <= p && p < hi;
        let ends = [(0, x), (m - 1, y)].into_iter().filter(|&(p, _)| inside(p));
        let rest = self
            .clue
            .checked_sub(ends.map(|(_, v)| u64::from(v)).sum())?;
        let banned = if distinct { bit(x) | bit(y) } else { 0 };
        let mut masks: Vec<u64> = domains.iter().map(|&d| d & !banned).collect();
        (masks[0], masks[m - 1]) = (bit(x), bit(y));
        if masks[1..m - 1].contains(&0) {
            return None;
        }
        let counted: Vec<usize> = (1..m - 1).filter(|&p| inside(p)).collect();
        if counted.is_empty() {
            return (rest == 0).then_some(masks);
        }
        let inner: reach::Masks = counted.iter().map(|&p| masks[p]).collect();
        let target = reach::Sums::only(reach::largest(&inner), rest as usize);
        let (kept, _) = reach::supports(&inner, &target)?;
        for (&p, k) in counted.iter().zip(kept) {
            masks[p] = k;
        }
        if distinct {
            let reachable = counted.iter().fold(0, |r, &p| r | masks[p]);
            let mut sets = 0u64;
            let listed =
                for_each_combination_capped(counted.len(), reachable, rest, steps, &mut |set| {
                    if counted.iter().all(|&p| masks[p] & set != 0) {
                        sets |= set;
                    }
                });
            if listed != Err(TooMany) {
                for &p in &counted {
                    masks[p] &= sets;
                }
                if sets == 0 {
                    return None;
                }
            }
        }
        Some(masks)
    }
}

impl Propagator for Battlefield {
    fn watches(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    /// A run keeps exactly the supported candidates.
    fn idempotent(&self) -> bool {
        true
    }

    /// The cells of a row or column differ: the version that also reasons with value sets.
    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        (self.cells.len() > 2 && apart.all_differ(&self.cells))
            .then(|| Box::new(DistinctBattlefield(self.clone())) as Box<dyn Propagator>)
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.restrict(d, false)
    }
}

/// [`Battlefield`] on a line whose cells all differ (see the module notes).
#[derive(Debug)]
struct DistinctBattlefield(Battlefield);

impl Propagator for DistinctBattlefield {
    fn watches(&self) -> Vec<Cell> {
        self.0.cells.clone()
    }

    /// The value sets ignore which cell takes which value of a set, so a second run may prune more.
    fn idempotent(&self) -> bool {
        false
    }

    /// Prunes at least what the plain run does: each pair of ends keeps a subset of what it keeps there.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.0.restrict(d, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{
        assignments, encoding_matches_check, keeps_planted, matches_brute_force, reads_both_ways,
        sharper_keeps_distinct_solutions,
    };

    fn line(m: usize, clue: u64) -> Battlefield {
        Battlefield {
            label: "top of column 1".into(),
            cells: (0..m).map(|r| Cell::new(r, 0)).collect(),
            clue,
        }
    }

    /// The clue as the rule states it, written apart from [`window`]: mark the cells each army enters; if some
    /// cell has both, add up those, else add up the cells with neither. `None` where an army leaves the line.
    fn battle(values: &[u32]) -> Option<u64> {
        let m = values.len();
        let (x, y) = (values[0] as usize, values[m - 1] as usize);
        if x > m || y > m {
            return None;
        }
        let from_first = |i: usize| i < x;
        let from_last = |i: usize| i + y >= m;
        let add = |keep: &dyn Fn(usize) -> bool| -> u64 {
            (0..m)
                .filter(|&i| keep(i))
                .map(|i| u64::from(values[i]))
                .sum()
        };
        if (0..m).any(|i| from_first(i) && from_last(i)) {
            Some(add(&|i| from_first(i) && from_last(i)))
        } else {
            Some(add(&|i| !from_first(i) && !from_last(i)))
        }
    }

    #[test]
    fn the_clue_is_the_overlap_or_the_gap() {
        // 3 and 2 on 6 cells: the armies are cells 0-2 and 4-5, the gap cell 3.
        assert_eq!(clue_of(&[3, 1, 4, 6, 5, 2]), Some(6));
        // 4 and 5 on 6 cells: cells 0-3 and 1-5 overlap on 1-3.
        assert_eq!(clue_of(&[4, 1, 2, 3, 6, 5]), Some(6));
        // 2 and 4 touch: nothing between, nothing shared.
        assert_eq!(clue_of(&[2, 1, 3, 6, 5, 4]), Some(0));
        // The whole line both ways: every cell is shared.
        assert_eq!(clue_of(&[4, 1, 2, 4]), Some(11));
        assert_eq!(clue_of(&[1]), Some(1));
        assert_eq!(clue_of(&[5, 1, 2]), None);
        assert_eq!(clue_of(&[]), None);
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..2000 {
            let m = rng.usize(1..8);
            let values: Vec<u32> = (0..m).map(|_| rng.u32(1..=9)).collect();
            assert_eq!(clue_of(&values), battle(&values), "{values:?}");
        }
    }

    /// The clue read from the foot of the column is the clue read from its head: one meaning, the same lines
    /// accepted, so a puzzle that gives both is solved with one.
    #[test]
    fn either_end_reads_the_same() {
        let mut accepted = 0;
        for (m, clue) in [(4, 0), (4, 3), (4, 5), (4, 10), (3, 2), (2, 4), (1, 1)] {
            let ahead = line(m, clue);
            let mut back = ahead.clone();
            back.cells.reverse();
            accepted += reads_both_ways(&ahead, &back, &line(m, clue + 1), 4, false);
        }
        assert!(accepted > 20, "{accepted}");
    }

    #[test]
    fn propagation_matches_brute_force() {
        let mut rng = fastrand::Rng::with_seed(19);
        let mut refuted = 0;
        for round in 0..600 {
            let n = 2 + round % 5;
            let rule = line(n, rng.u64(0..=(n * n) as u64 / 2));
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let holds = |s: &[u32]| battle(s) == Some(rule.clue);
            refuted += usize::from(matches_brute_force(&rule, &rule.cells, &mut d, holds));
        }
        assert!(refuted > 50, "{refuted}");
        // One cell: its value is the clue, and only 1 keeps the army on the line.
        let rule = line(1, 1);
        let mut d = Domains::full(1);
        assert!(!matches_brute_force(
            &rule,
            &rule.cells,
            &mut d,
            |s| battle(s) == Some(1)
        ));
    }

    /// With the cells all distinct, the sharpened version keeps every distinct solution and prunes at least as
    /// much as the plain one, and more on some.
    #[test]
    fn value_sets_keep_every_distinct_solution() {
        let mut rng = fastrand::Rng::with_seed(23);
        let mut sharper = 0;
        for round in 0..600 {
            let n = 4 + round % 3;
            let rule = line(n, rng.u64(0..=(n * n) as u64 / 2));
            let sharp = DistinctBattlefield(rule.clone());
            let mut d = crate::rules::random_candidates(n, &rule.cells, &mut rng);
            let holds = |s: &[u32]| battle(s) == Some(rule.clue);
            sharper += usize::from(sharper_keeps_distinct_solutions(
                &rule,
                &sharp,
                &rule.cells,
                &mut d,
                holds,
            ));
        }
        assert!(sharper > 20, "{sharper}");
        // 3 and 2 at the ends of a row of 6 with clue 3: the gap is one cell, and 3 is an end's value, so
        // distinct cells have no way; with repeats the gap holds the 3.
        let ends = |d: &mut Domains| {
            d.assign(Cell::new(0, 0), 3).unwrap();
            d.assign(Cell::new(5, 0), 2).unwrap();
        };
        let mut d = Domains::full(6);
        ends(&mut d);
        assert_eq!(
            DistinctBattlefield(line(6, 3)).propagate(&mut d),
            Err(Contradiction)
        );
        let mut d = Domains::full(6);
        ends(&mut d);
        assert_eq!(line(6, 3).propagate(&mut d), Ok(true));
        assert_eq!(d.get(Cell::new(3, 0)), bit(3));
        // 1 and 3 at the ends with clue 10: the gap is cells 1 and 2, two distinct values other than 1 and 3
        // adding up to 10, {4, 6}; with repeats 5 + 5 too.
        let ends = |d: &mut Domains| {
            d.assign(Cell::new(0, 0), 1).unwrap();
            d.assign(Cell::new(5, 0), 3).unwrap();
        };
        let mut d = Domains::full(6);
        ends(&mut d);
        DistinctBattlefield(line(6, 10)).propagate(&mut d).unwrap();
        assert_eq!(d.get(Cell::new(1, 0)), bit(4) | bit(6));
        let mut d = Domains::full(6);
        ends(&mut d);
        line(6, 10).propagate(&mut d).unwrap();
        assert_eq!(d.get(Cell::new(1, 0)), bit(4) | bit(5) | bit(6));
    }

    /// On lines of 25 many pairs of ends have too many sets to list, and each listing stops at its own cap: the
    /// planted solution stays, and the listings that finish still prune.
    #[test]
    fn long_lines_keep_a_planted_solution() {
        let pruned = keeps_planted(9, |planted| {
            let rule = line(25, clue_of(planted).unwrap());
            let cells = rule.cells.clone();
            (DistinctBattlefield(rule), cells)
        });
        assert!(pruned > 20, "{pruned}");
    }

    #[test]
    fn encoding_accepts_exactly_what_the_check_does() {
        for (m, clue) in [(4, 0), (4, 3), (4, 5), (3, 2), (2, 4), (1, 1), (1, 2)] {
            let (accepted, refused) = encoding_matches_check(&line(m, clue), 4);
            assert!(accepted > 0 || clue == 2, "{m} cells, clue {clue}");
            assert!(refused > 0, "{m} cells, clue {clue}");
        }
    }

    #[test]
    fn the_fallback_rows_accept_exactly_what_the_check_does() {
        for (m, clue) in [(3, 0), (3, 2), (3, 4), (3, 7), (2, 4), (1, 1)] {
            let rule = line(m, clue);
            let mut c = Compiler::new(3);
            rule.encode_big_m(&mut c);
            let program = c.finish();
            let (mut yes, mut no) = (0, 0);
            for values in assignments(&Domains::full(3), &rule.cells, false) {
                let mut cols = vec![0.0; program.num_cols()];
                let mut grid = Grid::empty(3);
                for (&cell, &v) in rule.cells.iter().zip(&values) {
                    cols[program.x(cell, v)] = 1.0;
                    grid.set(cell, v);
                }
                let ok = crate::rules::satisfiable(&program, &[], &mut cols);
                assert_eq!(ok, rule.check(&grid).is_ok(), "clue {clue}: {values:?}");
                if ok {
                    yes += 1
                } else {
                    no += 1
                }
            }
            assert!(yes > 0 && no > 0, "{m} cells, clue {clue}");
        }
    }

    #[test]
    fn checks_exactly() {
        let g = crate::rules::latin_square_4();
        let values = values_of(&g, &line(4, 0).cells);
        let want = battle(&values).expect("a Latin square's column");
        assert!(line(4, want).check(&g).is_ok());
        let err = line(4, want + 1).check(&g).unwrap_err().to_string();
        assert!(err.contains(&format!("battlefield {}", want + 1)), "{err}");
    }
}
