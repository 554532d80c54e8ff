//! The rules a puzzle's rules text alone may say: the ones that hold across the whole grid (anti-knight,
//! anti-king, non-consecutive, disjoint groups, and the negative constraint of dots and XV), which Penpa+ has
//! no drawing for, SudokuPad's converter drops (non-consecutive, the negative constraint), and an f-puzzles
//! setter may say in words with its box left unticked. Setters write them as a sentence ("Cells a knight's
//! move apart cannot contain the same digit"); read as plain Sudoku, such a puzzle has more solutions, and
//! `solve` would show one the setter ruled out. Each is read from a sentence that names it, into the f-puzzles
//! flag that says it, and written back (to Penpa+) as a sentence that reads again.
//!
//! A rule read that the setter did not mean leaves a puzzle with one solution either that solution or none, so
//! reading a sentence wide errs on the safe side; a rule left out is what shows a wrong answer.
//!
//! A sentence that names one of them but narrows it (to some digits, "odd", "even", "except") is refused: latin
//! has each rule for every digit, and a narrower one read as the whole would rule out the setter's answer. A
//! queen's move, which latin has no rule for, is refused by name.
//!
//! Some sentences change what a drawn constraint means, and are read into latin's own f-puzzles keys: killer
//! cages whose digits may repeat, or whose clues are products; arrows on which no digit may repeat; slow
//! thermometers. Others that would change it in a way latin has no rule for (a product of an arrow, a
//! thermometer decreasing from its bulb) are refused.

use serde_json::{json, Value as Json};

/// Each global rule: its f-puzzles flag, what it is called in an error, and the sentence written for it.
const GLOBALS: [(&str, &str, &str); 4] = [
    (
        "antiknight",
        "a knight's move (anti-knight)",
        "Cells a knight's move apart cannot contain the same digit.",
    ),
    (
        "antiking",
        "a king's move (anti-king)",
        "Cells a king's move apart cannot contain the same digit.",
    ),
    (
        "nonconsecutive",
        "non-consecutive neighbours",
        "Orthogonally adjacent cells cannot contain consecutive digits.",
    ),
    (
        "disjointgroups",
        "disjoint groups",
        "Cells in the same position of their boxes form disjoint groups, which cannot repeat a digit.",
    ),
];

/// latin's own f-puzzles key for killer cages whose digits may repeat: f-puzzles' cages differ, and a setter
/// who lets them repeat says so in the rules text alone.
pub(super) const CAGE_REPEATS: &str = "cagerepeats";

/// The sentence written for [`CAGE_REPEATS`], which reads back.
pub(super) const CAGE_REPEATS_SENTENCE: &str = "Digits may repeat within cages.";

/// latin's own f-puzzles key for killer cages whose clue is the product of their digits: f-puzzles draws one
/// kind of cage, and a setter of product cages says so in the rules text alone.
pub(super) const CAGE_PRODUCT: &str = "cageproduct";

/// The sentence written for [`CAGE_PRODUCT`], which reads back.
pub(super) const CAGE_PRODUCT_SENTENCE: &str =
    "Product cages: the digits in a cage multiply to its clue, and digits cannot repeat in a cage.";

/// latin's own f-puzzles key for arrows on which a sentence of the rules text forbids a digit to repeat.
pub(super) const ARROWS_DISTINCT: &str = "arrowsdistinct";

/// The sentence written for [`ARROWS_DISTINCT`], which reads back.
pub(super) const ARROWS_DISTINCT_SENTENCE: &str = "Digits cannot repeat on an arrow.";

/// latin's own f-puzzles key for thermometers that a sentence of the rules text makes slow: Penpa+ and
/// SudokuPad draw one kind of thermometer, and a setter of slow ones says so in words.
pub(super) const SLOW_THERMOS: &str = "thermosslow";

/// The sentence written for [`SLOW_THERMOS`], which reads back.
const SLOW_THERMOS_SENTENCE: &str =
    "Slow thermometers: digits never decrease from the bulb, and neighbours on a thermometer may be equal.";

/// Sets the f-puzzles flag of each global rule a sentence of the rules text names, [`CAGE_REPEATS`] where one
/// lets cages repeat a digit, [`CAGE_PRODUCT`] where one makes their clues products, [`ARROWS_DISTINCT`] where
/// one forbids a digit to repeat on an arrow and [`SLOW_THERMOS`] where one lets a thermometer stay level.
pub(super) fn read(out: &mut Json) -> Result<(), String> {
    let rules = out["ruleset"].as_str().unwrap_or_default().to_lowercase();
    let mut found = Vec::new();
    for (sentence, words) in sentences_of(&rules) {
        let cages = words.iter().any(|w| w.starts_with("cage"));
        if cages && repeats_allowed(&words) {
            found.push(CAGE_REPEATS);
        }
        if let Some(product) = products(&words, sentence)? {
            found.push(product);
        }
        if words.iter().any(|w| w.starts_with("thermo")) && level_allowed(&words) {
            found.push(SLOW_THERMOS);
        }
        if thermos_decrease(&words) {
            return Err(format!(
                "the rules text has thermometers decrease from the bulb (`{}`), a rule latin does not have: \
                 its thermometers increase from the bulb",
                sentence.trim()
            ));
        }
        if words.iter().any(|w| w.starts_with("queen")) {
            return Err(format!(
                "the rules text speaks of a queen's move (`{}`), a rule latin does not have",
                sentence.trim()
            ));
        }
        if arrows_distinct(sentence, &words) {
            found.push(ARROWS_DISTINCT);
        }
        let named = names(&words);
        if named.is_empty() {
            continue;
        }
        // A digit on its own ("9s", "1 and 9"), not inside a word such as "9x9" or "r1c1".
        let digit = |w: &str| {
            let w = w.trim_end_matches('s');
            !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
        };
        let narrowed = words
            .iter()
            .any(|w| digit(w) || ["odd", "even", "except"].contains(w));
        if narrowed {
            let (_, called, _) = GLOBALS.iter().find(|g| g.0 == named[0]).expect("a rule");
            return Err(format!(
                "the rules text narrows {called} (`{}`): latin reads that rule for every digit alone",
                sentence.trim()
            ));
        }
        found.extend(named);
    }
    if found.contains(&CAGE_PRODUCT) && found.contains(&CAGE_REPEATS) {
        return Err(
            "the rules text has product cages in which digits may repeat, which latin's f-puzzles reading \
             has no key for (a grammar with `cage`, `product: true` and `repeat: true` says it)"
                .into(),
        );
    }
    for flag in found {
        out[flag] = json!(true);
    }
    negative(out, &rules);
    Ok(())
}

/// What a sentence (its words, lower case) says of products: [`CAGE_PRODUCT`] where killer cages' clues are
/// their digits' products ("digits in a cage multiply to the clue", "the clue of a cage is the product of its
/// digits"), nothing where no word speaks of a product or one is negated ("the clue is the sum, not the
/// product"), and an error where a product is said of something else (an arrow whose circle is the product of
/// its digits) or beside a sum or of some cages only ("some cages", "cages marked with an x"), which latin
/// cannot tell apart: read as sums, such a puzzle would show a wrong answer or none.
fn products(words: &[&str], sentence: &str) -> Result<Option<&'static str>, String> {
    const NEGATIONS: [&str; 5] = ["not", "no", "never", "nor", "t"];
    // "Multiply" and its forms, not "multiple" ("the same cell in multiple regions").
    let product = |w: &str| {
        w.starts_with("product")
            || w.starts_with("multiplicat")
            || ["multiply", "multiplied", "multiplies", "multiplying"].contains(&w)
    };
    let said: Vec<usize> = (0..words.len()).filter(|&i| product(words[i])).collect();
    if said.is_empty() || said.iter().all(|&i| negated_before(words, i, &NEGATIONS)) {
        return Ok(None);
    }
    let cages = words.iter().any(|w| w.starts_with("cage"));
    // "Some cages", "cages marked with an x", "the other cages": products beside sums, said apart.
    let sums = words.iter().any(|w| {
        w.starts_with("sum")
            || [
                "add", "adds", "added", "addition", "some", "marked", "other", "others",
            ]
            .contains(w)
    });
    let others = words.iter().any(|w| {
        [
            "arrow", "circle", "line", "thermo", "diagonal", "dot", "sandwich", "outside",
        ]
        .iter()
        .any(|o| w.starts_with(o))
    });
    if cages && !sums && !others {
        return Ok(Some(CAGE_PRODUCT));
    }
    Err(format!(
        "the rules text speaks of a product (`{}`), which latin reads only as every killer cage's clue, in a \
         sentence that names cages and no sum",
        sentence.trim()
    ))
}

/// Whether a sentence (its words, lower case) has thermometers decrease from the bulb ("digits along a
/// thermometer decrease from the bulb"), not the usual rule said from the tip ("digits increase from the bulb
/// and decrease towards the tip" names an increase too) nor a slow thermometer's "never decrease".
fn thermos_decrease(words: &[&str]) -> bool {
    let thermo = words.iter().any(|w| w.starts_with("thermo"));
    let falls = (0..words.len()).any(|i| {
        ["decreas", "descend"]
            .iter()
            .any(|d| words[i].starts_with(d))
            && !negated_before(words, i, &["not", "never", "cannot", "t", "no"])
    });
    let rises = words
        .iter()
        .any(|w| w.starts_with("increas") || w.starts_with("ascend"));
    thermo && falls && !rises
}

/// The sentences of a rules text (lower case), each with its words: runs of letters and digits, so that "can't"
/// leaves a `t` and "1-3" two numbers.
pub(super) fn sentences_of(rules: &str) -> Vec<(&str, Vec<&str>)> {
    rules
        .split(['.', '\n', ';', '!'])
        .map(|sentence| {
            let words = sentence
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            (sentence, words)
        })
        .collect()
}

/// Whether a sentence (its words, lower case) lets a digit repeat rather than forbids it: "digits may repeat",
/// "repeated digits are allowed", "need not be different"; not "may not repeat", "no digit repeats",
/// "non-repeating", "repeats are not allowed". Where it errs, it errs towards the permission: a rule left
/// looser than the setter's shows more solutions, one read tighter would rule out the setter's.
pub(super) fn repeats_allowed(words: &[&str]) -> bool {
    // "can't", "don't": the apostrophe leaves a `t` of its own.
    const NEGATIONS: [&str; 7] = ["not", "cannot", "never", "no", "non", "nor", "t"];
    let negated_before = |i: usize| negated_before(words, i, &NEGATIONS);
    let forbidden = words.iter().enumerate().any(|(i, w)| {
        ["forbidden", "prohibited", "disallowed"].contains(w)
            || (["allowed", "permitted"].contains(w) && negated_before(i))
    });
    let repeats: Vec<usize> = (0..words.len())
        .filter(|&i| words[i].starts_with("repeat"))
        .collect();
    if !repeats.is_empty() {
        return !forbidden && repeats.iter().any(|&i| !negated_before(i));
    }
    // "Digits in a cage need not be different", "do not have to be distinct".
    let has = |w: &str| words.contains(&w);
    ["distinct", "different", "unique"].iter().any(|w| has(w))
        && ["need", "necessarily", "have", "required"]
            .iter()
            .any(|w| has(w))
        && words.iter().any(|w| NEGATIONS.contains(w))
}

/// Whether a sentence (its words, lower case) forbids a digit to repeat on an arrow: "digits cannot repeat on
/// arrows", "arrows may not contain repeated digits", "digits on an arrow must be different", "arrows: digits
/// along an arrow sum to the circle and may not repeat". The word about repeats must stand within four words
/// of the arrow or in the same clause (between commas, colons, brackets), so that "digits cannot repeat in
/// rows, columns or boxes, and digits along an arrow sum to its circle" is the usual rule, not this one.
fn arrows_distinct(sentence: &str, words: &[&str]) -> bool {
    const NEAR: usize = 4;
    let about_repeats =
        |w: &str| w.starts_with("repeat") || ["different", "distinct", "unique"].contains(&w);
    let arrow = |w: &str| w.starts_with("arrow");
    let near = |i: usize| {
        let window = &words[i.saturating_sub(NEAR)..(i + NEAR + 1).min(words.len())];
        window.iter().any(|w| about_repeats(w))
    };
    let in_a_clause = sentence.split([',', ':', '(', ')']).any(|clause| {
        let words: Vec<&str> = clause.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        words.iter().any(|w| arrow(w)) && words.iter().any(|w| about_repeats(w))
    });
    let said = in_a_clause || (0..words.len()).any(|i| arrow(words[i]) && near(i));
    said && !repeats_allowed(words)
}

/// Whether one of `negations` is among the three words before word `i` ("may not repeat", "cannot stay").
fn negated_before(words: &[&str], i: usize, negations: &[&str]) -> bool {
    words[i.saturating_sub(3)..i]
        .iter()
        .any(|w| negations.contains(w))
}

/// Whether a sentence (its words, lower case) lets neighbours on a line be equal where they would increase:
/// "slow thermometers", "digits may repeat", "increase or stay the same", "need not strictly increase".
fn level_allowed(words: &[&str]) -> bool {
    let has = |w: &str| words.contains(&w);
    let stays = words.iter().enumerate().any(|(i, w)| {
        ["stay", "stays", "remain", "remains"].contains(w)
            && words
                .get(i + 1..i + 3)
                .is_some_and(|next| next.contains(&"same"))
            && !negated_before(words, i, &["not", "cannot", "never", "t"])
    });
    let loosened = has("strictly") && ["need", "necessarily", "have"].iter().any(|w| has(w));
    has("slow") || stays || loosened || repeats_allowed(words)
}

/// Draws the f-puzzles JSON's slow thermometers as thermometers with the sentence that makes them slow, for a
/// drawing that has one kind of thermometer (Penpa+'s, SudokuPad's); an error where it has both kinds.
pub(super) fn say_slow_thermos(puzzle: &mut Json) -> Result<(), String> {
    let drawn = |key: &str| puzzle[key].as_array().is_some_and(|a| !a.is_empty());
    if !drawn("slowthermometer") {
        return Ok(());
    }
    if drawn("thermometer") {
        return Err("thermometers and slow thermometers, which one kind of drawn thermometer cannot tell apart".into());
    }
    let map = puzzle.as_object_mut().expect("an object");
    if let Some(slow) = map.remove("slowthermometer") {
        map.insert("thermometer".into(), slow);
    }
    said(puzzle, SLOW_THERMOS_SENTENCE);
    Ok(())
}

/// Adds a sentence to the f-puzzles JSON's rules text.
pub(super) fn said(puzzle: &mut Json, sentence: &str) {
    let text = puzzle["ruleset"].as_str().unwrap_or_default().trim();
    puzzle["ruleset"] = json!(if text.is_empty() {
        sentence.to_owned()
    } else {
        format!("{text}\n{sentence}")
    });
}

/// f-puzzles' negative constraint (no mark: neither relation) where the rules text says all marks are there:
/// a sentence with "all possible" and the marks it speaks of (contest sites: "All possible circles are
/// marked"; one colour of dots when it names only that one), and no "not all"; added to what the puzzle already
/// says. Penpa+ has no other way to say it, and SudokuPad's converter drops it.
fn negative(out: &mut Json, rules: &str) {
    let mut negative: Vec<String> = out["negative"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let before = negative.len();
    for sentence in rules.split(['.', '\n', ';']) {
        if !sentence.contains("all possible") || sentence.contains("not all") {
            continue;
        }
        if ["dot", "circle"].iter().any(|w| sentence.contains(w)) {
            // "All possible white dots are given": a consecutive Sudoku's, the black ones not said of.
            let (white, black) = (sentence.contains("white"), sentence.contains("black"));
            if white || !black {
                negative.push("difference".into());
            }
            if black || !white {
                negative.push("ratio".into());
            }
        }
        if ["xv", "x and v", "xs and vs", "x's and v's"]
            .iter()
            .any(|w| sentence.contains(w))
        {
            negative.push("xv".into());
        }
    }
    negative.sort_unstable();
    negative.dedup();
    if negative.len() != before {
        out["negative"] = json!(negative);
    }
}

/// The flags of the global rules a sentence (its words, lower case) names.
fn names(words: &[&str]) -> Vec<&'static str> {
    let has = |w: &str| words.contains(&w);
    let pair = |a: &str, b: &str| words.windows(2).any(|p| p == [a, b]);
    // "can't", "mustn't": the apostrophe leaves a `t` of its own.
    let negated = ["not", "cannot", "never", "no"].iter().any(|w| has(w)) || has("t");
    // "No anti-knight", "not an anti-king puzzle": a rule denied within two words before its name.
    let denied = |rule: &str| {
        let joined = format!("anti{rule}");
        let named = |i: usize| {
            (words[i] == "anti" && words.get(i + 1) == Some(&rule)) || words[i] == joined
        };
        (0..words.len()).any(|i| {
            named(i)
                && words[i.saturating_sub(2)..i]
                    .iter()
                    .any(|w| ["no", "not", "nor"].contains(w))
        })
    };
    let mut out = Vec::new();
    if (has("knight") || has("knights") || has("antiknight")) && !denied("knight") {
        out.push("antiknight");
    }
    let diagonal_twins = pair("diagonally", "adjacent")
        && !has("consecutive")
        && ["same", "repeat", "identical", "equal"]
            .iter()
            .any(|w| has(w));
    if (has("king") || has("kings") || has("antiking") || diagonal_twins) && !denied("king") {
        out.push("antiking");
    }
    let marked = [
        "dot", "dots", "circle", "circles", "mark", "marks", "line", "lines",
    ]
    .iter()
    .any(|w| has(w));
    let neighbours =
        has("adjacent") && !has("diagonally") && has("consecutive") && negated && !marked;
    if has("nonconsecutive") || pair("non", "consecutive") || neighbours {
        out.push("nonconsecutive");
    }
    if has("disjoint") {
        out.push("disjointgroups");
    }
    out
}

/// The sentences that say the global rules a puzzle has, for its rules text.
pub(super) fn sentences(puzzle: &Json) -> Vec<&'static str> {
    GLOBALS
        .iter()
        .filter(|(flag, _, _)| puzzle[flag].as_bool() == Some(true))
        .map(|&(_, _, sentence)| sentence)
        .collect()
}

/// The f-puzzles flags of the global rules, which a Penpa+ link carries in its rules text.
pub(super) fn flags() -> impl Iterator<Item = &'static str> {
    GLOBALS.iter().map(|g| g.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags_of(text: &str) -> Result<Vec<String>, String> {
        let mut out = json!({ "ruleset": text });
        read(&mut out)?;
        let mut set: Vec<String> = flags()
            .filter(|f| out[f].as_bool() == Some(true))
            .map(str::to_owned)
            .collect();
        set.sort();
        Ok(set)
    }

    /// Sentences as setters write them, each read as the rule it names and no other.
    #[test]
    fn the_ways_setters_say_a_global_rule() {
        let cases: [(&str, &[&str]); 17] = [
            ("Normal sudoku rules apply.", &[]),
            (
                "Normal sudoku rules apply. Cells a knight's move apart may not contain the same digit.",
                &["antiknight"],
            ),
            ("Anti-knight, anti-king.", &["antiking", "antiknight"]),
            (
                "Diagonally adjacent cells cannot contain the same digit",
                &["antiking"],
            ),
            (
                "Orthogonally adjacent cells can't contain consecutive digits",
                &["nonconsecutive"],
            ),
            ("Non-consecutive sudoku", &["nonconsecutive"]),
            ("Disjoint groups: digits may not repeat in the same box position", &["disjointgroups"]),
            // Not these: a renban line, white dots, a word with "king" inside, diagonal consecutives.
            (
                "Purple lines contain a set of non-repeating consecutive digits in any order.",
                &[],
            ),
            (
                "If there is no dot between adjacent cells, the digits are not consecutive.",
                &[],
            ),
            ("There is no anti-knight rule in this one.", &[]),
            ("This is not an anti-king puzzle", &[]),
            ("Anti-knight applies, but no anti-king", &["antiknight"]),
            ("Normal 9x9 sudoku rules apply, and anti-king", &["antiking"]),
            (
                "A digit can only appear once within a knight's move",
                &["antiknight"],
            ),
            ("Adjacent cells can contain consecutive digits", &[]),
            ("Looking at it, this is thinking.", &[]),
            (
                "Diagonally adjacent cells cannot contain consecutive digits.",
                &[],
            ),
        ];
        for (text, want) in cases {
            assert_eq!(flags_of(text).unwrap(), want, "{text}");
        }
    }

    /// Whether reading the rules text `text` sets the f-puzzles key `key`.
    fn said_sets(text: &str, key: &str) -> bool {
        let mut out = json!({ "ruleset": text });
        read(&mut out).unwrap();
        out[key].as_bool() == Some(true)
    }

    /// Cages whose digits may repeat, as setters say it, and the killer rule said in the same words negated.
    #[test]
    fn the_ways_setters_let_cages_repeat_a_digit() {
        let repeats = |text: &str| said_sets(text, CAGE_REPEATS);
        for text in [
            CAGE_REPEATS_SENTENCE,
            "Killer cages: digits in a cage sum to the clue. Digits may repeat in cages.",
            "Digits can repeat within a cage if allowed by other rules.",
            "Cages may contain repeated digits.",
            "Repeated digits are allowed in cages.",
            "Digits in a cage need not be different.",
            "Digits within cages do not have to be distinct.",
            "Digits may repeat in cages, but not within a row, column or box.",
        ] {
            assert!(repeats(text), "{text}");
        }
        for text in [
            "Normal killer rules: digits cannot repeat in a cage.",
            "Digits may not repeat within cages.",
            "Digits can't repeat in cages.",
            "No digit repeats in a cage.",
            "Cages hold non-repeating digits that sum to the clue.",
            "Repeated digits are not allowed in cages.",
            "Digits in a cage must be different.",
            "Digits may repeat on lines.",
            "Digits may repeat.",
        ] {
            assert!(!repeats(text), "{text}");
        }
    }

    /// Thermometers a sentence makes slow, and sentences that leave them strict.
    #[test]
    fn the_ways_setters_make_thermometers_slow() {
        let slow = |text: &str| said_sets(text, SLOW_THERMOS);
        for text in [
            SLOW_THERMOS_SENTENCE,
            "Slow thermo: digits along a thermometer increase or stay the same from the bulb.",
            "Digits on thermometers may repeat.",
            "Thermometers: digits need not strictly increase; they never decrease from the bulb.",
        ] {
            assert!(slow(text), "{text}");
        }
        for text in [
            "Digits along a thermometer strictly increase from the bulb.",
            "Thermometers: digits increase from the bulb and cannot stay the same.",
            "Digits may not repeat on a thermometer.",
            "Slow arrows are not a thing.",
        ] {
            assert!(!slow(text), "{text}");
        }
        // Written for a drawing of one kind of thermometer: slow ones as thermometers and the sentence.
        let mut puzzle = json!({"slowthermometer": [{"lines": [["R1C1", "R1C2"]]}]});
        say_slow_thermos(&mut puzzle).unwrap();
        assert_eq!(puzzle["thermometer"][0]["lines"][0][1], "R1C2");
        assert!(puzzle.get("slowthermometer").is_none());
        assert!(slow(puzzle["ruleset"].as_str().unwrap()));
        let mut both = json!({"slowthermometer": [{"lines": [["R1C1", "R1C2"]]}], "thermometer": [{"lines": [["R2C1", "R2C2"]]}]});
        assert!(say_slow_thermos(&mut both).is_err());
    }

    /// Cages whose clues are products, as setters say it; sums, negated products and products of other
    /// things are not read as product cages (the last refused).
    #[test]
    fn the_ways_setters_make_cages_products() {
        let product = |text: &str| said_sets(text, CAGE_PRODUCT);
        for text in [
            CAGE_PRODUCT_SENTENCE,
            "Product killer: the clue of a cage is the product of the digits in it.",
            "Digits in cages multiply to the given clue.",
            "Multiplication cages: digits in a cage must be multiplied to give the number in its top left corner.",
        ] {
            assert!(product(text), "{text}");
        }
        assert!(!said_sets(CAGE_PRODUCT_SENTENCE, CAGE_REPEATS));
        for text in [
            "Normal killer rules: digits in a cage sum to the clue.",
            "The clue of a cage is not the product of its digits.",
            "Digits may not repeat in cages.",
            "Standard disjoint where digits cannot be in the same respective cell in multiple regions.",
            "Cages may hold multiples of 3.",
        ] {
            assert!(!product(text), "{text}");
            assert!(flags_of(text).is_ok(), "{text}");
        }
        for text in [
            "Cages show either the sum or the product of their digits.",
            "Some cages show the product of their digits.",
            "Cages marked with an x multiply to their clue.",
            "The circle is the product of the digits along its arrow.",
            "Digits on a line multiply to the clue.",
            "Product cages: digits multiply to the clue. Digits may repeat in a cage.",
        ] {
            let e = flags_of(text).unwrap_err();
            assert!(e.contains("product"), "{text}: {e}");
        }
    }

    /// Thermometers that decrease from the bulb are refused; the usual ones, said from either end, and slow
    /// ones are not.
    #[test]
    fn thermometers_that_decrease_from_the_bulb_are_refused() {
        for text in [
            "Digits along a thermometer decrease from the bulb.",
            "Thermometers: digits strictly decrease starting at the bulb end.",
            "On thermos, digits descend from the bulb.",
        ] {
            let e = flags_of(text).unwrap_err();
            assert!(e.contains("decrease from the bulb"), "{text}: {e}");
        }
        for text in [
            "Digits along a thermometer increase from the bulb.",
            "Thermometers: digits increase from the bulb and decrease towards it.",
            "Slow thermometers: digits never decrease from the bulb.",
            "Digits on a thermometer cannot decrease.",
            "Digits decrease along each arrow.",
        ] {
            assert!(flags_of(text).is_ok(), "{text}");
        }
    }

    /// Arrows on which no digit may repeat, as setters say it; the usual arrow rules, with or without their
    /// sentence letting digits repeat, are not those.
    #[test]
    fn arrows_that_forbid_repeats_are_read() {
        let distinct = |text: &str| said_sets(text, ARROWS_DISTINCT);
        for text in [
            ARROWS_DISTINCT_SENTENCE,
            "Digits cannot repeat on arrows.",
            "Digits on an arrow may not repeat",
            "No digit repeats along an arrow.",
            "Arrows cannot contain repeated digits",
            "Digits along each arrow must be different",
            "Digits on arrows must be distinct, and sum to the circle",
            "Arrows: digits along an arrow sum to the circle and may not repeat.",
        ] {
            assert!(distinct(text), "{text}");
        }
        for text in [
            "Digits along an arrow sum to the digit in its circle.",
            "Digits may repeat on arrows if allowed by other rules.",
            "Digits on an arrow need not be different",
            "Digits cannot repeat in rows, columns or boxes, and digits along an arrow sum to the circle",
            "Normal sudoku rules apply: digits cannot repeat in any row, column or box. Arrows sum to their circles.",
        ] {
            assert!(!distinct(text), "{text}");
            assert_eq!(flags_of(text), Ok(vec![]), "{text}");
        }
    }

    #[test]
    fn a_narrowed_rule_and_a_queen_are_refused() {
        for (text, says) in [
            (
                "9s cannot be a knight's move apart",
                "narrows a knight's move",
            ),
            (
                "Even digits may not be a king's move apart",
                "narrows a king's move",
            ),
            ("Anti-knight applies to odd digits only", "narrows"),
            ("Identical digits cannot be a queen's move apart", "queen"),
        ] {
            let e = flags_of(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    /// "All possible" marks given: the negative constraint of those marks, added to what the puzzle says.
    #[test]
    fn all_possible_marks_given_is_the_negative_constraint() {
        let negative = |text: &str, had: Json| {
            let mut out = json!({ "ruleset": text, "negative": had });
            read(&mut out).unwrap();
            out["negative"].clone()
        };
        assert_eq!(
            negative("All possible dots are given.", Json::Null),
            json!(["difference", "ratio"])
        );
        assert_eq!(
            negative("All possible X's and V's are shown", json!(["ratio"])),
            json!(["ratio", "xv"])
        );
        assert_eq!(
            negative("Not all possible dots are given.", Json::Null),
            Json::Null
        );
        // One colour named: that colour's dots alone (a consecutive Sudoku's white dots).
        assert_eq!(
            negative("All possible white dots are given.", Json::Null),
            json!(["difference"])
        );
        assert_eq!(
            negative("All possible black dots are shown", Json::Null),
            json!(["ratio"])
        );
        assert_eq!(
            negative("All possible black and white dots are given", Json::Null),
            json!(["difference", "ratio"])
        );
        assert_eq!(negative("Normal rules", json!(["xv"])), json!(["xv"]));
    }

    /// What is written reads back as the same rules.
    #[test]
    fn each_written_sentence_reads_back_as_its_rule() {
        for (flag, _, sentence) in GLOBALS {
            assert_eq!(flags_of(sentence).unwrap(), [flag], "{sentence}");
            assert_eq!(sentences(&json!({ flag: true })), [sentence]);
        }
    }
}
