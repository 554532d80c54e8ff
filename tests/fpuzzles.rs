//! f-puzzles links: corpus puzzles of every type f-puzzles has (Sudoku, jigsaw, killer, even/odd and the
//! variants) written by `latin convert --to fpuzzles` hold only the fields of the f-puzzles format as published
//! (its TypeScript declaration, `FPuzzlesJson`), solve to the corpus solution when read back, and write back to
//! the same link (read, write, read: equal puzzles).

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

/// The published fields, and for each the keys an entry of it may have (`None`: a flag or a scalar).
fn published() -> BTreeMap<&'static str, Option<&'static [&'static str]>> {
    BTreeMap::from([
        ("size", None),
        ("grid", Some(&["value", "given", "region"][..])),
        ("solution", None),
        ("diagonal+", None),
        ("diagonal-", None),
        ("antiknight", None),
        ("antiking", None),
        ("nonconsecutive", None),
        ("negative", None),
        ("killercage", Some(&["cells", "value"][..])),
        ("thermometer", Some(&["lines"][..])),
        ("arrow", Some(&["cells", "lines"][..])),
        ("whispers", Some(&["lines"][..])),
        ("renban", Some(&["lines"][..])),
        ("palindrome", Some(&["lines"][..])),
        (
            "littlekillersum",
            Some(&["cell", "cells", "direction", "value"][..]),
        ),
        ("difference", Some(&["cells", "value"][..])),
        ("ratio", Some(&["cells", "value"][..])),
        ("xv", Some(&["cells", "value"][..])),
        ("sandwichsum", Some(&["cell", "value"][..])),
        ("odd", Some(&["cell"][..])),
        ("even", Some(&["cell"][..])),
    ])
}

/// Every string that names a cell is `R<row>C<column>`.
fn cell_names_are_published(v: &Value, path: &str) {
    match v {
        Value::String(s)
            if path.ends_with("cell") || path.contains("cells") || path.contains("lines") =>
        {
            let rest = s.strip_prefix('R').and_then(|t| t.split_once('C'));
            assert!(
                rest.is_some_and(|(r, c)| r.parse::<u32>().is_ok() && c.parse::<u32>().is_ok()),
                "{path}: {s}"
            );
        }
        Value::Array(a) => a.iter().for_each(|x| cell_names_are_published(x, path)),
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| cell_names_are_published(x, &format!("{path}.{k}"))),
        _ => {}
    }
}

fn check_fields(json: &Value, link: &str) {
    let fields = published();
    for (key, value) in json.as_object().unwrap() {
        let Some(entry_keys) = fields.get(key.as_str()) else {
            panic!("{key} is not an f-puzzles field: {link}");
        };
        let entries: Vec<&Value> = match value {
            Value::Array(list) if key == "grid" => {
                list.iter().flat_map(|r| r.as_array().unwrap()).collect()
            }
            Value::Array(list) => list.iter().collect(),
            _ => Vec::new(),
        };
        for entry in entries.iter().filter(|e| e.is_object()) {
            for k in entry.as_object().unwrap().keys() {
                assert!(
                    entry_keys.unwrap_or(&[]).contains(&k.as_str()),
                    "{key}.{k}: {link}"
                );
            }
        }
        cell_names_are_published(value, key);
    }
}

fn convert(input: &str, to: &str) -> String {
    let out = latin()
        .args(["convert", input, "--to", to])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{input}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

#[test]
fn corpus_puzzles_written_as_links_read_back_to_the_same_puzzle_and_answer() {
    // Up to 8 puzzles of each type (little killer takes seconds a puzzle to solve).
    let mut sample = Vec::new();
    let mut per_type = BTreeMap::<String, usize>::new();
    for file in [
        "variants.jsonl",
        "killer.jsonl",
        "jigsaw.jsonl",
        "sudoku.jsonl",
        "evenodd.jsonl",
    ] {
        let Some(records) = common::records(file) else {
            return;
        };
        for r in records
            .into_iter()
            .filter(|r| r["type"] != "sum-skyscrapers" && r["solution"].is_array())
        {
            let taken = per_type
                .entry(r["type"].as_str().unwrap().to_owned())
                .or_insert(0);
            if *taken < 8 {
                *taken += 1;
                sample.push(r);
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("latin-fpuzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut kinds = BTreeMap::new();
    for (k, record) in sample.iter().enumerate() {
        let file = dir.join(format!("p{k}.yaml"));
        std::fs::write(&file, common::to_yaml(record)).unwrap();
        let link = convert(file.to_str().unwrap(), "fpuzzles");
        let payload = link
            .strip_prefix("https://www.f-puzzles.com/?load=")
            .expect("an f-puzzles link");
        let text = String::from_utf16(&lz_str::decompress_from_base64(payload).unwrap()).unwrap();
        check_fields(&serde_json::from_str(&text).unwrap(), &link);
        assert_eq!(convert(&link, "fpuzzles"), link, "{}", record["id"]);
        let out = latin()
            .args(["solve", &link, "--format", "json", "--max", "2"])
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["count"], 1, "{}: {json}", record["id"]);
        assert_eq!(json["solutions"][0], record["solution"], "{}", record["id"]);
        *kinds
            .entry(record["type"].as_str().unwrap().to_owned())
            .or_insert(0) += 1;
    }
    assert!(kinds.len() >= 13, "{kinds:?}");
    eprintln!(
        "{} puzzles through f-puzzles links: {kinds:?}",
        sample.len()
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn types_f_puzzles_lacks_are_refused_by_name() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (file, says) in [
        ("puzzles/inshi/nikoli-5x5.yaml", "type inshi"),
        ("puzzles/sudoku/four-givens-magic-9x9.yaml", "magic-centre"),
    ] {
        let out = latin()
            .current_dir(root)
            .args(["convert", file, "--to", "fpuzzles"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(says), "{file}: {err}");
    }
}
