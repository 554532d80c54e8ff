//! Depth-first search on the boards alone, for puzzles whose every rule is an all-different group.
//!
//! The engine's search pays, at every node, for a domain table, a trail, a queue of woken rules and each group's
//! matching: on a 9x9 that is about ten microseconds a node. When the boards are the whole puzzle (Sudoku,
//! jigsaw, Sudoku X, windoku: any grammar whose rules are all-different groups, on a grid of up to 16 x 16), a
//! node's whole state is one board per value, a few hundred bytes: copied for a branch, settled by the singles
//! and the overlaps, with no matching. Nodes are weaker and far cheaper, the way the fast 9x9 solvers (tdoku)
//! are built. The branch is a cell with the fewest candidates, two when there is one (either way is then a
//! placement); every grid found is verified against the puzzle's rules before it counts.

use super::{Boards, Clash, Work, WORDS};
use crate::domains::Domains;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::solve::search::{SearchBudget, SearchOutcome};

/// Why a subtree stopped early.
enum Stop {
    /// Enough solutions were found.
    Enough,
    /// Out of nodes or time.
    Budget,
}

impl Boards {
    /// Whether search on the boards alone decides `puzzle`: every rule is one of their groups.
    pub(crate) fn cover(&self, puzzle: &Puzzle) -> bool {
        puzzle
            .rules()
            .iter()
            .all(|r| r.permutation_cells().is_some())
    }

    /// Searches from presolved domains for up to `max_solutions` solutions, within the budget's nodes.
    pub(crate) fn search(
        &self,
        puzzle: &Puzzle,
        domains: &Domains,
        max_solutions: usize,
        budget: SearchBudget,
    ) -> SearchOutcome {
        match self.words {
            1 => self.search_in::<1>(puzzle, domains, max_solutions, budget),
            2 => self.search_in::<2>(puzzle, domains, max_solutions, budget),
            3 => self.search_in::<3>(puzzle, domains, max_solutions, budget),
            _ => self.search_in::<WORDS>(puzzle, domains, max_solutions, budget),
        }
    }

    fn search_in<const W: usize>(
        &self,
        puzzle: &Puzzle,
        domains: &Domains,
        max_solutions: usize,
        budget: SearchBudget,
    ) -> SearchOutcome {
        let mut s = Searcher {
            puzzle,
            max_solutions: max_solutions.max(1),
            budget,
            out: SearchOutcome::default(),
        };
        let mut root = self.work::<W>(&self.read(domains));
        let end = match root.settle_singles_first() {
            Ok(()) => s.explore(root),
            Err(Clash(_)) => Ok(()),
        };
        match end {
            Ok(()) => {
                s.out.decided = true;
                s.out.exhausted = true;
            }
            Err(Stop::Enough) => s.out.decided = true,
            Err(Stop::Budget) => {}
        }
        s.out
    }
}

struct Searcher<'a> {
    puzzle: &'a Puzzle,
    max_solutions: usize,
    budget: SearchBudget<'a>,
    out: SearchOutcome,
}

impl Searcher<'_> {
    /// Explores every completion of a settled node.
    fn explore<const W: usize>(&mut self, mut node: Work<'_, W>) -> Result<(), Stop> {
        loop {
            let Some((i, v)) = node.branch() else {
                return self.leaf(&node);
            };
            self.tick()?;
            let mut child = node.clone();
            child.place(i, v);
            if child.settle_singles_first().is_ok() {
                self.explore(child)?;
            }
            // Every completion with cell i = v has been seen: go on with v removed.
            self.tick()?;
            node.take_cell(v, i);
            if node.settle_singles_first().is_err() {
                return Ok(());
            }
        }
    }

    fn leaf<const W: usize>(&mut self, node: &Work<'_, W>) -> Result<(), Stop> {
        let grid = node.grid();
        if self.out.passes(self.puzzle, &grid) {
            self.out.solutions.push(grid);
            if self.out.solutions.len() >= self.max_solutions {
                return Err(Stop::Enough);
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Stop> {
        // A node on boards is a few microseconds at most (up to 16x16, singles and overlaps only): the clock
        // every 256 of them.
        match self.out.spend(&self.budget, 256) || self.out.earned_enough(&self.budget) {
            true => Ok(()),
            false => Err(Stop::Budget),
        }
    }
}

impl<const W: usize> Work<'_, W> {
    /// The cell to branch on and the value to try first: the first cell with two candidates, else one with the
    /// fewest; `None` when every cell is fixed.
    fn branch(&self) -> Option<(usize, usize)> {
        let n = self.boards.n;
        let (mut once, mut twice, mut thrice) = ([0u64; W], [0u64; W], [0u64; W]);
        for c in &self.cand[..n] {
            for w in 0..W {
                thrice[w] |= twice[w] & c[w];
                twice[w] |= once[w] & c[w];
                once[w] |= c[w];
            }
        }
        let pairs: [u64; W] = std::array::from_fn(|w| twice[w] & !thrice[w]);
        let cell = match (0..W).find(|&w| pairs[w] != 0) {
            Some(w) => w * 64 + pairs[w].trailing_zeros() as usize,
            None => {
                // No cell with two: the open cell with the fewest.
                let open = (0..W)
                    .flat_map(|w| crate::domains::bit_indices(twice[w]).map(move |k| w * 64 + k));
                open.min_by_key(|&i| self.values_at(i).count_ones())?
            }
        };
        Some((cell, self.values_at(cell).trailing_zeros() as usize))
    }

    /// The values cell i can still hold, as a mask (bit v for value v + 1).
    fn values_at(&self, i: usize) -> u64 {
        (0..self.boards.n)
            .filter(|&v| self.cand[v][i / 64] >> (i % 64) & 1 == 1)
            .fold(0, |m, v| m | 1 << v)
    }

    /// Places value v in cell i: every other value leaves it.
    fn place(&mut self, i: usize, v: usize) {
        for u in (0..self.boards.n).filter(|&u| u != v) {
            self.take_cell(u, i);
        }
    }

    /// Takes value v out of cell i.
    fn take_cell(&mut self, v: usize, i: usize) {
        let mut cell = [0u64; WORDS];
        cell[i / 64] = 1 << (i % 64);
        self.take(v, &cell);
    }

    /// The grid of a node whose every cell is fixed.
    fn grid(&self) -> Grid {
        let n = self.boards.n;
        let mut grid = Grid::empty(n);
        for v in 0..n {
            for w in 0..W {
                for k in crate::domains::bit_indices(self.cand[v][w]) {
                    let i = w * 64 + k;
                    grid.set(Cell::new(i / n, i % n), v as u32 + 1);
                }
            }
        }
        grid
    }
}
