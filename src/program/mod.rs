//! The binary program: the solver-neutral IR between the rules and every backend, and the builder rules write
//! it through.
//!
//! Column `x[r][c][v]` is 1 when cell (r, c) holds v; rules may add auxiliary binary columns. A row is
//! `lower <= sum(coef * col) <= upper`. Because the IR is plain data, it can be shrunk to its residual, written
//! out as an LP or MPS file for other solvers ([`lp`], [`mps`]), and handed to any backend without the rules
//! knowing which.

pub(crate) mod lp;
pub(crate) mod mps;

use std::collections::HashMap;

use crate::grid::{Cell, Grid};

/// Direction of an objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sense {
    Minimize,
    Maximize,
}

/// A linear row `lower <= sum(coef * col) <= upper` over binary columns.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    pub(crate) terms: Vec<(usize, f64)>,
    pub(crate) lower: f64,
    pub(crate) upper: f64,
    pub(crate) role: Role,
}

/// Which backends need a row. Every row is true of every solution; a rule may say one thing twice, once for a
/// clause solver and once for linear programming, and each backend then leaves out the form it does not need.
/// Either view alone (the `Exact` rows with the `Relaxation` ones, or with the `Clause` ones) is exact: the
/// rules' encoding tests check both (`rules::satisfiable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Needed by every backend.
    Exact,
    /// The linear form of what `Clause` rows beside it say (a weighted sum beside its ladders or automaton, an
    /// automaton's flow beside its clauses, a value set's equality beside its implications): its relaxation is
    /// at least as tight, so CBC takes it, and a clause solver, which cannot, leaves it out.
    Relaxation,
    /// The clausal form of what `Relaxation` rows beside it say: there for clause learning, so CBC leaves it
    /// out. On a 6x6 little killer with no givens the ladders' 2,463 rows took CBC 62 s to the first
    /// solution, the weighted rows alone 6 s.
    Clause,
}

impl Role {
    /// Whether CBC (and any linear view) reads a row of this role: all but the clauses.
    pub(crate) fn linear(self) -> bool {
        self != Role::Clause
    }

    /// Whether a clause solver reads it: all but the linear forms.
    pub(crate) fn clausal(self) -> bool {
        self != Role::Relaxation
    }
}

/// A binary program: all columns are 0/1; columns `0..n^3` are the cell-value columns.
#[derive(Clone, Debug)]
pub struct BinaryProgram {
    pub(crate) size: usize,
    /// Upper bound per column: 0 means the column is fixed to 0.
    pub(crate) upper: Vec<f64>,
    /// Lower bound per column: 1 means the column is fixed to 1.
    pub(crate) lower: Vec<f64>,
    pub(crate) rows: Vec<Row>,
    pub(crate) objective: Vec<(usize, f64)>,
    pub(crate) sense: Sense,
    /// The narrowest band half-width any row relies on (for choosing solver tolerances).
    pub(crate) narrowest_band: f64,
}

impl BinaryProgram {
    /// Terms over every row: what a backend's memory grows with.
    pub(crate) fn terms(&self) -> u64 {
        self.rows.iter().map(|r| r.terms.len() as u64).sum()
    }

    /// Columns: the n^3 cell-value columns, then auxiliary ones.
    pub fn num_cols(&self) -> usize {
        self.upper.len()
    }

    /// Rows.
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// Index of `x[cell][v]`.
    pub(crate) fn x(&self, cell: Cell, v: u32) -> usize {
        x_index(self.size, cell, v)
    }

    /// Reads a grid back from column values (each cell takes the value whose column is nearest 1).
    pub(crate) fn grid_from(&self, values: &[f64]) -> Grid {
        let n = self.size;
        let mut grid = Grid::empty(n);
        for cell in grid.clone().cells() {
            let best = (1..=n as u32)
                .max_by(|&a, &b| values[self.x(cell, a)].total_cmp(&values[self.x(cell, b)]));
            if let Some(v) = best.filter(|&v| values[self.x(cell, v)] > 0.5) {
                grid.set(cell, v);
            }
        }
        grid
    }

    /// The value (0 or 1) a column's bounds fix it to; `None` for a free column. With contradictory bounds
    /// (see [`Self::bounds_hold`]) the answer means nothing.
    pub(crate) fn fixed(&self, i: usize) -> Option<f64> {
        if self.lower[i] > 0.5 {
            Some(1.0)
        } else if self.upper[i] < 0.5 {
            Some(0.0)
        } else {
            None
        }
    }

    /// No column has a lower bound above its upper bound (a rule forbade a given's value).
    pub(crate) fn bounds_hold(&self) -> bool {
        self.lower.iter().zip(&self.upper).all(|(l, u)| l <= u)
    }

    /// The row that forbids a complete grid: at least one cell not fixed to its value must take another (a
    /// no-good cut).
    pub(crate) fn no_good(&self, grid: &Grid) -> Row {
        let terms: Vec<(usize, f64)> = grid
            .filled()
            .map(|(cell, v)| self.x(cell, v))
            .filter(|&i| self.lower[i] < 0.5)
            .map(|i| (i, 1.0))
            .collect();
        let free = terms.len() as f64;
        Row {
            terms,
            lower: f64::NEG_INFINITY,
            upper: free - 1.0,
            role: Role::Exact,
        }
    }

    /// Forbids a complete grid from now on ([`Self::no_good`]).
    pub(crate) fn exclude(&mut self, grid: &Grid) {
        let row = self.no_good(grid);
        self.rows.push(row);
    }

    /// The column's name in written programs: `x_r1c2_3` for a cell-value column, `aux7` for the others.
    pub(crate) fn column_name(&self, i: usize) -> String {
        let n = self.size;
        if i < n * n * n {
            format!("x_r{}c{}_{}", i / (n * n) + 1, (i / n) % n + 1, i % n + 1)
        } else {
            format!("aux{}", i - n * n * n)
        }
    }

    /// The row's terms on free columns (zero coefficients left out), and the constant the fixed ones add.
    pub(crate) fn split_row(&self, row: &Row) -> (Vec<(usize, f64)>, f64) {
        let mut free = Vec::with_capacity(row.terms.len());
        let mut constant = 0.0;
        for &(i, a) in &row.terms {
            match self.fixed(i) {
                Some(b) => constant += a * b,
                None if a != 0.0 => free.push((i, a)),
                None => {}
            }
        }
        (free, constant)
    }
}

impl BinaryProgram {
    /// The rows a written program needs: those with a free column. A row without one is checked here and left
    /// out, as the CBC backend does; `None` when such a row, or a column's bounds, cannot hold, so the program is
    /// infeasible as it stands and the file must say so.
    pub(crate) fn rows_to_write(&self) -> Option<Vec<(usize, &Row)>> {
        if !self.bounds_hold() {
            return None;
        }
        let mut out = Vec::with_capacity(self.rows.len());
        for (k, row) in self.rows.iter().enumerate() {
            let (free, constant) = self.split_row(row);
            if !free.is_empty() {
                out.push((k, row));
            } else if !constant_holds(row.lower, row.upper, constant) {
                return None;
            }
        }
        Some(out)
    }
}

/// A number as written programs spell it (no `-0`).
pub(crate) fn number(x: f64) -> String {
    if x == 0.0 {
        "0".to_owned()
    } else {
        x.to_string()
    }
}

/// Whether `lower <= constant <= upper` holds, with the tolerance the backends use for a row left without a free
/// column.
pub(crate) fn constant_holds(lower: f64, upper: f64, constant: f64) -> bool {
    lower - constant <= 1e-9 && upper - constant >= -1e-9
}

fn x_index(n: usize, cell: Cell, v: u32) -> usize {
    (cell.row * n + cell.col) * n + (v as usize - 1)
}

/// What a rule primitive writes its rows through.
pub(crate) struct Compiler {
    program: BinaryProgram,
    /// Bytes the rows written so far take (their terms as allocated, and the rows themselves).
    bytes: u64,
    /// Past this many bytes rows are counted but no longer kept: the program is then too large to be used
    /// ([`Self::over`]), and one rule that writes millions of terms (a 64x64 skyscraper clue) does not hold
    /// them all before the compiler can look.
    max_bytes: u64,
    /// Per cell with one, the columns of "the value is at least v" ([`Self::at_least`]), made once.
    ladders: HashMap<Cell, Vec<usize>>,
    /// The role of the rows written now ([`Self::clauses`], [`Self::relaxation`]); the order view's rows are
    /// always exact.
    role: Role,
}

impl Compiler {
    /// A program of size n: the n^3 cell-value columns, free, and no rows yet.
    pub(crate) fn new(n: usize) -> Self {
        let cols = n * n * n;
        Compiler {
            program: BinaryProgram {
                size: n,
                upper: vec![1.0; cols],
                lower: vec![0.0; cols],
                rows: Vec::new(),
                objective: Vec::new(),
                sense: Sense::Minimize,
                narrowest_band: f64::INFINITY,
            },
            bytes: 0,
            max_bytes: u64::MAX,
            ladders: HashMap::new(),
            role: Role::Exact,
        }
    }

    /// [`Self::new`] that keeps rows only up to `max_bytes` bytes in all.
    pub(crate) fn with_max_bytes(n: usize, max_bytes: u64) -> Self {
        Compiler {
            max_bytes,
            ..Self::new(n)
        }
    }

    /// Bytes the rows written so far take (those past the most kept included).
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether the rules wrote more than the most kept: the program is incomplete.
    pub(crate) fn over(&self) -> bool {
        self.bytes > self.max_bytes
    }

    /// Counts a row's bytes: whether it is kept.
    fn keep(&mut self, terms: &Vec<(usize, f64)>) -> bool {
        let bytes =
            terms.capacity() * std::mem::size_of::<(usize, f64)>() + std::mem::size_of::<Row>();
        self.bytes = self.bytes.saturating_add(bytes as u64);
        !self.over()
    }

    pub(crate) fn size(&self) -> usize {
        self.program.size
    }

    /// The column of `x[cell][v]`.
    pub(crate) fn x(&self, cell: Cell, v: u32) -> usize {
        x_index(self.program.size, cell, v)
    }

    /// Whether `cell` may still hold `v` (not forbidden by givens or earlier rules).
    pub(crate) fn allowed(&self, cell: Cell, v: u32) -> bool {
        self.program.upper[self.x(cell, v)] > 0.5
    }

    /// The values `cell` may still hold.
    pub(crate) fn candidates(&self, cell: Cell) -> Vec<u32> {
        (1..=self.size() as u32)
            .filter(|&v| self.allowed(cell, v))
            .collect()
    }

    /// A new auxiliary binary column.
    pub(crate) fn aux(&mut self) -> usize {
        self.program.upper.push(1.0);
        self.program.lower.push(0.0);
        self.program.upper.len() - 1
    }

    /// The order view of a cell's value: the columns `g[v]` = "the value is at least v" for v = 2..=n (index
    /// v - 2), made with their rows the first time a rule asks. Sums reason in bounds ("these two add up to at
    /// least 12, so this one is at most 5"), and clause learning learns bounds only through such literals:
    /// with the one-hot `x[cell][v]` alone, each learned clause names single values.
    ///
    /// Rows, three per value: `x[cell][v] <= g[v]`, `g[v+1] <= g[v]`, `g[v] <= x[cell][v] + g[v+1]` (`g[n+1]`
    /// is 0). Exact: at an integral point the cell holds one value u; the first two rows set `g[v] = 1` for
    /// v <= u, and the third, from n down, `g[v] = 0` for v > u.
    pub(crate) fn at_least(&mut self, cell: Cell) -> Vec<usize> {
        if let Some(g) = self.ladders.get(&cell) {
            return g.clone();
        }
        let n = self.size() as u32;
        let g: Vec<usize> = (2..=n).map(|_| self.aux()).collect();
        // Other rules' exact rows may name these columns, so their meaning is exact whoever asked first.
        self.with_role(Role::Exact, |c| {
            for v in 2..=n {
                let (x, at_least) = (c.x(cell, v), g[v as usize - 2]);
                c.at_most(vec![(x, 1.0), (at_least, -1.0)], 0.0);
                let mut terms = vec![(at_least, 1.0), (x, -1.0)];
                if let Some(&above) = g.get(v as usize - 1) {
                    c.at_most(vec![(above, 1.0), (at_least, -1.0)], 0.0);
                    terms.push((above, -1.0));
                }
                c.at_most(terms, 0.0);
            }
        });
        self.ladders.insert(cell, g.clone());
        g
    }

    /// Runs `encode` with every row it writes a [`Role::Clause`]: the caller writes the same constraint whole
    /// as a [`Role::Relaxation`] row (an implied equality), which a linear backend solves instead.
    pub(crate) fn clauses<T>(&mut self, encode: impl FnOnce(&mut Self) -> T) -> T {
        self.with_role(Role::Clause, encode)
    }

    /// Runs `encode` with every row it writes a [`Role::Relaxation`]: the caller writes the same constraint as
    /// [`Role::Clause`] rows, which a clause solver takes instead (a layered automaton's flow beside its clauses).
    pub(crate) fn relaxation<T>(&mut self, encode: impl FnOnce(&mut Self) -> T) -> T {
        self.with_role(Role::Relaxation, encode)
    }

    fn with_role<T>(&mut self, role: Role, encode: impl FnOnce(&mut Self) -> T) -> T {
        let before = std::mem::replace(&mut self.role, role);
        let out = encode(self);
        self.role = before;
        out
    }

    pub(crate) fn forbid(&mut self, cell: Cell, v: u32) {
        let i = self.x(cell, v);
        self.program.upper[i] = 0.0;
    }

    pub(crate) fn fix_column(&mut self, col: usize, value: bool) {
        let b = if value { 1.0 } else { 0.0 };
        self.program.lower[col] = b;
        self.program.upper[col] = b;
    }

    pub(crate) fn row(&mut self, terms: Vec<(usize, f64)>, lower: f64, upper: f64) {
        if !self.keep(&terms) {
            return;
        }
        self.program.rows.push(Row {
            terms,
            lower,
            upper,
            role: self.role,
        });
    }

    /// An equality the other rows of the rule already force at integral points ([`Role::Relaxation`]).
    pub(crate) fn implied_equal(&mut self, terms: Vec<(usize, f64)>, rhs: f64) {
        self.relaxation(|c| c.equal(terms, rhs));
    }

    pub(crate) fn equal(&mut self, terms: Vec<(usize, f64)>, rhs: f64) {
        self.row(terms, rhs, rhs);
    }

    pub(crate) fn at_most(&mut self, terms: Vec<(usize, f64)>, rhs: f64) {
        self.row(terms, f64::NEG_INFINITY, rhs);
    }

    /// Sets the objective: weights on columns.
    pub(crate) fn objective(&mut self, sense: Sense, terms: Vec<(usize, f64)>) {
        self.program.sense = sense;
        self.program.objective = terms;
    }

    /// The program written so far.
    pub(crate) fn finish(self) -> BinaryProgram {
        self.program
    }

    /// Records that a row relies on a band of this half-width (tolerances must stay well inside it).
    pub(crate) fn note_band(&mut self, half_width: f64) {
        self.program.narrowest_band = self.program.narrowest_band.min(half_width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_past_the_most_bytes_are_counted_and_not_kept() {
        let mut c = Compiler::with_max_bytes(2, 200);
        let row = |c: &Compiler| {
            vec![
                (c.x(Cell::new(0, 0), 1), 1.0),
                (c.x(Cell::new(0, 1), 1), 1.0),
            ]
        };
        c.at_most(row(&c), 1.0);
        assert!(!c.over());
        let one = c.bytes();
        assert!(one >= 2 * 16, "{one}");
        while !c.over() {
            c.at_most(row(&c), 1.0);
        }
        let kept = (200 / one) as usize;
        c.at_most(row(&c), 1.0);
        assert!(c.over());
        assert_eq!(c.finish().rows.len(), kept);
    }
}
