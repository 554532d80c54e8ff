//! Puzzles in the corpus schema (`../shared/corpus/README.md`: one JSON object a line) read as puzzles, so a
//! corpus file can be benchmarked without conversion.
//!
//! Each key of a record goes to the section of the record type's grammar that takes it, found by kind, not by
//! type name: `regions` to the first regions section and `clues` to the clues section of it, `less` to the
//! relations section, `consecutive` to the pairs section, `parity` to the marks section, `sky` and `edges` to
//! the edge sections bound to `top`, `bottom`, `left` and `right`, and `lines` and `pairs` to the sections
//! they name. The record becomes the map a puzzle file would be (`to_map`, behind the record form of
//! `model::load`), and is loaded and checked like one.

use serde_json::Value as Json;

use crate::error::Error;
use crate::grammar::sections::SectionKind;
use crate::grammar::{Grammar, RuleUse};
use crate::import::{own_edge_key, OUTSIDE_KEYS};
use crate::yaml::{Mapping, Value};

fn bad(message: impl Into<String>) -> Error {
    Error::section("record", message)
}

/// The first section of a kind in the grammar.
fn section_of(grammar: &Grammar, kind: SectionKind) -> Result<&str, Error> {
    grammar
        .sections
        .iter()
        .find(|(_, s)| s.kind == kind)
        .map(|(name, _)| name.as_str())
        .ok_or_else(|| bad(format!("type {} has no {kind} section", grammar.name)))
}

/// The edge section the grammar binds to a side for the record key `key`, and whether its primitive counts or
/// sums what is visible (then 0 is no clue: nothing is seen by no one), or not (a sandwich's 0 is a real clue).
/// Latin's own keys (`xsums`, `battlefield`, [`OUTSIDE_KEYS`]) hold the clues of one primitive each, which the
/// schema has no key for; `sky` and `edges` the other primitives' clues.
///
/// A side's section is first sought where the writer puts it ([`super::record::shared_edge_key`]: a sum under
/// `edges`, a count under `sky`), so that in a type made of two (sandwich+numbered-rooms) each key goes to its
/// own type's sections; then, for records written elsewhere, any section of a primitive without a key of its own.
fn edge_of(grammar: &Grammar, key: &str, side: &str) -> Option<(String, bool)> {
    let bound = |exact: bool| {
        grammar.rules.iter().find_map(|rule| {
            let RuleUse::Primitive { primitive, args } = rule else {
                return None;
            };
            let section = args.get(side).and_then(Value::as_str)?;
            let holds = match own_edge_key(primitive) {
                Some(own_key) => own_key == key,
                None if exact => super::record::shared_edge_key(grammar, section) == key,
                None => OUTSIDE_KEYS.iter().any(|o| !o.own && o.key == key),
            };
            holds.then(|| (section.to_owned(), primitive == "visibility"))
        })
    };
    bound(true).or_else(|| bound(false))
}

fn rows<'a>(v: &'a Json, what: &str) -> Result<Vec<&'a Vec<Json>>, Error> {
    v.as_array()
        .ok_or_else(|| bad(format!("{what} is not a grid")))?
        .iter()
        .map(|r| {
            r.as_array()
                .ok_or_else(|| bad(format!("{what}: a row is not a list")))
        })
        .collect()
}

/// A grid of numbers (0 empty) as grid text.
fn numbers(v: &Json, what: &str) -> Result<String, Error> {
    let mut out = String::new();
    for row in rows(v, what)? {
        let cells: Vec<String> = row
            .iter()
            .map(|x| match x.as_u64() {
                Some(0) => Ok(".".to_owned()),
                Some(k) => Ok(k.to_string()),
                None => Err(bad(format!("{what}: {x} is not a number"))),
            })
            .collect::<Result<_, _>>()?;
        out += &cells.join(" ");
        out.push('\n');
    }
    Ok(out)
}

/// A grid of strings ("" empty) as grid text.
fn strings(v: &Json, what: &str) -> Result<String, Error> {
    let mut out = String::new();
    for row in rows(v, what)? {
        let cells: Vec<&str> = row
            .iter()
            .map(|x| match x.as_str() {
                Some("") => Ok("."),
                Some(s) if !s.contains(char::is_whitespace) => Ok(s),
                _ => Err(bad(format!("{what}: {x} is not a region id"))),
            })
            .collect::<Result<_, _>>()?;
        out += &cells.join(" ");
        out.push('\n');
    }
    Ok(out)
}

/// `[r, c]` (0-based) as `rRcC`.
fn cell(r: &Json, c: &Json) -> Result<String, Error> {
    match (r.as_u64(), c.as_u64()) {
        (Some(r), Some(c)) if r < 255 && c < 255 => Ok(format!("r{}c{}", r + 1, c + 1)),
        _ => Err(bad(format!("[{r}, {c}] is not a cell"))),
    }
}

/// A list of `[r1, c1, r2, c2]` as lines `rAcB{sep}rCcD`; with `numbered`, an entry may have a fifth element,
/// a numbered dot's number, written after `=` as a puzzle file does.
fn cell_pairs(v: &Json, sep: &str, what: &str, numbered: bool) -> Result<Value, Error> {
    let list = v
        .as_array()
        .ok_or_else(|| bad(format!("{what} is not a list")))?;
    let mut out = Vec::new();
    for q in list {
        let shape = if numbered {
            "[r1, c1, r2, c2] or [r1, c1, r2, c2, number]"
        } else {
            "[r1, c1, r2, c2]"
        };
        let q = q
            .as_array()
            .filter(|q| q.len() == 4 || numbered && q.len() == 5 && q[4].is_u64())
            .ok_or_else(|| bad(format!("{what}: {q} is not {shape}")))?;
        let number = q.get(4).map(|k| format!(" = {k}")).unwrap_or_default();
        out.push(Value::String(format!(
            "{}{sep}{}{number}",
            cell(&q[0], &q[1])?,
            cell(&q[2], &q[3])?
        )));
    }
    Ok(Value::Sequence(out))
}

fn put(map: &mut Mapping, key: &str, value: impl Into<Value>) {
    map.insert(Value::String(key.to_owned()), value.into());
}

/// The keys a record may have beside its outside clues' ([`OUTSIDE_KEYS`]): the corpus schema's, `feasible` (the QCP files say whether an instance has a
/// solution) and `rules` (named rules an importer adds). Any other is refused, as a puzzle file refuses an
/// unknown section: a misspelt `"diagonal": true` would otherwise drop a rule without a word.
const KEYS: &[&str] = &[
    "id",
    "type",
    "size",
    "givens",
    "boxes",
    "diagonals",
    "regions",
    "clues",
    "less",
    "consecutive",
    "parity",
    "lines",
    "line_clues",
    "pairs",
    "solution",
    "count",
    "source",
    "title",
    "author",
    "feasible",
    "rules",
];

/// The record as the map of sections a puzzle file would have.
pub(crate) fn to_map(record: &Json, grammar: &Grammar) -> Result<Mapping, Error> {
    let mut keys = record.as_object().into_iter().flat_map(|o| o.keys());
    let mut known = KEYS.iter().chain(OUTSIDE_KEYS.iter().map(|o| &o.key));
    if let Some(key) = keys.find(|k| !known.clone().any(|q| q == k)) {
        let list: Vec<&str> = known.by_ref().copied().collect();
        return Err(bad(format!(
            "unknown key {key:?} (a record's keys are {})",
            list.join(", ")
        )));
    }
    let mut map = Mapping::new();
    put(&mut map, "type", grammar.name.as_str());
    if let Some(n) = record["size"].as_u64() {
        put(&mut map, "size", n);
    }
    // Who set it and where it was published stay with the puzzle.
    for key in crate::import::ATTRIBUTION {
        if let Some(text) = record[key].as_str() {
            put(&mut map, key, text);
        }
    }
    if let Some([h, w]) = record["boxes"].as_array().map(Vec::as_slice) {
        put(&mut map, "box", format!("{h}x{w}"));
    }
    // `diagonals: true`, and (from importers) `rules`: named rules the puzzle adds to its type's.
    let mut rules: Vec<Value> = Vec::new();
    if record["diagonals"].as_bool() == Some(true) {
        rules.push("diagonals".into());
    }
    for rule in record["rules"].as_array().into_iter().flatten() {
        let name = rule
            .as_str()
            .ok_or_else(|| bad(format!("rules: {rule} is not a rule name")))?;
        rules.push(name.into());
    }
    if !rules.is_empty() {
        put(&mut map, "rules", Value::Sequence(rules));
    }
    for (key, target) in [("givens", "givens"), ("solution", "solution")] {
        if !record[key].is_null() {
            put(&mut map, target, numbers(&record[key], key)?);
        }
    }
    regions_and_clues(&mut map, record, grammar)?;
    if !record["less"].is_null() {
        let section = section_of(grammar, SectionKind::Relations)?;
        put(
            &mut map,
            section,
            cell_pairs(&record["less"], " < ", "less", false)?,
        );
    }
    consecutive_marks(&mut map, record, grammar)?;
    if !record["parity"].is_null() {
        let section = section_of(grammar, SectionKind::Marks)?;
        put(&mut map, section, strings(&record["parity"], "parity")?);
    }
    outside(&mut map, record, grammar)?;
    lines(&mut map, record)?;
    if let Some(pairs) = record["pairs"].as_object() {
        for (section, list) in pairs {
            put(&mut map, section, cell_pairs(list, "-", section, true)?);
        }
    }
    Ok(map)
}

/// `regions` as the grammar's region map, and `clues` as the clues section of that map.
fn regions_and_clues(map: &mut Mapping, record: &Json, grammar: &Grammar) -> Result<(), Error> {
    if record["regions"].is_null() {
        return Ok(());
    }
    let regions = section_of(grammar, SectionKind::Regions)?;
    put(map, regions, strings(&record["regions"], "regions")?);
    if let Some(clues) = record["clues"].as_object() {
        let section = grammar
            .sections
            .iter()
            .find(|(_, s)| s.kind == SectionKind::Clues && s.of.as_deref() == Some(regions))
            .map(|(name, _)| name.clone())
            .ok_or_else(|| bad(format!("type {} has no clues for {regions}", grammar.name)))?;
        let mut hints = Mapping::new();
        for (id, clue) in clues {
            let text = clue
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| clue.to_string());
            hints.insert(Value::String(id.clone()), Value::String(text));
        }
        put(map, &section, Value::Mapping(hints));
    }
    Ok(())
}

/// `consecutive`: marks between neighbours, under the section the grammar's `consecutive` primitive reads.
fn consecutive_marks(map: &mut Mapping, record: &Json, grammar: &Grammar) -> Result<(), Error> {
    if record["consecutive"].is_null() {
        return Ok(());
    }
    // The section the `consecutive` primitive reads, not the first of pairs: kropki+consecutive has white
    // and black dots too, which the record keeps under `pairs`.
    let bound = grammar.rules.iter().find_map(|rule| match rule {
        RuleUse::Primitive { primitive, args } if primitive == "consecutive" => {
            args.get("pairs").and_then(Value::as_str)
        }
        _ => None,
    });
    let section = match bound {
        Some(section) => section,
        None => section_of(grammar, SectionKind::Pairs)?,
    };
    put(
        map,
        section,
        cell_pairs(&record["consecutive"], "-", "consecutive", false)?,
    );
    Ok(())
}

/// `sky`, `edges`, `xsums` and `battlefield`: outside clues on the sides the grammar binds (under `edges`, a list
/// of values is Outside Sudoku's clue).
fn outside(map: &mut Mapping, record: &Json, grammar: &Grammar) -> Result<(), Error> {
    for key in OUTSIDE_KEYS.iter().map(|o| o.key) {
        let Some(sides) = record[key].as_object() else {
            continue;
        };
        for (side, list) in sides {
            let (section, zero_is_none) = edge_of(grammar, key, side)
                .ok_or_else(|| bad(format!("type {} has no clues on the {side}", grammar.name)))?;
            let list = list
                .as_array()
                .ok_or_else(|| bad(format!("{key}.{side} is not a list")))?;
            let n = record["size"].as_u64().unwrap_or(list.len() as u64) as usize;
            let tokens: Vec<String> = list
                .iter()
                .map(|v| match (v.as_u64(), v.as_array()) {
                    _ if v.is_null() => Ok(".".to_owned()),
                    // An arrow (Rossini) as the section writes it; one token, so that a string with spaces in
                    // it cannot stand for several clues.
                    _ if v
                        .as_str()
                        .is_some_and(|s| !s.is_empty() && !s.contains(char::is_whitespace)) =>
                    {
                        Ok(v.as_str().unwrap_or_default().to_owned())
                    }
                    (Some(0), _) if zero_is_none => Ok(".".to_owned()),
                    (Some(k), _) => Ok(k.to_string()),
                    // A set of values (Outside Sudoku), written as the section reads it back: each a value of
                    // the grid, since past it a run of digits would read as other values.
                    (_, Some(set)) if !set.is_empty() => set
                        .iter()
                        .map(|x| {
                            x.as_u64()
                                .filter(|x| (1..=n as u64).contains(x))
                                .map(|x| x as u32)
                        })
                        .collect::<Option<Vec<u32>>>()
                        .map(|set| crate::parse::clues::set_text(&set, n))
                        .ok_or_else(|| bad(format!("{key}.{side}: {v} is not a clue"))),
                    _ => Err(bad(format!("{key}.{side}: {v} is not a clue"))),
                })
                .collect::<Result<_, _>>()?;
            put(map, &section, tokens.join(" "));
        }
    }
    Ok(())
}

/// `lines` (with `line_clues`): each to the section it names, one line of cells per entry.
fn lines(map: &mut Mapping, record: &Json) -> Result<(), Error> {
    let Some(sections) = record["lines"].as_object() else {
        return Ok(());
    };
    for (section, list) in sections {
        let list = list
            .as_array()
            .ok_or_else(|| bad(format!("lines.{section} is not a list")))?;
        let clues = record["line_clues"][section.as_str()].as_array();
        let mut out = Vec::new();
        for (i, line) in list.iter().enumerate() {
            let cells: Vec<String> = line
                .as_array()
                .ok_or_else(|| bad(format!("lines.{section}: a line is not a list")))?
                .iter()
                .map(|rc| cell(&rc[0], &rc[1]))
                .collect::<Result<_, _>>()?;
            // A number (a sum), a list of values (a quadruple's), or none.
            let clue = match clues.and_then(|c| c.get(i)) {
                None | Some(Json::Null) => String::new(),
                Some(Json::Number(k)) => format!(" = {k}"),
                // A clue with its operator (`4+`) or a mark (`E`), read by the section's own parser.
                Some(Json::String(text))
                    if !text.is_empty() && text.chars().all(|c| c.is_ascii_graphic() && c != '=') =>
                {
                    format!(" = {text}")
                }
                Some(Json::Array(vs)) if vs.iter().all(Json::is_u64) => {
                    let words: Vec<String> = vs.iter().map(Json::to_string).collect();
                    format!(" = {}", words.join(" "))
                }
                Some(other) => {
                    return Err(bad(format!(
                        "line_clues.{section}: {other} is not a number, a clue such as \"4+\" or a list of values"
                    )))
                }
            };
            out.push(Value::String(format!("{}{clue}", cells.join(" "))));
        }
        put(map, section, Value::Sequence(out));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;
    use crate::model::Puzzle;

    fn load(line: &str) -> Result<Puzzle, Error> {
        crate::model::load_str(line, &Registry::built_in())
    }

    #[test]
    fn records_read_as_their_grammar_declares() {
        let inshi = r#"{"id":"x","type":"inshi","size":2,"regions":[["a","a"],["b","c"]],"clues":{"a":"2","b":"2","c":"1"},"solution":[[1,2],[2,1]]}"#;
        let p = load(inshi).unwrap();
        assert_eq!(p.kind(), "inshi");
        assert_eq!(p.solution().unwrap().rows()[1], vec![2, 1]);
        let sky = r#"{"type":"sum-skyscrapers","size":3,"edges":{"top":[0,5,0],"left":[6,0,0]}}"#;
        assert!(load(sky).is_ok());
        let futoshiki = r#"{"type":"futoshiki","size":3,"less":[[0,0,0,1]]}"#;
        assert!(load(futoshiki).is_ok());
        // As a file's text, it loads the same.
        let registry = Registry::built_in();
        let record = serde_json::from_str::<Json>(inshi).unwrap();
        let map = to_map(&record, &registry.get("inshi").unwrap()).unwrap();
        let text = crate::yaml::to_string(&Value::Mapping(map)).unwrap();
        let again = crate::model::load_str(&text, &registry).unwrap();
        assert_eq!(again.solution(), p.solution());
    }

    /// A record says the diagonals of any puzzle that has them, so one of killer-x (whose grammar names them)
    /// says them too: read back, the puzzle holds them once, as `rules: [diagonals, diagonals]` does. Found by
    /// the `pasted` fuzz target: a record whose `diagonals` key was garbled loaded with 101 rules and read back,
    /// written with the key, with 103.
    #[test]
    fn a_rule_said_twice_is_one_rule() {
        let registry = Registry::built_in();
        let reader = crate::model::load::Reader {
            registry: &registry,
            max_bytes: crate::model::load::DEFAULT_MAX_INPUT,
            from: None,
        };
        let file = "type: killer-x\nsize: 4\ncages: |\n  AABB\n  AABB\n  CCDD\n  CCDD\n\
                    hints: {A: 10, B: 10, C: 10, D: 10}\n";
        let base = reader.load_text(file).unwrap();
        let twice = reader
            .load_text(&format!("{file}rules: [diagonals, boxes, diagonals]\n"))
            .unwrap();
        assert_eq!(twice.rules().len(), base.rules().len());
        let map = reader.mapping(file).unwrap();
        let record = crate::model::record::record_of(&map, &registry).unwrap();
        assert_eq!(record["diagonals"], true);
        let back = load(&record.to_string()).unwrap();
        assert_eq!(back.rules().len(), base.rules().len());
    }

    #[test]
    fn hostile_records_are_errors() {
        for line in [
            "",
            "[1,2]",
            r#"{"type":"nonesuch"}"#,
            r#"{"type":"inshi","size":2,"regions":7}"#,
            r#"{"type":"futoshiki","size":3,"less":[[0,0,0]]}"#,
            r#"{"type":"futoshiki","size":3,"less":[[0,0,0,900]]}"#,
            r#"{"type":"thermo","size":9,"boxes":[3,3],"lines":{"thermos":[[[0]]]}}"#,
            r#"{"type":"latin","size":2,"less":[[0,0,0,1]]}"#,
        ] {
            assert!(load(line).is_err(), "{line}");
        }
        // A misspelt key is refused by name, not dropped (the grid would lose its diagonals).
        let typo = load(r#"{"type":"sudoku","size":4,"diagonal":true}"#).unwrap_err();
        assert!(
            typo.to_string().contains("unknown key \"diagonal\""),
            "{typo}"
        );
    }
}
