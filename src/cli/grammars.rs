//! `latin grammars`: the types, named rules and primitives; `latin grammars TYPE`: that type's grammar file.

use super::{print, Exit};
use crate::error::Error;
use crate::grammar::Registry;
use crate::report;

pub(crate) fn run(registry: &Registry, kind: Option<&str>) -> Result<Exit, Error> {
    match kind {
        None => print(&report::vocabulary::render(registry))?,
        Some(kind) => {
            let grammar = registry.get(kind)?;
            let origin = registry.origin(kind).unwrap_or_default();
            print(&report::vocabulary::grammar_file(grammar, origin))?;
        }
    }
    Ok(Exit(0))
}
