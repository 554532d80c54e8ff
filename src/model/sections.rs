//! Parsed puzzle-file sections, one variant per [`SectionKind`]: what the parsers hand to the primitive
//! builders.

use std::collections::BTreeMap;

use crate::error::Error;
use crate::grammar::{ClueKind, SectionKind, SectionSpec};
use crate::grid::Cell;
use crate::parse::clues::ArithmeticClue;
use crate::parse::{self, SectionText};
use crate::yaml::{self, Value};

/// A region map: the region id of every cell.
#[derive(Clone, Debug)]
pub struct Regions {
    /// Region ids in order of first appearance (row by row).
    pub order: Vec<String>,
    pub cells: BTreeMap<String, Vec<Cell>>,
    /// The id of every cell, row by row.
    pub ids: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clue {
    Integer(u64),
    Arithmetic(ArithmeticClue),
}

#[derive(Clone, Debug)]
pub struct Clues {
    pub entries: BTreeMap<String, Clue>,
}

#[derive(Clone, Debug)]
pub enum SectionValue {
    Regions(Regions),
    Clues(Clues),
    Relations(Vec<(Cell, Cell)>),
    Pairs(Vec<(Cell, Cell)>),
    Edge(Vec<Option<u64>>),
    /// Marked cells with the values each allows and the mark's name.
    Marks(Vec<(Cell, Vec<u32>, String)>),
}

pub type Sections = BTreeMap<String, SectionValue>;

/// The size a grid-shaped section fixes, if it is one.
pub fn grid_size(name: &str, kind: SectionKind, value: &Value) -> Result<Option<usize>, Error> {
    if matches!(kind, SectionKind::Regions | SectionKind::Marks) {
        let text = SectionText::from_value(name, value)?;
        return Ok(Some(parse::grid::tokenize(&text)?.size()));
    }
    Ok(None)
}

/// Parses one section of a puzzle file according to its spec.
pub fn parse_section(
    name: &str,
    spec: &SectionSpec,
    value: &Value,
    n: usize,
    parsed: &Sections,
) -> Result<SectionValue, Error> {
    match spec.kind {
        SectionKind::Regions => {
            let text = SectionText::from_value(name, value)?;
            let tokens = parse::grid::tokenize(&text)?;
            if tokens.size() != n {
                return Err(Error::section(
                    name,
                    format!(
                        "the map is {0}x{0} but the puzzle is {n}x{n}",
                        tokens.size()
                    ),
                ));
            }
            let mut regions = Regions {
                order: Vec::new(),
                cells: BTreeMap::new(),
                ids: Vec::new(),
            };
            for (r, row) in tokens.rows.iter().enumerate() {
                for (c, tok) in row.iter().enumerate() {
                    if matches!(tok.text.as_str(), "." | "_") {
                        return Err(text.error_at(
                            tok.line,
                            tok.column,
                            "every cell needs a region id",
                        ));
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
        SectionKind::Clues => {
            let Value::Mapping(map) = value else {
                return Err(Error::section(
                    name,
                    "expected a map from region id to clue, e.g. {A: 6, B: 15}",
                ));
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
                let text = yaml::scalar_text(v).ok_or_else(|| {
                    Error::section(label.clone(), "expected a clue, not a list or a map")
                })?;
                if !regions.cells.contains_key(&key) {
                    return Err(Error::section(
                        label,
                        format!("there is no region {key:?} in `{of}`"),
                    ));
                }
                let one = SectionText::single(&label, &text);
                let clue = match spec.clue {
                    ClueKind::Integer => Clue::Integer(parse::clues::integer(&one)?),
                    ClueKind::Arithmetic => Clue::Arithmetic(parse::clues::arithmetic(&one)?),
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
        SectionKind::Relations => Ok(SectionValue::Relations(parse::cells::relations(
            &SectionText::from_value(name, value)?,
            n,
        )?)),
        SectionKind::Pairs => Ok(SectionValue::Pairs(parse::cells::pairs(
            &SectionText::from_value(name, value)?,
            n,
            spec.adjacent,
        )?)),
        SectionKind::Edge => Ok(SectionValue::Edge(parse::clues::edge(
            &SectionText::from_value(name, value)?,
            n,
        )?)),
        SectionKind::Marks => {
            let text = SectionText::from_value(name, value)?;
            let tokens = parse::grid::tokenize(&text)?;
            if tokens.size() != n {
                return Err(Error::section(
                    name,
                    format!(
                        "the grid is {0}x{0} but the puzzle is {n}x{n}",
                        tokens.size()
                    ),
                ));
            }
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
                    marks.push((Cell::new(r, c), allowed, label));
                }
            }
            Ok(SectionValue::Marks(marks))
        }
    }
}
