//! Pieces of a line that add up to one total: region-sum lines (the pieces a line has in each box or region it
//! passes through) and zipper lines (cells the same distance from the line's middle, in pairs; on a line of odd
//! length the middle cell holds the total).
//!
//! The pieces' cells may repeat a value where the grid's other rules allow it (a zipper's pair may).
//!
//! # Encoding
//! With a cell holding the total, one row per piece: `sum_{piece, v} v * x[cell][v] - sum_v v * x[total][v] =
//! 0`. Without, one row per piece after the first: its weighted sum less the first piece's, `= 0`. The
//! coefficients are integers, so at an integral point the rows hold exactly when every piece adds up to the
//! same. Each row, read cell by cell as a running difference, is also a layered automaton ([`layered`]): exact
//! and clausal, so the weighted row is marked implied (CBC keeps it for its relaxation, clauses leave it out).
//! Two cells against one (a zipper's pair and its middle) are written as the sum's supports instead, one clause
//! per pair of values and no state columns: exact, as each cell holds one value.
//!
//! # Propagation
//! The totals left are those every piece can reach ([`reach`]) and, with a total cell, its candidates; each
//! piece keeps the candidates that take part in reaching one of them. Once the total is chosen the pieces are
//! independent, so this is exact for the pieces with their cells independent. Sharpened by the grid
//! ([`Propagator::sharpened`]), cells of a piece that must differ (a region-sum piece lies in one box) are
//! enumerated as groups ([`reach::grouped_supports`]).

use smallvec::SmallVec;

use super::reach::{self, Masks, Sums};
use super::{grouped_sum, layered, values_of, Rule};
use crate::domains::{bit_indices, Apart, Contradiction, Domains, Propagator};
use crate::error::Violation;
use crate::grid::{Cell, Grid};
use crate::program::Compiler;

#[derive(Clone, Debug)]
pub(crate) struct EqualSums {
    /// The line's name with what its pieces are, in the words of its type (`zippers line 2 (cells the same
    /// distance from the middle add up to r5c5)`): one primitive serves three types, each saying it its way.
    pub(crate) label: String,
    /// What each piece adds up to is the same; no piece is empty.
    pub(crate) pieces: Vec<Vec<Cell>>,
    /// The cell whose value is that total (a zipper's middle), if any.
    pub(crate) total: Option<Cell>,
    /// The propagator with each cell a group of its own.
    plain: Pieces,
}

impl EqualSums {
    /// The rule over the non-empty pieces.
    pub(crate) fn new(label: String, pieces: Vec<Vec<Cell>>, total: Option<Cell>) -> EqualSums {
        let pieces: Vec<Vec<Cell>> = pieces.into_iter().filter(|p| !p.is_empty()).collect();
        let groups = pieces
            .iter()
            .map(|p| (0..p.len()).map(|i| vec![i]).collect())
            .collect();
        EqualSums {
            label,
            plain: Pieces {
                pieces: pieces.clone(),
                groups,
                total,
                idempotent: true,
            },
            pieces,
            total,
        }
    }

    /// "The cells of `first` add up to what those of `second` do" (a total cell is a piece of one), as a row
    /// and, where it fits, as the automaton over the running difference.
    fn encode_equal(c: &mut Compiler, first: &[Cell], second: &[Cell]) {
        let pair_and_one = match (first, second) {
            ([a, b], [t]) | ([t], [a, b]) => Some((*a, *b, *t)),
            _ => None,
        };
        if let Some((a, b, t)) = pair_and_one {
            encode_pair_sum(c, a, b, t);
            return;
        }
        let n = u64::from(c.size() as u32);
        let mut terms = weighted(c, first, 1.0);
        terms.extend(weighted(c, second, -1.0));
        // The running sum of the first less that of the second, offset so that it never goes below zero.
        let offset = second.len() as u64 * n;
        let k = first.len();
        let step = move |i: usize, s: u64, v: u32| {
            if i < k {
                Some(s + u64::from(v))
            } else {
                s.checked_sub(u64::from(v))
            }
        };
        let accept = move |q: u64| q == offset;
        let automaton = layered::Automaton {
            start: offset,
            step: &step,
            accept: &accept,
        };
        let order: Vec<Cell> = first.iter().chain(second).copied().collect();
        if automaton.encode(c, &order) {
            c.implied_equal(terms, 0.0);
        } else {
            c.equal(terms, 0.0);
        }
    }
}

/// The terms of the cells' sum of `v * x[cell][v]`, with the sign given.
pub(crate) fn weighted(c: &Compiler, cells: &[Cell], sign: f64) -> Vec<(usize, f64)> {
    let n = c.size() as u32;
    cells
        .iter()
        .flat_map(|&cell| (1..=n).map(move |v| (cell, v)))
        .map(|(cell, v)| (c.x(cell, v), sign * f64::from(v)))
        .collect()
}

/// "a + b = t" as its supports, with no state columns: for each pair of values, `a = va and b = vb` forces `t =
/// va + vb`, or is ruled out past n (a zipper's pair and its middle cell; a region-sum line of three cells across
/// two boxes; an arrow of two cells). Exact, as each cell holds one value; the weighted row is kept as implied.
/// Against the automaton, on 15 generated zippers 0.90x the time, on the corpus arrow that reaches CaDiCaL 0.92x.
pub(crate) fn encode_pair_sum(c: &mut Compiler, a: Cell, b: Cell, t: Cell) {
    let n = c.size() as u32;
    for va in 1..=n {
        for vb in 1..=n {
            let (xa, xb) = (c.x(a, va), c.x(b, vb));
            if va + vb <= n {
                let xt = c.x(t, va + vb);
                c.at_most(vec![(xa, 1.0), (xb, 1.0), (xt, -1.0)], 1.0);
            } else {
                c.at_most(vec![(xa, 1.0), (xb, 1.0)], 1.0);
            }
        }
    }
    let mut terms = weighted(c, &[a, b], 1.0);
    terms.extend(weighted(c, &[t], -1.0));
    c.implied_equal(terms, 0.0);
}

impl Rule for EqualSums {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn cells(&self) -> Vec<Cell> {
        self.plain.watches()
    }

    fn encode(&self, c: &mut Compiler) {
        match (self.total, self.pieces.split_first()) {
            (Some(t), _) => {
                for piece in &self.pieces {
                    Self::encode_equal(c, piece, &[t]);
                }
            }
            (None, Some((first, rest))) => {
                for piece in rest {
                    Self::encode_equal(c, first, piece);
                }
            }
            (None, None) => {}
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), Violation> {
        let sum = |cells: &[Cell]| cells.iter().map(|&c| u64::from(grid.get(c))).sum::<u64>();
        let Some(first) = self.pieces.first() else {
            return Ok(());
        };
        let (want, against) = match self.total {
            Some(t) => (u64::from(grid.get(t)), format!("{t} holds")),
            None => (sum(first), "the first piece adds up to".to_owned()),
        };
        match self.pieces.iter().position(|p| sum(p) != want) {
            None => Ok(()),
            Some(k) => Err(Violation::Sum {
                rule: format!("{} (piece {}; {against} {want})", self.label(), k + 1),
                got: sum(&self.pieces[k]),
                values: values_of(grid, &self.pieces[k]),
            }),
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(&self.plain)
    }
}

/// The propagator: the pieces, each split into groups of cells that pairwise differ.
#[derive(Clone, Debug)]
struct Pieces {
    pieces: Vec<Vec<Cell>>,
    /// Per piece, indices into it: groups whose members pairwise differ, every cell in one.
    groups: Vec<Vec<Vec<usize>>>,
    total: Option<Cell>,
    /// No group can have more assignments than [`reach::MAX_LEAVES`], so a run is exact for its groups.
    idempotent: bool,
}

impl Pieces {
    /// The supports of piece k's cells for the allowed totals, and the allowed totals it reaches.
    fn supports(&self, k: usize, domains: &[u64], allowed: &Sums) -> Option<(Masks, Sums)> {
        if self.groups[k].len() == domains.len() {
            reach::supports(domains, allowed)
        } else {
            reach::grouped_supports(domains, &self.groups[k], allowed)
        }
    }
}

impl Propagator for Pieces {
    fn watches(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self.pieces.concat();
        cells.extend(self.total);
        cells
    }

    /// Cells of a piece that share a row, column or box cannot repeat: each piece's grouped sums.
    fn sharpened(&self, apart: &Apart<'_>) -> Option<Box<dyn Propagator>> {
        let groups: Vec<Vec<Vec<usize>>> = self
            .pieces
            .iter()
            .map(|piece| grouped_sum::groups_apart(piece, apart))
            .collect();
        let idempotent = groups
            .iter()
            .all(|g| grouped_sum::enumerable(g, apart.size()));
        groups.iter().flatten().any(|g| g.len() > 1).then(|| {
            Box::new(Pieces {
                pieces: self.pieces.clone(),
                groups,
                total: self.total,
                idempotent,
            }) as Box<dyn Propagator>
        })
    }

    fn idempotent(&self) -> bool {
        self.idempotent
    }

    fn propagate(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let domains: SmallVec<[Masks; 8]> = self
            .pieces
            .iter()
            .map(|p| p.iter().map(|&c| d.get(c)).collect())
            .collect();
        // No total past what the weakest piece can reach.
        let max = domains.iter().map(|m| reach::largest(m)).min().unwrap_or(0);
        let mut allowed = match self.total {
            Some(t) => {
                let mut set = Sums::empty(max);
                bit_indices(d.get(t)).for_each(|b| set.insert(b + 1));
                set
            }
            None => Sums::full(max),
        };
        // Each piece in turn keeps the allowed totals it reaches: then every piece reaches each one left.
        for (k, m) in domains.iter().enumerate() {
            allowed = self.supports(k, m, &allowed).ok_or(Contradiction)?.1;
        }
        let mut changed = false;
        if let Some(t) = self.total {
            let mask = allowed
                .iter()
                .filter(|&s| (1..=64).contains(&s))
                .fold(0u64, |m, s| m | 1 << (s - 1));
            changed |= d.restrict(t, mask)?;
        }
        for (k, m) in domains.iter().enumerate() {
            let (support, _) = self.supports(k, m, &allowed).ok_or(Contradiction)?;
            changed |= d.restrict_each(&self.pieces[k], &support)?;
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::bit;

    /// Pieces of 1 to 3 cells in rows 1.., and the total at r1c1 when `with_total`.
    fn rule(sizes: &[usize], with_total: bool) -> EqualSums {
        let pieces = sizes
            .iter()
            .enumerate()
            .map(|(r, &k)| (0..k).map(|c| Cell::new(r + 1, c)).collect())
            .collect();
        EqualSums::new(
            "lines line 1".into(),
            pieces,
            with_total.then(|| Cell::new(0, 0)),
        )
    }

    /// Whether the values (the rule's cells in order: the pieces, then the total) satisfy it, each piece's
    /// values distinct too when `distinct`.
    fn holds(rule: &EqualSums, values: &[u32], distinct: bool) -> bool {
        let mut at = 0;
        let mut sums = Vec::new();
        for p in &rule.pieces {
            let mine = &values[at..at + p.len()];
            at += p.len();
            if distinct && (0..mine.len()).any(|i| mine[..i].contains(&mine[i])) {
                return false;
            }
            sums.push(mine.iter().sum::<u32>());
        }
        let want = if rule.total.is_some() {
            values[at]
        } else {
            sums[0]
        };
        sums.iter().all(|&s| s == want)
    }

    /// The propagator against brute force on random candidates: the same candidates kept, or a contradiction
    /// exactly when nothing satisfies the rule; and a run leaves nothing for a second.
    fn against_brute_force(p: &dyn Propagator, rule: &EqualSums, distinct: bool, seed: u64) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let cells = p.watches();
        let (mut solved, mut failed) = (0, 0);
        for _ in 0..400 {
            let mut d = Domains::full(9);
            for &c in &cells {
                let keep = (0..rng.usize(2..=4)).fold(0u64, |m, _| m | bit(rng.u32(1..=6)));
                d.restrict(c, keep).unwrap();
            }
            let holds = |s: &[u32]| holds(rule, s, distinct);
            if crate::rules::matches_brute_force(p, &cells, &mut d, holds) {
                failed += 1;
            } else {
                solved += 1;
            }
        }
        assert!(p.idempotent());
        assert!(
            solved > 20 && failed > 20,
            "{solved} solved, {failed} failed"
        );
    }

    #[test]
    fn propagation_equals_brute_force() {
        for (seed, sizes, with_total) in [
            (1, &[1, 2][..], false),
            (2, &[2, 2, 1], false),
            (3, &[1, 1], true),
            (4, &[2, 1, 1], true),
            (5, &[3, 2], false),
        ] {
            let r = rule(sizes, with_total);
            against_brute_force(r.propagator().unwrap(), &r, false, seed);
        }
    }

    /// Sharpened, each piece a row of its own that must differ: brute force over distinct pieces.
    #[test]
    fn sharpened_pieces_keep_their_cells_apart() {
        let rows: Vec<Vec<Cell>> = (0..9)
            .map(|r| (0..9).map(|c| Cell::new(r, c)).collect())
            .collect();
        let apart = Apart::new(9, || rows.clone());
        for (seed, sizes, with_total) in [(6, &[2, 3][..], false), (7, &[2, 2], true)] {
            let r = rule(sizes, with_total);
            let sharp = r.plain.sharpened(&apart).expect("rows make cells differ");
            against_brute_force(sharp.as_ref(), &r, true, seed);
        }
        // Pieces of single cells have nothing to keep apart.
        assert!(rule(&[1, 1], true).plain.sharpened(&apart).is_none());
    }

    /// The rows accept exactly the grids the check accepts: every assignment on a 3x3, the automata's state
    /// columns set every way.
    #[test]
    fn the_encoding_accepts_exactly_what_the_check_accepts() {
        for r in [
            rule(&[1, 1], true),
            rule(&[2, 1], false),
            rule(&[2], true),
            rule(&[2, 2], false),
        ] {
            let (accepted, refused) = crate::rules::encoding_matches_check(&r, 3);
            assert!(accepted > 0 && refused > 0);
        }
    }

    #[test]
    fn checks_exactly() {
        // Pieces r2c1 + r2c2 and r3c1, the total at r1c1.
        let r = rule(&[2, 1], true);
        let mut g = Grid::empty(9);
        for (cell, v) in [((0, 0), 5), ((1, 0), 2), ((1, 1), 3), ((2, 0), 5)] {
            g.set(Cell::new(cell.0, cell.1), v);
        }
        assert!(r.check(&g).is_ok());
        g.set(Cell::new(2, 0), 4);
        let err = r.check(&g).unwrap_err().to_string();
        assert!(
            err.contains("piece 2") && err.contains("r1c1 holds 5"),
            "{err}"
        );
        // Without a total cell, the pieces agree with the first.
        let r = rule(&[2, 1], false);
        assert!(r.check(&g).is_err());
        g.set(Cell::new(2, 0), 5);
        assert!(r.check(&g).is_ok());
    }
}
