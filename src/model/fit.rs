//! The type of a record whose form does not say it: an f-puzzles link is a grid with any mix of constraint
//! families, where a Tatham ID or a puzz.link URL names its game. Such a record takes the type of the grammar
//! that says exactly its constraints, among every grammar loaded, so a type a user declares (thermometers and
//! killer cages in one grammar file) takes the links that mix them.
//!
//! The corpus schema fixes what each record key means (`lines.thermos` increase from the bulb, `pairs.white`
//! differ by 1, `regions` with `clues` are cages whose distinct digits add up to the clue, ...); a grammar says
//! the same with a primitive bound to one of its sections. A grammar fits when every key the record has is one
//! of its primitives, and every section it requires is one the record fills; of those that fit, the one with
//! the fewest rules is taken (a thermo link is `thermo`, not a grammar that adds optional cages to it; on a tie
//! the built-in one), and the record's line and pair keys are renamed to that grammar's section names. When no
//! grammar fits, the record is split by family and takes the type made of the types that fit each
//! (`killer+thermo`, see `grammar::compose`); on a Latin square, Latin-square types where a family has one, and
//! `latin` beside Sudoku types, whose boxes the join then drops (`between+latin`).

use std::borrow::Cow;

use serde_json::{Map, Value as Json};

use super::bind::relation_kind;
use crate::error::Error;
use crate::grammar::classes::{ClassRule, Classes};
use crate::grammar::{Grammar, Registry, RuleUse};
use crate::import::{gapped_key, layout_regions, GAPPED, OUTSIDE_KEYS};
use crate::rules::relation::RelationKind;
use crate::yaml::Value;

/// What a line or pair key of the schema says, as a grammar says it.
#[derive(Clone)]
struct Meaning {
    /// `lines` or `pairs`.
    group: &'static str,
    key: Cow<'static, str>,
    primitive: &'static str,
    /// For `apart`, its `by`; for `tagged-pairs`, the tag of the key's section.
    param: Param,
    /// How an error names it.
    name: Cow<'static, str>,
}

#[derive(Clone, Copy)]
enum Param {
    None,
    /// The primitive with this number parameter at this value, and no flag (`apart` with `by: 5`,
    /// `segment-sum` with `total: 10`).
    Number(&'static str, u64),
    /// The primitive with this flag of its turned on, and no other (`increasing` with `slow: true`).
    Flag(&'static str),
    /// `apart` with this `by` and this flag turned on (`every: true`, a nabner's every two cells apart).
    FlagBy(&'static str, u64),
    Tag(&'static str),
    /// The section the primitive reads under this parameter, not under `lines` (an arrow's pills).
    Via(&'static str),
    /// For `classes`, the rule of its classes: a grammar's classes fit when they are that rule's at the
    /// record's size, listed or made.
    Classes(ClassRule),
    /// For `tagged-pairs`, the tag of the key's section, the pairs exclusive or not (not all pairs listed).
    Open(&'static str),
}

const MEANINGS: [Meaning; 38] = [
    line("thermos", "increasing", Param::None, "thermometers"),
    line(
        "slowthermos",
        "increasing",
        Param::Flag("slow"),
        "slow thermometers",
    ),
    line("doublearrows", "double-arrow", Param::None, "double arrows"),
    line("zippers", "zipper", Param::None, "zipper lines"),
    line(
        "lockouts",
        "lockout",
        Param::Number("by", 4),
        "lockout lines",
    ),
    // No two digits on the line the same or consecutive.
    line("nabner", "apart", Param::FlagBy("every", 2), "nabner lines"),
    line("arrows", "arrow-sum", Param::None, "arrows"),
    // Arrows the rules text forbids to repeat a digit.
    line(
        "distinctarrows",
        "arrow-sum",
        Param::Flag("distinct"),
        "arrows on which no digit repeats",
    ),
    // Pills, which mean something only beside the arrows that leave them (see `COMPANIONS`).
    line("pills", "arrow-sum", Param::Via("pills"), "pill arrows"),
    line(
        "whispers",
        "apart",
        Param::Number("by", 5),
        "German whispers (apart by 5)",
    ),
    line("renban", "consecutive-set", Param::None, "renban lines"),
    // Segments of 10, cut where the running sum reaches it.
    line(
        "tenlines",
        "segment-sum",
        Param::Number("total", 10),
        "10 lines",
    ),
    line("palindromes", "mirror", Param::None, "palindromes"),
    line("diagonals", "line-sum", Param::None, "little-killer sums"),
    // Cages that leave cells out or show no sum (f-puzzles'), where `regions` with `clues` tile the grid.
    line(
        "killercages",
        "cage",
        Param::None,
        "killer cages where drawn",
    ),
    // Cages the rules text lets repeat a digit: each says only its sum.
    line(
        "repeatcages",
        "cage",
        Param::Flag("repeat"),
        "killer cages where digits may repeat",
    ),
    // Cages the rules text makes products: each says the product of its digits.
    line(
        "productcages",
        "cage",
        Param::Flag("product"),
        "killer cages of products",
    ),
    line(
        "extraregions",
        "all-different",
        Param::None,
        "extra regions",
    ),
    line("betweenlines", "between", Param::None, "between lines"),
    line(
        "regionsumlines",
        "region-sum",
        Param::None,
        "region-sum lines",
    ),
    // Low, middle and high values: the grid's in three equal runs.
    line(
        "entropiclines",
        "classes",
        Param::Classes(ClassRule::Bands(3)),
        "entropic lines",
    ),
    // Remainders 1, 2 and 0 mod 3.
    line(
        "modularlines",
        "classes",
        Param::Classes(ClassRule::Modulo(3)),
        "modular lines",
    ),
    // Odd and even taking turns.
    line(
        "paritylines",
        "classes",
        Param::Classes(ClassRule::Modulo(2)),
        "parity lines",
    ),
    line("quadruples", "contains", Param::None, "quadruples"),
    line("rowindexers", "row-indexer", Param::None, "row indexers"),
    line(
        "columnindexers",
        "column-indexer",
        Param::None,
        "column indexers",
    ),
    line("boxindexers", "box-indexer", Param::None, "box indexers"),
    pair("white", Param::Tag("difference 1"), "white kropki dots"),
    pair("black", Param::Tag("ratio 2"), "black kropki dots"),
    pair("x", Param::Tag("sum 10"), "X marks"),
    pair("v", Param::Tag("sum 5"), "V marks"),
    // Marks where the setter placed them, nothing said of the pairs without one (no negative constraint).
    pair(
        "white-open",
        Param::Open("difference 1"),
        "white kropki dots (not all given)",
    ),
    pair(
        "black-open",
        Param::Open("ratio 2"),
        "black kropki dots (not all given)",
    ),
    // Dots of one colour all given, of the other where the setter placed them (f-puzzles' negative constraint
    // on one colour alone, "all possible black dots are given"); the other colour's dots are `-open`.
    pair(
        "black-all",
        Param::Tag("ratio 2"),
        "black kropki dots (every one given, white ones not)",
    ),
    pair(
        "white-all",
        Param::Tag("difference 1"),
        "white kropki dots (every one given, black ones not)",
    ),
    pair("x-open", Param::Open("sum 10"), "X marks (not all given)"),
    pair("v-open", Param::Open("sum 5"), "V marks (not all given)"),
    // A clone's cells and their copies: equal, and nothing said of the pairs not listed.
    pair("clones", Param::Open("equal"), "clones"),
];

/// Record keys that go into another's family when a record with both is split by [`families`]: pills with the
/// arrows that leave them; dots of one colour not all given beside the other's all given, one rule whose
/// negative rule leaves the pairs with a dot of the other colour alone.
const COMPANIONS: [(&str, &str); 4] = [
    ("pills", "arrows"),
    ("pills", "distinctarrows"),
    ("white-open", "black-all"),
    ("black-open", "white-all"),
];

const fn line(
    key: &'static str,
    primitive: &'static str,
    param: Param,
    name: &'static str,
) -> Meaning {
    Meaning {
        group: "lines",
        key: Cow::Borrowed(key),
        primitive,
        param,
        name: Cow::Borrowed(name),
    }
}

const fn pair(key: &'static str, param: Param, name: &'static str) -> Meaning {
    Meaning {
        group: "pairs",
        key: Cow::Borrowed(key),
        primitive: "tagged-pairs",
        param,
        name: Cow::Borrowed(name),
    }
}

/// What the record key `group.key` says: one of the schema's, or lines of a gapped key with another gap
/// (`whispers-by-4`).
fn meaning(group: &str, key: &str) -> Option<Meaning> {
    if let Some(m) = MEANINGS.iter().find(|m| m.group == group && m.key == key) {
        return Some(m.clone());
    }
    let (base, by) = key.split_once("-by-")?;
    let &(base, primitive, usual) = GAPPED.iter().find(|g| g.0 == base)?;
    let by = by.parse().ok()?;
    (group == "lines" && (1..=255).contains(&by) && by != usual)
        .then(|| gapped(base, primitive, by))
}

fn gapped(key: &'static str, primitive: &'static str, by: u64) -> Meaning {
    Meaning {
        group: "lines",
        key: Cow::Owned(gapped_key(key, by)),
        primitive,
        param: Param::Number("by", by),
        name: Cow::Owned(format!("{key} {by} apart")),
    }
}

/// Gives an untyped record the type of the grammar that fits it, renaming its line and pair keys to that
/// grammar's sections. A record with a type is left as it is.
pub(crate) fn fit(record: &mut Json, registry: &Registry) -> Result<(), Error> {
    if record.get("type").is_some() {
        return Ok(());
    }
    let needs = needs(record)?;
    let mut fits: Vec<(&Grammar, Vec<(Meaning, String)>)> = registry
        .iter()
        .filter_map(|g| fits(g, record, &needs).map(|names| (g, names)))
        .collect();
    // Fewest rules first; on a tie, the built-in type, then by name, so that the choice never depends on the
    // order grammars were loaded in.
    fits.sort_by_key(|(g, _)| {
        (
            g.rules.len(),
            !registry.is_built_in(&g.name),
            g.name.clone(),
        )
    });
    let (name, names) = match fits.into_iter().next() {
        Some((grammar, names)) => (grammar.name.clone(), names),
        None => composed(record, registry, &needs)?,
    };
    let moves: Vec<(&str, &str, &str)> = names
        .iter()
        .map(|(m, section)| (m.group, m.key.as_ref(), section.as_str()))
        .collect();
    rename(record, &moves);
    record["type"] = Json::String(name);
    Ok(())
}

/// A mix no one grammar declares (thermometers and killer cages): the type made of the types that take each of
/// the record's families alone (`killer+thermo`, see [`crate::grammar::compose`]), and its sections.
fn composed(
    record: &Json,
    registry: &Registry,
    needs: &[Meaning],
) -> Result<(String, Vec<(Meaning, String)>), Error> {
    // A Latin square (no boxes, no irregular regions) takes for each family a Latin-square type where one has it
    // (`consecutive`, `skyscrapers`), else a Sudoku type, whose boxes a Latin-square part drops (see
    // `grammar::compose`); `latin` is that part when no other is one.
    let square = !record["boxes"].is_array() && !layout_regions(record);
    let mut parts: Vec<String> = Vec::new();
    for family in families(record) {
        let family_needs = self::needs(&family)?;
        let best = |family: &Json| {
            registry
                .iter()
                .filter(|g| fits(g, family, &family_needs).is_some())
                .min_by_key(|g| {
                    (
                        g.rules.len(),
                        !registry.is_built_in(&g.name),
                        g.name.clone(),
                    )
                })
        };
        let unboxed = square.then(|| {
            let mut bare = family.clone();
            bare.as_object_mut().map(|o| o.remove("boxes"));
            best(&bare)
        });
        let best = unboxed.flatten().or_else(|| best(&family));
        let Some(best) = best else {
            // Lines whose classes the grid's size cannot have (entropic thirds on an 8x8) fit no grammar: that
            // is the reason to give, not a missing type.
            if let Some(why) = unsized_classes(&family_needs, size_of(record)) {
                return Err(Error::section("fpuzzles", why));
            }
            // The grammar meant to read it may be one that did not load: say why, as an unknown type does.
            return Err(Error::section(
                "fpuzzles",
                format!(
                    "no puzzle type has {}: a grammar file with them would read it (`latin grammars` lists the types){}",
                    describe(&family, &family_needs),
                    registry.unloaded()
                ),
            ));
        };
        if !parts.contains(&best.name) {
            parts.push(best.name.clone());
        }
    }
    if square
        && parts
            .iter()
            .all(|p| registry.get(p).is_ok_and(|g| g.uses_boxes))
    {
        parts.push("latin".into());
    }
    parts.sort();
    let name = parts.join("+");
    let grammar = registry.get(&name)?;
    let names = fits(&grammar, record, needs).ok_or_else(|| {
        Error::section(
            "fpuzzles",
            format!(
                "no puzzle type has {}, nor does {name}, made of the types that have each: a grammar file with them all would read it",
                describe(record, needs)
            ),
        )
    })?;
    Ok((name, names))
}

/// The record split by constraint family, each part the grid with that family alone: a line or pair key,
/// the cages, the irregular regions, an outside clue key, the odd and even cells, the inequalities. A grid with
/// irregular regions lends the other families boxes, which the type made of them drops (see
/// [`crate::grammar::compose`]).
fn families(record: &Json) -> Vec<Json> {
    let n = record["size"].as_u64().unwrap_or(0);
    let mut base = serde_json::json!({ "size": n });
    base["boxes"] = match &record["boxes"] {
        Json::Array(b) => Json::Array(b.clone()),
        _ => serde_json::json!([1, n]),
    };
    let with = |keys: &[(&str, Json)]| {
        let mut family = base.clone();
        for (key, value) in keys {
            family[*key] = value.clone();
        }
        family
    };
    let mut out = Vec::new();
    for group in ["lines", "pairs"] {
        for (key, list) in record[group].as_object().into_iter().flatten() {
            let owned =
                |(companion, of): &(&str, &str)| companion == key && !record[group][*of].is_null();
            if COMPANIONS.iter().any(owned) {
                continue;
            }
            let mut family = with(&[(group, serde_json::json!({ key: list }))]);
            for (companion, of) in COMPANIONS {
                if let (true, Some(more)) = (of == key, record[group].get(companion)) {
                    family[group][companion] = more.clone();
                }
            }
            if let Some(clues) = record["line_clues"].get(key) {
                family["line_clues"] = serde_json::json!({ key: clues });
            }
            out.push(family);
        }
    }
    if record["clues"].is_object() {
        out.push(with(&[
            ("regions", record["regions"].clone()),
            ("clues", record["clues"].clone()),
        ]));
    } else if layout_regions(record) {
        let mut family = with(&[("regions", record["regions"].clone())]);
        family.as_object_mut().map(|o| o.remove("boxes"));
        out.push(family);
    }
    for key in OUTSIDE_KEYS
        .iter()
        .map(|o| o.key)
        .chain(["parity", "less", "consecutive"])
    {
        if !record[key].is_null() {
            out.push(with(&[(key, record[key].clone())]));
        }
    }
    out
}

/// The inverse of [`fit`], for a form that says constraints rather than types (f-puzzles): the record of a
/// puzzle of `grammar` with its line and pair sections under the schema's keys and the grammar's own named rules
/// asked for, or an error when the grammar says something the record's keys cannot (a product on its cages,
/// numbered rooms, a primitive no key means).
pub(crate) fn in_schema_terms(record: &mut Json, grammar: &Grammar) -> Result<(), Error> {
    // The schema's meanings, and gapped lines (whispers, lockouts) with any other gap the grammar's rules use.
    let others = grammar.rules.iter().filter_map(|rule| {
        let RuleUse::Primitive { primitive, args } = rule else {
            return None;
        };
        let &(key, primitive, usual) = GAPPED.iter().find(|g| g.1 == primitive)?;
        let by = args.get("by").and_then(Value::as_u64)?;
        (by != usual).then(|| gapped(key, primitive, by))
    });
    // Each meaning's section, looked up once. One key holds one list: a join whose parts both have one (the
    // pills of arrow+arrow-distinct) would have the second left under its section's name, which f-puzzles has
    // no constraint for.
    let mut sections: Vec<(Meaning, String)> = Vec::new();
    for m in MEANINGS.iter().cloned().chain(others) {
        match sections_for(grammar, &m, size_of(record)).as_slice() {
            [] => {}
            [one] => sections.push((m, one.clone())),
            [first, second, ..] => {
                return Err(Error::section(
                    "fpuzzles",
                    format!(
                        "type {}: f-puzzles keeps one list of {}, and the type has two sections for it \
                         (`{first}` and `{second}`)",
                        grammar.name, m.name
                    ),
                ))
            }
        }
    }
    let moves: Vec<(&str, &str, &str)> = sections
        .iter()
        .map(|(m, section)| (m.group, section.as_str(), m.key.as_ref()))
        .collect();
    rename(record, &moves);
    // An exclusive family's marks are all given, none included: its keys are there, if empty.
    for (m, _) in sections
        .iter()
        .filter(|(m, _)| matches!(m.param, Param::Tag(_)))
    {
        if record["pairs"][m.key.as_ref()].is_null() {
            record["pairs"][m.key.as_ref()] = Json::Array(Vec::new());
        }
    }
    for rule in grammar.named_rules() {
        match rule {
            "latin" | "boxes" => {}
            "diagonals" => record["diagonals"] = Json::Bool(true),
            other
                if !record["rules"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|x| x == other)) =>
            {
                if !record["rules"].is_array() {
                    record["rules"] = Json::Array(Vec::new());
                }
                record["rules"]
                    .as_array_mut()
                    .expect("a list")
                    .push(Json::from(other));
            }
            _ => {}
        }
    }
    // A refusal names the rules no key of the schema says, where there are some (`product` on an inshi's rooms).
    let refuse = |otherwise: String| {
        let unsaid = unsaid(grammar);
        let why = match unsaid.as_slice() {
            [] => otherwise,
            [one] => format!("f-puzzles has no way to say its rule {one}"),
            more => format!("f-puzzles has no way to say its rules {}", more.join("; ")),
        };
        Error::section("fpuzzles", format!("type {}: {why}", grammar.name))
    };
    let needs =
        needs(record).map_err(|e| refuse(format!("f-puzzles has no way to say it ({e})")))?;
    let mut untyped = record.clone();
    untyped.as_object_mut().map(|o| o.remove("type"));
    fits(grammar, &untyped, &needs)
        .map(|_| ())
        .ok_or_else(|| refuse("f-puzzles has no way to say all its rules".into()))
}

/// The grammar's primitive rules that no key of the schema means, each as "`primitive` on `section`, ...":
/// what f-puzzles has no constraint for (a product, a sum whose digits may repeat, sum skyscrapers).
fn unsaid(grammar: &Grammar) -> Vec<String> {
    grammar
        .rules
        .iter()
        .filter_map(|rule| {
            let RuleUse::Primitive { primitive, args } = rule else {
                return None;
            };
            let p = primitive.as_str();
            let flag = |name: &str| args.get(name).and_then(Value::as_bool) == Some(true);
            let said = MEANINGS.iter().any(|m| m.primitive == p)
                || matches!(
                    p,
                    "distinct" | "less" | "marks" | "consecutive" | "tagged-pairs"
                )
                || p == "sum" && flag("distinct")
                || OUTSIDE_KEYS.iter().any(|o| o.primitive == p)
                    && !(p == "visibility" && flag("sum"));
            let on: Vec<String> = args
                .values()
                .filter_map(Value::as_str)
                .filter(|s| grammar.sections.contains_key(*s))
                .map(|s| format!("`{s}`"))
                .collect();
            (!said).then(|| format!("`{p}` on {}", on.join(", ")))
        })
        .collect()
}

/// Moves each `(group, from, to)`: the lists under `group.from` (and their clues under `line_clues.from`) to
/// `to`, all taken out before any is put back, so that two sections trading names lose nothing.
fn rename(record: &mut Json, moves: &[(&str, &str, &str)]) {
    let mut taken = Vec::new();
    for &(group, from, to) in moves {
        for g in [group, "line_clues"] {
            let list = record
                .get_mut(g)
                .and_then(Json::as_object_mut)
                .and_then(|o| o.remove(from));
            if let Some(list) = list {
                taken.push((g, to, list));
            }
        }
    }
    for (g, to, list) in taken {
        record[g][to] = list;
    }
}

/// The meanings of the record's line and pair keys; an unknown one is an error.
fn needs(record: &Json) -> Result<Vec<Meaning>, Error> {
    let mut out = Vec::new();
    for group in ["lines", "pairs"] {
        for key in record[group]
            .as_object()
            .map(Map::keys)
            .into_iter()
            .flatten()
        {
            let m = meaning(group, key)
                .ok_or_else(|| Error::section("record", format!("{group}.{key} has no meaning")))?;
            out.push(m);
        }
    }
    Ok(out)
}

fn describe(record: &Json, needs: &[Meaning]) -> String {
    let mut parts: Vec<&str> = needs.iter().map(|m| m.name.as_ref()).collect();
    if record["regions"].is_array() {
        parts.push(if record["clues"].is_object() {
            "killer cages"
        } else {
            "irregular regions"
        });
    }
    for o in &OUTSIDE_KEYS {
        if record[o.key].is_object() {
            parts.push(o.name);
        }
    }
    if record["parity"].is_array() {
        parts.push("odd and even cells");
    }
    if record["less"].is_array() {
        parts.push("inequalities (minimum and maximum cells)");
    }
    if record["consecutive"].is_array() {
        parts.push("consecutive marks (all given)");
    }
    let jigsaw = layout_regions(record);
    if !record["boxes"].is_array() && !jigsaw {
        parts.push("no boxes");
    }
    match parts.as_slice() {
        [] => "a plain grid".into(),
        [one] => (*one).into(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The section each need binds to in `grammar`, if the grammar says exactly what the record holds.
fn fits(grammar: &Grammar, record: &Json, needs: &[Meaning]) -> Option<Vec<(Meaning, String)>> {
    if !rules_agree(grammar, record) {
        return None;
    }
    let cages = record["clues"].is_object();
    let jigsaw = layout_regions(record);
    // Sections the record fills: each need's, and those the kind-keyed record keys go to.
    let mut filled: Vec<String> = Vec::new();
    let mut names = Vec::new();
    for m in needs {
        let section = section_for(grammar, m, size_of(record))?;
        if filled.contains(&section) {
            return None;
        }
        filled.push(section.clone());
        names.push((m.clone(), section));
    }
    let (mut said_cages, mut said_regions, mut said_marks, mut said_less) =
        (false, false, false, false);
    let mut said_consecutive = false;
    // Outside clues by record key: sandwich sums, skyscraper counts, x-sums.
    let mut said_outside = [false; OUTSIDE_KEYS.len()];
    for rule in &grammar.rules {
        let RuleUse::Primitive { primitive, args } = rule else {
            continue;
        };
        let bound = |arg: &str| args.get(arg).and_then(Value::as_str).map(str::to_owned);
        let distinct = args.get("distinct").and_then(Value::as_bool) == Some(true);
        match primitive.as_str() {
            "sum" if cages && distinct => {
                said_cages = true;
                filled.extend(bound("regions"));
                filled.extend(bound("clues"));
            }
            "distinct" if cages || jigsaw => {
                said_regions = true;
                filled.extend(bound("regions"));
            }
            p if OUTSIDE_KEYS
                .iter()
                .any(|o| p == o.primitive && record[o.key].is_object()) =>
            {
                let k = OUTSIDE_KEYS
                    .iter()
                    .position(|o| p == o.primitive)
                    .expect("found");
                // A count, not a sum: sum skyscrapers are not what the schema's `sky` says.
                if p == "visibility" && args.get("sum").and_then(Value::as_bool) == Some(true) {
                    continue;
                }
                said_outside[k] = true;
                filled.extend(
                    ["top", "bottom", "left", "right"]
                        .into_iter()
                        .filter_map(bound),
                );
            }
            "less" if record["less"].is_array() => {
                said_less = true;
                filled.extend(bound("relations"));
            }
            "marks" if record["parity"].is_array() => {
                said_marks = true;
                filled.extend(bound("marks"));
            }
            // The schema's consecutive marks are all given: the primitive's `exclusive` (its default) says so.
            "consecutive"
                if record["consecutive"].is_array()
                    && args.get("exclusive").and_then(Value::as_bool) != Some(false) =>
            {
                said_consecutive = true;
                filled.extend(bound("pairs"));
            }
            "tagged-pairs" if !tags_agree(args, &names) => return None,
            _ => {}
        }
    }
    let held = (!cages || said_cages)
        && (!jigsaw || said_regions)
        && OUTSIDE_KEYS
            .iter()
            .zip(said_outside)
            .all(|(o, said)| !record[o.key].is_object() || said)
        && (!record["parity"].is_array() || said_marks)
        && (!record["less"].is_array() || said_less)
        && (!record["consecutive"].is_array() || said_consecutive);
    let required_filled = grammar
        .sections
        .iter()
        .all(|(name, spec)| spec.optional || filled.contains(name));
    (held && required_filled).then_some(names)
}

/// Rows and columns always; boxes exactly when the record has them; any other named rule of the grammar only
/// when the record asks for it (a link without diagonals is not a killer-x).
fn rules_agree(grammar: &Grammar, record: &Json) -> bool {
    let asked = |name: &str| {
        (name == "diagonals" && record["diagonals"].as_bool() == Some(true))
            || record["rules"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|r| r == name)
    };
    let named = |name: &str| grammar.named_rules().any(|r| r == name);
    named("latin")
        && named("boxes") == record["boxes"].is_array()
        && grammar
            .named_rules()
            .all(|r| r == "latin" || r == "boxes" || asked(r))
}

/// A tagged-pairs rule that takes some of the record's pairs must say "no other pair" of exactly their families:
/// the schema's kropki gives every dot of both colours, XV every X and V, and nothing else.
fn tags_agree(args: &crate::grammar::Args, names: &[(Meaning, String)]) -> bool {
    let Some(Value::Mapping(tags)) = args.get("tags") else {
        return true;
    };
    // Open pairs say nothing of the others: a rule may tag sections the record leaves empty.
    let exclusive = super::bind::exclusive_tags(args);
    if exclusive.is_empty() {
        return true;
    }
    let sections: Vec<&str> = tags.keys().filter_map(Value::as_str).collect();
    let taken: Vec<&Meaning> = names
        .iter()
        .filter(|(_, s)| sections.contains(&s.as_str()))
        .map(|(m, _)| m)
        .collect();
    if taken.is_empty() {
        return true;
    }
    let mut want: Vec<_> = taken
        .iter()
        .flat_map(|m| all_given(m).0)
        .filter_map(relation_kind)
        .collect();
    let mut have: Vec<_> = tags
        .iter()
        .filter(|(k, _)| k.as_str().is_some_and(|k| exclusive.iter().any(|e| e == k)))
        .filter_map(|(_, v)| v.as_str())
        .filter_map(relation_kind)
        .collect();
    let key = |k: &crate::rules::relation::RelationKind| format!("{k:?}");
    want.sort_by_key(key);
    want.dedup();
    have.sort_by_key(key);
    have.dedup();
    want == have
}

/// The relations a pair key says every pair of is marked (kropki's two dots, XV's two marks, or the key's own
/// tag), and those of its kind it says are not (`black-all`: the white dots; `white-all`: the black ones).
fn all_given(m: &Meaning) -> (Vec<&'static str>, Vec<&'static str>) {
    match (m.key.as_ref(), m.param) {
        ("white" | "black", _) => (vec!["difference 1", "ratio 2"], vec![]),
        ("x" | "v", _) => (vec!["sum 10", "sum 5"], vec![]),
        ("black-all", _) => (vec!["ratio 2"], vec!["difference 1"]),
        ("white-all", _) => (vec!["difference 1"], vec!["ratio 2"]),
        (_, Param::Tag(tag)) => (vec![tag], vec![]),
        _ => (vec![], vec![]),
    }
}

/// The section a tagged-pairs use tags with the relation `tag` names.
fn tag_section(args: &crate::grammar::Args, tag: &str) -> Option<String> {
    let Some(Value::Mapping(tags)) = args.get("tags") else {
        return None;
    };
    let want = relation_kind(tag);
    tags.iter()
        .find(|(_, v)| v.as_str().and_then(relation_kind) == want)
        .and_then(|(k, _)| k.as_str().map(str::to_owned))
}

/// Whether a tagged-pairs use's negative rule is said of this section's tag.
fn exclusive_of(args: &crate::grammar::Args, section: &str) -> bool {
    super::bind::exclusive_tags(args)
        .iter()
        .any(|e| e == section)
}

/// The relations of a tagged-pairs use's exclusive tags, the ones neighbours in no section avoid.
fn exclusive_kinds(args: &crate::grammar::Args) -> Vec<Option<RelationKind>> {
    let Some(Value::Mapping(tags)) = args.get("tags") else {
        return Vec::new();
    };
    super::bind::exclusive_tags(args)
        .iter()
        .filter_map(|e| tags.get(e.as_str())?.as_str())
        .map(relation_kind)
        .collect()
}

/// Why the first of `needs` whose classes are made from the grid's values cannot be made at size n, if one
/// cannot.
fn unsized_classes(needs: &[Meaning], n: usize) -> Option<String> {
    needs.iter().find_map(|m| match m.param {
        Param::Classes(rule) => Classes::Made(rule)
            .at(n)
            .err()
            .map(|e| format!("{} at size {n}: {e}", m.name)),
        _ => None,
    })
}

/// The record's grid size: every form that is fitted carries one (an f-puzzles grid, a corpus record); 0 when
/// it does not, where nothing sized fits.
fn size_of(record: &Json) -> usize {
    record["size"].as_u64().map_or(0, |n| n as usize)
}

/// The section of `grammar` bound to the primitive that says `m` on an n x n grid.
fn section_for(grammar: &Grammar, m: &Meaning, n: usize) -> Option<String> {
    sections_for(grammar, m, n).into_iter().next()
}

/// Every section of `grammar` the record key of `m` would hold, in the order of the grammar's rules: more
/// than one in a join whose parts both have one (the pills of `arrow+arrow-distinct`). The size n is the
/// record's: a line's classes are those of its grid.
fn sections_for(grammar: &Grammar, m: &Meaning, n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let found = grammar.rules.iter().filter_map(|rule| {
        let RuleUse::Primitive { primitive, args } = rule else {
            return None;
        };
        if primitive != m.primitive {
            return None;
        }
        // The flags turned on, each of which changes the meaning (a slow thermometer is not a thermometer).
        let mut flags = args
            .iter()
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|(k, _)| k.as_str());
        let lines = || args.get("lines")?.as_str().map(str::to_owned);
        match m.param {
            Param::None | Param::Number(..) if flags.next().is_some() => None,
            Param::None => lines(),
            Param::Via(key) => args.get(key)?.as_str().map(str::to_owned),
            Param::Number(key, k) => (args.get(key)?.as_u64()? == k).then(lines)?,
            Param::Flag(flag) => {
                (flags.next() == Some(flag) && flags.next().is_none()).then(lines)?
            }
            Param::FlagBy(flag, k) => (flags.next() == Some(flag)
                && flags.next().is_none()
                && args.get("by")?.as_u64()? == k)
                .then(lines)?,
            Param::Classes(rule) => {
                let want = Classes::Made(rule).at(n).ok()?;
                let have = crate::grammar::classes::classes(args.get("classes"))
                    .ok()?
                    .at(n)
                    .ok()?;
                (have == want).then(lines)?
            }
            // Every mark is given in a record (the schema's kropki and XV), so the pairs must be exclusive.
            // Nothing is said of the pairs not listed, so the pairs must not be exclusive.
            Param::Open(tag) => tag_section(args, tag).filter(|s| !exclusive_of(args, s)),
            // A key's marks are all given where its section is exclusive, and so is every relation its key
            // says is all given, and no relation it says is not.
            Param::Tag(tag) => {
                let exclusive_kinds = exclusive_kinds(args);
                let (given, open) = all_given(m);
                tag_section(args, tag)
                    .filter(|s| exclusive_of(args, s))
                    .filter(|_| {
                        given
                            .iter()
                            .all(|g| exclusive_kinds.contains(&relation_kind(g)))
                            && open
                                .iter()
                                .all(|o| !exclusive_kinds.contains(&relation_kind(o)))
                    })
            }
        }
    });
    for section in found {
        if !out.contains(&section) {
            out.push(section);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Grammar;

    /// A join whose two parts each have a section one key of the schema holds (the pills of arrow and of
    /// arrow-distinct, the white dots of kropki and kropki-latin) is refused naming both, not left with a key
    /// that has no meaning.
    #[test]
    fn two_sections_for_one_key_are_refused_by_name() {
        let registry = Registry::built_in();
        for (name, says) in [
            (
                "arrow+arrow-distinct",
                "one list of pill arrows, and the type has two sections for it (`pills` and `arrow-distinct-pills`)",
            ),
            (
                "kropki+kropki-latin",
                "one list of white kropki dots, and the type has two sections for it (`white` and `kropki-latin-white`)",
            ),
        ] {
            let grammar = registry.get(name).unwrap();
            let mut record = serde_json::json!({"type": name, "size": 9, "boxes": [3, 3]});
            let err = in_schema_terms(&mut record, &grammar).unwrap_err().to_string();
            assert!(err.contains(says), "{name}: {err}");
        }
        // Each part alone has one.
        let grammar = registry.get("arrow").unwrap();
        let mut record = serde_json::json!({"type": "arrow", "size": 9, "boxes": [3, 3],
            "lines": {"arrows": [[[0, 0], [0, 1]]], "pills": [[[0, 0], [1, 0]]]}});
        let result = in_schema_terms(&mut record, &grammar);
        assert!(result.is_ok(), "{result:?}");
    }

    fn fitted(mut record: Json, registry: &Registry) -> Result<Json, Error> {
        fit(&mut record, registry).map(|()| record)
    }

    /// Each type whose keys an f-puzzles link can hold, as the corpus gives it: without its type, the record
    /// fits that type again.
    #[test]
    fn a_record_of_each_type_fits_its_own_grammar() {
        let registry = Registry::built_in();
        let lines = |section: &str, cells: Json| serde_json::json!({ section: [cells] });
        let grid4 = serde_json::json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
        let base = serde_json::json!({"size": 4, "boxes": [2, 2], "givens": grid4});
        let with = |key: &str, value: Json| {
            let mut r = base.clone();
            r[key] = value;
            r
        };
        let two = serde_json::json!([[0, 0], [0, 1]]);
        for (record, kind) in [
            (base.clone(), "sudoku"),
            (with("lines", lines("thermos", two.clone())), "thermo"),
            (with("lines", lines("arrows", two.clone())), "arrow"),
            // Arrows on which no digit repeats: never the usual arrows.
            (
                with("lines", lines("distinctarrows", two.clone())),
                "arrow-distinct",
            ),
            (with("lines", lines("whispers", two.clone())), "whispers"),
            (
                with("lines", lines("whispers-by-4", two.clone())),
                "dutch-whispers",
            ),
            (
                with("lines", lines("slowthermos", two.clone())),
                "slow-thermo",
            ),
            (
                with("lines", lines("doublearrows", two.clone())),
                "double-arrow",
            ),
            (with("lines", lines("zippers", two.clone())), "zipper"),
            (with("lines", lines("nabner", two.clone())), "nabner"),
            (with("lines", lines("lockouts", two.clone())), "lockout"),
            (with("lines", lines("boxindexers", two.clone())), "indexer"),
            (with("lines", lines("renban", two.clone())), "renban"),
            (with("lines", lines("tenlines", two.clone())), "ten-lines"),
            // Not modular nor parity lines: the classes say which. Low, middle and high on a 6x6 (a 4x4 has
            // no three equal runs of values).
            (
                serde_json::json!({"size": 6, "boxes": [2, 3],
                    "lines": lines("entropiclines", two.clone())}),
                "entropic",
            ),
            (
                with("lines", lines("regionsumlines", two.clone())),
                "region-sum",
            ),
            (
                with("lines", lines("palindromes", two.clone())),
                "palindrome",
            ),
            (
                with("pairs", serde_json::json!({"black": [[0, 0, 0, 1]]})),
                "kropki",
            ),
            (
                with("pairs", serde_json::json!({"v": [[0, 0, 0, 1]]})),
                "xv",
            ),
            (
                with("lines", lines("killercages", two.clone())),
                "killer-cages",
            ),
            // Cages that may repeat a digit: never the cages that may not.
            (
                with("lines", lines("repeatcages", two.clone())),
                "killer-repeats",
            ),
            // Cages of products: never cages of sums.
            (
                with("lines", lines("productcages", two.clone())),
                "product-killer",
            ),
            // Marks not all given: never a type whose marks are.
            (
                with("pairs", serde_json::json!({"white-open": [[0, 0, 0, 1]]})),
                "kropki-dots",
            ),
            (
                with("pairs", serde_json::json!({"x-open": [[0, 0, 0, 1]]})),
                "xv-marks",
            ),
            (
                with("edges", serde_json::json!({"top": [1, null, null, null]})),
                "sandwich",
            ),
            (
                with(
                    "parity",
                    serde_json::json!([
                        ["E", "", "", ""],
                        ["", "", "", ""],
                        ["", "", "", ""],
                        ["", "", "", ""]
                    ]),
                ),
                "evenodd",
            ),
        ] {
            let got = fitted(record, &registry).unwrap();
            assert_eq!(got["type"], kind);
        }
        let mut cages = with(
            "regions",
            serde_json::json!([
                ["a", "a", "b", "b"],
                ["c", "c", "d", "d"],
                ["e", "e", "f", "f"],
                ["g", "g", "h", "h"]
            ]),
        );
        cages["clues"] = serde_json::json!({"a": "3", "b": "7", "c": "7", "d": "3", "e": "3", "f": "7", "g": "7", "h": "3"});
        assert_eq!(fitted(cages.clone(), &registry).unwrap()["type"], "killer");
        // Diagonals asked for: still the smallest grammar, the diagonals a rule of the puzzle's own.
        cages["diagonals"] = Json::Bool(true);
        assert_eq!(fitted(cages, &registry).unwrap()["type"], "killer");
        let mut jigsaw = base.clone();
        jigsaw.as_object_mut().unwrap().remove("boxes");
        jigsaw["regions"] = serde_json::json!([
            ["a", "a", "a", "b"],
            ["a", "c", "b", "b"],
            ["c", "c", "d", "b"],
            ["c", "d", "d", "d"]
        ]);
        assert_eq!(fitted(jigsaw, &registry).unwrap()["type"], "jigsaw");
    }

    /// Thermometers with killer cages: no built-in type has both, so the record takes the type made of the two
    /// that have each; a grammar file that has them takes the record, its thermometers renamed to its own
    /// section.
    #[test]
    fn a_mix_fits_the_grammar_that_declares_it() {
        let mut registry = Registry::built_in();
        let mut record = serde_json::json!({"size": 4, "boxes": [2, 2],
            "regions": [["a","a","b","b"],["c","c","d","d"],["e","e","f","f"],["g","g","h","h"]],
            "clues": {"a": "3", "b": "7", "c": "7", "d": "3", "e": "3", "f": "7", "g": "7", "h": "3"},
            "lines": {"thermos": [[[0, 0], [1, 0]]]}});
        let mixed = fitted(record.clone(), &registry).unwrap();
        assert_eq!(mixed["type"], "killer+thermo");
        assert_eq!(mixed["lines"], record["lines"]);
        let text = "name: thermo-killer\ndescription: both\nsections:\n  cages: {kind: regions}\n  \
                    sums: {kind: clues, of: cages}\n  bulbs: {kind: lines, optional: true}\nrules:\n  - latin\n  \
                    - boxes\n  - primitive: distinct\n    regions: cages\n  - primitive: sum\n    regions: cages\n    \
                    clues: sums\n    distinct: true\n  - primitive: increasing\n    lines: bulbs\n";
        registry.add(Grammar::parse("test", text).unwrap(), "test".into());
        fit(&mut record, &registry).unwrap();
        assert_eq!(record["type"], "thermo-killer");
        assert_eq!(
            record["lines"]["bulbs"],
            serde_json::json!([[[0, 0], [1, 0]]])
        );
        assert!(record["lines"].get("thermos").is_none());
        // A whisper grammar apart by 4 is not the schema's German whispers.
        let dutch = "name: dutch\ndescription: d\nsections:\n  whispers: {kind: lines}\nrules:\n  - latin\n  - boxes\n  \
                     - primitive: apart\n    lines: whispers\n    by: 4\n";
        let mut only = Registry::built_in();
        only.add(Grammar::parse("test", dutch).unwrap(), "test".into());
        let whispers = serde_json::json!({"size": 4, "boxes": [2, 2], "lines": {"whispers": [[[0, 0], [0, 1]]]}});
        assert_eq!(fitted(whispers, &only).unwrap()["type"], "whispers");
        // Nor are lines of other classes entropic lines, even in a grammar that takes the name.
        let thirds = "name: entropic\ndescription: d\nsections:\n  e: {kind: lines}\nrules:\n  - latin\n  - boxes\n  \
                      - primitive: classes\n    lines: e\n    classes: [[1, 4, 7], [2, 5, 8], [3, 6, 9]]\n";
        let mut only = Registry::built_in();
        only.add(Grammar::parse("test", thirds).unwrap(), "test".into());
        let entropic = |n: usize, boxes: [usize; 2]| serde_json::json!({"size": n, "boxes": boxes, "lines": {"entropiclines": [[[0, 0], [0, 1]]]}});
        assert!(fitted(entropic(9, [3, 3]), &only).is_err());
        // The thirds listed for 9x9 are entropic there and nowhere else; the built-in type's, made at each
        // size, are entropic at every size with three equal runs.
        let listed = thirds.replace(
            "[[1, 4, 7], [2, 5, 8], [3, 6, 9]]",
            "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]",
        );
        let mut only = Registry::built_in();
        only.add(Grammar::parse("test", &listed).unwrap(), "test".into());
        assert_eq!(
            fitted(entropic(9, [3, 3]), &only).unwrap()["type"],
            "entropic"
        );
        assert!(fitted(entropic(6, [2, 3]), &only).is_err());
        let registry = Registry::built_in();
        // An 8x8 has no thirds: the error says so, rather than that no type has entropic lines.
        let e = fitted(entropic(8, [2, 4]), &registry)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("entropic lines at size 8") && e.contains("8 is not a multiple of 3"),
            "{e}"
        );
        for (n, boxes) in [(6, [2, 3]), (9, [3, 3]), (12, [3, 4])] {
            assert_eq!(
                fitted(entropic(n, boxes), &registry).unwrap()["type"],
                "entropic"
            );
        }
    }

    /// A mix takes the type made of the smallest type of each family: irregular regions drop the boxes the
    /// others have, marks of two families keep each family's "no other mark", and a family no type has is named.
    #[test]
    fn a_mix_no_grammar_declares_takes_a_type_made_of_types() {
        let registry = Registry::built_in();
        let jigsaw = serde_json::json!([
            ["a", "a", "a", "b"],
            ["a", "c", "b", "b"],
            ["c", "c", "d", "b"],
            ["c", "d", "d", "d"]
        ]);
        let record = serde_json::json!({"size": 4, "regions": jigsaw,
            "lines": {"thermos": [[[0, 0], [1, 0]]], "renban": [[[3, 3], [3, 2]]]}});
        let typed = fitted(record, &registry).unwrap();
        assert_eq!(typed["type"], "jigsaw+renban+thermo");
        assert!(!registry.get("jigsaw+renban+thermo").unwrap().uses_boxes);
        let marks = serde_json::json!({"size": 4, "boxes": [2, 2],
            "pairs": {"white": [[0, 0, 0, 1]], "x": [[1, 0, 1, 1]]}});
        let typed = fitted(marks, &registry).unwrap();
        assert_eq!(typed["type"], "kropki+xv");
        let some = serde_json::json!({"size": 4, "boxes": [2, 2],
            "pairs": {"black-open": [[0, 0, 0, 1]], "x": [[1, 0, 1, 1]]}});
        let typed = fitted(some, &registry).unwrap();
        assert_eq!(typed["type"], "kropki-dots+xv");
        let sides = serde_json::json!({"size": 4, "boxes": [2, 2],
            "edges": {"top": [1, null, null, null]}, "xsums": {"left": [null, 3, null, null]}});
        let typed = fitted(sides, &registry).unwrap();
        assert_eq!(typed["type"], "sandwich+x-sums");
        let odd = serde_json::json!({"size": 4, "boxes": [2, 2],
            "lines": {"thermos": [[[0, 0], [1, 0]]], "whispers-by-3": [[[3, 3], [3, 2]]]}});
        let e = fitted(odd, &registry).unwrap_err().to_string();
        assert!(e.contains("whispers 3 apart"), "{e}");
    }

    /// A Latin square's families take Latin-square types where there are some, and Sudoku types whose boxes a
    /// Latin-square part drops, `latin` itself when no other part is one; a Sudoku of the same families keeps its
    /// boxes.
    #[test]
    fn a_mix_on_a_latin_square_takes_a_type_without_boxes() {
        let registry = Registry::built_in();
        let cages = serde_json::json!({"killercages": [[[0, 0], [0, 1]]]});
        let marks = serde_json::json!([[1, 1, 1, 2]]);
        let square = serde_json::json!({"size": 4, "lines": cages, "consecutive": marks});
        let typed = fitted(square.clone(), &registry).unwrap();
        assert_eq!(typed["type"], "consecutive+killer-cages");
        assert!(!registry.get("consecutive+killer-cages").unwrap().uses_boxes);
        let mut sudoku = square;
        sudoku["boxes"] = serde_json::json!([2, 2]);
        assert_eq!(
            fitted(sudoku, &registry).unwrap()["type"],
            "consecutive-sudoku+killer-cages"
        );
        let between = serde_json::json!({"size": 4, "lines": {"betweenlines": [[[0, 0], [0, 1], [0, 2]]]},
            "pairs": {"clones": [[2, 0, 3, 1]]}});
        assert_eq!(
            fitted(between, &registry).unwrap()["type"],
            "between+clone+latin"
        );
    }

    /// A grammar whose thermometers are a section named `arrows` and its arrows one named `thermos`: each list
    /// goes to the section that means it, both ways, and neither is lost.
    #[test]
    fn sections_that_trade_names_lose_nothing() {
        let text = "name: swapped\ndescription: s\nsections:\n  arrows: {kind: lines}\n  thermos: {kind: lines}\n\
                    rules:\n  - latin\n  - boxes\n  - primitive: increasing\n    lines: arrows\n  \
                    - primitive: arrow-sum\n    lines: thermos\n";
        let mut registry = Registry::built_in();
        registry.add(Grammar::parse("test", text).unwrap(), "test".into());
        let (thermo, arrow) = (
            serde_json::json!([[[0, 0], [0, 1]]]),
            serde_json::json!([[[3, 3], [2, 2]]]),
        );
        let record = serde_json::json!({"size": 4, "boxes": [2, 2],
            "lines": {"thermos": thermo.clone(), "arrows": arrow.clone()}});
        let mut typed = fitted(record.clone(), &registry).unwrap();
        assert_eq!(typed["type"], "swapped");
        assert_eq!(
            typed["lines"],
            serde_json::json!({"arrows": thermo, "thermos": arrow})
        );
        in_schema_terms(&mut typed, &registry.get("swapped").unwrap()).unwrap();
        typed.as_object_mut().unwrap().remove("type");
        assert_eq!(typed, record);
    }
}
