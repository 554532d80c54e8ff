//! `latin solve --lines FILE`: one puzzle a line in, one answer a line out, a summary on stderr.

use std::io::{BufRead, BufReader, IsTerminal};
use std::path::Path;
use std::time::Duration;

use super::{progress_bar, Exit, Format};
use crate::bulk;
use crate::error::Error;
use crate::import;
use crate::model::{self, load::Reader, Puzzle};
use crate::parse::lines::{is_puzzle_line, LineReader, RawLine};
use crate::parse::table::Columns;
use crate::solve::SolveOptions;

/// What every line of a --lines file of givens is (lines that are whole puzzles say it themselves).
pub(crate) struct LinesSpec {
    /// `--type`; Sudoku when not given.
    pub(crate) kind: Option<String>,
    pub(crate) boxes: Option<String>,
    pub(crate) rules: Vec<String>,
}

impl LinesSpec {
    /// The flags that say what a line of givens is, refused for lines that say it themselves.
    fn refuse_for_described(&self) -> Result<(), Error> {
        let given = [
            ("--type", self.kind.is_some()),
            ("--box", self.boxes.is_some()),
            ("--rules", !self.rules.is_empty()),
        ];
        match given.iter().find(|(_, g)| *g) {
            Some((flag, _)) => Err(Error::section(
                *flag,
                "goes with lines of givens; these lines are whole puzzles (game IDs, links or records) \
                 that name their own type, box and rules",
            )),
            None => Ok(()),
        }
    }
}

/// `latin solve --lines`: lines of givens for one template puzzle, built through the type's grammar as a
/// puzzle file would be (so a bad --type, --box or rule is reported like a bad file), or, where the first
/// puzzle line is a whole puzzle in a form that names its type, every line read as such a puzzle.
/// `options.time_limit` is the whole run's; `line_limit` one line's. Exit 2 when a line was invalid, 3 when one
/// ran out of time, 1 when a line's own solution was not the answer (after every line is answered), else 0.
pub(crate) fn run(
    path: &Path,
    spec: &LinesSpec,
    format: Format,
    options: &SolveOptions,
    line_limit: Option<Duration>,
    reader: &Reader,
) -> Result<Exit, Error> {
    let mut lines = LineReader::new(open(path)?);
    let (mut number, mut head) = first_puzzle_line(&mut lines, path)?;
    let described = reader.from.map_or_else(
        || import::names_its_type(&head),
        import::Format::names_its_type,
    );
    let template: Puzzle;
    let mut header = false;
    let kind = if described {
        spec.refuse_for_described()?;
        bulk::Lines::Described(reader)
    } else {
        let columns = Columns::of_first_line(&head)
            .map_err(|m| Error::section("--lines", format!("line {number}: {m}")))?;
        // A table's header names the columns: a line but not a puzzle; the size comes from the first line
        // under it.
        header = columns.as_ref().is_some_and(|c| c.header);
        if header {
            (number, head) = first_puzzle_line(&mut lines, path)?;
        }
        template = template_of(spec, first_size(number, &head, columns.as_ref())?, reader)?;
        bulk::Lines::Grids {
            template: &template,
            columns,
        }
    };
    let bar = progress_bar(bar_length(path)?.saturating_sub(usize::from(header)));
    let lines_run = bulk::LinesRun {
        lines: kind,
        format: match format {
            Format::Text => bulk::LineFormat::Text,
            Format::Json => bulk::LineFormat::Json,
        },
        options,
        line_limit,
        total_limit: options.time_limit,
    };
    // The first puzzle line, read to see what the lines are, goes back in front of the rest.
    let all = std::iter::once(Ok((number, RawLine::Text(head)))).chain(lines);
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let summary = bulk::run(&lines_run, all, stdout, &|done| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    eprintln!(
        "{}: {}",
        path.display(),
        summary.text(rayon::current_num_threads())
    );
    Ok(Exit(if summary.invalid > 0 {
        2
    } else if summary.timeout > 0 {
        3
    } else if summary.differs > 0 {
        1
    } else {
        0
    }))
}

/// The puzzle every line of givens fills: the spec's type (Sudoku by default) at the first line's size.
fn template_of(spec: &LinesSpec, n: usize, reader: &Reader) -> Result<Puzzle, Error> {
    model::load::template(
        spec.kind.as_deref().unwrap_or("sudoku"),
        n,
        spec.boxes.as_deref(),
        &spec.rules,
        reader.registry,
        "--lines",
    )
}

/// The grid size the first puzzle line fixes: its length, or in a table its puzzle field's.
fn first_size(number: usize, head: &str, columns: Option<&Columns>) -> Result<usize, Error> {
    let error = |m: String| {
        Error::section(
            "--lines",
            format!("line {number}, the first puzzle line, {m}"),
        )
    };
    let puzzle = match columns {
        Some(c) => c.row(head).map_err(error)?.puzzle,
        None => head.to_owned(),
    };
    bulk::size_of_line(&puzzle).ok_or_else(|| {
        error(format!(
            "has {} characters{}, not a square number",
            puzzle.trim().chars().count(),
            if columns.is_some() {
                " in its puzzle field"
            } else {
                ""
            }
        ))
    })
}

/// The lines file, or standard input for `-`.
fn open(path: &Path) -> Result<Box<dyn BufRead>, Error> {
    Ok(if path == Path::new("-") {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
        Box::new(BufReader::new(f))
    })
}

/// The first line that holds a puzzle (its length fixes the size), with its number.
fn first_puzzle_line(
    lines: &mut LineReader<Box<dyn BufRead>>,
    path: &Path,
) -> Result<(usize, String), Error> {
    for line in lines {
        match line.map_err(|e| Error::io(path, &e))? {
            (number, RawLine::Text(text)) if is_puzzle_line(&text) => return Ok((number, text)),
            (_, RawLine::Text(_)) => {}
            (number, other) => {
                return Err(Error::section(
                    "--lines",
                    format!(
                        "line {number}, the first puzzle line: {}",
                        other.problem().unwrap_or_default()
                    ),
                ))
            }
        }
    }
    Err(Error::section("--lines", "the file holds no puzzle lines"))
}

/// The number of puzzle lines, for the progress bar: a second pass over the file, so only when a bar is drawn,
/// and never for standard input.
fn bar_length(path: &Path) -> Result<usize, Error> {
    if path == Path::new("-") || !std::io::stderr().is_terminal() {
        return Ok(0);
    }
    Ok(LineReader::new(open(path)?)
        .map_while(Result::ok)
        .filter(|(_, l)| matches!(l, RawLine::Text(t) if is_puzzle_line(t)))
        .count())
}
