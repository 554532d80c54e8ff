//! Probing on the linear relaxation: candidates that no point of the program's LP relaxation sets to 1 are in
//! no solution, and leave before clause learning meets them.
//!
//! Why: a rule that adds values up (little-killer diagonals, arrows, killer cages) reaches CaDiCaL as clauses
//! about one sum at a time (its automaton), and the engine's propagators see one rule at a time too. The
//! relaxation adds all of them together, with every row, column and box at once: the "45 rule" and the
//! combinations of it that setters build their puzzles on. That is what CP-SAT's LP gives it on little
//! killer, where without it CP-SAT is as slow as clause learning alone. Measured on the 20 little-killer
//! puzzles of the corpus in a prototype that probed every candidate before compiling for CaDiCaL: 3 to 191
//! candidates removed per puzzle, and CaDiCaL's time to the proof of uniqueness 43.5 -> 3.9 s on -003 and
//! 48.6 -> 1.0 s on -020.
//!
//! How: the LP of the program's rows over the cell-value columns (rows with auxiliary columns are left out: the
//! layered automata's flows made each probe a hundred times slower for 68 removals against 66). A probe
//! maximises one open column from the basis the last probe ended at ([`Lp`]); a maximum below 1 removes the
//! candidate. Probes are expensive (a hundred simplex pivots on a 9x9), so they are ordered: a column that
//! some LP point seen so far (a few random objectives first, then every probe's optimum) already set high is
//! rarely removable, so the columns seen lowest go first. On little-killer-001, 50 of the 66 removals came in
//! the first 100 of 571 probes. Probing ends after [`STALE`] probes in a row removed nothing.
//!
//! Only programs with arithmetic get a relaxation (a row over cell columns with a coefficient other than +-1):
//! the relaxation of cardinality rows alone knows little that the clauses and the matchings do not, and on the
//! large grids where CaDiCaL works longest (25x25 Sudokus) each probe would cost more.
//!
//! Exactness: the rows' coefficients are small integers, and a candidate goes only when its maximum is below
//! 1 by [`MARGIN`], a thousand times Clp's tolerance. Every answer is still verified exactly.

use std::time::Instant;

use super::clp::Lp;
use crate::program::{BinaryProgram, Row};

/// Probes in a row that remove nothing before probing ends (on the little-killer corpus this kept 44 to all of
/// the removals a complete pass makes, for a half to a quarter of its probes).
const STALE: usize = 64;

/// LP solves with random objectives before the first probe, to order the probes.
const SCOUTS: usize = 10;

/// How far below 1 a column's maximum must be for its candidate to go.
const MARGIN: f64 = 1e-4;

/// The program's rows over cell columns only (auxiliary columns are left to the clauses).
fn cell_rows(program: &BinaryProgram) -> impl Iterator<Item = &Row> {
    let cells = program.size.pow(3);
    program
        .rows
        .iter()
        .filter(move |r| r.terms.iter().all(|&(i, _)| i < cells))
}

/// Per cell column, whether it is free (neither fixed to 0 nor to 1).
fn open_cells(program: &BinaryProgram) -> Vec<bool> {
    (0..program.size.pow(3)).map(|i| open(program, i)).collect()
}

/// Whether column i is free (neither fixed to 0 nor to 1).
fn open(program: &BinaryProgram, i: usize) -> bool {
    program.lower[i] < 0.5 && program.upper[i] > 0.5
}

/// The relaxation of one program, probed a turn at a time ([`Self::probe_until`]).
pub(crate) struct Relaxation {
    lp: Lp,
    /// Cell-value columns (the first of the LP's columns, and the only ones).
    cells: usize,
    /// Columns still to probe: free, and not probed yet.
    open: Vec<bool>,
    /// Per column, the largest value an LP point seen so far gave it.
    seen: Vec<f64>,
    objective: Vec<f64>,
    /// The first solve and the scouts have run.
    started: bool,
    /// Probes since the last removal.
    stale: usize,
    pub(crate) probes: u64,
    pub(crate) removals: u64,
}

impl Relaxation {
    /// The relaxation of a program's rows over its cell columns; `None` when there is nothing to probe
    /// ([`Self::applies`]).
    pub(crate) fn new(program: &BinaryProgram) -> Option<Relaxation> {
        if !Self::applies(program) {
            return None;
        }
        let cells = program.size.pow(3);
        let rows: Vec<&Row> = cell_rows(program).collect();
        let open = open_cells(program);
        Some(Relaxation {
            lp: Lp::new(&rows, &program.lower[..cells], &program.upper[..cells]),
            cells,
            open,
            seen: vec![0.0; cells],
            objective: vec![0.0; cells],
            started: false,
            stale: 0,
            probes: 0,
            removals: 0,
        })
    }

    /// Whether the program has a relaxation to probe: a row over cell columns that does arithmetic (a
    /// coefficient other than 1), which clause learning cannot see as a whole, and a free cell column. Without
    /// one the LP holds only cardinality rows, which the clauses already say exactly. Cheap: the relaxation
    /// itself is built only when the solver first runs out of its turn.
    pub(crate) fn applies(program: &BinaryProgram) -> bool {
        let arithmetic = cell_rows(program).any(|r| r.terms.iter().any(|&(_, a)| a.abs() != 1.0));
        arithmetic && (0..program.size.pow(3)).any(|i| open(program, i))
    }

    /// Nothing is left to probe.
    pub(crate) fn done(&self) -> bool {
        self.stale >= STALE || !self.open.contains(&true)
    }

    /// Probes until `until` or [`Self::done`]: the columns found in no point of the relaxation.
    pub(crate) fn probe_until(&mut self, until: Instant) -> Vec<usize> {
        let mut removed = Vec::new();
        if !self.started {
            self.started = true;
            if !self.scout(until) {
                // No point at all: the program is infeasible, which CaDiCaL proves on its own.
                self.open.fill(false);
                return removed;
            }
        }
        while !self.done() && Instant::now() < until {
            let Some(i) = (0..self.cells)
                .filter(|&i| self.open[i])
                .min_by(|&a, &b| self.seen[a].total_cmp(&self.seen[b]))
            else {
                break;
            };
            self.open[i] = false;
            self.probes += 1;
            self.objective[i] = -1.0;
            let most = self.lp.minimize(&self.objective, until).map(|x| x[i]);
            self.objective[i] = 0.0;
            if most.is_none() && Instant::now() >= until {
                // Cut short by the clock: probed again next turn.
                self.open[i] = true;
                self.probes -= 1;
                break;
            }
            if most.is_some_and(|v| v < 1.0 - MARGIN) {
                self.lp.forbid(i);
                self.removals += 1;
                self.stale = 0;
                removed.push(i);
            } else {
                self.stale += 1;
                self.look();
            }
        }
        removed
    }

    /// The first solve and the random objectives that order the probes, until `until`: whether the relaxation
    /// may have a point (`false` only when Clp proves it has none).
    fn scout(&mut self, until: Instant) -> bool {
        if self.lp.minimize(&self.objective, until).is_none() {
            return !self.lp.infeasible();
        }
        self.look();
        // Seeded: the same puzzle probes in the same order every time.
        let mut rng = fastrand::Rng::with_seed(0x6c70);
        for _ in 0..SCOUTS {
            let objective: Vec<f64> = (0..self.cells)
                .map(|i| if self.open[i] { -rng.f64() } else { 0.0 })
                .collect();
            if self.lp.minimize(&objective, until).is_some() {
                self.look();
            }
        }
        true
    }

    /// Raises `seen` to the last optimum found (kept by the LP until its next solve).
    fn look(&mut self) {
        if let Some(x) = self.lp.last() {
            for (s, &v) in self.seen.iter_mut().zip(x) {
                *s = s.max(v);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grammar::Registry;
    use crate::model::{load_str, Puzzle};
    use crate::solve::engine::tests::puzzle_file;
    use crate::solve::presolve::presolved;
    use crate::solve::SolveOptions;

    /// The program of a puzzle as the backends get it: compiled after presolve.
    pub(crate) fn presolved_program(puzzle: &Puzzle) -> BinaryProgram {
        let d = presolved(puzzle);
        crate::compile::compile(puzzle, Some(&d))
    }

    /// The program of a puzzle after presolve, and every column the relaxation removes when probing runs to
    /// its end.
    fn removals(puzzle: &Puzzle) -> (BinaryProgram, Vec<usize>) {
        let program = presolved_program(puzzle);
        let mut relaxation = Relaxation::new(&program).expect("sums are arithmetic");
        let mut removed = Vec::new();
        while !relaxation.done() {
            let until = Instant::now() + std::time::Duration::from_secs(60);
            removed.extend(relaxation.probe_until(until));
        }
        assert_eq!(relaxation.removals as usize, removed.len());
        (program, removed)
    }

    /// None of the removed columns is a candidate the grid uses.
    fn assert_kept(program: &BinaryProgram, removed: &[usize], grid: &crate::grid::Grid) {
        for (cell, v) in grid.filled() {
            assert!(!removed.contains(&program.x(cell, v)), "{cell:?} = {v}");
        }
    }

    /// The 6x6 little killer of `puzzles/` with its given and its last diagonal taken away: many solutions,
    /// and every candidate the relaxation removes is in none of them (all of them enumerated by search and
    /// CaDiCaL, without the relaxation).
    #[test]
    fn removes_only_candidates_no_solution_uses() {
        let text = std::fs::read_to_string(format!(
            "{}/puzzles/little-killer/little-killer-6x6.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let text = text
            .replace("  - r3c1..r6c4 = 19\n", "")
            .replace(". . 3 . . .", ". . . . . .");
        let text = text.split("solution:").next().unwrap();
        let puzzle = load_str(text, &Registry::built_in()).unwrap();
        let outcome = crate::solve::run(
            &puzzle,
            &SolveOptions {
                max_solutions: 100_000,
                relaxation: false,
                ..SolveOptions::default()
            },
        )
        .unwrap();
        assert!(outcome.complete && outcome.solutions.len() > 1);
        let (program, removed) = removals(&puzzle);
        for grid in &outcome.solutions {
            assert_kept(&program, &removed, grid);
        }
    }

    /// On the 9x9 little killer of `puzzles/`, the relaxation removes candidates that propagation keeps, and
    /// none of the solution's.
    #[test]
    fn the_relaxation_sees_past_propagation_on_a_little_killer() {
        let puzzle = puzzle_file("puzzles/little-killer/little-killer-9x9.yaml");
        let (program, removed) = removals(&puzzle);
        assert!(removed.len() >= 5, "{} removed", removed.len());
        let solution = puzzle.solution().expect("the file has its solution");
        assert_kept(&program, &removed, solution);
    }

    #[test]
    fn cardinality_rows_alone_get_no_relaxation() {
        let puzzle = Puzzle::sudoku(9).unwrap();
        let program = crate::compile::compile(&puzzle, None);
        assert!(Relaxation::new(&program).is_none());
    }
}
