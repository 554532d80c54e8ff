//! All-different over a set of cells: rows, columns, boxes, jigsaw regions, diagonals, killer cages.
//!
//! Encoding: for each value v, `sum_{cells} x[cell][v] = 1` when the set has n cells (each value exactly once),
//! and `<= 1` when it has fewer. Exact: with one value per cell, a value used twice makes some row sum 2; with n
//! cells and n values, the pigeonhole principle makes "at most once" and "exactly once" the same, and the
//! equality gives the LP relaxation more to work with.

use super::{values_of, Primitive};
use crate::compile::Compiler;
use crate::grid::{Cell, Grid};
use crate::solve::presolve::{all_values, bit_indices, Contradiction, Domains};

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
    let mut keep = vec![0; domains.len()];
    matching_support_into(domains, &mut keep).then_some(keep)
}

/// [`matching_support`] without allocating (it runs at every search node): writes the domains to keep into
/// `keep` and returns false when the cells cannot all differ. The graph has at most 64 cells and 64 values, so
/// adjacency is bit sets and every table lives on the stack.
pub fn matching_support_into(domains: &[u64], keep: &mut [u64]) -> bool {
    let m = domains.len();
    assert!(m <= 64 && keep.len() == m);
    const NONE: u8 = u8::MAX;
    let mut value_of = [NONE; 64];
    let mut cell_of = [NONE; 64];
    fn augment(
        k: usize,
        domains: &[u64],
        seen: &mut u64,
        value_of: &mut [u8; 64],
        cell_of: &mut [u8; 64],
    ) -> bool {
        for v in bit_indices(domains[k] & !*seen) {
            *seen |= 1 << v;
            if cell_of[v] == NONE || augment(cell_of[v] as usize, domains, seen, value_of, cell_of)
            {
                value_of[k] = v as u8;
                cell_of[v] = k as u8;
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
            value_of[k] = v as u8;
            cell_of[v] = k as u8;
            matched |= 1 << v;
        } else if augment(k, domains, &mut 0, &mut value_of, &mut cell_of) {
            matched = value_of[..=k].iter().fold(0, |a, &v| a | 1 << v);
        } else {
            return false;
        }
    }
    // Edges: a matched edge runs cell -> value, every other edge value -> cell. `cells_of[v]`: the cells value v
    // points to (those with v as a candidate, other than the one matched to v).
    let mut cells_of = [0u64; 64];
    for (k, &dom) in domains.iter().enumerate() {
        for v in bit_indices(dom & !(1 << value_of[k])) {
            cells_of[v] |= 1 << k;
        }
    }
    let all_values = domains.iter().fold(0u64, |a, &b| a | b);
    // Values reachable from a free value along alternating paths (value -> cell -> its matched value).
    let mut reached = all_values & !matched;
    let mut frontier = reached;
    while frontier != 0 {
        let v = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        for k in bit_indices(cells_of[v]) {
            let w = 1u64 << value_of[k];
            if reached & w == 0 {
                reached |= w;
                frontier |= w;
            }
        }
    }
    // Strongly connected components (Tarjan) over nodes: cells 0..m, values 64..128.
    struct Tarjan<'a> {
        value_of: &'a [u8; 64],
        cells_of: &'a [u64; 64],
        index: [u8; 128],
        low: [u8; 128],
        on: [bool; 128],
        stack: [u8; 128],
        depth: usize,
        comp: [u8; 128],
        next: u8,
        comps: u8,
    }
    const UNSEEN: u8 = u8::MAX;
    fn visit(t: &mut Tarjan, x: usize) {
        t.index[x] = t.next;
        t.low[x] = t.next;
        t.next += 1;
        t.stack[t.depth] = x as u8;
        t.depth += 1;
        t.on[x] = true;
        let succ = if x < 64 {
            // The cell's matched value: one successor, as a one-bit set over values.
            1u64 << t.value_of[x]
        } else {
            t.cells_of[x - 64]
        };
        let base = if x < 64 { 64 } else { 0 };
        for y in bit_indices(succ).map(|i| base + i) {
            if t.index[y] == UNSEEN {
                visit(t, y);
                t.low[x] = t.low[x].min(t.low[y]);
            } else if t.on[y] {
                t.low[x] = t.low[x].min(t.index[y]);
            }
        }
        if t.low[x] == t.index[x] {
            loop {
                t.depth -= 1;
                let y = t.stack[t.depth] as usize;
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
        value_of: &value_of,
        cells_of: &cells_of,
        index: [UNSEEN; 128],
        low: [0; 128],
        on: [false; 128],
        stack: [0; 128],
        depth: 0,
        comp: [UNSEEN; 128],
        next: 0,
        comps: 0,
    };
    for x in 0..m {
        if t.index[x] == UNSEEN {
            visit(&mut t, x);
        }
    }
    for k in 0..m {
        let mut kept = 1u64 << value_of[k];
        for v in bit_indices(domains[k] & !kept) {
            if reached >> v & 1 == 1 || t.comp[k] == t.comp[64 + v] {
                kept |= 1 << v;
            }
        }
        keep[k] = kept;
    }
    true
}

impl Primitive for AllDifferent {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn cells(&self) -> Vec<Cell> {
        self.cells.clone()
    }

    fn permutation_cells(&self) -> Option<Vec<Cell>> {
        Some(self.cells.clone())
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
        let m = self.cells.len();
        // Work on a copy of the cells' domains, as bit sets on the stack, and write back once.
        let mut dom = [0u64; 64];
        let mut union = 0u64;
        for (slot, &c) in dom.iter_mut().zip(&self.cells) {
            *slot = d.get(c);
            union |= *slot;
        }
        if m > 64 || (union.count_ones() as usize) < m {
            return Err(Contradiction);
        }
        let dom = &mut dom[..m];
        let mut placed = 0u64;
        for &b in dom.iter() {
            if b.count_ones() == 1 {
                if placed & b != 0 {
                    return Err(Contradiction);
                }
                placed |= b;
            }
        }
        if placed != 0 {
            for b in dom.iter_mut() {
                if b.count_ones() > 1 {
                    *b &= !placed;
                    if *b == 0 {
                        return Err(Contradiction);
                    }
                }
            }
        }
        if m == d.size() {
            // Values with exactly one possible cell: in `once` but not in `twice`.
            let (mut once, mut twice) = (0u64, 0u64);
            for &b in dom.iter() {
                twice |= once & b;
                once |= b;
            }
            if once != all_values(m) {
                return Err(Contradiction);
            }
            let singles = once & !twice;
            for b in dom.iter_mut() {
                let s = *b & singles;
                if s != 0 && *b != s {
                    if s.count_ones() > 1 {
                        // One cell is the only place for two values.
                        return Err(Contradiction);
                    }
                    *b = s;
                }
            }
        }
        if dom.iter().any(|b| b.count_ones() > 1) {
            let mut keep = [0u64; 64];
            if !matching_support_into(dom, &mut keep[..m]) {
                return Err(Contradiction);
            }
            dom.copy_from_slice(&keep[..m]);
        }
        let mut changed = false;
        for (&cell, &mask) in self.cells.iter().zip(dom.iter()) {
            changed |= d.restrict(cell, mask)?;
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
