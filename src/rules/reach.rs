//! Reachable sums: which totals a list of cells can add up to, and which candidates take part in some way of
//! reaching an allowed total.
//!
//! Sums whose cells may repeat a value (little-killer diagonals, arrows, the cells of a sandwich) are not
//! pruned well by bounds: `6 + ? = 10` with candidates {1, 3, 5, 7} keeps every candidate between the bounds.
//! A dynamic programme over sum sets keeps exactly the candidates that occur in some assignment adding up to
//! an allowed total (arc consistency for the sum, with the cells independent), in O(cells x values x
//! total / 64) word operations. Rows, columns and boxes that make some of the cells differ are left to their
//! own rules.

use std::cell::RefCell;
use std::ops::Range;

use smallvec::SmallVec;

use crate::domains::bit_indices;

/// One candidate mask per cell of a rule, on the stack for up to 16 cells: the sum propagators run at every
/// search node, and a heap allocation per call cost about a fifth of a variant puzzle's search.
pub(crate) type Masks = SmallVec<[u64; 16]>;

/// The words of a set of totals, on the stack up to a total of 255.
type Words = SmallVec<[u64; 4]>;

/// A set of totals 0..=max as a bit set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sums {
    words: Words,
    max: usize,
}

impl Sums {
    pub(crate) fn empty(max: usize) -> Sums {
        Sums {
            words: SmallVec::from_elem(0, words_for(max)),
            max,
        }
    }

    /// The set holding the one total `s` (empty when `s` is beyond `max`).
    pub(crate) fn only(max: usize, s: usize) -> Sums {
        let mut out = Sums::empty(max);
        out.insert(s);
        out
    }

    /// Every total 0..=max.
    pub(crate) fn full(max: usize) -> Sums {
        let mut out = Sums::empty(max);
        out.words.iter_mut().for_each(|w| *w = u64::MAX);
        let extra = 64 * out.words.len() - max - 1;
        if let Some(last) = out.words.last_mut() {
            *last &= u64::MAX >> extra;
        }
        out
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub(crate) fn insert(&mut self, s: usize) {
        if s <= self.max {
            self.words[s / 64] |= 1 << (s % 64);
        }
    }

    pub(crate) fn contains(&self, s: usize) -> bool {
        s <= self.max && self.words[s / 64] >> (s % 64) & 1 == 1
    }

    /// The largest total of the set.
    fn last(&self) -> Option<usize> {
        let (k, w) = self.words.iter().enumerate().rev().find(|(_, &w)| w != 0)?;
        Some(k * 64 + 63 - w.leading_zeros() as usize)
    }

    /// Every total of the set, smallest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..=self.max).filter(|&s| self.contains(s))
    }
}

/// Words in a set of totals 0..=max.
fn words_for(max: usize) -> usize {
    max / 64 + 1
}

/// Word `i` of `words + by` (totals beyond the last word are not cut off here).
fn word_shifted_up(words: &[u64], i: usize, by: usize) -> u64 {
    let (w, b) = (by / 64, by % 64);
    if i < w {
        return 0;
    }
    let lo = words.get(i - w).copied().unwrap_or(0);
    let carry = if b > 0 && i > w {
        words.get(i - w - 1).copied().unwrap_or(0) >> (64 - b)
    } else {
        0
    };
    (lo << b) | carry
}

/// `to ∪= from + by`, dropping totals beyond `max`.
fn or_shifted_up(to: &mut [u64], from: &[u64], by: usize, max: usize) {
    for (i, word) in to.iter_mut().enumerate().skip(by / 64) {
        *word |= word_shifted_up(from, i, by);
    }
    let extra = 64 * to.len() - max - 1;
    if let Some(last) = to.last_mut() {
        *last &= u64::MAX >> extra;
    }
}

/// `to ∪= from - by`, dropping totals below zero.
fn or_shifted_down(to: &mut [u64], from: &[u64], by: usize) {
    let (w, b) = (by / 64, by % 64);
    for (i, word) in to.iter_mut().enumerate() {
        let lo = from.get(i + w).copied().unwrap_or(0);
        let carry = if b > 0 {
            from.get(i + w + 1).copied().unwrap_or(0) << (64 - b)
        } else {
            0
        };
        *word |= (lo >> b) | carry;
    }
}

/// Whether `(from + by) ∩ other` is non-empty: word by word, without building the shifted set (this runs once
/// per candidate on every wake-up).
fn meets_shifted(from: &[u64], by: usize, other: &[u64]) -> bool {
    (by / 64..other.len()).any(|i| word_shifted_up(from, i, by) & other[i] != 0)
}

/// The largest total the cells can reach: every cell at its largest candidate.
pub(crate) fn largest(domains: &[u64]) -> usize {
    domains
        .iter()
        .map(|&d| 64 - d.leading_zeros() as usize)
        .sum()
}

/// The tables of [`programme`] and the groups' totals of [`grouped_supports`], kept from call to call on each
/// thread, so that a propagation allocates nothing once they have grown to the puzzle's largest sum.
#[derive(Default)]
struct Scratch {
    /// `prefix` and `need` of [`programme`]: row i is words `i * w .. (i + 1) * w`.
    prefix: Vec<u64>,
    need: Vec<u64>,
    /// Every part's totals with the values each member takes to reach them, one part after another.
    totals: Vec<(usize, [u64; MAX_GROUP])>,
    /// Per total, while one group is enumerated: the values each member takes to reach it.
    by_total: Vec<[u64; MAX_GROUP]>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Row `i` of a table of rows `w` words wide.
fn row(table: &[u64], w: usize, i: usize) -> &[u64] {
    &table[i * w..(i + 1) * w]
}

/// The dynamic programme [`supports`] and [`grouped_supports`] share, over `steps` steps where step i adds one of
/// `amounts(i)` (a cell's values, or a group's totals): `prefix` row i, the totals the first i steps reach (row
/// 0 = {0}), and `need` row i, the totals after i steps from which the rest can still finish on an allowed total
/// that some assignment reaches (row `steps` is those totals). Both tables are `steps + 1` rows of the allowed
/// set's width. False when no allowed total is reachable.
fn programme<F, I>(
    steps: usize,
    amounts: F,
    allowed: &Sums,
    prefix: &mut Vec<u64>,
    need: &mut Vec<u64>,
) -> bool
where
    F: Fn(usize) -> I,
    I: Iterator<Item = usize>,
{
    let (max, w) = (allowed.max, allowed.words.len());
    prefix.clear();
    prefix.resize((steps + 1) * w, 0);
    prefix[0] = 1;
    for i in 0..steps {
        let (done, next) = prefix.split_at_mut((i + 1) * w);
        for a in amounts(i) {
            or_shifted_up(&mut next[..w], &done[i * w..], a, max);
        }
    }
    need.clear();
    need.resize((steps + 1) * w, 0);
    let mut any = false;
    for (k, word) in need[steps * w..].iter_mut().enumerate() {
        *word = prefix[steps * w + k] & allowed.words[k];
        any |= *word != 0;
    }
    if !any {
        return false;
    }
    for i in (0..steps).rev() {
        let (here, after) = need.split_at_mut((i + 1) * w);
        for a in amounts(i) {
            or_shifted_down(&mut here[i * w..], &after[..w], a);
        }
    }
    true
}

/// The totals in the last row of a programme's `need` table: those allowed that some assignment reaches.
fn reached(need: &[u64], steps: usize, max: usize) -> Sums {
    let w = words_for(max);
    Sums {
        words: SmallVec::from_slice(row(need, w, steps)),
        max,
    }
}

/// For the cells (their candidates as bit sets, bit v-1 = v) and the allowed totals: the candidates of each
/// cell that occur in some assignment whose total is allowed, and the allowed totals some assignment reaches.
/// `None` when no allowed total is reachable.
pub(crate) fn supports(domains: &[u64], allowed: &Sums) -> Option<(Masks, Sums)> {
    if allowed.max < 64 && domains.len() <= 64 {
        return supports_in_a_word(domains, allowed);
    }
    let values = |i: usize| bit_indices(domains[i]).map(|b| b + 1);
    SCRATCH.with_borrow_mut(|s| {
        let steps = domains.len();
        if !programme(steps, values, allowed, &mut s.prefix, &mut s.need) {
            return None;
        }
        let w = allowed.words.len();
        let support = (0..steps)
            .map(|i| {
                values(i)
                    .filter(|&v| meets_shifted(row(&s.prefix, w, i), v, row(&s.need, w, i + 1)))
                    .fold(0u64, |m, v| m | 1 << (v - 1))
            })
            .collect();
        Some((support, reached(&s.need, steps, allowed.max)))
    })
}

/// [`supports`] when every total fits one word (up to 63: a sandwich's span, most cages and arrows): the same
/// programme with a word per row, on the stack, with no table to borrow or grow (the shared tables' upkeep was
/// half of the programme's time on sandwiches).
fn supports_in_a_word(domains: &[u64], allowed: &Sums) -> Option<(Masks, Sums)> {
    let (steps, max) = (domains.len(), allowed.max);
    // Totals 0..=max, and the values 1..=max (bit v - 1): a larger value reaches no total.
    let totals = u64::MAX >> (63 - max);
    let usable = (1u64 << max) - 1;
    let mut prefix = [0u64; 65];
    prefix[0] = 1;
    for (i, &d) in domains.iter().enumerate() {
        let from = prefix[i];
        prefix[i + 1] = bit_indices(d & usable).fold(0, |m, b| m | from << (b + 1)) & totals;
    }
    let mut need = [0u64; 65];
    need[steps] = prefix[steps] & allowed.words[0];
    if need[steps] == 0 {
        return None;
    }
    for (i, &d) in domains.iter().enumerate().rev() {
        let after = need[i + 1];
        need[i] = bit_indices(d & usable).fold(0, |m, b| m | after >> (b + 1));
    }
    let support = domains
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            bit_indices(d & usable)
                .filter(|&b| prefix[i] << (b + 1) & need[i + 1] != 0)
                .fold(0u64, |m, b| m | 1 << b)
        })
        .collect();
    let reached = Sums {
        words: SmallVec::from_elem(need[steps], 1),
        max,
    };
    Some((support, reached))
}

/// The most cells in one group of [`grouped_supports`]: a group's assignments are enumerated.
pub(crate) const MAX_GROUP: usize = 4;

/// A group whose candidates allow more assignments than this is taken cell by cell for that call instead (sound,
/// only weaker): the enumeration stays within a few thousand steps.
pub(crate) const MAX_LEAVES: u64 = 1 << 13;

/// [`supports`] when some of the cells must differ. `groups` partitions the cell indices into groups of at most
/// [`MAX_GROUP`] cells that take distinct values (cells of one box on a little-killer diagonal); an assignment
/// counts only when it keeps every group's values distinct. Each group's assignments are enumerated once, grouped
/// by their total, and the same [`programme`] as [`supports`] runs over the groups' totals.
pub(crate) fn grouped_supports(
    domains: &[u64],
    groups: &[Vec<usize>],
    allowed: &Sums,
) -> Option<(Masks, Sums)> {
    let max = allowed.max;
    // A group too big to enumerate now is split into single cells (no distinctness assumed among them).
    let mut parts: SmallVec<[&[usize]; 16]> = SmallVec::new();
    for g in groups {
        let leaves = g
            .iter()
            .map(|&i| u64::from(domains[i].count_ones()))
            .fold(1u64, |a, k| a.saturating_mul(k));
        if leaves > MAX_LEAVES {
            parts.extend(g.chunks(1));
        } else {
            parts.push(g);
        }
    }
    // A group's total is at most the largest allowed total less the smallest the other groups can add (their
    // cells' smallest values): no assignment above that can finish on an allowed total, so the group's
    // enumeration stops there (an arrow's circle of at most 9 spares most of a three-cell group's 504).
    let top = allowed.last()?;
    let least = |g: &[usize]| g.iter().map(|&i| smallest(domains[i])).sum::<usize>();
    let least_all: usize = parts.iter().map(|g| least(g)).sum();
    SCRATCH.with_borrow_mut(|s| {
        s.totals.clear();
        let mut ranges: SmallVec<[Range<usize>; 16]> = SmallVec::new();
        for g in &parts {
            let cap = (top + least(g)).checked_sub(least_all)?.min(max);
            ranges.push(group_totals(
                domains,
                g,
                cap,
                &mut s.by_total,
                &mut s.totals,
            ));
        }
        let totals = &s.totals;
        let amounts = |g: usize| totals[ranges[g].clone()].iter().map(|&(t, _)| t);
        if !programme(parts.len(), amounts, allowed, &mut s.prefix, &mut s.need) {
            return None;
        }
        let w = allowed.words.len();
        let mut support: Masks = SmallVec::from_elem(0, domains.len());
        for (g, members) in parts.iter().enumerate() {
            for (t, masks) in &totals[ranges[g].clone()] {
                if meets_shifted(row(&s.prefix, w, g), *t, row(&s.need, w, g + 1)) {
                    for (k, &i) in members.iter().enumerate() {
                        support[i] |= masks[k];
                    }
                }
            }
        }
        Some((support, reached(&s.need, parts.len(), max)))
    })
}

/// A candidate set's smallest value (65 for none, more than any total a propagation allows).
fn smallest(domain: u64) -> usize {
    domain.trailing_zeros() as usize + 1
}

/// Appends to `out` the totals (up to `max`) a group's distinct assignments reach, each with the values each
/// member takes in some assignment reaching it; returns where they are in `out`. `by_total` is scratch.
fn group_totals(
    domains: &[u64],
    members: &[usize],
    max: usize,
    by_total: &mut Vec<[u64; MAX_GROUP]>,
    out: &mut Vec<(usize, [u64; MAX_GROUP])>,
) -> Range<usize> {
    /// `rest[k]`: the members from k on add at least this much.
    #[allow(clippy::too_many_arguments)]
    fn go(
        domains: &[u64],
        members: &[usize],
        rest: &[usize; MAX_GROUP + 1],
        at: usize,
        used: u64,
        total: usize,
        chosen: &mut [u64; MAX_GROUP],
        by_total: &mut [[u64; MAX_GROUP]],
    ) {
        if total + rest[at] >= by_total.len() {
            return;
        }
        if at == members.len() {
            for (m, &c) in by_total[total].iter_mut().zip(chosen.iter()) {
                *m |= c;
            }
            return;
        }
        for b in bit_indices(domains[members[at]] & !used) {
            chosen[at] = 1 << b;
            let by = 1u64 << b;
            go(
                domains,
                members,
                rest,
                at + 1,
                used | by,
                total + b + 1,
                chosen,
                by_total,
            );
        }
    }
    // Indexed by total, up to the group's own largest (a few dozen) rather than the whole sum's `max`.
    let largest = members
        .iter()
        .map(|&i| 64 - domains[i].leading_zeros() as usize)
        .sum::<usize>();
    by_total.clear();
    by_total.resize(max.min(largest) + 1, [0u64; MAX_GROUP]);
    let mut rest = [0usize; MAX_GROUP + 1];
    for k in (0..members.len()).rev() {
        rest[k] = rest[k + 1] + smallest(domains[members[k]]);
    }
    let mut chosen = [0u64; MAX_GROUP];
    go(domains, members, &rest, 0, 0, 0, &mut chosen, by_total);
    let start = out.len();
    out.extend(
        by_total
            .iter()
            .enumerate()
            .filter(|(_, m)| m[0] != 0)
            .map(|(t, &m)| (t, m)),
    );
    start..out.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of the candidates, by brute force: the candidates in some assignment with an allowed
    /// total, and the allowed totals reached.
    fn brute(domains: &[u64], allowed: &[usize]) -> Option<(Vec<u64>, Vec<usize>)> {
        brute_grouped(domains, &[], allowed)
    }

    #[test]
    fn supports_equal_brute_force() {
        let mut rng = fastrand::Rng::with_seed(11);
        for round in 0..3000 {
            let k = 1 + round % 5;
            // Values up to 40 so that totals cross word boundaries (5 x 40 = 200).
            let width = if round % 3 == 0 { 40 } else { 9 };
            let domains: Vec<u64> = (0..k)
                .map(|_| {
                    (0..3)
                        .map(|_| 1u64 << rng.usize(..width))
                        .fold(0, |m, b| m | b)
                })
                .collect();
            let max = largest(&domains);
            let allowed: Vec<usize> = (0..3).map(|_| rng.usize(..=max + 2)).collect();
            let mut set = Sums::empty(max);
            allowed.iter().for_each(|&s| set.insert(s));
            let got =
                supports(&domains, &set).map(|(s, r)| (s.to_vec(), r.iter().collect::<Vec<_>>()));
            let want = brute(
                &domains,
                &allowed
                    .iter()
                    .copied()
                    .filter(|&s| s <= max)
                    .collect::<Vec<_>>(),
            );
            assert_eq!(got, want, "{domains:?} {allowed:?}");
        }
    }

    /// Brute force with distinct values inside each group.
    fn brute_grouped(
        domains: &[u64],
        groups: &[Vec<usize>],
        allowed: &[usize],
    ) -> Option<(Vec<u64>, Vec<usize>)> {
        fn go(domains: &[u64], acc: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if acc.len() == domains.len() {
                out.push(acc.clone());
                return;
            }
            for v in bit_indices(domains[acc.len()]).map(|b| b + 1) {
                acc.push(v);
                go(domains, acc, out);
                acc.pop();
            }
        }
        let mut all = Vec::new();
        go(domains, &mut Vec::new(), &mut all);
        let mut support = vec![0u64; domains.len()];
        let mut reached = Vec::new();
        for a in all {
            let distinct = groups.iter().all(|g| {
                g.iter()
                    .enumerate()
                    .all(|(k, &i)| g[..k].iter().all(|&j| a[j] != a[i]))
            });
            let s: usize = a.iter().sum();
            if distinct && allowed.contains(&s) {
                for (m, &v) in support.iter_mut().zip(&a) {
                    *m |= 1 << (v - 1);
                }
                reached.push(s);
            }
        }
        reached.sort_unstable();
        reached.dedup();
        (!reached.is_empty()).then_some((support, reached))
    }

    #[test]
    fn grouped_supports_equal_brute_force() {
        let mut rng = fastrand::Rng::with_seed(12);
        for round in 0..3000 {
            let k = 1 + round % 6;
            let width = if round % 4 == 0 { 30 } else { 9 };
            let domains: Vec<u64> = (0..k)
                .map(|_| {
                    (0..1 + rng.usize(..5))
                        .map(|_| 1u64 << rng.usize(..width))
                        .fold(0, |m, b| m | b)
                })
                .collect();
            // A random partition into groups of at most three cells.
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for i in 0..k {
                match groups.iter_mut().find(|g| g.len() < 3 && rng.bool()) {
                    Some(g) => g.push(i),
                    None => groups.push(vec![i]),
                }
            }
            let max = largest(&domains);
            let allowed: Vec<usize> = (0..3).map(|_| rng.usize(..=max + 2)).collect();
            let mut set = Sums::empty(max);
            allowed.iter().for_each(|&s| set.insert(s));
            let got = grouped_supports(&domains, &groups, &set)
                .map(|(s, r)| (s.to_vec(), r.iter().collect::<Vec<_>>()));
            let want = brute_grouped(&domains, &groups, &allowed);
            assert_eq!(got, want, "{domains:?} {groups:?} {allowed:?}");
        }
    }

    #[test]
    fn shifts_cross_words() {
        let mut a = Sums::empty(200);
        a.insert(60);
        let mut up = Sums::empty(200);
        or_shifted_up(&mut up.words, &a.words, 70, 200);
        assert_eq!(up.iter().collect::<Vec<_>>(), vec![130]);
        let mut down = Sums::empty(200);
        or_shifted_down(&mut down.words, &up.words, 129);
        assert_eq!(down.iter().collect::<Vec<_>>(), vec![1]);
        let mut over = Sums::empty(200);
        or_shifted_up(&mut over.words, &up.words, 71, 200);
        assert!(over.is_empty());
    }
}
