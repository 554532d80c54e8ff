//! Where Penpa+ puts things: every point it can draw at (a cell's centre, a grid vertex, the middle of an edge,
//! a quarter of a cell) is one number, and this turns those numbers into the puzzle's cells and back.
//!
//! Penpa+ pads its `nx` x `ny` board with two rows and columns on every side, so a board point `(x, y)` is
//! `y * (nx + 4) + x`, and the kinds of point are blocks of `N = (nx + 4) * (ny + 4)` numbers each
//! (`Puzzle_square.create_point`): centres, then vertices (the bottom-right corner of the centre of the same
//! number), then the middles of bottom edges, then of right edges, then four quarter points a cell (top-left,
//! top-right, bottom-left, bottom-right). A puzzle's grid is the board less its `space` bands (rows above and
//! below, columns left and right, where outside clues go).

/// A square grid of n x n cells on a Penpa+ board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    pub(super) n: usize,
    /// Board columns with the padding: `nx + 4`.
    width: usize,
    /// Points of one kind: `(nx + 4) * (ny + 4)`.
    block: usize,
    /// The grid's first row and column on the board, padding and space bands included.
    top: usize,
    left: usize,
    /// The board's size and its bands: what a save text's header and `space` line say.
    pub(super) nx: usize,
    pub(super) ny: usize,
    pub(super) space: [usize; 4],
}

/// A point of the board, as far as a Sudoku reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Point {
    /// The centre of a grid cell.
    Cell(usize, usize),
    /// The middle of the edge between two grid cells, the upper or left one first.
    Edge([usize; 2], [usize; 2]),
    /// A corner of a grid cell (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right).
    Corner([usize; 2], usize),
    /// A vertex of the board, as board coordinates of the corner it is (column, row).
    Vertex(usize, usize),
    /// The centre of a cell of the board outside the grid (where outside clues and labels go), as grid row and
    /// column (-1 above or left of the grid, n below or right).
    Outside(isize, isize),
    /// Anything else: outside the grid, on its frame, or a kind of point Sudoku rules do not use.
    Elsewhere,
}

impl Board {
    /// The board of a Penpa+ header: `nx` x `ny` with `space` = [above, below, left, right]; `None` unless the
    /// grid left is square.
    pub(super) fn new(nx: usize, ny: usize, space: [usize; 4]) -> Option<Board> {
        let rows = ny.checked_sub(space[0].checked_add(space[1])?)?;
        let cols = nx.checked_sub(space[2].checked_add(space[3])?)?;
        (rows == cols && rows > 0).then_some(Board {
            n: rows,
            width: nx + 4,
            block: (nx + 4) * (ny + 4),
            top: 2 + space[0],
            left: 2 + space[2],
            nx,
            ny,
            space,
        })
    }

    /// The board this project writes for an n x n grid: no space bands.
    pub(super) fn plain(n: usize) -> Board {
        Board::new(n, n, [0; 4]).expect("a square grid")
    }

    /// Board coordinates (column, row) as a grid cell, when they are one.
    fn grid_cell(&self, x: usize, y: usize) -> Option<[usize; 2]> {
        let (r, c) = (y.checked_sub(self.top)?, x.checked_sub(self.left)?);
        (r < self.n && c < self.n).then_some([r, c])
    }

    pub(super) fn point(&self, k: usize) -> Point {
        let (kind, at) = (k / self.block, k % self.block);
        let (x, y) = (at % self.width, at / self.width);
        let cell = |x, y| self.grid_cell(x, y);
        match kind {
            0 => cell(x, y).map_or_else(
                || {
                    Point::Outside(
                        y as isize - self.top as isize,
                        x as isize - self.left as isize,
                    )
                },
                |[r, c]| Point::Cell(r, c),
            ),
            1 => Point::Vertex(x + 1, y + 1),
            2 => match (cell(x, y), cell(x, y + 1)) {
                (Some(a), Some(b)) => Point::Edge(a, b),
                _ => Point::Elsewhere,
            },
            3 => match (cell(x, y), cell(x + 1, y)) {
                (Some(a), Some(b)) => Point::Edge(a, b),
                _ => Point::Elsewhere,
            },
            4..=7 => {
                let quarter = k - 4 * self.block;
                let at = quarter / 4;
                let (x, y) = (at % self.width, at / self.width);
                cell(x, y).map_or(Point::Elsewhere, |rc| Point::Corner(rc, quarter % 4))
            }
            _ => Point::Elsewhere,
        }
    }

    /// The centre of grid cell (r, c).
    pub(super) fn cell(&self, r: usize, c: usize) -> usize {
        (r + self.top) * self.width + c + self.left
    }

    /// The centre of the board cell at grid row r and column c, inside the grid or in a band around it.
    pub(super) fn centre(&self, r: isize, c: isize) -> usize {
        let (y, x) = (r + self.top as isize, c + self.left as isize);
        y as usize * self.width + x as usize
    }

    /// The middle of the edge between two orthogonal neighbours.
    pub(super) fn edge(&self, a: [usize; 2], b: [usize; 2]) -> usize {
        let (first, second) = (a.min(b), a.max(b));
        let kind = if first[0] == second[0] { 3 } else { 2 };
        kind * self.block + self.cell(first[0], first[1])
    }

    /// Corner q of grid cell (r, c).
    pub(super) fn corner(&self, r: usize, c: usize, q: usize) -> usize {
        4 * (self.cell(r, c) + self.block) + q
    }

    /// The vertex at board coordinates (column, row): the corner where four board points meet.
    pub(super) fn vertex(&self, x: usize, y: usize) -> usize {
        self.block + (y - 1) * self.width + x - 1
    }

    /// The grid cell's top-left corner in board coordinates (column, row).
    pub(super) fn top_left(&self, r: usize, c: usize) -> (usize, usize) {
        (c + self.left, r + self.top)
    }

    /// A board vertex (column, row) as grid coordinates of the corner (row, column), which may lie on the
    /// frame (0 or n) or outside it.
    pub(super) fn corner_in_grid(&self, x: usize, y: usize) -> (isize, isize) {
        (
            y as isize - self.top as isize,
            x as isize - self.left as isize,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers Penpa+ gave one real 9x9 with outside clues above and left (sudoku-formats' test data):
    /// a given at board point 46, a dot at 437 between r3c7 and r4c7.
    #[test]
    fn points_are_numbered_as_penpa_numbers_them() {
        let b = Board::new(10, 10, [1, 0, 1, 0]).unwrap();
        assert_eq!(b.point(46), Point::Cell(0, 1));
        assert_eq!(b.cell(0, 1), 46);
        let b = Board::new(9, 10, [1, 0, 0, 0]).unwrap();
        assert_eq!(b.point(437), Point::Edge([2, 6], [3, 6]));
        assert_eq!(b.edge([3, 6], [2, 6]), 437);
        let b = Board::plain(9);
        for (r, c) in [(0, 0), (4, 7), (8, 8)] {
            assert_eq!(b.point(b.cell(r, c)), Point::Cell(r, c));
            for q in 0..4 {
                assert_eq!(b.point(b.corner(r, c, q)), Point::Corner([r, c], q));
            }
            let (x, y) = b.top_left(r, c);
            assert_eq!(b.point(b.vertex(x, y)), Point::Vertex(x, y));
            assert_eq!(b.corner_in_grid(x, y), (r as isize, c as isize));
        }
        assert_eq!(b.point(b.edge([4, 4], [4, 5])), Point::Edge([4, 4], [4, 5]));
        // The padding is outside; the frame is elsewhere.
        assert_eq!(b.point(0), Point::Outside(-2, -2));
        let b = Board::new(11, 11, [1, 1, 1, 1]).unwrap();
        for (r, c) in [(-1, 0), (9, 8), (3, -1), (0, 9)] {
            assert_eq!(b.point(b.centre(r, c)), Point::Outside(r, c));
        }
        assert_eq!(b.point(2 * 169 + b.cell(8, 3)), Point::Elsewhere);
        assert!(Board::new(9, 10, [0; 4]).is_none());
    }
}
