//! Cosmetics that draw a constraint the link holds already, dropped so that they are neither read as a rule of
//! their own nor refused as one the rules text does not explain:
//! - the drawings SudokuSolver's f-puzzles plugin exports beside the constraints it adds to f-puzzles (renban,
//!   whispers, zipper lines, indexers, x-sums, skyscrapers, ...), for those who open the link without it: a
//!   cosmetic line, circle, cage or text marked `fromConstraint` with the constraint's name (older exports mark
//!   lines `isNewConstraint` and say the constraint by the line's colour). Its import drops them again
//!   (`fpuzzles-newconstraints.js`, dclamage/SudokuSolver). Such a drawing is dropped only when the constraint it
//!   names is in the link; otherwise it is left to be read (or refused) as any cosmetic is;
//! - a cosmetic cage with no value that outlines exactly the cells of a clone region (or its copy), as setters
//!   outline clones ("cages of the same colour are identical"): the clone says all such a cage could.

use std::collections::BTreeSet;

use serde_json::Value as Json;

/// The cosmetic keys the plugin draws into.
const DRAWN: [&str; 4] = ["line", "circle", "cage", "text"];

/// The key a constraint of the plugin's name is exported under, where latin reads it.
fn key_of(name: &str) -> String {
    match name {
        "Whispers" | "German Whispers" | "Dutch Whispers" => "whispers".to_owned(),
        "Entropic" => "entropicline".to_owned(),
        other => other.to_lowercase().replace(' ', ""),
    }
}

/// The constraint an older export's line (`isNewConstraint`) was drawn from, by the plugin's colours.
fn legacy_name(line: &Json) -> &'static str {
    match line["outlineC"].as_str().map(str::to_uppercase).as_deref() {
        Some("#C060C0") => "Renban",
        Some("#67F067") => "German Whispers",
        Some("#6495ED") => "Slow Thermometer",
        _ => "Entropic",
    }
}

/// A list of cell names as a set.
fn names(cells: &Json) -> BTreeSet<&str> {
    cells
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .collect()
}

/// The cells of every clone region and of every copy, each as a set of cell names (a set of them, so that a link
/// of many cages and clones is not a product of the two).
fn clone_regions(puzzle: &Json) -> BTreeSet<BTreeSet<&str>> {
    super::fpuzzles::list(puzzle, "clone")
        .iter()
        .flat_map(|c| [names(&c["cells"]), names(&c["cloneCells"])])
        .filter(|cells| !cells.is_empty())
        .collect()
}

/// Whether a cosmetic cage shows nothing and outlines exactly one of `clones`.
fn outlines(cage: &Json, clones: &BTreeSet<BTreeSet<&str>>) -> bool {
    let shows = match &cage["value"] {
        Json::Null => false,
        Json::String(s) => !s.trim().is_empty(),
        _ => true,
    };
    !shows && clones.contains(&names(&cage["cells"]))
}

/// The name of the constraint a cosmetic of `key` was drawn from, if the plugin drew it.
fn drawn_from<'a>(key: &str, e: &'a Json) -> Option<&'a str> {
    match e["fromConstraint"].as_str() {
        Some(name) => Some(name),
        None if key == "line" && e["isNewConstraint"] == Json::Bool(true) => Some(legacy_name(e)),
        None => None,
    }
}

/// Drops from `puzzle` every cosmetic that draws a constraint the puzzle holds.
pub(super) fn drop(puzzle: &mut Json) {
    let holds = |name: &str| super::fpuzzles::present(puzzle, &key_of(name));
    let clones = clone_regions(puzzle);
    let mut keep: Vec<(&str, Vec<Json>)> = Vec::new();
    for key in DRAWN {
        let Some(entries) = puzzle[key].as_array() else {
            continue;
        };
        let left: Vec<Json> = entries
            .iter()
            .filter(|e| !drawn_from(key, e).is_some_and(holds))
            .filter(|e| !(key == "cage" && outlines(e, &clones)))
            .cloned()
            .collect();
        if left.len() < entries.len() {
            keep.push((key, left));
        }
    }
    let object = puzzle.as_object_mut().expect("f-puzzles JSON is an object");
    for (key, left) in keep {
        match left.is_empty() {
            true => object.remove(key),
            false => object.insert(key.to_owned(), Json::Array(left)),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A renban's drawing (and an older export's, said by its colour) goes with the renban there; a line drawn
    /// from a constraint the link lacks, and a setter's own line, stay.
    #[test]
    fn drawings_of_constraints_present_are_dropped() {
        let line = |cells: &[&str], extra: Json| {
            let mut e = json!({"lines": [cells], "outlineC": "#C060C0"});
            e.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            e
        };
        let mut puzzle = json!({
            "size": 4,
            "renban": [{"lines": [["R1C1", "R1C2"]]}],
            "line": [
                line(&["R1C1", "R1C2"], json!({"fromConstraint": "Renban"})),
                line(&["R2C1", "R2C2"], json!({"isNewConstraint": true})),
                line(&["R3C1", "R3C2"], json!({"fromConstraint": "Zipper Line"})),
                line(&["R4C1", "R4C2"], json!({})),
            ],
            "text": [{"cells": ["R0C1"], "value": "3", "fromConstraint": "Skyscraper"}],
            "cage": [{"cells": ["R1C1"], "fromConstraint": "Renban"}],
        });
        drop(&mut puzzle);
        let left: Vec<&Json> = puzzle["line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| &l["lines"][0][0])
            .collect();
        assert_eq!(left, [&json!("R3C1"), &json!("R4C1")]);
        assert!(puzzle.get("cage").is_none(), "{puzzle}");
        assert_eq!(
            puzzle["text"].as_array().unwrap().len(),
            1,
            "no skyscraper clue here"
        );
        assert_eq!(key_of("Column Indexer"), "columnindexer");
        // Cages outlining a clone and its copy go; one with a sum, or around other cells, stays.
        let mut cloned = json!({
            "clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R3C3", "R3C4"]}],
            "cage": [
                {"cells": ["R1C2", "R1C1"], "outlineC": "#000000"},
                {"cells": ["R3C3", "R3C4"], "value": ""},
                {"cells": ["R3C3", "R3C4"], "value": "7"},
                {"cells": ["R1C1", "R2C1"]},
            ],
        });
        drop(&mut cloned);
        let left: Vec<&Json> = cloned["cage"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["cells"])
            .collect();
        assert_eq!(left, [&json!(["R3C3", "R3C4"]), &json!(["R1C1", "R2C1"])]);
        assert_eq!(key_of("X Sum"), "xsum");
        assert_eq!(key_of("Dutch Whispers"), "whispers");
    }
}
