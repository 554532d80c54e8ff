//! SudokuPad's drawings read back into the f-puzzles constraints its converter draws them from: diagonals,
//! thermometers and palindromes, arrows, little killer clues, between lines, minimum and maximum cells, kropki
//! dots, X and V, sandwich sums, quadruples, odd and even cells, the shading of extra regions, and lines of other
//! colours, which the rules text gives a rule (f-puzzles' cosmetic lines). Each reader
//! takes the drawings it recognises (`Drawings::find`, then `taken`), exactly as the converter makes them.

use std::collections::HashMap;

use serde_json::{json, Value as Json};

use super::geometry::{cell_at, centre, inside, line_cells, near, Drawing, Drawings, Point, NEAR};
use super::grid::name;
use super::Refusal;
use crate::import::fpuzzles::push;

/// The light grey SudokuPad's converter puts under every cell of an extra region, by cell (each cell's shades in
/// drawing order): indexed once, for every plain cage looks its cells up in it.
pub(super) fn extra_region_shading(drawings: &Drawings) -> HashMap<(usize, usize), Vec<usize>> {
    let mut by_cell: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    let light_grey =
        |d: &Drawing| d.colour("backgroundColor").replace(' ', "") == "RGBA(207,207,207,0.95)";
    for i in drawings.find(|d| d.kind == "underlay" && d.is("width", 1.0) && light_grey(d)) {
        let Some(p) = drawings.0[i].center() else {
            continue;
        };
        let (r, c) = cell_at(p);
        if r >= 0 && c >= 0 && near(p, centre((r, c))) {
            by_cell.entry((r as usize, c as usize)).or_default().push(i);
        }
    }
    by_cell
}

pub(super) fn diagonals(drawings: &mut Drawings, out: &mut Json, n: usize) {
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
pub(super) fn thermometers(
    drawings: &mut Drawings,
    out: &mut Json,
    n: usize,
) -> Result<(), Refusal> {
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
pub(super) fn arrows(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
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
pub(super) fn little_killers(
    drawings: &mut Drawings,
    out: &mut Json,
    n: usize,
) -> Result<(), Refusal> {
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
pub(super) fn between_lines(
    drawings: &mut Drawings,
    out: &mut Json,
    n: usize,
) -> Result<(), Refusal> {
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

/// Lines of any other colour through cells' centres, as f-puzzles' cosmetic lines: what each colour means is the
/// rules text's to say ([`crate::import::coloured`]). A setter's tool may give a straight run only its ends, so
/// the cells between them are filled in.
pub(super) fn coloured_lines(drawings: &mut Drawings, out: &mut Json, n: usize) {
    for i in drawings.find(|d| d.kind == "line" && !d.colour("color").is_empty()) {
        let points = drawings.0[i].points();
        let at_centres = points.len() >= 2
            && points
                .iter()
                .all(|&p| inside(cell_at(p), n) && near(p, centre(cell_at(p))));
        if !at_centres {
            continue;
        }
        let mut cells = vec![cell_at(points[0])];
        for &p in &points[1..] {
            let (to, from) = (cell_at(p), *cells.last().expect("a first cell"));
            let (dr, dc) = (to.0 - from.0, to.1 - from.1);
            if dr == 0 || dc == 0 || dr.abs() == dc.abs() {
                let steps = dr.abs().max(dc.abs());
                cells.extend(
                    (1..=steps).map(|k| (from.0 + dr.signum() * k, from.1 + dc.signum() * k)),
                );
            } else {
                // Not a straight run: the line's reader refuses the jump by name.
                cells.push(to);
            }
        }
        let cells: Vec<String> = cells.into_iter().map(|(r, c)| name(r, c)).collect();
        let entry = json!({
            "lines": [cells],
            "outlineC": drawings.0[i].json["color"],
            "width": drawings.0[i].number("thickness") / 32.0,
        });
        push(out, "line", entry);
        drawings.0[i].taken = true;
    }
}

/// Minimum and maximum cells: grey cells with small black chevrons at their sides, pointing in (minimum) or out.
pub(super) fn extremes(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
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
                && d.is("thickness", 1.0)
                && d.colour("color") == "#000000"
                && matches!(d.points()[..], [_, tip, _] if (tip.0 - c.0).abs() < 0.5 && (tip.1 - c.1).abs() < 0.5)
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

/// Marks on edges (kropki dots, X and V, signs f-puzzles drew as text), outside clues (sandwich sums),
/// quadruples on corners, and odd and even cells.
pub(super) fn marks(drawings: &mut Drawings, out: &mut Json, n: usize) -> Result<(), Refusal> {
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
        } else if small && !d.rounded() && crate::import::signs::is_sign(&text) {
            // A sign f-puzzles drew as text, turned as it was: the rules text says what it means.
            edge(p, n).map(|cells| {
                let turned = d.json["angle"].clone();
                (
                    "text",
                    json!({"cells": cells, "value": text, "angle": turned}),
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
