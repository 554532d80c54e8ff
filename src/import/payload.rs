//! The compressed payload of a link (f-puzzles, SudokuPad): lz-string's base64, perhaps percent-encoded, perhaps
//! with a `//` of it collapsed to `/` by whatever passed the link on, unpacked within bounds for hostile input.

use super::{bad, Format};
use crate::error::Error;

/// The longest compressed payload read. lz-string can expand a hostile payload quadratically; real links are a
/// few kilobytes.
pub(super) const MAX_PAYLOAD: usize = 32 << 10;

/// A payload a writer made, refused when it is longer than [`unpack`] reads, so that every link latin writes
/// reads back (a filled 255x255 grid's f-puzzles payload is 168 KB).
pub(super) fn within_reach(payload: String, format: Format, most: usize) -> Result<String, Error> {
    if payload.len() > most {
        return Err(bad(
            format,
            format!(
                "the link's payload would be {} bytes, and links are read up to {most}: keep a puzzle this large \
                 as a YAML file or a corpus record",
                payload.len()
            ),
        ));
    }
    Ok(payload)
}

/// The longest text a payload may unpack to, in UTF-16 units (a busy puzzle's is some tens of thousands).
const MAX_UNPACKED: usize = 1 << 20;

/// The most single slashes tried doubled, and the most tries: SudokuPad's own repair (`fixFPuzzleSlashes`) stops
/// at the same.
const MAX_SLASHES: usize = 16;
const MAX_REPAIRS: usize = 400;

/// The text of a payload that `reads` accepts. Chat programs and some sites collapse `//` in a link's path to
/// `/`, which leaves base64 that unpacks to garbage or not at all; when the payload as given does not read, each
/// single `/` is tried doubled (then two of them, then three), fewest first, as SudokuPad repairs such links.
/// Without a repair, the payload's own text or error is returned, so the caller says what is wrong with it.
pub(super) fn unpack(
    payload: &str,
    format: Format,
    reads: impl Fn(&str) -> bool,
) -> Result<String, Error> {
    if payload.len() > MAX_PAYLOAD {
        return Err(bad(
            format,
            format!(
                "a payload of {} bytes; links are read up to {MAX_PAYLOAD}",
                payload.len()
            ),
        ));
    }
    let payload = percent_decoded(payload);
    let first = unpacked(&payload, format);
    if first.as_deref().is_ok_and(&reads) {
        return first;
    }
    let slashes: Vec<usize> = payload
        .match_indices('/')
        .map(|(i, _)| i)
        .filter(|&i| !payload[..i].ends_with('/') && !payload[i + 1..].starts_with('/'))
        .take(MAX_SLASHES)
        .collect();
    let mut tries = 0;
    for size in 1..=3.min(slashes.len()) {
        for chosen in combinations(slashes.len(), size) {
            tries += 1;
            if tries > MAX_REPAIRS {
                return first;
            }
            let mut repaired = payload.clone();
            for &k in chosen.iter().rev() {
                repaired.insert(slashes[k], '/');
            }
            if let Ok(text) = unpacked(&repaired, format) {
                if reads(&text) {
                    return Ok(text);
                }
            }
        }
    }
    first
}

fn unpacked(payload: &str, format: Format) -> Result<String, Error> {
    let wide = lz_str::decompress_from_base64(payload)
        .ok_or_else(|| bad(format, "the link's payload is not lz-string base64"))?;
    if wide.len() > MAX_UNPACKED {
        return Err(bad(
            format,
            format!(
                "the link unpacks to {} characters; latin reads puzzles up to {MAX_UNPACKED}",
                wide.len()
            ),
        ));
    }
    String::from_utf16(&wide).map_err(|_| bad(format, "the link's payload is not text"))
}

/// Every choice of `size` of `n` indices, in order.
fn combinations(n: usize, size: usize) -> Vec<Vec<usize>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for mut rest in combinations(n - first - 1, size - 1) {
            rest.iter_mut().for_each(|k| *k += first + 1);
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// `%2B` and friends, as a link copied from an address bar may have them; a space is a `+` that was read as one.
pub(super) fn percent_decoded(s: &str) -> String {
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (b[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b' ', _) => {
                out.push(b'+');
                i += 1;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_every_choice_once() {
        assert_eq!(combinations(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(combinations(16, 3).len(), 560);
    }

    /// A payload whose `//` was collapsed still reads, as the text it was made from, and one percent-encoded
    /// too; a payload that no repair mends keeps its own error.
    #[test]
    fn collapsed_slashes_are_mended() {
        let is_json = |t: &str| serde_json::from_str::<serde_json::Value>(t).is_ok();
        // Titles of varied letters are tried until the compressed text holds a `//` (about one in 200).
        let (text, payload) = (0..20_000u64)
            .map(|k| {
                let mut x = k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let title: String = (0..60)
                    .filter_map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        char::from_u32(0x100 + (x % 0x7000) as u32)
                    })
                    .collect();
                let text = format!(r#"{{"size":4,"title":"{title}","grid":[]}}"#);
                let payload = lz_str::compress_to_base64(text.as_str());
                (text, payload)
            })
            .find(|(_, p)| p.contains("//"))
            .expect("some title makes a payload with //");
        let collapsed = payload.replacen("//", "/", 1);
        assert_eq!(unpack(&collapsed, Format::Fpuzzles, is_json).unwrap(), text);
        let encoded = collapsed.replace('+', "%2B");
        assert_eq!(unpack(&encoded, Format::Fpuzzles, is_json).unwrap(), text);
        assert!(!unpack("@@@@", Format::Fpuzzles, is_json).is_ok_and(|t| is_json(&t)));
    }
}
