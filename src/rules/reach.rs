//! Reachable sums: which totals a list of cells can add up to, and which candidates take part in some way of
//! reaching an allowed total.
//!
//! Sums whose cells may repeat a value (little-killer diagonals, arrows, the cells of a sandwich) are not
//! pruned well by bounds: `6 + ? = 10` with candidates {1, 3, 5, 7} keeps every candidate between the bounds.
//! A dynamic programme over sum sets keeps exactly the candidates that occur in some assignment adding up to
//! an allowed total (arc consistency for the sum, with the cells independent), in O(cells x values x
//! total / 64) word operations. Rows, columns and boxes that make some of the cells differ are left to their
//! own rules.

use crate::domains::bit_indices;

/// A set of totals 0..=max as a bit set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sums {
    words: Vec<u64>,
    max: usize,
}

impl Sums {
    pub(crate) fn empty(max: usize) -> Sums {
        Sums {
            words: vec![0; max / 64 + 1],
            max,
        }
    }

    /// The set holding the one total `s` (empty when `s` is beyond `max`).
    pub(crate) fn only(max: usize, s: usize) -> Sums {
        let mut out = Sums::empty(max);
        out.insert(s);
        out
    }

    pub(crate) fn insert(&mut self, s: usize) {
        if s <= self.max {
            self.words[s / 64] |= 1 << (s % 64);
        }
    }

    pub(crate) fn contains(&self, s: usize) -> bool {
        s <= self.max && self.words[s / 64] >> (s % 64) & 1 == 1
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Every total of the set, smallest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..=self.max).filter(|&s| self.contains(s))
    }

    /// `self ∪ (other + by)`, dropping totals beyond `max`.
    fn or_shifted_up(&mut self, other: &Sums, by: usize) {
        for i in by / 64..self.words.len() {
            self.words[i] |= other.word_shifted_up(i, by);
        }
        self.trim();
    }

    /// Word `i` of `self + by` (totals beyond the last word are not cut off here).
    fn word_shifted_up(&self, i: usize, by: usize) -> u64 {
        let (w, b) = (by / 64, by % 64);
        if i < w {
            return 0;
        }
        let lo = self.words.get(i - w).copied().unwrap_or(0);
        let carry = if b > 0 && i > w {
            self.words.get(i - w - 1).copied().unwrap_or(0) >> (64 - b)
        } else {
            0
        };
        (lo << b) | carry
    }

    /// `self ∪ (other - by)`, dropping totals below zero.
    fn or_shifted_down(&mut self, other: &Sums, by: usize) {
        let (w, b) = (by / 64, by % 64);
        for i in 0..self.words.len() {
            let lo = other.words.get(i + w).copied().unwrap_or(0);
            let carry = if b > 0 {
                other.words.get(i + w + 1).copied().unwrap_or(0) << (64 - b)
            } else {
                0
            };
            self.words[i] |= (lo >> b) | carry;
        }
    }

    /// Whether `(self + by) ∩ other` is non-empty: word by word, without building the shifted set (this runs
    /// once per candidate on every wake-up).
    fn meets_shifted(&self, by: usize, other: &Sums) -> bool {
        (by / 64..other.words.len()).any(|i| self.word_shifted_up(i, by) & other.words[i] != 0)
    }

    /// Keeps only totals also in `other`.
    pub(crate) fn and_assign(&mut self, other: &Sums) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    fn trim(&mut self) {
        let extra = 64 * self.words.len() - self.max - 1;
        if let Some(last) = self.words.last_mut() {
            *last &= u64::MAX >> extra;
        }
    }
}

/// The largest total the cells can reach: every cell at its largest candidate.
pub(crate) fn largest(domains: &[u64]) -> usize {
    domains
        .iter()
        .map(|&d| 64 - d.leading_zeros() as usize)
        .sum()
}

/// The dynamic programme [`supports`] and [`grouped_supports`] share, over `steps` steps where step i adds one of
/// `amounts(i)` (a cell's values, or a group's totals): `prefix[i]`, the totals the first i steps reach
/// (`prefix[0] = {0}`), and `need[i]`, the totals after i steps from which the rest can still finish on an allowed
/// total that some assignment reaches (`need[steps]` is those totals). `None` when no allowed total is reachable.
fn programme<F, I>(steps: usize, amounts: F, allowed: &Sums) -> Option<(Vec<Sums>, Vec<Sums>)>
where
    F: Fn(usize) -> I,
    I: Iterator<Item = usize>,
{
    let max = allowed.max;
    let mut prefix = vec![Sums::only(max, 0)];
    for i in 0..steps {
        let mut next = Sums::empty(max);
        for a in amounts(i) {
            next.or_shifted_up(&prefix[i], a);
        }
        prefix.push(next);
    }
    let mut reached = prefix[steps].clone();
    reached.and_assign(allowed);
    if reached.is_empty() {
        return None;
    }
    let mut need = vec![Sums::empty(max); steps + 1];
    need[steps] = reached;
    for i in (0..steps).rev() {
        let mut here = Sums::empty(max);
        for a in amounts(i) {
            here.or_shifted_down(&need[i + 1], a);
        }
        need[i] = here;
    }
    Some((prefix, need))
}

/// For the cells (their candidates as bit sets, bit v-1 = v) and the allowed totals: the candidates of each
/// cell that occur in some assignment whose total is allowed, and the allowed totals some assignment reaches.
/// `None` when no allowed total is reachable.
pub(crate) fn supports(domains: &[u64], allowed: &Sums) -> Option<(Vec<u64>, Sums)> {
    let values = |i: usize| bit_indices(domains[i]).map(|b| b + 1);
    let (prefix, mut need) = programme(domains.len(), values, allowed)?;
    let support = (0..domains.len())
        .map(|i| {
            values(i)
                .filter(|&v| prefix[i].meets_shifted(v, &need[i + 1]))
                .fold(0u64, |m, v| m | 1 << (v - 1))
        })
        .collect();
    let reached = need.pop().expect("one per step and one more");
    Some((support, reached))
}

/// The most cells in one group of [`grouped_supports`]: a group's assignments are enumerated.
pub(crate) const MAX_GROUP: usize = 4;

/// A group whose candidates allow more assignments than this is taken cell by cell for that call instead (sound,
/// only weaker): the enumeration stays within a few thousand steps.
const MAX_LEAVES: u64 = 1 << 13;

/// [`supports`] when some of the cells must differ. `groups` partitions the cell indices into groups of at most
/// [`MAX_GROUP`] cells that take distinct values (cells of one box on a little-killer diagonal); an assignment
/// counts only when it keeps every group's values distinct. Each group's assignments are enumerated once, grouped
/// by their total, and the same [`programme`] as [`supports`] runs over the groups' totals.
pub(crate) fn grouped_supports(
    domains: &[u64],
    groups: &[Vec<usize>],
    allowed: &Sums,
) -> Option<(Vec<u64>, Sums)> {
    let max = allowed.max;
    // A group too big to enumerate now is split into single cells (no distinctness assumed among them).
    let mut parts: Vec<&[usize]> = Vec::with_capacity(domains.len());
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
    let totals: Vec<Vec<(usize, [u64; MAX_GROUP])>> = parts
        .iter()
        .map(|g| group_totals(domains, g, max))
        .collect();
    let (prefix, mut need) =
        programme(parts.len(), |g| totals[g].iter().map(|&(s, _)| s), allowed)?;
    let mut support = vec![0u64; domains.len()];
    for (g, members) in parts.iter().enumerate() {
        for (s, masks) in &totals[g] {
            if prefix[g].meets_shifted(*s, &need[g + 1]) {
                for (k, &i) in members.iter().enumerate() {
                    support[i] |= masks[k];
                }
            }
        }
    }
    let reached = need.pop().expect("one per step and one more");
    Some((support, reached))
}

/// The totals (up to `max`) a group's distinct assignments reach, each with the values each member takes in some
/// assignment reaching it.
fn group_totals(domains: &[u64], members: &[usize], max: usize) -> Vec<(usize, [u64; MAX_GROUP])> {
    fn go(
        domains: &[u64],
        members: &[usize],
        at: usize,
        used: u64,
        total: usize,
        chosen: &mut [u64; MAX_GROUP],
        by_total: &mut [[u64; MAX_GROUP]],
    ) {
        if total >= by_total.len() {
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
    let mut by_total = vec![[0u64; MAX_GROUP]; max.min(largest) + 1];
    let mut chosen = [0u64; MAX_GROUP];
    go(domains, members, 0, 0, 0, &mut chosen, &mut by_total);
    by_total
        .into_iter()
        .enumerate()
        .filter(|(_, m)| m[0] != 0)
        .collect()
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
            let got = supports(&domains, &set).map(|(s, r)| (s, r.iter().collect::<Vec<_>>()));
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
                .map(|(s, r)| (s, r.iter().collect::<Vec<_>>()));
            let want = brute_grouped(&domains, &groups, &allowed);
            assert_eq!(got, want, "{domains:?} {groups:?} {allowed:?}");
        }
    }

    #[test]
    fn shifts_cross_words() {
        let mut a = Sums::empty(200);
        a.insert(60);
        let mut up = Sums::empty(200);
        up.or_shifted_up(&a, 70);
        assert_eq!(up.iter().collect::<Vec<_>>(), vec![130]);
        let mut down = Sums::empty(200);
        down.or_shifted_down(&up, 129);
        assert_eq!(down.iter().collect::<Vec<_>>(), vec![1]);
        let mut over = Sums::empty(200);
        over.or_shifted_up(&up, 71);
        assert!(over.is_empty());
    }
}
