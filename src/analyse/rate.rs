//! How hard a puzzle is for a person: the weakest ladder of deductions that solves it, and how often its top
//! rung was needed.
//!
//! The rungs, for every grammar alike (each rule's own pruning is part of every rung, except that the groups
//! holding each value once are taken apart):
//! 1. `singles`: in every group that holds 1..n once, a placed value leaves the others, and a value with one
//!    place left goes there (naked and hidden singles);
//! 2. `intersections`: a value a group can place only where it overlaps another leaves the rest of the other
//!    (pointing and claiming), and a value a rule must place where it meets a group leaves the rest of the
//!    group (a cage along a row; [`super::pointing`]);
//! 3. `subsets`: the groups' full matching: naked and hidden pairs, triples, ...;
//! 4. `fish`: a value whose places in k disjoint groups lie in k other groups leaves the rest of those (X-wing,
//!    swordfish, jellyfish; [`super::fish`], between any two families of full groups, as `hint` finds them);
//! 5. `probing`: a candidate that leads to a contradiction by everything above is removed;
//! 6. `search`: none of that finishes it; scored by the nodes search needed.
//!
//! The solve is the ladder climbed from the bottom every time: a rung is used only when all below it are stuck,
//! and after each use the ladder starts again at singles. The score is 100 a rung (from 0 for singles) plus the
//! uses of the top rung needed, up to 99 (for search, ten times the base-2 log of its nodes).

use std::time::Instant;

use crate::domains::{Contradiction, Domains, Propagator};
use crate::error::Error;
use crate::grid::Cell;
use crate::model::Puzzle;
use crate::solve::engine::Engine;
use crate::solve::intersection::Intersection;
use crate::solve::SolveOptions;

use super::pointing::RulePointing;

/// The rungs, easiest first.
pub const LEVELS: [&str; 6] = [
    "singles",
    "intersections",
    "subsets",
    "fish",
    "probing",
    "search",
];

/// The index in [`LEVELS`] of search, the top rung.
const SEARCH: usize = LEVELS.len() - 1;

/// A puzzle's grade.
#[derive(Clone, Debug)]
pub struct Rating {
    /// Index into [`LEVELS`] of the top rung needed.
    pub level: usize,
    /// 100 a rung plus the uses of the top one (at most 99).
    pub score: u32,
    /// Uses of each rung above singles (intersections, subsets, fish, probing), and search nodes.
    pub uses: [u64; 5],
    /// False when the puzzle has no solution (the rating is then of the way to the contradiction).
    pub solvable: bool,
    /// Whether the puzzle has exactly one solution: `Some(true)` proved (the ladder's deductions finished it, and
    /// each removes only what no solution uses, or search counted to two and found one), `Some(false)` when it has
    /// none or search found a second, `None` when not asked (`options.max_solutions` below 2: `generate` knows
    /// its puzzles are unique) or not proved within the time limit. A grade is a person's way to *the* answer:
    /// an empty grid climbs to `search` like the hardest puzzle, and only this tells them apart.
    pub unique: Option<bool>,
}

impl Rating {
    pub fn level_name(&self) -> &'static str {
        LEVELS[self.level]
    }
}

/// Naked and hidden singles in one group that holds every value once.
#[derive(Debug)]
struct Singles {
    cells: Vec<Cell>,
}

impl Propagator for Singles {
    fn watches(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        for &c in &self.cells {
            if let Some(v) = d.fixed(c) {
                for &o in self.cells.iter().filter(|&&o| o != c) {
                    changed |= d.remove(o, v)?;
                }
            }
        }
        for v in 1..=self.cells.len() as u32 {
            let mut places = self.cells.iter().filter(|&&c| d.contains(c, v));
            match (places.next(), places.next()) {
                (None, _) => return Err(Contradiction),
                (Some(&c), None) => changed |= d.assign(c, v)?,
                _ => {}
            }
        }
        Ok(changed)
    }
}

/// Runs propagators in turn until none changes anything, or the deadline passes.
fn fixpoint(
    props: &[&dyn Propagator],
    d: &mut Domains,
    deadline: Option<Instant>,
) -> Result<(), Contradiction> {
    while pass(props, d, deadline)? {}
    Ok(())
}

/// One pass of a rung: whether it removed anything. Past the deadline it runs nothing more (one propagation of a
/// 64x64 sandwich line takes a tenth of a second) and the ladder stops at its next look at the clock.
fn pass(
    props: &[&dyn Propagator],
    d: &mut Domains,
    deadline: Option<Instant>,
) -> Result<bool, Contradiction> {
    let mut changed = false;
    for p in props {
        if deadline.is_some_and(|t| Instant::now() >= t) {
            return Ok(false);
        }
        changed |= p.propagate(d)?;
    }
    Ok(changed)
}

/// The most probes a rating tries before calling the puzzle a search puzzle.
const MAX_PROBES: usize = 20_000;

/// One failed literal, by every rule with intersections: `Some(true)` when a candidate went.
fn probe_once(
    engine: &Engine,
    d: &mut Domains,
    probes: &mut usize,
    deadline: Option<Instant>,
) -> Result<bool, Contradiction> {
    let n = d.size();
    let mut open: Vec<Cell> = (0..n * n)
        .map(|i| Cell::new(i / n, i % n))
        .filter(|&c| d.get(c).count_ones() > 1)
        .collect();
    open.sort_by_key(|&c| d.get(c).count_ones());
    for cell in open {
        for v in d.values(cell).collect::<Vec<_>>() {
            if *probes >= MAX_PROBES || deadline.is_some_and(|t| Instant::now() >= t) {
                return Ok(false);
            }
            *probes += 1;
            let mut trial = d.clone();
            if trial.assign(cell, v).is_err() || engine.after(&mut trial, cell).is_err() {
                d.remove(cell, v)?;
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The largest grid [`rate`] grades, a side: the ladder's rungs keep a cell's candidates in one word.
pub(crate) const LARGEST_GRADED: usize = Domains::MAX_SIZE;

/// Whether [`rate`] grades grids of size n ([`LARGEST_GRADED`]).
pub(crate) fn grades(n: usize) -> bool {
    n <= LARGEST_GRADED
}

/// Grades a puzzle. `options` are those of the search rung.
pub fn rate(puzzle: &Puzzle, options: &SolveOptions) -> Result<Rating, Error> {
    let deadline = options.time_limit.map(|t| Instant::now() + t);
    let n = puzzle.size();
    if !grades(n) {
        return Err(Error::section(
            "rate",
            format!("grades grids up to {0}x{0}", LARGEST_GRADED),
        ));
    }
    let (climbed, d, mut uses) = climb(puzzle, deadline);
    let top = |k: usize| uses[k].min(99) as u32;
    let (level, score, solvable, unique) = match climbed {
        Ok(true) => {
            // Every rung is sound, so the grid they reach obeys every rule, and is the only one; checked all
            // the same.
            let solvable = puzzle.check_grid(&d.grid()).is_ok();
            match (0..SEARCH - 1).rev().find(|&k| uses[k] > 0) {
                Some(k) => (
                    k + 1,
                    100 * (k as u32 + 1) + top(k),
                    solvable,
                    Some(solvable),
                ),
                None => (0, 0, solvable, Some(solvable)),
            }
        }
        Err(Contradiction) => (0, 0, false, Some(false)),
        Ok(false) => searched(puzzle, options, deadline, &mut uses)?,
    };
    Ok(Rating {
        level,
        score,
        uses,
        solvable,
        unique,
    })
}

/// Climbs the ladder from the givens: `Ok(true)` when its rungs fill the grid, `Ok(false)` when every rung is
/// stuck (or the clock ran out), with the domains reached and the uses of each rung.
fn climb(
    puzzle: &Puzzle,
    deadline: Option<Instant>,
) -> (Result<bool, Contradiction>, Domains, [u64; 5]) {
    let n = puzzle.size();
    let named = super::full_groups(puzzle);
    let families = super::fish::Families::new(&named, n);
    let groups: Vec<Singles> = named
        .iter()
        .map(|(_, cells)| Singles {
            cells: cells.clone(),
        })
        .collect();
    // Each rule's own pruning belongs to every rung; the full groups' own (their matching) is the subsets rung.
    let (full, own): (Vec<_>, Vec<_>) = puzzle
        .rules()
        .iter()
        .partition(|r| super::is_full_group(r.as_ref(), n));
    // The thorough form where a rule offers one (a KenKen cage whose cells share a row differ there), as `hint`
    // runs them: a person reads a cage with the grid's distinctness in mind.
    let apart = puzzle.apart();
    let thorough: Vec<Option<Box<dyn Propagator>>> = own
        .iter()
        .map(|r| r.propagator().and_then(|p| p.thorough(&apart)))
        .collect();
    let own: Vec<&dyn Propagator> = own
        .iter()
        .zip(&thorough)
        .filter_map(|(r, strong)| strong.as_deref().or_else(|| r.propagator()))
        .collect();
    let pointing: Vec<RulePointing> = own
        .iter()
        .filter_map(|&p| RulePointing::new(p, &named).map(|r| r.until(deadline)))
        .collect();
    let matching: Vec<&dyn Propagator> = full.iter().filter_map(|r| r.propagator()).collect();
    let intersections = Intersection::derive(n, puzzle.rules());
    let mut inter: Vec<&dyn Propagator> =
        intersections.iter().map(|i| i as &dyn Propagator).collect();
    inter.extend(pointing.iter().map(|p| p as &dyn Propagator));
    let mut base: Vec<&dyn Propagator> = groups.iter().map(|g| g as &dyn Propagator).collect();
    base.extend(own);
    let engine = Engine::with_intersections(puzzle);
    engine.set_deadline(deadline);
    let mut d = Domains::full(n);
    let mut uses = [0u64; 5];
    let mut probes = 0;
    let climbed: Result<bool, Contradiction> = (|| {
        for (cell, v) in puzzle.givens().filled() {
            d.assign(cell, v)?;
        }
        loop {
            fixpoint(&base, &mut d, deadline)?;
            if d.fixed_count() == n * n {
                return Ok(true);
            }
            if pass(&inter, &mut d, deadline)? {
                uses[0] += 1;
            } else if pass(&matching, &mut d, deadline)? {
                uses[1] += 1;
            } else if let Some(fish) = families.find(&d, &named) {
                for &cell in &fish.struck {
                    d.remove(cell, fish.value)?;
                }
                uses[2] += 1;
            } else if probe_once(&engine, &mut d, &mut probes, deadline)? {
                uses[3] += 1;
            } else {
                return Ok(false);
            }
        }
    })();
    (climbed, d, uses)
}

/// The top rung, when the ladder is stuck: search's way to a solution is the score (level, score, solvable,
/// unique, as [`Rating`] has them); whether there is another is a count of its own.
fn searched(
    puzzle: &Puzzle,
    options: &SolveOptions,
    deadline: Option<Instant>,
    uses: &mut [u64; 5],
) -> Result<(usize, u32, bool, Option<bool>), Error> {
    let late = || Error::TimeLimit("the grade was found");
    let rest = super::before(options, deadline, 1).ok_or_else(late)?;
    let outcome = crate::solve(puzzle, &rest)?;
    // Cut off by the clock, search has neither found a solution nor shown there is none.
    if outcome.solutions.is_empty() && !outcome.complete {
        return Err(late());
    }
    uses[SEARCH - 1] = outcome.stats.search_nodes;
    let log = (64 - (uses[SEARCH - 1] + 1).leading_zeros()) * 10;
    let solvable = !outcome.solutions.is_empty();
    let unique = match solvable && options.max_solutions >= 2 {
        true => uniqueness(puzzle, options, deadline)?,
        false => (!solvable).then_some(false),
    };
    Ok((SEARCH, 100 * SEARCH as u32 + log.min(99), solvable, unique))
}

/// Counts a puzzle known to have a solution to two, within what is left of the time: whether it has exactly one,
/// `None` when the clock ran out first.
fn uniqueness(
    puzzle: &Puzzle,
    options: &SolveOptions,
    deadline: Option<Instant>,
) -> Result<Option<bool>, Error> {
    let Some(rest) = super::before(options, deadline, 2) else {
        return Ok(None);
    };
    Ok(super::count_to_two(puzzle, &rest)?.map(|found| found == 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;

    fn rated(text: &str) -> Rating {
        let p = crate::model::load_str(text, &Registry::built_in()).unwrap();
        rate(&p, &SolveOptions::default()).unwrap()
    }

    #[test]
    fn a_nearly_full_grid_needs_singles_and_an_open_one_search() {
        let easy =
            rated("type: sudoku\nsize: 4\ngivens: |\n  1 2 3 4\n  3 4 1 2\n  2 1 4 3\n  4 3 . .\n");
        assert_eq!((easy.level, easy.score), (0, 0));
        let open = rated("type: sudoku\nsize: 9\n");
        assert_eq!(open.level_name(), "search");
        assert!(open.score >= 400);
    }

    #[test]
    fn a_grade_says_whether_the_puzzle_has_one_answer_when_asked() {
        let counting = SolveOptions {
            max_solutions: 2,
            ..SolveOptions::default()
        };
        let registry = Registry::built_in();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        let rate_file = |name: &str, options: &SolveOptions| {
            let p = crate::model::load(&root.join(name), &registry).unwrap();
            rate(&p, options).unwrap()
        };
        // Both climb to search; only the count tells the empty grid from a puzzle.
        let open = rate_file("open/empty-9x9.yaml", &counting);
        let one = rate_file("little-killer/little-killer-6x6.yaml", &counting);
        assert_eq!((open.level_name(), one.level_name()), ("search", "search"));
        assert_eq!((open.unique, one.unique), (Some(false), Some(true)));
        // Not asked (as `generate`, which knows), search does not count.
        let open = rate_file("open/empty-9x9.yaml", &SolveOptions::default());
        assert_eq!((open.solvable, open.unique), (true, None));
        // The ladder alone finishing a grid proves it the only one, asked or not.
        let easy = rate_file("sudoku/clue-list-9x9.yaml", &SolveOptions::default());
        assert_eq!(easy.unique, Some(true));
    }

    /// Two puzzles of Simon Tatham's generators (`sgt-solo --generate 1 3x3de`, `sgt-towers --generate 1 6dx`)
    /// that the rungs below fish leave stuck and fish finish: a Sudoku's fish between its rows, columns and boxes,
    /// and a Latin square's between its rows and columns alone, with no rule of the type named.
    #[test]
    fn fish_finish_what_subsets_leave_between_any_two_families_of_groups() {
        let sudoku = rated(
            "type: sudoku\nsize: 9\ngivens: |\n  4 . . 2 . . . 8 .\n  . . . 8 . 9 3 . 1\n  . 6 3 . . . 9 . .\n  \
             7 . . 6 . . . . .\n  . 8 . . 2 . . 1 .\n  . . . . . 4 . . 3\n  . . 6 . . . 1 3 .\n  \
             1 . 2 7 . 6 . . .\n  . 7 . . . 5 . . 6\n",
        );
        let towers = rated(
            "type: skyscrapers\nsize: 6\ngivens: |\n  . . . . . .\n  . . . . . .\n  . . . . 4 .\n  \
             . . . . . .\n  . . . . . .\n  . . . . . .\nbottom: . . . 3 . .\nleft: . 2 2 5 2 .\n\
             right: 3 . . . 4 .\ntop: . 3 . 1 . 4\n",
        );
        for r in [sudoku, towers] {
            assert_eq!((r.level_name(), r.unique), ("fish", Some(true)), "{r:?}");
            // No probe was needed, and the score is the fish rung's.
            assert_eq!((r.uses[3], r.score), (0, 300 + r.uses[2] as u32));
        }
    }

    /// A puzzle Simon Tatham's generator grades Normal (`sgt-keen --generate 1 6dn`), where the solver reads each
    /// cage alone: its `50*` is an L whose corner shares a line with both ends, so the corner holds the 2 and the
    /// ends the two 5s. Read with the grid in mind (each rule's thorough form, a product's listed assignments) it
    /// is singles; the bounds of the product left a probe to do.
    #[test]
    fn a_cage_is_read_with_the_grid_that_keeps_its_cells_apart() {
        let keen = rated(
            "type: kenken\nsize: 6\ncages: |\n  a a b c c d\n  a e b b f d\n  g e h f f i\n  g j h k l i\n  \
             m j n k l o\n  m n n p p o\nhints:\n  a: 11+\n  b: 12+\n  c: 3/\n  d: 3-\n  e: 3/\n  f: 50*\n  \
             g: 2/\n  h: 1-\n  i: 7+\n  j: 30*\n  k: 6*\n  l: 3-\n  m: 2-\n  n: 6+\n  o: 6*\n  p: 2-\n",
        );
        assert_eq!((keen.level_name(), keen.unique), ("singles", Some(true)));
        assert_eq!(keen.uses, [0; 5]);
    }

    /// A puzzle Simon Tatham's generator grades Hard (`sgt-keen --generate 1 6dh`), the grade where its solver
    /// looks for digits a cage must place in one row or column: one such step, and the rest is singles. Without
    /// a rule's pointing the ladder needed a subset instead.
    #[test]
    fn a_cage_that_must_place_a_value_in_a_row_clears_the_rest_of_it() {
        let keen = rated(
            "type: kenken\nsize: 6\ncages: |\n  a b b b c c\n  a a d d e e\n  a f g d h i\n  j f g k h i\n  \
             j l m k n i\n  j l m m n i\nhints:\n  a: 12*\n  b: 9+\n  c: 2-\n  d: 48*\n  e: 6+\n  f: 2-\n  \
             g: 4-\n  h: 6*\n  i: 36*\n  j: 15+\n  k: 3-\n  l: 8+\n  m: 36*\n  n: 1-\n",
        );
        assert_eq!(
            (keen.level_name(), keen.score, keen.unique),
            ("intersections", 101, Some(true))
        );
    }

    #[test]
    fn the_ladder_is_sound_it_never_removes_the_solution() {
        // Every rung only removes candidates no solution uses: the rating of a unique puzzle is solvable.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        for name in [
            "sudoku/clue-list-9x9.yaml",
            "killer/killer-6x6.yaml",
            "kenken/kenken-6x6.yaml",
            "futoshiki/futoshiki-7x7.yaml",
        ] {
            let p = crate::model::load(&root.join(name), &Registry::built_in()).unwrap();
            let r = rate(&p, &SolveOptions::default()).unwrap();
            assert!(r.solvable, "{name}: {r:?}");
        }
    }
}
