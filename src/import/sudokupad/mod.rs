//! SudokuPad links in its own format (`https://sudokupad.app/scl...`, the older `ctc...`, or `?puzzle=scl...`),
//! and SudokuPad's puzzle JSON itself; written as the SudokuPad link that opens an f-puzzles payload
//! (`https://sudokupad.app/fpuzzles...`), which SudokuPad draws with its own converter.
//!
//! The payload is SudokuPad's puzzle JSON, zipped ([`unzip`]) and compressed by lz-string to base64. What it
//! holds is mostly drawings; [`drawings`] reads back the ones SudokuPad's f-puzzles converter makes into the
//! f-puzzles constraints they stand for, and the f-puzzles reader makes the record, so both forms mean the same
//! by every constraint. SudokuPad's `fpuzzles` and `fpuz` links carry f-puzzles' own payload and are read by
//! [`super::fpuzzles`]. A short link (`sudokupad.app/some-name`) names a puzzle kept on SudokuPad's server,
//! which latin, reading no network, cannot fetch: it is refused with what to paste instead.

mod drawings;
mod unzip;

use serde_json::Value as Json;

use super::{bad, fpuzzles, Format};
use crate::error::Error;

fn err(message: impl Into<String>) -> Error {
    bad(Format::Sudokupad, message)
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
    let fpuzzle = drawings::to_fpuzzles(&puzzle).map_err(err)?;
    fpuzzles::record_of(&fpuzzle).map_err(|e| match e {
        Error::Input {
            message, position, ..
        } => Error::Input {
            section: Format::Sudokupad.name().into(),
            position,
            message: format!("as the f-puzzles puzzle it draws: {message}"),
        },
        other => other,
    })
}

/// A record as the SudokuPad link that opens its f-puzzles payload.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let link = fpuzzles::encode(record)?;
    let payload = link
        .strip_prefix(fpuzzles::LINK)
        .expect("f-puzzles links start so");
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
