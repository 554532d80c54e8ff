//! The program in free MPS format (`glpsol --freemps`, `cbc`), for the solvers that prefer it to LP.
//!
//! The same program as [`super::lp`] writes: free columns are binaries (`BV`), fixed ones `FX` at their value,
//! a row with bounds on both sides is a `G` row with a range, and a failing row without a free column becomes
//! the row `infeasible` over the column `never`, fixed to 0.

use std::fmt::Write as _;

use super::{number, BinaryProgram, Sense};

impl BinaryProgram {
    /// The program in free MPS format.
    pub fn to_mps(&self) -> String {
        let rows = self.rows_to_write();
        let mut out = String::from("NAME latin\n");
        if self.sense == Sense::Maximize {
            out.push_str("OBJSENSE\n    MAX\n");
        }
        out.push_str("ROWS\n N obj\n");
        // Entries per column, in column order (MPS lists a column's entries together).
        let mut entries: Vec<Vec<(String, f64)>> = vec![Vec::new(); self.num_cols()];
        for &(i, a) in &self.objective {
            entries[i].push(("obj".to_owned(), a));
        }
        let mut rhs = Vec::new();
        let mut ranges = Vec::new();
        for &(k, row) in rows.iter().flatten() {
            let name = format!("c{k}");
            let kind = if row.lower == row.upper {
                rhs.push((name.clone(), row.lower));
                "E"
            } else if row.lower.is_finite() {
                rhs.push((name.clone(), row.lower));
                if row.upper.is_finite() {
                    ranges.push((name.clone(), row.upper - row.lower));
                }
                "G"
            } else {
                rhs.push((name.clone(), row.upper));
                "L"
            };
            let _ = writeln!(out, " {kind} {name}");
            for &(i, a) in row.terms.iter().filter(|&&(_, a)| a != 0.0) {
                entries[i].push((name.clone(), a));
            }
        }
        if rows.is_none() {
            out.push_str(" G infeasible\n");
        }
        out.push_str("COLUMNS\n    MARKER 'MARKER' 'INTORG'\n");
        for (i, list) in entries.iter().enumerate() {
            let name = self.column_name(i);
            if list.is_empty() {
                // A column in no row still needs a line to exist.
                let _ = writeln!(out, "    {name} obj 0");
            }
            for (row, a) in list {
                let _ = writeln!(out, "    {name} {row} {}", number(*a));
            }
        }
        if rows.is_none() {
            out.push_str("    never infeasible 1\n");
        }
        out.push_str("    MARKER 'MARKER' 'INTEND'\nRHS\n");
        for (row, b) in rhs.iter().filter(|(_, b)| *b != 0.0) {
            let _ = writeln!(out, "    RHS {row} {}", number(*b));
        }
        if rows.is_none() {
            out.push_str("    RHS infeasible 1\n");
        }
        if !ranges.is_empty() {
            out.push_str("RANGES\n");
            for (row, r) in &ranges {
                let _ = writeln!(out, "    RNG {row} {}", number(*r));
            }
        }
        out.push_str("BOUNDS\n");
        for i in 0..self.num_cols() {
            match self.fixed(i) {
                Some(b) => {
                    let _ = writeln!(out, " FX BND {} {}", self.column_name(i), number(b));
                }
                None => {
                    let _ = writeln!(out, " BV BND {}", self.column_name(i));
                }
            }
        }
        if rows.is_none() {
            out.push_str(" FX BND never 0\n");
        }
        out.push_str("ENDATA\n");
        out
    }
}
