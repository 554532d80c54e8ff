//! `latin` solves the Latin-square puzzle family (Sudoku of any box shape, Latin squares, Inshi no heya, and
//! more types declared as grammars) with integer programming.
//!
//! The pipeline runs one way, one module per stage:
//! file -> [`parse`] (nom parsers for the mini-languages) -> [`model`] (a checked [`Puzzle`], built through a
//! [`grammar`]) -> [`compile`] (a solver-neutral [`BinaryProgram`] over `x[r][c][v]`, written by the rule
//! primitives in [`rules`]) -> [`solve`] (CBC) -> [`verify`] (exact integer check) -> [`report`].
//!
//! ```
//! use latin::{grammar::Registry, model, solve, SolveOptions};
//! let file = "type: inshi
//! rooms: |
//!   ABBCD
//!   AEEFD
//!   GGHFD
//!   IJHKK
//!   ILHMM
//! hints: {A: 6, B: 15, C: 1, D: 12, E: 20, F: 8, G: 10, H: 6, I: 4, J: 4, K: 15, L: 1, M: 10}
//! ";
//! let puzzle = model::load_str(file, &Registry::built_in()).unwrap();
//! let outcome = solve(&puzzle, &SolveOptions { max_solutions: 2, ..SolveOptions::default() }).unwrap();
//! assert_eq!(outcome.solutions.len(), 1);
//! assert!(outcome.complete);
//! assert_eq!(outcome.solutions[0].rows()[0], vec![2, 3, 5, 1, 4]);
//! ```

pub mod bench;
pub mod bulk;
pub mod compile;
pub mod error;
pub mod grammar;
pub mod grid;
pub mod model;
pub mod parse;
pub mod report;
pub mod rules;
pub mod solve;
pub mod verify;
pub mod yaml;

// CBC is built from source and linked statically by `cbc-src`; naming the crate keeps the link.
use cbc_src as _;

pub use compile::{compile, compile_with, BinaryProgram};
pub use error::Error;
pub use grid::{Cell, Grid};
pub use model::{Objective, Puzzle, Sense};
pub use solve::{solve, Outcome, SolveOptions, Status};
