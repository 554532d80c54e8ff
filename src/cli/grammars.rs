//! `latin grammars`: the types, named rules and primitives.

use super::{print, Exit};
use crate::error::Error;
use crate::grammar::Registry;
use crate::report;

pub(crate) fn run(registry: &Registry) -> Result<Exit, Error> {
    print(&report::vocabulary::render(registry))?;
    Ok(Exit(0))
}
