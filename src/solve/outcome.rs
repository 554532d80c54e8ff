//! What a solve answers: its status, the grids, whether the count is complete, and counters for every stage.

use std::time::Duration;

use crate::grid::Grid;

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
    pub(crate) fn of(found: bool, timed_out: bool) -> Status {
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
    /// Rows of the program the backend was handed: CBC's leave out the clause rows written for CaDiCaL, and
    /// CaDiCaL's the linear rows written for CBC.
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
    /// Nodes of the bounded search after presolve, and its time (with the probing at its handover).
    pub search_nodes: u64,
    pub search_restarts: u64,
    pub search_ms: f64,
    /// Propagation alone decided the puzzle (solved or proved infeasible); the solver was not called.
    pub solved_by_presolve: bool,
    /// The search after presolve decided the puzzle (every solution up to the maximum, or none); no backend was
    /// called.
    pub solved_by_search: bool,
    /// Every row of the residual program was a clause, and it went to CaDiCaL instead of CBC.
    pub clausal: bool,
    /// Grids the solver returned that failed exact verification and were cut off.
    pub rejected: usize,
    pub compile_ms: f64,
    pub solver_ms: f64,
    /// Candidates probed on the linear relaxation between CaDiCaL's turns, and how many of them it removed.
    pub relaxation_probes: u64,
    pub relaxation_removals: u64,
    /// The count stopped below `max_solutions` because the solutions kept would pass `--memory-limit`
    /// ([`SolveOptions::memory_limit`](super::SolveOptions::memory_limit)); there may be more.
    pub memory_capped: bool,
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

impl Outcome {
    /// A count to `max` that the time limit cut short: some solutions found, fewer than `max`, and no stage
    /// proved there are no more. (A count held below `max` by `--memory-limit` is not: that stop is the
    /// caller's bound, as `max` is.)
    pub(crate) fn count_cut_short(&self, max: usize) -> bool {
        self.status == Status::Solved
            && !self.complete
            && !self.stats.memory_capped
            && self.solutions.len() < max
    }
}
