//! Shared helpers for the integration tests: where the shared corpus lives, and how a corpus record (the
//! neutral JSON schema of `../shared/corpus/README.md`) becomes a puzzle file, so the corpus exercises the whole
//! pipeline, parsing included.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Every puzzle file under `puzzles/` (the examples, `.yaml`), in path order.
pub fn example_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "yaml") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles"),
        &mut files,
    );
    files.sort();
    files
}

/// The corpus directory: `$LATIN_CORPUS`, else `../shared/corpus` beside the checkout.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("LATIN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// An npm package that a test checks latin against (`pzpr`, `sudoku-formats`): `$VAR`, else
/// `~/.cache/latin-npm/node_modules/NAME`, where `.ci/run` installs it, with node to run it. Both are required
/// under `CI=true`; elsewhere their absence is reported (saying what went unchecked) and `None` returned.
pub fn npm_package(var: &str, name: &str, unchecked: &str) -> Option<PathBuf> {
    let module = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".cache/latin-npm/node_modules")
            .join(name)
    });
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if node && module.join("package.json").exists() {
        return Some(module);
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "node or {} missing under CI=true (.ci/run installs them)",
        module.display()
    );
    eprintln!("NOTE: node or {} missing; {unchecked}", module.display());
    None
}

/// What a node script under `tests/support` answers to JSON requests, one a line in and one a line out, with
/// `env` set (the npm package's place, from [`npm_package`]): the script must succeed and answer each request.
pub fn node_answers(script: &str, env: (&str, &std::path::Path), requests: &[Value]) -> Vec<Value> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(script);
    let mut child = Command::new("node")
        .arg(script)
        .env(env.0, env.1)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for r in requests {
        writeln!(stdin, "{r}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), requests.len());
    answers
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

/// A file of the raw scrapes the corpus was made from (`../shared/datasets/raw/`, beside the corpus), by its path
/// there: puzzles of types the corpus does not hold. Missing fails under `CI=true`, as [`records`] does.
pub fn raw_text(path: &str) -> Option<String> {
    let path = corpus_dir().join("../datasets/raw").join(path);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{} is missing under CI=true: {e}", path.display())
        }
        Err(e) => {
            eprintln!("NOTE: {} not found ({e}); nothing checked", path.display());
            None
        }
    }
}

/// The puzzle `puzzle` (a loaded puzzle file), counted to 2, has `solution` and no other; `pure`: on the whole
/// program given to CBC (`--no-presolve --backend cbc`), else on the default path. `id` names it on failure.
pub fn assert_only_solution(puzzle: &latin::Puzzle, solution: &[Vec<u32>], pure: bool, id: &str) {
    let mut options = latin::SolveOptions {
        max_solutions: 2,
        ..latin::SolveOptions::default()
    };
    if pure {
        options.presolve = false;
        options.search_nodes = 0;
        options.backend = latin::BackendChoice::Cbc;
    }
    let outcome = latin::solve(puzzle, &options).unwrap();
    assert!(outcome.complete, "{id}");
    assert_eq!(outcome.solutions.len(), 1, "{id}");
    assert_eq!(outcome.solutions[0].rows(), solution, "{id}");
}

/// A JSON grid of strings, as the raw scrapes write grids.
pub fn strings(v: &Value) -> Vec<Vec<String>> {
    v.as_array()
        .expect("grid")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_str().expect("text").to_owned())
                .collect()
        })
        .collect()
}

/// Rows of numbers written as text.
pub fn numbers(rows: &[Vec<String>]) -> Vec<Vec<u32>> {
    rows.iter()
        .map(|r| r.iter().map(|x| x.parse().expect("a number")).collect())
        .collect()
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
    if let Some(lines) = rec.get("lines").and_then(Value::as_object) {
        for (section, list) in lines {
            let clues = rec["line_clues"][section.as_str()].as_array();
            y += &format!("{section}:\n");
            for (i, line) in list.as_array().expect("lines").iter().enumerate() {
                let cells: Vec<String> = line
                    .as_array()
                    .expect("cells")
                    .iter()
                    .map(|rc| cell(&rc[0], &rc[1]))
                    .collect();
                let clue = clues.map(|c| format!(" = {}", c[i])).unwrap_or_default();
                y += &format!("  - {}{clue}\n", cells.join(" "));
            }
        }
    }
    if let Some(pairs) = rec.get("pairs").and_then(Value::as_object) {
        for (section, list) in pairs {
            let list = list.as_array().expect("pairs");
            if list.is_empty() {
                y += &format!("{section}: []\n");
                continue;
            }
            y += &format!("{section}:\n");
            for q in list {
                y += &format!("  - {}-{}\n", cell(&q[0], &q[1]), cell(&q[2], &q[3]));
            }
        }
    }
    if let Some(edges) = rec.get("edges").and_then(Value::as_object) {
        // Sandwich clues: null is no clue and 0 a real one; sum-skyscraper clues: 0 is no clue.
        let zero_is_none = kind == "sum-skyscrapers";
        for (side, list) in edges {
            let tokens: Vec<String> = list
                .as_array()
                .expect("edge")
                .iter()
                .map(|v| match v.as_u64() {
                    None => ".".into(),
                    Some(0) if zero_is_none => ".".into(),
                    Some(k) => k.to_string(),
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

/// An independent oracle for Latin-square completion (rows and columns only): depth-first search over the
/// exact-cover view of the square. At each node it branches on the most constrained choice among "which value
/// goes in cell (r, c)", "which column of row r holds v" and "which row of column c holds v", so hidden singles
/// cost nothing and dead ends show early. Returns the number of solutions found up to `max`, or `None` when the
/// node budget ran out. Shares no code with the library, so it can confirm an "infeasible" answer.
pub fn latin_count(givens: &[Vec<u64>], max: usize, budget: u64) -> Option<usize> {
    let n = givens.len();
    assert!(n <= 64, "the oracle handles sizes up to 64");
    let full: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut s = Oracle {
        n,
        full,
        row_has: vec![0; n],
        col_has: vec![0; n],
        open_in_row: vec![full; n],
        found: 0,
        max,
        nodes: 0,
        budget,
    };
    for (r, row) in givens.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v != 0 {
                let bit = 1u64 << (v - 1);
                if s.row_has[r] & bit != 0 || s.col_has[c] & bit != 0 {
                    return Some(0);
                }
                s.place(r, c, v as usize - 1);
            }
        }
    }
    s.dfs();
    (s.nodes <= s.budget).then_some(s.found)
}

struct Oracle {
    n: usize,
    full: u64,
    /// Values present in each row and column (bit v).
    row_has: Vec<u64>,
    col_has: Vec<u64>,
    /// Empty columns of each row (bit c).
    open_in_row: Vec<u64>,
    found: usize,
    max: usize,
    nodes: u64,
    budget: u64,
}

/// One way to branch: the (row, column, value) triples that can satisfy one constraint.
#[derive(Clone, Copy)]
enum Choice {
    Cell(usize, usize, u64),
    RowValue(usize, usize, u64),
    ColValue(usize, usize, u64),
}

impl Oracle {
    fn place(&mut self, r: usize, c: usize, v: usize) {
        self.row_has[r] |= 1 << v;
        self.col_has[c] |= 1 << v;
        self.open_in_row[r] &= !(1 << c);
    }

    fn unplace(&mut self, r: usize, c: usize, v: usize) {
        self.row_has[r] &= !(1 << v);
        self.col_has[c] &= !(1 << v);
        self.open_in_row[r] |= 1 << c;
    }

    /// Columns of row r where v may go.
    fn spots_in_row(&self, r: usize, v: usize) -> u64 {
        let mut m = 0;
        let mut open = self.open_in_row[r];
        while open != 0 {
            let c = open.trailing_zeros() as usize;
            open &= open - 1;
            if self.col_has[c] >> v & 1 == 0 {
                m |= 1 << c;
            }
        }
        m
    }

    /// Rows of column c where v may go.
    fn spots_in_col(&self, c: usize, v: usize) -> u64 {
        (0..self.n)
            .filter(|&r| self.open_in_row[r] >> c & 1 == 1 && self.row_has[r] >> v & 1 == 0)
            .fold(0, |m, r| m | 1 << r)
    }

    /// The choice with the fewest options; `None` when the square is full.
    fn most_constrained(&self) -> Option<Choice> {
        let mut best: Option<(u32, Choice)> = None;
        let mut consider = |count: u32, choice: Choice| {
            if best.as_ref().is_none_or(|(k, _)| count < *k) {
                best = Some((count, choice));
            }
        };
        for r in 0..self.n {
            let mut open = self.open_in_row[r];
            while open != 0 {
                let c = open.trailing_zeros() as usize;
                open &= open - 1;
                let cands = self.full & !(self.row_has[r] | self.col_has[c]);
                consider(cands.count_ones(), Choice::Cell(r, c, cands));
            }
            let mut missing = self.full & !self.row_has[r];
            while missing != 0 {
                let v = missing.trailing_zeros() as usize;
                missing &= missing - 1;
                let spots = self.spots_in_row(r, v);
                consider(spots.count_ones(), Choice::RowValue(r, v, spots));
            }
        }
        for c in 0..self.n {
            let mut missing = self.full & !self.col_has[c];
            while missing != 0 {
                let v = missing.trailing_zeros() as usize;
                missing &= missing - 1;
                let spots = self.spots_in_col(c, v);
                consider(spots.count_ones(), Choice::ColValue(c, v, spots));
            }
        }
        best.map(|(_, choice)| choice)
    }

    /// Returns false when the budget ran out.
    fn dfs(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let Some(choice) = self.most_constrained() else {
            self.found += 1;
            return true;
        };
        let mut options = match choice {
            Choice::Cell(_, _, m) | Choice::RowValue(_, _, m) | Choice::ColValue(_, _, m) => m,
        };
        while options != 0 && self.found < self.max {
            let k = options.trailing_zeros() as usize;
            options &= options - 1;
            let (r, c, v) = match choice {
                Choice::Cell(r, c, _) => (r, c, k),
                Choice::RowValue(r, v, _) => (r, k, v),
                Choice::ColValue(c, v, _) => (k, c, v),
            };
            self.place(r, c, v);
            let ok = self.dfs();
            self.unplace(r, c, v);
            if !ok {
                return false;
            }
        }
        true
    }
}

pub fn givens_rows(rec: &Value) -> Vec<Vec<u64>> {
    grid_rows(&rec["givens"])
}

/// A Tatham game from Debian's `sgt-puzzles` (`/usr/games/sgt-solo`, ...). Missing, it fails under `CI=true`
/// (`.ci/run` installs the package); elsewhere it is reported and `None` returned.
pub fn tatham_game(name: &str) -> Option<String> {
    let path = format!("/usr/games/sgt-{name}");
    if std::path::Path::new(&path).exists() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{path} missing under CI=true (.ci/run installs sgt-puzzles)"
    );
    eprintln!("NOTE: {path} not installed; what needs it was not checked");
    None
}

/// A Latin square of size `n` with every cell given (row r holds r+1, r+2, ... cyclically), as a puzzle file:
/// the largest valid file of its size, for the tests of what large inputs cost.
pub fn filled_latin_square(n: usize) -> String {
    let rows: String = (0..n)
        .map(|r| {
            let row: Vec<String> = (0..n).map(|c| ((r + c) % n + 1).to_string()).collect();
            format!("  {}\n", row.join(" "))
        })
        .collect();
    format!("type: latin\nsize: {n}\ngivens: |\n{rows}")
}
