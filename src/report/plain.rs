//! The plain grid (`--format grid`): digits with boxes or rooms drawn in `|` and `-`, in a form the grid parser
//! reads back, so an answer can be pasted into a file's `solution:`.
//!
//! With boxes the classic layout is used (`1 2 3 | 4 5 6`). With irregular regions every gap between two cells
//! is three characters wide, holding a `|` where the two cells belong to different regions, and a line of `-`
//! under cells whose lower neighbour is in another region. Values are right-aligned to the width of n.

use crate::grid::{Cell, Grid};
use crate::model::figure::Figure;

/// The walls of the plain grid: the main regions when there are any, else the boxes.
fn different(figure: &Figure, a: Cell, b: Cell) -> bool {
    if figure.regions.is_some() {
        figure.region_wall(a, b)
    } else {
        figure.box_wall(a, b)
    }
}

/// Renders a grid (0 = empty, shown as `.`).
pub(crate) fn render(grid: &Grid, figure: &Figure) -> String {
    let n = grid.size();
    let width = n.to_string().len();
    let show = |v: u32| {
        if v == 0 {
            format!("{:>width$}", ".")
        } else {
            format!("{v:>width$}")
        }
    };
    let irregular = figure.regions.is_some();
    let gap = |wall: bool| match (wall, irregular) {
        (true, _) => " | ",
        (false, true) => "   ",
        (false, false) => " ",
    };
    let mut out = String::new();
    for r in 0..n {
        let mut line = String::new();
        for c in 0..n {
            if c > 0 {
                line.push_str(gap(different(figure, Cell::new(r, c - 1), Cell::new(r, c))));
            }
            line.push_str(&show(grid.get(Cell::new(r, c))));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if r + 1 < n {
            let below = |c: usize| different(figure, Cell::new(r, c), Cell::new(r + 1, c));
            if (0..n).any(below) {
                let mut sep = String::new();
                for c in 0..n {
                    if c > 0 {
                        let g = gap(different(figure, Cell::new(r, c - 1), Cell::new(r, c))).len();
                        let wall_here =
                            !irregular && figure.boxes.is_some() && gap(true).len() == g;
                        let fill = if wall_here {
                            "-+-".to_owned()
                        } else if below(c - 1) || below(c) {
                            "-".repeat(g)
                        } else {
                            " ".repeat(g)
                        };
                        sep.push_str(&fill);
                    }
                    sep.push_str(&if below(c) {
                        "-".repeat(width)
                    } else {
                        " ".repeat(width)
                    });
                }
                out.push_str(sep.trim_end());
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{grid, SectionText};

    fn sample() -> Grid {
        Grid::from_rows(&[
            vec![1, 2, 3, 4],
            vec![3, 4, 1, 2],
            vec![2, 1, 4, 3],
            vec![4, 3, 2, 1],
        ])
        .unwrap()
    }

    /// Parses printed text back as a `solution:` grid.
    fn read_back(text: &str) -> Grid {
        let section = SectionText {
            name: "solution".into(),
            lines: text.lines().map(str::to_owned).collect(),
        };
        grid::values(&section, &grid::tokenize(&section).unwrap(), 4).unwrap()
    }

    #[test]
    fn boxes_are_drawn_and_read_back() {
        let g = sample();
        let figure = Figure {
            boxes: Some((2, 2)),
            ..Figure::new(4)
        };
        let text = render(&g, &figure);
        assert_eq!(
            text,
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"
        );
        let back = read_back(&text);
        assert_eq!(back, g);
    }

    #[test]
    fn rooms_are_drawn_and_read_back() {
        let ids: Vec<usize> = "AABBACCBDDCBDDCC"
            .bytes()
            .map(|b| usize::from(b - b'A'))
            .collect();
        let g = sample();
        let figure = Figure {
            regions: Some(ids),
            ..Figure::new(4)
        };
        let text = render(&g, &figure);
        let back = read_back(&text);
        assert_eq!(back, g, "{text}");
        assert!(text.contains('|') && text.contains('-'), "{text}");
    }
}
