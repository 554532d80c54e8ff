//! Inequality signs between two cells, drawn as text. f-puzzles has no constraint for one sign (only minimum and
//! maximum cells, which stand for a sign toward every cell beside them), so setters of greater-than puzzles draw
//! `<` and `>` with its text tool on the two cells, turned a quarter for cells one above the other, and say so in
//! the rules text ("The inequality signs between two cells show which one contains the lower digit"). Read as
//! cosmetics such a puzzle was refused; read as nothing it would have more solutions than the setter's.
//!
//! [`read`] turns each text that is one sign between two cells beside each other into the pair it orders
//! (latin's own f-puzzles key [`SIGNS`], which the f-puzzles reader takes into `less` beside the minima's and
//! maxima's), where a sentence of the rules text names signs; other texts are left to be refused as before
//! (SudokuPad's converter draws such text as a small overlay, which its reader hands here as the text). The
//! letter `v` is no sign here: between two cells it is XV's V as often. [`write`] draws the signs that no minimum
//! or maximum says so, with the sentence that reads back.

use serde_json::{json, Value as Json};

/// latin's own f-puzzles key for the signs read from text: each `[r, c, r2, c2]`, cell (r, c) the smaller.
pub(super) const SIGNS: &str = "inequalitysigns";

/// The sentence [`write`] adds, which [`read`] reads back.
const SENTENCE: &str = "Inequality signs between two cells point to the smaller digit.";

/// The pairs under [`SIGNS`] of an f-puzzles JSON of size `n`, each `[r, c, r2, c2]` inside the grid; an error
/// naming the first that is not.
pub(super) fn pairs(puzzle: &Json, n: usize) -> Result<Vec<[usize; 4]>, String> {
    super::fpuzzles::list(puzzle, SIGNS)
        .iter()
        .map(|pair| {
            let at = |i: usize| pair[i].as_u64().map(|v| v as usize).filter(|&v| v < n);
            match (at(0), at(1), at(2), at(3)) {
                (Some(a), Some(b), Some(c), Some(d)) => Ok([a, b, c, d]),
                _ => Err(format!("{pair} is not a pair of cells")),
            }
        })
        .collect()
}

/// Whether a text is one sign glyph, as [`read`] reads one.
pub(super) fn is_sign(text: &str) -> bool {
    point(text.trim()).is_some()
}

/// Where a glyph points (its narrow end, toward the smaller cell) on the screen, x right and y down, drawn
/// upright; `None` for any other text.
fn point(glyph: &str) -> Option<(i64, i64)> {
    match glyph {
        "<" | "‹" | "＜" | "﹤" | "〈" | "❮" => Some((-1, 0)),
        ">" | "›" | "＞" | "﹥" | "〉" | "❯" => Some((1, 0)),
        "^" | "∧" | "˄" | "⋀" | "︿" => Some((0, -1)),
        "∨" | "˅" | "⋁" | "﹀" => Some((0, 1)),
        _ => None,
    }
}

/// Whether a sentence (its words, lower case) speaks of inequality signs: "inequality signs", "the signs show
/// which digit is greater", "symbols point to the smaller digit".
fn about_signs(words: &[&str]) -> bool {
    let named =
        |w: &&str| ["sign", "signs", "symbol", "symbols", "chevron", "chevrons"].contains(w);
    let compared = |w: &&str| {
        [
            "greater", "less", "lower", "higher", "larger", "smaller", "bigger", "point", "points",
        ]
        .contains(w)
    };
    words.iter().any(|w| w.starts_with("inequalit"))
        || (words.iter().any(named) && words.iter().any(compared))
}

/// Takes the texts that are signs out of the f-puzzles JSON's `text` into [`SIGNS`], where a sentence of the
/// rules text names signs; an error where one is not between two cells beside each other, lies across them, or
/// is turned other than by quarters, or where no sentence says what the signs mean.
pub(super) fn read(out: &mut Json) -> Result<(), String> {
    let Some(texts) = out["text"].as_array().filter(|t| !t.is_empty()).cloned() else {
        return Ok(());
    };
    let n = out["size"].as_u64().unwrap_or(0) as usize;
    let (signs, others): (Vec<Json>, Vec<Json>) = texts
        .into_iter()
        .partition(|t| t["value"].as_str().map(str::trim).and_then(point).is_some());
    if signs.is_empty() {
        return Ok(());
    }
    let rules = out["ruleset"].as_str().unwrap_or_default().to_lowercase();
    if !super::globals::sentences_of(&rules)
        .iter()
        .any(|(_, words)| about_signs(words))
    {
        return Err(format!(
            "a sign {} drawn as text: no sentence of the rules text says what it means (latin reads signs \
             between two cells where one names them: \"{SENTENCE}\")",
            called(&signs[0])
        ));
    }
    let pairs = signs
        .iter()
        .map(|t| ordered(t, n))
        .collect::<Result<Vec<_>, _>>()?;
    let map = out.as_object_mut().expect("an object");
    map.insert(SIGNS.into(), json!(pairs));
    map.insert("text".into(), Json::Array(others));
    Ok(())
}

/// A sign and its cells, for a message: `">" on R2C3, R1C3`.
fn called(text: &Json) -> String {
    let cells: Vec<&str> = text["cells"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .collect();
    format!("{} on {}", text["value"], cells.join(", "))
}

/// The pair a sign orders, the smaller cell first.
fn ordered(text: &Json, n: usize) -> Result<[usize; 4], String> {
    let glyph = text["value"].as_str().map(str::trim).unwrap_or_default();
    let mut at = point(glyph).expect("a sign");
    // f-puzzles saves a number; a string of one is read as it, anything else refused rather than read upright.
    let angle = match &text["angle"] {
        Json::Null => Some(0.0),
        Json::String(s) => s.trim().parse::<f64>().ok(),
        other => other.as_f64(),
    }
    .filter(|a| a.is_finite() && a.abs() <= 1e6)
    .ok_or_else(|| {
        format!(
            "the sign {} is turned by {}, which is no angle",
            called(text),
            text["angle"]
        )
    })?;
    let quarters = (angle / 90.0).round();
    if (angle - quarters * 90.0).abs() > 1e-6 || !quarters.is_finite() {
        return Err(format!(
            "the sign {} is turned {angle} degrees: latin reads signs turned by quarters",
            called(text)
        ));
    }
    // Turned clockwise on the screen (y down), as f-puzzles turns text, a quarter at a time.
    for _ in 0..(quarters as i64).rem_euclid(4) {
        at = (-at.1, at.0);
    }
    let cells = super::fpuzzles::list(text, "cells")
        .iter()
        .map(|c| super::fpuzzles::inside(c, n).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let [[r, c], [r2, c2]] = cells[..] else {
        return Err(format!(
            "the sign {}: latin reads a sign drawn on two cells beside each other",
            called(text)
        ));
    };
    let step = (c2 as i64 - c as i64, r2 as i64 - r as i64);
    if step.0.abs() + step.1.abs() != 1 {
        return Err(format!(
            "the sign {}: its cells are not beside each other",
            called(text)
        ));
    }
    match at {
        // It points from the first cell to the second: the second is the smaller.
        p if p == step => Ok([r2, c2, r, c]),
        p if p == (-step.0, -step.1) => Ok([r, c, r2, c2]),
        _ => Err(format!(
            "the sign {} lies across its cells, pointing to neither",
            called(text)
        )),
    }
}

/// Draws each of `less` (`[r, c, r2, c2]`, cell (r, c) the smaller) as a sign between its cells, `<` or `>`,
/// turned a quarter for cells one above the other, with the sentence that reads back; an error for cells not
/// beside each other, which no sign between two cells says.
pub(super) fn write(out: &mut Json, less: &[[usize; 4]]) -> Result<(), String> {
    use super::fpuzzles::cell_name;
    for &[r, c, r2, c2] in less {
        // `<` points left; turned a quarter clockwise, up.
        let (glyph, angle) = match (r2 as i64 - r as i64, c2 as i64 - c as i64) {
            (0, 1) => ("<", 0),
            (0, -1) => (">", 0),
            (1, 0) => ("<", 90),
            (-1, 0) => (">", 90),
            _ => {
                return Err(format!(
                    "f-puzzles draws a sign between cells beside each other, and {} < {} are not",
                    cell_name(r, c),
                    cell_name(r2, c2)
                ))
            }
        };
        let entry = json!({
            "cells": [cell_name(r, c), cell_name(r2, c2)],
            "value": glyph,
            "fontC": "#000000",
            "size": 0.75,
            "angle": angle,
        });
        super::fpuzzles::push(out, "text", entry);
    }
    if !less.is_empty() {
        super::globals::said(out, SENTENCE);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(rules: &str, texts: Json) -> Json {
        json!({"size": 4, "ruleset": rules, "text": texts})
    }

    /// A sign read is the pair it orders, whichever glyph draws it and however it is turned; a sign that
    /// points along neither cell is refused.
    #[test]
    fn a_sign_orders_its_cells_however_it_is_drawn() {
        let (r2c2, r2c3, r1c2) = ([1, 1], [1, 2], [0, 1]);
        // The two cells, the glyph, its angle, and the smaller cell (`None`: it lies across them).
        let cases: [(&str, &str, i64, Option<[usize; 2]>); 14] = [
            ("R2C3", "<", 0, Some(r2c2)),
            ("R2C3", ">", 0, Some(r2c3)),
            ("R2C3", "<", 90, None),
            ("R2C3", "^", 0, None),
            ("R2C3", "^", 90, Some(r2c3)),
            ("R2C3", "∧", -270, Some(r2c3)),
            ("R2C3", "∨", 90, Some(r2c2)),
            ("R1C2", "<", 90, Some(r1c2)),
            ("R1C2", ">", 90, Some(r2c2)),
            ("R1C2", "^", 0, Some(r1c2)),
            ("R1C2", "﹀", 0, Some(r2c2)),
            ("R1C2", "<", 0, None),
            ("R1C2", ">", 270, Some(r1c2)),
            ("R1C2", "<", 180, None),
        ];
        for (other, glyph, angle, smaller) in cases {
            let texts = json!([{"cells": ["R2C2", other], "value": glyph, "angle": angle}]);
            let mut out = puzzle(
                "Inequality signs point to the smaller digit.",
                texts.clone(),
            );
            let read = read(&mut out);
            // The angle as a string of its number reads the same.
            let mut texts = texts;
            texts[0]["angle"] = json!(angle.to_string());
            let mut again = puzzle("Inequality signs point to the smaller digit.", texts);
            assert_eq!(read.is_ok(), super::read(&mut again).is_ok());
            assert_eq!(out[SIGNS], again[SIGNS], "{glyph} {angle} {other}");
            let Some(smaller) = smaller else {
                assert!(
                    read.unwrap_err().contains("lies across"),
                    "{glyph} {angle} {other}"
                );
                continue;
            };
            read.unwrap();
            let larger = if smaller == r2c2 {
                if other == "R2C3" {
                    r2c3
                } else {
                    r1c2
                }
            } else {
                r2c2
            };
            let want = [smaller[0], smaller[1], larger[0], larger[1]];
            assert_eq!(out[SIGNS], json!([want]), "{glyph} {angle} {other}");
            assert_eq!(out["text"], json!([]));
        }
    }

    /// Signs need a sentence that says what they mean; other texts are left for the reader to refuse, and
    /// signs not between two cells beside each other, or turned part of a quarter, are refused.
    #[test]
    fn what_is_not_a_sign_between_two_cells_is_left_or_refused() {
        let sign = json!({"cells": ["R1C1", "R1C2"], "value": ">"});
        let mut out = puzzle("Normal Sudoku rules apply.", json!([sign]));
        assert!(read(&mut out).unwrap_err().contains("no sentence"));
        // XV's V and a digit are no signs.
        let others =
            json!([{"cells": ["R1C1", "R1C2"], "value": "V"}, {"cells": ["R3C3"], "value": "7"}]);
        let mut out = puzzle("The signs show which digit is greater.", others.clone());
        read(&mut out).unwrap();
        assert_eq!(out["text"], others);
        assert!(out[SIGNS].is_null());
        for (cells, angle, says) in [
            (json!(["R1C1", "R2C2"]), 0.0, "not beside"),
            (json!(["R1C1"]), 0.0, "two cells"),
            (json!(["R1C1", "R1C2"]), 45.0, "45 degrees"),
            (json!(["R1C1", "R1C9"]), 0.0, "off the"),
            (json!(["R1C1", "R1C2"]), 1e300, "no angle"),
            (json!(["R1C1", "R1C2"]), 90.5, "90.5 degrees"),
        ] {
            let texts = json!([{"cells": cells, "value": "<", "angle": angle}]);
            let mut out = puzzle("The signs show which digit is greater.", texts);
            let e = read(&mut out).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    /// What [`write`] draws reads back as the same pairs, in either direction along a row or a column.
    #[test]
    fn signs_written_read_back() {
        let less = [[0, 0, 0, 1], [1, 1, 1, 0], [2, 2, 3, 2], [3, 3, 2, 3]];
        let mut out = json!({"size": 4});
        write(&mut out, &less).unwrap();
        read(&mut out).unwrap();
        assert_eq!(out[SIGNS], json!(less));
        let e = write(&mut json!({"size": 4}), &[[0, 0, 1, 1]]).unwrap_err();
        assert!(e.contains("R1C1 < R2C2"), "{e}");
    }
}
