//! Mathrax puzzles that others wrote: the janko.at collection as two scrapes hold it
//! (`../shared/datasets/raw/janko_at/Mathrax.jsonl`, 290 puzzles, and
//! `../shared/datasets/raw/puzzlekit_dataset/Mathrax_dataset.json`, 175), each with the site's solution. Each is
//! written as a puzzle file of the `mathrax` grammar (a point's clue on its four cells, an `E` or `O` point as
//! a circle on its four cells), solved with a count to 2 and compared with the site's solution; a sample also goes
//! the pure path (`--no-presolve --backend cbc`). The conversion is this file's own, apart from the rules.

mod common;

use latin::{load_str, Registry};
use serde_json::Value;

/// One puzzle as the site gives it: its givens (`-` or `.` empty), the (n-1) x (n-1) points' clues (`-` none,
/// `4+`, `3-`, `6x` or `6*`, `2/`, `E`/`e`, `O`/`o`) and the solution.
struct Site {
    id: String,
    givens: Vec<Vec<String>>,
    points: Vec<Vec<String>>,
    solution: Vec<Vec<u32>>,
}

fn janko() -> Option<Vec<Site>> {
    let text = common::raw_text("janko_at/Mathrax.jsonl")?;
    Some(
        text.lines()
            .enumerate()
            .map(|(i, line)| {
                let d = &serde_json::from_str::<Value>(line).unwrap()["data"];
                let n = d["size"].as_u64().unwrap() as usize;
                Site {
                    id: format!("janko {}", i + 1),
                    // A few records give no givens at all.
                    givens: match d.get("problem") {
                        Some(p) => common::strings(p),
                        None => vec![vec!["-".to_owned(); n]; n],
                    },
                    points: common::strings(&d["nodes"]),
                    solution: common::numbers(&common::strings(&d["solution"])),
                }
            })
            .collect(),
    )
}

fn puzzlekit() -> Option<Vec<Site>> {
    let text = common::raw_text("puzzlekit_dataset/Mathrax_dataset.json")?;
    let doc: Value = serde_json::from_str(&text).unwrap();
    let rows = |block: &str| -> Vec<Vec<String>> {
        block
            .trim()
            .lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect()
    };
    Some(
        doc["data"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(id, v)| {
                let problem = rows(v["problem"].as_str().unwrap());
                let n: usize = problem[0][0].parse().unwrap();
                let solution = rows(v["solution"].as_str().unwrap());
                Site {
                    id: format!("puzzlekit {id}"),
                    givens: problem[1..=n].to_vec(),
                    points: problem[n + 1..2 * n].to_vec(),
                    solution: common::numbers(&solution[1..=n]),
                }
            })
            .collect(),
    )
}

/// The puzzle file of the `mathrax` grammar: a point's clue on its four cells, an E or O circle on its four
/// cells in `circles`.
fn file(site: &Site) -> String {
    let (mut points, mut circles) = (String::new(), String::new());
    for (r, row) in site.points.iter().enumerate() {
        for (c, clue) in row.iter().enumerate() {
            let cells = format!(
                "r{0}c{1} r{0}c{2} r{3}c{1} r{3}c{2}",
                r + 1,
                c + 1,
                c + 2,
                r + 2
            );
            match clue.as_str() {
                "-" | "." => {}
                "E" | "e" => circles.push_str(&format!("  - {cells} = E\n")),
                "O" | "o" => circles.push_str(&format!("  - {cells} = O\n")),
                _ => points.push_str(&format!("  - {cells} = {clue}\n")),
            }
        }
    }
    let givens: String = site
        .givens
        .iter()
        .map(|row| {
            let cells: Vec<&str> = row
                .iter()
                .map(|v| if v == "-" || v == "." { "." } else { v })
                .collect();
            format!("  {}\n", cells.join(" "))
        })
        .collect();
    let n = site.givens.len();
    let circles = match circles.is_empty() {
        true => String::new(),
        false => format!("circles:\n{circles}"),
    };
    format!("type: mathrax\nsize: {n}\npoints:\n{points}{circles}givens: |\n{givens}")
}

#[test]
fn janko_mathrax_puzzles_have_the_sites_solution_and_no_other() {
    let (Some(janko), Some(puzzlekit)) = (janko(), puzzlekit()) else {
        return;
    };
    let registry = Registry::built_in();
    let mut checked = 0;
    let mut ops = std::collections::BTreeSet::new();
    for site in janko.iter().chain(&puzzlekit) {
        let text = file(site);
        for clue in site.points.iter().flatten() {
            ops.insert(
                clue.trim_start_matches(|c: char| c.is_ascii_digit())
                    .to_owned(),
            );
        }
        let puzzle =
            load_str(&text, &registry).unwrap_or_else(|e| panic!("{}: {e}\n{text}", site.id));
        common::assert_only_solution(&puzzle, &site.solution, false, &site.id);
        checked += 1;
    }
    assert_eq!(checked, 465);
    // Every kind of clue the site sets was read: the four operators (`x` and `*` both), E and O both cases,
    // and the difference of 0.
    for op in ["+", "-", "x", "*", "/", "E", "e", "O", "o"] {
        assert!(ops.contains(op), "no {op:?} among {ops:?}");
    }
    assert!(
        site_has(&janko, "0-"),
        "no difference of 0 among the janko puzzles"
    );
}

fn site_has(sites: &[Site], clue: &str) -> bool {
    sites
        .iter()
        .any(|s| s.points.iter().flatten().any(|c| c == clue))
}

/// The pure path (the whole program to CBC, no propagation or search first) on the first five of the janko
/// collection: the site's solution and no other.
#[test]
fn the_pure_path_solves_janko_mathrax_too() {
    let Some(janko) = janko() else {
        return;
    };
    let registry = Registry::built_in();
    for site in janko.iter().take(5) {
        let puzzle = load_str(&file(site), &registry).unwrap();
        common::assert_only_solution(&puzzle, &site.solution, true, &site.id);
    }
}
