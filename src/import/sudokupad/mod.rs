//! SudokuPad links in its own format (`https://sudokupad.app/scl...`, the older `ctc...`, or `?puzzle=scl...`),
//! and SudokuPad's puzzle JSON itself; written as the SudokuPad link that opens an f-puzzles payload
//! (`https://sudokupad.app/fpuzzles...`), which SudokuPad draws with its own converter.
//!
//! The payload is SudokuPad's puzzle JSON, zipped ([`unzip`]) and compressed by lz-string to base64. SudokuPad
//! keeps few rules as rules ([`grid`]: givens, regions, killer cages, extra regions, metadata); every other
//! constraint is a drawing, made in a fixed shape by SudokuPad's own f-puzzles converter (`fpuzzlesdecoder.js`:
//! a thermometer is a grey line over a grey bulb, a white kropki dot a small white circle on an edge).
//! [`drawings`] reads those back into the f-puzzles constraints they stand for, and the f-puzzles reader makes
//! the record, so both forms mean the same by every constraint. Lines of other colours are read by the rules
//! text's sentence about their colour ([`super::coloured`]). Any other drawing the converter does not make
//! (shaded cells, text) is an error naming it: its rule, if it has one, is in the rules text alone, and a rule
//! dropped silently would give wrong answers. What the converter drops itself
//! (non-consecutive, the negative constraint, whispers, skyscraper clues) is not in the link's drawing; the rules
//! over the whole grid and the negative constraint are read from the rules text where it says them
//! ([`super::globals`]), and the rest reads as the puzzle it draws, which then has more solutions. SudokuPad's
//! `fpuzzles` and `fpuz` links carry f-puzzles' own payload and are read by [`super::fpuzzles`]. A short link (`sudokupad.app/some-name`) names a puzzle kept on SudokuPad's server,
//! which latin, reading no network, cannot fetch: it is refused with what to paste instead.

mod drawings;
mod geometry;
mod grid;
mod unzip;

use serde_json::{json, Value as Json};

use super::{bad, fpuzzles, relabelled, Format, SUDOKUPAD_WRITTEN};
use crate::error::Error;

fn err(message: impl Into<String>) -> Error {
    bad(Format::Sudokupad, message)
}

/// A drawing that does not say a constraint latin reads, described for the error.
type Refusal = String;

/// The f-puzzles JSON of a SudokuPad puzzle: what it keeps as rules ([`grid`]), then its drawings
/// ([`drawings`]), every one of which some reader must take.
fn to_fpuzzles(puzzle: &Json) -> Result<Json, Refusal> {
    use drawings::*;
    let n = grid::size(puzzle)?;
    let mut out = json!({"size": n, "grid": grid::grid(puzzle, n)?});
    let mut drawings = geometry::Drawings::of(puzzle)?;
    grid::about(puzzle, &mut out, n);
    grid::cages(puzzle, &mut drawings, &mut out, n)?;
    grid::flags(puzzle, &mut out)?;
    super::globals::read(&mut out)?;
    diagonals(&mut drawings, &mut out, n);
    thermometers(&mut drawings, &mut out, n)?;
    arrows(&mut drawings, &mut out, n)?;
    little_killers(&mut drawings, &mut out, n)?;
    between_lines(&mut drawings, &mut out, n)?;
    extremes(&mut drawings, &mut out, n)?;
    marks(&mut drawings, &mut out, n)?;
    coloured_lines(&mut drawings, &mut out, n);
    drawings.rest_refused(n)?;
    crate::import::coloured::read(&mut out)?;
    crate::import::signs::read(&mut out)?;
    for key in ["foglight", "triggereffect"] {
        if puzzle[key].as_array().is_some_and(|l| !l.is_empty()) {
            return Err(format!(
                "`{key}`: latin has no fog of war or triggered effects"
            ));
        }
    }
    Ok(out)
}

/// SudokuPad's prefixes of a payload in its own format.
const PREFIXES: [&str; 2] = ["scl", "ctc"];

/// The sites that serve SudokuPad.
const SITES: [&str; 2] = ["sudokupad.app", "crackingthecryptic.com"];

/// The compressed payload of a link or bare `scl...` text, if it is one.
fn payload(text: &str) -> Option<&str> {
    let rest = PREFIXES.iter().find_map(|p| {
        text.strip_prefix(p).or_else(|| {
            let on_site = SITES.iter().any(|s| text.contains(s));
            ["/", "="]
                .iter()
                .find_map(|sep| {
                    text.find(&format!("{sep}{p}"))
                        .map(|at| &text[at + 1 + p.len()..])
                })
                .filter(|_| on_site)
        })
    })?;
    let rest = &rest[..rest.find(['?', '&', '#']).unwrap_or(rest.len())];
    let base64 = |b: u8| b.is_ascii_alphanumeric() || b"+/=%-_$".contains(&b);
    (rest.len() >= 8 && rest.bytes().all(base64)).then_some(rest)
}

/// A link to SudokuPad that names a puzzle on its server rather than carrying it.
fn is_short_link(text: &str) -> bool {
    !text.contains(char::is_whitespace)
        && SITES.iter().any(|s| text.contains(&format!("{s}/")))
        && payload(text).is_none()
}

/// SudokuPad's puzzle JSON: `cells`, and `regions` or `cellSize`, and none of f-puzzles' `grid`.
fn is_json(text: &str) -> bool {
    text.starts_with('{')
        && text.contains("\"cells\"")
        && (text.contains("\"regions\"") || text.contains("\"cellSize\""))
        && !text.contains("\"grid\"")
}

pub(crate) fn recognises(text: &str) -> bool {
    payload(text).is_some() || is_short_link(text) || is_json(text)
}

/// A link, a bare payload or the JSON as a record.
pub(crate) fn decode(text: &str) -> Result<Json, Error> {
    // What this form writes: SudokuPad's link to an f-puzzles payload.
    if fpuzzles::recognises(text) {
        return fpuzzles::decode(text);
    }
    let json_text = if is_json(text) {
        text.to_owned()
    } else if let Some(p) = payload(text) {
        super::payload::unpack(p, Format::Sudokupad, |t| {
            serde_json::from_str::<Json>(t).is_ok() || unzip::unzip(t).is_ok()
        })?
    } else if is_short_link(text) {
        return Err(err(
            "a short link names a puzzle kept on SudokuPad's server, and latin reads no network: paste the \
             puzzle's f-puzzles link or its long SudokuPad link (`https://sudokupad.app/scl...`) instead",
        ));
    } else {
        return Err(err(
            "not a SudokuPad link (`sudokupad.app/scl...`) or puzzle JSON",
        ));
    };
    let puzzle = match serde_json::from_str::<Json>(&json_text) {
        Ok(json) => json,
        Err(_) => unzip::unzip(&json_text)
            .map_err(|e| err(format!("not SudokuPad's puzzle JSON: {e}")))?,
    };
    let fpuzzle = to_fpuzzles(&puzzle).map_err(err)?;
    fpuzzles::record_of(&fpuzzle)
        .map_err(|e| relabelled(e, Format::Sudokupad, "as the f-puzzles puzzle it draws: "))
}

/// A record as the SudokuPad link that opens its f-puzzles payload.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let mut puzzle = fpuzzles::to_fpuzzles(record)
        .map_err(|e| relabelled(e, Format::Sudokupad, SUDOKUPAD_WRITTEN))?;
    // SudokuPad's converter drops f-puzzles' slow thermometers; it draws thermometers and the rules text.
    if puzzle["thermometer"].as_array().is_none_or(Vec::is_empty) {
        super::globals::say_slow_thermos(&mut puzzle)
            .map_err(|e| super::bad(Format::Sudokupad, e))?;
    }
    let payload = fpuzzles::payload_of(&puzzle, Format::Sudokupad)?;
    Ok(format!("https://sudokupad.app/fpuzzles{payload}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_short_links_and_json_are_told_apart() {
        for text in [
            "https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSTzKLSBdZQ",
            "https://sudokupad.app/?puzzle=ctcN4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSTz",
            "sclN4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSTz",
        ] {
            assert!(
                payload(text).is_some_and(|p| p.starts_with("N4Ig")),
                "{text}"
            );
        }
        assert!(is_short_link("https://sudokupad.app/clover/tiny-tiny-tiny"));
        assert!(!recognises("https://puzz.link/p?sudoku/4/4/g1g"));
        let e = decode("https://sudokupad.app/clover/tiny-tiny-tiny")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no network"), "{e}");
        assert!(is_json(r#"{"cellSize":50,"cells":[[{}]]}"#));
        // What `encode` writes reads back.
        let record = serde_json::json!({"size": 4, "boxes": [2, 2], "givens": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]});
        let link = encode(&record).unwrap();
        assert!(
            link.starts_with("https://sudokupad.app/fpuzzlesN4Ig"),
            "{link}"
        );
        assert_eq!(decode(&link).unwrap()["givens"], record["givens"]);
    }
}
