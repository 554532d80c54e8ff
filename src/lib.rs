//! `latin` solves the Latin-square puzzle family (Sudoku of any box shape, Latin squares, Inshi no heya, KenKen,
//! and any type declared as a grammar file) exactly, with propagation, search, clause learning and integer
//! programming behind one pipeline.
//!
//! Data flows one way: a puzzle file is parsed, read through its type's grammar into a checked [`Puzzle`] made
//! of rule values, compiled to a solver-neutral [`BinaryProgram`] over `x[r][c][v]`, and solved: presolve and
//! search over the rules' own propagators decide most puzzles, and what they leave goes to CaDiCaL (when every
//! row is a clause) or COIN-OR CBC. Every answer is verified in exact integer arithmetic ([`check`]) before it
//! is returned.
//!
//! This façade is the whole public surface: load a puzzle, solve or count it, check a grid, export the program.
//!
//! ```
//! use latin::{load_str, solve, Registry, SolveOptions};
//! let file = "type: inshi
//! rooms: |
//!   ABBCD
//!   AEEFD
//!   GGHFD
//!   IJHKK
//!   ILHMM
//! hints: {A: 6, B: 15, C: 1, D: 12, E: 20, F: 8, G: 10, H: 6, I: 4, J: 4, K: 15, L: 1, M: 10}
//! ";
//! let puzzle = load_str(file, &Registry::built_in()).unwrap();
//! let outcome = solve(&puzzle, &SolveOptions { max_solutions: 2, ..SolveOptions::default() }).unwrap();
//! assert_eq!(outcome.solutions.len(), 1);
//! assert!(outcome.complete);
//! assert_eq!(outcome.solutions[0].rows()[0], vec![2, 3, 5, 1, 4]);
//! assert!(latin::check(&puzzle, &outcome.solutions[0]).is_ok());
//! ```

// Foundations: import nothing above them.
mod domains;
mod error;
mod grid;
mod program;
mod yaml;
// The pipeline, in order.
mod analyse;
mod compile;
mod grammar;
mod import;
mod model;
mod parse;
mod report;
mod rules;
mod solve;
mod verify;
// Drivers over many puzzles, and the command line.
mod bench;
mod bulk;
pub mod cli;
#[doc(hidden)]
pub mod fuzzing;

// CBC is built from source and linked statically by `cbc-src`; naming the crate keeps the link.
use cbc_src as _;

pub use analyse::candidates::Candidates;
pub use analyse::hint::{Chain, Hint, Hints};
pub use analyse::progress::{Fault, Judged, Progress};
pub use analyse::rate::{Rating, LEVELS};
pub use error::{Error, ModelError, Position, Violation};
pub use grammar::{Broken, Grammar, Registry};
pub use grid::{Cell, Grid};
pub use import::Format;
pub use model::{load, load_str, Objective, Puzzle, Sense};
pub use program::BinaryProgram;
pub use solve::{
    BackendChoice, Cbc, DecidedBy, Outcome, SolveOptions, Stats, Status, DEFAULT_SEARCH_NODES,
};

/// Solves a puzzle: up to `options.max_solutions` solutions, each verified exactly before it is returned, and
/// whether there are more (`complete`).
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Outcome, Error> {
    let deadline = options.deadline();
    verify::outcome(puzzle, solve::run(puzzle, options)?, deadline)
}

/// [`solve`] through engines built before for the puzzle's rules (`--lines`: once per thread for the template).
pub(crate) fn solve_with(
    puzzle: &Puzzle,
    options: &SolveOptions,
    engines: &solve::Engines,
) -> Result<Outcome, Error> {
    let deadline = options.deadline();
    verify::outcome(
        puzzle,
        solve::run_with(puzzle, options, Some(engines))?,
        deadline,
    )
}

/// The whole binary program of a puzzle, before any presolve: for export (`to_lp`) and for other solvers.
pub fn compile(puzzle: &Puzzle) -> BinaryProgram {
    compile::compile(puzzle, None)
}

/// Counts solutions up to `max`: `outcome.solutions.len()` of them, and `outcome.complete` when there are no
/// more.
pub fn count(puzzle: &Puzzle, max: usize, options: &SolveOptions) -> Result<Outcome, Error> {
    solve(
        puzzle,
        &SolveOptions {
            max_solutions: max,
            ..options.clone()
        },
    )
}

/// Every cell's true candidates: the values it holds in at least one solution (found by solving), within
/// `options.time_limit` in all.
pub fn candidates(puzzle: &Puzzle, options: &SolveOptions) -> Result<Candidates, Error> {
    analyse::candidates::candidates(puzzle, options)
}

/// Judges a grid filled part way (0 = empty): the filled cells that break a rule or, when the puzzle has one
/// solution, differ from it; the solution itself is not returned.
pub fn check_progress(
    puzzle: &Puzzle,
    progress: &Grid,
    options: &SolveOptions,
) -> Result<Progress, Error> {
    analyse::progress::judge(puzzle, progress, options)
}

/// Grades a puzzle by the weakest ladder of deductions that solves it ([`Rating`]).
pub fn rate(puzzle: &Puzzle, options: &SolveOptions) -> Result<Rating, Error> {
    analyse::rate::rate(puzzle, options)
}

/// The next step a person can follow (`all`: every step until the grid is full or none applies), from the
/// givens and the cells in `progress`.
pub fn hints(
    puzzle: &Puzzle,
    progress: Option<&Grid>,
    all: bool,
    time_limit: Option<std::time::Duration>,
) -> Result<Hints, Error> {
    analyse::hint::hints(
        puzzle,
        progress,
        all,
        time_limit.map(|t| std::time::Instant::now() + t),
    )
}

/// Checks a complete grid against every rule of the puzzle in exact integer arithmetic; `Err` lists the first
/// few violations.
pub fn check(puzzle: &Puzzle, grid: &Grid) -> Result<(), Vec<Violation>> {
    puzzle.check_grid(grid)
}
