//! Skyscrapers: looking along a line of cells, exactly `clue` buildings are seen, a taller one hiding every
//! shorter one behind it; in sum skyscrapers the clue is instead the sum of the heights seen.
//!
//! # Encoding
//! The cells are listed in viewing order. For position i > 0 and height v an auxiliary binary `z[i][v]` means
//! "position i holds v and is seen"; position 0 is always seen, so `z[0][v]` is `x[0][v]` itself.
//! - `z[i][v] <= x[i][v]`: only the height actually there can be seen;
//! - `z[i][v] + sum_{w > v} x[j][w] <= 1` for each j < i: a taller building in front hides it;
//! - `x[i][v] - sum_{j < i, w > v} x[j][w] <= z[i][v]`: with nothing taller in front, it is seen;
//! - `sum_{i, v} z[i][v] = clue`, or `sum_{i, v} v * z[i][v] = clue` for the sum of the heights.
//!
//! Exact: at an integral point the first three rows force `z[i][v] = 1` exactly when position i holds v and no
//! earlier position holds a value above v, which is the definition of being seen (the line's values are
//! distinct: it is a row or column of the square).
//!
//! The weighted row of a sum of heights is not a clause. For clause learning the line is also written as a
//! layered automaton ([`layered`]) whose state is the tallest building so far and the heights seen so far, and
//! the weighted row is then CBC's alone. Without it a sum skyscrapers went to CBC after the whole search
//! budget: generated 25x25s took 1.6-7.3 s where CaDiCaL takes 0.2-0.7 s.
//!
//! # Propagation
//! Lines of a Latin square up to [`MAX_EXACT_LINE`]: exact, over the sets of values used. Longer lines, and cells
//! whose values may repeat: the support of an automaton whose state is the tallest building so far and the
//! score so far, exact but for the distinctness of the hidden buildings (which the line's group prunes).

use super::{layered, values_of, Rule};
use crate::domains::{bit, bit_indices, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

/// Lines up to this long are pruned exactly (a search over used-value sets, 2^n states); longer lines by the
/// record automaton ([`Visibility::record_supports`]). Measured on Tatham's 9x9 towers and generated 10x10s:
/// at 8 the automaton made 9x9 and 10x10 towers 1.3-54x slower (more search nodes, CaDiCaL more often).
const MAX_EXACT_LINE: usize = 10;

#[derive(Clone, Debug)]
pub(crate) struct Visibility {
    /// Where the clue stands, e.g. `top of column 3`.
    pub(crate) label: String,
    /// The line in viewing order (nearest first).
    pub(crate) cells: Vec<Cell>,
    pub(crate) clue: u64,
    pub(crate) score: Score,
}

/// What a clue counts of the buildings seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Score {
    /// How many are seen.
    Count,
    /// The sum of their heights.
    Heights,
}

impl Score {
    /// What seeing a building of height `v` adds.
    fn of(self, v: usize) -> usize {
        match self {
            Score::Count => 1,
            Score::Heights => v,
        }
    }

    /// The most the buildings still to come can add, with `left` positions left and every height up to
    /// `tallest` already placed or hidden: the tallest `left` of the heights above it, each seen.
    fn most(self, left: usize, tallest: usize, n: usize) -> usize {
        let k = left.min(n - tallest);
        (n + 1 - k..=n).map(|v| self.of(v)).sum()
    }
}

/// What the buildings seen along `values` (nearest first) score: how many, or their heights added.
pub(crate) fn seen(values: &[u32], score: Score) -> u64 {
    let mut tallest = 0;
    let mut total = 0;
    for &v in values {
        if v > tallest {
            tallest = v;
            total += score.of(v as usize) as u64;
        }
    }
    total
}

impl Visibility {
    /// The cells lie in one row or one column of a Latin square, so their values are distinct.
    fn is_line(&self) -> bool {
        let first = self.cells[0];
        self.cells.iter().all(|c| c.row == first.row)
            || self.cells.iter().all(|c| c.col == first.col)
    }

    /// Exact pruning of a line of distinct values: a value stays at a position only if some arrangement of the
    /// remaining candidates, distinct and seeing exactly `clue`, puts it there. Depth-first over positions in
    /// viewing order; the state (values used, tallest so far, score so far) decides the rest, so each state's
    /// answer is remembered.
    fn supports(&self, d: &Domains) -> Option<Vec<u64>> {
        let n = self.cells.len();
        let domains: Vec<u64> = self.cells.iter().map(|&c| d.get(c)).collect();
        let clue = self.clue as usize;
        let top = self.score.most(n, 0, n);
        if clue > top {
            return None;
        }
        let mut search = Search {
            n,
            clue,
            score: self.score,
            domains: &domains,
            width: top + 1,
            memo: vec![0u8; (1usize << n) * (n + 1) * (top + 1)],
            support: vec![0u64; n],
        };
        search.from(0, 0, 0, 0).then_some(search.support)
    }

    /// The clauses of the sum of heights seen, as a layered automaton over the line in viewing order
    /// ([`layered::Automaton::encode_clauses`]); `false` (nothing written) when it would be too large.
    fn heights_automaton(&self, c: &mut Compiler) -> bool {
        let clue = self.clue;
        // The state packs (tallest, heights seen): tallest * (clue + 1) + seen.
        let width = clue + 1;
        let step = |_: usize, state: u64, v: u32| {
            let (tallest, seen) = (state / width, state % width);
            let v = u64::from(v);
            let (tallest, seen) = if v > tallest {
                (v, seen + v)
            } else {
                (tallest, seen)
            };
            (seen <= clue).then_some(tallest * width + seen)
        };
        let accept = |state: u64| state % width == clue;
        let automaton = layered::Automaton {
            start: 0,
            step: &step,
            accept: &accept,
        };
        automaton.encode_clauses(c, &self.cells)
    }
}

/// The exact support search of [`Visibility::supports`].
struct Search<'a> {
    n: usize,
    clue: usize,
    score: Score,
    domains: &'a [u64],
    /// How many scores a state can have (0..=the largest).
    width: usize,
    /// Per state (used values, tallest, score so far): 0 unknown, 1 dead, 2 completes.
    memo: Vec<u8>,
    support: Vec<u64>,
}

impl Search<'_> {
    fn from(&mut self, pos: usize, used: u64, tallest: usize, seen: usize) -> bool {
        let n = self.n;
        // The largest height (n) is still to come unless already placed, and it will be seen.
        let more_min = if tallest < n { self.score.of(n) } else { 0 };
        let more_max = self.score.most(n - pos, tallest, n);
        if seen + more_min > self.clue || seen + more_max < self.clue {
            return false;
        }
        if pos == n {
            return seen == self.clue;
        }
        let key = (used as usize * (n + 1) + tallest) * self.width + seen;
        if self.memo[key] != 0 {
            return self.memo[key] == 2;
        }
        let mut ok = false;
        for v in bit_indices(self.domains[pos] & !used).map(|i| i + 1) {
            let (t, s) = if v > tallest {
                (v, seen + self.score.of(v))
            } else {
                (tallest, seen)
            };
            if self.from(pos + 1, used | 1 << (v - 1), t, s) {
                self.support[pos] |= 1 << (v - 1);
                ok = true;
            }
        }
        self.memo[key] = if ok { 2 } else { 1 };
        ok
    }
}

impl Rule for Visibility {
    fn label(&self) -> String {
        match self.score {
            Score::Count => format!("{} (sees {})", self.label, self.clue),
            Score::Heights => format!("{} (heights seen add up to {})", self.label, self.clue),
        }
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        let weight = |v: u32| self.score.of(v as usize) as f64;
        let mut count: Vec<(usize, f64)> = (1..=n)
            .map(|v| (c.x(self.cells[0], v), weight(v)))
            .collect();
        for (i, &cell) in self.cells.iter().enumerate().skip(1) {
            for v in 1..=n {
                if !c.allowed(cell, v) {
                    continue;
                }
                let z = c.aux();
                let x = c.x(cell, v);
                c.at_most(vec![(z, 1.0), (x, -1.0)], 0.0);
                let mut in_front = Vec::new();
                for &before in &self.cells[..i] {
                    let taller: Vec<(usize, f64)> =
                        (v + 1..=n).map(|w| (c.x(before, w), 1.0)).collect();
                    let mut hide = taller.clone();
                    hide.push((z, 1.0));
                    c.at_most(hide, 1.0);
                    in_front.extend(taller);
                }
                let mut seen_row: Vec<(usize, f64)> =
                    in_front.into_iter().map(|(k, _)| (k, -1.0)).collect();
                seen_row.push((x, 1.0));
                seen_row.push((z, -1.0));
                c.at_most(seen_row, 0.0);
                count.push((z, weight(v)));
            }
        }
        // A count of buildings is a cardinality row, a clause already; a sum of heights gets its automaton.
        if self.score == Score::Heights && self.heights_automaton(c) {
            c.relaxation(|c| c.equal(count, self.clue as f64));
        } else {
            c.equal(count, self.clue as f64);
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let values = values_of(grid, &self.cells);
        let got = seen(&values, self.score);
        if got == self.clue {
            Ok(())
        } else {
            Err(Violation::Seen {
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

impl Propagator for Visibility {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Both ways of pruning keep exactly the candidates on some arrangement they accept (the exact search, or
    /// the record automaton: a relaxation on long lines of a Latin square, but the same one every run), and
    /// which one runs depends on the line, never on the candidates: its own prunings leave it nothing to do.
    fn idempotent(&self) -> bool {
        true
    }

    /// Lines of a Latin square up to [`MAX_EXACT_LINE`] long: exact support (see [`Visibility::supports`]).
    /// Longer lines, and lines whose values may repeat: the support of the record-keeping automaton
    /// ([`Visibility::record_supports`]), exact but for the distinctness of the hidden buildings, which the
    /// line's all-different group prunes beside it.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let n = self.cells.len();
        let support = if n == d.size() && n <= MAX_EXACT_LINE && self.is_line() {
            self.supports(d)
        } else {
            self.record_supports(d)
        };
        d.restrict_each(&self.cells, &support.ok_or(Contradiction)?)
    }
}

impl Visibility {
    /// Support in polynomial time: an automaton over the line in viewing order whose state is the tallest
    /// building so far and the score so far. A building taller than the tallest is seen and scores; one lower
    /// is hidden (on a line of a Latin square: lower, since values differ; elsewhere also equal). On a line of
    /// a Latin square the tallest at the end is n. Every arrangement the rule allows is a path through it, so
    /// the values kept include every value some solution has there (the brute-force test below checks that
    /// and that it is exact on full assignments). States forward, then backward, as bit sets of scores per
    /// (position, tallest).
    ///
    /// The steps are taken in groups, so that a line costs O(n^2 x clue / 64) word operations rather than
    /// O(n^3 x clue / 64) (a 36x36 sum skyscrapers spent 40 ms a search node here): a value v seen is reached
    /// from every tallest below v with the same shift (the scores OR-ed over those tallests as v grows), and
    /// the hidden values all keep the state as it is (one step for all of them).
    fn record_supports(&self, d: &Domains) -> Option<Vec<u64>> {
        let len = self.cells.len();
        let n = d.size();
        let clue = usize::try_from(self.clue).ok()?;
        if clue > self.score.most(len, 0, n) {
            return None;
        }
        let domains: Vec<u64> = self.cells.iter().map(|&c| d.get(c)).collect();
        let mut sets = Records::new(len, n, clue, len == n && self.is_line());
        let reached = sets.forward(&domains, self.score);
        // The scores at each state from which the automaton can still end on the clue, and the states that
        // have some (`alive`, a superset).
        let mut live = vec![0u64; sets.reach.len()];
        let mut alive = vec![0u128; len + 1];
        for t in (0..=n).filter(|&t| t == n || !sets.permutation) {
            let end = sets.at(len, t) + clue / 64;
            live[end] = sets.reach[end] & 1 << (clue % 64);
            alive[len] |= u128::from(live[end] != 0) << t;
        }
        let words = sets.words;
        let mut support = vec![0u64; len];
        // Per value t seen at the current position, the scores it carries to a live state (those of (i + 1, t)
        // less its own); of those, the ones of the values above the current tallest, OR-ed; and the scores of
        // the states below the current tallest, OR-ed.
        let mut carried = vec![0u64; (n + 1) * words];
        let (mut above, mut below) = (vec![0; words], vec![0; words]);
        for (i, &dom) in domains.iter().enumerate().rev() {
            let seen = (u128::from(dom) << 1) & alive[i + 1];
            let states = reached[i] | seen;
            above.fill(0);
            // The tallest from which a hidden value reaches a live state: every hidden value below it is kept.
            let mut tallest_hidden = None;
            for t in ones(states).rev() {
                let (from, to) = (sets.at(i, t), sets.at(i + 1, t));
                if reached[i] >> t & 1 == 1 {
                    let hidden = alive[i + 1] >> t & 1 == 1 && sets.hidden_behind(dom, t);
                    let (mut through, mut any) = (false, false);
                    for k in 0..words {
                        let stay = if hidden { live[to + k] } else { 0 };
                        live[from + k] = sets.reach[from + k] & (above[k] | stay);
                        through |= sets.reach[from + k] & stay != 0;
                        any |= live[from + k] != 0;
                    }
                    alive[i] |= u128::from(any) << t;
                    if through && tallest_hidden.is_none() {
                        tallest_hidden = Some(t);
                    }
                }
                if seen >> t & 1 == 1 {
                    let down = &mut carried[t * words..(t + 1) * words];
                    shifted_down_into(down, &live[to..to + words], self.score.of(t));
                    above.iter_mut().zip(&*down).for_each(|(a, d)| *a |= d);
                }
            }
            // A value v seen: some tallest below v reached with a score that v carries to a live state.
            below.fill(0);
            for t in ones(states) {
                let from = sets.at(i, t);
                if seen >> t & 1 == 1 {
                    let down = &carried[t * words..(t + 1) * words];
                    if below.iter().zip(down).any(|(b, d)| b & d != 0) {
                        support[i] |= bit(t as u32);
                    }
                }
                below
                    .iter_mut()
                    .zip(&sets.reach[from..from + words])
                    .for_each(|(b, r)| *b |= r);
            }
            if let Some(t) = tallest_hidden {
                support[i] |= (1..=n)
                    .filter(|&v| sets.hides(v, t))
                    .fold(0, |m, v| m | bit(v as u32))
                    & dom;
            }
        }
        (live[0] & 1 == 1).then_some(support)
    }
}

/// The record automaton's scores per state ([`Visibility::record_supports`]): per position i (0..=len) and
/// tallest t (0..=n), a bit set of the scores with which the automaton reaches that state.
struct Records {
    n: usize,
    clue: usize,
    words: usize,
    /// The line is a row or column of a Latin square: its values differ, and the tallest at the end is n.
    permutation: bool,
    reach: Vec<u64>,
}

impl Records {
    fn new(len: usize, n: usize, clue: usize, permutation: bool) -> Records {
        let words = clue / 64 + 1;
        let mut reach = vec![0u64; (len + 1) * (n + 1) * words];
        reach[0] = 1;
        Records {
            n,
            clue,
            words,
            permutation,
            reach,
        }
    }

    /// Where the scores of state (i, t) start in `reach` (and in the live sets beside it).
    fn at(&self, i: usize, t: usize) -> usize {
        (i * (self.n + 1) + t) * self.words
    }

    /// A building of height v is hidden behind a tallest t: lower (or, where values may repeat, as tall).
    fn hides(&self, v: usize, t: usize) -> bool {
        v < t || (!self.permutation && v == t)
    }

    /// Some candidate of `dom` is hidden behind a tallest t.
    fn hidden_behind(&self, dom: u64, t: usize) -> bool {
        dom != 0 && self.hides(dom.trailing_zeros() as usize + 1, t)
    }

    /// Fills `reach` position by position; returns, per position, the tallests whose states it reaches (a
    /// superset: bit t set, the set may still be empty). Only those states and the candidates are visited, so
    /// a line with many values fixed costs little.
    fn forward(&mut self, domains: &[u64], score: Score) -> Vec<u128> {
        let words = self.words;
        let mut reached = vec![0u128; domains.len() + 1];
        reached[0] = 1;
        // The scores of the states (i, t) for every t below the current one, OR-ed.
        let mut below = vec![0u64; words];
        for (i, &dom) in domains.iter().enumerate() {
            let seen = u128::from(dom) << 1;
            below.fill(0);
            for t in ones(reached[i] | seen) {
                let (from, to) = (self.at(i, t), self.at(i + 1, t));
                if seen >> t & 1 == 1 && reached[i] & ((1 << t) - 1) != 0 {
                    or_shifted_up(
                        &mut self.reach[to..to + words],
                        &below,
                        score.of(t),
                        self.clue,
                    );
                    reached[i + 1] |= 1 << t;
                }
                if reached[i] >> t & 1 == 1 {
                    let hidden = self.hidden_behind(dom, t);
                    for (k, b) in below.iter_mut().enumerate() {
                        let word = self.reach[from + k];
                        *b |= word;
                        if hidden {
                            self.reach[to + k] |= word;
                        }
                    }
                    reached[i + 1] |= u128::from(hidden) << t;
                }
            }
        }
        reached
    }
}

/// The bits set in `mask`, lowest first (or `.rev()`, highest first).
fn ones(mask: u128) -> Ones {
    Ones(mask)
}

struct Ones(u128);

impl Iterator for Ones {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let t = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            t
        })
    }
}

impl DoubleEndedIterator for Ones {
    fn next_back(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let t = 127 - self.0.leading_zeros() as usize;
            self.0 &= !(1 << t);
            t
        })
    }
}

/// `dst |= src << by` (scores grow by `by`), dropping scores above `clue`.
fn or_shifted_up(dst: &mut [u64], src: &[u64], by: usize, clue: usize) {
    let (whole, part) = (by / 64, by % 64);
    for k in (whole..dst.len()).rev() {
        let j = k - whole;
        let mut word = src[j] << part;
        if part > 0 && j > 0 {
            word |= src[j - 1] >> (64 - part);
        }
        dst[k] |= word;
    }
    let keep = clue % 64;
    if keep < 63 {
        dst[clue / 64] &= (1u64 << (keep + 1)) - 1;
    }
}

/// `dst = src >> by`: bit s of the result is bit s + by of `src`.
fn shifted_down_into(dst: &mut [u64], src: &[u64], by: usize) {
    let (whole, part) = (by / 64, by % 64);
    let word = |j: usize| src.get(j).copied().unwrap_or(0);
    for (k, d) in dst.iter_mut().enumerate() {
        let lo = word(k + whole);
        *d = if part == 0 {
            lo
        } else {
            lo >> part | word(k + whole + 1) << (64 - part)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Visibility::record_supports`] step by step, every (tallest, value) pair on its own: O(n^3 x clue / 64)
    /// word operations for a line of n, where the grouped version takes O(n^2 x clue / 64). Its reference.
    fn record_supports_by_steps(rule: &Visibility, d: &Domains) -> Option<Vec<u64>> {
        let len = rule.cells.len();
        let n = d.size();
        let clue = usize::try_from(rule.clue).ok()?;
        if clue > rule.score.most(len, 0, n) {
            return None;
        }
        let permutation = len == n && rule.is_line();
        let domains: Vec<u64> = rule.cells.iter().map(|&c| d.get(c)).collect();
        let words = clue / 64 + 1;
        // Per position i (0..=len) and tallest t (0..=n): the scores, as a bit set, with which the automaton
        // reaches that state (`reach`), and of those the ones from which it can still end on the clue (`live`).
        let at = |i: usize, t: usize| (i * (n + 1) + t) * words;
        let mut reach = vec![0u64; (len + 1) * (n + 1) * words];
        reach[at(0, 0)] = 1;
        // A building lower than the tallest (or, where values may repeat, as tall) is hidden.
        let unreached =
            |sets: &[u64], from: usize| sets[from..from + words].iter().all(|&w| w == 0);
        let hides = |v: usize, t: usize| v < t || (!permutation && v == t);
        // Value v at position i from tallest t: the state it leads to, and what it adds to the score.
        let step = |i: usize, t: usize, v: usize| match v > t {
            true => Some((at(i + 1, v), rule.score.of(v))),
            false => hides(v, t).then_some((at(i + 1, t), 0)),
        };
        for (i, &dom) in domains.iter().enumerate() {
            for t in 0..=n {
                let from = at(i, t);
                if unreached(&reach, from) {
                    continue;
                }
                for v in bit_indices(dom).map(|b| b + 1) {
                    let Some((to, by)) = step(i, t, v) else {
                        continue;
                    };
                    shift_or(&mut reach, from, to, by, clue, words);
                }
            }
        }
        let mut live = vec![0u64; reach.len()];
        for t in (0..=n).filter(|&t| t == n || !permutation) {
            let end = at(len, t);
            live[end + clue / 64] = reach[end + clue / 64] & 1 << (clue % 64);
        }
        let mut support = vec![0u64; len];
        let mut carried = vec![0u64; words];
        for (i, &dom) in domains.iter().enumerate().rev() {
            for t in 0..=n {
                let from = at(i, t);
                // No score reaches this state: nothing through it can be carried back.
                if unreached(&reach, from) {
                    continue;
                }
                for v in bit_indices(dom).map(|b| b + 1) {
                    let Some((to, by)) = step(i, t, v) else {
                        continue;
                    };
                    // The scores at (i, t) that this step carries to a live state.
                    for (k, c) in carried.iter_mut().enumerate() {
                        *c = shifted_down(&live, to, k, by, words) & reach[from + k];
                    }
                    if carried.iter().any(|&w| w != 0) {
                        support[i] |= bit(v as u32);
                        for (k, c) in carried.iter().enumerate() {
                            live[from + k] |= c;
                        }
                    }
                }
            }
        }
        (live[at(0, 0)] & 1 == 1).then_some(support)
    }

    /// The reference's step: ORs the bit set at `from` into the one at `to`, moved up by `by` (scores grow by
    /// `by`), dropping scores above `clue`.
    fn shift_or(sets: &mut [u64], from: usize, to: usize, by: usize, clue: usize, words: usize) {
        let (whole, part) = (by / 64, by % 64);
        for k in (0..words).rev() {
            let lo = k.checked_sub(whole).map_or(0, |j| sets[from + j]);
            let below = k.checked_sub(whole + 1).map_or(0, |j| sets[from + j]);
            let word = if part == 0 {
                lo
            } else {
                lo << part | below >> (64 - part)
            };
            sets[to + k] |= word;
        }
        let last = to + clue / 64;
        let keep = clue % 64;
        if keep < 63 {
            sets[last] &= (1u64 << (keep + 1)) - 1;
        }
    }

    /// The reference's: word k of the bit set at `at` moved down by `by` (bit s of the result is bit s + by
    /// of the set).
    fn shifted_down(sets: &[u64], at: usize, k: usize, by: usize, words: usize) -> u64 {
        let (whole, part) = (by / 64, by % 64);
        let word = |j: usize| if j < words { sets[at + j] } else { 0 };
        let lo = word(k + whole);
        if part == 0 {
            lo
        } else {
            lo >> part | word(k + whole + 1) << (64 - part)
        }
    }

    fn line(n: usize, clue: u64) -> Visibility {
        Visibility {
            label: "left of row 1".into(),
            cells: (0..n).map(|c| Cell::new(0, c)).collect(),
            clue,
            score: Score::Count,
        }
    }

    /// Every arrangement of the heights 1..=n along a line: the values a row or column of the square can hold.
    fn arrangements(n: usize) -> Vec<Vec<u32>> {
        fn perms(rest: Vec<u32>, acc: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if rest.is_empty() {
                out.push(acc.clone());
            }
            for (i, &v) in rest.iter().enumerate() {
                let mut r = rest.clone();
                r.remove(i);
                acc.push(v);
                perms(r, acc, out);
                acc.pop();
            }
        }
        let mut all = Vec::new();
        perms((1..=n as u32).collect(), &mut Vec::new(), &mut all);
        all
    }

    /// Brute force over all permutations: the values each position takes in some permutation seeing `clue`.
    fn brute_support(n: usize, clue: u64, score: Score, d: &Domains, cells: &[Cell]) -> Vec<u64> {
        let mut support = vec![0u64; n];
        for p in arrangements(n) {
            if seen(&p, score) == clue && p.iter().zip(cells).all(|(&v, &c)| d.contains(c, v)) {
                for (s, &v) in support.iter_mut().zip(&p) {
                    *s |= bit(v);
                }
            }
        }
        support
    }

    #[test]
    fn pruning_is_exact_against_brute_force() {
        for clue in 1..=6 {
            let rule = line(6, clue);
            let mut d = Domains::full(6);
            d.restrict(Cell::new(0, 2), bit(6) | bit(2)).unwrap();
            d.remove(Cell::new(0, 4), 1).unwrap();
            let want = brute_support(6, clue, Score::Count, &d, &rule.cells);
            assert_eq!(rule.supports(&d).unwrap_or(vec![0; 6]), want, "clue {clue}");
            // Idempotent, as it claims: a second run finds nothing more.
            assert!(rule.idempotent());
            if rule.propagate(&mut d).is_ok() {
                assert_eq!(rule.propagate(&mut d), Ok(false), "clue {clue}");
            }
        }
        for clue in 0..=24 {
            let rule = Visibility {
                score: Score::Heights,
                ..line(6, clue)
            };
            let mut d = Domains::full(6);
            d.restrict(Cell::new(0, 1), bit(6) | bit(2) | bit(5))
                .unwrap();
            d.remove(Cell::new(0, 3), 4).unwrap();
            let want = brute_support(6, clue, Score::Heights, &d, &rule.cells);
            assert_eq!(rule.supports(&d).unwrap_or(vec![0; 6]), want, "sum {clue}");
        }
    }

    /// The automaton's support against brute force: on a line of a Latin square it keeps every value some
    /// permutation has there (and no more once the line is filled); on cells whose values may repeat (not one
    /// line) it is exact.
    #[test]
    fn the_record_automaton_keeps_every_supported_value() {
        let mut rng = fastrand::Rng::with_seed(11);
        for round in 0..400 {
            let n = 4 + round % 3;
            let score = if round % 2 == 0 {
                Score::Count
            } else {
                Score::Heights
            };
            let top = score.most(n, 0, n) as u64;
            let rule = Visibility {
                score,
                ..line(n, rng.u64(1..=top))
            };
            let mut d = Domains::full(n);
            let mut perm: Vec<u32> = (1..=n as u32).collect();
            rng.shuffle(&mut perm);
            for (&c, &p) in rule.cells.iter().zip(&perm) {
                let mask = match rng.u32(0..4) {
                    // Every tenth line filled with a permutation.
                    _ if round % 10 == 0 => bit(p),
                    0 => bit(rng.u32(1..=n as u32)),
                    _ => rng.u64(1..1 << n),
                };
                d.restrict(c, mask).ok();
            }
            let want = brute_support(n, rule.clue, score, &d, &rule.cells);
            let got = rule.record_supports(&d);
            // Filled with distinct values (repeats are the row's to refuse).
            let values: Vec<u32> = rule.cells.iter().filter_map(|&c| d.fixed(c)).collect();
            let fixed = values.len() == n && (1..n).all(|i| !values[..i].contains(&values[i]));
            match &got {
                Some(g) => {
                    assert!(
                        want.iter().zip(g).all(|(w, g)| w & !g == 0),
                        "{want:?} {g:?}"
                    );
                    assert!(!fixed || g == &want, "a filled line: {want:?} {g:?}");
                }
                None => assert!(want.iter().all(|&w| w == 0), "{want:?}"),
            }
            // The same cells as a bent line (not one row): repeats allowed, and the automaton exact.
            let bent = Visibility {
                cells: rule
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| Cell::new(i % 2, c.col))
                    .collect(),
                ..rule.clone()
            };
            let mut e = Domains::full(n);
            for (&from, &to) in rule.cells.iter().zip(&bent.cells) {
                e.restrict(to, d.get(from)).ok();
            }
            let mut exact = vec![0u64; n];
            for acc in crate::rules::assignments(&e, &bent.cells, false) {
                if seen(&acc, score) == bent.clue {
                    acc.iter().zip(&mut exact).for_each(|(&v, s)| *s |= bit(v));
                }
            }
            let got = bent.record_supports(&e).unwrap_or(vec![0; n]);
            assert_eq!(got, exact, "bent line, clue {}", bent.clue);
            // Idempotent: the automaton's supports of its own supports are the same, on the line and bent.
            for (rule, mut d) in [(&rule, d.clone()), (&bent, e.clone())] {
                if let Some(g) = rule.record_supports(&d) {
                    if d.restrict_each(&rule.cells, &g).is_ok() {
                        assert_eq!(rule.record_supports(&d), Some(g), "clue {}", rule.clue);
                    }
                }
            }
        }
    }

    /// Long lines and sums of heights past 64 (scores over several words): a filled line is kept exactly
    /// when it scores the clue, and the empty line of a clue keeps a solution's values.
    #[test]
    fn the_record_automaton_on_long_lines_and_large_sums() {
        let mut rng = fastrand::Rng::with_seed(5);
        for round in 0..200 {
            let n = 11 + round % 6;
            let score = if round % 2 == 0 {
                Score::Heights
            } else {
                Score::Count
            };
            let mut perm: Vec<u32> = (1..=n as u32).collect();
            rng.shuffle(&mut perm);
            let clue = seen(&perm, score);
            let rule = Visibility {
                score,
                ..line(n, clue)
            };
            let mut d = Domains::full(n);
            let empty = rule.record_supports(&d).expect("a solution exists");
            assert!(
                perm.iter().zip(&empty).all(|(&v, s)| s & bit(v) != 0),
                "{perm:?} {clue}"
            );
            for (&c, &v) in rule.cells.iter().zip(&perm) {
                d.restrict(c, bit(v)).unwrap();
            }
            let kept = rule.record_supports(&d).expect("the line scores its clue");
            assert!(kept.iter().zip(&perm).all(|(&s, &v)| s == bit(v)));
            for other in [clue - 1, clue + 1] {
                let wrong = Visibility {
                    score,
                    ..line(n, other)
                };
                assert_eq!(
                    wrong.record_supports(&d),
                    None,
                    "{perm:?} scored as {other}"
                );
            }
        }
    }

    /// The grouped automaton against the step-by-step one, on long lines with random candidates, both scores,
    /// a row and a bent line: the same supports, or both none.
    #[test]
    fn grouped_steps_keep_what_single_steps_keep() {
        let mut rng = fastrand::Rng::with_seed(21);
        let mut kept = 0;
        for round in 0..600 {
            let n = [5, 9, 16, 25, 36][round % 5];
            let score = [Score::Count, Score::Heights][round / 5 % 2];
            let mut perm: Vec<u32> = (1..=n as u32).collect();
            rng.shuffle(&mut perm);
            let rule = Visibility {
                score,
                ..line(n, seen(&perm, score) + rng.u64(0..3) - 1)
            };
            let bent = Visibility {
                cells: (0..n).map(|c| Cell::new(c % 2, c)).collect(),
                ..rule.clone()
            };
            for rule in [&rule, &bent] {
                let mut d = Domains::full(n);
                for (&c, &p) in rule.cells.iter().zip(&perm) {
                    let mask = match rng.u32(0..3) {
                        0 => bit(p),
                        _ => rng.u64(..) | bit(p),
                    };
                    d.restrict(c, mask).unwrap();
                }
                let want = record_supports_by_steps(rule, &d);
                kept += usize::from(want.is_some());
                assert_eq!(rule.record_supports(&d), want, "{perm:?} {}", rule.clue);
            }
        }
        assert!(kept > 300, "{kept}");
    }

    #[test]
    fn pruning_fixes_the_obvious_lines() {
        let mut d = Domains::full(5);
        line(5, 1).propagate(&mut d).unwrap();
        assert_eq!(d.fixed(Cell::new(0, 0)), Some(5));
        let mut d = Domains::full(5);
        line(5, 5).propagate(&mut d).unwrap();
        assert_eq!(d.grid().rows()[0], vec![1, 2, 3, 4, 5]);
        assert_eq!(
            line(5, 6).propagate(&mut Domains::full(5)),
            Err(Contradiction)
        );
    }

    /// A sum of heights is exact in CBC's view (the weighted row of the buildings seen) and in CaDiCaL's (the
    /// automaton of the tallest so far and the heights seen so far) alike: every arrangement of a line of five
    /// (the rule's lines are rows and columns of the square, so their values are distinct), with the
    /// seen-columns and the automaton's state columns set every way. The weighted row is CBC's alone.
    #[test]
    fn a_sum_of_heights_is_exact_for_both_backends() {
        let n = 5;
        let arrangements = arrangements(n);
        for clue in [5, 9, 12, 14, 15] {
            let rule = Visibility {
                score: Score::Heights,
                ..line(n, clue)
            };
            let mut c = Compiler::new(n);
            rule.encode(&mut c);
            let program = c.finish();
            let weighted = |r: &&crate::program::Row| r.terms.iter().any(|t| t.1 > 1.0);
            let roles: Vec<_> = program
                .rows
                .iter()
                .filter(weighted)
                .map(|r| r.role)
                .collect();
            assert_eq!(roles, [crate::program::Role::Relaxation]);
            let aux: Vec<usize> = (n * n * n..program.num_cols()).collect();
            let mut accepted = 0;
            for values in &arrangements {
                let mut cols = vec![0.0; program.num_cols()];
                for (&cell, &v) in rule.cells.iter().zip(values) {
                    cols[program.x(cell, v)] = 1.0;
                }
                let ok = crate::rules::satisfiable(&program, &aux, &mut cols);
                assert_eq!(ok, seen(values, Score::Heights) == clue, "{values:?}");
                accepted += usize::from(ok);
            }
            assert!(accepted > 0 && accepted < arrangements.len(), "{clue}");
        }
    }

    #[test]
    fn counts_records() {
        assert_eq!(seen(&[1, 2, 3, 4, 5], Score::Count), 5);
        assert_eq!(seen(&[5, 1, 2, 3, 4], Score::Count), 1);
        assert_eq!(seen(&[2, 1, 4, 3, 5], Score::Count), 3);
        assert_eq!(seen(&[2, 1, 4, 3, 5], Score::Heights), 11);
        assert_eq!(seen(&[5, 1, 2, 3, 4], Score::Heights), 5);
    }
}
