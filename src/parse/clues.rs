//! Clues: integer hints (`24`), arithmetic hints (`11+`, `2-`, `20x`, `3/`, or a bare `5` with the operator
//! hidden), box shapes (`3x3`) and lines of edge clues (`. 3 3 . .`).

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

/// Digits that do not fit 64 bits: said as "too large", never as "not a number".
fn too_large(section: &SectionText, at: &str) -> Option<Error> {
    let digits: &str = &at[..at.find(|c: char| !c.is_ascii_digit()).unwrap_or(at.len())];
    (!digits.is_empty() && digits.parse::<u64>().is_err()).then(|| {
        section.error_at_rest(
            0,
            at,
            format!("{digits} is too large (at most {})", u64::MAX),
        )
    })
}

/// A positive integer hint.
pub(crate) fn integer(section: &SectionText) -> Result<u64, Error> {
    let text = section.lines.first().map(String::as_str).unwrap_or("");
    let start = text.trim_start();
    if let Some(e) = too_large(section, start) {
        return Err(e);
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
    if let Some(e) = too_large(section, start) {
        return Err(e);
    }
    let (rest, target) = positive(start).map_err(|_| {
        section.error_at_rest(
            0,
            start,
            format!("{:?} does not start with a number", start.trim()),
        )
    })?;
    if target == 0 {
        return Err(section.error_at_rest(0, start, "the target must be positive"));
    }
    let (rest, op) = opt(operator)
        .parse(rest)
        .map_err(|_| section.error_at_rest(0, rest, "bad operator"))?;
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

fn edge_line(input: &str) -> IResult<&str, Vec<Option<u64>>> {
    all_consuming(delimited(
        space0,
        separated_list1(space1, edge_token),
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

/// An edge-clue token: `.`, `-`, `_` or `0` for none, otherwise a positive number.
fn edge_token(input: &str) -> IResult<&str, Option<u64>> {
    alt((
        map(one_of(".-_"), |_| None),
        map(positive, |v| if v == 0 { None } else { Some(v) }),
    ))
    .parse(input)
}

/// A line of `n` edge clues, e.g. `. 3 3 . .`.
pub(crate) fn edge(section: &SectionText, n: usize) -> Result<Vec<Option<u64>>, Error> {
    let joined = section.lines.join(" ");
    let text = joined.as_str();
    let start = text.trim_start();
    if start.trim().is_empty() {
        return Err(Error::section(
            section.name.clone(),
            format!("expected {n} clues (one per line of the grid, . for none), found none"),
        ));
    }
    if let Some(e) = start
        .split_whitespace()
        .find_map(|t| too_large(section, &start[start.find(t).unwrap_or(0)..]))
    {
        return Err(e);
    }
    let list = edge_line(start);
    let clues = match list {
        Ok((_, clues)) => clues,
        Err(_) => {
            let bad = start
                .split_whitespace()
                .find(|t| edge_token(t).map(|(r, _)| !r.is_empty()).unwrap_or(true))
                .unwrap_or(start);
            let at = &start[start.find(bad).unwrap_or(0)..];
            return Err(section.error_at_rest(
                0,
                at,
                format!("{bad:?} is not a clue (a number, or . for none)"),
            ));
        }
    };
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
    if let Some((i, v)) = clues
        .iter()
        .enumerate()
        .find_map(|(i, c)| c.filter(|&v| v as usize > n).map(|v| (i, v)))
    {
        let tok = start.split_whitespace().nth(i).unwrap_or(start);
        let at = &start[start.find(tok).unwrap_or(0)..];
        return Err(section.error_at_rest(
            0,
            at,
            format!("{v} buildings cannot be seen in a line of {n}"),
        ));
    }
    Ok(clues)
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
            edge(&one(&format!(". {big}")), 2).unwrap_err(),
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
        let e = edge(&empty, 2).unwrap_err().to_string();
        assert_eq!(
            e,
            "top: expected 2 clues (one per line of the grid, . for none), found none"
        );
        assert!(edge(&one("  "), 2).is_err());
    }

    #[test]
    fn edges_count_their_tokens() {
        assert_eq!(
            edge(&one(". 3 3 . ."), 5).unwrap(),
            vec![None, Some(3), Some(3), None, None]
        );
        let e = edge(&one(". 3 3 ."), 5).unwrap_err().to_string();
        assert!(e.contains("expected 5 clues"), "{e}");
        let e = edge(&one(". 3 q . ."), 5).unwrap_err().to_string();
        assert!(e.contains("line 1, column 5: \"q\" is not a clue"), "{e}");
    }
}
