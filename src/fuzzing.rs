//! Entry points for the fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer): the puzzle-file reader with a solve
//! behind it, the lines reader with the bulk driver behind it, the importers of pasted IDs and links with the
//! writers behind them, and the grammar reader with a puzzle of the new type behind it. Each panics only on a
//! real bug: a crash in the pipeline, an error of the wrong kind, or an answer that does not verify.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::bulk::{self, LineFormat, Lines, LinesRun};
use crate::error::Error;
use crate::grammar::{Grammar, Registry};
use crate::grid::Grid;
use crate::import::{self, Format};
use crate::model::load::{load_mapping, Reader, DEFAULT_MAX_INPUT};
use crate::model::record::{in_form, record_of};
use crate::model::{load_str, Puzzle};
use crate::parse::lines::LineReader;
use crate::parse::table::Columns;
use crate::report::picture::text::{self, TextStyle};
use crate::report::picture::Values;
use crate::solve::SolveOptions;
use serde_json::Value as Json;

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
    if let Some(puzzle) = loaded(load_str(&text, &registry)) {
        solve_and_verify(&puzzle);
    }
}

/// The forms a puzzle is pasted in: every form latin reads but its own file, in `Format::ALL`'s order (the first
/// byte of a `pasted` input picks one), so a new form is fuzzed without a second list to keep in step.
fn foreign() -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|&f| f != Format::Yaml)
        .collect()
}

/// Any text read as a pasted puzzle in one of the foreign forms (the first byte chooses which, as `--from`
/// does): through its record to a puzzle, solved and verified; and a puzzle that loads is written back in
/// every form, which writes it or refuses plainly, and what is written as a record reads back as the same
/// puzzle.
pub fn pasted(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let registry = Registry::built_in();
    let reader = Reader {
        registry: &registry,
        max_bytes: DEFAULT_MAX_INPUT,
        from: Some({
            let forms = foreign();
            forms[usize::from(first) % forms.len()]
        }),
    };
    let Some(map) = loaded(reader.mapping(&text)) else {
        return;
    };
    let Some(puzzle) = loaded(load_mapping(&map, &registry)) else {
        return;
    };
    let answers = solve_and_verify(&puzzle);
    let Some(record) = loaded(record_of(&map, &registry)) else {
        return;
    };
    // f-puzzles is written (and read back) by `same_as_fpuzzles`; the other forms take the record as it is.
    for form in foreign().into_iter().filter(|&f| f != Format::Fpuzzles) {
        loaded(import::encode(&record, form));
    }
    same_as_fpuzzles(&record, &registry, &puzzle, &answers);
    let again = Reader {
        from: Some(Format::Record),
        ..reader
    };
    let back = again
        .load_text(&record.to_string())
        .unwrap_or_else(|e| panic!("the record written does not read back: {e}\n{record}"));
    assert_eq!(
        (back.kind(), back.givens(), back.rules().len()),
        (puzzle.kind(), puzzle.givens(), puzzle.rules().len()),
        "the record read back is another puzzle: {record}"
    );
    for grid in &answers {
        assert!(
            back.check_grid(grid).is_ok(),
            "the record read back refuses an answer: {record}"
        );
    }
}

/// Any bytes as a grammar file, up to the first zero byte, and the rest as a puzzle file: a grammar that loads
/// is added to the built-in ones (as `--grammars` does), and the puzzle is loaded through them, solved and
/// verified.
pub fn grammar(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let grammar_text = String::from_utf8_lossy(&data[..split]);
    let Some(grammar) = loaded(Grammar::parse("fuzz", &grammar_text)) else {
        return;
    };
    let mut registry = Registry::built_in();
    registry.add(grammar, "fuzz".into());
    let puzzle_text = String::from_utf8_lossy(data.get(split + 1..).unwrap_or_default());
    let reader = Reader {
        registry: &registry,
        max_bytes: DEFAULT_MAX_INPUT,
        from: None,
    };
    let Some(map) = loaded(reader.mapping(&puzzle_text)) else {
        return;
    };
    if let Some(puzzle) = loaded(load_mapping(&map, &registry)) {
        let answers = solve_and_verify(&puzzle);
        if let Some(record) = loaded(record_of(&map, &registry)) {
            same_as_fpuzzles(&record, &registry, &puzzle, &answers);
        }
    }
}

/// A puzzle that f-puzzles can say, written as a link and read back through the same grammars (which may give
/// it another type that says the same: killer-x as killer with diagonals), has the same givens and takes every
/// answer of the puzzle.
fn same_as_fpuzzles(record: &Json, registry: &Registry, puzzle: &Puzzle, answers: &[Grid]) {
    let written = in_form(record.clone(), registry, Format::Fpuzzles)
        .and_then(|r| import::encode(&r, Format::Fpuzzles));
    let Some(link) = loaded(written) else {
        return;
    };
    let reader = Reader {
        registry,
        max_bytes: DEFAULT_MAX_INPUT,
        from: Some(Format::Fpuzzles),
    };
    let back = reader
        .load_text(&link)
        .unwrap_or_else(|e| panic!("the f-puzzles link written does not read back: {e}\n{link}"));
    assert_eq!(
        back.givens(),
        puzzle.givens(),
        "the link read back has other givens: {link}"
    );
    for grid in answers {
        assert!(
            back.check_grid(grid).is_ok(),
            "the link read back refuses an answer: {link}"
        );
    }
}

/// What a reader gave, or `None` after checking that its error is one of bad input.
fn loaded<T>(result: Result<T, Error>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(e) => {
            assert!(e.is_bad_input(), "an error of the wrong kind: {e}");
            None
        }
    }
}

/// Solves with the small options and verifies every answer exactly; the answers.
fn solve_and_verify(puzzle: &Puzzle) -> Vec<Grid> {
    match crate::solve(puzzle, &options()) {
        Ok(outcome) => {
            for grid in &outcome.solutions {
                assert!(puzzle.check_grid(grid).is_ok(), "an unverified answer");
            }
            outcome.solutions
        }
        Err(e) => {
            assert!(e.is_bad_input(), "a solve error of the wrong kind: {e}");
            Vec::new()
        }
    }
}

/// Any bytes as a lines file: every puzzle line answered, in order. Where the first line is a puzzle that names
/// its type (an ID, a link, a record), every line is read as one, as `solve --lines` does; otherwise the lines
/// are 4x4 Sudokus, and where the first byte is odd the file is read as a table, the puzzle its first field and
/// the solution to compare its second.
pub fn lines(data: &[u8]) {
    let template = Puzzle::sudoku(4).expect("4x4 Sudoku");
    let registry = Registry::built_in();
    let reader = Reader {
        registry: &registry,
        max_bytes: DEFAULT_MAX_INPUT,
        from: None,
    };
    let first = String::from_utf8_lossy(data.split(|&b| b == b'\n').next().unwrap_or_default());
    let described = import::names_its_type(&first);
    let options = options();
    let run = LinesRun {
        lines: match described {
            true => Lines::Described(&reader),
            false => Lines::Grids {
                template: &template,
                columns: data.first().is_some_and(|b| b % 2 == 1).then_some(Columns {
                    separator: ',',
                    puzzle: 0,
                    solution: Some(1),
                    header: false,
                }),
            },
        },
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

/// Seed inputs for each fuzz target, from the project's own files under `root`: the puzzle files (`puzzles/`,
/// `tests/hostile/`) as they are, each example puzzle written in every foreign form that can say it (its form's
/// byte first), and each grammar file with the example puzzles of its type. `(target, input)` pairs; the
/// `fuzz-seeds` example writes them where cargo-fuzz looks.
pub fn seeds(root: &Path) -> Vec<(&'static str, Vec<u8>)> {
    let files = |dir: PathBuf| -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        paths.sort();
        paths
    };
    let read = |p: &Path| std::fs::read(p).unwrap_or_default();
    let mut out = Vec::new();
    for path in files(root.join("tests/hostile")) {
        out.push(("puzzle_file", read(&path)));
    }
    // Plain lines (an even first byte) and a table (an odd one: puzzle, then the solution to compare).
    out.push(("lines", b".2..34..........\n\xff\n\r\n#\n1234\n".to_vec()));
    out.push((
        "lines",
        b"1234341221434321,1234341221434321\n\"12..34,.\",x\n..........3.....,1234341221434312\n"
            .to_vec(),
    ));
    let registry = Registry::built_in();
    let reader = Reader {
        registry: &registry,
        max_bytes: DEFAULT_MAX_INPUT,
        from: None,
    };
    // Puzzles that name their type, one a line: the first 40 the examples are written as (IDs, links, records).
    let mut described = Vec::new();
    for dir in files(root.join("puzzles")) {
        let grammar = root
            .join("grammars")
            .join(dir.with_extension("yaml").file_name().unwrap_or_default());
        for path in files(dir) {
            let text = read(&path);
            out.push(("puzzle_file", text.clone()));
            out.extend(pictures(&String::from_utf8_lossy(&text), &registry));
            if grammar.is_file() {
                out.push(("grammar", [read(&grammar), vec![0], text.clone()].concat()));
            }
            let map = reader.mapping(&String::from_utf8_lossy(&text));
            let Ok(record) = map.and_then(|m| record_of(&m, &registry)) else {
                continue;
            };
            for (i, form) in foreign().into_iter().enumerate() {
                let written = in_form(record.clone(), &registry, form);
                if let Ok(written) = written.and_then(|r| import::encode(&r, form)) {
                    if form.names_its_type() && described.len() < 40 {
                        described.push(written.clone());
                    }
                    if let (Format::Tatham, Some((_, bare))) = (form, written.split_once(':')) {
                        // As the game's own dialog shows it, without the game: known by its shape.
                        out.push(("puzzle_file", bare.as_bytes().to_vec()));
                    }
                    out.push(("pasted", [vec![i as u8], written.into_bytes()].concat()));
                }
            }
        }
    }
    out.push(("lines", (described.join("\n") + "\n").into_bytes()));
    // SudokuPad's own links (its converter's drawings) and Penpa+'s (written by Penpa+ itself), pasted as such.
    for (form, table) in [
        (Format::Sudokupad, "tests/support/sudokupad/links.tsv"),
        (Format::Penpa, "tests/support/penpa/links.tsv"),
    ] {
        let index = foreign().iter().position(|&f| f == form).unwrap_or(0) as u8;
        let links = std::fs::read_to_string(root.join(table)).unwrap_or_default();
        for link in links.lines().filter_map(|l| l.split('\t').nth(2)) {
            out.push(("pasted", [vec![index], link.as_bytes().to_vec()].concat()));
        }
    }
    out
}

/// A puzzle's text pictures (box drawing and ASCII), as `show` prints them and users paste them back: as puzzle
/// files (found by their shape) and pasted as pictures.
fn pictures(text: &str, registry: &Registry) -> Vec<(&'static str, Vec<u8>)> {
    let Ok(puzzle) = load_str(text, registry) else {
        return Vec::new();
    };
    let form = foreign()
        .iter()
        .position(|&f| f == Format::Picture)
        .unwrap_or(0) as u8;
    let values = Values {
        givens: puzzle.givens(),
        solution: None,
    };
    let mut out = Vec::new();
    for ascii in [false, true] {
        let style = TextStyle {
            ascii,
            color: false,
        };
        let picture = text::render(puzzle.figure(), &values, style);
        out.push(("puzzle_file", picture.clone().into_bytes()));
        out.push(("pasted", [vec![form], picture.into_bytes()].concat()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a fuzz target's entry point by name.
    fn run(target: &str, data: &[u8]) {
        match target {
            "puzzle_file" => puzzle_file(data),
            "lines" => lines(data),
            "pasted" => pasted(data),
            "grammar" => grammar(data),
            _ => panic!("no fuzz target {target}"),
        }
    }

    /// Every fuzz target's entry point runs on its seed inputs (CI does not build the fuzz crate itself, which
    /// needs cargo-fuzz and a second build of CBC), and every form and every grammar is among them.
    #[test]
    fn the_fuzz_entry_points_run_on_their_seeds() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let seeds = seeds(root);
        for (target, data) in &seeds {
            run(target, data);
        }
        let count = |target: &str| seeds.iter().filter(|s| s.0 == target).count();
        let forms: std::collections::BTreeSet<u8> = seeds
            .iter()
            .filter(|s| s.0 == "pasted")
            .map(|s| s.1[0])
            .collect();
        assert_eq!(
            forms.len(),
            foreign().len(),
            "a form no example puzzle is written in"
        );
        for entry in std::fs::read_dir(root.join("grammars")).unwrap() {
            let text = std::fs::read(entry.unwrap().path()).unwrap();
            assert!(
                seeds
                    .iter()
                    .any(|s| s.0 == "grammar" && s.1.starts_with(&text) && s.1[text.len()] == 0),
                "a grammar with no seed: {}",
                String::from_utf8_lossy(&text)
            );
        }
        assert!(count("puzzle_file") > 40 && count("pasted") > 80 && count("lines") == 3);
        lines(&[b'0'; 100_000]);
        // A grammar that overrides a built-in type, with no puzzle after it; and no input at all.
        grammar(b"name: sudoku\ndescription: d\nrules: [latin]\n");
        pasted(&[]);
    }
}
