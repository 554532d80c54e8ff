//! `latin grammars`: the puzzle types a run knows, the named rules and the primitives, one line each.

use std::fmt::Write as _;

use crate::grammar::vocabulary::{NAMED_RULES, PRIMITIVES};
use crate::grammar::{Grammar, Registry};

/// The listing, each name padded to the longest of all (type names are a grammar author's to choose).
pub(crate) fn render(registry: &Registry) -> String {
    let w = registry
        .iter()
        .map(|g| g.name.len())
        .chain(NAMED_RULES.iter().map(|(name, _)| name.len()))
        .chain(PRIMITIVES.iter().map(|p| p.name.len()))
        .max()
        .unwrap_or(0);
    let mut out = String::from("Puzzle types:\n");
    for g in registry.iter() {
        let line = format!("  {:<w$} {}", g.name, g.description);
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push_str(
        "  (types join with +: killer+thermo has the sections and rules of both, boxes when both have them)\n",
    );
    for (name, before, now) in registry.overrides() {
        let _ = writeln!(
            out,
            "  {name:<w$} from {now}, overriding the one {}",
            match before.as_str() {
                "built in" => "built in".to_owned(),
                other => format!("from {other}"),
            }
        );
    }
    if !registry.broken().is_empty() {
        out.push_str("\nGrammar files that did not load (their types are unavailable):\n");
        for b in registry.broken() {
            let _ = writeln!(out, "  {}", b.error);
        }
    }
    out.push_str("\nRules any puzzle may add with `rules:`:\n");
    for (name, what) in NAMED_RULES {
        let _ = writeln!(out, "  {name:<w$} {what}");
    }
    out.push_str("\nPrimitives a grammar may use:\n");
    for p in PRIMITIVES {
        let _ = writeln!(out, "  {:<w$} {}", p.name, p.description);
    }
    out
}

/// One grammar's file as it was read, under a comment saying where it came from.
pub(crate) fn grammar_file(grammar: &Grammar, origin: &str) -> String {
    let mut out = format!("# {}: {origin}\n", grammar.name);
    out.push_str(&grammar.text);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
