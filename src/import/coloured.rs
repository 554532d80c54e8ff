//! Lines whose rule only the rules text says. A setter draws a German whisper, a renban or a parity line as a
//! plain coloured line (f-puzzles' cosmetic `line`, a SudokuPad line of any colour, a Penpa+ line) and writes
//! what each colour means: "Adjacent digits along a green line differ by at least 5", "Purple lines contain a set of consecutive
//! digits in any order". Read as plain Sudoku such a puzzle has many solutions, so every importer refused those
//! lines; most puzzles published with whispers or renban are drawn so.
//!
//! Each colour of line is matched to the sentences that name that colour and a line (a colour word covers a
//! band of hues: `#F067F0` is purple, pink and magenta alike), each sentence to the line rule it states, and the
//! lines become that rule's f-puzzles constraint, which the f-puzzles reader takes as it takes any other. One
//! colour of line and sentences about "the line" that name no colour is read the same way. A colour no sentence
//! names, a sentence about it that states no rule latin has (or narrows one, "may not repeat"), or two rules for
//! one colour is an error naming the colour and the sentence: a line read as the wrong rule would give a wrong
//! answer, and guessing is worse than asking for the puzzle in a form that says its rules.
//!
//! The other way, [`redraw`] draws line rules so (one colour each, with the sentence [`read`] reads back) for
//! the forms that have no constraint for them: every one in Penpa+, parity lines in f-puzzles.

use serde_json::{json, Value as Json};

/// A line rule latin reads from a sentence: the f-puzzles key it becomes, and the whispers' gap where the
/// sentence gives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LineRule {
    key: &'static str,
    gap: Option<u64>,
}

/// The f-puzzles key a coloured line read as a parity line becomes: f-puzzles has no parity line, so this key
/// is latin's own, read by the f-puzzles reader; latin's writers redraw it as a red line before any link is
/// written.
pub(super) const PARITY_LINE: &str = "parityline";

/// The f-puzzles key a coloured line read as a 10 line becomes (latin's own, as [`PARITY_LINE`]).
pub(super) const TEN_LINE: &str = "tenline";

/// How each line rule is drawn where a form has no constraint for it (f-puzzles: parity lines; Penpa+: every
/// one): a colour, and the sentence that gives that colour its rule, which [`read`] reads back (`{gap}` is a
/// whisper's). The colours lie far enough apart that each sentence's colour word names its own.
const REDRAWN: [(&str, &str, &str); 10] = [
    ("whispers", "#208020", "Adjacent digits along a green line differ by at least {gap}."),
    ("renban", "#8040C0", "Digits on a purple line are a set of consecutive digits in any order."),
    ("palindrome", "#999999", "A grey line is a palindrome: it reads the same both ways."),
    (
        "regionsumline",
        "#187BCD",
        "Digits on a blue line have an equal sum within each box the line passes through.",
    ),
    (
        "entropicline",
        "#FF8000",
        "Any three consecutive cells along an orange line hold a low (1-3), a middle (4-6) and a high (7-9) digit.",
    ),
    (
        "modularline",
        "#008080",
        "Any three consecutive digits along a teal line have different remainders mod 3.",
    ),
    (
        "zipperline",
        "#FF69B4",
        "A pink line is a zipper line: digits equidistant from its centre have the same sum, the centre digit on a line of odd length.",
    ),
    ("nabner", "#E0C000", "No two digits on a yellow line are consecutive, and no digit repeats on it."),
    (
        TEN_LINE,
        "#000000",
        "A black line divides into one or more segments, in order along it, each adding up to 10.",
    ),
    (
        PARITY_LINE,
        "#E03030",
        "Two cells adjacent along a red line contain one odd digit and one even digit.",
    ),
];

/// The f-puzzles JSON's line rules as cosmetic lines of their colours, with their sentences added to its rules
/// text: what a form without those constraints draws.
pub(super) fn redraw(puzzle: &mut Json, keys: &[&str]) -> Result<(), String> {
    let n = puzzle["size"].as_u64().unwrap_or(0) as usize;
    for (key, colour, sentence) in REDRAWN.iter().filter(|r| keys.contains(&r.0)) {
        let entries = super::fpuzzles::list(puzzle, key).to_vec();
        if entries.is_empty() {
            continue;
        }
        let mut sentence = (*sentence).to_owned();
        if *key == "whispers" {
            let gaps = entries
                .iter()
                .map(|e| super::fpuzzles::whisper_gap(e, n).map_err(|e| e.to_string()))
                .collect::<Result<std::collections::BTreeSet<u64>, String>>()?;
            let [gap] = gaps.into_iter().collect::<Vec<_>>()[..] else {
                return Err(
                    "whispers of two gaps, which one colour of line cannot tell apart".into(),
                );
            };
            sentence = sentence.replace("{gap}", &gap.to_string());
        }
        for entry in &entries {
            for cells in super::fpuzzles::list(entry, "lines") {
                let line = json!({"lines": [cells], "outlineC": colour, "width": 0.25});
                super::fpuzzles::push(puzzle, "line", line);
            }
        }
        puzzle.as_object_mut().expect("an object").remove(*key);
        super::globals::said(puzzle, &sentence);
    }
    Ok(())
}

/// The f-puzzles keys of every line rule [`redraw`] can draw.
pub(super) fn line_rules() -> Vec<&'static str> {
    REDRAWN.iter().map(|r| r.0).collect()
}

/// Writes the record's parity lines and 10 lines, which f-puzzles has no constraint for, into the f-puzzles
/// JSON as cosmetic lines and the sentences that read back.
pub(super) fn write(record: &Json, out: &mut Json) -> Result<(), crate::error::Error> {
    let mut keys = Vec::new();
    for (section, key) in [("paritylines", PARITY_LINE), ("tenlines", TEN_LINE)] {
        let lines = super::fpuzzles::list(&record["lines"], section);
        for l in lines {
            let cells = super::fpuzzles::cell_list(l)?;
            super::fpuzzles::push(out, key, json!({ "lines": [cells] }));
        }
        if !lines.is_empty() {
            keys.push(key);
        }
    }
    if keys.is_empty() {
        return Ok(());
    }
    redraw(out, &keys).map_err(|e| super::bad(super::Format::Fpuzzles, e))
}

/// Replaces the f-puzzles JSON's cosmetic `line` entries by the constraints the rules text gives their colours.
pub(super) fn read(out: &mut Json) -> Result<(), String> {
    let Some(entries) = out["line"].as_array().filter(|l| !l.is_empty()).cloned() else {
        return Ok(());
    };
    let rules = out["ruleset"].as_str().unwrap_or_default().to_lowercase();
    let sentences = super::globals::sentences_of(&rules);
    let colours = groups(&entries)?;
    let names: Vec<Vec<(&str, f32)>> = colours.iter().map(|(c, _)| colour_words(c)).collect();
    let mut said = Vec::new();
    for (i, (colour, lines)) in colours.iter().enumerate() {
        let first = lines.first().and_then(|l| l[0].as_str()).unwrap_or("?");
        let called = format!(
            "{} lines ({colour}, the first from {})",
            names[i][0].0,
            first.to_lowercase()
        );
        let mine = |words: &[&str]| names_nearest(words, &names, i);
        let rule = match named_rule(&sentences, mine, &called)? {
            Some(rule) => rule,
            None => unnamed_rule(&sentences, colours.len(), names[i][0].0, &called)?,
        };
        said.push((rule, lines));
    }
    for (rule, lines) in said {
        for cells in lines {
            let mut entry = json!({ "lines": [cells] });
            if let Some(gap) = rule.gap {
                entry["value"] = json!(gap);
            }
            super::fpuzzles::push(out, rule.key, entry);
        }
    }
    out.as_object_mut().expect("an object").remove("line");
    Ok(())
}

/// The most colours of line read: a puzzle has a few, and each is matched against every sentence.
const MAX_COLOURS: usize = 16;

/// The lines of each colour, in the order the colours are first drawn.
fn groups(entries: &[Json]) -> Result<Vec<(String, Vec<Json>)>, String> {
    let mut groups: Vec<(String, Vec<Json>)> = Vec::new();
    for entry in entries {
        let colour = entry["outlineC"].as_str().unwrap_or_default().trim();
        if csscolorparser::parse(colour).is_err() {
            return Err(format!(
                "a line of colour {colour:?}, which is no colour latin knows"
            ));
        }
        let key = colour.to_ascii_uppercase();
        let lines = entry["lines"].as_array().cloned().unwrap_or_default();
        if let Some((_, all)) = groups.iter_mut().find(|(k, _)| *k == key) {
            all.extend(lines);
        } else if groups.len() == MAX_COLOURS {
            return Err(format!(
                "lines of more than {MAX_COLOURS} colours; latin reads up to {MAX_COLOURS}"
            ));
        } else {
            groups.push((key, lines));
        }
    }
    Ok(groups)
}

/// The rule of the sentences that name this colour (`mine`) and a line, if any does.
fn named_rule(
    sentences: &[(&str, Vec<&str>)],
    mine: impl Fn(&[&str]) -> bool,
    called: &str,
) -> Result<Option<LineRule>, String> {
    let mut found: Option<(LineRule, &str)> = None;
    for (sentence, words) in sentences {
        if !about_lines(words) || !mine(words) {
            continue;
        }
        let Some(rule) = rule_of(words) else {
            // "Digits may repeat on lines": says what a line allows, not a rule of its own.
            if super::globals::repeats_allowed(words) {
                continue;
            }
            return Err(format!(
                "the rules text says of {called} `{}`, which latin does not read as a line rule it has",
                sentence.trim()
            ));
        };
        match found {
            Some((other, first)) if other != rule => {
                return Err(format!(
                    "the rules text gives {called} two rules: `{first}` and `{}`",
                    sentence.trim()
                ))
            }
            _ => found = Some((rule, sentence.trim())),
        }
    }
    Ok(found.map(|(rule, _)| rule))
}

/// The rule of "the line" in sentences that name no colour, when the puzzle has lines of one colour only.
fn unnamed_rule(
    sentences: &[(&str, Vec<&str>)],
    colours: usize,
    name: &str,
    called: &str,
) -> Result<LineRule, String> {
    let rules: Vec<LineRule> = sentences
        .iter()
        .filter(|(_, words)| about_lines(words) && !words.iter().any(|w| COLOUR_WORDS.contains(w)))
        .filter_map(|(_, words)| rule_of(words))
        .collect();
    match rules.split_first() {
        Some((&rule, rest)) if colours == 1 && rest.iter().all(|&r| r == rule) => Ok(rule),
        _ => Err(format!(
            "no sentence of the rules text says what {called} mean, in words latin reads (\"digits along a {} line differ by at least 5\")",
            name
        )),
    }
}

/// Whether a sentence names colour `i` of those drawn: one of its colour words describes that colour, and no
/// other drawn colour better ("blue" beside a teal and a blue line names the blue one).
fn names_nearest(words: &[&str], names: &[Vec<(&str, f32)>], i: usize) -> bool {
    let distance = |k: usize, w: &str| names[k].iter().find(|(n, _)| *n == w).map(|&(_, d)| d);
    words.iter().filter(|w| COLOUR_WORDS.contains(w)).any(|w| {
        distance(i, w).is_some_and(|mine| {
            (0..names.len()).all(|k| distance(k, w).is_none_or(|other| mine <= other))
        })
    })
}

fn about_lines(words: &[&str]) -> bool {
    words.iter().any(|w| ["line", "lines"].contains(w))
}

/// The line rule a sentence (its words, lower case) states, if it states one latin has: the rule it names
/// ("renban", "German whispers"), else the one it describes ("a set of consecutive digits in any order"), and
/// none where it names or describes two.
fn rule_of(words: &[&str]) -> Option<LineRule> {
    let has = |w: &str| words.contains(&w);
    let any = |ws: &[&str]| ws.iter().any(|w| has(w));
    let starts = |p: &str| words.iter().any(|x| x.starts_with(p));
    let pair = |a: &str, b: &str| words.windows(2).any(|p| p[0] == a && p[1] == b);
    let apart = pair("non", "consecutive") || pair("not", "consecutive") || pair("no", "two");
    let run = ["digits", "numbers", "integers", "values", "set", "run"]
        .iter()
        .any(|w| pair("consecutive", w));
    // (key, named, described)
    let rules = [
        ("nabner", has("nabner"), has("consecutive") && apart),
        (
            "renban",
            has("renban"),
            run && !apart && any(&["order", "set", "run", "sequence"]),
        ),
        (
            "palindrome",
            starts("palindrom"),
            any(&["read", "reads"]) && has("same"),
        ),
        (
            "regionsumline",
            pair("region", "sum"),
            any(&["sum", "sums", "total"])
                && any(&["box", "boxes", "region", "regions"])
                && any(&["same", "equal", "equals"]),
        ),
        (
            "entropicline",
            has("entropic"),
            has("low") && has("middle") && has("high"),
        ),
        (
            "modularline",
            has("modular"),
            any(&["mod", "modulo", "remainder", "remainders"]),
        ),
        (
            "zipperline",
            starts("zipper"),
            has("equidistant") && any(&["centre", "center", "middle"]),
        ),
        (
            TEN_LINE,
            pair("10", "line")
                || pair("10", "lines")
                || pair("ten", "line")
                || pair("ten", "lines"),
            starts("segment")
                && any(&["10", "ten"])
                && any(&["sum", "sums", "add", "adds", "adding", "total", "totals"]),
        ),
        (
            PARITY_LINE,
            has("parity"),
            has("odd") && has("even") && any(&["alternate", "alternating", "alternates", "one"]),
        ),
    ];
    let whisper = whispers(words);
    let named_whisper = words.iter().any(|w| w.starts_with("whisper"));
    let pick = |named: bool| {
        let mut found = rules
            .iter()
            .filter(|r| if named { r.1 } else { r.2 })
            .map(|r| LineRule {
                key: r.0,
                gap: None,
            })
            .chain(whisper.filter(|_| named == named_whisper));
        let rule = found.next()?;
        found.next().is_none().then_some(rule)
    };
    let named = rules.iter().filter(|r| r.1).count() + usize::from(named_whisper);
    match named {
        0 => pick(false),
        1 => pick(true),
        _ => None,
    }
}

/// Whispers: "differ by at least K" ("K or more"), or named so; Dutch whispers are 4 apart unless said.
fn whispers(words: &[&str]) -> Option<LineRule> {
    let has = |w: &str| words.contains(&w);
    let named = words.iter().any(|w| w.starts_with("whisper"));
    let differ = words.iter().any(|w| w.starts_with("differ"));
    let least = words
        .iter()
        .position(|&w| w == "least")
        .and_then(|i| words.get(i + 1))
        .and_then(|w| number(w));
    let or_more = words.windows(3).find_map(|w| {
        (w[1] == "or" && ["more", "greater", "higher"].contains(&w[2]))
            .then(|| number(w[0]))
            .flatten()
    });
    let gap = least.or(or_more);
    if has("most") || !(named || (differ && gap.is_some())) {
        return None;
    }
    let gap = gap.or_else(|| has("dutch").then_some(4));
    Some(LineRule {
        key: "whispers",
        gap,
    })
}

fn number(word: &str) -> Option<u64> {
    const WORDS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    word.parse()
        .ok()
        .or_else(|| WORDS.iter().position(|w| *w == word).map(|k| k as u64))
}

/// Every word that names a colour (a sentence with one of them names a colour).
const COLOUR_WORDS: [&str; 26] = [
    "black",
    "white",
    "grey",
    "gray",
    "silver",
    "red",
    "orange",
    "amber",
    "brown",
    "yellow",
    "gold",
    "green",
    "lime",
    "teal",
    "cyan",
    "turquoise",
    "aqua",
    "blue",
    "navy",
    "purple",
    "violet",
    "lilac",
    "lavender",
    "pink",
    "magenta",
    "fuchsia",
];

/// The words that may name a colour (`#67F067`: green, lime), each with how far the colour lies from the
/// middle of the word's band of hues, the nearest first, by its hue, saturation and lightness; the bands
/// overlap, as setters' words do.
fn colour_words(colour: &str) -> Vec<(&'static str, f32)> {
    let Ok(parsed) = csscolorparser::parse(colour) else {
        return vec![("such", 0.0)];
    };
    let [h, s, l, _] = parsed.to_hsla();
    let h = if h.is_nan() { 0.0 } else { h.rem_euclid(360.0) };
    if l < 0.18 {
        return vec![("black", 0.0)];
    }
    if s < 0.15 || l > 0.95 {
        let mut words = vec![("grey", 0.0), ("gray", 0.0), ("silver", 0.0)];
        if l > 0.85 {
            words.insert(0, ("white", 0.0));
        }
        if l < 0.3 {
            words.push(("black", 0.0));
        }
        return words;
    }
    let bands: [(&str, f32, f32); 20] = [
        ("red", 340.0, 375.0),
        ("pink", 285.0, 350.0),
        ("magenta", 285.0, 335.0),
        ("fuchsia", 285.0, 335.0),
        ("orange", 15.0, 45.0),
        ("amber", 30.0, 50.0),
        ("yellow", 42.0, 70.0),
        ("gold", 40.0, 55.0),
        ("green", 65.0, 165.0),
        ("lime", 65.0, 110.0),
        ("teal", 160.0, 195.0),
        ("cyan", 165.0, 200.0),
        ("turquoise", 160.0, 190.0),
        ("aqua", 165.0, 200.0),
        ("blue", 175.0, 260.0),
        ("purple", 250.0, 320.0),
        ("violet", 250.0, 300.0),
        ("lilac", 260.0, 310.0),
        ("lavender", 240.0, 290.0),
        ("brown", 0.0, 45.0),
    ];
    let centre = |lo: f32, hi: f32| {
        let mid = (lo + hi) / 2.0;
        let d = (h - mid.rem_euclid(360.0)).abs();
        d.min(360.0 - d)
    };
    let mut words: Vec<(&str, f32)> = bands
        .iter()
        .filter(|&&(word, lo, hi)| {
            let inside = (lo..=hi).contains(&h) || (lo..=hi).contains(&(h + 360.0));
            let brown_enough = word != "brown" || l < 0.45;
            inside && brown_enough
        })
        .map(|&(word, lo, hi)| (word, centre(lo, hi)))
        .collect();
    if l > 0.7 && !(15.0..340.0).contains(&h) {
        words.push(("pink", 90.0));
    }
    if l < 0.3 && (175.0..=260.0).contains(&h) {
        words.push(("navy", 90.0));
    }
    words.sort_by(|a, b| a.1.total_cmp(&b.1));
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_lines(rules: &str, lines: Json) -> Result<Json, String> {
        let mut out = json!({ "ruleset": rules, "line": lines });
        read(&mut out).map(|()| out)
    }

    fn green_and_purple() -> Json {
        json!([
            {"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#67F067", "width": 0.3},
            {"lines": [["R2C1", "R2C2"]], "outlineC": "#F067F0", "width": 0.3},
            {"lines": [["R3C1", "R3C2"]], "outlineC": "#67f067", "width": 0.3},
        ])
    }

    #[test]
    fn each_colour_takes_the_rule_its_sentence_states() {
        let out = read_lines(
            "Normal sudoku rules apply.\nGerman Whispers: Adjacent digits along a green line must differ by at least 5.\nRenban: Purple lines contain a set of non-repeating consecutive digits in any order.",
            green_and_purple(),
        )
        .unwrap();
        assert_eq!(out["line"], Json::Null);
        assert_eq!(
            out["whispers"],
            json!([{"lines": [["R1C1", "R1C2", "R1C3"]], "value": 5}, {"lines": [["R3C1", "R3C2"]], "value": 5}])
        );
        assert_eq!(out["renban"], json!([{"lines": [["R2C1", "R2C2"]]}]));
    }

    #[test]
    fn sentences_name_each_rule_in_the_words_setters_use() {
        let rule = |text: &str| {
            let lower = text.to_lowercase();
            let words: Vec<&str> = super::super::globals::sentences_of(&lower)
                .into_iter()
                .flat_map(|(_, w)| w)
                .collect();
            rule_of(&words)
        };
        let is = |text: &str, key: &'static str, gap: Option<u64>| {
            assert_eq!(rule(text), Some(LineRule { key, gap }), "{text}");
        };
        is(
            "Digits along a green line differ by 5 or more",
            "whispers",
            Some(5),
        );
        is(
            "Adjacent cells on a Dutch whisper line differ by at least four",
            "whispers",
            Some(4),
        );
        is("Dutch whispers: orange lines", "whispers", Some(4));
        is("German whispers are green lines", "whispers", None);
        is(
            "No two digits on a blue line are consecutive, and none repeats",
            "nabner",
            None,
        );
        is("Grey lines are palindromes", "palindrome", None);
        is(
            "A purple line reads the same in both directions",
            "palindrome",
            None,
        );
        is(
            "Digits on a blue line have an equal sum within each box the line passes through",
            "regionsumline",
            None,
        );
        is("Each set of three consecutive cells on an orange line holds a low, a middle and a high digit", "entropicline", None);
        is("Digits on a teal line form a zipper", "zipperline", None);
        is(
            "Any three consecutive digits along a line have different remainders mod 3",
            "modularline",
            None,
        );
        is(
            "Two cells adjacent along a red line must contain one even digit and one odd digit",
            PARITY_LINE,
            None,
        );
        is(
            "10 lines: each line divides into segments which sum to 10",
            TEN_LINE,
            None,
        );
        is(
            "A black line is made of one or more segments, each adding up to 10",
            TEN_LINE,
            None,
        );
        assert_eq!(rule("Digits along a line differ by at most 2"), None);
        assert_eq!(rule("Digits along a green line sum to 10"), None);
        assert_eq!(rule("Green lines are thermometers"), None);
    }

    #[test]
    fn colour_words_cover_the_hues_setters_name() {
        for (colour, word) in [
            ("#67F067", "green"),
            ("#F067F0", "purple"),
            ("#F067F0", "pink"),
            ("#C54B8B", "pink"),
            ("#2ECBFF", "blue"),
            ("#FFA500", "orange"),
            ("#FF0000", "red"),
            ("red", "red"),
            ("rgba(255, 0, 0, 0.5)", "red"),
            ("#CFCFCF", "grey"),
            ("#000", "black"),
            ("#FFD700", "yellow"),
        ] {
            assert!(
                colour_words(colour).iter().any(|(w, _)| *w == word),
                "{colour}: {:?}",
                colour_words(colour)
            );
        }
        let named = |colour: &str| colour_words(colour).iter().map(|w| w.0).collect::<Vec<_>>();
        assert!(!named("#67F067").contains(&"blue"));
        assert!(!named("#F067F0").contains(&"green"));
    }

    /// A word that describes two of the colours drawn names the nearer: "blue" is the blue line, not the teal one.
    #[test]
    fn a_colour_word_names_the_nearest_colour_drawn() {
        let lines = json!([
            {"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#008080"},
            {"lines": [["R2C1", "R2C2"]], "outlineC": "#187BCD"},
        ]);
        let out = read_lines(
            "Digits on a blue line have an equal sum within each box. Any three consecutive digits along a teal line have different remainders mod 3.",
            lines,
        )
        .unwrap();
        assert_eq!(
            out["modularline"],
            json!([{"lines": [["R1C1", "R1C2", "R1C3"]]}])
        );
        assert_eq!(out["regionsumline"], json!([{"lines": [["R2C1", "R2C2"]]}]));
    }

    #[test]
    fn one_colour_of_line_may_take_a_sentence_that_names_none() {
        let one = json!([{"lines": [["R1C1", "R1C2"]], "outlineC": "#FFA500"}]);
        let out = read_lines(
            "Digits along a line must differ by at least 3.",
            one.clone(),
        )
        .unwrap();
        assert_eq!(
            out["whispers"],
            json!([{"lines": [["R1C1", "R1C2"]], "value": 3}])
        );
        let two = green_and_purple();
        let e = read_lines("Digits along a line must differ by at least 3.", two).unwrap_err();
        assert!(
            e.contains("green lines (#67F067, the first from r1c1)"),
            "{e}"
        );
    }

    #[test]
    fn what_cannot_be_read_for_sure_is_refused_by_colour_and_sentence() {
        let e = read_lines("Grey lines are whispers.", green_and_purple()).unwrap_err();
        assert!(e.contains("no sentence") && e.contains("green"), "{e}");
        let e = read_lines(
            "Green lines are German whispers. Digits on a green line sum to 20.",
            green_and_purple(),
        )
        .unwrap_err();
        assert!(e.contains("`digits on a green line sum to 20`"), "{e}");
        let e = read_lines(
            "Green lines are whispers. Green lines are renban lines: a set of consecutive digits in any order.",
            green_and_purple(),
        )
        .unwrap_err();
        assert!(e.contains("two rules"), "{e}");
        let allowed = read_lines(
            "Green lines are whispers. Digits may repeat on green lines. Purple lines are renban.",
            green_and_purple(),
        );
        assert!(allowed.is_ok(), "{allowed:?}");
        let narrowed = read_lines(
            "Green lines are whispers. Digits may not repeat on green lines. Purple lines are renban.",
            green_and_purple(),
        );
        assert!(narrowed.is_err(), "{narrowed:?}");
        let many: Vec<Json> = (0..17)
            .map(|k| json!({"lines": [["R1C1", "R1C2"]], "outlineC": format!("#0000{:02X}", 100 + k)}))
            .collect();
        let e = read_lines("Lines are whispers", json!(many)).unwrap_err();
        assert!(e.contains("more than 16 colours"), "{e}");
        let unknown = json!([{"lines": [["R1C1", "R1C2"]], "outlineC": "not a colour"}]);
        assert!(read_lines("Lines are whispers", unknown)
            .unwrap_err()
            .contains("no colour"));
    }
}
