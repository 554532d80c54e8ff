//! janko.at's puzzles as its pages give them: every record of the janko.at scrape beside the corpus
//! (`../shared/datasets/raw/janko_at/*.jsonl`, the keys of each page's `application/x-janko` block as JSON) is
//! written back as that block, by this file's own writer (a key and its value a line, a grid's key alone on a
//! line and its rows after it, as the scrape's README shows a page), and pasted into latin as it is: read
//! (the format recognised by its `begin`), solved with a count to 2, and compared with the site's solution.
//! What latin cannot say (skyscrapers with empty cells, which are no Latin square; blocks without a `puzzle`
//! line) must be refused with that reason, never misread.

mod common;

use latin::{load_str, Registry};
use serde_json::Value;

/// The data block of a page, from its scraped keys (`moves`, the page's replay, left out).
fn block(data: &serde_json::Map<String, Value>) -> String {
    let mut out = String::from("begin\n");
    for (key, value) in data {
        if key == "moves" || key.ends_with('_') {
            continue;
        }
        match value {
            Value::Array(rows) => {
                out.push_str(&format!("{key}\n"));
                for row in rows {
                    let cells: Vec<&str> = row
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap())
                        .collect();
                    out.push_str(&format!("{}\n", cells.join(" ")));
                }
            }
            Value::String(s) => out.push_str(&format!("{key} {s}\n")),
            Value::Number(k) => out.push_str(&format!("{key} {k}\n")),
            _ => {}
        }
    }
    out + "end\n"
}

/// A solution as numbers; letters (`A` for 1) as janko.at writes some.
fn solution(data: &Value) -> Vec<Vec<u32>> {
    let letter = |c: &str| u32::from(c.as_bytes()[0].to_ascii_uppercase() - b'A' + 1);
    common::strings(&data["solution"])
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.parse().unwrap_or_else(|_| letter(c)))
                .collect()
        })
        .collect()
}

/// What became of one file's pages.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    solved: usize,
    refused: usize,
}

/// Every page of one scraped file: solved to the site's solution and no other, or refused saying `refusal`.
fn pages(file: &str, refusal: &str) -> Option<Tally> {
    let text = common::raw_text(&format!("janko_at/{file}"))?;
    let registry = Registry::built_in();
    let mut tally = Tally::default();
    for (i, line) in text.lines().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap();
        let data = &record["data"];
        let pasted = block(data.as_object().unwrap());
        let id = format!("{file} {}", i + 1);
        match load_str(&pasted, &registry) {
            Ok(puzzle) => {
                common::assert_only_solution(&puzzle, &solution(data), false, &id);
                tally.solved += 1;
            }
            Err(e) => {
                assert!(e.to_string().contains(refusal), "{id}: {e}\n{pasted}");
                tally.refused += 1;
            }
        }
    }
    Some(tally)
}

fn expect(file: &str, refusal: &str, solved: usize, refused: usize) {
    if let Some(tally) = pages(file, refusal) {
        assert_eq!(tally, Tally { solved, refused }, "{file}");
    }
}

#[test]
fn janko_sudokus_read_as_pasted() {
    expect("Sudoku.jsonl", "(none refused)", 1220, 0);
    expect("Sudoku_Chaos.jsonl", "(none refused)", 650, 0);
}

#[test]
fn janko_killers_read_as_pasted() {
    // Twelve pages' blocks name no type (the scrape has no `puzzle` for them): latin cannot tell a killer from
    // a Sumdoku or a KenKen by its cages, and says so.
    expect("Sudoku_Killer.jsonl", "no `puzzle` line", 778, 12);
}

#[test]
fn janko_cage_types_read_as_pasted() {
    expect("Factors.jsonl", "(none refused)", 110, 0);
    expect("Kendoku.jsonl", "(none refused)", 400, 0);
    expect("Sumdoku.jsonl", "(none refused)", 90, 0);
}

#[test]
fn janko_futoshiki_and_mathrax_read_as_pasted() {
    expect("Futoshiki.jsonl", "(none refused)", 410, 0);
    expect("Mathrax.jsonl", "(none refused)", 290, 0);
}

#[test]
fn janko_skyscrapers_read_as_pasted_and_empty_cells_are_refused() {
    expect("Wolkenkratzer.jsonl", "leave cells empty", 170, 270);
    expect("Wolkenkratzer-2.jsonl", "leave cells empty", 91, 109);
}
