//! A bare grid, as Sudokus are passed around by hand: one line of n*n characters (`53..7....6..195...`, the form
//! of the big collections and of `--lines`), or the grid's n rows, with or without the `|` and `---+---` of a
//! printed grid; `#` lines are comments. Cells are read as a puzzle file's `givens:` grid is (`.`, `0`, `_`
//! empty; `A`-`Z` or `a`-`z` past 9; `0` the value n beside `.` on a 16x16 hex Sudoku; letters alone from `A`
//! for 1 on a letter Sudoku), by the same parser.
//! Nothing in such a text names a type, so it is a Sudoku of its size with the default boxes, as `--lines` reads
//! it, or a Latin square where no box shape fits (5x5, 7x7).

use serde_json::{json, Value as Json};

use super::{bad, grid, numbers, Format, ABOUT};
use crate::error::Error;
use crate::grid::{default_boxes, value_char, Cell};
use crate::parse::grid::{line_values, side_of, tokenize, values};
use crate::parse::SectionText;

fn err(message: impl Into<String>) -> Error {
    bad(Format::Line, message)
}

/// The smallest grid read from a bare line or block: smaller texts (`1234`) are more likely names than puzzles.
const SMALLEST: usize = 4;

/// The rows of a text: a single line of n*n characters cut into n rows (each checked first, so that an error
/// names its column in the line as written), or the text's own lines.
fn rows(t: &str) -> Result<Vec<String>, Error> {
    let t = content(t);
    let t = t.trim();
    if t.contains('\n') {
        let lines: Vec<&str> = t.lines().filter(|l| !l.trim().is_empty()).collect();
        if let Some(len) = puzzles_one_a_line(&lines) {
            return Err(err(format!(
                "{} lines of {len} characters each: that is {} puzzles, one a line; solve every line with \
                 `latin solve --lines`",
                lines.len(),
                lines.len()
            )));
        }
        return Ok(t.lines().map(str::to_owned).collect());
    }
    let chars: Vec<char> = t.chars().collect();
    let Some(n) = side_of(chars.len()) else {
        return Err(err(format!(
            "one line of {} characters, not n*n for any n (81 for a 9x9 Sudoku)",
            chars.len()
        )));
    };
    if let Err((i, c)) = line_values(&chars, n) {
        return Err(err(format!(
            "column {}: {c:?} is not a value of a {n}x{n} grid (1-9, then A-Z; `.` for empty)",
            i + 1
        )));
    }
    Ok(chars.chunks(n.max(1)).map(|r| r.iter().collect()).collect())
}

/// The common length of lines that are each a whole grid of 4x4 or more (n*n characters, no spaces), when there
/// are several and they are not the rows of one grid (as many rows as characters a row: a 16x16 written row by
/// row is 16 lines of 16).
fn puzzles_one_a_line(lines: &[&str]) -> Option<usize> {
    let len = lines.first()?.trim().chars().count();
    let whole = |l: &&str| {
        let l = l.trim();
        l.chars().count() == len && !l.contains(char::is_whitespace)
    };
    (lines.len() >= 2
        && lines.len() != len
        && side_of(len).is_some_and(|n| n >= SMALLEST)
        && lines.iter().all(whole))
    .then_some(len)
}

/// The lines of a text but its `#` lines, which are comments, as in a `--lines` file (and SadMan's `.sdk`
/// headers, `#A author`).
fn content_lines(t: &str) -> impl Iterator<Item = &str> {
    t.lines().filter(|l| !l.trim_start().starts_with('#'))
}

fn content(t: &str) -> String {
    content_lines(t).collect::<Vec<_>>().join("\n")
}

/// Whether a text is a bare grid of 4x4 or more: no `:` outside its comments (every puzzle file, record and link
/// has one; a YAML file is told apart at its first such line, without a copy), and its rows read as a square
/// grid of values; or a pencil-mark grid, which [`decode`] refuses in its own words.
pub(crate) fn recognises(t: &str) -> bool {
    (!content_lines(t).any(|l| l.contains(':')) && decode(t).is_ok()) || pencil_marks(t).is_some()
}

/// The first cell of a pencil-mark grid that holds several candidates, and them: the grid HoDoKu, Sudoku
/// Explainer and the forums print for a position (`| 1  4689 4589 | 2356 ...`, its frame drawn with `.`, `:`,
/// `'`, `-`, `+`, `*` and `|`), n rows of n tokens of digits each, one of them a number above n (`12` on a
/// 16x16 could be a value). Told apart from a grid of givens, so that it is refused in its own words rather
/// than read as YAML or as a grid of 52 cells a row.
fn pencil_marks(t: &str) -> Option<(Cell, String)> {
    let rows: Vec<Vec<&str>> = content_lines(t)
        .map(|l| {
            l.split(|c: char| c.is_whitespace() || "|:.'-+*".contains(c))
                .filter(|token| !token.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect();
    let n = rows.len();
    let square = n >= SMALLEST && rows.iter().all(|row| row.len() == n);
    let digits = || {
        rows.iter()
            .flatten()
            .all(|t| t.bytes().all(|b| b.is_ascii_digit()))
    };
    if !square || !digits() {
        return None;
    }
    rows.iter().enumerate().find_map(|(r, row)| {
        let above = |token: &&str| token.parse::<usize>().map_or(true, |v| v > n);
        let (c, token) = row.iter().enumerate().find(|(_, token)| above(token))?;
        Some((Cell::new(r, c), (*token).to_owned()))
    })
}

/// The grid as a record: `type` sudoku (latin where no box shape fits), `size`, `givens`.
pub(crate) fn decode(t: &str) -> Result<Json, Error> {
    if let Some((cell, marks)) = pencil_marks(t) {
        return Err(err(format!(
            "a pencil-mark grid ({cell} holds the candidates {marks}), as a solver prints a position: a \
             grid here holds one value or `.` a cell; copy the puzzle's givens instead (one line of 81 \
             characters for a 9x9)"
        )));
    }
    let text = SectionText {
        name: Format::Line.name().to_owned(),
        lines: rows(t)?,
    };
    let tokens = tokenize(&text)?;
    let n = tokens.size();
    if n < SMALLEST {
        return Err(err(format!(
            "a grid of {n}x{n}: a bare grid is 4x4 or more (81 characters for a 9x9 Sudoku)"
        )));
    }
    let givens = values(&text, &tokens, n)?;
    let flat: Vec<u64> = givens.cells().map(|c| u64::from(givens.get(c))).collect();
    let kind = if default_boxes(n).is_some() {
        "sudoku"
    } else {
        "latin"
    };
    Ok(json!({"type": kind, "size": n, "givens": grid(&flat, n)}))
}

/// A plain Sudoku (default boxes, no rule beyond them) or Latin square, up to 35x35, as one line of n*n
/// characters; anything else would read back as another puzzle, so it is refused.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let n = record["size"]
        .as_u64()
        .ok_or_else(|| err("the record has no size"))? as usize;
    let kind = record["type"].as_str().unwrap_or_default();
    let plain = if default_boxes(n).is_some() {
        "sudoku"
    } else {
        "latin"
    };
    if kind != plain {
        return Err(err(format!(
            "type {kind}: a bare grid is read as a {n}x{n} {plain}, so only that is written as one"
        )));
    }
    const SAYABLE: [&str; 4] = ["size", "givens", "solution", "boxes"];
    let keys = record.as_object().into_iter().flat_map(|o| o.keys());
    if let Some(key) = keys
        .map(String::as_str)
        .find(|k| !ABOUT.contains(k) && !SAYABLE.contains(k))
    {
        return Err(err(format!("a bare grid cannot say the record's {key:?}")));
    }
    let boxes = record["boxes"].as_array().map(|b| {
        let side = |i: usize| b.get(i).and_then(Json::as_u64).unwrap_or(0) as usize;
        (side(0), side(1))
    });
    if let Some((h, w)) = boxes.filter(|&b| Some(b) != default_boxes(n)) {
        let default = match default_boxes(n) {
            Some((dh, dw)) => format!(" ({dh}x{dw})"),
            None => String::new(),
        };
        return Err(err(format!(
            "boxes {h}x{w}: a bare grid takes the default boxes of a {n}x{n}{default}"
        )));
    }
    if !(SMALLEST..=35).contains(&n) {
        return Err(err(format!(
            "a {n}x{n} grid: a bare grid is 4x4 to 35x35, a character a cell"
        )));
    }
    let givens = match &record["givens"] {
        Json::Null => vec![0; n * n],
        g => numbers(g, n, "givens").map_err(err)?,
    };
    if let Some(v) = givens.iter().find(|&&v| v > n as u64) {
        return Err(err(format!("a given {v} is past the grid's 1..{n}")));
    }
    Ok(givens.iter().map(|&v| value_char(v as u32)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn a_line_and_a_printed_grid_read_as_the_same_sudoku() {
        let record = decode(LINE).unwrap();
        assert_eq!(record["type"], "sudoku");
        assert_eq!(record["size"], 9);
        assert_eq!(record["givens"][0], json!([5, 3, 0, 0, 7, 0, 0, 0, 0]));
        assert_eq!(record["givens"][8], json!([0, 0, 0, 0, 8, 0, 0, 7, 9]));
        let printed: String = LINE
            .as_bytes()
            .chunks(9)
            .enumerate()
            .map(|(r, row)| {
                let cells: Vec<String> = row.iter().map(|&b| char::from(b).to_string()).collect();
                let line = format!(
                    "{} | {} | {}\n",
                    cells[..3].join(" "),
                    cells[3..6].join(" "),
                    cells[6..].join(" ")
                );
                if r % 3 == 0 && r > 0 {
                    format!("------+-------+------\n{line}")
                } else {
                    line
                }
            })
            .collect();
        assert_eq!(decode(&printed).unwrap(), record);
        let headed = format!("#A someone\n#D a comment: with a colon\n{printed}");
        assert!(recognises(&headed));
        assert_eq!(decode(&headed).unwrap(), record);
        assert_eq!(decode(&format!("# one line\n{LINE}\n")).unwrap(), record);
        assert!(recognises(LINE) && recognises(&printed));
        assert_eq!(encode(&record).unwrap(), LINE);
    }

    /// A position as HoDoKu prints it (`.`, `:` and `'` in its frame), and as Sudoku Explainer does (`+`).
    const MARKS: &str = "\
.----------------.----------------.----------------.
| 1     4689 4589 | 2356 2349 2369 | 7     3689 346 |
| 678   2    489  | 1367 349  1369 | 5     13689 1346 |
| 4567  4679 3    | 12567 2459 8   | 1269  129  146 |
:----------------+----------------+----------------:
| 234568 3689 7   | 23589 1   2345 | 23468 23568 3456 |
| 23458 348  12458 | 23578 6  23457 | 1238  12358 9 |
| 23568 13689 12589 | 235789 23589 2357 | 123568 4 13567 |
:----------------+----------------+----------------:
| 3478  5    1489 | 136789 3789 1379 | 134689 13679 2 |
| 2378  1378 6    | 4     235789 12379 | 1389 13579 1357 |
| 9     1347 124  | 12356 2357 12357 | 13456 13567 8 |
'----------------'----------------'----------------'
";

    #[test]
    fn a_pencil_mark_grid_is_refused_in_its_own_words() {
        let explainer = MARKS.replace(['.', ':', '\''], "+");
        for text in [MARKS.to_owned(), explainer] {
            assert!(recognises(&text), "{text}");
            let e = decode(&text).unwrap_err().to_string();
            assert!(
                e.contains("pencil-mark grid (r1c2 holds the candidates 4689)"),
                "{e}"
            );
        }
        // Every cell one token and none above the size: a grid of givens (values past 9 as numbers), not marks.
        let sixteen: Vec<String> = (0..16)
            .map(|r| {
                (0..16)
                    .map(|c| ((r * 4 + r / 4 + c) % 16 + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert!(pencil_marks(&sixteen.join("\n")).is_none());
        // Rows of unequal length, and letters, are not marks either.
        assert!(pencil_marks("12 3\n4 56\n7 8 9\n1 2 3 4").is_none());
        assert!(pencil_marks(&"ab cd ef gh\n".repeat(4)).is_none());
    }

    #[test]
    fn sizes_without_boxes_are_latin_squares_and_other_texts_are_not_grids() {
        // 40 characters are no square; a 5x5 has no boxes.
        assert!(decode(&"12345".repeat(8)).is_err());
        let five: String = "1....".repeat(5);
        assert_eq!(decode(&five).unwrap()["type"], "latin");
        for text in [
            "1234",
            "type: sudoku",
            "puzzles/a.yaml",
            "53..7....6..195",
            "abcdefghijklmnop",
        ] {
            assert!(!recognises(text), "{text}");
        }
    }

    #[test]
    fn several_puzzle_lines_are_pointed_to_lines_and_a_grid_of_rows_is_not() {
        let three = format!("{LINE}\n{LINE}\n\n# a comment\n{LINE}\n");
        let e = decode(&three).unwrap_err().to_string();
        assert!(
            e.contains("3 lines of 81 characters each: that is 3 puzzles, one a line; solve every line with `latin solve --lines`"),
            "{e}"
        );
        // A 16x16 written row by row is 16 lines of 16 characters, each of which is 4x4's length: one grid.
        let sixteen = format!("{}\n", "123456789ABCDEFG").repeat(16);
        assert_eq!(decode(&sixteen).unwrap()["size"], 16);
        assert_eq!(puzzles_one_a_line(&["123456789ABCDEFG"; 16]), None);
        assert_eq!(puzzles_one_a_line(&["1234123412341234"; 3]), Some(16));
        assert_eq!(puzzles_one_a_line(&[LINE]), None);
    }

    #[test]
    fn only_what_a_bare_grid_reads_back_as_is_written() {
        let mut record = decode(LINE).unwrap();
        record["solution"] = record["givens"].clone();
        record["boxes"] = json!([3, 3]);
        assert!(encode(&record).is_ok());
        for (key, value) in [
            ("boxes", json!([1, 9])),
            ("rules", json!(["diagonals"])),
            ("type", json!("killer")),
            ("size", json!(16)),
        ] {
            let mut other = record.clone();
            other[key] = value;
            assert!(encode(&other).is_err(), "{key}");
        }
        record["boxes"] = json!([1, 9]);
        let message = encode(&record).unwrap_err().to_string();
        assert!(
            message.contains("boxes 1x9: a bare grid takes the default boxes of a 9x9 (3x3)"),
            "{message}"
        );
    }
}
