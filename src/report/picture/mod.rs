//! Pictures of a puzzle: as text for a terminal ([`text`]), as SVG ([`svg`]) and as PNG ([`png`]).
//!
//! All three draw a [`Figure`](crate::model::figure::Figure) (what the puzzle's sections show) with the
//! digits of [`Values`]; what they share (paints, glyph texts, line tags) is here.

pub(crate) mod png;
pub(crate) mod svg;
pub(crate) mod text;

use crate::grammar::vocabulary::LineStyle;
use crate::grid::{Cell, Grid};
use crate::model::figure::{Figure, PairGlyph};

/// What a piece of a picture is, for its colour or weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Paint {
    Plain,
    /// A value the puzzle gives.
    Given,
    /// A value the solver found.
    Solved,
    /// A hint, an outside clue, a sign or a dot.
    Clue,
}

impl Paint {
    /// The ANSI code that starts this paint.
    fn ansi(self) -> &'static str {
        match self {
            Paint::Plain => "",
            Paint::Given => "\x1b[1m",
            Paint::Solved => "\x1b[34m",
            Paint::Clue => "\x1b[36m",
        }
    }
}

/// The digits a picture shows: the givens, and the solution's other values when there is one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Values<'a> {
    pub(crate) givens: &'a Grid,
    pub(crate) solution: Option<&'a Grid>,
}

impl Values<'_> {
    /// The value shown in a cell and how, if any.
    pub(crate) fn at(&self, cell: Cell) -> Option<(u32, Paint)> {
        match (self.givens.get(cell), self.solution.map(|s| s.get(cell))) {
            (0, Some(v)) if v > 0 => Some((v, Paint::Solved)),
            (0, _) => None,
            (v, _) => Some((v, Paint::Given)),
        }
    }

    /// Whether any value shown is not a given.
    pub(crate) fn solved_any(&self) -> bool {
        let n = self.givens.size();
        (0..n * n).any(|k| matches!(self.at(Cell::new(k / n, k % n)), Some((_, Paint::Solved))))
    }
}

/// The short text of a pair's glyph: dots, X and V, or numbers.
pub(crate) fn glyph_text(glyph: &PairGlyph, ascii: bool) -> String {
    match glyph {
        PairGlyph::White(Some(k)) => numbered_dot(*k, false, ascii),
        PairGlyph::Black(Some(k)) => numbered_dot(*k, true, ascii),
        PairGlyph::White(None) => if ascii { "o" } else { "○" }.into(),
        PairGlyph::Black(None) => if ascii { "*" } else { "●" }.into(),
        PairGlyph::Sum(10) => "X".into(),
        PairGlyph::Sum(5) => "V".into(),
        PairGlyph::Sum(k) => k.to_string(),
        PairGlyph::Text(t) if ascii && !t.is_ascii() => "?".into(),
        PairGlyph::Text(t) => t.clone(),
    }
}

/// A numbered dot's text: its number in a white or black circle (`③`, `❸`), past the circled numbers Unicode
/// has (20 white, 10 black) or in ASCII the plain dot and the number (`○21`, `o3`, `*3`). A bare number would
/// read alike for a white dot's difference, a black dot's ratio and a sum.
fn numbered_dot(k: u64, black: bool, ascii: bool) -> String {
    // U+2460 CIRCLED DIGIT ONE .. U+2473 CIRCLED NUMBER TWENTY; U+2776 DINGBAT NEGATIVE CIRCLED DIGIT ONE ..
    // U+277F NEGATIVE CIRCLED NUMBER TEN.
    let (first, last) = if black { (0x2776, 10) } else { (0x2460, 20) };
    let circled = (1..=last)
        .contains(&k)
        .then(|| char::from_u32(first + k as u32 - 1))
        .flatten();
    match (circled, ascii, black) {
        (Some(c), false, _) => c.to_string(),
        (_, true, false) => format!("o{k}"),
        (_, true, true) => format!("*{k}"),
        (None, false, false) => format!("○{k}"),
        (None, false, true) => format!("●{k}"),
    }
}

/// The lines both pictures' legends say under the grid: the named rules beyond rows, columns and boxes
/// (`rules: diagonals, anti-knight`: most have no drawing, and a picture without them would look like another
/// puzzle); and for each side with two rows of edge clues or more (a type made of types), which section's row
/// is which, nearest the grid first (`top: sandwich, x-sums-top, nearest first`).
pub(crate) fn notes(f: &Figure) -> Vec<String> {
    let rules = (!f.named.is_empty()).then(|| format!("rules: {}", f.named.join(", ")));
    let edges = f
        .edges
        .iter()
        .filter(|(_, rows)| rows.len() > 1)
        .map(|(side, rows)| {
            let names: Vec<&str> = rows.iter().map(|r| r.section.as_str()).collect();
            let side = format!("{side:?}").to_lowercase();
            format!("{side}: {}, nearest first", names.join(", "))
        });
    rules.into_iter().chain(edges).collect()
}

/// The tag of the i-th line: `a` to `z`, then `aa`, `ab`, ...
pub(crate) fn tag(i: usize) -> String {
    let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
    if i < 26 {
        letter(i).to_string()
    } else {
        format!("{}{}", letter(i / 26 - 1), letter(i))
    }
}

/// Every cell of every line with its line's tag; the first cell of a thermometer or an arrow (the bulb, the
/// circle), both ends of a between line (its circles) and every cell of a pill have it in capitals.
pub(crate) fn line_tags(f: &Figure) -> Vec<(Cell, String)> {
    let mut out = Vec::new();
    for (i, line) in f.lines.iter().enumerate() {
        let last = line.cells.len().saturating_sub(1);
        let circled = |k: usize| match line.style {
            Some(LineStyle::Thermo | LineStyle::Arrow) => k == 0,
            Some(LineStyle::Between) => k == 0 || k == last,
            Some(LineStyle::Pill) => true,
            _ => false,
        };
        for (k, &cell) in line.cells.iter().enumerate() {
            let t = tag(i);
            out.push((cell, if circled(k) { t.to_uppercase() } else { t }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white dot's difference, a black dot's ratio and a sum of the same number never read alike, in
    /// box-drawing text or in ASCII, circled or not.
    #[test]
    fn numbered_dots_and_sums_read_apart() {
        let text = |g: PairGlyph| glyph_text(&g, false);
        assert_eq!(text(PairGlyph::White(Some(3))), "③");
        assert_eq!(text(PairGlyph::Black(Some(3))), "❸");
        assert_eq!(text(PairGlyph::White(Some(20))), "⑳");
        assert_eq!(text(PairGlyph::Black(Some(10))), "❿");
        assert_eq!(text(PairGlyph::White(Some(21))), "○21");
        assert_eq!(text(PairGlyph::Black(Some(11))), "●11");
        assert_eq!(glyph_text(&PairGlyph::White(Some(3)), true), "o3");
        assert_eq!(glyph_text(&PairGlyph::Black(Some(3)), true), "*3");
        for ascii in [false, true] {
            for k in [3, 11, 21] {
                let shown: std::collections::HashSet<String> = [
                    PairGlyph::White(Some(k)),
                    PairGlyph::Black(Some(k)),
                    PairGlyph::Sum(k),
                ]
                .iter()
                .map(|g| glyph_text(g, ascii))
                .collect();
                assert_eq!(shown.len(), 3, "{k}, ascii {ascii}: {shown:?}");
            }
        }
    }
}
