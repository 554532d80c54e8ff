//! The CDCL backend: a binary program whose rows are all cardinality rows is a SAT instance.
//!
//! Most of the family compiles to rows of the form `lower <= sum(+-x) <= upper`: one value per cell, each value
//! once per row, column, box or region, inequalities and consecutive marks as implications, table cages and
//! skyscraper counts over auxiliary columns. Such a row says "between k and m of these literals are true",
//! which is a set of clauses. A conflict-driven clause-learning solver learns from every dead end, where
//! search and branch-and-bound forget: on the hard 25x25 Sudokus, where a search node costs a propagation and a
//! CBC node an LP re-solve, that is the difference between seconds and no answer. Rows with other coefficients
//! are not clausal: those a rule marks implied ([`Row::implied`]: a killer cage's weighted sum, exact through its
//! value-set clauses; a product's log band, beside its automaton) are left out here, and a program with any
//! other (a weighted row whose automaton would be too large) goes to CBC.
//!
//! The solver is CaDiCaL (Biere et al.), through the `cadical` crate, which builds its C++ source with the
//! crate: the reference CDCL solver of the SAT competitions, MIT-licensed, with the IPASIR interface
//! (incremental clauses, a terminate callback for our own timer). Writing a competitive CDCL solver by hand
//! would be months. The pure-Rust crates (splr, varisat, batsat) were not measured against it here.
//!
//! Encoding (Sinz 2005 for the general case): a row's fixed columns become constants and a `-x` term becomes
//! `not x` (shifting the bounds by one), leaving `k <= (true literals) <= m`. At most m of them is pairwise for
//! m = 1 on short rows, one clause for m = len - 1, and a sequential counter otherwise; at least k is at most
//! len - k of the negations. Columns keep their indices (column i is variable i + 1), so a model reads back
//! as column values like any backend's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::backend::{BackendAnswer, Session};
use super::memory;
use super::relax::Relaxation;
use crate::error::Error;
use crate::grid::Grid;
use crate::program::{BinaryProgram, Row};

/// Why the clauses were not all written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unwritten {
    /// The deadline passed.
    TimeUp,
    /// CaDiCaL would need more memory than the limit: this many bytes, counted so far.
    TooLarge(u64),
}

/// A program in conjunctive normal form: DIMACS literals (variable i + 1 is column i).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cnf {
    /// Variables: the program's columns, then the counters' auxiliaries.
    pub(crate) variables: usize,
    pub(crate) clauses: Clauses,
}

/// Clauses stored flat: every literal in one vector, and where each clause ends. A vector per clause costs
/// about 50 bytes of header and allocation before its first literal; on an empty 100x100 Latin square (9
/// million short clauses) that was most of 1.9 GB.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clauses {
    literals: Vec<i32>,
    ends: Vec<usize>,
}

impl Clauses {
    pub(crate) fn push(&mut self, clause: &[i32]) {
        self.literals.extend_from_slice(clause);
        self.ends.push(self.literals.len());
    }

    pub(crate) fn push_iter(&mut self, clause: impl IntoIterator<Item = i32>) {
        self.literals.extend(clause);
        self.ends.push(self.literals.len());
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &[i32]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.literals[start..end])
    }
}

/// At-most-one rows up to this many literals are written pairwise; longer ones get a sequential counter, which
/// needs 3 clauses a literal instead of len/2.
const PAIRWISE_MAX: usize = 12;

impl Cnf {
    /// The clauses of a binary program without an objective; `None` when a row is not a cardinality row.
    #[cfg(test)]
    pub(crate) fn encode(program: &BinaryProgram) -> Option<Cnf> {
        Self::encode_until(program, None, None).ok().flatten()
    }

    /// [`Self::encode`] that looks at the clock every 1,024 rows (the 67,500 rows of an empty 150x150 Latin
    /// square take 0.7 s), and at what CaDiCaL would need for the clauses so far against `max_bytes`
    /// ([`memory::with_cadical`]).
    pub(crate) fn encode_until(
        program: &BinaryProgram,
        deadline: Option<Instant>,
        max_bytes: Option<u64>,
    ) -> Result<Option<Cnf>, Unwritten> {
        let terms = program.terms();
        if !program.objective.is_empty() {
            return Ok(None);
        }
        let mut cnf = Cnf {
            variables: program.num_cols(),
            clauses: Clauses::default(),
        };
        if !program.bounds_hold() {
            cnf.clauses.push(&[]);
        }
        for i in 0..program.num_cols() {
            if let Some(value) = program.fixed(i) {
                cnf.clauses
                    .push(&[if value > 0.5 { var(i) } else { -var(i) }]);
            }
        }
        for (k, row) in program.rows.iter().enumerate() {
            if k % 1024 == 0 {
                if deadline.is_some_and(|t| Instant::now() >= t) {
                    return Err(Unwritten::TimeUp);
                }
                let needed = cnf.needs(terms);
                if max_bytes.is_some_and(|most| needed > most) {
                    return Err(Unwritten::TooLarge(needed));
                }
            }
            if cnf.row(program, row).is_none() {
                return Ok(None);
            }
        }
        let needed = cnf.needs(terms);
        if max_bytes.is_some_and(|most| needed > most) {
            return Err(Unwritten::TooLarge(needed));
        }
        Ok(Some(cnf))
    }

    /// The bytes these clauses need in CaDiCaL, beside a program of `terms` terms.
    fn needs(&self, terms: u64) -> u64 {
        memory::with_cadical(
            terms,
            self.clauses.literals.len() as u64,
            self.clauses.ends.len() as u64,
        )
    }

    /// Appends the clauses of one row; `None` when a coefficient is not +-1. The linear form of what clauses
    /// beside it say ([`crate::program::Role::Relaxation`]) adds nothing.
    fn row(&mut self, program: &BinaryProgram, row: &Row) -> Option<()> {
        if !row.role.clausal() {
            return Some(());
        }
        let mut terms = row.terms.clone();
        terms.sort_unstable_by_key(|&(i, _)| i);
        let mut literals: Vec<i32> = Vec::with_capacity(terms.len());
        // The row's value that does not depend on its free literals (fixed columns, and -1 per negation).
        let mut constant = 0.0;
        let mut k = 0;
        while k < terms.len() {
            // The same column twice is one term.
            let (i, mut a) = terms[k];
            k += 1;
            while k < terms.len() && terms[k].0 == i {
                a += terms[k].1;
                k += 1;
            }
            if let Some(value) = program.fixed(i) {
                constant += a * value;
            } else if a == 1.0 {
                literals.push(var(i));
            } else if a == -1.0 {
                // -x = (not x) - 1.
                literals.push(-var(i));
                constant -= 1.0;
            } else if a != 0.0 {
                return None;
            }
        }
        let len = literals.len() as i64;
        // Bounds on the number of true literals, rounded inward (a tolerance for fixed fractional terms).
        let at_least = if row.lower.is_finite() {
            ((row.lower - constant - 1e-9).ceil() as i64).max(0)
        } else {
            0
        };
        let at_most = if row.upper.is_finite() {
            ((row.upper - constant + 1e-9).floor() as i64).min(len)
        } else {
            len
        };
        if at_least > at_most {
            self.clauses.push(&[]);
            return Some(());
        }
        if at_least > 0 {
            let negations: Vec<i32> = literals.iter().map(|&l| -l).collect();
            self.at_most(&negations, (len - at_least) as usize);
        }
        if at_most < len {
            self.at_most(&literals, at_most as usize);
        }
        Some(())
    }

    /// At most `m` of `literals` are true (`m < literals.len()`).
    fn at_most(&mut self, literals: &[i32], m: usize) {
        let len = literals.len();
        if m == 0 {
            for &l in literals {
                self.clauses.push(&[-l]);
            }
        } else if m + 1 == len {
            self.clauses.push_iter(literals.iter().map(|&l| -l));
        } else if m == 1 && len <= PAIRWISE_MAX {
            for (a, &x) in literals.iter().enumerate() {
                for &y in &literals[a + 1..] {
                    self.clauses.push(&[-x, -y]);
                }
            }
        } else {
            self.sequential_counter(literals, m);
        }
    }

    /// Sinz's sequential counter: s[i][j] is true when at least j + 1 of the first i + 1 literals are.
    fn sequential_counter(&mut self, x: &[i32], m: usize) {
        let len = x.len();
        let first = self.variables as i32 + 1;
        self.variables += (len - 1) * m;
        let s = |i: usize, j: usize| first + (i * m + j) as i32;
        self.clauses.push(&[-x[0], s(0, 0)]);
        for j in 1..m {
            self.clauses.push(&[-s(0, j)]);
        }
        for (i, &xi) in x.iter().enumerate().take(len - 1).skip(1) {
            self.clauses.push(&[-xi, s(i, 0)]);
            self.clauses.push(&[-s(i - 1, 0), s(i, 0)]);
            for j in 1..m {
                self.clauses.push(&[-xi, -s(i - 1, j - 1), s(i, j)]);
                self.clauses.push(&[-s(i - 1, j), s(i, j)]);
            }
            self.clauses.push(&[-xi, -s(i - 1, m - 1)]);
        }
        self.clauses.push(&[-x[len - 1], -s(len - 2, m - 1)]);
    }
}

/// Variable of column i.
fn var(i: usize) -> i32 {
    i as i32 + 1
}

/// Stops CaDiCaL at a deadline, or once the process has grown by more than the memory limit since the session
/// began (it asks every few hundred conflicts). The clauses are counted against the limit before they are given
/// ([`memory::with_cadical`]), but what the solver learns and keeps grows with its time: an empty 121x121 Sudoku
/// went from 3.3 GB after 5 s to 8.5 GB after 60 s, past the default limit of a quarter of this machine's
/// 24 GB. Growth, not the whole process, so that a program embedding the library is not charged for its own.
struct Deadline {
    until: Option<Instant>,
    /// The limit in bytes, and the resident memory when the session began.
    memory: Option<(u64, u64)>,
    /// When the resident memory was last read (every [`MEMORY_EVERY`]).
    read: Instant,
    /// The growth that stopped the solver, in bytes (0 while it has not).
    over: Arc<AtomicU64>,
}

/// How often the solver's callback reads the process's memory.
const MEMORY_EVERY: Duration = Duration::from_millis(100);

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        let now = Instant::now();
        if self.until.is_some_and(|t| now >= t) {
            return true;
        }
        let Some((limit, before)) = self.memory.filter(|_| now >= self.read + MEMORY_EVERY) else {
            return false;
        };
        self.read = now;
        let grown = memory::resident_bytes().map_or(0, |bytes| bytes.saturating_sub(before));
        if grown <= limit {
            return false;
        }
        self.over.store(grown, Ordering::Relaxed);
        true
    }
}

/// One CaDiCaL instance over one program: a grid cut off is one more clause, and what the solver learned
/// while finding the last grid helps find the next or prove there is none (the uniqueness question).
pub(crate) struct CdclSession {
    /// `Some` until the session is dropped (see the `Drop` impl), or a turn left it behind to stop on its own
    /// ([`solve_watched`]): the session then answers that its time ran out.
    solver: Option<cadical::Solver<Deadline>>,
    program: BinaryProgram,
    /// Variables in use (columns and counter auxiliaries).
    variables: usize,
    /// Clauses (or variables, when more) given to the solver, to judge how long freeing it and a step of its
    /// inprocessing take ([`LARGE`]).
    clauses: usize,
    /// Probing on the linear relaxation takes turns with the solver ([`Self::probing`]); `None` until the
    /// solver first runs out of its turn, and when the program has no relaxation.
    relaxation: Option<Relaxation>,
    /// Probing was asked for, and the relaxation is still to be built.
    relax: bool,
    /// The length of the solver's next turn.
    turn: Duration,
    /// The solver's time in the current turn, over all the calls it spans (the first solution's and the
    /// proof's): a turn is the solver's time between two of the relaxation's, not one call's.
    spent: Duration,
    /// The memory limit in bytes, held while the solver runs ([`Deadline`]).
    memory: Option<u64>,
    /// The process's resident memory when the session began, before the solver took the clauses.
    before: u64,
    /// The growth that stopped the solver at the memory limit, in bytes (0 while it has not).
    over: Arc<AtomicU64>,
    /// Conflicts each call of the solver may take ([`Self::limit_work`]); `None`: as many as it needs.
    conflicts: Option<i32>,
}

/// The solver's first turn before the relaxation's first: what CaDiCaL decides in that time never pays for
/// probing (no arrow, sandwich or killer of the corpus comes near it). Each probing turn is half as long as the
/// solver's turn before it. Measured on the 20 little-killer puzzles against no probing (`benches/ab-records.py`,
/// base `--no-relaxation`), when their diagonals were automata: a first turn of 100 ms with turns of equal length
/// made the median 1.5x slower for a total of 0.46x; 1 s with half turns, the median 1.1-1.4x for a total of
/// 0.44-0.47x; 3 s, median 0.99x and total 0.45x. Since the diagonals are ladders (`rules/ladder.rs`) CaDiCaL
/// takes about 0.8 s on the median one, and against 3 s (`ab-records.py`, best of 2): 1.5 s gives the
/// median 0.98x and the total 0.83x; 1 s 1.04x and 0.80x, 0.5 s 1.25x and 0.82x (best of 1).
const FIRST_TURN: Duration = Duration::from_millis(1500);

/// Solvers holding more clauses than this solve and are freed on a thread of their own: freeing the 9 million
/// clauses of an empty 100x100 Latin square takes about a second, and one step of CaDiCaL's inprocessing on
/// such a program seconds ([`solve_watched`]), which a time limit has no room for.
const LARGE: usize = 1 << 20;

/// How many clauses are added between two looks at the clock.
const CLAUSES_PER_CLOCK: usize = 1 << 16;

/// CaDiCaL's per-variable tables, grown ahead of the clauses a doubling at a time, each step timed. A clause
/// naming a variable past the tables' end makes CaDiCaL double every one of them inside that one call (0.3-0.5 s
/// at a million variables: an empty 99x99 Sudoku ran 0.6-1.1 s past a 1 s limit so), where no clock can stop
/// it. Grown here instead, the next step is predicted from the last (twice the variables, twice the time, and
/// twice that for safety) and not taken when it would end past the deadline.
#[derive(Default)]
struct Room {
    /// Variables CaDiCaL has room for.
    variables: usize,
    /// The last step: the room it made, and how long it took.
    last: Option<(usize, Duration)>,
}

/// The first step's room, taken unmeasured: milliseconds.
const FIRST_ROOM: usize = 1 << 16;

impl Room {
    /// Room for variable `top` (of `total`); false, with nothing done, when the step it needs would end after
    /// the deadline.
    fn make(
        &mut self,
        solver: &mut cadical::Solver<Deadline>,
        top: usize,
        total: usize,
        deadline: Option<Instant>,
    ) -> bool {
        while top > self.variables {
            let target = (2 * self.variables).max(FIRST_ROOM).min(total).max(top);
            if let (Some((size, took)), Some(deadline)) = (self.last, deadline) {
                // Twice the linear share: at millions of variables a step also pays the kernel for fresh
                // pages, and ran up to 1.5x its prediction.
                let predicted = took.mul_f64(2.0 * target as f64 / size as f64);
                if Instant::now() + predicted > deadline {
                    return false;
                }
            }
            let start = Instant::now();
            solver.reserve(i32::try_from(target).unwrap_or(i32::MAX));
            self.last = Some((target, start.elapsed()));
            self.variables = target;
        }
        true
    }
}

impl Drop for CdclSession {
    fn drop(&mut self) {
        if let Some(solver) = self.solver.take() {
            if self.clauses > LARGE {
                // If the thread cannot start, the solver is freed here after all.
                let _ = std::thread::Builder::new()
                    .name("cadical-free".into())
                    .spawn(move || drop(solver));
            }
        }
    }
}

impl CdclSession {
    #[cfg(test)]
    fn new(program: BinaryProgram) -> Result<Self, Error> {
        let cnf = Cnf::encode(&program).ok_or_else(|| {
            Error::Solver("the program has rows that are not clauses (sums, products)".into())
        })?;
        Ok(Self::with_clauses(program, cnf, None)?.expect("no deadline to pass"))
    }

    /// A session over a program already encoded (`cnf` must be `Cnf::encode(&program)`).
    /// `None` when the deadline passes while the clauses are loaded (an empty 100x100 Latin square has 9 million
    /// of them, and CaDiCaL takes seconds to take them in).
    pub(crate) fn with_clauses(
        program: BinaryProgram,
        cnf: Cnf,
        deadline: Option<Instant>,
    ) -> Result<Option<Self>, Error> {
        // CaDiCaL's `sat` configuration (longer stable phases, fewer restarts) because puzzles have solutions
        // far more often than not. Measured on six of the 25x25 Sudokus: 27 s in all against 70 s with the
        // default configuration; on the 30 order-20/25 QCPs, counting to 2 (so also proving uniqueness and
        // infeasibility): 9.4 s against 11.6 s.
        let mut solver: cadical::Solver<Deadline> = cadical::Solver::with_config("sat")
            .map_err(|e| Error::Solver(format!("CaDiCaL: {}", e.msg)))?;
        // Room for the variables a doubling at a time ([`Room`]), not all at once: that took 5.4 s for the 10
        // million variables of an empty 150x150 Latin square, out of reach of the clock.
        let mut room = Room::default();
        let mut session = CdclSession {
            solver: None,
            program,
            variables: cnf.variables,
            clauses: cnf.clauses.len().max(cnf.variables),
            relaxation: None,
            relax: false,
            turn: FIRST_TURN,
            spent: Duration::ZERO,
            memory: None,
            before: memory::resident_bytes().unwrap_or(0),
            over: Arc::default(),
            conflicts: None,
        };
        for (k, clause) in cnf.clauses.iter().enumerate() {
            if k % CLAUSES_PER_CLOCK == 0 && deadline.is_some_and(|t| Instant::now() >= t) {
                session.clauses = k.max(session.variables);
                session.solver = Some(solver);
                return Ok(None);
            }
            let top = clause.iter().map(|l| l.unsigned_abs() as usize).max();
            if !room.make(&mut solver, top.unwrap_or(0), cnf.variables, deadline) {
                session.solver = Some(solver);
                return Ok(None);
            }
            solver.add_clause(clause.iter().copied());
        }
        session.solver = Some(solver);
        Ok(Some(session))
    }
}

impl CdclSession {
    /// Lets probing on the program's linear relaxation ([`super::relax`]) take turns with the solver when the
    /// program has one: solver and probes alternate, the solver's turns doubling from [`FIRST_TURN`] and each
    /// probing turn half the solver's last, and every candidate a probe removes is a unit clause from then on.
    /// A solver's turn is its time over every call it spans: a proof of uniqueness goes on with the turn its
    /// first solution began (little-killer-003 4.9 -> 3.8-4.2 s, -014 3.2 -> 2.8 s, where the proof had waited a
    /// whole turn of its own before the first probe).
    /// Probing so costs at most about half of what clause learning alone takes: where that is fast, probing
    /// never starts; where it stalls (the little-killer puzzles whose proof took 10-50 s), the probes'
    /// removals cut its time several-fold.
    ///
    /// A program without one (every row a cardinality row: a Sudoku, a Latin square) is not cut into turns at
    /// all: CaDiCaL stopped and called again restarts its search and its preprocessing, and with nothing to
    /// probe in between that only cost (a 25x25 Sudoku's first solution took 2.5-7.7 s, depending on where the
    /// first turn's end fell, against 1.7 s in one call).
    pub(crate) fn probing(&mut self) {
        self.probing_after(FIRST_TURN);
    }

    /// Stops the solver once the process has grown by more than `limit` bytes since the session began:
    /// [`Session::solve`] then answers [`Error::TooLarge`].
    pub(crate) fn limit_memory(&mut self, limit: Option<u64>) {
        self.memory = limit;
    }

    /// Ends each call of the solver after `limit` conflicts, undecided ([`Session::solve`] answers that its time
    /// ran out): a bound that falls at the same point on every machine, where a time limit does not. CaDiCaL's
    /// own limit, which lasts one call; past `i32::MAX` there is none.
    pub(crate) fn limit_work(&mut self, limit: Option<u64>) {
        self.conflicts = limit.and_then(|l| i32::try_from(l).ok());
    }

    /// [`Self::probing`] with the solver's first turn this long (at least a millisecond).
    fn probing_after(&mut self, first_turn: Duration) {
        self.relax = Relaxation::applies(&self.program);
        self.turn = first_turn.max(Duration::from_millis(1));
    }

    /// One turn of the solver, until `until`: `None` when it ran out (or an earlier turn left it behind:
    /// [`solve_watched`]).
    fn turn(&mut self, until: Option<Instant>) -> Option<BackendAnswer> {
        let mut solver = self.solver.take()?;
        solver.set_callbacks(Some(Deadline {
            until,
            memory: self.memory.map(|limit| (limit, self.before)),
            read: Instant::now(),
            over: self.over.clone(),
        }));
        if let Some(conflicts) = self.conflicts {
            // "conflicts" is one of CaDiCaL's limits: this cannot fail.
            let _ = solver.set_limit("conflicts", conflicts);
        }
        let (solver, outcome) = match until.filter(|_| self.clauses > LARGE) {
            Some(until) => solve_watched(solver, until)?,
            None => {
                let outcome = solver.solve();
                (solver, outcome)
            }
        };
        let answer = outcome.map(|sat| match sat {
            true => BackendAnswer::Solution(
                (0..self.program.num_cols())
                    .map(|i| f64::from(u8::from(solver.value(var(i)) == Some(true))))
                    .collect(),
            ),
            false => BackendAnswer::Infeasible,
        });
        self.solver = Some(solver);
        answer
    }

    /// The relaxation's turn, until `until` (built at its first turn: most sessions never get to one).
    fn relaxation_turn(&mut self, until: Instant) {
        if self.relax && self.relaxation.is_none() {
            self.relax = false;
            self.relaxation = Relaxation::new(&self.program);
        }
        let Some(relaxation) = self.relaxation.as_mut().filter(|r| !r.done()) else {
            return;
        };
        let removed = relaxation.probe_until(until);
        let Some(solver) = self.solver.as_mut() else {
            return;
        };
        self.clauses += removed.len();
        for i in removed {
            solver.add_clause([-var(i)]);
        }
    }

    fn probing_left(&self) -> bool {
        self.relax || self.relaxation.as_ref().is_some_and(|r| !r.done())
    }
}

/// How long past its deadline a large solver is waited for before it is left to stop on its own.
const STOP_GRACE: Duration = Duration::from_millis(100);

/// Solves on a thread of its own, waiting until `until` and [`STOP_GRACE`] after: CaDiCaL asks its terminator
/// between steps, and on millions of clauses one step of its inprocessing (subsumption, garbage collection)
/// runs for seconds (an empty 81x81 Sudoku went 3 s past a 4 s limit so). A solver not back by then is left to
/// stop at its next look and free itself, and the turn has run out (`None`), as it has when no thread starts.
fn solve_watched(
    mut solver: cadical::Solver<Deadline>,
    until: Instant,
) -> Option<(cadical::Solver<Deadline>, Option<bool>)> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("cadical".into())
        .spawn(move || {
            let outcome = solver.solve();
            // The receiver is gone when the turn was given up: the solver is freed here.
            let _ = sender.send((solver, outcome));
        })
        .ok()?;
    let wait = until.saturating_duration_since(Instant::now()) + STOP_GRACE;
    receiver.recv_timeout(wait).ok()
}

/// The end of a turn that starts now: `turn` from now, or the deadline when sooner.
fn turn_end(turn: Duration, deadline: Option<Instant>) -> Option<Instant> {
    match (Instant::now().checked_add(turn), deadline) {
        (Some(end), Some(d)) => Some(end.min(d)),
        (end, None) => end,
        (None, d) => d,
    }
}

impl Session for CdclSession {
    fn solve(&mut self, time_limit: Option<Duration>) -> Result<BackendAnswer, Error> {
        let deadline = time_limit.and_then(|l| Instant::now().checked_add(l));
        loop {
            let probing = self.probing_left();
            let until = if probing {
                turn_end(self.turn.saturating_sub(self.spent), deadline)
            } else {
                deadline
            };
            let started = Instant::now();
            let answer = self.turn(until);
            self.spent += started.elapsed();
            if let Some(answer) = answer {
                return Ok(answer);
            }
            let grown = self.over.load(Ordering::Relaxed);
            if grown > 0 {
                return Err(Error::TooLarge {
                    needed_mb: grown >> 20,
                    limit_mb: self.memory.unwrap_or(0) >> 20,
                });
            }
            // A solver left behind ([`solve_watched`]) ends the session's time as the deadline does.
            let out_of_time =
                deadline.is_some_and(|d| Instant::now() >= d) || self.solver.is_none();
            if !probing || out_of_time {
                return Ok(BackendAnswer::TimedOut(None));
            }
            let Some(until) = turn_end(self.turn / 2, deadline) else {
                continue;
            };
            self.relaxation_turn(until);
            self.turn = self.turn.saturating_mul(2);
            self.spent = Duration::ZERO;
        }
    }

    fn relaxation_stats(&self) -> (u64, u64) {
        self.relaxation
            .as_ref()
            .map_or((0, 0), |r| (r.probes, r.removals))
    }

    /// The program's no-good row for the grid, as clauses (one: some free cell takes another value).
    fn exclude(&mut self, grid: &Grid) {
        let mut cnf = Cnf {
            variables: self.variables,
            clauses: Clauses::default(),
        };
        cnf.row(&self.program, &self.program.no_good(grid))
            .expect("a no-good row has coefficients 1");
        self.variables = cnf.variables;
        let Some(solver) = self.solver.as_mut() else {
            return;
        };
        for clause in cnf.clauses.iter() {
            solver.add_clause(clause.iter().copied());
        }
        self.clauses += cnf.clauses.len();
    }

    fn grid_from(&self, values: &[f64]) -> Grid {
        self.program.grid_from(values)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::program::Role;
    use crate::program::Sense;

    fn program(cols: usize, rows: Vec<Row>) -> BinaryProgram {
        BinaryProgram {
            size: 1,
            upper: vec![1.0; cols],
            lower: vec![0.0; cols],
            rows,
            objective: vec![],
            sense: Sense::Minimize,
            narrowest_band: f64::INFINITY,
        }
    }

    /// A row that is not implied.
    pub(crate) fn row(terms: &[(usize, f64)], lower: f64, upper: f64) -> Row {
        Row {
            terms: terms.to_vec(),
            lower,
            upper,
            role: Role::Exact,
        }
    }

    /// Whether an assignment of the columns satisfies the clauses for some value of the auxiliaries.
    fn satisfiable_with(cnf: &Cnf, columns: &[bool]) -> bool {
        let mut solver: cadical::Solver = cadical::Solver::new();
        for clause in cnf.clauses.iter() {
            solver.add_clause(clause.iter().copied());
        }
        let assumptions: Vec<i32> = columns
            .iter()
            .enumerate()
            .map(|(i, &b)| if b { var(i) } else { -var(i) })
            .collect();
        solver.solve_with(assumptions) == Some(true)
    }

    #[test]
    fn every_cardinality_row_keeps_exactly_its_points() {
        // For rows over up to 14 columns with both signs and every pair of bounds, the clauses admit exactly the
        // 0/1 points the row admits: pairwise, one-clause and counter encodings all get checked.
        let mut rng = fastrand::Rng::with_seed(7);
        for len in 1..=14usize {
            for _ in 0..6 {
                let terms: Vec<(usize, f64)> = (0..len)
                    .map(|i| (i, if rng.bool() { 1.0 } else { -1.0 }))
                    .collect();
                let lo = rng.i64(-3..=len as i64 + 1) as f64;
                let hi = rng.i64(-3..=len as i64 + 1) as f64;
                let p = program(len, vec![row(&terms, lo, hi)]);
                let cnf = Cnf::encode(&p).unwrap();
                for point in 0u32..(1 << len) {
                    if len > 10 && point % 37 != 0 {
                        continue;
                    }
                    let columns: Vec<bool> = (0..len).map(|i| point >> i & 1 == 1).collect();
                    let sum: f64 = terms
                        .iter()
                        .map(|&(i, a)| if columns[i] { a } else { 0.0 })
                        .sum();
                    assert_eq!(
                        satisfiable_with(&cnf, &columns),
                        lo <= sum && sum <= hi,
                        "row {terms:?} in [{lo}, {hi}] at {columns:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn fixed_columns_are_constants() {
        // x0 + x1 + x2 = 1 with x0 fixed to 1: the others must be 0.
        let mut p = program(3, vec![row(&[(0, 1.0), (1, 1.0), (2, 1.0)], 1.0, 1.0)]);
        p.lower[0] = 1.0;
        let cnf = Cnf::encode(&p).unwrap();
        assert!(satisfiable_with(&cnf, &[true, false, false]));
        assert!(!satisfiable_with(&cnf, &[true, true, false]));
        assert!(!satisfiable_with(&cnf, &[false, false, true]));
    }

    #[test]
    fn other_coefficients_and_objectives_are_not_clausal() {
        let sum = program(2, vec![row(&[(0, 3.0), (1, 4.0)], 7.0, 7.0)]);
        assert_eq!(Cnf::encode(&sum), None);
        let mut objective = program(1, vec![]);
        objective.objective.push((0, 1.0));
        assert_eq!(Cnf::encode(&objective), None);
    }

    #[test]
    fn the_backend_reads_a_model_back_as_columns() {
        // Exactly one of three, and not the first two.
        let mut p = program(3, vec![row(&[(0, 1.0), (1, 1.0), (2, 1.0)], 1.0, 1.0)]);
        p.upper[0] = 0.0;
        p.upper[1] = 0.0;
        match CdclSession::new(p.clone()).unwrap().solve(None).unwrap() {
            BackendAnswer::Solution(values) => assert_eq!(values, [0.0, 0.0, 1.0]),
            other => panic!("{other:?}"),
        }
        p.upper[2] = 0.0;
        assert!(matches!(
            CdclSession::new(p.clone()).unwrap().solve(None).unwrap(),
            BackendAnswer::Infeasible
        ));
    }

    /// `pigeons` pigeons in `holes` holes, each pigeon in a hole and no two in one.
    fn pigeonhole(pigeons: usize, holes: usize) -> BinaryProgram {
        let x = |p: usize, h: usize| p * holes + h;
        let mut rows: Vec<Row> = (0..pigeons)
            .map(|p| {
                let terms: Vec<(usize, f64)> = (0..holes).map(|h| (x(p, h), 1.0)).collect();
                row(&terms, 1.0, f64::INFINITY)
            })
            .collect();
        rows.extend((0..holes).map(|h| {
            let terms: Vec<(usize, f64)> = (0..pigeons).map(|p| (x(p, h), 1.0)).collect();
            row(&terms, f64::NEG_INFINITY, 1.0)
        }));
        program(pigeons * holes, rows)
    }

    #[test]
    fn our_timer_stops_the_solver() {
        // Eleven pigeons in ten holes: unsatisfiable, and exponential for resolution, so no clause learner
        // finishes it in 50 ms; the deadline must stop it.
        let answer = CdclSession::new(pigeonhole(11, 10))
            .unwrap()
            .solve(Some(Duration::from_millis(50)))
            .unwrap();
        assert!(
            matches!(answer, BackendAnswer::TimedOut(None)),
            "{answer:?}"
        );
    }

    #[test]
    fn a_work_limit_stops_every_call_and_no_limit_decides() {
        // Seven pigeons in six holes need a few thousand conflicts: with a limit of 20 each call stops
        // undecided (CaDiCaL's limit lasts one call, so the second must be limited again), with none the
        // session proves them infeasible.
        let mut limited = CdclSession::new(pigeonhole(7, 6)).unwrap();
        limited.limit_work(Some(20));
        for call in 0..2 {
            let answer = limited.solve(None).unwrap();
            assert!(
                matches!(answer, BackendAnswer::TimedOut(None)),
                "call {call}: {answer:?}"
            );
        }
        limited.limit_work(None);
        let answer = limited.solve(None).unwrap();
        assert!(matches!(answer, BackendAnswer::Infeasible), "{answer:?}");
    }

    /// The same pigeons with no time limit but a memory limit the process is already past (its growth counted
    /// from nothing): the solver stops at its first look at the memory and the session says the limit was
    /// passed. Counted from the session's start, the same limit of a gigabyte leaves the time limit to stop it.
    /// (Linux only: elsewhere the process's memory is not read, and the clauses' estimate alone holds.)
    #[cfg(target_os = "linux")]
    #[test]
    fn the_memory_limit_stops_the_solver() {
        let mut grown = CdclSession::new(pigeonhole(11, 10)).unwrap();
        grown.limit_memory(Some(1 << 30));
        assert!(matches!(
            grown.solve(Some(Duration::from_millis(300))),
            Ok(BackendAnswer::TimedOut(None))
        ));
        let mut session = CdclSession::new(pigeonhole(11, 10)).unwrap();
        assert!(super::memory::resident_bytes().is_some_and(|b| b > 1 << 20));
        session.before = 0;
        session.limit_memory(Some(1 << 20));
        let started = Instant::now();
        match session.solve(None) {
            Err(Error::TooLarge {
                needed_mb,
                limit_mb,
            }) => assert!(needed_mb > 1 && limit_mb == 1),
            other => panic!("{other:?}"),
        }
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_session_enumerates_every_latin_square_of_order_4_once() {
        // Each grid found is cut off by one clause, and the solver keeps what it learned: 576 distinct
        // squares, then the proof that there is no other.
        let program = crate::compile::compile(&crate::model::Puzzle::latin(4).unwrap(), None);
        let mut session = CdclSession::new(program).unwrap();
        let mut seen = std::collections::HashSet::new();
        loop {
            match session.solve(None).unwrap() {
                BackendAnswer::Solution(values) => {
                    let grid = session.grid_from(&values);
                    assert!(grid.is_complete());
                    session.exclude(&grid);
                    assert!(seen.insert(grid), "a grid came back after it was cut off");
                }
                BackendAnswer::Infeasible => break,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(seen.len(), 576);
    }

    /// A session over the presolved 9x9 little killer of `puzzles/`, with its puzzle.
    fn little_killer_session() -> (crate::model::Puzzle, CdclSession) {
        let puzzle = crate::solve::engine::tests::puzzle_file(
            "puzzles/little-killer/little-killer-9x9.yaml",
        );
        let program = crate::solve::relax::tests::presolved_program(&puzzle);
        let cnf = Cnf::encode(&program).expect("little killer is clausal with its automata");
        let session = CdclSession::with_clauses(program, cnf, None)
            .unwrap()
            .unwrap();
        (puzzle, session)
    }

    /// The session finds the file's solution, then proves there is no other.
    fn assert_unique_answer(puzzle: &crate::model::Puzzle, session: &mut CdclSession) {
        let BackendAnswer::Solution(values) = session.solve(None).unwrap() else {
            panic!("the puzzle has a solution");
        };
        let grid = session.grid_from(&values);
        assert_eq!(Some(&grid), puzzle.solution());
        session.exclude(&grid);
        assert!(matches!(
            session.solve(None).unwrap(),
            BackendAnswer::Infeasible
        ));
    }

    /// The relaxation's removals, as unit clauses in a running session, keep the answer: one whole probing
    /// turn first (every removal it can make), then the solver.
    #[test]
    fn removals_as_units_keep_the_answer() {
        let (puzzle, mut session) = little_killer_session();
        // Probing on, so that the turn builds the relaxation; its solver turn length does not matter here.
        session.probing_after(Duration::from_millis(1));
        session.relaxation_turn(Instant::now() + Duration::from_secs(600));
        let (probes, removals) = session.relaxation_stats();
        assert!(
            probes > 0 && removals > 0,
            "{probes} probes, {removals} removals"
        );
        assert_unique_answer(&puzzle, &mut session);
    }

    /// Solver and relaxation take turns from the first millisecond, and the session still finds the file's
    /// solution and proves there is no other. How many removals come before the solver is done depends on the
    /// clock, so only the turns are asserted here (the removals are, above).
    #[test]
    fn probing_takes_turns_with_the_solver_and_keeps_the_answer() {
        let (puzzle, mut session) = little_killer_session();
        session.probing_after(Duration::from_millis(1));
        assert_unique_answer(&puzzle, &mut session);
        let (probes, _) = session.relaxation_stats();
        assert!(probes > 0, "the relaxation never had a turn");
    }

    /// A turn is the solver's time between two of the relaxation's, over all the calls it spans: what the first
    /// solution's call used counts against the proof's.
    #[test]
    fn a_turn_spans_the_calls_to_the_solver() {
        let (puzzle, mut session) = little_killer_session();
        session.probing_after(Duration::from_secs(600));
        let BackendAnswer::Solution(values) = session.solve(None).unwrap() else {
            panic!("the puzzle has a solution");
        };
        let first = session.spent;
        assert!(first > Duration::ZERO);
        session.exclude(&session.grid_from(&values));
        assert!(matches!(
            session.solve(None).unwrap(),
            BackendAnswer::Infeasible
        ));
        assert!(
            session.spent > first,
            "{:?} then {:?}",
            first,
            session.spent
        );
        assert_eq!(Some(&session.grid_from(&values)), puzzle.solution());
    }

    /// A program of cardinality rows only has no relaxation: asked to probe, the session takes no turns (one
    /// call to the solver, which a turn's end would restart) and still finds the answer; a program with sums
    /// does take them.
    #[test]
    fn a_program_without_arithmetic_is_solved_in_one_turn() {
        let puzzle = crate::solve::engine::tests::puzzle_file("puzzles/sudoku/diagonal-9x9.yaml");
        let program = crate::solve::relax::tests::presolved_program(&puzzle);
        let cnf = Cnf::encode(&program).unwrap();
        let mut session = CdclSession::with_clauses(program, cnf, None)
            .unwrap()
            .unwrap();
        session.probing_after(Duration::from_millis(1));
        assert!(!session.probing_left());
        assert_unique_answer(&puzzle, &mut session);
        assert_eq!(session.relaxation_stats(), (0, 0));
        let (_, mut session) = little_killer_session();
        session.probing_after(Duration::from_millis(1));
        assert!(session.probing_left());
    }

    /// Room grows a doubling at a time up to what a clause names, never past the program's variables, and
    /// refuses a step its last one predicts to end after the deadline, leaving the room as it was.
    #[test]
    fn room_doubles_and_refuses_a_step_past_the_deadline() {
        let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
        let mut room = Room::default();
        assert!(room.make(&mut solver, 10, 100, None));
        assert_eq!(room.variables, 100);
        // A step makes room for at least what the clause names, and at least twice the room before.
        let mut room = Room::default();
        assert!(room.make(&mut solver, FIRST_ROOM / 2, 1 << 20, None));
        assert_eq!(room.variables, FIRST_ROOM);
        // The last step took a second: the next, twice as large, cannot end within a millisecond.
        room.last = Some((room.variables, Duration::from_secs(1)));
        let soon = Some(Instant::now() + Duration::from_millis(1));
        assert!(!room.make(&mut solver, FIRST_ROOM + 1, 1 << 20, soon));
        assert_eq!(room.variables, FIRST_ROOM);
        assert!(room.make(&mut solver, FIRST_ROOM + 1, 1 << 20, None));
        assert_eq!(room.variables, 2 * FIRST_ROOM);
        assert!(room.make(&mut solver, 5 * FIRST_ROOM, 1 << 20, None));
        assert_eq!(room.variables, 5 * FIRST_ROOM);
        solver.add_clause([5 * FIRST_ROOM as i32]);
        assert_eq!(solver.solve(), Some(true));
    }

    /// A watched solve gives the solver back with its answer, or, stopped by its terminator, with none, before
    /// the watch ends: here on the pigeonhole formula of 12 pigeons and 11 holes, which no clause
    /// learner refutes in a human lifetime.
    #[test]
    fn a_watched_solve_comes_back_with_its_solver() {
        let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
        solver.add_clause([1, 2]);
        solver.add_clause([-1]);
        let (solver, outcome) =
            solve_watched(solver, Instant::now() + Duration::from_secs(60)).unwrap();
        assert_eq!((outcome, solver.value(2)), (Some(true), Some(true)));
        let (pigeons, holes) = (12, 11);
        let x = |p: i32, h: i32| p * holes + h + 1;
        let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
        for p in 0..pigeons {
            solver.add_clause((0..holes).map(|h| x(p, h)));
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    solver.add_clause([-x(p, h), -x(q, h)]);
                }
            }
        }
        // The terminator says stop after 50 ms; the watch would wait a second more (room for a busy machine).
        let stop = Instant::now() + Duration::from_millis(50);
        solver.set_callbacks(Some(Deadline {
            until: Some(stop),
            memory: None,
            read: Instant::now(),
            over: Arc::default(),
        }));
        let watch = stop + Duration::from_secs(1);
        let (_, outcome) = solve_watched(solver, watch).expect("stopped by its terminator");
        assert_eq!(outcome, None);
        assert!(Instant::now() < watch);
    }
}
