//! One representative puzzle per type, from `puzzles/`: load once, then time `solve` (presolve, and CBC when
//! the residual needs it). `cargo bench` runs them; compare runs with criterion's saved baselines
//! (`cargo bench -- --save-baseline before`, then `-- --baseline before`).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use latin::Registry;
use latin::{candidates, load, solve, SolveOptions, Status};

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

/// `latin candidates` is meant to run on every keystroke of a setter: true candidates of 9x9 Sudokus with
/// several solutions (a blank one, and one with a few givens), and of a unique one.
fn candidates_9x9(c: &mut Criterion) {
    let registry = Registry::built_in();
    let mut group = c.benchmark_group("candidates");
    group.sample_size(10);
    for (name, text) in [
        ("blank-9x9", "type: sudoku\nsize: 9\n"),
        ("few-givens-9x9", "type: sudoku\nsize: 9\ngivens: |\n  5 3 . . 7 . . . .\n  6 . . 1 9 5 . . .\n  . 9 8 . . . . 6 .\n  8 . . . 6 . . . 3\n  4 . . 8 . 3 . . 1\n  7 . . . 2 . . . 6\n  . 6 . . . . 2 8 .\n  . . . . . . . . .\n  . . . . . . . . .\n"),
    ] {
        let puzzle = latin::load_str(text, &registry).expect("loads");
        let options = SolveOptions::default();
        let found = candidates(&puzzle, &options).expect("candidates");
        assert!(found.complete && found.several, "{name}");
        group.bench_function(name, |b| b.iter(|| candidates(&puzzle, &options).expect("candidates")));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let unique = load(&root.join("sudoku/clue-list-9x9.yaml"), &registry).expect("loads");
    group.bench_function("unique-9x9", |b| {
        b.iter(|| candidates(&unique, &SolveOptions::default()).expect("candidates"))
    });
    group.finish();
}

criterion_group!(benches, solve_examples, candidates_9x9);
criterion_main!(benches);
