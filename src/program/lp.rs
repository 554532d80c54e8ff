//! The program in CPLEX LP format, which `glpsol --lp`, `cbc` and most other solvers read, and a person can
//! follow: columns are named `x_r1c2_3` (1 when row 1, column 2 holds 3).
//!
//! Every column is written: the free ones as binaries, the ones the givens or a rule fixed as `x = 0` or
//! `x = 1` bounds (not binaries: some readers reset a binary's bounds to 0..1). A row left without a free column
//! is checked and left out; when one fails, the file holds the row `infeasible: never >= 1` on a column fixed
//! to 0, so every reader finds the program infeasible, as latin does.

use std::fmt::Write as _;

use super::{number, BinaryProgram, Sense};

/// Terms per written line: LP readers differ in the longest line they take.
const TERMS_PER_LINE: usize = 8;

impl BinaryProgram {
    /// The program in CPLEX LP format.
    pub fn to_lp(&self) -> String {
        let rows = self.rows_to_write();
        let mut out = String::new();
        let n = self.size;
        let _ = writeln!(
            out,
            "\\ latin: {n}x{n}; x_rRcC_V is 1 when row R, column C holds V; {} auxiliary columns",
            self.num_cols() - n * n * n
        );
        out.push_str(match self.sense {
            Sense::Maximize => "Maximize\n",
            Sense::Minimize => "Minimize\n",
        });
        let _ = writeln!(
            out,
            " obj:{}",
            self.expression(&self.lp_objective(rows.as_deref()))
        );
        out.push_str("Subject To\n");
        match &rows {
            // glpsol refuses an empty `Subject To`: a row that always holds stands in for none.
            Some(rows) if rows.is_empty() => out.push_str(" nothing_left: x_r1c1_1 >= 0\n"),
            Some(rows) => {
                for &(k, row) in rows {
                    let e = self.expression(&row.terms);
                    if row.lower == row.upper {
                        let _ = writeln!(out, " c{k}:{e} = {}", number(row.lower));
                        continue;
                    }
                    if row.lower.is_finite() {
                        let _ = writeln!(out, " c{k}l:{e} >= {}", number(row.lower));
                    }
                    if row.upper.is_finite() {
                        let _ = writeln!(out, " c{k}u:{e} <= {}", number(row.upper));
                    }
                }
            }
            None => out.push_str(" infeasible: never >= 1\n"),
        }
        out.push_str("Bounds\n");
        for i in 0..self.num_cols() {
            if let Some(b) = self.fixed(i) {
                let _ = writeln!(out, " {} = {}", self.column_name(i), number(b));
            }
        }
        if rows.is_none() {
            out.push_str(" never = 0\n");
        }
        out.push_str("Binaries\n");
        for i in (0..self.num_cols()).filter(|&i| self.fixed(i).is_none()) {
            let _ = writeln!(out, " {}", self.column_name(i));
        }
        out.push_str("End\n");
        out
    }

    /// The objective's terms, then a zero term for every column no written row or objective term names. CBC's
    /// reader sizes its table of names by the terms it has read before `Bounds`, and overflows when many columns
    /// appear only there (a puzzle nearly all given); a bare `obj: 0` is refused by glpsol.
    fn lp_objective(&self, rows: Option<&[(usize, &super::Row)]>) -> Vec<(usize, f64)> {
        let mut named = vec![false; self.num_cols()];
        let mut terms = self.objective.clone();
        let row_terms = rows.unwrap_or_default().iter().flat_map(|(_, r)| &r.terms);
        for &(i, _) in terms.iter().chain(row_terms) {
            named[i] = true;
        }
        terms.extend(
            (0..self.num_cols())
                .filter(|&i| !named[i])
                .map(|i| (i, 0.0)),
        );
        if terms.is_empty() {
            terms.push((0, 0.0));
        }
        terms
    }

    /// ` + 2 x_r1c1_2 - 0.5 aux3`, broken into lines of a few terms.
    fn expression(&self, terms: &[(usize, f64)]) -> String {
        let mut s = String::new();
        for (k, &(i, a)) in terms.iter().enumerate() {
            if k > 0 && k % TERMS_PER_LINE == 0 {
                s.push_str("\n   ");
            }
            let sign = if a < 0.0 { "- " } else { "+ " };
            let sign = if k == 0 && a >= 0.0 { "" } else { sign };
            let name = self.column_name(i);
            match a.abs() {
                1.0 => {
                    let _ = write!(s, " {sign}{name}");
                }
                m => {
                    let _ = write!(s, " {sign}{} {name}", number(m));
                }
            }
        }
        s
    }
}
