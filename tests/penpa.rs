//! Penpa+ links checked against sudoku-formats (lisudoku's converter, the `sudoku-formats` npm package, run by
//! node): a reader and writer of Penpa+'s format written apart from latin.
//! - The real Penpa+ links its own tests keep (made by Penpa+ itself, two of them contest puzzles from Logic
//!   Masters India) read in latin as the same constraints sudoku-formats reads, and the contest puzzles have
//!   one solution each.
//! - The Penpa+ links sudoku-formats writes of latin's puzzles (from their f-puzzles links) read in latin as the
//!   same puzzles: the same one solution.
//! - The Penpa+ links latin writes read in sudoku-formats as the constraints latin wrote.
//!
//! - The links Penpa+ itself wrote of latin's links of the examples (`tests/support/penpa/links.tsv`, made by
//!   `make-links.sh` beside it, which opens each link in Penpa+ in headless Chromium and has Penpa+ write it
//!   again) read as the examples: the same one solution.
//!
//! Node and the package are required under `CI=true` (`.ci/run` installs `sudoku-formats` into
//! `~/.cache/latin-npm`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

fn latin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_latin"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// `latin ARGS`, which must succeed: its standard output.
fn run(args: &[&str]) -> String {
    let out = latin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The `sudoku-formats` package: `$LATIN_SUDOKU_FORMATS`, else `~/.cache/latin-npm/node_modules/sudoku-formats`;
/// and node to run it.
fn sudoku_formats() -> Option<PathBuf> {
    common::npm_package(
        "LATIN_SUDOKU_FORMATS",
        "sudoku-formats",
        "Penpa+ links were not checked against sudoku-formats",
    )
}

/// sudoku-formats' answer to each request (`{"read": link}` or `{"write": link}`).
fn ask(module: &Path, requests: &[Value]) -> Vec<Value> {
    common::node_answers(
        "penpa_formats.mjs",
        ("SUDOKU_FORMATS_MODULE", module),
        requests,
    )
}

/// The Penpa+ links in the package's own tests: in comments and strings of its spec files.
fn real_links(module: &Path) -> Vec<String> {
    let mut links = Vec::new();
    for file in [
        "dist/formats/penpa/transformer.spec.js",
        "dist/decodeSudoku.spec.js",
    ] {
        let text = std::fs::read_to_string(module.join(file)).unwrap();
        for start in text.match_indices("https://").map(|(i, _)| i) {
            let link: String = text[start..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !"'\"`".contains(*c))
                .collect();
            if link.contains("penpa-edit") && !link.contains('$') && link.len() > 200 {
                links.push(link);
            }
        }
    }
    links.sort();
    links.dedup();
    links
}

#[test]
fn real_links_read_as_sudoku_formats_reads_them() {
    let Some(module) = sudoku_formats() else {
        return;
    };
    let links = real_links(&module);
    assert!(links.len() >= 3, "{links:?}");
    // latin's reading, written as an f-puzzles link: sudoku-formats reads both, so both are told alike.
    let ours: Vec<String> = links
        .iter()
        .map(|l| run(&["convert", l, "--to", "fpuzzles"]))
        .collect();
    let requests: Vec<Value> = links
        .iter()
        .chain(&ours)
        .map(|l| json!({ "read": l }))
        .collect();
    let answers = ask(&module, &requests);
    let (theirs, ours) = answers.split_at(links.len());
    let mut contests = 0;
    for ((link, a), b) in links.iter().zip(theirs).zip(ours) {
        assert!(a["constraints"].is_object(), "{link}: {a}");
        assert_eq!(a["constraints"], b["constraints"], "{link}");
        let record: Value =
            serde_json::from_str(&run(&["convert", link, "--to", "record"])).unwrap();
        if record["title"]
            .as_str()
            .is_some_and(|t| t.contains("Sudoku 9x9"))
        {
            // A contest puzzle: exactly one solution, as its setter made it.
            let count = run(&["count", link, "--format", "json"]);
            let count: Value = serde_json::from_str(&count).unwrap();
            assert_eq!(count["count"], json!(1), "{link}");
            contests += 1;
        }
    }
    assert!(contests >= 2, "{contests}");
}

/// Puzzles of the types sudoku-formats carries whole from f-puzzles to Penpa+, of the sizes it takes (up to 9):
/// the examples and generated ones.
fn puzzles(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for t in [
        "sudoku", "jigsaw", "killer", "thermo", "evenodd", "killer-x", "latin",
    ] {
        for (size, seed) in [(6, 1), (9, 2), (9, 3)] {
            let text = run(&[
                "generate",
                t,
                "--size",
                &size.to_string(),
                "--seed",
                &seed.to_string(),
                "--format",
                "yaml",
            ]);
            let file = dir.join(format!("{t}-{size}-{seed}.yaml"));
            std::fs::write(&file, text).unwrap();
            files.push(file);
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for example in [
        "puzzles/sudoku/boxes-2x3-6x6.yaml",
        "puzzles/jigsaw/jigsaw-9x9.yaml",
        "puzzles/killer/killer-6x6.yaml",
        "puzzles/thermo/thermo-9x9.yaml",
        "puzzles/evenodd/evenodd-9x9.yaml",
    ] {
        files.push(root.join(example));
    }
    // As many as the README says.
    assert_eq!(files.len(), 26);
    files
}

/// Up to two solutions of a puzzle (a file or a link), as grids.
fn solutions(puzzle: &str) -> Vec<Value> {
    let answer: Value =
        serde_json::from_str(&run(&["solve", puzzle, "--format", "json", "--max", "2"])).unwrap();
    answer["solutions"].as_array().unwrap().clone()
}

/// The one solution of a puzzle (a file or a link), as its grid.
fn only_solution(puzzle: &str) -> Value {
    let solutions = solutions(puzzle);
    assert_eq!(solutions.len(), 1, "{puzzle}: {solutions:?}");
    solutions[0].clone()
}

#[test]
fn links_sudoku_formats_writes_read_as_the_same_puzzles() {
    let Some(module) = sudoku_formats() else {
        return;
    };
    let dir = tempdir("written-by-them");
    let files = puzzles(&dir);
    let requests: Vec<Value> = files
        .iter()
        .map(|f| json!({"write": run(&["convert", f.to_str().unwrap(), "--to", "fpuzzles"])}))
        .collect();
    let answers = ask(&module, &requests);
    for (file, answer) in files.iter().zip(&answers) {
        let link = answer["url"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: {answer}", file.display()));
        assert_eq!(answer["warning"], Value::Null, "{}", file.display());
        assert_eq!(
            only_solution(link),
            only_solution(file.to_str().unwrap()),
            "{}: {link}",
            file.display()
        );
    }
}

#[test]
fn links_latin_writes_read_in_sudoku_formats_as_written() {
    let Some(module) = sudoku_formats() else {
        return;
    };
    let dir = tempdir("written-by-us");
    let mut files = puzzles(&dir);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    files.extend(
        [
            "puzzles/arrow/arrow-9x9.yaml",
            "puzzles/kropki-dots/kropki-dots-9x9.yaml",
            "puzzles/sudoku/diagonal-9x9.yaml",
        ]
        .map(|f| root.join(f)),
    );
    let mut requests = Vec::new();
    for f in &files {
        let f = f.to_str().unwrap();
        let penpa = run(&["convert", f, "--to", "penpa"]);
        // latin reads its own link as the puzzle it wrote.
        assert_eq!(only_solution(&penpa), only_solution(f), "{f}");
        requests.push(json!({"read": penpa}));
        requests.push(json!({"read": run(&["convert", f, "--to", "fpuzzles"])}));
    }
    let answers = ask(&module, &requests);
    for (f, pair) in files.iter().zip(answers.chunks(2)) {
        assert!(
            pair[0]["constraints"].is_object(),
            "{}: {}",
            f.display(),
            pair[0]
        );
        assert_eq!(
            pair[0]["constraints"],
            pair[1]["constraints"],
            "{}",
            f.display()
        );
    }
}

/// A rule over the whole grid (anti-knight, anti-king, ...) has no drawing in Penpa+: setters say it in the
/// rules text. latin writes it there and reads it from there, so the link solves as the puzzle it came from;
/// the same link with its rules text emptied is a plain Sudoku with other solutions, the ones the rules rule
/// out, which is what reading the drawing alone would have shown.
#[test]
fn rules_over_the_whole_grid_travel_in_the_rules_text() {
    let dir = tempdir("globals");
    let file = dir.join("anti-knight-king.yaml");
    let puzzle = run(&[
        "generate",
        "sudoku",
        "--rules",
        "anti-knight,anti-king",
        "--seed",
        "1",
    ]);
    std::fs::write(&file, puzzle).unwrap();
    let file = file.to_str().unwrap();
    let link = run(&["convert", file, "--to", "penpa"]);
    assert_eq!(only_solution(&link), only_solution(file));
    // The save text's header line, with its rules (the 19th field) emptied.
    let payload = link.split_once("&p=").unwrap().1;
    let engine = base64::engine::general_purpose::STANDARD;
    let text =
        miniz_oxide::inflate::decompress_to_vec(&base64::Engine::decode(&engine, payload).unwrap())
            .unwrap();
    let text = String::from_utf8(text).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let mut fields: Vec<&str> = header.split(',').collect();
    assert!(fields[18].contains("knight's move"), "{header}");
    fields[18] = "";
    let plain = format!("{}\n{rest}", fields.join(","));
    let deflated = miniz_oxide::deflate::compress_to_vec(plain.as_bytes(), 9);
    let bare = format!(
        "{}&p={}",
        link.split_once("&p=").unwrap().0,
        base64::Engine::encode(&engine, deflated)
    );
    assert_eq!(solutions(&bare).len(), 2, "{bare}");
}

/// Dots of one colour all given and of the other not (f-puzzles' negative constraint on one colour) have no
/// drawing in Penpa+ or SudokuPad either: the rules text says "All possible black dots are given." (or white),
/// and the examples' links read back as the same type with the same one solution.
#[test]
fn dots_of_one_colour_all_given_travel_in_the_rules_text() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for (kind, size) in [
        ("kropki-all-black", "6x6"),
        ("kropki-all-black", "9x9"),
        ("kropki-all-white", "6x6"),
        ("kropki-all-white", "9x9"),
    ] {
        let file = root.join(format!("puzzles/{kind}/{kind}-{size}.yaml"));
        let file = file.to_str().unwrap();
        for form in ["penpa", "sudokupad"] {
            let link = run(&["convert", file, "--to", form]);
            let rules = run(&["convert", &link, "--to", "yaml"]);
            assert!(
                rules.contains(&format!("type: {kind}\n")),
                "{size} {form}: {rules}"
            );
            assert_eq!(only_solution(&link), only_solution(file), "{size} {form}");
        }
    }
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latin-penpa-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn links_penpa_writes_read_as_the_examples() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let table = std::fs::read_to_string(root.join("tests/support/penpa/links.tsv")).unwrap();
    let mut read = 0;
    for row in table.lines() {
        let [file, ours, theirs] = row.split('\t').collect::<Vec<_>>()[..] else {
            panic!("{row}");
        };
        assert!(
            theirs.starts_with("https://swaroopg92.github.io/penpa-edit/#m=solve&p="),
            "{file}"
        );
        // The example's one solution, or two of its many (the open grids).
        let answer = solutions(file);
        for (link, whose) in [(theirs, "Penpa+'s"), (ours, "latin's")] {
            let read = solutions(link);
            match answer.len() {
                1 => assert_eq!(read, answer, "{file}: {whose} link"),
                _ => assert_eq!(read.len(), 2, "{file}: {whose} link"),
            }
        }
        read += 1;
    }
    // Every type latin writes as a Penpa+ link, two examples or more of each.
    assert!(read >= 40, "{read}");
}

/// Battlefield clues, which f-puzzles and SudokuPad have no constraint for, travel in Penpa+ links as numbers
/// outside the grid with a sentence naming them; the f-puzzles writers refuse them by name.
#[test]
fn battlefield_clues_travel_in_penpa_links_only() {
    for size in [6, 9] {
        let file = format!("puzzles/battlefield/battlefield-{size}x{size}.yaml");
        let link = run(&["convert", &file, "--to", "penpa"]);
        let read: Value =
            serde_json::from_str(&run(&["solve", &link, "--format", "json", "--max", "2"]))
                .unwrap();
        assert_eq!(read["type"], "battlefield", "{file}");
        assert_eq!(read["solutions"], json!([only_solution(&file)]), "{file}");
        for to in ["fpuzzles", "sudokupad"] {
            let out = latin()
                .args(["convert", &file, "--to", to])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{file} to {to}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("`battlefield`: f-puzzles has no such constraint"),
                "{err}"
            );
        }
    }
}
