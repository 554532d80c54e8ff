//! The pure path (`--no-presolve --backend cbc`: the whole binary program to CBC, with no propagation, search or
//! CaDiCaL first) on every puzzle type there is a grammar for. Each rule's own tests check its rows against its
//! exact check on tiny grids; this checks the program CBC is actually given for a whole puzzle of each type (the
//! Latin rows, the givens, every rule's auxiliary columns, the no-good row that counts to two), so that the
//! path the design promises stays exact as types are added: the file's solution and no other, and no grid from
//! CBC that exact verification had to cut off. The corpus test does the same for a sample of the base types'
//! records, and the differential test for small generated puzzles of every grammar.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use latin::{load, solve, BackendChoice, Registry, SolveOptions};
use rayon::prelude::*;

mod common;

/// Each built-in grammar's smallest example with a `solution:` (the first in path order among equals), by type.
fn smallest_examples(registry: &Registry) -> BTreeMap<String, PathBuf> {
    let mut smallest: BTreeMap<String, (usize, PathBuf)> = BTreeMap::new();
    for file in common::example_files() {
        let puzzle = load(&file, registry).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if puzzle.solution().is_none() {
            continue;
        }
        let size = puzzle.size();
        let entry = smallest
            .entry(puzzle.kind().to_owned())
            .or_insert((size, file.clone()));
        if size < entry.0 {
            *entry = (size, file);
        }
    }
    smallest.into_iter().map(|(k, (_, f))| (k, f)).collect()
}

#[test]
fn every_type_s_smallest_example_has_its_solution_and_no_other_on_the_pure_path() {
    let registry = Registry::built_in();
    let smallest = smallest_examples(&registry);
    let grammars: Vec<String> = registry.iter().map(|g| g.name.clone()).collect();
    assert!(grammars.len() >= 40, "{} grammars", grammars.len());
    let missing: Vec<&String> = grammars
        .iter()
        .filter(|g| !smallest.contains_key(*g))
        .collect();
    assert!(
        missing.is_empty(),
        "no example with a solution for {missing:?}"
    );
    let failures: Vec<String> = grammars
        .par_iter()
        .filter_map(|kind| {
            let file = &smallest[kind];
            let puzzle = load(file, &registry).unwrap();
            let options = SolveOptions {
                max_solutions: 2,
                presolve: false,
                search_nodes: 0,
                backend: BackendChoice::Cbc,
                // CBC takes up to half a minute on these (the 6x6 little killer); a hang fails, it never skips.
                time_limit: Some(Duration::from_secs(600)),
                ..SolveOptions::default()
            };
            let outcome = match solve(&puzzle, &options) {
                Ok(outcome) => outcome,
                Err(e) => return Some(format!("{}: {e}", file.display())),
            };
            let want = puzzle.solution().unwrap();
            let found: Vec<_> = outcome.solutions.iter().map(|g| g.rows()).collect();
            // Exact: CBC returned no grid that verification had to cut off (the loop that does so would
            // otherwise hide a loose encoding behind the right answer).
            let rejected = outcome.stats.rejected;
            (!outcome.complete || found != [want.rows()] || rejected > 0).then(|| {
                format!(
                    "{}: {} solution(s), complete {}, the file's among them {}, {rejected} rejected",
                    file.display(),
                    found.len(),
                    outcome.complete,
                    found.contains(&want.rows())
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
