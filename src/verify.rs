//! Exact verification of a grid against a puzzle: values in range, givens kept, every rule's own exact check.
//!
//! This is independent of the compiler: it reads the rules' integer definitions, never the rows they compiled
//! to, so a solver answer that satisfied the rows only through floating-point tolerance is caught here.

use crate::grid::Grid;
use crate::model::Puzzle;

/// Checks a complete grid; `Err` lists what is wrong (the first few violations).
pub fn verify(puzzle: &Puzzle, grid: &Grid) -> Result<(), Vec<String>> {
    let n = puzzle.size();
    let mut problems = Vec::new();
    if grid.size() != n {
        return Err(vec![format!(
            "the grid is {0}x{0}, the puzzle {n}x{n}",
            grid.size()
        )]);
    }
    for cell in grid.cells() {
        let v = grid.get(cell);
        if v == 0 || v as usize > n {
            problems.push(format!("{cell} holds {v}, outside 1..{n}"));
        }
    }
    for (cell, v) in puzzle.givens().filled() {
        if grid.get(cell) != v {
            problems.push(format!(
                "{cell} is given as {v} but holds {}",
                grid.get(cell)
            ));
        }
    }
    if problems.is_empty() {
        problems.extend(puzzle.rules().iter().filter_map(|r| r.check(grid).err()));
    }
    problems.truncate(10);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
