//! Entry points for the fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer): the puzzle-file reader with a solve
//! behind it, and the lines reader with the bulk driver behind it. Each panics only on a real bug: a crash
//! in the pipeline, an error of the wrong kind, or an answer that does not verify.

use std::time::Duration;

use crate::bulk::{self, LineFormat, LinesRun};
use crate::grammar::Registry;
use crate::model::{load_str, Puzzle};
use crate::parse::lines::LineReader;
use crate::solve::SolveOptions;

/// Options small enough that a fuzz input costs milliseconds, whatever size it asks for.
fn options() -> SolveOptions {
    SolveOptions {
        max_solutions: 2,
        time_limit: Some(Duration::from_millis(100)),
        memory_limit: Some(64 << 20),
        ..SolveOptions::default()
    }
}

/// Any bytes as a puzzle file: load, solve, verify.
pub fn puzzle_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let registry = Registry::built_in();
    let puzzle = match load_str(&text, &registry) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.is_bad_input(), "a load error of the wrong kind: {e}");
            return;
        }
    };
    match crate::solve(&puzzle, &options()) {
        Ok(outcome) => {
            for grid in &outcome.solutions {
                assert!(puzzle.check_grid(grid).is_ok(), "an unverified answer");
            }
        }
        Err(e) => assert!(e.is_bad_input(), "a solve error of the wrong kind: {e}"),
    }
}

/// Any bytes as a lines file of 4x4 Sudokus: every puzzle line answered, in order.
pub fn lines(data: &[u8]) {
    let template = Puzzle::sudoku(4).expect("4x4 Sudoku");
    let options = options();
    let run = LinesRun {
        template: &template,
        format: LineFormat::Text,
        options: &options,
        line_limit: options.time_limit,
        total_limit: None,
    };
    let mut out = Vec::new();
    let summary = bulk::run(&run, LineReader::new(data), &mut out, &|_| {})
        .expect("writing to memory cannot fail");
    assert_eq!(summary.puzzles, out.iter().filter(|&&b| b == b'\n').count());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fuzz targets' entry points run on the seed inputs (CI does not build the fuzz crate itself, which
    /// needs cargo-fuzz and a second build of CBC).
    #[test]
    fn the_fuzz_entry_points_run_on_their_seeds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seeds = 0;
        for dir in [
            "tests/hostile",
            "puzzles/inshi",
            "puzzles/kenken",
            "puzzles/skyscrapers",
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                puzzle_file(&std::fs::read(entry.unwrap().path()).unwrap());
                seeds += 1;
            }
        }
        assert!(seeds > 20);
        lines(b"12..34..........\n\xff\n\r\n#\n1234\n");
        lines(&[b'0'; 100_000]);
    }
}
