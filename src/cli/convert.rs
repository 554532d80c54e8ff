//! `latin convert IN --to FORM`: a puzzle read in one form (a YAML file, a Tatham ID or link, ...) written in
//! another. The puzzle is loaded and checked on the way through, so what is written is a valid puzzle.

use std::path::Path;

use super::{print, Exit};
use crate::error::Error;
use crate::import::{self, Format};
use crate::model::load::{load_mapping, Reader};
use crate::model::record::record_for;
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
        form => {
            let record = record_for(&map, reader.registry, form).map_err(in_file)?;
            import::encode(&record, form)? + "\n"
        }
    };
    match output {
        Some(path) => std::fs::write(path, written).map_err(|e| Error::io(path, &e))?,
        None => print(&written)?,
    }
    Ok(Exit(0))
}
