//! A relation between the values of two cells: Futoshiki `<` and thermometers, consecutive marks,
//! non-consecutive neighbours, anti-knight and anti-king (`!=`), palindromes (`=`), whispers (apart by at
//! least k), kropki dots (difference 1, ratio 2, or a numbered dot's own number) and XV marks (sum 10, sum 5),
//! and the negative rule of marks (an unmarked pair satisfies none of the marked relations).
//!
//! # Encoding
//! Support rows: for every value u of cell a, `x[a][u] <= sum_{v : R(u, v)} x[b][v]`, and the same from b's
//! side. Exact: if a holds u, b must hold a value compatible with u; a value with no compatible partner is
//! fixed to 0. For `!=` the two directions coincide and reduce to `x[a][u] + x[b][u] <= 1`. Support rows are
//! stronger than a single `value(a) + 1 <= value(b)` row: they cut off fractional points that the latter allows.

use std::sync::{Arc, OnceLock};

use super::Rule;
use crate::domains::{all_values, bit, Contradiction, Cost, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RelationKind {
    /// a < b
    Less,
    /// a <= b (a slow thermometer's step)
    AtMost,
    /// |a - b| = 1
    Consecutive,
    /// |a - b| != 1
    NotConsecutive,
    /// a != b
    Different,
    /// a = b
    Equal,
    /// |a - b| >= k
    Apart(u32),
    /// |a - b| = k
    Difference(u32),
    /// the larger is k times the smaller
    Ratio(u32),
    /// a + b = k
    SumTo(u32),
    /// none of the listed relations holds
    NoneOf(Arc<[RelationKind]>),
}

impl RelationKind {
    /// The same relation with the number k in place of its own (a numbered kropki dot: `Difference(1)` with 3
    /// is `Difference(3)`); `None` for a relation that has no number.
    pub(crate) fn numbered(&self, k: u32) -> Option<RelationKind> {
        match self {
            RelationKind::Apart(_) => Some(RelationKind::Apart(k)),
            RelationKind::Difference(_) => Some(RelationKind::Difference(k)),
            RelationKind::Ratio(_) => Some(RelationKind::Ratio(k)),
            RelationKind::SumTo(_) => Some(RelationKind::SumTo(k)),
            _ => None,
        }
    }

    pub(crate) fn holds(&self, a: u32, b: u32) -> bool {
        match self {
            RelationKind::Less => a < b,
            RelationKind::AtMost => a <= b,
            RelationKind::Consecutive => a.abs_diff(b) == 1,
            RelationKind::NotConsecutive => a.abs_diff(b) != 1,
            RelationKind::Different => a != b,
            RelationKind::Equal => a == b,
            RelationKind::Apart(k) => a.abs_diff(b) >= *k,
            RelationKind::Difference(k) => a.abs_diff(b) == *k,
            RelationKind::Ratio(k) => a.max(b) == a.min(b).saturating_mul(*k),
            RelationKind::SumTo(k) => a + b == *k,
            RelationKind::NoneOf(kinds) => !kinds.iter().any(|r| r.holds(a, b)),
        }
    }

    /// The values v in 1..=n with `holds(u, v)`, as a mask (bit v - 1), in a few operations: propagation asks
    /// it for every candidate at every wake-up, and the engine's paths for every value of every relation.
    pub(crate) fn partners(&self, u: u32, n: u32) -> u64 {
        let all = all_values(n as usize);
        // Bit of value v, when v is in 1..=n.
        let one = |v: Option<u32>| v.filter(|v| (1..=n).contains(v)).map_or(0, bit);
        // Values 1..=v.
        let upto = |v: u32| all_values(v.min(n) as usize);
        match self {
            RelationKind::Less => all & !upto(u),
            RelationKind::AtMost => all & !upto(u - 1),
            RelationKind::Consecutive => one(u.checked_sub(1)) | one(Some(u + 1)),
            RelationKind::NotConsecutive => all & !(one(u.checked_sub(1)) | one(Some(u + 1))),
            RelationKind::Different => all & !one(Some(u)),
            RelationKind::Equal => one(Some(u)),
            RelationKind::Apart(k) => {
                let low = u.checked_sub(*k).map_or(0, upto);
                let high = all & !upto((u + k).saturating_sub(1));
                low | high
            }
            RelationKind::Difference(k) => one(u.checked_sub(*k)) | one(u.checked_add(*k)),
            RelationKind::Ratio(k) => {
                let down = (*k != 0 && u % k == 0).then(|| u / k);
                one(u.checked_mul(*k)) | one(down)
            }
            RelationKind::SumTo(k) => one(k.checked_sub(u)),
            RelationKind::NoneOf(kinds) => all & !kinds.iter().fold(0, |m, r| m | r.partners(u, n)),
        }
    }

    /// For the kinds whose partners of a set of values are those of its smallest and largest (whispers'
    /// `Apart`, `Less`): the values of `a` and of `b` that some value of the other supports, from two look-ups
    /// instead of one per candidate; `None` for the other kinds. Both sets must be non-empty.
    fn supports_by_ends(&self, a: u64, b: u64, n: u32) -> Option<(u64, u64)> {
        let ends = |m: u64| (m.trailing_zeros() + 1, 64 - m.leading_zeros());
        let ((a_min, a_max), (b_min, b_max)) = (ends(a), ends(b));
        match self {
            // Symmetric: a value has a partner far enough on one side or the other.
            RelationKind::Apart(_) => Some((
                a & (self.partners(b_min, n) | self.partners(b_max, n)),
                b & (self.partners(a_min, n) | self.partners(a_max, n)),
            )),
            // a below b's largest, b above a's smallest.
            RelationKind::Less => Some((
                a & all_values(b_max as usize - 1),
                b & self.partners(a_min, n),
            )),
            _ => None,
        }
    }

    /// [`Self::partners`] of every value 1..=n, in order.
    pub(crate) fn table(&self, n: u32) -> Vec<u64> {
        (1..=n).map(|u| self.partners(u, n)).collect()
    }

    fn symbol(&self) -> String {
        match self {
            RelationKind::Less => "<".into(),
            RelationKind::AtMost => "<=".into(),
            RelationKind::Consecutive => "differs by 1 from".into(),
            RelationKind::NotConsecutive => "must not differ by 1 from".into(),
            RelationKind::Different => "!=".into(),
            RelationKind::Equal => "=".into(),
            RelationKind::Apart(k) => format!("differs by at least {k} from"),
            RelationKind::Difference(k) => format!("differs by {k} from"),
            RelationKind::Ratio(k) => format!("is {k} times or 1/{k} of"),
            RelationKind::SumTo(k) => format!("adds up to {k} with"),
            RelationKind::NoneOf(kinds) => {
                let all: Vec<String> = kinds.iter().map(RelationKind::symbol).collect();
                format!("is unmarked, so none of ({}),", all.join("; "))
            }
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Relation {
    pub(crate) a: Cell,
    pub(crate) b: Cell,
    pub(crate) kind: RelationKind,
    /// What the relation comes from, e.g. `less` or `anti-knight`.
    pub(crate) source: String,
    /// For the negative rule of kropki and XV ([`RelationKind::NoneOf`]), per value u (index u - 1), its
    /// partners ([`RelationKind::partners`]) on grids up to 16x16: made at the first propagation, which looks
    /// one up for every candidate (a fold over the listed kinds each time).
    table: OnceLock<Box<[u64]>>,
}

impl Relation {
    pub(crate) fn new(a: Cell, b: Cell, kind: RelationKind, source: impl Into<String>) -> Self {
        Relation {
            a,
            b,
            kind,
            source: source.into(),
            table: OnceLock::new(),
        }
    }
}

impl Rule for Relation {
    fn label(&self) -> String {
        format!(
            "{}: {} {} {}",
            self.source,
            self.a,
            self.kind.symbol(),
            self.b
        )
    }

    fn cells(&self) -> Vec<Cell> {
        vec![self.a, self.b]
    }

    fn encode(&self, c: &mut Compiler) {
        let n = c.size() as u32;
        if self.kind == RelationKind::Different {
            for v in 1..=n {
                c.at_most(vec![(c.x(self.a, v), 1.0), (c.x(self.b, v), 1.0)], 1.0);
            }
            return;
        }
        for (from, to, forward) in [(self.a, self.b, true), (self.b, self.a, false)] {
            for u in 1..=n {
                let ok = |v: u32| {
                    if forward {
                        self.kind.holds(u, v)
                    } else {
                        self.kind.holds(v, u)
                    }
                };
                let support: Vec<u32> = (1..=n).filter(|&v| ok(v) && c.allowed(to, v)).collect();
                if support.is_empty() {
                    c.forbid(from, u);
                    continue;
                }
                if support.len() == n as usize {
                    continue;
                }
                let mut terms: Vec<(usize, f64)> =
                    support.iter().map(|&v| (c.x(to, v), -1.0)).collect();
                terms.push((c.x(from, u), 1.0));
                c.at_most(terms, 0.0);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let (a, b) = (grid.get(self.a), grid.get(self.b));
        if self.kind.holds(a, b) {
            Ok(())
        } else {
            Err(Violation::Relation {
                rule: self.label(),
                a: self.a,
                a_value: a,
                b: self.b,
                b_value: b,
            })
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Relation {
    fn watches(&self) -> Vec<Cell> {
        Rule::cells(self)
    }

    /// Two cells: a run is a few operations per candidate of one of them.
    fn cost(&self) -> Cost {
        Cost::Constant
    }

    fn pairs(&self, size: usize) -> Option<(Cell, Cell, Vec<u64>)> {
        Some((self.a, self.b, self.kind.table(size as u32)))
    }

    /// Arc consistency on two cells in one run: each value kept on a has a partner kept on b (the partner
    /// supports it back), so its own prunings leave nothing to do.
    fn idempotent(&self) -> bool {
        true
    }

    /// Keeps the values of each cell that some value of the other supports.
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let n = d.size() as u32;
        let db = d.get(self.b);
        if let Some((a, b)) = self.kind.supports_by_ends(d.get(self.a), db, n) {
            let changed = d.restrict(self.a, a)?;
            return Ok(d.restrict(self.b, b)? || changed);
        }
        // A table only where working a partner set out is a loop (the negative rule's list of kinds), and up to
        // 16 values (128 bytes at most: a 64x64 with a relation on every pair of neighbours keeps none). The
        // other kinds are a few operations, and a table would cost more than it saves on the many puzzles that
        // presolve decides in a few propagations (consecutive 1.03-1.05x with every kind tabled).
        let tabled = matches!(self.kind, RelationKind::NoneOf(_)) && n <= 16;
        let table = self.table.get_or_init(|| match tabled {
            true => self.kind.table(n).into(),
            false => Box::default(),
        });
        let mut a = 0;
        let mut b = 0;
        for u in d.values(self.a) {
            // No table (the other kinds, grids past 16): worked out here.
            let on_b = match table.len() == n as usize {
                true => table[u as usize - 1],
                false => self.kind.partners(u, n),
            } & db;
            if on_b != 0 {
                a |= bit(u);
                b |= on_b;
            }
        }
        let changed = d.restrict(self.a, a)?;
        Ok(d.restrict(self.b, b)? || changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the values of each cell that some value of the other cell supports.
    fn brute(kind: &RelationKind, a: u64, b: u64, n: u32) -> Option<(u64, u64)> {
        let (mut ka, mut kb) = (0, 0);
        for u in 1..=n {
            for v in 1..=n {
                if a >> (u - 1) & 1 == 1 && b >> (v - 1) & 1 == 1 && kind.holds(u, v) {
                    ka |= 1 << (u - 1);
                    kb |= 1 << (v - 1);
                }
            }
        }
        (ka != 0 && kb != 0).then_some((ka, kb))
    }

    #[test]
    fn propagation_equals_brute_force_for_every_kind() {
        let mut rng = fastrand::Rng::with_seed(7);
        for kind in kinds() {
            for n in [4, 9, 16] {
                for _ in 0..400 {
                    let kind = kind.clone();
                    let (a, b) = (rng.u64(1..1 << n), rng.u64(1..1 << n));
                    let rel = Relation::new(Cell::new(0, 0), Cell::new(0, 1), kind, "test");
                    let mut d = Domains::full(n as usize);
                    d.restrict(rel.a, a).unwrap();
                    d.restrict(rel.b, b).unwrap();
                    let got = rel
                        .propagate(&mut d)
                        .ok()
                        .map(|_| (d.get(rel.a), d.get(rel.b)));
                    let want = brute(&rel.kind, a, b, n);
                    assert_eq!(got, want, "{:?} n={n} {a:b} {b:b}", rel.kind);
                    // Idempotent, as it claims: a second run finds nothing more.
                    if got.is_some() {
                        assert!(rel.idempotent());
                        assert_eq!(
                            rel.propagate(&mut d),
                            Ok(false),
                            "{:?} {a:b} {b:b}",
                            rel.kind
                        );
                    }
                }
            }
        }
    }

    /// Every kind with small and edge parameters.
    fn kinds() -> Vec<RelationKind> {
        let mut kinds = vec![
            RelationKind::Less,
            RelationKind::AtMost,
            RelationKind::Consecutive,
            RelationKind::NotConsecutive,
            RelationKind::Different,
            RelationKind::Equal,
        ];
        for k in [0, 1, 2, 4, 5, 9, 10, 17, 70] {
            kinds.extend([
                RelationKind::Apart(k),
                RelationKind::Difference(k),
                RelationKind::Ratio(k),
                RelationKind::SumTo(k),
            ]);
        }
        kinds.push(RelationKind::NoneOf(Arc::from([
            RelationKind::Difference(1),
            RelationKind::Ratio(2),
        ])));
        kinds.push(RelationKind::NoneOf(Arc::from([
            RelationKind::SumTo(10),
            RelationKind::SumTo(5),
        ])));
        kinds
    }

    #[test]
    fn partners_are_the_values_the_relation_holds_with() {
        for kind in kinds() {
            for n in [1, 2, 4, 9, 16, 64] {
                for u in 1..=n {
                    let brute = (1..=n)
                        .filter(|&v| kind.holds(u, v))
                        .fold(0u64, |m, v| m | bit(v));
                    assert_eq!(kind.partners(u, n), brute, "{kind:?} n={n} u={u}");
                }
            }
        }
    }

    #[test]
    fn whispers_and_palindromes_check_exactly() {
        let g = Grid::from_rows(&[vec![1, 6, 1], vec![0, 0, 0], vec![0, 0, 0]]).unwrap();
        let rel = |a, b, kind| Relation::new(Cell::new(0, a), Cell::new(0, b), kind, "line");
        assert!(rel(0, 1, RelationKind::Apart(5)).check(&g).is_ok());
        assert!(rel(0, 1, RelationKind::Apart(6)).check(&g).is_err());
        assert!(rel(0, 2, RelationKind::Equal).check(&g).is_ok());
        assert!(rel(0, 1, RelationKind::Equal).check(&g).is_err());
    }
}
