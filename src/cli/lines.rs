//! `latin solve --lines FILE`: one puzzle a line in, one answer a line out, a summary on stderr.

use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::path::Path;

use super::{progress_bar, Exit, Format};
use crate::bulk;
use crate::error::Error;
use crate::grammar::Registry;
use crate::model;
use crate::solve::SolveOptions;

/// What every line of a --lines file is.
pub(crate) struct LinesSpec {
    pub(crate) kind: String,
    pub(crate) boxes: Option<String>,
    pub(crate) rules: Vec<String>,
}

/// `latin solve --lines`: the template puzzle is built through the type's grammar, as a puzzle file would be,
/// so a bad --type, --box or rule is reported like a bad file.
pub(crate) fn run(
    path: &Path,
    spec: &LinesSpec,
    format: Format,
    options: &SolveOptions,
    registry: &Registry,
) -> Result<Exit, Error> {
    let mut input = open(path)?;
    let head = first_puzzle_line(input.as_mut())?;
    let n = bulk::size_of_line(&head).ok_or_else(|| {
        Error::section(
            "--lines",
            format!(
                "the first puzzle line has {} characters, not a square number",
                head.trim().chars().count()
            ),
        )
    })?;
    let template =
        model::load::template(&spec.kind, n, spec.boxes.as_deref(), &spec.rules, registry)?;
    let bar = progress_bar(bar_length(path)?);
    let stdout = std::io::stdout().lock();
    let format = match format {
        Format::Text => bulk::LineFormat::Text,
        Format::Json => bulk::LineFormat::Json,
    };
    // The first puzzle line, read to fix the size, goes back in front of the rest.
    let input = std::io::Cursor::new(head.into_bytes()).chain(input);
    let summary = bulk::run(
        &template,
        BufReader::new(input),
        std::io::BufWriter::new(stdout),
        format,
        options,
        &|done| bar.set_position(done as u64),
    )?;
    bar.finish_and_clear();
    eprintln!("{}", summary.text(rayon::current_num_threads()));
    Ok(Exit(0))
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

/// The first line that holds a puzzle (its length fixes the size).
fn first_puzzle_line(input: &mut dyn BufRead) -> Result<String, Error> {
    let mut head = String::new();
    loop {
        head.clear();
        let read = input
            .read_line(&mut head)
            .map_err(|e| Error::io("--lines", &e))?;
        if read == 0 {
            return Err(Error::section("--lines", "the file holds no puzzle lines"));
        }
        if bulk::is_puzzle_line(&head) {
            return Ok(head);
        }
    }
}

/// The number of puzzle lines, for the progress bar: a second pass over the file, so only when a bar is drawn,
/// and never for standard input.
fn bar_length(path: &Path) -> Result<usize, Error> {
    if path == Path::new("-") || !std::io::stderr().is_terminal() {
        return Ok(0);
    }
    Ok(open(path)?
        .lines()
        .map_while(Result::ok)
        .filter(|l| bulk::is_puzzle_line(l))
        .count())
}
