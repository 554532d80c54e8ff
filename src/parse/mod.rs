//! Parsers for the mini-languages inside puzzle files, written with `nom`.
//!
//! A section of a puzzle file is either a block of text (one line per grid row) or a YAML list (one item per
//! line); both become [`SectionText`], so every parser reports positions the same way: the line inside the
//! section and the column inside that line, counted in characters. The parsers know nothing of puzzle types:
//! they turn text into cells, values, ids and clues, and the model decides what those mean.

pub(crate) mod cells;
pub(crate) mod clues;
pub(crate) mod grid;
pub(crate) mod lines;
pub(crate) mod table;

use crate::error::{Error, Position};
use crate::yaml::{self, Value};

/// The lines of one section, as written.
#[derive(Clone, Debug)]
pub(crate) struct SectionText {
    pub(crate) name: String,
    pub(crate) lines: Vec<String>,
}

impl SectionText {
    /// Reads a section that may be written as a text block or a list of strings.
    pub(crate) fn from_value(name: &str, value: &Value) -> Result<Self, Error> {
        let lines = match value {
            Value::Sequence(items) => items
                .iter()
                .map(|item| match item {
                    // A YAML list of lists: one inner list per grid row, written with spaces.
                    Value::Sequence(cells) => cells
                        .iter()
                        .map(|c| yaml::scalar_text(c).ok_or_else(|| not_text(name)))
                        .collect::<Result<Vec<_>, _>>()
                        .map(|cells| cells.join(" ")),
                    other => yaml::scalar_text(other).ok_or_else(|| not_text(name)),
                })
                .collect::<Result<Vec<_>, _>>()?,
            // A section written with nothing after its key (`less:`) is empty.
            Value::Null => Vec::new(),
            other => yaml::scalar_text(other)
                .ok_or_else(|| not_text(name))?
                .lines()
                .map(str::to_owned)
                .collect(),
        };
        Ok(SectionText {
            name: name.to_owned(),
            lines,
        })
    }

    /// A section of one line (used for single values such as a hint).
    pub(crate) fn single(name: &str, text: &str) -> Self {
        SectionText {
            name: name.to_owned(),
            lines: vec![text.to_owned()],
        }
    }

    /// An error at a line (0-based index) and a character column (0-based) of this section.
    pub(crate) fn error_at(&self, line: usize, column: usize, message: impl Into<String>) -> Error {
        Error::at(
            self.name.clone(),
            Position {
                line: line + 1,
                column: column + 1,
            },
            message,
        )
    }

    /// An error at the place where `rest` (a suffix of line `line`) begins.
    pub(crate) fn error_at_rest(
        &self,
        line: usize,
        rest: &str,
        message: impl Into<String>,
    ) -> Error {
        let column = self.lines.get(line).map_or(0, |l| column_of(l, rest));
        self.error_at(line, column, message)
    }

    /// The non-blank lines with their indices.
    pub(crate) fn content_lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i, l.as_str()))
    }
}

fn not_text(name: &str) -> Error {
    Error::section(name, "expected text or a list of text lines")
}

/// The character column at which `rest`, a slice of `line` (a suffix, or a piece in the middle such as the
/// cells before a line's `= N`), begins. Found from where `rest` lies in memory, so a piece that is not a
/// suffix still gets its own column; anything else falls back to counting from the end, and a byte offset
/// inside a character never panics.
pub(crate) fn column_of(line: &str, rest: &str) -> usize {
    let (start, at) = (line.as_ptr() as usize, rest.as_ptr() as usize);
    let consumed = if (start..=start + line.len()).contains(&at) {
        at - start
    } else {
        line.len().saturating_sub(rest.len())
    };
    let mut boundary = consumed.min(line.len());
    while !line.is_char_boundary(boundary) {
        boundary -= 1;
    }
    line[..boundary].chars().count()
}

#[cfg(test)]
mod tests {
    use super::column_of;

    #[test]
    fn columns_of_pieces_in_the_middle_of_a_line() {
        let line = "r3é1..r9c7 = 34";
        let cells = line.split_once('=').unwrap().0;
        assert_eq!(column_of(line, &cells[2..]), 2);
        assert_eq!(column_of(line, &line[11..]), 10);
        // A piece from elsewhere whose length would end inside a character does not panic.
        let elsewhere = String::from("xxxxxxxxxxxxx");
        assert!(column_of(line, &elsewhere) <= line.chars().count());
    }
}
