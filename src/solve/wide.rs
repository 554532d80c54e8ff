//! Search on grids too wide for a word: sizes 65 to 255 whose rules are all all-different groups (Sudoku of any
//! box shape, Latin squares, jigsaw regions, diagonals, distinct cages).
//!
//! The engine holds a cell's candidates in one 64-bit word ([`Domains`]), so past 64x64 nothing is propagated and
//! the program went to a backend whole: an empty 81x81 Sudoku was not solved by CaDiCaL in 300 s (2.6 GB), where
//! an empty 64x64 takes the engine 0.7 s. Where every rule is an all-different group, the groups' own deductions
//! are what such a grid needs: candidates as four words a cell, each full group's count of places per value kept
//! as values leave cells (none left is a contradiction, one a hidden single, few enough to lie where the group
//! meets another is pointing and claiming), depth-first search with binary branching on a cell with the fewest
//! candidates and restarts, and every change undone from a trail of removed values (so memory is bounded by
//! the n^3 removals of one path, not a copy of the grid per level). The search is exact: it
//! stops at the solutions asked for or when it has seen the whole space, and every grid it reports has passed
//! the rules' exact checks. A grid with other rules, or a search that runs out of nodes, goes to the backend as
//! before.
//!
//! [`Domains`]: crate::domains::Domains

use std::collections::HashSet;
use std::time::Instant;

use super::repair::{self, Deepest, Scopes};
use super::search::{fingerprint, SearchBudget, SearchOutcome};
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;

/// A cell's candidates: bit v-1 of word (v-1)/64 = value v, up to 256 values.
type Bits = [u64; 4];

/// A contradiction: some cell or full group has no value left.
struct Dead;

/// The groups of a puzzle whose rules are all all-different, over cells numbered row-major.
pub(crate) struct Wide {
    n: usize,
    groups: Vec<Vec<u32>>,
    /// Whether group g holds n cells (every value exactly once), which makes its counts meaningful.
    full: Vec<bool>,
    groups_of: Vec<Vec<u32>>,
    /// Per full group, the full groups it overlaps in two cells or more (not all), with the shared cells: a
    /// value whose places in the group all lie there leaves the rest of the other (pointing and claiming).
    overlaps: Vec<Vec<(u32, Vec<u32>)>>,
    /// Per full group, its largest overlap: a value with more places than that cannot be confined.
    widest: Vec<u16>,
}

impl Wide {
    /// The groups, when every rule of the puzzle is an all-different group; `None` otherwise.
    pub(crate) fn derive(puzzle: &Puzzle) -> Option<Wide> {
        let n = puzzle.size();
        let mut groups = Vec::new();
        for rule in puzzle.rules() {
            let cells = rule.permutation_cells()?;
            groups.push(
                cells
                    .iter()
                    .map(|c| (c.row * n + c.col) as u32)
                    .collect::<Vec<u32>>(),
            );
        }
        let full: Vec<bool> = groups.iter().map(|g| g.len() == n).collect();
        let mut groups_of = vec![Vec::new(); n * n];
        for (g, cells) in groups.iter().enumerate() {
            for &c in cells {
                groups_of[c as usize].push(g as u32);
            }
        }
        let mut overlaps = vec![Vec::new(); groups.len()];
        for a in (0..groups.len()).filter(|&a| full[a]) {
            let mut shared: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
            for &c in &groups[a] {
                for &b in groups_of[c as usize].iter().filter(|&&b| b as usize != a) {
                    shared.entry(b).or_default().push(c);
                }
            }
            overlaps[a] = shared
                .into_iter()
                .filter(|(b, cells)| full[*b as usize] && cells.len() >= 2 && cells.len() < n)
                .collect();
        }
        let widest = overlaps
            .iter()
            .map(|o| {
                o.iter()
                    .map(|(_, cells)| cells.len() as u16)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        Some(Wide {
            n,
            groups,
            full,
            groups_of,
            overlaps,
            widest,
        })
    }

    /// Searches from the givens for up to `max_solutions` solutions within `nodes` branches and the deadline.
    /// Runs restart on the Luby sequence of failure limits, as the engine's search does: the lowest value first
    /// at each cell led one run on an empty 81x81 Sudoku into a million nodes of dead ends. After the first run
    /// a cell tries first the value with the fewest places left in its groups, ties broken at random (seeded):
    /// against a random value, empty 81x81 Sudokus with 9x9 boxes, with 3x27 boxes and with diagonals were
    /// solved in 0.1, 4.4 and 3.0 s where random values left the last two undecided after 20 s, and an empty
    /// 100x100 in 0.5 s. Before each restart, the failed run's deepest node is repaired ([`Self::repair`]). A
    /// run that ends within its limit has seen the whole space; solutions found again after a restart are
    /// counted once.
    pub(crate) fn search(
        &self,
        puzzle: &Puzzle,
        max_solutions: usize,
        nodes: u64,
        deadline: Option<Instant>,
    ) -> SearchOutcome {
        self.search_with_unit(puzzle, max_solutions, nodes, deadline, LUBY_UNIT)
    }

    /// [`Self::search`] with `unit` failures per unit of the Luby sequence.
    fn search_with_unit(
        &self,
        puzzle: &Puzzle,
        max_solutions: usize,
        nodes: u64,
        deadline: Option<Instant>,
        unit: u64,
    ) -> SearchOutcome {
        let mut s = State::new(self);
        let mut out = SearchOutcome::default();
        let start = puzzle
            .givens()
            .filled()
            .try_for_each(|(cell, v)| s.assign(self, self.index(cell), v as usize - 1))
            .and_then(|()| s.propagate(self));
        if start.is_err() {
            out.decided = true;
            out.exhausted = true;
            return out;
        }
        let mut run = Run {
            seen: HashSet::new(),
            rng: fastrand::Rng::with_seed(0x77_1de),
            failures: 0,
            limit: 0,
            deepest: Deepest::default(),
        };
        let root = s.trail.len();
        let mut scopes = None;
        for k in 1.. {
            run.failures = 0;
            run.limit = super::search::luby(k) * unit;
            run.deepest.depth = 0;
            let end = self.run(
                puzzle,
                &mut s,
                &mut out,
                &mut run,
                (max_solutions, nodes, deadline),
                k > 1,
            );
            s.undo(self, root);
            match end {
                End::Exhausted => {
                    out.decided = true;
                    out.exhausted = true;
                    break;
                }
                End::Enough => {
                    out.decided = true;
                    break;
                }
                End::Budget => break,
                End::Restart => out.restarts += 1,
            }
            let scopes = scopes.get_or_insert_with(|| Scopes::new(puzzle));
            let limits = (max_solutions, nodes, deadline);
            run.limit = repair::UNITS * unit;
            match self.repair(puzzle, &mut s, &mut out, &mut run, scopes, limits) {
                End::Enough => {
                    out.decided = true;
                    break;
                }
                End::Budget => break,
                End::Exhausted | End::Restart => {}
            }
        }
        out
    }

    /// After a failed run, from the root: searches again near the open cells of the run's deepest node, keeping
    /// that node's values elsewhere, as the engine's search does ([`super::repair`]); an empty 120x120 Sudoku
    /// (10x12 boxes), undecided in 2.9 million nodes without it, is solved in 0.6 million. Ends `Restart` when
    /// no round found enough solutions (a round's `Exhausted` covers its neighbourhood only), and leaves the
    /// state at the root.
    fn repair(
        &self,
        puzzle: &Puzzle,
        s: &mut State,
        out: &mut SearchOutcome,
        run: &mut Run,
        scopes: &Scopes,
        limits: (usize, u64, Option<Instant>),
    ) -> End {
        if run.deepest.depth == 0 {
            return End::Restart;
        }
        let n = self.n;
        let root = s.trail.len();
        let kept = std::mem::take(&mut run.deepest.values);
        for free in scopes.rounds(&kept) {
            let fits = (0..n * n)
                .filter(|&i| !free[i])
                .try_for_each(|i| s.assign(self, i, kept[i] as usize - 1))
                .and_then(|()| s.propagate(self));
            if fits.is_ok() {
                run.failures = 0;
                let end = self.run(puzzle, s, out, run, limits, true);
                s.undo(self, root);
                match end {
                    End::Enough | End::Budget => return end,
                    End::Exhausted | End::Restart => {}
                }
            } else {
                s.undo(self, root);
            }
        }
        run.deepest.values = kept;
        End::Restart
    }

    /// One run of depth-first search from the root state, binary branching: a cell takes a value, and once that
    /// is done (or dead), it refuses it.
    fn run(
        &self,
        puzzle: &Puzzle,
        s: &mut State,
        out: &mut SearchOutcome,
        run: &mut Run,
        (max_solutions, nodes, deadline): (usize, u64, Option<Instant>),
        randomize: bool,
    ) -> End {
        // Branches taken, each (cell, value, trail length before it), so that the value can be refused there.
        let mut branches: Vec<(usize, usize, usize)> = Vec::new();
        loop {
            let consistent = match s.open_cell() {
                None => {
                    let grid = s.grid(self);
                    if out.passes(puzzle, &grid) && run.seen.insert(fingerprint(&grid)) {
                        out.solutions.push(grid);
                        if out.solutions.len() >= max_solutions.max(1) {
                            return End::Enough;
                        }
                    }
                    false
                }
                Some(cell) => {
                    if !self.spend(out, nodes, deadline) {
                        return End::Budget;
                    }
                    let v = match randomize {
                        true => s.tightest(self, cell, &mut run.rng),
                        false => s.lowest(cell),
                    };
                    branches.push((cell, v, s.trail.len()));
                    s.assign(self, cell, v)
                        .and_then(|()| s.propagate(self))
                        .is_ok()
                }
            };
            if consistent {
                continue;
            }
            // Back to the latest branch whose refusal is consistent: there the cell is not that value.
            loop {
                let Some((cell, v, mark)) = branches.pop() else {
                    return End::Exhausted;
                };
                s.undo(self, mark);
                // Back at the node above a dead end: the run's deepest so far? (Kept at dead ends only: a copy of
                // the grid at every node of the first dive would double an empty 81x81's time.)
                if branches.len() >= run.deepest.depth {
                    s.keep_as_deepest(branches.len(), &mut run.deepest);
                }
                run.failures += 1;
                if run.failures > run.limit {
                    return End::Restart;
                }
                if !self.spend(out, nodes, deadline) {
                    return End::Budget;
                }
                if s.remove(self, cell, v)
                    .and_then(|()| s.propagate(self))
                    .is_ok()
                {
                    break;
                }
            }
        }
    }

    fn index(&self, cell: Cell) -> usize {
        cell.row * self.n + cell.col
    }

    /// Counts a node: whether the budget and the clock allow it (the clock read every 64 nodes), as the other
    /// searches count theirs. Solutions past the second earn a dive's worth each ([`SearchOutcome::earned`]);
    /// wide search has no stretch to offer first, as the engine's search does.
    fn spend(&self, out: &mut SearchOutcome, nodes: u64, deadline: Option<Instant>) -> bool {
        let budget = SearchBudget {
            nodes,
            deadline,
            prefer: None,
            stretch_to: 0,
            per_solution: (self.n * self.n) as u64,
        };
        out.spend(&budget, 64) || out.earned_enough(&budget)
    }
}

/// Failures allowed in a run, per unit of the Luby sequence.
const LUBY_UNIT: u64 = 256;

/// What a run keeps across restarts, and its failure count and limit.
struct Run {
    /// Fingerprints of the solutions found: after a restart the same ones come again.
    seen: HashSet<u128>,
    rng: fastrand::Rng,
    failures: u64,
    limit: u64,
    /// The deepest node of this run, to repair after a restart.
    deepest: Deepest,
}

/// How a run ended.
enum End {
    /// The whole space was seen.
    Exhausted,
    /// Enough solutions.
    Enough,
    /// Out of nodes or time.
    Budget,
    /// The failure limit: start again.
    Restart,
}

/// The search state: candidates, each full group's places per value, the trail, and the work queues.
struct State {
    cand: Vec<Bits>,
    /// The cells by candidate count ([`Buckets`]), so that branching finds its cell without a scan.
    open: Buckets,
    /// places[g * n + v]: the cells of group g that can still hold value v + 1.
    places: Vec<u16>,
    /// Every removal (cell, value index), in order, to undo.
    trail: Vec<(u32, u8)>,
    /// Cells fixed since their value last left their peers.
    fixed: Vec<u32>,
    /// (group, value index) whose places fell to one.
    single: Vec<(u32, u8)>,
    /// (group, value index) whose places fell within the group's widest overlap.
    confine: Vec<(u32, u8)>,
}

impl State {
    fn new(wide: &Wide) -> State {
        let n = wide.n;
        let mut all = [0u64; 4];
        (0..n).for_each(|v| all[v / 64] |= 1 << (v % 64));
        let places = wide
            .groups
            .iter()
            .flat_map(|g| std::iter::repeat_n(g.len() as u16, n))
            .collect();
        State {
            cand: vec![all; n * n],
            open: Buckets::new(n * n, n),
            places,
            trail: Vec::new(),
            fixed: Vec::new(),
            single: Vec::new(),
            confine: Vec::new(),
        }
    }

    fn has(&self, cell: usize, v: usize) -> bool {
        self.cand[cell][v / 64] >> (v % 64) & 1 == 1
    }

    fn count(&self, cell: usize) -> u32 {
        u32::from(self.open.count[cell])
    }

    fn lowest(&self, cell: usize) -> usize {
        let (w, word) = self.cand[cell]
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .expect("an open cell has candidates");
        w * 64 + word.trailing_zeros() as usize
    }

    /// The candidate of the cell with the fewest places left in one of its full groups (the value most likely
    /// to run out of room), ties broken at random.
    fn tightest(&self, wide: &Wide, cell: usize, rng: &mut fastrand::Rng) -> usize {
        let n = wide.n;
        let mut best = (u16::MAX, 0, 0);
        for v in (0..n).filter(|&v| self.has(cell, v)) {
            let places = wide.groups_of[cell]
                .iter()
                .filter(|&&g| wide.full[g as usize])
                .map(|&g| self.places[g as usize * n + v])
                .min()
                .unwrap_or(u16::MAX);
            let tie = rng.u64(..);
            if (places, tie) < (best.0, best.2) {
                best = (places, v, tie);
            }
        }
        best.1
    }

    /// Value index v leaves the cell: the groups' places fall, and what that forces is queued.
    fn remove(&mut self, wide: &Wide, cell: usize, v: usize) -> Result<(), Dead> {
        if !self.has(cell, v) {
            return Ok(());
        }
        // The whole removal is recorded before a contradiction is reported: undo puts back exactly this.
        self.cand[cell][v / 64] &= !(1 << (v % 64));
        self.open.step(cell, false);
        self.trail.push((cell as u32, v as u8));
        let mut dead = false;
        for &g in &wide.groups_of[cell] {
            let at = g as usize * wide.n + v;
            self.places[at] -= 1;
            if wide.full[g as usize] {
                match self.places[at] {
                    0 => dead = true,
                    1 => self.single.push((g, v as u8)),
                    k if k <= wide.widest[g as usize] => self.confine.push((g, v as u8)),
                    _ => {}
                }
            }
        }
        match self.count(cell) {
            0 => dead = true,
            1 => self.fixed.push(cell as u32),
            _ => {}
        }
        if dead {
            Err(Dead)
        } else {
            Ok(())
        }
    }

    /// The cell takes value index v: every other value leaves it.
    fn assign(&mut self, wide: &Wide, cell: usize, v: usize) -> Result<(), Dead> {
        if !self.has(cell, v) {
            return Err(Dead);
        }
        for u in (0..wide.n).filter(|&u| u != v) {
            self.remove(wide, cell, u)?;
        }
        Ok(())
    }

    /// Naked singles (a fixed cell's value leaves its peers) and hidden singles (a value with one place in a full
    /// group goes there), then pointing and claiming, to their fixpoint.
    fn propagate(&mut self, wide: &Wide) -> Result<(), Dead> {
        loop {
            if let Some(cell) = self.fixed.pop() {
                let cell = cell as usize;
                if self.count(cell) != 1 {
                    continue;
                }
                let v = self.lowest(cell);
                for &g in &wide.groups_of[cell] {
                    for &peer in &wide.groups[g as usize] {
                        if peer as usize != cell {
                            self.remove(wide, peer as usize, v)?;
                        }
                    }
                }
            } else if let Some((g, v)) = self.single.pop() {
                let (g, v) = (g as usize, v as usize);
                if self.places[g * wide.n + v] != 1 {
                    continue;
                }
                let cell = wide.groups[g]
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.has(c, v))
                    .expect("a value with one place has that place");
                self.assign(wide, cell, v)?;
            } else if let Some((g, v)) = self.confine.pop() {
                self.confine_value(wide, g as usize, v as usize)?;
            } else {
                return Ok(());
            }
        }
    }

    /// Where every place of value index v in full group g lies in its overlap with another full group, v leaves
    /// the rest of that other group.
    fn confine_value(&mut self, wide: &Wide, g: usize, v: usize) -> Result<(), Dead> {
        let places = self.places[g * wide.n + v] as usize;
        if places < 2 {
            return Ok(());
        }
        for (other, shared) in &wide.overlaps[g] {
            let inside = shared.iter().filter(|&&c| self.has(c as usize, v)).count();
            if inside < places {
                continue;
            }
            for &c in &wide.groups[*other as usize] {
                if !wide.groups_of[c as usize].contains(&(g as u32)) {
                    self.remove(wide, c as usize, v)?;
                }
            }
        }
        Ok(())
    }

    /// Puts back every removal after `mark`, and empties the work queues: a removal or a propagation that
    /// ended in a contradiction may leave work queued, and every contradiction is followed by an undo.
    fn undo(&mut self, wide: &Wide, mark: usize) {
        self.fixed.clear();
        self.single.clear();
        self.confine.clear();
        for (cell, v) in self.trail.drain(mark..).rev() {
            let (cell, v) = (cell as usize, v as usize);
            self.cand[cell][v / 64] |= 1 << (v % 64);
            self.open.step(cell, true);
            for &g in &wide.groups_of[cell] {
                self.places[g as usize * wide.n + v] += 1;
            }
        }
    }

    /// Keeps this state, `depth` branches below the root, as a run's deepest node.
    fn keep_as_deepest(&self, depth: usize, deepest: &mut Deepest) {
        deepest.depth = depth + 1;
        deepest.values.resize(self.cand.len(), 0);
        for (i, value) in deepest.values.iter_mut().enumerate() {
            *value = match self.count(i) {
                1 => self.lowest(i) as u32 + 1,
                _ => 0,
            };
        }
    }

    /// An open cell with the fewest candidates, the first in row-major order among them; `None` when every cell
    /// is fixed.
    fn open_cell(&self) -> Option<usize> {
        self.open.first_open()
    }

    fn grid(&self, wide: &Wide) -> Grid {
        let n = wide.n;
        let mut grid = Grid::empty(n);
        for cell in 0..n * n {
            grid.set(Cell::new(cell / n, cell % n), self.lowest(cell) as u32 + 1);
        }
        grid
    }
}

/// Every cell's candidate count, and per count the set of cells that have it (a bit per cell), kept as values
/// leave and come back. Finding the branching cell by a scan over every cell was 90% of an empty 255 Latin
/// square's time (each node read past the cells already fixed, 4 words each); with the sets it is the first
/// nonempty count from 2 up and the lowest bit set there, the same cell the scan took.
struct Buckets {
    count: Vec<u16>,
    /// Words per set: one bit per cell.
    words: usize,
    /// Set k at `k * words`.
    cells: Vec<u64>,
    /// How many cells each set holds.
    sizes: Vec<u32>,
}

impl Buckets {
    /// `cells` cells, each with all `n` values.
    fn new(cells: usize, n: usize) -> Buckets {
        let words = cells.div_ceil(64);
        let mut b = Buckets {
            count: vec![n as u16; cells],
            words,
            cells: vec![0; (n + 1) * words],
            sizes: vec![0; n + 1],
        };
        (0..cells).for_each(|c| b.cells[n * words + c / 64] |= 1 << (c % 64));
        b.sizes[n] = cells as u32;
        b
    }

    /// The cell gained a value (`up`) or lost one.
    fn step(&mut self, cell: usize, up: bool) {
        let old = self.count[cell] as usize;
        let new = if up { old + 1 } else { old - 1 };
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        self.cells[old * self.words + word] &= !bit;
        self.cells[new * self.words + word] |= bit;
        self.sizes[old] -= 1;
        self.sizes[new] += 1;
        self.count[cell] = new as u16;
    }

    /// The first cell of the fewest candidates above one.
    fn first_open(&self) -> Option<usize> {
        let k = (2..self.sizes.len()).find(|&k| self.sizes[k] > 0)?;
        let set = &self.cells[k * self.words..(k + 1) * self.words];
        let (w, &word) = set.iter().enumerate().find(|(_, &w)| w != 0)?;
        Some(w * 64 + word.trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::engine::tests::puzzle_text as load;

    /// The sets give the cell the scan over every cell took: the fewest candidates above one, the first such in
    /// row-major order; after any steps down and back up.
    #[test]
    fn buckets_find_the_cell_a_scan_finds() {
        let mut rng = fastrand::Rng::with_seed(65);
        let (cells, n) = (150, 70);
        let mut b = Buckets::new(cells, n);
        let mut steps: Vec<usize> = Vec::new();
        for round in 0..20_000 {
            let back = round % 7 == 6 && !steps.is_empty();
            if back {
                let cell = steps.swap_remove(rng.usize(..steps.len()));
                b.step(cell, true);
            } else {
                let cell = rng.usize(..cells);
                if b.count[cell] > 1 {
                    b.step(cell, false);
                    steps.push(cell);
                }
            }
            let scan = (0..cells)
                .filter(|&c| b.count[c] > 1)
                .min_by_key(|&c| (b.count[c], c));
            assert_eq!(b.first_open(), scan, "round {round}");
        }
        assert!(b.count.contains(&1) && b.first_open().is_some());
    }

    #[test]
    fn an_empty_wide_sudoku_and_latin_square_fill() {
        for text in [
            "type: sudoku\nsize: 81\nbox: 9x9\n",
            "type: latin\nsize: 70\n",
        ] {
            let p = load(text);
            let wide = Wide::derive(&p).expect("all-different groups only");
            let out = wide.search(&p, 1, 1_000_000, None);
            assert_eq!(
                out.solutions.len(),
                1,
                "{text}: {} nodes, {}",
                out.nodes,
                out.timed_out
            );
            assert!(p.check_grid(&out.solutions[0]).is_ok());
        }
    }

    #[test]
    fn a_run_stuck_in_a_corner_of_an_empty_wide_grid_is_repaired_there() {
        // An empty 81x81 Sudoku of 3x27 boxes: runs fill most of it and fail in a corner; repairing the deepest
        // node's corner solves it within two restarts (23,636 nodes), where runs from the root alone took 33
        // restarts and 241,593 nodes.
        let p = load("type: sudoku\nsize: 81\nbox: 3x27\n");
        let wide = Wide::derive(&p).expect("all-different groups only");
        let out = wide.search(&p, 1, 10_000_000, None);
        assert_eq!(out.solutions.len(), 1);
        assert!(out.restarts <= 2, "{} restarts", out.restarts);
        assert!(out.decided && !out.exhausted, "a repair proves nothing");
        assert!(p.check_grid(&out.solutions[0]).is_ok());
    }

    #[test]
    fn repairs_keep_an_enumeration_exact() {
        // The 4x4 Sudokus (288), restarting after every failure with a repair each time: each once, all of them.
        let p = load("type: sudoku\nsize: 4\nbox: 2x2\n");
        let wide = Wide::derive(&p).expect("all-different groups only");
        let out = wide.search_with_unit(&p, 1000, u64::MAX, None, 1);
        assert!(out.restarts > 0 && out.exhausted);
        let distinct: HashSet<&Grid> = out.solutions.iter().collect();
        assert_eq!((out.solutions.len(), distinct.len()), (288, 288));
    }

    /// Counted to their end, small grids give what brute force gives: every Latin square of order 4 (576) and
    /// 4x4 Sudoku (288), and the completions of a partial one.
    #[test]
    fn counts_equal_the_known_numbers() {
        for (text, want) in [
            ("type: latin\nsize: 4\n", 576),
            ("type: sudoku\nsize: 4\n", 288),
            ("type: latin\nsize: 5\n", 161_280),
            (
                "type: sudoku\nsize: 4\ngivens: |\n  1 . . .\n  . . 1 .\n  . . . .\n  . . . .\n",
                // r1c1 = 1 keeps a quarter of the 288; box 2's 1 is then on row 2, at c3 or c4 alike.
                288 / 4 / 2,
            ),
        ] {
            let p = load(text);
            let out = Wide::derive(&p)
                .unwrap()
                .search(&p, usize::MAX, u64::MAX, None);
            assert!(out.exhausted, "{text}");
            assert_eq!(out.solutions.len(), want, "{text}");
            let distinct: std::collections::HashSet<_> = out.solutions.iter().collect();
            assert_eq!(distinct.len(), want, "{text}");
        }
    }

    /// Against the engine's own search and backends (`crate::solve`), on example puzzles of every all-different
    /// type with givens taken out so that they have several solutions: the same grids, all of them.
    #[test]
    fn finds_what_the_engine_finds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        let mut compared = 0;
        for name in [
            "sudoku/boxes-2x3-6x6.yaml",
            "sudoku/clue-list-9x9.yaml",
            "sudoku/diagonal-9x9.yaml",
            "jigsaw/jigsaw-6x6.yaml",
            "jigsaw/jigsaw-9x9.yaml",
            "latin/completion-7x7.yaml",
        ] {
            let text = std::fs::read_to_string(root.join(name)).unwrap();
            let full = load(&text);
            // The file up to its givens: the type, size and regions, with no givens and no solution.
            let blank = text.split("\ngivens:").next().unwrap();
            for drop_every in [3, 5, 8] {
                let mut p = load(blank);
                for (k, (cell, v)) in full.givens().filled().enumerate() {
                    if k % drop_every != 0 {
                        p.give(cell, v).unwrap();
                    }
                }
                let options = crate::solve::SolveOptions {
                    max_solutions: 200,
                    ..Default::default()
                };
                let want = crate::solve(&p, &options).unwrap();
                let got = Wide::derive(&p).unwrap().search(&p, 200, u64::MAX, None);
                assert_eq!(got.exhausted, want.complete, "{name} / {drop_every}");
                let set = |g: &[Grid]| g.iter().cloned().collect::<HashSet<Grid>>();
                if want.complete {
                    assert_eq!(
                        set(&got.solutions),
                        set(&want.solutions),
                        "{name} / {drop_every}"
                    );
                    compared += got.solutions.len();
                } else {
                    // More than asked for: each found its 200, all of them solutions.
                    assert_eq!(set(&got.solutions).len(), 200, "{name} / {drop_every}");
                    assert!(got.solutions.iter().all(|g| p.check_grid(g).is_ok()));
                }
            }
        }
        assert!(compared > 300, "only {compared} solutions compared");
    }

    /// Through `solve`, past 64x64: decided by this search (the backend was never built), verified exactly. A
    /// 100x100 Sudoku with 70% of a solution given at random: its completions counted to 2.
    #[test]
    fn solve_takes_wide_grids_here() {
        let (b, n) = (10, 100);
        let mut p = load("type: sudoku\nsize: 100\nbox: 10x10\n");
        let mut givens = Grid::empty(n);
        let mut rng = fastrand::Rng::with_seed(100);
        for r in 0..n {
            for c in (0..n).filter(|_| rng.f64() < 0.7) {
                givens.set(Cell::new(r, c), ((b * (r % b) + r / b + c) % n) as u32 + 1);
            }
        }
        p.give_all(&givens).unwrap();
        let options = crate::solve::SolveOptions {
            max_solutions: 2,
            time_limit: Some(std::time::Duration::from_secs(60)),
            ..Default::default()
        };
        let out = crate::solve(&p, &options).unwrap();
        assert!(out.stats.solved_by_search, "{:?}", out.stats);
        assert_eq!(out.stats.columns, 0, "no backend program");
        assert!(!out.solutions.is_empty());
        assert!(out.solutions.iter().all(|g| p.check_grid(g).is_ok()));
    }

    #[test]
    fn other_rules_are_not_taken_and_a_clash_is_no_solution() {
        let killer = load("type: killer\nsize: 4\ncages: |\n  AABB\n  AABB\n  CCDD\n  CCDD\nhints: {A: 10, B: 10, C: 10, D: 10}\n");
        assert!(Wide::derive(&killer).is_none());
        let clash = load("type: latin\nsize: 3\ngivens: |\n  1 . .\n  . 1 .\n  . . .\n");
        let out = Wide::derive(&clash).unwrap().search(&clash, 3, 1000, None);
        assert!(out.exhausted);
        // The two 1s leave the third row's 1 only at r3c3; 2 and 3 then go either way round.
        assert_eq!(out.solutions.len(), 2);
        let stuck = load("type: latin\nsize: 3\ngivens: |\n  1 2 .\n  2 . .\n  . . 1\n");
        let out = Wide::derive(&stuck).unwrap().search(&stuck, 2, 1000, None);
        assert!(out.exhausted && out.solutions.is_empty());
    }
}
