//! puzz.link and pzprjs URLs (`https://puzz.link/p?sudoku/9/9/...`, `http://pzv.jp/p.html?factors/...`) for the
//! types of this family that pzprjs has: `sudoku` (its box shape is fixed by the size), `factors` (Inshi no
//! heya), `building` (Skyscrapers), and the two whose marks sit on borders ([`borders`]): `minarism` and
//! `kropki` (on a Latin square: `kropki-latin`).
//!
//! The encodings follow pzprjs's `Encode` class: `Number16` writes a cell's number as one hex digit (0-15), `-`
//! and two digits (16-255), `+` and three (256-4095), `=` and `%` three more for larger numbers (and, for room
//! numbers, `*` four and `$` five), a run of 1-20 empty cells as `g`-`z`, and `.` for a `?`. `Border` packs the
//! walls between cells five to a base-32 digit: the vertical ones row by row, then the horizontal ones row by
//! row. Rooms are numbered in order of their first cell, as pzprjs's room graph numbers them, and a room's
//! number is written in that order. Excells (outside clues) run top, bottom, left, right.

use serde_json::{json, Map, Value as Json};

use super::{bad, grid, numbers, region_ids, regions, Classes, Format};
use crate::error::Error;

mod borders;

/// pzprjs's name for each type it shares with latin.
const TYPES: [(&str, &str); 5] = [
    ("sudoku", "sudoku"),
    ("factors", "inshi"),
    ("building", "skyscrapers"),
    ("minarism", "minarism"),
    ("kropki", "kropki-latin"),
];

fn err(message: impl Into<String>) -> Error {
    bad(Format::Puzzlink, message)
}

/// Other names pzprjs takes for a type in a URL (its variety table's `alias`es), with the type's own.
const ALIASES: [(&str, &str); 2] = [("skyscrapers", "building"), ("skyscraper", "building")];

/// The type (pzprjs's own name for it) and the rest of the path after `?` (`sudoku`, `9/9/...`), if the text
/// looks like such a URL.
fn split(text: &str) -> Option<(&str, &str)> {
    let (_, query) = text.split_once('?')?;
    let (pid, rest) = query.split_once('/')?;
    let pid = ALIASES
        .iter()
        .find(|(alias, _)| *alias == pid)
        .map_or(pid, |(_, own)| own);
    // puzz.link writes flags such as `v:` before the size; none of them matter here.
    let rest = rest.strip_prefix("v:/").unwrap_or(rest);
    TYPES
        .iter()
        .find(|(p, _)| *p == pid)
        .map(|(p, _)| (*p, rest))
}

pub(crate) fn recognises(text: &str) -> bool {
    split(text).is_some_and(|(_, rest)| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// A URL as a record.
pub(crate) fn decode(text: &str) -> Result<Json, Error> {
    let names: Vec<&str> = TYPES.iter().map(|t| t.0).collect();
    let (pid, rest) = split(text).ok_or_else(|| {
        err(format!(
            "not a pzprjs URL of a type latin reads ({})",
            names.join(", ")
        ))
    })?;
    let mut parts = rest.splitn(3, '/');
    let mut dimension = || {
        parts
            .next()
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|n| (1..=255).contains(n))
    };
    let (cols, rows) = (dimension(), dimension());
    let body = parts.next().unwrap_or("");
    let n = match (cols, rows) {
        (Some(c), Some(r)) if c == r => c,
        (Some(c), Some(r)) => {
            return Err(err(format!("a {c}x{r} board: Latin squares are square")))
        }
        _ => return Err(err("expected COLS/ROWS after the type, each 1 to 255")),
    };
    match pid {
        "sudoku" => sudoku(n, body),
        "factors" => factors(n, body),
        "minarism" => borders::minarism(n, body),
        "kropki" => borders::kropki(n, body),
        _ => building(n, body),
    }
}

/// pzprjs's Sudoku boxes for an n x n board: `floor(sqrt n)` rows by as many columns, but 2x3 for 6x6.
fn box_shape(n: usize) -> (usize, usize) {
    let root = (1..=n).take_while(|k| k * k <= n).last().unwrap_or(1);
    (root, if n == 6 { 3 } else { root })
}

/// `Number16`: `count` numbers, `None` for an empty cell, `Some(None)` for a `?`; and the text left over.
#[allow(clippy::type_complexity)]
fn number16(
    body: &str,
    count: usize,
    wide: bool,
) -> Result<(Vec<Option<Option<u64>>>, &str), Error> {
    let mut out = Vec::with_capacity(count);
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() && out.len() < count {
        let c = bytes[i] as char;
        let (digits, offset) = match c {
            '0'..='9' | 'a'..='f' => (0, 0),
            '-' => (2, 0),
            '+' => (3, 0),
            '=' => (3, 4096),
            '%' => (3, 8192),
            '*' if wide => (4, 12240),
            '$' if wide => (5, 77776),
            '.' => {
                out.push(Some(None));
                i += 1;
                continue;
            }
            'g'..='z' => {
                let run = c as usize - 'g' as usize + 1;
                out.extend(std::iter::repeat_n(None, run.min(count - out.len())));
                i += 1;
                continue;
            }
            _ => return Err(err(format!("unexpected {c:?} in the numbers"))),
        };
        let text = if digits == 0 {
            &body[i..i + 1]
        } else {
            body.get(i + 1..i + 1 + digits)
                .ok_or_else(|| err("a number is cut short"))?
        };
        let v = u64::from_str_radix(text, 16).map_err(|_| err(format!("{text:?} is not hex")))?;
        out.push(Some(Some(v + offset)));
        i += 1 + digits;
    }
    out.resize(count, None);
    Ok((out, &body[i..]))
}

/// The given numbers, refusing `?`.
fn known(numbers: Vec<Option<Option<u64>>>, what: &str) -> Result<Vec<u64>, Error> {
    numbers
        .into_iter()
        .map(|x| match x {
            None => Ok(0),
            Some(Some(v)) => Ok(v),
            Some(None) => Err(err(format!("a `?` {what}: latin needs the number"))),
        })
        .collect()
}

fn sudoku(n: usize, body: &str) -> Result<Json, Error> {
    let (h, w) = box_shape(n);
    if h * w != n {
        return Err(err(format!(
            "pzprjs's {n}x{n} Sudoku has {h}x{w} boxes, which do not make it one"
        )));
    }
    let (values, _) = number16(body, n * n, false)?;
    let givens = known(values, "given")?;
    Ok(json!({"type": "sudoku", "size": n, "boxes": [h, w], "givens": grid(&givens, n)}))
}

/// The two cells a wall lies between: vertical walls row by row, then horizontal ones.
fn wall_cells(k: usize, n: usize) -> (usize, usize) {
    let vertical = (n - 1) * n;
    if k < vertical {
        let (r, c) = (k / (n - 1), k % (n - 1));
        (r * n + c, r * n + c + 1)
    } else {
        let k = k - vertical;
        (k, k + n)
    }
}

fn factors(n: usize, body: &str) -> Result<Json, Error> {
    let vertical = (n - 1) * n;
    let groups = [vertical, vertical];
    let mut classes = Classes::new(n * n);
    let mut rest = body;
    let mut start = 0;
    for size in groups {
        let chars = size.div_ceil(5);
        let text = rest
            .get(..chars)
            .ok_or_else(|| err("the room walls are cut short"))?;
        for (j, c) in text.chars().enumerate() {
            let bits = c
                .to_digit(32)
                .ok_or_else(|| err(format!("{c:?} is not a wall digit")))?;
            for b in 0..5 {
                let k = j * 5 + b;
                if k < size && bits & (16 >> b) == 0 {
                    let (x, y) = wall_cells(start + k, n);
                    classes.merge(x, y);
                }
            }
        }
        rest = &rest[chars..];
        start += size;
    }
    let (ids, roots) = classes.ids();
    let (values, _) = number16(rest, roots.len(), true)?;
    let mut clues = Map::new();
    for (root, value) in roots.iter().zip(values) {
        match value {
            Some(Some(v)) => {
                clues.insert(ids[*root].clone(), json!(v.to_string()));
            }
            Some(None) => return Err(err("a `?` room: latin needs its product")),
            None => {}
        }
    }
    Ok(json!({"type": "inshi", "size": n, "regions": regions(&ids, n), "clues": clues}))
}

fn building(n: usize, body: &str) -> Result<Json, Error> {
    let (values, _) = number16(body, 4 * n, false)?;
    let clues = known(values, "clue")?;
    let side = |k: usize| json!(clues[k * n..(k + 1) * n]);
    Ok(json!({"type": "skyscrapers", "size": n,
        "sky": {"top": side(0), "bottom": side(1), "left": side(2), "right": side(3)}}))
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

/// A record as a puzz.link URL, for the types pzprjs shares.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let n = record["size"]
        .as_u64()
        .ok_or_else(|| err("the record has no size"))? as usize;
    let kind = record["type"].as_str().unwrap_or_default();
    let Some((pid, _)) = TYPES.iter().find(|(_, t)| *t == kind) else {
        let names: Vec<String> = TYPES.iter().map(|(p, t)| format!("{p}: {t}")).collect();
        return Err(err(format!(
            "type {kind}: pzprjs has no such type here ({})",
            names.join(", ")
        )));
    };
    if record["diagonals"].as_bool() == Some(true) || !record["rules"].is_null() {
        return Err(err(format!(
            "{kind} with more rules than its own: pzprjs's {pid} has none"
        )));
    }
    let givens = match &record["givens"] {
        Json::Null => vec![0; n * n],
        g => numbers(g, n, "givens").map_err(err)?,
    };
    let body = match kind {
        "sudoku" => {
            let boxes = record["boxes"]
                .as_array()
                .and_then(|b| Some((b.first()?.as_u64()?, b.get(1)?.as_u64()?)));
            let (h, w) = box_shape(n);
            if h * w != n {
                // pzprjs draws boxes of its own shape on any size, which tile as
                // a Sudoku only on the sizes where h*w = n.
                return Err(err(format!(
                    "pzprjs's {n}x{n} Sudoku has {h}x{w} boxes, which do not make it one"
                )));
            }
            if boxes != Some((h as u64, w as u64)) {
                return Err(err(format!(
                    "pzprjs's {n}x{n} Sudoku has {h}x{w} boxes only"
                )));
            }
            number16_text(&givens, false)
        }
        _ if givens.iter().any(|&v| v > 0) => {
            return Err(err(format!("pzprjs's {pid} has no givens")))
        }
        "inshi" => factors_text(record, n)?,
        "minarism" => borders::minarism_text(record, n)?,
        "kropki-latin" => borders::kropki_text(record, n)?,
        _ => {
            let mut clues = Vec::with_capacity(4 * n);
            for side in ["top", "bottom", "left", "right"] {
                match &record["sky"][side] {
                    Json::Null => clues.extend(std::iter::repeat_n(0, n)),
                    Json::Array(l) if l.len() == n => {
                        clues.extend(l.iter().map(|v| v.as_u64().unwrap_or(0)))
                    }
                    _ => return Err(err(format!("sky.{side} is not {n} clues"))),
                }
            }
            number16_text(&clues, false)
        }
    };
    Ok(format!("https://puzz.link/p?{pid}/{n}/{n}/{body}"))
}

/// `Number16` of a list (0 = empty).
fn number16_text(values: &[u64], wide: bool) -> String {
    let mut out = String::new();
    let mut run = 0;
    for &v in values {
        let e = match v {
            0 => String::new(),
            1..=15 => format!("{v:x}"),
            16..=255 => format!("-{v:x}"),
            256..=4095 => format!("+{v:x}"),
            // Zero-padded to the width the decoder reads (pzprjs's own encoder leaves `=4` for 4100, which its
            // decoder misreads).
            4096..=8191 => format!("={:03x}", v - 4096),
            _ if !wide || v < 12240 => format!("%{:03x}", v - 8192),
            _ if v < 77776 => format!("*{:04x}", v - 12240),
            _ => format!("${:05x}", v - 77776),
        };
        if e.is_empty() {
            run += 1;
        }
        if run == 0 {
            out += &e;
        } else if !e.is_empty() || run == 20 {
            out.push((b'f' + run as u8) as char);
            out += &e;
            run = 0;
        }
    }
    if run > 0 {
        out.push((b'f' + run as u8) as char);
    }
    out
}

/// The largest number `$` and five hex digits hold.
const MAX_ROOM_NUMBER: u64 = 77776 + 0xfffff;

fn factors_text(record: &Json, n: usize) -> Result<String, Error> {
    let ids = region_ids(&record["regions"], n).map_err(err)?;
    let vertical = (n - 1) * n;
    let mut out = String::new();
    for (start, size) in [(0, vertical), (vertical, vertical)] {
        for chunk in (0..size).collect::<Vec<_>>().chunks(5) {
            let mut bits = 0;
            for (b, &k) in chunk.iter().enumerate() {
                let (x, y) = wall_cells(start + k, n);
                if ids[x] != ids[y] {
                    bits |= 16 >> b;
                }
            }
            out.push(std::char::from_digit(bits, 32).expect("five bits"));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut products = Vec::new();
    for id in &ids {
        if seen.insert(id) {
            let clue = record["clues"][id.as_str()].as_str().unwrap_or("0");
            let product: u64 = clue
                .parse()
                .map_err(|_| err(format!("room {id}: {clue:?} is not a product")))?;
            if product > MAX_ROOM_NUMBER {
                return Err(err(format!(
                    "room {id}: pzprjs writes room numbers up to {MAX_ROOM_NUMBER}"
                )));
            }
            products.push(product);
        }
    }
    Ok(out + &number16_text(&products, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_pzprjs_wrote_read_as_their_types() {
        let s = decode("http://pzv.jp/p.html?sudoku/9/9/32zzzy").unwrap();
        assert_eq!(s["givens"][0], json!([3, 2, 0, 0, 0, 0, 0, 0, 0]));
        assert_eq!(s["boxes"], json!([3, 3]));
        assert_eq!(
            decode("https://puzz.link/p?sudoku/6/6/32zt").unwrap()["boxes"],
            json!([2, 3])
        );
        // Every vertical wall of a 3x3 board: three column rooms, numbered left to right.
        let f = decode("https://puzz.link/p?factors/3/3/vg00123").unwrap();
        assert_eq!(f["regions"][0], json!(["a", "b", "c"]));
        assert_eq!(f["clues"]["c"], "3");
        let b = decode("https://puzz.link/p?building/4/4/1g2j3k4").unwrap();
        assert_eq!(b["sky"]["top"], json!([1, 0, 2, 0]));
        // pzprjs's aliases for the name.
        assert_eq!(
            decode("https://puzz.link/p?skyscrapers/4/4/1g2j3k4").unwrap(),
            b
        );
    }

    #[test]
    fn numbers_of_every_width_write_back_to_themselves() {
        let values = [0, 5, 0, 0, 17, 300, 4100, 5000, 9000, 13000, 80000, 0, 0, 0];
        let text = number16_text(&values, true);
        let (read, rest) = number16(&text, values.len(), true).unwrap();
        assert_eq!(rest, "");
        assert_eq!(known(read, "x").unwrap(), values);
        let long = vec![0; 45];
        assert_eq!(number16_text(&long, false), "zzk");
    }

    #[test]
    fn read_write_read_gives_the_same_puzzle() {
        for url in [
            "http://pzv.jp/p.html?sudoku/9/9/32zzzy",
            "https://puzz.link/p?sudoku/16/16/3czzzzzzzzzzzzt",
            "https://puzz.link/p?factors/3/3/vg00123",
            "https://puzz.link/p?building/4/4/1g2j3k4",
            "http://pzv.jp/p.html?minarism/4/4/3grhs",
            "https://puzz.link/p?kropki/4/4/92000000",
        ] {
            let record = decode(url).unwrap();
            assert_eq!(decode(&encode(&record).unwrap()).unwrap(), record, "{url}");
        }
    }

    #[test]
    fn hostile_urls_are_errors() {
        for url in [
            "https://puzz.link/p?sudoku/9/8/",
            "https://puzz.link/p?sudoku/8/8/",
            "https://puzz.link/p?sudoku/0/0/",
            "https://puzz.link/p?sudoku/999/999/",
            "https://puzz.link/p?sudoku/4/4/.",
            "https://puzz.link/p?sudoku/4/4/-",
            "https://puzz.link/p?sudoku/4/4/#",
            "https://puzz.link/p?factors/3/3/v",
            "https://puzz.link/p?factors/3/3/~~~~",
            "https://puzz.link/p?building/4/4/.",
            "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
        ] {
            assert!(decode(url).is_err(), "{url}");
        }
    }
}
