//! The next step a person can follow, in words: on the givens and any cells already filled (`progress:`), the
//! simplest deduction there is, naming the cells and the rule.
//!
//! A person's pencil marks are the starting point: every value placed is struck from the other cells of each
//! group that holds 1..n once. Then, simplest first: a cell with one value left (naked single); a value with
//! one place left in a group (hidden single); one rule's own deduction (a cage, a room, a line, an inequality,
//! ...: whatever its propagator removes, named by the rule); pointing and claiming between two groups, or between
//! a group and a rule that must place a value where it meets the group ([`super::pointing`]); the subsets a
//! group's matching finds; fish between two families of groups ([`super::fish`]); a candidate whose
//! trial ends in a contradiction, with the steps that lead there ([`super::chain`]). Every step only removes
//! what no solution uses, so following the hints never loses the solution.

use std::cell::OnceCell;
use std::time::Instant;

pub use super::chain::Chain;
use super::pointing::{Meet, RulePointing};
use crate::domains::{Contradiction, Domains, Propagator};
use crate::error::Error;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::solve::engine::Engine;
use crate::solve::intersection::Intersection;

/// One step.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The cell, and the value placed there or struck from it.
    pub cell: Cell,
    pub value: u32,
    pub place: bool,
    /// `naked single`, `hidden single`, `rule`, `intersection`, `subset`, `fish`, `contradiction`.
    pub technique: &'static str,
    /// Why, in words (`7 has no other place in box 2`).
    pub reason: String,
    /// For a contradiction: what follows from trying the value, step by step, and where it breaks (`None` when
    /// the simple techniques do not reach the contradiction the solver's propagation finds).
    pub chain: Option<Chain>,
}

/// Which technique, and which group, rule or intersection of it, found a step: a chain asks it again whether the
/// step still follows once other steps are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    Naked,
    Hidden(usize),
    /// An index into the puzzle's rules (a rule's own deduction, or a full group's subsets).
    Rule(usize),
    Intersection(usize),
    /// An index into the puzzle's rules: a value the rule must place where it meets a full group
    /// ([`super::pointing`]).
    Pointing(usize),
    Fish(super::fish::Key),
}

impl Hint {
    pub(crate) fn apply(&self, d: &mut Domains) -> Result<(), Contradiction> {
        if self.place {
            d.assign(self.cell, self.value).map(|_| ())
        } else {
            d.remove(self.cell, self.value).map(|_| ())
        }
    }
}

/// Strikes every placed value from the rest of its groups (the pencil marks a person keeps without thinking).
pub(crate) fn marks(groups: &[(String, Vec<Cell>)], d: &mut Domains) -> Result<(), Contradiction> {
    loop {
        let mut changed = false;
        for (_, cells) in groups {
            for &c in cells {
                if let Some(v) = d.fixed(c) {
                    for &o in cells.iter().filter(|&&o| o != c) {
                        changed |= d.remove(o, v)?;
                    }
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// The first candidate `after` no longer has, as a hint: a placement when the cell is left with one value.
fn difference(
    before: &Domains,
    after: &Domains,
    technique: &'static str,
    why: &str,
) -> Option<Hint> {
    // Most propagations change nothing: one comparison of the tables spares the scans below.
    if before.same_candidates(after) {
        return None;
    }
    let n = before.size();
    let cells = (0..n * n).map(|i| Cell::new(i / n, i % n));
    // Prefer a placement.
    for cell in cells.clone() {
        if before.get(cell).count_ones() > 1 {
            if let Some(v) = after.fixed(cell) {
                return Some(Hint {
                    cell,
                    value: v,
                    place: true,
                    technique,
                    reason: why.to_owned(),
                    chain: None,
                });
            }
        }
    }
    for cell in cells {
        let gone = before.get(cell) & !after.get(cell);
        if gone != 0 {
            let value = gone.trailing_zeros() + 1;
            return Some(Hint {
                cell,
                value,
                place: false,
                technique,
                reason: why.to_owned(),
                chain: None,
            });
        }
    }
    None
}

/// The techniques of a step, built once for a puzzle: its full groups (named, with the index of each one's rule),
/// the intersections between them, and each rule's propagation.
pub(crate) struct Ladder<'a> {
    pub(crate) puzzle: &'a Puzzle,
    pub(crate) groups: Vec<(String, Vec<Cell>)>,
    /// The index in the puzzle's rules of each full group's rule, in the order of `groups`.
    group_rules: Vec<usize>,
    /// The groups that hold each cell (by index in `groups`), row by row.
    holding: Vec<Vec<usize>>,
    intersections: Vec<Intersection>,
    /// The full groups (indices into `groups`) in families that share no cell, for fish ([`super::fish`]).
    families: super::fish::Families,
    /// Per rule, the thorough propagation it offers once it knows which of its cells the grid keeps apart
    /// ([`Propagator::thorough`]: an arrow's cells in one box, as the solver uses them, or a product cage's
    /// listed assignments): a person sees the box too, and without it the steps would not reach the
    /// contradictions the solver's trials find.
    thorough: Vec<Option<Box<dyn Propagator>>>,
    /// Per rule but the full groups, the full groups it meets without holding them ([`super::pointing`]):
    /// worked out when a step first asks, since most steps are found before (80 ms on a 64x64 of outside clues).
    meets: OnceCell<Vec<Option<Vec<Meet>>>>,
}

impl<'a> Ladder<'a> {
    pub(crate) fn new(puzzle: &'a Puzzle) -> Ladder<'a> {
        let n = puzzle.size();
        let group_rules = (0..puzzle.rules().len())
            .filter(|&i| super::is_full_group(puzzle.rules()[i].as_ref(), n))
            .collect();
        let apart = puzzle.apart();
        let thorough = puzzle
            .rules()
            .iter()
            .map(|r| r.propagator().and_then(|p| p.thorough(&apart)))
            .collect();
        let groups = super::full_groups(puzzle);
        let mut holding = vec![Vec::new(); n * n];
        for (g, (_, cells)) in groups.iter().enumerate() {
            for c in cells {
                holding[c.row * n + c.col].push(g);
            }
        }
        let intersections = Intersection::derive(n, puzzle.rules());
        // An intersection names its groups by their place among the full groups, which are these, in this order.
        debug_assert!(intersections.iter().all(|i| {
            let (a, b) = i.groups;
            let has = |g: usize, cells: &[Cell]| cells.iter().all(|c| groups[g].1.contains(c));
            has(a, &i.first) && has(a, &i.both) && has(b, &i.both) && has(b, &i.second)
        }));
        Ladder {
            puzzle,
            families: super::fish::Families::new(&groups, n),
            groups,
            group_rules,
            holding,
            intersections,
            thorough,
            meets: OnceCell::new(),
        }
    }

    /// Rule `i`'s propagation, in its thorough form where it has one ([`Propagator::thorough`]).
    pub(crate) fn propagator(&self, i: usize) -> Option<&dyn Propagator> {
        self.thorough[i]
            .as_deref()
            .or_else(|| self.puzzle.rules()[i].propagator())
    }

    /// Rule `i`'s pointing against the full groups ([`super::pointing`]), on its thorough propagation; `None`
    /// for a full group, a rule without propagation, or one that meets no group with cells outside it.
    pub(crate) fn pointing(&self, i: usize) -> Option<RulePointing<'_>> {
        let meets = self.meets.get_or_init(|| {
            let meets = |i: usize| match self.group_of_rule(i) {
                Some(_) => None,
                None => super::pointing::meets(&self.propagator(i)?.watches(), &self.groups),
            };
            (0..self.puzzle.rules().len()).map(meets).collect()
        });
        Some(RulePointing::with(
            self.propagator(i)?,
            meets[i].as_deref()?,
        ))
    }

    /// The intersections between the full groups.
    #[cfg(test)]
    pub(crate) fn intersections(&self) -> &[Intersection] {
        &self.intersections
    }

    /// The families of groups that share no cell.
    #[cfg(test)]
    pub(crate) fn families(&self) -> &super::fish::Families {
        &self.families
    }

    /// The full groups that hold `cell`.
    pub(crate) fn holding(&self, cell: Cell) -> &[usize] {
        &self.holding[cell.row * self.puzzle.size() + cell.col]
    }

    /// Whether rule `i` is one of the full groups, and which.
    pub(crate) fn group_of_rule(&self, i: usize) -> Option<usize> {
        self.group_rules.iter().position(|&r| r == i)
    }

    /// The simplest next step beyond a naked single from domains `d` (pencil marks already applied); `None` when
    /// none of the techniques below a contradiction finds one. `broken` gets the first rule whose propagation
    /// fails on `d`, among those looked at (a chain's end; the hints' own grid has a solution, or the steps say
    /// there is none).
    pub(crate) fn next(
        &self,
        d: &Domains,
        late: &dyn Fn() -> bool,
        broken: &mut Option<usize>,
    ) -> Option<(Hint, Source)> {
        // A rule's propagation can take long on a large grid (a 64x64 sandwich line: a tenth of a second): past the
        // deadline nothing more is looked at, and the caller says the time ran out.
        self.hidden_single(d)
            .or_else(|| self.rule_step(d, late, broken))
            .or_else(|| self.intersection_step(d, late))
            .or_else(|| self.pointing_step(d, late))
            .or_else(|| (!late()).then(|| self.subset_step(d, broken)).flatten())
            .or_else(|| self.fish_step(d))
    }

    /// Whether step `h` still follows from `d` by the technique that found it.
    pub(crate) fn derives(&self, d: &Domains, h: &Hint, source: Source) -> bool {
        let holds = |after: &Domains| match h.place {
            true => after.fixed(h.cell) == Some(h.value),
            false => !after.contains(h.cell, h.value),
        };
        let by = |p: &dyn Propagator| {
            let mut after = d.clone();
            p.propagate(&mut after).is_ok() && holds(&after)
        };
        match source {
            Source::Naked => h.place && d.fixed(h.cell) == Some(h.value),
            Source::Hidden(g) => {
                let cells = &self.groups[g].1;
                h.place
                    && cells
                        .iter()
                        .filter(|&&c| d.contains(c, h.value))
                        .eq([&h.cell])
            }
            Source::Rule(i) => self.propagator(i).is_some_and(by),
            Source::Intersection(k) => by(&self.intersections[k]),
            Source::Pointing(i) => self.points(i, d, h),
            Source::Fish(key) => {
                !h.place
                    && self
                        .families
                        .again(d, &self.groups, key)
                        .is_some_and(|f| f.value == h.value && f.struck.contains(&h.cell))
            }
        }
    }

    /// A value with one place left in a group.
    fn hidden_single(&self, d: &Domains) -> Option<(Hint, Source)> {
        let n = self.puzzle.size() as u32;
        for (g, (label, cells)) in self.groups.iter().enumerate() {
            for v in 1..=n {
                let mut places = cells.iter().filter(|&&c| d.contains(c, v));
                if let (Some(&c), None) = (places.next(), places.next()) {
                    if d.get(c).count_ones() > 1 {
                        let hint = Hint {
                            cell: c,
                            value: v,
                            place: true,
                            technique: "hidden single",
                            reason: format!("{v} has no other place in {label}"),
                            chain: None,
                        };
                        return Some((hint, Source::Hidden(g)));
                    }
                }
            }
        }
        None
    }

    /// What one rule other than the full groups removes or places on its own.
    fn rule_step(
        &self,
        d: &Domains,
        late: &dyn Fn() -> bool,
        broken: &mut Option<usize>,
    ) -> Option<(Hint, Source)> {
        for (i, rule) in self.puzzle.rules().iter().enumerate() {
            if late() {
                return None;
            }
            if self.group_of_rule(i).is_some() {
                continue;
            }
            let Some(after) = self.settled(i, d, broken) else {
                continue;
            };
            if let Some(mut h) = difference(d, &after, "rule", "") {
                h.reason = match h.place {
                    true => format!("{} allows nothing else there", rule.label()),
                    false => format!("{} cannot use {} there", rule.label(), h.value),
                };
                return Some((h, Source::Rule(i)));
            }
        }
        None
    }

    /// `d` after rule `i`'s propagation; `None` for a rule without one, or (noted in `broken` when it is the
    /// first) one whose propagation fails.
    fn settled(&self, i: usize, d: &Domains, broken: &mut Option<usize>) -> Option<Domains> {
        let mut after = d.clone();
        if self.propagator(i)?.propagate(&mut after).is_err() {
            broken.get_or_insert(i);
            return None;
        }
        Some(after)
    }

    /// Pointing and claiming: two groups' overlap.
    fn intersection_step(&self, d: &Domains, late: &dyn Fn() -> bool) -> Option<(Hint, Source)> {
        for (k, i) in self.intersections.iter().enumerate() {
            if late() {
                return None;
            }
            let mut after = d.clone();
            if i.propagate(&mut after).is_ok() {
                if let Some(mut h) = difference(d, &after, "intersection", "") {
                    h.reason = self.intersection_reason(i, d, &after, &h);
                    return Some((h, Source::Intersection(k)));
                }
            }
        }
        None
    }

    /// A value a rule must place where it meets a full group, struck from the rest of the group: pointing with
    /// the rule in place of a box. One group at a time, so that the reason names the group that strikes it.
    fn pointing_step(&self, d: &Domains, late: &dyn Fn() -> bool) -> Option<(Hint, Source)> {
        for i in 0..self.puzzle.rules().len() {
            if late() {
                return None;
            }
            let Some((cell, v, g, places)) = self.pointing(i).and_then(|p| p.first(d, late)) else {
                continue;
            };
            // A cell left with one value is placed, as the other techniques place it.
            let left = d.get(cell) & !(1u64 << (v - 1));
            let (value, place) = match left.count_ones() {
                1 => (left.trailing_zeros() + 1, true),
                _ => (v, false),
            };
            let mut hint = Hint {
                cell,
                value,
                place,
                technique: "intersection",
                reason: String::new(),
                chain: None,
            };
            hint.reason = format!(
                "{} must place {v} in {}, {} {}, {}",
                self.puzzle.rules()[i].label(),
                joined(places.iter().map(Cell::to_string), "or"),
                within(places.len()),
                self.groups[g].0,
                outcome(&hint, v)
            );
            return Some((hint, Source::Pointing(i)));
        }
        None
    }

    /// Whether rule `i`'s pointing strikes `v` from `cell` on `d`, or, for a placement, the other value the cell
    /// has.
    fn points(&self, i: usize, d: &Domains, h: &Hint) -> bool {
        let Some(pointing) = self.pointing(i) else {
            return false;
        };
        let struck = match h.place {
            true => d.get(h.cell) & !(1u64 << (h.value - 1)),
            false => 1u64 << (h.value - 1),
        };
        struck.count_ones() == 1
            && d.get(h.cell) & struck != 0
            && pointing
                .why(d, h.cell, struck.trailing_zeros() + 1)
                .is_some()
    }

    /// A fish between two families of groups: the first cell it strikes its value from.
    fn fish_step(&self, d: &Domains) -> Option<(Hint, Source)> {
        let fish = self.families.find(d, &self.groups)?;
        let cell = *fish.struck.first()?;
        let v = fish.value;
        let reason = format!(
            "in {}, {v} can only go in {} ({}), so {cell} cannot be {v}",
            super::fish::named(&self.groups, &fish.base),
            super::fish::named(&self.groups, &fish.cover),
            super::fish::kind(fish.base.len()),
        );
        let hint = Hint {
            cell,
            value: v,
            place: false,
            technique: "fish",
            reason,
            chain: None,
        };
        Some((hint, Source::Fish(fish.key)))
    }

    /// Why intersection `i` takes the hint's candidate: in one of its groups, a value struck from the cell can
    /// only go where that group meets the other, which holds the cell.
    fn intersection_reason(
        &self,
        i: &Intersection,
        d: &Domains,
        after: &Domains,
        h: &Hint,
    ) -> String {
        let (a, b) = i.groups;
        let union = |cells: &[Cell]| cells.iter().fold(0u64, |m, &c| m | d.get(c));
        let struck = d.get(h.cell) & !after.get(h.cell);
        // The group that confines a struck value: the cell lies in the other one only.
        let (confining, holding, v) = crate::domains::bit_indices(struck)
            .map(|b| b as u32 + 1)
            .find_map(|v| {
                let bit = 1u64 << (v - 1);
                if i.second.contains(&h.cell) && union(&i.first) & bit == 0 {
                    Some((a, b, v))
                } else if i.first.contains(&h.cell) && union(&i.second) & bit == 0 {
                    Some((b, a, v))
                } else {
                    None
                }
            })
            .unwrap_or((a, b, h.value));
        let places: Vec<String> = i
            .both
            .iter()
            .filter(|&&c| d.contains(c, v))
            .map(Cell::to_string)
            .collect();
        let within = within(places.len());
        let outcome = outcome(h, v);
        format!(
            "in {}, {v} can only go in {}, {within} {}, {outcome}",
            self.groups[confining].0,
            joined(places, "or"),
            self.groups[holding].0
        )
    }

    /// A naked or hidden subset in a full group (its matching), named when it can be.
    fn subset_step(&self, d: &Domains, broken: &mut Option<usize>) -> Option<(Hint, Source)> {
        for (&i, (label, cells)) in self.group_rules.iter().zip(&self.groups) {
            let Some(after) = self.settled(i, d, broken) else {
                continue;
            };
            let why = format!("in {label}, some cells can only hold as many values as they are, which leaves this one out");
            if let Some(mut h) = difference(d, &after, "subset", &why) {
                let struck = d.get(h.cell) & !after.get(h.cell);
                if let Some(named) = subset_reason(label, cells, d, &h, struck) {
                    h.reason = named;
                }
                return Some((h, Source::Rule(i)));
            }
        }
        None
    }
}

/// How many candidates that fail on trial [`contradiction_step`] explains, keeping the shortest explanation.
const TRIALS: usize = 4;

/// How many it tries for one the simple techniques explain at all.
const MAX_TRIALS: usize = 32;

/// The most steps the chains of one [`contradiction_step`] may take between them, explained or not: a hint
/// comes at once, and `--all` takes at most several times as long as it would without chains.
const CHAIN_STEPS: usize = 640;

/// A candidate that, placed, leads propagation to a contradiction, with the steps that show it (the shortest of
/// the first few such candidates' chains).
fn contradiction_step(
    ladder: &Ladder<'_>,
    d: &Domains,
    known: &Grid,
    deadline: Option<Instant>,
    late: &dyn Fn() -> bool,
) -> Option<Hint> {
    let n = ladder.puzzle.size();
    let engine = Engine::with_intersections(ladder.puzzle);
    engine.set_deadline(deadline);
    let mut best: Option<Hint> = None;
    let mut tried = 0;
    let mut budget = CHAIN_STEPS;
    // Cells with fewest candidates first, as a person tries them: their trials reach further, so their chains
    // are the short ones.
    let mut cells: Vec<Cell> = (0..n * n)
        .map(|i| Cell::new(i / n, i % n))
        .filter(|&c| d.get(c).count_ones() >= 2)
        .collect();
    cells.sort_by_key(|&c| d.get(c).count_ones());
    for cell in cells {
        if late() {
            break;
        }
        for v in d.values(cell) {
            let mut trial = d.clone();
            if trial.assign(cell, v).is_ok() && engine.after(&mut trial, cell).is_ok() {
                continue;
            }
            let chain = super::chain::explain(ladder, d, known, (cell, v), &mut budget, late);
            let length = |c: &Option<Chain>| c.as_ref().map_or(usize::MAX, |c| c.steps.len());
            tried += 1;
            if best
                .as_ref()
                .is_none_or(|b| length(&chain) < length(&b.chain))
            {
                best = Some(Hint {
                    cell,
                    value: v,
                    place: false,
                    technique: "contradiction",
                    reason: format!("putting {v} in {cell} leads to a contradiction"),
                    chain,
                });
            }
            // A chain of a step or two is as short as a person needs; past a few trials, the best so far, once
            // one is explained at all.
            let explained = best.as_ref().is_some_and(|b| b.chain.is_some());
            if (tried >= TRIALS && explained)
                || tried >= MAX_TRIALS
                || budget == 0
                || length(&best.as_ref()?.chain) <= 2
            {
                return best;
            }
        }
    }
    best
}

/// The largest subset `subset_reason` looks for: the sizes people look for (pairs, triples, quads).
const MAX_SUBSET: usize = 4;

/// Names the subset of a group that strikes the values `struck` from the hint's cell: a naked subset (k other
/// cells whose candidates are k values, covering `struck`) or a hidden one (k values, none struck, whose only
/// places in the group are k cells including this one). The smallest found, up to [`MAX_SUBSET`]; `None` when
/// no single subset that small explains the step.
fn subset_reason(
    label: &str,
    cells: &[Cell],
    d: &Domains,
    hint: &Hint,
    struck: u64,
) -> Option<String> {
    let open: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|&c| d.get(c).count_ones() > 1)
        .collect();
    let values = open.iter().fold(0u64, |m, &c| m | d.get(c));
    let value_list = |mask: u64| joined(values_of(mask), "and");
    let outcome = outcome(hint, hint.value);
    for k in 2..=MAX_SUBSET.min(open.len().saturating_sub(1)) {
        // Naked: k cells other than this one, holding k values between them, the struck ones among them.
        let others: Vec<Cell> = open.iter().copied().filter(|&c| c != hint.cell).collect();
        if let Some(set) = subsets(others.len(), k).find(|set| {
            let union = set.iter().fold(0u64, |m, &i| m | d.get(others[i]));
            union.count_ones() as usize == k && union & struck == struck
        }) {
            let union = set.iter().fold(0u64, |m, &i| m | d.get(others[i]));
            let names = joined(set.iter().map(|&i| others[i].to_string()), "and");
            return Some(format!(
                "in {label}, {names} can only hold {}, one each, {outcome}",
                value_list(union)
            ));
        }
        // Hidden: k values, none struck, whose places in the group are exactly k cells, this one among them.
        let candidates: Vec<u32> = crate::domains::bit_indices(values & !struck)
            .map(|b| b as u32 + 1)
            .collect();
        let places =
            |v: u32| -> Vec<Cell> { open.iter().copied().filter(|&c| d.contains(c, v)).collect() };
        if let Some(set) = subsets(candidates.len(), k).find(|set| {
            let mut at: Vec<Cell> = set.iter().flat_map(|&i| places(candidates[i])).collect();
            at.sort_unstable();
            at.dedup();
            at.len() == k && at.contains(&hint.cell)
        }) {
            let mask = set.iter().fold(0u64, |m, &i| m | 1 << (candidates[i] - 1));
            let mut at: Vec<Cell> = set.iter().flat_map(|&i| places(candidates[i])).collect();
            at.sort_unstable();
            at.dedup();
            let names = joined(at.iter().map(Cell::to_string), "and");
            return Some(format!(
                "in {label}, {} can only go in {names}, {outcome}",
                value_list(mask)
            ));
        }
    }
    None
}

/// Items in words, the last joined by `word`: `a, b and c`, `a, b or c`.
pub(crate) fn joined(items: impl IntoIterator<Item = String>, word: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {word} {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// How a step that strikes `v` from its cell ends in words: what the cell is left with when the step places it.
fn outcome(h: &Hint, v: u32) -> String {
    match h.place {
        true => format!("which leaves {} only {}", h.cell, h.value),
        false => format!("so {} cannot be {v}", h.cell),
    }
}

/// How `k` places lie in a group: `in`, `both in`, `all in`.
fn within(k: usize) -> &'static str {
    match k {
        1 => "in",
        2 => "both in",
        _ => "all in",
    }
}

/// The values of a candidate mask, ascending, as numbers in words.
pub(crate) fn values_of(mask: u64) -> impl Iterator<Item = String> {
    crate::domains::bit_indices(mask).map(|b| (b + 1).to_string())
}

/// Every set of `k` indices from `0..n`, ascending.
pub(crate) fn subsets(n: usize, k: usize) -> impl Iterator<Item = Vec<usize>> {
    let mut next = (k <= n).then(|| (0..k).collect::<Vec<usize>>());
    std::iter::from_fn(move || {
        let current = next.take()?;
        // The next combination: raise the rightmost index that can still move, reset the ones after it.
        let mut c = current.clone();
        if let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            next = Some(c);
        }
        Some(current)
    })
}

/// The steps found, whether the deadline stopped the work, and whether they ended in a contradiction.
#[derive(Clone, Debug)]
pub struct Hints {
    pub steps: Vec<Hint>,
    /// Per step, the technique's group, rule or intersection (`None` for naked singles and failed trials), so
    /// that strikes of one deduction can be told together ([`deduction_run`]).
    pub(crate) sources: Vec<Option<Source>>,
    pub timed_out: bool,
    /// The givens and filled cells, with the steps before it, leave a cell or a group no value, or (`left` is 0)
    /// search finds no solution from where the steps stopped: the grid as filled has no solution (a person's
    /// wrong value, or a puzzle without one).
    pub no_solution: bool,
    /// Where the steps stopped short of a full grid: the solutions from there, counted to 2 (1: search alone
    /// finishes it; 2: no deduction can, the grid has several answers). `None` when not counted (a step was
    /// found, the grid is full, or the time ran out before the count ended: then only "search" is known).
    pub left: Option<usize>,
}

/// The steps from the givens plus `progress` (0 = empty): the next deduction (its first step, and the strikes of
/// the same deduction that follow it: [`deduction_run`]), or (`all`) every step until the grid is full, no
/// technique applies, or `deadline` passes. A step places a value or strikes one.
pub fn hints(
    puzzle: &Puzzle,
    progress: Option<&Grid>,
    all: bool,
    deadline: Option<Instant>,
) -> Result<Hints, Error> {
    let n = puzzle.size();
    if n > Domains::MAX_SIZE {
        return Err(Error::section(
            "hint",
            format!("explains grids up to {0}x{0}", Domains::MAX_SIZE),
        ));
    }
    let ladder = Ladder::new(puzzle);
    let groups = &ladder.groups;
    let mut d = Domains::full(n);
    let mut known = puzzle.givens().clone();
    let mut out = Vec::new();
    let mut sources: Vec<Option<Source>> = Vec::new();
    let late = || deadline.is_some_and(|t| Instant::now() >= t);
    let ended = |steps: Vec<Hint>, sources: Vec<Option<Source>>, no_solution: bool| Hints {
        steps,
        sources,
        timed_out: !no_solution && late(),
        no_solution,
        left: None,
    };
    let start = puzzle
        .givens()
        .filled()
        .chain(progress.into_iter().flat_map(|p| p.filled()))
        .try_for_each(|(cell, v)| {
            known.set(cell, v);
            d.assign(cell, v).map(|_| ())
        });
    if start.and_then(|()| marks(groups, &mut d)).is_err() {
        return Ok(ended(out, sources, true));
    }
    while !late() {
        // Just the next step: it goes on only with more strikes of the same deduction (a person's step strikes
        // the X-wing's value from all its cells at once), and never to a trial.
        let grouping = !all && !out.is_empty();
        // Naked singles count only where the person has not written the value yet.
        // A rule that fails here is left to the steps: one of them then empties a cell or a group.
        let found = naked(&d, &known)
            .map(|h| (h, None))
            .or_else(|| {
                let (h, s) = ladder.next(&d, &late, &mut None)?;
                Some((h, Some(s)))
            })
            .or_else(|| match grouping {
                true => None,
                false => Some((
                    contradiction_step(&ladder, &d, &known, deadline, &late)?,
                    None,
                )),
            });
        if grouping {
            let mut run: Vec<(&Hint, Option<Source>)> =
                out.iter().zip(sources.iter().copied()).collect();
            let continues = found.as_ref().is_some_and(|(h, s)| {
                run.push((h, *s));
                deduction_run(&run) == run.len()
            });
            if !continues {
                break;
            }
        }
        let Some((hint, source)) = found else {
            if late() {
                // The techniques were cut off, not exhausted.
                break;
            }
            // The steps are all there are; a count the clock cuts short only leaves out what it would add.
            let left = count_left(puzzle, &known, deadline)?;
            return Ok(Hints {
                steps: out,
                sources,
                timed_out: false,
                no_solution: left == Some(0),
                left,
            });
        };
        // Every step is sound, so one that empties a cell or a group shows there is no solution.
        let applied = hint.apply(&mut d).and_then(|()| marks(groups, &mut d));
        if hint.place {
            known.set(hint.cell, hint.value);
        }
        out.push(hint);
        sources.push(source);
        if applied.is_err() {
            return Ok(ended(out, sources, true));
        }
        if known.cells().all(|c| known.get(c) != 0) {
            break;
        }
    }
    Ok(ended(out, sources, false))
}

/// How a strike's reason ends with its own cell and value, so that strikes of one deduction can share it.
pub(crate) enum Tail {
    /// `..., so r6c1 cannot be 8` (intersections, subsets, fish): the words before `so`.
    So(String),
    /// `... cannot use 8 there` (a rule's own deduction): the words before `cannot`.
    There(String),
}

/// The reason of strike `h` without its cell and value, and which form it ends in; `None` for a placement or
/// another form.
pub(crate) fn tail(h: &Hint) -> Option<Tail> {
    if h.place {
        return None;
    }
    let so = format!("so {} cannot be {}", h.cell, h.value);
    let there = format!("cannot use {} there", h.value);
    if let Some(prefix) = h.reason.strip_suffix(&so) {
        Some(Tail::So(prefix.to_owned()))
    } else {
        h.reason
            .strip_suffix(&there)
            .map(|prefix| Tail::There(prefix.to_owned()))
    }
}

/// How many of `steps`, from the first, are strikes of one deduction (one source, the same words but for the
/// cell or value) all on one cell or all of one value: the steps a person takes as one. At least 1.
pub(crate) fn deduction_run(steps: &[(&Hint, Option<Source>)]) -> usize {
    let Some(&(first, source)) = steps.first() else {
        return 0;
    };
    let words = |h: &Hint| match tail(h) {
        Some(Tail::So(w)) => Some((true, w)),
        Some(Tail::There(w)) => Some((false, w)),
        None => None,
    };
    let Some(own) = words(first).filter(|_| source.is_some()) else {
        return 1;
    };
    let mut k = 1;
    while k < steps.len() {
        let (h, s) = steps[k];
        let one_cell = steps[..=k].iter().all(|x| x.0.cell == first.cell);
        let one_value = steps[..=k].iter().all(|x| x.0.value == first.value);
        if s != source || words(h).as_ref() != Some(&own) || !(one_cell || one_value) {
            break;
        }
        k += 1;
    }
    k
}

/// The longest the count of what is left may take: it only adds to the answer (a grid with several solutions, or
/// a wrong value search finds), and a hint should come at once; a little killer with no givens takes 4 s.
const COUNT_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The solutions of the puzzle with `known` filled in, counted to 2 within what is left of the time and at most
/// [`COUNT_LIMIT`]; `None` when the clock stopped the count.
fn count_left(
    puzzle: &Puzzle,
    known: &Grid,
    deadline: Option<Instant>,
) -> Result<Option<usize>, Error> {
    let mut from_here = puzzle.clone();
    // The known values passed the steps' propagation, which checks every rule; a grid refused here breaks one.
    if from_here.give_all(known).is_err() {
        return Ok(Some(0));
    }
    let Some(mut options) = super::before(&Default::default(), deadline, 2) else {
        return Ok(None);
    };
    options.time_limit = Some(
        options
            .time_limit
            .map_or(COUNT_LIMIT, |t| t.min(COUNT_LIMIT)),
    );
    super::count_to_two(&from_here, &options)
}

/// A cell the person has not filled, left with one value.
pub(crate) fn naked(d: &Domains, known: &Grid) -> Option<Hint> {
    known
        .cells()
        .filter(|&c| known.get(c) == 0)
        .find_map(|cell| {
            let v = d.fixed(cell)?;
            Some(Hint {
                cell,
                value: v,
                place: true,
                technique: "naked single",
                reason: format!("{v} is the only value left for {cell}"),
                chain: None,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;
    use crate::solve::SolveOptions;

    #[test]
    fn hints_are_sound_and_reach_the_solution_without_search() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        for name in [
            "sudoku/clue-list-9x9.yaml",
            "killer/killer-6x6.yaml",
            "kenken/kenken-6x6.yaml",
            "futoshiki/futoshiki-7x7.yaml",
            "inshi/nikoli-5x5.yaml",
        ] {
            let p = crate::model::load(&root.join(name), &Registry::built_in()).unwrap();
            let solution = crate::solve(&p, &SolveOptions::default())
                .unwrap()
                .solutions[0]
                .clone();
            let steps = hints(&p, None, true, None).unwrap().steps;
            for h in &steps {
                // Sound: a placement is the solution's value, a strike never is.
                assert_eq!(h.place, solution.get(h.cell) == h.value, "{name}: {h:?}");
            }
            let placed: Vec<_> = steps.iter().filter(|h| h.place).collect();
            let open = p
                .givens()
                .cells()
                .filter(|&c| p.givens().get(c) == 0)
                .count();
            assert_eq!(placed.len(), open, "{name}: the hints fill every open cell");
        }
    }

    /// Pointing and claiming name the group that confines the value, its places, and the group they share.
    #[test]
    fn an_intersection_names_both_groups_and_the_places() {
        let p = Puzzle::sudoku(9).unwrap();
        let ladder = Ladder::new(&p);
        let never = || false;
        // Pointing: in box 1, 5 can only go in r1c1 and r1c2, so row 1 has no 5 outside the box.
        let mut d = Domains::full(9);
        for (r, c) in [(0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)] {
            d.remove(Cell::new(r, c), 5).unwrap();
        }
        let (h, _) = ladder.intersection_step(&d, &never).unwrap();
        assert_eq!((h.cell, h.value, h.place), (Cell::new(0, 3), 5, false));
        assert_eq!(
            h.reason,
            "in box 1, 5 can only go in r1c1 or r1c2, both in row 1, so r1c4 cannot be 5"
        );
        // Claiming: in row 1, 7 can only go in the box's three cells, so the rest of box 1 has no 7; r2c1 had
        // only 3 and 7 left, and is left with 3.
        let mut d = Domains::full(9);
        for c in 3..9 {
            d.remove(Cell::new(0, c), 7).unwrap();
        }
        d.restrict(Cell::new(1, 0), 0b100_0100).unwrap();
        let (h, _) = ladder.intersection_step(&d, &never).unwrap();
        assert_eq!((h.cell, h.value, h.place), (Cell::new(1, 0), 3, true));
        assert_eq!(
            h.reason,
            "in row 1, 7 can only go in r1c1, r1c2 or r1c3, all in box 1, which leaves r2c1 only 3"
        );
    }

    /// A puzzle Simon Tatham's generator grades Hard (`sgt-keen --generate 1 6dh`): its `36*` cage holds four
    /// cells of column 6, which differ, so they hold 1, 2, 3 and 6 and the column's other cells no 1. The steps
    /// name the cage, the value, its places and the column, and need no subset; with the pencil marks of a
    /// cell left with 1 and 4 the same step places the 4.
    #[test]
    fn a_cage_that_must_place_a_value_in_a_column_strikes_it_from_the_rest() {
        let p = crate::model::load_str(
            "type: kenken\nsize: 6\ncages: |\n  a b b b c c\n  a a d d e e\n  a f g d h i\n  j f g k h i\n  \
             j l m k n i\n  j l m m n i\nhints:\n  a: 12*\n  b: 9+\n  c: 2-\n  d: 48*\n  e: 6+\n  f: 2-\n  \
             g: 4-\n  h: 6*\n  i: 36*\n  j: 15+\n  k: 3-\n  l: 8+\n  m: 36*\n  n: 1-\n",
            &Registry::built_in(),
        )
        .unwrap();
        let steps = hints(&p, None, true, None).unwrap().steps;
        let why =
            "hints.i (product 36) must place 1 in r3c6, r4c6, r5c6 or r6c6, all in column 6, so";
        let pointed: Vec<&Hint> = steps.iter().filter(|h| h.reason.starts_with(why)).collect();
        assert!(!pointed.is_empty(), "{steps:#?}");
        assert!(pointed
            .iter()
            .all(|h| (h.technique, h.value, h.place) == ("intersection", 1, false)));
        assert!(pointed.iter().any(|h| h.cell == Cell::new(0, 5)));
        let techniques: Vec<&str> = steps.iter().map(|h| h.technique).collect();
        assert!(
            !techniques.contains(&"subset") && !techniques.contains(&"contradiction"),
            "{techniques:?}"
        );
        // The placement: r1c6 left with 1 and 4 keeps the 4. (The `12*` cage, three of whose cells are in
        // column 1, must place a 1 there too: the rest of column 1 is left without one, so that step is done.)
        let ladder = Ladder::new(&p);
        let mut d = Domains::full(6);
        d.restrict(Cell::new(0, 5), 0b1001).unwrap();
        for r in 3..6 {
            d.remove(Cell::new(r, 0), 1).unwrap();
        }
        let (h, source) = ladder.pointing_step(&d, &|| false).unwrap();
        assert_eq!(
            (h.cell, h.value, h.place),
            (Cell::new(0, 5), 4, true),
            "{h:?}"
        );
        assert_eq!(
            h.reason,
            "hints.i (product 36) must place 1 in r3c6, r4c6, r5c6 or r6c6, all in column 6, which leaves r1c6 only 4"
        );
        assert!(ladder.derives(&d, &h, source));
        // The cage must place 2 in the column too, but r1c6 has no 2 to strike: no such step follows.
        let other = Hint {
            value: 2,
            place: false,
            ..h.clone()
        };
        assert!(!ladder.derives(&d, &other, source));
    }
}

#[cfg(test)]
mod subset_tests {
    use super::*;

    #[test]
    fn subsets_are_every_combination_once() {
        let all: Vec<Vec<usize>> = subsets(5, 3).collect();
        assert_eq!(all.len(), 10);
        assert_eq!(all[0], vec![0, 1, 2]);
        assert_eq!(all[9], vec![2, 3, 4]);
        assert_eq!(subsets(3, 4).count(), 0);
    }

    /// Row 1 of a 9x9 with candidates set by hand: the reason names the subset's cells and values.
    fn row_reason(
        row: &[u64],
        cell: usize,
        value: u32,
        place: bool,
        struck: u64,
    ) -> Option<String> {
        let cells: Vec<Cell> = (0..9).map(|c| Cell::new(0, c)).collect();
        let mut d = Domains::full(9);
        for (&c, &m) in cells.iter().zip(row) {
            d.restrict(c, m).unwrap();
        }
        let hint = Hint {
            cell: cells[cell],
            value,
            place,
            technique: "subset",
            reason: String::new(),
            chain: None,
        };
        subset_reason("row 1", &cells, &d, &hint, struck)
    }

    #[test]
    fn a_naked_pair_and_a_hidden_pair_are_named() {
        let all = 0x1ff;
        // r1c1 and r1c2 hold only 1 and 2: r1c3 (1, 2 or 3) cannot be 1.
        let naked = row_reason(
            &[0b11, 0b11, 0b111, all, all, all, all, all, all],
            2,
            1,
            false,
            0b11,
        );
        assert_eq!(
            naked.as_deref(),
            Some("in row 1, r1c1 and r1c2 can only hold 1 and 2, one each, so r1c3 cannot be 1")
        );
        // 8 and 9 can only go in r1c1 and r1c2: r1c1 cannot be 1.
        let no_89 = 0x1ff & !(0b11 << 7);
        let mut row = [no_89; 9];
        row[0] = all;
        row[1] = all;
        let hidden = row_reason(&row, 0, 1, false, 0x7f);
        assert_eq!(
            hidden.as_deref(),
            Some("in row 1, 8 and 9 can only go in r1c1 and r1c2, so r1c1 cannot be 1")
        );
        // Nothing this small explains striking 5 from a full row.
        assert_eq!(row_reason(&[all; 9], 0, 5, false, 1 << 4), None);
    }
}
