//! Reading a file of one puzzle a line, whatever it holds.
//!
//! `BufRead::lines` grows a line without bound (`/dev/zero` is one endless line) and ends the whole read at the
//! first byte that is not UTF-8. Here a line is reported as too long as soon as it passes [`MAX_LINE_BYTES`]
//! (the rest of it is skipped when the next line is read), a line that is not UTF-8 is reported as such, and
//! the run goes on with the next line either way. Lines may end in `\n`, `\r\n` or a lone `\r`; a byte-order mark before the first line is
//! skipped.

use std::io::{BufRead, ErrorKind};

/// The longest line kept: a 255x255 grid is 65,025 characters; four times that leaves room for any padding.
pub(crate) const MAX_LINE_BYTES: usize = 4 * 255 * 255;

/// Whether a line holds a puzzle: blank lines and `#` comments do not (in a `--lines` file, a bench file of
/// puzzles one a line, or a text judged to be many puzzles).
pub(crate) fn is_puzzle_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The first puzzle line of a text that has another after it: what makes a text many puzzles, one a line.
pub(crate) fn first_of_several(text: &str) -> Option<&str> {
    let mut lines = text.lines().filter(|l| is_puzzle_line(l));
    let first = lines.next()?;
    lines.next().map(|_| first)
}

/// One line as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RawLine {
    Text(String),
    /// Longer than [`MAX_LINE_BYTES`].
    TooLong,
    /// Not UTF-8; holds the 1-based byte where it stops being so.
    NotUtf8(usize),
}

impl RawLine {
    /// Why a line that is not text cannot be a puzzle.
    pub(crate) fn problem(&self) -> Option<String> {
        match self {
            RawLine::Text(_) => None,
            RawLine::TooLong => Some(format!(
                "the line is longer than {MAX_LINE_BYTES} bytes, more than the largest grid needs"
            )),
            RawLine::NotUtf8(at) => Some(format!("not UTF-8 text (byte {at} is not)")),
        }
    }
}

/// The lines of an input, numbered from 1.
pub(crate) struct LineReader<R> {
    input: R,
    number: usize,
    /// The last line ended in `\r`: a `\n` right after it belongs to that ending.
    after_cr: bool,
    /// The last line was too long and its rest is still to be skipped.
    skipping: bool,
}

impl<R: BufRead> LineReader<R> {
    pub(crate) fn new(input: R) -> Self {
        LineReader {
            input,
            number: 0,
            after_cr: false,
            skipping: false,
        }
    }

    /// Reads up to the next line ending, or until the line passes [`MAX_LINE_BYTES`] (`Some((bytes, true))`);
    /// `None` at the end of the input.
    fn read_raw(&mut self) -> std::io::Result<Option<(Vec<u8>, bool)>> {
        let mut kept = Vec::new();
        let mut any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.skipping = false;
                return Ok(any.then_some((kept, false)));
            }
            if std::mem::take(&mut self.after_cr) && available[0] == b'\n' {
                self.input.consume(1);
                continue;
            }
            let end = available.iter().position(|&b| b == b'\n' || b == b'\r');
            let part = &available[..end.unwrap_or(available.len())];
            let used = part.len();
            if !self.skipping {
                any = true;
                if kept.len() + part.len() > MAX_LINE_BYTES {
                    // Report now; the rest of this line is skipped by the next read.
                    self.skipping = true;
                    self.input.consume(used);
                    return Ok(Some((Vec::new(), true)));
                }
                kept.extend_from_slice(part);
            }
            match end {
                Some(i) => {
                    self.after_cr = available[i] == b'\r';
                    self.input.consume(used + 1);
                    if std::mem::take(&mut self.skipping) {
                        continue;
                    }
                    return Ok(Some((kept, false)));
                }
                None => self.input.consume(used),
            }
        }
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = std::io::Result<(usize, RawLine)>;

    fn next(&mut self) -> Option<Self::Item> {
        let (bytes, too_long) = match self.read_raw() {
            Ok(Some(line)) => line,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        self.number += 1;
        let line = if too_long {
            RawLine::TooLong
        } else {
            match String::from_utf8(bytes) {
                Ok(mut text) => {
                    if self.number == 1 && text.starts_with('\u{feff}') {
                        text.drain(..'\u{feff}'.len_utf8());
                    }
                    RawLine::Text(text)
                }
                Err(e) => RawLine::NotUtf8(e.utf8_error().valid_up_to() + 1),
            }
        };
        Some(Ok((self.number, line)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Vec<(usize, RawLine)> {
        LineReader::new(bytes).map(Result::unwrap).collect()
    }

    fn text(s: &str) -> RawLine {
        RawLine::Text(s.into())
    }

    #[test]
    fn every_line_ending_and_a_bom() {
        let got = read(b"\xef\xbb\xbfab\ncd\r\nef\rgh");
        assert_eq!(
            got,
            vec![
                (1, text("ab")),
                (2, text("cd")),
                (3, text("ef")),
                (4, text("gh"))
            ]
        );
        assert_eq!(
            read(b"a\n\nb\n"),
            vec![(1, text("a")), (2, text("")), (3, text("b"))]
        );
        assert!(read(b"").is_empty());
    }

    #[test]
    fn bad_bytes_and_long_lines_are_reported_and_skipped() {
        let mut input = b"12\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'0', MAX_LINE_BYTES + 5));
        input.extend(b"\n34\n");
        let got = read(&input);
        assert_eq!(got[0], (1, text("12")));
        assert_eq!(got[1], (2, RawLine::NotUtf8(1)));
        assert_eq!(got[2], (3, RawLine::TooLong));
        assert_eq!(got[3], (4, text("34")));
        assert!(got[2].1.problem().unwrap().contains("more than"));
    }

    #[test]
    fn an_endless_line_is_cut_not_kept() {
        use std::io::Read as _;
        // A reader that never ends a line: what `/dev/zero` is. Only MAX_LINE_BYTES are ever kept.
        let zeros = std::io::repeat(0).take(3 * MAX_LINE_BYTES as u64);
        let mut lines = LineReader::new(std::io::BufReader::new(zeros));
        let (n, line) = lines.next().unwrap().unwrap();
        assert_eq!((n, line), (1, RawLine::TooLong));
        // The rest of the endless line is skipped, not reported again: the input then simply ends.
        assert!(lines.next().is_none());
    }
}
