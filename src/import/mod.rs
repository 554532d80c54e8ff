//! Puzzles as other programs and sites share them, read into and written from the corpus record
//! (`../shared/corpus/README.md`: `size`, `givens`, `boxes`, `regions` + `clues`, `less`, `sky`, ...; importers
//! add `rules`, named rules such as `anti-knight`).
//!
//! The record is the one neutral form between a foreign format and a grammar: an importer knows its format and
//! which record keys mean what, never a grammar's section names; `model::corpus` puts each record key into the
//! section of the named grammar that takes it, by kind. So a format is one file here with both directions
//! (`decode`: text -> record, `encode`: record -> text), testable on records alone. A form that names
//! constraints rather than a type (f-puzzles) reads and writes the schema's own keys, and `model::fit` maps
//! them to and from whichever grammar has those constraints.

mod coloured;
mod drawn;
pub(crate) mod fpuzzles;
mod globals;
pub(crate) mod janko;
pub(crate) mod line;
mod payload;
mod penpa;
pub(crate) mod picture;
pub(crate) mod puzzlink;
mod signs;
mod sudokupad;
pub(crate) mod tatham;

use serde_json::{json, Value as Json};

use crate::error::Error;

/// The forms a puzzle is read from and written to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// latin's own puzzle file.
    Yaml,
    /// Simon Tatham's game IDs: `solo:3x3:...`, `keen:6:...`, or the web page's link.
    Tatham,
    /// puzz.link and pzprjs URLs: `https://puzz.link/p?sudoku/9/9/...`.
    Puzzlink,
    /// f-puzzles links (and SudokuPad's `fpuzzles` links), or the f-puzzles JSON.
    Fpuzzles,
    /// SudokuPad links in its own format (`https://sudokupad.app/scl...`), or its puzzle JSON; written as the
    /// SudokuPad link of an f-puzzles payload.
    Sudokupad,
    /// One corpus record: a JSON object with `type`, `size`, `givens`, ... (a line of a corpus `.jsonl` file).
    Record,
    /// Penpa+ links (`https://swaroopg92.github.io/penpa-edit/#m=solve&p=...`): the drawings its Sudoku tools
    /// make.
    Penpa,
    /// janko.at's puzzle data, the `begin` ... `end` block of a puzzle page's `application/x-janko` script.
    Janko,
    /// A bare grid: one line of n*n characters (an 81-character Sudoku), or the grid's rows; a Sudoku of its size.
    Line,
    /// A grid drawn with a wall around every cell, as `latin show` prints it: givens, and thick walls as boxes or
    /// regions. Written from the puzzle, not the record (`convert --to picture` draws it as `show` does).
    Picture,
}

impl Format {
    /// The name used by `--from` and `--to`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Yaml => "yaml",
            Format::Tatham => "tatham",
            Format::Puzzlink => "puzzlink",
            Format::Fpuzzles => "fpuzzles",
            Format::Sudokupad => "sudokupad",
            Format::Record => "record",
            Format::Penpa => "penpa",
            Format::Janko => "janko",
            Format::Line => "line",
            Format::Picture => "picture",
        }
    }

    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 10] = [
        Format::Yaml,
        Format::Tatham,
        Format::Puzzlink,
        Format::Fpuzzles,
        Format::Sudokupad,
        Format::Penpa,
        Format::Record,
        Format::Janko,
        Format::Line,
        Format::Picture,
    ];

    /// The format named `name`.
    pub fn named(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether a text in this form is a whole puzzle on one line that names its own type (a game ID, a link, a
    /// record), so that a file of them, one a line, needs no `--type`.
    pub(crate) fn names_its_type(self) -> bool {
        matches!(
            self,
            Format::Tatham
                | Format::Puzzlink
                | Format::Fpuzzles
                | Format::Sudokupad
                | Format::Penpa
                | Format::Record
        )
    }
}

/// The foreign format a text is written in, judged by its unmistakable opening; `None` for anything else
/// (which is then read as a YAML puzzle file).
pub(crate) fn detect(text: &str) -> Option<Format> {
    let t = text.trim();
    if fpuzzles::recognises(t) {
        return Some(Format::Fpuzzles);
    }
    if sudokupad::recognises(t) {
        return Some(Format::Sudokupad);
    }
    if penpa::recognises(t) {
        return Some(Format::Penpa);
    }
    if is_record(t) {
        return Some(Format::Record);
    }
    if janko::recognises(t) {
        return Some(Format::Janko);
    }
    if line::recognises(t) {
        return Some(Format::Line);
    }
    // A picture is many lines, so a line of `--lines` never pays for looking for its frame. Untrimmed: a
    // picture's first line keeps its indent, so its walls stay in their columns.
    if t.contains('\n') {
        return picture::recognises(text).then_some(Format::Picture);
    }
    if tatham::recognises(t) {
        Some(Format::Tatham)
    } else if puzzlink::recognises(t) {
        Some(Format::Puzzlink)
    } else {
        None
    }
}

/// Whether a line is a whole puzzle that names its type (a game ID, a link, a record): what makes a file of
/// them `--lines` of such puzzles.
pub(crate) fn names_its_type(line: &str) -> bool {
    detect(line).is_some_and(Format::names_its_type)
}

/// One JSON object with a `"type"` string and a `"size"` or `"givens"`: a corpus record (keys as the corpus
/// README lists them). A YAML puzzle file written in JSON style has `givens` as text, never as a list of rows.
fn is_record(t: &str) -> bool {
    t.starts_with('{')
        && serde_json::from_str::<Json>(t)
            .is_ok_and(|r| r["type"].is_string() && (r["size"].is_u64() || r["givens"].is_array()))
}

/// A text in a foreign format as a record. An f-puzzles record has no `type` (the link names constraints, not a
/// type): `model::fit` gives it the type of the grammar that has them.
pub(crate) fn decode(text: &str, format: Format) -> Result<Json, Error> {
    let t = text.trim();
    match format {
        Format::Tatham => tatham::decode(t),
        Format::Puzzlink => puzzlink::decode(t),
        Format::Fpuzzles => fpuzzles::decode(t),
        Format::Sudokupad => sudokupad::decode(t),
        Format::Penpa => penpa::decode(t),
        Format::Janko => janko::decode(t),
        Format::Line => line::decode(t),
        Format::Picture => picture::decode(text),
        Format::Record => serde_json::from_str::<Json>(t)
            .ok()
            .filter(|r| r["type"].is_string())
            .ok_or_else(|| bad(format, "not a JSON object with a \"type\"")),
        Format::Yaml => Err(Error::section("--from", "a YAML file is not a record")),
    }
}

/// A record in a foreign format.
pub(crate) fn encode(record: &Json, format: Format) -> Result<String, Error> {
    match format {
        Format::Tatham => tatham::encode(record),
        Format::Puzzlink => puzzlink::encode(record),
        Format::Fpuzzles => fpuzzles::encode(record),
        Format::Sudokupad => sudokupad::encode(record),
        Format::Penpa => penpa::encode(record),
        Format::Janko => janko::encode(record),
        Format::Line => line::encode(record),
        Format::Picture => picture::encode(record),
        Format::Record => Ok(record.to_string()),
        Format::Yaml => Err(Error::section("--to", "a YAML file is not a record")),
    }
}

/// An import error: bad input, exit 2, naming the format.
pub(crate) fn bad(format: Format, message: impl Into<String>) -> Error {
    Error::section(format.name(), message)
}

/// What a SudokuPad writer's error says first: the link is written as the f-puzzles payload it opens, so what
/// f-puzzles cannot say, it cannot either.
pub(crate) const SUDOKUPAD_WRITTEN: &str = "written as the f-puzzles payload it opens: ";

/// An input error of one form's reader or writer told as another's (SudokuPad's links carry f-puzzles' payload):
/// named by `format`, its message after `context`. Other errors pass unchanged.
pub(crate) fn relabelled(e: Error, format: Format, context: &str) -> Error {
    match e {
        Error::Input {
            message, position, ..
        } => Error::Input {
            section: format.name().into(),
            position,
            message: format!("{context}{message}"),
        },
        other => other,
    }
}

/// The keys a puzzle file and a record share as text: its title, its setter, where it came from.
pub(crate) const ATTRIBUTION: [&str; 3] = ["title", "author", "source"];

/// Record keys that say nothing about the puzzle's rules or clues (its type and name, who set it, how many
/// solutions it has): every writer may take them; a writer's own allow-list names the rest.
pub(crate) const ABOUT: [&str; 6] = ["type", "id", "source", "title", "author", "count"];

/// The record key of x-sum clues (`{"top": [...], ...}`, as the schema's `edges` for sandwiches): the schema has
/// none, and `edges` would not say which of the two a clue is.
pub(crate) const XSUMS: &str = "xsums";

/// The record key of battlefield clues (`{"top": [...], ...}`), latin's own for the same reason as [`XSUMS`].
/// Only Penpa+ links draw them among the formats read (f-puzzles has no such constraint; its JSON here takes
/// the same key, as Penpa+'s drawing is read through it).
pub(crate) const BATTLEFIELD: &str = "battlefield";

/// The record key of Rossini arrows (`{"top": ["v", null, "^", ...], ...}`, each as a puzzle file writes it),
/// latin's own: the schema has no arrows outside the grid.
pub(crate) const ROSSINI: &str = "rossini";

/// A record key of outside clues (`{"top": [...], ...}`): every reader and writer of records finds the keys
/// here, so a new kind of outside clue is one more row.
pub(crate) struct OutsideKey {
    /// The record key.
    pub(crate) key: &'static str,
    /// The primitive an untyped record's clues under this key are read as (the schema's `edges` could also
    /// hold frame sums, but a record with no type means f-puzzles' sandwich sums there).
    pub(crate) primitive: &'static str,
    /// What a description of the record calls these clues.
    pub(crate) name: &'static str,
    /// Latin's own key, holding only `primitive`'s clues; the schema's `sky` and `edges` hold every other
    /// outside primitive's (counts under `sky`, sums and sets of values under `edges`).
    pub(crate) own: bool,
}

/// The record keys of outside clues, the schema's and latin's own.
pub(crate) const OUTSIDE_KEYS: [OutsideKey; 5] = [
    OutsideKey {
        key: "edges",
        primitive: "sandwich",
        name: "sandwich sums",
        own: false,
    },
    OutsideKey {
        key: "sky",
        primitive: "visibility",
        name: "skyscraper clues",
        own: false,
    },
    OutsideKey {
        key: XSUMS,
        primitive: "x-sum",
        name: "x-sums",
        own: true,
    },
    OutsideKey {
        key: BATTLEFIELD,
        primitive: "battlefield",
        name: "battlefield clues",
        own: true,
    },
    OutsideKey {
        key: ROSSINI,
        primitive: "frame-order",
        name: "Rossini arrows",
        own: true,
    },
];

/// The record key of latin's own that holds `primitive`'s outside clues, if it has one.
pub(crate) fn own_edge_key(primitive: &str) -> Option<&'static str> {
    OUTSIDE_KEYS
        .iter()
        .find(|o| o.own && o.primitive == primitive)
        .map(|o| o.key)
}

/// Line keys whose rule has a gap, with the primitive that says it and the gap the key alone means (as on a
/// 9x9): whispers 5 apart (the schema's), lockout ends 4 apart.
pub(crate) const GAPPED: [(&str, &str, u64); 2] =
    [("whispers", "apart", 5), ("lockouts", "lockout", 4)];

/// The record key of `key`'s lines with the gap `by`: `key` itself for its usual gap, else a key of latin's own,
/// `key-by-K` (f-puzzles' Dutch whispers, 4 apart; whispers and lockouts on a grid other than 9x9, whose gap
/// f-puzzles sets by the size).
pub(crate) fn gapped_key(key: &str, by: u64) -> String {
    match GAPPED.iter().find(|g| g.0 == key) {
        Some(&(_, _, usual)) if usual == by => key.into(),
        _ => format!("{key}-by-{by}"),
    }
}

/// Whether the record's `regions` are a layout of the grid (jigsaw regions) rather than cages: the schema gives
/// cages their `clues`.
pub(crate) fn layout_regions(record: &Json) -> bool {
    record["regions"].is_array() && !record["clues"].is_object()
}

/// An n x n grid of numbers, row by row, as a record grid.
pub(crate) fn grid(values: &[u64], n: usize) -> Json {
    Json::Array(values.chunks(n).map(|row| json!(row)).collect())
}

/// A record grid of numbers (`givens`, `solution`) flattened row by row; checks it is n x n.
pub(crate) fn numbers(v: &Json, n: usize, what: &str) -> Result<Vec<u64>, String> {
    let rows = v.as_array().filter(|r| r.len() == n);
    let rows = rows.ok_or_else(|| format!("{what} is not {n} rows"))?;
    let mut out = Vec::with_capacity(n * n);
    for row in rows {
        let row = row.as_array().filter(|r| r.len() == n);
        for x in row.ok_or_else(|| format!("{what}: a row is not {n} numbers"))? {
            out.push(
                x.as_u64()
                    .ok_or_else(|| format!("{what}: {x} is not a number"))?,
            );
        }
    }
    Ok(out)
}

/// Region ids `a`, `b`, ..., `z`, `ba`, `bb`, ... (base 26, no leading `a`), short and never a YAML keyword.
pub(crate) fn region_id(mut k: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (k % 26) as u8);
        k /= 26;
        if k == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).expect("ASCII")
}

/// Union-find over cell indices, the smallest index the root of its class (as Tatham's `dsf`, whose block
/// order is that of each block's first cell).
pub(crate) struct Classes(Vec<usize>);

impl Classes {
    pub(crate) fn new(n: usize) -> Self {
        Classes((0..n).collect())
    }

    pub(crate) fn root(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    pub(crate) fn merge(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        let (lo, hi) = (a.min(b), a.max(b));
        self.0[hi] = lo;
    }

    /// Every cell's class as a region id, ids given in order of each class's first cell; and the roots in
    /// that order.
    pub(crate) fn ids(&mut self) -> (Vec<String>, Vec<usize>) {
        let mut roots = Vec::new();
        let mut index = vec![usize::MAX; self.0.len()];
        let mut ids = Vec::with_capacity(self.0.len());
        for i in 0..self.0.len() {
            let r = self.root(i);
            if index[r] == usize::MAX {
                index[r] = roots.len();
                roots.push(r);
            }
            ids.push(region_id(index[r]));
        }
        (ids, roots)
    }
}

/// A flat list of region ids as a record's `regions` grid.
pub(crate) fn regions(ids: &[String], n: usize) -> Json {
    Json::Array(ids.chunks(n).map(|row| json!(row)).collect())
}

/// A record's `regions` flattened, checked n x n.
pub(crate) fn region_ids(v: &Json, n: usize) -> Result<Vec<String>, String> {
    let rows = v.as_array().filter(|r| r.len() == n);
    let rows = rows.ok_or_else(|| format!("regions is not {n} rows"))?;
    let mut out = Vec::with_capacity(n * n);
    for row in rows {
        let row = row.as_array().filter(|r| r.len() == n);
        for x in row.ok_or_else(|| format!("regions: a row is not {n} ids"))? {
            out.push(
                x.as_str()
                    .map(str::to_owned)
                    .ok_or("regions: an id is not text")?,
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever follows a recognised opening, reading it is an answer (a record or an error), never a panic.
        #[test]
        fn any_text_after_a_known_opening_is_an_answer_not_a_panic(s in "\\PC{0,120}", t in "[a-z0-9_,./#=+-]{0,120}") {
            for prefix in [
                "solo:3x3:", "solo:9j:", "solo:2x3k:", "solo:3x3xk:a,", "keen:5:", "towers:4:", "unequal:4:",
                "unequal:4a:", "https://puzz.link/p?sudoku/9/9/", "https://puzz.link/p?factors/4/4/",
                "https://puzz.link/p?building/4/4/", "https://www.f-puzzles.com/?load=N4Ig",
                "https://swaroopg92.github.io/penpa-edit/#m=solve&p=",
                "{\"size\":4,\"grid\":", "begin\npuzzle sudoku\nsize 4\nproblem\n",
                "begin\npuzzle futoshiki\nsize 3\nproblem\n", "begin\npuzzle mathrax\nsize 3\nnodes\n",
                "begin\npuzzle kendoku\nsize 2\nareas\na a\nb c\nproblem\n",
            ] {
                for tail in [&s, &t] {
                    let text = format!("{prefix}{tail}");
                    if let Some(f) = detect(&text) {
                        let _ = decode(&text, f);
                    }
                }
            }
        }
    }

    #[test]
    fn region_ids_are_distinct_and_short() {
        let ids: Vec<String> = (0..800).map(region_id).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 800);
        assert_eq!(ids[0], "a");
        assert_eq!(ids[25], "z");
        assert_eq!(ids[26], "ba");
    }

    #[test]
    fn classes_are_numbered_by_first_cell() {
        let mut c = Classes::new(4);
        c.merge(3, 1);
        let (ids, roots) = c.ids();
        assert_eq!(ids, ["a", "b", "c", "b"]);
        assert_eq!(roots, [0, 1, 2]);
    }
}
