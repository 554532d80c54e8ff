//! Penpa+ links (`https://swaroopg92.github.io/penpa-edit/#m=solve&p=...`, or any copy of the editor: a path
//! with `penpa-edit` and a `p=` parameter), as setters on Logic Masters and puzzle sites share them.
//!
//! The payload is Penpa+'s save text, deflated (raw DEFLATE) and in base64; the text is lines of a header
//! (grid kind, size, title, author, rules), the `space` bands, and the drawing of the puzzle (`pu_q`) as JSON
//! with some keys abbreviated (`COMPRESS_SUB` in Penpa+'s `class_p.js`). Penpa+ is a drawing program: a
//! Sudoku's rules are whatever its rules text says of the drawing. [`drawings`] reads the drawings that mean
//! one thing in Sudoku (the shapes Penpa+'s own Sudoku tools make: given digits, thick region lines, the dotted
//! diagonals, killer cages with their sums, thermometers, arrows, white and black dots and X and V on edges,
//! grey circles and squares for odd and even, numbers beside the grid as the one kind of outside clue the rules
//! text names) into the f-puzzles constraints they stand for, and the f-puzzles reader makes the record, so
//! every importer means the same by each constraint. Lines through the cells' centres are read by their colour
//! and the rules text's sentence about it ([`super::coloured`]). Any other drawing (shading, numbers off the
//! cells, text) is an error naming it: its rule is in the rules text alone, and a rule dropped silently would
//! give wrong answers. Dots and marks say only their own pair (`kropki-dots`, `xv-marks`), unless a
//! sentence of the rules text says "all possible" of them (then every unmarked pair has neither relation:
//! `kropki`, `xv`; "all possible white dots" with no black dot, `consecutive-sudoku`), as contest sites write
//! it; the rules over the whole grid that have no drawing (anti-knight, ...) are read from the sentences that
//! name them ([`super::globals`]). Labels of letters outside the grid (the rows of an answer key) are passed
//! over with their arrows.
//!
//! `encode` writes the same drawings back as a Penpa+ solve link, the lines Penpa+ writes in the order it reads
//! them (`load` in Penpa+'s `general.js`); line rules, which Penpa+ has no tool for, as coloured lines and the
//! sentences that give their colours their rules.

mod drawings;
mod geometry;
mod write;

use base64::Engine as _;
use serde_json::Value as Json;

use super::{bad, fpuzzles, relabelled, Format};
use crate::error::Error;

fn err(message: impl Into<String>) -> Error {
    bad(Format::Penpa, message)
}

/// The longest base64 payload read: Penpa+ links of busy puzzles are some kilobytes.
const MAX_PAYLOAD: usize = 256 << 10;

/// The longest text a payload may inflate to: DEFLATE can expand a hostile payload a thousandfold.
const MAX_TEXT: usize = 4 << 20;

/// Penpa+'s abbreviations of its save text, in the order it applies them (`COMPRESS_SUB`); reading undoes them
/// in reverse, as Penpa+ does, the escape of a literal `z` last.
const ABBREVIATIONS: [(&str, &str); 31] = [
    ("z", "zZ"),
    ("\"qa\"", "z9"),
    ("\"pu_q\"", "zQ"),
    ("\"pu_a\"", "zA"),
    ("\"grid\"", "zG"),
    ("\"edit_mode\"", "zM"),
    ("\"surface\"", "zS"),
    ("\"line\"", "zL"),
    ("\"lineE\"", "zE"),
    ("\"wall\"", "zW"),
    ("\"cage\"", "zC"),
    ("\"number\"", "zN"),
    ("\"symbol\"", "zY"),
    ("\"special\"", "zP"),
    ("\"board\"", "zB"),
    ("\"command_redo\"", "zR"),
    ("\"command_undo\"", "zU"),
    ("\"command_replay\"", "z8"),
    ("\"numberS\"", "z1"),
    ("\"freeline\"", "zF"),
    ("\"freelineE\"", "z2"),
    ("\"thermo\"", "zT"),
    ("\"arrows\"", "z3"),
    ("\"direction\"", "zD"),
    ("\"squareframe\"", "z0"),
    ("\"polygon\"", "z5"),
    ("\"deletelineE\"", "z4"),
    ("\"killercages\"", "z6"),
    ("\"nobulbthermo\"", "z7"),
    ("\"__a\"", "z_"),
    ("null", "zO"),
];

/// The `p=` parameter of a Penpa+ link (after `#` or `?`), if the text is one.
fn payload(text: &str) -> Option<&str> {
    if text.contains(char::is_whitespace) || !text.contains("penpa-edit") {
        return None;
    }
    let query = &text[text.find(['#', '?'])? + 1..];
    query
        .split('&')
        .find_map(|param| param.strip_prefix("p="))
        .filter(|p| !p.is_empty())
}

pub(crate) fn recognises(text: &str) -> bool {
    payload(text).is_some()
}

/// The save text a payload inflates to, its abbreviations undone.
fn save_text(payload: &str) -> Result<String, Error> {
    if payload.len() > MAX_PAYLOAD {
        return Err(err(format!(
            "a payload of {} bytes; links are read up to {MAX_PAYLOAD}",
            payload.len()
        )));
    }
    let payload = super::payload::percent_decoded(payload);
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(payload.trim_end_matches('=').to_owned() + padding(&payload))
        .map_err(|e| err(format!("the link's payload is not base64: {e}")))?;
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_TEXT).map_err(
        |e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => err(format!(
                "the link inflates past {MAX_TEXT} bytes; latin reads puzzles up to that"
            )),
            _ => err("the link's payload is not deflated Penpa+ data"),
        },
    )?;
    let mut text = String::from_utf8(text).map_err(|_| err("the link's payload is not text"))?;
    for (long, short) in ABBREVIATIONS.iter().rev() {
        text = text.replace(short, long);
    }
    Ok(text)
}

/// The `=` a base64 text of this length needs (links often lose them).
fn padding(payload: &str) -> &'static str {
    match payload.trim_end_matches('=').len() % 4 {
        2 => "==",
        3 => "=",
        _ => "",
    }
}

/// A link as a record.
pub(crate) fn decode(text: &str) -> Result<Json, Error> {
    let p = payload(text).ok_or_else(|| err("not a Penpa+ link (`penpa-edit/#m=solve&p=...`)"))?;
    let text = save_text(p)?;
    let fpuzzle = drawings::to_fpuzzles(&text).map_err(err)?;
    fpuzzles::record_of(&fpuzzle)
        .map_err(|e| relabelled(e, Format::Penpa, "as the f-puzzles puzzle it draws: "))
}

/// A record as the Penpa+ solve link that draws it.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    // Battlefield clues, which f-puzzles has no constraint for, are numbers outside the grid with a sentence.
    let fpuzzle = fpuzzles::to_fpuzzles_with(record, &[super::BATTLEFIELD]).map_err(|e| {
        relabelled(
            e,
            Format::Penpa,
            "written as the f-puzzles puzzle it draws: ",
        )
    })?;
    let mut text = write::from_fpuzzles(&fpuzzle).map_err(err)?;
    for (long, short) in ABBREVIATIONS {
        text = text.replace(long, short);
    }
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    let payload = base64::engine::general_purpose::STANDARD.encode(deflated);
    let payload = super::payload::within_reach(payload, Format::Penpa, MAX_PAYLOAD)?;
    Ok(format!("{LINK}{payload}"))
}

/// What a Penpa+ solve link is before its payload.
pub(crate) const LINK: &str = "https://swaroopg92.github.io/penpa-edit/#m=solve&p=";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_told_from_other_text() {
        for text in [
            "https://swaroopg92.github.io/penpa-edit/#m=solve&p=7VRNb9pAEL3zK6I9z8G7",
            "https://logicmastersindia.com/penpa-edit/?m=solve&p=zVZvb9u2E3&q=eyJwaWQ",
        ] {
            assert!(recognises(text), "{text}");
        }
        assert_eq!(
            payload("https://x.org/penpa-edit/?m=solve&p=abc&q=d"),
            Some("abc")
        );
        for text in [
            "https://puzz.link/p?sudoku/4/4/g1g",
            "https://swaroopg92.github.io/penpa-edit/",
            "penpa-edit p=abc",
        ] {
            assert!(!recognises(text), "{text}");
        }
    }

    /// A payload that would inflate past the limit (a DEFLATE bomb: 5 MB of one letter compress to 5 KB), or is
    /// too long to be a link, is refused before it costs anything.
    #[test]
    fn hostile_payloads_are_refused_plainly() {
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b'z'; 5 << 20], 9);
        let payload = base64::engine::general_purpose::STANDARD.encode(&bomb);
        assert!(payload.len() < 16 << 10);
        let e = save_text(&payload).unwrap_err().to_string();
        assert!(e.contains("inflates past"), "{e}");
        let e = save_text(&"A".repeat(MAX_PAYLOAD + 4))
            .unwrap_err()
            .to_string();
        assert!(e.contains("links are read up to"), "{e}");
        let link = format!("{LINK}{payload}");
        let e = decode(&link).unwrap_err().to_string();
        assert!(e.contains("penpa") && e.contains("inflates past"), "{e}");
    }

    /// A value of any kind, as a mutated drawing might hold it.
    fn any_value(rng: &mut fastrand::Rng) -> Json {
        let values = [
            serde_json::json!(0),
            serde_json::json!(-1),
            serde_json::json!(2),
            serde_json::json!(21),
            serde_json::json!(1_000_000_000_u64),
            serde_json::json!(u64::MAX),
            serde_json::json!(1.5),
            serde_json::json!(""),
            serde_json::json!("X"),
            serde_json::json!(" 17"),
            serde_json::json!("circle_SS"),
            serde_json::json!("a,b"),
            Json::Null,
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!([[1, 2]]),
            serde_json::json!(true),
        ];
        values[rng.usize(..values.len())].clone()
    }

    /// Changes, deletes or retypes one thing somewhere in a drawing.
    fn mutate(v: &mut Json, rng: &mut fastrand::Rng) {
        match v {
            Json::Object(m) if !m.is_empty() && rng.u8(..10) < 7 => {
                let key = m.keys().nth(rng.usize(..m.len())).cloned().expect("a key");
                match rng.u8(..5) {
                    0 => drop(m.remove(&key)),
                    1 => drop(m.insert(rng.u32(..4000).to_string(), any_value(rng))),
                    _ => mutate(m.get_mut(&key).expect("the key"), rng),
                }
            }
            Json::Array(a) if !a.is_empty() && rng.u8(..10) < 7 => {
                let i = rng.usize(..a.len());
                match rng.u8(..5) {
                    0 => drop(a.remove(i)),
                    1 => a.push(any_value(rng)),
                    _ => mutate(&mut a[i], rng),
                }
            }
            _ => *v = any_value(rng),
        }
    }

    /// The links Penpa+ itself wrote, their drawings, headers and bands changed at random: each reads as a
    /// record or is refused, never a panic.
    #[test]
    fn mutated_drawings_are_read_or_refused() {
        let table =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/penpa/links.tsv");
        let table = std::fs::read_to_string(table).unwrap();
        let texts: Vec<String> = table
            .lines()
            .map(|l| save_text(payload(l.split('\t').nth(2).unwrap()).unwrap()).unwrap())
            .collect();
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut read, mut refused) = (0, 0);
        for _ in 0..2000 {
            let mut lines: Vec<String> = texts[rng.usize(..texts.len())]
                .split('\n')
                .map(str::to_owned)
                .collect();
            match rng.u8(..10) {
                0 => {
                    let mut header: Vec<String> = lines[0].split(',').map(str::to_owned).collect();
                    let k = rng.usize(..header.len());
                    header[k] = any_value(&mut rng).to_string();
                    lines[0] = header.join(",");
                }
                1 => {
                    let mut space: Json = serde_json::from_str(&lines[1]).unwrap();
                    mutate(&mut space, &mut rng);
                    lines[1] = space.to_string();
                }
                _ => {
                    let mut drawing: Json = serde_json::from_str(&lines[3]).unwrap();
                    for _ in 0..rng.usize(1..4) {
                        mutate(&mut drawing, &mut rng);
                    }
                    lines[3] = drawing.to_string();
                }
            }
            let record = drawings::to_fpuzzles(&lines.join("\n")).map(|f| fpuzzles::record_of(&f));
            match record {
                Ok(Ok(_)) => read += 1,
                _ => refused += 1,
            }
        }
        assert!(read > 200 && refused > 200, "{read} {refused}");
    }

    #[test]
    fn abbreviations_undo_in_reverse_and_keep_a_literal_z() {
        let text = r#"{"number":{"1":["z9",1,"1"]},"thermo":[null]}"#;
        let mut short = text.to_owned();
        for (long, s) in ABBREVIATIONS {
            short = short.replace(long, s);
        }
        assert!(
            !short.contains("thermo") && short.contains("zZ9"),
            "{short}"
        );
        let payload = base64::engine::general_purpose::STANDARD
            .encode(miniz_oxide::deflate::compress_to_vec(short.as_bytes(), 6));
        assert_eq!(save_text(&payload).unwrap(), text);
        // Without its padding, as links are often shared.
        assert_eq!(save_text(payload.trim_end_matches('=')).unwrap(), text);
        let e = save_text("not base64 at all!").unwrap_err().to_string();
        assert!(e.contains("base64"), "{e}");
    }
}
