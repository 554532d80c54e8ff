//! Shared helpers for the integration tests: where the shared corpus lives, and how a corpus record (the
//! neutral JSON schema of `../shared/corpus/README.md`) becomes a puzzle file, so the corpus exercises the whole
//! pipeline, parsing included.

#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;

/// The corpus directory: `$LATIN_CORPUS`, else `../shared/corpus` beside the checkout.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("LATIN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// The records of one corpus file. Missing data fails under `CI=true`; elsewhere it is reported and `None`
/// returned, so a developer without the corpus sees why nothing ran.
pub fn records(file: &str) -> Option<Vec<Value>> {
    let path = corpus_dir().join(file);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
                .collect(),
        ),
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!(
                    "corpus file {} is missing under CI=true: {e}",
                    path.display()
                );
            }
            eprintln!(
                "NOTE: corpus file {} not found ({e}); this test checked nothing",
                path.display()
            );
            None
        }
    }
}

fn grid_rows(v: &Value) -> Vec<Vec<u64>> {
    v.as_array()
        .expect("grid")
        .iter()
        .map(|r| {
            r.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_u64().expect("cell"))
                .collect()
        })
        .collect()
}

/// A grid as a YAML block scalar, spaced form (so values past 9 stay decimal).
fn block(lines: impl IntoIterator<Item = String>) -> String {
    let mut s = String::from("|\n");
    for l in lines {
        s.push_str("  ");
        s.push_str(&l);
        s.push('\n');
    }
    s
}

fn values_block(v: &Value) -> String {
    block(grid_rows(v).iter().map(|r| {
        r.iter()
            .map(|x| {
                if *x == 0 {
                    ".".to_owned()
                } else {
                    x.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }))
}

fn strings_block(v: &Value, empty: &str) -> String {
    block(v.as_array().expect("grid").iter().map(|r| {
        r.as_array()
            .expect("row")
            .iter()
            .map(|x| {
                let s = x.as_str().expect("id");
                if s.is_empty() {
                    empty.to_owned()
                } else {
                    s.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }))
}

fn cell(r: &Value, c: &Value) -> String {
    format!("r{}c{}", r.as_u64().unwrap() + 1, c.as_u64().unwrap() + 1)
}

/// The section that holds a type's regions.
fn regions_section(kind: &str) -> &'static str {
    match kind {
        "inshi" => "rooms",
        "jigsaw" => "regions",
        _ => "cages",
    }
}

/// A corpus record as puzzle-file YAML.
pub fn to_yaml(rec: &Value) -> String {
    let kind = rec["type"].as_str().expect("type");
    let n = rec["size"].as_u64().expect("size");
    let mut y = format!("type: {kind}\nsize: {n}\n");
    let mut rules = Vec::new();
    if rec["diagonals"].as_bool() == Some(true) {
        rules.push("diagonals");
    }
    if let Some(b) = rec.get("boxes") {
        y += &format!("box: {}x{}\n", b[0], b[1]);
    }
    if let Some(g) = rec.get("givens") {
        if grid_rows(g).iter().flatten().any(|&v| v != 0) {
            y += &format!("givens: {}", values_block(g));
        }
    }
    if let Some(r) = rec.get("regions") {
        y += &format!("{}: {}", regions_section(kind), strings_block(r, "."));
    }
    if let Some(clues) = rec.get("clues").and_then(Value::as_object) {
        y += "hints:\n";
        for (k, v) in clues {
            y += &format!("  {:?}: {:?}\n", k, v.as_str().expect("clue"));
        }
    }
    if let Some(less) = rec.get("less").and_then(Value::as_array) {
        y += "less:\n";
        for q in less {
            y += &format!("  - {} < {}\n", cell(&q[0], &q[1]), cell(&q[2], &q[3]));
        }
    }
    if let Some(pairs) = rec.get("consecutive").and_then(Value::as_array) {
        y += "consecutive:\n";
        for q in pairs {
            y += &format!("  - {}-{}\n", cell(&q[0], &q[1]), cell(&q[2], &q[3]));
        }
        if pairs.is_empty() {
            y = y.replace("consecutive:\n", "consecutive: []\n");
        }
    }
    if let Some(sky) = rec.get("sky") {
        for side in ["top", "bottom", "left", "right"] {
            let tokens: Vec<String> = sky[side]
                .as_array()
                .expect("side")
                .iter()
                .map(|v| {
                    if v.as_u64() == Some(0) {
                        ".".into()
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            y += &format!("{side}: \"{}\"\n", tokens.join(" "));
        }
    }
    if let Some(p) = rec.get("parity") {
        y += &format!("parity: {}", strings_block(p, "."));
    }
    if let Some(s) = rec.get("solution") {
        y += &format!("solution: {}", values_block(s));
    }
    if !rules.is_empty() {
        y += &format!("rules: [{}]\n", rules.join(", "));
    }
    y
}

/// The stored solution, if any.
pub fn solution(rec: &Value) -> Option<Vec<Vec<u32>>> {
    rec.get("solution").map(|s| {
        grid_rows(s)
            .into_iter()
            .map(|r| r.into_iter().map(|v| v as u32).collect())
            .collect()
    })
}

/// An independent oracle for Latin-square completion (rows and columns only): depth-first search with the
/// most-constrained cell first. Returns the number of solutions found up to `max`, or `None` when the node
/// budget ran out. Shares no code with the library, so it can confirm an "infeasible" answer.
pub fn latin_count(givens: &[Vec<u64>], max: usize, budget: u64) -> Option<usize> {
    let n = givens.len();
    let full: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut rows = vec![0u64; n];
    let mut cols = vec![0u64; n];
    let mut empty = Vec::new();
    for (r, row) in givens.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v == 0 {
                empty.push((r, c));
            } else {
                let bit = 1u64 << (v - 1);
                if rows[r] & bit != 0 || cols[c] & bit != 0 {
                    return Some(0);
                }
                rows[r] |= bit;
                cols[c] |= bit;
            }
        }
    }
    struct S {
        rows: Vec<u64>,
        cols: Vec<u64>,
        empty: Vec<(usize, usize)>,
        full: u64,
        found: usize,
        max: usize,
        nodes: u64,
        budget: u64,
    }
    fn dfs(s: &mut S, depth: usize) -> bool {
        s.nodes += 1;
        if s.nodes > s.budget {
            return false;
        }
        if depth == s.empty.len() {
            s.found += 1;
            return true;
        }
        // Choose the open cell with the fewest candidates.
        let (mut best, mut best_count) = (depth, u32::MAX);
        for k in depth..s.empty.len() {
            let (r, c) = s.empty[k];
            let cnt = (s.full & !(s.rows[r] | s.cols[c])).count_ones();
            if cnt < best_count {
                best = k;
                best_count = cnt;
            }
        }
        s.empty.swap(depth, best);
        let (r, c) = s.empty[depth];
        let mut cands = s.full & !(s.rows[r] | s.cols[c]);
        while cands != 0 && s.found < s.max {
            let bit = cands & cands.wrapping_neg();
            cands &= !bit;
            s.rows[r] |= bit;
            s.cols[c] |= bit;
            let ok = dfs(s, depth + 1);
            s.rows[r] &= !bit;
            s.cols[c] &= !bit;
            if !ok && s.nodes > s.budget {
                return false;
            }
        }
        true
    }
    let mut s = S {
        rows,
        cols,
        empty,
        full,
        found: 0,
        max,
        nodes: 0,
        budget,
    };
    dfs(&mut s, 0);
    (s.nodes <= s.budget).then_some(s.found)
}

pub fn givens_rows(rec: &Value) -> Vec<Vec<u64>> {
    grid_rows(&rec["givens"])
}
