//! True candidates: for every cell, the values it holds in at least one solution, found by solving, not by
//! propagation alone (a setter's main tool while setting: what is still open, and what is already forced).
//!
//! One count to 2 settles a unique puzzle (its solution is every cell's only candidate). Otherwise each value
//! propagation leaves in a cell, and no solution found so far uses there, is tried as a given: a solution
//! witnesses all 81 (n^2) of its values at once, so most values cost no solve of their own; a value whose try
//! is infeasible is no candidate. Each try's search prefers, cell by cell, values no solution has shown yet
//! ([`SolveOptions::prefer`]), so its solution witnesses as many new ones as it can: a blank 9x9 took 187
//! solves with plain value order.

use std::time::Instant;

use super::before;
use crate::error::Error;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::solve::presolve::{presolve, PresolveReport, ProbeBudget};
use crate::solve::SolveOptions;

/// Every cell's true candidates.
#[derive(Clone, Debug)]
pub struct Candidates {
    pub size: usize,
    /// Per cell, row by row: bit `v - 1` set when some solution puts `v` there.
    pub masks: Vec<u64>,
    /// Solutions found on the way (at most the first two are kept).
    pub examples: Vec<Grid>,
    /// Whether there are two or more solutions.
    pub several: bool,
    /// False when the time limit stopped the work: untested values are then shown as candidates.
    pub complete: bool,
    /// Solves run.
    pub solves: usize,
}

impl Candidates {
    /// The cells whose value is the same in every solution, with it.
    pub fn fixed(&self) -> Vec<(Cell, u32)> {
        (0..self.size * self.size)
            .filter(|&i| self.masks[i].count_ones() == 1)
            .map(|i| {
                (
                    Cell::new(i / self.size, i % self.size),
                    self.masks[i].trailing_zeros() + 1,
                )
            })
            .collect()
    }

    fn witness(&mut self, grid: &Grid) {
        for cell in grid.cells() {
            self.masks[cell.row * self.size + cell.col] |= 1 << (grid.get(cell) - 1);
        }
        if self.examples.len() < 2 && !self.examples.contains(grid) {
            self.examples.push(grid.clone());
        }
    }
}

/// The true candidates of every cell, within `options.time_limit` in all.
pub fn candidates(puzzle: &Puzzle, options: &SolveOptions) -> Result<Candidates, Error> {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let n = puzzle.size();
    let mut out = Candidates {
        size: n,
        masks: vec![0; n * n],
        examples: Vec::new(),
        several: false,
        complete: true,
        solves: 1,
    };
    let Some(first) = before(options, deadline, 2) else {
        return Ok(unfinished(out, &given(puzzle), 0));
    };
    let outcome = crate::solve(puzzle, &first)?;
    for grid in &outcome.solutions {
        out.witness(grid);
    }
    out.several = outcome.solutions.len() > 1;
    if !out.several {
        if !outcome.complete {
            // Stopped before a second solution or the proof that there is none: only propagation has ruled
            // values out, not "no solution" or "one solution".
            return Ok(unfinished(out, &propagated(puzzle, deadline), 0));
        }
        return Ok(out);
    }
    let open = propagated(puzzle, deadline);
    for i in 0..n * n {
        let cell = Cell::new(i / n, i % n);
        for v in 1..=n as u32 {
            if out.masks[i] & (1 << (v - 1)) != 0 || open[i] & (1 << (v - 1)) == 0 {
                continue;
            }
            let mut tried = puzzle.clone();
            if tried.give(cell, v).is_err() {
                continue;
            }
            let Some(mut once) = before(options, deadline, 1) else {
                return Ok(unfinished(out, &open, i));
            };
            // Search tries first the values no solution has shown yet, so this solve's solution shows many.
            once.prefer = Some(std::sync::Arc::new(out.masks.iter().map(|&m| !m).collect()));
            out.solves += 1;
            let outcome = crate::solve(&tried, &once)?;
            match outcome.solutions.first() {
                Some(grid) => out.witness(grid),
                None if outcome.complete => {}
                None => return Ok(unfinished(out, &open, i)),
            }
        }
    }
    Ok(out)
}

/// The values propagation leaves, per cell; only the givens' when presolve does not take this size or the
/// clock stopped it.
fn propagated(puzzle: &Puzzle, deadline: Option<Instant>) -> Vec<u64> {
    let n = puzzle.size();
    let mut report = PresolveReport::default();
    let budget = ProbeBudget::for_size(n, deadline);
    match presolve(puzzle, budget, deadline, &mut report) {
        Some(Ok(domains)) => (0..n * n)
            .map(|i| domains.get(Cell::new(i / n, i % n)))
            .collect(),
        _ => given(puzzle),
    }
}

/// Every value in every cell but a given's, which holds its own.
fn given(puzzle: &Puzzle) -> Vec<u64> {
    let n = puzzle.size();
    let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut masks = vec![all; n * n];
    for (cell, v) in puzzle.givens().filled() {
        masks[cell.row * n + cell.col] = 1 << (v - 1);
    }
    masks
}

/// Stopped by the clock at cell `from`: the cells not yet finished keep every value propagation left them.
fn unfinished(mut out: Candidates, open: &[u64], from: usize) -> Candidates {
    for (mask, &left) in out.masks.iter_mut().zip(open).skip(from) {
        *mask |= left;
    }
    out.complete = false;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;

    /// Every solution, by counting far: the union of their values per cell.
    fn brute(puzzle: &Puzzle) -> Vec<u64> {
        let all = crate::count(puzzle, 100_000, &SolveOptions::default()).unwrap();
        assert!(all.complete);
        let n = puzzle.size();
        let mut masks = vec![0; n * n];
        for g in &all.solutions {
            for c in g.cells() {
                masks[c.row * n + c.col] |= 1 << (g.get(c) - 1);
            }
        }
        masks
    }

    #[test]
    fn candidates_are_the_values_of_all_solutions() {
        let registry = Registry::built_in();
        for text in [
            "type: latin\nsize: 4\ngivens: |\n  1 . . .\n  . . . .\n  . . 3 .\n  . . . .\n",
            "type: sudoku\nsize: 4\ngivens: |\n  1 2 . .\n  . . . .\n  . . . .\n  . . . 4\n",
            "type: futoshiki\nsize: 4\nless: |\n  r1c1 < r1c2 < r1c3\n  r2c2 > r3c2\n",
            "type: kenken\nsize: 4\ncages: |\n  a a b b\n  c c b d\n  e f f d\n  e g g d\nhints: {a: 3+, b: 24x, c: 1-, d: 7+, e: 2/, f: 5+, g: 3-}\n",
            "type: latin\nsize: 3\ngivens: |\n  1 . .\n  . 1 .\n  . . 2\n",
        ] {
            let puzzle = crate::model::load_str(text, &registry).unwrap();
            let found = candidates(&puzzle, &SolveOptions::default()).unwrap();
            assert!(found.complete, "{text}");
            assert_eq!(found.masks, brute(&puzzle), "{text}");
            let fixed = found.fixed();
            assert!(fixed.iter().all(|&(c, v)| found.examples.iter().all(|g| g.get(c) == v)));
        }
    }

    /// A clock that stops before the first solve still leaves every given its own value alone, and every cell
    /// each of its true candidates.
    #[test]
    fn a_clock_stopped_at_once_keeps_the_givens() {
        let text = "type: latin\nsize: 4\ngivens: |\n  1 . . .\n  . . . .\n  . . 3 .\n  . . . .\n";
        let puzzle = crate::model::load_str(text, &Registry::built_in()).unwrap();
        let options = SolveOptions {
            time_limit: Some(std::time::Duration::from_nanos(1)),
            ..SolveOptions::default()
        };
        let found = candidates(&puzzle, &options).unwrap();
        assert!(!found.complete);
        assert_eq!(found.masks[0], 0b0001);
        assert_eq!(found.masks[2 * 4 + 2], 0b0100);
        for (got, truth) in found.masks.iter().zip(brute(&puzzle)) {
            assert_eq!(got & truth, truth);
        }
    }
}
