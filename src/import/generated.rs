//! Cosmetics that SudokuSolver's f-puzzles plugin draws from its own constraints. The plugin adds constraints
//! f-puzzles lacks (renban, whispers, zipper lines, indexers, x-sums, skyscrapers, ...) under their own keys,
//! and, for those who open the link without it, exports a drawing of each beside it: a cosmetic line, circle,
//! cage or text marked `fromConstraint` with the constraint's name (older exports mark lines `isNewConstraint`
//! and say the constraint by the line's colour). Its import drops them again (`fpuzzles-newconstraints.js`,
//! dclamage/SudokuSolver), and so does this one: such a drawing adds no rule, where a cosmetic line read by the
//! rules text would be a second rule on the same cells, or a refusal. A drawing is dropped only when the
//! constraint it names is in the link; otherwise it is left to be read (or refused) as any cosmetic is.

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

/// The name of the constraint a cosmetic of `key` was drawn from, if the plugin drew it.
fn drawn_from<'a>(key: &str, e: &'a Json) -> Option<&'a str> {
    match e["fromConstraint"].as_str() {
        Some(name) => Some(name),
        None if key == "line" && e["isNewConstraint"] == Json::Bool(true) => Some(legacy_name(e)),
        None => None,
    }
}

/// Drops from `puzzle` every cosmetic drawn from a constraint the puzzle holds.
pub(super) fn drop(puzzle: &mut Json) {
    let holds = |name: &str| super::fpuzzles::present(puzzle, &key_of(name));
    let mut keep: Vec<(&str, Vec<Json>)> = Vec::new();
    for key in DRAWN {
        let Some(entries) = puzzle[key].as_array() else {
            continue;
        };
        let left: Vec<Json> = entries
            .iter()
            .filter(|e| !drawn_from(key, e).is_some_and(holds))
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
        assert_eq!(key_of("X Sum"), "xsum");
        assert_eq!(key_of("Dutch Whispers"), "whispers");
    }
}
