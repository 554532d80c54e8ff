//! Puzzle -> [`BinaryProgram`]: one value per cell, the givens fixed, then every rule's own rows, then the
//! objective.
//!
//! Nothing here knows which puzzle type it compiles: each rule writes its rows through the [`Compiler`]. With
//! domains from presolve, the columns of removed candidates are fixed to 0, so the backend sees only the
//! residual.

use std::time::Instant;

use crate::domains::Domains;
use crate::model::{Objective, Puzzle};
use crate::program::{BinaryProgram, Compiler};

/// Compiles a checked puzzle, with candidates already narrowed by presolve when `domains` is given.
pub(crate) fn compile(puzzle: &Puzzle, domains: Option<&Domains>) -> BinaryProgram {
    compile_until(puzzle, domains, None, None).expect("no deadline to pass, no size to exceed")
}

/// Why [`compile_until`] stopped before the program was whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unfinished {
    /// The deadline passed.
    TimeUp,
    /// The rules wrote more than the most bytes allowed: this many, so far.
    TooLarge { bytes: u64 },
}

/// [`compile`] that looks at the clock between rules, and keeps the rows to `max_bytes` (past it, the rows are
/// counted, not kept, and compiling stops at the next rule).
pub(crate) fn compile_until(
    puzzle: &Puzzle,
    domains: Option<&Domains>,
    deadline: Option<Instant>,
    max_bytes: Option<u64>,
) -> Result<BinaryProgram, Unfinished> {
    let n = puzzle.size();
    let mut c = Compiler::with_max_bytes(n, max_bytes.unwrap_or(u64::MAX));
    if let Some(d) = domains {
        for cell in puzzle.givens().cells() {
            for v in 1..=n as u32 {
                if !d.contains(cell, v) {
                    c.forbid(cell, v);
                }
            }
        }
    }
    for cell in puzzle.givens().cells() {
        let terms = (1..=n as u32).map(|v| (c.x(cell, v), 1.0)).collect();
        c.equal(terms, 1.0);
    }
    for (cell, v) in puzzle.givens().filled() {
        for w in 1..=n as u32 {
            if w != v {
                c.forbid(cell, w);
            }
        }
        let i = c.x(cell, v);
        c.fix_column(i, true);
    }
    // A rule that says what an earlier one says adds no row the program needs.
    for rule in puzzle.rules_solved() {
        if deadline.is_some_and(|t| Instant::now() >= t) {
            return Err(Unfinished::TimeUp);
        }
        if c.over() {
            return Err(Unfinished::TooLarge { bytes: c.bytes() });
        }
        rule.encode(&mut c);
    }
    if let Some(Objective { sense, weights }) = puzzle.objective() {
        let terms = weights
            .iter()
            .flat_map(|&(cell, w)| (1..=n as u32).map(move |v| (cell, w, v)))
            .map(|(cell, w, v)| (c.x(cell, v), w * f64::from(v)))
            .collect();
        c.objective(*sense, terms);
    }
    match c.over() {
        true => Err(Unfinished::TooLarge { bytes: c.bytes() }),
        false => Ok(c.finish()),
    }
}
