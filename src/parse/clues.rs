//! Clues: integer hints (`24`), arithmetic hints (`11+`, `2-`, `20x`, `3/`, or a bare `5` with the operator
//! hidden), box shapes (`3x3`), lines of edge clues (`. 3 3 . .`, or sets of values: `13 . 2,4`), and the
//! relation a grammar tags pairs of cells with (`difference 1`, `ratio 2`, `sum 10`).

use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, value};
use nom::multi::separated_list1;
use nom::sequence::{delimited, separated_pair};
use nom::{IResult, Parser};

use super::SectionText;
use crate::error::Error;

/// The four KenKen operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

impl Op {
    pub(crate) fn symbol(self) -> char {
        match self {
            Op::Add => '+',
            Op::Sub => '-',
            Op::Mul => 'x',
            Op::Div => '/',
        }
    }
}

/// An arithmetic hint: a target and its operator, `None` when the operator is hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArithmeticClue {
    pub(crate) target: u64,
    pub(crate) op: Option<Op>,
}

/// As a setter writes it: `11+`, or a bare `5` when the operator is hidden.
impl std::fmt::Display for ArithmeticClue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.target)?;
        match self.op {
            Some(op) => write!(f, "{}", op.symbol()),
            None => Ok(()),
        }
    }
}

fn positive(input: &str) -> IResult<&str, u64> {
    map_res(digit1, str::parse::<u64>).parse(input)
}

fn operator(input: &str) -> IResult<&str, Op> {
    alt((
        value(Op::Add, char('+')),
        value(Op::Sub, one_of("-−")),
        value(Op::Mul, one_of("xX*×")),
        value(Op::Div, one_of("/÷:")),
    ))
    .parse(input)
}

/// Leading digits (after any spaces) that do not fit 64 bits: said as "too large", never as "not a number" or
/// "not a clue"; `None` for any other text.
pub(crate) fn too_large(at: &str) -> Option<String> {
    let at = at.trim_start();
    let digits: &str = &at[..at.find(|c: char| !c.is_ascii_digit()).unwrap_or(at.len())];
    (!digits.is_empty() && digits.parse::<u64>().is_err())
        .then(|| format!("{digits} is too large (at most {})", u64::MAX))
}

/// A positive integer hint.
pub(crate) fn integer(section: &SectionText) -> Result<u64, Error> {
    let text = section.lines.first().map(String::as_str).unwrap_or("");
    let start = text.trim_start();
    if let Some(message) = too_large(start) {
        return Err(section.error_at_rest(0, start, message));
    }
    match padded_positive(start) {
        Ok((_, v)) if v > 0 => Ok(v),
        _ => {
            let bad = start
                .find(|c: char| !c.is_ascii_digit())
                .map_or(start, |i| &start[i..]);
            let at = if bad.is_empty() || start.trim().chars().all(|c| c == '0') {
                start
            } else {
                bad
            };
            Err(section.error_at_rest(
                0,
                at,
                format!("{:?} is not a positive integer", start.trim()),
            ))
        }
    }
}

/// An arithmetic hint such as `11+`, `2-`, `24x`, `3/`, or a bare `5`.
pub(crate) fn arithmetic(section: &SectionText) -> Result<ArithmeticClue, Error> {
    let text = section.lines.first().map(String::as_str).unwrap_or("");
    let start = text.trim_start();
    if let Some(message) = too_large(start) {
        return Err(section.error_at_rest(0, start, message));
    }
    let (rest, target) = positive(start).map_err(|_| {
        section.error_at_rest(
            0,
            start,
            format!("{:?} does not start with a number", start.trim()),
        )
    })?;
    let (rest, op) = opt(operator)
        .parse(rest)
        .map_err(|_| section.error_at_rest(0, rest, "bad operator"))?;
    // A difference of 0 says two cells are equal (Mathrax's `0-`, where diagonal pairs may repeat a value);
    // every other target is positive.
    if target == 0 && op != Some(Op::Sub) {
        return Err(section.error_at_rest(
            0,
            start,
            "the target must be positive (0 only as a difference, `0-`)",
        ));
    }
    let rest_trim = rest.trim_start();
    if !rest_trim.trim_end().is_empty() {
        let shown: String = rest_trim.trim_end().chars().take(8).collect();
        let message = if op.is_none() {
            format!("{shown:?} is not an operator (use + - x / or leave it out when hidden)")
        } else {
            format!("unexpected {shown:?} after the hint")
        };
        return Err(section.error_at_rest(0, rest_trim, message));
    }
    Ok(ArithmeticClue { target, op })
}

fn shape(input: &str) -> IResult<&str, (usize, usize)> {
    let side = || map_res(digit1, str::parse::<usize>);
    all_consuming(delimited(
        space0,
        separated_pair(side(), delimited(space0, one_of("xX*×"), space0), side()),
        space0,
    ))
    .parse(input)
}

fn padded_positive(input: &str) -> IResult<&str, u64> {
    all_consuming(delimited(space0, positive, space0)).parse(input)
}

/// The largest box side: a box holds at most the 255 values of the largest grid.
const MAX_BOX_SIDE: usize = 255;

/// A box shape `HxW` (height x width), each side from 1 to 255, so that `H * W` cannot wrap.
pub(crate) fn box_shape(section: &SectionText) -> Result<(usize, usize), Error> {
    let text = section.lines.first().map(String::as_str).unwrap_or("");
    match shape(text) {
        Ok((_, (h, w))) if (1..=MAX_BOX_SIDE).contains(&h) && (1..=MAX_BOX_SIDE).contains(&w) => {
            Ok((h, w))
        }
        Ok(_) => Err(section.error_at(
            0,
            0,
            format!(
                "{:?}: each side of a box is from 1 to {MAX_BOX_SIDE}",
                text.trim()
            ),
        )),
        _ => Err(section.error_at(
            0,
            0,
            format!(
                "{:?} is not a box shape like 3x3 (height x width)",
                text.trim()
            ),
        )),
    }
}

/// An edge-clue token: `.`, `-`, `_` for none, otherwise a number (`0` is read by [`EdgeClue`]).
fn edge_token(input: &str) -> IResult<&str, Option<u64>> {
    alt((map(one_of(".-_"), |_| None), map(positive, Some))).parse(input)
}

/// What an edge clue says, and so which numbers it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EdgeClue {
    /// How many of the line's cells something holds for (skyscrapers): 1..n, and `0` means no clue.
    Count,
    /// A sum of values of the line (sandwich, sum skyscrapers): 0..n(n+1)/2, and `0` is a clue.
    Sum,
}

/// A string's characters, each a slice of it (so that an error can name where it stands).
fn characters(s: &str) -> Vec<&str> {
    s.char_indices()
        .map(|(i, c)| &s[i..i + c.len_utf8()])
        .collect()
}

/// Reads a line of `n` edge clues (a section's lines joined): `split` cuts it into tokens, each a slice of it,
/// and `read` reads one token, its error message placed at the token's column.
fn edge_line<T>(
    section: &SectionText,
    n: usize,
    split: impl for<'a> Fn(&'a str) -> Vec<&'a str>,
    read: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, Error> {
    let joined = section.lines.join(" ");
    let tokens = split(&joined);
    if tokens.is_empty() {
        return Err(Error::section(
            section.name.clone(),
            format!("expected {n} clues (one per line of the grid, . for none), found none"),
        ));
    }
    let mut clues = Vec::with_capacity(tokens.len());
    for token in tokens {
        // Where the token stands, as the rest of the line from it (a token may repeat).
        let at = &joined[token.as_ptr() as usize - joined.as_ptr() as usize..];
        clues.push(read(token).map_err(|m| section.error_at_rest(0, at, m))?);
    }
    if clues.len() != n {
        return Err(section.error_at(
            0,
            0,
            format!(
                "expected {n} clues (one per line of the grid), found {}",
                clues.len()
            ),
        ));
    }
    Ok(clues)
}

/// The tokens of a line of edge clues, each a slice of `line`: separated by spaces, or, for counts on a grid of
/// up to 9x9 written as one run of exactly `n` characters (`21.3`), a character each, as a grid's rows are read.
fn edge_tokens(line: &str, n: usize, reading: EdgeClue) -> Vec<&str> {
    let run = line.trim();
    if reading == EdgeClue::Count
        && (2..=9).contains(&n)
        && !run.contains(char::is_whitespace)
        && run.chars().count() == n
    {
        return characters(run);
    }
    line.split_whitespace().collect()
}

/// A line of `n` edge clues, e.g. `. 3 3 . .` (or `.33..` for counts up to 9x9).
pub(crate) fn edge(
    section: &SectionText,
    n: usize,
    reading: EdgeClue,
) -> Result<Vec<Option<u64>>, Error> {
    let cap = match reading {
        EdgeClue::Count => n as u64,
        EdgeClue::Sum => (n * (n + 1) / 2) as u64,
    };
    let read = |token: &str| -> Result<Option<u64>, String> {
        if let Some(message) = too_large(token) {
            return Err(message);
        }
        let (_, clue) = all_consuming(edge_token)
            .parse(token)
            .map_err(|_| format!("{token:?} is not a clue (a number, or . for none)"))?;
        match (clue, reading) {
            (Some(v), EdgeClue::Count) if v > cap => {
                Err(format!("{v} is more than the {n} cells of a line"))
            }
            (Some(v), EdgeClue::Sum) if v > cap => {
                Err(format!("{v} is more than 1 + 2 + ... + {n} = {cap}"))
            }
            (clue, EdgeClue::Count) => Ok(clue.filter(|&v| v != 0)),
            (clue, EdgeClue::Sum) => Ok(clue),
        }
    };
    edge_line(section, n, |line| edge_tokens(line, n, reading), read)
}

/// An edge clue that is a set of values, in form: `.`, `-`, `_` for none (false), else numbers separated by
/// commas (`1,12`) or one run of digits (`135`).
fn edge_set_token(input: &str) -> IResult<&str, bool> {
    alt((
        value(false, one_of(".-_")),
        value(true, separated_list1(char(','), digit1)),
    ))
    .parse(input)
}

/// A line of `n` edge clues that are sets of values (Outside Sudoku: `13 . 2 ...`). On a grid up to 9x9 a run
/// of digits is one value a digit (`135`: 1, 3 and 5); past 9 the values of a clue are separated by commas
/// (`1,12`), and a run is one value. Each value is from 1 to n.
pub(crate) fn edge_sets(section: &SectionText, n: usize) -> Result<Vec<Option<Vec<u32>>>, Error> {
    let read = |token: &str| -> Result<Option<Vec<u32>>, String> {
        match all_consuming(edge_set_token).parse(token) {
            Ok((_, false)) => Ok(None),
            Ok((_, true)) => set_of(token, n).map(Some),
            Err(_) => Err(format!(
                "{token:?} is not a clue (values such as 13 or 1,12, or . for none)"
            )),
        }
    };
    edge_line(section, n, |line| line.split_whitespace().collect(), read)
}

/// The values of one clue token as [`edge_sets`] reads them (`135`; `1,12`), each from 1 to n; the message
/// says what is wrong.
pub(crate) fn set_of(token: &str, n: usize) -> Result<Vec<u32>, String> {
    let words: Vec<&str> = token.split(',').collect();
    let values: Vec<&str> = match words.as_slice() {
        [run] if n <= 9 => characters(run),
        _ => words,
    };
    let mut set = Vec::new();
    for word in values {
        if let Some(message) = too_large(word) {
            return Err(message);
        }
        match word.parse::<u32>() {
            Ok(v) if (1..=n as u32).contains(&v) => set.push(v),
            _ => {
                return Err(format!(
                    "{word} is not a value of this {n}x{n} grid (1 to {n})"
                ))
            }
        }
    }
    Ok(set)
}

/// A set of values as [`edge_sets`] reads it: a run of digits on a grid up to 9x9 (`135`), else separated by
/// commas (`1,12`).
pub(crate) fn set_text(values: &[u32], n: usize) -> String {
    let words: Vec<String> = values.iter().map(u32::to_string).collect();
    words.join(if n <= 9 { "" } else { "," })
}

/// An arrow drawn outside the grid (Rossini Sudoku), by the way it points on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arrow {
    Up,
    Down,
    Left,
    Right,
}

impl Arrow {
    /// The arrow a character draws: `^ v < >`, or `↑ ↓ ← →` as pasted from a page.
    fn of(c: char) -> Option<Arrow> {
        Some(match c {
            '^' | '↑' => Arrow::Up,
            'v' | 'V' | '↓' => Arrow::Down,
            '<' | '←' => Arrow::Left,
            '>' | '→' => Arrow::Right,
            _ => return None,
        })
    }

    /// How a puzzle file writes it: `^`, `v`, `<`, `>`.
    pub(crate) fn symbol(self) -> char {
        match self {
            Arrow::Up => '^',
            Arrow::Down => 'v',
            Arrow::Left => '<',
            Arrow::Right => '>',
        }
    }

    /// How a picture draws it: `↑`, `↓`, `←`, `→`.
    pub(crate) fn glyph(self) -> char {
        match self {
            Arrow::Up => '↑',
            Arrow::Down => '↓',
            Arrow::Left => '←',
            Arrow::Right => '→',
        }
    }

    /// Whether it points along a column (up or down), not along a row.
    pub(crate) fn vertical(self) -> bool {
        matches!(self, Arrow::Up | Arrow::Down)
    }

    /// The arrow that points into the grid from a side (`top`, `bottom`, `left`, `right`): down from the top,
    /// left from the right.
    pub(crate) fn inward(side: &str) -> Arrow {
        match side {
            "top" => Arrow::Down,
            "bottom" => Arrow::Up,
            "left" => Arrow::Right,
            _ => Arrow::Left,
        }
    }

    /// The arrow pointing the other way.
    pub(crate) fn reversed(self) -> Arrow {
        match self {
            Arrow::Up => Arrow::Down,
            Arrow::Down => Arrow::Up,
            Arrow::Left => Arrow::Right,
            Arrow::Right => Arrow::Left,
        }
    }
}

/// Text with each arrow glyph (`↓`) written as the symbol a puzzle file uses (`v`), for ASCII pictures; other
/// characters, ASCII ones included, stay as they are.
pub(crate) fn arrow_symbols(text: &str) -> String {
    text.chars()
        .map(|c| match Arrow::of(c) {
            Some(a) if !c.is_ascii() => a.symbol(),
            _ => c,
        })
        .collect()
}

/// A line of `n` edge clues that are arrows (`clue: arrows`): `v . ^ v` or, an arrow a character, `v.^v`; `.`,
/// `-`, `_` for none. Which way an arrow may point depends on the side the section is bound to, which the rule
/// that reads it checks.
pub(crate) fn edge_arrows(section: &SectionText, n: usize) -> Result<Vec<Option<Arrow>>, Error> {
    let read = |token: &str| -> Result<Option<Arrow>, String> {
        let mut chars = token.chars();
        match (chars.next(), chars.next()) {
            (Some('.' | '-' | '_'), None) => Ok(None),
            (Some(c), None) if Arrow::of(c).is_some() => Ok(Arrow::of(c)),
            _ => Err(format!(
                "{token:?} is not an arrow (^, v, < or >, or . for none)"
            )),
        }
    };
    edge_line(section, n, arrow_tokens, read)
}

/// The tokens of a line of arrows: separated by spaces, or a character each when written as one run.
fn arrow_tokens(line: &str) -> Vec<&str> {
    let run = line.trim();
    if run.contains(char::is_whitespace) {
        line.split_whitespace().collect()
    } else {
        characters(run)
    }
}

/// What the two cells of a tagged pair must satisfy, as a grammar writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairRelation {
    /// `difference K`: the values differ by exactly K (kropki white dots: 1).
    Difference(u32),
    /// `ratio K`: the larger is K times the smaller (kropki black dots: 2).
    Ratio(u32),
    /// `sum K`: the values add up to K (X: 10, V: 5).
    Sum(u32),
    /// `apart K`: the values differ by at least K.
    Apart(u32),
    /// `less`: the first cell's value is smaller.
    Less,
    /// `equal`: the values are equal.
    Equal,
}

/// The phrases [`pair_relation`] reads, for messages.
pub(crate) const PAIR_RELATIONS: &str =
    "difference K, ratio K, sum K, apart K (K from 1 to 255), less, equal";

/// Reads a pair relation: `difference 1`, `ratio 2`, `sum 10`, `apart 5`, `less`, `equal`.
pub(crate) fn pair_relation(text: &str) -> Result<PairRelation, String> {
    fn number(input: &str) -> IResult<&str, u32> {
        map_res(digit1, str::parse::<u32>).parse(input)
    }
    let with_k = |word: &'static str| {
        delimited(
            space0,
            separated_pair(nom::bytes::complete::tag(word), space1, number),
            space0,
        )
        .map(|(_, k)| k)
    };
    let bare = |word: &'static str| delimited(space0, nom::bytes::complete::tag(word), space0);
    let parsed = all_consuming(alt((
        with_k("difference").map(PairRelation::Difference),
        with_k("ratio").map(PairRelation::Ratio),
        with_k("sum").map(PairRelation::Sum),
        with_k("apart").map(PairRelation::Apart),
        bare("less").map(|_| PairRelation::Less),
        bare("equal").map(|_| PairRelation::Equal),
    )))
    .parse(text);
    let bad = || format!("{text:?} is not a pair relation (use {PAIR_RELATIONS})");
    let relation = parsed.map_err(|_| bad())?.1;
    match relation {
        PairRelation::Difference(k)
        | PairRelation::Ratio(k)
        | PairRelation::Sum(k)
        | PairRelation::Apart(k)
            if !(1..=255).contains(&k) =>
        {
            Err(bad())
        }
        r => Ok(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> SectionText {
        SectionText::single("hints.E", text)
    }

    #[test]
    fn integers() {
        assert_eq!(integer(&one("24")).unwrap(), 24);
        let e = integer(&one("2x0")).unwrap_err().to_string();
        assert_eq!(
            e,
            "hints.E: line 1, column 2: \"2x0\" is not a positive integer"
        );
        assert!(integer(&one("0")).is_err());
    }

    #[test]
    fn arithmetic_operators() {
        let op = |t: &str| arithmetic(&one(t)).unwrap();
        assert_eq!(
            op("11+"),
            ArithmeticClue {
                target: 11,
                op: Some(Op::Add)
            }
        );
        assert_eq!(op("2−").op, Some(Op::Sub));
        assert_eq!(op("20×").op, Some(Op::Mul));
        assert_eq!(op("20*").op, Some(Op::Mul));
        assert_eq!(op("3÷").op, Some(Op::Div));
        assert_eq!(
            op("5"),
            ArithmeticClue {
                target: 5,
                op: None
            }
        );
        // Zero is a difference only (two equal cells).
        assert_eq!(op("0-").target, 0);
        for zero in ["0+", "0x", "0/", "0"] {
            let e = arithmetic(&one(zero)).unwrap_err().to_string();
            assert!(e.contains("0 only as a difference"), "{zero}: {e}");
        }
        let e = arithmetic(&one("12%")).unwrap_err().to_string();
        assert!(
            e.contains("line 1, column 3: \"%\" is not an operator"),
            "{e}"
        );
    }

    #[test]
    fn shapes() {
        assert_eq!(box_shape(&one("2x3")).unwrap(), (2, 3));
        assert!(box_shape(&one("2by3")).is_err());
        // A side that would make H * W wrap around to a small size is refused, never multiplied.
        let e = box_shape(&one("9223372036854775810x2")).unwrap_err();
        assert!(e.to_string().contains("from 1 to 255"), "{e}");
        assert!(box_shape(&one("0x3")).is_err());
    }

    #[test]
    fn numbers_beyond_64_bits_are_too_large() {
        let big = "99999999999999999999999";
        for e in [
            integer(&one(big)).unwrap_err(),
            arithmetic(&one(&format!("{big}+"))).unwrap_err(),
            edge(&one(&format!(". {big}")), 2, EdgeClue::Count).unwrap_err(),
        ] {
            assert!(e.to_string().contains("is too large"), "{e}");
        }
    }

    #[test]
    fn an_empty_edge_is_an_error_not_a_panic() {
        let empty = SectionText {
            name: "top".into(),
            lines: vec![],
        };
        let e = edge(&empty, 2, EdgeClue::Count).unwrap_err().to_string();
        assert_eq!(
            e,
            "top: expected 2 clues (one per line of the grid, . for none), found none"
        );
        assert!(edge(&one("  "), 2, EdgeClue::Count).is_err());
    }

    #[test]
    fn edges_count_their_tokens() {
        assert_eq!(
            edge(&one(". 3 3 0 ."), 5, EdgeClue::Count).unwrap(),
            vec![None, Some(3), Some(3), None, None]
        );
        let e = edge(&one(". 3 3 ."), 5, EdgeClue::Count)
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 5 clues"), "{e}");
        let e = edge(&one(". 3 q . ."), 5, EdgeClue::Count)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1, column 5: \"q\" is not a clue"), "{e}");
        let e = edge(&one(". 6 . . ."), 5, EdgeClue::Count)
            .unwrap_err()
            .to_string();
        assert!(e.contains("6 is more than the 5 cells"), "{e}");
        // Counts up to 9x9 may run together, a character a clue, as a grid's rows do.
        assert_eq!(
            edge(&one("21.3"), 4, EdgeClue::Count).unwrap(),
            vec![Some(2), Some(1), None, Some(3)]
        );
        assert_eq!(
            edge(&one(" .3-_0 "), 5, EdgeClue::Count).unwrap(),
            vec![None, Some(3), None, None, None]
        );
        let e = edge(&one("2153"), 4, EdgeClue::Count)
            .unwrap_err()
            .to_string();
        assert!(e.contains("column 3: 5 is more than the 4 cells"), "{e}");
        let e = edge(&one("21x3"), 4, EdgeClue::Count)
            .unwrap_err()
            .to_string();
        assert!(e.contains("column 3: \"x\" is not a clue"), "{e}");
        // A run of another length, or of sums, stays one number.
        let e = edge(&one("213"), 4, EdgeClue::Count)
            .unwrap_err()
            .to_string();
        assert!(e.contains("213 is more than"), "{e}");
        let e = edge(&one("1234"), 4, EdgeClue::Sum)
            .unwrap_err()
            .to_string();
        assert!(e.contains("1234 is more than"), "{e}");
    }

    #[test]
    fn arrow_edges_read_spaced_or_run_together() {
        use Arrow::{Down, Left, Right, Up};
        let want = vec![Some(Down), None, Some(Up), None, Some(Left), Some(Right)];
        assert_eq!(edge_arrows(&one("v . ^ - < >"), 6).unwrap(), want);
        assert_eq!(edge_arrows(&one("v.^_<>"), 6).unwrap(), want);
        assert_eq!(edge_arrows(&one("↓.↑.←→"), 6).unwrap(), want);
        let e = edge_arrows(&one("v . x"), 3).unwrap_err().to_string();
        assert!(e.contains("column 5: \"x\" is not an arrow"), "{e}");
        let e = edge_arrows(&one("vv . ."), 3).unwrap_err().to_string();
        assert!(e.contains("column 1: \"vv\" is not an arrow"), "{e}");
        let e = edge_arrows(&one("v.^"), 4).unwrap_err().to_string();
        assert!(e.contains("expected 4 clues"), "{e}");
        // A multi-byte character in a run is one token, and its error is placed without a panic.
        let e = edge_arrows(&one("vé^"), 3).unwrap_err().to_string();
        assert!(e.contains("\"é\" is not an arrow"), "{e}");
        for a in [Up, Down, Left, Right] {
            assert_eq!(Arrow::of(a.symbol()), Some(a));
            assert_eq!(Arrow::of(a.glyph()), Some(a));
            assert_eq!(a.reversed().reversed(), a);
            assert_eq!(a.reversed().vertical(), a.vertical());
        }
        assert_eq!(arrow_symbols("↑↓←→ V 12"), "^v<> V 12");
    }

    #[test]
    fn set_edges_read_runs_of_digits_up_to_nine_and_commas_past_it() {
        assert_eq!(
            edge_sets(&one("13 . 2,4 _ 5"), 5).unwrap(),
            vec![
                Some(vec![1, 3]),
                None,
                Some(vec![2, 4]),
                None,
                Some(vec![5])
            ]
        );
        assert_eq!(set_text(&[1, 3], 5), "13");
        // Any text, not only what the clue's form lets through, is read without a panic.
        assert!(set_of("1é", 5).unwrap_err().contains("é is not a value"));
        assert_eq!(set_text(&[1, 12], 12), "1,12");
        // Past 9 a run is one value, so 12 is twelve, and commas separate.
        let sets = edge_sets(&one(&format!("12 1,12 {}", ". ".repeat(10))), 12).unwrap();
        assert_eq!(sets[..2], [Some(vec![12]), Some(vec![1, 12])]);
        let e = edge_sets(&one("13 . 6 . ."), 5).unwrap_err().to_string();
        assert!(
            e.contains("line 1, column 6: 6 is not a value of this 5x5 grid"),
            "{e}"
        );
        // A repeated token is placed where it stands, not where it first appears.
        let e = edge_sets(&one("1 . 1x . ."), 5).unwrap_err().to_string();
        assert!(e.contains("column 5: \"1x\" is not a clue"), "{e}");
        let e = edge_sets(&one("1 2 3"), 5).unwrap_err().to_string();
        assert!(
            e.contains("expected 5 clues (one per line of the grid), found 3"),
            "{e}"
        );
        let e = edge_sets(
            &one(&format!("99999999999999999999 {}", ". ".repeat(11))),
            12,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("too large"), "{e}");
    }

    #[test]
    fn sum_edges_keep_zero_and_reach_the_triangle_number() {
        assert_eq!(
            edge(&one("0 15 . 14 3"), 5, EdgeClue::Sum).unwrap(),
            vec![Some(0), Some(15), None, Some(14), Some(3)]
        );
        let e = edge(&one("0 16 . 14 3"), 5, EdgeClue::Sum)
            .unwrap_err()
            .to_string();
        assert!(e.contains("16 is more than 1 + 2 + ... + 5 = 15"), "{e}");
    }

    #[test]
    fn pair_relations_read() {
        assert_eq!(
            pair_relation("difference 1"),
            Ok(PairRelation::Difference(1))
        );
        assert_eq!(pair_relation(" ratio  2 "), Ok(PairRelation::Ratio(2)));
        assert_eq!(pair_relation("sum 10"), Ok(PairRelation::Sum(10)));
        assert_eq!(pair_relation("less"), Ok(PairRelation::Less));
        for bad in [
            "sum",
            "sum 0",
            "ratio 256",
            "double",
            "less 2",
            "sum 99999999999",
        ] {
            let e = pair_relation(bad).unwrap_err();
            assert!(e.contains("is not a pair relation"), "{bad}: {e}");
        }
    }
}
