//! SudokuPad links in its own format, as SudokuPad itself writes them: `tests/support/sudokupad/links.tsv` holds
//! the `scl` links SudokuPad's own converter made from the f-puzzles links of the examples (the script beside it
//! says how). Each reads as the puzzle it draws: the same solutions as the example where SudokuPad's link keeps
//! every constraint; a wider puzzle, which the example's answer still solves, where SudokuPad's converter drops
//! one (it draws no whispers, and no negative constraint for XV); a plain error where a drawing says no rule
//! latin can read (clones are grey cells, with nothing to say which copies which). Some links draw an example's
//! lines as plain coloured lines and say in the rules text what the colour means, as setters draw whispers,
//! renban and parity lines: those read as the example too.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The JSON answer to `latin solve INPUT --max 1000` (and the exit code and error).
fn solve(input: &str, extra: &[&str]) -> (Option<i32>, Value, String) {
    let out = latin()
        .current_dir(root())
        .args(["solve", input, "--format", "json", "--max", "1000"])
        .args(extra)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A SudokuPad link of a puzzle's zipped JSON text, as SudokuPad compresses it.
fn scl_link(zipped: &str) -> String {
    let wide: Vec<u16> = zipped.encode_utf16().collect();
    format!(
        "https://sudokupad.app/scl{}",
        lz_str::compress_to_base64(wide)
    )
}

fn sorted(solutions: &Value) -> Vec<String> {
    let mut all: Vec<String> = solutions
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    all.sort();
    all
}

#[test]
fn sudokupads_own_links_read_as_the_puzzles_they_draw() {
    let table = std::fs::read_to_string(root().join("tests/support/sudokupad/links.tsv")).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let [source, expect, link] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("not three fields: {line}");
        };
        assert!(link.starts_with("https://sudokupad.app/scl"), "{link}");
        let (code, answer, err) = solve(link, &[]);
        *seen
            .entry(expect.split(':').next().unwrap().to_owned())
            .or_insert(0) += 1;
        if let Some(says) = expect.strip_prefix("refused:") {
            assert_eq!(code, Some(2), "{source}: {}", answer["count"]);
            assert!(
                err.contains("sudokupad") || err.contains("fpuzzles"),
                "{source}: {err}"
            );
            assert!(err.contains(says), "{source}: {err}");
            continue;
        }
        assert_eq!(code, Some(0), "{source}: {err}");
        let (_, wanted, _) = solve(source, &[]);
        assert_eq!(wanted["complete"], true, "{source}");
        assert_eq!(answer["complete"], true, "{source}");
        match expect {
            "same" => {
                assert_eq!(answer["count"], wanted["count"], "{source}");
                assert_eq!(
                    sorted(&answer["solutions"]),
                    sorted(&wanted["solutions"]),
                    "{source}"
                );
            }
            "wider" => {
                // The example's answer as the givens of the puzzle the link draws: it solves it.
                assert!(
                    answer["count"].as_u64().unwrap() > wanted["count"].as_u64().unwrap(),
                    "{source}"
                );
                let out = latin()
                    .args(["convert", link, "--to", "record"])
                    .output()
                    .unwrap();
                let mut record: Value = serde_json::from_slice(&out.stdout).unwrap();
                record["givens"] = wanted["solutions"][0].clone();
                let out = latin()
                    .args(["solve", "-", "--from", "record", "--format", "json"])
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .spawn()
                    .and_then(|mut child| {
                        use std::io::Write;
                        child
                            .stdin
                            .take()
                            .unwrap()
                            .write_all(record.to_string().as_bytes())?;
                        child.wait_with_output()
                    })
                    .unwrap();
                let filled: Value = serde_json::from_slice(&out.stdout).unwrap();
                assert_eq!(filled["count"], 1, "{source}: {filled}");
            }
            other => panic!("{source}: unknown expectation {other}"),
        }
    }
    // Every kind of line is there, and most of the examples with every constraint kept.
    assert!(seen.get("same").is_some_and(|&k| k >= 40), "{seen:?}");
    assert!(
        seen.contains_key("wider") && seen.contains_key("refused"),
        "{seen:?}"
    );
}

/// SudokuPad's converter drops non-consecutive (and SudokuPad has no drawing for rules over the whole grid):
/// such a puzzle says it in its rules text alone, where latin reads it. A generated non-consecutive Sudoku as
/// SudokuPad's JSON, its rule a sentence of `metadata.rules`, solves as the puzzle it came from; without the
/// sentence it is a plain Sudoku with other solutions.
#[test]
fn a_rule_over_the_whole_grid_is_read_from_the_rules_text() {
    let generated = latin()
        .args([
            "generate",
            "sudoku",
            "--rules",
            "non-consecutive",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &generated.stdout).unwrap();
    let record = latin()
        .args(["convert", file.path().to_str().unwrap(), "--to", "record"])
        .output()
        .unwrap();
    let record: Value = serde_json::from_slice(&record.stdout).unwrap();
    assert_eq!(record["rules"], serde_json::json!(["non-consecutive"]));
    let cells: Vec<Vec<Value>> = record["givens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let row = row.as_array().unwrap();
            row.iter()
                .map(|v| match v.as_u64().unwrap() {
                    0 => serde_json::json!({}),
                    v => serde_json::json!({ "value": v }),
                })
                .collect()
        })
        .collect();
    let regions: Vec<Vec<[usize; 2]>> = (0..9)
        .map(|b| {
            (0..9)
                .map(|k| [b / 3 * 3 + k / 3, b % 3 * 3 + k % 3])
                .collect()
        })
        .collect();
    let pad = |rules: &str| {
        serde_json::json!({"cellSize": 50, "cells": cells, "regions": regions, "metadata": {"rules": rules}})
            .to_string()
    };
    let (_, wanted, _) = solve(file.path().to_str().unwrap(), &[]);
    let said = pad(
        "Normal sudoku rules apply. Orthogonally adjacent cells cannot contain consecutive digits.",
    );
    let (code, answer, err) = solve(&said, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(answer["count"], 1);
    assert_eq!(answer["solutions"], wanted["solutions"]);
    let plain = latin()
        .args(["count", &pad("Normal sudoku rules apply.")])
        .output()
        .unwrap();
    let plain = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.starts_with("at least 2 solutions"), "{plain}");
}

/// What SudokuPad's converter draws for each f-puzzles constraint, read back into the type of the example.
#[test]
fn each_drawing_reads_as_its_constraint() {
    let table = std::fs::read_to_string(root().join("tests/support/sudokupad/links.tsv")).unwrap();
    let link = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split('\t').nth(2))
            .unwrap_or_else(|| panic!("{name} is not in links.tsv"))
            .to_owned()
    };
    // SudokuPad's converter writes "Unknown" where the link names no setter: not read as one.
    let out = latin()
        .args([
            "convert",
            &link("puzzles/thermo/thermo-9x9.yaml"),
            "--to",
            "yaml",
        ])
        .output()
        .unwrap();
    let yaml = String::from_utf8_lossy(&out.stdout);
    assert!(
        yaml.contains("title: ") && !yaml.contains("author:"),
        "{yaml}"
    );
    for (example, kind) in [
        ("puzzles/thermo/thermo-9x9.yaml", "thermo"),
        ("puzzles/arrow/pill-arrow-9x9.yaml", "arrow"),
        (
            "puzzles/little-killer/little-killer-9x9.yaml",
            "little-killer",
        ),
        ("puzzles/sandwich/sandwich-9x9.yaml", "sandwich"),
        ("puzzles/quadruple/quadruple-9x9.yaml", "quadruple"),
        ("puzzles/between/between-9x9.yaml", "between"),
        ("puzzles/palindrome/palindrome-9x9.yaml", "palindrome"),
        ("puzzles/kropki-dots/kropki-dots-9x9.yaml", "kropki-dots"),
        ("puzzles/xv-marks/xv-marks-9x9.yaml", "xv-marks"),
        ("puzzles/evenodd/evenodd-9x9.yaml", "evenodd"),
        ("puzzles/extra-regions/windoku-9x9.yaml", "extra-regions"),
        ("puzzles/jigsaw/jigsaw-9x9.yaml", "jigsaw"),
        ("puzzles/killer/killer-6x6.yaml", "killer"),
        ("puzzles/latin/completion-7x7.yaml", "latin"),
        ("{\"size\":4", "greater-than"),
    ] {
        let (code, answer, err) = solve(&link(example), &[]);
        assert_eq!(code, Some(0), "{example}: {err}");
        assert_eq!(answer["type"], kind, "{example}");
    }
}

#[test]
fn short_links_and_cosmetic_drawings_are_refused_plainly() {
    let (code, _, err) = solve("https://sudokupad.app/clover/tiny-tiny-tiny", &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("short link") && err.contains("no network"),
        "{err}"
    );
    // A green line (as setters draw German whispers by hand) says its rule only in the rules text: with none,
    // it is refused by colour and place.
    let zipped = "{cs:50,ce:[[,,,],[,,,],[,,,],[,,,]],re:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],\
                  [[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],l:[{c:'#67F067',th:10,wp:[[0.5,0.5],[1.5,1.5]]}]}";
    let link = scl_link(zipped);
    let (code, _, err) = solve(&link, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("green lines (#67F067, the first from r1c1)") && err.contains("rules text"),
        "{err}"
    );
    // With a sentence that says it, the line is a parity line: of the 4x4's 288 grids, those whose r1c1 and r2c2
    // differ in parity.
    let said = zipped.replace(
        "cs:50,",
        "cs:50,metadata:{rules:'Digits along a green line alternate between odd and even.'},",
    );
    let link = scl_link(&said);
    let (code, answer, err) = solve(&link, &[]);
    assert_eq!(code, Some(0), "{err}");
    let grids = answer["solutions"].as_array().unwrap();
    assert_eq!(answer["count"].as_u64(), Some(grids.len() as u64));
    assert!(!grids.is_empty() && grids.len() < 288, "{}", grids.len());
    let parity = |v: &Value| v.as_i64().unwrap() % 2;
    assert!(grids.iter().all(|g| parity(&g[0][0]) != parity(&g[1][1])));
    // A straight run drawn by its ends alone (as a setter's tool may) holds every cell between them.
    let run = said.replace("wp:[[0.5,0.5],[1.5,1.5]]", "wp:[[0.5,0.5],[0.5,2.5]]");
    let link = scl_link(&run);
    let (code, answer, err) = solve(&link, &[]);
    assert_eq!(code, Some(0), "{err}");
    let grids = answer["solutions"].as_array().unwrap();
    assert!(!grids.is_empty());
    assert!(grids
        .iter()
        .all(|g| parity(&g[0][0]) != parity(&g[0][1]) && parity(&g[0][1]) != parity(&g[0][2])));
    // Without it, the same link is a 4x4 Sudoku.
    let plain = zipped.replace(",l:[{c:'#67F067',th:10,wp:[[0.5,0.5],[1.5,1.5]]}]", "");
    let link = scl_link(&plain);
    let (code, answer, err) = solve(&link, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        (answer["type"].as_str(), answer["count"].as_u64()),
        (Some("sudoku"), Some(288))
    );
}

/// What a SudokuPad link cannot say is refused in SudokuPad's name, saying why: it carries f-puzzles' payload.
#[test]
fn writing_a_link_is_refused_in_sudokupads_name() {
    let out = latin()
        .current_dir(root())
        .args([
            "convert",
            "puzzles/inshi/nikoli-5x5.yaml",
            "--to",
            "sudokupad",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(": sudokupad: written as the f-puzzles payload it opens: type inshi"),
        "{err}"
    );
}

/// Links made to hurt: many thousands of drawings (which compress to almost nothing), a circle as wide as a
/// billion cells, points at no finite place, nesting past any puzzle's. Each is a plain error, exit 2, at once.
#[test]
fn hostile_links_are_refused_plainly() {
    let grid = "cs:50,ce:[[,,,],[,,,],[,,,],[,,,]]";
    let many = vec!["{c:'#CFCFCF',th:16,wp:[[0.5,0.5],[0.5,1.5]]}"; 6000].join(",");
    let cases = [
        (format!("{{{grid},l:[{many}]}}"), "6000 drawings"),
        (
            format!("{{{grid},o:[{{c1:'#a1a1a1',r:t,w:1e9,h:0.75,ct:[0.5,0.5]}}],a:[{{c:'#a1a1a1',hl:0.3,th:5,wp:[[0.5,0.8],[0.5,3.5]]}}]}}"),
            "wider than the grid",
        ),
        (format!("{{{grid},l:[{{c:'#CFCFCF',th:16,wp:[[1e300,0.5],[0.5,1.5]]}}]}}"), "one point"),
        (format!("{{{grid},x:{}1{}}}", "[".repeat(200), "]".repeat(200)), "deeper"),
    ];
    for (zipped, says) in cases {
        let (code, _, err) = solve(&scl_link(&zipped), &[]);
        assert_eq!(code, Some(2), "{says}: {err}");
        assert!(err.contains(says), "{says}: {err}");
    }
}

/// A file of SudokuPad links is a file of puzzles, one a line, each its own type.
#[test]
fn a_file_of_sudokupad_links_is_solved_a_line_each() {
    let table = std::fs::read_to_string(root().join("tests/support/sudokupad/links.tsv")).unwrap();
    let same: Vec<(&str, &str)> = table
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.get(1) == Some(&"same")).then(|| (f[0], f[2]))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("links.txt");
    let text: Vec<&str> = same.iter().map(|(_, link)| *link).collect();
    std::fs::write(&file, text.join("\n") + "\n").unwrap();
    let out = latin()
        .args(["solve", "--lines"])
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), same.len());
    for ((source, _), answer) in same.iter().zip(&answers) {
        let (_, alone, _) = solve(source, &[]);
        let status = if alone["count"] == 1 {
            "solved"
        } else {
            "multiple"
        };
        assert_eq!(answer["status"], status, "{source}: {answer}");
    }
}
