//! The CBC backend: [`BinaryProgram`] -> good_lp model -> COIN-OR CBC.
//!
//! good_lp builds the model and reads the answer back; its `as_inner_mut` hands us the `coin_cbc` model for
//! CBC's own parameters. CBC prints nothing (log level 0). Only the residual is handed over: a column fixed by
//! the givens or presolve is a constant, and a row with no free column left is checked here and dropped. The
//! parameters chosen, and why:
//! - `cuts off`, `heuristicsOnOff off`, `strongBranching 0` for programs over the cell columns only: on hard
//!   9x9 puzzles CBC's defaults took 1.5-2.8 s where these took 0.05-0.23 s; the LP relaxation of a
//!   Latin-square program is already tight. Programs with auxiliary columns (KenKen tables, skyscraper
//!   visibility) keep CBC's defaults, whose cuts pay off there.
//! - tighter integrality and primal tolerances when a product band is narrow, so a point CBC calls integral
//!   cannot drift across the band (answers are verified exactly anyway).

use std::time::Duration;

use good_lp::solvers::coin_cbc::coin_cbc;
use good_lp::{
    variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel,
    Variable,
};

use super::backend::{Backend, BackendAnswer};
use crate::error::Error;
use crate::program::{constant_holds, BinaryProgram, Sense};

/// CBC through good_lp, with its settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cbc {
    /// Keep CBC's default cuts, heuristics and strong branching (for measurements).
    pub defaults: bool,
    /// Parameters set after ours, overriding them.
    pub params: Vec<(String, String)>,
}

impl Backend for Cbc {
    /// With a time limit, CBC runs on a thread of its own and the answer is awaited only until the limit: CBC
    /// checks its `seconds` parameter between nodes and can overshoot it by a long LP re-solve. A run that
    /// overshoots is abandoned (it still stops at its own limit soon after) and the solve reports a timeout.
    fn solve(
        &self,
        program: &BinaryProgram,
        time_limit: Option<Duration>,
    ) -> Result<BackendAnswer, Error> {
        let Some(limit) = time_limit else {
            return self.run(program, None);
        };
        let (send, receive) = std::sync::mpsc::channel();
        let (cbc, program) = (self.clone(), program.clone());
        std::thread::Builder::new()
            .name("cbc".into())
            .spawn(move || {
                // The receiver is gone when the answer came too late; nothing is left to tell.
                let _ = send.send(cbc.run(&program, Some(limit)));
            })
            .map_err(|e| Error::Solver(format!("cannot start CBC's thread: {e}")))?;
        match receive.recv_timeout(limit) {
            Ok(answer) => answer,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Ok(BackendAnswer::TimedOut(None)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Error::Solver(
                "CBC's thread stopped without an answer".into(),
            )),
        }
    }
}

/// The part of a program CBC sees: a variable per free column, and the rows that still have one.
struct Residual {
    vars: ProblemVariables,
    /// The variable of each column; `None` for a column fixed to its bound.
    cols: Vec<Option<Variable>>,
    rows: Vec<(Expression, f64, f64)>,
}

impl Residual {
    /// Fixed columns become constants; a row with no free column left is checked here and dropped. `None` when
    /// such a row (or a column's bounds) cannot hold: the program is infeasible before CBC starts.
    fn of(program: &BinaryProgram) -> Option<Residual> {
        if !program.bounds_hold() {
            return None;
        }
        let mut vars = ProblemVariables::new();
        let cols: Vec<Option<Variable>> = (0..program.num_cols())
            .map(|i| {
                program
                    .fixed(i)
                    .is_none()
                    .then(|| vars.add(variable().binary()))
            })
            .collect();
        let mut rows = Vec::with_capacity(program.rows.len());
        // A clause whose constraint a linear form beside it says (a weighted row, a flow, an equality) only
        // slows the LP down.
        for row in program.rows.iter().filter(|r| r.role.linear()) {
            let (free, constant) = program.split_row(row);
            if free.is_empty() {
                if !constant_holds(row.lower, row.upper, constant) {
                    return None;
                }
                continue;
            }
            let mut e = Expression::with_capacity(free.len());
            for (i, a) in free {
                if let Some(x) = cols[i] {
                    e.add_mul(a, x);
                }
            }
            rows.push((e, row.lower - constant, row.upper - constant));
        }
        Some(Residual { vars, cols, rows })
    }
}

/// Every column's value: a free column's from `free`, a fixed column's its bound.
fn values(
    program: &BinaryProgram,
    cols: &[Option<Variable>],
    free: &dyn Fn(Variable) -> f64,
) -> Vec<f64> {
    (0..program.num_cols())
        .map(|i| cols[i].map_or(program.lower[i], free))
        .collect()
}

impl Cbc {
    /// These settings with at most `nodes` branch-and-bound nodes a run: a run that reaches them answers as at
    /// a time limit ([`BackendAnswer::TimedOut`]), at the same point on every machine.
    pub(crate) fn within_nodes(&self, nodes: Option<u64>) -> Cbc {
        let mut cbc = self.clone();
        if let Some(nodes) = nodes {
            cbc.params.push(("maxNodes".into(), nodes.to_string()));
        }
        cbc
    }

    fn run(
        &self,
        program: &BinaryProgram,
        time_limit: Option<Duration>,
    ) -> Result<BackendAnswer, Error> {
        let Some(residual) = Residual::of(program) else {
            return Ok(BackendAnswer::Infeasible);
        };
        if residual.cols.iter().all(Option::is_none) {
            // Every column is fixed and every row holds: nothing to ask CBC.
            return Ok(BackendAnswer::Solution(values(
                program,
                &residual.cols,
                &|_| 0.0,
            )));
        }
        let mut objective = Expression::with_capacity(program.objective.len());
        for &(i, a) in &program.objective {
            if let Some(x) = residual.cols[i] {
                objective.add_mul(a, x);
            }
        }
        let Residual { vars, cols, rows } = residual;
        let mut model = match program.sense {
            Sense::Maximize => vars.maximise(objective),
            Sense::Minimize => vars.minimise(objective),
        }
        .using(coin_cbc);
        model.set_log_level(0);
        self.configure(model.as_inner_mut(), program, time_limit);
        for (e, lower, upper) in rows {
            if lower == upper {
                model.add_constraint(e.eq(lower));
            } else {
                if lower.is_finite() {
                    model.add_constraint(e.clone().geq(lower));
                }
                if upper.is_finite() {
                    model.add_constraint(e.leq(upper));
                }
            }
        }
        match model.solve() {
            Ok(solution) => {
                let values = values(program, &cols, &|x| solution.value(x));
                Ok(match solution.status() {
                    SolutionStatus::Optimal => BackendAnswer::Solution(values),
                    SolutionStatus::TimeLimit | SolutionStatus::GapLimit => {
                        BackendAnswer::TimedOut(Some(values))
                    }
                })
            }
            Err(ResolutionError::Infeasible) => Ok(BackendAnswer::Infeasible),
            Err(ResolutionError::Other("Stopped")) => Ok(BackendAnswer::TimedOut(None)),
            Err(e) => Err(Error::Solver(e.to_string())),
        }
    }

    /// CBC's own parameters: ours for the program's shape, then the user's over them, then the time limit.
    fn configure(
        &self,
        inner: &mut coin_cbc::Model,
        program: &BinaryProgram,
        time_limit: Option<Duration>,
    ) {
        // Measured: tuned settings win on plain Latin programs (a hard 9x9: 1.5-2.8 s -> 0.05-0.23 s), but on
        // programs with auxiliary columns (tables, visibility) CBC's cuts pay off (an 8x8 KenKen with hidden
        // operators: 40 s tuned, 0.6 s with defaults).
        let plain = program.num_cols() == program.size.pow(3);
        if !self.defaults && plain {
            inner.set_parameter("cuts", "off");
            inner.set_parameter("heuristicsOnOff", "off");
            inner.set_parameter("strongBranching", "0");
        }
        if program.narrowest_band < 1e-3 {
            inner.set_parameter("integerTolerance", "1e-9");
            inner.set_parameter("primalTolerance", "1e-9");
        }
        for (key, value) in &self.params {
            inner.set_parameter(key, value);
        }
        if let Some(limit) = time_limit {
            inner.set_parameter("seconds", &format!("{:.3}", limit.as_secs_f64().max(0.001)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::cdcl::tests::row;

    /// Twice the sum of 20 columns equal to 21: its relaxation has points (every column at 0.525), no 0/1
    /// point reaches an odd total, and without preprocessing or cuts only branching finds that out.
    fn odd_total() -> BinaryProgram {
        let terms: Vec<(usize, f64)> = (0..20).map(|i| (i, 2.0)).collect();
        BinaryProgram {
            size: 1,
            upper: vec![1.0; 20],
            lower: vec![0.0; 20],
            rows: vec![row(&terms, 21.0, 21.0)],
            objective: vec![],
            sense: Sense::Minimize,
            narrowest_band: f64::INFINITY,
        }
    }

    #[test]
    fn a_node_limit_ends_the_run_undecided_and_none_decides() {
        // One node is not enough to refute the odd total, and the run that reaches it says it stopped, not that
        // there is no solution.
        let plain = Cbc {
            defaults: false,
            params: vec![
                ("cuts".into(), "off".into()),
                ("preprocess".into(), "off".into()),
            ],
        };
        let answer = plain
            .within_nodes(Some(1))
            .solve(&odd_total(), None)
            .unwrap();
        assert!(
            matches!(answer, BackendAnswer::TimedOut(None)),
            "{answer:?}"
        );
        let answer = plain.within_nodes(None).solve(&odd_total(), None).unwrap();
        assert!(matches!(answer, BackendAnswer::Infeasible), "{answer:?}");
    }
}
