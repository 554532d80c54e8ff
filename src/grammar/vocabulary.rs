//! The words a grammar may use: named whole-grid rules, and rule primitives with their parameters.
//!
//! This is the signature half of the vocabulary: enough to check a grammar file when it is loaded (an unknown
//! primitive, a missing or misspelt parameter, a section of the wrong kind) without knowing how a rule is
//! built. The other half, which turns parsed sections into rules, is `model::bind`; a test there keeps the two
//! in step, entry for entry.

use std::collections::BTreeMap;

use super::sections::{ClueKind, SectionKind, SectionSpec};
use super::Args;
use crate::yaml::Value;

/// What a parameter of a primitive use must be.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Param {
    /// The name of a section of this kind.
    Section(SectionKind, Need),
    /// A literal `true` / `false`.
    Flag,
    /// A literal `true` / `false`, or a list of some of the sections the `tags` parameter names (what the
    /// flag says, said of those tags alone: `exclusive: [black]`).
    FlagOrTags,
    /// A whole number from 1 to 255 (`by: 5`); required.
    Number,
    /// A map from sections of this kind to the relation each tags its pairs with (`{white: difference 1}`);
    /// required.
    Tags(SectionKind),
    /// Classes of values: a list of disjoint, non-empty lists of values from 1 to 64 (`[[1, 2, 3], [4, 5,
    /// 6], [7, 8, 9]]`), or a rule that makes them at any size (`{bands: 3}`, `{modulo: 3}`); required.
    Classes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Need {
    Required,
    Optional,
}

/// A primitive as grammars see it: its name, what it means, the parameters a use of it takes, and how the
/// sections it reads are drawn.
pub(crate) struct Signature {
    pub(crate) name: &'static str,
    pub(crate) description: &'static str,
    pub(crate) params: &'static [(&'static str, Param)],
    pub(crate) look: Look,
}

/// How a picture shows the sections a primitive reads, beyond what their kind already says (walls for
/// regions, signs for relations, numbers outside for edges, letters for marks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Look {
    /// Drawn by section kind alone.
    ByKind,
    /// Its lines are drawn in this style.
    Line(LineStyle),
    /// Its lines are drawn in the first style, or in the second when the named flag is on (every two cells of
    /// a nabner line apart, not only neighbours as on a whisper).
    LineOr(LineStyle, &'static str, LineStyle),
    /// Its pairs are white dots (neighbours that differ by 1).
    WhiteDots,
    /// Its pairs are drawn by the relation of their tag: white dot, black dot, X, V, ...
    Tags,
    /// Its lines are drawn as a white circle with the line's clue between each cell and the next (minarism's
    /// circled differences).
    CircledClues,
}

/// The printed look of a line primitive, as setters draw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineStyle {
    /// A thermometer: a bulb on the first cell, a thick grey line.
    Thermo,
    /// An arrow: a circle on the first cell, a thin line ending in an arrowhead.
    Arrow,
    /// A pill: the arrow's circle stretched over two or more cells, a rounded outline around them. The
    /// sections a primitive reads under the parameter `pills` are drawn so.
    Pill,
    /// A German whisper: a green line.
    Whisper,
    /// A renban: a purple line.
    Renban,
    /// A group of cells (an extra region): each cell shaded, no line.
    Region,
    /// A killer cage: a dashed outline just inside its cells, its sum (if any) in the first cell's corner.
    Cage,
    /// A between line: a grey line with a circle at each end.
    Between,
    /// A palindrome: a grey line.
    Palindrome,
    /// A sum along the line: an arrow into the grid with the clue at its tail (little killer).
    Sum,
    /// A region-sum line: a blue line.
    RegionSum,
    /// A zipper line: a lavender line.
    Zipper,
    /// A line whose every two cells are apart (a nabner): a khaki line.
    Spread,
    /// A lockout line: a blue line with a diamond at each end.
    Lockout,
    /// A line cut into segments of one total (a 10 line): a dark teal line.
    Segments,
    /// Cells that point somewhere (indexers): each cell tinted in this colour (`#rrggbb`), no line.
    Tint(&'static str),
    /// A line of classes (entropic, modular, parity): an orange line.
    Classes,
    /// A group with a list of values (a quadruple): a white circle where its cells meet, the values in it.
    Listed,
    /// Two cells a pair's relation joins though they are not neighbours (a clone's cell and its copy): a dot
    /// in each, a dashed line between them.
    Apart,
}

use Need::{Optional, Required};
use SectionKind as K;

/// The four sides' edge sections, which the outside-clue primitives read.
const SIDES: [(&str, Param); 4] = [
    ("top", Param::Section(K::Edge, Optional)),
    ("bottom", Param::Section(K::Edge, Optional)),
    ("left", Param::Section(K::Edge, Optional)),
    ("right", Param::Section(K::Edge, Optional)),
];

/// The sides and how many cells from each a frame clue covers.
const FRAME: [(&str, Param); 5] = [
    ("top", Param::Section(K::Edge, Optional)),
    ("bottom", Param::Section(K::Edge, Optional)),
    ("left", Param::Section(K::Edge, Optional)),
    ("right", Param::Section(K::Edge, Optional)),
    ("depth", Param::Number),
];

/// A frame's sides and depth, and whether a side without a clue says the opposite (Rossini's arrows).
const FRAME_ORDER: [(&str, Param); 6] = [
    ("top", Param::Section(K::Edge, Optional)),
    ("bottom", Param::Section(K::Edge, Optional)),
    ("left", Param::Section(K::Edge, Optional)),
    ("right", Param::Section(K::Edge, Optional)),
    ("depth", Param::Number),
    ("exclusive", Param::Flag),
];

/// Every primitive a grammar may use.
pub(crate) const PRIMITIVES: &[Signature] = &[
    Signature {
        name: "distinct",
        description: "the cells of each region hold different values (each region of n cells holds 1..n)",
        params: &[("regions", Param::Section(K::Regions, Required))],
        look: Look::ByKind,
    },
    Signature {
        name: "sum",
        description: "the values of each region add up to its clue; `distinct: true` also makes them differ",
        params: &[("regions", Param::Section(K::Regions, Required)), ("clues", Param::Section(K::Clues, Required)), ("distinct", Param::Flag)],
        look: Look::ByKind,
    },
    Signature {
        name: "product",
        description: "the values of each region multiply to its clue (tolerance-banded log sum)",
        params: &[("regions", Param::Section(K::Regions, Required)), ("clues", Param::Section(K::Clues, Required))],
        look: Look::ByKind,
    },
    Signature {
        name: "arithmetic",
        description: "each cage reaches its target with its operator (+ - x /), or with any of them when hidden",
        params: &[("regions", Param::Section(K::Regions, Required)), ("clues", Param::Section(K::Clues, Required))],
        look: Look::ByKind,
    },
    Signature {
        name: "less",
        description: "each listed relation holds (the smaller cell's value is less)",
        params: &[("relations", Param::Section(K::Relations, Required))],
        look: Look::ByKind,
    },
    Signature {
        name: "consecutive",
        description: "listed neighbours differ by exactly 1; with `exclusive` (default) no other neighbours do",
        params: &[("pairs", Param::Section(K::Pairs, Required)), ("exclusive", Param::Flag)],
        look: Look::WhiteDots,
    },
    Signature {
        name: "tagged-pairs",
        description: "each pair of a tag's section satisfies the tag's relation (`tags: {white: difference 1, black: ratio 2}`); with `exclusive: true`, neighbours in no section satisfy none of them; `exclusive: [black]` says that of the listed tags alone (every black dot given, white dots where shown)",
        params: &[("tags", Param::Tags(K::Pairs)), ("exclusive", Param::FlagOrTags)],
        look: Look::Tags,
    },
    Signature {
        name: "visibility",
        description: "skyscrapers: each edge clue counts the buildings seen from that side; with `sum: true` it is the sum of their heights",
        params: &[
            ("top", Param::Section(K::Edge, Optional)),
            ("bottom", Param::Section(K::Edge, Optional)),
            ("left", Param::Section(K::Edge, Optional)),
            ("right", Param::Section(K::Edge, Optional)),
            ("sum", Param::Flag),
        ],
        look: Look::ByKind,
    },
    Signature {
        name: "sandwich",
        description: "each edge clue is the sum of the values between the 1 and the n of its row or column",
        params: &SIDES,
        look: Look::ByKind,
    },
    Signature {
        name: "numbered-room",
        description: "each edge clue is the value in the X-th cell seen from that side, where X is the nearest value",
        params: &SIDES,
        look: Look::ByKind,
    },
    Signature {
        name: "x-sum",
        description: "each edge clue is the sum of the first X values seen from that side, where X is the nearest value",
        params: &SIDES,
        look: Look::ByKind,
    },
    Signature {
        name: "battlefield",
        description: "each edge clue is the sum of the cells where two armies meet, or of those between them where they stop short; the armies march in from both ends of the row or column, each as many cells as its first value",
        params: &SIDES,
        look: Look::ByKind,
    },
    Signature {
        name: "frame-sum",
        description: "each edge clue is the sum of the first `depth` values seen from that side (frame Sudoku, janko.at's Randsummen: `depth: 3`)",
        params: &FRAME,
        look: Look::ByKind,
    },
    Signature {
        name: "frame-contains",
        description: "every value of an edge clue appears among the first `depth` cells seen from that side, a value listed twice in two of them (Outside Sudoku: `depth: 3`, edge sections with `clue: values`)",
        params: &FRAME,
        look: Look::ByKind,
    },
    Signature {
        name: "frame-order",
        description: "an arrow outside a row or column (edge sections with `clue: arrows`) says its first `depth` values seen from that side strictly increase toward where it points; `exclusive: true`: where a side has no arrow they are neither increasing nor decreasing (Rossini: `depth: 3`)",
        params: &FRAME_ORDER,
        look: Look::ByKind,
    },
    Signature {
        name: "peaks",
        description: "each cell marked in the marks section is greater than every orthogonal neighbour the section leaves unmarked (Fortress Sudoku's grey cells, a mark meaning `any`); `less: true`: smaller",
        params: &[
            ("marks", Param::Section(K::Marks, Required)),
            ("less", Param::Flag),
        ],
        look: Look::ByKind,
    },
    Signature {
        name: "increasing",
        description: "values strictly increase along each line (thermometers, bulb first); with `slow: true` they never decrease (slow thermometers)",
        params: &[
            ("lines", Param::Section(K::Lines, Required)),
            ("slow", Param::Flag),
        ],
        look: Look::Line(LineStyle::Thermo),
    },
    Signature {
        name: "apart",
        description: "neighbours on each line differ by at least `by` (whispers: `by: 5`); with `every: true`, every two cells of a line do (nabner: `by: 2`)",
        params: &[("lines", Param::Section(K::Lines, Required)), ("by", Param::Number), ("every", Param::Flag)],
        look: Look::LineOr(LineStyle::Whisper, "every", LineStyle::Spread),
    },
    Signature {
        name: "mirror",
        description: "each line reads the same both ways (palindromes)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Palindrome),
    },
    Signature {
        name: "arrow-sum",
        description: "the first cell of each line equals the sum of the others; digits may repeat (arrows, circle first); with `pills`, a line that starts in a pill adds up to the number its digits read (pill arrows); with `distinct: true` no digit repeats along an arrow (its cells after the circle or pill)",
        params: &[("lines", Param::Section(K::Lines, Required)), ("pills", Param::Section(K::Lines, Optional)), ("distinct", Param::Flag)],
        look: Look::Line(LineStyle::Arrow),
    },
    Signature {
        name: "consecutive-set",
        description: "each line's values are distinct and consecutive, in any order (renban)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Renban),
    },
    Signature {
        name: "line-sum",
        description: "the values along each line add up to its `= N` clue; digits may repeat (little killer)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Sum),
    },
    Signature {
        name: "cage",
        description: "the cells of each entry differ and, with `= N`, add up to N (killer cages where the setter drew them, a sum or none; cells in no cage are free); with `repeat: true` digits may repeat in a cage, which then says only its clue; with `product: true` the clue is the product of the cage's digits, not their sum",
        params: &[("lines", Param::Section(K::Lines, Required)), ("repeat", Param::Flag), ("product", Param::Flag)],
        look: Look::Line(LineStyle::Cage),
    },
    Signature {
        name: "all-different",
        description: "the cells of each entry of a lines section differ (extra regions: a section with `anywhere: true`; an entry of n cells holds 1..n)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Region),
    },
    Signature {
        name: "lockout",
        description: "the two ends of each line differ by at least `by` and the cells between them hold values outside the ends' range, never equal to either (lockout lines: `by: 4`)",
        params: &[("lines", Param::Section(K::Lines, Required)), ("by", Param::Number)],
        look: Look::Line(LineStyle::Lockout),
    },
    Signature {
        name: "row-indexer",
        description: "each cell of each entry is a row indexer: holding v, it puts its own row number in row v of its column (entries are groups of cells: a section with `anywhere: true`)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Tint("#cfe9cf")),
    },
    Signature {
        name: "column-indexer",
        description: "each cell of each entry is a column indexer: holding v, it puts its own column number in column v of its row (159 Sudoku: columns 1, 5 and 9)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Tint("#f2d0d0")),
    },
    Signature {
        name: "box-indexer",
        description: "each cell of each entry is a box indexer: holding v, it puts its own place in its box in the v-th cell of that box (places in reading order)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Tint("#d4d4f2")),
    },
    Signature {
        name: "contains",
        description: "the cells of each entry hold every value listed after its `=`, a value listed twice in two cells (quadruples: a section with `anywhere: true` and `clue: values`)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Listed),
    },
    Signature {
        name: "diagonal-pairs",
        description: "the two diagonal pairs of each 2x2 entry (the cells that meet only at its centre) each reach its `= N` clue with its operator: `4+` their sum, `3-` their difference, `6x` their product, `2/` their ratio, a bare number any of them (Mathrax: a section with `block: true` and `clue: arithmetic`)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Listed),
    },
    Signature {
        name: "within",
        description: "every cell of each entry holds a value its `= MARK` clue allows (Mathrax's E and O circles: a section with `clue: marks` and `marks: {E: even, O: odd}`)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Listed),
    },
    Signature {
        name: "between",
        description: "the cells inside each line hold values strictly between those of its two ends (between lines, circles at both ends)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Between),
    },
    Signature {
        name: "difference",
        description: "neighbours on each line differ by exactly its `= N` clue (minarism's circled numbers, each a line of two cells)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::CircledClues,
    },
    Signature {
        name: "segment-sum",
        description: "each line divides into one or more segments, in order along it, each adding up to `total`; digits may repeat within a segment (10 lines: `total: 10`)",
        params: &[("lines", Param::Section(K::Lines, Required)), ("total", Param::Number)],
        look: Look::Line(LineStyle::Segments),
    },
    Signature {
        name: "region-sum",
        description: "each line's pieces in the boxes it passes through (or the regions of `regions`) add up to the same total; a line that leaves a box and comes back has a piece each time",
        params: &[("lines", Param::Section(K::Lines, Required)), ("regions", Param::Section(K::Regions, Optional))],
        look: Look::Line(LineStyle::RegionSum),
    },
    Signature {
        name: "zipper",
        description: "cells the same distance from each line's middle add up to the same total, the middle cell's value when the line has one (zipper lines)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Zipper),
    },
    Signature {
        name: "double-arrow",
        description: "the two ends of each line (its circles) add up to the cells between them; digits may repeat (double arrows)",
        params: &[("lines", Param::Section(K::Lines, Required))],
        look: Look::Line(LineStyle::Between),
    },
    Signature {
        name: "classes",
        description: "with k classes of values, every k cells in a row along each line hold one value of each class (as lists, `classes: [[1, 2, 3], [4, 5, 6], [7, 8, 9]]`, or made at any size: entropic lines `{bands: 3}`, modular `{modulo: 3}`; a line shorter than k takes different classes); values of no class stay off the line",
        params: &[("lines", Param::Section(K::Lines, Required)), ("classes", Param::Classes)],
        look: Look::Line(LineStyle::Classes),
    },
    Signature {
        name: "marks",
        description: "each marked cell holds a value its mark allows (e.g. E even, O odd)",
        params: &[("marks", Param::Section(K::Marks, Required))],
        look: Look::ByKind,
    },
];

/// Named whole-grid rules with a one-line description each: the words of a grammar's or a puzzle's `rules:`.
pub(crate) const NAMED_RULES: &[(&str, &str)] = &[
    ("latin", "every row and every column holds 1..n once"),
    (
        "boxes",
        "every box (`box: HxW`, default near-square) holds 1..n once",
    ),
    ("diagonals", "both main diagonals hold 1..n once"),
    (
        "main-diagonal",
        "the diagonal from the top-left corner to the bottom-right holds 1..n once",
    ),
    (
        "anti-diagonal",
        "the diagonal from the bottom-left corner to the top-right holds 1..n once",
    ),
    ("anti-knight", "cells a chess knight's move apart differ"),
    ("anti-king", "diagonally touching cells differ"),
    ("non-consecutive", "orthogonal neighbours never differ by 1"),
    (
        "disjoint-groups",
        "the cells at one place inside their boxes (every box's centre, every top-left corner, ...) hold 1..n once",
    ),
    (
        "windoku",
        "four extra 3x3 regions of a 9x9 (rows and columns 2-4 and 6-8) hold 1..9",
    ),
    (
        "magic-centre",
        "the rows and columns of the centre 3x3 box of a 9x9 each sum to 15",
    ),
    (
        "asterisk",
        "nine cells of a 9x9 in an asterisk around the centre (r2c5, r3c3, r3c7, r5c2, r5c5, r5c8, r7c3, r7c7, r8c5) hold 1..9",
    ),
    (
        "girandola",
        "nine cells of a 9x9, the corners and a pinwheel round the centre (r1c1, r1c9, r2c5, r5c2, r5c5, r5c8, r8c5, r9c1, r9c9), hold 1..9",
    ),
    (
        "centre-dot",
        "the centre cells of the nine boxes of a 9x9 hold 1..9",
    ),
];

/// Whether `name` is a named rule.
pub(crate) fn is_named_rule(name: &str) -> bool {
    NAMED_RULES.iter().any(|(k, _)| *k == name)
}

/// `, did you mean diagonals?` for a rule name that looks like a slip for a known one, else empty; nothing for
/// two list items read as one (`latin - boxes`), which [`crate::error::indentation_hint`] explains instead.
pub(crate) fn rule_suggestion(name: &str) -> String {
    if name.contains(" - ") {
        return String::new();
    }
    super::did_you_mean(name, NAMED_RULES.iter().map(|(k, _)| *k))
}

/// The named rules, comma-separated, for messages.
pub(crate) fn named_rule_list() -> String {
    NAMED_RULES
        .iter()
        .map(|(k, _)| *k)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sections a primitive use reads, each with the parameter naming it: its section parameters, and the keys
/// of its tags.
pub(crate) fn sections_read<'a>(primitive: &str, args: &'a Args) -> Vec<(&'static str, &'a str)> {
    let Some(signature) = spec(primitive) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(param, kind) in signature.params {
        match (kind, args.get(param)) {
            (Param::Section(..), Some(Value::String(s))) => out.push((param, s.as_str())),
            (Param::Tags(_), Some(Value::Mapping(tags))) => {
                out.extend(tags.keys().filter_map(Value::as_str).map(|s| (param, s)))
            }
            _ => {}
        }
    }
    out
}

pub(crate) fn spec(name: &str) -> Option<&'static Signature> {
    PRIMITIVES.iter().find(|p| p.name == name)
}

/// Checks a map of tags: each key a section of kind `want`, each value a pair relation.
fn check_tags(
    primitive: &str,
    param: &str,
    want: SectionKind,
    value: Option<&Value>,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    let example = "e.g. `{white: difference 1, black: ratio 2}`";
    let Some(Value::Mapping(map)) = value else {
        return Err(format!(
            "primitive {primitive}: `{param}:` must map sections to relations, {example}"
        ));
    };
    if map.is_empty() {
        return Err(format!(
            "primitive {primitive}: `{param}:` needs at least one section, {example}"
        ));
    }
    for (k, v) in map {
        let name = k.as_str().unwrap_or_default();
        section_of_kind(sections, name, want)
            .map_err(|e| format!("primitive {primitive}: `{param}`: {name:?} {e}"))?;
        let phrase = v.as_str().unwrap_or_default();
        crate::parse::clues::pair_relation(phrase)
            .map_err(|e| format!("primitive {primitive}: `{param}`: {name}: {e}"))?;
    }
    Ok(())
}

/// Checks a flag said of tags: `true` / `false`, or a list of distinct keys of the use's `tags`, at least one.
fn check_flag_or_tags(
    primitive: &str,
    param: &str,
    value: &Value,
    args: &Args,
) -> Result<(), String> {
    if value.as_bool().is_some() {
        return Ok(());
    }
    let tags: Vec<&str> = match args.get("tags") {
        Some(Value::Mapping(tags)) => tags.keys().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let wrong = || {
        format!(
            "primitive {primitive}: `{param}:` must be true, false or a list of some of the tags ({})",
            tags.join(", ")
        )
    };
    let Value::Sequence(listed) = value else {
        return Err(wrong());
    };
    let mut seen = Vec::new();
    for item in listed {
        let name = item.as_str().ok_or_else(wrong)?;
        if !tags.contains(&name) {
            return Err(format!(
                "primitive {primitive}: `{param}:` {name:?} is not one of the tags ({})",
                tags.join(", ")
            ));
        }
        if seen.contains(&name) {
            return Err(format!(
                "primitive {primitive}: `{param}:` lists {name:?} twice"
            ));
        }
        seen.push(name);
    }
    if seen.is_empty() {
        return Err(wrong());
    }
    Ok(())
}

/// Whether `name` is a section of kind `want`; else what is wrong with it, for a message that starts with where it
/// was written: it names no section (and the section of that kind it most likely meant), or one of another kind.
fn section_of_kind(
    sections: &BTreeMap<String, SectionSpec>,
    name: &str,
    want: SectionKind,
) -> Result<(), String> {
    match sections.get(name) {
        Some(s) if s.kind == want => Ok(()),
        Some(s) => Err(format!("must be a {want} section, it is {}", s.kind)),
        None => {
            let alike = sections
                .iter()
                .filter(|(_, s)| s.kind == want)
                .map(|(k, _)| k.as_str());
            Err(format!(
                "names no section of this grammar{}",
                super::did_you_mean(name, alike)
            ))
        }
    }
}

/// Checks a primitive use against the grammar's sections when the grammar is loaded.
pub(crate) fn check_use(
    primitive: &str,
    args: &Args,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    let known: Vec<&str> = PRIMITIVES.iter().map(|p| p.name).collect();
    let spec = spec(primitive).ok_or_else(|| {
        format!(
            "unknown primitive {primitive:?}{} (known: {})",
            super::did_you_mean(primitive, known.iter().copied()),
            known.join(", ")
        )
    })?;
    for key in args.keys() {
        if !spec.params.iter().any(|(p, _)| p == key) {
            let params: Vec<&str> = spec.params.iter().map(|(p, _)| *p).collect();
            return Err(format!(
                "primitive {primitive}: unknown parameter {key:?}{} (it takes {})",
                super::did_you_mean(key, params.iter().copied()),
                params.join(", ")
            ));
        }
    }
    for (param, kind) in spec.params {
        match (kind, args.get(*param)) {
            (Param::Section(_, Required), None) => {
                return Err(format!("primitive {primitive}: `{param}:` is required"))
            }
            (Param::Section(want, _), Some(v)) => {
                let name = v.as_str().ok_or_else(|| {
                    format!("primitive {primitive}: `{param}:` must name a section")
                })?;
                section_of_kind(sections, name, *want)
                    .map_err(|e| format!("primitive {primitive}: `{param}: {name}` {e}"))?;
            }
            (Param::Flag, Some(v)) if v.as_bool().is_none() => {
                return Err(format!(
                    "primitive {primitive}: `{param}:` must be true or false"
                ))
            }
            (Param::Number, v)
                if v.and_then(Value::as_u64)
                    .is_none_or(|k| !(1..=255).contains(&k)) =>
            {
                return Err(format!(
                    "primitive {primitive}: `{param}:` must be a whole number from 1 to 255"
                ))
            }
            (Param::Tags(want), v) => check_tags(primitive, param, *want, v, sections)?,
            (Param::FlagOrTags, Some(v)) => check_flag_or_tags(primitive, param, v, args)?,
            (Param::Classes, v) => {
                super::classes::classes(v)
                    .map_err(|e| format!("primitive {primitive}: `{param}:` {e}"))?;
            }
            _ => {}
        }
    }
    check_line_clues(primitive, args, sections)?;
    check_edge_clues(primitive, args, sections)?;
    check_region_clues(primitive, args, sections)
}

/// The clue a primitive's lines section reads: a list of values is what `contains` reads, and only it; an
/// arithmetic clue is what `diagonal-pairs` reads, and only it, on 2x2 blocks; a mark is what `within` reads, and
/// only it.
fn check_line_clues(
    primitive: &str,
    args: &Args,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    if let Some(lines) = args.get("lines").and_then(Value::as_str) {
        let spec = &sections[lines];
        let readers = [
            (ClueKind::Values, "values", "contains"),
            (ClueKind::Arithmetic, "arithmetic", "diagonal-pairs"),
            (ClueKind::Marks, "marks", "within"),
        ];
        check_readers(
            primitive,
            &format!("lines section {lines:?}"),
            spec,
            &readers,
        )?;
        if primitive == "diagonal-pairs" && !spec.block {
            return Err(format!(
                "primitive {primitive}: lines section {lines:?} must have `block: true` (2x2 entries)"
            ));
        }
    }
    Ok(())
}

/// Edge clues that are sets of values are what `frame-contains` reads, and only it; arrows what `frame-order`
/// reads, and only it.
fn check_edge_clues(
    primitive: &str,
    args: &Args,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    for side in ["top", "bottom", "left", "right"] {
        let Some((name, spec)) = args
            .get(side)
            .and_then(Value::as_str)
            .and_then(|name| sections.get(name).map(|spec| (name, spec)))
            .filter(|(_, spec)| spec.kind == SectionKind::Edge)
        else {
            continue;
        };
        let readers = [
            (ClueKind::Values, "values", "frame-contains"),
            (ClueKind::Arrows, "arrows", "frame-order"),
        ];
        check_readers(primitive, &format!("edge section {name:?}"), spec, &readers)?;
    }
    Ok(())
}

/// A kind of clue that one primitive alone reads (`(kind, its word, the primitive)`): the section `what` of
/// `primitive` has it exactly when `primitive` is that reader.
fn check_readers(
    primitive: &str,
    what: &str,
    spec: &SectionSpec,
    readers: &[(ClueKind, &str, &str)],
) -> Result<(), String> {
    for &(clue, word, reader) in readers {
        let has = spec.clue == clue;
        if has != (primitive == reader) {
            return Err(match has {
                false => format!("primitive {primitive}: {what} must have `clue: {word}`"),
                true => format!(
                    "primitive {primitive}: {what} has `clue: {word}`, which only `{reader}` reads"
                ),
            });
        }
    }
    Ok(())
}

/// A clues section belongs to the regions section the primitive reads beside it, and holds the clues it reads.
fn check_region_clues(
    primitive: &str,
    args: &Args,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    if let (Some(regions), Some(clues)) = (
        args.get("regions").and_then(Value::as_str),
        args.get("clues").and_then(Value::as_str),
    ) {
        let c = &sections[clues];
        if c.of.as_deref() != Some(regions) {
            return Err(format!(
                "primitive {primitive}: clues section {clues:?} is `of: {:?}`, not {regions:?}",
                c.of
            ));
        }
        let want = if primitive == "arithmetic" {
            ClueKind::Arithmetic
        } else {
            ClueKind::Integer
        };
        if c.clue != want {
            return Err(format!(
                "primitive {primitive}: clues section {clues:?} must have `clue: {want}`"
            ));
        }
    }
    Ok(())
}
