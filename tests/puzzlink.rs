//! puzz.link URLs checked against pzprjs itself (the `pzpr` npm package, run by node): for corpus puzzles of
//! the three types pzprjs shares (sudoku, factors = Inshi no heya, building = Skyscrapers), the URL `latin
//! convert --to puzzlink` writes is decoded by pzprjs into the same board (givens, rooms with their products,
//! outside clues), and pzprjs's own answer check accepts the corpus solution on it; the URL pzprjs writes back is
//! read by latin and solved to that solution. Node and the package are required under `CI=true` (`.ci/run`
//! installs `pzpr` into `~/.cache/latin-npm`).

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

/// `latin solve URL --format json --max MAX`, which must succeed.
fn solve_json(url: &str, max: usize) -> Value {
    let out = latin()
        .args(["solve", url, "--format", "json", "--max", &max.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The `pzpr` package: `$LATIN_PZPR`, else `~/.cache/latin-npm/node_modules/pzpr`; and node to run it.
fn pzpr() -> Option<PathBuf> {
    common::npm_package(
        "LATIN_PZPR",
        "pzpr",
        "puzz.link URLs were not checked against pzprjs",
    )
}

/// pzprjs's reading of each (url, solution).
fn pzpr_read(module: &std::path::Path, inputs: &[(String, Value)]) -> Vec<Value> {
    let requests: Vec<Value> = inputs
        .iter()
        .map(|(url, solution)| json!({"url": url, "solution": solution}))
        .collect();
    common::node_answers("pzpr_read.js", ("PZPR_MODULE", module), &requests)
}

/// The corpus puzzles pzprjs can hold: its box shape, no diagonals, no givens where it has none.
fn sample() -> Option<Vec<Value>> {
    let mut out = Vec::new();
    let pzpr_boxes = |n: u64| {
        let r = (1..=n).take_while(|k| k * k <= n).last().unwrap_or(1);
        json!([r, if n == 6 { 3 } else { r }])
    };
    for (file, take) in [
        ("sudoku.jsonl", 60),
        ("inshi.jsonl", 150),
        ("skyscrapers.jsonl", 60),
    ] {
        let records = common::records(file)?;
        let fits = |r: &&Value| {
            r["diagonals"].as_bool() != Some(true)
                && r["solution"].is_array()
                && match r["type"].as_str() {
                    Some("sudoku") => r["boxes"] == pzpr_boxes(r["size"].as_u64().unwrap()),
                    Some("skyscrapers") => common::givens_rows(r).iter().flatten().all(|&v| v == 0),
                    _ => true,
                }
        };
        out.extend(records.iter().filter(fits).take(take).cloned());
    }
    Some(out)
}

/// pzprjs's own encoder leaves out leading zeros of the wide room numbers (`=e0` for 4320, which its decoder
/// reads as three digits): its URL of such a room is not the puzzle, so the reading-back check skips it.
fn pzpr_writes_exactly(record: &Value) -> bool {
    let broken = |v: u64| {
        (4096..4096 + 256).contains(&v)
            || (8192..8192 + 256).contains(&v)
            || (12240..12240 + 4096).contains(&v)
            || (77776..77776 + 65536).contains(&v)
    };
    record["clues"].as_object().is_none_or(|c| {
        c.values()
            .all(|v| !broken(v.as_str().and_then(|s| s.parse().ok()).unwrap_or(0)))
    })
}

fn our_url(record: &Value, dir: &std::path::Path, k: usize) -> String {
    let file = dir.join(format!("p{k}.yaml"));
    std::fs::write(&file, common::to_yaml(record)).unwrap();
    let out = latin()
        .arg("convert")
        .arg(&file)
        .args(["--to", "puzzlink"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{record}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// What pzprjs read equals the record: givens, rooms (as a partition) with their products, outside clues.
fn same_board(record: &Value, read: &Value) {
    let n = record["size"].as_u64().unwrap() as usize;
    assert_eq!(
        (read["cols"].as_u64(), read["rows"].as_u64()),
        (Some(n as u64), Some(n as u64))
    );
    let num = |v: &Value| v.as_u64().map_or(-1, |k| k as i64);
    match record["type"].as_str().unwrap() {
        "sudoku" => {
            let givens: Vec<i64> = common::givens_rows(record)
                .into_iter()
                .flatten()
                .map(|v| if v == 0 { -1 } else { v as i64 })
                .collect();
            let cells: Vec<i64> = read["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            assert_eq!(cells, givens, "{record}");
        }
        "inshi" => {
            let ids: Vec<&str> = record["regions"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r.as_array().unwrap())
                .map(|v| v.as_str().unwrap())
                .collect();
            let ours: BTreeSet<(Vec<usize>, i64)> = ids
                .iter()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|id| {
                    let cells = (0..n * n).filter(|&i| ids[i] == *id).collect();
                    (
                        cells,
                        record["clues"][*id].as_str().unwrap().parse().unwrap(),
                    )
                })
                .collect();
            let theirs: BTreeSet<(Vec<usize>, i64)> = read["rooms"]
                .as_array()
                .unwrap()
                .iter()
                .zip(read["tops"].as_array().unwrap())
                .map(|(cells, top)| {
                    let mut c: Vec<usize> = cells
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_u64().unwrap() as usize)
                        .collect();
                    c.sort();
                    (c, top.as_i64().unwrap())
                })
                .collect();
            assert_eq!(ours, theirs, "{record}");
        }
        _ => {
            let sky: Vec<i64> = ["top", "bottom", "left", "right"]
                .iter()
                .flat_map(|s| {
                    record["sky"][*s]
                        .as_array()
                        .cloned()
                        .unwrap_or_else(|| vec![json!(0); n])
                })
                .map(|v| if v == 0 { -1 } else { num(&v) })
                .collect();
            let excell: Vec<i64> = read["excell"].as_array().unwrap().iter().map(num).collect();
            assert_eq!(excell, sky, "{record}");
        }
    }
}

#[test]
fn pzprjs_reads_our_urls_as_the_puzzle_and_latin_reads_pzprjs_urls() {
    let Some(records) = sample() else {
        return;
    };
    let Some(module) = pzpr() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("latin-puzzlink-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs: Vec<(String, Value)> = records
        .iter()
        .enumerate()
        .map(|(k, r)| (our_url(r, &dir, k), r["solution"].clone()))
        .collect();
    let read = pzpr_read(&module, &inputs);
    let mut read_back = 0;
    for ((record, (url, _)), theirs) in records.iter().zip(&inputs).zip(&read) {
        same_board(record, theirs);
        assert_eq!(
            theirs["complete"], true,
            "pzprjs rejects the solution on {url}: {}",
            theirs["text"]
        );
        if !pzpr_writes_exactly(record) {
            continue;
        }
        read_back += 1;
        let url = theirs["url"].as_str().unwrap();
        let json = solve_json(url, 2);
        assert_eq!(json["count"], 1, "{url}");
        assert_eq!(json["solutions"][0], record["solution"], "{url}");
    }
    let kinds: BTreeSet<&str> = records.iter().filter_map(|r| r["type"].as_str()).collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(
        read_back * 10 >= records.len() * 8,
        "{read_back} of {} read back",
        records.len()
    );
    eprintln!(
        "{} puzzles checked by pzprjs, {read_back} read back from its URLs",
        records.len()
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn urls_of_other_types_and_sizes_say_what_is_missing() {
    for (url, says) in [
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", "No such file"),
        ("https://puzz.link/p?sudoku/8/8/", "2x2 boxes, which do not"),
        ("https://puzz.link/p?sudoku/9/9/.zzzzf", "`?`"),
    ] {
        let out = latin().args(["solve", url]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {err}");
        assert!(err.contains(says), "{url}: {err}");
    }
    let out = latin()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "convert",
            "puzzles/killer/killer-6x6.yaml",
            "--to",
            "puzzlink",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pzprjs has no such type"));
    // pzprjs draws 2x2 boxes on an 8x8, so no box shape of ours can be written.
    let eight = "type: sudoku\nsize: 8\nbox: 2x4\ngivens: |\n".to_string()
        + &"  . . . . . . . .\n".repeat(8);
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_latin"))
        .args(["convert", "-", "--to", "puzzlink"])
        .write_stdin(eight)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("8x8 Sudoku has 2x2 boxes, which do not"),
        "{err}"
    );
}

/// The solution block of a puzzle file, as rows.
fn yaml_solution(text: &str) -> Value {
    let doc: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
    let rows: Vec<Vec<u64>> = doc["solution"]
        .as_str()
        .expect("a solution")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    json!(rows)
}

/// pzprjs's minarism and kropki (on a Latin square) hold their marks on the borders between cells. Puzzles of
/// both, the examples and ones `latin generate` makes at sizes 4 to 8, are written as URLs; pzprjs's own answer
/// check accepts each one's solution on the board it decodes (a sign the wrong way round or a mark on the
/// wrong border would break it), and the URL pzprjs writes back is solved by latin to that one solution.
#[test]
fn pzprjs_accepts_the_solutions_of_border_mark_puzzles() {
    let Some(module) = pzpr() else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let dir = std::env::temp_dir().join(format!("latin-borders-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for kind in ["minarism", "kropki-latin"] {
        for entry in std::fs::read_dir(root.join(kind)).unwrap() {
            files.push(entry.unwrap().path());
        }
        for n in 4..=8 {
            for seed in 1..=5 {
                let out = latin()
                    .args(["generate", kind, "--size", &n.to_string()])
                    .args(["--seed", &seed.to_string(), "--format", "yaml"])
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{kind} {n} {seed}");
                let file = dir.join(format!("{kind}-{n}-{seed}.yaml"));
                std::fs::write(&file, out.stdout).unwrap();
                files.push(file);
            }
        }
    }
    let mut inputs = Vec::new();
    let mut with_givens = 0;
    for file in &files {
        let out = latin()
            .arg("convert")
            .arg(file)
            .args(["--to", "puzzlink"])
            .output()
            .unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        if !out.status.success() {
            // A generated minarism may keep a given or two, which pzprjs's minarism cannot hold.
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("has no givens"), "{}: {err}", file.display());
            with_givens += 1;
            continue;
        }
        let url = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        inputs.push((url, yaml_solution(&text)));
    }
    assert!(
        with_givens * 10 <= files.len(),
        "{with_givens} of {} kept givens",
        files.len()
    );
    let read = pzpr_read(&module, &inputs);
    for ((url, solution), theirs) in inputs.iter().zip(&read) {
        assert_eq!(
            theirs["complete"], true,
            "pzprjs rejects the solution on {url}: {}",
            theirs["text"]
        );
        let back = theirs["url"].as_str().unwrap();
        let json = solve_json(back, 2);
        assert_eq!(json["count"], 1, "{back}");
        assert_eq!(&json["solutions"][0], solution, "{back}");
    }
    eprintln!(
        "{} minarism and kropki URLs checked by pzprjs",
        inputs.len()
    );
    std::fs::remove_dir_all(dir).ok();
}

/// URLs pzprjs writes of boards latin did not make: random Latin squares with random true marks on their borders
/// (tests/support/pzpr_random.js), 60 minarism and 60 kropki of orders 3 to 8. latin must find a solution of
/// each (the square is one), and pzprjs's own answer check must accept the solution latin finds.
#[test]
fn random_pzprjs_border_boards_solve_to_answers_pzprjs_accepts() {
    let Some(module) = pzpr() else {
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/pzpr_random.js");
    let out = Command::new("node")
        .arg(script)
        .args(["2026", "60"])
        .env("PZPR_MODULE", &module)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let boards: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(boards.len(), 120);
    let mut answers = Vec::new();
    for b in &boards {
        let url = b["url"].as_str().unwrap();
        let json = solve_json(url, 1);
        assert_eq!(
            json["count"], 1,
            "{url}: no solution, though {} is one",
            b["solution"]
        );
        answers.push((url.to_owned(), json["solutions"][0].clone()));
    }
    for ((url, _), theirs) in answers.iter().zip(pzpr_read(&module, &answers)) {
        assert_eq!(
            theirs["complete"], true,
            "pzprjs rejects latin's answer on {url}: {}",
            theirs["text"]
        );
    }
}
