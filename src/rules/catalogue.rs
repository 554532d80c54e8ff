//! Named whole-grid rules: the words a grammar's `rules:` list or a puzzle's `rules:` may use.
//!
//! Each name expands to primitives over the geometry of the grid (rows, boxes, diagonals, knight moves, ...).
//! They take no section data, which is why a puzzle file may add them to any type. The words themselves, with
//! their descriptions, are part of the grammar vocabulary (`grammar::vocabulary::NAMED_RULES`), which a test in
//! `model` keeps equal to what this module expands.

use std::sync::Arc;

use super::{AllDifferent, Relation, RelationKind, Rule, Sum};
use crate::error::ModelError;
use crate::grid::Cell;

/// The geometry a named rule may need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    pub(crate) size: usize,
    /// Box height x width.
    pub(crate) boxes: (usize, usize),
}

pub(crate) use crate::grid::default_boxes;

type Rules = Vec<Arc<dyn Rule>>;

/// Expands a named rule into primitives; `None` for a name this module does not know, `Err` for a geometry the
/// rule does not fit.
pub(crate) fn expand(name: &str, g: Geometry) -> Result<Option<Rules>, ModelError> {
    let n = g.size;
    let needs_9 = || {
        if n == 9 {
            Ok(())
        } else {
            Err(ModelError::NeedsSize {
                rule: name.to_owned(),
                need: 9,
                size: n,
            })
        }
    };
    Ok(Some(match name {
        "latin" => latin(n),
        "boxes" => boxes(g)?,
        "diagonals" => vec![main_diagonal(n), anti_diagonal(n)],
        "main-diagonal" => vec![main_diagonal(n)],
        "anti-diagonal" => vec![anti_diagonal(n)],
        "anti-knight" => pairs(
            name,
            n,
            RelationKind::Different,
            &[(1, -2), (1, 2), (2, -1), (2, 1)],
        ),
        "anti-king" => pairs(name, n, RelationKind::Different, &[(1, -1), (1, 1)]),
        "non-consecutive" => pairs(name, n, RelationKind::NotConsecutive, &[(0, 1), (1, 0)]),
        "disjoint-groups" => disjoint_groups(g)?,
        "windoku" => {
            needs_9()?;
            windows()
        }
        "magic-centre" => {
            needs_9()?;
            magic_centre()
        }
        "asterisk" | "girandola" | "centre-dot" => {
            needs_9()?;
            vec![nine_cells(name)]
        }
        _ => return Ok(None),
    }))
}

fn all(label: String, cells: Vec<Cell>) -> Arc<dyn Rule> {
    Arc::new(AllDifferent::new(label, cells))
}

/// Every row and every column.
fn latin(n: usize) -> Rules {
    let rows = (0..n).map(|i| {
        all(
            format!("row {}", i + 1),
            (0..n).map(|c| Cell::new(i, c)).collect(),
        )
    });
    let columns = (0..n).map(|i| {
        all(
            format!("column {}", i + 1),
            (0..n).map(|r| Cell::new(r, i)).collect(),
        )
    });
    rows.chain(columns).collect()
}

/// Every box of the geometry's shape, numbered row by row.
/// Top-left to bottom-right (f-puzzles' `diagonal-`).
fn main_diagonal(n: usize) -> Arc<dyn Rule> {
    all(
        "main diagonal".into(),
        (0..n).map(|i| Cell::new(i, i)).collect(),
    )
}

/// Bottom-left to top-right (f-puzzles' `diagonal+`).
fn anti_diagonal(n: usize) -> Arc<dyn Rule> {
    all(
        "anti-diagonal".into(),
        (0..n).map(|i| Cell::new(i, n - 1 - i)).collect(),
    )
}

fn boxes(g: Geometry) -> Result<Rules, ModelError> {
    let (n, (h, w)) = (g.size, g.boxes);
    if h * w != n {
        return Err(ModelError::BoxesDoNotTile {
            height: h,
            width: w,
            size: n,
        });
    }
    let mut out = Vec::new();
    for br in 0..n / h {
        for bc in 0..n / w {
            let cells = (0..h)
                .flat_map(|r| (0..w).map(move |c| Cell::new(br * h + r, bc * w + c)))
                .collect();
            out.push(all(format!("box {}", br * (n / w) + bc + 1), cells));
        }
    }
    Ok(out)
}

/// The cells at one place inside their boxes, one group per place (Sudoku DG): on a 9x9, the nine centres of
/// the boxes are one group, the nine top-left corners another.
fn disjoint_groups(g: Geometry) -> Result<Rules, ModelError> {
    // The same check as the boxes themselves: a shape that does not tile the grid has no places to share.
    boxes(g)?;
    let (n, (h, w)) = (g.size, g.boxes);
    let mut out = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let cells = (0..n / h)
                .flat_map(|br| (0..n / w).map(move |bc| Cell::new(br * h + r, bc * w + c)))
                .collect();
            out.push(all(format!("disjoint group {}", r * w + c + 1), cells));
        }
    }
    Ok(out)
}

/// A relation between every cell and each cell at one of the offsets (each unordered pair once).
fn pairs(name: &str, n: usize, kind: RelationKind, offsets: &[(isize, isize)]) -> Rules {
    let mut out: Rules = Vec::new();
    for r in 0..n as isize {
        for c in 0..n as isize {
            for &(dr, dc) in offsets {
                let (r2, c2) = (r + dr, c + dc);
                // Each unordered pair once: only offsets pointing "forward".
                if (dr, dc) > (0, 0) && r2 >= 0 && c2 >= 0 && r2 < n as isize && c2 < n as isize {
                    out.push(Arc::new(Relation::new(
                        Cell::new(r as usize, c as usize),
                        Cell::new(r2 as usize, c2 as usize),
                        kind.clone(),
                        name,
                    )));
                }
            }
        }
    }
    out
}

/// The four extra 3x3 windows of a 9x9 windoku.
fn windows() -> Rules {
    [(1, 1), (1, 5), (5, 1), (5, 5)]
        .iter()
        .enumerate()
        .map(|(k, &(r0, c0))| {
            all(
                format!("window {}", k + 1),
                (0..3)
                    .flat_map(|r| (0..3).map(move |c| Cell::new(r0 + r, c0 + c)))
                    .collect(),
            )
        })
        .collect()
}

/// One extra region of nine cells of a 9x9, as its setters define it (rows and columns from 1): an asterisk
/// around the centre, a girandola's corners and pinwheel, or the centre of every box.
fn nine_cells(name: &str) -> Arc<dyn Rule> {
    let cells: [(usize, usize); 9] = match name {
        "asterisk" => [
            (2, 5),
            (3, 3),
            (3, 7),
            (5, 2),
            (5, 5),
            (5, 8),
            (7, 3),
            (7, 7),
            (8, 5),
        ],
        "girandola" => [
            (1, 1),
            (1, 9),
            (2, 5),
            (5, 2),
            (5, 5),
            (5, 8),
            (8, 5),
            (9, 1),
            (9, 9),
        ],
        _ => [
            (2, 2),
            (2, 5),
            (2, 8),
            (5, 2),
            (5, 5),
            (5, 8),
            (8, 2),
            (8, 5),
            (8, 8),
        ],
    };
    all(
        name.to_owned(),
        cells
            .iter()
            .map(|&(r, c)| Cell::new(r - 1, c - 1))
            .collect(),
    )
}

/// The rows and columns of the centre box of a 9x9, each summing to 15.
fn magic_centre() -> Rules {
    // Each line lies within one row or column, so its digits are distinct anyway; saying so lets the sum
    // compile to its digit combinations (a much tighter relaxation than the plain sum).
    let line = |label: String, cells: Vec<Cell>| -> Arc<dyn Rule> {
        Arc::new(Sum {
            label,
            cells,
            total: 15,
            distinct: true,
        })
    };
    (0..3)
        .map(|i| {
            line(
                format!("centre row {}", i + 1),
                (3..6).map(|c| Cell::new(3 + i, c)).collect(),
            )
        })
        .chain((0..3).map(|i| {
            line(
                format!("centre column {}", i + 1),
                (3..6).map(|r| Cell::new(r, 3 + i)).collect(),
            )
        }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_box_shapes() {
        assert_eq!(default_boxes(9), Some((3, 3)));
        assert_eq!(default_boxes(6), Some((2, 3)));
        assert_eq!(default_boxes(12), Some((3, 4)));
        assert_eq!(default_boxes(7), None);
    }

    #[test]
    fn rule_counts() {
        let g = Geometry {
            size: 9,
            boxes: (3, 3),
        };
        assert_eq!(expand("latin", g).unwrap().unwrap().len(), 18);
        assert_eq!(expand("boxes", g).unwrap().unwrap().len(), 9);
        // Knight moves on 9x9: 2 * (8*7 + 7*8) unordered pairs... counted directly.
        let knights = expand("anti-knight", g).unwrap().unwrap().len();
        assert_eq!(knights, 2 * 8 * 7 + 2 * 7 * 8);
        assert_eq!(expand("anti-king", g).unwrap().unwrap().len(), 2 * 8 * 8);
        assert!(expand(
            "windoku",
            Geometry {
                size: 6,
                boxes: (2, 3)
            }
        )
        .is_err());
        assert!(expand("bogus", g).unwrap().is_none());
        // Nine cells each, symmetric under a quarter turn, the centre among them; 9x9 only.
        let six = Geometry {
            size: 6,
            boxes: (2, 3),
        };
        for name in ["asterisk", "girandola", "centre-dot"] {
            let cells = expand(name, g).unwrap().unwrap()[0].cells();
            let set: std::collections::BTreeSet<Cell> = cells.iter().copied().collect();
            assert_eq!(set.len(), 9, "{name}");
            assert!(set.contains(&Cell::new(4, 4)), "{name}");
            assert!(
                set.iter()
                    .all(|c| set.contains(&Cell::new(c.col, 8 - c.row))),
                "{name}"
            );
            assert!(expand(name, six).is_err(), "{name}");
        }
        // Disjoint groups: one per place in a box, each holding that place of every box.
        let groups = expand("disjoint-groups", six).unwrap().unwrap();
        assert_eq!(groups.len(), 6);
        let centre = groups[4].cells();
        assert_eq!(centre.len(), 6);
        assert!(centre.contains(&Cell::new(1, 1)) && centre.contains(&Cell::new(5, 4)));
        assert!(centre.iter().all(|c| c.row % 2 == 1 && c.col % 3 == 1));
        let seven = Geometry {
            size: 7,
            boxes: (2, 3),
        };
        assert!(expand("disjoint-groups", seven).is_err());
    }
}
