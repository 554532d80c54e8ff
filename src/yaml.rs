//! The one place that names the YAML crate, and the guard in front of it.
//!
//! `serde_yaml` is no longer maintained upstream. Everything else in `latin` goes through this module, so moving
//! to a maintained fork (`serde_yaml_ng`, `serde_norway`) is a change to the `use` line below.
//!
//! Hostile YAML can cost far more than its size before any puzzle is read: an alias bomb expands a few
//! kilobytes into gigabytes, and flow collections nested tens of thousands deep take seconds. Puzzle files need
//! neither, so [`parse`] refuses anchors and aliases, and nesting deeper than [`MAX_DEPTH`], by a linear scan
//! of the text before the parser sees it.

pub(crate) use serde_yaml::{Mapping, Value};

/// The deepest nesting of collections a puzzle file may use (puzzle files need 3 or 4).
pub(crate) const MAX_DEPTH: usize = 32;

/// Why a text was refused before parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refused {
    /// 1-based line.
    pub line: usize,
    pub message: String,
}

/// Parses a YAML document into a generic value; `Err` holds the parser's message or the guard's.
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    if let Err(r) = guard(text) {
        return Err(format!("line {}: {}", r.line, r.message));
    }
    serde_yaml::from_str(text).map_err(|e| explained(text, &e))
}

/// The parser's message, and for a syntax error the likely slip in the text where one shows (see [`slip`]):
/// libyaml's own words ("did not find expected key ... while parsing a block mapping") name the parser's state,
/// not what the author did.
fn explained(text: &str, e: &serde_yaml::Error) -> String {
    let message = plainer(e.to_string());
    // libyaml's phrases: a type error on a well-formed document (an unknown field) has none of them.
    const SYNTAX: [&str; 5] = [
        "while parsing",
        "while scanning",
        "not allowed in this context",
        "cannot start any token",
        "tab character",
    ];
    let Some(at) = e.location() else {
        return message;
    };
    if !SYNTAX.iter().any(|s| message.contains(s)) {
        return message;
    }
    match slip(text, at.line(), &message) {
        Some(hint) => format!("{message}; {hint}"),
        None => message,
    }
}

/// What a syntax error at 1-based `line` most likely comes from, said plainly: a tab in the indentation, a `{`
/// or `[` left open, a line after a list item that lacks its `- `, or a line indented to a column no line above
/// it starts in (YAML nests by indentation). `None` when the text shows none of these.
fn slip(text: &str, line: usize, message: &str) -> Option<String> {
    // libyaml places a missing `:` where it gave up (often the end of the text); the key it was reading is the
    // line to look at.
    let line = after_number(message, "while scanning a simple key at line ").unwrap_or(line);
    for (open, kind) in [('{', "mapping"), ('[', "sequence")] {
        let start = format!("while parsing a flow {kind} at line ");
        if let (Some(l), Some(c)) = (
            after_number(message, &start),
            message
                .split_once(&start)
                .and_then(|(_, rest)| after_number(rest, " column ")),
        ) {
            return Some(format!(
                "the `{open}` at line {l}, column {c} is not closed, or a `,` is missing between its entries"
            ));
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    let here = *lines.get(line.checked_sub(1)?)?;
    let lead = &here[..here.len() - here.trim_start().len()];
    if lead.contains('\t') {
        return Some(format!(
            "line {line} is indented with a tab: YAML indents with spaces only"
        ));
    }
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let content = |l: &str| !l.trim().is_empty() && !l.trim_start().starts_with('#');
    let (p, prev) = lines[..line - 1]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, l)| content(l))?;
    let (i, j) = (indent(here), indent(prev));
    if i == j && prev.trim_start().starts_with("- ") && !here.trim_start().starts_with('-') {
        return Some(format!(
            "line {line} follows the list item of line {} in the same column but does not start with `- `",
            p + 1
        ));
    }
    let code = scan_line(prev, &mut 0).unwrap_or(prev).trim_end();
    let opens = code.ends_with(':') || opens_block_scalar(code);
    let lines_up = lines[..line - 1]
        .iter()
        .any(|l| content(l) && indent(l) == i);
    (i > 0 && !lines_up && !(i > j && opens)).then(|| {
        format!(
            "line {line} starts in column {}, where no line above it starts: YAML nests by indentation, so the \
             lines of one block start in the same column",
            i + 1
        )
    })
}

/// The number that follows `prefix` in a message.
fn after_number(message: &str, prefix: &str) -> Option<usize> {
    let (_, rest) = message.split_once(prefix)?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..digits].parse().ok()
}

/// The parser's message for a number past 64 bits, which its values cannot hold ("invalid type: integer `N`
/// as u128, expected any YAML value"), said as what it is: a number too large. And a map or list where one of a
/// few names goes (a section's `kind: {lines: x}`): the parser expects "a YAML tag starting with '!'", the
/// way it writes an enum's variant with data, which no grammar or puzzle field has.
fn plainer(message: String) -> String {
    let message = message.replace(
        "expected a YAML tag starting with '!'",
        "expected one name, written as a single word",
    );
    let Some((before, rest)) = message.split_once("invalid type: integer `") else {
        return message;
    };
    let Some((number, rest)) = rest.split_once('`') else {
        return message;
    };
    // "any YAML value" into a generic value, "any value" into a grammar's typed one.
    let after = ["expected any YAML value", "expected any value"]
        .iter()
        .find_map(|expected| rest.split_once(expected));
    match after {
        Some((_, after)) => format!(
            "{before}{number} is too large (at most {}){after}",
            u64::MAX
        ),
        None => message,
    }
}

/// Deserialises a YAML document into a typed value (grammar files), behind the same guard.
pub(crate) fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    if let Err(r) = guard(text) {
        return Err(format!("line {}: {}", r.line, r.message));
    }
    serde_yaml::from_str(text).map_err(|e| explained(text, &e))
}

/// Writes a generic value as a YAML document.
pub(crate) fn to_string(value: &Value) -> Result<String, String> {
    serde_yaml::to_string(value).map_err(|e| e.to_string())
}

/// Converts a generic value into a typed one.
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(
    value: Value,
) -> Result<T, serde_yaml::Error> {
    serde_yaml::from_value(value)
}

/// A scalar as text, whatever YAML type it was written as (`6`, `"6"`, `true`); `None` for maps and lists.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Tagged(t) => scalar_text(&t.value),
        Value::Null | Value::Sequence(_) | Value::Mapping(_) => None,
    }
}

/// The linear scan: no anchor or alias at the start of a node, no flow nesting and no block indentation deeper
/// than [`MAX_DEPTH`] levels. Block scalars (`|`, `>`) are skipped whole, so a grid may hold any characters.
fn guard(text: &str) -> Result<(), Refused> {
    let mut block: Option<usize> = None;
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (i, line) in text.lines().enumerate() {
        let refuse = |message: String| Refused {
            line: i + 1,
            message,
        };
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(opener) = block {
            if line.trim().is_empty() || indent > opener {
                continue;
            }
            block = None;
        }
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if flow == 0 {
            indents.retain(|&k| k < indent);
            indents.push(indent);
            if indents.len() > MAX_DEPTH {
                return Err(refuse(format!("nested deeper than {MAX_DEPTH} levels")));
            }
        }
        let code = scan_line(line, &mut flow).map_err(refuse)?;
        if opens_block_scalar(code) {
            block = Some(indent);
        }
    }
    Ok(())
}

/// Walks one line: quoted strings are skipped, a comment ends it, brackets change the flow depth, and an `&` or
/// `*` that starts a node is refused. Returns the line without its comment.
fn scan_line<'a>(line: &'a str, flow: &mut usize) -> Result<&'a str, String> {
    let mut quote: Option<char> = None;
    // The last character that was not a space, outside quotes: what decides whether a node starts here.
    let mut before: Option<char> = None;
    for (k, c) in line.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
                before = Some(c);
            }
            continue;
        }
        let node_start = matches!(before, None | Some(':' | '-' | '[' | '{' | ',' | '?'));
        match c {
            '#' if k == 0 || line[..k].ends_with([' ', '\t']) => return Ok(&line[..k]),
            '"' | '\'' if node_start => quote = Some(c),
            '[' | '{' => {
                *flow += 1;
                if *flow > MAX_DEPTH {
                    return Err(format!("nested deeper than {MAX_DEPTH} levels"));
                }
            }
            ']' | '}' => *flow = flow.saturating_sub(1),
            '&' | '*' if node_start && line[k + 1..].starts_with(|n: char| !n.is_whitespace()) => {
                return Err(
                    "anchors and aliases (&name, *name) are not supported: write each value out"
                        .into(),
                )
            }
            _ => {}
        }
        if !c.is_whitespace() {
            before = Some(c);
        }
    }
    Ok(line)
}

/// Whether a line (comment removed) ends with a block scalar header: `|`, `>`, with chomping and indentation
/// indicators (`|-`, `>+2`).
fn opens_block_scalar(code: &str) -> bool {
    let t = code.trim_end();
    let head = t.trim_end_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit());
    let Some(rest) = head.strip_suffix(['|', '>']) else {
        return false;
    };
    rest.is_empty() || rest.ends_with([' ', ':', '-'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_files_pass_the_guard() {
        for text in [
            "type: inshi\nrooms: |\n  AB*&\n  [[[[\nhints: {A: 6, B: 15}\n",
            "box: 3*3\ngivens: [r1c2=2, r1c5=3]\n",
            "title: \"a *quoted* & [string\"\nless:\n  - r1c1 < r1c2 # a comment with *star\n",
            "rules: [diagonals]\nobjective: {maximize: {r1c1: 1}}\n",
        ] {
            assert_eq!(guard(text), Ok(()), "{text}");
            assert!(parse(text).is_ok(), "{text}");
        }
    }

    /// Each slip an author makes by hand, with the words that point at it; libyaml's own message stays in front.
    #[test]
    fn a_syntax_error_points_at_the_slip() {
        let grid = "type: sudoku\nsize: 4\ngivens: |\n  1 . . .\n  . . . .\n  . . 3 .\n  . . . .\n";
        for (text, hint) in [
            // A grid row one space short ends the block and reads as a key.
            (
                "type: sudoku\nsize: 4\ngivens: |\n  1 . . .\n . . . .\n".to_string(),
                "line 5 starts in column 2, where no line above it starts",
            ),
            ("type: sudoku\n size: 4\n".into(), "line 2 starts in column 2"),
            (
                "type: kenken\nsize: 4\nhints:\n  a: 3+\n b: 24x\n".into(),
                "line 5 starts in column 2",
            ),
            (format!("{grid} rules: [diagonals]\n"), "line 8 starts in column 2"),
            ("name: g\nrules:\n  - latin\n - boxes\n".into(), "line 4 starts in column 2"),
            (
                "type: sudoku\nsize: 4\ngivens: |\n\t1 . . .\n".into(),
                "line 4 is indented with a tab",
            ),
            (format!("{grid}rules:\n\t- diagonals\n"), "line 9 is indented with a tab"),
            (
                format!("{grid}rules:\n  - diagonals\n  anti-knight\n"),
                "line 10 follows the list item of line 9 in the same column but does not start with `- `",
            ),
            (
                "type: kenken\nsize: 4\nhints: {a: 3+, b: 24x\n".into(),
                "the `{` at line 3, column 8 is not closed",
            ),
            ("rules: [diagonals, anti-knight\nsize: 4\n".into(), "the `[` at line 1, column 8"),
        ] {
            let e = parse(&text).unwrap_err();
            assert!(e.contains(hint), "{text:?}: {e}");
            // The parser's words come first, the reading after them.
            assert!(e.find("; ").is_some_and(|k| e.find(hint) > Some(k)), "{e}");
        }
        // Slips of another kind, and a well-formed document with a wrong field, get no reading.
        for text in [
            "size: 4: 5\n",
            "type: sudoku\ntitle: \"abc\n",
            "size: 4\nsize: 5\n",
            // Lined up with its block, a key without its `:`.
            "type: kenken\nsize: 4\nhints:\n  a: 3+\n  c\n",
        ] {
            let e = parse(text).unwrap_err();
            assert!(!e.contains("; "), "{text:?}: {e}");
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct G {
            name: String,
        }
        let e = from_str::<G>("name: g\ntype: x\n").unwrap_err();
        assert!(e.contains("unknown field") && !e.contains("; "), "{e}");
    }

    #[test]
    fn a_number_past_64_bits_is_too_large_not_an_invalid_type() {
        for text in [
            "hints: {A: 99999999999999999999}\n",
            "size: -99999999999999999999\n",
        ] {
            let e = parse(text).unwrap_err();
            assert!(
                e.contains("99999999999999999999 is too large (at most 18446744073709551615)"),
                "{e}"
            );
            assert!(!e.contains("invalid type"), "{e}");
        }
        assert!(parse("size: 18446744073709551615\n").is_ok());
        // A grammar's rule keeps its parameters in a flattened map, whose message differs.
        #[derive(serde::Deserialize, Debug)]
        struct Rule {
            #[serde(flatten)]
            _args: std::collections::BTreeMap<String, Value>,
        }
        let e = from_str::<Rule>("total: 99999999999999999999\n").unwrap_err();
        assert!(e.contains("99999999999999999999 is too large"), "{e}");
        assert!(!e.contains("invalid type"), "{e}");
    }

    #[test]
    fn a_map_or_list_where_a_name_goes_asks_for_a_name() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(rename_all = "kebab-case")]
        enum Kind {
            Lines,
        }
        #[derive(serde::Deserialize, Debug)]
        struct Section {
            _kind: Kind,
        }
        for text in ["_kind: {lines: 1}\n", "_kind: [lines]\n"] {
            let e = from_str::<Section>(text).unwrap_err();
            assert!(
                e.contains("expected one name, written as a single word"),
                "{e}"
            );
            assert!(!e.contains("YAML tag"), "{e}");
        }
        let e = from_str::<Section>("_kind: line\n").unwrap_err();
        assert!(
            e.contains("unknown variant `line`, expected `lines`"),
            "{e}"
        );
    }

    #[test]
    fn aliases_and_anchors_are_refused() {
        let bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n";
        let e = parse(bomb).unwrap_err();
        assert!(e.starts_with("line 1: anchors and aliases"), "{e}");
        assert!(parse("- &x 1\n- *x\n").is_err());
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let deep = format!("a: {}{}\n", "[".repeat(40_000), "]".repeat(40_000));
        let e = parse(&deep).unwrap_err();
        assert!(e.contains("nested deeper than 32 levels"), "{e}");
        let mut block = String::new();
        for d in 0..40 {
            block += &format!("{}k{d}:\n", " ".repeat(d));
        }
        assert!(parse(&block).unwrap_err().contains("nested deeper"));
        // Nesting within the limit still parses.
        assert!(parse(&format!("a: {}1{}\n", "[".repeat(20), "]".repeat(20))).is_ok());
    }
}
