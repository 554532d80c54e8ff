//! How to solve: the stages that run, their budgets, and the backends' settings.

use std::time::Duration;

use super::cbc::Cbc;

/// The default search budget: about a second of search on a 9x9, several on a 25x25, before CBC takes over.
pub const DEFAULT_SEARCH_NODES: u64 = 200_000;

/// Search nodes per open cell before a clausal program goes to CaDiCaL instead ([`super::cdcl`]). Search is cheaper
/// on the easy end: one dive that fills every open cell, with a little backtracking, solves an empty 49x49
/// Sudoku in 1.4 s where CaDiCaL took 70 s. Clause learning wins on the hard end, where search's subtrees
/// explode; measured on 43 hard 9x9s (the sudoku-counts file), a handover after 50 nodes had them all
/// decided in at most 12 ms, after 2,000 in at most 25 ms.
pub(crate) const SAT_HANDOVER_PER_OPEN_CELL: u64 = 2;

/// ... and never fewer nodes than this: building and loading a CaDiCaL instance costs a few milliseconds, which
/// a few hundred search nodes cost too, and the stronger propagators (grouped sums, sandwich value sets) decide
/// many variant puzzles in that many. Measured 2026-11-22 against no floor (`latin bench`, 3 runs): arrow median
/// 18.7 -> 6.7 ms (total 913 -> 788), sandwich total 2,429 -> 1,921 ms, whispers, killer and sudoku-counts within
/// noise, renban total 495 -> 543 ms; a floor of 1,000 made renban and xv clearly slower.
pub(crate) const SAT_HANDOVER_MIN_NODES: u64 = 256;

/// A search predicted to end within this many times its handover budget goes on to its end instead
/// ([`super::search::SearchBudget::stretch_to`]).
pub(crate) const SAT_HANDOVER_STRETCH: u64 = 16;

/// Search nodes on the bit boards alone ([`super::boards::Boards::search`]) per node of the engine's search, in
/// the budgets above: a board node (singles and overlaps, no matching) is weaker and much cheaper (node costs
/// were not measured apart; forum-hardest-1106 as a whole went 767 -> 196 ms).
/// Measured 2026-11-24 (one core, `--lines`): forum-hardest-1106 with 8, 32, 128 and unbounded: 259, 249, 250,
/// 249 ms (at 8, 6 of the 375 still went to CaDiCaL, at 32 none); top1465 and the first 10,000 of
/// forum-hardest-1905 equal within 2% at every value.
pub(crate) const BOARD_NODES_PER_NODE: u64 = 32;

/// Search nodes on grids past 64x64 ([`super::wide`]) per node of the search budget: there the backend that
/// would take over builds gigabytes (2.5 GB for an 81x81) and, measured 2026-11-26, decided none of the grids
/// this search gave up on (empty 81x81 Sudokus with 3x27 boxes and with diagonals, half-given grids), while the
/// 3x27 one needs 241,593 nodes of this search (2.1 s), past the default budget of 200,000. 16 when a node
/// cost four times what it does since its branching cell is no longer found by a scan; at 16 an empty
/// 121x121 Sudoku now spent its 3.2 million nodes in 25 s and CaDiCaL took 7 GB in the rest of a 60 s limit,
/// where 64 keeps the search's time before the handover what it was.
pub(crate) const WIDE_NODES_PER_NODE: u64 = 64;

/// Which backend takes what presolve and search leave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackendChoice {
    /// CaDiCaL when every row of the residual program is a clause (every coefficient +-1), CBC otherwise.
    #[default]
    Auto,
    /// CBC always (for comparisons and tests).
    Cbc,
    /// None: presolve and search alone, within `search_nodes`; what they leave undecided ends incomplete, as
    /// at a work limit. For a caller with a cheaper way out than a backend's proof (`generate` draws again).
    SearchOnly,
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Stop after this many solutions (1: just solve; 2: the uniqueness question).
    pub max_solutions: usize,
    pub time_limit: Option<Duration>,
    /// Prune candidates by propagation before compiling (on by default; off sends the whole program to the
    /// backend).
    pub presolve: bool,
    /// Search nodes after presolve before a backend takes over; 0: straight to the backend. A clausal program
    /// goes to CaDiCaL sooner, after 2 nodes per open cell (at least 256). Search on the bit boards alone gets
    /// 32 of its nodes for each. Presolve probes only when no search follows: search does
    /// the same work where it pays.
    pub search_nodes: u64,
    pub backend: BackendChoice,
    /// CBC, with its own settings, for what goes to CBC.
    pub cbc: Cbc,
    /// Refuse, before building it, a backend program estimated to need more bytes than this.
    pub memory_limit: Option<u64>,
    /// Per cell, row by row, values (bit v-1 = v) that search tries before the cell's others: a solution found
    /// then uses them where it can. `candidates` asks for values no solution found so far has shown, so each
    /// new solution witnesses many at once. Only the order changes, never what is found to exist.
    pub prefer: Option<std::sync::Arc<Vec<u64>>>,
    /// Let probing on the linear relaxation take turns with CaDiCaL when clause learning stalls on a program
    /// with arithmetic rows (on by default; see `solve::relax`).
    pub relaxation: bool,
    /// Work, not time, that bounds each call of the backend: CaDiCaL's conflicts, CBC's branch-and-bound nodes.
    /// A call that reaches it ends undecided, as at a time limit, but at the same point on every machine and
    /// every run, so a run bounded only by it (and search's node budget) is reproducible, as `generate`'s
    /// proofs are. Under it the relaxation takes no turns, since they are timed.
    pub work_limit: Option<u64>,
}

/// The default memory limit of a solve: 4 GiB. The command line sets a quarter of the machine's memory.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Bytes a backend needs per cell-value column, measured as peak resident memory: an empty 65x65 Sudoku sent
/// to CaDiCaL 657 MB (2.4 KB a column), empty 100x100 and 150x150 Latin squares 1.9 GB and 6.4 GB (1.9 KB),
/// CBC about a third of that.
pub(crate) const BYTES_PER_COLUMN: u64 = 2_500;

impl SolveOptions {
    /// When a run that starts now must end (`time_limit` from now; none without a limit, or past the clock's
    /// range).
    pub(crate) fn deadline(&self) -> Option<std::time::Instant> {
        self.time_limit
            .and_then(|t| std::time::Instant::now().checked_add(t))
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_solutions: 1,
            time_limit: None,
            presolve: true,
            search_nodes: DEFAULT_SEARCH_NODES,
            backend: BackendChoice::Auto,
            cbc: Cbc::default(),
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
            prefer: None,
            relaxation: true,
            work_limit: None,
        }
    }
}
