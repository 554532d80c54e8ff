//! Cell references and the lists built from them: `r1c3`, `r1c3 < r1c4 > r2c4`, `r1c1-r1c2` (`r1c1-r1c2 = 3` a
//! numbered pair), `r1c2=5`.

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
            within_bound(section, line, text, 2 * out.len(), n)?;
            prev = cell;
            rest = after_cell;
        }
    }
    Ok(out)
}

/// One entry of a `pairs` section: its two cells, and the number after `=` when one is written (a numbered
/// dot: `r1c1-r1c2 = 3`, a white dot of difference 3 where the section's tag says `difference 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellPair {
    pub(crate) a: Cell,
    pub(crate) b: Cell,
    pub(crate) number: Option<u32>,
}

/// The largest number a pair may carry, as a tag's relation (`difference K`, ...) may.
pub(crate) const MAX_PAIR_NUMBER: u64 = 255;

/// Parses one pair per line, `r1c1-r1c2` (also `r1c1 r1c2` or `r1c1,r1c2`), with an optional number after `=`;
/// with `adjacent`, the two cells must share an edge.
pub(crate) fn pairs(
    section: &SectionText,
    n: usize,
    adjacent: bool,
) -> Result<Vec<CellPair>, Error> {
    let mut out = Vec::new();
    for (line, text) in section.content_lines() {
        let start = text.trim_start();
        let (rest, a) = raw_cell(start)
            .map_err(|_| section.error_at_rest(line, start, expected_cell(start)))?;
        let (second, _) =
            separator(rest).map_err(|_| section.error_at_rest(line, rest, "expected `-`"))?;
        let (tail, b) = raw_cell(second)
            .map_err(|_| section.error_at_rest(line, second, expected_cell(second)))?;
        let number = match tail.trim_start().strip_prefix('=') {
            Some(at) => Some(pair_number(section, line, at)?),
            None if tail.trim().is_empty() => None,
            None => {
                return Err(section.error_at_rest(
                    line,
                    tail.trim_start(),
                    format!(
                        "unexpected {:?} after the pair (a number follows `=`)",
                        tail.trim()
                    ),
                ))
            }
        };
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
        out.push(CellPair { a, b, number });
        within_bound(section, line, text, 2 * out.len(), n)?;
    }
    Ok(out)
}

/// The number after a pair's `=` (at `at` on line `line`): a whole number from 1 to [`MAX_PAIR_NUMBER`].
fn pair_number(section: &SectionText, line: usize, at: &str) -> Result<u32, Error> {
    let bad = || {
        let message = format!(
            "{:?} is not a pair's number (a whole number from 1 to {MAX_PAIR_NUMBER})",
            at.trim()
        );
        section.error_at_rest(line, at.trim_start(), message)
    };
    match super::clues::integer(&SectionText::single(&section.name, at)) {
        Ok(k) if k <= MAX_PAIR_NUMBER => Ok(k as u32),
        _ => Err(bad()),
    }
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

/// One line of a `lines` section: its cells in order, and its clue when one follows `=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CellLine {
    pub(crate) cells: Vec<Cell>,
    pub(crate) clue: Option<u64>,
    /// The operator after the clue's number in a section whose clues are arithmetic ([`Shape::arithmetic`]:
    /// `= 4+`); `None` there when it is hidden (a bare number), and always elsewhere.
    pub(crate) op: Option<super::clues::Op>,
    /// The values listed after `=` in a section whose clues are lists ([`Shape::values`]); in a section whose
    /// clues are marks, the values the mark allows (filled in by the section's reader, which knows what the
    /// marks mean); empty otherwise.
    pub(crate) values: Vec<u32>,
    /// The mark after `=` in a section whose clues are marks ([`Shape::marks`]: `= E`).
    pub(crate) mark: Option<String>,
}

impl CellLine {
    /// The clue after `=` as it is written: `15`, `4+` with its operator, or a mark; `None` without one of
    /// them.
    pub(crate) fn clue_text(&self) -> Option<String> {
        written_clue(self.clue, self.op, self.mark.as_deref())
    }
}

/// A line's clue as it is written: its mark, else its number with its operator if it has one.
pub(crate) fn written_clue(
    number: Option<u64>,
    op: Option<super::clues::Op>,
    mark: Option<&str>,
) -> Option<String> {
    if let Some(mark) = mark {
        return Some(mark.to_owned());
    }
    let target = number?;
    Some(super::clues::ArithmeticClue { target, op }.to_string())
}

/// What follows `=` on an entry, read as the section's [`Shape`] says.
#[derive(Default)]
struct Clue {
    number: Option<u64>,
    op: Option<super::clues::Op>,
    values: Vec<u32>,
    mark: Option<String>,
}

/// The clue after `=` (at `at`, on line `line` of the section), read as the section's [`Shape`] says.
fn clue_after(
    section: &SectionText,
    line: usize,
    at: &str,
    n: usize,
    shape: &Shape,
) -> Result<Clue, Error> {
    let single = SectionText::single(&section.name, at);
    if shape.values {
        return Ok(Clue {
            values: value_list(section, line, at, n)?,
            ..Clue::default()
        });
    }
    if !shape.marks.is_empty() {
        let token = at.trim();
        if !shape.marks.iter().any(|m| m == token) {
            let message = format!(
                "{token:?} is not a mark of this section (use {})",
                shape.marks.join(", ")
            );
            return Err(section.error_at_rest(line, at, message));
        }
        return Ok(Clue {
            mark: Some(token.to_owned()),
            ..Clue::default()
        });
    }
    if let Some(message) = super::clues::too_large(at) {
        return Err(section.error_at_rest(line, at, message));
    }
    if shape.arithmetic {
        let clue = super::clues::arithmetic(&single).map_err(|_| {
            let message = format!(
                "{:?} is not a clue (a whole number with + - x / after it, or none when hidden)",
                at.trim()
            );
            section.error_at_rest(line, at, message)
        })?;
        return Ok(Clue {
            number: Some(clue.target),
            op: clue.op,
            ..Clue::default()
        });
    }
    let value = super::clues::integer(&single).map_err(|_| {
        let message = format!("{:?} is not a clue (a whole number)", at.trim());
        section.error_at_rest(line, at, message)
    })?;
    Ok(Clue {
        number: Some(value),
        ..Clue::default()
    })
}

/// The cells of one entry (`r1c1 r2c2 r2c3`, `r1c2..r8c9`), in order, each next to the one before as the
/// section's [`Shape`] asks, none twice. `on_line` has a bit per cell of the grid, clear, and this sets the bits
/// of the cells returned (the caller clears them): a repeat is found at once however long the line, where
/// looking through the cells before each one took seconds on a file of 255-cell runs.
fn path(
    section: &SectionText,
    line: usize,
    cells_text: &str,
    n: usize,
    shape: &Shape,
    on_line: &mut [u64],
) -> Result<Vec<Cell>, Error> {
    let mut cells: Vec<Cell> = Vec::new();
    let mut rest = cells_text.trim_start();
    while !rest.is_empty() {
        let (after, raw) =
            raw_cell(rest).map_err(|_| section.error_at_rest(line, rest, expected_cell(rest)))?;
        let start = checked(section, line, rest, raw, n)?;
        let (after, run) = match after.strip_prefix("..") {
            Some(to) => {
                let (after_to, raw_to) =
                    raw_cell(to).map_err(|_| section.error_at_rest(line, to, expected_cell(to)))?;
                let end = checked(section, line, to, raw_to, n)?;
                let run = straight_run(start, end).ok_or_else(|| {
                    section.error_at_rest(
                        line,
                        rest,
                        format!(
                            "{start}..{end} is not a straight run along a row, column or diagonal"
                        ),
                    )
                })?;
                (after_to, run)
            }
            None => (after, vec![start]),
        };
        for cell in run {
            if let Some(&prev) = cells.last().filter(|_| !shape.anywhere) {
                if prev.row.abs_diff(cell.row).max(prev.col.abs_diff(cell.col)) != 1 {
                    return Err(section.error_at_rest(
                        line,
                        rest,
                        format!("{cell} is not next to {prev}"),
                    ));
                }
                if shape.adjacent && !prev.is_orthogonal_neighbour(cell) {
                    return Err(section.error_at_rest(
                        line,
                        rest,
                        format!("{cell} is not beside {prev} (on this section's lines each cell shares an edge with the one before)"),
                    ));
                }
            }
            let bit = cell.row * n + cell.col;
            if on_line[bit / 64] & (1 << (bit % 64)) != 0 {
                return Err(section.error_at_rest(
                    line,
                    rest,
                    format!("{cell} is on this line twice"),
                ));
            }
            on_line[bit / 64] |= 1 << (bit % 64);
            cells.push(cell);
        }
        // Cells are separated by spaces, a comma, or both (`r1c1, r1c2`, as many setters list them).
        let spaced = after.trim_start();
        if !after.is_empty() && spaced.len() == after.len() && !spaced.starts_with(',') {
            return Err(section.error_at_rest(
                line,
                after,
                format!("expected a space or a comma before {:?}", after.trim()),
            ));
        }
        rest = spaced.strip_prefix(',').map_or(spaced, str::trim_start);
    }
    Ok(cells)
}

/// Refuses a section at `line` once its entries list more than [`max_cells`] cells in all (`total`, a cell
/// counted once for each entry it is on).
fn within_bound(
    section: &SectionText,
    line: usize,
    text: &str,
    total: usize,
    n: usize,
) -> Result<(), Error> {
    match total > max_cells(n) {
        true => Err(section.error_at_rest(
            line,
            text.trim_start(),
            format!(
                "more than {} cells in this section's entries in all (16 times the grid's cells): no \
                 puzzle lists so many",
                max_cells(n)
            ),
        )),
        false => Ok(()),
    }
}

/// The most cells a section's entries may list in all, counting a cell once for each entry it is on: sixteen
/// times the grid's (a little-killer diagonal from every edge cell, both ways, lists four times), and at least
/// 4,096 on the smallest grids.
fn max_cells(n: usize) -> usize {
    (16 * n * n).max(4096)
}

/// Parses one line of cells per line of text: cells separated by spaces or commas (`r1c1 r1c2 r2c3`, `r1c1,
/// r1c2, r2c3`), each next to the one before it (orthogonally or diagonally); `r1c2..r8c9` is the straight run
/// between two cells in a row, column or diagonal; an optional clue follows `=` (`r1c2..r8c9 = 15`). A cell may
/// not repeat on a line, and a line has two cells or more (a group, one or more). The section's [`Shape`] may
/// ask more, or less.
pub(crate) fn lines(
    section: &SectionText,
    n: usize,
    shape: Shape<'_>,
) -> Result<Vec<CellLine>, Error> {
    let mut out = Vec::new();
    let mut on_line = vec![0u64; (n * n).div_ceil(64)];
    let mut total = 0usize;
    for (line, text) in section.content_lines() {
        let (cells_text, clue) = match text.split_once('=') {
            Some((cells, _)) => {
                let at = &text[cells.len() + 1..];
                (cells, clue_after(section, line, at, n, &shape)?)
            }
            None => (text, Clue::default()),
        };
        let cells = path(section, line, cells_text, n, &shape, &mut on_line)?;
        for cell in &cells {
            let bit = cell.row * n + cell.col;
            on_line[bit / 64] &= !(1 << (bit % 64));
        }
        // `r1c1..r1c255` is 12 characters for 255 cells: without a bound, an 8 MB file of them held gigabytes.
        total += cells.len();
        within_bound(section, line, text, total, n)?;
        // A group of cells may be one cell (a killer cage of one cell with its sum); a line may not.
        if cells.len() < 2 - usize::from(shape.anywhere) {
            return Err(section.error_at_rest(
                line,
                text.trim_start(),
                "a line needs two cells or more",
            ));
        }
        if shape.straight && !is_straight(&cells) {
            return Err(section.error_at_rest(
                line,
                text.trim_start(),
                "a line of this section must be straight (one row, column or diagonal), as `r1c2..r8c9`",
            ));
        }
        if shape.block && !is_block(&cells) {
            return Err(section.error_at_rest(
                line,
                text.trim_start(),
                "an entry of this section is the four cells of a 2x2 block (`r1c1 r1c2 r2c1 r2c2`)",
            ));
        }
        if clue.values.len() > cells.len() {
            return Err(section.error_at_rest(
                line,
                text.trim_start(),
                format!(
                    "{} values for {} cells: the cells cannot hold them all",
                    clue.values.len(),
                    cells.len()
                ),
            ));
        }
        out.push(CellLine {
            cells,
            clue: clue.number,
            op: clue.op,
            values: clue.values,
            mark: clue.mark,
        });
    }
    Ok(out)
}

/// The values after `=` in a section whose clues are lists: whole numbers from 1 to n, separated by spaces or
/// commas, at least one.
fn value_list(section: &SectionText, line: usize, at: &str, n: usize) -> Result<Vec<u32>, Error> {
    let mut out = Vec::new();
    let mut rest = at.trim_start();
    while !rest.is_empty() {
        let end = rest.find([' ', '\t', ',']).unwrap_or(rest.len());
        let token = &rest[..end];
        match token.parse::<u32>() {
            Ok(v) if (1..=n as u32).contains(&v) => out.push(v),
            _ => {
                return Err(section.error_at_rest(
                    line,
                    rest,
                    format!("{token:?} is not a value from 1 to {n}"),
                ))
            }
        }
        rest = rest[end..].trim_start_matches([' ', '\t', ',']);
    }
    if out.is_empty() {
        return Err(section.error_at_rest(line, at, "expected values after `=` (`= 1 2 9`)"));
    }
    Ok(out)
}

/// How the cells of a lines section's entries must lie (the section's options; all false: a path of king's
/// steps).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Shape<'a> {
    /// Every line keeps one direction (a little-killer diagonal).
    pub(crate) straight: bool,
    /// Each cell shares an edge with the one before (no diagonal steps: the pairs of a puzz.link minarism).
    pub(crate) adjacent: bool,
    /// The cells lie anywhere, in any order: a group of cells rather than a path (an extra region).
    pub(crate) anywhere: bool,
    /// Every entry is the four cells of a 2x2 block, in any order (a quadruple's).
    pub(crate) block: bool,
    /// The clue after `=` is a list of values (`= 1 2 9`), not a number.
    pub(crate) values: bool,
    /// The clue after `=` is a number with an operator (`= 4+`, `= 3-`, `= 6x`, `= 2/`, or a bare `= 5`).
    pub(crate) arithmetic: bool,
    /// When not empty, the clue after `=` is one of these marks (`= E`).
    pub(crate) marks: &'a [String],
}

/// Whether the cells are the four of one 2x2 block, in any order.
pub(crate) fn is_block(cells: &[Cell]) -> bool {
    let (Some(top), Some(left)) = (
        cells.iter().map(|c| c.row).min(),
        cells.iter().map(|c| c.col).min(),
    ) else {
        return false;
    };
    cells.len() == 4 && cells.iter().all(|c| c.row - top < 2 && c.col - left < 2)
}

/// Whether every step along `cells` goes the same way.
fn is_straight(cells: &[Cell]) -> bool {
    let step = |w: &[Cell]| {
        (
            w[1].row as isize - w[0].row as isize,
            w[1].col as isize - w[0].col as isize,
        )
    };
    cells.windows(2).all(|w| step(w) == step(&cells[..2]))
}

/// The cells from `a` to `b`, both included, when they share a row, a column or a diagonal.
fn straight_run(a: Cell, b: Cell) -> Option<Vec<Cell>> {
    let (dr, dc) = (
        b.row as isize - a.row as isize,
        b.col as isize - a.col as isize,
    );
    let steps = dr.abs().max(dc.abs());
    if steps == 0 || (dr != 0 && dc != 0 && dr.abs() != dc.abs()) {
        return None;
    }
    let (sr, sc) = (dr.signum(), dc.signum());
    Some(
        (0..=steps)
            .map(|k| {
                Cell::new(
                    (a.row as isize + k * sr) as usize,
                    (a.col as isize + k * sc) as usize,
                )
            })
            .collect(),
    )
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
    fn a_pair_may_carry_a_number() {
        let got = pairs(&s(&["r1c1-r1c2 = 3", "r2c1 r2c2=12", "r3c3,r3c4"]), 4, true).unwrap();
        let numbers: Vec<Option<u32>> = got.iter().map(|p| p.number).collect();
        assert_eq!(numbers, vec![Some(3), Some(12), None]);
        assert_eq!((got[1].a, got[1].b), (Cell::new(1, 0), Cell::new(1, 1)));
        for (text, column, what) in [
            ("r1c1-r1c2 = 0", 13, "\"0\" is not a pair's number"),
            ("r1c1-r1c2 = 256", 13, "\"256\" is not a pair's number"),
            (
                "r1c1-r1c2 = 99999999999999999999",
                13,
                "is not a pair's number",
            ),
            ("r1c1-r1c2 = x", 13, "\"x\" is not a pair's number"),
            ("r1c1-r1c2 =", 12, "\"\" is not a pair's number"),
            ("r1c1-r1c2 3", 11, "unexpected \"3\" after the pair"),
        ] {
            let e = pairs(&s(&[text]), 4, true).unwrap_err().to_string();
            assert!(
                e.contains(&format!("line 1, column {column}: ")),
                "{text}: {e}"
            );
            assert!(e.contains(what), "{text}: {e}");
        }
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

    const STRAIGHT: Shape<'static> = Shape {
        straight: true,
        adjacent: false,
        anywhere: false,
        block: false,
        values: false,
        arithmetic: false,
        marks: &[],
    };
    const BESIDE: Shape<'static> = Shape {
        straight: false,
        adjacent: true,
        anywhere: false,
        block: false,
        values: false,
        arithmetic: false,
        marks: &[],
    };

    #[test]
    fn lines_of_cells_runs_and_clues() {
        let got = lines(
            &s(&["r1c1 r2c2 r2c3", "r1c9..r4c6 = 15", "r9c1..r9c3"]),
            9,
            Shape::default(),
        )
        .unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0].cells,
            vec![Cell::new(0, 0), Cell::new(1, 1), Cell::new(1, 2)]
        );
        assert_eq!(got[1].clue, Some(15));
        assert_eq!(
            got[1].cells,
            vec![
                Cell::new(0, 8),
                Cell::new(1, 7),
                Cell::new(2, 6),
                Cell::new(3, 5)
            ]
        );
        assert_eq!(got[2].cells.len(), 3);
        // Commas separate cells as spaces do; two in a row, or cells run together, do not.
        let commas = lines(
            &s(&["R1C1, r2c2,r2c3 ,r3c3", "r1c9..r4c6, r5c5 = 15"]),
            9,
            Shape::default(),
        )
        .unwrap();
        assert_eq!(
            commas[0].cells,
            [&got[0].cells[..], &[Cell::new(2, 2)]].concat()
        );
        assert_eq!(commas[1].cells.len(), 5);
        assert_eq!(commas[1].clue, Some(15));
        let e = lines(&s(&["r1c1,,r1c2"]), 9, Shape::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("column 6") && e.contains("expected a cell"),
            "{e}"
        );
        let e = lines(&s(&["r1c1r1c2"]), 9, Shape::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("column 5") && e.contains("a space or a comma"),
            "{e}"
        );
    }

    #[test]
    fn bad_lines_say_where() {
        let e = lines(&s(&["r1c1 r2c2", "r4c4 r2c2"]), 9, Shape::default())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "less: line 2, column 6: r2c2 is not next to r4c4");
        let e = lines(&s(&["r1c1..r3c2"]), 9, Shape::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a straight run"), "{e}");
        let e = lines(&s(&["r1c1 r1c2 r1c1"]), 9, Shape::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("on this line twice"), "{e}");
        assert!(lines(&s(&["r1c1"]), 9, Shape::default()).is_err());
        assert!(lines(&s(&["r1c1 r1c2 = x"]), 9, Shape::default()).is_err());
        assert!(lines(&s(&["r1c1 r1c10"]), 9, Shape::default()).is_err());
        let e = lines(&s(&["r1c1 r2c2 r3c2"]), 9, STRAIGHT)
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be straight"), "{e}");
        assert!(lines(&s(&["r1c3..r3c1", "r4c1 r3c2 r2c3"]), 9, STRAIGHT).is_ok());
        // Beside: orthogonal steps only, runs included.
        let e = lines(&s(&["r1c1 r1c2 = 3", "r1c1 r2c2 = 1"]), 9, BESIDE)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("not beside r1c1"), "{e}");
        assert!(lines(&s(&["r1c1..r1c3 = 2", "r2c1 r3c1"]), 9, BESIDE).is_ok());
        assert!(lines(&s(&["r1c1..r3c3"]), 9, BESIDE).is_err());
        // Anywhere: any cells, once each.
        let anywhere = Shape {
            anywhere: true,
            ..Shape::default()
        };
        let got = lines(&s(&["r1c1 r5c5 r9c9 r2c7"]), 9, anywhere).unwrap();
        assert_eq!(got[0].cells.len(), 4);
        assert!(lines(&s(&["r1c1 r5c5 r1c1"]), 9, anywhere).is_err());
        // A group may be one cell (a killer cage of one cell), a line may not; neither may be none.
        let got = lines(&s(&["r4c4 = 7"]), 9, anywhere).unwrap();
        assert_eq!((got[0].cells.len(), got[0].clue), (1, Some(7)));
        let e = lines(&s(&["r4c4 = 7"]), 9, Shape::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("two cells or more"), "{e}");
        assert!(lines(&s(&["= 7"]), 9, anywhere).is_err());
    }

    #[test]
    fn a_cell_repeats_on_no_line_but_may_on_others() {
        let anywhere = Shape {
            anywhere: true,
            ..Shape::default()
        };
        // Lines may share cells; the same line twice is two lines.
        let got = lines(
            &s(&["r1c1 r1c2", "r1c2 r1c1", "r1c1..r1c9"]),
            9,
            Shape::default(),
        );
        assert_eq!(got.unwrap().len(), 3);
        // A repeat far along a long line is found, where it is.
        let e = lines(&s(&["r2c2 r1c1..r1c255 r1c200"]), 255, anywhere)
            .unwrap_err()
            .to_string();
        assert!(e.contains("column 19: r1c200 is on this line twice"), "{e}");
    }

    #[test]
    fn a_section_lists_at_most_sixteen_times_the_grids_cells() {
        // Sixteen times 20x20, in rows of twenty: 320 lines are fine, the 321st is one too many.
        let rows: Vec<String> = (0..321)
            .map(|k| format!("r{0}c1..r{0}c20", k % 20 + 1))
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let fine = lines(&s(&rows[..320]), 20, Shape::default()).map(|l| l.len());
        assert!(matches!(fine, Ok(320)));
        let e = lines(&s(&rows), 20, Shape::default()).map(|l| l.len());
        let e = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.contains("line 321, column 1: more than 6400 cells"),
            "{e}"
        );
        // The smallest grids may list 4,096.
        let rows = vec!["r1c1 r1c2"; 2048];
        assert!(lines(&s(&rows), 2, Shape::default()).is_ok());
        let rows = vec!["r1c1 r1c2"; 2049];
        assert!(lines(&s(&rows), 2, Shape::default()).is_err());
        // Pairs and chains of relations alike: two cells a pair.
        let rows = vec!["r1c1-r1c2"; 2049];
        assert!(pairs(&s(&rows[..2048]), 2, true).is_ok());
        let e = pairs(&s(&rows), 2, true).map(|p| p.len());
        let e = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.contains("line 2049, column 1: more than 4096 cells"),
            "{e}"
        );
        let rows = vec!["r1c1 < r1c2 > r2c2"; 1025];
        assert!(relations(&s(&rows[..1024]), 2).is_ok());
        let e = relations(&s(&rows), 2).map(|p| p.len());
        let e = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.contains("line 1025, column 1: more than 4096 cells"),
            "{e}"
        );
    }

    #[test]
    fn an_arithmetic_clue_keeps_its_operator_and_is_written_back_as_read() {
        let arithmetic = Shape {
            anywhere: true,
            block: true,
            arithmetic: true,
            ..Shape::default()
        };
        let got = lines(
            &s(&[
                "r1c1 r1c2 r2c1 r2c2 = 4+",
                "r2c2 r2c3 r3c2 r3c3 = 0-",
                "r3c3 r3c4 r4c3 r4c4 = 6",
            ]),
            9,
            arithmetic,
        )
        .unwrap();
        let read: Vec<(Option<u64>, Option<super::super::clues::Op>, Option<String>)> =
            got.iter().map(|l| (l.clue, l.op, l.clue_text())).collect();
        use super::super::clues::Op;
        assert_eq!(
            read,
            [
                (Some(4), Some(Op::Add), Some("4+".into())),
                (Some(0), Some(Op::Sub), Some("0-".into())),
                (Some(6), None, Some("6".into())),
            ]
        );
        let e = lines(&s(&["r1c1 r1c2 r2c1 r2c2 = 4%"]), 9, arithmetic)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 1, column 22") && e.contains("is not a clue"),
            "{e}"
        );
        // A number past 64 bits is a number, too large, with or without its operator.
        for (shape, clue) in [
            (arithmetic, "99999999999999999999+"),
            (Shape::default(), "99999999999999999999"),
        ] {
            let e = lines(&s(&[&format!("r1c1 r2c2 = {clue}")]), 9, shape)
                .unwrap_err()
                .to_string();
            assert!(e.contains("99999999999999999999 is too large"), "{e}");
        }
    }

    #[test]
    fn a_mark_clue_is_one_of_the_sections_marks_and_is_written_back_as_read() {
        let marks = ["E".to_owned(), "O".to_owned()];
        let marked = Shape {
            anywhere: true,
            block: true,
            marks: &marks,
            ..Shape::default()
        };
        let got = lines(
            &s(&["r1c1 r1c2 r2c1 r2c2 = O", "r3c3 r3c4 r4c3 r4c4 =E "]),
            9,
            marked,
        )
        .unwrap();
        let read: Vec<(Option<String>, Option<u64>, Option<String>)> = got
            .iter()
            .map(|l| (l.mark.clone(), l.clue, l.clue_text()))
            .collect();
        assert_eq!(
            read,
            [
                (Some("O".into()), None, Some("O".into())),
                (Some("E".into()), None, Some("E".into())),
            ]
        );
        for bad in [
            "r1c1 r1c2 r2c1 r2c2 = e",
            "r1c1 r1c2 r2c1 r2c2 = 4",
            "r1c1 r1c2 r2c1 r2c2 = E O",
        ] {
            let e = lines(&s(&[bad]), 9, marked).unwrap_err().to_string();
            assert!(
                e.contains("column 22") && e.contains("is not a mark of this section (use E, O)"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn a_clue_of_values_is_a_list_from_1_to_n_no_longer_than_the_cells() {
        let listed = Shape {
            anywhere: true,
            values: true,
            arithmetic: false,
            ..Shape::default()
        };
        let got = lines(&s(&["r1c1 r1c2 r2c1 r2c2 = 1 2, 9 9"]), 9, listed).unwrap();
        assert_eq!(
            (got[0].clue, got[0].values.clone()),
            (None, vec![1, 2, 9, 9])
        );
        assert!(got[0].cells.len() == 4);
        let none = lines(&s(&["r1c1 r1c2"]), 9, listed).unwrap();
        assert!(none[0].values.is_empty());
        for (bad, says) in [
            ("r1c1 r1c2 = 1 2 3", "3 values for 2 cells"),
            ("r1c1 r1c2 = 1 10", "\"10\" is not a value from 1 to 9"),
            ("r1c1 r1c2 = 0", "not a value"),
            ("r1c1 r1c2 = x", "not a value"),
            ("r1c1 r1c2 = ", "expected values"),
        ] {
            let e = lines(&s(&[bad]), 9, listed).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        let block = Shape {
            anywhere: true,
            block: true,
            values: true,
            arithmetic: false,
            ..Shape::default()
        };
        assert!(lines(&s(&["r2c2 r1c1 r2c1 r1c2 = 3"]), 9, block).is_ok());
        for bad in [
            "r1c1 r1c2 r2c1 r3c2 = 3",
            "r1c1 r1c2 r2c1 = 3",
            "r1c1 r1c2 r1c3 r1c4",
        ] {
            let e = lines(&s(&[bad]), 9, block).unwrap_err().to_string();
            assert!(e.contains("2x2 block"), "{bad}: {e}");
        }
        // Without the option the clue is a number, as before.
        assert!(lines(&s(&["r1c1 r1c2 = 1 2"]), 9, STRAIGHT).is_err());
    }
}
