//! The corpus test: every puzzle that others wrote, in `../shared/corpus`, is solved, verified, compared with
//! its stored solution, and where the corpus knows the exact count, counted (up to 2).

mod common;

use std::time::Instant;

use latin::BackendChoice;
use latin::Registry;
use latin::{check, load_str, solve, SolveOptions, Status};
use rayon::prelude::*;
use serde_json::Value;

/// Runs one corpus file; `keep` selects the records to run, and `row` names them in the summary line, as the
/// README's performance tables do (`benches/corpus-table.py` reads the lines by those names).
fn run(row: &str, file: &str, keep: impl Fn(&Value) -> bool + Sync) {
    let Some(records) = common::records(file) else {
        return;
    };
    let registry = Registry::built_in();
    let records: Vec<&Value> = records.iter().filter(|r| keep(r)).collect();
    assert!(!records.is_empty(), "{file}: no records selected");
    let results: Vec<Result<(f64, &str), String>> = records
        .par_iter()
        .map(|rec| {
            let id = rec["id"].as_str().unwrap_or("?");
            let yaml = common::to_yaml(rec);
            let puzzle = load_str(&yaml, &registry)
                .map_err(|e| format!("{id}: does not load: {e}\n{yaml}"))?;
            let count = rec.get("count").and_then(Value::as_u64);
            let max = if count.is_some() || rec.get("solution").is_some() {
                2
            } else {
                1
            };
            let t = Instant::now();
            let outcome = solve(
                &puzzle,
                &SolveOptions {
                    max_solutions: max,
                    ..SolveOptions::default()
                },
            )
            .map_err(|e| format!("{id}: {e}"))?;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            if let Some(c) = count {
                let want = c.min(2) as usize;
                if outcome.solutions.len() != want || (c < 2 && !outcome.complete) {
                    return Err(format!(
                        "{id}: count {} (complete: {}), corpus says {c}",
                        outcome.solutions.len(),
                        outcome.complete
                    ));
                }
                if c == 0 {
                    return if outcome.status == Status::Infeasible {
                        Ok((ms, id))
                    } else {
                        Err(format!("{id}: should have no solution"))
                    };
                }
            }
            if outcome.status == Status::Infeasible
                && rec.get("solution").is_none()
                && count.is_none()
                && rec["type"] == "latin"
            {
                // No stored answer: confirm "no solution" with the independent search oracle. Past order 20 it
                // cannot finish (20 million nodes on an order-25 QCP ran out); there the other engine confirms
                // it instead: propagation and exhaustive search, where CaDiCaL decided it.
                if rec["size"].as_u64().is_some_and(|n| n > 20) {
                    let confirm = solve(
                        &puzzle,
                        &SolveOptions {
                            search_nodes: 10_000_000,
                            backend: BackendChoice::Cbc,
                            ..SolveOptions::default()
                        },
                    )
                    .map_err(|e| format!("{id}: {e}"))?;
                    return if confirm.solutions.is_empty() && confirm.complete {
                        Ok((ms, id))
                    } else {
                        Err(format!(
                            "{id}: reported infeasible; search alone says {:?}",
                            confirm.status
                        ))
                    };
                }
                return match common::latin_count(&common::givens_rows(rec), 1, 20_000_000) {
                    Some(0) => Ok((ms, id)),
                    Some(_) => Err(format!(
                        "{id}: reported infeasible, but the oracle finds a solution"
                    )),
                    None => Err(format!(
                        "{id}: reported infeasible; the oracle ran out of budget to confirm"
                    )),
                };
            }
            let Some(grid) = outcome.solutions.first() else {
                return Err(format!("{id}: no solution ({:?})", outcome.status));
            };
            check(&puzzle, grid).map_err(|v| format!("{id}: answer fails verification: {v:?}"))?;
            if let Some(expected) = common::solution(rec) {
                if grid.rows() != expected {
                    return Err(format!("{id}: answer differs from the stored solution"));
                }
                if count.is_none() && (outcome.solutions.len() != 1 || !outcome.complete) {
                    return Err(format!(
                        "{id}: the stored solution is not unique ({} found)",
                        outcome.solutions.len()
                    ));
                }
            }
            Ok((ms, id))
        })
        .collect();
    let mut timed: Vec<(f64, &str)> = results
        .iter()
        .filter_map(|r| r.as_ref().ok().copied())
        .collect();
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let times: Vec<f64> = timed.iter().map(|t| t.0).collect();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    if !times.is_empty() {
        let slowest: Vec<String> = timed
            .iter()
            .rev()
            .take(3)
            .map(|(ms, id)| format!("{id} {ms:.0} ms"))
            .collect();
        eprintln!(
            "{file} [{row}]: {} puzzles, median {:.2} ms, slowest {:.2} ms, total {:.1} s (slowest: {})",
            times.len(),
            times[times.len() / 2],
            times[times.len() - 1],
            times.iter().sum::<f64>() / 1000.0,
            slowest.join(", ")
        );
    }
    assert!(
        failures.is_empty(),
        "{file}: {} of {} failed:\n{}",
        failures.len(),
        records.len(),
        failures
            .iter()
            .take(20)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn oracle_counts_small_latin_squares() {
    // 576 Latin squares of order 4; 161,280 of order 5 (OEIS A002860).
    assert_eq!(
        common::latin_count(&vec![vec![0; 4]; 4], 1000, 1 << 30),
        Some(576)
    );
    assert_eq!(
        common::latin_count(&vec![vec![0; 5]; 5], 200_000, 1 << 30),
        Some(161_280)
    );
    // A row that repeats a value; a completion with no room left for a 3; a unique completion.
    assert_eq!(
        common::latin_count(&[vec![1, 1], vec![0, 0]], 10, 100),
        Some(0)
    );
    assert_eq!(
        common::latin_count(&[vec![1, 2, 0], vec![0, 0, 3], vec![0, 0, 0]], 10, 100),
        Some(0)
    );
    assert_eq!(
        common::latin_count(&[vec![1, 2, 0], vec![0, 0, 1], vec![0, 0, 0]], 10, 100),
        Some(1)
    );
}

fn size_at_most(n: u64) -> impl Fn(&Value) -> bool + Sync {
    move |r: &Value| r["size"].as_u64().is_some_and(|s| s <= n)
}

#[test]
fn sudoku() {
    run("sudoku", "sudoku.jsonl", |_| true);
}

#[test]
fn sudoku16() {
    run("sudoku16", "sudoku16.jsonl", |_| true);
}

#[test]
fn sudoku_counts() {
    run("sudoku-counts", "sudoku-counts.jsonl", |_| true);
}

#[test]
fn sudoku_gecode_up_to_16() {
    run(
        "sudoku-gecode, up to 16x16",
        "sudoku-gecode.jsonl",
        size_at_most(16),
    );
}

#[test]
fn latin_qcp_up_to_16() {
    run("latin-qcp, up to 16", "latin-qcp.jsonl", size_at_most(16));
}

/// The order-20 quasigroup completion problems: each decided by search in a few seconds at most.
#[test]
fn latin_qcp_20() {
    run("latin-qcp, order 20", "latin-qcp.jsonl", |r| {
        r["size"] == 20
    });
}

/// The order-25 quasigroup completion problems: a clause-learning job after a short search.
#[test]
fn latin_qcp_25() {
    run("latin-qcp, order 25", "latin-qcp.jsonl", |r| {
        r["size"] == 25
    });
}

/// The 18 25x25 Sudokus of Gecode's examples (CBC alone times out on several after 2 minutes, Gecode on 11 of
/// 18 after 60 s): every one solved, and the answer equal to the stored solution.
#[test]
fn sudoku_gecode_25() {
    run(
        "sudoku-gecode, 25x25 (first solution)",
        "sudoku-gecode.jsonl",
        |r| r["size"] == 25,
    );
}

#[test]
fn inshi() {
    run("inshi", "inshi.jsonl", |_| true);
}

#[test]
fn jigsaw() {
    run("jigsaw", "jigsaw.jsonl", |_| true);
}

#[test]
fn killer() {
    run("killer", "killer.jsonl", |_| true);
}

#[test]
fn kenken() {
    run("kenken", "kenken.jsonl", |_| true);
}

#[test]
fn futoshiki() {
    run("futoshiki", "futoshiki.jsonl", |_| true);
}

#[test]
fn skyscrapers() {
    run("skyscrapers", "skyscrapers.jsonl", |_| true);
}

#[test]
fn consecutive() {
    run("consecutive", "consecutive.jsonl", |_| true);
}

#[test]
fn evenodd() {
    run("evenodd", "evenodd.jsonl", |_| true);
}

/// Every variant type: lines (thermometers, arrows, whispers, renban, palindromes, little-killer diagonals),
/// tagged pairs (kropki, XV), and sums outside the grid (sandwich, sum skyscrapers).
#[test]
fn variants() {
    // One summary line per type.
    for kind in [
        "thermo",
        "arrow",
        "whispers",
        "renban",
        "palindrome",
        "little-killer",
        "kropki",
        "xv",
        "sandwich",
        "sum-skyscrapers",
    ] {
        run(kind, "variants.jsonl", |r| r["type"] == kind);
    }
}

/// Presolve removes only candidates that no solution uses, search is exhaustive, and the clauses say what the
/// rows say: presolve then search, presolve then the automatic backend (CaDiCaL for clausal programs), presolve
/// then CBC, and the whole program to CBC agree on statuses and counts up to 2, and a unique solution is the
/// same grid, and no path's backend returns a grid that verification rejects. A sample from every file of the
/// family.
#[test]
fn presolve_search_and_whole_program_agree() {
    let registry = Registry::built_in();
    let files = [
        "sudoku.jsonl",
        "sudoku-counts.jsonl",
        "inshi.jsonl",
        "jigsaw.jsonl",
        "killer.jsonl",
        "kenken.jsonl",
        "futoshiki.jsonl",
        "skyscrapers.jsonl",
        "consecutive.jsonl",
        "evenodd.jsonl",
        "latin-qcp.jsonl",
    ];
    let mut compared = 0;
    for file in files {
        let Some(records) = common::records(file) else {
            continue;
        };
        let sample: Vec<&Value> = records
            .iter()
            .filter(|r| r["size"].as_u64().is_some_and(|n| n <= 9))
            .step_by(40)
            .take(6)
            .collect();
        let failures: Vec<String> = sample
            .par_iter()
            .filter_map(|rec| {
                let id = rec["id"].as_str().unwrap_or("?");
                let puzzle = load_str(&common::to_yaml(rec), &registry).ok()?;
                let run = |presolve, search_nodes, backend| {
                    solve(
                        &puzzle,
                        &SolveOptions {
                            max_solutions: 2,
                            presolve,
                            search_nodes,
                            backend,
                            ..SolveOptions::default()
                        },
                    )
                    // Two solutions found may be any two; one solution must be the same one. No grid the
                    // backend returns fails verification: every path's program is exact, not cut into shape.
                    .map(|o| {
                        let unique = (o.solutions.len() == 1).then(|| o.solutions[0].clone());
                        (
                            o.status,
                            o.solutions.len(),
                            o.complete,
                            unique,
                            o.stats.rejected,
                        )
                    })
                    .map_err(|e| e.to_string())
                };
                let (with, auto, cbc_only, without) = (
                    run(true, latin::DEFAULT_SEARCH_NODES, BackendChoice::Auto),
                    run(true, 0, BackendChoice::Auto),
                    run(true, 0, BackendChoice::Cbc),
                    run(false, 0, BackendChoice::Cbc),
                );
                let rejected = [&with, &auto, &cbc_only, &without]
                    .iter()
                    .any(|r| matches!(r, Ok((.., n)) if *n > 0));
                (with != without || auto != without || cbc_only != without || rejected).then(|| {
                    format!(
                        "{file} {id}: presolve + search {with:?}, presolve + backend {auto:?}, \
                         presolve + CBC {cbc_only:?}, whole program {without:?}"
                    )
                })
            })
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        compared += sample.len();
    }
    assert!(
        compared > 0 || std::env::var_os("CI").is_none(),
        "no corpus puzzles compared"
    );
}

/// `latin convert --to record` writes a corpus line: a record from every file of the corpus, read and written
/// again, says what it said, in the schema's own words (`24*` for a product, not a puzzle file's `24x`; sums on
/// the edges under `edges`, counts under `sky`). Up to three records of each type and set of keys a file has.
#[test]
fn records_are_written_as_the_corpus_writes_them() {
    // What only the corpus keeps (where a record came from, what is known of it) is not the puzzle's.
    const NOT_THE_PUZZLE: [&str; 4] = ["id", "source", "count", "feasible"];
    let mut checked = 0;
    for file in [
        "sudoku.jsonl",
        "sudoku16.jsonl",
        "sudoku-counts.jsonl",
        "sudoku-gecode.jsonl",
        "latin-qcp.jsonl",
        "inshi.jsonl",
        "jigsaw.jsonl",
        "killer.jsonl",
        "kenken.jsonl",
        "futoshiki.jsonl",
        "skyscrapers.jsonl",
        "consecutive.jsonl",
        "evenodd.jsonl",
        "variants.jsonl",
    ] {
        let Some(records) = common::records(file) else {
            continue;
        };
        let mut seen: std::collections::HashMap<(String, Vec<String>), usize> = Default::default();
        for rec in &records {
            let shape = (
                rec["type"].as_str().unwrap_or("?").to_owned(),
                rec.as_object().unwrap().keys().cloned().collect(),
            );
            let n = seen.entry(shape).or_default();
            *n += 1;
            if *n > 3 {
                continue;
            }
            let id = rec["id"].as_str().unwrap_or("?");
            let out = assert_cmd::Command::cargo_bin("latin")
                .unwrap()
                .args(["convert", "-", "--from", "record", "--to", "record"])
                .write_stdin(rec.to_string())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{id}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let written: Value = serde_json::from_slice(&out.stdout).unwrap();
            let size = rec["size"].as_u64().unwrap() as usize;
            let empty = serde_json::json!(vec![vec![0; size]; size]);
            let keys = rec
                .as_object()
                .unwrap()
                .keys()
                .chain(written.as_object().unwrap().keys());
            for key in keys.filter(|k| !NOT_THE_PUZZLE.contains(&k.as_str())) {
                // A record may leave out givens it has none of.
                let said = |r: &Value| match (key.as_str(), r.get(key)) {
                    ("givens", None) => empty.clone(),
                    (_, v) => v.cloned().unwrap_or(Value::Null),
                };
                assert_eq!(said(&written), said(rec), "{id}: key {key}");
            }
            checked += 1;
        }
    }
    assert!(
        checked > 0 || std::env::var("CI").is_err(),
        "no records checked"
    );
}
