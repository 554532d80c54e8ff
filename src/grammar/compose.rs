//! Types made of types: `killer+thermo` is Killer Sudoku with thermometers, with no grammar file written.
//!
//! Setters mix constraint families freely, and a pasted f-puzzles link says only which families its puzzle
//! has. A type name that joins loaded types with `+` names the grammar holding every part's sections and rules,
//! so a mix needs no file of its own: in a puzzle file (`type: killer+thermo`), and as the type a link of
//! cages and thermometers takes. The composition is itself a grammar text, parsed and checked like a file, and
//! `latin grammars killer+thermo` prints it as a start for one's own.
//!
//! What the parts' rules become: each primitive use, bound to its part's sections; `boxes` when every part has
//! it (a jigsaw's regions stand in place of boxes, so `jigsaw+thermo` has none); every other named rule any
//! part has. A section name an earlier part took is renamed `PART-NAME` (`x-sums-top` in `sandwich+x-sums`).

use std::collections::BTreeMap;

use super::vocabulary::{self, Param};
use super::Grammar;
use crate::error::Error;
use crate::yaml::{self, Mapping, Value};

/// What joins the parts of a composed type's name.
pub(crate) const JOIN: char = '+';

/// The grammar of the type `name`, made of `parts` (each a grammar of its own, in the name's order).
pub(crate) fn compose(name: &str, parts: &[&Grammar]) -> Result<Grammar, Error> {
    let bad = |message: String| Error::Grammar {
        grammar: format!("composed {name}"),
        message,
    };
    let mut sections = Mapping::new();
    let mut named: Vec<String> = vec!["latin".into()];
    let mut primitives = Vec::new();
    for part in parts {
        let file = part_file(part).map_err(&bad)?;
        let mut renames = BTreeMap::new();
        for key in file.sections.keys() {
            let own = key.as_str().unwrap_or_default();
            if sections.contains_key(own) {
                let taken = format!("{}-{own}", part.name);
                if sections.contains_key(taken.as_str())
                    || file.sections.contains_key(taken.as_str())
                {
                    return Err(bad(format!(
                        "two parts have a section {own:?}, and {taken:?} is taken too"
                    )));
                }
                renames.insert(own.to_owned(), taken);
            }
        }
        for (key, mut spec) in file.sections {
            let own = key.as_str().unwrap_or_default();
            let taken = renames.get(own).cloned().unwrap_or_else(|| own.to_owned());
            rename_of(&mut spec, &renames);
            sections.insert(Value::String(taken), spec);
        }
        for rule in file.rules {
            match rule {
                Value::String(rule) if !named.contains(&rule) => named.push(rule),
                Value::String(_) => {}
                Value::Mapping(mut args) => {
                    rename_args(&mut args, &renames);
                    primitives.push(Value::Mapping(args));
                }
                other => return Err(bad(format!("a rule of {} is {other:?}", part.name))),
            }
        }
    }
    // A part without boxes has its own regions in their place (a jigsaw), or none (a Latin square).
    let boxed = parts.iter().all(|p| p.uses_boxes);
    named.retain(|r| r != "boxes" || boxed);
    let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
    let mut file = Mapping::new();
    let mut put = |key: &str, value: Value| file.insert(Value::String(key.into()), value);
    put("name", Value::String(name.into()));
    put(
        "description",
        Value::String(format!(
            "the rules of {} together (a type made of types)",
            names.join(" and ")
        )),
    );
    put("sections", Value::Mapping(sections));
    let rules = named.into_iter().map(Value::String).chain(primitives);
    put("rules", Value::Sequence(rules.collect()));
    let text = yaml::to_string(&Value::Mapping(file)).map_err(&bad)?;
    Grammar::parse(&format!("composed {name}"), &text)
}

/// A part's grammar file, read back from its text: its sections and its rules as written.
struct PartFile {
    sections: Mapping,
    rules: Vec<Value>,
}

fn part_file(part: &Grammar) -> Result<PartFile, String> {
    let doc = yaml::parse(&part.text).map_err(|e| format!("{}: {e}", part.name))?;
    let sections = match doc.get("sections") {
        Some(Value::Mapping(m)) => m.clone(),
        _ => Mapping::new(),
    };
    let rules = doc
        .get("rules")
        .and_then(Value::as_sequence)
        .cloned()
        .unwrap_or_default();
    Ok(PartFile { sections, rules })
}

/// A clues section's `of:` after its regions section was renamed.
fn rename_of(spec: &mut Value, renames: &BTreeMap<String, String>) {
    if let Some(of) = spec.get_mut("of") {
        if let Some(new) = of.as_str().and_then(|o| renames.get(o)) {
            *of = Value::String(new.clone());
        }
    }
}

/// A primitive use's section arguments (and the sections its tags map from) after renaming.
fn rename_args(args: &mut Mapping, renames: &BTreeMap<String, String>) {
    let Some(signature) = args
        .get("primitive")
        .and_then(Value::as_str)
        .and_then(vocabulary::spec)
    else {
        return;
    };
    for (param, kind) in signature.params {
        let Some(value) = args.get_mut(*param) else {
            continue;
        };
        match kind {
            Param::Section(..) => {
                if let Some(new) = value.as_str().and_then(|s| renames.get(s)) {
                    *value = Value::String(new.clone());
                }
            }
            Param::Tags(_) => {
                if let Value::Mapping(tags) = value {
                    *tags = std::mem::take(tags)
                        .into_iter()
                        .map(|(k, v)| match k.as_str().and_then(|s| renames.get(s)) {
                            Some(new) => (Value::String(new.clone()), v),
                            None => (k, v),
                        })
                        .collect();
                }
            }
            Param::FlagOrTags => {
                if let Value::Sequence(listed) = value {
                    for item in listed.iter_mut() {
                        if let Some(new) = item.as_str().and_then(|s| renames.get(s)) {
                            *item = Value::String(new.clone());
                        }
                    }
                }
            }
            Param::Flag | Param::Number | Param::Classes => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{sections::SectionKind, Registry, RuleUse};

    fn composed(name: &str) -> Grammar {
        Registry::built_in().get(name).unwrap().into_owned()
    }

    fn bound(g: &Grammar, primitive: &str, param: &str) -> Vec<String> {
        g.rules
            .iter()
            .filter_map(|r| match r {
                RuleUse::Primitive { primitive: p, args } if p == primitive => {
                    args.get(param)?.as_str().map(str::to_owned)
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_composition_has_every_part_s_sections_and_rules() {
        let g = composed("killer+thermo");
        assert_eq!(g.name, "killer+thermo");
        assert!(g.uses_boxes);
        assert_eq!(g.named_rules().collect::<Vec<_>>(), ["latin", "boxes"]);
        assert_eq!(bound(&g, "sum", "regions"), ["cages"]);
        assert_eq!(bound(&g, "increasing", "lines"), ["thermos"]);
        assert_eq!(g.sections["thermos"].kind, SectionKind::Lines);
        // The text is a grammar file that parses to the same thing.
        let again = Grammar::parse("again", &g.text).unwrap();
        assert_eq!(again.rules.len(), g.rules.len());
    }

    #[test]
    fn boxes_only_when_every_part_has_them_and_other_named_rules_from_any() {
        let g = composed("jigsaw+thermo");
        assert!(!g.uses_boxes);
        assert_eq!(bound(&g, "distinct", "regions"), ["regions"]);
        let g = composed("killer-x+thermo");
        assert_eq!(
            g.named_rules().collect::<Vec<_>>(),
            ["latin", "boxes", "diagonals"]
        );
    }

    #[test]
    fn a_section_name_taken_by_an_earlier_part_is_renamed_with_its_rules() {
        let g = composed("sandwich+x-sums");
        assert_eq!(bound(&g, "sandwich", "top"), ["top"]);
        assert_eq!(bound(&g, "x-sum", "top"), ["x-sums-top"]);
        assert_eq!(bound(&g, "x-sum", "left"), ["x-sums-left"]);
        // Tags name sections too, and clues name their regions.
        let g = composed("kropki+kropki-latin");
        let tags: Vec<Vec<String>> = g
            .rules
            .iter()
            .filter_map(|r| match r {
                RuleUse::Primitive { args, .. } => Some(
                    args.get("tags")?
                        .as_mapping()?
                        .keys()
                        .filter_map(|k| k.as_str().map(str::to_owned))
                        .collect(),
                ),
                RuleUse::Named(_) => None,
            })
            .collect();
        assert_eq!(
            tags,
            [
                vec!["white".to_owned(), "black".to_owned()],
                vec![
                    "kropki-latin-white".to_owned(),
                    "kropki-latin-black".to_owned()
                ]
            ]
        );
        // So do the tags a negative rule is said of.
        let g = composed("kropki+kropki-all-black");
        let exclusive: Vec<&Value> = g
            .rules
            .iter()
            .filter_map(|r| match r {
                RuleUse::Primitive { args, .. } => args.get("exclusive"),
                RuleUse::Named(_) => None,
            })
            .collect();
        assert_eq!(
            exclusive,
            [
                &Value::Bool(true),
                &Value::Sequence(vec![Value::String("kropki-all-black-black".into())])
            ]
        );
        let g = composed("killer+sumdoku");
        assert_eq!(
            g.sections["sumdoku-hints"].of.as_deref(),
            Some("sumdoku-cages")
        );
    }

    #[test]
    fn unknown_repeated_or_single_parts_are_errors() {
        let registry = Registry::built_in();
        let e = registry.get("killer+thermos").unwrap_err().to_string();
        assert!(e.contains("thermos"), "{e}");
        let e = registry.get("thermo+thermo").unwrap_err().to_string();
        assert!(e.contains("twice"), "{e}");
        // An empty part is said to be one, not looked up as the type "".
        for name in ["thermo+", "+thermo", "killer++thermo"] {
            let e = registry.get(name).unwrap_err().to_string();
            assert!(e.contains(&format!("{name}: an empty part")), "{e}");
        }
    }
}
