//! SudokuPad's zipped puzzle JSON, read as SudokuPad's `PuzzleZipper.unzip` reads it.
//!
//! SudokuPad shortens the puzzle's JSON before compressing it: keys go unquoted and most are abbreviated (`ce`
//! for `cells`, `wp` for `wayPoints`, ...), strings take single quotes, `true`/`false` become `t`/`f`, colours
//! lose their `#` (`#000000` and `#FFFFFF` become `#0` and `#F`), and an empty object in a list is left out
//! (`[,,]` is three `{}`; `[]` is one). No JSON reader takes that, and SudokuPad's own reader is a chain of
//! regular expressions; this is a small recursive reader of the same language, with a depth limit for hostile
//! input.

use serde_json::{Map, Number, Value as Json};

/// SudokuPad's abbreviations, long name first (its `PuzzleZipper.propMap`).
const ABBREVIATIONS: [(&str, &str); 25] = [
    ("color", "c"),
    ("cages", "ca"),
    ("center", "ct"),
    ("borderColor", "c1"),
    ("backgroundColor", "c2"),
    ("cells", "ce"),
    ("cellSize", "cs"),
    ("arrows", "a"),
    ("overlays", "o"),
    ("underlays", "u"),
    ("width", "w"),
    ("height", "h"),
    ("value", "v"),
    ("videos", "vd"),
    ("lines", "l"),
    ("rounded", "r"),
    ("regions", "re"),
    ("fontSize", "fs"),
    ("thickness", "th"),
    ("headLength", "hl"),
    ("wayPoints", "wp"),
    ("title", "t"),
    ("text", "te"),
    ("duration", "d"),
    ("d", "d2"),
];

/// Deeper than any puzzle nests (a cage's cell is at depth 4).
const MAX_DEPTH: usize = 32;

/// The zipped text as JSON, its keys written out; `Err` says where it stops making sense.
pub(super) fn unzip(text: &str) -> Result<Json, String> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.blank();
    if reader.at < reader.text.len() {
        return Err(reader.unexpected());
    }
    Ok(value)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn blank(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn unexpected(&self) -> String {
        match self.peek() {
            Some(b) => format!("unexpected {:?} at byte {}", b as char, self.at),
            None => "the text ends too soon".into(),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH}"));
        }
        self.blank();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.list(depth),
            Some(q @ (b'"' | b'\'')) => Ok(colour_or_text(self.string(q)?)),
            Some(_) => self.bare(),
            None => Err(self.unexpected()),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.blank();
            match self.peek() {
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(map));
                }
                Some(q @ (b'"' | b'\'')) => {
                    let key = self.string(q)?;
                    self.entry(&mut map, key, depth)?;
                }
                Some(b) if b.is_ascii_alphanumeric() => {
                    let key = self.token().to_owned();
                    self.entry(&mut map, key, depth)?;
                }
                _ => return Err(self.unexpected()),
            }
            self.blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {}
                _ => return Err(self.unexpected()),
            }
        }
    }

    fn entry(
        &mut self,
        map: &mut Map<String, Json>,
        key: String,
        depth: usize,
    ) -> Result<(), String> {
        self.blank();
        if self.peek() != Some(b':') {
            return Err(self.unexpected());
        }
        self.at += 1;
        let long = ABBREVIATIONS
            .iter()
            .find(|(_, short)| *short == key)
            .map_or(key, |(long, _)| (*long).to_owned());
        let value = self.value(depth + 1)?;
        map.insert(long, value);
        Ok(())
    }

    /// A list whose empty places are empty objects, as SudokuPad's zipper leaves them out.
    fn list(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.blank();
            match self.peek() {
                Some(b',' | b']') => items.push(Json::Object(Map::new())),
                _ => items.push(self.value(depth + 1)?),
            }
            self.blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// A quoted string, either quote, with JSON's escapes (and `\'`).
    fn string(&mut self, quote: u8) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        while let Some(b) = self.peek() {
            self.at += 1;
            match b {
                b if b == quote => {
                    return String::from_utf8(out).map_err(|_| "a string is not UTF-8".into())
                }
                b'\\' => {
                    let escaped = self.peek().ok_or_else(|| self.unexpected())?;
                    self.at += 1;
                    match escaped {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'u' => {
                            let hex = self
                                .text
                                .get(self.at..self.at + 4)
                                .ok_or("a \\u escape ends too soon")?;
                            let code = std::str::from_utf8(hex)
                                .ok()
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or("a \\u escape is not hexadecimal")?;
                            let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                            self.at += 4;
                        }
                        other => out.push(other),
                    }
                }
                b => out.push(b),
            }
        }
        Err("a string is not closed".into())
    }

    fn token(&mut self) -> &str {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| !matches!(b, b',' | b'}' | b']' | b':') && !b.is_ascii_whitespace())
        {
            self.at += 1;
        }
        std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default()
    }

    /// An unquoted value: `t`/`f`, a colour without its `#` (`#0`, `#F`, six hex digits, as SudokuPad reads even
    /// a number of six digits), or a number.
    fn bare(&mut self) -> Result<Json, String> {
        let at = self.at;
        let token = self.token().to_owned();
        Ok(match token.as_str() {
            "t" | "true" => Json::Bool(true),
            "f" | "false" => Json::Bool(false),
            "null" => Json::Null,
            "#0" => Json::String("#000000".into()),
            "#F" => Json::String("#FFFFFF".into()),
            t if is_colour(t) => Json::String(format!("#{t}")),
            t => t
                .parse::<f64>()
                .ok()
                .and_then(|x| {
                    t.parse::<i64>()
                        .map(Number::from)
                        .ok()
                        .or_else(|| Number::from_f64(x))
                })
                .map(Json::Number)
                .ok_or_else(|| format!("{t:?} at byte {at} is not a value"))?,
        })
    }
}

fn is_colour(t: &str) -> bool {
    t.len() == 6 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

/// SudokuPad reads a string of six hex digits as a colour too.
fn colour_or_text(s: String) -> Json {
    if is_colour(&s) {
        Json::String(format!("#{s}"))
    } else {
        Json::String(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The forms SudokuPad's zipper writes, each read back as the JSON it came from.
    #[test]
    fn the_zipped_forms_read_back_as_json() {
        let zipped = "{id:'fpuzzle1',cs:50,ce:[[{v:1},,],[,,]],re:[[[0,0],[0,1]]],\
                      ca:[{ce:[[0,0],[0,1]],v:'3',unique:t,sum:3},{v:'title: It\\'s \"x\"'}],\
                      l:[{c:'#34BBE6',th:2,wp:[[0,0],[2,2]]}],u:[{c1:CFCFCF,c2:#F,r:f,w:0.85}],a:[]}";
        let json = unzip(zipped).unwrap();
        assert_eq!(json["cellSize"], json!(50));
        assert_eq!(json["cells"], json!([[{"value": 1}, {}, {}], [{}, {}, {}]]));
        assert_eq!(json["regions"], json!([[[0, 0], [0, 1]]]));
        assert_eq!(
            json["cages"][0],
            json!({"cells": [[0, 0], [0, 1]], "value": "3", "unique": true, "sum": 3})
        );
        assert_eq!(json["cages"][1]["value"], json!("title: It's \"x\""));
        assert_eq!(json["lines"][0]["wayPoints"], json!([[0, 0], [2, 2]]));
        assert_eq!(
            json["underlays"][0],
            json!({"borderColor": "#CFCFCF", "backgroundColor": "#FFFFFF", "rounded": false, "width": 0.85})
        );
        // `[]` is one empty object, as SudokuPad's own reader makes it.
        assert_eq!(json["arrows"], json!([{}]));
    }

    #[test]
    fn broken_or_hostile_text_is_an_error() {
        for text in [
            "{cs:50", "{cs 50}", "{cs:'x}", "{cs:5x0}", "[1,2", "{cs:50}}", "",
        ] {
            assert!(unzip(text).is_err(), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(unzip(&deep).unwrap_err().contains("deeper"));
    }
}
