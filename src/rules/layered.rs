//! A clausal encoding for rules that read their cells in order: a layered automaton.
//!
//! Sums where digits may repeat (arrows, sandwiches) are weighted rows (`sum v * x`), which clause learning
//! cannot take; such programs went to CBC after search, and on puzzles with few givens neither was fast. (A
//! plain sum of cells, a little-killer diagonal, is written in the order encoding instead, [`super::ladder`],
//! and comes here only when its ladders would be too large.) Any rule that can be checked by reading its cells
//! one by one, keeping a small state (the sum so far; before, inside or after the sandwich), is also a path
//! through a layered graph of states, and that path is clausal:
//!
//! - one auxiliary binary `d[k][q]` per reachable state q after k cells, `sum_q d[k][q] = 1` for each layer;
//! - `d[k][q] + x[k][v] - d[k+1][step(q, v)] <= 1`: in state q, value v leads to its next state (after the
//!   first cell the state before is the start, a constant);
//! - `d[k][q] + x[k][v] <= 1` when value v leads nowhere from q (it breaks the rule, or no accepting state can
//!   follow);
//! - backwards, `d[k+1][r] <= sum d[k][q]` over the states q with a step to r, and `d[k+1][r] <= sum x[k][v]`
//!   over the values v of such a step. Implied by the rows above; they let unit propagation also run from the
//!   end of the line towards its start.
//!
//! Exact: at an integral point every cell holds one value (the cell rows), so by induction over k exactly the
//! state the automaton reaches after k cells is 1, and the last layer holds accepting states only. States are
//! kept only when reachable from the start with the cells' candidates and able to reach acceptance, so the
//! graph is small for the sums of this family (at most a few hundred states a layer).
//!
//! Those rows are for clause learning ([`Role::Clause`](crate::program::Role::Clause)); as a linear program
//! they are weak (fractional states satisfy them far from any path). For CBC the same graph is written as a
//! network flow instead ([`Role::Relaxation`](crate::program::Role::Relaxation)): a column `y` per arc (a
//! state and a value that steps from it to a live state), one unit of flow out of the start, conserved at every
//! state, and `x[k][v]` equal to the flow on the arcs of value v out of layer k. An integral flow is one path
//! from the start to an accepting state, whose values are the cells', so it is exact too; and a path polytope
//! has integral vertices, so the relaxation of the rule alone is its convex hull, the tightest there is.

use std::collections::{BTreeMap, BTreeSet};

use crate::domains::bit_indices;
use crate::grid::Cell;
use crate::program::Compiler;

/// Above this many transition rows the layered encoding is left out (the rule keeps its weighted row only).
pub(crate) const MAX_ROWS: usize = 200_000;

/// An automaton over the values of a list of cells: a start state, a step from a state with the value of cell k
/// (`None`: the value breaks the rule), and the accepting states.
pub(crate) struct Automaton<'a> {
    pub(crate) start: u64,
    pub(crate) step: &'a dyn Fn(usize, u64, u32) -> Option<u64>,
    pub(crate) accept: &'a dyn Fn(u64) -> bool,
}

impl Automaton<'_> {
    /// The states alive after each number of cells: reachable with the candidates, and able to reach an
    /// accepting state, each layer sorted: a propagator runs this at every search node, where sorted vectors cost
    /// less than ordered sets (10 lines' propagator on 8 generated 9x9s: 1.31x its own hand-written loops with
    /// sets, 1.02x with vectors). Empty layers when nothing is accepted.
    fn alive(&self, candidates: &[Vec<u32>]) -> Vec<Vec<u64>> {
        let m = candidates.len();
        let mut layers = vec![vec![self.start]];
        for (k, values) in candidates.iter().enumerate() {
            let mut next: Vec<u64> = layers[k]
                .iter()
                .flat_map(|&q| values.iter().filter_map(move |&v| (self.step)(k, q, v)))
                .collect();
            next.sort_unstable();
            next.dedup();
            layers.push(next);
        }
        layers[m].retain(|&q| (self.accept)(q));
        for k in (0..m).rev() {
            let (before, after) = layers.split_at_mut(k + 1);
            before[k].retain(|&q| {
                candidates[k].iter().any(|&v| {
                    (self.step)(k, q, v).is_some_and(|to| after[0].binary_search(&to).is_ok())
                })
            });
        }
        layers
    }

    /// Each cell's values on some accepted path through the candidates `domains` (masks, bit v - 1 for value
    /// v), as masks: what a propagator of the rule keeps (arc consistency for the rule alone); `None` when no
    /// path is accepted.
    pub(crate) fn supports(&self, domains: &[u64]) -> Option<Vec<u64>> {
        let candidates: Vec<Vec<u32>> = domains
            .iter()
            .map(|&m| bit_indices(m).map(|b| b as u32 + 1).collect())
            .collect();
        let layers = self.alive(&candidates);
        let support: Vec<u64> = candidates
            .iter()
            .enumerate()
            .map(|(k, values)| {
                values
                    .iter()
                    .filter(|&&v| {
                        layers[k].iter().any(|&q| {
                            (self.step)(k, q, v)
                                .is_some_and(|to| layers[k + 1].binary_search(&to).is_ok())
                        })
                    })
                    .fold(0, |m, &v| m | 1 << (v - 1))
            })
            .collect();
        support.iter().all(|&m| m != 0).then_some(support)
    }

    /// Writes the layered encoding of "the cells' values are accepted", as clauses and as a flow (see the module
    /// notes); `false` (and nothing written) when it would take more than [`MAX_ROWS`] rows.
    pub(crate) fn encode(&self, c: &mut Compiler, cells: &[Cell]) -> bool {
        self.write(c, cells, true)
    }

    /// The clauses of [`Self::encode`] alone, for a rule that says the same to CBC in a row of its own (a
    /// product's log band, which the pure path keeps as the whole of what CBC sees of it).
    pub(crate) fn encode_clauses(&self, c: &mut Compiler, cells: &[Cell]) -> bool {
        self.write(c, cells, false)
    }

    fn write(&self, c: &mut Compiler, cells: &[Cell], with_flow: bool) -> bool {
        let candidates: Vec<Vec<u32>> = cells.iter().map(|&cell| c.candidates(cell)).collect();
        let layers = self.alive(&candidates);
        let rows: usize = layers
            .iter()
            .zip(&candidates)
            .map(|(l, v)| l.len() * v.len())
            .sum();
        if rows > MAX_ROWS {
            return false;
        }
        if layers[0].is_empty() {
            // Nothing is accepted: the first cell can hold nothing (every rule of the family has a cell).
            for &cell in cells.iter().take(1) {
                for v in 1..=c.size() as u32 {
                    c.forbid(cell, v);
                }
            }
            return true;
        }
        c.clauses(|c| self.clauses(c, cells, &layers, &candidates));
        if with_flow {
            c.relaxation(|c| self.flow(c, cells, &layers, &candidates));
        }
        true
    }

    /// The state columns and their clauses.
    fn clauses(
        &self,
        c: &mut Compiler,
        cells: &[Cell],
        layers: &[Vec<u64>],
        candidates: &[Vec<u32>],
    ) {
        // d[k] for k >= 1: the state columns of layer k.
        let columns: Vec<BTreeMap<u64, usize>> = layers
            .iter()
            .enumerate()
            .map(|(k, layer)| {
                if k == 0 {
                    BTreeMap::new()
                } else {
                    layer.iter().map(|&q| (q, c.aux())).collect()
                }
            })
            .collect();
        for layer in &columns[1..] {
            c.equal(layer.values().map(|&d| (d, 1.0)).collect(), 1.0);
        }
        for (k, &cell) in cells.iter().enumerate() {
            // Per state after cell k: the states before it and the values of cell k that step to it.
            let mut into: BTreeMap<u64, (BTreeSet<u64>, BTreeSet<u32>)> = BTreeMap::new();
            for &q in &layers[k] {
                for &v in &candidates[k] {
                    let x = c.x(cell, v);
                    let to = (self.step)(k, q, v).and_then(|to| columns[k + 1].get_key_value(&to));
                    let mut terms = vec![(x, 1.0)];
                    let mut rhs = 0.0;
                    if k > 0 {
                        terms.push((columns[k][&q], 1.0));
                        rhs = 1.0;
                    }
                    match to {
                        Some((&r, &d)) => {
                            terms.push((d, -1.0));
                            let (from, by) = into.entry(r).or_default();
                            from.insert(q);
                            by.insert(v);
                        }
                        None if k == 0 => {
                            c.forbid(cell, v);
                            continue;
                        }
                        None => {}
                    }
                    c.at_most(terms, rhs);
                }
            }
            // Backwards: a state after cell k needs a state before it and a value of cell k leading to it.
            // Implied by the rows above and exactly-one, but clause learning propagates through it.
            let none = (BTreeSet::new(), BTreeSet::new());
            for (&r, &d) in &columns[k + 1] {
                let (from, by) = into.get(&r).unwrap_or(&none);
                if k > 0 {
                    let mut terms: Vec<(usize, f64)> =
                        from.iter().map(|q| (columns[k][q], -1.0)).collect();
                    terms.push((d, 1.0));
                    c.at_most(terms, 0.0);
                }
                let mut terms: Vec<(usize, f64)> =
                    by.iter().map(|&v| (c.x(cell, v), -1.0)).collect();
                terms.push((d, 1.0));
                c.at_most(terms, 0.0);
            }
        }
    }

    /// The arc columns and their flow rows.
    fn flow(&self, c: &mut Compiler, cells: &[Cell], layers: &[Vec<u64>], candidates: &[Vec<u32>]) {
        // Per state (layer, state): its arcs out and in; per cell and value: its arcs.
        let mut out_of: BTreeMap<(usize, u64), Vec<usize>> = BTreeMap::new();
        let mut into: BTreeMap<(usize, u64), Vec<usize>> = BTreeMap::new();
        for (k, &cell) in cells.iter().enumerate() {
            let mut by_value: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
            for &q in &layers[k] {
                for &v in &candidates[k] {
                    let Some(to) =
                        (self.step)(k, q, v).filter(|to| layers[k + 1].binary_search(to).is_ok())
                    else {
                        continue;
                    };
                    let y = c.aux();
                    out_of.entry((k, q)).or_default().push(y);
                    into.entry((k + 1, to)).or_default().push(y);
                    by_value.entry(v).or_default().push(y);
                }
            }
            for &v in &candidates[k] {
                let mut terms = vec![(c.x(cell, v), 1.0)];
                let arcs = by_value.get(&v).map_or(&[][..], Vec::as_slice);
                terms.extend(arcs.iter().map(|&y| (y, -1.0)));
                c.equal(terms, 0.0);
            }
        }
        let start = out_of.get(&(0, self.start)).map_or(&[][..], Vec::as_slice);
        c.equal(start.iter().map(|&y| (y, 1.0)).collect(), 1.0);
        for (k, layer) in layers.iter().enumerate().take(cells.len()).skip(1) {
            for &q in layer {
                let arcs_in = into.get(&(k, q)).map_or(&[][..], Vec::as_slice);
                let arcs_out = out_of.get(&(k, q)).map_or(&[][..], Vec::as_slice);
                let mut terms: Vec<(usize, f64)> = arcs_in.iter().map(|&y| (y, 1.0)).collect();
                terms.extend(arcs_out.iter().map(|&y| (y, -1.0)));
                c.equal(terms, 0.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The integral points of the encoding, by brute force over the state columns: a value assignment is
    /// accepted by the rows exactly when the automaton accepts it.
    #[test]
    fn rows_accept_exactly_what_the_automaton_accepts() {
        // Sums of three cells of 1..4 to 7, with a cap of 5 on partial sums (some transitions lead nowhere).
        let step = |_: usize, s: u64, v: u32| Some(s + u64::from(v)).filter(|&t| t <= 7);
        let accept = |s: u64| s == 7;
        let automaton = Automaton {
            start: 0,
            step: &step,
            accept: &accept,
        };
        let cells: Vec<Cell> = (0..3).map(|i| Cell::new(0, i)).collect();
        let mut c = Compiler::new(4);
        assert!(automaton.encode(&mut c, &cells));
        let program = c.finish();
        let aux: Vec<usize> = (64..program.num_cols()).collect();
        for a in 1..=4u32 {
            for b in 1..=4u32 {
                for d in 1..=4u32 {
                    let values = [a, b, d];
                    let mut cols = vec![0.0; program.num_cols()];
                    for (&cell, &v) in cells.iter().zip(&values) {
                        cols[program.x(cell, v)] = 1.0;
                    }
                    // Some setting of the state and arc columns satisfies every row, in CBC's view
                    // (the flow) and CaDiCaL's (the clauses) alike?
                    let satisfiable = crate::rules::satisfiable(&program, &aux, &mut cols);
                    assert_eq!(satisfiable, a + b + d == 7, "{values:?}");
                }
            }
        }
    }
}
