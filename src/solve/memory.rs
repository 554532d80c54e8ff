//! What the backends will take in memory, estimated from what is built, so that `--memory-limit` holds for the
//! rows the rules write and not only for the grid's size.
//!
//! Three looks, each before the memory is spent: the grid's size before anything is built (every cell-value
//! column costs the backend about the same), the terms the rules have written while they compile (a German
//! whisper snaking through a 64x64 writes 30 million), and the clauses while they are encoded for CaDiCaL, or
//! the terms before the program goes to CBC. The figures are peak resident memory measured on this project's
//! machine: an empty 64x64 Sudoku (1.0 million terms, 7.2 million literals in 3.1 million clauses) peaked at
//! 746 MB with CaDiCaL; a 64x64 whose every neighbour pair is a German whisper (30.6 million terms, 36.7
//! million literals in 3.6 million clauses) at 2.46 GB with CaDiCaL and 3.9 GB with CBC.

use super::options::BYTES_PER_COLUMN;
use crate::error::Error;

/// Bytes a term of the program costs while it is held: its column and coefficient (16) and its row's share.
/// (The compiler counts its rows' bytes exactly as it writes them; this is for the stages after it.)
const BYTES_PER_TERM: u64 = 24;

/// CaDiCaL's bytes per literal and per clause (watches, occurrence lists), fitted to the two runs above;
/// the flat copy handed to it adds 4 and 8.
const CADICAL_BYTES_PER_LITERAL: u64 = 34 + 4;
const CADICAL_BYTES_PER_CLAUSE: u64 = 134 + 8;

/// CBC's bytes per term (its row and column copies, in doubles) beyond the program's own: (3.9 GB - 0.27 GB)
/// over 29.5 million more terms is about 124, of which 24 are ours.
const CBC_BYTES_PER_TERM: u64 = 100;

/// The memory limit in bytes, and what a stage has measured it would need: refused when above.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub(crate) limit: Option<u64>,
}

impl Budget {
    /// `Err(TooLarge)` when `needed` bytes exceed the limit.
    pub(crate) fn check(&self, needed: u64) -> Result<(), Error> {
        match self.limit {
            Some(limit) if needed > limit => Err(self.refusal(needed)),
            _ => Ok(()),
        }
    }

    /// The error for a stage that found it needs `needed` bytes, more than the limit.
    pub(crate) fn refusal(&self, needed: u64) -> Error {
        Error::TooLarge {
            needed_mb: needed >> 20,
            limit_mb: self.limit.unwrap_or(u64::MAX) >> 20,
        }
    }

    /// The most solutions of an n x n grid a solve may keep within the limit (at least 1). Each holds its grid (a
    /// byte a cell and the vector's own bytes), its fingerprint in the search's set, and, past search, the clause
    /// that cuts it off in CaDiCaL (a literal a cell): a count runs up to `--max`, and without this one asking
    /// for a billion kept every grid until the machine's memory ran out. (A row cut off in CBC costs three times
    /// a clause, but CBC's milliseconds a solution never reach the millions this bounds.)
    pub(crate) fn solutions(&self, n: usize) -> usize {
        let cells = (n * n) as u64;
        let each = 64 + cells * (1 + CADICAL_BYTES_PER_LITERAL);
        self.limit
            .map_or(usize::MAX, |limit| (limit / each).max(1) as usize)
    }

    /// Before anything is built: n^3 cell-value columns.
    pub(crate) fn check_size(&self, n: usize) -> Result<(), Error> {
        self.check((n as u64).pow(3).saturating_mul(BYTES_PER_COLUMN))
    }
}

/// A program of `terms` terms and its clauses (`literals` in `clauses`) in CaDiCaL.
pub(crate) fn with_cadical(terms: u64, literals: u64, clauses: u64) -> u64 {
    terms * BYTES_PER_TERM
        + literals * CADICAL_BYTES_PER_LITERAL
        + clauses * CADICAL_BYTES_PER_CLAUSE
}

/// A program of `terms` terms over `columns` columns in CBC.
pub(crate) fn with_cbc(terms: u64, columns: u64) -> u64 {
    terms * (BYTES_PER_TERM + CBC_BYTES_PER_TERM) + columns * (BYTES_PER_COLUMN / 3)
}

/// The process's resident memory in bytes, where the system tells it (`VmRSS` in `/proc/self/status` on
/// Linux); `None` elsewhere.
pub(crate) fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimates cover the peaks they were fitted to (within 10% under, never far over).
    #[test]
    fn estimates_cover_the_measured_peaks() {
        let mb = |b: u64| b >> 20;
        let empty = with_cadical(1_048_576, 7_208_960, 3_096_576);
        assert!((mb(empty) as f64) > 0.9 * 746.0, "{}", mb(empty));
        let snake = with_cadical(30_565_336, 36_725_720, 3_620_736);
        assert!((mb(snake) as f64) > 0.9 * 2_456.0, "{}", mb(snake));
        let cbc = with_cbc(30_565_336, 262_144);
        assert!((mb(cbc) as f64) > 0.9 * 3_914.0, "{}", mb(cbc));
        assert!(mb(cbc) < 2 * 3_914);
    }

    /// A count keeps no more solutions than the limit holds, says so, and counts to its end when they fit.
    #[test]
    fn a_count_stops_at_the_solutions_the_limit_holds() {
        let p = crate::model::Puzzle::sudoku(4).unwrap();
        let count = |limit: Option<u64>| {
            let options = crate::solve::SolveOptions {
                max_solutions: usize::MAX,
                memory_limit: limit,
                ..Default::default()
            };
            crate::solve(&p, &options).unwrap()
        };
        let all = count(Some(1 << 30));
        assert_eq!(
            (all.solutions.len(), all.complete, all.stats.memory_capped),
            (288, true, false)
        );
        let cap = Budget {
            limit: Some(100_000),
        }
        .solutions(4);
        assert!(cap > 1 && cap < 288, "{cap}");
        let some = count(Some(100_000));
        assert_eq!(some.solutions.len(), cap);
        assert!(!some.complete && some.stats.memory_capped);
    }

    #[test]
    fn a_budget_refuses_above_its_limit_only() {
        let b = Budget {
            limit: Some(1 << 30),
        };
        assert!(b.check(1 << 30).is_ok());
        assert!(matches!(
            b.check((1 << 30) + 1),
            Err(Error::TooLarge { limit_mb: 1024, .. })
        ));
        assert!(Budget { limit: None }.check(u64::MAX).is_ok());
    }
}
