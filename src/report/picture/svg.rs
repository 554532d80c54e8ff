//! The puzzle as an SVG picture in the style of printed puzzles: thick region walls (dashed cage outlines
//! when the type also has boxes, as killer puzzles are printed), small hint numbers in the corner, inequality
//! signs, white and black dots, X and V, outside clues, shaded even and circled odd cells, thermometers,
//! arrows and coloured lines, givens in black and solved digits in blue.
//!
//! The SVG is written by hand: it is a few hundred elements of a fixed shape, and every number in it comes
//! from the [`Figure`], so a writer crate would add a dependency and no safety. Text is escaped anyway.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Paint, Values};
use crate::grammar::vocabulary::LineStyle;
use crate::grid::Cell;
use crate::model::figure::{Figure, Line, MarkGlyph, PairGlyph, Side};

/// The side of a cell in SVG units.
pub(crate) const CELL: f64 = 48.0;
/// Inset of a dashed cage outline from the cell's side.
const INSET: f64 = 5.0;
const SOLVED: &str = "#1f5fbf";
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Where the picture's grid starts, and its whole width and height.
struct Page {
    margin: f64,
    n: usize,
}

impl Page {
    fn new(f: &Figure) -> Page {
        // Little-killer sums stand outside the frame; a cage's sum is inside.
        let outside = !f.edges.is_empty()
            || f.lines
                .iter()
                .any(|l| l.clue.is_some() && l.style == Some(LineStyle::Sum));
        // A cell's width for each row of clues on the side with the most (two edge sections on one side in a type
        // made of types).
        let rows = f.edges.values().map(Vec::len).max().unwrap_or(0).max(1) as f64;
        Page {
            margin: if outside { CELL * rows } else { CELL / 4.0 },
            n: f.size,
        }
    }

    fn side(&self) -> f64 {
        self.n as f64 * CELL + 2.0 * self.margin
    }

    /// The top-left corner of a cell.
    fn corner(&self, cell: Cell) -> (f64, f64) {
        (cell.col as f64 * CELL, cell.row as f64 * CELL)
    }

    fn centre(&self, cell: Cell) -> (f64, f64) {
        let (x, y) = self.corner(cell);
        (x + CELL / 2.0, y + CELL / 2.0)
    }
}

/// The height of a line of notes under the picture.
const NOTE_SIZE: f64 = CELL * 0.28;

/// The picture's width and height in SVG units, known before anything is drawn (or solved).
pub(crate) fn size(f: &Figure) -> (f64, f64) {
    let side = Page::new(f).side();
    (side, height(side, super::notes(f).len()))
}

/// The picture's height: its square and `notes` lines of notes under it.
fn height(side: f64, notes: usize) -> f64 {
    side + notes as f64 * NOTE_SIZE * 1.4
}

/// Renders the puzzle with its givens, and the solution's other values when there is one.
pub(crate) fn render(f: &Figure, values: &Values) -> String {
    let page = Page::new(f);
    let side = page.side();
    // Under the picture, its notes: named rules, and whose row is whose where a side has two rows of clues.
    let notes = super::notes(f);
    let note_size = NOTE_SIZE;
    let height = height(side, notes.len());
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{height}" viewBox="0 0 {side} {height}" font-family="{FONT}">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="{side}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(out, r#"<g transform="translate({0} {0})">"#, page.margin);
    marks(&mut out, f, &page);
    // Pills last: each covers the circles and the starts of the arrows that leave it.
    let is_pill = |l: &&Line| l.style == Some(LineStyle::Pill);
    for line in f
        .lines
        .iter()
        .filter(|l| !is_pill(l))
        .chain(f.lines.iter().filter(is_pill))
    {
        draw_line(&mut out, f, &page, line);
    }
    grid_lines(&mut out, f);
    hints(&mut out, f, &page);
    signs(&mut out, f, &page);
    edges(&mut out, f);
    digits(&mut out, f, &page, values);
    out.push_str("</g>\n");
    for (k, note) in notes.iter().enumerate() {
        let y = side + (k as f64 + 1.0) * note_size * 1.4 - note_size * 0.3;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}" font-size="{note_size}">{}</text>"#,
            CELL * 0.25,
            escape(note)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Escapes text for an SVG text node.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn text(out: &mut String, x: f64, y: f64, size: f64, fill: &str, anchor: &str, s: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" fill="{fill}" text-anchor="{anchor}">{}</text>"#,
        escape(s)
    );
}

/// Text centred on a point (the baseline is set a third of the size below it).
fn centred(out: &mut String, (x, y): (f64, f64), size: f64, fill: &str, s: &str) {
    text(out, x, y + size * 0.36, size, fill, "middle", s);
}

/// Even cells (and marks meaning `any`) shaded, odd cells circled, other marks as their letter in the
/// bottom-left corner.
fn marks(out: &mut String, f: &Figure, page: &Page) {
    for (cell, glyph, _) in &f.marks {
        let (x, y) = page.corner(*cell);
        match glyph {
            MarkGlyph::Square => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#d4d4d4"/>"##,
                    x + 4.0,
                    y + 4.0,
                    CELL - 8.0,
                    CELL - 8.0
                );
            }
            MarkGlyph::Circle => {
                let (cx, cy) = page.centre(*cell);
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#d4d4d4"/>"##,
                    CELL * 0.4
                );
            }
            MarkGlyph::Text(t) => text(
                out,
                x + 3.0,
                y + CELL - 4.0,
                CELL * 0.22,
                "#555",
                "start",
                t,
            ),
        }
    }
}

/// Each cell filled with `colour` (an extra region's grey, an indexer's tint).
fn tint(out: &mut String, page: &Page, cells: &[Cell], colour: &str) {
    for &cell in cells {
        let (x, y) = page.corner(cell);
        let _ = writeln!(
            out,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{CELL:.1}" height="{CELL:.1}" fill="{colour}"/>"##
        );
    }
}

/// A polyline through the centres of cells.
fn polyline(out: &mut String, points: &[(f64, f64)], stroke: &str, width: f64, extra: &str) {
    let pts: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width:.1}" stroke-linecap="round" stroke-linejoin="round"{extra}/>"#,
        pts.join(" ")
    );
}

fn draw_line(out: &mut String, f: &Figure, page: &Page, line: &Line) {
    let points: Vec<(f64, f64)> = line.cells.iter().map(|&c| page.centre(c)).collect();
    let Some(&first) = points.first() else { return };
    match line.style {
        Some(LineStyle::Thermo) => {
            polyline(out, &points, "#c4c4c4", CELL * 0.28, "");
            let _ = writeln!(
                out,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#c4c4c4"/>"##,
                first.0,
                first.1,
                CELL * 0.38
            );
        }
        Some(LineStyle::Arrow) => arrow(out, &points),
        Some(LineStyle::Pill) => pill(out, &points),
        Some(LineStyle::Whisper) => polyline(out, &points, "#62c462", CELL * 0.18, ""),
        Some(LineStyle::Renban) => polyline(out, &points, "#d2a6ef", CELL * 0.28, ""),
        Some(LineStyle::Palindrome) => polyline(out, &points, "#b8b8b8", CELL * 0.2, ""),
        Some(LineStyle::RegionSum) => polyline(out, &points, "#5fa8f0", CELL * 0.16, ""),
        Some(LineStyle::Zipper) => polyline(out, &points, "#e0b0f0", CELL * 0.3, ""),
        Some(LineStyle::Segments) => polyline(out, &points, "#2a8c82", CELL * 0.14, ""),
        Some(LineStyle::Spread) => polyline(out, &points, "#c9c883", CELL * 0.28, ""),
        Some(LineStyle::Lockout) => {
            polyline(out, &points, "#3d8fd1", CELL * 0.1, "");
            for &(cx, cy) in [points[0], points[points.len() - 1]].iter() {
                let r = CELL * 0.3;
                let _ = writeln!(
                    out,
                    r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="white" stroke="#3d8fd1" stroke-width="2"/>"##,
                    cx,
                    cy - r,
                    cx + r,
                    cy,
                    cx,
                    cy + r,
                    cx - r,
                    cy
                );
            }
        }
        Some(LineStyle::Classes) => polyline(out, &points, "#f3a64a", CELL * 0.2, ""),
        Some(LineStyle::Between) => {
            polyline(out, &points, "#b8b8b8", CELL * 0.1, "");
            for &(cx, cy) in [points[0], points[points.len() - 1]].iter() {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="white" stroke="#8a8a8a" stroke-width="2"/>"##,
                    CELL * 0.4
                );
            }
        }
        Some(LineStyle::Region) => tint(out, page, &line.cells, "#e4e4e4"),
        Some(LineStyle::Cage) => {
            let n = f.size as isize;
            let within = |r: isize, c: isize| {
                line.cells
                    .iter()
                    .any(|cell| (cell.row as isize, cell.col as isize) == (r, c))
                    .then_some(0)
            };
            let _ = writeln!(
                out,
                r#"<path d="{}" stroke="black" stroke-width="1.2" stroke-dasharray="4 3" fill="none"/>"#,
                cage_outlines(n, within)
            );
        }
        Some(LineStyle::Tint(colour)) => tint(out, page, &line.cells, colour),
        Some(LineStyle::Sum) => line_sum(out, f, page, line, &points),
        Some(LineStyle::Listed) => listed(out, line, &points),
        Some(LineStyle::Apart) => {
            // In each cell's top-left corner, clear of its digit.
            let corner: Vec<(f64, f64)> = points
                .iter()
                .map(|&(x, y)| (x - CELL * 0.3, y - CELL * 0.3))
                .collect();
            polyline(out, &corner, "#9a9a9a", 1.5, r#" stroke-dasharray="4 4""#);
            for &(cx, cy) in &corner {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#d8d8d8" stroke="#9a9a9a" stroke-width="1"/>"##,
                    CELL * 0.12
                );
            }
        }
        None => polyline(out, &points, "#a0a0a0", CELL * 0.14, ""),
    }
}

/// A group with its values (a quadruple): a white circle at the middle of its cells (where four cells of a
/// 2x2 meet), the values in it, smallest first, two to a row.
fn listed(out: &mut String, line: &Line, points: &[(f64, f64)]) {
    let k = points.len().max(1) as f64;
    let cx = points.iter().map(|p| p.0).sum::<f64>() / k;
    let cy = points.iter().map(|p| p.1).sum::<f64>() / k;
    let radius = CELL * 0.3;
    let _ = writeln!(
        out,
        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}" fill="white" stroke="black" stroke-width="1.5"/>"##
    );
    let mut values = line.values.clone();
    values.sort_unstable();
    // A list of values two to a row (a quadruple's), else the clue as written (a Mathrax point's `4+`).
    let rows: Vec<String> = match line.clue_text() {
        Some(clue) if values.is_empty() => vec![clue],
        _ => values
            .chunks(2)
            .map(|pair| {
                let words: Vec<String> = pair.iter().map(u32::to_string).collect();
                words.join(" ")
            })
            .collect(),
    };
    // One short clue (`E`, `9+`) as large as the circle lets it be; rows of values smaller, to fit.
    let size = match rows.as_slice() {
        [one] if one.chars().count() <= 2 => CELL * 0.3,
        [one] if one.chars().count() == 3 => CELL * 0.24,
        _ => CELL * 0.2,
    };
    let top = cy - (rows.len() as f64 - 1.0) * size * 0.5 + size * 0.35;
    for (i, row) in rows.iter().enumerate() {
        text(out, cx, top + i as f64 * size, size, "black", "middle", row);
    }
}

/// A pill: a white outline with round ends around the cells' centres, as wide as an arrow's circle.
fn pill(out: &mut String, points: &[(f64, f64)]) {
    let radius = CELL * 0.4;
    let (mut left, mut top) = (f64::MAX, f64::MAX);
    let (mut right, mut bottom) = (f64::MIN, f64::MIN);
    for &(x, y) in points {
        (left, right) = (left.min(x), right.max(x));
        (top, bottom) = (top.min(y), bottom.max(y));
    }
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{radius:.1}" fill="white" stroke="#8a8a8a" stroke-width="2"/>"##,
        left - radius,
        top - radius,
        right - left + 2.0 * radius,
        bottom - top + 2.0 * radius
    );
}

/// An arrow: a circle on the first cell, a line from its rim through the others, a head on the last.
fn arrow(out: &mut String, points: &[(f64, f64)]) {
    let (cx, cy) = points[0];
    let radius = CELL * 0.4;
    let _ = writeln!(
        out,
        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}" fill="white" stroke="#8a8a8a" stroke-width="2"/>"##
    );
    if points.len() < 2 {
        return;
    }
    let unit = |(ax, ay): (f64, f64), (bx, by): (f64, f64)| {
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1e-9);
        ((bx - ax) / len, (by - ay) / len)
    };
    let (dx, dy) = unit(points[0], points[1]);
    let mut shaft = vec![(cx + dx * radius, cy + dy * radius)];
    shaft.extend_from_slice(&points[1..]);
    polyline(out, &shaft, "#8a8a8a", 2.0, "");
    let (tx, ty) = points[points.len() - 1];
    let (ux, uy) = unit(points[points.len() - 2], (tx, ty));
    let back = CELL * 0.22;
    let head = [
        (
            tx - ux * back - uy * back * 0.7,
            ty - uy * back + ux * back * 0.7,
        ),
        (tx, ty),
        (
            tx - ux * back + uy * back * 0.7,
            ty - uy * back - ux * back * 0.7,
        ),
    ];
    polyline(out, &head, "#8a8a8a", 2.0, "");
}

/// A sum along a line: a small arrow from outside the grid into its first cell with the clue at its tail
/// (little killer), or, for a line that starts inside the grid, a thin line with the clue in the first
/// cell's corner.
fn line_sum(out: &mut String, f: &Figure, page: &Page, line: &Line, points: &[(f64, f64)]) {
    let clue = line.clue.map(|k| k.to_string()).unwrap_or_default();
    let (first, next) = match line.cells.as_slice() {
        [a, b, ..] => (*a, *b),
        [a] => (*a, *a),
        [] => return,
    };
    let dr = next.row as isize - first.row as isize;
    let dc = next.col as isize - first.col as isize;
    let n = f.size as isize;
    let (br, bc) = (first.row as isize - dr, first.col as isize - dc);
    let from_outside = (dr, dc) != (0, 0) && (!(0..n).contains(&br) || !(0..n).contains(&bc));
    if !from_outside {
        polyline(out, points, "#a0a0a0", 1.5, r#" stroke-dasharray="3 3""#);
        let (x, y) = page.corner(first);
        text(
            out,
            x + 3.0,
            y + CELL * 0.26,
            CELL * 0.24,
            "black",
            "start",
            &clue,
        );
        return;
    }
    let (cx, cy) = page.centre(first);
    let (ux, uy) = (dc as f64, dr as f64);
    let tail = (cx - ux * CELL * 0.78, cy - uy * CELL * 0.78);
    let tip = (cx - ux * CELL * 0.55, cy - uy * CELL * 0.55);
    let start = (cx - ux * CELL * 0.68, cy - uy * CELL * 0.68);
    polyline(out, &[start, tip], "black", 1.2, "");
    let back = CELL * 0.07;
    let head = [
        (tip.0 - ux * back - uy * back, tip.1 - uy * back + ux * back),
        tip,
        (tip.0 - ux * back + uy * back, tip.1 - uy * back - ux * back),
    ];
    polyline(out, &head, "black", 1.2, "");
    // The clue stands straight out from the tail, away from the side the line enters by, not further along
    // the diagonal: a line entering down-left beside one entering down-right has its clue over the same
    // margin cell, and along the diagonals the two numbers ran together ("4425" for 44 and 25).
    let size = CELL * 0.26;
    if !(0..n).contains(&br) {
        let away = if br < 0 { -1.0 } else { 1.0 };
        centred(
            out,
            (tail.0, tail.1 + away * size * 0.75),
            size,
            "black",
            &clue,
        );
    } else {
        let (away, anchor) = if bc < 0 {
            (-1.0, "end")
        } else {
            (1.0, "start")
        };
        let (x, y) = (tail.0 + away * size * 0.15, tail.1 + size * 0.36);
        text(out, x, y, size, "black", anchor, &clue);
    }
}

/// Thin lines between all cells, the diagonals, thick box walls, region walls (thick, or dashed cage
/// outlines when there are boxes too), and the frame.
fn grid_lines(out: &mut String, f: &Figure) {
    let n = f.size;
    let full = n as f64 * CELL;
    let mut thin = String::new();
    for k in 1..n {
        let at = k as f64 * CELL;
        let _ = write!(thin, "M{at:.1} 0V{full:.1}M0 {at:.1}H{full:.1}");
    }
    let _ = writeln!(
        out,
        r##"<path d="{thin}" stroke="#9a9a9a" stroke-width="1" fill="none"/>"##
    );
    for (drawn, d) in [
        (f.main_diagonal, format!("M0 0L{full:.1} {full:.1}")),
        (f.anti_diagonal, format!("M{full:.1} 0L0 {full:.1}")),
    ] {
        if drawn {
            let _ = writeln!(
                out,
                r##"<path d="{d}" stroke="#7fa7d9" stroke-width="1.5" fill="none"/>"##
            );
        }
    }
    let walls_of = |wall: &dyn Fn(Cell, Cell) -> bool| {
        let mut d = String::new();
        for r in 0..n {
            for c in 0..n {
                let (x, y) = (c as f64 * CELL, r as f64 * CELL);
                if c + 1 < n && wall(Cell::new(r, c), Cell::new(r, c + 1)) {
                    let _ = write!(d, "M{:.1} {y:.1}V{:.1}", x + CELL, y + CELL);
                }
                if r + 1 < n && wall(Cell::new(r, c), Cell::new(r + 1, c)) {
                    let _ = write!(d, "M{x:.1} {:.1}H{:.1}", y + CELL, x + CELL);
                }
            }
        }
        d
    };
    let thick = |out: &mut String, d: &str| {
        let _ = writeln!(
            out,
            r#"<path d="{d}" stroke="black" stroke-width="3" stroke-linecap="square" fill="none"/>"#
        );
    };
    if f.boxes.is_some() {
        thick(out, &walls_of(&|a, b| f.box_wall(a, b)));
    }
    if f.regions.is_some() {
        if f.boxes.is_some() {
            let _ = writeln!(
                out,
                r#"<path d="{}" stroke="black" stroke-width="1.2" stroke-dasharray="4 3" fill="none"/>"#,
                cage_outlines(f.size as isize, |r, c| {
                    let regions = f.regions.as_ref()?;
                    Some(regions[(r * f.size as isize + c) as usize])
                })
            );
        } else {
            thick(out, &walls_of(&|a, b| f.region_wall(a, b)));
        }
    }
    let _ = writeln!(
        out,
        r#"<rect width="{full:.1}" height="{full:.1}" stroke="black" stroke-width="3" fill="none"/>"#
    );
}

/// Dashed outlines just inside each region, as killer cages are printed: each side of a cell that faces
/// another region (or the frame) is drawn INSET inside the cell; at each end the segment stops short of a
/// wall across it, meets its neighbour's segment, or reaches over into the neighbour at an inner corner.
/// `region` gives a cell's region (on the grid), `None` for a cell in none, which gets no outline.
fn cage_outlines(n: isize, region: impl Fn(isize, isize) -> Option<usize>) -> String {
    let inside = |r: isize, c: isize| (0..n).contains(&r) && (0..n).contains(&c);
    let id = |r: isize, c: isize| -> Option<usize> {
        if inside(r, c) {
            region(r, c)
        } else {
            None
        }
    };
    // A wall on the side (dr, dc) of cell (r, c).
    let wall = |r: isize, c: isize, dr: isize, dc: isize| id(r, c) != id(r + dr, c + dc);
    let mut d = String::new();
    for r in 0..n {
        for c in 0..n {
            if id(r, c).is_none() {
                continue;
            }
            for (dr, dc) in [(-1, 0), (0, 1), (1, 0), (0, -1)] {
                if !wall(r, c, dr, dc) {
                    continue;
                }
                // Along the side: the two perpendicular directions (pr, pc) and -(pr, pc).
                let (pr, pc) = (dc, dr);
                let ends: Vec<f64> = [1isize, -1]
                    .iter()
                    .map(|&s| {
                        if wall(r, c, s * pr, s * pc) {
                            -INSET
                        } else if wall(r + s * pr, c + s * pc, dr, dc) {
                            0.0
                        } else {
                            INSET
                        }
                    })
                    .collect();
                let (cx, cy) = ((c as f64 + 0.5) * CELL, (r as f64 + 0.5) * CELL);
                let half = CELL / 2.0;
                // The side's line, inset towards the centre.
                let (lx, ly) = (
                    cx + dc as f64 * (half - INSET),
                    cy + dr as f64 * (half - INSET),
                );
                let a = (
                    lx + pc as f64 * (half + ends[0]),
                    ly + pr as f64 * (half + ends[0]),
                );
                let b = (
                    lx - pc as f64 * (half + ends[1]),
                    ly - pr as f64 * (half + ends[1]),
                );
                let _ = write!(d, "M{:.1} {:.1}L{:.1} {:.1}", a.0, a.1, b.0, b.1);
            }
        }
    }
    d
}

/// A hint as printed: the operator as its sign (`24×`, `3÷`, `2−`).
fn printed(hint: &str) -> String {
    hint.replace('x', "×").replace('/', "÷").replace('-', "−")
}

/// Each region's hint, small, in its first cell's corner, on white so a dashed outline stops around it.
fn hints(out: &mut String, f: &Figure, page: &Page) {
    let size = CELL * 0.24;
    for (cell, hint) in &f.hints {
        let (x, y) = page.corner(*cell);
        let s = printed(hint);
        if f.boxes.is_some() && (f.regions.is_some() || f.has_cages()) {
            let width = s.chars().count() as f64 * size * 0.62 + 2.0;
            let _ = writeln!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{width:.1}" height="{:.1}" fill="white"/>"#,
                x + 2.0,
                y + 2.0,
                size + 1.0
            );
        }
        text(
            out,
            x + 3.0,
            y + 2.0 + size * 0.85,
            size,
            "black",
            "start",
            &s,
        );
    }
}

/// The middle of the edge between two neighbours, and whether they are side by side.
fn edge_between(a: Cell, b: Cell) -> Option<((f64, f64), bool)> {
    let (first, second) = (a.min(b), a.max(b));
    let (x, y) = (second.col as f64 * CELL, second.row as f64 * CELL);
    if first.row == second.row && first.col + 1 == second.col {
        Some(((x, y + CELL / 2.0), true))
    } else if first.col == second.col && first.row + 1 == second.row {
        Some(((x + CELL / 2.0, y), false))
    } else {
        None
    }
}

/// Inequality chevrons pointing at the smaller value; dots, X, V and numbers on marked pairs.
fn signs(out: &mut String, f: &Figure, _page: &Page) {
    for &(small, big) in &f.less {
        let Some(((x, y), beside)) = edge_between(small, big) else {
            continue;
        };
        // Towards the smaller cell: -1 when it is the first (left or above).
        let s = if (small.row, small.col) < (big.row, big.col) {
            -1.0
        } else {
            1.0
        };
        let (w, h) = (CELL * 0.1, CELL * 0.14);
        let pts = if beside {
            [(x - s * w, y - h), (x + s * w, y), (x - s * w, y + h)]
        } else {
            [(x - h, y - s * w), (x, y + s * w), (x + h, y - s * w)]
        };
        polyline(out, &pts, "black", 2.2, "");
    }
    // Glyphs sharing a border (a dot and a V on one pair) stand side by side along it.
    let border = |a: Cell, b: Cell| (a.min(b), a.max(b));
    let mut sharing: BTreeMap<_, (usize, usize)> = BTreeMap::new();
    for (a, b, _) in &f.pairs {
        sharing.entry(border(*a, *b)).or_default().1 += 1;
    }
    for (a, b, glyph) in &f.pairs {
        let Some(((x, y), beside)) = edge_between(*a, *b) else {
            continue;
        };
        let (place, count) = sharing.get_mut(&border(*a, *b)).expect("counted");
        let shift = (*place as f64 - (*count as f64 - 1.0) / 2.0) * CELL * 0.3;
        *place += 1;
        let (x, y) = if beside {
            (x, y + shift)
        } else {
            (x + shift, y)
        };
        let r = CELL * 0.12;
        let dot = |out: &mut String, fill: &str| {
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="black" stroke-width="1.5"/>"#
            );
        };
        match glyph {
            PairGlyph::White(k) => {
                dot(out, "white");
                if let Some(k) = k {
                    centred(out, (x, y), r * 1.3, "black", &k.to_string());
                }
            }
            PairGlyph::Black(k) => {
                dot(out, "black");
                if let Some(k) = k {
                    centred(out, (x, y), r * 1.3, "white", &k.to_string());
                }
            }
            other => {
                let s = super::glyph_text(other, false);
                let size = CELL * 0.34;
                let _ = writeln!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="white"/>"#,
                    size * 0.5
                );
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.1}" y="{:.1}" font-size="{size:.1}" font-weight="bold" text-anchor="middle">{}</text>"#,
                    y + size * 0.36,
                    escape(&s)
                );
            }
        }
    }
}

/// Outside clues beyond the frame, centred on their row or column; a side's rows of clues a cell apart, the
/// first nearest the grid.
fn edges(out: &mut String, f: &Figure) {
    let full = f.size as f64 * CELL;
    for (side, rows) in &f.edges {
        for (k, row) in rows.iter().enumerate() {
            let away = CELL * (0.45 + k as f64);
            for (i, clue) in row.clues.iter().enumerate() {
                let Some(text) = clue else { continue };
                let mid = (i as f64 + 0.5) * CELL;
                let at = match side {
                    Side::Top => (mid, -away),
                    Side::Bottom => (mid, full + away),
                    Side::Left => (-away, mid),
                    Side::Right => (full + away, mid),
                };
                // Past two characters (a set of values, `135`; a sum past 99) smaller, to stay beside its cell.
                let chars = text.chars().count();
                let size = if chars <= 2 {
                    CELL * 0.42
                } else {
                    CELL / chars as f64
                };
                centred(out, at, size, "black", text);
            }
        }
    }
}

fn digits(out: &mut String, f: &Figure, page: &Page, values: &Values) {
    let n = f.size;
    // Smaller inside dashed cage outlines, and for two-digit values.
    let caged = (f.regions.is_some() || f.has_cages()) && f.boxes.is_some();
    let size = CELL * if n > 9 || caged { 0.5 } else { 0.6 };
    for r in 0..n {
        for c in 0..n {
            let cell = Cell::new(r, c);
            if let Some((v, paint)) = values.at(cell) {
                let fill = if paint == Paint::Solved {
                    SOLVED
                } else {
                    "black"
                };
                centred(out, page.centre(cell), size, fill, &v.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// A white dot and a V on one pair stand apart along the border they share; a V alone sits on its middle.
    #[test]
    fn glyphs_on_one_border_stand_side_by_side() {
        let (a, b) = (Cell::new(0, 0), Cell::new(0, 1));
        let mut f = Figure::new(4);
        f.pairs.push((a, b, PairGlyph::White(None)));
        f.pairs.push((a, b, PairGlyph::Sum(5)));
        f.pairs
            .push((Cell::new(2, 0), Cell::new(3, 0), PairGlyph::Sum(5)));
        let givens = Grid::empty(4);
        let svg = render(
            &f,
            &Values {
                givens: &givens,
                solution: None,
            },
        );
        // Every small circle's centre: the dot's, the Vs' white backgrounds.
        let centres: Vec<(String, String)> = svg
            .lines()
            .filter(|l| l.starts_with("<circle"))
            .map(|l| {
                let field = |name: &str| {
                    let from = l.find(&format!(" {name}=\"")).expect("a field") + name.len() + 3;
                    l[from..].split('"').next().unwrap().to_owned()
                };
                (field("cx"), field("cy"))
            })
            .collect();
        assert_eq!(centres.len(), 3, "{svg}");
        // Both on the border x = 48 between r1c1 and r1c2, at different heights around its middle (24).
        assert_eq!(
            (centres[0].0.as_str(), centres[1].0.as_str()),
            ("48.0", "48.0")
        );
        let ys: Vec<f64> = centres[..2].iter().map(|c| c.1.parse().unwrap()).collect();
        assert!(
            (ys[0] - ys[1]).abs() > 10.0 && (ys[0] + ys[1]) / 2.0 == 24.0,
            "{ys:?}"
        );
        assert_eq!(centres[2], ("24.0".to_owned(), "144.0".to_owned()));
    }

    /// Two rows of edge clues on a side are named under the picture, which grows to hold the line; one row on
    /// each side needs no note.
    #[test]
    fn a_side_with_two_rows_of_clues_says_whose_is_whose() {
        use crate::model::figure::{EdgeRow, Side};
        let row = |section: &str| EdgeRow {
            section: section.into(),
            clues: vec![None, Some("9".into()), None, None],
        };
        let givens = Grid::empty(4);
        let values = Values {
            givens: &givens,
            solution: None,
        };
        let size = |svg: &str, what: &str| -> f64 {
            let from = svg.find(&format!(" {what}=\"")).unwrap() + what.len() + 3;
            svg[from..].split('"').next().unwrap().parse().unwrap()
        };
        let taller = |svg: &str| size(svg, "height") - size(svg, "width");
        let mut f = Figure::new(4);
        f.edges.insert(Side::Right, vec![row("right")]);
        f.edges.insert(Side::Left, vec![row("left")]);
        let one = render(&f, &values);
        assert!(!one.contains("nearest first"), "{one}");
        f.edges
            .insert(Side::Right, vec![row("right"), row("x-sums-right")]);
        let two = render(&f, &values);
        assert!(
            two.contains(">right: right, x-sums-right, nearest first</text>"),
            "{two}"
        );
        assert_eq!(taller(&one), 0.0, "{one}");
        assert!(taller(&two) > CELL * 0.3, "{two}");
    }
}
