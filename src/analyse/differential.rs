//! Every solving path against brute force, on puzzles of every grammar with several solutions.
//!
//! Verification checks every answer shown, but not the answers missed: a propagator that removes a candidate
//! some solution uses, or an encoding that cuts one off, turns "two solutions" into "unique" and "one" into "no
//! solution", and nothing downstream notices. The corpus holds unique puzzles of some types only. Here, for
//! every grammar the registry holds (no type is named), small random puzzles are drawn the way `generate`
//! draws them (a random solution and the clues it shows), with most clues and givens left out so that many
//! have several solutions; then every path counts them, and so does an enumeration of the grids that knows
//! nothing but the rules' exact checks.

use super::draft::Draft;
use super::generate::{clued_solution, Clock, Kind};
use crate::grammar::Registry;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::solve::{BackendChoice, SolveOptions, DEFAULT_SEARCH_NODES};

/// Solutions asked of every path: counts below it must be complete and exact, counts at it must reach it.
const K: usize = 3;

/// Every grid that fills the puzzle's givens with rows and columns of distinct values and passes every rule's
/// exact check, counted up to `cap`. Only the rules' `check` and `check_partial` are used (the latter, after each
/// cell, to cut the enumeration short): no propagator, no encoding.
fn brute_force(puzzle: &Puzzle, cap: usize) -> Vec<Grid> {
    let n = puzzle.size();
    // Per cell, the rules it belongs to.
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for (i, r) in puzzle.rules().iter().enumerate() {
        for c in r.cells() {
            touching[c.row * n + c.col].push(i);
        }
    }
    let mut found = Vec::new();
    let mut grid = Grid::empty(n);
    fill(puzzle, &touching, &mut grid, 0, cap, &mut found);
    found
}

fn fill(
    puzzle: &Puzzle,
    touching: &[Vec<usize>],
    grid: &mut Grid,
    at: usize,
    cap: usize,
    found: &mut Vec<Grid>,
) {
    let n = puzzle.size();
    if found.len() >= cap {
        return;
    }
    if at == n * n {
        if puzzle.check_grid(grid).is_ok() {
            found.push(grid.clone());
        }
        return;
    }
    let cell = Cell::new(at / n, at % n);
    let given = puzzle.givens().get(cell);
    for v in 1..=n as u32 {
        if given != 0 && v != given {
            continue;
        }
        let clash = (0..n).any(|i| {
            (i != cell.col && grid.get(Cell::new(cell.row, i)) == v)
                || (i != cell.row && grid.get(Cell::new(i, cell.col)) == v)
        });
        if clash {
            continue;
        }
        grid.set(cell, v);
        let rules = puzzle.rules();
        if touching[at]
            .iter()
            .all(|&r| rules[r].check_partial(grid).is_ok())
        {
            fill(puzzle, touching, grid, at + 1, cap, found);
        }
        grid.set(cell, 0);
    }
}

/// A puzzle of `kind`: a random solution's clues, each kept with probability `keep`, and `givens` of its
/// cells. Clues whose removal the solution no longer satisfies stay (an exclusive mark's absence says
/// something too).
/// Also the puzzle file, to reproduce a failure with.
fn draw(
    kind: &Kind,
    rng: &mut fastrand::Rng,
    keep: f64,
    givens: usize,
) -> Option<(Puzzle, String)> {
    let options = SolveOptions::default();
    let clock = Clock::new(&options, None, None);
    let (solution, mut draft): (Grid, Draft) = clued_solution(kind, rng, &clock).ok()?;
    let mut entries = draft.droppable();
    rng.shuffle(&mut entries);
    for (section, i) in entries {
        if rng.f64() < keep {
            continue;
        }
        let Some(fewer) = draft.without(&section, i) else {
            continue;
        };
        if kind
            .load(&fewer)
            .is_ok_and(|p| p.check_grid(&solution).is_ok())
        {
            draft = fewer;
        }
    }
    let mut puzzle = kind.load(&draft).ok()?;
    let n = solution.size();
    let mut cells: Vec<Cell> = (0..n * n).map(|i| Cell::new(i / n, i % n)).collect();
    rng.shuffle(&mut cells);
    let mut shown = Grid::empty(n);
    for &c in cells.iter().take(givens) {
        puzzle.give(c, solution.get(c)).ok()?;
        shown.set(c, solution.get(c));
    }
    let mut map = kind.header.clone();
    draft.write_into(&mut map);
    let text = serde_yaml::to_string(&map).unwrap_or_default();
    let rows: Vec<String> = shown
        .rows()
        .iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .map(|&v| match v {
                    0 => ".".into(),
                    v => v.to_string(),
                })
                .collect();
            format!("  {}", cells.join(" "))
        })
        .collect();
    Some((puzzle, format!("{text}givens: |\n{}\n", rows.join("\n"))))
}

/// The paths a solve can take, by their options.
fn paths() -> Vec<(&'static str, SolveOptions)> {
    let with = |presolve, search_nodes, backend| SolveOptions {
        max_solutions: K,
        presolve,
        search_nodes,
        backend,
        ..SolveOptions::default()
    };
    vec![
        (
            "default",
            with(true, DEFAULT_SEARCH_NODES, BackendChoice::Auto),
        ),
        ("search alone", with(true, 50_000_000, BackendChoice::Cbc)),
        (
            "presolve, then the backend",
            with(true, 0, BackendChoice::Auto),
        ),
        (
            "the whole program to the backend",
            with(false, 0, BackendChoice::Auto),
        ),
        (
            "the whole program to CBC",
            with(false, 0, BackendChoice::Cbc),
        ),
    ]
}

/// Solutions enumerated at most: below it the enumeration is every solution, and `candidates` and `hint` are
/// checked against it too.
const ALL: usize = 300;

/// What is wrong with one path's answer to a puzzle whose solutions (all of them, or the first [`ALL`]) are
/// `truth`.
fn judge(puzzle: &Puzzle, options: &SolveOptions, truth: &[Grid]) -> Option<String> {
    let outcome = match crate::solve(puzzle, options) {
        Ok(o) => o,
        Err(e) => return Some(format!("failed: {e}")),
    };
    // Every encoding is exact, so the backend never returns a grid that verification has to cut off (the loop
    // that cuts it would hide a looser program behind the right count).
    if outcome.stats.rejected > 0 {
        return Some(format!(
            "{} grids from the backend failed verification",
            outcome.stats.rejected
        ));
    }
    let found = &outcome.solutions;
    // With more than K solutions the enumeration stopped early and need not hold the ones a path found.
    let listed = |g: &Grid| truth.len() >= ALL || truth.contains(g);
    if let Some(g) = found
        .iter()
        .find(|g| !listed(g) || puzzle.check_grid(g).is_err())
    {
        return Some(format!(
            "an answer the rules refuse or no enumeration finds: {}",
            g.to_line()
        ));
    }
    let distinct = found
        .iter()
        .enumerate()
        .all(|(i, g)| !found[..i].contains(g));
    let expected = truth.len().min(K);
    let complete_needed = truth.len() < K;
    (!distinct || found.len() != expected || (complete_needed && !outcome.complete)).then(|| {
        format!(
            "{} solutions found (complete: {}), {} exist{}",
            found.len(),
            outcome.complete,
            truth.len(),
            if truth.len() >= ALL { " or more" } else { "" }
        )
    })
}

/// What is wrong with the true candidates (`candidates`) or the steps of `hint`, given every solution: a
/// candidate is a value some solution has there, and a step places a value every solution has there or strikes
/// one that none has (no technique assumes uniqueness).
fn judge_analysis(puzzle: &Puzzle, truth: &[Grid]) -> Vec<String> {
    let n = puzzle.size();
    let mut wrong = Vec::new();
    let mut union = vec![0u64; n * n];
    for g in truth {
        for (i, c) in g.cells().enumerate() {
            union[i] |= 1 << (g.get(c) - 1);
        }
    }
    let options = SolveOptions::default();
    match super::candidates::candidates(puzzle, &options) {
        Ok(c) if c.masks != union => wrong.push(format!(
            "candidates: {:?}, the solutions' {union:?}",
            c.masks
        )),
        Ok(_) => {}
        Err(e) => wrong.push(format!("candidates failed: {e}")),
    }
    match super::hint::hints(puzzle, None, true, None) {
        Ok(h) => {
            for step in h.steps {
                let held = |g: &Grid| g.get(step.cell) == step.value;
                let sound = match step.place {
                    true => truth.iter().all(held),
                    false => !truth.iter().any(held),
                };
                if !sound {
                    wrong.push(format!(
                        "hint: {} {} at {} ({}: {}) contradicts a solution",
                        if step.place { "place" } else { "strike" },
                        step.value,
                        step.cell,
                        step.technique,
                        step.reason
                    ));
                    break;
                }
            }
        }
        Err(e) => wrong.push(format!("hint failed: {e}")),
    }
    wrong
}

/// Seeds per type and size: 8, or `LATIN_DIFFERENTIAL_SEEDS` for a longer hunt (40 ran 2,080 puzzles clean).
fn seeds() -> u64 {
    std::env::var("LATIN_DIFFERENTIAL_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8)
}

#[test]
fn every_path_counts_what_brute_force_counts_on_every_grammar() {
    use rayon::prelude::*;
    let registry = Registry::built_in();
    let names: Vec<String> = registry.iter().map(|g| g.name.clone()).collect();
    let jobs: Vec<(String, usize, u64)> = names
        .iter()
        .flat_map(|name| [4, 5, 6].map(|n| (name.clone(), n)))
        .flat_map(|(name, n)| (0..seeds()).map(move |seed| (name.clone(), n, seed)))
        .collect();
    let results: Vec<(String, Option<usize>, Vec<String>)> = jobs
        .par_iter()
        .map(|(name, n, seed)| {
            let Ok(kind) = Kind::new(&registry, name, *n, None, &[]) else {
                return (name.clone(), None, Vec::new());
            };
            let mut rng = fastrand::Rng::with_seed(seed * 31 + *n as u64);
            // Fewer clues on the small grids, where the enumeration is cheap; on 6x6 a third of the cells given.
            let (keep, givens) = match n {
                4 => (0.3, *seed as usize % 3),
                5 => (0.5, 2 + *seed as usize % 3),
                _ => (0.6, 12),
            };
            let Some((puzzle, file)) = draw(&kind, &mut rng, keep, givens) else {
                return (name.clone(), None, Vec::new());
            };
            let truth = brute_force(&puzzle, ALL);
            let mut wrong: Vec<String> = paths()
                .into_iter()
                .filter_map(|(path, options)| {
                    Some(format!("{path}: {}", judge(&puzzle, &options, &truth)?))
                })
                .collect();
            if truth.len() < ALL {
                wrong.extend(judge_analysis(&puzzle, &truth));
            }
            let failures = wrong
                .into_iter()
                .map(|what| format!("{name} {n}x{n}, {what}\n{file}"))
                .collect();
            (name.clone(), Some(truth.len()), failures)
        })
        .collect();
    let failures: Vec<&String> = results.iter().flat_map(|(_, _, f)| f).collect();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), {
        let shown: Vec<&str> = failures.iter().take(8).map(|s| s.as_str()).collect();
        shown.join("\n\n")
    });
    // Every grammar is drawn at some size: a type the drawing cannot serve would otherwise go untested.
    for name in &names {
        let tried = results
            .iter()
            .filter(|(n, count, _)| n == name && count.is_some())
            .count();
        assert!(tried >= 4, "type {name}: only {tried} puzzles drawn");
    }
    // Both sides of K occur: complete counts below it, and paths stopped at it.
    let counts: Vec<usize> = results.iter().filter_map(|(_, c, _)| *c).collect();
    assert!(counts.iter().any(|&c| c > 1 && c < K) && counts.iter().any(|&c| c > K));
}

/// On 9x9 grids (7x7 for types without boxes), beyond brute force: the paths that finish there in seconds
/// agree with each other on how many solutions there are (up to K) and on a unique one. This is where the
/// 9x9-only machinery runs (bit boards and their search, the paths of two-cell rules, sharpened sums, the
/// handover to CaDiCaL after 256 nodes).
#[test]
fn the_paths_agree_on_larger_grids_of_every_grammar() {
    use rayon::prelude::*;
    let registry = Registry::built_in();
    let names: Vec<String> = registry.iter().map(|g| g.name.clone()).collect();
    let jobs: Vec<(String, u64)> = names
        .iter()
        .flat_map(|name| (0..seeds().div_ceil(4)).map(move |seed| (name.clone(), seed)))
        .collect();
    let results: Vec<(String, bool, Option<String>)> = jobs
        .par_iter()
        .map(|(name, seed)| {
            let kind = Kind::new(&registry, name, 9, None, &[])
                .or_else(|_| Kind::new(&registry, name, 7, None, &[]));
            let mut rng = fastrand::Rng::with_seed(*seed);
            let Some((puzzle, file)) = kind.ok().and_then(|kind| draw(&kind, &mut rng, 0.5, 20))
            else {
                return (name.clone(), false, None);
            };
            let runs: Vec<(&str, Result<_, String>)> = paths()
                .into_iter()
                .filter(|(path, _)| *path != "the whole program to CBC")
                .map(|(path, options)| {
                    let options = SolveOptions {
                        time_limit: Some(std::time::Duration::from_secs(30)),
                        ..options
                    };
                    let run = crate::solve(&puzzle, &options)
                        .map(|o| {
                            let unique = (o.solutions.len() == 1).then(|| o.solutions[0].clone());
                            (o.status, o.solutions.len(), o.complete, unique)
                        })
                        .map_err(|e| e.to_string());
                    (path, run)
                })
                .collect();
            let disagree = runs.iter().any(|(_, r)| r != &runs[0].1);
            let described = || {
                let lines: Vec<String> = runs.iter().map(|(p, r)| format!("{p}: {r:?}")).collect();
                format!("{name}:\n{}\n{file}", lines.join("\n"))
            };
            (name.clone(), true, disagree.then(described))
        })
        .collect();
    let failures: Vec<&String> = results.iter().filter_map(|(_, _, f)| f.as_ref()).collect();
    assert!(failures.is_empty(), "{}", {
        let shown: Vec<&str> = failures.iter().take(4).map(|s| s.as_str()).collect();
        shown.join("\n\n")
    });
    for name in &names {
        assert!(
            results.iter().any(|(n, drawn, _)| n == name && *drawn),
            "type {name}: no 9x9 or 7x7 puzzle drawn"
        );
    }
}
