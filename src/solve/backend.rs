//! What a backend is: one trait to solve a binary program ([`Backend`]), and one to solve it again and again
//! with each grid found cut off ([`Session`]), so that enumeration and the uniqueness question are the same loop
//! for every backend. Each backend is a file of its own with its own settings: [`super::cbc`] and
//! [`super::cdcl`].

use std::time::Duration;

use crate::error::Error;
use crate::grid::Grid;
use crate::program::BinaryProgram;

/// What a backend answers for one program.
#[derive(Clone, Debug)]
pub(crate) enum BackendAnswer {
    /// An optimal (for feasibility: any) point.
    Solution(Vec<f64>),
    Infeasible,
    /// Stopped on the time limit, with the best point found if any.
    TimedOut(Option<Vec<f64>>),
}

/// A backend for binary programs.
pub(crate) trait Backend {
    fn solve(
        &self,
        program: &BinaryProgram,
        time_limit: Option<Duration>,
    ) -> Result<BackendAnswer, Error>;
}

/// Solves one program again and again, with each grid found cut off before the next solve (enumeration). An
/// incremental backend keeps what it learned from one solve to the next ([`super::cdcl::CdclSession`]).
pub(crate) trait Session {
    fn solve(&mut self, time_limit: Option<Duration>) -> Result<BackendAnswer, Error>;
    /// Forbids a grid from now on.
    fn exclude(&mut self, grid: &Grid);
    /// Reads a grid back from an answer's column values.
    fn grid_from(&self, values: &[f64]) -> Grid;
    /// Candidates probed on the linear relaxation and removed ([`super::relax`]), for the stats.
    fn relaxation_stats(&self) -> (u64, u64) {
        (0, 0)
    }
}

/// The session of a backend that keeps nothing between solves: the whole program, with the no-good rows added
/// so far, goes to the backend every time.
pub(crate) struct WholeProgram<'a> {
    pub(crate) backend: Box<dyn Backend + 'a>,
    pub(crate) program: BinaryProgram,
}

impl Session for WholeProgram<'_> {
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
