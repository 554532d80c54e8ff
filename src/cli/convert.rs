//! `latin convert IN --to FORM`: a puzzle read in one form (a YAML file, a Tatham ID or link, ...) written in
//! another. The puzzle is loaded and checked on the way through, so what is written is a valid puzzle.

use std::path::Path;

use super::{print, Exit};
use crate::error::Error;
use crate::import::{self, Format};
use crate::model::load::{load_mapping, Reader};
use crate::model::record::record_for;
use crate::model::Puzzle;
use crate::report::picture::text::{self, TextStyle};
use crate::report::picture::Values;
use crate::yaml::{self, Value};

pub(crate) fn run(
    input: &Path,
    to: Format,
    output: Option<&Path>,
    reader: &Reader,
) -> Result<Exit, Error> {
    let (text, name) = reader.read(input)?;
    let in_file = |e: Error| match &name {
        Some(name) => e.in_file(name.clone()),
        None => e,
    };
    let map = reader.mapping(&text).map_err(in_file)?;
    let written = match to {
        Format::Yaml => {
            load_mapping(&map, reader.registry).map_err(in_file)?;
            yaml::to_string(&Value::Mapping(map)).map_err(|e| Error::section("--to yaml", e))?
        }
        Format::Picture => {
            picture(&load_mapping(&map, reader.registry).map_err(in_file)?).map_err(in_file)?
        }
        form => {
            let record = record_for(&map, reader.registry, form).map_err(in_file)?;
            import::encode(&record, form).map_err(in_file)? + "\n"
        }
    };
    match output {
        Some(path) => std::fs::write(path, written).map_err(|e| Error::io(path, &e))?,
        None => print(&written)?,
    }
    Ok(Exit(0))
}

/// The text picture `show` draws (its solution, if it has one, with the givens in brackets), when it reads back
/// as a picture: what else a picture shows (cage sums, signs, lines, edge clues) it cannot read, so a puzzle
/// drawn with them is refused with the reader's reason rather than written as a picture that would not load.
fn picture(puzzle: &Puzzle) -> Result<String, Error> {
    let values = Values {
        givens: puzzle.givens(),
        solution: puzzle.solution(),
    };
    let style = TextStyle {
        ascii: false,
        color: false,
    };
    let drawn = text::render(puzzle.figure(), &values, style);
    import::decode(&drawn, Format::Picture).map_err(|e| {
        Error::section(
            "--to picture",
            format!(
                "type {}: its picture would not read back ({e}); `latin show` draws it",
                puzzle.kind()
            ),
        )
    })?;
    Ok(drawn)
}
