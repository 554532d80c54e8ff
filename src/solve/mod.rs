//! Solving: presolve ([`presolve`]), a bounded search over the same propagators ([`search`]), and for what those
//! leave open: compile, call a backend, read grids back, verify, enumerate.
//!
//! Every grid a backend returns is verified in exact integer arithmetic against every rule ([`crate::verify`])
//! before it is reported. A grid that fails (a product band let rounding through) is cut off with a no-good row
//! and the program solved again; the stats count such rejections. Enumeration (`max_solutions > 1`) uses the
//! same no-good cuts, so counting is exact: `complete` is true only when the solver proved there is nothing
//! more.

pub mod cbc;
pub mod intersection;
pub mod presolve;
pub mod sat;
pub mod search;

use std::time::{Duration, Instant};

use crate::compile::{self, BinaryProgram};
use crate::error::Error;
use crate::grid::Grid;
use crate::model::Puzzle;
use crate::verify;

/// What a backend answers for one program.
#[derive(Clone, Debug)]
pub enum BackendAnswer {
    /// An optimal (for feasibility: any) point.
    Solution(Vec<f64>),
    Infeasible,
    /// Stopped on the time limit, with the best point found if any.
    TimedOut(Option<Vec<f64>>),
}

/// A backend for binary programs.
pub trait Backend {
    fn solve(
        &self,
        program: &BinaryProgram,
        time_limit: Option<Duration>,
    ) -> Result<BackendAnswer, Error>;
}

/// Solves one program again and again, with each grid found cut off before the next solve (enumeration). An
/// incremental backend keeps what it learned from one solve to the next ([`sat::CdclSession`]).
pub trait Session {
    fn solve(&mut self, time_limit: Option<Duration>) -> Result<BackendAnswer, Error>;
    /// Forbids a grid from now on.
    fn exclude(&mut self, grid: &Grid);
    /// Reads a grid back from an answer's column values.
    fn grid_from(&self, values: &[f64]) -> Grid;
}

/// The default session: the whole program to the backend for every solve, no-good rows added as it goes.
struct Afresh<'a> {
    backend: &'a dyn Backend,
    program: BinaryProgram,
}

impl Session for Afresh<'_> {
    fn solve(&mut self, time_limit: Option<Duration>) -> Result<BackendAnswer, Error> {
        self.backend.solve(&self.program, time_limit)
    }

    fn exclude(&mut self, grid: &Grid) {
        self.program.exclude(grid);
    }

    fn grid_from(&self, values: &[f64]) -> Grid {
        self.program.grid_from(values)
    }
}

/// A session that hands the whole program to the backend for every solve.
fn afresh<'a>(backend: &'a dyn Backend, program: BinaryProgram) -> Box<dyn Session + 'a> {
    Box::new(Afresh { backend, program })
}

/// The default search budget: about a second of search on a 9x9, several on a 25x25, before CBC takes over.
pub const DEFAULT_SEARCH_NODES: u64 = 200_000;

/// Search nodes per open cell before a clausal program goes to CaDiCaL instead ([`sat`]). Search is cheaper
/// on the easy end: one dive that fills every open cell, with a little backtracking, solves an empty 49x49
/// Sudoku in 1.4 s where CaDiCaL took 70 s. Clause learning wins on the hard end, where search's subtrees
/// explode; measured on 43 hard 9x9s (the sudoku-counts file), a handover after 50 nodes had them all
/// decided in at most 12 ms, after 2,000 in at most 25 ms.
pub const SAT_HANDOVER_PER_OPEN_CELL: u64 = 2;

/// Which backend takes what presolve and search leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackendChoice {
    /// CaDiCaL when every row of the residual program is a clause ([`sat::Cnf::encode`]), CBC otherwise.
    #[default]
    Auto,
    /// CBC always (for comparisons and tests).
    Cbc,
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Stop after this many solutions (1: just solve; 2: the uniqueness question).
    pub max_solutions: usize,
    pub time_limit: Option<Duration>,
    /// Keep CBC's default cuts and heuristics (slower; for comparison).
    pub cbc_defaults: bool,
    /// CBC parameters set last, over ours (`("cuts", "on")`): for tuning experiments.
    pub cbc_params: Vec<(String, String)>,
    /// Prune candidates by propagation before compiling (on by default; off sends the whole program to CBC).
    pub presolve: bool,
    /// Search nodes over the propagator after presolve before a backend takes over ([`search`]); 0: straight
    /// to the backend. A clausal program goes to CaDiCaL sooner, after [`SAT_HANDOVER_PER_OPEN_CELL`] nodes
    /// per open cell. Presolve probes only when no search follows: search does the same work where it pays.
    pub search_nodes: u64,
    pub backend: BackendChoice,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_solutions: 1,
            time_limit: None,
            cbc_defaults: false,
            cbc_params: Vec::new(),
            presolve: true,
            search_nodes: DEFAULT_SEARCH_NODES,
            backend: BackendChoice::Auto,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Solved,
    Infeasible,
    Timeout,
}

impl Status {
    /// A solve that found a solution is solved; one that found none is infeasible, unless it stopped on the
    /// time limit before it could tell.
    fn of(found: bool, timed_out: bool) -> Status {
        if found {
            Status::Solved
        } else if timed_out {
            Status::Timeout
        } else {
            Status::Infeasible
        }
    }
}

/// Counters for one solve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub rows: usize,
    pub columns: usize,
    pub fixed_columns: usize,
    pub solver_calls: usize,
    /// Cells fixed by presolve (givens included); 0 when presolve is off.
    pub presolve_fixed: usize,
    /// Candidates left after presolve, over all cells.
    pub presolve_candidates: usize,
    /// Candidates assumed and propagated by probing, and how many of them failed and were removed.
    pub probes: u64,
    pub probe_removals: u64,
    pub presolve_ms: f64,
    /// Nodes of the bounded search after presolve, and its time.
    pub search_nodes: u64,
    pub search_restarts: u64,
    pub search_ms: f64,
    /// Propagation alone decided the puzzle (solved or proved infeasible); the solver was not called.
    pub solved_by_presolve: bool,
    /// The search after presolve decided the puzzle (every solution up to the maximum, or none); CBC was not
    /// called.
    pub solved_by_search: bool,
    /// Every row of the residual program was a clause, and it went to CaDiCaL instead of CBC.
    pub clausal: bool,
    /// Grids the solver returned that failed exact verification and were cut off.
    pub rejected: usize,
    pub compile_ms: f64,
    pub solver_ms: f64,
}

/// The stage that decided a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    Propagation,
    Search,
    Cdcl,
    Cbc,
}

impl Stats {
    /// Which stage decided the puzzle these stats describe.
    pub fn decided_by(&self) -> DecidedBy {
        if self.solved_by_presolve {
            DecidedBy::Propagation
        } else if self.solved_by_search {
            DecidedBy::Search
        } else if self.clausal {
            DecidedBy::Cdcl
        } else {
            DecidedBy::Cbc
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    pub solutions: Vec<Grid>,
    /// True when the search proved there are no solutions beyond those listed.
    pub complete: bool,
    pub time: Duration,
    pub stats: Stats,
}

/// The most grids in a row that may fail verification before the solve is abandoned as a solver failure.
const MAX_REJECTED: usize = 50;

/// Solves a puzzle with CBC.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Outcome, Error> {
    solve_with(
        puzzle,
        options,
        &cbc::Cbc {
            defaults: options.cbc_defaults,
            params: options.cbc_params.clone(),
        },
    )
}

/// Solves a puzzle with the given backend.
pub fn solve_with(
    puzzle: &Puzzle,
    options: &SolveOptions,
    backend: &dyn Backend,
) -> Result<Outcome, Error> {
    let start = Instant::now();
    let mut report = presolve::PresolveReport::default();
    let will_search = puzzle.objective().is_none() && options.search_nodes > 0;
    let domains = if options.presolve {
        // Probing is search's first level done for every candidate; with search to follow it mostly costs.
        // Measured without it: sudoku-counts median 7.7 -> 1.0 ms, order <= 16 QCPs 4.6 -> 0.5 ms, the slowest
        // KenKen 865 -> 372 ms; the slowest killer 196 -> 350 ms (CP-SAT's: 518 ms).
        let probes = if will_search {
            presolve::ProbeBudget(0)
        } else {
            presolve::ProbeBudget::for_size(puzzle.size())
        };
        presolve::presolve(puzzle, probes, &mut report)
    } else {
        None
    };
    let pruned = domains.as_ref().and_then(|d| d.as_ref().ok());
    // What presolve did, shared by every way this solve can end.
    let mut presolved = Stats {
        presolve_fixed: pruned.map_or(0, presolve::Domains::fixed_count),
        presolve_candidates: pruned.map_or(0, presolve::Domains::candidate_count),
        probes: report.probes,
        probe_removals: report.probe_removals,
        presolve_ms: ms(start.elapsed()),
        ..Stats::default()
    };
    match &domains {
        Some(Err(presolve::Contradiction)) => {
            return Ok(Outcome {
                status: Status::Infeasible,
                solutions: vec![],
                complete: true,
                time: start.elapsed(),
                stats: Stats {
                    solved_by_presolve: true,
                    ..presolved
                },
            });
        }
        Some(Ok(d))
            if d.fixed_count() == puzzle.size() * puzzle.size() && puzzle.objective().is_none() =>
        {
            // Propagation removes only impossible candidates, so this grid is the only one left.
            let grid = d.grid();
            let (status, solutions) = match verify::verify(puzzle, &grid) {
                Ok(()) => (Status::Solved, vec![grid]),
                Err(_) => (Status::Infeasible, vec![]),
            };
            return Ok(Outcome {
                status,
                solutions,
                complete: true,
                time: start.elapsed(),
                stats: Stats {
                    solved_by_presolve: true,
                    ..presolved
                },
            });
        }
        _ => {}
    }
    // Bounded search on what presolve left. A clausal residual goes to CaDiCaL after a short search; any other
    // gets the whole search budget, then CBC, with the grids search found cut off.
    let deadline = options.time_limit.map(|l| start + l);
    let searchable = pruned.filter(|_| will_search);
    let propagator = searchable.map(|_| presolve::Propagator::with_intersections(puzzle));
    let search_stage = |nodes: u64, stats: &mut Stats| {
        let (Some(d), Some(propagator)) = (searchable, &propagator) else {
            return None;
        };
        let t = Instant::now();
        let outcome = search::search(
            puzzle,
            propagator,
            d.clone(),
            options.max_solutions,
            search::SearchBudget { nodes, deadline },
        );
        stats.search_nodes += outcome.nodes;
        stats.search_restarts += outcome.restarts;
        stats.search_ms += ms(t.elapsed());
        Some(outcome)
    };
    let decided = |outcome: search::SearchOutcome, stats: Stats| Outcome {
        status: Status::of(!outcome.solutions.is_empty(), outcome.timed_out),
        complete: outcome.exhausted,
        solutions: outcome.solutions,
        time: start.elapsed(),
        stats: Stats {
            solved_by_search: outcome.decided,
            ..stats
        },
    };
    let first_budget = match options.backend {
        BackendChoice::Auto => {
            let open = pruned.map_or(0, |d| d.size() * d.size() - d.fixed_count()) as u64;
            options.search_nodes.min(SAT_HANDOVER_PER_OPEN_CELL * open)
        }
        BackendChoice::Cbc => options.search_nodes,
    };
    let mut found = Vec::new();
    if let Some(outcome) = search_stage(first_budget, &mut presolved) {
        if outcome.decided || outcome.timed_out {
            return Ok(decided(outcome, presolved));
        }
        found = outcome.solutions;
    }
    let t = Instant::now();
    let program = compile::compile_with(puzzle, pruned);
    let cnf = match options.backend {
        BackendChoice::Auto => sat::Cnf::encode(&program),
        BackendChoice::Cbc => None,
    };
    let clausal = cnf.is_some();
    let compile_ms = ms(t.elapsed());
    if !clausal && first_budget < options.search_nodes {
        // Not for CaDiCaL: search again with the whole budget before CBC (a fresh run; the first was short).
        if let Some(outcome) = search_stage(options.search_nodes, &mut presolved) {
            if outcome.decided || outcome.timed_out {
                return Ok(decided(outcome, presolved));
            }
            found = outcome.solutions;
        }
    }
    let mut stats = Stats {
        rows: program.rows.len(),
        columns: program.num_cols(),
        fixed_columns: (0..program.num_cols())
            .filter(|&i| program.fixed(i).is_some())
            .count(),
        compile_ms,
        clausal,
        ..presolved
    };
    // CaDiCaL keeps its learned clauses from one solution to the next; CBC starts afresh each time.
    let mut session: Box<dyn Session> = match cnf {
        Some(cnf) => Box::new(sat::CdclSession::with_clauses(program, cnf)?),
        None => afresh(backend, program),
    };
    for grid in &found {
        session.exclude(grid);
    }
    let mut solutions = found;
    let mut complete = false;
    let mut timed_out = false;
    let mut rejected_in_a_row = 0;
    while solutions.len() < options.max_solutions.max(1) {
        let remaining = match options.time_limit {
            Some(limit) => match limit.checked_sub(start.elapsed()) {
                Some(r) if !r.is_zero() => Some(r),
                _ => {
                    timed_out = true;
                    break;
                }
            },
            None => None,
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
        if verify::verify(puzzle, &grid).is_err() {
            stats.rejected += 1;
            rejected_in_a_row += 1;
            if rejected_in_a_row > MAX_REJECTED {
                return Err(Error::Solver(format!(
                    "{MAX_REJECTED} grids in a row failed verification"
                )));
            }
            if timed_out {
                break;
            }
            continue;
        }
        rejected_in_a_row = 0;
        solutions.push(grid);
        if timed_out {
            break;
        }
    }
    Ok(Outcome {
        status: Status::of(!solutions.is_empty(), timed_out),
        solutions,
        complete: complete && !timed_out,
        time: start.elapsed(),
        stats,
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
