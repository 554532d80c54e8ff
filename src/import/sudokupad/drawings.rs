//! SudokuPad's puzzle JSON as the f-puzzles puzzle it draws.
//!
//! SudokuPad keeps few rules as rules: the givens, the regions, killer cages and extra regions, and anti-knight
//! and anti-king among its metadata. Every other constraint is a drawing (a thermometer is a grey line with a
//! grey circle under its first cell, a white kropki dot a small white circle on an edge), drawn the way
//! SudokuPad's own f-puzzles converter (`fpuzzlesdecoder.js`) draws each f-puzzles constraint. This reads those
//! drawings back into the f-puzzles constraints they stand for, so that [`super::super::fpuzzles`] makes the
//! record, one reader of constraints for both forms. A drawing the converter does not make (a cosmetic line, a
//! shaded cell, text) is an error naming it: its rule, if it has one, is in the rules text alone, and a rule
//! dropped silently would give wrong answers. What SudokuPad's converter drops itself (non-consecutive, the
//! negative constraint, skyscraper and x-sum clues) is not in the link at all; such a link reads as the puzzle
//! it draws, which then has more than one solution.

use serde_json::{json, Map, Value as Json};

/// How near two coordinates must be to be the same point (SudokuPad rounds its offsets to a tenth or hundredth).
const NEAR: f64 = 0.02;

/// The most drawings read from one puzzle.
const MAX_DRAWINGS: usize = 5_000;

/// A point of SudokuPad's drawing: `[row, column]` in cell units from the grid's top-left corner.
type Point = (f64, f64);

/// A drawing that does not say a constraint latin reads, described for the error.
pub(super) type Refusal = String;

/// The f-puzzles JSON of a SudokuPad puzzle.
pub(super) fn to_fpuzzles(puzzle: &Json) -> Result<Json, Refusal> {
    let n = size(puzzle)?;
    let mut out = json!({"size": n, "grid": grid(puzzle, n)?});
    let mut drawings = Drawings::of(puzzle)?;
    about(puzzle, &mut out, n);
    cages(puzzle, &mut drawings, &mut out, n)?;
    flags(puzzle, &mut out)?;
    diagonals(&mut drawings, &mut out, n);
    thermometers(&mut drawings, &mut out, n)?;
    arrows(&mut drawings, &mut out, n)?;
    little_killers(&mut drawings, &mut out, n)?;
    between_lines(&mut drawings, &mut out, n)?;
    extremes(&mut drawings, &mut out, n)?;
    marks(&mut drawings, &mut out, n)?;
    drawings.rest_refused(n)?;
    for key in ["foglight", "triggereffect"] {
        if puzzle[key].as_array().is_some_and(|l| !l.is_empty()) {
            return Err(format!(
                "`{key}`: latin has no fog of war or triggered effects"
            ));
        }
    }
    Ok(out)
}

/// The side of the square grid; SudokuPad's `cells` are its rows.
fn size(puzzle: &Json) -> Result<usize, Refusal> {
    let rows = puzzle["cells"]
        .as_array()
        .ok_or("the puzzle has no `cells`")?;
    let n = rows.len();
    if !(1..=64).contains(&n) {
        return Err(format!(
            "a grid of {n} rows; latin reads SudokuPad grids of 1 to 64"
        ));
    }
    if let Some((r, row)) = rows
        .iter()
        .enumerate()
        .find(|(_, row)| row.as_array().map(Vec::len) != Some(n))
    {
        let len = row.as_array().map_or(0, Vec::len);
        return Err(format!(
            "row {} has {len} cells in a grid of {n} rows: latin's grids are square",
            r + 1
        ));
    }
    Ok(n)
}

/// f-puzzles' name of the cell `[r, c]` (0-based; outside cells are -1 or n).
fn name(r: i64, c: i64) -> String {
    format!("R{}C{}", r + 1, c + 1)
}

/// A cell of a cage or region list: `[r, c]` (0-based) or SudokuPad's `"r1c1"`.
fn cell_of(v: &Json, n: usize) -> Result<(usize, usize), Refusal> {
    let parsed = match v {
        Json::Array(rc) if rc.len() == 2 => rc[0]
            .as_u64()
            .zip(rc[1].as_u64())
            .map(|(r, c)| (r as usize, c as usize)),
        Json::String(s) => {
            let lower = s.to_ascii_lowercase();
            lower
                .strip_prefix('r')
                .and_then(|t| t.split_once('c'))
                .and_then(|(r, c)| {
                    Some((
                        r.parse::<usize>().ok()?.checked_sub(1)?,
                        c.parse::<usize>().ok()?.checked_sub(1)?,
                    ))
                })
        }
        _ => None,
    };
    parsed
        .filter(|&(r, c)| r < n && c < n)
        .ok_or_else(|| format!("{v} is not a cell of the {n}x{n} grid"))
}

fn cell_list(v: &Json, n: usize) -> Result<Vec<(usize, usize)>, Refusal> {
    v.as_array().map_or(Ok(Vec::new()), |l| {
        l.iter().map(|c| cell_of(c, n)).collect()
    })
}

/// The givens and each cell's region: its number in `regions`, or null for a cell in none (SudokuPad's Latin
/// squares have no regions at all).
fn grid(puzzle: &Json, n: usize) -> Result<Json, Refusal> {
    let mut region_of: Vec<Option<usize>> = vec![None; n * n];
    for (k, region) in puzzle["regions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        for (r, c) in cell_list(region, n)? {
            if region_of[r * n + c].replace(k).is_some() {
                return Err(format!("{} is in two regions", name(r as i64, c as i64)));
            }
        }
    }
    // Regions numbered by their first cell, row by row, as f-puzzles numbers boxes: boxes listed in another order
    // are still boxes.
    let mut order: Vec<usize> = Vec::new();
    for k in region_of.iter().flatten() {
        if !order.contains(k) {
            order.push(*k);
        }
    }
    let region_of: Vec<Option<usize>> = region_of
        .iter()
        .map(|k| k.and_then(|k| order.iter().position(|&o| o == k)))
        .collect();
    let rows = puzzle["cells"].as_array().expect("checked by size");
    let grid: Vec<Json> = rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let row = row.as_array().expect("checked by size");
            let cells = row.iter().enumerate().map(|(c, cell)| {
                let mut out = Map::new();
                let value = cell["value"]
                    .as_u64()
                    .or_else(|| cell["value"].as_str().and_then(|s| s.trim().parse().ok()));
                if let Some(v) = value {
                    out.insert("value".into(), json!(v));
                    out.insert("given".into(), json!(true));
                }
                out.insert(
                    "region".into(),
                    region_of[r * n + c].map_or(Json::Null, |k| json!(k)),
                );
                Json::Object(out)
            });
            Json::Array(cells.collect())
        })
        .collect();
    Ok(Json::Array(grid))
}

/// Title, author and rules, and the solution where SudokuPad keeps one: in `metadata` (or the older `metaData`),
/// or as a cage whose value is `key: text`.
fn about(puzzle: &Json, out: &mut Json, n: usize) {
    let mut meta: Vec<(String, Json)> = Vec::new();
    for key in ["metadata", "metaData"] {
        for (k, v) in puzzle[key].as_object().into_iter().flatten() {
            meta.push((k.clone(), v.clone()));
        }
    }
    for cage in puzzle["cages"].as_array().into_iter().flatten() {
        if let Some((k, v)) = meta_cage(cage) {
            meta.push((k.into(), json!(v)));
        }
    }
    for (k, v) in meta {
        match (k.as_str(), v.as_str()) {
            // SudokuPad's converter fills in what the f-puzzles link left out; those are not the setter's words.
            (_, Some(text)) if PLACEHOLDERS.iter().any(|p| text.starts_with(p)) => {}
            ("title" | "author", Some(text)) => out[k.as_str()] = json!(text),
            ("rules", Some(text)) => out["ruleset"] = json!(text),
            ("solution", Some(text)) if n <= 9 => {
                let digits: Option<Vec<u64>> = text
                    .chars()
                    .map(|ch| ch.to_digit(10).map(u64::from))
                    .collect();
                if let Some(d) = digits
                    .filter(|d| d.len() == n * n && d.iter().all(|&v| (1..=n as u64).contains(&v)))
                {
                    out["solution"] = json!(d);
                }
            }
            ("antiknight" | "antiking", _) if v.as_bool() == Some(true) => {
                out[k.as_str()] = json!(true)
            }
            _ => {}
        }
    }
}

/// The title, author and rules SudokuPad's converter writes where the f-puzzles link has none.
const PLACEHOLDERS: [&str; 3] = ["Untitled", "Unknown", "No rules provided for this puzzle"];

/// A cage that holds metadata (`title: ...`) rather than cells.
fn meta_cage(cage: &Json) -> Option<(&str, &str)> {
    let empty = cage["cells"].as_array().is_none_or(Vec::is_empty);
    let text = cage["value"].as_str()?;
    let (key, value) = text.split_once(':')?;
    (empty && !key.is_empty() && !key.contains(' ')).then(|| (key, value.trim()))
}

/// Killer cages (`unique`, with a sum or none), extra regions (a plain cage over cells shaded light grey, or in
/// older links a cage of style `extraregion`), disjoint groups, and the hidden cage SudokuPad gives the cells of
/// no region.
fn cages(puzzle: &Json, drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    for cage in puzzle["cages"].as_array().into_iter().flatten() {
        if meta_cage(cage).is_some() {
            continue;
        }
        let cells = cell_list(&cage["cells"], n)?;
        let names: Vec<String> = cells
            .iter()
            .map(|&(r, c)| name(r as i64, c as i64))
            .collect();
        let unique = cage["unique"].as_bool() == Some(true);
        let style = cage["style"].as_str();
        if cage["hidden"].as_bool() == Some(true) && !unique {
            continue;
        }
        let plain = !unique && style.is_none() && cage["value"].is_null() && cage["sum"].is_null();
        let shading = if plain {
            extra_region_shading(drawings, &cells)
        } else {
            None
        };
        if style == Some("extraregion") || shading.is_some() {
            for i in shading.into_iter().flatten() {
                drawings.0[i].taken = true;
            }
            push(out, "extraregion", json!({"cells": names}));
        } else if cage["type"].as_str() == Some("disjoint") {
            out["disjointgroups"] = json!(true);
        } else if unique && style.is_none() && !cells.is_empty() {
            let mut entry = json!({"cells": names});
            let sum = cage["sum"]
                .as_u64()
                .or_else(|| cage["value"].as_str().and_then(|s| s.trim().parse().ok()));
            match (sum, &cage["value"]) {
                (Some(s), _) => entry["value"] = json!(s.to_string()),
                (None, Json::Null) => {}
                (None, v) if v.as_str().is_some_and(|s| s.trim().is_empty()) => {}
                (None, v) => {
                    return Err(format!(
                        "a cage at {} whose clue {v} is not a sum",
                        names[0]
                    ))
                }
            }
            push(out, "killercage", entry);
        } else {
            let at = names.first().map_or("no cell".into(), Clone::clone);
            return Err(format!(
                "a cage at {at} that is no killer cage (not `unique`{}): its rule, if it has one, is in the rules text alone",
                style.map(|s| format!(", style {s}")).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// The light grey under every cell of an extra region, as SudokuPad's converter shades one.
fn extra_region_shading(drawings: &Drawings, cells: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut found = Vec::with_capacity(cells.len());
    for &(r, c) in cells {
        let here = centre((r as i64, c as i64));
        let shade = drawings.find(|d| {
            d.kind == "underlay"
                && d.colour("backgroundColor").replace(' ', "") == "RGBA(207,207,207,0.95)"
                && d.is("width", 1.0)
                && d.center().is_some_and(|p| near(p, here))
        });
        found.push(*shade.first()?);
    }
    (!found.is_empty()).then_some(found)
}

/// The global rules older SudokuPad links list by name.
fn flags(puzzle: &Json, out: &mut Json) -> Result<(), Refusal> {
    for flag in puzzle["global"].as_array().into_iter().flatten() {
        match flag.as_str().unwrap_or_default() {
            f @ ("antiknight" | "antiking" | "nonconsecutive") => out[f] = json!(true),
            "disjoint" => out["disjointgroups"] = json!(true),
            f if f
                .strip_prefix("anti")
                .is_some_and(|k| ["ratio", "difference", "xv"].contains(&k)) =>
            {
                push(out, "negative", json!(&f[4..]));
            }
            other => return Err(format!("the global rule {other:?}")),
        }
    }
    Ok(())
}

fn push(out: &mut Json, key: &str, entry: Json) {
    if !out[key].is_array() {
        out[key] = json!([]);
    }
    out[key].as_array_mut().expect("a list").push(entry);
}

/// One drawn thing: a line, an arrow, an overlay or an underlay, with the fields the converter sets.
struct Drawing {
    kind: &'static str,
    json: Json,
    taken: bool,
}

impl Drawing {
    fn colour(&self, key: &str) -> String {
        self.json[key]
            .as_str()
            .unwrap_or_default()
            .to_ascii_uppercase()
    }

    fn number(&self, key: &str) -> f64 {
        self.json[key].as_f64().unwrap_or(f64::NAN)
    }

    fn is(&self, key: &str, value: f64) -> bool {
        (self.number(key) - value).abs() < NEAR
    }

    fn rounded(&self) -> bool {
        self.json["rounded"].as_bool() == Some(true)
    }

    fn text(&self) -> String {
        match &self.json["text"] {
            Json::String(s) => s.trim().to_owned(),
            Json::Number(x) => x.to_string(),
            _ => String::new(),
        }
    }

    fn center(&self) -> Option<Point> {
        point(&self.json["center"])
    }

    fn points(&self) -> Vec<Point> {
        self.json["wayPoints"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(point)
            .collect()
    }

    /// What an error says of it: its kind, colour and where it starts.
    fn described(&self) -> String {
        let colour = ["color", "backgroundColor", "borderColor"]
            .iter()
            .map(|k| self.colour(k))
            .find(|c| !c.is_empty())
            .unwrap_or_else(|| "no colour".into());
        let at = self
            .center()
            .or_else(|| self.points().first().copied())
            .map_or(String::new(), |(r, c)| {
                format!(" at r{}c{}", (r.floor() as i64) + 1, (c.floor() as i64) + 1)
            });
        let text = self.text();
        let text = if text.is_empty() {
            String::new()
        } else {
            format!(" with text {text:?}")
        };
        let article = if self.kind.starts_with(['a', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {} ({colour}){text}{at}", self.kind)
    }
}

/// A point near the grid: a drawing far off it (or at no finite place) says nothing latin reads, and keeping
/// coordinates small keeps the cell arithmetic below from overflowing on hostile input.
fn point(v: &Json) -> Option<Point> {
    let near_grid = |x: f64| x.abs() < 1e4;
    match v.as_array()?.as_slice() {
        [r, c] => Some((r.as_f64()?, c.as_f64()?)).filter(|&(r, c)| near_grid(r) && near_grid(c)),
        _ => None,
    }
}

fn near(a: Point, b: Point) -> bool {
    (a.0 - b.0).abs() < NEAR && (a.1 - b.1).abs() < NEAR
}

/// The cell a point lies in (0-based, -1 or n outside).
fn cell_at(p: Point) -> (i64, i64) {
    (p.0.floor() as i64, p.1.floor() as i64)
}

fn inside((r, c): (i64, i64), n: usize) -> bool {
    (0..n as i64).contains(&r) && (0..n as i64).contains(&c)
}

/// The centre of a cell.
fn centre((r, c): (i64, i64)) -> Point {
    (r as f64 + 0.5, c as f64 + 0.5)
}

struct Drawings(Vec<Drawing>);

impl Drawings {
    fn of(puzzle: &Json) -> Result<Drawings, Refusal> {
        let mut all = Vec::new();
        for (key, kind) in [
            ("lines", "line"),
            ("arrows", "arrow"),
            ("overlays", "overlay"),
            ("underlays", "underlay"),
        ] {
            for json in puzzle[key].as_array().into_iter().flatten() {
                // An empty place in a zipped list is an empty object: nothing drawn.
                if json.as_object().is_some_and(|o| !o.is_empty()) {
                    all.push(Drawing {
                        kind,
                        json: json.clone(),
                        taken: false,
                    });
                }
            }
        }
        // Each drawing is matched against the others (a bulb to its thermometer), so a hostile link of very many
        // would take quadratic time; a real puzzle has a few hundred.
        if all.len() > MAX_DRAWINGS {
            return Err(format!(
                "{} drawings; latin reads up to {MAX_DRAWINGS}",
                all.len()
            ));
        }
        Ok(Drawings(all))
    }

    /// The indices of the drawings not yet read that `test` picks.
    fn find(&self, test: impl Fn(&Drawing) -> bool) -> Vec<usize> {
        (0..self.0.len())
            .filter(|&i| !self.0[i].taken && test(&self.0[i]))
            .collect()
    }

    /// Cell highlights (f-puzzles' cell colours, which the f-puzzles reader ignores too) say no rule; anything
    /// else left over is refused by name.
    fn rest_refused(&self, n: usize) -> Result<(), Refusal> {
        for d in self.0.iter().filter(|d| !d.taken) {
            let highlight = d.kind == "underlay"
                && !d.rounded()
                && d.is("width", 1.0)
                && d.is("height", 1.0)
                && d.colour("backgroundColor") != "#CFCFCF"
                && d.center().is_some_and(|p| inside(cell_at(p), n));
            if !highlight {
                return Err(format!(
                    "{}, which SudokuPad's f-puzzles drawings do not make: its rule, if it has one, is in the rules text alone",
                    d.described()
                ));
            }
        }
        Ok(())
    }
}

/// The cells a line passes through, its points each at a cell's centre (or, for `shifted` ends, moved less than
/// half a cell towards the next point, as arrows and between lines start).
fn line_cells(points: &[Point], n: usize, what: &str) -> Result<Vec<String>, Refusal> {
    let mut cells = Vec::with_capacity(points.len());
    for (k, &p) in points.iter().enumerate() {
        let cell = cell_at(p);
        let end = k == 0 || k + 1 == points.len();
        if !inside(cell, n) || (!end && !near(p, centre(cell))) {
            return Err(format!(
                "a {what} through ({:.2}, {:.2}), not a cell's centre",
                p.0, p.1
            ));
        }
        cells.push(name(cell.0, cell.1));
    }
    if cells.len() < 2 {
        return Err(format!("a {what} of one point"));
    }
    Ok(cells)
}

fn diagonals(drawings: &mut Drawings, out: &mut Json, n: usize) {
    let n = n as f64;
    for i in drawings
        .find(|d| d.kind == "line" && d.colour("color") == "#34BBE6" && d.is("thickness", 2.0))
    {
        let key = match drawings.0[i].points().as_slice() {
            [a, b] if near(*a, (0.0, 0.0)) && near(*b, (n, n)) => "diagonal-",
            [a, b] if near(*a, (0.0, n)) && near(*b, (n, 0.0)) => "diagonal+",
            _ => continue,
        };
        out[key] = json!(true);
        drawings.0[i].taken = true;
    }
}

/// Thermometers (grey lines 21 wide, a grey circle under the first cell) and palindromes (grey lines 16 wide).
fn thermometers(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    let grey = |d: &Drawing, width: f64| {
        d.kind == "line" && d.colour("color") == "#CFCFCF" && d.is("thickness", width)
    };
    for i in drawings.find(|d| grey(d, 21.0)) {
        let points = drawings.0[i].points();
        let cells = line_cells(&points, n, "thermometer")?;
        let bulb = drawings.find(|d| {
            d.kind == "underlay"
                && d.rounded()
                && d.is("width", 0.85)
                && d.center().is_some_and(|c| near(c, points[0]))
        });
        // Thermometers that share a bulb share its circle.
        let shared = out["thermometer"]
            .as_array()
            .is_some_and(|ts| ts.iter().any(|t| t["lines"][0][0] == json!(cells[0])));
        match bulb.first() {
            Some(&b) => drawings.0[b].taken = true,
            None if shared => {}
            None => return Err(format!("a thermometer from {} with no bulb", cells[0])),
        }
        push(out, "thermometer", json!({"lines": [cells]}));
        drawings.0[i].taken = true;
    }
    for i in drawings.find(|d| grey(d, 16.0)) {
        let cells = line_cells(&drawings.0[i].points(), n, "palindrome")?;
        push(out, "palindrome", json!({"lines": [cells]}));
        drawings.0[i].taken = true;
    }
    Ok(())
}

/// Arrows: grey shafts with heads, each leaving a circle (an overlay over its cells) or a bent pill (a thick grey
/// line over a white one).
fn arrows(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    let mut bulbs: Vec<Vec<String>> = Vec::new();
    for i in drawings
        .find(|d| d.kind == "overlay" && d.rounded() && d.colour("borderColor") == "#A1A1A1")
    {
        let d = &drawings.0[i];
        let (Some((r, c)), w, h) = (d.center(), d.number("width"), d.number("height")) else {
            continue;
        };
        // The circle is 0.75 (0.83 in older links) wide, one cell more for each cell of a pill.
        let (across, down) = (
            (w - 0.75).round().max(0.0) as i64 + 1,
            (h - 0.75).round().max(0.0) as i64 + 1,
        );
        if across > n as i64 || down > n as i64 {
            return Err(format!("{} wider than the grid", d.described()));
        }
        let (top, left) = (
            (r - down as f64 / 2.0).round() as i64,
            (c - across as f64 / 2.0).round() as i64,
        );
        let cells: Vec<(i64, i64)> = (top..top + down)
            .flat_map(|r| (left..left + across).map(move |c| (r, c)))
            .collect();
        if !cells.iter().all(|&rc| inside(rc, n)) {
            return Err(format!("{} off the grid", d.described()));
        }
        bulbs.push(cells.iter().map(|&(r, c)| name(r, c)).collect());
        drawings.0[i].taken = true;
    }
    for i in drawings.find(|d| {
        d.kind == "line" && d.colour("color") == "#A1A1A1" && d.number("thickness") > 30.0
    }) {
        let points = drawings.0[i].points();
        bulbs.push(line_cells(&points, n, "pill")?);
        drawings.0[i].taken = true;
        for j in drawings.find(|d| {
            d.kind == "line"
                && d.colour("color") == "#FFFFFF"
                && d.json["wayPoints"] == drawings.0[i].json["wayPoints"]
        }) {
            drawings.0[j].taken = true;
        }
    }
    let mut entries: Vec<(Vec<String>, Vec<Vec<String>>)> =
        bulbs.into_iter().map(|b| (b, Vec::new())).collect();
    for i in drawings.find(|d| d.kind == "arrow" && !d.json["headLength"].is_null()) {
        let cells = line_cells(&drawings.0[i].points(), n, "arrow")?;
        let Some(entry) = entries
            .iter_mut()
            .find(|(bulb, _)| bulb.contains(&cells[0]))
        else {
            return Err(format!("an arrow from {} with no circle there", cells[0]));
        };
        entry.1.push(cells);
        drawings.0[i].taken = true;
    }
    for (bulb, lines) in entries {
        if lines.is_empty() {
            return Err(format!("an arrow's circle at {} with no arrow", bulb[0]));
        }
        push(out, "arrow", json!({"cells": bulb, "lines": lines}));
    }
    Ok(())
}

/// Little killer clues: a short thin black arrow pointing into the grid from an outside cell, and the clue's text
/// in that cell.
fn little_killers(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    for i in drawings
        .find(|d| d.kind == "arrow" && d.colour("color") == "#000000" && d.is("thickness", 2.0))
    {
        let [a, b] = drawings.0[i].points()[..] else {
            continue;
        };
        let step = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let from = cell_at((a.0 - 0.3 * step.0, a.1 - 0.3 * step.1));
        if inside(from, n) || step.0 == 0.0 || step.1 == 0.0 {
            continue;
        }
        let (dr, dc) = (step.0 as i64, step.1 as i64);
        let cells: Vec<String> = (1..=n as i64)
            .map(|k| (from.0 + k * dr, from.1 + k * dc))
            .take_while(|&rc| inside(rc, n))
            .map(|(r, c)| name(r, c))
            .collect();
        if cells.is_empty() {
            return Err(format!(
                "a little killer arrow from {} that points off the grid",
                name(from.0, from.1)
            ));
        }
        let text = drawings.find(|d| {
            d.kind == "overlay"
                && !d.text().is_empty()
                && d.center().is_some_and(|c| near(c, centre(from)))
        });
        let Some(&t) = text.first() else {
            return Err(format!(
                "a little killer arrow from {} with no clue",
                name(from.0, from.1)
            ));
        };
        let direction = match (dr, dc) {
            (-1, 1) => "UR",
            (-1, -1) => "UL",
            (1, 1) => "DR",
            _ => "DL",
        };
        let value = drawings.0[t].text();
        push(
            out,
            "littlekillersum",
            json!({"cell": name(from.0, from.1), "direction": direction, "value": value, "cells": cells}),
        );
        drawings.0[i].taken = true;
        drawings.0[t].taken = true;
    }
    Ok(())
}

/// Between lines: a thin grey line whose ends are grey circles.
fn between_lines(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    for i in drawings
        .find(|d| d.kind == "line" && d.colour("color") == "#CFCFCF" && d.is("thickness", 2.0))
    {
        let points = drawings.0[i].points();
        let cells = line_cells(&points, n, "between line")?;
        let mut circles = Vec::new();
        for end in [points[0], points[points.len() - 1]] {
            let c = centre(cell_at(end));
            let found = drawings.find(|d| {
                d.kind == "overlay"
                    && d.rounded()
                    && d.colour("borderColor") == "#CFCFCF"
                    && d.is("width", 0.8)
                    && d.center().is_some_and(|p| near(p, c))
            });
            circles.push(*found.first().ok_or_else(|| {
                format!("a thin grey line from {} without its circles", cells[0])
            })?);
        }
        for c in circles {
            drawings.0[c].taken = true;
        }
        push(out, "betweenline", json!({"lines": [cells]}));
        drawings.0[i].taken = true;
    }
    Ok(())
}

/// Minimum and maximum cells: grey cells with small black chevrons at their sides, pointing in (minimum) or out.
fn extremes(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    let shaded = drawings.find(|d| {
        d.kind == "underlay"
            && ["#CCC", "#CCCCCC"].contains(&d.colour("backgroundColor").as_str())
            && d.is("width", 1.0)
    });
    for i in shaded {
        let Some(c) = drawings.0[i].center() else {
            continue;
        };
        let chevrons = drawings.find(|d| {
            d.kind == "line"
                && d.colour("color") == "#000000"
                && d.is("thickness", 1.0)
                && d.points().len() == 3
                && {
                    let tip = d.points()[1];
                    (tip.0 - c.0).abs() < 0.5 && (tip.1 - c.1).abs() < 0.5
                }
        });
        let dist = |p: Point| (p.0 - c.0).abs().max((p.1 - c.1).abs());
        let mut inwards = None;
        for &k in &chevrons {
            let p = drawings.0[k].points();
            inwards = Some(dist(p[1]) < dist(p[0]));
            drawings.0[k].taken = true;
        }
        let key = match inwards {
            Some(true) => "minimum",
            Some(false) => "maximum",
            None => {
                return Err(format!(
                    "{} with no chevrons to say minimum or maximum",
                    drawings.0[i].described()
                ))
            }
        };
        let cell = cell_at(c);
        if !inside(cell, n) {
            return Err(format!("{} off the grid", drawings.0[i].described()));
        }
        push(out, key, json!({"cell": name(cell.0, cell.1)}));
        drawings.0[i].taken = true;
    }
    Ok(())
}

/// The two cells an edge's midpoint lies between, if it is one.
fn edge(p: Point, n: usize) -> Option<[String; 2]> {
    let whole = |x: f64| (x - x.round()).abs() < NEAR;
    let half = |x: f64| (x - x.floor() - 0.5).abs() < NEAR;
    let (a, b) = if whole(p.0) && half(p.1) {
        let (r, c) = (p.0.round() as i64, p.1.floor() as i64);
        ((r - 1, c), (r, c))
    } else if half(p.0) && whole(p.1) {
        let (r, c) = (p.0.floor() as i64, p.1.round() as i64);
        ((r, c - 1), (r, c))
    } else {
        return None;
    };
    (inside(a, n) && inside(b, n)).then(|| [name(a.0, a.1), name(b.0, b.1)])
}

/// Marks on edges (kropki dots, X and V), outside clues (sandwich sums), quadruples on corners, and odd and even
/// cells.
fn marks(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
    for i in drawings.find(|d| d.kind == "overlay") {
        let d = &drawings.0[i];
        let Some(p) = d.center() else { continue };
        let (text, small) = (d.text(), d.is("width", 0.25) && d.is("height", 0.25));
        let entry = if d.rounded() && d.is("width", 0.3) && d.is("height", 0.3) {
            let key = match d.colour("backgroundColor").as_str() {
                "#000000" | "#000" => "ratio",
                "#FFFFFF" | "#FFF" => "difference",
                _ => continue,
            };
            let Some(cells) = edge(p, n) else { continue };
            let mut e = json!({"cells": cells});
            if !text.is_empty() {
                e["value"] = json!(text);
            }
            Some((key, e))
        } else if small && !d.rounded() && ["X", "V"].contains(&text.to_ascii_uppercase().as_str())
        {
            edge(p, n).map(|cells| {
                (
                    "xv",
                    json!({"cells": cells, "value": text.to_ascii_uppercase()}),
                )
            })
        } else if small
            && !d.rounded()
            && text.parse::<u64>().is_ok()
            && !inside(cell_at(p), n)
            && near(p, centre(cell_at(p)))
        {
            let (r, c) = cell_at(p);
            let beside = (r == -1 || r == n as i64) as u8 + (c == -1 || c == n as i64) as u8;
            (beside == 1 && (-1..=n as i64).contains(&r) && (-1..=n as i64).contains(&c))
                .then(|| ("sandwichsum", json!({"cell": name(r, c), "value": text})))
        } else if d.rounded() && d.is("width", 0.7) && d.colour("borderColor") == "#000000" {
            quadruple(p, &text, n).map(|e| ("quadruple", e))
        } else {
            None
        };
        if let Some((key, e)) = entry {
            push(out, key, e);
            drawings.0[i].taken = true;
        }
    }
    for i in drawings.find(|d| {
        d.kind == "underlay"
            && d.colour("backgroundColor") == "#CFCFCF"
            && d.is("width", 0.7)
            && d.is("height", 0.7)
    }) {
        let d = &drawings.0[i];
        let Some(cell) = d.center().map(cell_at).filter(|&c| inside(c, n)) else {
            continue;
        };
        push(
            out,
            if d.rounded() { "odd" } else { "even" },
            json!({"cell": name(cell.0, cell.1)}),
        );
        drawings.0[i].taken = true;
    }
    Ok(())
}

/// A quadruple's circle on the corner `p` and its digits.
fn quadruple(p: Point, text: &str, n: usize) -> Option<Json> {
    let (r, c) = (p.0.round() as i64, p.1.round() as i64);
    if !near(p, (r as f64, c as f64)) {
        return None;
    }
    let cells: Vec<(i64, i64)> = vec![(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)];
    if !cells.iter().all(|&rc| inside(rc, n)) {
        return None;
    }
    let values: Vec<u64> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (!values.is_empty())
        .then(|| json!({"cells": cells.iter().map(|&(r, c)| name(r, c)).collect::<Vec<_>>(), "values": values}))
}
