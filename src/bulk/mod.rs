//! Bulk solving: one puzzle a line, as the big collections are published.
//!
//! A line is either one grid's givens for a template puzzle given once by type, box shape and rules
//! ([`grids`]: the Sudoku collections' 81-character lines, or a table's puzzle column), or a whole puzzle in a
//! one-line form that names its own type ([`described`]: a Tatham game ID, a puzz.link or f-puzzles link, a
//! corpus record), so that a file of several types is one run. Every puzzle is solved with the uniqueness
//! question asked, so that each answer line says whether it had one solution, several, or none; where a line
//! carries its own solution, the answer is compared with it ([`compare`]). Lines are read, solved on all cores,
//! and written in chunks: memory stays flat however long the file, and answers come out in input order.

mod compare;
mod described;
mod grids;

use std::io::Write;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Error;
use crate::grid::Grid;
use crate::model::load::Reader;
use crate::model::Puzzle;
use crate::parse::lines::{is_puzzle_line, RawLine};
use crate::parse::table::Columns;
use crate::report::lines::{LineAnswer, LineStatus, Summary};
use crate::solve::{Engines, SolveOptions, Status};

pub(crate) use grids::size_of_line;

/// Lines solved together: enough to keep every core busy, few enough to keep memory flat.
const CHUNK: usize = 1024;

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineFormat {
    Text,
    Json,
}

/// What every line of a run holds.
pub(crate) enum Lines<'a> {
    /// A grid's givens for the template puzzle; in a table (fields between separators), where the puzzle and
    /// its solution stand.
    Grids {
        template: &'a Puzzle,
        columns: Option<Columns>,
    },
    /// A whole puzzle that names its own type, read as `latin solve` reads one given as its argument.
    Described(&'a Reader<'a>),
}

/// What every line of a run is, and how long the run may take.
pub(crate) struct LinesRun<'a> {
    pub lines: Lines<'a>,
    pub format: LineFormat,
    pub options: &'a SolveOptions,
    /// At most this long for one line.
    pub line_limit: Option<Duration>,
    /// At most this long for the whole run: lines not started by then are answered `timeout`.
    pub total_limit: Option<Duration>,
}

/// Solves every line and writes one answer a line to `output`, in input order. `progress` is told how many lines
/// are done after each chunk. Blank lines and lines starting with `#` are skipped (they are not puzzles); every
/// other line gets an answer, lines that are too long or not UTF-8 included (`invalid`).
pub(crate) fn run(
    run: &LinesRun,
    lines: impl Iterator<Item = std::io::Result<(usize, RawLine)>>,
    mut output: impl Write,
    progress: &dyn Fn(usize),
) -> Result<Summary, Error> {
    let start = Instant::now();
    let mut summary = Summary::default();
    let mut lines = lines.filter(|l| match l {
        Ok((_, RawLine::Text(t))) => is_puzzle_line(t),
        _ => true,
    });
    let io = |e: std::io::Error| Error::io("<lines>", &e);
    loop {
        let chunk: Vec<(usize, RawLine)> = lines
            .by_ref()
            .take(CHUNK)
            .collect::<Result<_, _>>()
            .map_err(io)?;
        if chunk.is_empty() {
            break;
        }
        let left = run.total_limit.map(|t| t.saturating_sub(start.elapsed()));
        let options = SolveOptions {
            max_solutions: 2,
            time_limit: match (run.line_limit, left) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            ..run.options.clone()
        };
        // A template's engines depend on its rules only: built once per worker's share of the chunk.
        let answers: Vec<LineAnswer> = chunk
            .par_iter()
            .map_init(
                || None,
                |engines, (i, line)| match line {
                    _ if left.is_some_and(|l| l.is_zero()) => timed_out(*i),
                    RawLine::Text(text) => solve_line(&run.lines, engines, *i, text, &options),
                    other => invalid(*i, other.problem().unwrap_or_default()),
                },
            )
            .collect();
        for a in &answers {
            summary.add(a);
            match run.format {
                LineFormat::Text => writeln!(output, "{}", a.to_text()),
                LineFormat::Json => writeln!(
                    output,
                    "{}",
                    serde_json::to_string(a).expect("answers serialise")
                ),
            }
            .map_err(io)?;
        }
        output.flush().map_err(io)?;
        progress(summary.puzzles);
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// One line's answer, by what the run's lines hold; `engines` are the worker's for the template, built at its
/// first grid line.
fn solve_line<'a>(
    lines: &Lines<'a>,
    engines: &mut Option<Engines<'a>>,
    line: usize,
    text: &str,
    options: &SolveOptions,
) -> LineAnswer {
    match lines {
        Lines::Grids { template, columns } => {
            let engines = engines.get_or_insert_with(|| Engines::new(template));
            grids::solve_line(
                template,
                engines,
                line,
                text.trim(),
                columns.as_ref(),
                options,
            )
        }
        Lines::Described(reader) => described::solve_line(reader, line, text.trim(), options),
    }
}

/// Solves one puzzle (through `engines` built for its rules, when there are some) as a line's answer.
fn solve_puzzle(
    puzzle: &Puzzle,
    engines: Option<&Engines>,
    line: usize,
    options: &SolveOptions,
) -> LineAnswer {
    let outcome = match engines {
        Some(engines) => crate::solve_with(puzzle, options, engines),
        None => crate::solve(puzzle, options),
    };
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => return invalid(line, e.to_string()),
    };
    let status = match (outcome.status, outcome.solutions.len()) {
        (_, 0) if outcome.status == Status::Timeout => LineStatus::Timeout,
        (_, 0) => LineStatus::Infeasible,
        (_, 1) if outcome.complete => LineStatus::Solved,
        (_, 1) => LineStatus::Timeout,
        _ => LineStatus::Multiple,
    };
    LineAnswer {
        decided_by: Some(outcome.stats.decided_by()),
        ..answer(line, status, outcome.solutions.first(), None)
    }
}

/// An answer, before its time and what decided it are known.
fn answer(
    line: usize,
    status: LineStatus,
    solution: Option<&Grid>,
    message: Option<String>,
) -> LineAnswer {
    LineAnswer {
        line,
        id: None,
        status,
        solution: solution.map(solution_line),
        message,
        ms: 0.0,
        decided_by: None,
        matches_solution: None,
    }
}

/// A solution on one line: the no-space form up to 35x35 (`1`-`9`, then `A`-`Z`), and past that, where one
/// character per value runs out, the values separated by spaces, row by row.
fn solution_line(grid: &Grid) -> String {
    if grid.size() <= 35 {
        return grid.to_line();
    }
    let values: Vec<String> = grid.cells().map(|c| grid.get(c).to_string()).collect();
    values.join(" ")
}

/// The answer for a line the run had no time left for.
fn timed_out(line: usize) -> LineAnswer {
    let why = "the run's time limit was reached before this line";
    answer(line, LineStatus::Timeout, None, Some(why.into()))
}

/// The answer for a line that cannot be a puzzle.
fn invalid(line: usize, message: String) -> LineAnswer {
    answer(line, LineStatus::Invalid, None, Some(message))
}

#[cfg(test)]
mod tests {
    use super::compare::{compare, fits};
    use super::grids::parse_line;
    use super::*;
    use crate::parse::lines::LineReader;

    fn lines_run<'a>(
        template: &'a Puzzle,
        format: LineFormat,
        options: &'a SolveOptions,
    ) -> LinesRun<'a> {
        LinesRun {
            lines: Lines::Grids {
                template,
                columns: None,
            },
            format,
            options,
            line_limit: None,
            total_limit: None,
        }
    }

    #[test]
    fn bad_bytes_are_one_invalid_answer_and_a_spent_run_answers_timeout() {
        let template = Puzzle::sudoku(4).unwrap();
        let options = SolveOptions::default();
        let input = b"12..34..........\n\xff\xfe\n12..34..........\n".as_slice();
        let mut out = Vec::new();
        let mut spec = lines_run(&template, LineFormat::Text, &options);
        let summary = run(&spec, LineReader::new(input), &mut out, &|_| {}).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[1].starts_with("invalid not UTF-8"), "{}", lines[1]);
        assert_eq!((summary.invalid, summary.multiple), (1, 2));
        spec.total_limit = Some(Duration::ZERO);
        let summary = run(&spec, LineReader::new(input), Vec::new(), &|_| {}).unwrap();
        assert_eq!(summary.timeout, 3);
    }

    #[test]
    fn a_tables_solution_is_judged_against_the_answer_and_the_rules() {
        let template = Puzzle::sudoku(4).unwrap();
        let grid = |line: &str| parse_line(line, 4).unwrap();
        let (one, other) = ("1234341221434321", "2143341212344321");
        let answer = |status, solution: &str| LineAnswer {
            line: 1,
            id: None,
            status,
            solution: Some(solution.to_owned()),
            message: None,
            ms: 0.0,
            decided_by: None,
            matches_solution: None,
        };
        let judged = |status, expected: &str| {
            let mut a = answer(status, one);
            compare(&mut a, &grid(expected), || fits(&template, &grid(expected)));
            (a.matches_solution, a.message.unwrap_or_default())
        };
        assert_eq!(judged(LineStatus::Solved, one), (Some(true), String::new()));
        assert_eq!(
            judged(LineStatus::Multiple, other),
            (Some(true), String::new())
        );
        let broken = "1234341221434312";
        for status in [
            LineStatus::Solved,
            LineStatus::Multiple,
            LineStatus::Infeasible,
        ] {
            let (matches, why) = judged(status, broken);
            assert_eq!(matches, Some(false));
            assert!(why.starts_with("the file's solution is wrong: "), "{why}");
        }
        // A grid that fits every rule beside a unique answer, or beside none, is latin's error, said so.
        for status in [LineStatus::Solved, LineStatus::Infeasible] {
            let (matches, why) = judged(status, other);
            assert_eq!(matches, Some(false));
            assert!(why.ends_with("please report this"), "{why}");
        }
        assert_eq!(judged(LineStatus::Timeout, broken).0, None);
        let mut infeasible = answer(LineStatus::Infeasible, one);
        infeasible.message = Some("row 1 repeats 1".into());
        compare(&mut infeasible, &grid(broken), || {
            fits(&template, &grid(broken))
        });
        let why = infeasible.message.unwrap();
        assert!(
            why.starts_with("row 1 repeats 1; the file's solution is wrong: "),
            "{why}"
        );
    }

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn every_line_gets_an_answer_in_order() {
        let template = Puzzle::sudoku(9).unwrap();
        let broken = EASY.replacen('.', "5", 1); // a second 5 in row 1
        let input = format!("{EASY}\n# comment\n\n{}\n123\n{broken}\n", ".".repeat(81));
        let mut out = Vec::new();
        let summary = run(
            &lines_run(&template, LineFormat::Text, &SolveOptions::default()),
            LineReader::new(input.as_bytes()),
            &mut out,
            &|_| {},
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
        assert!(lines[1].starts_with("multiple "), "{}", lines[1]);
        assert!(lines[2].starts_with("invalid 3 characters"), "{}", lines[2]);
        assert!(lines[3].starts_with("infeasible "), "{}", lines[3]);
        assert_eq!(
            (
                summary.puzzles,
                summary.solved,
                summary.multiple,
                summary.invalid,
                summary.infeasible
            ),
            (4, 1, 1, 1, 1)
        );
    }

    #[test]
    fn json_lines_carry_line_numbers() {
        let mut out = Vec::new();
        let template = Puzzle::sudoku(4).unwrap();
        run(
            &lines_run(&template, LineFormat::Json, &SolveOptions::default()),
            LineReader::new(b"12..34..........\n".as_slice()),
            &mut out,
            &|_| {},
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["line"], 1);
        assert_eq!(v["status"], "multiple");
    }
}

#[cfg(test)]
mod generated {
    use super::grids::parse_line;
    use super::*;
    use crate::parse::lines::LineReader;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

        /// Any bytes at all: one answer per line that is not blank or a comment, in order, and no panic.
        #[test]
        fn any_bytes_get_one_answer_per_puzzle_line(
            bytes in proptest::collection::vec(
                prop_oneof![
                    Just(b'\n'), Just(b'\r'), Just(b'.'), Just(b'#'), Just(b' '), Just(0xff),
                    b'0'..=b'9', b'A'..=b'Z', any::<u8>()
                ],
                0..200,
            )
        ) {
            let template = Puzzle::sudoku(4).unwrap();
            let options = SolveOptions::default();
            let run_spec = LinesRun {
                lines: Lines::Grids { template: &template, columns: None },
                format: LineFormat::Json,
                options: &options,
                line_limit: Some(Duration::from_millis(200)),
                total_limit: None,
            };
            let expected = LineReader::new(bytes.as_slice())
                .map(Result::unwrap)
                .filter(|(_, l)| !matches!(l, RawLine::Text(t) if !is_puzzle_line(t)))
                .count();
            let mut out = Vec::new();
            let summary = run(&run_spec, LineReader::new(bytes.as_slice()), &mut out, &|_| {}).unwrap();
            prop_assert_eq!(summary.puzzles, expected);
            let text = String::from_utf8(out).unwrap();
            let mut previous = 0;
            for line in text.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let number = v["line"].as_u64().unwrap();
                prop_assert!(number > previous);
                previous = number;
                // An answer grid keeps every rule of the type (the givens are the line's own).
                if let Some(s) = v["solution"].as_str() {
                    let grid = parse_line(s, 4).unwrap();
                    prop_assert!(template.check_grid(&grid).is_ok(), "{}", s);
                }
            }
        }
    }
}
