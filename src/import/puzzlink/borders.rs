//! pzprjs's types whose clues sit on the borders between cells: `minarism` (inequality signs and circled
//! differences, read as the `minarism` grammar) and `kropki` (white and black dots on a Latin square, read as
//! `kropki-latin`).
//!
//! Borders are numbered as pzprjs numbers them: the vertical ones (between a cell and the one to its right) row
//! by row, then the horizontal ones ([`super::wall_cells`]). Minarism writes each border's mark as one
//! character, `g` (the first cell, top or left, is the smaller) or `h` (it is the greater), a hex digit or `-`
//! and two for a circled difference, `.` for a circle without a number, and `i`-`z` for a run of 1-18 borders
//! without a mark (`Encode.decodeMinarism`); kropki packs three borders into a base-27 digit, each 0 (none), 1
//! (white) or 2 (black) (`decodeCircle_kropki`).

use serde_json::{json, Map, Value as Json};

use super::{err, wall_cells};
use crate::error::Error;

/// How many borders an n x n board has inside it.
fn border_count(n: usize) -> usize {
    2 * n * (n - 1)
}

/// A pair of cells (row-major indices) as the record writes it.
fn pair(a: usize, b: usize, n: usize) -> Json {
    json!([a / n, a % n, b / n, b % n])
}

/// The border between two cells of a record's pair `[r1, c1, r2, c2]`, and whether the first is the border's
/// first cell (top or left); `None` unless they share an edge.
fn border_of(p: &Json, n: usize) -> Option<(usize, bool)> {
    let v: Vec<usize> = p
        .as_array()?
        .iter()
        .map(|x| x.as_u64().map(|x| x as usize))
        .collect::<Option<_>>()?;
    let [r1, c1, r2, c2] = v[..] else { return None };
    if r1.max(r2) >= n || c1.max(c2) >= n {
        return None;
    }
    let (a, b) = (r1 * n + c1, r2 * n + c2);
    let (lo, hi) = (a.min(b), a.max(b));
    let k = if hi == lo + 1 && lo % n + 1 < n {
        (lo / n) * (n - 1) + lo % n
    } else if hi == lo + n {
        (n - 1) * n + lo
    } else {
        return None;
    };
    Some((k, a == lo))
}

/// The text of a record's pair, for messages.
fn named(p: &Json) -> String {
    match p
        .as_array()
        .map(|v| v.iter().filter_map(Json::as_u64).collect::<Vec<_>>())
    {
        Some(v) if v.len() == 4 => format!("r{}c{}-r{}c{}", v[0] + 1, v[1] + 1, v[2] + 1, v[3] + 1),
        _ => p.to_string(),
    }
}

pub(super) fn minarism(n: usize, body: &str) -> Result<Json, Error> {
    let total = border_count(n);
    let (mut less, mut lines, mut clues) = (Vec::new(), Vec::new(), Vec::new());
    let bytes = body.as_bytes();
    let (mut i, mut k) = (0, 0);
    while i < bytes.len() && k < total {
        let (x, y) = wall_cells(k, n);
        let c = bytes[i] as char;
        let difference = match c {
            '0'..='9' | 'a'..='f' => c.to_digit(16).map(u64::from),
            '-' => {
                let text = body
                    .get(i + 1..i + 3)
                    .ok_or_else(|| err("a circled difference is cut short"))?;
                i += 2;
                Some(
                    u64::from_str_radix(text, 16)
                        .map_err(|_| err(format!("{text:?} is not hex")))?,
                )
            }
            // A circle without its number: the two differ, as neighbours in a row or column always do.
            '.' => None,
            'g' => {
                less.push(pair(x, y, n));
                None
            }
            'h' => {
                less.push(pair(y, x, n));
                None
            }
            'i'..='z' => {
                k += c as usize - 'i' as usize;
                None
            }
            _ => return Err(err(format!("unexpected {c:?} in the minarism borders"))),
        };
        // pzprjs checks circled numbers above 0 only.
        if let Some(d) = difference.filter(|&d| d > 0) {
            lines.push(json!([[x / n, x % n], [y / n, y % n]]));
            clues.push(d);
        }
        i += 1;
        k += 1;
    }
    let mut record = json!({"type": "minarism", "size": n});
    if !less.is_empty() {
        record["less"] = json!(less);
    }
    if !lines.is_empty() {
        record["lines"] = json!({"differences": lines});
        record["line_clues"] = json!({"differences": clues});
    }
    Ok(record)
}

pub(super) fn kropki(n: usize, body: &str) -> Result<Json, Error> {
    let total = border_count(n);
    let mut dots: [Vec<Json>; 2] = [Vec::new(), Vec::new()];
    for (j, c) in body.chars().take(total.div_ceil(3)).enumerate() {
        let h = c
            .to_digit(27)
            .ok_or_else(|| err(format!("{c:?} is not a kropki digit (base 27)")))?;
        for (i, weight) in [9, 3, 1].into_iter().enumerate() {
            let k = 3 * j + i;
            let dot = h / weight % 3;
            if k < total && dot > 0 {
                let (x, y) = wall_cells(k, n);
                dots[dot as usize - 1].push(pair(x, y, n));
            }
        }
    }
    let [white, black] = dots;
    let mut pairs = Map::new();
    for (name, list) in [("white", white), ("black", black)] {
        if !list.is_empty() {
            pairs.insert(name.into(), json!(list));
        }
    }
    let mut record = json!({"type": "kropki-latin", "size": n});
    if !pairs.is_empty() {
        record["pairs"] = Json::Object(pairs);
    }
    Ok(record)
}

/// The record's keys under `group` (`lines`, `pairs`) other than `known`: pzprjs has no place for them.
fn refuse_others(record: &Json, group: &str, known: &[&str], pid: &str) -> Result<(), Error> {
    if let Some(map) = record[group].as_object() {
        if let Some(other) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(err(format!(
                "{group} section {other:?}: pzprjs's {pid} has no such marks"
            )));
        }
    }
    Ok(())
}

/// One mark per border, refusing a second that differs.
struct Marks<T> {
    marks: Vec<Option<T>>,
}

impl<T: PartialEq + Copy> Marks<T> {
    fn new(n: usize) -> Self {
        Marks {
            marks: vec![None; border_count(n)],
        }
    }

    /// Sets the mark of the border between the pair's cells.
    fn set(&mut self, p: &Json, n: usize, mark: impl Fn(bool) -> T) -> Result<(), Error> {
        let (k, first) = border_of(p, n).ok_or_else(|| {
            err(format!(
                "{}: pzprjs marks only cells that share an edge",
                named(p)
            ))
        })?;
        let mark = mark(first);
        match self.marks[k] {
            Some(m) if m != mark => Err(err(format!(
                "{}: two marks on one border, where pzprjs holds one",
                named(p)
            ))),
            _ => {
                self.marks[k] = Some(mark);
                Ok(())
            }
        }
    }
}

/// A minarism mark: a sign (whether the border's first cell is the smaller) or a circled difference.
#[derive(Clone, Copy, PartialEq)]
enum Sign {
    FirstLess(bool),
    Difference(u64),
}

pub(super) fn minarism_text(record: &Json, n: usize) -> Result<String, Error> {
    refuse_others(record, "lines", &["differences"], "minarism")?;
    let mut marks = Marks::new(n);
    for p in record["less"].as_array().into_iter().flatten() {
        marks.set(p, n, Sign::FirstLess)?;
    }
    let lines = record["lines"]["differences"].as_array();
    let clues = record["line_clues"]["differences"].as_array();
    for (k, line) in lines.into_iter().flatten().enumerate() {
        let d = clues
            .and_then(|c| c.get(k))
            .and_then(Json::as_u64)
            .filter(|d| (1..=255).contains(d))
            .ok_or_else(|| {
                err(format!(
                    "differences line {}: pzprjs circles 1 to 255",
                    k + 1
                ))
            })?;
        let cells = line.as_array().map(Vec::as_slice).unwrap_or_default();
        for w in cells.windows(2) {
            let p = json!([w[0][0], w[0][1], w[1][0], w[1][1]]);
            marks.set(&p, n, |_| Sign::Difference(d))?;
        }
    }
    let mut out = String::new();
    let mut run = 0;
    let skip = |run: u32| std::char::from_digit(17 + run, 36).expect("runs of 1 to 18");
    for mark in marks.marks {
        let text = match mark {
            None => {
                run += 1;
                if run == 18 {
                    out.push(skip(run));
                    run = 0;
                }
                continue;
            }
            Some(Sign::FirstLess(true)) => "g".to_owned(),
            Some(Sign::FirstLess(false)) => "h".to_owned(),
            Some(Sign::Difference(d)) if d < 16 => format!("{d:x}"),
            Some(Sign::Difference(d)) => format!("-{d:02x}"),
        };
        if run > 0 {
            out.push(skip(run));
            run = 0;
        }
        out += &text;
    }
    if run > 0 {
        out.push(skip(run));
    }
    Ok(out)
}

pub(super) fn kropki_text(record: &Json, n: usize) -> Result<String, Error> {
    refuse_others(record, "pairs", &["white", "black"], "kropki")?;
    let mut marks = Marks::new(n);
    for (name, dot) in [("white", 1u32), ("black", 2)] {
        for p in record["pairs"][name].as_array().into_iter().flatten() {
            if let Some(k) = p.get(4) {
                return Err(err(format!(
                    "a {name} dot numbered {k}: pzprjs's kropki dots carry no number"
                )));
            }
            marks.set(p, n, |_| dot)?;
        }
    }
    Ok(marks
        .marks
        .chunks(3)
        .map(|three| {
            let h = three
                .iter()
                .zip([9, 3, 1])
                .map(|(m, w)| m.unwrap_or(0) * w)
                .sum::<u32>();
            std::char::from_digit(h, 27).expect("a base-27 digit")
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_pzprjs_wrote_read_as_their_marks() {
        // Written by pzprjs: border 0 circled 3, border 1 "r1c2 < r1c3", border 12 (below r1c1) "r1c1 > r2c1".
        let m = minarism(4, "3grhs").unwrap();
        assert_eq!(m["less"], json!([[0, 1, 0, 2], [1, 0, 0, 0]]));
        assert_eq!(m["lines"]["differences"], json!([[[0, 0], [0, 1]]]));
        assert_eq!(m["line_clues"]["differences"], json!([3]));
        assert_eq!(minarism_text(&m, 4).unwrap(), "3grhs");
        // Border 0 white, border 5 (r2c3-r2c4) black.
        let k = kropki(4, "92000000").unwrap();
        assert_eq!(k["pairs"]["white"], json!([[0, 0, 0, 1]]));
        assert_eq!(k["pairs"]["black"], json!([[1, 2, 1, 3]]));
        assert_eq!(kropki_text(&k, 4).unwrap(), "92000000");
    }

    #[test]
    fn wide_differences_and_long_runs_write_back_to_themselves() {
        let n = 20;
        let lines: Vec<Json> = (0..n).map(|r| json!([[r, 0], [r, 1]])).collect();
        let clues: Vec<u64> = (1..=n as u64).collect();
        let record = json!({"type": "minarism", "size": n, "less": [[19, 18, 19, 19]],
            "lines": {"differences": lines}, "line_clues": {"differences": clues}});
        let text = minarism_text(&record, n).unwrap();
        let back = minarism(n, &text).unwrap();
        assert_eq!(back, record);
    }

    #[test]
    fn marks_pzprjs_cannot_hold_are_refused() {
        let diagonal = json!({"size": 4, "less": [[0, 0, 1, 1]]});
        assert!(minarism_text(&diagonal, 4).is_err());
        let both = json!({"size": 4, "less": [[0, 0, 0, 1]],
            "lines": {"differences": [[[0, 0], [0, 1]]]}, "line_clues": {"differences": [2]}});
        assert!(minarism_text(&both, 4).is_err());
        let zero = json!({"size": 4, "lines": {"differences": [[[0, 0], [0, 1]]]},
            "line_clues": {"differences": [0]}});
        assert!(minarism_text(&zero, 4).is_err());
        let other = json!({"size": 4, "pairs": {"x": [[0, 0, 0, 1]]}});
        assert!(kropki_text(&other, 4).is_err());
        assert!(minarism(4, "~").is_err());
        assert!(minarism(4, "-4").is_err());
        assert!(kropki(4, "r").is_err());
    }
}
