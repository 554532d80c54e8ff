//! `latin grammars`: the puzzle types a run knows, the named rules and the primitives, one line each.

use std::fmt::Write as _;

use crate::grammar::vocabulary::{NAMED_RULES, PRIMITIVES};
use crate::grammar::Registry;

/// The listing.
pub(crate) fn render(registry: &Registry) -> String {
    let mut out = String::from("Puzzle types:\n");
    for g in registry.iter() {
        let _ = writeln!(out, "  {:<14} {}", g.name, g.description);
    }
    out.push_str("\nRules any puzzle may add with `rules:`:\n");
    for (name, what) in NAMED_RULES {
        let _ = writeln!(out, "  {name:<16} {what}");
    }
    out.push_str("\nPrimitives a grammar may use:\n");
    for p in PRIMITIVES {
        let _ = writeln!(out, "  {:<12} {}", p.name, p.description);
    }
    out
}
