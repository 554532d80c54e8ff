//! The answers of `latin solve --lines`: one record a line (text or JSON) and the summary of a run.

use serde::Serialize;

use crate::solve::DecidedBy;

/// What became of one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum LineStatus {
    /// Exactly one solution.
    Solved,
    /// Two or more solutions (the first is given).
    Multiple,
    /// No solution (givens that already break a rule included).
    Infeasible,
    /// The time limit ran out first.
    Timeout,
    /// The line is not a puzzle of this size (bad length or character).
    Invalid,
}

/// One answer line.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct LineAnswer {
    /// 1-based line number in the input.
    pub(crate) line: usize,
    /// A corpus record's own `id`, where the line is one that has it: what ties the answer back to a dataset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    pub(crate) status: LineStatus,
    /// The (first) solution in the one-line form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) solution: Option<String>,
    /// Why a line is invalid or infeasible, when there is more to say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    pub(crate) ms: f64,
    /// What decided the puzzle: propagation alone, the search after it, CaDiCaL or CBC (none for invalid lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decided_by: Option<DecidedBy>,
    /// Where the line carries a solution (a table's solution column, a record's or link's own), or a record's
    /// `count` of solutions (or `feasible`): whether it is the answer (the unique one, or one of several; as
    /// many as latin found); absent where there is nothing to compare or no answer to compare it with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) matches_solution: Option<bool>,
}

impl LineAnswer {
    /// The text form: the solution line for a unique solution (`differs`, the solution and why, where the line's
    /// own solution is not it); otherwise the status, then the first solution or the reason.
    pub(crate) fn to_text(&self) -> String {
        match (self.status, &self.solution, &self.message) {
            (LineStatus::Solved, Some(s), Some(m)) if self.matches_solution == Some(false) => {
                format!("differs {s} {m}")
            }
            // Not the file's answer though latin's is several solutions or none (its `count` says otherwise).
            (status, s, Some(m)) if self.matches_solution == Some(false) => {
                let s = s.as_ref().map(|s| format!("{s} ")).unwrap_or_default();
                format!("differs {} {s}{m}", status_word(status))
            }
            (LineStatus::Solved, Some(s), _) => s.clone(),
            (LineStatus::Multiple, Some(s), _) => format!("multiple {s}"),
            (status, _, Some(m)) => format!("{} {m}", status_word(status)),
            (status, _, None) => status_word(status).to_string(),
        }
    }
}

fn status_word(s: LineStatus) -> &'static str {
    match s {
        LineStatus::Solved => "solved",
        LineStatus::Multiple => "multiple",
        LineStatus::Infeasible => "infeasible",
        LineStatus::Timeout => "timeout",
        LineStatus::Invalid => "invalid",
    }
}

/// Counts over a whole run.
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct Summary {
    pub(crate) puzzles: usize,
    pub(crate) solved: usize,
    pub(crate) multiple: usize,
    pub(crate) infeasible: usize,
    pub(crate) timeout: usize,
    pub(crate) invalid: usize,
    /// Lines whose own solution was compared with the answer, and those where it was not the answer.
    pub(crate) compared: usize,
    pub(crate) differs: usize,
    /// Decided by propagation alone, by the search after it, and by CaDiCaL (CBC was called for none of these).
    pub(crate) by_presolve: usize,
    pub(crate) by_search: usize,
    pub(crate) by_cdcl: usize,
    pub(crate) seconds: f64,
}

impl Summary {
    pub(crate) fn per_second(&self) -> f64 {
        self.puzzles as f64 / self.seconds.max(1e-9)
    }

    /// Counts one answer.
    pub(crate) fn add(&mut self, a: &LineAnswer) {
        self.puzzles += 1;
        self.by_presolve += usize::from(a.decided_by == Some(DecidedBy::Propagation));
        self.by_search += usize::from(a.decided_by == Some(DecidedBy::Search));
        self.by_cdcl += usize::from(a.decided_by == Some(DecidedBy::Cdcl));
        self.compared += usize::from(a.matches_solution.is_some());
        self.differs += usize::from(a.matches_solution == Some(false));
        match a.status {
            LineStatus::Solved => self.solved += 1,
            LineStatus::Multiple => self.multiple += 1,
            LineStatus::Infeasible => self.infeasible += 1,
            LineStatus::Timeout => self.timeout += 1,
            LineStatus::Invalid => self.invalid += 1,
        }
    }
}

impl Summary {
    /// The summary line printed on stderr at the end of a run.
    pub(crate) fn text(&self, threads: usize) -> String {
        let compared = match self.compared {
            0 => String::new(),
            c => format!(
                "; {c} checked against the file's solution or count, {} not the answer",
                self.differs
            ),
        };
        format!(
            "{} puzzles: {} solved, {} with several solutions, {} with none, {} timed out, {} invalid; \
             {} decided by propagation alone, {} by search, {} by CaDiCaL, the rest by CBC{compared}; {:.2} s, {:.1} puzzles/s on {threads} threads",
            self.puzzles,
            self.solved,
            self.multiple,
            self.infeasible,
            self.timeout,
            self.invalid,
            self.by_presolve,
            self.by_search,
            self.by_cdcl,
            self.seconds,
            self.per_second(),
        )
    }
}
