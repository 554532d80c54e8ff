//! A grid drawn as text with a wall around every cell, as `latin show` prints it (box-drawing characters, or
//! `--ascii`'s `+ - = | #`) and as people paste such pictures back: the values in the cells are the givens, and
//! the thick walls are the boxes (a Sudoku of that box shape), the regions (a jigsaw), or absent (a Latin square).
//!
//! A picture says nothing else exactly: a cage's sum in its corner, a sign on a wall, a clue outside the frame
//! could be read several ways, so each is refused by its place, never dropped. The frame is found from the
//! walls alone (cells may be any width and any number of lines tall), so a hand-drawn or widened picture reads as
//! well as `show`'s. Texts framed by boxes rather than cells (`| . . 3 | . 2 . |`) are bare grids
//! ([`super::line`]), asked first.
//!
//! Rules no wall draws are read from the legend line `show` writes under the frame (`rules: diagonals,
//! anti-knight`); a picture without one is, like a bare grid, the puzzle its walls and givens make.

use serde_json::{json, Value as Json};

use super::{bad, grid, region_id, Classes, Format};
use crate::error::Error;
use crate::grid::Grid;
use crate::parse::grid::{values, Token, TokenGrid, MAX_SIZE};
use crate::parse::SectionText;

fn err(message: impl Into<String>) -> Error {
    bad(Format::Picture, message)
}

/// The smallest picture read: as for bare grids, smaller frames are more likely boxes drawn around rows.
const SMALLEST: usize = 4;

/// What a character of a picture draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stroke {
    /// A wall along a row: thick (`━`, `═`, `=`) or thin (`─`, `-`).
    Across(bool),
    /// A wall along a column: thick (`┃`, `║`, `#`) or thin (`│`, `|`).
    Down(bool),
    /// Where walls meet: a corner, tee or cross (`┏`, `┼`, `╋`, `+`, ...). Not `*`: `--ascii` draws black dots so.
    Junction,
    /// Nothing drawn.
    Blank,
    /// Anything else: a value, or a mark the picture is not read for.
    Other,
}

fn stroke(c: char) -> Stroke {
    match c {
        '━' | '═' | '=' => Stroke::Across(true),
        '─' | '-' => Stroke::Across(false),
        '┃' | '║' | '#' => Stroke::Down(true),
        '│' | '|' => Stroke::Down(false),
        '+' => Stroke::Junction,
        ' ' | '\t' => Stroke::Blank,
        '\u{2500}'..='\u{257f}' => Stroke::Junction,
        _ => Stroke::Other,
    }
}

/// A line of walls between two rows of cells: mostly walls along a row. (Walls down may cross it inside a
/// region drawn without inner walls, and marks sit on it, a sign or a dot between two rows; those are read, or
/// refused, cell by cell.)
fn is_rule(line: &[char]) -> bool {
    let count = |f: fn(Stroke) -> bool| line.iter().filter(|&&c| f(stroke(c))).count();
    let across = count(|s| matches!(s, Stroke::Across(_)));
    let junctions = count(|s| s == Stroke::Junction);
    let drawn = line.iter().filter(|c| !c.is_whitespace()).count();
    across > 0 && 2 * (across + junctions) >= drawn
}

/// The frame of a picture: its lines as characters, the lines that are walls between rows, and the columns
/// that are walls between cells.
struct Frame {
    lines: Vec<Vec<char>>,
    /// Indices into `lines`: the top of the frame, every wall between two rows, the bottom.
    rules: Vec<usize>,
    /// Character columns: the left of the frame, every wall between two columns, the right.
    walls: Vec<usize>,
}

impl Frame {
    /// The frame, when the text is drawn as one; `None` for anything else.
    fn find(text: &str) -> Option<Frame> {
        let lines: Vec<Vec<char>> = text.lines().map(|l| expand_tabs(l.trim_end())).collect();
        let rules: Vec<usize> = (0..lines.len()).filter(|&i| is_rule(&lines[i])).collect();
        let (&top, &bottom) = (rules.first()?, rules.last()?);
        // A column is a wall where some rule has a junction there or some line a wall down it: one pass over
        // the characters, however long the longest line (hostile pictures are as wide as the input allows).
        let width = lines.iter().map(Vec::len).max().unwrap_or(0);
        let mut wall = vec![false; width];
        let mut rule = vec![false; lines.len()];
        rules.iter().for_each(|&i| rule[i] = true);
        for i in top..=bottom {
            for (p, &c) in lines[i].iter().enumerate() {
                match stroke(c) {
                    Stroke::Junction if rule[i] => wall[p] = true,
                    Stroke::Down(_) => wall[p] = true,
                    _ => {}
                }
            }
        }
        let walls: Vec<usize> = (0..width).filter(|&p| wall[p]).collect();
        let n = walls.len().checked_sub(1)?;
        // Square, every row of cells at least one line tall.
        let tall = rules.windows(2).all(|w| w[1] > w[0] + 1);
        let sized = (SMALLEST..=MAX_SIZE).contains(&n);
        (sized && rules.len() == n + 1 && tall).then_some(Frame {
            lines,
            rules,
            walls,
        })
    }

    fn size(&self) -> usize {
        self.walls.len() - 1
    }

    fn at(&self, line: usize, column: usize) -> char {
        self.lines[line].get(column).copied().unwrap_or(' ')
    }

    /// The lines of row `r`'s cells.
    fn band(&self, r: usize) -> std::ops::Range<usize> {
        self.rules[r] + 1..self.rules[r + 1]
    }

    /// Whether line `i` is the middle line of its row of cells: where a value sits in a cell drawn taller than
    /// one line (`show` draws two when a corner holds a clue, so there no line is the middle).
    fn is_middle(&self, i: usize) -> bool {
        let r = self.rules.partition_point(|&k| k < i) - 1;
        let band = self.band(r);
        band.len() % 2 == 1 && i == band.start + band.len() / 2
    }

    /// The words inside cell (r, c) on one of its lines, each with its character column.
    fn words(&self, line: usize, c: usize) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        let mut fresh = true;
        for p in self.walls[c] + 1..self.walls[c + 1] {
            let ch = self.at(line, p);
            if ch.is_whitespace() {
                fresh = true;
            } else if fresh {
                out.push((p, ch.to_string()));
                fresh = false;
            } else if let Some(last) = out.last_mut() {
                last.1.push(ch);
            }
        }
        out
    }
}

/// A line's characters with each tab taken to the next multiple of 8 columns, as a terminal shows it: pictures
/// pasted through editors and mail come with runs of spaces turned into tabs. (Columns in errors count so.)
fn expand_tabs(line: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(line.len());
    for c in line.chars() {
        if c == '\t' {
            out.resize(out.len() / 8 * 8 + 8, ' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a text is a picture of a grid of 4x4 or more with a wall around every cell. Asked after
/// [`super::line`], which reads grids framed by boxes (`| . . 3 | . 2 . |`) whose frame would pass here. A text
/// with a `:` above the frame is a puzzle file or a record with a picture inside one of its texts (`note: |`),
/// not a picture (a picture's own legends, `rules: diagonals`, `line clues: a=21`, are under it).
pub(crate) fn recognises(t: &str) -> bool {
    Frame::find(t).is_some_and(|f| !f.lines[..f.rules[0]].iter().any(|l| l.contains(&':')))
}

/// What is drawn at a character of the picture, for an error.
fn place(line: usize, column: usize) -> String {
    format!("line {}, column {}", line + 1, column + 1)
}

/// The picture as a record: `size`, `givens`, and the thick walls as `boxes` (type sudoku), `regions` (jigsaw),
/// or none (latin).
pub(crate) fn decode(t: &str) -> Result<Json, Error> {
    let frame = Frame::find(t).ok_or_else(|| {
        err("no grid of 4x4 to 255x255 with a wall around every cell (lines of walls `┏━━━┯━━━┓` or `+---+---+` above, between and below the rows)")
    })?;
    let named = outside(&frame)?;
    refuse_thin_frame(&frame)?;
    let n = frame.size();
    let (givens, answer) = givens_and_answer(&frame)?;
    let regions = regions(&frame)?;
    let mut record = json!({"size": n, "givens": grid(&givens, n)});
    if let Some(answer) = answer {
        record["solution"] = grid(&answer, n);
    }
    if !named.is_empty() {
        record["rules"] = json!(named);
    }
    let count = regions.iter().max().map_or(0, |&m| m + 1);
    if count == 1 {
        record["type"] = json!("latin");
        return Ok(record);
    }
    let mut sizes = vec![0usize; count];
    regions.iter().for_each(|&k| sizes[k] += 1);
    if let Some(k) = sizes.iter().position(|&s| s != n) {
        let cell = regions.iter().position(|&x| x == k).unwrap_or(0);
        return Err(err(format!(
            "the thick walls make a region of {} cells around r{}c{}, where a region of a {n}x{n} grid holds {n}",
            sizes[k],
            cell / n + 1,
            cell % n + 1
        )));
    }
    match crate::grid::box_shape(&regions, n) {
        Some((h, w)) => {
            record["type"] = json!("sudoku");
            record["boxes"] = json!([h, w]);
        }
        None => {
            let ids: Vec<Json> = regions.iter().map(|&k| json!(region_id(k))).collect();
            record["type"] = json!("jigsaw");
            record["regions"] = Json::Array(ids.chunks(n).map(|r| json!(r)).collect());
        }
    }
    Ok(record)
}

/// The named rules a legend line under the frame lists (`rules: diagonals, anti-knight`, as `show` writes the
/// rules no wall draws). Anything else outside the frame (edge clues, titles, other legends) is not read:
/// refused by its place.
fn outside(frame: &Frame) -> Result<Vec<String>, Error> {
    let (left, right) = (frame.walls[0], frame.walls[frame.size()]);
    let (top, bottom) = (frame.rules[0], frame.rules[frame.size()]);
    let mut named = Vec::new();
    for (i, line) in frame.lines.iter().enumerate() {
        if i > bottom {
            if let Some(names) = legend_rules(line) {
                named.extend(names);
                continue;
            }
        }
        let inside = (top..=bottom).contains(&i);
        let outside = |p: &usize| !inside || *p < left || *p > right;
        if let Some(p) = (0..line.len())
            .filter(outside)
            .find(|&p| !line[p].is_whitespace())
        {
            return Err(err(format!(
                "{}: `{}` is outside the frame; a picture is read for its walls, givens and the named rules \
                 under it (`rules: diagonals`) only (edge clues need the puzzle file)",
                place(i, p),
                line[p]
            )));
        }
    }
    Ok(named)
}

/// The rule names of a legend line `rules: a, b`, if it is one (names as rules are named: lowercase words
/// joined by `-`); which are rules at all is the loader's to say.
fn legend_rules(line: &[char]) -> Option<Vec<String>> {
    let text: String = line.iter().collect();
    let names = text.trim().strip_prefix("rules:")?;
    let names: Vec<String> = names.split(',').map(|n| n.trim().to_owned()).collect();
    let named = |n: &String| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    names.iter().all(named).then_some(names)
}

/// A picture whose frame is drawn thin does not tell thick walls from thin (a grid drawn all in `|` and `-`):
/// it cannot say where boxes or regions are, and reading none (a Latin square) could be another puzzle than the
/// one drawn. `show` draws every frame thick.
fn refuse_thin_frame(frame: &Frame) -> Result<(), Error> {
    let n = frame.size();
    let (left, right) = (frame.walls[0], frame.walls[n]);
    let sides = (0..n)
        .flat_map(|r| frame.band(r))
        .flat_map(|i| [(i, left), (i, right)]);
    let ends = [frame.rules[0], frame.rules[n]]
        .into_iter()
        .flat_map(|i| (left + 1..right).map(move |p| (i, p)));
    let thin = sides.chain(ends).find(|&(i, p)| {
        matches!(
            stroke(frame.at(i, p)),
            Stroke::Across(false) | Stroke::Down(false)
        )
    });
    match thin {
        Some((i, p)) => Err(err(format!(
            "{}: the frame is drawn thin, so the picture does not tell thick walls from thin ones and cannot say \
             where boxes or regions are: draw the frame and the walls of boxes or regions thick (`━` `┃`, or `=` \
             `#` in ASCII), or give a Sudoku as a bare grid",
            place(i, p)
        ))),
        None => Ok(()),
    }
}

/// The one word of cell (r, c) with its line and column, if any: on the middle line of a cell drawn taller than
/// one line, anything else refused by its place.
fn cell_word(frame: &Frame, r: usize, c: usize) -> Result<Option<(usize, usize, String)>, Error> {
    let words: Vec<(usize, usize, String)> = frame
        .band(r)
        .flat_map(|i| frame.words(i, c).into_iter().map(move |(p, w)| (i, p, w)))
        .collect();
    if let Some((i, p, w)) = words.iter().find(|(i, ..)| !frame.is_middle(*i)) {
        return Err(err(format!(
            "{}: `{w}` in r{}c{} off its middle line: a cell drawn taller than one line shows a mark (a cage \
             sum, a clue) in its corner, and a picture is read for givens alone (such puzzles need the puzzle file)",
            place(*i, *p),
            r + 1,
            c + 1
        )));
    }
    if let [(_, _, first), (i, p, w), ..] = words.as_slice() {
        return Err(err(format!(
            "{}: r{}c{} holds `{first}` and `{w}`; a picture is read for one given a cell (cage sums and marks \
             need the puzzle file)",
            place(*i, *p),
            r + 1,
            c + 1
        )));
    }
    Ok(words.into_iter().next())
}

/// Each cell's value, read as a `givens:` grid reads its cells, and whether it was written in brackets (`[5]`:
/// how `show --solution` tells a given from the answer without colour).
fn cell_values(frame: &Frame) -> Result<(Grid, Vec<bool>), Error> {
    let n = frame.size();
    let mut rows = Vec::with_capacity(n);
    let mut bracketed = Vec::with_capacity(n * n);
    for r in 0..n {
        let mut row = Vec::with_capacity(n);
        for c in 0..n {
            let (line, mut column, mut text) = cell_word(frame, r, c)?.unwrap_or((
                frame.band(r).start,
                frame.walls[c] + 1,
                ".".into(),
            ));
            let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
            bracketed.push(inner.is_some());
            if let Some(inner) = inner {
                (text, column) = (inner.to_owned(), column + 1);
            }
            let spaced = text.chars().count() > 1;
            row.push(Token {
                text,
                line,
                column,
                spaced,
            });
        }
        rows.push(row);
    }
    let section = SectionText {
        name: Format::Picture.name().to_owned(),
        lines: frame.lines.iter().map(|l| l.iter().collect()).collect(),
    };
    Ok((values(&section, &TokenGrid { rows }, n)?, bracketed))
}

/// The givens and, where some values are bracketed, the answer: the bracketed values are the givens and the
/// grid of every value the solution, which must then be whole.
fn givens_and_answer(frame: &Frame) -> Result<(Vec<u64>, Option<Vec<u64>>), Error> {
    let (grid, bracketed) = cell_values(frame)?;
    let all: Vec<u64> = grid.cells().map(|c| u64::from(grid.get(c))).collect();
    if !bracketed.contains(&true) {
        return Ok((all, None));
    }
    let n = frame.size();
    if let Some(k) = all.iter().position(|&v| v == 0) {
        return Err(err(format!(
            "r{}c{} is empty in a picture whose bracketed values are the givens and the rest an answer: only a \
             whole answer is read (a puzzle's progress goes in its file's `progress:`)",
            k / n + 1,
            k % n + 1
        )));
    }
    let givens = all
        .iter()
        .zip(&bracketed)
        .map(|(&v, &b)| if b { v } else { 0 })
        .collect();
    Ok((givens, Some(all)))
}

/// The region of each cell, row by row, numbered by first cell: cells meet across every wall that is not thick.
/// A thick wall with one region on both sides, or a mark on a wall, is refused by its place.
fn regions(frame: &Frame) -> Result<Vec<usize>, Error> {
    let n = frame.size();
    let mut classes = Classes::new(n * n);
    let mut thick: Vec<(usize, usize, usize, usize)> = Vec::new();
    // Walls down, between (r, c) and (r, c + 1), on every line of the row.
    for r in 0..n {
        for c in 0..n - 1 {
            let p = frame.walls[c + 1];
            let mut is_thick = false;
            for i in frame.band(r) {
                match stroke(frame.at(i, p)) {
                    Stroke::Down(t) => is_thick |= t,
                    Stroke::Blank => {}
                    _ => return Err(wall_mark(frame, i, p, (r, c), (r, c + 1))),
                }
            }
            if is_thick {
                thick.push((r * n + c, r * n + c + 1, frame.band(r).start, p));
            } else {
                classes.merge(r * n + c, r * n + c + 1);
            }
        }
    }
    // Walls across, between (r, c) and (r + 1, c), along the rule's stretch over the cell.
    for r in 0..n - 1 {
        let i = frame.rules[r + 1];
        for c in 0..n {
            let mut is_thick = false;
            for p in frame.walls[c] + 1..frame.walls[c + 1] {
                match stroke(frame.at(i, p)) {
                    Stroke::Across(t) => is_thick |= t,
                    Stroke::Blank => {}
                    _ => return Err(wall_mark(frame, i, p, (r, c), (r + 1, c))),
                }
            }
            if is_thick {
                thick.push((r * n + c, (r + 1) * n + c, i, frame.walls[c] + 1));
            } else {
                classes.merge(r * n + c, (r + 1) * n + c);
            }
        }
    }
    for (a, b, i, p) in thick {
        if classes.root(a) == classes.root(b) {
            return Err(err(format!(
                "{}: a thick wall between r{}c{} and r{}c{}, which the thin walls join into one region",
                place(i, p),
                a / n + 1,
                a % n + 1,
                b / n + 1,
                b % n + 1
            )));
        }
    }
    let mut ids = vec![usize::MAX; n * n];
    let mut next = 0;
    let mut out = Vec::with_capacity(n * n);
    for k in 0..n * n {
        let root = classes.root(k);
        if ids[root] == usize::MAX {
            ids[root] = next;
            next += 1;
        }
        out.push(ids[root]);
    }
    Ok(out)
}

fn wall_mark(frame: &Frame, i: usize, p: usize, a: (usize, usize), b: (usize, usize)) -> Error {
    err(format!(
        "{}: `{}` on the wall between r{}c{} and r{}c{}; a picture is read for its walls and givens only (signs \
         and dots need the puzzle file)",
        place(i, p),
        frame.at(i, p),
        a.0 + 1,
        a.1 + 1,
        b.0 + 1,
        b.1 + 1
    ))
}

/// A record is not drawn here: pictures are `report`'s, and `convert --to picture` draws the loaded puzzle there
/// (then reads it back with [`decode`]). A record alone is refused.
pub(crate) fn encode(_record: &Json) -> Result<String, Error> {
    Err(err(
        "a picture is drawn from the puzzle (`latin convert FILE --to picture`, or `latin show`), not from a record",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUDOKU4: &str = "\
┏━━━┯━━━┳━━━┯━━━┓
┃ 1 │   ┃   │ 4 ┃
┠───┼───╂───┼───┨
┃   │   ┃ 1 │   ┃
┣━━━┿━━━╋━━━┿━━━┫
┃   │ 1 ┃   │   ┃
┠───┼───╂───┼───┨
┃ 4 │   ┃   │ 1 ┃
┗━━━┷━━━┻━━━┷━━━┛";

    #[test]
    fn thick_walls_are_boxes_regions_or_none() {
        let r = decode(SUDOKU4).unwrap();
        assert_eq!(r["type"], "sudoku");
        assert_eq!(r["boxes"], json!([2, 2]));
        assert_eq!(r["givens"][0], json!([1, 0, 0, 4]));
        assert_eq!(r["givens"][3], json!([4, 0, 0, 1]));
        let latin = "\
┏━━━┯━━━┯━━━┯━━━┓
┃ 1 │   │   │ 4 ┃
┠───┼───┼───┼───┨
┃   │   │ 1 │   ┃
┠───┼───┼───┼───┨
┃   │ 1 │   │   ┃
┠───┼───┼───┼───┨
┃ 4 │   │   │ 1 ┃
┗━━━┷━━━┷━━━┷━━━┛";
        assert_eq!(decode(latin).unwrap()["type"], "latin");
    }

    #[test]
    fn marks_beyond_walls_and_givens_are_refused_by_place() {
        let sign = SUDOKU4.replacen("┃ 1 │   ┃", "┃ 1 <   ┃", 1);
        let e = decode(&sign).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column 5") && e.contains("r1c1 and r1c2"),
            "{e}"
        );
        let clue = format!("  3\n{SUDOKU4}");
        let e = decode(&clue).unwrap_err().to_string();
        assert!(e.contains("outside the frame"), "{e}");
        let thin = SUDOKU4.replace(['┃', '│'], "|").replace(['━', '─'], "-");
        let thin = thin.replace(|c: char| ('\u{2500}'..='\u{257f}').contains(&c), "+");
        let e = decode(&thin).unwrap_err().to_string();
        assert!(
            e.contains("line 2, column 1: the frame is drawn thin"),
            "{e}"
        );
        // Runs of spaces turned into tabs on the way read as the spaces they were.
        // The rows of cells indented by a tab, the walls between them by eight spaces.
        let tabbed: String = SUDOKU4.lines().map(|l| format!("        {l}\n")).collect();
        let tabbed = tabbed.replace("        ┃", "\t┃");
        assert_eq!(decode(&tabbed).unwrap(), decode(SUDOKU4).unwrap());
        // A puzzle file with a picture in one of its texts is a puzzle file.
        let indented: String = SUDOKU4.lines().map(|l| format!("  {l}\n")).collect();
        assert!(recognises(&indented));
        assert!(!recognises(&format!(
            "type: sudoku\nsize: 4\nnote: |\n{indented}"
        )));
        let two = SUDOKU4.replacen("┃ 1 │   ┃", "┃ 1 │2 3┃", 1);
        let e = decode(&two).unwrap_err().to_string();
        assert!(e.contains("r1c2 holds `2` and `3`"), "{e}");
    }
}
