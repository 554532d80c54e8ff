//! Typed library errors.
//!
//! Every error a user can cause names where it happened: the section of the puzzle file, and the line and
//! column inside that section's text when there is one. The binary prefixes the file name and prints the error
//! once; nothing in the library prints.

use std::path::PathBuf;
use thiserror::Error;

/// A position inside a section's text, 1-based, counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Error)]
pub enum Error {
    /// Bad input inside a section of a puzzle file, or in an argument that plays the part of one.
    #[error("{section}: {}{message}", position.map(|p| format!("line {}, column {}: ", p.line, p.column)).unwrap_or_default())]
    Input {
        section: String,
        position: Option<Position>,
        message: String,
    },

    /// The YAML itself does not parse.
    #[error("not a valid puzzle file: {0}")]
    Yaml(String),

    /// A grammar file is malformed or refers to something that does not exist.
    #[error("grammar {grammar}: {message}")]
    Grammar { grammar: String, message: String },

    /// The type named in a puzzle file has no grammar.
    #[error("type: unknown puzzle type {name:?} (known: {known})")]
    UnknownType { name: String, known: String },

    /// A puzzle built in code is inconsistent (a cell off the grid, a value out of range, ...).
    #[error("invalid puzzle: {0}")]
    Model(String),

    /// The solver failed in a way that is not an answer (not infeasible, not a time-out).
    #[error("solver failure: {0}")]
    Solver(String),

    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    /// Any of the above, found while reading the named file.
    #[error("{file}: {error}")]
    InFile { file: String, error: Box<Error> },
}

impl Error {
    /// An input error at a position in a section.
    pub fn at(section: impl Into<String>, position: Position, message: impl Into<String>) -> Self {
        Error::Input {
            section: section.into(),
            position: Some(position),
            message: message.into(),
        }
    }

    /// An input error about a section as a whole.
    pub fn section(section: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Input {
            section: section.into(),
            position: None,
            message: message.into(),
        }
    }

    /// Wraps the error with the file it came from.
    pub fn in_file(self, file: impl Into<String>) -> Self {
        Error::InFile {
            file: file.into(),
            error: Box::new(self),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_name_section_line_and_column() {
        let e = Error::at(
            "hints.E",
            Position { line: 1, column: 2 },
            "\"2x0\" is not a positive integer",
        )
        .in_file("bad.yaml");
        assert_eq!(
            e.to_string(),
            "bad.yaml: hints.E: line 1, column 2: \"2x0\" is not a positive integer"
        );
        assert_eq!(
            Error::section("rooms", "missing").to_string(),
            "rooms: missing"
        );
    }
}
