//! Cells and grids: the two shapes every stage of the pipeline speaks in.
//!
//! Cells are 0-based inside the library and printed 1-based (`r1c1`) wherever a person reads them.
//! A [`Grid`] holds one value per cell; 0 means empty, so the same type carries givens, partial
//! answers and solutions.

use std::fmt;

/// A cell of an n x n grid, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl Cell {
    pub const fn new(row: usize, col: usize) -> Self {
        Cell { row, col }
    }

    /// True when the two cells share an edge.
    pub fn is_orthogonal_neighbour(self, other: Cell) -> bool {
        self.row.abs_diff(other.row) + self.col.abs_diff(other.col) == 1
    }

    /// The cells of an n x n grid that share an edge with this one: above, below, left, right.
    pub(crate) fn orthogonal(self, n: usize) -> impl Iterator<Item = Cell> {
        let Cell { row: r, col: c } = self;
        [
            (r > 0).then(|| Cell::new(r - 1, c)),
            (r + 1 < n).then(|| Cell::new(r + 1, c)),
            (c > 0).then(|| Cell::new(r, c - 1)),
            (c + 1 < n).then(|| Cell::new(r, c + 1)),
        ]
        .into_iter()
        .flatten()
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// An n x n grid of values, 0 = empty. Values are at most 255 (the largest size), so a byte holds each: a count
/// that keeps many grids keeps a quarter of the memory it would with `u32`s.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    size: usize,
    values: Vec<u8>,
}

impl Grid {
    /// An empty grid of size n.
    pub fn empty(size: usize) -> Self {
        Grid {
            size,
            values: vec![0; size * size],
        }
    }

    /// A grid from rows; `None` when the rows are not n rows of n values of at most 255.
    pub fn from_rows(rows: &[Vec<u32>]) -> Option<Self> {
        let size = rows.len();
        if rows.iter().any(|r| r.len() != size) {
            return None;
        }
        let values = rows
            .iter()
            .flatten()
            .map(|&v| u8::try_from(v).ok())
            .collect::<Option<Vec<u8>>>()?;
        Some(Grid { size, values })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn get(&self, cell: Cell) -> u32 {
        u32::from(self.values[cell.row * self.size + cell.col])
    }

    /// Sets a cell's value (0 empties it).
    ///
    /// # Panics
    /// When the value is above 255, which no grid holds (every reader of user input checks the range first).
    pub fn set(&mut self, cell: Cell, value: u32) {
        let v = u8::try_from(value).expect("grid values are at most 255");
        self.values[cell.row * self.size + cell.col] = v;
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        let n = self.size;
        (0..n * n).map(move |i| Cell::new(i / n, i % n))
    }

    /// The filled cells with their values.
    pub fn filled(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        self.cells()
            .map(|c| (c, self.get(c)))
            .filter(|&(_, v)| v != 0)
    }

    pub fn is_complete(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    pub fn rows(&self) -> Vec<Vec<u32>> {
        self.values
            .chunks(self.size.max(1))
            .map(|row| row.iter().map(|&v| u32::from(v)).collect())
            .collect()
    }

    /// The compact one-line form used by `--lines`: `.` empty, `1`-`9`, then `A`-`Z` for 10..35.
    pub fn to_line(&self) -> String {
        self.values
            .iter()
            .map(|&v| value_char(u32::from(v)))
            .collect()
    }
}

/// One character for a value in the no-space form: `.` for empty, `1`-`9`, `A`-`Z` for 10..35.
pub(crate) fn value_char(v: u32) -> char {
    match v {
        0 => '.',
        1..=9 => char::from_digit(v, 10).unwrap_or('?'),
        10..=35 => (b'A' + (v - 10) as u8) as char,
        _ => '?',
    }
}

/// The box of cell (r, c) on an n x n grid of h x w boxes, boxes numbered row by row.
pub(crate) fn box_of(r: usize, c: usize, (h, w): (usize, usize), n: usize) -> usize {
    (r / h) * (n / w) + c / w
}

/// The box shape `h x w` whose boxes are exactly these regions (a region number per cell, however numbered),
/// if any: what a picture's thick walls or f-puzzles' regions say, where latin writes boxes of a shape the
/// form has no word for as regions. Rows and columns as regions (1 x n, n x 1) are left out: no Sudoku has
/// such boxes, so they stay regions.
pub(crate) fn box_shape(regions: &[usize], n: usize) -> Option<(usize, usize)> {
    (2..n)
        .filter(|h| n % h == 0)
        .map(|h| (h, n / h))
        .find(|&b| same_partition(regions, |i| box_of(i / n, i % n, b, n)))
}

/// Whether `a` and `b` (a region number per cell) cut the cells alike: a one-to-one map between their numbers.
fn same_partition(a: &[usize], b: impl Fn(usize) -> usize) -> bool {
    let (mut ab, mut ba) = (
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::new(),
    );
    a.iter().enumerate().all(|(i, &x)| {
        let y = b(i);
        *ab.entry(x).or_insert(y) == y && *ba.entry(y).or_insert(x) == x
    })
}

/// The box of every cell of an n x n grid of h x w boxes, row by row.
pub(crate) fn box_map(n: usize, boxes: (usize, usize)) -> Vec<usize> {
    (0..n * n).map(|i| box_of(i / n, i % n, boxes, n)).collect()
}

/// The default box shape for size n: the square root when n is a square, else the most nearly square
/// `h x w` with `h < w` (6 -> 2x3, 12 -> 3x4); `None` when n is prime.
pub(crate) fn default_boxes(n: usize) -> Option<(usize, usize)> {
    let h = (1..=n)
        .take_while(|h| h * h <= n)
        .filter(|h| n % h == 0)
        .last()?;
    (h > 1 || n == 1).then_some((h, n / h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_print_one_based() {
        assert_eq!(Cell::new(0, 2).to_string(), "r1c3");
    }

    #[test]
    fn rows_must_be_square() {
        assert!(Grid::from_rows(&[vec![1, 2], vec![2]]).is_none());
        assert!(Grid::from_rows(&[vec![1, 256], vec![2, 1]]).is_none());
        let g = Grid::from_rows(&[vec![1, 2], vec![2, 1]]).unwrap();
        assert_eq!(g.get(Cell::new(1, 0)), 2);
        assert_eq!(g.to_line(), "1221");
    }

    #[test]
    fn neighbours_share_an_edge() {
        assert!(Cell::new(1, 1).is_orthogonal_neighbour(Cell::new(1, 2)));
        assert!(!Cell::new(1, 1).is_orthogonal_neighbour(Cell::new(2, 2)));
    }
}
