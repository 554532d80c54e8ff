//! The propagation engine: runs every propagator of a puzzle to a fixpoint, waking only those whose cells changed.
//!
//! The engine owns the running order; the propagators themselves are the rules' own ([`Rule::propagator`]), the
//! derived pointing and claiming ([`Intersection`]), two two-cell rules meeting in a cell whose other cells
//! differ ([`Path`]) and, for a search that must finish alone, the counterpart of pointing for the values a rule
//! must hold ([`Required`]), all behind the one [`Propagator`] trait of the foundations.
//! On grids up to 16 x 16 whose all-different groups overlap (boxes, regions, diagonals), the singles of every
//! group, and their pointing and claiming, run as one propagator on bit boards ([`Boards`]), and each group runs
//! only its matching.
//! A rule's propagator may offer a sharper one once told which cells the puzzle's all-different groups keep
//! apart ([`Propagator::sharpened`]: a little-killer diagonal through a box, a sandwich inside a row); the engine
//! runs that one in its place. Presolve, probing and search all propagate through this. Given a deadline
//! ([`Engine::set_deadline`]) it stops there, fixpoint or not: on a large grid one heavy rule's run is long.
//!
//! [`Rule::propagator`]: crate::rules::Rule::propagator

use std::sync::Arc;
use std::time::Instant;

use super::boards::{self, Boards};
use super::intersection::Intersection;
use super::paths::Path;
use super::required::Required;
use crate::domains::{Contradiction, Cost, Domains, Propagator};
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::rules::Rule;

/// The propagators of one puzzle, indexed by the cells they watch, so that propagation re-runs only those whose
/// cells changed. Propagators are numbered: the puzzle's rules that have one, in order, then the derived ones;
/// a contradiction names the number of the propagator that found it (search weighs them by it).
///
/// An engine depends on the rules only, never on the givens: `--lines` builds one per thread for the template
/// and runs every line's givens through it ([`Self::initial`] takes them).
pub(crate) struct Engine<'a> {
    /// The grid's size.
    n: usize,
    rules: Vec<Own<'a>>,
    derived: Vec<Box<dyn Propagator>>,
    /// The groups' singles and overlaps on bit boards, numbered after the derived propagators, where they apply.
    boards: Option<Boards>,
    /// For each cell (row-major), the propagators that watch it.
    watchers: Vec<Vec<usize>>,
    /// Per propagator: whether it has a cheap part run first ([`Propagator::staged`]).
    staged: Vec<bool>,
    /// Per propagator: an all-different group whose cheap part the [`Boards`] do for every group at once, so
    /// that it runs only the rest ([`Propagator::propagate_rest`]), once the cheap queue is empty.
    rest_only: Vec<bool>,
    /// Per rule of the puzzle, the number of its propagator, if it has one.
    of_rule: Vec<Option<usize>>,
    /// Per propagator: whether its own changes need not wake it ([`Propagator::idempotent`]).
    idempotent: Vec<bool>,
    /// Per propagator: the queue its cheap part (or its whole, when not staged) waits in ([`Propagator::cost`]).
    tier: Vec<u8>,
    /// The queues, reused from call to call.
    queues: std::cell::Cell<Queues>,
    /// When propagation must stop, fixpoint or not ([`Self::set_deadline`]).
    deadline: std::cell::Cell<Option<Instant>>,
    /// Propagator runs between two looks at the clock.
    clock_every: u32,
}

impl<'a> Engine<'a> {
    /// The puzzle's rules.
    pub(crate) fn new(puzzle: &'a Puzzle) -> Self {
        Self::with(puzzle, false, Vec::new())
    }

    /// The puzzle's rules, then the pointing and claiming its all-different groups imply
    /// ([`Intersection`]) and the paths of its two-cell rules ([`Path`]). Stronger, and dearer per
    /// propagation: search uses it, where one pruned candidate saves a subtree; presolve, which decides most
    /// puzzles with the plain rules, does not (paths in presolve too made the whispers median 1.17x slower).
    pub(crate) fn with_intersections(puzzle: &'a Puzzle) -> Self {
        Self::with(puzzle, true, Vec::new())
    }

    /// [`Self::with_intersections`] and the values the rules must hold, confined by the groups ([`Required`]).
    /// On the renban corpus it makes an eleventh of the nodes at 1.5 times the cost each. That did not pay in
    /// the 256 nodes before CaDiCaL takes over (1.2x the median, 2026-11-22), and does now that a search
    /// nearly done there goes on to its end ([`super::search::SearchBudget::stretch_to`]). `None` when no rule
    /// names required values.
    pub(crate) fn thorough(puzzle: &'a Puzzle) -> Option<Self> {
        let required = Required::derive(puzzle.size(), puzzle.rules());
        (!required.is_empty()).then(|| Self::with(puzzle, true, required))
    }

    /// The rules' propagators and, where [`Boards`] apply (up to 16 x 16, groups that overlap), the groups'
    /// singles (and with `intersections` their overlaps) on boards; elsewhere, with `intersections`, the
    /// intersections one by one; with `intersections` the paths; and the `required` values' propagators
    /// ([`Required`]).
    fn with(puzzle: &'a Puzzle, intersections: bool, required: Vec<Required>) -> Self {
        let n = puzzle.size();
        let boards = Boards::derive(n, puzzle.rules(), intersections);
        // The rules' propagators, but for a rule that says what an earlier one says (run twice, it finds nothing
        // new and costs twice).
        let propagator =
            |(r, &twice): (&'a Arc<dyn Rule>, &bool)| r.propagator().filter(|_| !twice);
        let own = || {
            puzzle
                .rules()
                .iter()
                .zip(puzzle.redundant())
                .map(propagator)
        };
        // Per rule, its propagator's number; per propagator, whether it is a group the boards do the singles of.
        let (mut of_rule, mut grouped) = (Vec::new(), Vec::new());
        for (r, p) in puzzle.rules().iter().zip(own()) {
            of_rule.push(p.map(|_| grouped.len()));
            if p.is_some() {
                grouped.push(boards.is_some() && r.permutation_cells().is_some());
            }
        }
        let apart = puzzle.apart();
        let mut derived: Vec<Box<dyn Propagator>> = match boards {
            Some(_) => Vec::new(),
            None if intersections => Intersection::derive(n, puzzle.rules())
                .into_iter()
                .map(|i| Box::new(i) as Box<dyn Propagator>)
                .collect(),
            None => Vec::new(),
        };
        if intersections {
            derived.extend(Path::derive(n, puzzle.rules(), &apart));
        }
        derived.extend(
            required
                .into_iter()
                .map(|r| Box::new(r) as Box<dyn Propagator>),
        );
        // Each rule's propagator, or the sharper one it offers once it knows which of its cells differ.
        let rules: Vec<Own> = own()
            .flatten()
            .map(|p| match p.sharpened(&apart) {
                Some(sharp) => Own::Sharpened(sharp),
                None => Own::Rule(p),
            })
            .collect();
        let mut engine = Engine {
            n,
            rules,
            derived,
            boards,
            watchers: vec![Vec::new(); n * n],
            staged: Vec::new(),
            rest_only: Vec::new(),
            idempotent: Vec::new(),
            of_rule,
            tier: Vec::new(),
            queues: Default::default(),
            deadline: Default::default(),
            // Up to 16x16 a run is microseconds (a sandwich's sets are bounded by `PROPAGATION_STEPS`); on larger
            // grids one heavy rule's run can take a tenth of a second (a 64x64 sandwich with large clues), and a
            // look at the clock costs nothing beside it.
            clock_every: if n <= boards::MAX_SIZE { 64 } else { 1 },
        };
        engine.rest_only = (0..engine.count())
            .map(|i| grouped.get(i).copied().unwrap_or(false))
            .collect();
        engine.idempotent = (0..engine.count())
            .map(|i| engine.get(i).idempotent())
            .collect();
        engine.staged = (0..engine.count())
            .map(|i| engine.get(i).staged() && !engine.rest_only[i])
            .collect();
        engine.tier = (0..engine.count())
            .map(|i| match engine.get(i).cost() {
                _ if engine.rest_only[i] => MEDIUM,
                Cost::Constant if engine.boards.is_some() => FIRST,
                Cost::Constant | Cost::Low => LOW,
                Cost::Medium => MEDIUM,
            })
            .collect();
        for i in 0..engine.count() {
            for c in engine.get(i).watches() {
                engine.watchers[c.row * n + c.col].push(i);
            }
        }
        engine
    }

    /// Propagation stops at this instant (the solve's time limit), fixpoint or not: what it removed by then is
    /// impossible all the same, so the domains stay sound, only less pruned, and the stage that called it
    /// stops at its own next look at the clock. `None`: run to the fixpoint, however long it takes.
    pub(crate) fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    /// Propagator number i.
    fn get(&self, i: usize) -> &dyn Propagator {
        match self.rules.get(i) {
            Some(Own::Rule(p)) => *p,
            Some(Own::Sharpened(p)) => p.as_ref(),
            None => match self.derived.get(i - self.rules.len()) {
                Some(p) => p.as_ref(),
                None => self.boards.as_ref().expect("a propagator's number"),
            },
        }
    }

    /// How many propagators the engine runs (the puzzle's and derived ones).
    pub(crate) fn count(&self) -> usize {
        self.rules.len() + self.derived.len() + usize::from(self.boards.is_some())
    }

    /// The number of the boards' propagator (past the last when there are none).
    fn boards_index(&self) -> usize {
        self.rules.len() + self.derived.len()
    }

    /// The groups on bit boards, where they apply (search on them alone: [`Boards::search`]).
    pub(crate) fn boards(&self) -> Option<&Boards> {
        self.boards.as_ref()
    }

    /// Domains with `givens` assigned and every rule propagated to a fixpoint.
    pub(crate) fn initial(&self, givens: &Grid) -> Result<Domains, Contradiction> {
        let mut d = Domains::full(self.n);
        for (cell, v) in givens.filled() {
            d.assign(cell, v)?;
        }
        self.fixpoint(&mut d, 0..self.count())?;
        Ok(d)
    }

    /// Runs the propagators in `start`, and every one whose cells they change, until nothing changes.
    pub(crate) fn fixpoint(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), Contradiction> {
        self.fixpoint_blame(d, start).map_err(|_| Contradiction)
    }

    /// [`Self::fixpoint`] that names the propagator which found the contradiction.
    ///
    /// Four queues: woken propagators run their cheap part ([`Propagator::staged`]; the whole of those that
    /// have no cheap part) in the queue of their [`Propagator::cost`], constant (where there are boards) before
    /// low before medium, and a staged one runs whole only when the others are empty. A staged propagator is
    /// not woken again by its own whole run, which leaves its cells at its own fixpoint.
    pub(crate) fn fixpoint_blame(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
    ) -> Result<(), usize> {
        self.propagate_from(d, start, false)
    }

    /// Runs the propagators in `start` and on to the fixpoint; `boards_settled`: the domains were at the
    /// boards' own fixpoint but for what they lost since ([`Domains::lost`]).
    fn propagate_from(
        &self,
        d: &mut Domains,
        start: impl IntoIterator<Item = usize>,
        boards_settled: bool,
    ) -> Result<(), usize> {
        let mut queues = self.queues.take();
        queues.reset(self.count());
        queues.boards_settled = boards_settled;
        for i in start {
            queues.wake(i, self.tier[i], self.staged[i]);
        }
        d.log.clear();
        let out = self.drain(d, &mut queues);
        self.queues.set(queues);
        out
    }

    fn drain(&self, d: &mut Domains, q: &mut Queues) -> Result<(), usize> {
        let deadline = self.deadline.get();
        let mut runs = 0u32;
        loop {
            let Some((i, tier)) = q.pop() else {
                return Ok(());
            };
            runs = runs.wrapping_add(1);
            if runs % self.clock_every == 0 && deadline.is_some_and(|t| Instant::now() >= t) {
                return Ok(());
            }
            let whole = tier == DEAR || !self.staged[i];
            let p = self.get(i);
            // Pinned on a rule when the propagator stands for several.
            let blame = |rule: Option<usize>| rule.and_then(|r| self.of_rule[r]).unwrap_or(i);
            let on_boards = i == self.boards_index();
            if on_boards {
                // After their first run here the boards are at their own fixpoint, and the domains record what
                // is lost after it: later runs look at that only.
                let boards = self.boards.as_ref().expect("the boards' number");
                let since = std::mem::replace(&mut q.boards_settled, true);
                boards.propagate_since(d, since).map_err(blame)?;
            } else if self.rest_only[i] || (whole && self.staged[i]) {
                // Its cheap part (its own, or the boards') ran to its fixpoint: every queue before this one is
                // empty.
                p.propagate_rest(d).map_err(|_| i)?;
            } else if whole {
                p.propagate_blaming(d).map_err(blame)?;
            } else {
                p.propagate_cheap(d).map_err(|_| i)?;
            }
            let skip =
                ((whole && self.staged[i]) || self.rest_only[i] || self.idempotent[i]).then_some(i);
            for cell in d.log.drain(..) {
                for &j in &self.watchers[cell as usize] {
                    if Some(j) != skip {
                        q.wake(j, self.tier[j], self.staged[j]);
                    }
                }
            }
        }
    }

    /// The propagators that watch `cell`.
    pub(crate) fn watching(&self, cell: Cell) -> &[usize] {
        &self.watchers[cell.row * self.n + cell.col]
    }

    /// Propagates after `cell`'s candidates changed.
    pub(crate) fn after(&self, d: &mut Domains, cell: Cell) -> Result<(), Contradiction> {
        self.after_blame(d, cell).map_err(|_| Contradiction)
    }

    /// [`Self::after`] that names the propagator which found the contradiction.
    pub(crate) fn after_blame(&self, d: &mut Domains, cell: Cell) -> Result<(), usize> {
        self.fixpoint_blame(d, self.watching(cell).iter().copied())
    }

    /// [`Self::after_blame`] on domains that were at this engine's fixpoint before `cell` changed (as search's
    /// are below its root, with nothing lost since but by this change): the boards then look at the groups
    /// where the cell lost a value only, not at every group. The fixpoint reached is the same.
    pub(crate) fn after_settled_blame(&self, d: &mut Domains, cell: Cell) -> Result<(), usize> {
        self.propagate_from(d, self.watching(cell).iter().copied(), true)
    }
}

/// A rule's propagator as the puzzle holds it, or the sharpened one the engine built in its place.
enum Own<'a> {
    Rule(&'a dyn Propagator),
    Sharpened(Box<dyn Propagator>),
}

/// The queues, lowest cost first: propagators at [`Cost::Constant`] (where the boards are), then at
/// [`Cost::Low`], then at [`Cost::Medium`], then staged propagators waiting to run whole.
const FIRST: u8 = 0;
const LOW: u8 = 1;
const MEDIUM: u8 = 2;
const DEAR: u8 = 3;

/// The propagators waiting to run: each at most once per queue, first in first out, and a queue only once the
/// ones before it are empty. Kept by the engine between calls (search propagates at every node), so no call
/// allocates.
#[derive(Default)]
struct Queues {
    tiers: [Queue; 4],
    /// The domains are at the boards' fixpoint but for what they lost since ([`Domains::lost`]); false before
    /// the boards' first run in a propagation told nothing.
    boards_settled: bool,
}

impl Queues {
    fn reset(&mut self, count: usize) {
        for q in &mut self.tiers {
            q.reset(count);
        }
        self.boards_settled = false;
    }

    /// Queues propagator i at its tier, and (when staged) its whole run.
    fn wake(&mut self, i: usize, tier: u8, staged: bool) {
        self.tiers[tier as usize].push(i);
        if staged {
            self.tiers[DEAR as usize].push(i);
        }
    }

    /// The next propagator to run, and the queue it came from.
    fn pop(&mut self) -> Option<(usize, u8)> {
        (0..4).find_map(|t| self.tiers[t].pop().map(|i| (i, t as u8)))
    }
}

#[derive(Default)]
struct Queue {
    queued: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl Queue {
    /// Empty, for `count` propagators.
    fn reset(&mut self, count: usize) {
        self.queue.clear();
        self.queued.clear();
        self.queued.resize(count, false);
    }

    fn push(&mut self, i: usize) {
        if !self.queued[i] {
            self.queued[i] = true;
            self.queue.push_back(i);
        }
    }

    fn pop(&mut self) -> Option<usize> {
        let i = self.queue.pop_front()?;
        self.queued[i] = false;
        Some(i)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grammar::Registry;

    /// The engine's fixpoint on `d` (and whether it finds a contradiction) against the plain one: every rule's
    /// own propagator run whole, and with `intersections` every [`Intersection`] of its groups, round after
    /// round until nothing changes. The reference is built from the rules, not by the engine, so staging, the
    /// boards and the groups that run only their matching must all end where the rules one by one do. (Every
    /// propagator here only removes candidates, so the fixpoint is unique.)
    fn same_fixpoint(puzzle: &Puzzle, intersections: bool, d: &Domains) -> bool {
        let engine = if intersections {
            Engine::with_intersections(puzzle)
        } else {
            Engine::new(puzzle)
        };
        let pairs = match intersections {
            true => Intersection::derive(puzzle.size(), puzzle.rules()),
            false => Vec::new(),
        };
        let mut reference: Vec<&dyn Propagator> = puzzle
            .rules()
            .iter()
            .filter_map(|r| r.propagator())
            .collect();
        reference.extend(pairs.iter().map(|p| p as &dyn Propagator));
        let mut plain = d.clone();
        let plain_ok = loop {
            let mut changed = false;
            let all_ok = reference.iter().all(|p| match p.propagate(&mut plain) {
                Ok(c) => {
                    changed |= c;
                    true
                }
                Err(Contradiction) => false,
            });
            if !all_ok || !changed {
                break all_ok;
            }
        };
        let mut d = d.clone();
        let engine_ok = engine.fixpoint(&mut d, 0..engine.count()).is_ok();
        assert_eq!(engine_ok, plain_ok);
        if plain_ok {
            assert_eq!(d, plain);
        }
        plain_ok
    }

    /// Random candidates around `solution`: each cell keeps its value and a few others, so that pairs and
    /// triples (Hall sets only the matching finds) are common; now and then a cell loses its value, so that
    /// contradictions occur too.
    fn around(solution: &Grid, rng: &mut fastrand::Rng) -> Domains {
        let n = solution.size();
        let mut d = Domains::full(n);
        for cell in solution.cells() {
            let v = solution.get(cell);
            let others =
                (0..rng.usize(2..n.min(8))).fold(0u64, |m, _| m | 1 << rng.u32(0..n as u32));
            d.restrict(cell, 1 << (v - 1) | others).unwrap();
            if rng.usize(..4 * n * n) < 2 && d.get(cell).count_ones() > 1 {
                d.remove(cell, v).unwrap();
            }
        }
        d
    }

    /// A pattern solution of an n x n Sudoku with h x w boxes (and so of the n x n Latin square).
    fn pattern(n: usize, h: usize, w: usize) -> Grid {
        let mut g = Grid::empty(n);
        for cell in g.clone().cells() {
            let (r, c) = (cell.row, cell.col);
            g.set(cell, ((w * (r % h) + r / h + c) % n + 1) as u32);
        }
        g
    }

    /// A puzzle file of the project's `puzzles/`, loaded with the built-in grammars.
    pub(crate) fn puzzle_file(path: &str) -> Puzzle {
        let text =
            std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        puzzle_text(&text)
    }

    /// A puzzle file's text, loaded with the built-in grammars.
    pub(crate) fn puzzle_text(text: &str) -> Puzzle {
        crate::model::load_str(text, &Registry::built_in()).unwrap()
    }

    /// Puzzles with their solutions for the engine's tests: Sudokus with and without boards, a Latin square,
    /// and the groups and sums grammars declare.
    fn cases() -> Vec<(Puzzle, Grid)> {
        let mut cases: Vec<(Puzzle, Grid)> = vec![
            (Puzzle::sudoku(9).unwrap(), pattern(9, 3, 3)),
            (
                Puzzle::sudoku_with_boxes(6, 2, 3).unwrap(),
                pattern(6, 2, 3),
            ),
            // No boards: rows and columns meet in one cell.
            (Puzzle::latin(7).unwrap(), pattern(7, 1, 7)),
            // 256 cells: the boards' four words.
            (Puzzle::sudoku(16).unwrap(), pattern(16, 4, 4)),
            // Past the boards: the groups run their own singles.
            (Puzzle::sudoku(25).unwrap(), pattern(25, 5, 5)),
        ];
        // Jigsaw regions, killer cages (groups of fewer than n cells) and diagonals, as grammars declare them.
        for file in [
            "puzzles/jigsaw/jigsaw-9x9.yaml",
            "puzzles/killer/killer-6x6.yaml",
            "puzzles/killer-x/killer-x-9x9.yaml",
        ] {
            cases.push(with_solution(file));
        }
        cases
    }

    fn with_solution(path: &str) -> (Puzzle, Grid) {
        let p = puzzle_file(path);
        let solution = p.solution().unwrap().clone();
        (p, solution)
    }

    #[test]
    fn the_engine_ends_where_the_rules_one_by_one_do() {
        let cases = cases();
        let mut rng = fastrand::Rng::with_seed(5);
        for (p, solution) in &cases {
            for intersections in [false, true] {
                let rounds = if p.size() > 16 { 20 } else { 150 };
                let contradictions = (0..rounds)
                    .filter(|_| !same_fixpoint(p, intersections, &around(solution, &mut rng)))
                    .count();
                assert!(contradictions < rounds, "{} {contradictions}", p.kind());
            }
        }
    }

    /// Propagating from a fixpoint after one change, the boards told only that cell's groups
    /// ([`Engine::after_settled_blame`]) end where a propagation told nothing ends, contradictions included.
    #[test]
    fn from_a_fixpoint_the_changed_cell_is_enough() {
        let mut cases = cases();
        // Arrows, whose sharpened sums (stronger than the rule's own) the engine runs beside the boards.
        cases.push(with_solution("puzzles/arrow/arrow-9x9.yaml"));
        let mut rng = fastrand::Rng::with_seed(9);
        let (mut compared, mut failed) = (0, 0);
        for (p, solution) in &cases {
            let engine = Engine::with_intersections(p);
            let n = p.size();
            for _ in 0..if n > 16 { 100 } else { 1000 } {
                let mut d = around(solution, &mut rng);
                if engine.fixpoint(&mut d, 0..engine.count()).is_err() {
                    continue;
                }
                // One change, as search makes: a value placed, or one taken away.
                let Some(cell) = (0..n * n)
                    .map(|i| Cell::new(i / n, i % n))
                    .filter(|&c| d.get(c).count_ones() > 1)
                    .nth(rng.usize(..n))
                else {
                    continue;
                };
                let v = d
                    .values(cell)
                    .nth(rng.usize(..d.get(cell).count_ones() as usize));
                let v = v.unwrap();
                if rng.bool() {
                    d.assign(cell, v).unwrap();
                } else {
                    d.remove(cell, v).unwrap();
                }
                let (mut told, mut plain) = (d.clone(), d);
                let from_cell = engine.after_settled_blame(&mut told, cell);
                let from_nothing = engine.after_blame(&mut plain, cell);
                assert_eq!(from_cell.is_ok(), from_nothing.is_ok(), "{}", p.kind());
                if from_cell.is_ok() {
                    assert_eq!(told, plain, "{} after {cell:?}", p.kind());
                } else {
                    failed += 1;
                }
                compared += 1;
            }
        }
        // Both outcomes were seen often enough to mean something.
        assert!(compared > 600 && failed > 20, "{compared} {failed}");
    }

    #[test]
    fn a_9x9_runs_its_groups_singles_on_boards_and_a_25x25_staged() {
        let p = Puzzle::sudoku(9).unwrap();
        let engine = Engine::with_intersections(&p);
        // 27 groups running their matching only, and the boards (which do the intersections too).
        assert_eq!(engine.count(), 28);
        assert_eq!(engine.rest_only.iter().filter(|&&r| r).count(), 27);
        let p = Puzzle::sudoku(25).unwrap();
        let engine = Engine::with_intersections(&p);
        assert!(engine.staged.iter().any(|&s| s) && !engine.rest_only.iter().any(|&r| r));
    }
}
