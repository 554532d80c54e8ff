//! Grids written one row per line: givens, solutions, region maps and mark grids.
//!
//! A line with spaces holds one cell per space-separated token; a line without spaces holds one cell per
//! character. `|` tokens and lines made only of `-`, `+`, `=`, `|`, `*` and spaces are decoration, so a grid that
//! `latin` printed reads back in, and so does Simple Sudoku's framed `.ss` grid.

use nom::bytes::complete::is_not;
use nom::character::complete::space0;
use nom::combinator::all_consuming;
use nom::multi::many0;
use nom::sequence::delimited;
use nom::{IResult, Parser};

use super::{column_of, SectionText};
use crate::error::{Error, Position};
use crate::grid::Grid;

/// One cell's token with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) text: String,
    /// 0-based line inside the section.
    pub(crate) line: usize,
    /// 0-based character column inside the line.
    pub(crate) column: usize,
    /// Whether the row was written with spaces (then values are decimal; otherwise `A`-`Z` mean 10..35).
    pub(crate) spaced: bool,
}

impl Token {
    pub(crate) fn position(&self) -> Position {
        Position {
            line: self.line + 1,
            column: self.column + 1,
        }
    }
}

/// A square grid of tokens, row by row.
#[derive(Clone, Debug)]
pub(crate) struct TokenGrid {
    pub(crate) rows: Vec<Vec<Token>>,
}

impl TokenGrid {
    pub(crate) fn size(&self) -> usize {
        self.rows.len()
    }

    pub(crate) fn token(&self, row: usize, col: usize) -> &Token {
        &self.rows[row][col]
    }
}

/// A rule between rows: `------+------`, or Simple Sudoku's frame `*-----------*`.
fn is_decoration(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '-' | '+' | '=' | '|' | '*' | ' ' | '\t'))
        && line.contains(['-', '+', '=', '|'])
}

/// Space-separated words of a line (each with the rest of the line where it starts).
fn words(input: &str) -> IResult<&str, Vec<&str>> {
    all_consuming(many0(delimited(space0, is_not(" \t"), space0))).parse(input)
}

/// The largest grid: sizes are 1..=255.
pub(crate) const MAX_SIZE: usize = 255;

/// Splits a section into rows of tokens; rejects grids that are not square, and a row or a row count beyond
/// [`MAX_SIZE`] as soon as it is seen.
pub(crate) fn tokenize(section: &SectionText) -> Result<TokenGrid, Error> {
    let mut rows = Vec::new();
    for (index, line) in section.content_lines() {
        if rows.len() == MAX_SIZE {
            return Err(section.error_at(
                index,
                0,
                format!("more than {MAX_SIZE} rows: grids are at most {MAX_SIZE}x{MAX_SIZE}"),
            ));
        }
        let trimmed = line.trim_end();
        if is_decoration(trimmed) {
            continue;
        }
        let spaced = trimmed.trim_start().contains([' ', '\t']);
        let mut row = Vec::new();
        if spaced {
            let (_, ws) = words(trimmed)
                .map_err(|_| section.error_at(index, 0, "cannot split this line into cells"))?;
            for w in ws.into_iter().filter(|w| *w != "|") {
                if row.len() == MAX_SIZE {
                    return Err(too_wide(section, index));
                }
                row.push(Token {
                    text: w.to_owned(),
                    line: index,
                    column: column_of(trimmed, w_rest(trimmed, w)),
                    spaced,
                });
            }
        } else {
            let lead = trimmed.len() - trimmed.trim_start().len();
            for (k, ch) in trimmed.trim_start().chars().enumerate() {
                if ch != '|' {
                    if row.len() == MAX_SIZE {
                        return Err(too_wide(section, index));
                    }
                    row.push(Token {
                        text: ch.to_string(),
                        line: index,
                        column: lead + k,
                        spaced,
                    });
                }
            }
        }
        rows.push(row);
    }
    let n = rows.len();
    if n == 0 {
        return Err(Error::section(section.name.clone(), "the grid is empty"));
    }
    match not_square(&rows) {
        Some((at, message)) => Err(section.error_at(at.line, at.column, message)),
        None => Ok(TokenGrid { rows }),
    }
}

/// Where a grid that is not square goes wrong, and how. Rows all of one width but not as many as that: the
/// count of rows is wrong (a row left out or one too many), said at the last row. Otherwise the row that
/// differs from the most common width (the row count's, on a tie): a cell left out or one too many there.
fn not_square(rows: &[Vec<Token>]) -> Option<(&Token, String)> {
    let n = rows.len();
    let plural = |k: usize, word: &str| format!("{k} {word}{}", if k == 1 { "" } else { "s" });
    let width = rows[0].len();
    if rows.iter().all(|r| r.len() == width) {
        return (width != n).then(|| {
            let message = format!(
                "the grid has {} of {}; a grid must be square",
                plural(n, "row"),
                plural(width, "cell"),
            );
            (&rows[n - 1][0], message)
        });
    }
    let count = |w: usize| rows.iter().filter(|r| r.len() == w).count();
    let usual = rows
        .iter()
        .map(Vec::len)
        .max_by_key(|&w| (count(w), w == n))
        .unwrap_or(n);
    let odd = rows.iter().find(|r| r.len() != usual)?;
    let message = format!(
        "this row has {}, the others {usual}; a grid must be square",
        plural(odd.len(), "cell"),
    );
    Some((&odd[0], message))
}

/// A row with more cells than any grid has, refused as soon as it is seen.
fn too_wide(section: &SectionText, line: usize) -> Error {
    section.error_at(
        line,
        0,
        format!("more than {MAX_SIZE} cells in a row: grids are at most {MAX_SIZE}x{MAX_SIZE}"),
    )
}

/// The suffix of `line` that starts at word `w` (a subslice of `line`).
fn w_rest<'a>(line: &'a str, w: &str) -> &'a str {
    let start = w.as_ptr() as usize - line.as_ptr() as usize;
    &line[start..]
}

/// A value written as one character in the no-space form: `1`-`9`, then `A`-`Z` (or `a`-`z`) for 10..35 (no
/// empties).
pub(crate) fn compact_value(c: char) -> Option<u32> {
    match c {
        '1'..='9' => c.to_digit(10),
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 10),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 10),
        _ => None,
    }
}

/// Whether a grid of n x n written a character a cell spells the value n as `0`: hex Sudokus are published
/// with the sixteen symbols `0`-`9`, `a`-`f` and `.` for an empty cell (krazydad.com's), so on a grid of 10x10
/// or more, a `0` beside `.` or `_` cannot also mean "empty". Then `1`-`9` and the letters keep their values
/// and `0` is the one left over, n.
pub(crate) fn zero_is_n(n: usize, mut chars: impl Iterator<Item = char>) -> bool {
    let (mut zero, mut empty) = (false, false);
    n >= 10
        && chars.any(|c| {
            zero |= c == '0';
            empty |= matches!(c, '.' | '_');
            zero && empty
        })
}

/// Whether a grid of n x n spells its values with letters alone, `A` for 1 (16x16 grids as `A`-`P`, 25x25 as
/// `A`-`Y`, as letter Sudokus are published): no digit 1-9 appears, and some letter reads past n in the usual
/// form (`A`-`Z` for 10..35), which it cannot mean there. A grid read the usual way is never read so: it was
/// refused. A letter puzzle with one solution gives at least n-1 of its n symbols (two it lacks could swap), so
/// it always shows a letter past the usual form's range.
pub(crate) fn letters_from_one(n: usize, chars: impl Iterator<Item = char> + Clone) -> bool {
    n >= 10
        && !chars.clone().any(|c| matches!(c, '1'..='9'))
        && chars
            .into_iter()
            .any(|c| compact_value(c).is_some_and(|v| v as usize > n))
}

/// A letter's value where [`letters_from_one`] says so: `A` (or `a`) is 1.
fn letter_from_one(c: char) -> Option<u32> {
    match c {
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 1),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 1),
        _ => None,
    }
}

/// The characters that mark an empty cell: `.`, `0`, `_`.
pub(crate) fn is_empty_mark(c: char) -> bool {
    matches!(c, '.' | '0' | '_')
}

/// The side n of a square of `cells` cells (0 for none), if `cells` is a square: a grid written as one line is
/// known by its length alone (81 -> 9).
pub(crate) fn side_of(cells: usize) -> Option<usize> {
    let n = cells.isqrt();
    (n * n == cells).then_some(n)
}

/// The values of a grid written as one line of n*n characters, row by row (`.`, `0`, `_` empty as 0, but `0` is n
/// where [`zero_is_n`] says so); else the first character that is no value of an n x n grid, with its index.
pub(crate) fn line_values(chars: &[char], n: usize) -> Result<Vec<u32>, (usize, char)> {
    let zero = zero_is_n(n, chars.iter().copied());
    let letters = letters_from_one(n, chars.iter().copied());
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| match c {
            '0' if zero => Ok(n as u32),
            _ if is_empty_mark(c) => Ok(0),
            _ if letters => letter_from_one(c)
                .filter(|&v| v as usize <= n)
                .ok_or((i, c)),
            _ => compact_value(c).filter(|&v| v as usize <= n).ok_or((i, c)),
        })
        .collect()
}

/// Reads one value token: `.`, `0`, `_` are empty (0), but `0` is `max` where `zero_is_max` says so ([`zero_is_n`]);
/// otherwise 1..=max.
fn value(
    section: &SectionText,
    token: &Token,
    max: usize,
    (zero_is_max, letters): (bool, bool),
) -> Result<u32, Error> {
    let t = token.text.as_str();
    let mut chars = t.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c == '0' && zero_is_max && !token.spaced {
            return Ok(max as u32);
        }
        if is_empty_mark(c) {
            return Ok(0);
        }
        if let Some(v) = letter_from_one(c).filter(|&v| letters && v as usize <= max) {
            return Ok(v);
        }
    }
    let v = if token.spaced {
        // Numbers, or one capital letter for 10..35 as in the no-space form.
        t.parse::<u32>().ok().or_else(|| {
            let mut cs = t.chars();
            match (cs.next(), cs.next()) {
                (Some(c @ 'A'..='Z'), None) => compact_value(c),
                _ => None,
            }
        })
    } else {
        t.chars().next().and_then(compact_value)
    };
    if v.is_none() && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(section.error_at(
            token.line,
            token.column,
            format!("value {t} is too large (at most {max})"),
        ));
    }
    match v {
        Some(v) if v >= 1 && (v as usize) <= max => Ok(v),
        // A letter past the grid's values is more likely a slip than a value: say what it would be.
        Some(_) if t.starts_with(|c: char| c.is_ascii_alphabetic()) => Err(section.error_at(
            token.line,
            token.column,
            format!("{t:?} is not a value here: letters stand for 10..35, and this grid's values are 1..{max}"),
        )),
        Some(v) => Err(section.error_at(
            token.line,
            token.column,
            format!("value {v} is out of range 1..{max}"),
        )),
        None => Err(section.error_at(
            token.line,
            token.column,
            format!("{t:?} is not a value (use 1-9, A-Z, or . for empty)"),
        )),
    }
}

/// Reads a grid of values of size `n` (0 = empty).
pub(crate) fn values(section: &SectionText, tokens: &TokenGrid, n: usize) -> Result<Grid, Error> {
    if tokens.size() != n {
        return Err(Error::section(
            section.name.clone(),
            format!(
                "the grid is {0}x{0} but the puzzle is {n}x{n}",
                tokens.size()
            ),
        ));
    }
    let compact = tokens.rows.iter().flatten().filter(|t| !t.spaced);
    let zero = zero_is_n(n, compact.flat_map(|t| t.text.chars()));
    let letters = letters_from_one(n, tokens.rows.iter().flatten().flat_map(|t| t.text.chars()));
    let mut grid = Grid::empty(n);
    for (r, row) in tokens.rows.iter().enumerate() {
        for (c, tok) in row.iter().enumerate() {
            grid.set(
                crate::grid::Cell::new(r, c),
                value(section, tok, n, (zero, letters))?,
            );
        }
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    fn text(lines: &[&str]) -> SectionText {
        SectionText {
            name: "givens".into(),
            lines: lines.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A grid that is not square is told where: the row that is off, or that a row is missing.
    #[test]
    fn a_grid_that_is_not_square_is_told_where() {
        let cases: [(&[&str], &str); 6] = [
            // A cell left out of one row, or one too many: that row, whatever the row count.
            (
                &["1 2 3", "2 3", "3 1 2"],
                "line 2, column 1: this row has 2 cells, the others 3",
            ),
            (
                &["1 2 3", "2 3 1", "3 1 2 4", "1 1 1"],
                "line 3, column 1: this row has 4 cells, the others 3",
            ),
            // A row left out: the count of rows, at the last one.
            (
                &[". . .", ". . ."],
                "line 2, column 1: the grid has 2 rows of 3 cells",
            ),
            (&["r1c1 r1c2"], "the grid has 1 row of 2 cells"),
            // Two widths as common: the one the row count asks for is the usual one.
            (
                &["1 2 3", "1 2 3 4", "1 2 3 4", "1 2 3"],
                "line 1, column 1: this row has 3 cells, the others 4",
            ),
            (
                &["1 2 3 4", "1 2 3", "1 2 3", "1 2 3 4"],
                "line 2, column 1: this row has 3 cells, the others 4",
            ),
        ];
        for (lines, said) in cases {
            let e = tokenize(&text(lines)).unwrap_err().to_string();
            assert!(e.contains(said), "{lines:?}: {e}");
        }
        assert!(tokenize(&text(&["1 2", "2 1"])).is_ok());
    }

    /// Letter Sudokus: `A`-`P` on a 16x16 (`A` is 1) where no digit appears and a letter past `G` says the
    /// usual reading (`A` for 10) cannot be meant; the usual reading stays wherever it fits.
    #[test]
    fn letters_alone_count_from_a() {
        let letters: Vec<char> = "AP.."
            .chars()
            .chain(std::iter::repeat_n('.', 252))
            .collect();
        assert_eq!(line_values(&letters, 16).unwrap()[..2], [1, 16]);
        let hex: Vec<char> = "AG.."
            .chars()
            .chain(std::iter::repeat_n('.', 252))
            .collect();
        assert_eq!(line_values(&hex, 16).unwrap()[..2], [10, 16]);
        let mixed: Vec<char> = "1P.."
            .chars()
            .chain(std::iter::repeat_n('.', 252))
            .collect();
        assert_eq!(line_values(&mixed, 16), Err((1, 'P')));
        let rows: Vec<String> = (0..16)
            .map(|r| {
                if r == 0 {
                    format!("AP{}", ".".repeat(14))
                } else {
                    ".".repeat(16)
                }
            })
            .collect();
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let s = text(&refs);
        let grid = values(&s, &tokenize(&s).unwrap(), 16).unwrap();
        assert_eq!(grid.rows()[0][..2], [1, 16]);
    }

    #[test]
    fn compact_and_spaced_rows() {
        let s = text(&["12", "2 1"]);
        let g = tokenize(&s).unwrap();
        assert_eq!(g.rows[1][1].text, "1");
        assert_eq!(g.rows[1][1].column, 2);
        assert!(g.rows[1][0].spaced && !g.rows[0][0].spaced);
    }

    #[test]
    fn decoration_reads_back() {
        let s = text(&[
            "1 2 | 3 4",
            "----+----",
            "3 4 | 1 2",
            "",
            "2 1 | 4 3",
            "4 3 | 2 1",
        ]);
        let g = tokenize(&s).unwrap();
        assert_eq!(g.size(), 4);
        let grid = values(&s, &g, 4).unwrap();
        assert_eq!(grid.rows()[3], vec![4, 3, 2, 1]);
        // Simple Sudoku's frame, `*` at the corners and `|` at both ends of a row.
        let s = text(&[
            "*-----*", "|12|34|", "|34|12|", "|--+--|", "|21|43|", "|43|21|", "*-----*",
        ]);
        let framed = values(&s, &tokenize(&s).unwrap(), 4).unwrap();
        assert_eq!(framed, grid);
    }

    #[test]
    fn letters_are_values_past_nine_only_in_compact_rows() {
        let s = text(&["A"]);
        let g = tokenize(&s).unwrap();
        assert_eq!(value(&s, g.token(0, 0), 16, (false, false)).unwrap(), 10);
        let s = text(&["a"]);
        assert_eq!(
            value(&s, tokenize(&s).unwrap().token(0, 0), 16, (false, false)).unwrap(),
            10
        );
        let s = text(&["A ."]);
        let g = TokenGrid {
            rows: tokenize(&s).map(|g| g.rows).unwrap_or_else(|_| vec![]),
        };
        assert!(g.rows.is_empty());
    }

    #[test]
    fn zero_is_the_largest_value_only_beside_another_empty_mark_on_large_grids() {
        // A 10x10 written with the symbols 0-9: `0` beside `.` is 10.
        let rows: Vec<String> = (0..10)
            .map(|r| {
                (0..10)
                    .map(|c| char::from(b'0' + ((r + c) % 10) as u8))
                    .collect()
            })
            .collect();
        let mut dotted = rows.clone();
        dotted[9].replace_range(0..1, ".");
        let lines: Vec<&str> = dotted.iter().map(String::as_str).collect();
        let s = text(&lines);
        let g = values(&s, &tokenize(&s).unwrap(), 10).unwrap();
        assert_eq!(g.get(Cell::new(0, 0)), 10);
        assert_eq!(g.get(Cell::new(0, 1)), 1);
        assert_eq!(g.get(Cell::new(9, 0)), 0);
        // Without another empty mark `0` stays empty, as on any grid of 9x9 or less.
        let lines: Vec<&str> = rows.iter().map(String::as_str).collect();
        let s = text(&lines);
        let g = values(&s, &tokenize(&s).unwrap(), 10).unwrap();
        assert_eq!(g.get(Cell::new(0, 0)), 0);
        assert!(!zero_is_n(9, "0.".chars()));
        assert!(zero_is_n(16, "1_20".chars()));
        assert!(!zero_is_n(16, "1 2 0".chars()));
    }

    #[test]
    fn ragged_grid_names_line_and_column() {
        let s = text(&["123", "12", "312"]);
        let e = tokenize(&s).unwrap_err().to_string();
        assert!(e.contains("line 2, column 1"), "{e}");
    }

    #[test]
    fn bad_value_is_located() {
        let s = text(&["1 2", "2 x"]);
        let g = tokenize(&s).unwrap();
        let e = values(&s, &g, 2).unwrap_err().to_string();
        assert_eq!(
            e,
            "givens: line 2, column 3: \"x\" is not a value (use 1-9, A-Z, or . for empty)"
        );
        let s = text(&["1 3", "2 1"]);
        let e = values(&s, &tokenize(&s).unwrap(), 2)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 1, column 3: value 3 is out of range 1..2"),
            "{e}"
        );
    }
}
