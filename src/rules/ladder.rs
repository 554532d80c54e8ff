//! A sum of cells (repeats allowed) in the order encoding: the partial sums as ladders of "at least t"
//! literals, the clausal form of [`super::Sum`] in place of the layered automaton ([`super::layered`]).
//!
//! Why: the automaton's states are one-hot ("the first k cells add up to exactly q"), so what clause learning
//! learns about a sum names exact partial sums and exact values, one at a time. Sums are reasoned about in
//! bounds: "these three add up to at least 20, so the fourth is at most 4". With the partial sums and the
//! cells' values as ladders ([`Compiler::at_least`]), one learned clause covers a whole range. On the 20
//! little-killer puzzles of the corpus, each solved and proved unique against the automaton's build
//! (`benches/ab-records.py BASE NEW ../shared/corpus/variants.jsonl little-killer 1`): median 1,404 -> 825 ms,
//! total 43.0 -> 34.1 s. Arrows keep their automaton: their sums are short and small, and the ladders made
//! the eight arrow puzzles that reach CaDiCaL slower (586-624 -> 627-634 ms in all; both together 678-716 ms).
//!
//! Rows, for the cells c_1..c_m and `P_k` the sum of the first k, with `p[k][t]` = "P_k >= t" and `g[c][b]` =
//! "c >= b":
//! - `p[k][t] <= p[k][t-1]` (a ladder);
//! - `P_{k-1} >= a` and `c_k >= b` give `P_k >= a + b`: the clause `-p[k-1][a] | -g[c_k][b] | p[k][a+b]`;
//! - `P_{k-1} <= a` and `c_k <= b` give `P_k <= a + b`: `p[k-1][a+1] | g[c_k][b+1] | -p[k][a+b+1]`;
//! - the last partial sum is the total: its ladder is constant for a clue, and equal to the circle's ladder
//!   when the total is a cell's value.
//!
//! `Total::Cell` (the total is another cell's value) is exact too, and tested, for a rule that wants it.
//!
//! Each ladder only spans what the candidates leave (the first k cells' smallest and largest values, and what
//! the rest must still add): literals outside it are constants and clauses they satisfy are not written.
//! Exact: at an integral point the cell ladders are the values' ([`Compiler::at_least`]), and by induction over
//! k the second and third rows leave only `p[k][t] = 1` for t <= P_k; the last layer then demands the total.

use super::grouped_sum::Total;
use crate::grid::Cell;
use crate::program::Compiler;

/// Above this many rows the ladders are left out (the automaton alone is exact).
const MAX_ROWS: usize = 100_000;

/// A literal of a clause: a constant, or a column taken positively or negated.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lit {
    True,
    False,
    Col(usize, bool),
}

impl Lit {
    fn not(self) -> Lit {
        match self {
            Lit::True => Lit::False,
            Lit::False => Lit::True,
            Lit::Col(i, positive) => Lit::Col(i, !positive),
        }
    }
}

/// Writes a clause as a row: at least one literal true. A clause with a true constant is not written; one with
/// no column left is a contradiction, written as the empty row `0 >= 1`.
fn clause(c: &mut Compiler, lits: &[Lit]) {
    if lits.contains(&Lit::True) {
        return;
    }
    let mut terms = Vec::new();
    let mut negated = 0.0;
    for &l in lits {
        if let Lit::Col(i, positive) = l {
            // sum(positive) + sum(1 - negated) >= 1, as `-sum(positive) + sum(negated) <= #negated - 1`.
            terms.push((i, if positive { -1.0 } else { 1.0 }));
            negated += f64::from(u8::from(!positive));
        }
    }
    c.at_most(terms, negated - 1.0);
}

/// A ladder over the integers lo..=hi: "at least t" is true up to lo, false above hi, and a column between.
struct Ladder {
    lo: i64,
    hi: i64,
    /// Columns for lo + 1..=hi.
    cols: Vec<usize>,
}

impl Ladder {
    fn at_least(&self, t: i64) -> Lit {
        if t <= self.lo {
            Lit::True
        } else if t > self.hi {
            Lit::False
        } else {
            Lit::Col(self.cols[(t - self.lo - 1) as usize], true)
        }
    }

    /// A cell's ladder over its candidates `lo..=hi` (empty when `lo > hi`).
    fn of_cell(c: &mut Compiler, cell: Cell, (lo, hi): (i64, i64)) -> Ladder {
        let g = c.at_least(cell);
        let cols = (lo + 1..=hi).map(|v| g[v as usize - 2]).collect();
        Ladder { lo, hi, cols }
    }
}

/// The smallest and largest candidate of a cell, `(1, 0)` when it has none.
fn range(c: &Compiler, cell: Cell) -> (i64, i64) {
    let values = c.candidates(cell);
    match (values.first(), values.last()) {
        (Some(&lo), Some(&hi)) => (i64::from(lo), i64::from(hi)),
        _ => (1, 0),
    }
}

/// Writes the order encoding of "the values of `cells` add up to `total`": `false` (and nothing written) when
/// it would take more than [`MAX_ROWS`] rows, so that the caller writes the automaton instead.
///
/// Every bound is worked out from the candidates before any column is made, and a clue above what the cells can
/// reach is a contradiction written as such: so a hostile clue (up to 2^64 - 1) neither overflows the
/// arithmetic below nor asks for a ladder of that length.
pub(crate) fn encode(c: &mut Compiler, cells: &[Cell], total: Total) -> bool {
    let ranges: Vec<(i64, i64)> = cells.iter().map(|&cell| range(c, cell)).collect();
    let reachable: i64 = ranges.iter().map(|r| r.1.max(0)).sum();
    let (total_lo, total_hi) = match total {
        Total::Fixed(t) if t > reachable as u64 => {
            clause(c, &[]);
            return true;
        }
        Total::Fixed(t) => (t as i64, t as i64),
        Total::Cell(cell) => range(c, cell),
    };
    let m = cells.len();
    // Bounds of P_k: from the first k cells, and from what the other m - k must still add.
    let bounds: Vec<(i64, i64)> = (0..=m)
        .map(|k| {
            let (first, rest) = ranges.split_at(k);
            let lo = first.iter().map(|r| r.0).sum::<i64>();
            let hi = first.iter().map(|r| r.1).sum::<i64>();
            let rest_lo = rest.iter().map(|r| r.0).sum::<i64>();
            let rest_hi = rest.iter().map(|r| r.1).sum::<i64>();
            (lo.max(total_lo - rest_hi), hi.min(total_hi - rest_lo))
        })
        .collect();
    let rows: i64 = bounds
        .windows(2)
        .zip(&ranges)
        .map(|(w, cell)| 2 * (w[0].1 - w[0].0 + 1).max(0) * (cell.1 - cell.0 + 1).max(0))
        .sum();
    if rows > MAX_ROWS as i64 {
        return false;
    }
    let ladders: Vec<Ladder> = cells
        .iter()
        .zip(&ranges)
        .map(|(&cell, &r)| Ladder::of_cell(c, cell, r))
        .collect();
    let circle = match total {
        Total::Cell(cell) => Some(Ladder::of_cell(c, cell, (total_lo, total_hi))),
        Total::Fixed(_) => None,
    };
    let sums: Vec<Ladder> = bounds
        .iter()
        .enumerate()
        .map(|(k, &(lo, hi))| Ladder {
            lo,
            hi,
            cols: match k {
                0 => Vec::new(),
                _ => (lo + 1..=hi).map(|_| c.aux()).collect(),
            },
        })
        .collect();
    for (k, cell) in ladders.iter().enumerate() {
        let (before, after) = (&sums[k], &sums[k + 1]);
        for t in after.lo + 2..=after.hi {
            clause(c, &[after.at_least(t).not(), after.at_least(t - 1)]);
        }
        if before.lo > before.hi || cell.lo > cell.hi {
            // No partial sum or no value fits: the sum cannot be made.
            clause(c, &[]);
            continue;
        }
        for a in before.lo..=before.hi {
            for b in cell.lo..=cell.hi {
                let (p, g) = (before.at_least(a), cell.at_least(b));
                clause(c, &[p.not(), g.not(), after.at_least(a + b)]);
                let (p, g) = (before.at_least(a + 1), cell.at_least(b + 1));
                clause(c, &[p, g, after.at_least(a + b + 1).not()]);
            }
        }
    }
    let last = &sums[m];
    if last.lo > last.hi {
        clause(c, &[]);
    }
    if let Some(circle) = circle {
        for t in last.lo.min(circle.lo)..=last.hi.max(circle.hi) + 1 {
            let (p, g) = (last.at_least(t), circle.at_least(t));
            clause(c, &[p.not(), g]);
            clause(c, &[p, g.not()]);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::satisfiable;

    /// The integral points of the rows, by brute force over every auxiliary column: an assignment of values is
    /// accepted exactly when it adds up to the total, for clues (reachable or not) and for a circle's value,
    /// with and without forbidden values.
    #[test]
    fn rows_accept_exactly_the_sums() {
        let n = 3u32;
        let cells: Vec<Cell> = (0..2).map(|i| Cell::new(0, i)).collect();
        let circle = Cell::new(1, 0);
        let totals = [
            Total::Fixed(2),
            Total::Fixed(4),
            Total::Fixed(6),
            Total::Fixed(7),
            Total::Cell(circle),
        ];
        for total in totals {
            for forbidden in [None, Some((cells[1], 1)), Some((circle, 3))] {
                let mut c = Compiler::new(n as usize);
                if let Some((cell, v)) = forbidden {
                    c.forbid(cell, v);
                }
                assert!(encode(&mut c, &cells, total));
                let program = c.finish();
                let aux: Vec<usize> = ((n * n * n) as usize..program.num_cols()).collect();
                for values in 0..n.pow(3) {
                    let (a, b, d) = (values % n + 1, values / n % n + 1, values / n / n + 1);
                    let mut cols = vec![0.0; program.num_cols()];
                    cols[program.x(cells[0], a)] = 1.0;
                    cols[program.x(cells[1], b)] = 1.0;
                    cols[program.x(circle, d)] = 1.0;
                    let want = match total {
                        Total::Fixed(t) => u64::from(a + b) == t,
                        Total::Cell(_) => a + b == d,
                    } && forbidden.is_none_or(|(cell, v)| {
                        ![(cells[0], a), (cells[1], b), (circle, d)].contains(&(cell, v))
                    });
                    assert_eq!(
                        satisfiable(&program, &aux, &mut cols),
                        want,
                        "{total:?} without {forbidden:?}: {a} + {b}, circle {d}"
                    );
                }
            }
        }
    }

    /// Longer sums than the test above (three to five cells of a 3x3 grid; past three cells, 3 forbidden so
    /// that the brute force stays small), by brute force over every value and every setting of the auxiliary
    /// columns: exactly the assignments adding up to the clue are accepted, for every clue from below the
    /// smallest sum to above the largest.
    #[test]
    fn longer_sums_accept_exactly_their_totals() {
        for m in 3..=5usize {
            let cells: Vec<Cell> = (0..m).map(|i| Cell::new(i / 3, i % 3)).collect();
            let values: u32 = if m == 3 { 3 } else { 2 };
            for t in m as u64 - 1..=u64::from(values) * m as u64 + 1 {
                let mut c = Compiler::new(3);
                if values == 2 {
                    cells.iter().for_each(|&cell| c.forbid(cell, 3));
                }
                assert!(encode(&mut c, &cells, Total::Fixed(t)));
                let program = c.finish();
                let aux: Vec<usize> = (27..program.num_cols()).collect();
                for k in 0..values.pow(m as u32) {
                    let digits: Vec<u32> = (0..m as u32)
                        .map(|i| k / values.pow(i) % values + 1)
                        .collect();
                    let mut cols = vec![0.0; program.num_cols()];
                    for (&cell, &v) in cells.iter().zip(&digits) {
                        cols[program.x(cell, v)] = 1.0;
                    }
                    let want = u64::from(digits.iter().sum::<u32>()) == t;
                    assert_eq!(
                        satisfiable(&program, &aux, &mut cols),
                        want,
                        "{m} cells, clue {t}: {digits:?}"
                    );
                }
            }
        }
    }

    /// A clue beyond what the cells reach (up to 2^64 - 1, as the clue parser allows) is a contradiction,
    /// written as the empty row, with no column made for it: it once overflowed the bounds and asked for a
    /// ladder of 2^63 columns.
    #[test]
    fn a_clue_beyond_reach_is_a_contradiction() {
        let cells: Vec<Cell> = (0..3).map(|i| Cell::new(0, i)).collect();
        for t in [10, i64::MAX as u64, i64::MAX as u64 + 1, u64::MAX] {
            let before = Compiler::new(3).finish().num_cols();
            let mut c = Compiler::new(3);
            assert!(encode(&mut c, &cells, Total::Fixed(t)));
            let program = c.finish();
            assert_eq!(program.num_cols(), before, "clue {t}");
            assert!(
                program
                    .rows
                    .iter()
                    .any(|r| r.terms.is_empty() && r.upper < 0.0),
                "clue {t}: no empty row"
            );
        }
    }
}
