//! Every all-different group's singles (and, for search, pointing and claiming) at once, on bit boards.
//!
//! Run group by group, the singles of a 9x9 are hundreds of small propagations per puzzle, each waking the
//! groups of every cell it changes: on the 17-clue file that was two thirds of the time. The fast Sudoku solvers
//! hold one board per value instead (a bit per cell: where the value can still go), and so does this: a group is
//! a board too, and one pass over values x groups finds every hidden single, a cell's peers (a board) take a
//! placed value out of every group it is in at once, and a box-line overlap is two board tests per value. The
//! groups are whatever the grammar declared all-different (rows, columns, boxes, jigsaw regions, diagonals,
//! cages), so this holds for every type; the boards are for grids up to [`MAX_SIZE`] (a board is at most four
//! words) whose groups overlap (boxes, regions, diagonals beside the rows and columns), and other grids keep the
//! per-group propagators.
//!
//! It is implied by the groups (each deduction is one the group's own singles or the [`Intersection`] of two
//! groups makes), so it adds nothing to the program and checks nothing: the engine runs it in place of the
//! groups' singles and the separate intersections, and the groups then run only their matching. Where the groups
//! are the whole puzzle, search runs on the boards alone ([`search`]).
//!
//! [`Intersection`]: super::intersection::Intersection

// Boards are read word by word in step with other boards: indexed loops say that most plainly.
#![allow(clippy::needless_range_loop)]

pub(crate) mod search;

use std::sync::Arc;

use crate::domains::{bit_indices, Contradiction, Domains, Propagator};
use crate::grid::Cell;
use crate::rules::Rule;

/// The largest grid held on boards: 16 x 16 = 256 cells, four words (the domains keep each value's places
/// up to this size).
pub(crate) const MAX_SIZE: usize = crate::domains::PLACES_MAX_SIZE;

const WORDS: usize = 4;

/// A set of cells, bit `row * n + col`.
pub(crate) type Board = [u64; WORDS];

/// The puzzle's all-different groups as boards.
#[derive(Debug)]
pub(crate) struct Boards {
    n: usize,
    /// Words in use: n * n cells.
    words: usize,
    /// Every cell.
    grid: Board,
    /// Groups of n cells: each value exactly once (hidden singles). At most 128, so that a set of them is a
    /// `u128`.
    full: Vec<Board>,
    /// Per full group, the index of its rule among the puzzle's rules.
    rule_of: Vec<usize>,
    /// Every full group, and per cell the full groups that hold it.
    every_group: u128,
    groups_of: Vec<u128>,
    /// Per cell: the other cells of its groups, which cannot hold its value.
    peers: Vec<Board>,
    /// Per full group, per overlap with another (two cells or more, not all): the group's cells outside the
    /// overlap, and the other's. A value the group cannot place outside the overlap must be inside it, so it
    /// leaves the other's cells outside it.
    sides: Vec<Vec<(Board, Board)>>,
    /// Whether there are sides to look at (pointing and claiming asked for).
    confines: bool,
}

/// Adds cell i (row-major) to a set of cells.
pub(crate) fn bit(b: &mut Board, i: usize) {
    b[i / 64] |= 1 << (i % 64);
}

impl Boards {
    /// The boards of the puzzle's all-different groups, with their overlaps when `overlaps`; `None` when the
    /// grid is too large for boards or no two of its full groups overlap (then the groups do better alone).
    pub(crate) fn derive(size: usize, rules: &[Arc<dyn Rule>], overlaps: bool) -> Option<Self> {
        if size > MAX_SIZE {
            return None;
        }
        let n = size;
        // Each group as a board at once (the cells are not kept), with its rule and size.
        let groups: Vec<(usize, Board, usize)> = rules
            .iter()
            .enumerate()
            .filter_map(|(r, rule)| {
                let cells = rule.permutation_cells()?;
                let mut b = Board::default();
                cells.iter().for_each(|c| bit(&mut b, c.row * n + c.col));
                Some((r, b, cells.len()))
            })
            .collect();
        let (rule_of, full): (Vec<usize>, Vec<Board>) = groups
            .iter()
            .filter(|g| g.2 == n)
            .map(|&(r, b, _)| (r, b))
            .unzip();
        if full.len() > 128 {
            return None;
        }
        let mut sides = vec![Vec::new(); full.len()];
        let mut overlapping = false;
        for (a, ga) in full.iter().enumerate() {
            for (b, gb) in full.iter().enumerate().skip(a + 1) {
                let shared: u32 = (0..WORDS).map(|w| (ga[w] & gb[w]).count_ones()).sum();
                if shared >= 2 && (shared as usize) < n {
                    let only = |x: &Board, y: &Board| std::array::from_fn(|w| x[w] & !y[w]);
                    sides[a].push((only(ga, gb), only(gb, ga)));
                    sides[b].push((only(gb, ga), only(ga, gb)));
                    overlapping = true;
                }
            }
        }
        // Measured: where no two groups overlap (a Latin square's rows and columns, with cages or not) a
        // change wakes two groups and their own singles are cheaper than a pass over the boards (order-10 and
        // order-15 QCPs 1.27x slower on boards); where they do (boxes, jigsaw regions, diagonals), a placed
        // value leaves three groups at once and the boards win (17-clue 1.37x faster).
        if !overlapping {
            return None;
        }
        if !overlaps {
            sides.iter_mut().for_each(Vec::clear);
        }
        let cells_of =
            |b: Board| (0..WORDS).flat_map(move |w| bit_indices(b[w]).map(move |k| w * 64 + k));
        let mut grid = Board::default();
        (0..n * n).for_each(|i| bit(&mut grid, i));
        let mut peers = vec![Board::default(); n * n];
        for (_, b, _) in &groups {
            for i in cells_of(*b) {
                (0..WORDS).for_each(|w| peers[i][w] |= b[w]);
            }
        }
        for (i, p) in peers.iter_mut().enumerate() {
            p[i / 64] &= !(1 << (i % 64));
        }
        let mut groups_of = vec![0u128; n * n];
        for (g, b) in full.iter().enumerate() {
            cells_of(*b).for_each(|i| groups_of[i] |= 1 << g);
        }
        Some(Boards {
            n,
            words: (n * n).div_ceil(64),
            grid,
            every_group: if full.len() == 128 {
                u128::MAX
            } else {
                (1u128 << full.len()) - 1
            },
            full,
            rule_of,
            groups_of,
            peers,
            sides,
            confines: overlaps,
        })
    }

    /// A contradiction at cell i: pinned on the first full group that holds it.
    fn clash_at(&self, i: usize) -> Clash {
        let groups = self.groups_of[i];
        Clash((groups != 0).then(|| groups.trailing_zeros() as usize))
    }

    /// A run's boards from one board per value (`cand`, the first n used), every group to be looked at.
    fn work<const W: usize>(&self, cand: &[Board; MAX_SIZE]) -> Work<'_, W> {
        Work {
            boards: self,
            cand: std::array::from_fn(|v| std::array::from_fn(|w| cand[v][w])),
            spread: [0; W],
            dirty: [[0; W]; MAX_SIZE],
            unconfined: [0; MAX_SIZE],
            all_dirty: true,
        }
    }

    /// One board per value from the domains, which keep them ([`Domains::places`]).
    fn read(&self, d: &Domains) -> [Board; MAX_SIZE] {
        let mut cand = [Board::default(); MAX_SIZE];
        let places = d
            .places()
            .expect("domains of a grid on boards keep their places");
        cand[..places.len()].copy_from_slice(places);
        cand
    }
}

/// A contradiction, and the full group (its index) where it showed, when there is one.
struct Clash(Option<usize>);

/// One run's boards: where each value can go, and what changed since the hidden singles and the overlaps last
/// looked. W words a board (the grid's cells), a constant so that the loops over words unroll; cloned, it is a
/// search node's whole state.
#[derive(Clone)]
struct Work<'a, const W: usize> {
    boards: &'a Boards,
    /// Per value, the cells that can still hold it (the first n values used).
    cand: [[u64; W]; MAX_SIZE],
    /// Fixed cells whose value has left their peers already.
    spread: [u64; W],
    /// Per value: cells that lost it since its groups were last counted.
    dirty: [[u64; W]; MAX_SIZE],
    /// Per value: the full groups where it lost a cell since their overlaps were last looked at.
    unconfined: [u128; MAX_SIZE],
    /// Every group is to be counted (the first pass: what changed before this run is not known).
    all_dirty: bool,
}

impl<const W: usize> Work<'_, W> {
    /// Takes `other` out of value v's board; whether that removed anything.
    fn take(&mut self, v: usize, other: &Board) -> bool {
        let mut removed = false;
        for w in 0..W {
            let gone = self.cand[v][w] & other[w];
            self.cand[v][w] &= !gone;
            self.dirty[v][w] |= gone;
            removed |= gone != 0;
        }
        removed
    }

    /// What a run on boards at their own fixpoint but for the values the cells `lost` since needs to look at
    /// again: only the groups where a value left a cell, and only the placed cells among the changed ones to
    /// spread (every other placed value left its peers at that fixpoint, and candidates never come back within
    /// a propagation).
    fn only_lost(&mut self, lost: &[Board]) {
        let mut changed = [0u64; W];
        for (v, l) in lost.iter().enumerate().take(self.boards.n) {
            self.dirty[v].copy_from_slice(&l[..W]);
            for w in 0..W {
                changed[w] |= l[w];
            }
        }
        let (once, twice) = self.counts();
        for w in 0..W {
            self.spread[w] = once[w] & !twice[w] & !changed[w];
        }
        self.all_dirty = false;
    }

    /// Cells with at least one value, and with at least two.
    fn counts(&self) -> ([u64; W], [u64; W]) {
        let (mut once, mut twice) = ([0; W], [0; W]);
        for c in &self.cand[..self.boards.n] {
            for w in 0..W {
                twice[w] |= once[w] & c[w];
                once[w] |= c[w];
            }
        }
        (once, twice)
    }

    /// Cells with no value left are a contradiction; the cells with exactly one.
    fn fixed(&self) -> Result<[u64; W], Clash> {
        let (once, twice) = self.counts();
        let grid = &self.boards.grid;
        if let Some(w) = (0..W).find(|&w| once[w] != grid[w]) {
            let empty = grid[w] & !once[w];
            return Err(self
                .boards
                .clash_at(w * 64 + empty.trailing_zeros() as usize));
        }
        Ok(std::array::from_fn(|w| once[w] & !twice[w]))
    }

    /// Placed values leave their peers: whether anything moved.
    fn naked(&mut self) -> Result<bool, Clash> {
        let fixed = self.fixed()?;
        let mut moved = false;
        for w in 0..W {
            let mut fresh = fixed[w] & !self.spread[w];
            self.spread[w] |= fresh;
            while fresh != 0 {
                let i = w * 64 + fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                // An earlier placement in this pass may have taken the value (two cells placed alike).
                let v = self.cand[..self.boards.n]
                    .iter()
                    .position(|c| c[w] >> (i % 64) & 1 == 1);
                let v = v.ok_or_else(|| self.boards.clash_at(i))?;
                moved |= self.take(v, &self.boards.peers[i]);
            }
        }
        Ok(moved)
    }

    /// A value with one cell left in a full group goes there; a value with none is a contradiction. Only the
    /// groups where the value lost a cell since they were last counted are counted again.
    fn hidden(&mut self) -> Result<bool, Clash> {
        let b = self.boards;
        let mut only = [[0u64; W]; MAX_SIZE];
        for v in 0..b.n {
            let mut groups = if self.all_dirty { b.every_group } else { 0 };
            for w in 0..W {
                let mut cells = self.dirty[v][w];
                while cells != 0 {
                    groups |= b.groups_of[w * 64 + cells.trailing_zeros() as usize];
                    cells &= cells - 1;
                }
            }
            self.dirty[v] = [0; W];
            self.unconfined[v] |= groups;
            while groups != 0 {
                let index = groups.trailing_zeros() as usize;
                let g = &b.full[index];
                groups &= groups - 1;
                // None, one or more cells, told without counting bits (no popcount on a baseline x86-64).
                let (mut at, mut any, mut many) = ([0u64; W], false, false);
                for w in 0..W {
                    let x = self.cand[v][w] & g[w];
                    at[w] = x;
                    many |= (x & x.wrapping_sub(1) != 0) | (any & (x != 0));
                    any |= x != 0;
                }
                if !any {
                    return Err(Clash(Some(index)));
                }
                if !many {
                    (0..W).for_each(|w| only[v][w] |= at[w]);
                }
            }
        }
        self.all_dirty = false;
        let mut moved = false;
        for v in 0..b.n {
            if only[v].iter().any(|&x| x != 0) {
                let cells: Board = std::array::from_fn(|w| if w < W { only[v][w] } else { 0 });
                for u in (0..b.n).filter(|&u| u != v) {
                    moved |= self.take(u, &cells);
                }
            }
        }
        Ok(moved)
    }

    /// Pointing and claiming over the overlaps of the groups where a value lost a cell since they were last
    /// looked at (a value becomes confined to an overlap only by leaving the rest of a group): whether
    /// anything moved.
    fn confine(&mut self) -> bool {
        let mut moved = false;
        let b = self.boards;
        if !b.confines {
            return false;
        }
        for v in 0..b.n {
            let mut groups = std::mem::take(&mut self.unconfined[v]);
            while groups != 0 {
                let g = groups.trailing_zeros() as usize;
                groups &= groups - 1;
                for (outside, other) in &b.sides[g] {
                    if (0..W).all(|w| outside[w] & self.cand[v][w] == 0) {
                        moved |= self.take(v, other);
                    }
                }
            }
        }
        moved
    }

    /// The singles to their fixpoint, then the overlaps, and again while the overlaps find something. Naked and
    /// hidden singles take turns, so that a contradiction is pinned on a group as often as on a cell: the
    /// engine's search weighs the groups by it (measured: the order that runs naked singles to their fixpoint
    /// first took whispers-009 from 218 search nodes to 257 and on to CaDiCaL).
    fn settle(&mut self) -> Result<(), Clash> {
        loop {
            let naked = self.naked()?;
            let hidden = self.hidden()?;
            if !naked && !hidden && !self.confine() {
                return Ok(());
            }
        }
    }

    /// [`Self::settle`] with naked singles to their fixpoint before hidden singles are counted: fewer passes
    /// over the groups. For search on the boards, which weighs nothing (forum-hardest-1106 249 -> 196 ms).
    fn settle_singles_first(&mut self) -> Result<(), Clash> {
        loop {
            if self.naked()? || self.hidden()? || self.confine() {
                continue;
            }
            return Ok(());
        }
    }
}

impl Propagator for Boards {
    fn watches(&self) -> Vec<Cell> {
        let n = self.n;
        (0..n * n).map(|i| Cell::new(i / n, i % n)).collect()
    }

    fn idempotent(&self) -> bool {
        true
    }

    /// The singles to their fixpoint, then the overlaps, and again while the overlaps find something: one run
    /// leaves its own fixpoint (it is not woken by its own changes).
    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        self.propagate_blaming(d).map_err(|_| Contradiction)
    }

    /// [`Self::propagate`], pinning a contradiction on the rule of the group where it showed: search weighs
    /// the groups by their failures, as it did when each group ran its own singles.
    fn propagate_blaming(&self, d: &mut Domains) -> Result<bool, Option<usize>> {
        self.propagate_since(d, false)
    }
}

impl Boards {
    /// [`Propagator::propagate_blaming`], told (`since`) that the domains were at the boards' own fixpoint but
    /// for the values they lost since ([`Domains::lost`]): only the groups where a value left a cell are counted
    /// again and only placed cells among the changed ones spread to their peers, where a run told nothing looks
    /// at every group and every placed cell. The engine tells it after the boards' first run of a propagation,
    /// and search from a node's first run too ([`Engine::after_settled_blame`]; the boards' full passes were a
    /// third of the time of search on arrow Sudokus, and recounting every group of a changed cell for every
    /// value it lacked, not the ones it lost, a third of what was left on whispers).
    ///
    /// [`Engine::after_settled_blame`]: crate::solve::engine::Engine::after_settled_blame
    pub(crate) fn propagate_since(
        &self,
        d: &mut Domains,
        since: bool,
    ) -> Result<bool, Option<usize>> {
        // The word count as a constant, so that the loops over a board's words unroll.
        match self.words {
            1 => self.settle_domains::<1>(d, since),
            2 => self.settle_domains::<2>(d, since),
            3 => self.settle_domains::<3>(d, since),
            _ => self.settle_domains::<WORDS>(d, since),
        }
    }

    /// The domains read onto boards, settled (from what they lost only, when `since`), and the cells that lost
    /// a value written back; the boards are then at their fixpoint, and what the domains lost is forgotten.
    fn settle_domains<const W: usize>(
        &self,
        d: &mut Domains,
        since: bool,
    ) -> Result<bool, Option<usize>> {
        let n = self.n;
        let before = self.read(d);
        let mut work = self.work::<W>(&before);
        if since {
            work.only_lost(d.lost().expect("domains on boards keep what they lost"));
        }
        work.settle()
            .map_err(|Clash(g)| g.map(|g| self.rule_of[g]))?;
        let mut changed = false;
        for w in 0..W {
            let mut lost = 0;
            for v in 0..n {
                lost |= before[v][w] & !work.cand[v][w];
            }
            while lost != 0 {
                let i = w * 64 + lost.trailing_zeros() as usize;
                lost &= lost - 1;
                let mask = (0..n)
                    .filter(|&v| work.cand[v][w] >> (i % 64) & 1 == 1)
                    .fold(0u64, |m, v| m | 1 << v);
                changed |= d
                    .restrict(Cell::new(i / n, i % n), mask)
                    .map_err(|_| None)?;
            }
        }
        d.forget_lost();
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Puzzle;

    /// A 4x4 Sudoku's boards, and the index among its rules of the group holding `cells`.
    fn sudoku4() -> (Puzzle, Boards) {
        let p = Puzzle::sudoku(4).unwrap();
        let b = Boards::derive(4, p.rules(), true).unwrap();
        (p, b)
    }

    fn rule_holding(p: &Puzzle, cells: &[Cell]) -> usize {
        p.rules()
            .iter()
            .position(|r| r.permutation_cells().is_some_and(|g| g == cells))
            .unwrap()
    }

    #[test]
    fn a_value_with_no_place_in_a_group_is_pinned_on_that_group() {
        let (p, b) = sudoku4();
        // Row 2 has no cell left for 3.
        let mut d = Domains::full(4);
        for c in 0..4 {
            d.remove(Cell::new(2, c), 3).unwrap();
        }
        let row: Vec<Cell> = (0..4).map(|c| Cell::new(2, c)).collect();
        assert_eq!(
            b.propagate_blaming(&mut d),
            Err(Some(rule_holding(&p, &row)))
        );
    }

    #[test]
    fn singles_and_overlaps_on_a_4x4() {
        let (_, b) = sudoku4();
        // A placed 1 at r0c0 leaves its row, column and box; 2 can then only go at r0c1 in the top-left box
        // once r1c0 and r1c1 lose it, and so leaves the rest of row 0.
        let mut d = Domains::full(4);
        d.assign(Cell::new(0, 0), 1).unwrap();
        d.remove(Cell::new(1, 0), 2).unwrap();
        d.remove(Cell::new(1, 1), 2).unwrap();
        assert_eq!(b.propagate(&mut d), Ok(true));
        for c in [
            Cell::new(0, 1),
            Cell::new(0, 3),
            Cell::new(3, 0),
            Cell::new(1, 1),
        ] {
            assert!(!d.contains(c, 1), "{c:?}");
        }
        assert_eq!(d.fixed(Cell::new(0, 1)), Some(2));
        assert!(!d.contains(Cell::new(0, 2), 2) && !d.contains(Cell::new(0, 3), 2));
        // Its own fixpoint: a second run changes nothing.
        assert_eq!(b.propagate(&mut d), Ok(false));
    }

    /// On boards at their own fixpoint, one change, and a run told that cell only ends where a run told
    /// nothing ends: the same candidates, or a contradiction on the same group.
    #[test]
    fn told_the_changed_cell_a_run_ends_where_a_full_run_ends() {
        let p = Puzzle::sudoku(9).unwrap();
        let b = Boards::derive(9, p.rules(), true).unwrap();
        let mut rng = fastrand::Rng::with_seed(3);
        let (mut compared, mut failed) = (0, 0);
        for _ in 0..3000 {
            // A shuffled pattern solution, each cell with a few more candidates.
            let mut d = Domains::full(9);
            let shift = rng.u32(0..9);
            for i in 0..81 {
                let (r, c) = (i / 9, i % 9);
                let v = (3 * (r % 3) + r / 3 + c + shift as usize) % 9;
                let others = (0..rng.usize(3..9)).fold(0u64, |m, _| m | 1 << rng.u32(0..9));
                d.restrict(Cell::new(r, c), 1 << v | others).unwrap();
            }
            if b.propagate(&mut d).is_err() {
                continue;
            }
            let open: Vec<usize> = (0..81)
                .filter(|&i| d.get(Cell::new(i / 9, i % 9)).count_ones() > 1)
                .collect();
            if open.is_empty() {
                continue;
            }
            let i = open[rng.usize(..open.len())];
            let cell = Cell::new(i / 9, i % 9);
            let v = d
                .values(cell)
                .nth(rng.usize(..d.get(cell).count_ones() as usize));
            if rng.bool() {
                d.assign(cell, v.unwrap()).unwrap();
            } else {
                d.remove(cell, v.unwrap()).unwrap();
            }
            let (mut told, mut plain) = (d.clone(), d);
            let from_cell = b.propagate_since(&mut told, true);
            assert_eq!(from_cell, b.propagate_blaming(&mut plain));
            match from_cell {
                Ok(_) => assert_eq!(told, plain),
                Err(_) => failed += 1,
            }
            compared += 1;
        }
        assert!(compared > 1000 && failed > 50, "{compared} {failed}");
    }

    #[test]
    fn grids_past_sixteen_and_latin_squares_keep_the_groups() {
        let p = Puzzle::sudoku(25).unwrap();
        assert!(Boards::derive(25, p.rules(), true).is_none());
        // Rows and columns meet in one cell: nothing overlaps.
        let p = Puzzle::latin(9).unwrap();
        assert!(Boards::derive(9, p.rules(), false).is_none());
        let p = Puzzle::sudoku(16).unwrap();
        let b = Boards::derive(16, p.rules(), true).unwrap();
        // Each of the 16 boxes meets 4 rows and 4 columns, each side once for each.
        let sides: usize = b.sides.iter().map(Vec::len).sum();
        assert_eq!((b.words, b.full.len(), sides), (4, 48, 2 * 2 * 16 * 4));
    }
}
