//! Bulk solving: one puzzle a line, as the big Sudoku collections are published.
//!
//! A line is the grid row by row in the no-space form (`.` or `0` empty, `1`-`9`, then `A`-`Z` or `a`-`z` for
//! 10..35, and `0` the value n on a line of 10x10 or more that also has `.`, as hex Sudokus are written); its
//! length fixes the size (81 -> 9x9, 256 -> 16x16). Every line becomes a copy of one template puzzle (the type,
//! box shape and rules given once) with the line's givens, and is solved with the uniqueness question asked, so
//! that each answer line says whether the puzzle had one solution, several, or none. Lines are read, solved on
//! all cores, and written in chunks: memory stays flat however long the file, and answers come out in input
//! order.

use std::borrow::Cow;
use std::io::Write;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Error;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;
use crate::parse::grid::{line_values, side_of};
use crate::parse::lines::RawLine;
use crate::parse::table::Columns;
use crate::report::lines::{LineAnswer, LineStatus, Summary};
use crate::solve::{Engines, SolveOptions, Status};

/// Lines solved together: enough to keep every core busy, few enough to keep memory flat.
const CHUNK: usize = 1024;

/// Reads one line into givens for a size-n grid; `Err` says which column is wrong.
pub(crate) fn parse_line(text: &str, n: usize) -> Result<Grid, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != n * n {
        return Err(format!(
            "{} characters, expected {} for a {n}x{n} grid",
            chars.len(),
            n * n
        ));
    }
    let values = line_values(&chars, n)
        .map_err(|(i, ch)| format!("column {}: {ch:?} is not a value 1..{n}", i + 1))?;
    let mut grid = Grid::empty(n);
    for (i, v) in values.into_iter().enumerate() {
        grid.set(Cell::new(i / n, i % n), v);
    }
    Ok(grid)
}

/// Whether a line holds a puzzle: blank lines and `#` comments do not.
pub(crate) fn is_puzzle_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The size a line's length implies (its square root), if it is a square.
pub(crate) fn size_of_line(text: &str) -> Option<usize> {
    side_of(text.trim().chars().count()).filter(|&n| n > 0)
}

/// Solves one line against the template puzzle, through `engines` built for the template's rules; in a table,
/// the line's puzzle field, and its answer compared with the line's solution field where there is one.
pub(crate) fn solve_line(
    template: &Puzzle,
    engines: &Engines,
    line: usize,
    text: &str,
    columns: Option<&Columns>,
    options: &SolveOptions,
) -> LineAnswer {
    let start = Instant::now();
    let (puzzle_text, expected) = match read_row(text, columns, template.size()) {
        Ok(row) => row,
        Err(m) => return invalid(line, m),
    };
    let mut answer = solve_givens(template, engines, line, &puzzle_text, options);
    if let Some(expected) = expected {
        compare(&mut answer, template, &puzzle_text, &expected);
    }
    answer.ms = start.elapsed().as_secs_f64() * 1000.0;
    answer
}

/// A line's puzzle text and, in a table with a solution column the line fills, that solution as a grid.
/// (A plain line is its own puzzle text, borrowed: no copy per line of a large file.)
fn read_row<'t>(
    text: &'t str,
    columns: Option<&Columns>,
    n: usize,
) -> Result<(Cow<'t, str>, Option<Grid>), String> {
    let Some(columns) = columns else {
        return Ok((Cow::Borrowed(text), None));
    };
    let row = columns.row(text)?;
    let expected = match &row.solution {
        None => None,
        Some(s) => {
            let grid = parse_line(s, n).map_err(|m| format!("the solution field: {m}"))?;
            if let Some(cell) = grid.cells().find(|&c| grid.get(c) == 0) {
                return Err(format!(
                    "the solution field is not a full grid ({cell} is empty)"
                ));
            }
            Some(grid)
        }
    };
    Ok((Cow::Owned(row.puzzle), expected))
}

/// Whether the line's own solution is the answer: equal to the unique solution, or one of several that fits
/// every rule and given (checked exactly). Where it is not, the message says what is wrong with it.
fn compare(answer: &mut LineAnswer, template: &Puzzle, puzzle_text: &str, expected: &Grid) {
    let fits = || -> Result<(), String> {
        let mut puzzle = template.clone();
        let givens = parse_line(puzzle_text, template.size())?;
        puzzle.give_all(&givens).map_err(|e| e.to_string())?;
        puzzle.check_grid(expected).map_err(|problems| {
            problems
                .first()
                .map(ToString::to_string)
                .unwrap_or_default()
        })
    };
    let wrong = |why: String| format!("the file's solution is wrong: {why}");
    // The file's solution fits where latin proved another unique, or found none: a solver bug, said as such.
    let bug = |what: &str| {
        format!("the file's solution fits every rule, though latin {what}: please report this")
    };
    let verdict = match answer.status {
        LineStatus::Solved if answer.solution.as_deref() == Some(&expected.to_line()) => Ok(()),
        LineStatus::Solved => Err(fits().map_or_else(wrong, |()| bug("proved its own unique"))),
        LineStatus::Multiple => fits().map_err(wrong),
        LineStatus::Infeasible => Err(fits().map_or_else(wrong, |()| bug("found no solution"))),
        LineStatus::Timeout | LineStatus::Invalid => return,
    };
    answer.matches_solution = Some(verdict.is_ok());
    if let Err(why) = verdict {
        // After the line's own reason (why it has no solution), not in its place.
        answer.message = Some(match answer.message.take() {
            Some(reason) => format!("{reason}; {why}"),
            None => why,
        });
    }
}

/// Solves one puzzle line's givens.
fn solve_givens(
    template: &Puzzle,
    engines: &Engines,
    line: usize,
    text: &str,
    options: &SolveOptions,
) -> LineAnswer {
    let answer =
        |status, solution: Option<&Grid>, message: Option<String>, decided_by| LineAnswer {
            line,
            status,
            solution: solution.map(Grid::to_line),
            message,
            ms: 0.0,
            decided_by,
            matches_solution: None,
        };
    let givens = match parse_line(text, template.size()) {
        Ok(g) => g,
        Err(m) => return answer(LineStatus::Invalid, None, Some(m), None),
    };
    let mut puzzle = template.clone();
    if let Err(e) = puzzle.give_all(&givens) {
        // Givens that break a rule make the line infeasible; say which rule, as the model words it.
        let message = match e {
            Error::Model(m) => m.to_string(),
            e => e.to_string(),
        };
        return answer(LineStatus::Infeasible, None, Some(message), None);
    }
    let outcome = match crate::solve_with(&puzzle, options, engines) {
        Ok(o) => o,
        Err(e) => return answer(LineStatus::Invalid, None, Some(e.to_string()), None),
    };
    let decided_by = Some(outcome.stats.decided_by());
    let status = match (outcome.status, outcome.solutions.len()) {
        (_, 0) if outcome.status == Status::Timeout => LineStatus::Timeout,
        (_, 0) => LineStatus::Infeasible,
        (_, 1) if outcome.complete => LineStatus::Solved,
        (_, 1) => LineStatus::Timeout,
        _ => LineStatus::Multiple,
    };
    answer(status, outcome.solutions.first(), None, decided_by)
}

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineFormat {
    Text,
    Json,
}

/// What every line of a run is, and how long the run may take.
pub(crate) struct LinesRun<'a> {
    pub template: &'a Puzzle,
    pub format: LineFormat,
    pub options: &'a SolveOptions,
    /// At most this long for one line.
    pub line_limit: Option<Duration>,
    /// At most this long for the whole run: lines not started by then are answered `timeout`.
    pub total_limit: Option<Duration>,
    /// Where the puzzle and its solution stand when the file is a table (comma-separated fields).
    pub columns: Option<Columns>,
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
        // The engines depend on the template's rules only: built once per worker's share of the chunk.
        let answers: Vec<LineAnswer> = chunk
            .par_iter()
            .map_init(
                || Engines::new(run.template),
                |engines, (i, line)| match line {
                    _ if left.is_some_and(|l| l.is_zero()) => timed_out(*i),
                    RawLine::Text(text) => solve_line(
                        run.template,
                        engines,
                        *i,
                        text.trim(),
                        run.columns.as_ref(),
                        &options,
                    ),
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

/// The answer for a line the run had no time left for.
fn timed_out(line: usize) -> LineAnswer {
    LineAnswer {
        line,
        status: LineStatus::Timeout,
        solution: None,
        message: Some("the run's time limit was reached before this line".into()),
        ms: 0.0,
        decided_by: None,
        matches_solution: None,
    }
}

/// The answer for a line that cannot be a puzzle.
fn invalid(line: usize, message: String) -> LineAnswer {
    LineAnswer {
        line,
        status: LineStatus::Invalid,
        solution: None,
        message: Some(message),
        ms: 0.0,
        decided_by: None,
        matches_solution: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::lines::LineReader;

    fn lines_run<'a>(
        template: &'a Puzzle,
        format: LineFormat,
        options: &'a SolveOptions,
    ) -> LinesRun<'a> {
        LinesRun {
            template,
            format,
            options,
            line_limit: None,
            total_limit: None,
            columns: None,
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
            status,
            solution: Some(solution.to_owned()),
            message: None,
            ms: 0.0,
            decided_by: None,
            matches_solution: None,
        };
        let judged = |status, expected: &str| {
            let mut a = answer(status, one);
            compare(&mut a, &template, "................", &grid(expected));
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
        compare(
            &mut infeasible,
            &template,
            "................",
            &grid(broken),
        );
        let why = infeasible.message.unwrap();
        assert!(
            why.starts_with("row 1 repeats 1; the file's solution is wrong: "),
            "{why}"
        );
    }

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn lines_read_with_their_size() {
        assert_eq!(size_of_line(EASY), Some(9));
        assert_eq!(size_of_line("1234"), Some(2));
        assert_eq!(size_of_line("123"), None);
        let g = parse_line(EASY, 9).unwrap();
        assert_eq!(g.get(Cell::new(0, 0)), 5);
        assert_eq!(g.get(Cell::new(0, 2)), 0);
        let e = parse_line(&EASY.replace('7', "x"), 9).unwrap_err();
        assert!(e.starts_with("column 5:"), "{e}");
        assert!(parse_line("A.......", 3).is_err());
    }

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
                template: &template,
                format: LineFormat::Json,
                options: &options,
                line_limit: Some(Duration::from_millis(200)),
                total_limit: None,
                columns: None,
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
