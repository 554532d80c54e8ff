//! Which cells search tries again after a restart: the neighbourhood of the corner where a run got stuck. Both
//! searches use it, the engine's ([`super::search`]) and the wide grids' ([`super::wide`]).
//!
//! On a nearly empty large grid, a run of search fills nearly every cell and then fails in the last corner its
//! order reaches (a 49x49 Sudoku with four givens: with 2,256-2,355 of its 2,401 cells fixed, in the bottom-right
//! boxes). Backtracking within the run's failure limit does not reach back to the choices that doomed the corner,
//! and a restart throws the whole filled grid away for a new dive that may fail the same way. So after a
//! restart, search first repairs (large neighbourhood search, Shaw 1998): it keeps the values of the deepest node
//! the run reached outside a neighbourhood of that node's open cells, and searches the neighbourhood alone.
//!
//! Nearness comes from the rules, so it holds for every grammar: two cells are near when a rule reads both. The
//! first neighbourhood is the corner itself, the cells that share at least two rules with the open cells (in a
//! Sudoku, the rows, columns and boxes through the corner meet there); the second adds every cell that shares
//! a rule with the first. Rules that read more cells than a row ties the whole grid together and say nothing of
//! nearness, so they are left out of it.

use crate::model::Puzzle;

/// The rounds of a repair: a cell joins the neighbourhood of the cells before when it shares at least this many
/// rules with them (the corner, then everything next to it).
const ROUNDS: [u32; 2] = [2, 1];

/// Failures allowed in each round of a repair, in units of the search's Luby sequence: at 64x64 a repaired
/// corner of 250-500 cells takes 400-900 nodes.
pub(crate) const UNITS: u64 = 4;

/// The rules' cells, as indices (row * n + col), of the rules that read at most n cells.
pub(crate) struct Scopes {
    n: usize,
    scopes: Vec<Vec<usize>>,
}

impl Scopes {
    pub(crate) fn new(puzzle: &Puzzle) -> Self {
        let n = puzzle.size();
        let scopes = puzzle
            .rules()
            .iter()
            .map(|r| r.cells())
            .filter(|cells| cells.len() <= n)
            .map(|cells| cells.iter().map(|c| c.row * n + c.col).collect())
            .collect();
        Scopes { n, scopes }
    }

    /// The cells each round of a repair searches (a flag per cell, each round's wider than the one before),
    /// around the open cells of a node whose fixed values are `kept` (0 where open).
    pub(crate) fn rounds(&self, kept: &[u32]) -> Vec<Vec<bool>> {
        let mut free: Vec<bool> = kept.iter().map(|&v| v == 0).collect();
        ROUNDS
            .iter()
            .map(|&meets| {
                free = self.widen(&free, meets);
                free.clone()
            })
            .collect()
    }

    /// `cells` (a flag per cell) widened by every cell that shares at least `meets` rules with them.
    fn widen(&self, cells: &[bool], meets: u32) -> Vec<bool> {
        let mut shared = vec![0u32; self.n * self.n];
        for scope in self.scopes.iter().filter(|s| s.iter().any(|&i| cells[i])) {
            for &i in scope {
                shared[i] += 1;
            }
        }
        cells
            .iter()
            .zip(shared)
            .map(|(&inside, k)| inside || k >= meets)
            .collect()
    }
}

/// The deepest node of a run: one more than the branches above it (0 for none yet), and its fixed cells' values
/// (0 where open).
#[derive(Default)]
pub(crate) struct Deepest {
    pub(crate) depth: usize,
    pub(crate) values: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    fn cells(n: usize, flags: &[bool]) -> Vec<Cell> {
        (0..n * n)
            .filter(|&i| flags[i])
            .map(|i| Cell::new(i / n, i % n))
            .collect()
    }

    #[test]
    fn the_corner_is_where_the_open_cells_rules_meet_and_the_next_round_is_their_rules() {
        let puzzle = Puzzle::sudoku(9).unwrap();
        let scopes = Scopes::new(&puzzle);
        let mut open = vec![false; 81];
        open[80] = true;
        // r9c9's box meets its row in r9c7, r9c8 and its column in r7c9, r8c9.
        let corner = scopes.widen(&open, 2);
        let expect = [(6, 8), (7, 8), (8, 6), (8, 7), (8, 8)].map(|(r, c)| Cell::new(r, c));
        assert_eq!(cells(9, &corner), expect);
        // Its row, column and box: 21 cells. From the corner, rows 7-9 and columns 7-9 (the box lies in both):
        // 27 + 27 - 9 cells.
        assert_eq!(cells(9, &scopes.widen(&open, 1)).len(), 21);
        assert_eq!(cells(9, &scopes.widen(&corner, 1)).len(), 45);
    }

    #[test]
    fn rules_over_more_cells_than_a_row_say_nothing_of_nearness() {
        // A sum over the whole first two rows of a 4x4 Latin square reads eight cells: with it, the open r1c1 is
        // still near its row and column only (seven cells), not the second row.
        let mut puzzle = Puzzle::latin(4).unwrap();
        let two_rows: Vec<Cell> = (0..8).map(|i| Cell::new(i / 4, i % 4)).collect();
        let sum = crate::rules::sum::Sum {
            label: "two rows".into(),
            cells: two_rows,
            total: 20,
            distinct: false,
        };
        puzzle.add_rule(std::sync::Arc::new(sum)).unwrap();
        let mut open = vec![false; 16];
        open[0] = true;
        assert_eq!(cells(4, &Scopes::new(&puzzle).widen(&open, 1)).len(), 7);
    }
}
