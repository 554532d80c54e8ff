//! A lines file written as a table: fields separated by commas, as the large Sudoku datasets are shared
//! (Kaggle's `quizzes,solutions`, `puzzle,solution`, `id,puzzle,solution,clues,difficulty`;
//! `source,question,answer,rating`), or by semicolons or tabs, as the forums' lists give a puzzle's ratings
//! after it (`4...3.......6..8...;11.9;11.9;11.3;elev`).
//!
//! The first line says which field is the puzzle: a header that names it (and perhaps a solution), or, with no
//! header, a first field that is itself a grid, with a solution beside it when the second field is as long. The
//! separator is the first of `,`, `;` and tab on that line. Quoted fields are read with the `csv` crate rather
//! than split by hand, so a quoted field that holds a separator (a source's name, say) or a doubled quote does
//! not shift the columns.

use super::grid::side_of;

/// Header names of the puzzle's column, compared without case.
const PUZZLE_NAMES: &[&str] = &[
    "puzzle", "puzzles", "quiz", "quizzes", "question", "grid", "givens", "problem",
];

/// Header names of the solution's column, compared without case.
const SOLUTION_NAMES: &[&str] = &["solution", "solutions", "answer", "answers"];

/// The characters that separate a table's fields, in the order they are looked for.
const SEPARATORS: [char; 3] = [',', ';', '\t'];

/// Where a table's puzzle and solution stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Columns {
    /// What separates the fields: a comma, a semicolon or a tab.
    pub(crate) separator: char,
    pub(crate) puzzle: usize,
    pub(crate) solution: Option<usize>,
    /// The first line names the columns (it is not a puzzle).
    pub(crate) header: bool,
}

/// One line's puzzle and, when the table has a solution column and the line fills it, its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) puzzle: String,
    pub(crate) solution: Option<String>,
}

/// The fields of one line (quotes removed, each field trimmed). A line without quotes is cut at its separators,
/// which is all the csv grammar does there, without building a reader for every line of a large file.
fn fields(line: &str, separator: char) -> Result<Vec<String>, String> {
    if !line.contains('"') {
        return Ok(line.split(separator).map(|f| f.trim().to_owned()).collect());
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(separator as u8)
        .from_reader(line.as_bytes());
    match reader.records().next() {
        None => Ok(Vec::new()),
        Some(Ok(record)) => Ok(record.iter().map(|f| f.trim().to_owned()).collect()),
        Some(Err(e)) => Err(format!("not a line of separated fields ({e})")),
    }
}

/// The first separator of a line outside quotes.
fn first_separator(line: &str) -> Option<char> {
    let mut quoted = false;
    line.chars().find(|&c| {
        quoted ^= c == '"';
        !quoted && SEPARATORS.contains(&c)
    })
}

/// Whether a field's length is that of a grid of 4x4 or more (a square number of characters).
fn grid_length(field: &str) -> Option<usize> {
    let len = field.chars().count();
    side_of(len).filter(|&n| n >= 4).map(|_| len)
}

impl Columns {
    /// The columns of a file whose first puzzle line is `first`; `None` when the line has no separator (a plain
    /// lines file). `Err` says why a line with separators is not a table latin can read.
    pub(crate) fn of_first_line(first: &str) -> Result<Option<Columns>, String> {
        let Some(separator) = first_separator(first) else {
            return Ok(None);
        };
        let fields = fields(first, separator)?;
        let named = |names: &[&str]| {
            fields
                .iter()
                .position(|f| names.iter().any(|n| f.eq_ignore_ascii_case(n)))
        };
        if let Some(puzzle) = named(PUZZLE_NAMES) {
            return Ok(Some(Columns {
                separator,
                puzzle,
                solution: named(SOLUTION_NAMES),
                header: true,
            }));
        }
        match fields.first().and_then(|f| grid_length(f)) {
            Some(len) => Ok(Some(Columns {
                separator,
                puzzle: 0,
                solution: fields
                    .get(1)
                    .filter(|f| f.chars().count() == len)
                    .map(|_| 1),
                header: false,
            })),
            None => Err(format!(
                "the line has {}, so it was read as a table, but no column is named for the puzzle ({}) \
                 and its first field is not a grid",
                match separator {
                    ',' => "commas",
                    ';' => "semicolons",
                    _ => "tabs",
                },
                PUZZLE_NAMES.join(", ")
            )),
        }
    }

    /// The puzzle and solution of one line of the table.
    pub(crate) fn row(&self, line: &str) -> Result<Row, String> {
        let fields = fields(line, self.separator)?;
        let puzzle = fields.get(self.puzzle).cloned().ok_or_else(|| {
            let plural = if fields.len() == 1 { "" } else { "s" };
            format!(
                "the line has {} field{plural}; the puzzle is field {}",
                fields.len(),
                self.puzzle + 1
            )
        })?;
        let solution = self
            .solution
            .and_then(|i| fields.get(i))
            .filter(|s| !s.is_empty())
            .cloned();
        Ok(Row { puzzle, solution })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn plain_lines_are_not_tables() {
        assert_eq!(Columns::of_first_line(P), Ok(None));
    }

    #[test]
    fn a_header_names_the_columns_in_any_order_and_case() {
        let c = Columns::of_first_line("id,Puzzle,solution,clues,difficulty")
            .unwrap()
            .unwrap();
        assert_eq!((c.puzzle, c.solution, c.header), (1, Some(2), true));
        let c = Columns::of_first_line("source,question,answer,rating")
            .unwrap()
            .unwrap();
        assert_eq!((c.puzzle, c.solution), (1, Some(2)));
        let c = Columns::of_first_line("quizzes").unwrap();
        assert_eq!(c, None, "no comma: a one-column file is plain lines");
        let c = Columns::of_first_line("quizzes,rating").unwrap().unwrap();
        assert_eq!((c.puzzle, c.solution), (0, None));
    }

    #[test]
    fn without_a_header_a_grid_first_and_one_as_long_beside_it() {
        let line = format!("{P},{}", "1".repeat(81));
        let c = Columns::of_first_line(&line).unwrap().unwrap();
        assert_eq!((c.puzzle, c.solution, c.header), (0, Some(1), false));
        let c = Columns::of_first_line(&format!("{P},7.5"))
            .unwrap()
            .unwrap();
        assert_eq!((c.puzzle, c.solution), (0, None));
        let e = Columns::of_first_line("17,hard").unwrap_err();
        assert!(e.contains("has commas"), "{e}");
        assert!(e.contains("no column is named"), "{e}");
    }

    #[test]
    fn semicolons_and_tabs_separate_too() {
        // The forums' lists: the puzzle, then its Sudoku Explainer ratings and a name.
        let c = Columns::of_first_line(&format!("{P};11.9;11.9;11.3;elev;tarek"))
            .unwrap()
            .unwrap();
        assert_eq!((c.separator, c.puzzle, c.solution), (';', 0, None));
        assert_eq!(c.row(&format!("{P};9.0;1.2")).unwrap().puzzle, P);
        let c = Columns::of_first_line("id\tgrid\tanswer").unwrap().unwrap();
        assert_eq!((c.separator, c.puzzle, c.solution), ('\t', 1, Some(2)));
        let row = c.row(&format!("7\t\"{P}\"\t")).unwrap();
        assert_eq!((row.puzzle.as_str(), row.solution), (P, None));
        // The first separator on the line decides: a comma inside a semicolon table is part of a field.
        let c = Columns::of_first_line(&format!("{P};Smith, J.;x"))
            .unwrap()
            .unwrap();
        assert_eq!(c.separator, ';');
        let c = Columns::of_first_line("\"a;b\",puzzle").unwrap().unwrap();
        assert_eq!(
            (c.separator, c.puzzle),
            (',', 1),
            "a quoted separator is not one"
        );
        let e = Columns::of_first_line("17;hard").unwrap_err();
        assert!(e.contains("has semicolons"), "{e}");
    }

    #[test]
    fn quoted_fields_keep_their_commas_and_empty_solutions_are_none() {
        let c = Columns::of_first_line("source,puzzle,solution")
            .unwrap()
            .unwrap();
        let row = c.row(&format!("\"forum, 2024\",{P},")).unwrap();
        assert_eq!(row.puzzle, P);
        assert_eq!(row.solution, None);
        let row = c.row(&format!("x, {P} ,\"{}\"", "2".repeat(81))).unwrap();
        assert_eq!((row.puzzle.as_str(), row.solution.unwrap().len()), (P, 81));
        let e = c.row("only-one-field").unwrap_err();
        assert!(e.contains("1 field; the puzzle is field 2"), "{e}");
    }
}
