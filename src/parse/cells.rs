//! Cell references and the lists built from them: `r1c3`, `r1c3 < r1c4 > r2c4`, `r1c1-r1c2`, `r1c2=5`.

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, one_of, space0};
use nom::combinator::{all_consuming, map, map_res};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use super::SectionText;
use crate::error::Error;
use crate::grid::Cell;

/// `<` or `>` between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Less,
    Greater,
}

fn number(input: &str) -> IResult<&str, usize> {
    map_res(digit1, str::parse::<usize>).parse(input)
}

/// `rRcC` with 1-based row and column, as written (not yet range-checked).
fn raw_cell(input: &str) -> IResult<&str, (usize, usize)> {
    (
        preceded(one_of("rR"), number),
        preceded(one_of("cC"), number),
    )
        .parse(input)
}

fn padded_cell(input: &str) -> IResult<&str, (usize, usize)> {
    delimited(space0, raw_cell, space0).parse(input)
}

fn order(input: &str) -> IResult<&str, Order> {
    delimited(
        space0,
        alt((
            map(char('<'), |_| Order::Less),
            map(char('>'), |_| Order::Greater),
        )),
        space0,
    )
    .parse(input)
}

fn separator(input: &str) -> IResult<&str, &str> {
    delimited(space0, alt((tag("-"), tag(","), tag(""))), space0).parse(input)
}

fn assignment(input: &str) -> IResult<&str, ((usize, usize), usize)> {
    all_consuming((
        raw_cell,
        delimited(space0, char('='), space0),
        number,
        space0,
    ))
    .parse(input)
    .map(|(r, (c, _, v, _))| (r, (c, v)))
}

/// Checks a written cell against the grid size, reporting at its column.
fn checked(
    section: &SectionText,
    line: usize,
    at: &str,
    (r, c): (usize, usize),
    n: usize,
) -> Result<Cell, Error> {
    if r == 0 || c == 0 || r > n || c > n {
        return Err(section.error_at_rest(
            line,
            at,
            format!("r{r}c{c} is off the {n}x{n} grid (rows and columns are 1..{n})"),
        ));
    }
    Ok(Cell::new(r - 1, c - 1))
}

/// Parses `cell (op cell)+` on each line: a chain of inequalities. Returns (smaller, larger) pairs.
pub(crate) fn relations(section: &SectionText, n: usize) -> Result<Vec<(Cell, Cell)>, Error> {
    let mut out = Vec::new();
    for (line, text) in section.content_lines() {
        let first = padded_cell(text);
        let (mut rest, first) = first.map_err(|_| {
            section.error_at_rest(line, text.trim_start(), expected_cell(text.trim_start()))
        })?;
        let mut prev = checked(section, line, text.trim_start(), first, n)?;
        if rest.trim().is_empty() {
            return Err(section.error_at_rest(line, rest, "expected `<` or `>` and another cell"));
        }
        while !rest.trim().is_empty() {
            let (after_op, order) = order(rest).map_err(|_| {
                section.error_at_rest(
                    line,
                    rest.trim_start(),
                    format!("expected `<` or `>`, found {:?}", rest.trim()),
                )
            })?;
            let (after_cell, raw) = raw_cell(after_op)
                .map_err(|_| section.error_at_rest(line, after_op, expected_cell(after_op)))?;
            let cell = checked(section, line, after_op, raw, n)?;
            if cell == prev {
                return Err(section.error_at_rest(
                    line,
                    after_op,
                    format!("{cell} is compared with itself"),
                ));
            }
            out.push(match order {
                Order::Less => (prev, cell),
                Order::Greater => (cell, prev),
            });
            prev = cell;
            rest = after_cell;
        }
    }
    Ok(out)
}

/// Parses one pair per line, `r1c1-r1c2` (also `r1c1 r1c2` or `r1c1,r1c2`); with `adjacent`, the two cells must
/// share an edge.
pub(crate) fn pairs(
    section: &SectionText,
    n: usize,
    adjacent: bool,
) -> Result<Vec<(Cell, Cell)>, Error> {
    let mut out = Vec::new();
    for (line, text) in section.content_lines() {
        let start = text.trim_start();
        let (rest, a) = raw_cell(start)
            .map_err(|_| section.error_at_rest(line, start, expected_cell(start)))?;
        let (second, _) =
            separator(rest).map_err(|_| section.error_at_rest(line, rest, "expected `-`"))?;
        let (tail, b) = raw_cell(second)
            .map_err(|_| section.error_at_rest(line, second, expected_cell(second)))?;
        if !tail.trim().is_empty() {
            return Err(section.error_at_rest(
                line,
                tail.trim_start(),
                format!("unexpected {:?} after the pair", tail.trim()),
            ));
        }
        let (a, b) = (
            checked(section, line, start, a, n)?,
            checked(section, line, second, b, n)?,
        );
        if adjacent && !a.is_orthogonal_neighbour(b) {
            return Err(section.error_at_rest(
                line,
                start,
                format!("{a} and {b} are not neighbours (they must share an edge)"),
            ));
        }
        out.push((a, b));
    }
    Ok(out)
}

/// Parses `rRcC=V` entries, one per line (the clue-list form of givens).
pub(crate) fn assignments(section: &SectionText, n: usize) -> Result<Vec<(Cell, u32)>, Error> {
    let mut out = Vec::new();
    for (line, text) in section.content_lines() {
        let start = text.trim_start();
        let (_, (raw, v)) = assignment(start).map_err(|_| {
            section.error_at_rest(
                line,
                start,
                format!("expected an entry like r1c2=5, found {:?}", start.trim()),
            )
        })?;
        let cell = checked(section, line, start, raw, n)?;
        if v == 0 || v > n {
            let at = &start[start.find('=').map_or(0, |i| i + 1)..];
            return Err(section.error_at_rest(
                line,
                at.trim_start(),
                format!("value {v} is out of range 1..{n}"),
            ));
        }
        out.push((cell, v as u32));
    }
    Ok(out)
}

/// Parses a lone cell reference such as an objective key.
pub(crate) fn cell(section: &SectionText, n: usize) -> Result<Cell, Error> {
    let text = section.lines.first().map(String::as_str).unwrap_or("");
    let start = text.trim_start();
    let (_, raw) = all_consuming(padded_cell)
        .parse(start)
        .map_err(|_| section.error_at_rest(0, start, expected_cell(start)))?;
    checked(section, 0, start, raw, n)
}

fn expected_cell(found: &str) -> String {
    let shown: String = found.trim().chars().take(12).collect();
    format!("expected a cell like r1c2, found {shown:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(lines: &[&str]) -> SectionText {
        SectionText {
            name: "less".into(),
            lines: lines.iter().map(|x| x.to_string()).collect(),
        }
    }

    #[test]
    fn chains_become_pairs() {
        let got = relations(&s(&["r1c1 < r1c2 > r2c2"]), 4).unwrap();
        assert_eq!(
            got,
            vec![
                (Cell::new(0, 0), Cell::new(0, 1)),
                (Cell::new(1, 1), Cell::new(0, 1))
            ]
        );
    }

    #[test]
    fn zero_row_is_off_the_grid() {
        let e = relations(&s(&["r1c1 < r0c1"]), 4).unwrap_err().to_string();
        assert_eq!(
            e,
            "less: line 1, column 8: r0c1 is off the 4x4 grid (rows and columns are 1..4)"
        );
    }

    #[test]
    fn unknown_operator_is_located() {
        let e = relations(&s(&["r1c1 = r1c2"]), 4).unwrap_err().to_string();
        assert!(
            e.starts_with("less: line 1, column 6: expected `<` or `>`"),
            "{e}"
        );
    }

    #[test]
    fn pairs_must_touch_when_asked() {
        assert!(pairs(&s(&["r1c1-r1c2"]), 4, true).is_ok());
        let e = pairs(&s(&["r1c1-r1c2", "r2c1-r3c2"]), 4, true)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2, column 1: r2c1 and r3c2 are not neighbours"),
            "{e}"
        );
    }

    #[test]
    fn assignments_read_values() {
        let got = assignments(&s(&["r1c2=2", "r3c3 = 4"]), 4).unwrap();
        assert_eq!(got, vec![(Cell::new(0, 1), 2), (Cell::new(2, 2), 4)]);
        let e = assignments(&s(&["r1c2=9"]), 4).unwrap_err().to_string();
        assert!(
            e.contains("line 1, column 6: value 9 is out of range"),
            "{e}"
        );
    }
}
