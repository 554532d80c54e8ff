//! `latin grammars`: the types, named rules and primitives; `latin grammars TYPE`: that type's grammar file.

use super::{print, Exit};
use crate::error::Error;
use crate::grammar::compose::JOIN;
use crate::grammar::Registry;
use crate::report;

pub(crate) fn run(registry: &Registry, kind: Option<&str>) -> Result<Exit, Error> {
    match kind {
        None => print(&report::vocabulary::render(registry))?,
        Some(kind) => {
            let grammar = registry.get(kind)?;
            let origin = match registry.origin(kind) {
                Some(origin) => origin.to_owned(),
                None => format!("made of {}", kind.replace(JOIN, " and ")),
            };
            print(&report::vocabulary::grammar_file(&grammar, &origin))?;
        }
    }
    Ok(Exit(0))
}
