//! Section kinds and their parsed values, side by side: how a section of a puzzle file is declared in a grammar
//! ([`SectionKind`], [`SectionSpec`]), and what it becomes once read ([`SectionValue`]).
//!
//! Keeping the two together means a new section kind is one enum variant, its parser call and its value here;
//! the rule bindings in `model::bind` read the values, and nothing in between needs to change.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::Error;
use crate::grid::Cell;
use crate::parse::cells::{CellLine, CellPair};
use crate::parse::clues::ArithmeticClue;
use crate::parse::{self, SectionText};
use crate::yaml::{self, Value};

/// How a section of a puzzle file is written and read.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SectionKind {
    /// A grid of region ids, one per cell (`ABBC` or `a a b c`).
    Regions,
    /// A map from region id to a clue (`{A: 6, B: 24x}`).
    Clues,
    /// Inequality chains between cells, one per line (`r1c1 < r1c2 > r2c2`).
    Relations,
    /// Pairs of cells, one per line (`r1c1-r1c2`).
    Pairs,
    /// One clue per row or column seen from one side of the grid (`. 3 3 . .`).
    Edge,
    /// A grid of marks such as `E`, `O` and `.`; the grammar says what each mark allows.
    Marks,
    /// Lines of cells, one per line (`r1c1 r2c2 r2c3`, `r1c2..r8c9 = 15`): each cell next to the one before,
    /// `..` a straight run, `= N` an optional clue.
    Lines,
}

/// How a clue's text is read.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ClueKind {
    /// A positive integer.
    #[default]
    Integer,
    /// A number with an optional operator: `11+`, `2-`, `24x`, `3/`, `5` (clues sections, and the clue after
    /// `=` in lines sections).
    Arithmetic,
    /// Edge sections: a sum of a line's values, 0 (a real clue) up to n(n+1)/2. Edge clues are otherwise
    /// counts, 1 to n, where 0 means no clue.
    Sum,
    /// Lines sections: a list of values after `=` (`r3c3 r3c4 r4c3 r4c4 = 1 2 9`), each 1 to n, no more than
    /// the entry has cells. Edge sections: a set of values a clue (`13 . 2`; `1,12` past 9).
    Values,
    /// Edge sections: an arrow a clue, `^ v < >` (`v . ^`; `v.^` run together), `.` for none (Rossini Sudoku).
    Arrows,
    /// Lines sections: one of the section's `marks:` after `=` (`r1c1 r1c2 r2c1 r2c2 = E`), meaning what it
    /// means in a marks grid.
    Marks,
}

/// A kind as a grammar file spells it (`regions`, `lines`), for messages to the grammar's author.
impl std::fmt::Display for SectionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SectionKind::Regions => "regions",
            SectionKind::Clues => "clues",
            SectionKind::Relations => "relations",
            SectionKind::Pairs => "pairs",
            SectionKind::Edge => "edge",
            SectionKind::Marks => "marks",
            SectionKind::Lines => "lines",
        })
    }
}

/// A clue kind as a grammar file spells it (`integer`, `arithmetic`).
impl std::fmt::Display for ClueKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ClueKind::Integer => "integer",
            ClueKind::Arithmetic => "arithmetic",
            ClueKind::Sum => "sum",
            ClueKind::Values => "values",
            ClueKind::Arrows => "arrows",
            ClueKind::Marks => "marks",
        })
    }
}

/// What a mark in a marks grid allows.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub(crate) enum MarkMeaning {
    /// `even`, `odd`, or `any` (a mark that says where a rule applies, not which values).
    Named(String),
    /// An explicit list of values.
    Values(Vec<u32>),
}

impl MarkMeaning {
    /// The values allowed in a grid of size n, and the name shown in messages.
    pub(crate) fn allowed(&self, n: usize) -> Result<(Vec<u32>, String), String> {
        let all = 1..=n as u32;
        match self {
            MarkMeaning::Named(s) if s == "even" => {
                Ok((all.filter(|v| v % 2 == 0).collect(), "even".into()))
            }
            MarkMeaning::Named(s) if s == "odd" => {
                Ok((all.filter(|v| v % 2 == 1).collect(), "odd".into()))
            }
            // Where the cell is, not what it holds, is what a rule reads (a fortress's grey cells).
            MarkMeaning::Named(s) if s == "any" => Ok((all.collect(), "marked".into())),
            MarkMeaning::Named(s) => Err(format!(
                "unknown mark meaning {s:?} (use even, odd, any or a list of values)"
            )),
            MarkMeaning::Values(vs) => Ok((vs.clone(), format!("one of {vs:?}"))),
        }
    }
}

/// One section a puzzle type reads.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SectionSpec {
    pub(crate) kind: SectionKind,
    /// A one-line description, for the person reading the grammar file and in the message about a missing
    /// section.
    #[serde(default)]
    pub(crate) description: String,
    /// The section may be left out.
    #[serde(default)]
    pub(crate) optional: bool,
    /// `clues`: the regions section whose ids the keys name.
    #[serde(default)]
    pub(crate) of: Option<String>,
    /// `clues`: how each clue is read (`integer`, `arithmetic`); `edge`: `sum` for sums instead of counts;
    /// `lines`: `values` for a list of values instead of a number, `arithmetic` for a number with its operator,
    /// `marks` for one of the section's marks.
    #[serde(default)]
    pub(crate) clue: ClueKind,
    /// `clues`: whether every region must have a clue (default true).
    #[serde(default = "yes")]
    pub(crate) every: bool,
    /// `pairs`: the two cells of each pair must share an edge; `lines`: each cell shares an edge with the one
    /// before (no diagonal steps).
    #[serde(default)]
    pub(crate) adjacent: bool,
    /// `lines`: every line is straight, one row, column or diagonal (little-killer diagonals); `generate`
    /// then draws the diagonals from edge to edge.
    #[serde(default)]
    pub(crate) straight: bool,
    /// `lines`: an entry's cells lie anywhere, in any order (a group of cells such as an extra region, not a
    /// path).
    #[serde(default)]
    pub(crate) anywhere: bool,
    /// `lines`: every entry is the four cells of a 2x2 block, in any order (a quadruple's); `generate` then
    /// draws such blocks.
    #[serde(default)]
    pub(crate) block: bool,
    /// `marks`, and `lines` with `clue: marks`: what each mark means (`{E: even, O: odd}`).
    #[serde(default)]
    pub(crate) marks: BTreeMap<String, MarkMeaning>,
}

fn yes() -> bool {
    true
}

impl SectionSpec {
    /// What a section of this spec holds and how it is written, for a puzzle file that leaves it out: the
    /// grammar's description of it, then its form with an example.
    pub(crate) fn what(&self) -> String {
        let of = self.of.as_deref().unwrap_or("its regions");
        let form = match self.kind {
            SectionKind::Regions => "a grid of region ids, one a cell".to_owned(),
            SectionKind::Clues => format!("a clue for each region of `{of}`: `{{A: 6, B: 15}}`"),
            SectionKind::Relations => {
                "chains of cells, one a line: `r1c1 < r1c2 > r2c2`".to_owned()
            }
            SectionKind::Pairs => "pairs of cells, one a line: `r1c1-r1c2`".to_owned(),
            SectionKind::Edge => {
                "a clue for each row or column from that side: `. 3 3 . .`".to_owned()
            }
            SectionKind::Marks => "a grid of marks, one a cell".to_owned(),
            SectionKind::Lines => "lines of cells, one a line: `r1c1 r2c2 r2c3`".to_owned(),
        };
        match self.description.trim() {
            "" => form,
            said => format!("{said}; {form}"),
        }
    }
}

/// A region map: the region id of every cell.
#[derive(Clone, Debug)]
pub(crate) struct Regions {
    /// Region ids in order of first appearance (row by row).
    pub(crate) order: Vec<String>,
    pub(crate) cells: BTreeMap<String, Vec<Cell>>,
    /// The id of every cell, row by row.
    pub(crate) ids: Vec<String>,
}

impl Regions {
    /// The region of every cell, row by row, as its place in `order`.
    pub(crate) fn indices(&self) -> Vec<usize> {
        let index: BTreeMap<&str, usize> = self
            .order
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        self.ids.iter().map(|id| index[id.as_str()]).collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clue {
    Integer(u64),
    Arithmetic(ArithmeticClue),
}

#[derive(Clone, Debug)]
pub(crate) struct Clues {
    pub(crate) entries: BTreeMap<String, Clue>,
}

/// A marked cell: the values it allows, the meaning's name (`even`, `one of [1, 2]`) and the mark as written.
#[derive(Clone, Debug)]
pub(crate) struct Mark {
    pub(crate) cell: Cell,
    pub(crate) allowed: Vec<u32>,
    pub(crate) label: String,
    pub(crate) token: String,
}

#[derive(Clone, Debug)]
pub(crate) enum SectionValue {
    Regions(Regions),
    Clues(Clues),
    Relations(Vec<(Cell, Cell)>),
    Pairs(Vec<CellPair>),
    Edge(Vec<Option<u64>>),
    /// Edge clues that are sets of values (`clue: values`).
    EdgeSets(Vec<Option<Vec<u32>>>),
    /// Edge clues that are arrows (`clue: arrows`).
    EdgeArrows(Vec<Option<parse::clues::Arrow>>),
    Marks(Vec<Mark>),
    Lines(Vec<CellLine>),
}

pub(crate) type Sections = BTreeMap<String, SectionValue>;

/// The size a grid-shaped section fixes, if it is one.
pub(crate) fn grid_size(
    name: &str,
    kind: SectionKind,
    value: &Value,
) -> Result<Option<usize>, Error> {
    if matches!(kind, SectionKind::Regions | SectionKind::Marks) {
        let text = SectionText::from_value(name, value)?;
        return Ok(Some(parse::grid::tokenize(&text)?.size()));
    }
    Ok(None)
}

/// Parses one section of a puzzle file according to its spec.
pub(crate) fn parse_section(
    name: &str,
    spec: &SectionSpec,
    value: &Value,
    n: usize,
    parsed: &Sections,
) -> Result<SectionValue, Error> {
    match spec.kind {
        SectionKind::Regions => regions(name, value, n),
        SectionKind::Clues => clues(name, spec, value, parsed),
        SectionKind::Relations => Ok(SectionValue::Relations(parse::cells::relations(
            &SectionText::from_value(name, value)?,
            n,
        )?)),
        SectionKind::Pairs => Ok(SectionValue::Pairs(parse::cells::pairs(
            &SectionText::from_value(name, value)?,
            n,
            spec.adjacent,
        )?)),
        SectionKind::Edge if spec.clue == ClueKind::Values => Ok(SectionValue::EdgeSets(
            parse::clues::edge_sets(&SectionText::from_value(name, value)?, n)?,
        )),
        SectionKind::Edge if spec.clue == ClueKind::Arrows => Ok(SectionValue::EdgeArrows(
            parse::clues::edge_arrows(&SectionText::from_value(name, value)?, n)?,
        )),
        SectionKind::Edge => Ok(SectionValue::Edge(parse::clues::edge(
            &SectionText::from_value(name, value)?,
            n,
            match spec.clue {
                ClueKind::Sum => parse::clues::EdgeClue::Sum,
                _ => parse::clues::EdgeClue::Count,
            },
        )?)),
        SectionKind::Marks => marks(name, spec, value, n),
        SectionKind::Lines => lines(name, spec, value, n),
    }
}

/// A lines section; a mark after `=` (a section with `clue: marks`) brings the values it allows.
fn lines(name: &str, spec: &SectionSpec, value: &Value, n: usize) -> Result<SectionValue, Error> {
    let marks: Vec<String> = match spec.clue {
        ClueKind::Marks => spec.marks.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let mut lines = parse::cells::lines(
        &SectionText::from_value(name, value)?,
        n,
        parse::cells::Shape {
            straight: spec.straight,
            adjacent: spec.adjacent,
            anywhere: spec.anywhere || spec.block,
            block: spec.block,
            values: spec.clue == ClueKind::Values,
            arithmetic: spec.clue == ClueKind::Arithmetic,
            marks: &marks,
        },
    )?;
    for line in &mut lines {
        if let Some(meaning) = line.mark.as_ref().and_then(|m| spec.marks.get(m)) {
            line.values = meaning.allowed(n).map_err(|m| Error::section(name, m))?.0;
        }
    }
    Ok(SectionValue::Lines(lines))
}

/// A grid-shaped section read into tokens, refused unless it is n x n; `what` names it in the message.
fn n_by_n(
    name: &str,
    value: &Value,
    n: usize,
    what: &str,
) -> Result<(SectionText, parse::grid::TokenGrid), Error> {
    let text = SectionText::from_value(name, value)?;
    let tokens = parse::grid::tokenize(&text)?;
    if tokens.size() != n {
        return Err(Error::section(
            name,
            format!(
                "the {what} is {0}x{0} but the puzzle is {n}x{n}",
                tokens.size()
            ),
        ));
    }
    Ok((text, tokens))
}

/// A region map: every cell names its region.
fn regions(name: &str, value: &Value, n: usize) -> Result<SectionValue, Error> {
    let (text, tokens) = n_by_n(name, value, n, "map")?;
    let mut regions = Regions {
        order: Vec::new(),
        cells: BTreeMap::new(),
        ids: Vec::new(),
    };
    for (r, row) in tokens.rows.iter().enumerate() {
        for (c, tok) in row.iter().enumerate() {
            if matches!(tok.text.as_str(), "." | "_") {
                return Err(text.error_at(tok.line, tok.column, "every cell needs a region id"));
            }
            let id = tok.text.clone();
            if !regions.cells.contains_key(&id) {
                regions.order.push(id.clone());
            }
            regions
                .cells
                .entry(id.clone())
                .or_default()
                .push(Cell::new(r, c));
            regions.ids.push(id);
        }
    }
    Ok(SectionValue::Regions(regions))
}

/// Clues keyed by the region ids of the section named in `of:`.
fn clues(
    name: &str,
    spec: &SectionSpec,
    value: &Value,
    parsed: &Sections,
) -> Result<SectionValue, Error> {
    let empty = yaml::Mapping::new();
    let map = match value {
        Value::Mapping(map) => map,
        // A clues section written with nothing after its key has no clues.
        Value::Null => &empty,
        _ => {
            return Err(Error::section(
                name,
                "expected a map from region id to clue, e.g. {A: 6, B: 15}",
            ))
        }
    };
    let of = spec.of.as_deref().unwrap_or_default();
    let Some(SectionValue::Regions(regions)) = parsed.get(of) else {
        return Err(Error::section(name, format!("needs the `{of}` section")));
    };
    let mut entries = BTreeMap::new();
    for (k, v) in map {
        let key = yaml::scalar_text(k)
            .ok_or_else(|| Error::section(name, "region ids must be plain text"))?;
        let label = format!("{name}.{key}");
        let text = yaml::scalar_text(v)
            .ok_or_else(|| Error::section(label.clone(), "expected a clue, not a list or a map"))?;
        if !regions.cells.contains_key(&key) {
            return Err(Error::section(
                label,
                format!("there is no region {key:?} in `{of}`"),
            ));
        }
        let one = SectionText::single(&label, &text);
        let clue = match spec.clue {
            ClueKind::Arithmetic => Clue::Arithmetic(parse::clues::arithmetic(&one)?),
            // A grammar declaring another kind on a clues section is refused when it is loaded.
            ClueKind::Integer
            | ClueKind::Sum
            | ClueKind::Values
            | ClueKind::Arrows
            | ClueKind::Marks => Clue::Integer(parse::clues::integer(&one)?),
        };
        entries.insert(key, clue);
    }
    if spec.every {
        if let Some(missing) = regions.order.iter().find(|id| !entries.contains_key(*id)) {
            let first = regions.cells[missing][0];
            return Err(Error::section(
                name,
                format!("region {missing:?} (at {first}) has no clue"),
            ));
        }
    }
    Ok(SectionValue::Clues(Clues { entries }))
}

/// A grid of marks, each read through the meanings the grammar gives.
fn marks(name: &str, spec: &SectionSpec, value: &Value, n: usize) -> Result<SectionValue, Error> {
    let (text, tokens) = n_by_n(name, value, n, "grid")?;
    let mut marks = Vec::new();
    for (r, row) in tokens.rows.iter().enumerate() {
        for (c, tok) in row.iter().enumerate() {
            if matches!(tok.text.as_str(), "." | "_" | "0") {
                continue;
            }
            let Some(meaning) = spec.marks.get(&tok.text) else {
                let known: Vec<&str> = spec.marks.keys().map(String::as_str).collect();
                return Err(text.error_at(
                    tok.line,
                    tok.column,
                    format!(
                        "unknown mark {:?} (use {} or .)",
                        tok.text,
                        known.join(", ")
                    ),
                ));
            };
            let (allowed, label) = meaning
                .allowed(n)
                .map_err(|m| text.error_at(tok.line, tok.column, m))?;
            marks.push(Mark {
                cell: Cell::new(r, c),
                allowed,
                label,
                token: tok.text.clone(),
            });
        }
    }
    Ok(SectionValue::Marks(marks))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind's name in a message is the name a grammar file reads back as that kind.
    #[test]
    fn kinds_display_as_a_grammar_file_spells_them() {
        use SectionKind as K;
        for kind in [
            K::Regions,
            K::Clues,
            K::Relations,
            K::Pairs,
            K::Edge,
            K::Marks,
            K::Lines,
        ] {
            assert_eq!(yaml::from_str::<K>(&kind.to_string()), Ok(kind));
        }
        use ClueKind as C;
        for clue in [
            C::Integer,
            C::Arithmetic,
            C::Sum,
            C::Values,
            C::Arrows,
            C::Marks,
        ] {
            assert_eq!(yaml::from_str::<C>(&clue.to_string()), Ok(clue));
        }
    }
}
