//! f-puzzles links: corpus puzzles of every type f-puzzles has (Sudoku, jigsaw, killer, even/odd and the
//! variants) written by `latin convert --to fpuzzles` hold only the fields of the f-puzzles format as published
//! (its TypeScript declaration, `FPuzzlesJson`), solve to the corpus solution when read back, and write back to
//! the same link (read, write, read: equal puzzles).

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::{json, Value};

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

/// The published fields, and for each the keys an entry of it may have (`None`: a flag or a scalar). The
/// TypeScript declaration predates some of f-puzzles' fields (`regionsumline`, `entropicline`, `modularline`,
/// `xsum`, `skyscraper`, `slowthermometer`, `doublearrow`, `zipperline`, whispers' `value`); those are as the
/// f-puzzles importer of a public solver declares them (Rangsk's SudokuSolver, `FPuzzlesBoard`: lines lists,
/// `{cell, value}` outside the grid like `sandwichsum`, and a whisper line's gap as its `value`).
fn published() -> BTreeMap<&'static str, Option<&'static [&'static str]>> {
    BTreeMap::from([
        ("size", None),
        ("title", None),
        ("author", None),
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
        ("whispers", Some(&["lines", "value"][..])),
        ("slowthermometer", Some(&["lines"][..])),
        ("doublearrow", Some(&["lines"][..])),
        ("zipperline", Some(&["lines"][..])),
        ("nabner", Some(&["lines"][..])),
        ("rowindexer", Some(&["cells"][..])),
        ("lockout", Some(&["lines"][..])),
        ("columnindexer", Some(&["cells"][..])),
        ("boxindexer", Some(&["cells"][..])),
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
        ("disjointgroups", None),
        ("extraregion", Some(&["cells"][..])),
        ("betweenline", Some(&["lines"][..])),
        ("regionsumline", Some(&["lines"][..])),
        ("entropicline", Some(&["lines"][..])),
        ("modularline", Some(&["lines"][..])),
        ("xsum", Some(&["cell", "value"][..])),
        ("skyscraper", Some(&["cell", "value"][..])),
        ("quadruple", Some(&["cells", "values"][..])),
        ("minimum", Some(&["cell"][..])),
        ("clone", Some(&["cells", "cloneCells"][..])),
        ("maximum", Some(&["cell"][..])),
        ("ruleset", None),
        ("line", Some(&["lines", "outlineC", "width"][..])),
        // A cosmetic text, as f-puzzles saves one ("Alien" by Lisztes draws its sign so).
        (
            "text",
            Some(&["cells", "value", "fontC", "size", "angle"][..]),
        ),
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

/// A Latin square has no regions, and f-puzzles says so cell by cell (`"region": null`, what its region tool writes
/// for a cell taken out of every region): the corpus's Skyscrapers and the Latin-square examples written as links
/// hold it in every cell and solve to the same answer, in their own type, where a cell read with the default box
/// would have made a Sudoku of them.
#[test]
fn latin_squares_are_links_with_every_cell_out_of_the_regions() {
    let Some(records) = common::records("skyscrapers.jsonl") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("latin-fpuzzles-latin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (k, record) in records
        .iter()
        .filter(|r| r["solution"].is_array())
        .take(6)
        .enumerate()
    {
        let file = dir.join(format!("p{k}.yaml"));
        std::fs::write(&file, common::to_yaml(record)).unwrap();
        files.push(file);
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for example in [
        "latin/completion-7x7.yaml",
        "kropki-latin/kropki-latin-6x6.yaml",
        "kropki-latin/kropki-latin-7x7.yaml",
    ] {
        files.push(root.join("puzzles").join(example));
    }
    let solve = |input: &str| -> Value {
        let out = latin()
            .args(["solve", input, "--format", "json", "--max", "2"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut kinds = BTreeMap::new();
    for file in &files {
        let file = file.to_str().unwrap();
        let link = convert(file, "fpuzzles");
        let payload = link
            .strip_prefix("https://www.f-puzzles.com/?load=")
            .unwrap();
        let text = String::from_utf16(&lz_str::decompress_from_base64(payload).unwrap()).unwrap();
        let json: Value = serde_json::from_str(&text).unwrap();
        check_fields(&json, &link);
        let cells: Vec<&Value> = json["grid"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .collect();
        assert!(
            cells.iter().all(|c| c.get("region") == Some(&Value::Null)),
            "{file}: {text}"
        );
        let (expected, answer) = (solve(file), solve(&link));
        assert_eq!(answer["type"], expected["type"], "{file}");
        assert_eq!(answer["count"], 1, "{file}: {answer}");
        assert_eq!(answer["solutions"], expected["solutions"], "{file}");
        *kinds
            .entry(answer["type"].as_str().unwrap().to_owned())
            .or_insert(0) += 1;
    }
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    std::fs::remove_dir_all(dir).ok();
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

/// The examples with extra regions (a windoku among them), between lines, region-sum lines, entropic and
/// modular lines, x-sums, skyscrapers on a Sudoku, disjoint groups, slow thermometers, double arrows, zippers
/// and Dutch whispers, which the corpus has none of: written as links in published fields, read back to the
/// same link and solved to their solutions.
#[test]
fn examples_the_corpus_lacks_go_through_links() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "puzzles/extra-regions/windoku-9x9.yaml",
        "puzzles/extra-regions/extra-regions-6x6.yaml",
        "puzzles/sudoku/disjoint-groups-9x9.yaml",
        "puzzles/between/between-9x9.yaml",
        "puzzles/region-sum/region-sum-9x9.yaml",
        "puzzles/entropic/entropic-9x9.yaml",
        "puzzles/modular/modular-9x9.yaml",
        "puzzles/x-sums/x-sums-9x9.yaml",
        "puzzles/x-sums/x-sums-6x6.yaml",
        "puzzles/skyscraper-sudoku/skyscraper-sudoku-9x9.yaml",
        "puzzles/quadruple/quadruple-9x9.yaml",
        "puzzles/slow-thermo/slow-thermo-9x9.yaml",
        "puzzles/double-arrow/double-arrow-9x9.yaml",
        "puzzles/zipper/zipper-9x9.yaml",
        "puzzles/dutch-whispers/dutch-whispers-9x9.yaml",
        "puzzles/nabner/nabner-9x9.yaml",
        "puzzles/nabner/nabner-6x6.yaml",
        "puzzles/indexer/159-9x9.yaml",
        "puzzles/indexer/indexer-6x6.yaml",
        "puzzles/lockout/lockout-9x9.yaml",
        "puzzles/killer-cages/killer-cages-9x9.yaml",
    ] {
        let path = root.join(file);
        let link = convert(path.to_str().unwrap(), "fpuzzles");
        let payload = link
            .strip_prefix("https://www.f-puzzles.com/?load=")
            .expect("an f-puzzles link");
        let text = String::from_utf16(&lz_str::decompress_from_base64(payload).unwrap()).unwrap();
        let json: Value = serde_json::from_str(&text).unwrap();
        check_fields(&json, &link);
        assert!(
            json["extraregion"].is_array()
                || json["betweenline"].is_array()
                || json["regionsumline"].is_array()
                || json["entropicline"].is_array()
                || json["modularline"].is_array()
                || json["xsum"].is_array()
                || json["skyscraper"].is_array()
                || json["quadruple"].is_array()
                || json["slowthermometer"].is_array()
                || json["doublearrow"].is_array()
                || json["zipperline"].is_array()
                || json["nabner"].is_array()
                || json["columnindexer"].is_array()
                || json["lockout"].is_array()
                || json["killercage"].is_array()
                || json["whispers"][0]["value"] == "4"
                || json["disjointgroups"] == true,
            "{file}: {json}"
        );
        assert_eq!(convert(&link, "fpuzzles"), link, "{file}");
        let out = latin()
            .args(["solve", &link, "--format", "json", "--max", "2"])
            .output()
            .unwrap();
        let solved: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(solved["count"], 1, "{file}: {solved}");
        let check = latin().arg("check").arg(&path).output().unwrap();
        assert!(check.status.success(), "{file}");
        let want = file_solution(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(solved["solutions"][0], json!(want), "{file}");
    }
}

/// The `solution: |` block of an example file, row by row.
fn file_solution(text: &str) -> Vec<Vec<u64>> {
    text.split("solution: |")
        .nth(1)
        .expect("a solution")
        .lines()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect()
        })
        .filter(|row: &Vec<u64>| !row.is_empty())
        .collect()
}

/// A type f-puzzles cannot say is refused with the rule it has no constraint for, and the sections it reads.
#[test]
fn types_f_puzzles_lacks_are_refused_by_name() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (file, says) in [
        (
            "puzzles/inshi/nikoli-5x5.yaml",
            "type inshi: f-puzzles has no way to say its rule `product` on `hints`, `rooms`",
        ),
        (
            "puzzles/mathrax/mathrax-6x6.yaml",
            "its rules `diagonal-pairs` on `points`; `within` on `circles`",
        ),
        ("puzzles/sudoku/four-givens-magic-9x9.yaml", "magic-centre"),
        // Clues under a schema key that means another rule: never written as that rule.
        (
            "puzzles/numbered-rooms/numbered-rooms-6x6.yaml",
            "type numbered-rooms: f-puzzles has no way to say its rule `numbered-room` on `bottom`",
        ),
        // f-puzzles' lockout ends on a 6x6 are 3 apart, and it has no field for another gap.
        ("puzzles/lockout/lockout-6x6.yaml", "lockouts 4 apart"),
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

/// A link that mixes constraint families takes the type of whichever loaded grammar has them all: killer cages
/// with a thermometer read, with only the built-in types, as `killer+thermo` (the type made of the two), and as
/// the type a grammar file in `--grammars` declares, its thermometer under that grammar's own section name.
#[test]
fn a_link_mixing_families_reads_as_a_grammar_that_has_them() {
    let cage =
        |cells: [&str; 2], sum: u32| serde_json::json!({"cells": cells, "value": sum.to_string()});
    let grid: Vec<Vec<Value>> = vec![vec![serde_json::json!({}); 4]; 4];
    let link = serde_json::json!({
        "size": 4,
        "grid": grid,
        "killercage": [
            cage(["R1C1", "R1C2"], 3), cage(["R1C3", "R1C4"], 7), cage(["R2C1", "R2C2"], 7),
            cage(["R2C3", "R2C4"], 3), cage(["R3C1", "R3C2"], 3), cage(["R3C3", "R3C4"], 7),
            cage(["R4C1", "R4C2"], 7), cage(["R4C3", "R4C4"], 3),
        ],
        "thermometer": [{"lines": [["R1C1", "R2C1"]]}],
    })
    .to_string();
    let alone = latin()
        .args(["solve", &link, "--max", "9", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&alone.stdout).unwrap();
    assert_eq!(v["type"], "killer+thermo", "{v}");
    let solutions = v["solutions"].as_array().unwrap();
    assert!(!solutions.is_empty(), "{v}");
    for s in solutions {
        // The thermometer holds: its bulb r1c1 below r2c1.
        assert!(s[0][0].as_u64() < s[1][0].as_u64(), "{s}");
    }
    // A family no type has, with the grammar meant to read it not loaded: the error names the family and says
    // why the file did not load.
    let broken = tempfile::tempdir().unwrap();
    std::fs::write(
        broken.path().join("small-whispers.yaml"),
        "name: small-whispers\nrules: [latin, nosuch]\n",
    )
    .unwrap();
    let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"whispers":[{"lines":[["R1C1","R1C2"]]}],"thermometer":[{"lines":[["R2C1","R2C2"]]}]}"#;
    let out = latin()
        .args(["solve", json, "--grammars", broken.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("whispers 2 apart")
            && said.contains("not loaded")
            && said.contains("small-whispers.yaml"),
        "{said}"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("thermo-killer.yaml"),
        "name: thermo-killer\ndescription: killer cages and thermometers\nsections:\n  cages: {kind: regions}\n  \
         sums: {kind: clues, of: cages}\n  bulbs: {kind: lines, optional: true}\nrules:\n  - latin\n  - boxes\n  \
         - primitive: distinct\n    regions: cages\n  - primitive: sum\n    regions: cages\n    clues: sums\n    \
         distinct: true\n  - primitive: increasing\n    lines: bulbs\n",
    )
    .unwrap();
    let grammars = dir.path().to_str().unwrap();
    let yaml = latin()
        .args(["convert", &link, "--grammars", grammars])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&yaml.stdout);
    assert!(
        yaml.status.success(),
        "{}",
        String::from_utf8_lossy(&yaml.stderr)
    );
    assert!(
        text.contains("type: thermo-killer") && text.contains("bulbs:"),
        "{text}"
    );
    let solved = latin()
        .args([
            "solve",
            &link,
            "--grammars",
            grammars,
            "--max",
            "9",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&solved.stdout).unwrap();
    let solutions = v["solutions"].as_array().unwrap();
    assert!(!solutions.is_empty(), "{v}");
    for s in solutions {
        // The thermometer holds: its bulb r1c1 below r2c1.
        assert!(s[0][0].as_u64() < s[1][0].as_u64(), "{s}");
    }
    // Written back as a link (the grammar's sections in f-puzzles' terms), it reads as the same puzzle file.
    let again = latin()
        .args(["convert", &link, "--grammars", grammars, "--to", "fpuzzles"])
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let written = String::from_utf8_lossy(&again.stdout).trim().to_owned();
    let back = latin()
        .args(["convert", &written, "--grammars", grammars])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&back.stdout), text);
    // A grammar whose whispers differ by 4 writes them with that gap, as SudokuSolver reads Dutch whispers, and
    // reads back as whispers 4 apart (the built-in dutch-whispers, on the tie between the two).
    std::fs::write(
        dir.path().join("dutch.yaml"),
        "name: dutch\ndescription: Dutch whispers\nsections:\n  whispers: {kind: lines}\nrules:\n  - latin\n  \
         - boxes\n  - primitive: apart\n    lines: whispers\n    by: 4\n",
    )
    .unwrap();
    let dutch = dir.path().join("dutch-puzzle.yaml");
    std::fs::write(&dutch, "type: dutch\nsize: 9\nwhispers:\n  - r1c1 r1c2\n").unwrap();
    let out = latin()
        .arg("convert")
        .arg(&dutch)
        .args(["--grammars", grammars, "--to", "fpuzzles"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let link = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert_eq!(decoded(&link)["whispers"][0]["value"], "4");
    let back = latin()
        .args(["convert", &link, "--grammars", grammars])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&back.stdout);
    assert!(text.starts_with("type: dutch-whispers\n"), "{text}");
    // Without a gap, whispers are half the size apart, rounded up: 2 on this 4x4, which no grammar says.
    let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"whispers":[{"lines":[["R1C1","R1C2"]]}]}"#;
    let out = latin().args(["convert", json]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("whispers 2 apart"), "{err}");
}

/// The examples of types made of types go through links: written, read back as the same type (its parts in
/// order of name), solved to their solution, and written again to the same link. Consecutive marks beside black
/// dots not all given read back as `kropki-all-white`: f-puzzles' white dots' negative constraint leaves a black
/// dot's pair free, as SudokuSolver reads it, where latin's consecutive marks rule out a black 1-2 (the example
/// has none, and one solution either way).
#[test]
fn mixed_examples_go_through_links() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/mixed");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 2);
    for path in files {
        let file = path.display().to_string();
        let link = convert(&file, "fpuzzles");
        check_fields(&decoded(&link), &link);
        assert_eq!(convert(&link, "fpuzzles"), link, "{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let kind = text.lines().find_map(|l| l.strip_prefix("type: ")).unwrap();
        let kind = match kind {
            "consecutive+kropki-dots" => "kropki-all-white+latin",
            other => other,
        };
        solves_as(&link, kind, &text, &file);
    }
}

/// Kropki dots and XV marks without f-puzzles' negative constraint say only of their own pairs (`kropki-dots`,
/// `xv-marks`); with it, every unmarked pair has neither relation, even when the link has no mark at all (a 4x4
/// with no two neighbours consecutive or double has no solution, where a plain 4x4 Sudoku has 288). On black
/// dots alone it is `kropki-all-black`, where a white dot frees its pair of the black dots' rule (on white dots
/// alone it is a consecutive Sudoku).
#[test]
fn marks_with_and_without_the_negative_constraint() {
    let empty = r#"[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
    let link = |rest: &str| format!(r#"{{"size":4,"grid":{empty}{rest}}}"#);
    let count = |json: &str| -> Value {
        let out = latin()
            .args(["count", json, "--format", "json", "--max", "300"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)))
    };
    assert_eq!(count(&link(""))["count"], 288);
    assert_eq!(
        count(&link(r#","negative":["ratio","difference"]"#))["count"],
        0
    );
    let anti_xv = count(&link(r#","negative":["xv"]"#));
    assert!(anti_xv["count"].as_u64().unwrap() < 288, "{anti_xv}");
    let dot = r#","difference":[{"cells":["R1C1","R1C2"]}]"#;
    let open = count(&link(dot));
    assert_eq!(open["type"], "kropki-dots", "{open}");
    let all = count(&link(&format!(
        r#"{dot},"negative":["ratio","difference"]"#
    )));
    assert_eq!(all["type"], "kropki", "{all}");
    assert!(
        open["count"].as_u64() > all["count"].as_u64(),
        "{open} {all}"
    );
    let mark = r#","xv":[{"cells":["R1C1","R1C2"],"value":"V"}]"#;
    assert_eq!(count(&link(mark))["type"], "xv-marks");
    assert_eq!(count(&link(r#","negative":["ratio"]"#))["count"], 0);
    // The dots of one grid: a white dot on its 1-2 in row 1, black dots on its other pairs in a ratio of 2.
    let black: String = [
        "R1C2-R2C2",
        "R1C4-R2C4",
        "R2C3-R2C4",
        "R3C1-R3C2",
        "R3C1-R4C1",
        "R3C3-R4C3",
    ]
    .iter()
    .chain(&["R4C3-R4C4"])
    .map(|p| {
        let (a, b) = p.split_once('-').unwrap();
        format!(r#"{{"cells":["{a}","{b}"]}}"#)
    })
    .collect::<Vec<_>>()
    .join(",");
    let one_grid = link(&format!(r#"{dot},"ratio":[{black}],"negative":["ratio"]"#));
    let out = latin()
        .args(["solve", &one_grid, "--format", "json", "--max", "2"])
        .output()
        .unwrap();
    let solved: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(solved["type"], "kropki-all-black", "{solved}");
    assert_eq!(solved["count"], 1, "{solved}");
    assert_eq!(solved["solutions"][0][0], json!([1, 2, 3, 4]), "{solved}");
    // Written back, open marks carry no negative constraint, black dots all given carry it alone, and each
    // reads back as the same type.
    for (file, negative) in [
        ("puzzles/kropki-dots/kropki-dots-9x9.yaml", Value::Null),
        ("puzzles/xv-marks/xv-marks-9x9.yaml", Value::Null),
        (
            "puzzles/kropki-all-black/kropki-all-black-9x9.yaml",
            json!(["ratio"]),
        ),
    ] {
        let (link, json, text) = example_link(file);
        assert_eq!(json["negative"], negative, "{file}: {json}");
        let kind = text.lines().find_map(|l| l.strip_prefix("type: ")).unwrap();
        solves_as(&link, kind, &text, file);
    }
}

/// Dots of one colour all given beside another constraint family: the other colour's dots stay in the same
/// rule, so that they still free their pairs (a white 1-2 beside black dots all given, a black 1-2 beside white
/// ones), and the puzzle reads as the one-colour type joined with the other family's.
#[test]
fn dots_of_one_colour_all_given_keep_the_other_colour_beside_another_family() {
    for (file, kind) in [
        (
            "puzzles/kropki-all-black/kropki-all-black-9x9.yaml",
            "kropki-all-black+thermo",
        ),
        (
            "puzzles/kropki-all-white/kropki-all-white-9x9.yaml",
            "kropki-all-white+thermo",
        ),
    ] {
        let (_, mut json, text) = example_link(file);
        let sol = file_solution(&text);
        // A thermometer from r1c1 to the larger of its neighbours on the right and below, as the solution has.
        let (low, high) = if sol[0][1] > sol[1][0] {
            ("R1C1", "R1C2")
        } else {
            ("R1C1", "R2C1")
        };
        let (low, high) = if sol[0][0] < sol[0][1].max(sol[1][0]) {
            (low, high)
        } else {
            (high, low)
        };
        json["thermometer"] = json!([{"lines": [[low, high]]}]);
        solves_as(&json.to_string(), kind, &text, file);
    }
}

/// Numbered kropki dots (f-puzzles' `value` on a dot, a difference or ratio other than 1 and 2) are read as the
/// dot's own relation, written back as its value, and solve to the example's solution; with the negative
/// constraint the type is `kropki`, without it `kropki-dots`. A dot whose value is no number is refused.
#[test]
fn numbered_dots_go_through_links() {
    for (file, kind, key) in [
        (
            "puzzles/kropki-dots/numbered-dots-9x9.yaml",
            "kropki-dots",
            "ratio",
        ),
        (
            "puzzles/kropki/numbered-kropki-6x6.yaml",
            "kropki",
            "difference",
        ),
    ] {
        let (link, json, text) = example_link(file);
        let numbered = json[key]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["value"].as_str().is_some_and(|v| v != "1" && v != "2"))
            .count();
        assert!(numbered > 0, "{file}: {json}");
        solves_as(&link, kind, &text, file);
    }
    let empty = r#"[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
    let bad =
        format!(r#"{{"size":4,"grid":{empty},"ratio":[{{"cells":["R1C1","R1C2"],"value":"x"}}]}}"#);
    let out = latin().args(["solve", &bad]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a ratio dot of \"x\""), "{err}");
}

/// A consecutive Sudoku as f-puzzles sets it: white dots with their negative constraint alone, or non-consecutive
/// ticked beside white dots (SudokuSolver exempts the dotted pairs). Either reads as `consecutive-sudoku` and
/// solves to the example's solution (the rule over the whole grid alone would leave none); the example writes
/// the first form and reads back to the same link. White dots all given beside black dots not all given read
/// as `kropki-all-white` (the example's r1c1 and r1c2 hold 4 and 8), where a black dot frees its pair of the
/// white dots' rule, as SudokuSolver reads it: the example with its 1-2 pairs' white dots turned black keeps
/// its solution, in either form. A numbered white dot with no black dot is refused.
#[test]
fn a_consecutive_sudoku_reads_from_either_form() {
    let (_, json, text) = example_link("puzzles/consecutive-sudoku/consecutive-sudoku-9x9.yaml");
    assert_eq!(json["negative"], json!(["difference"]), "{json}");
    let mut ticked = json.clone();
    ticked.as_object_mut().unwrap().remove("negative");
    ticked["nonconsecutive"] = json!(true);
    for (puzzle, form) in [(&json, "negative"), (&ticked, "nonconsecutive")] {
        solves_as(&puzzle.to_string(), "consecutive-sudoku", &text, form);
    }
    let mut black = ticked.clone();
    black["ratio"] = json!([{"cells": ["R1C1", "R1C2"]}]);
    solves_as(
        &black.to_string(),
        "kropki-all-white",
        &text,
        "black dots not all given",
    );
    // White dots between 1 and 2 turned black: those pairs are free of the white dots' rule.
    let sol = file_solution(&text);
    let at = |name: &Value| {
        let (r, c) = name.as_str().unwrap()[1..].split_once('C').unwrap();
        sol[r.parse::<usize>().unwrap() - 1][c.parse::<usize>().unwrap() - 1]
    };
    let (halves, whites): (Vec<Value>, Vec<Value>) = json["difference"]
        .as_array()
        .unwrap()
        .iter()
        .cloned()
        .partition(|d| at(&d["cells"][0]) * at(&d["cells"][1]) == 2);
    assert!(!halves.is_empty(), "{json}");
    for (puzzle, form) in [(&json, "negative"), (&ticked, "nonconsecutive")] {
        let mut turned = puzzle.clone();
        turned["difference"] = json!(whites);
        turned["ratio"] = json!(halves);
        solves_as(&turned.to_string(), "kropki-all-white", &text, form);
    }
    let mut numbered = json.clone();
    numbered["difference"][0]["value"] = json!("2");
    let out = latin()
        .args(["solve", &numbered.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a difference dot of 2"), "{err}");
}

/// A setter draws most line rules as plain coloured lines (f-puzzles' cosmetic `line`) and says in the rules
/// text what each colour means, in words of their own: each example's lines, redrawn so with such a sentence,
/// solve as the example; parity lines, which f-puzzles has no constraint for, are written so and read back.
#[test]
fn coloured_lines_take_the_rule_the_rules_text_gives_their_colour() {
    for (file, key, colour, sentence) in [
        ("whispers/whispers-9x9", "whispers", "#67F067", "German whispers: adjacent digits along a green line differ by at least 5."),
        ("whispers/whispers-6x6", "whispers", "#67F067", "Adjacent digits along a green line must have a difference of five or more."),
        ("dutch-whispers/dutch-whispers-9x9", "whispers", "#FFA500", "Dutch whispers: neighbouring digits on an orange line differ by at least 4."),
        ("renban/renban-9x9", "renban", "#F067F0", "Renban: purple lines hold a set of non-repeating consecutive digits, in any order."),
        ("palindrome/palindrome-9x9", "palindrome", "#CFCFCF", "Grey lines are palindromes: they read the same in both directions."),
        ("region-sum/region-sum-9x9", "regionsumline", "#2ECBFF", "Digits on a blue line have an equal sum within each box the line passes through."),
        ("entropic/entropic-9x9", "entropicline", "rgb(255, 165, 0)", "Any three consecutive cells along an orange line hold a low (1-3), a middle (4-6) and a high (7-9) digit."),
        ("modular/modular-9x9", "modularline", "teal", "Any three consecutive digits along a teal line have different remainders mod 3."),
        ("zipper/zipper-9x9", "zipperline", "#C060F0", "Zipper lines: digits equidistant from the centre of a lavender line sum to the same total."),
        ("nabner/nabner-9x9", "nabner", "#FFD700", "No two digits on a yellow line are consecutive, and no digit repeats on it."),
    ] {
        let (_, mut json, text) = example_link(&format!("puzzles/{file}.yaml"));
        let lines: Vec<Value> = json[key].as_array().unwrap().iter().flat_map(|e| e["lines"].as_array().unwrap().clone()).collect();
        json.as_object_mut().unwrap().remove(key);
        json["line"] = json!(lines.iter().map(|l| json!({"lines": [l], "outlineC": colour, "width": 0.25})).collect::<Vec<_>>());
        json["ruleset"] = json!(format!("Normal sudoku rules apply. {sentence}"));
        let kind = file.split('/').next().unwrap();
        solves_as(&json.to_string(), kind, &text, file);
    }
    let (link, json, text) = example_link("puzzles/parity-lines/parity-lines-9x9.yaml");
    assert_eq!(json["line"].as_array().map(Vec::len), Some(5), "{json}");
    assert!(
        json["ruleset"].as_str().unwrap().contains("red line"),
        "{json}"
    );
    solves_as(&link, "parity-lines", &text, "parity lines");
    // 10 lines, which f-puzzles has no constraint for either: written as black lines, read back, and read in a
    // setter's own words and colour.
    let (link, mut json, text) = example_link("puzzles/ten-lines/ten-lines-9x9.yaml");
    assert_eq!(json["line"].as_array().map(Vec::len), Some(12), "{json}");
    assert!(
        json["ruleset"].as_str().unwrap().contains("black line"),
        "{json}"
    );
    solves_as(&link, "ten-lines", &text, "10 lines");
    for l in json["line"].as_array_mut().unwrap() {
        l["outlineC"] = json!("#67F067");
    }
    json["ruleset"] =
        json!("10 Lines: each green line is divided into segments that each sum to 10.");
    solves_as(&json.to_string(), "ten-lines", &text, "10 lines in green");
}

/// f-puzzles' killer cages hold distinct digits; a setter who lets them repeat says so in the rules text, and
/// the cages then read as sums alone (`killer-repeats`), cages that tile the grid too. Without the sentence the
/// example, whose cages repeat digits, has no solution.
#[test]
fn cages_the_rules_text_lets_repeat_a_digit_are_sums_alone() {
    let (link, mut json, text) = example_link("puzzles/killer-repeats/killer-repeats-9x9.yaml");
    assert_eq!(json["ruleset"], "Digits may repeat within cages.", "{json}");
    solves_as(&link, "killer-repeats", &text, "as written");
    json["ruleset"] =
        json!("Normal sudoku rules apply. Digits can repeat in a cage if other rules allow it.");
    solves_as(&json.to_string(), "killer-repeats", &text, "in other words");
    json["ruleset"] = json!("Normal killer rules: digits cannot repeat in a cage.");
    let solved = solved(&json.to_string());
    assert_eq!(solved["type"], "killer-cages", "{solved}");
    assert_eq!(solved["status"], "infeasible", "{solved}");
    // Cages that tile the grid, every one with its sum: a Killer Sudoku's, but for the sentence.
    let (_, mut tiled, _) = example_link("puzzles/killer/killer-6x6.yaml");
    tiled["ruleset"] = json!("Digits may repeat in cages.");
    let yaml = convert(&tiled.to_string(), "yaml");
    assert!(yaml.contains("type: killer-repeats"), "{yaml}");
    // Written back as cages and the sentence, which reads again.
    let written = decoded(&convert(&tiled.to_string(), "fpuzzles"));
    assert_eq!(
        written["ruleset"], "Digits may repeat within cages.",
        "{written}"
    );
    assert_eq!(written["killercage"], tiled["killercage"]);
}

/// A setter of product cages draws f-puzzles' killer cages and says in the rules text that their clues are
/// products: the cages then read as products (`product-killer`), and write back as cages with the sentence.
/// Without it the example reads as sums and has no solution; a product said of something else, or beside
/// sums, is refused rather than read as sums.
#[test]
fn cages_the_rules_text_makes_products_read_as_products() {
    let (link, mut json, text) = example_link("puzzles/product-killer/product-killer-9x9.yaml");
    let sentence = json["ruleset"].as_str().unwrap().to_owned();
    assert!(sentence.contains("multiply"), "{json}");
    solves_as(&link, "product-killer", &text, "as written");
    for words in [
        "Normal sudoku rules apply. The clue in a cage is the product of its digits.",
        "Killer cages: digits in a cage multiply to the clue and cannot repeat.",
        "Digits within a cage must be multiplied together to give the total in its corner.",
    ] {
        json["ruleset"] = json!(words);
        solves_as(&json.to_string(), "product-killer", &text, words);
    }
    json["ruleset"] = json!("Normal killer rules: digits in a cage sum to the clue.");
    let solved = solved(&json.to_string());
    assert_eq!(solved["type"], "killer-cages", "{solved}");
    assert_eq!(solved["status"], "infeasible", "{solved}");
    for refused in [
        "Cages show a sum or a product of their digits.",
        "The digit in a circle is the product of the digits on its arrow.",
        "Digits in a cage multiply to the clue. Digits may repeat in cages.",
    ] {
        json["ruleset"] = json!(refused);
        let out = latin().args(["solve", &json.to_string()]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{refused}: {stderr}");
        assert!(stderr.contains("product"), "{refused}: {stderr}");
    }
    // Cages that tile the grid, every one with its clue, read as products too.
    let (_, mut tiled, _) = example_link("puzzles/killer/killer-6x6.yaml");
    tiled["ruleset"] = json!(sentence);
    let yaml = convert(&tiled.to_string(), "yaml");
    assert!(yaml.contains("type: product-killer"), "{yaml}");
    let written = decoded(&convert(&tiled.to_string(), "fpuzzles"));
    assert_eq!(written["ruleset"], json!(sentence), "{written}");
    assert_eq!(written["killercage"], tiled["killercage"]);
}

/// Arrows on which the rules text forbids a digit to repeat read as such (`arrow-distinct`), pills and all,
/// and write back with the sentence; read as the usual arrows, the example has another solution.
#[test]
fn arrows_the_rules_text_forbids_to_repeat_a_digit_read_so() {
    let (link, mut json, text) = example_link("puzzles/arrow-distinct/arrow-distinct-9x9.yaml");
    assert_eq!(
        json["ruleset"], "Digits cannot repeat on an arrow.",
        "{json}"
    );
    solves_as(&link, "arrow-distinct", &text, "as written");
    json["ruleset"] = json!("Arrows: digits along an arrow sum to the circle and may not repeat.");
    solves_as(&json.to_string(), "arrow-distinct", &text, "in other words");
    json["ruleset"] = json!("Digits along an arrow sum to the digit in its circle.");
    let solved = solved(&json.to_string());
    assert_eq!(solved["type"], "arrow", "{solved}");
    assert_eq!(solved["count"], 2, "{solved}");
}

/// Thermometers a sentence of the rules text makes slow read as slow thermometers (Penpa+ and SudokuPad draw
/// one kind, and `convert` writes slow ones so for them); beside f-puzzles' own slow thermometers the sentence
/// is about those, and the thermometers stay strict.
#[test]
fn thermometers_the_rules_text_makes_slow_are_slow() {
    let (_, mut json, text) = example_link("puzzles/slow-thermo/slow-thermo-9x9.yaml");
    let lines = json
        .as_object_mut()
        .unwrap()
        .remove("slowthermometer")
        .unwrap();
    json["thermometer"] = lines.clone();
    json["ruleset"] = json!("Normal sudoku rules apply. Digits along a thermometer increase or stay the same from the bulb.");
    solves_as(&json.to_string(), "slow-thermo", &text, "said in words");
    let written = convert(&json.to_string(), "fpuzzles");
    assert_eq!(decoded(&written)["slowthermometer"], lines);
    let sudokupad = convert(&json.to_string(), "sudokupad");
    let payload = sudokupad
        .strip_prefix("https://sudokupad.app/fpuzzles")
        .unwrap();
    let drawn = decoded(&format!("https://www.f-puzzles.com/?load={payload}"));
    assert_eq!(drawn["thermometer"], lines, "{drawn}");
    solves_as(&sudokupad, "slow-thermo", &text, "written for SudokuPad");
    json["slowthermometer"] = json!([{"lines": [["R9C9", "R9C8"]]}]);
    let yaml = convert(&json.to_string(), "yaml");
    assert!(yaml.contains("type: slow-thermo+thermo"), "{yaml}");
}

/// `input` (a link or f-puzzles JSON) solves as type `kind` to the one solution of the example file `text`.
/// What `latin solve --format json --max 2` says of a puzzle.
fn solved(input: &str) -> Value {
    let out = latin()
        .args(["solve", input, "--format", "json", "--max", "2"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)))
}

fn solves_as(input: &str, kind: &str, text: &str, what: &str) {
    let out = latin()
        .args(["solve", input, "--format", "json", "--max", "2"])
        .output()
        .unwrap();
    let solved: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{what}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(solved["type"], kind, "{what}: {solved}");
    assert_eq!(solved["count"], 1, "{what}: {solved}");
    assert_eq!(solved["solutions"][0], json!(file_solution(text)), "{what}");
}

/// SudokuSolver's plugin exports a cosmetic drawing of each of its constraints beside it (`fromConstraint`, or
/// on older lines `isNewConstraint` and the plugin's colour): such a link reads as the constraints alone, as the
/// plugin reads it, instead of being refused for cosmetics the rules text does not explain.
#[test]
fn drawings_the_solver_plugin_exports_beside_its_constraints_are_dropped() {
    let (_, mut json, text) = example_link("puzzles/renban/renban-6x6.yaml");
    let mut drawn = Vec::new();
    for (k, renban) in json["renban"].as_array().unwrap().iter().enumerate() {
        let mut line = json!({"lines": renban["lines"], "outlineC": "#C060C0", "width": 0.4});
        line[if k == 0 {
            "isNewConstraint"
        } else {
            "fromConstraint"
        }] = if k == 0 { json!(true) } else { json!("Renban") };
        drawn.push(line);
    }
    json["line"] = json!(drawn);
    solves_as(
        &json.to_string(),
        "renban",
        &text,
        "renban with its drawings",
    );
    let (_, mut json, text) = example_link("puzzles/skyscraper-sudoku/skyscraper-sudoku-6x6.yaml");
    let labels: Vec<Value> = json["skyscraper"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| json!({"cells": [c["cell"]], "value": c["value"], "fromConstraint": "Skyscraper"}))
        .collect();
    json["text"] = json!(labels);
    solves_as(
        &json.to_string(),
        "skyscraper-sudoku",
        &text,
        "skyscraper clues with their labels",
    );
    // Without the constraint it was drawn from, a drawing is a cosmetic as any other: refused.
    json.as_object_mut().unwrap().remove("skyscraper");
    let out = latin().args(["solve", &json.to_string()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`text`"));
}

/// An example file's f-puzzles link, which holds only published fields and writes back to itself, with its
/// JSON and the file's text.
fn example_link(file: &str) -> (String, Value, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let link = convert(path.to_str().unwrap(), "fpuzzles");
    let json = decoded(&link);
    check_fields(&json, &link);
    assert_eq!(convert(&link, "fpuzzles"), link, "{file}");
    (link, json, std::fs::read_to_string(&path).unwrap())
}

/// The f-puzzles JSON inside a link.
fn decoded(link: &str) -> Value {
    let payload = link
        .strip_prefix("https://www.f-puzzles.com/?load=")
        .expect("an f-puzzles link");
    let text = String::from_utf16(&lz_str::decompress_from_base64(payload).unwrap()).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Minimum and maximum cells are read as the signs they stand for (a greater-than Sudoku), every solution has
/// each smaller (larger) than every cell beside it that is not of its kind (two maxima side by side, as in a
/// fortress Sudoku, say nothing between them: reading a sign there made this puzzle, and setters' fortresses,
/// have no solution), and the link writes back as the same cells.
#[test]
fn minimum_and_maximum_cells_read_as_signs_and_write_back() {
    let grid: Vec<Vec<Value>> = vec![vec![json!({}); 4]; 4];
    let minima = [(0, 0), (1, 0)];
    let maxima = [(3, 3), (1, 2), (1, 3)];
    let named = |cells: &[(usize, usize)]| -> Vec<Value> {
        let mut cells = cells.to_vec();
        cells.sort_unstable();
        let name = |&(r, c): &(usize, usize)| json!({"cell": format!("R{}C{}", r + 1, c + 1)});
        cells.iter().map(name).collect()
    };
    let link = json!({
        "size": 4,
        "grid": grid,
        "minimum": named(&minima),
        "maximum": named(&maxima),
    })
    .to_string();
    let yaml = convert(&link, "yaml");
    assert!(yaml.contains("type: greater-than"), "{yaml}");
    let out = latin()
        .args(["solve", &link, "--format", "json", "--max", "100"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let solutions = v["solutions"].as_array().unwrap();
    assert!(!solutions.is_empty(), "{v}");
    let at = |g: &Value, r: usize, c: usize| g[r][c].as_u64().unwrap();
    for g in solutions {
        for (kind, smaller) in [(&minima[..], true), (&maxima[..], false)] {
            for &(r, c) in kind {
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let (a, b) = (r as isize + dr, c as isize + dc);
                    let (a, b) = (a as usize, b as usize);
                    if a < 4 && b < 4 && !kind.contains(&(a, b)) {
                        let (x, y) = (at(g, r, c), at(g, a, b));
                        assert!(if smaller { x < y } else { x > y }, "{g} at r{r}c{c}");
                    }
                }
            }
        }
    }
    // Fewer solutions than a plain 4x4 Sudoku's 288.
    assert!(solutions.len() < 100, "{}", solutions.len());
    let back = decoded(&convert(&link, "fpuzzles"));
    check_fields(&back, &link);
    assert_eq!(back["minimum"], json!(named(&minima)));
    assert_eq!(back["maximum"], json!(named(&maxima)));
}

/// A sign between two cells that is no minimum's or maximum's is drawn as text, as setters draw one with
/// f-puzzles' text tool, with a sentence that says what it means: it reads back as the same sign, every
/// solution honours it, and without the sentence the text is refused rather than read as nothing.
#[test]
fn a_sign_of_no_minimum_or_maximum_is_text_that_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sign.yaml");
    let signs = [((0, 0), (0, 1)), ((2, 1), (1, 1)), ((3, 3), (3, 2))];
    let mut text = String::from("type: greater-than\nsize: 4\nbox: 2x2\nless:\n");
    for ((r, c), (r2, c2)) in signs {
        text += &format!("  - r{}c{} < r{}c{}\n", r + 1, c + 1, r2 + 1, c2 + 1);
    }
    std::fs::write(&file, text).unwrap();
    let link = convert(file.to_str().unwrap(), "fpuzzles");
    let json = decoded(&link);
    check_fields(&json, &link);
    assert_eq!(json["text"].as_array().unwrap().len(), 3, "{json}");
    assert!(
        json["minimum"].is_null() && json["maximum"].is_null(),
        "{json}"
    );
    // The column's sign is turned a quarter.
    let turned: Vec<&Value> = json["text"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["angle"] == json!(90))
        .collect();
    assert_eq!(turned.len(), 1, "{json}");
    assert_eq!(convert(&link, "fpuzzles"), link);
    let out = latin()
        .args(["solve", &link, "--format", "json", "--max", "300"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let solutions = v["solutions"].as_array().unwrap();
    // A plain 4x4 Sudoku has 288; each sign rules out some.
    assert!(!solutions.is_empty() && solutions.len() < 288, "{v}");
    for g in solutions {
        for ((r, c), (r2, c2)) in signs {
            assert!(g[r][c].as_u64() < g[r2][c2].as_u64(), "{g}");
        }
    }
    // Without the sentence, nothing says what the text means.
    let mut bare = json.clone();
    bare.as_object_mut().unwrap().remove("ruleset");
    let out = latin().args(["solve", &bare.to_string()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no sentence of the rules text"), "{err}");
}

/// A clone region of f-puzzles is its cells' pairs with their copies (a clone Sudoku): every solution holds each
/// cell's digit in its copy too, and the link writes back as one clone a pair, which reads back the same.
#[test]
fn clone_regions_read_as_pairs_of_equal_cells() {
    let grid: Vec<Vec<Value>> = vec![vec![json!({}); 4]; 4];
    let link = json!({
        "size": 4,
        "grid": grid,
        "clone": [{"cells": ["R1C1", "R1C2", "R2C1"], "cloneCells": ["R3C3", "R3C4", "R4C3"]}],
    })
    .to_string();
    assert!(convert(&link, "yaml").contains("type: clone"));
    let out = latin()
        .args(["solve", &link, "--format", "json", "--max", "300"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let solutions = v["solutions"].as_array().unwrap();
    // Fewer than a plain 4x4 Sudoku's 288, and each keeps the clone.
    assert!(!solutions.is_empty() && solutions.len() < 288, "{v}");
    for g in solutions {
        for ((r1, c1), (r2, c2)) in [((0, 0), (2, 2)), ((0, 1), (2, 3)), ((1, 0), (3, 2))] {
            assert_eq!(g[r1][c1], g[r2][c2], "{g}");
        }
    }
    let written = convert(&link, "fpuzzles");
    let back = decoded(&written);
    check_fields(&back, &written);
    assert_eq!(back["clone"].as_array().map(Vec::len), Some(3), "{back}");
    assert_eq!(convert(&written, "fpuzzles"), written);
    // Cells and copies of different lengths are refused.
    let grid: Vec<Vec<Value>> = vec![vec![json!({}); 4]; 4];
    let bad = json!({"size": 4, "grid": grid, "clone": [{"cells": ["R1C1"], "cloneCells": []}]});
    let out = latin()
        .args(["convert", &bad.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a clone of 1 cells"));
}

/// `latin ARGS` with `input` on standard input.
fn fed(args: &[&str], input: &[u8]) -> std::process::Output {
    assert_cmd::Command::from_std(latin())
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap()
}

/// A type whose rule needs boxes, with boxes of another shape than f-puzzles' default (3x2 on a 6x6), goes to
/// f-puzzles and SudokuPad as regions and comes back as those boxes: a region-sum line is cut at them, and the
/// puzzle solves to the same grid (it was read as a jigsaw, on which region-sum lines have nothing to cut at).
#[test]
fn boxes_of_another_shape_come_back_as_boxes() {
    let made = latin()
        .args([
            "generate",
            "region-sum",
            "--size",
            "6",
            "--box",
            "3x2",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    assert!(made.status.success());
    let first = |out: std::process::Output| {
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
        v["solutions"][0].clone()
    };
    let want = first(fed(&["solve", "-", "--format", "json"], &made.stdout));
    assert!(want.is_array());
    for form in ["fpuzzles", "sudokupad"] {
        let link = fed(&["convert", "-", "--to", form], &made.stdout);
        assert!(link.status.success(), "{form}");
        let got = first(fed(
            &["solve", "-", "--from", form, "--format", "json"],
            &link.stdout,
        ));
        assert_eq!(got, want, "{form}");
        let yaml = fed(&["convert", "-", "--from", form], &link.stdout);
        let yaml = String::from_utf8_lossy(&yaml.stdout);
        assert!(yaml.contains("box: 3x2"), "{form}: {yaml}");
    }
}
