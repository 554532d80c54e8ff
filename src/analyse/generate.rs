//! New puzzles with exactly one solution, for any type whose clues are givens (Sudoku of any box shape, Latin
//! squares, with any named rules such as diagonals or anti-knight), or cages and rooms with the clues of a
//! primitive that has a clue maker ([`super::regions`]): a random solution, its regions and their clues when the
//! type has them, then givens removed in a random order (with their symmetric partners) while the solution stays
//! unique, proved by counting to 2; then graded by [`super::rate`], and tried again from the next seed until the
//! asked level is met.
//!
//! Reproducible: everything random comes from one seeded generator, and the solver itself is deterministic.

use std::time::Instant;

use super::rate::{rate, Rating, LEVELS};
use super::regions::{cut, Cut, Plan};
use crate::error::Error;
use crate::grammar::Registry;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::solve::SolveOptions;
use crate::yaml::Mapping;

/// Which cells are removed together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    None,
    /// A cell with the one turned half a turn about the centre.
    Rotational,
    /// A cell with its mirror image across the vertical middle line.
    Mirror,
}

/// What to make.
#[derive(Clone, Debug)]
pub struct Request {
    pub seed: u64,
    /// Index into [`LEVELS`]; `None` takes the first puzzle made.
    pub level: Option<usize>,
    pub symmetry: Symmetry,
    /// Puzzles made before giving up on the level.
    pub attempts: usize,
}

/// What to make puzzles of: the puzzle solutions are drawn from, and for region types how their regions are
/// cut (the plan, and the sections every puzzle file of the type starts with).
pub(crate) struct Kind<'a> {
    pub(crate) base: Puzzle,
    pub(crate) regions: Option<(Plan, Mapping)>,
    pub(crate) registry: &'a Registry,
}

/// One puzzle made.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The regions and their clues, for region types.
    pub cut: Option<Cut>,
    pub givens: Grid,
    pub solution: Grid,
    pub rating: Rating,
    /// The seed that made it (the request's, plus the attempts before it).
    pub seed: u64,
}

/// Makes one puzzle from `template` (the type with its size, boxes and rules, and no givens).
pub(crate) fn generate(
    kind: &Kind,
    request: &Request,
    options: &SolveOptions,
) -> Result<Generated, Error> {
    // `options.time_limit` bounds the whole run: every solve inside gets what is left of it.
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let options = &Clock { options, deadline };
    let mut closest: Option<Generated> = None;
    for attempt in 0..request.attempts.max(1) as u64 {
        let seed = request.seed.wrapping_add(attempt);
        let mut rng = fastrand::Rng::with_seed(seed);
        let solution = random_solution(&kind.base, &mut rng, options)?;
        let (template, cut) = match &kind.regions {
            Some((plan, header)) => {
                let (p, c) = cut(plan, header, &solution, &mut rng, kind.registry)?;
                (p, Some(c))
            }
            None => (kind.base.clone(), None),
        };
        let template = &template;
        let givens = remove_while_unique(template, &solution, request.symmetry, &mut rng, options)?;
        let mut puzzle = template.clone();
        for (cell, v) in givens.filled() {
            puzzle.give(cell, v)?;
        }
        let rating = rate(&puzzle, &options.left(1)?)?;
        let made = Generated {
            cut,
            givens,
            solution,
            rating,
            seed,
        };
        let Some(want) = request.level else {
            return Ok(made);
        };
        if made.rating.level == want {
            return Ok(made);
        }
        let distance = |g: &Generated| g.rating.level.abs_diff(want);
        if closest
            .as_ref()
            .is_none_or(|c| distance(&made) < distance(c))
        {
            closest = Some(made);
        }
    }
    let got = closest.map_or("none", |c| LEVELS[c.rating.level]);
    Err(Error::section(
        "--difficulty",
        format!(
            "no {} puzzle in {} attempts from seed {} (the closest was {got}); try another seed or more attempts",
            request.level.map_or("", |l| LEVELS[l]),
            request.attempts,
            request.seed
        ),
    ))
}

/// The solve options with the time left before the run's deadline.
struct Clock<'a> {
    options: &'a SolveOptions,
    deadline: Option<Instant>,
}

impl Clock<'_> {
    fn left(&self, max_solutions: usize) -> Result<SolveOptions, Error> {
        super::before(self.options, self.deadline, max_solutions)
            .ok_or_else(|| Error::section("--time-limit", "reached before a puzzle was made"))
    }
}

fn no_solution() -> Error {
    Error::section(
        "generate",
        "the type's rules leave no solution at this size",
    )
}

/// A random solution: random values placed one by one in random cells, each kept only while the puzzle still
/// has a solution, then the solver completes it.
fn random_solution(
    template: &Puzzle,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<Grid, Error> {
    let n = template.size();
    let mut puzzle = template.clone();
    let mut cells: Vec<Cell> = (0..n * n).map(|i| Cell::new(i / n, i % n)).collect();
    rng.shuffle(&mut cells);
    for &cell in cells.iter().take(n) {
        let mut values: Vec<u32> = (1..=n as u32).collect();
        rng.shuffle(&mut values);
        for v in values {
            let mut tried = puzzle.clone();
            if tried.give(cell, v).is_ok()
                && !crate::solve(&tried, &options.left(1)?)?
                    .solutions
                    .is_empty()
            {
                puzzle = tried;
                break;
            }
        }
    }
    let outcome = crate::solve(&puzzle, &options.left(1)?)?;
    outcome.solutions.into_iter().next().ok_or_else(no_solution)
}

/// The cells removed with `cell`.
fn partners(cell: Cell, n: usize, symmetry: Symmetry) -> Vec<Cell> {
    let other = match symmetry {
        Symmetry::None => cell,
        Symmetry::Rotational => Cell::new(n - 1 - cell.row, n - 1 - cell.col),
        Symmetry::Mirror => Cell::new(cell.row, n - 1 - cell.col),
    };
    if other == cell {
        vec![cell]
    } else {
        vec![cell, other]
    }
}

/// Every cell given, then givens removed in a random order while the solution stays the only one.
fn remove_while_unique(
    template: &Puzzle,
    solution: &Grid,
    symmetry: Symmetry,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<Grid, Error> {
    let n = template.size();
    let mut givens = solution.clone();
    let mut cells: Vec<Cell> = (0..n * n).map(|i| Cell::new(i / n, i % n)).collect();
    rng.shuffle(&mut cells);
    for cell in cells {
        if givens.get(cell) == 0 {
            continue;
        }
        let mut fewer = givens.clone();
        for c in partners(cell, n, symmetry) {
            fewer.set(c, 0);
        }
        let mut puzzle = template.clone();
        for (c, v) in fewer.filled() {
            puzzle.give(c, v)?;
        }
        let outcome = crate::solve(&puzzle, &options.left(2)?)?;
        if outcome.complete && outcome.solutions.len() == 1 {
            givens = fewer;
        }
    }
    Ok(givens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;

    fn template(kind: &str, n: usize, rules: &[String]) -> Puzzle {
        crate::model::load::template(kind, n, None, rules, &Registry::built_in()).unwrap()
    }

    #[test]
    fn generated_puzzles_are_unique_and_reproducible() {
        for (kind, n, rules) in [
            ("sudoku", 4, vec![]),
            ("sudoku", 6, vec![]),
            ("latin", 5, vec![]),
            ("sudoku", 9, vec!["diagonals".to_owned()]),
        ] {
            let t = template(kind, n, &rules);
            let request = Request {
                seed: 7,
                level: None,
                symmetry: Symmetry::Rotational,
                attempts: 1,
            };
            let registry = Registry::built_in();
            let spec = Kind {
                base: t.clone(),
                regions: None,
                registry: &registry,
            };
            let a = generate(&spec, &request, &SolveOptions::default()).unwrap();
            let b = generate(&spec, &request, &SolveOptions::default()).unwrap();
            assert_eq!(a.givens, b.givens, "{kind} {n}: reproducible");
            let mut p = t.clone();
            for (c, v) in a.givens.filled() {
                p.give(c, v).unwrap();
                // Rotational symmetry: the partner is given too.
                assert_ne!(a.givens.get(Cell::new(n - 1 - c.row, n - 1 - c.col)), 0);
            }
            let count = crate::count(&p, 2, &SolveOptions::default()).unwrap();
            assert!(
                count.complete && count.solutions == vec![a.solution.clone()],
                "{kind} {n}"
            );
            assert!(p.check_grid(&a.solution).is_ok());
        }
    }
}
