//! Rule primitives: the vocabulary every puzzle type is written in.
//!
//! A rule is a value ([`Rule`]) with two capabilities. It encodes itself as linear rows over the binaries
//! `x[r][c][v]` ([`Rule::encode`]) and checks a grid exactly ([`Rule::check`], [`Rule::check_partial`]); and,
//! separately, it may offer a [`Propagator`] ([`Rule::propagator`]) that prunes candidates for presolve and
//! search. Something that only propagates (pointing and claiming, derived from the rules) implements
//! [`Propagator`] alone and never pretends to encode or check. Rules import only the foundations (grid,
//! errors, domains, the program builder); puzzle types never appear here. Grammars combine these primitives,
//! and named whole-grid rules such as `diagonals` are expanded in [`catalogue`].
//!
//! Adding a primitive is one file here, one signature line in `grammar::vocabulary` and one binding in
//! `model::bind`.

pub(crate) mod all_different;
pub(crate) mod allowed;
pub(crate) mod arrow;
pub(crate) mod battlefield;
pub(crate) mod between;
pub(crate) mod catalogue;
pub(crate) mod classes;
pub(crate) mod contains;
pub(crate) mod differs;
pub(crate) mod equal_sums;
pub(crate) mod grouped_sum;
pub(crate) mod indexer;
pub(crate) mod ladder;
pub(crate) mod layered;
pub(crate) mod lockout;
pub(crate) mod not_monotone;
pub(crate) mod numbered_room;
pub(crate) mod pill_arrow;
pub(crate) mod product;
pub(crate) mod reach;
pub(crate) mod relation;
pub(crate) mod run;
pub(crate) mod sandwich;
pub(crate) mod segments;
pub(crate) mod sum;
pub(crate) mod table;
pub(crate) mod tuples;
pub(crate) mod visibility;
pub(crate) mod x_sum;

use std::fmt;

use crate::domains::{Apart, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

pub(crate) use all_different::AllDifferent;
pub(crate) use allowed::Allowed;
pub(crate) use arrow::Arrow;
pub(crate) use battlefield::Battlefield;
pub(crate) use between::Between;
pub(crate) use classes::Classes;
pub(crate) use contains::Contains;
pub(crate) use differs::Differs;
pub(crate) use equal_sums::EqualSums;
pub(crate) use lockout::Lockout;
pub(crate) use not_monotone::NotMonotone;
pub(crate) use numbered_room::NumberedRoom;
pub(crate) use pill_arrow::PillArrow;
pub(crate) use product::Product;
pub(crate) use relation::{Relation, RelationKind};
pub(crate) use run::Run;
pub(crate) use sandwich::Sandwich;
pub(crate) use segments::Segments;
pub(crate) use sum::Sum;
pub(crate) use table::{Table, TablePredicate};
pub(crate) use visibility::{Score, Visibility};
pub(crate) use x_sum::XSum;

/// One rule of a puzzle.
pub(crate) trait Rule: fmt::Debug + Send + Sync {
    /// What a person calls this constraint: `row 3`, `hints.A`.
    fn label(&self) -> String;

    /// The cells the rule reads.
    fn cells(&self) -> Vec<Cell>;

    /// Appends this rule's rows (and auxiliary columns) to the program.
    fn encode(&self, c: &mut Compiler);

    /// Checks a complete grid in exact integer arithmetic.
    fn check(&self, grid: &Grid) -> Result<(), Violation>;

    /// Checks a partly filled grid (0 = empty): a violation only when the filled cells already break the rule.
    /// By default the rule is checked once all its cells are filled.
    fn check_partial(&self, grid: &Grid) -> Result<(), Violation> {
        if self.cells().iter().all(|&c| grid.get(c) != 0) {
            self.check(grid)
        } else {
            Ok(())
        }
    }

    /// The cells, when the rule says they all differ (with n cells: each value exactly once). The engine
    /// derives pointing and claiming between such groups from these.
    fn permutation_cells(&self) -> Option<Vec<Cell>> {
        None
    }

    /// The rule's own deductions on candidates, if it has any.
    fn propagator(&self) -> Option<&dyn Propagator> {
        None
    }

    /// What the rule says, as text two rules share exactly when they allow the same values on the same cells
    /// wherever the cells the puzzle keeps `apart` differ: a battlefield clue says the same read from either
    /// end of its line, and so does a sandwich clue on a line whose cells all differ, and a puzzle that gives
    /// both ends (as `generate` draws them) has it twice. The solver keeps the first of such rules (the puzzle
    /// marks the others redundant); the checks keep them all. `None` (the default): the rule is always kept.
    fn meaning(&self, _apart: &Apart<'_>) -> Option<String> {
        None
    }

    /// Values whose place among some of the rule's cells the rule turns on (a sandwich's 1 and n in its row):
    /// search may branch on where such a value goes, as a setter does, instead of on one cell's value.
    fn pivots(&self) -> Vec<Pivot> {
        Vec::new()
    }
}

/// A value and the cells it is placed among, which a rule's meaning turns on ([`Rule::pivots`]). Branching on
/// it is sound whatever the cells: the branch is still "this cell holds the value, or it does not".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pivot {
    pub(crate) cells: Vec<Cell>,
    pub(crate) value: u32,
}

/// A line's cells in the direction that starts at the smaller end, for [`Rule::meaning`] of a rule that reads
/// its line the same both ways.
pub(crate) fn either_way(cells: &[Cell]) -> Vec<Cell> {
    let mut line = cells.to_vec();
    if line.last() < line.first() {
        line.reverse();
    }
    line
}

/// "The cells add up to `clue` when every column of `chosen` is 1", for sums whose cells depend on a choice (an
/// x-sum's first value, a battlefield's two ends), as big-M rows: with `S` the weighted sum and k the columns of
/// `chosen`, `S - clue <= above * (k - sum chosen)` and `S - clue >= -below * (k - sum chosen)`, `above` and
/// `below` the most `S` can be over and under the clue (a side that holds anyway is left out). With all chosen,
/// `S = clue`; otherwise the right-hand sides cover the whole range of `S - clue`. `false` (nothing written)
/// when the cells cannot reach the clue at all (`above` or `below` negative): the caller rules the choice out.
pub(crate) fn sum_when_chosen(
    c: &mut Compiler,
    sum: Vec<(usize, f64)>,
    chosen: &[usize],
    clue: f64,
    (above, below): (f64, f64),
) -> bool {
    if above < 0.0 || below < 0.0 {
        return false;
    }
    let k = chosen.len() as f64;
    if above > 0.0 {
        let mut row = sum.clone();
        row.extend(chosen.iter().map(|&a| (a, above)));
        c.at_most(row, clue + k * above);
    }
    if below > 0.0 {
        let mut row = sum;
        row.extend(chosen.iter().map(|&a| (a, -below)));
        c.row(row, clue - k * below, f64::INFINITY);
    }
    true
}

/// "Value v is used among some cells exactly when the option chosen covers it", for rules that choose one of
/// a list of options (a cage's value set, a renban line's run, a table's tuple; the options' columns add up to
/// 1 in a row of the rule's own): `used` holds the cells' columns of v, `covering` the options' columns that
/// hold v. As clauses for CaDiCaL (v at most once among the cells; a cell holding v needs a covering option;
/// a covering option chosen has v in some cell), and for CBC as the one equality, which with the options' row
/// forces each clause in the relaxation too.
pub(crate) fn used_when_covered(c: &mut Compiler, used: Vec<(usize, f64)>, covering: &[usize]) {
    c.clauses(|c| {
        if used.len() > 1 {
            c.at_most(used.clone(), 1.0);
        }
        for &(x, _) in &used {
            let mut terms = vec![(x, 1.0)];
            terms.extend(covering.iter().map(|&s| (s, -1.0)));
            c.at_most(terms, 0.0);
        }
        for &s in covering {
            let mut terms: Vec<(usize, f64)> = used.iter().map(|&(x, _)| (x, -1.0)).collect();
            terms.push((s, 1.0));
            c.at_most(terms, 0.0);
        }
    });
    let mut terms = used;
    terms.extend(covering.iter().map(|&s| (s, -1.0)));
    c.implied_equal(terms, 0.0);
}

/// Values as written in messages: `[1, 2, 3]`.
pub(crate) fn values_of(grid: &Grid, cells: &[Cell]) -> Vec<u32> {
    cells.iter().map(|&c| grid.get(c)).collect()
}

/// A 4x4 Latin square (rows 2413, 4132, 1324, 3241), for the exact checks in the tests of rules that read a
/// row or column.
#[cfg(test)]
pub(crate) fn latin_square_4() -> Grid {
    Grid::from_rows(&[
        vec![2, 4, 1, 3],
        vec![4, 1, 3, 2],
        vec![1, 3, 2, 4],
        vec![3, 2, 4, 1],
    ])
    .expect("a 4x4 grid")
}

/// Every assignment of the cells' candidates, for brute-force tests of propagators. `distinct` leaves out
/// assignments that repeat a value (the cells of one row or column).
#[cfg(test)]
pub(crate) fn assignments(
    d: &crate::domains::Domains,
    cells: &[Cell],
    distinct: bool,
) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut stack = vec![Vec::new()];
    while let Some(acc) = stack.pop() {
        if acc.len() == cells.len() {
            out.push(acc);
            continue;
        }
        for v in d.values(cells[acc.len()]) {
            if !(distinct && acc.contains(&v)) {
                let mut next = acc.clone();
                next.push(v);
                stack.push(next);
            }
        }
    }
    out
}

/// Random candidates for `cells` on an n x n grid (each a non-empty set), the rest full: the starting point of
/// the brute-force tests of propagators.
#[cfg(test)]
pub(crate) fn random_candidates(
    n: usize,
    cells: &[Cell],
    rng: &mut fastrand::Rng,
) -> crate::domains::Domains {
    let mut d = crate::domains::Domains::full(n);
    for &cell in cells {
        d.restrict(cell, rng.u64(1..1 << n))
            .expect("a non-empty set of candidates");
    }
    d
}

/// A propagator against brute force on one set of candidates (`d`, changed by the run): the candidates it keeps
/// are exactly those of some assignment of `cells` that `holds`, or it finds a contradiction exactly when there
/// is none; and a run leaves nothing for a second when it says it is idempotent. Whether it found a
/// contradiction.
#[cfg(test)]
pub(crate) fn matches_brute_force(
    p: &dyn Propagator,
    cells: &[Cell],
    d: &mut crate::domains::Domains,
    mut holds: impl FnMut(&[u32]) -> bool,
) -> bool {
    let before = d.clone();
    let solutions: Vec<Vec<u32>> = assignments(d, cells, false)
        .into_iter()
        .filter(|s| holds(s))
        .collect();
    if p.propagate(d).is_err() {
        assert!(solutions.is_empty(), "{before:?}");
        return true;
    }
    assert!(!solutions.is_empty(), "{before:?}");
    for (i, &c) in cells.iter().enumerate() {
        let used = solutions
            .iter()
            .fold(0u64, |m, s| m | crate::domains::bit(s[i]));
        assert_eq!(d.get(c), used, "{before:?}, cell {i}");
    }
    if p.idempotent() {
        assert_eq!(p.propagate(&mut d.clone()), Ok(false), "{before:?}");
    }
    false
}

/// A sharpened propagator (for cells that all differ) against its plain one on one set of candidates (`d`,
/// changed by the sharpened run): it keeps every assignment of distinct values that `holds`, finds a
/// contradiction only when there is none, and never keeps a candidate the plain one prunes. Whether it pruned
/// more than the plain one.
#[cfg(test)]
pub(crate) fn sharper_keeps_distinct_solutions(
    plain: &dyn Propagator,
    sharp: &dyn Propagator,
    cells: &[Cell],
    d: &mut crate::domains::Domains,
    holds: impl Fn(&[u32]) -> bool,
) -> bool {
    let before = d.clone();
    let solutions: Vec<Vec<u32>> = assignments(d, cells, true)
        .into_iter()
        .filter(|s| holds(s))
        .collect();
    let mut loose = d.clone();
    let loose_ok = plain.propagate(&mut loose).is_ok();
    if sharp.propagate(d).is_err() {
        assert!(solutions.is_empty(), "{before:?}");
        return loose_ok;
    }
    for s in &solutions {
        for (&c, &v) in cells.iter().zip(s) {
            assert!(d.contains(c, v), "{before:?} lost {s:?}");
        }
    }
    assert!(loose_ok, "{before:?}");
    for &c in cells {
        assert_eq!(d.get(c) & !loose.get(c), 0, "{before:?}");
    }
    *d != loose
}

/// A sharpened propagator on lines too long for brute force (25 cells, where some value sets are too many to
/// list) keeps a planted assignment of distinct values: in each of 200 rounds a random order of 1..=25, the
/// propagator `make` builds for it (with its cells), and candidates that hold it and about half of the other
/// values. The rounds in which it pruned something.
#[cfg(test)]
pub(crate) fn keeps_planted<P: Propagator>(
    seed: u64,
    make: impl Fn(&[u32]) -> (P, Vec<Cell>),
) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pruned = 0;
    for _ in 0..200 {
        let planted = shuffled(25, &mut rng);
        let (sharp, cells) = make(&planted);
        let mut d = crate::domains::Domains::full(25);
        for (&cell, &v) in cells.iter().zip(&planted) {
            d.restrict(cell, rng.u64(..) | crate::domains::bit(v))
                .unwrap();
        }
        let before = d.clone();
        assert!(sharp.propagate(&mut d).is_ok(), "{before:?} {planted:?}");
        for (&cell, &v) in cells.iter().zip(&planted) {
            assert!(d.contains(cell, v), "{before:?} lost {planted:?}");
        }
        pruned += usize::from(d != before);
    }
    pruned
}

/// For a rule that reads its line the same both ways ([`Rule::meaning`]): `ahead` and `back`, the same clue on
/// the line and on the line reversed, mean the same and accept exactly the same values (every assignment of
/// 1..=n to the line, alone on an n x n grid; with `distinct`, the line's cells are a group that differs, and
/// only assignments of distinct values are tried), and `other`, another clue, means something else. The number
/// of assignments accepted.
#[cfg(test)]
pub(crate) fn reads_both_ways(
    ahead: &dyn Rule,
    back: &dyn Rule,
    other: &dyn Rule,
    n: usize,
    distinct: bool,
) -> usize {
    let cells = ahead.cells();
    let mut reversed = back.cells();
    reversed.reverse();
    assert_eq!(reversed, cells, "`back` is `ahead` reversed");
    let line = cells.clone();
    let apart = Apart::new(n, move || {
        if distinct {
            vec![line.clone()]
        } else {
            Vec::new()
        }
    });
    assert!(ahead.meaning(&apart).is_some());
    assert_eq!(ahead.meaning(&apart), back.meaning(&apart));
    assert_ne!(ahead.meaning(&apart), other.meaning(&apart));
    let mut accepted = 0;
    for i in 0..(n as u64).pow(cells.len() as u32) {
        let values: Vec<u32> = (0..cells.len())
            .map(|j| (i / (n as u64).pow(j as u32) % n as u64) as u32 + 1)
            .collect();
        if distinct && (1..values.len()).any(|j| values[..j].contains(&values[j])) {
            continue;
        }
        let mut grid = Grid::empty(n);
        for (&cell, &v) in cells.iter().zip(&values) {
            grid.set(cell, v);
        }
        let ok = ahead.check(&grid).is_ok();
        assert_eq!(ok, back.check(&grid).is_ok(), "{grid:?}");
        accepted += usize::from(ok);
    }
    accepted
}

/// A random order of 1..=n.
#[cfg(test)]
pub(crate) fn shuffled(n: usize, rng: &mut fastrand::Rng) -> Vec<u32> {
    let mut values: Vec<u32> = (1..=n as u32).collect();
    rng.shuffle(&mut values);
    values
}

/// The rule's rows, alone on an n x n grid, against its check: every assignment of values 1..=n to its cells,
/// with the auxiliary columns the encoding adds set every way, satisfies the rows exactly when the check
/// accepts it. The numbers of assignments accepted and refused.
#[cfg(test)]
pub(crate) fn encoding_matches_check(rule: &dyn Rule, n: usize) -> (usize, usize) {
    let mut c = Compiler::new(n);
    let base = n * n * n;
    rule.encode(&mut c);
    let program = c.finish();
    let aux: Vec<usize> = (base..program.num_cols()).collect();
    let cells = rule.cells();
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..(n as u64).pow(cells.len() as u32) {
        let values: Vec<u32> = (0..cells.len())
            .map(|j| (i / (n as u64).pow(j as u32) % n as u64) as u32 + 1)
            .collect();
        let mut cols = vec![0.0; program.num_cols()];
        let mut grid = Grid::empty(n);
        for (&cell, &v) in cells.iter().zip(&values) {
            cols[program.x(cell, v)] = 1.0;
            grid.set(cell, v);
        }
        let ok = satisfiable(&program, &aux, &mut cols);
        assert_eq!(ok, rule.check(&grid).is_ok(), "{values:?}");
        if ok {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    (accepted, refused)
}

/// Whether some setting of the columns `aux` (each 0 or 1) satisfies every bound and row of the program, the
/// other columns as `cols` holds them: the integral points of an encoding with auxiliary columns, by brute
/// force, for tests that it accepts exactly the grids its rule does. Asked of both backends' views of the
/// program, which must agree: CBC's leaves out the [`crate::program::Role::Clause`] rows, CaDiCaL's the
/// [`crate::program::Role::Relaxation`] ones.
#[cfg(test)]
pub(crate) fn satisfiable(
    program: &crate::program::BinaryProgram,
    aux: &[usize],
    cols: &mut [f64],
) -> bool {
    use crate::program::Role;
    let linear = satisfiable_in(program, aux, cols, Role::Clause);
    let clausal = satisfiable_in(program, aux, cols, Role::Relaxation);
    assert_eq!(
        linear, clausal,
        "CBC's and CaDiCaL's views of the program disagree"
    );
    linear
}

/// [`satisfiable`] in one backend's view (the rows of role `left_out` skipped). The auxiliary columns a row
/// forces, given the others, are set first (bound propagation to a fixpoint: a flow's arcs follow from the
/// cells' values); the rest, at most 20, are tried every way.
#[cfg(test)]
fn satisfiable_in(
    program: &crate::program::BinaryProgram,
    aux: &[usize],
    cols: &mut [f64],
    left_out: crate::program::Role,
) -> bool {
    const EPS: f64 = 1e-9;
    let rows: Vec<_> = program.rows.iter().filter(|r| r.role != left_out).collect();
    let within =
        |cols: &[f64], i: usize| program.lower[i] <= cols[i] && cols[i] <= program.upper[i];
    if !(0..program.num_cols()).all(|i| aux.contains(&i) || within(cols, i)) {
        return false;
    }
    // Each column's value where known: every column but the free auxiliary ones (a column no row of the view
    // names, the other view's, is at its lower bound).
    let mut known: Vec<Option<f64>> = cols.iter().map(|&v| Some(v)).collect();
    let named: std::collections::HashSet<usize> = rows
        .iter()
        .flat_map(|r| r.terms.iter().map(|t| t.0))
        .collect();
    for &i in aux {
        let fixed = program.lower[i] == program.upper[i] || !named.contains(&i);
        known[i] = fixed.then_some(program.lower[i]);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for r in &rows {
            let (mut lo, mut hi) = (0.0, 0.0);
            for &(i, a) in &r.terms {
                match known[i] {
                    Some(v) => (lo, hi) = (lo + a * v, hi + a * v),
                    None => (lo, hi) = (lo + a.min(0.0), hi + a.max(0.0)),
                }
            }
            if lo > r.upper + EPS || hi < r.lower - EPS {
                return false;
            }
            for &(i, a) in &r.terms {
                if known[i].is_some() {
                    continue;
                }
                let one = lo + a.max(0.0) <= r.upper + EPS && hi + a.min(0.0) >= r.lower - EPS;
                let zero = lo - a.min(0.0) <= r.upper + EPS && hi - a.max(0.0) >= r.lower - EPS;
                match (zero, one) {
                    (false, false) => return false,
                    (true, true) => continue,
                    (zero, _) => known[i] = Some(if zero { 0.0 } else { 1.0 }),
                }
                changed = true;
                break;
            }
        }
    }
    let free: Vec<usize> = aux
        .iter()
        .copied()
        .filter(|&i| known[i].is_none())
        .collect();
    assert!(
        free.len() <= 20,
        "{} auxiliary columns left free",
        free.len()
    );
    for &i in aux {
        cols[i] = known[i].unwrap_or(0.0);
    }
    (0u64..1 << free.len()).any(|bits| {
        for (k, &col) in free.iter().enumerate() {
            cols[col] = (bits >> k & 1) as f64;
        }
        aux.iter().all(|&i| within(cols, i))
            && rows.iter().all(|r| {
                let s: f64 = r.terms.iter().map(|&(i, a)| a * cols[i]).sum();
                r.lower - EPS <= s && s <= r.upper + EPS
            })
    })
}
