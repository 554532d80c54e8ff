//! Solving, in stages: presolve by propagation ([`presolve`]), a bounded search over the same propagators
//! ([`search`]), and for what those leave open, compile the residual program and hand it to a backend: CaDiCaL
//! ([`cdcl`]) when every row is a clause, CBC ([`cbc`]) otherwise. Each stage either decides the puzzle or passes
//! what it learned to the next.
//!
//! Every grid a stage finds is checked in exact integer arithmetic against every rule ([`Puzzle::check_grid`])
//! before it counts. A grid that fails (a product band let rounding through) is cut off with a no-good row
//! and the program solved again; the stats count such rejections. Enumeration (`max_solutions > 1`) uses the
//! same no-good cuts, so counting is exact: `complete` is true only when a stage proved there is nothing more.

pub(crate) mod backend;
pub(crate) mod boards;
pub(crate) mod cbc;
pub(crate) mod cbc_params;
pub(crate) mod cdcl;
pub(crate) mod clp;
pub(crate) mod engine;
pub(crate) mod intersection;
pub(crate) mod memory;
pub(crate) mod options;
pub(crate) mod outcome;
pub(crate) mod paths;
pub(crate) mod presolve;
pub(crate) mod relax;
pub(crate) mod repair;
pub(crate) mod required;
pub(crate) mod search;
pub(crate) mod wide;

use std::time::{Duration, Instant};

use crate::compile::{compile_until, Unfinished};
use crate::domains::{Contradiction, Domains};
use crate::error::Error;
use crate::grid::Grid;
use crate::model::Puzzle;
use crate::program::{BinaryProgram, Role};
use backend::{BackendAnswer, Session, WholeProgram};
use engine::Engine;
use presolve::{PresolveReport, ProbeBudget};
use search::{SearchBudget, SearchOutcome};

pub use cbc::Cbc;
pub use options::{BackendChoice, SolveOptions, DEFAULT_MEMORY_LIMIT, DEFAULT_SEARCH_NODES};
use options::{SAT_HANDOVER_MIN_NODES, SAT_HANDOVER_PER_OPEN_CELL, SAT_HANDOVER_STRETCH};
pub use outcome::{DecidedBy, Outcome, Stats, Status};

/// The most grids in a row that may fail verification before the solve is abandoned as a solver failure.
const MAX_REJECTED: usize = 50;

/// Probes at the handover per search node spent before it: a probe costs about what a node does.
const HANDOVER_PROBES_PER_NODE: u64 = 4;

/// Probes in a window at the handover ([`ProbeBudget::window`]).
const HANDOVER_PROBE_WINDOW: u64 = 64;

/// Solves a puzzle: up to `options.max_solutions` exactly checked solutions, and whether there are more. The
/// façade's `latin::solve` passes the outcome through the `verify` stage as well.
pub(crate) fn run(puzzle: &Puzzle, options: &SolveOptions) -> Result<Outcome, Error> {
    run_with(puzzle, options, None)
}

/// The propagation engines of a set of rules, built once and used for every puzzle with those rules and other
/// givens: `--lines` builds them per thread for its template instead of per line (building them was a fifth of
/// the time of an easy 9x9).
pub(crate) struct Engines<'a> {
    plain: Engine<'a>,
    search: Engine<'a>,
}

impl<'a> Engines<'a> {
    pub(crate) fn new(template: &'a Puzzle) -> Self {
        Engines {
            plain: Engine::new(template),
            search: Engine::with_intersections(template),
        }
    }
}

/// [`run`] with engines built before for the puzzle's rules (the same rules, as [`Engines::new`] saw them).
pub(crate) fn run_with(
    puzzle: &Puzzle,
    options: &SolveOptions,
    engines: Option<&Engines>,
) -> Result<Outcome, Error> {
    // Solutions are kept as they are counted: no more of them than the memory limit holds.
    let cap = memory::Budget {
        limit: options.memory_limit,
    }
    .solutions(puzzle.size());
    if options.max_solutions > cap {
        let within = SolveOptions {
            max_solutions: cap,
            ..options.clone()
        };
        let mut outcome = run_within(puzzle, &within, engines)?;
        outcome.stats.memory_capped = !outcome.complete && outcome.solutions.len() >= cap;
        return Ok(outcome);
    }
    run_within(puzzle, options, engines)
}

/// [`run_with`] once the solutions asked for fit the memory limit: presolve, search, then a backend.
fn run_within(
    puzzle: &Puzzle,
    options: &SolveOptions,
    engines: Option<&Engines>,
) -> Result<Outcome, Error> {
    let start = Instant::now();
    let will_search = puzzle.objective().is_none() && options.search_nodes > 0;
    let (domains, mut stats) = presolve_stage(
        puzzle,
        options,
        will_search,
        start,
        engines.map(|e| &e.plain),
    );
    let pruned = match &domains {
        Some(Err(Contradiction)) => {
            return Ok(decided_by_presolve(
                Status::Infeasible,
                vec![],
                stats,
                start,
            ))
        }
        Some(Ok(d)) => Some(d),
        None => None,
    };
    if let Some(d) = pruned.filter(|d| all_fixed(d) && puzzle.objective().is_none()) {
        let (status, solutions) = only_grid_left(puzzle, d);
        return Ok(decided_by_presolve(status, solutions, stats, start));
    }
    // Bounded search on what presolve left. A clausal residual goes to CaDiCaL after a short search; any other
    // gets the whole search budget, then CBC, with the grids search found cut off.
    let searcher = Searcher::new(
        puzzle,
        pruned.filter(|_| will_search),
        options,
        start,
        engines.map(|e| &e.search),
    );
    let first_budget = handover_budget(options, pruned);
    // A search that is nearly done when the handover comes may finish, within the user's budget too.
    let stretch_to = options
        .search_nodes
        .min(first_budget.saturating_mul(SAT_HANDOVER_STRETCH));
    let mut found = Vec::new();
    if let Some(outcome) = wide_search(puzzle, options, will_search, start, &mut stats) {
        if outcome.decided || outcome.timed_out {
            return Ok(searcher.decided(outcome, stats));
        }
        found = outcome.solutions;
    }
    if let Some(outcome) = searcher.run(None, first_budget, stretch_to, &mut stats) {
        if outcome.decided || outcome.timed_out {
            return Ok(searcher.decided(outcome, stats));
        }
        found = outcome.solutions;
    }
    if options.backend == BackendChoice::SearchOnly {
        return Ok(timed_out(found, stats, start));
    }
    // Search ended undecided: probe its root candidates before any backend ([`Searcher::probe`]).
    let probed = match searcher.probe(&mut stats) {
        Some(Ok(d)) if all_fixed(&d) => return Ok(searcher.probed_to_end(Some(&d), stats)),
        // Sound propagation never refutes a grid search found; if it did, the backend has the last word.
        Some(Err(Contradiction)) if found.is_empty() => {
            return Ok(searcher.probed_to_end(None, stats))
        }
        Some(Ok(d)) => Some(d),
        _ => None,
    };
    let pruned = probed.as_ref().or(pruned);
    let Some((program, cnf)) =
        compile_stage(puzzle, options, pruned, searcher.deadline, &mut stats)?
    else {
        return Ok(timed_out(found, stats, start));
    };
    if !stats.clausal && first_budget < options.search_nodes {
        // Not for CaDiCaL: search again with the whole budget before CBC, a fresh run (the first was short) from
        // what probing left. The candidates probing removed can cut this search's tree by a large factor (a
        // generated 25x25 sum skyscrapers: 82 fewer candidates, 142,715 nodes from search's root, 6,500 from
        // probing's).
        if let Some(outcome) = searcher.run(probed.as_ref(), options.search_nodes, 0, &mut stats) {
            if outcome.decided || outcome.timed_out {
                return Ok(searcher.decided(outcome, stats));
            }
            found = outcome.solutions;
        }
    }
    let Some(mut session) = open_session(options, program, cnf, searcher.deadline)? else {
        return Ok(timed_out(found, stats, start));
    };
    for grid in &found {
        session.exclude(grid);
    }
    enumerate(puzzle, options, session.as_mut(), found, stats, start)
}

/// On a grid past [`Domains::MAX_SIZE`], where presolve and the engine do not go, the search of [`wide`] when
/// every rule is an all-different group and the options allow presolve and search; `None` otherwise.
fn wide_search(
    puzzle: &Puzzle,
    options: &SolveOptions,
    will_search: bool,
    start: Instant,
    stats: &mut Stats,
) -> Option<SearchOutcome> {
    if puzzle.size() <= Domains::MAX_SIZE || !options.presolve || !will_search {
        return None;
    }
    let groups = wide::Wide::derive(puzzle)?;
    let t = Instant::now();
    let outcome = groups.search(
        puzzle,
        options.max_solutions,
        options
            .search_nodes
            .saturating_mul(options::WIDE_NODES_PER_NODE),
        deadline(start, options.time_limit),
    );
    stats.search_nodes += outcome.nodes;
    stats.search_restarts += outcome.restarts;
    stats.search_ms += ms(t.elapsed());
    Some(outcome)
}

/// The search nodes before a backend takes over: for CaDiCaL 2 per open cell (at least 256), for CBC the whole
/// budget; with no backend ([`BackendChoice::SearchOnly`]) the whole budget, after which the solve ends.
fn handover_budget(options: &SolveOptions, pruned: Option<&Domains>) -> u64 {
    match options.backend {
        BackendChoice::Auto => {
            let open = pruned.map_or(0, |d| d.size() * d.size() - d.fixed_count()) as u64;
            options
                .search_nodes
                .min((SAT_HANDOVER_PER_OPEN_CELL * open).max(SAT_HANDOVER_MIN_NODES))
        }
        BackendChoice::Cbc | BackendChoice::SearchOnly => options.search_nodes,
    }
}

/// The program for the backends, with its clauses when every row is one and the backend may be CaDiCaL, within
/// the memory limit; `None` when the deadline passed first. Sets the stats' `clausal`, `compile_ms` and the
/// program's size as the backend reads it (`rows`, `columns`, `fixed_columns`).
fn compile_stage(
    puzzle: &Puzzle,
    options: &SolveOptions,
    pruned: Option<&Domains>,
    deadline: Option<Instant>,
    stats: &mut Stats,
) -> Result<Option<(BinaryProgram, Option<cdcl::Cnf>)>, Error> {
    let memory = memory::Budget {
        limit: options.memory_limit,
    };
    memory.check_size(puzzle.size())?;
    let t = Instant::now();
    let program = match compile_until(puzzle, pruned, deadline, memory.limit) {
        Ok(program) => program,
        Err(Unfinished::TimeUp) => return Ok(None),
        Err(Unfinished::TooLarge { bytes }) => return Err(memory.refusal(bytes)),
    };
    let cnf = match options.backend {
        BackendChoice::Auto => match cdcl::Cnf::encode_until(&program, deadline, memory.limit) {
            Ok(cnf) => cnf,
            Err(cdcl::Unwritten::TimeUp) => return Ok(None),
            Err(cdcl::Unwritten::TooLarge(needed)) => return Err(memory.refusal(needed)),
        },
        BackendChoice::Cbc | BackendChoice::SearchOnly => None,
    };
    if cnf.is_none() {
        memory.check(memory::with_cbc(program.terms(), program.num_cols() as u64))?;
    }
    stats.clausal = cnf.is_some();
    stats.compile_ms = ms(t.elapsed());
    // The rows the backend reads.
    let reads = |role: Role| match cnf {
        Some(_) => role.clausal(),
        None => role.linear(),
    };
    stats.rows = program.rows.iter().filter(|r| reads(r.role)).count();
    stats.columns = program.num_cols();
    stats.fixed_columns = (0..program.num_cols())
        .filter(|&i| program.fixed(i).is_some())
        .count();
    Ok(Some((program, cnf)))
}

/// The backend's session: CaDiCaL on the clauses when there are some (it keeps its learned clauses from one
/// solution to the next), CBC on the whole program otherwise (afresh each time); `None` when the deadline
/// passed while CaDiCaL took the clauses.
fn open_session(
    options: &SolveOptions,
    program: BinaryProgram,
    cnf: Option<cdcl::Cnf>,
    deadline: Option<Instant>,
) -> Result<Option<Box<dyn Session + '_>>, Error> {
    let Some(cnf) = cnf else {
        return Ok(Some(Box::new(WholeProgram {
            backend: Box::new(options.cbc.within_nodes(options.work_limit)),
            program,
        })));
    };
    let Some(mut session) = cdcl::CdclSession::with_clauses(program, cnf, deadline)? else {
        return Ok(None);
    };
    session.limit_memory(options.memory_limit);
    session.limit_work(options.work_limit);
    // The relaxation's turns are timed: under a work limit they would make the run depend on the machine.
    if options.relaxation && options.work_limit.is_none() {
        session.probing();
    }
    Ok(Some(Box::new(session)))
}

/// Presolve (when on), with probing only when no search follows, and what it did as the first stats. `None`
/// for the domains when presolve is off or the size is beyond it.
fn presolve_stage(
    puzzle: &Puzzle,
    options: &SolveOptions,
    will_search: bool,
    start: Instant,
    engine: Option<&Engine>,
) -> (Option<Result<Domains, Contradiction>>, Stats) {
    let mut report = PresolveReport::default();
    let domains = if options.presolve {
        // Probing is search's first level done for every candidate; with search to follow it mostly costs.
        // Measured without it: sudoku-counts median 7.7 -> 1.0 ms, order <= 16 QCPs 4.6 -> 0.5 ms, the slowest
        // KenKen 865 -> 372 ms; the slowest killer 196 -> 350 ms (CP-SAT's: 518 ms).
        let until = deadline(start, options.time_limit);
        let probes = if will_search {
            ProbeBudget::NONE
        } else {
            ProbeBudget::for_size(puzzle.size(), until)
        };
        match engine {
            Some(e) => presolve::presolve_with(e, puzzle, probes, until, &mut report),
            None => presolve::presolve(puzzle, probes, until, &mut report),
        }
    } else {
        None
    };
    let pruned = domains.as_ref().and_then(|d| d.as_ref().ok());
    let stats = Stats {
        presolve_fixed: pruned.map_or(0, Domains::fixed_count),
        presolve_candidates: pruned.map_or(0, Domains::candidate_count),
        probes: report.probes,
        probe_removals: report.probe_removals,
        presolve_ms: ms(start.elapsed()),
        ..Stats::default()
    };
    (domains, stats)
}

fn all_fixed(d: &Domains) -> bool {
    d.fixed_count() == d.size() * d.size()
}

/// Propagation removes only impossible candidates, so when one is left in every cell that grid is the only one
/// possible: a solution when it passes the exact check, and none when it fails it (propagation cannot always
/// see a rule broken).
fn only_grid_left(puzzle: &Puzzle, d: &Domains) -> (Status, Vec<Grid>) {
    let grid = d.grid();
    match puzzle.check_grid(&grid) {
        Ok(()) => (Status::Solved, vec![grid]),
        Err(_) => (Status::Infeasible, vec![]),
    }
}

/// The outcome when propagation alone decided the puzzle.
fn decided_by_presolve(
    status: Status,
    solutions: Vec<Grid>,
    stats: Stats,
    start: Instant,
) -> Outcome {
    Outcome {
        status,
        solutions,
        complete: true,
        time: start.elapsed(),
        stats: Stats {
            solved_by_presolve: true,
            ..stats
        },
    }
}

/// An engine built here, or one built before for the same rules.
enum Shared<'a> {
    Owned(Box<Engine<'a>>),
    Borrowed(&'a Engine<'a>),
}

impl<'a> std::ops::Deref for Shared<'a> {
    type Target = Engine<'a>;

    fn deref(&self) -> &Engine<'a> {
        match self {
            Shared::Owned(e) => e,
            Shared::Borrowed(e) => e,
        }
    }
}

/// The search stage: one engine (with the derived intersections) over the presolved domains, run with a node
/// budget as often as the solve asks.
struct Searcher<'a> {
    puzzle: &'a Puzzle,
    start: Option<(&'a Domains, Shared<'a>)>,
    max_solutions: usize,
    prefer: Option<&'a [u64]>,
    deadline: Option<Instant>,
    began: Instant,
    /// The engine with the rules' required values ([`Engine::thorough`]), built for the first search; `None`
    /// inside when no rule names any.
    thorough: std::cell::OnceCell<Option<Engine<'a>>>,
}

impl<'a> Searcher<'a> {
    /// A searcher over `domains`; one that never runs when they are `None` (no presolve, or no search).
    fn new(
        puzzle: &'a Puzzle,
        domains: Option<&'a Domains>,
        options: &'a SolveOptions,
        began: Instant,
        engine: Option<&'a Engine<'a>>,
    ) -> Self {
        let engine = |d| match engine {
            Some(e) => (d, Shared::Borrowed(e)),
            None => (
                d,
                Shared::Owned(Box::new(Engine::with_intersections(puzzle))),
            ),
        };
        Searcher {
            puzzle,
            start: domains.map(engine),
            max_solutions: options.max_solutions,
            prefer: options.prefer.as_deref().map(Vec::as_slice),
            deadline: deadline(began, options.time_limit),
            began,
            thorough: std::cell::OnceCell::new(),
        }
    }

    /// Search's root domains and the engine it runs: the one with the rules' required values
    /// ([`Engine::thorough`], built the first time) where any rule names them, else the one it was given.
    /// `None` when there is nothing to search.
    fn root(&self) -> Option<(&Domains, &Engine<'a>)> {
        let (d, engine) = self.start.as_ref()?;
        let thorough = self
            .thorough
            .get_or_init(|| Engine::thorough(self.puzzle))
            .as_ref();
        Some((*d, thorough.unwrap_or(engine)))
    }

    /// Searches with a node budget (and room to stretch it: [`SearchBudget::stretch_to`]) from `from` when given
    /// (domains narrower than search's root: what probing left), else from the root, adding to the stats;
    /// `None` when there is nothing to search. Always with the rules' required values where any rule names
    /// them: they cost each node more and save many nodes, which pays now that a search nearly done at the
    /// handover finishes (renban total 0.71x against the plain engine with no stretch).
    fn run(
        &self,
        from: Option<&Domains>,
        nodes: u64,
        stretch_to: u64,
        stats: &mut Stats,
    ) -> Option<SearchOutcome> {
        let (root, engine) = self.root()?;
        let d = from.unwrap_or(root);
        let t = Instant::now();
        let n = self.puzzle.size() as u64;
        let budget = SearchBudget {
            nodes,
            deadline: self.deadline,
            prefer: self.prefer,
            stretch_to,
            per_solution: n * n,
        };
        let outcome = search::search(self.puzzle, engine, d.clone(), self.max_solutions, budget);
        stats.search_nodes += outcome.nodes;
        stats.search_restarts += outcome.restarts;
        stats.search_ms += ms(t.elapsed());
        Some(outcome)
    }

    /// Probing at the handover (singleton consistency on search's root domains, [`presolve::probe`]) with this
    /// search's engine, adding to the stats; `None` when there was no search. A search that did not decide
    /// within its budget leaves a puzzle that is hard for it, and where the rules' propagation is strong (outside
    /// clues, sums over long lines) assuming each candidate in turn may decide it outright (a generated 25x25
    /// X-sums: 24 probes, where CaDiCaL took 17 s). Where it is not, the first window of probes removes next to
    /// nothing and ends it ([`ProbeBudget::window`]); and it never runs more probes than a few times the nodes
    /// search took.
    fn probe(&self, stats: &mut Stats) -> Option<Result<Domains, Contradiction>> {
        let (d, engine) = self.root()?;
        let budget = ProbeBudget {
            probes: HANDOVER_PROBES_PER_NODE * stats.search_nodes.max(1),
            deadline: self.deadline,
            window: HANDOVER_PROBE_WINDOW,
        };
        let mut report = PresolveReport::default();
        let mut d = d.clone();
        let t = Instant::now();
        let probed = presolve::probe(engine, &mut d, budget, &mut report).map(|()| d);
        stats.probes += report.probes;
        stats.probe_removals += report.probe_removals;
        stats.search_ms += ms(t.elapsed());
        Some(probed)
    }

    /// The outcome when probing at the handover decided the puzzle: one candidate left in every cell (the only
    /// grid left, verified: none when it fails its check, which propagation cannot always see), or a
    /// contradiction (`None`: no solution).
    fn probed_to_end(&self, d: Option<&Domains>, stats: Stats) -> Outcome {
        let (status, solutions) = d.map_or((Status::Infeasible, vec![]), |d| {
            only_grid_left(self.puzzle, d)
        });
        Outcome {
            status,
            solutions,
            complete: true,
            time: self.began.elapsed(),
            stats: Stats {
                solved_by_search: true,
                ..stats
            },
        }
    }

    /// The outcome when search decided the puzzle or ran out of time.
    fn decided(&self, outcome: SearchOutcome, stats: Stats) -> Outcome {
        Outcome {
            status: Status::of(!outcome.solutions.is_empty(), outcome.timed_out),
            complete: outcome.exhausted,
            solutions: outcome.solutions,
            time: self.began.elapsed(),
            stats: Stats {
                solved_by_search: outcome.decided,
                ..stats
            },
        }
    }
}

/// Asks the backend session for grids until there are enough, there are no more, or time is up; each grid is
/// verified exactly and cut off before the next solve.
fn enumerate(
    puzzle: &Puzzle,
    options: &SolveOptions,
    session: &mut dyn Session,
    found: Vec<Grid>,
    mut stats: Stats,
    start: Instant,
) -> Result<Outcome, Error> {
    let mut solutions = found;
    let mut complete = false;
    let mut timed_out = false;
    let mut rejected_in_a_row = 0;
    while solutions.len() < options.max_solutions.max(1) {
        let Some(remaining) = remaining(options.time_limit, start) else {
            timed_out = true;
            break;
        };
        let t = Instant::now();
        let answer = session.solve(remaining)?;
        stats.solver_calls += 1;
        stats.solver_ms += ms(t.elapsed());
        let values = match answer {
            BackendAnswer::Infeasible => {
                complete = true;
                break;
            }
            BackendAnswer::TimedOut(values) => {
                timed_out = true;
                // A feasibility puzzle's point found before the limit is still an answer if it verifies.
                match values.filter(|_| puzzle.objective().is_none()) {
                    Some(v) => v,
                    None => break,
                }
            }
            BackendAnswer::Solution(values) => values,
        };
        let grid = session.grid_from(&values);
        if !grid.is_complete() {
            if timed_out {
                break;
            }
            return Err(Error::Solver(
                "the solver returned a point that is not a grid".into(),
            ));
        }
        session.exclude(&grid);
        if puzzle.check_grid(&grid).is_err() {
            stats.rejected += 1;
            rejected_in_a_row += 1;
            if rejected_in_a_row > MAX_REJECTED {
                return Err(Error::Solver(format!(
                    "{MAX_REJECTED} grids in a row failed verification"
                )));
            }
        } else {
            rejected_in_a_row = 0;
            solutions.push(grid);
        }
        if timed_out {
            break;
        }
    }
    (stats.relaxation_probes, stats.relaxation_removals) = session.relaxation_stats();
    Ok(Outcome {
        status: Status::of(!solutions.is_empty(), timed_out),
        solutions,
        complete: complete && !timed_out,
        time: start.elapsed(),
        stats,
    })
}

/// The outcome when the time limit passed while a backend was being set up.
fn timed_out(solutions: Vec<Grid>, stats: Stats, start: Instant) -> Outcome {
    Outcome {
        status: Status::of(!solutions.is_empty(), true),
        solutions,
        complete: false,
        time: start.elapsed(),
        stats,
    }
}

/// The time left before the limit: `Some(None)` without a limit, `None` when it has passed.
fn remaining(limit: Option<Duration>, start: Instant) -> Option<Option<Duration>> {
    match limit {
        None => Some(None),
        Some(limit) => limit
            .checked_sub(start.elapsed())
            .filter(|r| !r.is_zero())
            .map(Some),
    }
}

/// The instant a time limit ends; `None` without a limit, or when it lies beyond what the clock can hold.
fn deadline(start: Instant, limit: Option<Duration>) -> Option<Instant> {
    limit.and_then(|l| start.checked_add(l))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;
    use crate::solve::engine::tests::{puzzle_file, puzzle_text};

    /// The rows reported are the ones the backend reads. The whole program of an Inshi no heya has both a
    /// room's log band (CBC's) and its automaton's clauses (CaDiCaL's): on the pure path CBC is handed the
    /// band, and the clauses are not counted; CaDiCaL is handed the clauses, and the band is not counted.
    #[test]
    fn the_rows_reported_are_the_backends() {
        let puzzle = puzzle_file("puzzles/inshi/nikoli-5x5.yaml");
        let program = crate::compile::compile(&puzzle, None);
        let count = |role| program.rows.iter().filter(|r| r.role == role).count();
        let (clauses, bands) = (count(Role::Clause), count(Role::Relaxation));
        assert!(clauses > 0 && bands > 0);
        let whole = |backend| SolveOptions {
            presolve: false,
            backend,
            max_solutions: 2,
            ..SolveOptions::default()
        };
        let cbc = run_with(&puzzle, &whole(BackendChoice::Cbc), None).unwrap();
        assert_eq!(cbc.stats.rows, program.rows.len() - clauses);
        let cadical = run_with(&puzzle, &whole(BackendChoice::Auto), None).unwrap();
        assert_eq!(cadical.stats.rows, program.rows.len() - bands);
        assert_eq!(cbc.solutions, cadical.solutions);
    }

    /// A clue given at both ends of its line (as `generate` leaves battlefields and sandwiches when their
    /// thinning runs out of time) is one rule to the solver: the program is the one without the copies, the
    /// engine runs one propagator for it, and the answer is the same. The checks still read every clue.
    #[test]
    fn a_clue_given_at_both_ends_is_solved_once() {
        for (path, copies) in [
            (
                "puzzles/battlefield/battlefield-6x6.yaml",
                "right: 3 . 9 . 0 .\n",
            ),
            (
                "puzzles/sandwich/sandwich-6x6.yaml",
                "right: 5 . 7 6 . 9\nbottom: . . . 0 . 11\n",
            ),
        ] {
            let text =
                std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let once = puzzle_text(&text);
            let twice = puzzle_text(&format!("{text}{copies}"));
            let clues = copies
                .split_whitespace()
                .filter(|w| w.parse::<u64>().is_ok())
                .count();
            assert_eq!(twice.rules().len(), once.rules().len() + clues, "{path}");
            let redundant = twice.redundant().iter().filter(|&&r| r).count();
            assert_eq!(
                (once.redundant().contains(&true), redundant),
                (false, clues),
                "{path}"
            );
            let rows = |p: &Puzzle| crate::compile::compile(p, None).rows.len();
            assert_eq!(rows(&twice), rows(&once), "{path}");
            let engines = |p| Engine::with_intersections(p).count();
            assert_eq!(engines(&twice), engines(&once), "{path}");
            let solve = |p| {
                run(
                    p,
                    &SolveOptions {
                        max_solutions: 2,
                        ..SolveOptions::default()
                    },
                )
                .unwrap()
            };
            let (a, b) = (solve(&once), solve(&twice));
            assert_eq!((a.solutions.len(), a.complete), (1, true), "{path}");
            assert_eq!(a.solutions, b.solutions, "{path}");
            // A copy that disagrees with its other end is a rule of its own, and leaves no solution.
            let wrong = copies.replacen(" 3 ", " 4 ", 1).replacen(" 5 ", " 4 ", 1);
            let clash = puzzle_text(&format!("{text}{wrong}"));
            assert_eq!(
                clash.redundant().iter().filter(|&&r| r).count(),
                clues - 1,
                "{path}"
            );
            assert_eq!(solve(&clash).status, Status::Infeasible, "{path}");
        }
    }

    /// With no backend, what search leaves within its nodes ends undecided (and never reaches CaDiCaL); with
    /// enough nodes search decides it alone.
    #[test]
    fn search_alone_ends_undecided_past_its_nodes() {
        let registry = Registry::built_in();
        let puzzle = crate::model::load::load_str("type: sudoku\nsize: 16\n", &registry).unwrap();
        let with = |search_nodes| SolveOptions {
            backend: BackendChoice::SearchOnly,
            search_nodes,
            ..SolveOptions::default()
        };
        let short = run_with(&puzzle, &with(1), None).unwrap();
        assert!(!short.complete && short.solutions.is_empty());
        assert_eq!(short.status, Status::Timeout);
        assert_eq!(short.stats.solver_calls, 0, "no backend");
        let long = run_with(&puzzle, &with(100_000), None).unwrap();
        assert_eq!(long.solutions.len(), 1);
        assert_eq!(puzzle.check_grid(&long.solutions[0]), Ok(()));
    }

    /// Listing every solution is search's work: the Latin squares of order 5 (161,280, OEIS A002860) and the
    /// 4x4 Sudokus (288), each counted exactly by search alone, with no backend call. Before solutions earned
    /// search more nodes, all but the first hundred went to CaDiCaL one call each (5.8 s for the squares).
    #[test]
    fn every_solution_of_a_dense_space_is_listed_by_search() {
        for (puzzle, all) in [
            (Puzzle::latin(5).unwrap(), 161_280),
            (Puzzle::sudoku(4).unwrap(), 288),
        ] {
            let out = listed_by_search(&puzzle, 200_000);
            assert_eq!(out.solutions.len(), all);
            let distinct: std::collections::HashSet<&Grid> = out.solutions.iter().collect();
            assert_eq!(distinct.len(), all);
        }
    }

    /// Solutions that earn nodes do not keep a nearly done run from its stretch: a 6x6 Nabner with one given and
    /// 354 solutions is listed by one run of 2,204 nodes, as before nodes were earned, where earned nodes left to
    /// the failure limit restarted it and handed it to CaDiCaL after 12,929.
    #[test]
    fn a_stretch_comes_before_earned_nodes() {
        let text = "type: nabner\nsize: 6\nnabner: |\n  r5c2 r6c2 r6c3\n  r6c5 r5c4 r5c3\n  r5c6 r4c6 r4c5\n  \
                    r2c3 r2c4 r3c4\n  r2c1 r1c1 r2c2\ngivens: [r3c2=1]\n";
        let puzzle = crate::model::load::load_str(text, &Registry::built_in()).unwrap();
        let out = listed_by_search(&puzzle, 400);
        assert_eq!(out.solutions.len(), 354);
        assert_eq!(out.stats.search_restarts, 0);
    }

    /// Every solution of `puzzle`, up to `max`: the list complete, and no backend called.
    fn listed_by_search(puzzle: &Puzzle, max: usize) -> Outcome {
        let options = SolveOptions {
            max_solutions: max,
            ..SolveOptions::default()
        };
        let out = run_with(puzzle, &options, None).unwrap();
        assert!(out.complete);
        assert_eq!(out.stats.solver_calls, 0, "no backend");
        out
    }

    /// A puzzle search leaves undecided at the handover (its outside clues prune little in one branch), and
    /// probing there decides: no backend is called, and the one solution is proved the only one.
    #[test]
    fn probing_at_the_handover_decides_what_search_left() {
        let puzzle = puzzle_file("puzzles/skyscraper-sudoku/skyscraper-sudoku-probed-16x16.yaml");
        let options = SolveOptions {
            max_solutions: 2,
            ..SolveOptions::default()
        };
        let out = run_with(&puzzle, &options, None).unwrap();
        assert!(out.complete);
        assert_eq!(out.solutions.len(), 1);
        assert_eq!(puzzle.check_grid(&out.solutions[0]), Ok(()));
        assert!(out.stats.search_nodes > 0 && out.stats.probe_removals > 0);
        assert_eq!(out.stats.solver_calls, 0, "decided before any backend");
        assert!(out.stats.solved_by_search);
    }

    /// Search's second run before CBC (for a program that is not all clauses) starts from what probing at the
    /// handover left: given those candidates, [`Searcher::run`] searches from them, and on this puzzle decides
    /// it in far fewer nodes than from search's root (the way it came to CBC before this, when a 25x25 sum
    /// skyscrapers took 142,715 nodes from the root and 6,500 from probing's candidates).
    #[test]
    fn the_search_before_cbc_starts_from_what_probing_left() {
        let puzzle = puzzle_file("puzzles/sum-skyscrapers/sum-skyscrapers-probed-16x16.yaml");
        let options = SolveOptions {
            max_solutions: 2,
            ..SolveOptions::default()
        };
        let start = Instant::now();
        let (Some(Ok(root)), _) = presolve_stage(&puzzle, &options, true, start, None) else {
            panic!("presolve decided the puzzle");
        };
        let searcher = Searcher::new(&puzzle, Some(&root), &options, start, None);
        let mut stats = Stats::default();
        let first = searcher.run(None, 512, 0, &mut stats).unwrap();
        assert!(!first.decided);
        let Some(Ok(probed)) = searcher.probe(&mut stats) else {
            panic!("probing decided the puzzle");
        };
        assert!(stats.probe_removals > 0);
        let nodes = |from| {
            let out = searcher
                .run(from, options.search_nodes, 0, &mut Stats::default())
                .unwrap();
            assert!(out.decided && out.solutions.len() == 1);
            out.nodes
        };
        let (from_root, from_probed) = (nodes(None), nodes(Some(&probed)));
        assert!(
            from_probed * 3 < from_root,
            "{from_probed} against {from_root}"
        );
    }
}
