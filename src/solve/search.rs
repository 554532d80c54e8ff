//! Bounded search over the propagation engine: the step between presolve and the backends.
//!
//! Probing assumes one candidate and propagates; search branches on it. Depth-first: pick an open cell, assume
//! one of its candidates and propagate; when that subtree is done, remove the candidate and propagate again.
//! Every rule prunes with its own propagator ([`crate::rules::Rule::propagator`]), so search knows every puzzle
//! type the grammars can express, and a grid where every cell is fixed is verified exactly before it counts.
//!
//! Hard Latin squares have heavy-tailed search costs (Gomes, Selman, Crato & Kautz 2000): one bad early choice
//! costs millions of nodes that another order never visits. Two standard remedies are used together:
//! - dom/wdeg branching (Boussemart et al. 2004): every rule carries a weight, raised each time it detects a
//!   contradiction; the next cell is one with the fewest candidates per unit of weight on its rules, so search
//!   goes where the puzzle is tight. A rule may also name values whose place it turns on (a sandwich's 1 and
//!   n: [`crate::rules::Pivot`]); where such a value has fewer places per unit of weight than the best cell has
//!   candidates, search branches on its place instead.
//! - restarts on the Luby sequence of failure limits (Luby, Sinclair & Zuckerman 1993), keeping the weights,
//!   with ties broken and values ordered at random after the first run.
//!
//! After a restart, before the next run, search repairs the deepest node the failed run reached: it keeps that
//! node's values away from its open cells and searches near them alone ([`super::repair`]); a run on a nearly
//! empty large grid fills nearly all of it and fails in one corner.
//!
//! Search is exact within its budget: a run that ends without hitting its failure limit has seen the whole
//! space, so the solutions found are all there are (up to the maximum asked). When the node budget runs out
//! first, what was found is handed to a backend (CaDiCaL or CBC), which carries on with those grids cut off. Why
//! search at all in an integer-programming solver: a CBC node on a 25x25 is a dual-simplex re-solve of tens of
//! milliseconds, a search node is one propagation of microseconds, and on these programs propagation decides
//! most branches without any LP.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::engine::Engine;
use super::options::BOARD_NODES_PER_NODE;
use super::repair::{self, Deepest, Scopes};
use crate::domains::Domains;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::rules::Pivot;

/// How much searching is allowed before handing over to a backend, and which values to try first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SearchBudget<'a> {
    /// Search nodes (a node is one candidate assumed or removed, then propagated).
    pub(crate) nodes: u64,
    /// Stop at this instant (the solve's time limit).
    pub(crate) deadline: Option<Instant>,
    /// Per cell, values to try before the others ([`crate::solve::SolveOptions::prefer`]).
    pub(crate) prefer: Option<&'a [u64]>,
    /// Past `nodes`, a first run whose progress says it will end by this many nodes in all goes on to its end
    /// (see [`Search::stretch`]); at most `nodes` (as 0 is) for none.
    pub(crate) stretch_to: u64,
    /// Nodes each solution past the second earns beyond `nodes` (see [`SearchOutcome::earned`]): the cells of
    /// the grid, a dive's worth; 0 for none.
    pub(crate) per_solution: u64,
}

/// What a bounded search found.
#[derive(Clone, Debug, Default)]
pub(crate) struct SearchOutcome {
    /// Verified solutions, distinct, in the order found.
    pub(crate) solutions: Vec<Grid>,
    /// The search space was exhausted or `max_solutions` were found: nothing is left for a backend to decide.
    pub(crate) decided: bool,
    /// The search space was exhausted: the solutions are all there are.
    pub(crate) exhausted: bool,
    pub(crate) nodes: u64,
    pub(crate) restarts: u64,
    /// The deadline passed before the search was decided.
    pub(crate) timed_out: bool,
    /// Time spent checking the grids reached exactly ([`Self::passes`]). The last stage checks every solution
    /// again (the verify stage), about as long, so the search's deadline comes that much sooner: a count of a
    /// million grids under `--time-limit 2` otherwise ended 0.8 s late.
    pub(crate) checking: Duration,
}

impl SearchOutcome {
    /// Counts one more node: whether the budget allows it (`timed_out` set when the deadline has passed, looked
    /// at every `clock_every` nodes).
    pub(crate) fn spend(&mut self, budget: &SearchBudget, clock_every: u64) -> bool {
        self.nodes += 1;
        // The clock first: a search past its nodes may go on with nodes its solutions earned
        // ([`Self::earned_enough`]), and must still stop at the deadline.
        if self.nodes % clock_every == 0 && self.past(budget.deadline) {
            self.timed_out = true;
            return false;
        }
        self.nodes <= budget.nodes
    }

    /// Whether the time left before `deadline` is no more than the final check of the solutions found needs.
    pub(crate) fn past(&self, deadline: Option<Instant>) -> bool {
        deadline.is_some_and(|t| {
            Instant::now()
                .checked_add(self.checking)
                .is_none_or(|end| end >= t)
        })
    }

    /// Whether a grid the search completed passes the exact check, the check timed (see `checking`).
    pub(crate) fn passes(&mut self, puzzle: &Puzzle, grid: &Grid) -> bool {
        let start = Instant::now();
        let ok = puzzle.check_grid(grid).is_ok();
        self.checking += start.elapsed();
        ok
    }

    /// Nodes the solutions found have earned beyond the budget: `per_solution` (a dive's worth, the grid's
    /// cells) for each past the two a uniqueness check needs. Listing many solutions is depth-first search's
    /// work, not a backend's: a backend finds each further one in a call of its own, with one more clause
    /// cutting off those found, so its time grows with the square of the count (`latin count` of the 161,280
    /// Latin squares of order 5, all but the first hundred in CaDiCaL), where search finds the next
    /// within a dive (5.8 s -> 0.33 s). A search whose solutions come rarer than that still hands over, and one
    /// asked for two (`--max 2`, a uniqueness check) never earns anything.
    pub(crate) fn earned(&self, per_solution: u64) -> u64 {
        (self.solutions.len().saturating_sub(2) as u64).saturating_mul(per_solution)
    }

    /// Past the budget's nodes (and not out of time): whether the solutions found have earned the node just
    /// counted.
    pub(crate) fn earned_enough(&self, budget: &SearchBudget) -> bool {
        !self.timed_out
            && self.nodes
                <= budget
                    .nodes
                    .saturating_add(self.earned(budget.per_solution))
    }
}

/// Failures allowed in a run, per unit of the Luby sequence.
const LUBY_UNIT: u64 = 128;

struct Search<'a> {
    puzzle: &'a Puzzle,
    engine: &'a Engine<'a>,
    max_solutions: usize,
    budget: SearchBudget<'a>,
    /// Per rule: 1 + how many contradictions it has found.
    weights: Vec<u64>,
    /// Failures in this run, and the run's limit.
    failures: u64,
    failure_limit: u64,
    rng: fastrand::Rng,
    randomize: bool,
    /// Fingerprints of the solutions found: after a restart the same solutions come again.
    seen: HashSet<u128>,
    out: SearchOutcome,
    /// The rules' pivots: values whose place search may branch on.
    pivots: Vec<Pivot>,
    /// The share of this run's tree closed so far (see [`Self::stretch`]).
    progress: f64,
    /// Failures per unit of the Luby sequence.
    unit: u64,
    /// The deepest node of this run, to repair after a restart.
    deepest: Deepest,
    /// Branches above the node being explored.
    depth: usize,
    /// The rules' cells, for the neighbourhoods of a repair (made at the first).
    scopes: Option<Scopes>,
}

/// Why a subtree stopped early.
enum Stop {
    /// Enough solutions were found.
    Enough,
    /// Out of nodes or time.
    Budget,
    /// The run's failure limit: start again from the root.
    Restart,
}

/// Searches from presolved domains (at a propagation fixpoint) for up to `max_solutions` solutions.
pub(crate) fn search(
    puzzle: &Puzzle,
    engine: &Engine,
    domains: Domains,
    max_solutions: usize,
    budget: SearchBudget,
) -> SearchOutcome {
    // Where the bit boards are the whole puzzle, search on them alone: each node is far cheaper, so it gets
    // more of them. Values preferred by the caller need the engine's value order.
    if let Some(boards) = engine.boards().filter(|b| b.cover(puzzle)) {
        if budget.prefer.is_none() {
            let budget = SearchBudget {
                nodes: budget.nodes.saturating_mul(BOARD_NODES_PER_NODE),
                ..budget
            };
            return boards.search(puzzle, &domains, max_solutions, budget);
        }
    }
    run(puzzle, engine, domains, max_solutions, budget, LUBY_UNIT)
}

/// [`search`] with `unit` failures per unit of the Luby sequence.
fn run(
    puzzle: &Puzzle,
    engine: &Engine,
    domains: Domains,
    max_solutions: usize,
    budget: SearchBudget,
    unit: u64,
) -> SearchOutcome {
    engine.set_deadline(budget.deadline);
    let mut s = Search::new(puzzle, engine, max_solutions, budget);
    s.unit = unit;
    for run in 1.. {
        s.failures = 0;
        s.failure_limit = luby(run) * unit;
        s.deepest.depth = 0;
        s.randomize = run > 1;
        s.progress = 0.0;
        match s.explore(&mut domains.clone(), false, 1.0) {
            Ok(()) => {
                s.out.decided = true;
                s.out.exhausted = true;
                break;
            }
            Err(Stop::Enough) => {
                s.out.decided = true;
                break;
            }
            Err(Stop::Budget) => break,
            Err(Stop::Restart) => {
                s.out.restarts += 1;
                match s.repair(&domains) {
                    Ok(()) => {}
                    Err(Stop::Enough) => {
                        s.out.decided = true;
                        break;
                    }
                    Err(_) => break,
                }
            }
        }
    }
    s.out
}

impl<'a> Search<'a> {
    /// A search before its first run: every rule weighing 1, the rules' pivots to branch on.
    fn new(
        puzzle: &'a Puzzle,
        engine: &'a Engine<'a>,
        max_solutions: usize,
        budget: SearchBudget<'a>,
    ) -> Self {
        Search {
            puzzle,
            engine,
            max_solutions: max_solutions.max(1),
            budget,
            weights: vec![1; engine.count()],
            failures: 0,
            failure_limit: 0,
            // Seeded: the same puzzle takes the same path every time.
            rng: fastrand::Rng::with_seed(0x1a71_5a0e),
            randomize: false,
            seen: HashSet::new(),
            out: SearchOutcome::default(),
            pivots: puzzle.rules_solved().flat_map(|r| r.pivots()).collect(),
            progress: 0.0,
            unit: LUBY_UNIT,
            deepest: Deepest::default(),
            depth: 0,
            scopes: None,
        }
    }

    /// After a failed run: searches again near the open cells of its deepest node, keeping that node's values
    /// elsewhere ([`super::repair`]), in rounds ([`Scopes::rounds`]), each wider than the one before, until one
    /// finds what was asked for. A round searches part of the space only, so it ends the search only by finding
    /// enough solutions (or running out of budget), never by proving there are no more.
    fn repair(&mut self, root: &Domains) -> Result<(), Stop> {
        if self.deepest.depth == 0 {
            return Ok(());
        }
        let n = root.size();
        let scopes = self.scopes.get_or_insert_with(|| Scopes::new(self.puzzle));
        let kept = std::mem::take(&mut self.deepest.values);
        for free in scopes.rounds(&kept) {
            let mut d = root.clone();
            let kept_fit = (0..n * n)
                .filter(|&i| !free[i])
                .all(|i| d.assign(Cell::new(i / n, i % n), kept[i]).is_ok());
            if !kept_fit
                || self
                    .engine
                    .fixpoint(&mut d, 0..self.engine.count())
                    .is_err()
            {
                continue;
            }
            self.failures = 0;
            self.failure_limit = repair::UNITS * self.unit;
            self.randomize = true;
            match self.explore(&mut d, false, 1.0) {
                Ok(()) | Err(Stop::Restart) => {}
                Err(stop) => return Err(stop),
            }
        }
        self.deepest.values = kept;
        Ok(())
    }

    /// Keeps `d` as the run's deepest node when it lies below more branches than any before (counting the cells
    /// fixed at every node cost renban lines 1-2% of their time; the decisions are counted as they are made).
    fn note_depth(&mut self, d: &Domains) {
        if self.depth < self.deepest.depth {
            return;
        }
        let n = d.size();
        self.deepest.depth = self.depth + 1;
        self.deepest.values.resize(n * n, 0);
        for (i, v) in self.deepest.values.iter_mut().enumerate() {
            *v = d.fixed(Cell::new(i / n, i % n)).unwrap_or(0);
        }
    }

    /// Explores every completion of `d`. Changes are recorded on `d`'s trail and each branch is undone when it
    /// is done, so memory grows with the changes along one path, not with a copy of the table per level; what
    /// this call leaves in `d` the caller undoes.
    ///
    /// `settled`: `d` is at the engine's fixpoint (below the root it is: every node was propagated, and undoing
    /// a branch goes back to such a node), so propagation after a change needs to look only at what changed.
    fn explore(&mut self, d: &mut Domains, mut settled: bool, mut share: f64) -> Result<(), Stop> {
        loop {
            let Some((cell, v)) = self.branch(d) else {
                self.progress += share;
                return self.leaf(d);
            };
            self.note_depth(d);
            self.tick()?;
            // The branch cell = v as one of the cell's candidates, each an equal share of this subtree.
            let one = share / f64::from(d.get(cell).count_ones());
            let mark = d.mark();
            d.assign(cell, v)
                .expect("v is a candidate of a cell with several");
            let branch = match self.propagate(d, cell, settled) {
                Ok(()) => {
                    self.depth += 1;
                    let below = self.explore(d, true, one);
                    self.depth -= 1;
                    below
                }
                Err(rule) => {
                    self.progress += one;
                    self.fail(rule)
                }
            };
            d.undo(mark);
            branch?;
            share -= one;
            // Every completion with cell = v has been seen: go on with v removed.
            self.tick()?;
            d.remove(cell, v).expect("the cell had another candidate");
            if let Err(rule) = self.propagate(d, cell, settled) {
                self.progress += share;
                return self.fail(rule);
            }
            settled = true;
        }
    }

    /// Propagates after `cell` changed, from a fixpoint when `settled`.
    fn propagate(&self, d: &mut Domains, cell: Cell, settled: bool) -> Result<(), usize> {
        match settled {
            true => self.engine.after_settled_blame(d, cell),
            false => self.engine.after_blame(d, cell),
        }
    }

    fn leaf(&mut self, d: &Domains) -> Result<(), Stop> {
        let grid = d.grid();
        // After a restart the same solutions are found again: count each once.
        if self.out.passes(self.puzzle, &grid) && self.seen.insert(fingerprint(&grid)) {
            self.out.solutions.push(grid);
            if self.out.solutions.len() >= self.max_solutions {
                return Err(Stop::Enough);
            }
        }
        Ok(())
    }

    fn fail(&mut self, rule: usize) -> Result<(), Stop> {
        self.weights[rule] += 1;
        self.failures += 1;
        if self.failures > self.failure_limit {
            return Err(Stop::Restart);
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Stop> {
        // The clock at every node: a node propagates every woken rule, tens of microseconds on a 9x9 but without
        // bound on a large grid with heavy rules (a 64x64 sandwich: a tenth of a second), where looking every
        // 256 nodes overran the time limit by minutes.
        match self.out.spend(&self.budget, 1)
            || (!self.out.timed_out && self.stretch())
            || self.listing()
        {
            true => Ok(()),
            false => Err(Stop::Budget),
        }
    }

    /// Past the budget, and not stretched to the run's predicted end: whether the solutions found have earned
    /// the node ([`SearchOutcome::earned`]). A run that goes on so is listing solutions and is not restarted,
    /// which would find the same ones again. The stretch is tried first: it carries a run that is nearly done
    /// to its end, where earned nodes left to the failure limit took 6x6 Nabner and renban lists through
    /// restarts, 4-6x the nodes.
    fn listing(&mut self) -> bool {
        let listing = self.out.earned_enough(&self.budget);
        if listing {
            self.failure_limit = u64::MAX;
        }
        listing
    }

    /// Out of nodes: whether the first run may go on to its end, by its progress (the share of the tree it has
    /// closed, each branch an equal share of its cell's candidates: Knuth's estimate of a tree's size, 1975).
    /// When the nodes spent, over that progress, predict the end within the budget's
    /// [`SearchBudget::stretch_to`] with room to spare (twice the nodes left), the budget grows to that and the
    /// run is no longer restarted: a search that is nearly done finishes in a few milliseconds where handing
    /// over costs a backend's set-up and its own search. Arrow Sudokus end so, 5-90% done after the first 256
    /// nodes; renban lines, whose search is hopeless, are mostly under 2% done there. A search that has
    /// restarted hit its failure limit within the budget, which says it is not nearly done, and a later run's
    /// few nodes predict little: two 25x25 Sudokus stretched from a run of 141 nodes went to 4,692 and 7,391
    /// nodes and were handed over all the same.
    fn stretch(&mut self) -> bool {
        if self.out.restarts > 0 || self.progress <= 0.0 {
            return false;
        }
        let spent = self.out.nodes as f64;
        // Rounding may carry the shares a hair past 1: never less than one more node.
        let left = (spent * (1.0 - self.progress) / self.progress).max(0.0);
        let until = (spent + 2.0 * left).ceil() + 1.0;
        if until > self.budget.stretch_to as f64 {
            return false;
        }
        self.budget.nodes = until as u64;
        self.failure_limit = u64::MAX;
        true
    }

    /// The next branch, a cell and the value to try there: the open cell with the fewest candidates per unit of
    /// weight on its rules, or a rule's pivot ([`crate::rules::Pivot`]) with fewer places per unit of weight
    /// (the heaviest of its places' weights), tried at its first place. `None` when every cell is fixed.
    fn branch(&mut self, d: &Domains) -> Option<(Cell, u32)> {
        let (dom, wdeg, cell) = self.branching_cell(d)?;
        // Pivots are not tried when the caller orders the values: the order is what it asked for.
        if self.budget.prefer.is_none() {
            let mut best: Option<(u64, u64, Cell, u32)> = None;
            for p in &self.pivots {
                let bit = 1u64 << (p.value - 1);
                let places = || p.cells.iter().copied().filter(|&c| d.get(c) & bit != 0);
                let k = places().count() as u64;
                if k < 2 {
                    continue;
                }
                let w = places().map(|c| self.wdeg(c)).max().unwrap_or(1);
                let (bk, bw) = best.map_or((dom, wdeg), |b| (b.0, b.1));
                if k * bw < bk * w {
                    best = places().next().map(|c| (k, w, c, p.value));
                }
            }
            if let Some((_, _, c, v)) = best {
                return Some((c, v));
            }
        }
        Some((cell, self.value(d, cell)))
    }

    /// The weight of the rules watching `cell` (at least 1).
    fn wdeg(&self, cell: Cell) -> u64 {
        self.engine
            .watching(cell)
            .iter()
            .map(|&r| self.weights[r])
            .sum::<u64>()
            .max(1)
    }

    /// An open cell with the fewest candidates per unit of weight on its rules, with its candidates and weight;
    /// `None` when all are fixed.
    fn branching_cell(&mut self, d: &Domains) -> Option<(u64, u64, Cell)> {
        let n = d.size();
        let offset = if self.randomize {
            self.rng.usize(..n * n)
        } else {
            0
        };
        // Compare dom/wdeg as cross products: dom_a * wdeg_b < dom_b * wdeg_a.
        let mut best: Option<(u64, u64, Cell)> = None;
        for k in 0..n * n {
            let i = (k + offset) % (n * n);
            let cell = Cell::new(i / n, i % n);
            let dom = u64::from(d.get(cell).count_ones());
            if dom < 2 {
                continue;
            }
            let wdeg = self.wdeg(cell);
            if best.is_none_or(|(bd, bw, _)| dom * bw < bd * wdeg) {
                best = Some((dom, wdeg, cell));
            }
        }
        best
    }

    fn value(&mut self, d: &Domains, cell: Cell) -> u32 {
        let preferred = self
            .budget
            .prefer
            .and_then(|p| p.get(cell.row * d.size() + cell.col))
            .map_or(0, |&p| p & d.get(cell));
        if preferred != 0 {
            return preferred.trailing_zeros() + 1;
        }
        if !self.randomize {
            return d.min(cell);
        }
        let values: Vec<u32> = d.values(cell).collect();
        values[self.rng.usize(..values.len())]
    }
}

/// 128 bits that tell grids apart: two SipHash digests under different keys. Two distinct grids share a
/// fingerprint with probability about 2^-128, so counting by fingerprint is exact in practice, at 16 bytes a
/// grid where keeping each grid a second time cost its whole size.
pub(crate) fn fingerprint(grid: &Grid) -> u128 {
    use std::hash::{Hash, Hasher};
    let digest = |key: u64| {
        let mut h = std::hash::DefaultHasher::new();
        key.hash(&mut h);
        grid.hash(&mut h);
        h.finish()
    };
    u128::from(digest(0x6c61_7469_6e31)) << 64 | u128::from(digest(0x6c61_7469_6e32))
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (i from 1).
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // Find k with 2^k - 1 >= i.
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::presolve::{presolve, presolved, PresolveReport, ProbeBudget};

    /// A budget of `nodes`, stretched up to `stretch_to`, with no deadline, no preferred values and nothing
    /// earned by solutions.
    fn budget(nodes: u64, stretch_to: u64) -> SearchBudget<'static> {
        SearchBudget {
            nodes,
            deadline: None,
            prefer: None,
            stretch_to,
            per_solution: 0,
        }
    }

    fn count(puzzle: &Puzzle, max: usize, nodes: u64) -> SearchOutcome {
        count_with_restarts(puzzle, max, nodes, LUBY_UNIT)
    }

    /// The engine's search from `d`, with no budget.
    fn count_from(puzzle: &Puzzle, d: Domains, max: usize) -> SearchOutcome {
        let budget = budget(u64::MAX, 0);
        run(
            puzzle,
            &Engine::with_intersections(puzzle),
            d,
            max,
            budget,
            LUBY_UNIT,
        )
    }

    fn count_with_restarts(puzzle: &Puzzle, max: usize, nodes: u64, unit: u64) -> SearchOutcome {
        let d = presolved(puzzle);
        let p = Engine::new(puzzle);
        run(puzzle, &p, d, max, budget(nodes, 0), unit)
    }

    #[test]
    fn enumerates_every_latin_square_of_order_4_exactly_once() {
        let out = count(&Puzzle::latin(4).unwrap(), 1000, u64::MAX);
        assert!(out.exhausted && out.decided);
        assert_eq!(out.solutions.len(), 576);
        let distinct: HashSet<&Grid> = out.solutions.iter().collect();
        assert_eq!(distinct.len(), 576);
    }

    #[test]
    fn stops_at_the_maximum_without_claiming_completeness() {
        let out = count(&Puzzle::latin(4).unwrap(), 2, u64::MAX);
        assert!(out.decided && !out.exhausted);
        assert_eq!(out.solutions.len(), 2);
    }

    #[test]
    fn an_exhausted_budget_decides_nothing() {
        let out = count(&Puzzle::sudoku(9).unwrap(), 2, 3);
        assert!(!out.decided && !out.exhausted && out.nodes <= 4);
    }

    /// Every Latin square of order 4 (576) with a budget of 100 nodes, stretched up to `stretch_to`.
    fn stretched(stretch_to: u64) -> SearchOutcome {
        let puzzle = Puzzle::latin(4).unwrap();
        let budget = budget(100, stretch_to);
        let d = presolved(&puzzle);
        run(&puzzle, &Engine::new(&puzzle), d, 1000, budget, LUBY_UNIT)
    }

    #[test]
    fn a_run_predicted_to_end_within_the_stretch_goes_on_to_its_end() {
        let all = count(&Puzzle::latin(4).unwrap(), 1000, u64::MAX);
        assert!(
            all.nodes > 100,
            "the budget must run out: {} nodes",
            all.nodes
        );
        let plain = stretched(0);
        assert!(!plain.decided && plain.nodes <= 101);
        // Room for any estimate: the run goes on to the end, unrestarted, and finds every square once.
        let long = stretched(100 * all.nodes);
        assert!(long.decided && long.exhausted && long.restarts == 0);
        assert_eq!(long.solutions.len(), 576);
    }

    #[test]
    fn solutions_past_the_second_earn_nodes() {
        // The 576 Latin squares of order 4 outrun a budget of 100 nodes; a dive's worth (16 cells) earned by
        // each solution past the second carries the run to its end.
        let puzzle = Puzzle::latin(4).unwrap();
        let go = |per_solution| {
            let budget = SearchBudget {
                per_solution,
                ..budget(100, 0)
            };
            run(
                &puzzle,
                &Engine::new(&puzzle),
                presolved(&puzzle),
                1000,
                budget,
                LUBY_UNIT,
            )
        };
        let earning = go(16);
        assert!(earning.decided && earning.exhausted);
        assert_eq!(earning.solutions.len(), 576);
        assert!(!go(0).decided);
        // Two solutions, as a uniqueness check asks, earn nothing.
        let mut two = SearchOutcome {
            solutions: vec![Grid::empty(4); 2],
            ..SearchOutcome::default()
        };
        assert_eq!(two.earned(16), 0);
        two.solutions.push(Grid::empty(4));
        assert_eq!(two.earned(16), 16);
    }

    #[test]
    fn the_deadline_comes_sooner_by_the_time_checking_took() {
        // The final check of the solutions found takes about as long again as checking them did here.
        let soon = Some(Instant::now() + Duration::from_secs(60));
        let mut out = SearchOutcome::default();
        assert!(!out.past(soon) && !out.past(None));
        out.checking = Duration::from_secs(120);
        assert!(out.past(soon) && !out.past(None));
        let budget = SearchBudget {
            deadline: soon,
            ..budget(100, 0)
        };
        assert!(!out.spend(&budget, 1) && out.timed_out);
        // And a check is timed.
        let puzzle = crate::model::load_str(
            "type: latin\nsize: 4\n",
            &crate::grammar::Registry::built_in(),
        )
        .unwrap();
        let mut out = SearchOutcome::default();
        let rows = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]].map(Vec::from);
        let grid = Grid::from_rows(&rows).unwrap();
        assert!(out.passes(&puzzle, &grid) && out.checking > Duration::ZERO);
        assert!(!out.passes(&puzzle, &Grid::empty(4)));
    }

    #[test]
    fn a_stretch_never_passes_its_bound() {
        // Not room enough for the run to end: it stops at the handover as before, never past the bound.
        let short = stretched(150);
        assert!(
            !short.decided && short.nodes <= 151,
            "{} nodes",
            short.nodes
        );
    }

    #[test]
    fn a_search_that_restarted_is_not_stretched() {
        // Nine tenths done after 100 nodes, with room for any estimate: the first run goes on, a later one
        // (the search has restarted) does not.
        let puzzle = Puzzle::latin(4).unwrap();
        let engine = Engine::new(&puzzle);
        let budget = budget(100, 1_000_000);
        let mut s = Search::new(&puzzle, &engine, 2, budget);
        (s.out.nodes, s.progress, s.failure_limit) = (100, 0.9, LUBY_UNIT);
        assert!(s.stretch() && s.budget.nodes > 100 && s.failure_limit == u64::MAX);
        s.budget.nodes = 100;
        s.out.restarts = 1;
        assert!(!s.stretch() && s.budget.nodes == 100);
    }

    /// A 9x9 Sudoku from its 81 characters, row by row, `.` for an empty cell.
    fn sudoku_from_line(line: &str) -> Puzzle {
        let mut p = Puzzle::sudoku(9).unwrap();
        for (i, ch) in line.chars().enumerate() {
            if let Some(v) = ch.to_digit(10) {
                p.give(crate::grid::Cell::new(i / 9, i % 9), v).unwrap();
            }
        }
        p
    }

    #[test]
    fn restarts_keep_the_count_exact() {
        // A restart after every failure or two (Luby unit 1) on Arto Inkala's 2012 "hardest Sudoku": the runs
        // repeat each other's work, and the search still ends with its one solution, proved unique.
        let p = sudoku_from_line(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let out = count_with_restarts(&p, 2, u64::MAX, 1);
        assert!(out.restarts > 0, "no restarts happened");
        assert!(out.exhausted);
        assert_eq!(out.solutions.len(), 1);
        assert_eq!(
            out.solutions[0].to_line(),
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
        );
    }

    #[test]
    fn a_run_stuck_in_a_corner_of_a_nearly_empty_grid_is_repaired_there() {
        // A 49x49 Sudoku with four givens (random cells and values): the first run fills most of the grid and
        // fails in its last boxes; the repair of that corner finds a solution (2,771 nodes in all), where without
        // repairs six more runs from the root took 16,375 nodes in all.
        let mut p = Puzzle::sudoku(49).unwrap();
        for (r, c, v) in [(4, 4, 17), (17, 18, 13), (34, 21, 17), (41, 30, 45)] {
            p.give(crate::grid::Cell::new(r, c), v).unwrap();
        }
        let out = count_from(&p, presolved(&p), 1);
        assert_eq!((out.restarts, out.solutions.len()), (1, 1));
        assert!(out.decided && !out.exhausted, "a repair proves nothing");
        assert!(p.check_grid(&out.solutions[0]).is_ok());
    }

    #[test]
    fn repairs_keep_an_enumeration_exact() {
        // Arto Inkala's 2012 Sudoku without its first given (the 8 in r1c1) has 292 solutions. Restarting
        // after every failure (Luby unit 1), each restart followed by a repair, search lists the same solutions
        // as search without restarts, each once, and ends exhausted.
        let p = sudoku_from_line(
            "...........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let all = count_with_restarts(&p, 100_000, u64::MAX, u64::MAX);
        let restarted = count_with_restarts(&p, 100_000, u64::MAX, 1);
        assert!(all.exhausted && restarted.exhausted && restarted.restarts > 0);
        assert_eq!(all.solutions.len(), 292);
        let set = |o: &SearchOutcome| o.solutions.iter().cloned().collect::<HashSet<Grid>>();
        assert_eq!(restarted.solutions.len(), all.solutions.len());
        assert_eq!(set(&restarted), set(&all));
    }

    /// Branching on a rule's pivots (a sandwich's 1 and n) changes the order of the search, not what it finds:
    /// on a 6x6 sandwich with four clues and no givens (832 solutions), the same solutions, every one of them,
    /// as branching on cells alone; and a pivot was branched on.
    #[test]
    fn branching_on_pivots_finds_every_solution() {
        let text =
            "type: sandwich\nsize: 6\nbox: 2x3\ntop: \". . 4 . . 11\"\nleft: \". 0 . 7 . .\"\n";
        let puzzle = crate::model::load_str(text, &crate::grammar::Registry::built_in()).unwrap();
        let engine = Engine::with_intersections(&puzzle);
        let budget = budget(u64::MAX, 0);
        let all = |pivots: bool| {
            let mut s = Search::new(&puzzle, &engine, usize::MAX, budget);
            s.failure_limit = u64::MAX;
            if !pivots {
                s.pivots.clear();
            }
            let mut d = presolved(&puzzle);
            let mut pivoted = 0;
            // Count the branches a pivot chose: the cell search would have picked differs, or holds another value.
            while let Some((cell, v)) = s.branch(&d) {
                let by_cell = s.branching_cell(&d).map(|(_, _, c)| c);
                pivoted += usize::from(by_cell != Some(cell) || s.value(&d, cell) != v);
                d.assign(cell, v).unwrap();
                if engine.after(&mut d, cell).is_err() {
                    break;
                }
            }
            assert!(s.explore(&mut presolved(&puzzle), false, 1.0).is_ok());
            // A whole tree seen is the whole of it, by the shares the progress estimate counts.
            assert!((s.progress - 1.0).abs() < 1e-9, "{}", s.progress);
            let found: HashSet<Grid> = s.out.solutions.into_iter().collect();
            (found, pivoted)
        };
        let ((with, pivoted), (without, _)) = (all(true), all(false));
        assert!(pivoted > 0, "no branch was on a pivot");
        assert_eq!(with.len(), 832);
        assert_eq!(with, without);
        for g in &with {
            puzzle.check_grid(g).unwrap();
        }
    }

    /// A pattern solution of an n x n Sudoku with h x w boxes, shuffled by relabelling its values.
    fn solution(n: usize, h: usize, w: usize, rng: &mut fastrand::Rng) -> Grid {
        let mut relabel: Vec<u32> = (1..=n as u32).collect();
        rng.shuffle(&mut relabel);
        let mut g = Grid::empty(n);
        for cell in g.clone().cells() {
            let (r, c) = (cell.row, cell.col);
            g.set(cell, relabel[(w * (r % h) + r / h + c) % n]);
        }
        g
    }

    /// Search on the bit boards alone ([`Boards::search`]) finds what the engine's search finds: every
    /// solution when there are few, as many as asked when there are more. On Sudokus of three sizes, a Sudoku
    /// X and a jigsaw, with most givens taken away and some changed.
    ///
    /// [`Boards::search`]: crate::solve::boards::Boards
    #[test]
    fn search_on_the_boards_finds_what_the_engine_finds() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut cases: Vec<(Puzzle, Grid)> = Vec::new();
        for (n, h, w) in [(6, 2, 3), (9, 3, 3), (16, 4, 4)] {
            cases.push((
                Puzzle::sudoku_with_boxes(n, h, w).unwrap(),
                solution(n, h, w, &mut rng),
            ));
        }
        // A Sudoku X and a jigsaw (its file without the givens), each with the first solution search finds.
        let mut x = Puzzle::sudoku(9).unwrap();
        x.add_named_rule("diagonals").unwrap();
        let text = include_str!("../../puzzles/jigsaw/jigsaw-9x9.yaml");
        let (head, tail) = text.split_once("givens:").unwrap();
        let text = format!("{head}{}", &tail[tail.find("solution:").unwrap()..]);
        let jigsaw = crate::model::load_str(&text, &crate::grammar::Registry::built_in()).unwrap();
        for p in [x, jigsaw] {
            let d = presolve(&p, ProbeBudget::NONE, None, &mut PresolveReport::default());
            let any = count_from(&p, d.unwrap().unwrap(), 1);
            cases.push((p, any.solutions[0].clone()));
        }
        let (mut compared, mut enumerated) = (0, 0);
        for (template, solution) in &cases {
            template.check_grid(solution).unwrap();
            let n = template.size();
            for round in 0..40 {
                let mut p = template.clone();
                let keep = rng.usize(n * n / 4..n * n * 3 / 5);
                for cell in solution.cells() {
                    if rng.usize(..n * n) >= keep {
                        continue;
                    }
                    // In every fourth puzzle some givens changed where no given of theirs clashes: other
                    // solutions, or none (those presolve refutes are skipped below).
                    let v = solution.get(cell);
                    let changed = rng.u32(1..=n as u32);
                    if round % 4 != 3 || rng.usize(..3) != 0 || p.give(cell, changed).is_err() {
                        // Left empty when it clashes with a changed one.
                        let _ = p.give(cell, v);
                    }
                }
                let Some(Ok(d)) =
                    presolve(&p, ProbeBudget::NONE, None, &mut PresolveReport::default())
                else {
                    continue;
                };
                let engine = Engine::with_intersections(&p);
                assert!(engine.boards().is_some_and(|b| b.cover(&p)), "{}", p.kind());
                let budget = budget(u64::MAX, 0);
                let general = count_from(&p, d.clone(), 20);
                let boards = search(&p, &engine, d, 20, budget);
                let lines = |o: &SearchOutcome| {
                    let mut l: Vec<String> = o.solutions.iter().map(Grid::to_line).collect();
                    l.sort();
                    l
                };
                assert!(general.decided && boards.decided);
                assert_eq!(general.exhausted, boards.exhausted, "{}", p.kind());
                if general.exhausted {
                    assert_eq!(lines(&general), lines(&boards), "{}", p.kind());
                    enumerated += 1;
                } else {
                    assert_eq!(boards.solutions.len(), 20);
                }
                for g in &boards.solutions {
                    p.check_grid(g).unwrap();
                }
                compared += 1;
            }
        }
        // Both kinds of case met often: the comparison is not vacuous.
        assert!(compared > 150 && enumerated > 50, "{compared} {enumerated}");
    }

    #[test]
    fn search_on_the_boards_keeps_to_its_budget() {
        let p = Puzzle::sudoku(16).unwrap();
        let d = presolve(&p, ProbeBudget::NONE, None, &mut PresolveReport::default())
            .unwrap()
            .unwrap();
        let engine = Engine::with_intersections(&p);
        let budget = budget(3, 0);
        let out = search(&p, &engine, d, 2, budget);
        assert!(!out.decided && !out.exhausted && out.solutions.is_empty());
        assert!(out.nodes <= 3 * BOARD_NODES_PER_NODE + 1, "{}", out.nodes);
    }

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
