//! f-puzzles links (`https://www.f-puzzles.com/?load=N4Ig...`), the same payload in SudokuPad links
//! (`https://sudokupad.app/fpuzzlesN4Ig...`, or `fpuzN4Ig...`), and the f-puzzles JSON itself.
//!
//! The payload is the puzzle's JSON compressed by lz-string to base64. Its field names are f-puzzles' own:
//! `size`, `grid` (per cell `value` + `given`, and `region` where it differs from the default boxes, or on a
//! size with none the rows: `null` for a cell in no region, every cell so a Latin square; regions that tile as
//! boxes of another shape are those boxes),
//! `diagonal+`/`diagonal-` (both, or one alone), `antiknight`, `antiking`, `nonconsecutive`, `killercage`
//! (Killer Sudoku's regions when the cages tile a grid of boxes, each with its sum; else cages where drawn),
//! `thermometer`, `arrow`,
//! `whispers` (with the `value` SudokuSolver gives Dutch ones), `renban`, `palindrome`, `littlekillersum`,
//! `difference` (white kropki), `ratio` (black), with a `value` when numbered (the pair's own number), `xv`,
//! `negative` (which marks are all given, of one colour or both; without it a mark says only of its own pair;
//! white dots all given, by it or by `nonconsecutive` beside dots, with no black dot, a consecutive Sudoku),
//! `sandwichsum`,
//! `xsum`, `skyscraper`, `extraregion`, `betweenline`, `regionsumline`, `entropicline`, `modularline`,
//! `quadruple`, `minimum`, `maximum` (as the signs they stand for, none between two of a kind; other signs are
//! text a sentence explains, [`super::signs`]), `clone` (as
//! pairs of equal cells), `odd`, `even`, `solution`, and the keys Rangsk's SudokuSolver and its f-puzzles
//! add-on read: `slowthermometer`, `doublearrow`, `zipperline`, `nabner`, `rowindexer`, `columnindexer`,
//! `boxindexer`, and the add-on's `lockout` (ends half the size apart, rounded down); and `battlefield`,
//! latin's own for outside clues f-puzzles has no constraint for, as Penpa+ links are read through this JSON
//! (`to_fpuzzles` never writes it, only [`to_fpuzzles_with`] for Penpa+). Each constraint family goes to its corpus
//! record key (x-sums to `xsums`, whispers apart by other than 5 to `whispers-by-K`, slow thermometers to
//! `slowthermos`, ...: keys of latin's own where the schema has none); the record has no type, and `model::fit`
//! gives it the type of the grammar that has every family it holds (any grammar loaded, a user's too), or else the
//! type made of the types that have each (`killer+thermo`). Cosmetic lines (`line`) are the constraint the ruleset
//! text gives their colour ([`super::coloured`]: whispers, renban, ..., or a parity line, `parityline`, latin's own
//! key). Cosmetics that only draw a constraint the link holds (SudokuSolver's add-on's drawings of its own
//! constraints, cages outlining clones) are dropped ([`super::drawn`]). A constraint the record schema has no key
//! for, or other cosmetics (`cage`, `text`, ...) that may carry rules only the ruleset text explains, is an error
//! naming it, never silently dropped.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value as Json};

use super::{bad, grid, numbers, region_ids, regions, Format};
use crate::error::Error;
use crate::grid::{box_map, box_of};

fn err(message: impl Into<String>) -> Error {
    bad(Format::Fpuzzles, message)
}

/// What an f-puzzles link is before its payload.
pub(super) const LINK: &str = "https://www.f-puzzles.com/?load=";

/// The compressed payload of a link, if the text is one.
fn payload(text: &str) -> Option<&str> {
    let start = if text.contains("f-puzzles.com") {
        text.find("load=")? + "load=".len()
    } else if let Some(at) = text.find("fpuzzles") {
        at + "fpuzzles".len()
    } else {
        // SudokuPad's shorter prefix for the same payload.
        text.find("fpuz")? + "fpuz".len()
    };
    let rest = &text[start..];
    Some(&rest[..rest.find(['&', '#']).unwrap_or(rest.len())])
}

pub(crate) fn recognises(text: &str) -> bool {
    (text.starts_with('{') && text.contains("\"grid\"") && text.contains("\"size\""))
        || payload(text).is_some_and(|p| p.starts_with("N4Ig"))
}

/// A link or JSON text as a record.
pub(crate) fn decode(text: &str) -> Result<Json, Error> {
    let json_text = if text.starts_with('{') {
        text.to_owned()
    } else {
        let p = payload(text)
            .ok_or_else(|| err("not an f-puzzles link (`?load=`) or SudokuPad `fpuzzles` link"))?;
        super::payload::unpack(p, Format::Fpuzzles, |t| {
            serde_json::from_str::<Json>(t).is_ok()
        })?
    };
    let mut puzzle: Json =
        serde_json::from_str(&json_text).map_err(|e| err(format!("not f-puzzles JSON: {e}")))?;
    // Cosmetics that draw a constraint the link holds: SudokuSolver's plugin's, outlines of clones.
    super::drawn::drop(&mut puzzle);
    // A setter may say a rule over the whole grid in the rules text and leave its box unticked.
    super::globals::read(&mut puzzle).map_err(err)?;
    // A coloured line's rule is in the rules text too.
    super::coloured::read(&mut puzzle).map_err(err)?;
    // So is what a sign drawn as text means.
    super::signs::read(&mut puzzle).map_err(err)?;
    record_of(&puzzle)
}

/// `R3C4` -> (2, 3); outside clues have row or column 0 or n+1, so both are returned 1-based.
pub(super) fn position(s: &Json) -> Result<(usize, usize), Error> {
    let text = s.as_str().unwrap_or_default();
    let parsed = text
        .strip_prefix('R')
        .and_then(|t| t.split_once('C'))
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    parsed.ok_or_else(|| err(format!("{s} is not a cell (R1C1)")))
}

/// An inside cell as `[row, column]`, 0-based.
pub(super) fn inside(s: &Json, n: usize) -> Result<[usize; 2], Error> {
    match position(s)? {
        (r, c) if (1..=n).contains(&r) && (1..=n).contains(&c) => Ok([r - 1, c - 1]),
        _ => Err(err(format!("{s} is off the {n}x{n} grid"))),
    }
}

pub(super) fn list<'a>(puzzle: &'a Json, key: &str) -> &'a [Json] {
    puzzle[key].as_array().map_or(&[], Vec::as_slice)
}

/// f-puzzles' default boxes: the project's default shape (the largest divisor of n up to its square root rows
/// high, 2x3 on 6x6), where it has boxes at all.
fn default_boxes(n: usize) -> Option<(usize, usize)> {
    crate::grid::default_boxes(n).filter(|&(h, _)| h > 1)
}

/// Keys read (or harmless: the solver's own options, and `activeConstraints`, the editor's list of the
/// constraint tools it shows, by name); anything else with content is refused.
const READ: [&str; 56] = [
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "negative",
    "disabledlogic",
    "truecandidatesoptions",
    "activeConstraints",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "killercage",
    "thermometer",
    "slowthermometer",
    "doublearrow",
    "zipperline",
    "nabner",
    "lockout",
    "rowindexer",
    "columnindexer",
    "boxindexer",
    "arrow",
    "whispers",
    "renban",
    "palindrome",
    "littlekillersum",
    "difference",
    "ratio",
    "xv",
    "sandwichsum",
    "skyscraper",
    "xsum",
    "battlefield",
    "odd",
    "even",
    "disjointgroups",
    "extraregion",
    "betweenline",
    "regionsumline",
    "entropicline",
    "modularline",
    super::coloured::PARITY_LINE,
    super::coloured::TEN_LINE,
    super::globals::CAGE_REPEATS,
    super::globals::CAGE_PRODUCT,
    super::globals::ARROWS_DISTINCT,
    super::globals::SLOW_THERMOS,
    "quadruple",
    "minimum",
    "maximum",
    super::signs::SIGNS,
    "clone",
];

pub(super) fn present(puzzle: &Json, key: &str) -> bool {
    match &puzzle[key] {
        Json::Null | Json::Bool(false) => false,
        Json::Array(a) => !a.is_empty(),
        Json::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// The f-puzzles JSON as a record.
pub(super) fn record_of(puzzle: &Json) -> Result<Json, Error> {
    let n = puzzle["size"]
        .as_u64()
        .filter(|n| (1..=255).contains(n))
        .ok_or_else(|| err("size must be 1 to 255"))? as usize;
    if let Some((key, _)) = puzzle
        .as_object()
        .into_iter()
        .flatten()
        .find(|(k, _)| !READ.contains(&k.as_str()) && present(puzzle, k))
    {
        return Err(err(format!(
            "`{key}` is a constraint (or a cosmetic that may carry one) no latin grammar has"
        )));
    }
    let (givens, region_of) = cells(puzzle, n)?;
    // No type: the link says which constraints it has, and `model::fit` finds the grammar that has them all.
    let mut record = json!({"size": n, "givens": grid(&givens, n)});
    for key in ["title", "author"] {
        if let Some(text) = puzzle[key].as_str().filter(|t| !t.is_empty()) {
            record[key] = json!(text);
        }
    }
    // A size with no boxes and no region drawn has its rows for regions, which say nothing the rows do not: a
    // Latin square. (Regions a setter drew stay regions, rows among them.)
    let region_of = match default_boxes(n).is_none() && !regions_drawn(puzzle) {
        true => vec![None; n * n],
        false => region_of,
    };
    let region_of = match region_of.iter().position(Option::is_none) {
        // Every cell out of the regions: a Latin square, rows and columns alone.
        Some(_) if region_of.iter().all(Option::is_none) => None,
        Some(i) => {
            return Err(err(format!(
                "R{}C{} is in no region while other cells are: latin's regions cover every cell",
                i / n + 1,
                i % n + 1
            )))
        }
        None => Some(region_of.into_iter().flatten().collect::<Vec<usize>>()),
    };
    // f-puzzles has only its default boxes, so latin writes other shapes (3x2 on a 6x6) as regions, as a setter
    // draws them; they are boxes again here (a region-sum line or a box indexer needs boxes, not a jigsaw).
    let boxes = region_of
        .as_ref()
        .and_then(|of| crate::grid::box_shape(of, n));
    match (boxes, region_of) {
        (_, None) if present(puzzle, "disjointgroups") => {
            return Err(err("`disjointgroups` with no regions: latin's disjoint groups are places inside boxes"))
        }
        (_, None) => {}
        (Some((h, w)), _) => record["boxes"] = json!([h, w]),
        // latin's disjoint groups are the places inside boxes; what they would be in irregular regions, no rule
        // of latin's says.
        (None, Some(_)) if present(puzzle, "disjointgroups") => {
            return Err(err(
                "`disjointgroups` with irregular regions: latin's disjoint groups are places inside boxes",
            ))
        }
        (None, Some(region_of)) => {
            let ids: Vec<String> = region_of.iter().map(|r| super::region_id(*r)).collect();
            record["regions"] = regions(&ids, n);
        }
    }
    rules(puzzle, &mut record)?;
    constraints(puzzle, &mut record, n)?;
    if let Some(solution) = puzzle["solution"].as_array().filter(|s| s.len() == n * n) {
        let values: Vec<u64> = solution.iter().map(|v| v.as_u64().unwrap_or(0)).collect();
        if values.iter().all(|&v| v > 0) {
            record["solution"] = grid(&values, n);
        }
    }
    Ok(record)
}

/// The givens and every cell's region number (explicit, or the default box, or on a size with no boxes the row),
/// or `None` for a cell f-puzzles took out of every region (`"region": null`, as its region tool writes it:
/// SudokuPad reads it so too).
pub(super) fn cells(puzzle: &Json, n: usize) -> Result<(Vec<u64>, Vec<Option<usize>>), Error> {
    let rows = puzzle["grid"]
        .as_array()
        .filter(|r| r.len() == n)
        .ok_or_else(|| err(format!("grid is not {n} rows")))?;
    let mut givens = Vec::with_capacity(n * n);
    let mut region_of = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|c| c.len() == n)
            .ok_or_else(|| err(format!("grid row {} is not {n} cells", r + 1)))?;
        for (c, cell) in row.iter().enumerate() {
            let given = cell["given"].as_bool() == Some(true);
            givens.push(if given {
                cell["value"].as_u64().unwrap_or(0)
            } else {
                0
            });
            if cell.get("region").is_some_and(Json::is_null) {
                region_of.push(None);
                continue;
            }
            let region = match (cell["region"].as_u64(), default_boxes(n)) {
                (Some(k), _) if (k as usize) < n => k as usize,
                (Some(k), _) => {
                    return Err(err(format!(
                        "R{}C{}: region {k} of a {n}x{n} grid",
                        r + 1,
                        c + 1
                    )))
                }
                (None, Some(b)) => box_of(r, c, b, n),
                // A size with no boxes (a prime) has its rows for regions, as f-puzzles' default and
                // SudokuSolver's (`DefaultRegions`): a 7x7 whose setter drew some irregular regions leaves the
                // others as rows.
                (None, None) => r,
            };
            region_of.push(Some(region));
        }
    }
    Ok((givens, region_of))
}

/// Whether any cell of the grid names its region (or takes itself out of every region).
fn regions_drawn(puzzle: &Json) -> bool {
    list(puzzle, "grid")
        .iter()
        .flat_map(|row| row.as_array().into_iter().flatten())
        .any(|cell| cell.get("region").is_some())
}

/// The global flags as named rules.
fn rules(puzzle: &Json, record: &mut Json) -> Result<(), Error> {
    // `diagonal+` rises from the bottom-left corner, `diagonal-` falls from the top-left (as SudokuSolver reads
    // them).
    let mut named: Vec<&str> = match (present(puzzle, "diagonal+"), present(puzzle, "diagonal-")) {
        (true, true) => {
            record["diagonals"] = json!(true);
            Vec::new()
        }
        (true, false) => vec!["anti-diagonal"],
        (false, true) => vec!["main-diagonal"],
        (false, false) => Vec::new(),
    };
    named.extend(
        [
            ("antiknight", "anti-knight"),
            ("antiking", "anti-king"),
            ("nonconsecutive", "non-consecutive"),
            ("disjointgroups", "disjoint-groups"),
        ]
        .iter()
        .filter(|(k, _)| present(puzzle, k))
        .map(|(_, r)| *r),
    );
    if !named.is_empty() {
        record["rules"] = json!(named);
    }
    Ok(())
}

/// How far apart a whisper line's neighbours are: its `value` (SudokuSolver's Dutch whispers are 4 on a 9x9),
/// or else German whispers' half the size, rounded up (5 on a 9x9), as f-puzzles and SudokuSolver read it.
pub(super) fn whisper_gap(entry: &Json, n: usize) -> Result<u64, Error> {
    let absent = match &entry["value"] {
        Json::Null => true,
        Json::String(s) => s.trim().is_empty(),
        _ => false,
    };
    if absent {
        return Ok(n.div_ceil(2) as u64);
    }
    match value(entry, "whisper line")? {
        k if (1..n as u64).contains(&k) => Ok(k),
        k => Err(err(format!(
            "whispers apart by {k}: on a {n}x{n} grid neighbours differ by 1 to {}",
            n - 1
        ))),
    }
}

fn value(entry: &Json, what: &str) -> Result<u64, Error> {
    let v = &entry["value"];
    v.as_u64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| err(format!("a {what} without a number ({v})")))
}

/// A list of cell references as a record line.
fn line(cells: &Json, n: usize) -> Result<Vec<[usize; 2]>, Error> {
    cells
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| inside(c, n))
        .collect()
}

fn constraints(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    // Thermometers the rules text makes slow, where the puzzle has no slow ones of its own to say it of.
    let slow = puzzle[super::globals::SLOW_THERMOS].as_bool() == Some(true)
        && list(puzzle, "slowthermometer").is_empty();
    let thermos = if slow { "slowthermos" } else { "thermos" };
    for (key, section) in [
        ("thermometer", thermos),
        ("slowthermometer", "slowthermos"),
        ("renban", "renban"),
        ("palindrome", "palindromes"),
        ("betweenline", "betweenlines"),
        ("regionsumline", "regionsumlines"),
        ("entropicline", "entropiclines"),
        ("modularline", "modularlines"),
        ("doublearrow", "doublearrows"),
        ("zipperline", "zippers"),
        ("nabner", "nabner"),
        (super::coloured::PARITY_LINE, "paritylines"),
        (super::coloured::TEN_LINE, "tenlines"),
    ] {
        for entry in list(puzzle, key) {
            for l in list(entry, "lines") {
                push_line(record, section, line(l, n)?, None);
            }
        }
    }
    // f-puzzles' lockout ends are half the size apart, rounded down (4 on a 9x9).
    for entry in list(puzzle, "lockout") {
        let section = super::gapped_key("lockouts", n as u64 / 2);
        for l in list(entry, "lines") {
            push_line(record, &section, line(l, n)?, None);
        }
    }
    for entry in list(puzzle, "whispers") {
        let section = super::gapped_key("whispers", whisper_gap(entry, n)?);
        for l in list(entry, "lines") {
            push_line(record, &section, line(l, n)?, None);
        }
    }
    arrows(puzzle, record, n)?;
    for (key, section) in [
        ("extraregion", "extraregions"),
        ("rowindexer", "rowindexers"),
        ("columnindexer", "columnindexers"),
        ("boxindexer", "boxindexers"),
    ] {
        for entry in list(puzzle, key) {
            push_line(record, section, line(&entry["cells"], n)?, None);
        }
    }
    for entry in list(puzzle, "littlekillersum") {
        let sum = value(entry, "little killer")?;
        if sum == 0 {
            return Err(err("a little-killer sum of 0: digits are 1 or more"));
        }
        push_line(
            record,
            "diagonals",
            line(&entry["cells"], n)?,
            Some(json!(sum)),
        );
    }
    quadruples(puzzle, record, n)?;
    killer(puzzle, record, n, record["boxes"].is_array())?;
    marks(puzzle, record, n)?;
    edge_clues(puzzle, record, n)?;
    extremes(puzzle, record, n)?;
    clones(puzzle, record, n)?;
    parity(puzzle, record, n)
}

/// A circle with several lines is an arrow a line, each adding up to the circle (as SudokuSolver reads it);
/// a circle of several cells is a pill, and its arrows leave from any of its cells.
fn arrows(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    // Where the rules text forbids a digit to repeat on an arrow, `lines.distinctarrows`.
    let key = match puzzle[super::globals::ARROWS_DISTINCT].as_bool() == Some(true) {
        true => "distinctarrows",
        false => "arrows",
    };
    for entry in list(puzzle, "arrow") {
        let (circle, lines) = (line(&entry["cells"], n)?, list(entry, "lines"));
        if lines.is_empty() {
            return Err(err("an arrow without a line"));
        }
        // A pill drawn again for another of its arrows is the same pill.
        let cells = pill(circle.clone())?;
        let known = record["lines"]["pills"]
            .as_array()
            .is_some_and(|p| p.contains(&json!(cells)));
        if cells.len() > 1 && !known {
            push_line(record, "pills", cells, None);
        }
        for l in lines {
            let cells = line(l, n)?;
            if !cells.first().is_some_and(|c| circle.contains(c)) {
                return Err(err(
                    "an arrow whose line does not start in its circle or pill",
                ));
            }
            push_line(record, key, cells, None);
        }
    }
    Ok(())
}

/// Quadruples: the four cells around a circle and its digits, as numbers or text.
fn quadruples(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    for entry in list(puzzle, "quadruple") {
        let values: Vec<u64> = list(entry, "values")
            .iter()
            .map(|v| {
                v.as_u64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            })
            .collect::<Option<_>>()
            .filter(|vs: &Vec<u64>| !vs.is_empty())
            .ok_or_else(|| {
                err(format!(
                    "a quadruple without its digits ({})",
                    entry["values"]
                ))
            })?;
        push_line(
            record,
            "quadruples",
            line(&entry["cells"], n)?,
            Some(json!(values)),
        );
    }
    Ok(())
}

/// Clones: each cell of a clone and the cell of its copy at the same place, as pairs of equal cells.
fn clones(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    for e in list(puzzle, "clone") {
        let (cells, copies) = (line(&e["cells"], n)?, line(&e["cloneCells"], n)?);
        if cells.len() != copies.len() {
            return Err(err(format!(
                "a clone of {} cells with a copy of {}",
                cells.len(),
                copies.len()
            )));
        }
        for ([r1, c1], [r2, c2]) in cells.into_iter().zip(copies) {
            push_pair(record, "clones", json!([r1, c1, r2, c2]));
        }
    }
    Ok(())
}

/// The cells beside `[r, c]` (sharing an edge) inside an n x n grid.
fn beside(r: usize, c: usize, n: usize) -> impl Iterator<Item = [usize; 2]> {
    [(0, 1), (2, 1), (1, 0), (1, 2)]
        .into_iter()
        .filter_map(move |(dr, dc)| Some([(r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?]))
        .filter(move |&[a, b]| a < n && b < n)
}

/// Minimum and maximum cells as the signs they stand for, and the signs drawn as text ([`super::signs`]): the
/// schema's `less` pairs, each once.
fn extremes(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    let mut less = extreme_signs(puzzle, n)?;
    less.extend(super::signs::pairs(puzzle, n).map_err(err)?);
    if !less.is_empty() {
        record["less"] = json!(less.into_iter().collect::<Vec<_>>());
    }
    Ok(())
}

/// The signs minimum and maximum cells stand for, each `[r, c, r2, c2]` with cell (r, c) the smaller. A minimum
/// (maximum) is smaller (larger) than each cell beside it that is not a minimum (maximum) too, as f-puzzles and
/// its solver read them: two maxima side by side (a fortress's grey cells) say nothing between them.
pub(super) fn extreme_signs(puzzle: &Json, n: usize) -> Result<BTreeSet<[usize; 4]>, Error> {
    let mut less = BTreeSet::new();
    for (key, smaller) in [("minimum", true), ("maximum", false)] {
        let kind = list(puzzle, key)
            .iter()
            .map(|e| inside(&e["cell"], n))
            .collect::<Result<BTreeSet<_>, _>>()?;
        less.extend(signs_of(&kind, n, smaller));
    }
    Ok(less)
}

/// The sign between a minimum (`smaller`) or maximum `cell` and `other` beside it, as the schema's `less` pair.
fn sign_of(smaller: bool, [r, c]: [usize; 2], [a, b]: [usize; 2]) -> [usize; 4] {
    if smaller {
        [r, c, a, b]
    } else {
        [a, b, r, c]
    }
}

/// The signs minima (`smaller`) or maxima `kind` stand for: toward each cell beside one that is not of the kind.
/// The reader makes them, and the writer checks that the cells it finds make exactly the signs it has.
fn signs_of(
    kind: &BTreeSet<[usize; 2]>,
    n: usize,
    smaller: bool,
) -> impl Iterator<Item = [usize; 4]> + '_ {
    kind.iter().flat_map(move |&cell| {
        beside(cell[0], cell[1], n)
            .filter(|o| !kind.contains(o))
            .map(move |o| sign_of(smaller, cell, o))
    })
}

/// A pill's cells in reading order, its digits from the most significant (left to right, top to bottom, as
/// setters read pills); refused unless they are a straight run along a row or column.
fn pill(mut cells: Vec<[usize; 2]>) -> Result<Vec<[usize; 2]>, Error> {
    cells.sort_unstable();
    cells.dedup();
    let along = |k: usize| {
        cells
            .windows(2)
            .all(|w| w[0][1 - k] == w[1][1 - k] && w[0][k] + 1 == w[1][k])
    };
    if along(0) || along(1) {
        Ok(cells)
    } else {
        Err(err(
            "a pill whose cells are not a straight run along a row or column",
        ))
    }
}

/// A line of a record section, with its clue (a number, or a quadruple's list of values) when it has one.
fn push_line(record: &mut Json, section: &str, cells: Vec<[usize; 2]>, clue: Option<Json>) {
    if record["lines"][section].is_null() {
        record["lines"][section] = json!([]);
    }
    record["lines"][section]
        .as_array_mut()
        .expect("a list")
        .push(json!(cells));
    if let Some(k) = clue {
        if record["line_clues"][section].is_null() {
            record["line_clues"][section] = json!([]);
        }
        record["line_clues"][section]
            .as_array_mut()
            .expect("a list")
            .push(k);
    }
}

/// Killer cages: the schema's `regions` with `clues` when they tile a grid of boxes, each with its sum (Killer
/// Sudoku); else `lines.killercages`, each cage a group of cells with its sum or none (cells in no cage free).
/// Where the rules text lets digits repeat in cages ([`super::globals::CAGE_REPEATS`]), `lines.repeatcages`;
/// where it makes their clues products ([`super::globals::CAGE_PRODUCT`]), `lines.productcages`.
fn killer(puzzle: &Json, record: &mut Json, n: usize, boxed: bool) -> Result<(), Error> {
    let cages = list(puzzle, "killercage");
    if cages.is_empty() {
        return Ok(());
    }
    let repeat = puzzle[super::globals::CAGE_REPEATS].as_bool() == Some(true);
    let product = puzzle[super::globals::CAGE_PRODUCT].as_bool() == Some(true);
    let mut ids = vec![String::new(); n * n];
    let mut clues = Map::new();
    let mut groups = Vec::new();
    for (k, cage) in cages.iter().enumerate() {
        let id = super::region_id(k);
        let cells = line(&cage["cells"], n)?;
        if cells.is_empty() {
            return Err(err("a killer cage without cells"));
        }
        for &[r, c] in &cells {
            if !ids[r * n + c].is_empty() {
                return Err(err(format!("R{}C{} is in two killer cages", r + 1, c + 1)));
            }
            ids[r * n + c] = id.clone();
        }
        let sum = match &cage["value"] {
            Json::Null => None,
            Json::String(s) if s.trim().is_empty() => None,
            _ => Some(value(cage, "killer cage")?),
        };
        if sum == Some(0) {
            return Err(err("a killer cage with sum 0: digits are 1 or more"));
        }
        if let Some(sum) = sum {
            clues.insert(id, json!(sum.to_string()));
        }
        groups.push((cells, sum));
    }
    let tiled = clues.len() == groups.len() && ids.iter().all(|id| !id.is_empty());
    if boxed && tiled && !repeat && !product {
        record["regions"] = regions(&ids, n);
        record["clues"] = Json::Object(clues);
        return Ok(());
    }
    // The rules text's reading refuses cages both products and repeating.
    let key = match (repeat, product) {
        (true, _) => "repeatcages",
        (_, true) => "productcages",
        _ => "killercages",
    };
    for (cells, sum) in groups {
        push_line(record, key, cells, Some(json!(sum)));
    }
    Ok(())
}

/// Kropki dots and XV marks. With f-puzzles' negative constraint every unmarked pair has neither relation (the
/// schema's `white`, `black`, `x`, `v`, even with no mark at all); without it a mark says only of its own pair
/// (`white-open`, ...).
fn marks(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    let negative: Vec<&str> = list(puzzle, "negative")
        .iter()
        .filter_map(Json::as_str)
        .collect();
    dots(puzzle, record, n, &negative)?;
    let marks_all_given = negative.contains(&"xv");
    if marks_all_given {
        ensure_pairs(record, "x");
        ensure_pairs(record, "v");
    }
    for e in list(puzzle, "xv") {
        let section = match e["value"].as_str().map(str::to_ascii_uppercase).as_deref() {
            Some("X") => open("x", marks_all_given),
            Some("V") => open("v", marks_all_given),
            _ => return Err(err(format!("an xv mark of {}", e["value"]))),
        };
        push_pair(record, &section, pair_of(e, n)?);
    }
    Ok(())
}

/// A mark's pair section: the schema's when every mark is given, else its `-open` twin.
fn open(section: &str, all: bool) -> String {
    if all {
        section.to_owned()
    } else {
        format!("{section}-open")
    }
}

/// The two cells of a dot or mark, as the schema's `[r1, c1, r2, c2]`.
fn pair_of(e: &Json, n: usize) -> Result<Json, Error> {
    let [a, b] = list(e, "cells") else {
        return Err(err("a dot or mark is not between two cells"));
    };
    let ([r1, c1], [r2, c2]) = (inside(a, n)?, inside(b, n)?);
    Ok(json!([r1, c1, r2, c2]))
}

/// Kropki dots. Non-consecutive ticked beside dots rules out consecutive digits between neighbours with no
/// dot, as SudokuSolver reads it: the white dots' negative constraint (and not the rule over the whole grid,
/// which the white dots would break and black ones on 1-2 too). White dots all given and no black dot are
/// consecutive marks (the schema's `consecutive`); dots of one colour all given beside the other's not are
/// `white-all` or `black-all`.
fn dots(puzzle: &Json, record: &mut Json, n: usize, negative: &[&str]) -> Result<(), Error> {
    let (white, black) = (list(puzzle, "difference"), list(puzzle, "ratio"));
    let nonconsecutive = present(puzzle, "nonconsecutive");
    let dotted = !white.is_empty() || !black.is_empty();
    let white_all = negative.contains(&"difference") || nonconsecutive && dotted;
    if white_all {
        drop_rule(record, "non-consecutive");
    }
    let dots_all_given = match (white_all, negative.contains(&"ratio")) {
        (true, true) => true,
        (false, false) => false,
        (true, false) if black.is_empty() => return consecutive(white, record, n),
        (true, false) => {
            let white = ("white", "difference", 1, white);
            return one_colour_all(record, n, white, ("black", "ratio", 2, black));
        }
        (false, true) => {
            let black = ("black", "ratio", 2, black);
            return one_colour_all(record, n, black, ("white", "difference", 1, white));
        }
    };
    for (key, section, standard) in [("difference", "white", 1), ("ratio", "black", 2)] {
        let section = open(section, dots_all_given);
        if dots_all_given {
            ensure_pairs(record, &section);
        }
        for e in list(puzzle, key) {
            push_pair(record, &section, dot(e, key, standard, n)?);
        }
    }
    Ok(())
}

/// A colour of kropki dots: its name, its f-puzzles key, its own number, and its dots.
type Colour<'a> = (&'a str, &'a str, u64, &'a [Json]);

/// Dots of one colour all given (`white-all`, `black-all`) beside the other's where the setter placed them
/// (`-open`): under the first colour's negative constraint a pair with a dot of the other is free (a black dot
/// on 1-2 beside white dots all given), as SudokuSolver reads it.
fn one_colour_all(record: &mut Json, n: usize, all: Colour, placed: Colour) -> Result<(), Error> {
    let section = format!("{}-all", all.0);
    ensure_pairs(record, &section);
    for e in all.3 {
        push_pair(record, &section, dot(e, all.1, all.2, n)?);
    }
    for e in placed.3 {
        push_pair(
            record,
            &open(placed.0, false),
            dot(e, placed.1, placed.2, n)?,
        );
    }
    Ok(())
}

/// A kropki dot as a pair; a numbered dot (f-puzzles' "value") keeps its number as the pair's fifth element
/// unless it is the colour's `standard` one.
fn dot(e: &Json, key: &str, standard: u64, n: usize) -> Result<Json, Error> {
    let mut entry = pair_of(e, n)?;
    if let Some(k) = dot_number(e, key)?.filter(|&k| k != standard) {
        entry.as_array_mut().expect("a pair").push(json!(k));
    }
    Ok(entry)
}

/// White dots, every one given and no black dot: the schema's consecutive marks.
fn consecutive(white: &[Json], record: &mut Json, n: usize) -> Result<(), Error> {
    let mut marks = Vec::new();
    for e in white {
        if let Some(k) = dot_number(e, "difference")?.filter(|&k| k != 1) {
            return Err(err(format!(
                "a difference dot of {k} among white dots all given and no black dot: latin's consecutive marks carry no number"
            )));
        }
        marks.push(pair_of(e, n)?);
    }
    record["consecutive"] = Json::Array(marks);
    Ok(())
}

/// Takes a named rule out of the record's `rules` (and the list with it when it empties).
fn drop_rule(record: &mut Json, rule: &str) {
    if let Some(rules) = record["rules"].as_array_mut() {
        rules.retain(|r| r != rule);
        if rules.is_empty() {
            record.as_object_mut().map(|o| o.remove("rules"));
        }
    }
}

/// The number a kropki dot shows (f-puzzles' `value`, a string of digits), `None` when it shows none.
fn dot_number(e: &Json, key: &str) -> Result<Option<u64>, Error> {
    let text = match &e["value"] {
        Json::Null => return Ok(None),
        Json::String(s) if s.trim().is_empty() => return Ok(None),
        Json::String(s) => s.trim().to_owned(),
        Json::Number(k) => k.to_string(),
        other => other.to_string(),
    };
    match text.parse::<u64>() {
        Ok(k) if (1..=crate::parse::cells::MAX_PAIR_NUMBER).contains(&k) => Ok(Some(k)),
        _ => Err(err(format!(
            "a {key} dot of {text:?}: a dot's number is a whole number from 1 to {}",
            crate::parse::cells::MAX_PAIR_NUMBER
        ))),
    }
}

/// The pairs under `section`, there even when empty: marks all given, none of them here.
fn ensure_pairs(record: &mut Json, section: &str) {
    if record["pairs"][section].is_null() {
        record["pairs"][section] = json!([]);
    }
}

fn push_pair(record: &mut Json, section: &str, pair: Json) {
    ensure_pairs(record, section);
    record["pairs"][section]
        .as_array_mut()
        .expect("a list")
        .push(pair);
}

/// The outside clues f-puzzles keeps in the cells just outside the grid (`{cell: "R0C3", value: "15"}`): its
/// key, the record key, and what an error calls one. Sandwich sums go to the schema's `edges`, skyscraper counts
/// to `sky`, x-sums and battlefield clues to latin's own `xsums` and `battlefield`.
const EDGE_CLUES: [(&str, &str, &str); 4] = [
    ("sandwichsum", "edges", "sandwich clue"),
    ("skyscraper", "sky", "skyscraper clue"),
    ("xsum", super::XSUMS, "x-sum clue"),
    ("battlefield", super::BATTLEFIELD, "battlefield clue"),
];

fn edge_clues(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    for (key, record_key, what) in EDGE_CLUES {
        let entries = list(puzzle, key);
        if entries.is_empty() {
            continue;
        }
        let mut sides: BTreeMap<&str, Vec<Json>> = ["top", "bottom", "left", "right"]
            .into_iter()
            .map(|s| (s, vec![Json::Null; n]))
            .collect();
        for e in entries {
            let (r, c) = position(&e["cell"])?;
            let (side, k) = match (r, c) {
                (0, c) if (1..=n).contains(&c) => ("top", c),
                (r, c) if r == n + 1 && (1..=n).contains(&c) => ("bottom", c),
                (r, 0) if (1..=n).contains(&r) => ("left", r),
                (r, c) if c == n + 1 && (1..=n).contains(&r) => ("right", r),
                _ => {
                    return Err(err(format!(
                        "{what} at {} is not outside the grid",
                        e["cell"]
                    )))
                }
            };
            sides.get_mut(side).expect("a side")[k - 1] = json!(value(e, what)?);
        }
        for (side, clues) in sides {
            if clues.iter().any(|c| !c.is_null()) {
                // The schema's `sky` says "no clue" with 0 (a count is at least 1).
                let clues: Vec<Json> = match record_key {
                    "sky" => clues
                        .into_iter()
                        .map(|c| if c.is_null() { json!(0) } else { c })
                        .collect(),
                    _ => clues,
                };
                record[record_key][side] = json!(clues);
            }
        }
    }
    Ok(())
}

fn parity(puzzle: &Json, record: &mut Json, n: usize) -> Result<(), Error> {
    if !present(puzzle, "odd") && !present(puzzle, "even") {
        return Ok(());
    }
    let mut marks = vec![vec![String::new(); n]; n];
    for (key, mark) in [("odd", "O"), ("even", "E")] {
        for e in list(puzzle, key) {
            let [r, c] = inside(&e["cell"], n)?;
            marks[r][c] = mark.to_owned();
        }
    }
    record["parity"] = json!(marks);
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

pub(super) fn cell_name(r: usize, c: usize) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A record as an f-puzzles link.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let payload = payload_of(&to_fpuzzles(record)?, Format::Fpuzzles)?;
    Ok(format!("{LINK}{payload}"))
}

/// The payload of a link that opens f-puzzles JSON: its text as UTF-16, lz-string compressed to base64; refused
/// (naming `format`) past the length links are read up to.
pub(super) fn payload_of(puzzle: &Json, format: Format) -> Result<String, Error> {
    let text: Vec<u16> = puzzle.to_string().encode_utf16().collect();
    let payload = lz_str::compress_to_base64(text);
    super::payload::within_reach(payload, format, super::payload::MAX_PAYLOAD)
}

/// The record keys f-puzzles can say, beside those that say nothing about the puzzle ([`super::ABOUT`]).
const SAYABLE: [&str; 17] = [
    "size",
    "givens",
    "solution",
    "boxes",
    "regions",
    "clues",
    "diagonals",
    "rules",
    "lines",
    "line_clues",
    "pairs",
    "edges",
    "sky",
    super::XSUMS,
    "parity",
    "less",
    "consecutive",
];

/// A record as f-puzzles JSON.
pub(crate) fn to_fpuzzles(record: &Json) -> Result<Json, Error> {
    to_fpuzzles_with(record, &[])
}

/// A record as f-puzzles JSON, with `extra` record keys taken beside those f-puzzles can say: a writer that
/// draws from this JSON (Penpa+) and can say more than f-puzzles names them.
pub(crate) fn to_fpuzzles_with(record: &Json, extra: &[&str]) -> Result<Json, Error> {
    let n = record["size"]
        .as_u64()
        .ok_or_else(|| err("the record has no size"))? as usize;
    // The record is in the schema's keys (`model::fit::in_schema_terms` puts a grammar's puzzle so); a key
    // f-puzzles has no constraint for is refused by name, never dropped.
    if let Some(key) = record
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, _)| k.as_str())
        .find(|k| !super::ABOUT.contains(k) && !SAYABLE.contains(k) && !extra.contains(k))
    {
        return Err(err(format!("`{key}`: f-puzzles has no such constraint")));
    }
    let givens = match &record["givens"] {
        Json::Null => vec![0; n * n],
        g => numbers(g, n, "givens").map_err(err)?,
    };
    let region_of = regions_of(record, n)?;
    let default = default_boxes(n);
    let grid: Vec<Vec<Json>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let i = r * n + c;
                    let mut cell = Map::new();
                    if givens[i] > 0 {
                        cell.insert("value".into(), json!(givens[i]));
                        cell.insert("given".into(), json!(true));
                    }
                    match &region_of {
                        None => {
                            cell.insert("region".into(), Json::Null);
                        }
                        Some(of) if default.is_none_or(|b| box_of(r, c, b, n) != of[i]) => {
                            cell.insert("region".into(), json!(of[i]));
                        }
                        Some(_) => {}
                    }
                    Json::Object(cell)
                })
                .collect()
        })
        .collect();
    let mut out = json!({"size": n, "grid": grid});
    for key in ["title", "author"] {
        if let Some(text) = record[key].as_str() {
            out[key] = json!(text);
        }
    }
    if record["diagonals"].as_bool() == Some(true) {
        out["diagonal+"] = json!(true);
        out["diagonal-"] = json!(true);
    }
    for rule in record["rules"].as_array().into_iter().flatten() {
        let key = match rule.as_str().unwrap_or_default() {
            "anti-knight" => "antiknight",
            "anti-king" => "antiking",
            "non-consecutive" => "nonconsecutive",
            "disjoint-groups" => "disjointgroups",
            "anti-diagonal" => "diagonal+",
            "main-diagonal" => "diagonal-",
            other => return Err(err(format!("rule {other}: f-puzzles has no such rule"))),
        };
        out[key] = json!(true);
    }
    write_constraints(record, &mut out, n)?;
    if let Some(solution) = record["solution"].as_array() {
        let flat: Vec<u64> = numbers(&json!(solution), n, "solution").map_err(err)?;
        out["solution"] = json!(flat);
    }
    Ok(out)
}

/// Every cell's region number: the jigsaw regions in order of first cell, or the boxes.
fn regions_of(record: &Json, n: usize) -> Result<Option<Vec<usize>>, Error> {
    if super::layout_regions(record) {
        let ids = region_ids(&record["regions"], n).map_err(err)?;
        let mut order: Vec<&String> = Vec::new();
        let numbers: Vec<usize> = ids
            .iter()
            .map(|id| {
                order.iter().position(|o| *o == id).unwrap_or_else(|| {
                    order.push(id);
                    order.len() - 1
                })
            })
            .collect();
        // f-puzzles numbers a cell's region 0..n: n regions, each of n cells.
        let whole = (0..order.len()).all(|k| numbers.iter().filter(|&&r| r == k).count() == n);
        if order.len() != n || !whole {
            return Err(err(format!(
                "f-puzzles splits a {n}x{n} grid into {n} regions of {n} cells; these are {} regions",
                order.len()
            )));
        }
        return Ok(Some(numbers));
    }
    let b = match record["boxes"].as_array().map(Vec::as_slice) {
        Some([h, w]) => (
            h.as_u64().unwrap_or(0) as usize,
            w.as_u64().unwrap_or(0) as usize,
        ),
        Some(_) => return Err(err("boxes are not [height, width]")),
        // Neither boxes nor regions: a Latin square, every cell out of f-puzzles' regions.
        None => return Ok(None),
    };
    if b.0 * b.1 != n {
        return Err(err(format!("boxes {}x{} do not tile {n}x{n}", b.0, b.1)));
    }
    Ok(Some(box_map(n, b)))
}

/// Arrows: one with a one-cell circle each, and one entry a pill with every arrow that leaves it; arrows on
/// which no digit repeats with the sentence that says so.
fn write_arrows(record: &Json, out: &mut Json) -> Result<(), Error> {
    let pills = list(&record["lines"], "pills");
    let (plain, distinct) = (
        list(&record["lines"], "arrows"),
        list(&record["lines"], "distinctarrows"),
    );
    if !plain.is_empty() && !distinct.is_empty() {
        return Err(err(
            "arrows on which digits may repeat beside arrows on which they may not, which f-puzzles' rules text cannot tell apart",
        ));
    }
    if !distinct.is_empty() {
        super::globals::said(out, super::globals::ARROWS_DISTINCT_SENTENCE);
    }
    let mut leaving: Vec<Vec<Vec<String>>> = vec![Vec::new(); pills.len()];
    for l in plain.iter().chain(distinct) {
        let cells = cell_list(l)?;
        let from = pills
            .iter()
            .position(|p| p.as_array().is_some_and(|p| p.contains(&l[0])));
        match from {
            Some(k) => leaving[k].push(cells),
            None => push(
                out,
                "arrow",
                json!({"cells": [cells.first()], "lines": [cells]}),
            ),
        }
    }
    for (p, lines) in pills.iter().zip(leaving) {
        if !lines.is_empty() {
            push(
                out,
                "arrow",
                json!({"cells": cell_list(p)?, "lines": lines}),
            );
        }
    }
    Ok(())
}

pub(super) fn cell_list(cells: &Json) -> Result<Vec<String>, Error> {
    cells
        .as_array()
        .into_iter()
        .flatten()
        .map(|rc| match (rc[0].as_u64(), rc[1].as_u64()) {
            (Some(r), Some(c)) => Ok(cell_name(r as usize, c as usize)),
            _ => Err(err(format!("{rc} is not a cell"))),
        })
        .collect()
}

/// Lines whose rule has a gap (`whispers`, `whispers-by-K`, `lockouts`, ...). A whisper carries its gap as its
/// `value` (what SudokuSolver reads), so that a Dutch whisper is not read back as a German one; a lockout line
/// has no such field, so only the gap f-puzzles gives every lockout, half the size rounded down, is written.
fn write_gapped(record: &Json, out: &mut Json, n: usize) -> Result<(), Error> {
    let Some(lines) = record["lines"].as_object() else {
        return Ok(());
    };
    for (key, list) in lines {
        let (base, gap) = match key.split_once("-by-") {
            Some((base, k)) => (base, k.parse::<u64>().ok()),
            None => (key.as_str(), None),
        };
        let Some(&(_, _, usual)) = super::GAPPED.iter().find(|g| g.0 == base) else {
            continue;
        };
        let gap = gap.unwrap_or(usual);
        let too_far = gap >= n as u64;
        let entry = |l: &Json| -> Result<Json, Error> {
            Ok(match base {
                "whispers" => json!({"lines": [cell_list(l)?], "value": gap.to_string()}),
                _ => json!({"lines": [cell_list(l)?]}),
            })
        };
        let said = match base {
            "whispers" if too_far => Some(format!(
                "its whispers on a {n}x{n} grid are 1 to {} apart",
                n.saturating_sub(1)
            )),
            "lockouts" if gap != n as u64 / 2 => Some(format!(
                "its lockout ends on a {n}x{n} grid are {} apart",
                n / 2
            )),
            _ => None,
        };
        if let Some(why) = said {
            return Err(err(format!(
                "{base} {gap} apart: f-puzzles cannot say it ({why})"
            )));
        }
        let field = if base == "whispers" {
            "whispers"
        } else {
            "lockout"
        };
        for l in list.as_array().into_iter().flatten() {
            push(out, field, entry(l)?);
        }
    }
    Ok(())
}

/// The constraints of a record beside its grid and givens, under f-puzzles' names: lines, arrows, diagonals,
/// cages, pairs, edge clues and marks.
fn write_constraints(record: &Json, out: &mut Json, n: usize) -> Result<(), Error> {
    for (section, key) in [
        ("thermos", "thermometer"),
        ("slowthermos", "slowthermometer"),
        ("renban", "renban"),
        ("palindromes", "palindrome"),
        ("betweenlines", "betweenline"),
        ("regionsumlines", "regionsumline"),
        ("entropiclines", "entropicline"),
        ("modularlines", "modularline"),
        ("doublearrows", "doublearrow"),
        ("zippers", "zipperline"),
        ("nabner", "nabner"),
    ] {
        for l in record["lines"][section].as_array().into_iter().flatten() {
            push(out, key, json!({"lines": [cell_list(l)?]}));
        }
    }
    write_gapped(record, out, n)?;
    write_arrows(record, out)?;
    for (section, key) in [
        ("extraregions", "extraregion"),
        ("rowindexers", "rowindexer"),
        ("columnindexers", "columnindexer"),
        ("boxindexers", "boxindexer"),
    ] {
        for l in record["lines"][section].as_array().into_iter().flatten() {
            push(out, key, json!({"cells": cell_list(l)?}));
        }
    }
    write_quadruples(record, out)?;
    write_diagonals(record, out)?;
    write_cages(record, out, n)?;
    write_pairs(record, out)?;
    write_edge_clues(record, out, n);
    write_extremes(record, out, n)?;
    write_clones(record, out)?;
    super::coloured::write(record, out)?;
    write_parity(record, out)
}

/// The lines of a record section, each with its clue (`null` where it has none).
fn clued_lines<'a>(
    record: &'a Json,
    section: &'a str,
) -> impl Iterator<Item = (&'a Json, &'a Json)> {
    list(&record["lines"], section)
        .iter()
        .enumerate()
        .map(move |(k, l)| (l, &record["line_clues"][section][k]))
}

/// Quadruples: the four cells of a 2x2 block, each with its digits.
fn write_quadruples(record: &Json, out: &mut Json) -> Result<(), Error> {
    for (l, digits) in clued_lines(record, "quadruples") {
        let cells = cell_list(l)?;
        // Four cells, their rows and their columns each spanning two (the cells of a line never repeat).
        let at: Vec<(u64, u64)> = l
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|rc| rc[0].as_u64().zip(rc[1].as_u64()))
            .collect();
        let spans = |f: fn(&(u64, u64)) -> u64| {
            let (lo, hi) = (at.iter().map(f).min(), at.iter().map(f).max());
            lo.zip(hi).is_some_and(|(lo, hi)| hi - lo == 1)
        };
        let square = at.len() == 4 && spans(|p| p.0) && spans(|p| p.1);
        if !square {
            return Err(err(
                "f-puzzles draws a quadruple on the four cells of a 2x2 block",
            ));
        }
        if !digits.is_array() {
            return Err(err("a quadruple without its digits"));
        }
        push(out, "quadruple", json!({"cells": cells, "values": digits}));
    }
    Ok(())
}

/// Little-killer diagonals, each with its sum and the cell outside the grid where f-puzzles draws it.
fn write_diagonals(record: &Json, out: &mut Json) -> Result<(), Error> {
    for (l, clue) in clued_lines(record, "diagonals") {
        let cells: Vec<(i64, i64)> = l
            .as_array()
            .into_iter()
            .flatten()
            .map(|rc| (rc[0].as_i64().unwrap_or(0), rc[1].as_i64().unwrap_or(0)))
            .collect();
        let [(r0, c0), (r1, c1), ..] = cells[..] else {
            return Err(err("a little-killer diagonal of one cell has no direction"));
        };
        let (dr, dc) = (r1 - r0, c1 - c0);
        let direction = match (dr, dc) {
            (1, 1) => "DR",
            (1, -1) => "DL",
            (-1, 1) => "UR",
            (-1, -1) => "UL",
            _ => return Err(err("a little-killer line that is not a diagonal")),
        };
        let sum = clue
            .as_u64()
            .ok_or_else(|| err("a little-killer line without its sum"))?;
        let clue_cell = format!("R{}C{}", r0 - dr + 1, c0 - dc + 1);
        push(
            out,
            "littlekillersum",
            json!({"cell": clue_cell, "cells": cell_list(l)?, "direction": direction, "value": sum.to_string()}),
        );
    }
    Ok(())
}

/// A record's cages (its regions with clues), each with its sum, and its cages where drawn; cages whose digits
/// may repeat with the sentence that says so. A cell in two cages is refused: f-puzzles reads no link that has
/// one (nor does [`killer`]).
fn write_cages(record: &Json, out: &mut Json, n: usize) -> Result<(), Error> {
    let repeating = !list(&record["lines"], "repeatcages").is_empty();
    let products = !list(&record["lines"], "productcages").is_empty();
    let differing = !list(&record["lines"], "killercages").is_empty()
        || (record["regions"].is_array() && record["clues"].is_object());
    if [repeating, products, differing]
        .iter()
        .filter(|&&k| k)
        .count()
        > 1
    {
        return Err(err(
            "killer cages of two kinds (sums whose digits differ, sums whose digits may repeat, products), which f-puzzles' rules text cannot tell apart",
        ));
    }
    let mut taken = BTreeSet::new();
    let mut take = |cells: &[String]| -> Result<(), Error> {
        match cells.iter().find(|c| !taken.insert(c.to_string())) {
            Some(cell) => Err(err(format!(
                "{cell} is in two killer cages, which f-puzzles does not read"
            ))),
            None => Ok(()),
        }
    };
    if let Some(ids) = record["regions"]
        .as_array()
        .filter(|_| record["clues"].is_object())
    {
        let ids = region_ids(&json!(ids), n).map_err(err)?;
        let mut cages: Vec<(String, Vec<String>)> = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            match cages.iter_mut().find(|(c, _)| c == id) {
                Some((_, cells)) => cells.push(cell_name(i / n, i % n)),
                None => cages.push((id.clone(), vec![cell_name(i / n, i % n)])),
            }
        }
        for (id, cells) in cages {
            let sum = record["clues"][id.as_str()]
                .as_str()
                .ok_or_else(|| err(format!("cage {id} has no sum")))?;
            take(&cells)?;
            push(out, "killercage", json!({"cells": cells, "value": sum}));
        }
    }
    // Cages where the setter drew them: each with its sum, or none.
    let drawn = ["killercages", "repeatcages", "productcages"];
    for (l, sum) in drawn.iter().flat_map(|&key| clued_lines(record, key)) {
        let cells = cell_list(l)?;
        take(&cells)?;
        let mut cage = json!({ "cells": cells });
        if let Some(sum) = sum.as_u64() {
            cage["value"] = json!(sum.to_string());
        }
        push(out, "killercage", cage);
    }
    if repeating {
        super::globals::said(out, super::globals::CAGE_REPEATS_SENTENCE);
    }
    if products {
        super::globals::said(out, super::globals::CAGE_PRODUCT_SENTENCE);
    }
    Ok(())
}

/// Sandwich sums, skyscraper counts, x-sums and battlefield clues, in the cells just outside the grid.
fn write_edge_clues(record: &Json, out: &mut Json, n: usize) {
    for (key, record_key, _) in EDGE_CLUES {
        for (side, (r, c)) in [
            ("top", (0, 1)),
            ("bottom", (n + 1, 1)),
            ("left", (1, 0)),
            ("right", (1, n + 1)),
        ] {
            for (k, clue) in record[record_key][side]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                // A count of 0 in `sky` is no clue.
                let Some(v) = clue.as_u64().filter(|&v| v > 0 || record_key != "sky") else {
                    continue;
                };
                let (row, col) = if c == 1 { (r, k + 1) } else { (k + 1, c) };
                push(
                    out,
                    key,
                    json!({"cell": format!("R{row}C{col}"), "value": v.to_string()}),
                );
            }
        }
    }
}

/// Pairs of equal cells, each a clone of one cell.
fn write_clones(record: &Json, out: &mut Json) -> Result<(), Error> {
    for q in record["pairs"]["clones"].as_array().into_iter().flatten() {
        let cell = |i: usize| q[i].as_u64().map(|v| v as usize);
        let (Some(r1), Some(c1), Some(r2), Some(c2)) = (cell(0), cell(1), cell(2), cell(3)) else {
            return Err(err(format!("{q} is not a pair")));
        };
        push(
            out,
            "clone",
            json!({"cells": [cell_name(r1, c1)], "cloneCells": [cell_name(r2, c2)]}),
        );
    }
    Ok(())
}

/// Signs between cells, which f-puzzles has as minimum and maximum cells: a cell whose signs make it smaller
/// (larger) than every cell beside it but those of its own kind with no sign between them is written as a
/// minimum (maximum), and the signs that belong to no such cell are drawn as text ([`super::signs::write`]).
fn write_extremes(record: &Json, out: &mut Json, n: usize) -> Result<(), Error> {
    let Some(list) = record["less"].as_array() else {
        return Ok(());
    };
    let less: BTreeSet<[usize; 4]> = list
        .iter()
        .map(|p| {
            let at = |i: usize| p[i].as_u64().map(|v| v as usize);
            match (at(0), at(1), at(2), at(3)) {
                (Some(a), Some(b), Some(c), Some(d)) => Ok([a, b, c, d]),
                _ => Err(err(format!("{p} is not a pair of cells"))),
            }
        })
        .collect::<Result<_, _>>()?;
    let mut covered = BTreeSet::new();
    for (key, smaller) in [("minimum", true), ("maximum", false)] {
        let kind = extreme_cells(&less, n, smaller);
        covered.extend(signs_of(&kind, n, smaller));
        for &[r, c] in &kind {
            push(out, key, json!({"cell": cell_name(r, c)}));
        }
    }
    let rest: Vec<[usize; 4]> = less.difference(&covered).copied().collect();
    super::signs::write(out, &rest).map_err(err)
}

/// The cells the signs `less` make minima (`smaller`) or maxima, as [`extremes`] reads them: each has a sign
/// toward at least one cell beside it, and toward every other unless that one has no sign between them and is
/// of the kind too (the largest such set: cells are dropped until every one left qualifies).
fn extreme_cells(less: &BTreeSet<[usize; 4]>, n: usize, smaller: bool) -> BTreeSet<[usize; 2]> {
    let sign = |cell, other| less.contains(&sign_of(smaller, cell, other));
    let unsigned = |[r, c]: [usize; 2], [a, b]: [usize; 2]| {
        !less.contains(&[r, c, a, b]) && !less.contains(&[a, b, r, c])
    };
    let mut kind: BTreeSet<[usize; 2]> = (0..n * n)
        .map(|k| [k / n, k % n])
        .filter(|&cell| {
            let [r, c] = cell;
            beside(r, c, n).any(|o| sign(cell, o))
                && beside(r, c, n).all(|o| sign(cell, o) || unsigned(cell, o))
        })
        .collect();
    // A cell dropped can only make its neighbours drop: each is looked at again when one beside it goes, so that
    // a long chain of them costs its length, not its length times the grid.
    let mut look: Vec<[usize; 2]> = kind.iter().copied().collect();
    while let Some(cell) = look.pop() {
        let [r, c] = cell;
        let lone = beside(r, c, n).any(|o| unsigned(cell, o) && !kind.contains(&o));
        if kind.contains(&cell) && lone {
            kind.remove(&cell);
            look.extend(beside(r, c, n).filter(|o| kind.contains(o)));
        }
    }
    kind
}

/// Odd and even marks.
fn write_parity(record: &Json, out: &mut Json) -> Result<(), Error> {
    for (r, row) in record["parity"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        for (c, mark) in row.as_array().into_iter().flatten().enumerate() {
            match mark.as_str() {
                Some("O") => push(out, "odd", json!({"cell": cell_name(r, c)})),
                Some("E") => push(out, "even", json!({"cell": cell_name(r, c)})),
                Some("") | None => {}
                Some(m) => return Err(err(format!("mark {m:?}: f-puzzles has odd and even only"))),
            }
        }
    }
    Ok(())
}

/// The cells of a schema pair `[r1, c1, r2, c2]` as f-puzzles names them, and its number when it has a fifth.
fn pair_cells(q: &Json) -> Result<([String; 2], Option<u64>), Error> {
    match q.as_array().map(Vec::as_slice) {
        Some([r1, c1, r2, c2, rest @ ..]) if rest.len() <= 1 => Ok((
            [[r1, c1], [r2, c2]].map(|[r, c]| {
                cell_name(
                    r.as_u64().unwrap_or(0) as usize,
                    c.as_u64().unwrap_or(0) as usize,
                )
            }),
            rest.first().and_then(Json::as_u64),
        )),
        _ => Err(err(format!("{q} is not a pair"))),
    }
}

fn write_pairs(record: &Json, out: &mut Json) -> Result<(), Error> {
    let mut negative = Vec::new();
    for (section, key, value) in [
        ("white", "difference", None),
        ("black", "ratio", None),
        ("x", "xv", Some("X")),
        ("v", "xv", Some("V")),
        ("white-open", "difference", None),
        ("black-open", "ratio", None),
        ("black-all", "ratio", None),
        ("white-all", "difference", None),
        ("x-open", "xv", Some("X")),
        ("v-open", "xv", Some("V")),
    ] {
        for q in record["pairs"][section].as_array().into_iter().flatten() {
            let (cells, number) = pair_cells(q)?;
            let mut entry = json!({"cells": cells});
            match (value, number) {
                (Some(v), None) => entry["value"] = json!(v),
                // A numbered dot: f-puzzles writes the number as the dot's value.
                (None, Some(k)) => entry["value"] = json!(k.to_string()),
                (None, None) => {}
                (Some(_), Some(k)) => {
                    return Err(err(format!(
                        "an {section} mark numbered {k}: f-puzzles' X and V carry no number"
                    )))
                }
            }
            push(out, key, entry);
        }
    }
    // Consecutive marks, all given: white dots with their negative constraint alone.
    for q in record["consecutive"].as_array().into_iter().flatten() {
        push(out, "difference", json!({"cells": pair_cells(q)?.0}));
    }
    // The schema's pairs are all the marks there are (every unmarked pair has neither relation).
    let has = |key: &str| !record["pairs"][key].is_null();
    if has("white") || has("black") {
        negative.extend(["ratio", "difference"]);
    } else if record["consecutive"].is_array() || has("white-all") {
        negative.push("difference");
    } else if has("black-all") {
        negative.push("ratio");
    }
    if has("x") || has("v") {
        negative.push("xv");
    }
    if !negative.is_empty() {
        out["negative"] = json!(negative);
    }
    Ok(())
}

/// Adds an entry to the list under `key` of the f-puzzles JSON being written (made on first use).
pub(super) fn push(out: &mut Json, key: &str, entry: Json) {
    if out[key].is_null() {
        out[key] = json!([]);
    }
    out[key].as_array_mut().expect("a list").push(entry);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An f-puzzles puzzle of size n whose cell (r, c) is `cell(r, c)`.
    fn board(n: usize, cell: &dyn Fn(usize, usize) -> Json) -> Json {
        let rows: Vec<Json> = (0..n)
            .map(|r| json!((0..n).map(|c| cell(r, c)).collect::<Vec<_>>()))
            .collect();
        json!({"size": n, "grid": rows})
    }

    /// f-puzzles' region tool writes `"region": null` for a cell it takes out of every region: every cell so is a
    /// Latin square (no boxes, which a cell without the key would have), some cells so is refused by cell.
    #[test]
    fn cells_out_of_every_region_are_a_latin_square() {
        let grid = |null: &dyn Fn(usize, usize) -> bool| {
            board(4, &|r, c| match null(r, c) {
                true => json!({"region": null}),
                false => json!({}),
            })
        };
        let all = decode(&grid(&|_, _| true).to_string()).unwrap();
        assert!(all["boxes"].is_null() && all["regions"].is_null(), "{all}");
        let cells = to_fpuzzles(&all).unwrap()["grid"].clone();
        assert!(cells
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .all(|c| c == &json!({"region": null})));
        let none = decode(&grid(&|_, _| false).to_string()).unwrap();
        assert_eq!(none["boxes"], json!([2, 2]));
        // A size with no boxes: cells with no region key are in their row's region, so a grid of them alone is
        // a Latin square, and beside regions a setter drew, the rest are rows (three here, and two bent ones).
        let plain = decode(&board(5, &|_, _| json!({})).to_string()).unwrap();
        assert!(
            plain["boxes"].is_null() && plain["regions"].is_null(),
            "{plain}"
        );
        let bent = |r: usize, c: usize| match (r, c) {
            (3, 0..=3) | (4, 0) => json!({"region": 3}),
            (4, _) | (3, 4) => json!({"region": 4}),
            _ => json!({}),
        };
        let drawn = decode(&board(5, &bent).to_string()).unwrap();
        assert!(drawn["boxes"].is_null(), "{drawn}");
        assert_eq!(
            drawn["regions"],
            json!([
                ["a", "a", "a", "a", "a"],
                ["b", "b", "b", "b", "b"],
                ["c", "c", "c", "c", "c"],
                ["d", "d", "d", "d", "e"],
                ["d", "e", "e", "e", "e"]
            ])
        );
        let e = decode(&grid(&|r, c| (r, c) == (2, 1)).to_string())
            .unwrap_err()
            .to_string();
        assert!(e.contains("R3C2 is in no region"), "{e}");
        let mut disjoint = grid(&|_, _| true);
        disjoint["disjointgroups"] = json!(true);
        let e = decode(&disjoint.to_string()).unwrap_err().to_string();
        assert!(e.contains("no regions"), "{e}");
    }

    /// The editor's and the solver's own settings say no rule: read past, not refused.
    #[test]
    fn the_editors_settings_are_read_past() {
        let mut puzzle = board(4, &|_, _| json!({}));
        puzzle["activeConstraints"] = json!(["Killer Cage", "Little Killer Sum"]);
        puzzle["disabledlogic"] = json!(["Tuples"]);
        puzzle["truecandidatesoptions"] = json!(["colored"]);
        let read = decode(&puzzle.to_string()).unwrap();
        assert_eq!(read["boxes"], json!([2, 2]), "{read}");
        puzzle["queen"] = json!(true);
        assert!(decode(&puzzle.to_string()).is_err());
    }

    #[test]
    fn a_link_reads_as_its_json_does() {
        let json = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"diagonal+":true,"diagonal-":true}"#;
        let link = format!(
            "https://www.f-puzzles.com/?load={}",
            lz_str::compress_to_base64(json)
        );
        let from_link = decode(&link).unwrap();
        assert_eq!(from_link, decode(json).unwrap());
        let payload = &link[link.find("load=").unwrap() + 5..];
        for sudokupad in [
            "https://sudokupad.app/fpuzzles",
            "https://sudokupad.app/fpuz",
            "fpuz",
        ] {
            let text = format!("{sudokupad}{payload}");
            assert!(recognises(&text), "{text}");
            assert_eq!(decode(&text).unwrap(), from_link, "{text}");
        }
        // The type is the grammar's that has what the link holds: `model::fit` finds it.
        assert!(from_link.get("type").is_none());
        assert_eq!(from_link["boxes"], json!([2, 2]));
        assert_eq!(from_link["diagonals"], true);
        let pad = format!(
            "https://sudokupad.app/fpuzzles{}",
            lz_str::compress_to_base64(json)
        );
        assert_eq!(decode(&pad).unwrap(), from_link);
    }

    /// Cages where drawn may share a cell in a puzzle file, but not in a link, which no reader takes: writing one
    /// is refused by the cell (found by fuzzing the grammar target, which reads each link it writes back).
    /// A rule over the whole grid said in the rules text with its box left unticked is read as if ticked; one
    /// narrowed to some digits is refused.
    #[test]
    fn a_rule_said_in_the_rules_text_alone_is_read() {
        let puzzle = |rules: &str| {
            json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4], "ruleset": rules}).to_string()
        };
        let said = decode(&puzzle("Normal rules. Anti-knight.")).unwrap();
        assert_eq!(said["rules"], json!(["anti-knight"]));
        assert!(decode(&puzzle("Normal rules.")).unwrap()["rules"].is_null());
        let e = decode(&puzzle("1s cannot be a king's move apart"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("fpuzzles") && e.contains("narrows"), "{e}");
        // So is the negative constraint: the schema's `x` and `v` with it, a mark alone (`v-open`) without.
        let marked = |rules: &str| {
            let json = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4], "ruleset": rules,
                "xv": [{"cells": ["R1C1", "R1C2"], "value": "V"}]});
            decode(&json.to_string()).unwrap()["pairs"].clone()
        };
        assert_eq!(
            marked("All possible X and V are given."),
            json!({"v": [[0, 0, 0, 1]], "x": []})
        );
        assert_eq!(
            marked("Not all possible X and V are given."),
            json!({"v-open": [[0, 0, 0, 1]]})
        );
    }

    #[test]
    fn cages_sharing_a_cell_are_refused() {
        let record = json!({"type": "killer-cages", "size": 4, "boxes": [2, 2],
            "lines": {"killercages": [[[0, 0], [0, 1]], [[0, 1], [1, 1]]]},
            "line_clues": {"killercages": [3, null]}});
        let e = to_fpuzzles(&record).unwrap_err().to_string();
        assert!(e.contains("R1C2 is in two killer cages"), "{e}");
    }

    /// A puzzle's title and setter come along both ways; an empty one is no title.
    #[test]
    fn a_title_and_an_author_come_along() {
        let json = r#"{"size":4,"title":"Four","author":"A. Setter","ruleset":"","grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
        let record = decode(json).unwrap();
        assert_eq!(
            (&record["title"], &record["author"]),
            (&json!("Four"), &json!("A. Setter"))
        );
        let written = to_fpuzzles(&record).unwrap();
        assert_eq!(
            (&written["title"], &written["author"]),
            (&json!("Four"), &json!("A. Setter"))
        );
        let untitled = decode(&json.replace("\"Four\"", "\"\"")).unwrap();
        assert!(untitled.get("title").is_none());
    }

    /// A jigsaw grammar takes regions of any size, f-puzzles only n regions of n cells: writing other regions
    /// is refused, where it once wrote region numbers past n that no reader takes (found by fuzzing the
    /// grammar target, which reads each link written back).
    #[test]
    fn regions_f_puzzles_cannot_number_are_refused() {
        let record = json!({"size": 4, "regions": [["a", "a", "b", "b"], ["a", "a", "b", "b"],
            ["c", "c", "d", "d"], ["c", "e", "d", "d"]]});
        let e = to_fpuzzles(&record).unwrap_err().to_string();
        assert!(
            e.contains("4 regions of 4 cells; these are 5 regions"),
            "{e}"
        );
        let even = json!({"size": 4, "regions": [["a", "a", "b", "b"], ["a", "a", "b", "b"],
            ["c", "c", "d", "d"], ["c", "c", "d", "d"]]});
        assert!(to_fpuzzles(&even).is_ok());
    }

    /// Regions that are boxes of another shape than f-puzzles' default (3x2 on a 6x6, numbered in any order, as
    /// latin writes them or a setter draws them) are read as that box shape, so that rules that need boxes
    /// (region-sum lines, box indexers) keep them; rows as regions, and a jigsaw, stay regions.
    #[test]
    fn regions_that_tile_as_boxes_are_boxes_of_their_shape() {
        let read = |region: &dyn Fn(usize, usize) -> usize| {
            let puzzle = board(6, &|r, c| json!({"region": region(r, c)}));
            decode(&puzzle.to_string()).unwrap()
        };
        // 3x2 boxes, numbered from the last.
        let tall = read(&|r, c| 5 - ((r / 3) * 3 + c / 2));
        assert_eq!(tall["boxes"], json!([3, 2]), "{tall}");
        assert!(tall["regions"].is_null());
        let wide = read(&|r, c| (r / 2) * 2 + c / 3);
        assert_eq!(wide["boxes"], json!([2, 3]), "{wide}");
        let rows = read(&|r, _| r);
        assert!(
            rows["boxes"].is_null() && rows["regions"].is_array(),
            "{rows}"
        );
        // One cell swapped between two 3x2 boxes: a jigsaw.
        let jigsaw = read(&|r, c| match (r, c) {
            (2, 1) => 1,
            (0, 2) => 0,
            _ => (r / 3) * 3 + c / 2,
        });
        assert!(
            jigsaw["boxes"].is_null() && jigsaw["regions"].is_array(),
            "{jigsaw}"
        );
    }

    #[test]
    fn disjoint_groups_are_a_named_rule_both_ways() {
        let blank = r#"[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
        let record = decode(&format!(
            r#"{{"size":4,"grid":{blank},"disjointgroups":true}}"#
        ))
        .unwrap();
        assert_eq!(record["rules"], json!(["disjoint-groups"]));
        assert_eq!(to_fpuzzles(&record).unwrap()["disjointgroups"], json!(true));
        // Rows as the regions: no boxes, so no places inside them.
        let rows = (0..4)
            .map(|r| format!("[{}]", vec![format!(r#"{{"region":{r}}}"#); 4].join(",")))
            .collect::<Vec<_>>()
            .join(",");
        let e = decode(&format!(
            r#"{{"size":4,"grid":[{rows}],"disjointgroups":true}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("irregular regions"), "{e}");
    }

    /// One diagonal alone is a named rule of its own, both ways: `diagonal+` rises from the bottom-left corner
    /// (the anti-diagonal), `diagonal-` falls from the top-left (the main diagonal); both are `diagonals`.
    #[test]
    fn one_diagonal_is_its_own_rule() {
        let blank = r#"[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
        for (flags, rules, diagonals) in [
            (r#""diagonal+":true"#, json!(["anti-diagonal"]), Json::Null),
            (r#""diagonal-":true"#, json!(["main-diagonal"]), Json::Null),
            (
                r#""diagonal+":true,"diagonal-":true"#,
                Json::Null,
                json!(true),
            ),
        ] {
            let record = decode(&format!(r#"{{"size":4,"grid":{blank},{flags}}}"#)).unwrap();
            assert_eq!(record["rules"], rules, "{flags}");
            assert_eq!(record["diagonals"], diagonals, "{flags}");
            let back = to_fpuzzles(&record).unwrap();
            for key in ["diagonal+", "diagonal-"] {
                assert_eq!(
                    back[key].as_bool() == Some(true),
                    flags.contains(key),
                    "{flags}"
                );
            }
        }
    }

    /// Cages that tile a grid of boxes, each with its sum, are Killer Sudoku's regions; cages that leave a cell
    /// out, show no sum, or sit on irregular regions are groups of cells with their sums (null for none), and
    /// write back as they were read.
    #[test]
    fn killer_cages_tile_the_grid_or_lie_where_drawn() {
        let blank = "[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]";
        let cage = |cells: &str, value: &str| format!(r#"{{"cells":[{cells}]{value}}}"#);
        let tiles: Vec<String> = (0..4)
            .flat_map(|r| {
                [(1, 2), (3, 4)].map(|(a, b)| {
                    cage(
                        &format!(r#""R{0}C{a}","R{0}C{b}""#, r + 1),
                        r#","value":"5""#,
                    )
                })
            })
            .collect();
        let killer = decode(&format!(
            r#"{{"size":4,"grid":{blank},"killercage":[{}]}}"#,
            tiles.join(",")
        ))
        .unwrap();
        assert!(killer["regions"].is_array() && killer["clues"].is_object());
        assert!(killer["lines"]["killercages"].is_null());
        let some = format!(
            r#"{{"size":4,"grid":{blank},"killercage":[{},{}]}}"#,
            cage(r#""R1C1","R1C2""#, r#","value":"3""#),
            cage(r#""R3C3","R4C3","R4C4""#, "")
        );
        let record = decode(&some).unwrap();
        assert!(record["regions"].is_null());
        assert_eq!(
            record["lines"]["killercages"],
            json!([[[0, 0], [0, 1]], [[2, 2], [3, 2], [3, 3]]])
        );
        assert_eq!(record["line_clues"]["killercages"], json!([3, null]));
        let back = to_fpuzzles(&record).unwrap();
        assert_eq!(back["killercage"][0]["value"], "3");
        assert!(back["killercage"][1]["value"].is_null());
        // On rows as regions, cages that tile the grid are still groups: the record's one map is the regions.
        let rows = (0..4)
            .map(|r| format!("[{}]", vec![format!(r#"{{"region":{r}}}"#); 4].join(",")))
            .collect::<Vec<_>>()
            .join(",");
        let jigsaw = decode(&format!(
            r#"{{"size":4,"grid":[{rows}],"killercage":[{}]}}"#,
            tiles.join(",")
        ))
        .unwrap();
        assert!(jigsaw["regions"].is_array() && jigsaw["clues"].is_null());
        assert_eq!(jigsaw["lines"]["killercages"].as_array().unwrap().len(), 8);
    }

    /// A circle with two lines is two arrows from it, each adding up to the circle; a circle of several cells is
    /// a pill, in reading order whatever order the link lists it in, and its arrows may leave from any of its
    /// cells; a bent pill, or a line that starts outside its circle, is refused.
    #[test]
    fn an_arrow_with_two_lines_is_two_arrows() {
        let grid = "[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]";
        let arrow =
            |entry: &str| decode(&format!(r#"{{"size":4,"grid":{grid},"arrow":[{entry}]}}"#));
        let record =
            arrow(r#"{"cells":["R1C1"],"lines":[["R1C1","R1C2"],["R1C1","R2C1","R3C1"]]}"#)
                .unwrap();
        assert_eq!(
            record["lines"]["arrows"],
            json!([[[0, 0], [0, 1]], [[0, 0], [1, 0], [2, 0]]])
        );
        let record =
            arrow(r#"{"cells":["R1C2","R1C1"],"lines":[["R1C2","R2C2","R3C3"],["R1C1","R2C1"]]}"#)
                .unwrap();
        assert_eq!(record["lines"]["pills"], json!([[[0, 0], [0, 1]]]));
        // The same pill in two entries is one pill; a circle listed twice is one cell.
        let twice = r#"{"cells":["R1C1","R1C2"],"lines":[["R1C2","R2C2","R3C3"]]},{"cells":["R1C2","R1C1"],"lines":[["R1C1","R2C1"]]}"#;
        assert_eq!(
            arrow(twice).unwrap()["lines"]["pills"],
            json!([[[0, 0], [0, 1]]])
        );
        let doubled = arrow(r#"{"cells":["R1C1","R1C1"],"lines":[["R1C1","R2C1"]]}"#).unwrap();
        assert!(doubled["lines"]["pills"].is_null());
        assert_eq!(
            record["lines"]["arrows"],
            json!([[[0, 1], [1, 1], [2, 2]], [[0, 0], [1, 0]]])
        );
        for (entry, says) in [
            (
                r#"{"cells":["R1C1","R2C2"],"lines":[["R1C1","R2C1"]]}"#,
                "not a straight run",
            ),
            (
                r#"{"cells":["R1C1","R1C3"],"lines":[["R1C1","R2C1"]]}"#,
                "not a straight run",
            ),
            (
                r#"{"cells":["R1C1","R1C2"],"lines":[["R2C1","R3C1"]]}"#,
                "does not start in its circle",
            ),
            (
                r#"{"cells":["R1C1"],"lines":[["R2C1","R1C1"]]}"#,
                "does not start in its circle",
            ),
        ] {
            let e = arrow(entry).unwrap_err().to_string();
            assert!(e.contains(says), "{entry}: {e}");
        }
    }

    #[test]
    fn a_numbered_white_dot_beside_black_ones_keeps_its_number() {
        // Without black dots the white ones read as consecutive marks, which carry no number (refused
        // below); beside black dots they are white-all pairs, and those carry it.
        let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"difference":[{"cells":["R2C1","R2C2"],"value":"2"}],"ratio":[{"cells":["R1C1","R1C2"]}],"negative":["difference"]}"#;
        let record = decode(json).unwrap();
        assert_eq!(record["pairs"]["white-all"], json!([[1, 0, 1, 1, 2]]));
        assert_eq!(record["pairs"]["black-open"], json!([[0, 0, 0, 1]]));
    }

    #[test]
    fn what_no_grammar_has_is_named() {
        for (json, says) in [
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"circle":[{"cells":["R1C1"]}]}"#,
                "circle",
            ),
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"line":[{"lines":[["R1C1","R1C2"]]}]}"#,
                "line",
            ),
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"difference":[{"cells":["R2C1","R2C2"],"value":"2"}],"negative":["difference"]}"#,
                "a difference dot of 2",
            ),
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R1C2"],"value":"1"}]}"#,
                "in two killer cages",
            ),
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R1C2"],"value":"0"}]}"#,
                "sum 0",
            ),
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"littlekillersum":[{"cell":"R0C1","cells":["R1C2","R2C3","R3C4"],"direction":"DR","value":"0"}]}"#,
                "sum of 0",
            ),
            (r#"{"size":4,"grid":[]}"#, "rows"),
            (r#"{"size":0,"grid":[]}"#, "size"),
            (
                r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"thermometer":[{"lines":[["R1C1","R9C9"]]}]}"#,
                "off the",
            ),
            ("https://www.f-puzzles.com/?load=N4Ig!!!!", "lz-string"),
        ] {
            let e = decode(json).unwrap_err().to_string();
            assert!(e.contains(says), "{json}: {e}");
        }
    }
}
