//! What a picture of a puzzle shows: walls, hints, signs, dots, lines and outside clues, read from the
//! sections of its file by their kind and by the primitive that reads them.
//!
//! The renderers in `report::picture` draw a [`Figure`] and know nothing of puzzle types, so a new grammar
//! draws with no Rust code: a regions section is walls (its clues are corner numbers), relations are `<`
//! signs, edge sections are numbers outside the frame on the side their primitive binds them to, marks are
//! shaded squares, circles or letters, pairs are dots or letters by the relation of their tag, and lines take
//! the look their primitive declares ([`Look`]).

use std::collections::BTreeMap;

use crate::grammar::sections::{Clue, SectionKind, SectionValue, Sections};
use crate::grammar::vocabulary::{self, LineStyle, Look};
use crate::grammar::{Grammar, RuleUse};
use crate::grid::Cell;
use crate::parse::cells::CellPair;
use crate::parse::clues::{pair_relation, PairRelation};
use crate::yaml::Value;

/// A side of the grid, for outside clues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// What sits on the edge between two neighbouring cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PairGlyph {
    /// A white dot; the difference when it is not 1.
    White(Option<u64>),
    /// A black dot; the ratio when it is not 2.
    Black(Option<u64>),
    /// A sum: X for 10, V for 5, else the number.
    Sum(u64),
    /// Any other relation, by a short text.
    Text(String),
}

impl PairGlyph {
    /// The glyph of a numbered pair of this look: its dot or sum with the pair's own number.
    fn numbered(&self, k: u32) -> PairGlyph {
        let k = u64::from(k);
        match self {
            PairGlyph::White(_) => PairGlyph::White((k != 1).then_some(k)),
            PairGlyph::Black(_) => PairGlyph::Black((k != 2).then_some(k)),
            PairGlyph::Sum(_) => PairGlyph::Sum(k),
            PairGlyph::Text(t) if t.starts_with('≥') => PairGlyph::Text(format!("≥{k}")),
            PairGlyph::Text(t) => PairGlyph::Text(t.clone()),
        }
    }
}

/// How a marked cell looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MarkGlyph {
    /// A shaded square (even; a mark meaning `any`, such as a fortress's grey cell).
    Square,
    /// A circle (odd).
    Circle,
    /// The mark as written in the file.
    Text(String),
}

/// A line of cells drawn in a style, with its clue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) cells: Vec<Cell>,
    pub(crate) clue: Option<u64>,
    /// The clue's operator, when it has one (a Mathrax point's `4+`).
    pub(crate) op: Option<crate::parse::clues::Op>,
    /// A list of values after `=` (a quadruple's), empty when the line has none.
    pub(crate) values: Vec<u32>,
    /// A mark after `=` (a Mathrax circle's `E`), shown in place of the values it allows.
    pub(crate) mark: Option<String>,
    pub(crate) style: Option<LineStyle>,
}

/// Everything a picture of the puzzle shows besides the digits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Figure {
    pub(crate) size: usize,
    /// The box shape, when the type has boxes.
    pub(crate) boxes: Option<(usize, usize)>,
    /// The region of every cell, row by row, from the type's first regions section (cages, rooms, ...).
    pub(crate) regions: Option<Vec<usize>>,
    /// The main diagonal (top-left to bottom-right) is a region.
    pub(crate) main_diagonal: bool,
    /// The anti-diagonal (bottom-left to top-right) is a region.
    pub(crate) anti_diagonal: bool,
    /// Text in a cell's top-left corner: each region's clue, in the region's first cell.
    pub(crate) hints: Vec<(Cell, String)>,
    /// `a < b` between neighbours (other pairs are not drawn as signs).
    pub(crate) less: Vec<(Cell, Cell)>,
    pub(crate) pairs: Vec<(Cell, Cell, PairGlyph)>,
    /// Marked cells, with the mark as written (`E`).
    pub(crate) marks: Vec<(Cell, MarkGlyph, String)>,
    pub(crate) lines: Vec<Line>,
    /// Clues outside the frame: per side, a row of clues for each edge section there, nearest the grid first
    /// (a type made of types may have two on one side: `sandwich+x-sums`); in a row, the clue of each row or
    /// column of the grid (`None`: no clue).
    pub(crate) edges: BTreeMap<Side, Vec<EdgeRow>>,
    /// Named whole-grid rules beyond rows, columns and boxes (`diagonals`, `anti-knight`), in the order added:
    /// most have no drawing, so pictures say them in words.
    pub(crate) named: Vec<String>,
}

/// One edge section's clues on its side of the frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EdgeRow {
    /// The section, for a legend when a side has more than one.
    pub(crate) section: String,
    pub(crate) clues: Vec<Option<String>>,
}

impl EdgeRow {
    /// The widest clue, in characters.
    pub(crate) fn width(&self) -> usize {
        let chars = self.clues.iter().flatten().map(|k| k.chars().count());
        chars.max().unwrap_or(0)
    }
}

impl Line {
    /// The clue as written: `15`, `4+` with its operator, or a mark.
    pub(crate) fn clue_text(&self) -> Option<String> {
        crate::parse::cells::written_clue(self.clue, self.op, self.mark.as_deref())
    }
}

impl Figure {
    /// A bare grid of size n.
    pub(crate) fn new(n: usize) -> Figure {
        Figure {
            size: n,
            ..Figure::default()
        }
    }

    /// An edge section's clues as written: numbers, sets of values (`135`), or arrows (`↓`).
    fn add_edge(&mut self, side: Side, section: &str, value: &SectionValue) {
        let texts = match value {
            SectionValue::Edge(clues) => clues.iter().map(|c| c.map(|k| k.to_string())).collect(),
            SectionValue::EdgeSets(sets) => sets
                .iter()
                .map(|s| {
                    s.as_deref()
                        .map(|s| crate::parse::clues::set_text(s, self.size))
                })
                .collect(),
            SectionValue::EdgeArrows(arrows) => arrows
                .iter()
                .map(|a| a.map(|a| a.glyph().to_string()))
                .collect(),
            _ => return,
        };
        self.edges.entry(side).or_default().push(EdgeRow {
            section: section.to_owned(),
            clues: texts,
        });
    }

    /// Adds what the grammar's sections show, read from a puzzle file's parsed sections.
    pub(crate) fn add_sections(&mut self, grammar: &Grammar, parsed: &Sections) {
        let looks = looks(grammar);
        let mut first_regions = true;
        for (name, spec) in &grammar.sections {
            let Some(value) = parsed.get(name) else {
                continue;
            };
            match (spec.kind, value) {
                (SectionKind::Regions, SectionValue::Regions(r)) if first_regions => {
                    first_regions = false;
                    self.regions = Some(r.indices());
                }
                (SectionKind::Clues, SectionValue::Clues(c)) => {
                    let of = spec.of.as_deref().unwrap_or_default();
                    if let Some(SectionValue::Regions(r)) = parsed.get(of) {
                        for (id, clue) in &c.entries {
                            self.hints.push((r.cells[id][0], clue_text(clue)));
                        }
                    }
                }
                (SectionKind::Relations, SectionValue::Relations(pairs)) => {
                    self.less.extend(pairs.iter().copied());
                }
                (SectionKind::Pairs, SectionValue::Pairs(pairs)) => {
                    let glyph = looks
                        .pairs
                        .get(name)
                        .cloned()
                        .unwrap_or(PairGlyph::White(None));
                    // A mark goes on the border between neighbours; cells apart are joined across the grid.
                    let (near, apart): (Vec<&CellPair>, Vec<&CellPair>) =
                        pairs.iter().partition(|p| p.a.is_orthogonal_neighbour(p.b));
                    self.pairs.extend(near.iter().map(|p| {
                        let glyph = p.number.map_or(glyph.clone(), |k| glyph.numbered(k));
                        (p.a, p.b, glyph)
                    }));
                    self.lines.extend(apart.iter().map(|p| Line {
                        cells: vec![p.a, p.b],
                        style: Some(LineStyle::Apart),
                        ..Line::default()
                    }));
                }
                (SectionKind::Edge, _) => {
                    if let Some(&side) = looks.sides.get(name) {
                        self.add_edge(side, name, value);
                    }
                }
                (SectionKind::Marks, SectionValue::Marks(marks)) => {
                    self.marks.extend(
                        marks
                            .iter()
                            .map(|m| (m.cell, mark_glyph(&m.label, &m.token), m.token.clone())),
                    );
                }
                (SectionKind::Lines, SectionValue::Lines(lines))
                    if looks.circled.contains(name) =>
                {
                    for l in lines {
                        self.pairs.extend(
                            l.cells
                                .windows(2)
                                .map(|w| (w[0], w[1], PairGlyph::White(Some(l.clue.unwrap_or(0))))),
                        );
                    }
                }
                (SectionKind::Lines, SectionValue::Lines(lines)) => {
                    let style = looks.lines.get(name).copied();
                    // A cage's sum is printed as a region's hint is, in the corner of its top-left cell.
                    if style == Some(LineStyle::Cage) {
                        self.hints.extend(lines.iter().filter_map(|l| {
                            let first = l.cells.iter().min_by_key(|c| (c.row, c.col))?;
                            Some((*first, l.clue?.to_string()))
                        }));
                    }
                    self.lines.extend(lines.iter().map(|l| Line {
                        cells: l.cells.clone(),
                        clue: l.clue,
                        op: l.op,
                        // A mark is shown as written, not as the values it allows.
                        values: match l.mark {
                            Some(_) => Vec::new(),
                            None => l.values.clone(),
                        },
                        mark: l.mark.clone(),
                        style,
                    }));
                }
                _ => {}
            }
        }
        self.hints.sort();
    }

    /// Whether killer cages are drawn as lines of cells (where the setter put them), not as a region map.
    pub(crate) fn has_cages(&self) -> bool {
        self.lines.iter().any(|l| l.style == Some(LineStyle::Cage))
    }

    /// Whether two cells are in different boxes (false when there are no boxes).
    pub(crate) fn box_wall(&self, a: Cell, b: Cell) -> bool {
        self.boxes
            .is_some_and(|(h, w)| a.row / h != b.row / h || a.col / w != b.col / w)
    }

    /// Whether two cells are in different regions of the main regions section.
    pub(crate) fn region_wall(&self, a: Cell, b: Cell) -> bool {
        let n = self.size;
        self.regions
            .as_ref()
            .is_some_and(|ids| ids[a.row * n + a.col] != ids[b.row * n + b.col])
    }
}

/// A region clue as the setter wrote it: `15`, `24x`, `3/`.
fn clue_text(clue: &Clue) -> String {
    match clue {
        Clue::Integer(k) => k.to_string(),
        Clue::Arithmetic(a) => a.to_string(),
    }
}

fn mark_glyph(label: &str, token: &str) -> MarkGlyph {
    match label {
        // A mark meaning `any` says where a rule applies: shaded, as a fortress's grey cells are.
        "even" | "marked" => MarkGlyph::Square,
        "odd" => MarkGlyph::Circle,
        _ => MarkGlyph::Text(token.to_owned()),
    }
}

/// What the grammar's primitive uses say about drawing their sections.
#[derive(Default)]
struct Looks {
    lines: BTreeMap<String, LineStyle>,
    /// Lines sections drawn as a circled clue between each cell and the next ([`Look::CircledClues`]).
    circled: Vec<String>,
    pairs: BTreeMap<String, PairGlyph>,
    sides: BTreeMap<String, Side>,
}

fn looks(grammar: &Grammar) -> Looks {
    let mut out = Looks::default();
    for rule in &grammar.rules {
        let RuleUse::Primitive { primitive, args } = rule else {
            continue;
        };
        let look = vocabulary::spec(primitive).map_or(Look::ByKind, |s| s.look);
        for (key, value) in args {
            let Some(section) = value.as_str() else {
                continue;
            };
            let side = match key.as_str() {
                "top" => Some(Side::Top),
                "bottom" => Some(Side::Bottom),
                "left" => Some(Side::Left),
                "right" => Some(Side::Right),
                _ => None,
            };
            if let Some(side) = side {
                out.sides.insert(section.to_owned(), side);
            }
            match look {
                _ if key == "pills" => {
                    out.lines.insert(section.to_owned(), LineStyle::Pill);
                }
                Look::Line(style) if key == "lines" => {
                    out.lines.insert(section.to_owned(), style);
                }
                Look::LineOr(plain, flag, flagged) if key == "lines" => {
                    let on = args.get(flag).and_then(Value::as_bool) == Some(true);
                    out.lines
                        .insert(section.to_owned(), if on { flagged } else { plain });
                }
                Look::CircledClues if key == "lines" => out.circled.push(section.to_owned()),
                Look::WhiteDots if key == "pairs" => {
                    out.pairs.insert(section.to_owned(), PairGlyph::White(None));
                }
                _ => {}
            }
        }
        if let (Look::Tags, Some(Value::Mapping(tags))) = (look, args.get("tags")) {
            for (k, v) in tags {
                if let (Some(section), Some(phrase)) = (k.as_str(), v.as_str()) {
                    out.pairs.insert(section.to_owned(), tag_glyph(phrase));
                }
            }
        }
    }
    out
}

/// The glyph of a tag's relation, as kropki and XV puzzles print them.
fn tag_glyph(phrase: &str) -> PairGlyph {
    match pair_relation(phrase) {
        Ok(PairRelation::Difference(k)) => PairGlyph::White((k != 1).then_some(k.into())),
        Ok(PairRelation::Ratio(k)) => PairGlyph::Black((k != 2).then_some(k.into())),
        Ok(PairRelation::Sum(k)) => PairGlyph::Sum(k.into()),
        Ok(PairRelation::Less) => PairGlyph::Text("<".into()),
        Ok(PairRelation::Equal) => PairGlyph::Text("=".into()),
        Ok(PairRelation::Apart(k)) => PairGlyph::Text(format!("≥{k}")),
        Err(_) => PairGlyph::Text("?".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;
    use crate::model::load_str;

    fn figure(text: &str) -> Figure {
        load_str(text, &Registry::built_in())
            .unwrap()
            .figure()
            .clone()
    }

    #[test]
    fn kenken_cages_are_regions_with_hints_in_their_first_cell() {
        let f = figure("type: kenken\nsize: 2\ncages: |\n  AB\n  AB\nhints: {A: 3+, B: 2/}\n");
        assert_eq!(f.regions, Some(vec![0, 1, 0, 1]));
        assert_eq!(
            f.hints,
            vec![
                (Cell::new(0, 0), "3+".into()),
                (Cell::new(0, 1), "2/".into())
            ]
        );
        assert_eq!(f.boxes, None);
    }

    #[test]
    fn tags_become_dots_and_letters_by_relation() {
        assert_eq!(tag_glyph("difference 1"), PairGlyph::White(None));
        assert_eq!(tag_glyph("ratio 3"), PairGlyph::Black(Some(3)));
        assert_eq!(tag_glyph("sum 10"), PairGlyph::Sum(10));
        let f = figure("type: kropki\nsize: 4\nbox: 2x2\nblack: r1c1-r1c2\n");
        assert_eq!(
            f.pairs,
            vec![(Cell::new(0, 0), Cell::new(0, 1), PairGlyph::Black(None))]
        );
        assert_eq!(f.boxes, Some((2, 2)));
    }

    /// Named extra regions are shaded groups; pairs of cells apart are joined across the grid, neighbours get a
    /// mark on their border.
    #[test]
    fn extra_regions_are_shaded_and_far_pairs_joined() {
        let f = figure("type: sudoku\nsize: 9\nrules: [windoku, asterisk]\n");
        let shaded: Vec<usize> = f
            .lines
            .iter()
            .filter(|l| l.style == Some(LineStyle::Region))
            .map(|l| l.cells.len())
            .collect();
        assert_eq!(shaded, vec![9; 5]);
        let f = figure("type: clone\nsize: 4\nbox: 2x2\nclones: [r1c1-r4c4, r1c1-r2c2]\n");
        assert_eq!(f.lines.len(), 2);
        assert!(f.lines.iter().all(|l| l.style == Some(LineStyle::Apart)));
        assert!(f.pairs.is_empty());
    }

    #[test]
    fn edge_sections_stand_on_the_side_their_primitive_binds() {
        let f = figure("type: skyscrapers\nsize: 3\ntop: 1 2 2\nright: . . 3\n");
        let texts = |v: &[Option<&str>]| -> Vec<Option<String>> {
            v.iter().map(|t| t.map(str::to_owned)).collect()
        };
        assert_eq!(
            f.edges[&Side::Top][0].clues,
            texts(&[Some("1"), Some("2"), Some("2")])
        );
        assert_eq!(
            f.edges[&Side::Right][0].clues,
            texts(&[None, None, Some("3")])
        );
        assert!(!f.edges.contains_key(&Side::Left));
        // Two edge sections on one side, in a type made of types: a row each, in the grammar's order.
        let f = figure("type: sandwich+x-sums\nsize: 4\nleft: . 0 . .\nx-sums-left: . 9 . .\n");
        let names: Vec<&str> = f.edges[&Side::Left]
            .iter()
            .map(|r| r.section.as_str())
            .collect();
        assert_eq!(names, ["left", "x-sums-left"]);
    }

    #[test]
    fn lines_take_their_primitives_look() {
        let f = figure("type: thermo\nsize: 4\nbox: 2x2\nthermos:\n  - r1c1 r1c2 r2c2\n");
        assert_eq!(f.lines.len(), 1);
        assert_eq!(f.lines[0].style, Some(LineStyle::Thermo));
        assert_eq!(f.lines[0].cells[2], Cell::new(1, 1));
    }

    /// A section read under `pills` is drawn as pills, beside the arrows that read `lines`.
    #[test]
    fn pills_are_drawn_as_pills() {
        let f = figure("type: arrow\nsize: 9\narrows:\n  - r1c2 r2c3\npills:\n  - r1c1 r1c2\n");
        let styles: Vec<_> = f.lines.iter().map(|l| l.style).collect();
        assert_eq!(styles, vec![Some(LineStyle::Arrow), Some(LineStyle::Pill)]);
    }
}
