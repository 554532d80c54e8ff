//! `latin check FILE...`: valid, exactly one solution, and equal to its `solution:` when it has one; on a grid
//! filled part way, what is wrong so far. And `latin candidates FILE`: every cell's true candidates; `latin rate FILE`:
//! its grade; `latin hint FILE`: the next step in words.

use std::path::Path;

use super::{print, Exit, Format};
use crate::error::Error;
use crate::model::load::Reader;
use crate::model::Puzzle;
use crate::report;
use crate::report::outcome::{GridForm, Verdict};
use crate::report::picture::text::TextStyle;
use crate::solve::SolveOptions;

/// `options` ask for two solutions: the uniqueness question.
pub(crate) fn run(
    file: &Path,
    format: Format,
    style: TextStyle,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    let name = file.display().to_string();
    if let Some(progress) = puzzle.progress() {
        let verdict = crate::analyse::progress::judge(&puzzle, progress, options)?;
        print(&match format {
            Format::Text => report::analyse::progress_text(&name, &verdict),
            Format::Json => report::analyse::progress_json(&name, &verdict),
        })?;
        let unknown = verdict.judged == crate::analyse::progress::Judged::Unknown;
        return Ok(Exit(if verdict.is_fine() {
            0
        } else if unknown {
            3
        } else {
            1
        }));
    }
    let outcome = crate::solve(&puzzle, options)?;
    let verdict = Verdict::of(&puzzle, &outcome);
    print(&match format {
        Format::Text => verdict.render(&name, &puzzle, GridForm::Picture(style)),
        Format::Json => report::json::check(&name, verdict, &outcome) + "\n",
    })?;
    Ok(Exit(verdict.exit_code()))
}

/// `candidates`: exit 0 when every value was tested, 1 when the puzzle has no solution, 3 on the time limit.
pub(crate) fn candidates(
    file: &Path,
    puzzle: &Puzzle,
    format: Format,
    options: &SolveOptions,
) -> Result<Exit, Error> {
    let found = crate::analyse::candidates::candidates(puzzle, options)?;
    let name = file.display().to_string();
    print(&match format {
        Format::Text => report::analyse::candidates_text(&name, &found),
        Format::Json => report::analyse::candidates_json(&name, &found),
    })?;
    let none = found.complete && found.masks.iter().all(|&m| m == 0);
    Ok(Exit(if !found.complete {
        3
    } else if none {
        1
    } else {
        0
    }))
}

/// `rate`: exit 0, or 1 when the puzzle has no solution or more than one, 3 when the time limit cut off the
/// proof that it has one.
pub(crate) fn rate(
    file: &Path,
    format: Format,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let puzzle = reader.load(file)?;
    let rating = crate::analyse::rate::rate(&puzzle, options)?;
    let name = file.display().to_string();
    print(&match format {
        Format::Text => report::analyse::rating_text(&name, &rating),
        Format::Json => report::analyse::rating_json(&name, &rating),
    })?;
    Ok(Exit(match rating.unique {
        Some(true) => 0,
        Some(false) => 1,
        None => 3,
    }))
}

/// `hint`: exit 0 when a step was found (or the grid is full), 1 when only search is left or the grid as filled
/// has no solution, 3 on the time limit.
pub(crate) fn hint(
    file: &Path,
    puzzle: &Puzzle,
    all: bool,
    format: Format,
    time_limit: Option<std::time::Duration>,
) -> Result<Exit, Error> {
    let deadline = time_limit.map(|t| std::time::Instant::now() + t);
    let found = crate::analyse::hint::hints(puzzle, puzzle.progress(), all, deadline)?;
    let steps = &found.steps;
    let mut filled = puzzle.givens().clone();
    for (cell, v) in puzzle.progress().into_iter().flat_map(|p| p.filled()) {
        filled.set(cell, v);
    }
    for h in steps.iter().filter(|h| h.place) {
        filled.set(h.cell, h.value);
    }
    let finished = filled.cells().all(|c| filled.get(c) != 0);
    let name = file.display().to_string();
    print(&match format {
        Format::Text => {
            let own = puzzle.progress().is_some();
            report::analyse::hints_text(&name, &found, all, finished, own)
        }
        Format::Json => report::analyse::hints_json(&name, &found, finished),
    })?;
    Ok(Exit(if found.timed_out {
        3
    } else if found.no_solution || (steps.is_empty() && !finished) {
        1
    } else {
        0
    }))
}
