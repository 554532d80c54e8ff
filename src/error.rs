//! Typed errors, from the rule up.
//!
//! A rule that a grid breaks is a [`Violation`]; a puzzle built inconsistently (a cell off the grid, givens that
//! break a rule) is a [`ModelError`], which may carry the violation; everything the library reports is an
//! [`Error`]. Each layer keeps the one below as a value, so nothing parses a message back, and the binary chooses
//! its exit code from the kind ([`Error::exit_code`]) and prints each error once. Every error a user can cause
//! names where it happened: the section of the puzzle file, and the line and column inside that section's text
//! when there is one. Nothing in the library prints.

use std::path::PathBuf;

use thiserror::Error;

use crate::grid::Cell;

/// A position inside a section's text, 1-based, counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// How a grid (complete, or partly filled) breaks a rule, checked in exact integer arithmetic. `rule` is what a
/// person calls the rule (`row 3`, `hints.A`); `values`, where a variant has them, are the values its cells hold,
/// in the rule's order.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Violation {
    /// An all-different group holds `value` twice or more: `cells` are the cells that hold it (named, not the
    /// group's values, which on a 100x100 row were a hundred numbers around the two that matter).
    #[error("{rule} repeats {value} (at {})", cells.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))]
    Repeats {
        rule: String,
        value: u32,
        cells: Vec<Cell>,
    },
    #[error("{rule} repeats a value ({values:?})")]
    RepeatsAValue { rule: String, values: Vec<u32> },
    #[error("{cell} must be {name} but holds {value}")]
    NotAllowed {
        cell: Cell,
        name: String,
        value: u32,
    },
    #[error("{rule} multiplies to {} ({values:?})", got.map_or_else(|| "more than 2^64".to_owned(), |g| g.to_string()))]
    Product {
        rule: String,
        /// The product, `None` when it overflows 64 bits.
        got: Option<u64>,
        values: Vec<u32>,
    },
    #[error("{rule} adds up to {got} ({values:?})")]
    Sum {
        rule: String,
        got: u64,
        values: Vec<u32>,
    },
    #[error("{rule} is violated: {a} = {a_value}, {b} = {b_value}")]
    Relation {
        rule: String,
        a: Cell,
        a_value: u32,
        b: Cell,
        b_value: u32,
    },
    #[error("{rule} does not hold for {values:?}")]
    Table { rule: String, values: Vec<u32> },
    #[error("{rule}: {got} are seen along {values:?}")]
    Seen {
        rule: String,
        got: u64,
        values: Vec<u32>,
    },
    #[error("{rule}: {why} ({values:?})")]
    Classes {
        rule: String,
        why: String,
        values: Vec<u32>,
    },
    #[error("{rule} lacks {value}{} ({values:?})", if *times > 1 { format!(", listed {times} times") } else { String::new() })]
    Lacks {
        rule: String,
        value: u32,
        /// How often the value is listed.
        times: usize,
        values: Vec<u32>,
    },
    #[error("{rule}: {values:?} are not distinct consecutive values")]
    NotARun { rule: String, values: Vec<u32> },
    #[error("{rule}: {} ({values:?})", got.map_or_else(|| "the line lacks its smallest or largest value".to_owned(), |g| format!("{g} lies between the smallest and the largest value")))]
    Sandwich {
        rule: String,
        /// The sum between, `None` when the line lacks 1 or n.
        got: Option<u64>,
        values: Vec<u32>,
    },
    #[error("{cell} holds {value}, outside 1..{size}")]
    OutOfRange { cell: Cell, value: u32, size: usize },
    #[error("{cell} is given as {given} but holds {value}")]
    GivenChanged { cell: Cell, given: u32, value: u32 },
    #[error("the grid is {grid}x{grid}, the puzzle {puzzle}x{puzzle}")]
    WrongSize { grid: usize, puzzle: usize },
}

/// A puzzle that is inconsistent as built: in code, or from a file whose sections parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ModelError {
    #[error("size {0} is out of range 1..255")]
    SizeOutOfRange(usize),
    #[error("{cell} is off the {size}x{size} grid")]
    OffGrid { cell: Cell, size: usize },
    #[error("value {value} at {cell} is out of range 1..{size}")]
    ValueOutOfRange { cell: Cell, value: u32, size: usize },
    /// The givens already break a rule.
    #[error(transparent)]
    Breaks(#[from] Violation),
    #[error("no box shape tiles a {0}x{0} grid")]
    NoBoxShape(usize),
    #[error("boxes of {height}x{width} do not tile a {size}x{size} grid")]
    BoxesDoNotTile {
        height: usize,
        width: usize,
        size: usize,
    },
    /// `suggestion`: `, did you mean diagonals?` when a known rule is close, else empty.
    #[error(
        "unknown rule {name:?}{suggestion} (known: {known}){}",
        indentation_hint(name)
    )]
    UnknownRule {
        name: String,
        suggestion: String,
        known: String,
    },
    #[error("`{rule}` needs a {need}x{need} grid, this one is {size}x{size}")]
    NeedsSize {
        rule: String,
        need: usize,
        size: usize,
    },
    #[error("the solution is {solution}x{solution}, the puzzle {puzzle}x{puzzle}")]
    SolutionSize { solution: usize, puzzle: usize },
}

#[derive(Clone, Debug, Error)]
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

    /// The type named in a puzzle file has no grammar. `unloaded`: the grammar files that failed to load, one
    /// of which the author may have meant to declare it (empty, or `; ...` naming each with its error).
    #[error("type: unknown puzzle type {name:?}{suggestion} (known: {known}; or several joined by +, killer+thermo){unloaded}")]
    UnknownType {
        name: String,
        /// `, did you mean killer?` when a known type is close (in case, as a part of the name, or by a slip of
        /// spelling), else empty.
        suggestion: String,
        known: String,
        unloaded: String,
    },

    /// A puzzle built in code is inconsistent (a cell off the grid, a value out of range, ...).
    #[error("invalid puzzle: {0}")]
    Model(#[from] ModelError),

    /// The program a backend would need is estimated above the memory limit: refused before that memory is
    /// spent (from the grid's size before anything is built, then from the rows and clauses as they are written,
    /// when the estimate so far is already over).
    #[error("this puzzle needs about {needed_mb} MB or more for its backend, more than the memory limit of {limit_mb} MB (--memory-limit)")]
    TooLarge { needed_mb: u64, limit_mb: u64 },

    /// The solver failed in a way that is not an answer (not infeasible, not a time-out).
    #[error("solver failure: {0}")]
    Solver(String),

    /// `--time-limit` passed before a command that needs a whole answer (a grade, a new puzzle) had one: not the
    /// input's fault, and not an answer, so exit 3 as a solve that times out.
    #[error("--time-limit: reached before {0}")]
    TimeLimit(&'static str),

    /// A picture could not be drawn (rasterising the SVG failed); not the input's fault.
    #[error("could not draw the picture: {0}")]
    Picture(String),

    /// Reading or writing a file failed. The cause is part of the message, and deliberately not a `source`, so
    /// that a printer that walks the chain does not print it twice.
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },

    /// The reader of standard output went away (`latin ... | head -1`): not a failure to report, only a reason
    /// to stop.
    #[error("standard output was closed")]
    OutputClosed,

    /// Any of the above, found while reading the named file.
    #[error("{file}: {error}")]
    InFile { file: String, error: Box<Error> },
}

/// When an unknown rule name holds ` - `, YAML most likely read two list items as one because the second was
/// indented further (`- latin\n   - boxes` is the text `latin - boxes`): say so.
pub(crate) fn indentation_hint(name: &str) -> &'static str {
    if name.contains(" - ") {
        "; it looks like two list items read as one: give every `- ` of the list the same indentation"
    } else {
        ""
    }
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

    /// An I/O error on a path; a broken pipe is [`Error::OutputClosed`].
    pub fn io(path: impl Into<PathBuf>, source: &std::io::Error) -> Self {
        if source.kind() == std::io::ErrorKind::BrokenPipe {
            return Error::OutputClosed;
        }
        Error::Io {
            path: path.into(),
            message: io_message(source),
        }
    }

    /// Wraps the error with the file it came from.
    pub fn in_file(self, file: impl Into<String>) -> Self {
        Error::InFile {
            file: file.into(),
            error: Box::new(self),
        }
    }

    /// An error found in the sections latin made of a puzzle pasted in another form (an f-puzzles link, a Tatham
    /// ID, ...): the section is latin's, and a column would point into text the user never wrote, so the error
    /// says where the section came from and keeps only the entry's number.
    pub(crate) fn in_pasted_form(self, form: &str) -> Self {
        match self {
            Error::Input {
                section,
                position,
                message,
            } => Error::Input {
                section: format!("{section} (latin's reading of the {form} form)"),
                position: None,
                message: match position {
                    Some(p) => format!("entry {}: {message}", p.line),
                    None => message,
                },
            },
            other => other,
        }
    }

    /// Whether the time limit, not the input or the solver, ended the work.
    fn timed_out(&self) -> bool {
        match self {
            Error::TimeLimit(_) => true,
            Error::InFile { error, .. } => error.timed_out(),
            _ => false,
        }
    }

    /// Whether the user's input (a file, an argument) is at fault, rather than the solver.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Error::Solver(_) | Error::Picture(_) | Error::TimeLimit(_) => false,
            Error::InFile { error, .. } => error.is_bad_input(),
            _ => true,
        }
    }

    /// The exit code of the command line for this error: 2 for bad input, 1 for a solver failure, 3 for the time
    /// limit (as a solve that reaches it), and 141 for a closed output, as a command killed by SIGPIPE would end.
    pub fn exit_code(&self) -> u8 {
        if matches!(self, Error::OutputClosed) {
            141
        } else if self.timed_out() {
            3
        } else if self.is_bad_input() {
            2
        } else {
            1
        }
    }
}

/// An I/O error's own words, without the `(os error N)` suffix that repeats them for a person.
fn io_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

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

    #[test]
    fn io_errors_say_their_cause_once() {
        let source = std::fs::read("/nonexistent/x.yaml").unwrap_err();
        let e = Error::io("x.yaml", &source);
        assert_eq!(e.to_string(), "x.yaml: No such file or directory");
        assert!(std::error::Error::source(&e).is_none());
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn exit_codes_follow_the_kind_through_the_file_wrapper() {
        let bad = Error::Model(ModelError::NoBoxShape(7)).in_file("a.yaml");
        assert_eq!(bad.exit_code(), 2);
        assert_eq!(Error::Solver("x".into()).in_file("a.yaml").exit_code(), 1);
        let late = Error::TimeLimit("a grade was found").in_file("a.yaml");
        assert_eq!(late.exit_code(), 3);
        assert_eq!(
            late.to_string(),
            "a.yaml: --time-limit: reached before a grade was found"
        );
    }

    #[test]
    fn violations_read_as_before() {
        let v = Violation::Product {
            rule: "hints.A".into(),
            got: None,
            values: vec![9, 9],
        };
        assert_eq!(
            v.to_string(),
            "hints.A multiplies to more than 2^64 ([9, 9])"
        );
        let m = ModelError::from(Violation::Repeats {
            rule: "row 1".into(),
            value: 5,
            cells: vec![Cell::new(0, 2), Cell::new(0, 7)],
        });
        assert_eq!(m.to_string(), "row 1 repeats 5 (at r1c3, r1c8)");
    }
}
