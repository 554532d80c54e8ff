//! Puzzle -> [`BinaryProgram`]: the solver-neutral IR between the rules and any backend.
//!
//! Column `x[r][c][v]` is 1 when cell (r, c) holds v. Every rule primitive appends its own rows (and auxiliary
//! binary columns where it needs them) through [`Compiler`]; nothing here knows which puzzle type it is
//! compiling. Because the IR is plain data, presolve can shrink it, it can be written out as an LP file, and a
//! second backend needs no change to the rules.

use std::fmt::Write as _;

use crate::grid::{Cell, Grid};
use crate::model::{Objective, Puzzle, Sense};
use crate::solve::presolve::Domains;

/// A linear row `lower <= sum(coef * col) <= upper` over binary columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub terms: Vec<(usize, f64)>,
    pub lower: f64,
    pub upper: f64,
}

/// A binary program: all columns are 0/1; columns `0..n^3` are the cell-value columns.
#[derive(Clone, Debug)]
pub struct BinaryProgram {
    pub size: usize,
    /// Upper bound per column: 0 means the column is fixed to 0.
    pub upper: Vec<f64>,
    /// Lower bound per column: 1 means the column is fixed to 1.
    pub lower: Vec<f64>,
    pub rows: Vec<Row>,
    pub objective: Vec<(usize, f64)>,
    pub sense: Sense,
    /// The narrowest band half-width any row relies on (for choosing solver tolerances).
    pub narrowest_band: f64,
}

impl BinaryProgram {
    pub fn num_cols(&self) -> usize {
        self.upper.len()
    }

    /// Index of `x[cell][v]`.
    pub fn x(&self, cell: Cell, v: u32) -> usize {
        x_index(self.size, cell, v)
    }

    /// Reads a grid back from column values (each cell takes the value whose column is nearest 1).
    pub fn grid_from(&self, values: &[f64]) -> Grid {
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
    pub fn fixed(&self, i: usize) -> Option<f64> {
        if self.lower[i] > 0.5 {
            Some(1.0)
        } else if self.upper[i] < 0.5 {
            Some(0.0)
        } else {
            None
        }
    }

    /// No column has a lower bound above its upper bound (a rule forbade a given's value).
    pub fn bounds_hold(&self) -> bool {
        self.lower.iter().zip(&self.upper).all(|(l, u)| l <= u)
    }

    /// The row that forbids a complete grid: at least one cell not fixed to its value must take another (a
    /// no-good cut).
    pub fn no_good(&self, grid: &Grid) -> Row {
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
        }
    }

    /// Forbids a complete grid from now on ([`Self::no_good`]).
    pub fn exclude(&mut self, grid: &Grid) {
        let row = self.no_good(grid);
        self.rows.push(row);
    }

    /// The program in CPLEX LP format, for other solvers and for reading by eye.
    pub fn to_lp(&self) -> String {
        let name = |i: usize| {
            let n = self.size;
            if i < n * n * n {
                format!("x_r{}c{}_{}", i / (n * n) + 1, (i / n) % n + 1, i % n + 1)
            } else {
                format!("aux{}", i - n * n * n)
            }
        };
        let expr = |terms: &[(usize, f64)]| {
            let mut s = String::new();
            for (k, (i, a)) in terms.iter().enumerate() {
                let sign = if *a < 0.0 {
                    "-"
                } else if k > 0 {
                    "+"
                } else {
                    ""
                };
                let _ = write!(s, " {sign} {} {}", a.abs(), name(*i));
            }
            if s.is_empty() {
                s.push_str(" 0");
            }
            s
        };
        let mut out = String::new();
        out.push_str(if self.sense == Sense::Maximize {
            "Maximize\n"
        } else {
            "Minimize\n"
        });
        let _ = writeln!(out, " obj:{}", expr(&self.objective));
        out.push_str("Subject To\n");
        for (k, row) in self.rows.iter().enumerate() {
            if row.lower == row.upper {
                let _ = writeln!(out, " c{k}:{} = {}", expr(&row.terms), row.lower);
            } else {
                if row.lower.is_finite() {
                    let _ = writeln!(out, " c{k}l:{} >= {}", expr(&row.terms), row.lower);
                }
                if row.upper.is_finite() {
                    let _ = writeln!(out, " c{k}u:{} <= {}", expr(&row.terms), row.upper);
                }
            }
        }
        out.push_str("Bounds\n");
        for i in 0..self.num_cols() {
            if self.fixed(i).is_some() {
                let _ = writeln!(out, " {} = {}", name(i), self.lower[i]);
            }
        }
        out.push_str("Binaries\n");
        for i in 0..self.num_cols() {
            let _ = writeln!(out, " {}", name(i));
        }
        out.push_str("End\n");
        out
    }
}

fn x_index(n: usize, cell: Cell, v: u32) -> usize {
    (cell.row * n + cell.col) * n + (v as usize - 1)
}

/// What a rule primitive writes its rows through.
pub struct Compiler {
    program: BinaryProgram,
}

impl Compiler {
    fn new(n: usize) -> Self {
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
        }
    }

    pub fn size(&self) -> usize {
        self.program.size
    }

    /// The column of `x[cell][v]`.
    pub fn x(&self, cell: Cell, v: u32) -> usize {
        x_index(self.program.size, cell, v)
    }

    /// Whether `cell` may still hold `v` (not forbidden by givens or earlier rules).
    pub fn allowed(&self, cell: Cell, v: u32) -> bool {
        self.program.upper[self.x(cell, v)] > 0.5
    }

    /// The values `cell` may still hold.
    pub fn candidates(&self, cell: Cell) -> Vec<u32> {
        (1..=self.size() as u32)
            .filter(|&v| self.allowed(cell, v))
            .collect()
    }

    /// A new auxiliary binary column.
    pub fn aux(&mut self) -> usize {
        self.program.upper.push(1.0);
        self.program.lower.push(0.0);
        self.program.upper.len() - 1
    }

    pub fn forbid(&mut self, cell: Cell, v: u32) {
        let i = self.x(cell, v);
        self.program.upper[i] = 0.0;
    }

    pub fn fix_column(&mut self, col: usize, value: bool) {
        let b = if value { 1.0 } else { 0.0 };
        self.program.lower[col] = b;
        self.program.upper[col] = b;
    }

    pub fn row(&mut self, terms: Vec<(usize, f64)>, lower: f64, upper: f64) {
        self.program.rows.push(Row {
            terms,
            lower,
            upper,
        });
    }

    pub fn equal(&mut self, terms: Vec<(usize, f64)>, rhs: f64) {
        self.row(terms, rhs, rhs);
    }

    pub fn at_most(&mut self, terms: Vec<(usize, f64)>, rhs: f64) {
        self.row(terms, f64::NEG_INFINITY, rhs);
    }

    /// Records that a row relies on a band of this half-width (tolerances must stay well inside it).
    pub fn note_band(&mut self, half_width: f64) {
        self.program.narrowest_band = self.program.narrowest_band.min(half_width);
    }
}

/// Compiles a checked puzzle: one value per cell, givens fixed, then every rule's rows, then the objective.
pub fn compile(puzzle: &Puzzle) -> BinaryProgram {
    compile_with(puzzle, None)
}

/// Compiles with candidates already narrowed by presolve: columns of removed candidates are fixed to 0.
pub fn compile_with(puzzle: &Puzzle, domains: Option<&Domains>) -> BinaryProgram {
    let n = puzzle.size();
    let mut c = Compiler::new(n);
    if let Some(d) = domains {
        for cell in puzzle.givens().cells() {
            for v in 1..=n as u32 {
                if !d.contains(cell, v) {
                    c.forbid(cell, v);
                }
            }
        }
    }
    for cell in puzzle.givens().cells() {
        let terms = (1..=n as u32).map(|v| (c.x(cell, v), 1.0)).collect();
        c.equal(terms, 1.0);
    }
    for (cell, v) in puzzle.givens().filled() {
        for w in 1..=n as u32 {
            if w != v {
                c.forbid(cell, w);
            }
        }
        let i = c.x(cell, v);
        c.fix_column(i, true);
    }
    for rule in puzzle.rules() {
        rule.compile(&mut c);
    }
    if let Some(Objective { sense, weights }) = puzzle.objective() {
        c.program.sense = *sense;
        for (cell, w) in weights {
            for v in 1..=n as u32 {
                c.program.objective.push((c.x(*cell, v), w * f64::from(v)));
            }
        }
    }
    c.program
}
