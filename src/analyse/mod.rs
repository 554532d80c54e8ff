//! What a setter or solver asks of a puzzle beyond its answer: the true candidates of every cell
//! ([`candidates`]), what is wrong so far in a half-filled grid ([`progress`]), how hard it is ([`rate`]), and
//! the next step in words ([`hint`]); and new puzzles ([`generate`]).
//!
//! Both drive the solver through the verified [`crate::solve`] entry point, so every solution they rely on was
//! checked exactly; nothing here knows a puzzle type.

pub(crate) mod candidates;
pub(crate) mod chain;
#[cfg(test)]
mod differential;
pub(crate) mod draft;
pub(crate) mod fish;
pub(crate) mod generate;
pub(crate) mod hint;
pub(crate) mod plan;
pub(crate) mod pointing;
pub(crate) mod progress;
pub(crate) mod rate;
pub(crate) mod regions;
mod thinning;

use std::time::{Duration, Instant};

use crate::error::Error;
use crate::grid::Cell;
use crate::model::Puzzle;
use crate::rules::Rule;
use crate::solve::SolveOptions;

/// Whether a rule is a group of n cells holding 1..n once (a row, column, box, region, diagonal): the groups a
/// person reads singles, intersections and subsets in.
fn is_full_group(rule: &dyn Rule, n: usize) -> bool {
    rule.permutation_cells()
        .is_some_and(|cells| cells.len() == n)
}

/// The puzzle's full groups, named.
fn full_groups(puzzle: &Puzzle) -> Vec<(String, Vec<Cell>)> {
    let n = puzzle.size();
    puzzle
        .rules()
        .iter()
        .filter(|r| is_full_group(r.as_ref(), n))
        .filter_map(|r| Some((r.label(), r.permutation_cells()?)))
        .collect()
}

/// The options for one more solve before `deadline`; `None` once it has passed.
fn before(
    options: &SolveOptions,
    deadline: Option<Instant>,
    max_solutions: usize,
) -> Option<SolveOptions> {
    let time_limit = match deadline {
        Some(t) => Some(
            t.checked_duration_since(Instant::now())
                .filter(|d| *d > Duration::ZERO)?,
        ),
        None => None,
    };
    Some(SolveOptions {
        max_solutions,
        time_limit,
        ..options.clone()
    })
}

/// The puzzle's solutions counted to two within `options`' time limit: `None` when the clock stopped the count
/// before it knew (one found, the search for a second cut off).
fn count_to_two(puzzle: &Puzzle, options: &SolveOptions) -> Result<Option<usize>, Error> {
    let two = SolveOptions {
        max_solutions: 2,
        ..options.clone()
    };
    let outcome = crate::solve(puzzle, &two)?;
    let found = outcome.solutions.len();
    Ok((found == 2 || outcome.complete).then_some(found))
}
