//! All-different over a set of cells: rows, columns, boxes, jigsaw regions, diagonals, killer cages.
//!
//! Encoding: for each value v, `sum_{cells} x[cell][v] = 1` when the set has n cells (each value exactly once),
//! and `<= 1` when it has fewer. Exact: with one value per cell, a value used twice makes some row sum 2; with n
//! cells and n values, the pigeonhole principle makes "at most once" and "exactly once" the same, and the
//! equality gives the LP relaxation more to work with.

use super::{values_of, Primitive};
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};
use crate::solve::presolve::{bit, Contradiction, Domains};

#[derive(Clone, Debug)]
pub struct AllDifferent {
    pub label: String,
    pub cells: Vec<Cell>,
}

impl AllDifferent {
    pub fn new(label: impl Into<String>, cells: Vec<Cell>) -> Self {
        AllDifferent {
            label: label.into(),
            cells,
        }
    }
}

/// Generalised arc consistency for all-different (Régin 1994): a value stays in a cell's domain only if some
/// assignment of distinct values to all the cells gives it to that cell. This is what naked and hidden pairs,
/// triples, ... (Hall sets) find, in one pass.
///
/// A maximum matching of cells to values is found by augmenting paths; if it does not cover every cell there is
/// no assignment. Orient matched edges cell -> value and the others value -> cell. An unmatched edge lies in some
/// maximum matching exactly when it lies on a cycle (both ends in one strongly connected component) or on an
/// alternating path from a free value (its value end is reachable from a free value). Every other edge is
/// removed. Returns the domains to keep, or `None` when the cells cannot all differ. Cells <= 64, values <= 64.
pub fn matching_support(domains: &[u64]) -> Option<Vec<u64>> {
    let m = domains.len();
    const NONE: usize = usize::MAX;
    let mut value_of = vec![NONE; m];
    let mut cell_of = [NONE; 64];
    fn augment(
        k: usize,
        domains: &[u64],
        seen: &mut u64,
        value_of: &mut [usize],
        cell_of: &mut [usize; 64],
    ) -> bool {
        let mut cands = domains[k] & !*seen;
        while cands != 0 {
            let v = cands.trailing_zeros() as usize;
            cands &= cands - 1;
            *seen |= 1 << v;
            if cell_of[v] == NONE || augment(cell_of[v], domains, seen, value_of, cell_of) {
                value_of[k] = v;
                cell_of[v] = k;
                return true;
            }
        }
        false
    }
    // The values matched so far: an augmenting path keeps every matched value matched and adds one.
    let mut matched = 0u64;
    for k in 0..m {
        // Greedy first: most cells find a free value directly.
        let free = domains[k] & !matched;
        if free != 0 {
            let v = free.trailing_zeros() as usize;
            value_of[k] = v;
            cell_of[v] = k;
            matched |= 1 << v;
        } else if augment(k, domains, &mut 0, &mut value_of, &mut cell_of) {
            matched = value_of[..=k].iter().fold(0, |a, &v| a | 1 << v);
        } else {
            return None;
        }
    }
    // Nodes: cells 0..m, values m..m+64. Edges as described above.
    let all_values = domains.iter().fold(0u64, |a, &b| a | b);
    let succ = |node: usize| -> Vec<usize> {
        if node < m {
            vec![m + value_of[node]]
        } else {
            let v = node - m;
            (0..m)
                .filter(|&k| domains[k] >> v & 1 == 1 && value_of[k] != v)
                .collect()
        }
    };
    let nodes = m + 64;
    // Values reachable from a free value.
    let mut reach = vec![false; nodes];
    let mut stack: Vec<usize> = (0..64)
        .filter(|&v| all_values >> v & 1 == 1 && cell_of[v] == NONE)
        .map(|v| m + v)
        .collect();
    for &s in &stack {
        reach[s] = true;
    }
    while let Some(x) = stack.pop() {
        for y in succ(x) {
            if !reach[y] {
                reach[y] = true;
                stack.push(y);
            }
        }
    }
    // Strongly connected components (Tarjan).
    struct Tarjan {
        index: Vec<usize>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        comp: Vec<usize>,
        next: usize,
        comps: usize,
    }
    fn visit(t: &mut Tarjan, x: usize, succ: &dyn Fn(usize) -> Vec<usize>) {
        t.index[x] = t.next;
        t.low[x] = t.next;
        t.next += 1;
        t.stack.push(x);
        t.on[x] = true;
        for y in succ(x) {
            if t.index[y] == usize::MAX {
                visit(t, y, succ);
                t.low[x] = t.low[x].min(t.low[y]);
            } else if t.on[y] {
                t.low[x] = t.low[x].min(t.index[y]);
            }
        }
        if t.low[x] == t.index[x] {
            while let Some(y) = t.stack.pop() {
                t.on[y] = false;
                t.comp[y] = t.comps;
                if y == x {
                    break;
                }
            }
            t.comps += 1;
        }
    }
    let mut t = Tarjan {
        index: vec![usize::MAX; nodes],
        low: vec![0; nodes],
        on: vec![false; nodes],
        stack: Vec::new(),
        comp: vec![usize::MAX; nodes],
        next: 0,
        comps: 0,
    };
    for x in 0..m {
        if t.index[x] == usize::MAX {
            visit(&mut t, x, &succ);
        }
    }
    Some(
        (0..m)
            .map(|k| {
                let mut keep = 1u64 << value_of[k];
                let mut cands = domains[k] & !keep;
                while cands != 0 {
                    let v = cands.trailing_zeros() as usize;
                    cands &= cands - 1;
                    if reach[m + v] || t.comp[k] == t.comp[m + v] {
                        keep |= 1 << v;
                    }
                }
                keep
            })
            .collect(),
    )
}

impl Primitive for AllDifferent {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn compile(&self, c: &mut Compiler) {
        let n = c.size();
        let full = self.cells.len() == n;
        for v in 1..=n as u32 {
            let terms = self.cells.iter().map(|&cell| (c.x(cell, v), 1.0)).collect();
            if full {
                c.equal(terms, 1.0);
            } else {
                c.at_most(terms, 1.0);
            }
        }
    }

    fn check(&self, grid: &Grid) -> Result<(), String> {
        self.check_partial(grid)
    }

    /// Naked singles (a placed value leaves the other cells) and, when the set holds every value, hidden
    /// singles (a value with one possible cell goes there): cheap, and they shrink the domains before the full
    /// arc-consistency pass ([`matching_support`]) that finds Hall sets of any size.
    fn prune(&self, d: &mut Domains) -> Result<bool, Contradiction> {
        let mut changed = false;
        let mut placed = 0u64;
        for &cell in &self.cells {
            if let Some(v) = d.fixed(cell) {
                if placed & bit(v) != 0 {
                    return Err(Contradiction);
                }
                placed |= bit(v);
            }
        }
        if placed != 0 {
            for &cell in &self.cells {
                if d.fixed(cell).is_none() {
                    changed |= d.restrict(cell, !placed)?;
                }
            }
        }
        let union = self.cells.iter().fold(0u64, |u, &c| u | d.get(c));
        if (union.count_ones() as usize) < self.cells.len() {
            return Err(Contradiction);
        }
        if self.cells.len() == d.size() {
            for v in 1..=d.size() as u32 {
                let mut places = self.cells.iter().filter(|&&c| d.contains(c, v));
                match (places.next(), places.next()) {
                    (None, _) => return Err(Contradiction),
                    (Some(&only), None) if d.fixed(only).is_none() => {
                        changed |= d.assign(only, v)?
                    }
                    _ => {}
                }
            }
        }
        let domains: Vec<u64> = self.cells.iter().map(|&c| d.get(c)).collect();
        if domains.iter().any(|b| b.count_ones() > 1) {
            let keep = matching_support(&domains).ok_or(Contradiction)?;
            for (&cell, &mask) in self.cells.iter().zip(&keep) {
                changed |= d.restrict(cell, mask)?;
            }
        }
        Ok(changed)
    }

    fn check_partial(&self, grid: &Grid) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for &cell in &self.cells {
            if grid.get(cell) != 0 && !seen.insert(grid.get(cell)) {
                return Err(format!(
                    "{} repeats {} ({:?})",
                    self.label,
                    grid.get(cell),
                    values_of(grid, &self.cells)
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the values each cell takes in some assignment of distinct values.
    fn brute(domains: &[u64]) -> Option<Vec<u64>> {
        fn go(i: usize, used: u64, pick: &mut Vec<usize>, d: &[u64], keep: &mut [u64]) {
            if i == d.len() {
                for (k, &v) in pick.iter().enumerate() {
                    keep[k] |= 1 << v;
                }
                return;
            }
            for v in 0..64 {
                if d[i] >> v & 1 == 1 && used >> v & 1 == 0 {
                    pick.push(v);
                    go(i + 1, used | 1 << v, pick, d, keep);
                    pick.pop();
                }
            }
        }
        let mut keep = vec![0; domains.len()];
        go(0, 0, &mut Vec::new(), domains, &mut keep);
        keep.iter().all(|&k| k != 0).then_some(keep)
    }

    #[test]
    fn matching_support_equals_brute_force() {
        // A small deterministic generator: many random domain sets over 6 values, 3 to 6 cells.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let m = 3 + (next() % 4) as usize;
            let domains: Vec<u64> = (0..m)
                .map(|_| (next() & 0x3f) | 1 << (next() % 6))
                .collect();
            assert_eq!(matching_support(&domains), brute(&domains), "{domains:?}");
        }
    }

    #[test]
    fn hall_sets_are_found() {
        // Two cells share {1, 2}: the third cell loses both.
        let keep = matching_support(&[0b011, 0b011, 0b111]).unwrap();
        assert_eq!(keep, vec![0b011, 0b011, 0b100]);
        assert_eq!(matching_support(&[0b1, 0b1]), None);
    }
}
