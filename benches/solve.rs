//! One representative puzzle per type, from `puzzles/`: load once, then time `solve` (presolve, and CBC when
//! the residual needs it). `cargo bench` runs them; compare runs with criterion's saved baselines
//! (`cargo bench -- --save-baseline before`, then `-- --baseline before`).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use latin::Registry;
use latin::{load, solve, SolveOptions, Status};

const PUZZLES: &[&str] = &[
    "sudoku/clue-list-9x9.yaml",
    "sudoku/16x16.yaml",
    "latin/completion-10x10.yaml",
    "inshi/nikoli-5x5.yaml",
    "inshi/rooms-6x6.yaml",
    "jigsaw/jigsaw-9x9.yaml",
    "killer/killer-6x6.yaml",
    "killer-x/killer-x-9x9.yaml",
    "sumdoku/sumdoku-6x6.yaml",
    "kenken/kenken-6x6.yaml",
    "kenken/kenken-hidden-5x5.yaml",
    "futoshiki/futoshiki-7x7.yaml",
    "skyscrapers/skyscrapers-6x6.yaml",
    "consecutive/consecutive-7x7.yaml",
    "evenodd/evenodd-9x9.yaml",
];

fn solve_examples(c: &mut Criterion) {
    let registry = Registry::built_in();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut group = c.benchmark_group("solve");
    group.sample_size(20);
    for name in PUZZLES {
        let puzzle = load(&root.join(name), &registry).unwrap_or_else(|e| panic!("{name}: {e}"));
        let options = SolveOptions::default();
        // A benchmark of a wrong answer is worthless: check once before timing.
        let outcome = solve(&puzzle, &options).expect("solves");
        assert_eq!(outcome.status, Status::Solved, "{name}");
        assert_eq!(puzzle.solution(), outcome.solutions.first(), "{name}");
        group.bench_function(*name, |b| {
            b.iter(|| solve(&puzzle, &options).expect("solves"))
        });
    }
    group.finish();
}

criterion_group!(benches, solve_examples);
criterion_main!(benches);
