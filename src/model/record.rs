//! A puzzle's sections as a corpus record: the inverse of [`super::corpus`]'s reading, so a puzzle from any
//! form (a YAML file, an ID, a link) can be written in any other (`latin convert --to ...`).
//!
//! Sections go to record keys by kind and by the primitive they are bound to, never by type name: the first
//! regions section to `regions` with its clues to `clues`, relations to `less`, a pairs section bound to
//! `consecutive` to `consecutive` and any other to `pairs.NAME`, edge sections to `sky` (counts) or `edges`
//! (sums, `clue: sum`) by the side they are bound to, marks to `parity`, lines to `lines.NAME` with `line_clues`. Named
//! rules other than the grammar's own go to `rules`, where an encoder that cannot say them refuses.

use serde_json::{json, Map, Value as Json};

use super::load::{load_mapping, parse_sections, rule_names};
use crate::error::Error;
use crate::grammar::sections::{Clue, ClueKind, Clues, SectionKind, SectionSpec, SectionValue};
use crate::grammar::{Grammar, Registry, RuleUse};
use crate::grid::Cell;
use crate::import::{self, Format};
use crate::parse::cells::{CellLine, CellPair};
use crate::parse::clues::Op;
use crate::yaml::{Mapping, Value};

fn pair(a: Cell, b: Cell) -> Json {
    json!([a.row, a.col, b.row, b.col])
}

/// The primitive a section is bound to, and under which argument.
fn binding<'a>(grammar: &'a Grammar, section: &str) -> Option<(&'a str, &'a str)> {
    grammar.rules.iter().find_map(|rule| match rule {
        RuleUse::Primitive { primitive, args } => args.iter().find_map(|(arg, v)| {
            (v.as_str() == Some(section)).then_some((primitive.as_str(), arg.as_str()))
        }),
        RuleUse::Named(_) => None,
    })
}

/// The record a foreign form is written from: for f-puzzles, which says constraints rather than types, in the
/// schema's own keys (see [`super::fit::in_schema_terms`]).
pub(crate) fn record_for(map: &Mapping, registry: &Registry, form: Format) -> Result<Json, Error> {
    in_form(record_of(map, registry)?, registry, form)
}

/// [`record_for`] from the record made already ([`record_of`]): what a caller writing several forms makes once.
pub(crate) fn in_form(mut record: Json, registry: &Registry, form: Format) -> Result<Json, Error> {
    // SudokuPad is written as the f-puzzles payload it opens, Penpa+ as the drawing of its constraints.
    if matches!(form, Format::Fpuzzles | Format::Sudokupad | Format::Penpa) {
        let kind = record["type"].as_str().unwrap_or_default().to_owned();
        let fitted = super::fit::in_schema_terms(&mut record, &*registry.get(&kind)?);
        fitted.map_err(|e| match form {
            Format::Sudokupad => import::relabelled(e, form, import::SUDOKUPAD_WRITTEN),
            Format::Penpa => {
                import::relabelled(e, form, "written as the f-puzzles puzzle it draws: ")
            }
            _ => e,
        })?;
    }
    Ok(record)
}

/// The checked puzzle of a map of sections, as a record.
pub(crate) fn record_of(map: &Mapping, registry: &Registry) -> Result<Json, Error> {
    let puzzle = load_mapping(map, registry)?;
    let grammar = &*registry.get(puzzle.kind())?;
    let n = puzzle.size();
    let mut record = json!({"type": puzzle.kind(), "size": n});
    for key in crate::import::ATTRIBUTION {
        if let Some(Value::String(text)) = map.get(Value::String(key.into())) {
            record[key] = json!(text);
        }
    }
    let givens = puzzle.givens();
    if givens.cells().any(|c| givens.get(c) != 0) {
        record["givens"] = json!(givens.rows());
    }
    if let Some(solution) = puzzle.solution() {
        record["solution"] = json!(solution.rows());
    }
    let extra = match map.get(Value::String("rules".into())) {
        Some(v) => rule_names(v)?,
        None => Vec::new(),
    };
    let named =
        |name: &str| extra.iter().any(|r| r == name) || grammar.named_rules().any(|x| x == name);
    if named("boxes") {
        let (h, w) = puzzle.geometry().boxes;
        record["boxes"] = json!([h, w]);
    }
    if named("diagonals") {
        record["diagonals"] = json!(true);
    }
    let others: Vec<&String> = extra
        .iter()
        .filter(|r| !["boxes", "diagonals"].contains(&r.as_str()))
        .collect();
    if !others.is_empty() {
        record["rules"] = json!(others);
    }
    let parsed = parse_sections(map, grammar, n)?;
    let mut first_regions = true;
    for (name, value) in &parsed {
        section(&mut record, grammar, name, value, &mut first_regions)?;
    }
    Ok(record)
}

/// Writes one parsed section into the record, under the schema's key for its kind.
fn section(
    record: &mut Json,
    grammar: &Grammar,
    name: &str,
    value: &SectionValue,
    first_regions: &mut bool,
) -> Result<(), Error> {
    let n = record["size"].as_u64().unwrap_or(0) as usize;
    let unsupported = |what: &str| {
        Error::section(
            name.to_owned(),
            format!("a second {what} section has no place in a record"),
        )
    };
    match value {
        SectionValue::Regions(r) => {
            if !std::mem::take(first_regions) {
                return Err(unsupported("regions"));
            }
            let rows: Vec<&[String]> = r.ids.chunks(n).collect();
            record["regions"] = json!(rows);
        }
        SectionValue::Clues(c) => record["clues"] = clues(c),
        SectionValue::Relations(pairs) => {
            alone(
                grammar,
                name,
                "list of relations (`less`)",
                FOR_IT,
                |spec, _| spec.kind == SectionKind::Relations,
            )?;
            let list: Vec<Json> = pairs.iter().map(|&(a, b)| pair(a, b)).collect();
            record["less"] = json!(list);
        }
        SectionValue::Pairs(pairs) => tagged_pairs(record, grammar, name, pairs)?,
        SectionValue::Edge(clues) => {
            let (key, side, primitive) = edge_key(grammar, name)?;
            // A visibility clue is at least 1 (a count) or n (a sum), so there 0 says "no clue", where
            // elsewhere 0 is a clue and none is null.
            record[key][side] = if primitive == "visibility" {
                json!(clues.iter().map(|c| c.unwrap_or(0)).collect::<Vec<_>>())
            } else {
                json!(clues)
            };
        }
        SectionValue::EdgeSets(sets) => {
            let (key, side, _) = edge_key(grammar, name)?;
            record[key][side] = json!(sets);
        }
        SectionValue::EdgeArrows(arrows) => {
            let (key, side, _) = edge_key(grammar, name)?;
            let symbols = arrows.iter().map(|a| a.map(|a| a.symbol().to_string()));
            record[key][side] = json!(symbols.collect::<Vec<_>>());
        }
        SectionValue::Marks(marks) => {
            alone(grammar, name, "grid of marks", FOR_IT, |spec, _| {
                spec.kind == SectionKind::Marks
            })?;
            let mut grid = vec![vec![String::new(); n]; n];
            for m in marks {
                grid[m.cell.row][m.cell.col] = m.token.clone();
            }
            record["parity"] = json!(grid);
        }
        SectionValue::Lines(lines) => cell_lines(record, name, lines),
    }
    Ok(())
}

/// A clues section's entries by region id, as the schema writes them.
fn clues(c: &Clues) -> Json {
    let clues: Map<String, Json> = c
        .entries
        .iter()
        .map(|(id, clue)| {
            let text = match clue {
                Clue::Integer(k) => k.to_string(),
                Clue::Arithmetic(a) => match a.op {
                    // The schema writes a product `24*`, where a puzzle file says `24x`.
                    Some(Op::Mul) => format!("{}*", a.target),
                    _ => a.to_string(),
                },
            };
            (id.clone(), json!(text))
        })
        .collect();
    Json::Object(clues)
}

/// A pairs section: under `consecutive` (the schema's one list of consecutive marks) when the section is bound
/// to that primitive, otherwise under `pairs` by its name.
fn tagged_pairs(
    record: &mut Json,
    grammar: &Grammar,
    name: &str,
    pairs: &[CellPair],
) -> Result<(), Error> {
    // A numbered dot's number is the entry's fifth element.
    let list: Vec<Json> = pairs
        .iter()
        .map(|p| match p.number {
            Some(k) => json!([p.a.row, p.a.col, p.b.row, p.b.col, k]),
            None => pair(p.a, p.b),
        })
        .collect();
    let consecutive = |other: &str| matches!(binding(grammar, other), Some(("consecutive", _)));
    if consecutive(name) {
        alone(
            grammar,
            name,
            "list of consecutive marks",
            FOR_IT,
            |_, other| consecutive(other),
        )?;
        record["consecutive"] = json!(list);
    } else {
        record["pairs"][name] = json!(list);
    }
    Ok(())
}

/// A lines section's cells under `lines`, and its clues, if any, under `line_clues`.
fn cell_lines(record: &mut Json, name: &str, lines: &[CellLine]) {
    let cells: Vec<Vec<[usize; 2]>> = lines
        .iter()
        .map(|l| l.cells.iter().map(|c| [c.row, c.col]).collect())
        .collect();
    record["lines"][name] = json!(cells);
    // A clue with an operator (a Mathrax point's `4+`) or a mark (a circle's `E`) as its text, a number as a
    // number, a list of values as a list.
    if lines.iter().any(|l| l.op.is_some() || l.mark.is_some()) {
        record["line_clues"][name] =
            json!(lines.iter().map(CellLine::clue_text).collect::<Vec<_>>());
    } else if lines.iter().any(|l| l.clue.is_some()) {
        record["line_clues"][name] = json!(lines.iter().map(|l| l.clue).collect::<Vec<_>>());
    } else if lines.iter().any(|l| !l.values.is_empty()) {
        record["line_clues"][name] =
            json!(lines.iter().map(|l| l.values.clone()).collect::<Vec<_>>());
    }
}

/// Where [`alone`] says a type has two sections of a kind kept once.
const FOR_IT: &str = "sections for it";

/// A record keeps one `what` (a grid of marks, a list of relations, of consecutive marks, of one key's edge
/// clues a side): a type with two sections that would go there (fortress+evenodd, greater-than+minarism,
/// frame+sum-skyscrapers) would lose one, and is refused by name; `place` says where it has the two.
fn alone(
    grammar: &Grammar,
    name: &str,
    what: &str,
    place: &str,
    goes_there: impl Fn(&SectionSpec, &str) -> bool,
) -> Result<(), Error> {
    let other = grammar
        .sections
        .iter()
        .find(|(other, spec)| *other != name && goes_there(spec, other));
    match other {
        Some((other, _)) => Err(Error::section(
            name.to_owned(),
            format!(
                "a corpus record, which every form but YAML is written from, keeps one {what}, and type {} \
                 has two {place} (`{name}` and `{other}`): keep it as a YAML puzzle file",
                grammar.name
            ),
        )),
        None => Ok(()),
    }
}

/// Where the schema keeps an edge section's clues: its key for the primitive (counts under `sky`, sums and
/// Outside Sudoku's sets of values under `edges`, x-sums and battlefield clues under latin's own keys,
/// [`crate::import::OUTSIDE_KEYS`]), the side, and the primitive.
fn edge_key<'g>(
    grammar: &'g Grammar,
    name: &str,
) -> Result<(&'static str, &'g str, &'g str), Error> {
    let Some((primitive, side)) = binding(grammar, name) else {
        return Err(Error::section(
            name.to_owned(),
            "an edge section bound to no side",
        ));
    };
    let key = schema_edge_key(grammar, primitive, name);
    // Two edge sections kept under one key and side (frame+sum-skyscrapers: both sums, under `edges`) would
    // be one list in the record, read back as the first type's clues.
    let what = format!("list of `{key}` clues a side");
    alone(
        grammar,
        name,
        &what,
        &format!("on the {side}"),
        |spec, other| {
            spec.kind == SectionKind::Edge
                && binding(grammar, other)
                    .is_some_and(|(p, s)| s == side && schema_edge_key(grammar, p, other) == key)
        },
    )?;
    Ok((key, side, primitive))
}

/// The key an edge section of `primitive` is kept under: the primitive's own, or the schema's shared one.
fn schema_edge_key(grammar: &Grammar, primitive: &str, section: &str) -> &'static str {
    crate::import::own_edge_key(primitive).unwrap_or_else(|| shared_edge_key(grammar, section))
}

/// The schema's key for an edge section whose primitive has no key of its own: `edges` for sums and sets of
/// values, `sky` for the rest. The reader ([`super::corpus`]) takes a side's clues from the section this names,
/// so that a type made of two with edge clues (sandwich+numbered-rooms) keeps each type's clues apart.
pub(super) fn shared_edge_key(grammar: &Grammar, section: &str) -> &'static str {
    let sums = grammar
        .sections
        .get(section)
        .is_some_and(|spec| matches!(spec.clue, ClueKind::Sum | ClueKind::Values));
    if sums {
        "edges"
    } else {
        "sky"
    }
}
