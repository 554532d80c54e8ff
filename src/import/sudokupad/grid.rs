//! What SudokuPad keeps as rules rather than drawings: the grid (its size, givens and regions), its metadata
//! (title, author, rules text, solution, anti-knight and anti-king), killer cages, extra regions, and the global
//! rules older links name; each as the f-puzzles field that says it.

use serde_json::{json, Map, Value as Json};

use super::drawings::extra_region_shading;
use super::geometry::Drawings;
use super::Refusal;
use crate::import::fpuzzles::push;

/// The side of the square grid; SudokuPad's `cells` are its rows.
pub(super) fn size(puzzle: &Json) -> Result<usize, Refusal> {
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
pub(super) fn name(r: i64, c: i64) -> String {
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
pub(super) fn grid(puzzle: &Json, n: usize) -> Result<Json, Refusal> {
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
pub(super) fn about(puzzle: &Json, out: &mut Json, n: usize) {
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
pub(super) fn cages(
    puzzle: &Json,
    drawings: &mut Drawings,
    out: &mut Json,
    n: usize,
) -> Result<(), Refusal> {
    let shading = extra_region_shading(drawings);
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
        // Each cell's first shade no earlier cage took.
        let shades: Option<Vec<usize>> = if plain && !cells.is_empty() {
            cells
                .iter()
                .map(|cell| {
                    let untaken = |&&i: &&usize| !drawings.0[i].taken;
                    shading.get(cell)?.iter().find(untaken).copied()
                })
                .collect()
        } else {
            None
        };
        if style == Some("extraregion") || shades.is_some() {
            for i in shades.into_iter().flatten() {
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

/// The global rules older SudokuPad links list by name.
pub(super) fn flags(puzzle: &Json, out: &mut Json) -> Result<(), Refusal> {
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
