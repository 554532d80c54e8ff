//! The puzzle as a terminal picture: a framed grid in box-drawing characters (or ASCII), heavy walls between
//! regions, each region's hint in its first cell's corner, signs and dots on the edges between cells, outside
//! clues beyond the frame, and givens set apart from solved values.
//!
//! Everything drawn comes from the [`Figure`], so every grammar draws without code of its own. The picture is
//! built on a canvas of characters, each with a paint; colour is added only at the end, as ANSI codes.

use std::fmt::Write as _;

use super::{glyph_text, line_tags, Paint, Values};
use crate::grid::Cell;
use crate::model::figure::{EdgeRow, Figure, Line, Side};

/// How the text is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextStyle {
    /// ASCII only (`+`, `-`, `=`, `|`, `#`), for terminals without box drawing.
    pub(crate) ascii: bool,
    /// ANSI colour: givens bold, solved values blue, clues cyan.
    pub(crate) color: bool,
}

/// The weight of a wall: none, a thin line, a thick one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    None = 0,
    Light = 1,
    Heavy = 2,
}

/// Box-drawing junctions, indexed by the weights of the arms: up * 27 + right * 9 + down * 3 + left.
const JUNCTIONS: &str =
    " ╴╸╷┐┑╻┒┓╶─╾┌┬┭┎┰┱╺╼━┍┮┯┏┲┳╵┘┙│┤┥╽┧┪└┴┵├┼┽┟╁╅┕┶┷┝┾┿┢╆╈╹┚┛╿┦┩┃┨┫┖┸┹┞╀╃┠╂╉┗┺┻┡╄╇┣╊╋";

fn junction(ascii: bool, up: Weight, right: Weight, down: Weight, left: Weight) -> char {
    if !ascii {
        let k = up as usize * 27 + right as usize * 9 + down as usize * 3 + left as usize;
        return JUNCTIONS.chars().nth(k).unwrap_or('+');
    }
    let across = right.max(left);
    let along = up.max(down);
    match (across, along) {
        (Weight::None, Weight::None) => ' ',
        (w, Weight::None) => ascii_line(w, true),
        (Weight::None, w) => ascii_line(w, false),
        _ => '+',
    }
}

fn ascii_line(w: Weight, across: bool) -> char {
    match (w, across) {
        (Weight::None, _) => ' ',
        (Weight::Light, true) => '-',
        (Weight::Heavy, true) => '=',
        (Weight::Light, false) => '|',
        (Weight::Heavy, false) => '#',
    }
}

/// The wall between two cells (`None`: outside the grid, where the frame is heavy). With both regions and
/// boxes (killer), region walls are heavy, box walls thin, and cells of one region and one box are not
/// parted; with one of them, its walls are heavy and every other line thin.
fn weight(f: &Figure, a: Option<Cell>, b: Option<Cell>) -> Weight {
    let (Some(a), Some(b)) = (a, b) else {
        return Weight::Heavy;
    };
    let (region, boxed) = (f.region_wall(a, b), f.box_wall(a, b));
    match (f.regions.is_some(), f.boxes.is_some()) {
        (true, true) if region => Weight::Heavy,
        (true, true) if boxed => Weight::Light,
        (true, true) => Weight::None,
        (true, false) if region => Weight::Heavy,
        (false, true) if boxed => Weight::Heavy,
        _ => Weight::Light,
    }
}

/// A grid of characters with a paint each.
struct Canvas {
    cells: Vec<Vec<(char, Paint)>>,
}

impl Canvas {
    fn put(&mut self, y: usize, x: usize, ch: char, paint: Paint) {
        if let Some(slot) = self.cells.get_mut(y).and_then(|row| row.get_mut(x)) {
            *slot = (ch, paint);
        }
    }

    fn text(&mut self, y: usize, x: usize, s: &str, paint: Paint) {
        for (i, ch) in s.chars().enumerate() {
            self.put(y, x + i, ch, paint);
        }
    }

    fn finish(&self, color: bool) -> String {
        let mut out = String::new();
        for row in &self.cells {
            let mut line = String::new();
            let mut open = Paint::Plain;
            for &(ch, paint) in row {
                if color && paint != open {
                    if open != Paint::Plain {
                        line.push_str("\x1b[0m");
                    }
                    line.push_str(paint.ansi());
                    open = paint;
                }
                line.push(ch);
            }
            if color && open != Paint::Plain {
                line.push_str("\x1b[0m");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// The geometry of the picture: cell width and height inside the lines, and the margins for outside clues.
struct Frame {
    n: usize,
    width: usize,
    height: usize,
    left: usize,
    top: usize,
}

impl Frame {
    /// Column of the line left of grid column c (c = n: the right frame).
    fn x(&self, c: usize) -> usize {
        self.left + c * (self.width + 1)
    }

    /// Row of the line above grid row r (r = n: the bottom frame).
    fn y(&self, r: usize) -> usize {
        self.top + r * (self.height + 1)
    }

    /// The row of text holding a cell's value: its last.
    fn value_row(&self, r: usize) -> usize {
        self.y(r) + self.height
    }
}

/// Renders the puzzle: its givens, and the solution's other values when there is one.
pub(crate) fn render(f: &Figure, values: &Values, style: TextStyle) -> String {
    let n = f.size;
    let corners = corner_texts(f);
    let brackets = !style.color && values.solved_any();
    let slot = n.to_string().len() + if brackets { 2 } else { 0 };
    let widest_corner = corners.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let rows_on = |side: Side| f.edges.get(&side).map_or(&[][..], Vec::as_slice);
    // Beside the grid, each row of clues as wide as its widest and a space; above and below, a cell as wide as
    // the widest clue there.
    let clue_width = |side: Side| rows_on(side).iter().map(|r| r.width() + 1).sum::<usize>();
    let over = [Side::Top, Side::Bottom]
        .map(|side| rows_on(side).iter().map(EdgeRow::width).max().unwrap_or(0));
    let frame = Frame {
        n,
        width: (slot + 2).max(widest_corner).max(over[0]).max(over[1]),
        height: if widest_corner > 0 { 2 } else { 1 },
        left: clue_width(Side::Left),
        top: rows_on(Side::Top).len(),
    };
    let rows = frame.y(n) + 1 + rows_on(Side::Bottom).len();
    let cols = frame.x(n) + 1 + clue_width(Side::Right);
    let mut canvas = Canvas {
        cells: vec![vec![(' ', Paint::Plain); cols]; rows],
    };
    draw_lines(&mut canvas, f, &frame, style.ascii);
    for r in 0..n {
        for c in 0..n {
            let cell = Cell::new(r, c);
            canvas.text(
                frame.y(r) + 1,
                frame.x(c) + 1,
                &corners[r * n + c],
                Paint::Clue,
            );
            if let Some((v, paint)) = values.at(cell) {
                let shown = if brackets && paint == Paint::Given {
                    format!("[{v}]")
                } else {
                    v.to_string()
                };
                let pad = (frame.width - shown.len()) / 2;
                canvas.text(frame.value_row(r), frame.x(c) + 1 + pad, &shown, paint);
            }
        }
    }
    draw_signs(&mut canvas, f, &frame, style.ascii);
    draw_edges(&mut canvas, f, &frame, style.ascii);
    let mut out = canvas.finish(style.color);
    out.push_str(&legend(f));
    out
}

/// The grid lines and their junctions, weighted by [`weight`].
fn draw_lines(canvas: &mut Canvas, f: &Figure, frame: &Frame, ascii: bool) {
    let n = frame.n;
    let at = |r: usize, c: usize| (r < n && c < n).then(|| Cell::new(r, c));
    let above = |r: usize, c: usize| r.checked_sub(1).and_then(|r| at(r, c));
    let before = |r: usize, c: usize| c.checked_sub(1).and_then(|c| at(r, c));
    // The horizontal line above row r under column c, and the vertical line left of column c beside row r.
    let across = |r: usize, c: usize| weight(f, above(r, c), at(r, c));
    let down = |r: usize, c: usize| weight(f, before(r, c), at(r, c));
    for r in 0..=n {
        for c in 0..=n {
            let up = if r > 0 { down(r - 1, c) } else { Weight::None };
            let below = if r < n { down(r, c) } else { Weight::None };
            let left = if c > 0 {
                across(r, c - 1)
            } else {
                Weight::None
            };
            let right = if c < n { across(r, c) } else { Weight::None };
            canvas.put(
                frame.y(r),
                frame.x(c),
                junction(ascii, up, right, below, left),
                Paint::Plain,
            );
            if c < n {
                let ch = junction(ascii, Weight::None, right, Weight::None, right);
                for x in frame.x(c) + 1..frame.x(c + 1) {
                    canvas.put(frame.y(r), x, ch, Paint::Plain);
                }
            }
            if r < n {
                let ch = junction(ascii, below, Weight::None, below, Weight::None);
                for y in frame.y(r) + 1..frame.y(r + 1) {
                    canvas.put(y, frame.x(c), ch, Paint::Plain);
                }
            }
        }
    }
}

/// Where the sign between two neighbours goes, and whether they are side by side (else one above the other);
/// `None` when they do not share an edge.
fn between(frame: &Frame, a: Cell, b: Cell) -> Option<(usize, usize, bool)> {
    let (first, second) = (a.min(b), a.max(b));
    if first.row == second.row && first.col + 1 == second.col {
        Some((frame.value_row(first.row), frame.x(second.col), true))
    } else if first.col == second.col && first.row + 1 == second.row {
        Some((
            frame.y(second.row),
            frame.x(first.col) + 1 + frame.width / 2,
            false,
        ))
    } else {
        None
    }
}

/// Inequality signs pointing at the smaller value, and the dots or letters of marked pairs.
fn draw_signs(canvas: &mut Canvas, f: &Figure, frame: &Frame, ascii: bool) {
    for &(small, big) in &f.less {
        let Some((y, x, beside)) = between(frame, small, big) else {
            continue;
        };
        let small_first = (small.row, small.col) < (big.row, big.col);
        let sign = match (beside, small_first, ascii) {
            (true, true, _) => '<',
            (true, false, _) => '>',
            (false, true, false) => '∧',
            (false, false, false) => '∨',
            (false, true, true) => '^',
            (false, false, true) => 'v',
        };
        canvas.put(y, x, sign, Paint::Clue);
    }
    // Glyphs sharing a border (a dot and a V on one pair) are written together, in the figure's order.
    let mut borders: Vec<((Cell, Cell), String)> = Vec::new();
    for (a, b, glyph) in &f.pairs {
        let key = (*a.min(b), *a.max(b));
        match borders.iter_mut().find(|(k, _)| *k == key) {
            Some((_, text)) => text.push_str(&glyph_text(glyph, ascii)),
            None => borders.push((key, glyph_text(glyph, ascii))),
        }
    }
    for ((a, b), text) in borders {
        if let Some((y, x, beside)) = between(frame, a, b) {
            let start = if beside {
                x
            } else {
                x.saturating_sub(text.chars().count() / 2)
            };
            canvas.text(y, start, &text, Paint::Clue);
        }
    }
}

/// Outside clues: above and below their column, left and right of their row; a side's rows of clues one beyond
/// the other, the first nearest the grid. In ASCII an arrow (Rossini) is the character a puzzle file writes.
fn draw_edges(canvas: &mut Canvas, f: &Figure, frame: &Frame, ascii: bool) {
    let last_row = frame.y(frame.n) + 1;
    for (side, rows) in &f.edges {
        // How far out this row stands: rows of text above and below, columns beside.
        let mut out = 0;
        for (k, row) in rows.iter().enumerate() {
            for (i, clue) in row.clues.iter().enumerate() {
                let Some(text) = clue else { continue };
                let text = &match ascii {
                    true => crate::parse::clues::arrow_symbols(text),
                    false => text.clone(),
                };
                let len = text.chars().count();
                let centre = frame.x(i) + 1 + frame.width.saturating_sub(len) / 2;
                match side {
                    Side::Top => canvas.text(frame.top - 1 - k, centre, text, Paint::Clue),
                    Side::Bottom => canvas.text(last_row + k, centre, text, Paint::Clue),
                    Side::Left => canvas.text(
                        frame.value_row(i),
                        frame.left - 1 - out - len,
                        text,
                        Paint::Clue,
                    ),
                    Side::Right => canvas.text(
                        frame.value_row(i),
                        frame.x(frame.n) + 2 + out,
                        text,
                        Paint::Clue,
                    ),
                }
            }
            out += row.width() + 1;
        }
    }
}

/// The text in each cell's top-left corner: its region's hint, its mark, and the tags of the lines through it.
fn corner_texts(f: &Figure) -> Vec<String> {
    let n = f.size;
    let mut corners: Vec<Vec<String>> = vec![Vec::new(); n * n];
    for (cell, hint) in &f.hints {
        corners[cell.row * n + cell.col].push(hint.clone());
    }
    for (cell, _, token) in &f.marks {
        corners[cell.row * n + cell.col].push(token.clone());
    }
    let mut tags: Vec<Vec<String>> = vec![Vec::new(); n * n];
    for (cell, tag) in line_tags(f) {
        tags[cell.row * n + cell.col].push(tag);
    }
    for (parts, tags) in corners.iter_mut().zip(tags) {
        if !tags.is_empty() {
            parts.push(tags_shown(&tags));
        }
    }
    corners.into_iter().map(|parts| parts.join(" ")).collect()
}

/// The most line tags a cell's corner shows; past it, the first ones and how many more (`abc+7`). Every cell is
/// as wide as the widest corner, so a cell on thousands of lines once made a picture of tens of megabytes.
const MAX_TAGS: usize = 4;

/// A cell's line tags, run together (`aB`), at most [`MAX_TAGS`] of them.
fn tags_shown(tags: &[String]) -> String {
    match tags.len() > MAX_TAGS {
        true => format!(
            "{}+{}",
            tags[..MAX_TAGS - 1].concat(),
            tags.len() - (MAX_TAGS - 1)
        ),
        false => tags.concat(),
    }
}

/// Under the grid: the clue of each line that has one, by its tag (`a=15`), and each list of values
/// (`b=1,2,9`).
fn legend(f: &Figure) -> String {
    let mut out = String::new();
    let tagged = |what: &dyn Fn(&Line) -> Option<String>| -> Vec<String> {
        f.lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| what(l).map(|k| format!("{}={k}", super::tag(i))))
            .collect()
    };
    let clued = tagged(&|l| l.clue.filter(|_| l.op.is_none()).map(|k| k.to_string()));
    if !clued.is_empty() {
        let _ = writeln!(out, "line clues: {}", clued.join(" "));
    }
    // A clue with its operator, or a mark, is a circle's where the cells meet (Mathrax), not a sum along the
    // line.
    let circled = tagged(&|l| l.clue_text().filter(|_| l.op.is_some() || l.mark.is_some()));
    if !circled.is_empty() {
        let _ = writeln!(out, "circles: {}", circled.join(" "));
    }
    let listed = tagged(&|l| {
        let words: Vec<String> = l.values.iter().map(u32::to_string).collect();
        (!words.is_empty()).then(|| words.join(","))
    });
    if !listed.is_empty() {
        let _ = writeln!(out, "values held: {}", listed.join(" "));
    }
    // Named rules, and whose row of clues is which where a side has two.
    for note in super::notes(f) {
        let _ = writeln!(out, "{note}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::model::figure::PairGlyph;

    /// A cell on many lines shows the first tags and how many more, so the picture stays the grid's size.
    #[test]
    fn a_cell_on_many_lines_shows_a_few_tags_and_a_count() {
        let shown = |lines: usize| {
            let mut f = Figure::new(2);
            for _ in 0..lines {
                f.lines.push(Line {
                    cells: vec![Cell::new(0, 0), Cell::new(1, 1)],
                    ..Line::default()
                });
            }
            let givens = Grid::empty(2);
            let values = Values {
                givens: &givens,
                solution: None,
            };
            render(&f, &values, TextStyle::default())
        };
        assert!(shown(4).contains("abcd"), "{}", shown(4));
        let many = shown(5000);
        assert!(
            many.contains("abc+4997") && !many.contains("abcd"),
            "{many}"
        );
        assert!(many.len() < 2000, "{} bytes", many.len());
    }

    /// A white dot and a V on one pair are both written, on the border they share.
    #[test]
    fn glyphs_on_one_border_are_written_together() {
        let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
        let mut f = Figure::new(4);
        f.pairs.push((a, b, PairGlyph::White(None)));
        f.pairs.push((a, b, PairGlyph::Sum(5)));
        let givens = Grid::empty(4);
        let values = Values {
            givens: &givens,
            solution: None,
        };
        let shown = render(&f, &values, TextStyle::default());
        let border = shown.lines().nth(2).expect("the border under row 1");
        assert!(border.contains("○V"), "{shown}");
    }

    /// Two edge sections on one side (`sandwich+x-sums`) are two rows of clues, the first nearest the grid, and
    /// the legend says whose is which; a clue wider than a cell widens the cells, so none is lost.
    #[test]
    fn every_row_of_clues_on_a_side_is_drawn() {
        let row = |section: &str, clue: &str| EdgeRow {
            section: section.into(),
            clues: vec![None, Some(clue.into()), None, None],
        };
        let mut f = Figure::new(4);
        f.edges
            .insert(Side::Left, vec![row("left", "0"), row("x-sums-left", "9")]);
        f.edges
            .insert(Side::Top, vec![row("top", "12345"), row("x-sums-top", "7")]);
        let givens = Grid::empty(4);
        let values = Values {
            givens: &givens,
            solution: None,
        };
        let shown = render(&f, &values, TextStyle::default());
        let lines: Vec<&str> = shown.lines().collect();
        // Above the grid: the outer row, then the inner; row 2 of the grid: 9, then 0, then the frame.
        assert!(
            lines[0].contains('7') && lines[1].contains("12345"),
            "{shown}"
        );
        let second_row = lines
            .iter()
            .find(|l| l.contains('┃') && l.contains('0'))
            .unwrap();
        assert!(second_row.trim_start().starts_with("9 0 ┃"), "{shown}");
        assert!(
            shown.contains("left: left, x-sums-left, nearest first"),
            "{shown}"
        );
    }
}
