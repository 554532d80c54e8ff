//! The clue sections of a puzzle being made: every clue a solution shows, drawn by the plan's makers (lines
//! walked through the grid, every pair of neighbours, every outside clue, a mark on every cell), then dropped one
//! entry at a time by `generate` while the solution stays the only one. An entry is one line of a lines,
//! pairs or relations section, one outside clue, or one mark; region maps and their clues are kept whole.

use std::collections::{BTreeMap, BTreeSet};

use super::plan::{How, Plan};
use crate::error::Error;
use crate::grammar::sections::MarkMeaning;
use crate::grammar::Args;
use crate::grid::{Cell, Grid};
use crate::model::clue::{LineClue, LineMaker, Place};
use crate::yaml::{Mapping, Value};

/// How a section's entries are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// One entry a line.
    Lines,
    /// One token per row or column, `.` where dropped.
    Edge,
    /// One token per cell, row by row, `.` where dropped.
    Grid,
    /// A clue per region id, in this order.
    Map(Vec<String>),
}

#[derive(Clone, Debug)]
pub(crate) struct Section {
    pub(crate) form: Form,
    pub(crate) entries: Vec<Option<String>>,
    /// Whether the type needs the section (so its last entry stays).
    pub(crate) required: bool,
    /// Whether entries may be dropped (not region maps, not the clues of every region).
    pub(crate) droppable: bool,
    /// Entries that go with an entry of another section (a pill with the arrow that leaves it): that section,
    /// and the index of the entry each of these goes with.
    pub(crate) tied: Option<(String, Vec<usize>)>,
}

/// A section as it is written in a puzzle file: a block of lines, or a map of clues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionText {
    Block(Vec<String>),
    Map(Vec<(String, String)>),
}

impl Section {
    /// The section as written, `None` when nothing is left in it.
    fn text(&self, n: usize) -> Option<SectionText> {
        let token = |e: &Option<String>| e.clone().unwrap_or_else(|| ".".into());
        match &self.form {
            Form::Lines => {
                let lines: Vec<String> = self.entries.iter().flatten().cloned().collect();
                (!lines.is_empty()).then_some(SectionText::Block(lines))
            }
            Form::Edge => self.entries.iter().any(Option::is_some).then(|| {
                SectionText::Block(vec![self
                    .entries
                    .iter()
                    .map(token)
                    .collect::<Vec<_>>()
                    .join(" ")])
            }),
            Form::Grid => {
                let width = self
                    .entries
                    .iter()
                    .map(|e| token(e).len())
                    .max()
                    .unwrap_or(1);
                let rows = self
                    .entries
                    .chunks(n.max(1))
                    .map(|row| {
                        let cells: Vec<String> = row
                            .iter()
                            .map(|e| format!("{:<width$}", token(e)))
                            .collect();
                        cells.join(" ").trim_end().to_owned()
                    })
                    .collect();
                Some(SectionText::Block(rows))
            }
            Form::Map(keys) => Some(SectionText::Map(
                keys.iter()
                    .zip(&self.entries)
                    .filter_map(|(k, e)| Some((k.clone(), e.clone()?)))
                    .collect(),
            )),
        }
    }
}

/// Every clue section of one puzzle.
#[derive(Clone, Debug, Default)]
pub(crate) struct Draft {
    pub(crate) n: usize,
    pub(crate) sections: BTreeMap<String, Section>,
}

impl Draft {
    /// The sections as written, leaving out empty ones.
    pub(crate) fn texts(&self) -> Vec<(String, SectionText)> {
        self.sections
            .iter()
            .filter_map(|(name, s)| Some((name.clone(), s.text(self.n)?)))
            .collect()
    }

    /// Adds the sections to a puzzle file's mapping.
    pub(crate) fn write_into(&self, map: &mut Mapping) {
        for (name, text) in self.texts() {
            let value = match text {
                SectionText::Block(lines) => Value::String(lines.join("\n") + "\n"),
                SectionText::Map(pairs) => Value::Mapping(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (Value::String(k), Value::String(v)))
                        .collect(),
                ),
            };
            map.insert(Value::String(name), value);
        }
    }

    /// Every entry that may be dropped: section and index.
    pub(crate) fn droppable(&self) -> Vec<(String, usize)> {
        self.sections
            .iter()
            .filter(|(_, s)| s.droppable)
            .flat_map(|(name, s)| {
                s.entries
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.is_some())
                    .map(move |(i, _)| (name.clone(), i))
            })
            .collect()
    }

    /// The draft without one entry; `None` when it is the last of a section the type needs, or the last clue
    /// of all the sections entries are dropped from: a puzzle of the type shows its clues even when its givens
    /// alone would do (a 4x4 sandwich once came out as a Sudoku with no sandwich clue at all).
    pub(crate) fn without(&self, section: &str, i: usize) -> Option<Draft> {
        let s = self.sections.get(section)?;
        let left = |s: &Section| s.entries.iter().filter(|e| e.is_some()).count();
        if s.required && left(s) <= 1 {
            return None;
        }
        let clues: usize = self
            .sections
            .values()
            .filter(|s| s.droppable)
            .map(left)
            .sum();
        if s.droppable && clues <= 1 {
            return None;
        }
        let mut fewer = self.clone();
        fewer.sections.get_mut(section)?.entries[i] = None;
        for s in fewer.sections.values_mut() {
            if let Some((_, with)) = s.tied.as_ref().filter(|(to, _)| to == section) {
                for (e, _) in s.entries.iter_mut().zip(with).filter(|(_, &k)| k == i) {
                    *e = None;
                }
            }
        }
        Some(fewer)
    }

    /// Every value of the entries of `sections` that list values (an Outside Sudoku clue, a quadruple's
    /// digits): section, entry and value, once for each time it is listed.
    pub(crate) fn listed(&self, sections: &[String]) -> Vec<(String, usize, u32)> {
        let mut out = Vec::new();
        for name in sections {
            let Some(s) = self.sections.get(name) else {
                continue;
            };
            for (i, entry) in s.entries.iter().enumerate() {
                let values = entry
                    .as_deref()
                    .map_or(Vec::new(), |e| values_of(&s.form, e, self.n));
                out.extend(values.into_iter().map(|v| (name.clone(), i, v)));
            }
        }
        out
    }

    /// The draft with one listing of `value` gone from entry `i` of `section`; `None` when it is the entry's
    /// last value (dropping a whole entry is [`Draft::without`]'s).
    pub(crate) fn without_value(&self, section: &str, i: usize, value: u32) -> Option<Draft> {
        let s = self.sections.get(section)?;
        let entry = s.entries.get(i)?.as_deref()?;
        let mut values = values_of(&s.form, entry, self.n);
        values.remove(values.iter().position(|&v| v == value)?);
        if values.is_empty() {
            return None;
        }
        let text = match s.form {
            Form::Edge => crate::parse::clues::set_text(&values, self.n),
            _ => {
                let cells = entry.split_once(" = ")?.0;
                let words: Vec<String> = values.iter().map(u32::to_string).collect();
                format!("{cells} = {}", words.join(" "))
            }
        };
        let mut fewer = self.clone();
        fewer.sections.get_mut(section)?.entries[i] = Some(text);
        Some(fewer)
    }
}

/// The values an entry lists: an edge clue's set (`135`), or the numbers after a line's `=` (`... = 1 3 5`).
fn values_of(form: &Form, entry: &str, n: usize) -> Vec<u32> {
    match form {
        Form::Edge => crate::parse::clues::set_of(entry, n).unwrap_or_default(),
        Form::Lines => entry.split_once(" = ").map_or(Vec::new(), |(_, clue)| {
            clue.split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect()
        }),
        _ => Vec::new(),
    }
}

/// Draws every section of `plan.drawn` from `solution`. `required` says which sections the type needs; a
/// needed section that the solution gives no entry for is an error (a whisper needs values 5 apart, which a
/// 4x4 has none of).
pub(crate) fn draw(
    plan: &Plan,
    solution: &Grid,
    regions: &[usize],
    required: &dyn Fn(&str) -> bool,
    rng: &mut fastrand::Rng,
    draft: &mut Draft,
) -> Result<(), Error> {
    let n = solution.size();
    draft.n = n;
    // Cells on a drawn line already: walked lines do not cross each other. Neighbours a drawn line joins (the
    // plan draws lines first): no pair's mark goes between them, so that each border carries one clue, as
    // pzprjs's minarism has it and setters draw, unless the marks' negative rule asks for every one.
    let mut used = Taken::new(n);
    let mut joined = BTreeSet::new();
    let mut layouts = Vec::new();
    for drawn in &plan.drawn {
        let args = &drawn.args;
        let drawn_here = match &drawn.how {
            How::Edge {
                section,
                side,
                maker,
            } => vec![edge(
                section,
                side,
                |values| maker(args, side, values),
                solution,
            )],
            How::Marks { section, meanings } => vec![marks(section, meanings, solution, rng)],
            How::Peaks {
                section,
                token,
                less,
            } => {
                // A fortress is drawn whole, as setters shade every grey cell: givens are thinned instead.
                layouts.push(section.clone());
                vec![peaks(section, token, *less, solution, rng)]
            }
            How::Pairs {
                sections,
                relations,
                far,
                maker,
            } => {
                let holds = |s: &str, a: u32, b: u32| (maker.holds)(args, s, a, b);
                // Under a negative rule every pair that satisfies a relation is marked, joined by a line or
                // not: left out, it would say the pair satisfies none.
                let none_joined = BTreeSet::new();
                let skip = if (maker.exclusive)(args) {
                    &none_joined
                } else {
                    &joined
                };
                let mut drawn = pairs(sections, *relations, holds, solution, skip, rng);
                for section in far {
                    drawn.push(far_pairs(section, holds, solution, rng));
                }
                drawn
            }
            How::Lines {
                section,
                makers,
                straight,
                adjacent,
                block,
                pills,
                marks,
            } => {
                let asked = Asked {
                    section,
                    makers,
                    steps: Steps {
                        straight: *straight,
                        adjacent: *adjacent,
                        block: *block,
                    },
                    pills: pills.as_deref().filter(|_| (4..=9).contains(&n)),
                    marks,
                };
                let drawn = lines(&asked, solution, regions, &mut used, rng);
                vec![take_lines(drawn, section, &mut joined, draft)]
            }
        };
        for (name, form, entries) in drawn_here {
            let required = required(&name);
            let section = draft.sections.entry(name).or_insert(Section {
                form,
                entries: Vec::new(),
                required,
                droppable: true,
                tied: None,
            });
            section.entries.extend(entries);
        }
    }
    for name in layouts {
        if let Some(section) = draft.sections.get_mut(&name) {
            section.droppable = false;
        }
    }
    every_required_drawn(draft, regions)
}

/// An error naming the first required section the draw left without a clue.
fn every_required_drawn(draft: &Draft, regions: &[usize]) -> Result<(), Error> {
    let Some((name, _)) = draft
        .sections
        .iter()
        .find(|(_, s)| s.required && s.entries.iter().all(Option::is_none))
    else {
        return Ok(());
    };
    // Some line rules read the grid's regions (a region-sum line is cut where its box changes): on a grid
    // with neither boxes nor regions they have nothing to say, whatever the size.
    let why = if regions.windows(2).all(|w| w[0] == w[1]) {
        "its rule may allow none at this size, or need boxes or regions, which this type has none of \
         (--rules boxes adds boxes)"
    } else {
        "its rule may allow none at this size"
    };
    Err(Error::section(
        "generate",
        format!("no solution drawn shows a clue for section `{name}`: {why}"),
    ))
}

/// A lines section's draw, taken into the draft: the neighbours its lines join (no pair's mark goes between
/// them) and its pills, tied to the lines that leave them; the lines themselves are returned, to be added as
/// every section's entries are.
fn take_lines(
    drawn: LinesDrawn,
    section: &str,
    joined: &mut BTreeSet<(Cell, Cell)>,
    draft: &mut Draft,
) -> SectionDraw {
    joined.extend(
        drawn
            .kept
            .iter()
            .flat_map(|l| l.windows(2))
            .map(|w| (w[0].min(w[1]), w[0].max(w[1]))),
    );
    if let Some((name, entries, with)) = drawn.pills {
        let offset = draft.sections.get(section).map_or(0, |s| s.entries.len());
        let tied = Some((
            section.to_owned(),
            with.iter().map(|k| k + offset).collect(),
        ));
        draft.sections.insert(
            name,
            Section {
                form: Form::Lines,
                entries,
                required: false,
                droppable: false,
                tied,
            },
        );
    }
    drawn.lines
}

/// Entries drawn for one section: its name, how it is written, and the entries to add.
type SectionDraw = (String, Form, Vec<Option<String>>);

/// An edge section: the clue of each row or column as seen from `side`.
fn edge(
    section: &str,
    side: &str,
    clue: impl Fn(&[u32]) -> String,
    solution: &Grid,
) -> SectionDraw {
    let n = solution.size();
    let entries = (0..n)
        .map(|i| {
            let values: Vec<u32> = seen_from(side, i, n)
                .into_iter()
                .map(|c| solution.get(c))
                .collect();
            Some(clue(&values))
        })
        .collect();
    (section.to_owned(), Form::Edge, entries)
}

/// A marks grid of peaks: the cells above a threshold of value (below it, with `less`), cut into groups of
/// neighbours, each group kept or not at random. Every marked cell then stands above each unmarked neighbour,
/// which is at most the threshold (a kept group's neighbours outside it are not above it), and groups of
/// several cells come out as setters draw fortresses. The threshold leaves about a third of the values, and at
/// least one group is kept.
fn peaks(
    section: &str,
    token: &str,
    less: bool,
    solution: &Grid,
    rng: &mut fastrand::Rng,
) -> SectionDraw {
    let n = solution.size();
    let high = |v: u32| if less { n as u32 + 1 - v } else { v };
    let threshold = n as u32 - (n as u32).div_ceil(3);
    let above = |c: Cell| high(solution.get(c)) > threshold;
    let mut group = vec![usize::MAX; n * n];
    let mut keep = Vec::new();
    for start in solution.cells().filter(|&c| above(c)) {
        if group[start.row * n + start.col] != usize::MAX {
            continue;
        }
        let id = keep.len();
        keep.push(rng.bool());
        let mut stack = vec![start];
        group[start.row * n + start.col] = id;
        while let Some(c) = stack.pop() {
            for next in c.orthogonal(n) {
                let k = next.row * n + next.col;
                if above(next) && group[k] == usize::MAX {
                    group[k] = id;
                    stack.push(next);
                }
            }
        }
    }
    // At least one group, so that a type whose marks are required has some.
    if !keep.is_empty() && !keep.contains(&true) {
        let one = rng.usize(..keep.len());
        keep[one] = true;
    }
    let entries = group
        .iter()
        .map(|&g| (g != usize::MAX && keep[g]).then(|| token.to_owned()))
        .collect();
    (section.to_owned(), Form::Grid, entries)
}

/// A marks grid: each cell a mark, at random among those that allow its value (none where none does).
fn marks(
    section: &str,
    meanings: &BTreeMap<String, MarkMeaning>,
    solution: &Grid,
    rng: &mut fastrand::Rng,
) -> SectionDraw {
    let n = solution.size();
    let entries = solution
        .cells()
        .map(|c| {
            let v = solution.get(c);
            let fits: Vec<&String> = meanings
                .iter()
                .filter(|(_, m)| m.allowed(n).is_ok_and(|(vs, _)| vs.contains(&v)))
                .map(|(token, _)| token)
                .collect();
            (!fits.is_empty()).then(|| fits[rng.usize(..fits.len())].clone())
        })
        .collect();
    (section.to_owned(), Form::Grid, entries)
}

/// Pairs or relations sections of one binding: every section (so that each exists, empty or not), then each
/// pair of neighbours in one section, at random, whose relation it satisfies (`holds(section, a, b)`), written
/// `a < b` for relations and `a-b` for pairs.
fn pairs(
    sections: &[String],
    relations: bool,
    holds: impl Fn(&str, u32, u32) -> bool,
    solution: &Grid,
    joined: &BTreeSet<(Cell, Cell)>,
    rng: &mut fastrand::Rng,
) -> Vec<SectionDraw> {
    let mut out: Vec<SectionDraw> = sections
        .iter()
        .map(|s| (s.clone(), Form::Lines, Vec::new()))
        .collect();
    for (a, b) in neighbour_pairs(solution.size()) {
        if joined.contains(&(a.min(b), a.max(b))) {
            continue;
        }
        let (va, vb) = (solution.get(a), solution.get(b));
        let fits: Vec<(&String, bool)> = sections
            .iter()
            .filter_map(|s| {
                if holds(s, va, vb) {
                    Some((s, true))
                } else {
                    holds(s, vb, va).then_some((s, false))
                }
            })
            .collect();
        if fits.is_empty() {
            continue;
        }
        let (section, forward) = fits[rng.usize(..fits.len())];
        let (x, y) = if forward { (a, b) } else { (b, a) };
        let entry = if relations {
            format!("{x} < {y}")
        } else {
            format!("{x}-{y}")
        };
        out.push((section.clone(), Form::Lines, vec![Some(entry)]));
    }
    out
}

/// How a section's lines may run: straight from edge to edge, walked one step at a time to a cell beside
/// (`adjacent`) or any neighbour, or as 2x2 blocks (`block`).
#[derive(Clone, Copy)]
struct Steps {
    straight: bool,
    adjacent: bool,
    block: bool,
}

/// What [`lines`] draws for a section: its entries, the pills some of them leave (the pills section, its
/// entries, and the index among the lines of the one leaving each), and every line's cells, a pill's first.
struct LinesDrawn {
    lines: SectionDraw,
    pills: Option<(String, Vec<Option<String>>, Vec<usize>)>,
    kept: Vec<Vec<Cell>>,
}

/// What the plan asks of one lines section.
struct Asked<'a> {
    section: &'a str,
    /// Every maker that reads the section: a line must satisfy them all.
    makers: &'a [(Args, LineMaker)],
    steps: Steps,
    /// The section of pills some lines leave from, where the grid's values are digits.
    pills: Option<&'a str>,
    /// What each mark means, when the section's clues are marks.
    marks: &'a BTreeMap<String, MarkMeaning>,
}

/// The first of the section's marks that allows every value of `held`, if one does.
fn mark_for(marks: &BTreeMap<String, MarkMeaning>, held: &[u32], n: usize) -> Option<LineClue> {
    marks
        .iter()
        .find(|(_, m)| {
            m.allowed(n)
                .is_ok_and(|(vs, _)| held.iter().all(|v| vs.contains(v)))
        })
        .map(|(token, _)| LineClue::Mark(token.clone()))
}

/// A lines section: straight diagonals, or lines walked through cells not `used` yet, each kept when every
/// maker accepts it, with the clue the first maker that has one gives (the values a mark must allow become
/// the first mark that does; a line that none fits is turned down); and the lines kept. With a pills section,
/// a few lines are first walked from a pill of two cells side by side, the makers told that the line's first
/// cell holds the number the pill reads (left to right, top to bottom).
fn lines(
    asked: &Asked,
    solution: &Grid,
    regions: &[usize],
    used: &mut Taken,
    rng: &mut fastrand::Rng,
) -> LinesDrawn {
    let Asked {
        section,
        makers,
        steps,
        pills,
        marks,
    } = *asked;
    let n = solution.size();
    let reads = |cells: &[Cell], values: &[u32]| -> Option<Option<LineClue>> {
        let place = Place {
            cells,
            regions,
            solution,
        };
        let mut clue = None;
        for (args, maker) in makers {
            clue = clue.or(maker(args, values, &place)?);
        }
        match clue {
            Some(LineClue::Within(held)) => mark_for(marks, &held, n).map(Some),
            clue => Some(clue),
        }
    };
    let holds = |cells: &[Cell]| -> Option<Option<LineClue>> {
        let values: Vec<u32> = cells.iter().map(|&c| solution.get(c)).collect();
        reads(cells, &values)
    };
    // A path from a pill: its other cell, the cell the line leaves from, then the line.
    let holds_from_pill = |path: &[Cell]| -> Option<Option<LineClue>> {
        let (pill, line) = (pill_of(path), &path[1..]);
        let mut values = vec![10 * solution.get(pill[0]) + solution.get(pill[1])];
        values.extend(line[1..].iter().map(|&c| solution.get(c)));
        reads(line, &values)
    };
    let (mut entries, mut kept) = (Vec::new(), Vec::new());
    let mut drawn_pills = None;
    if let Some(name) = pills.filter(|_| !steps.straight && !steps.block) {
        let (mut pill_entries, mut with) = (Vec::new(), Vec::new());
        for path in pill_walks(n, used, rng, &|p| holds_from_pill(p).is_some()) {
            if let Some(clue) = holds_from_pill(&path) {
                with.push(entries.len());
                entries.push(Some(write_line(&path[1..], clue)));
                pill_entries.push(Some(write_line(&pill_of(&path), None)));
                kept.push(path);
            }
        }
        drawn_pills = Some((name.to_owned(), pill_entries, with));
    }
    let lines = if steps.straight {
        diagonals(n, rng)
    } else if steps.block {
        blocks(n, used, rng, &|cells| holds(cells).is_some())
    } else {
        let step = |a: Cell, b: Cell| !steps.adjacent || a.is_orthogonal_neighbour(b);
        walks(n, used, &step, rng, &|cells| holds(cells).is_some())
    };
    for line in lines {
        if let Some(clue) = holds(&line) {
            entries.push(Some(write_line(&line, clue)));
            kept.push(line);
        }
    }
    LinesDrawn {
        lines: (section.to_owned(), Form::Lines, entries),
        pills: drawn_pills,
        kept,
    }
}

/// The pill a path from a pill starts with, in reading order.
fn pill_of(path: &[Cell]) -> [Cell; 2] {
    let (a, b) = (path[0], path[1]);
    // Cells order by row, then column: reading order.
    [a.min(b), a.max(b)]
}

/// Up to a third as many lines as the grid has rows, each walked from a pill of two cells side by side that no
/// line has (the path: the pill's other cell, the cell the line leaves from, then the line), and kept when
/// `holds`. A fixed number of tries.
fn pill_walks(
    n: usize,
    used: &mut Taken,
    rng: &mut fastrand::Rng,
    holds: &dyn Fn(&[Cell]) -> bool,
) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    let longest = n.clamp(2, 8) + 2;
    for _ in 0..10 * n {
        if out.len() >= (n / 3).max(1) {
            break;
        }
        let start = rng.usize(..n * n);
        let (r, c) = (start / n, start % n);
        let other = if rng.bool() { (r, c + 1) } else { (r + 1, c) };
        if other.0 >= n || other.1 >= n {
            continue;
        }
        let mut pill = [Cell::new(r, c), Cell::new(other.0, other.1)];
        if pill.iter().any(|&c| used.has(c)) {
            continue;
        }
        if rng.bool() {
            pill.reverse();
        }
        let length = rng.usize(4..=longest);
        let any_step = |_: Cell, _: Cell| true;
        if let Some(path) = walk_from(n, used, &any_step, rng, holds, pill.to_vec(), length) {
            used.take(&path);
            out.push(path);
        }
    }
    out
}

/// A line as a puzzle file writes it: `r1c1 r2c2 r2c3 = 12`, `r1c1 r1c2 r2c1 r2c2 = 1 2 9`.
fn write_line(cells: &[Cell], clue: Option<LineClue>) -> String {
    let path: Vec<String> = cells.iter().map(Cell::to_string).collect();
    match clue {
        Some(c) => format!("{} = {c}", path.join(" ")),
        None => path.join(" "),
    }
}

/// The cells of row or column `i` as seen from `side`, nearest first.
pub(crate) fn seen_from(side: &str, i: usize, n: usize) -> Vec<Cell> {
    match side {
        "top" => (0..n).map(|r| Cell::new(r, i)).collect(),
        "bottom" => (0..n).rev().map(|r| Cell::new(r, i)).collect(),
        "left" => (0..n).map(|c| Cell::new(i, c)).collect(),
        _ => (0..n).rev().map(|c| Cell::new(i, c)).collect(),
    }
}

/// A pairs section whose cells may lie anywhere: up to n pairs of cells that are not neighbours, drawn at
/// random among those whose values the section's relation holds for (a clone's cell and its copy), each cell
/// in one pair at most.
fn far_pairs(
    section: &str,
    holds: impl Fn(&str, u32, u32) -> bool,
    solution: &Grid,
    rng: &mut fastrand::Rng,
) -> SectionDraw {
    let n = solution.size();
    let mut used = vec![false; n * n];
    let mut entries = Vec::new();
    for _ in 0..8 * n {
        if entries.len() >= n {
            break;
        }
        let (i, j) = (rng.usize(..n * n), rng.usize(..n * n));
        let (a, b) = (Cell::new(i / n, i % n), Cell::new(j / n, j % n));
        let near = a.row.abs_diff(b.row) <= 1 && a.col.abs_diff(b.col) <= 1;
        if near || used[i] || used[j] || !holds(section, solution.get(a), solution.get(b)) {
            continue;
        }
        used[i] = true;
        used[j] = true;
        entries.push(Some(format!("{a}-{b}")));
    }
    (section.to_owned(), Form::Lines, entries)
}

/// Every pair of orthogonal neighbours, each once.
fn neighbour_pairs(n: usize) -> Vec<(Cell, Cell)> {
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n {
                out.push((Cell::new(r, c), Cell::new(r, c + 1)));
            }
            if r + 1 < n {
                out.push((Cell::new(r, c), Cell::new(r + 1, c)));
            }
        }
    }
    out
}

/// Every diagonal of two cells or more from one edge of the grid to the other, each read from a random end.
fn diagonals(n: usize, rng: &mut fastrand::Rng) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    for k in 0..2 * n - 1 {
        // Down-right diagonals (c - r fixed) and down-left ones (r + c fixed).
        let down_right: Vec<Cell> = (0..n)
            .filter_map(|r| {
                let c = (k + r).checked_sub(n - 1)?;
                (c < n).then(|| Cell::new(r, c))
            })
            .collect();
        let down_left: Vec<Cell> = (0..n)
            .filter_map(|r| {
                let c = k.checked_sub(r)?;
                (c < n).then(|| Cell::new(r, c))
            })
            .collect();
        for mut line in [down_right, down_left] {
            if line.len() >= 2 {
                if rng.bool() {
                    line.reverse();
                }
                out.push(line);
            }
        }
    }
    out
}

/// What walked lines have taken: their cells, and the 2x2 blocks they step through diagonally. A line through
/// the other diagonal of such a block would cross it, which setters never draw (and a picture could not tell
/// from two lines touching).
pub(crate) struct Taken {
    n: usize,
    cells: Vec<bool>,
    /// Per block, by its top-left cell.
    crossed: Vec<bool>,
}

impl Taken {
    pub(crate) fn new(n: usize) -> Taken {
        Taken {
            n,
            cells: vec![false; n * n],
            crossed: vec![false; n * n],
        }
    }

    fn has(&self, c: Cell) -> bool {
        self.cells[c.row * self.n + c.col]
    }

    /// The block a diagonal step from a to b goes through, by its top-left cell; `None` for another step.
    fn block(&self, a: Cell, b: Cell) -> Option<usize> {
        (a.row != b.row && a.col != b.col).then(|| a.row.min(b.row) * self.n + a.col.min(b.col))
    }

    /// Whether a line walked as far as `path` may step from its last cell to `next`: a cell no line has, and
    /// no crossing with another line or itself.
    fn allows(&self, path: &[Cell], next: Cell) -> bool {
        let last = *path.last().expect("a path has its start");
        let crossing = self.block(last, next).is_some_and(|k| {
            self.crossed[k] || path.windows(2).any(|w| self.block(w[0], w[1]) == Some(k))
        });
        !self.has(next) && !path.contains(&next) && !crossing
    }

    fn take(&mut self, path: &[Cell]) {
        for c in path {
            self.cells[c.row * self.n + c.col] = true;
        }
        for w in path.windows(2) {
            if let Some(k) = self.block(w[0], w[1]) {
                self.crossed[k] = true;
            }
        }
    }
}

/// The most lines a section gets drawn (walked or as blocks) before clues are dropped: half as many again as
/// the grid has rows.
fn most_lines(n: usize) -> usize {
    n + n / 2
}

/// 2x2 blocks of cells no line has yet, at random, each kept when `holds`; as many as walks make at most.
fn blocks(
    n: usize,
    used: &mut Taken,
    rng: &mut fastrand::Rng,
    holds: &dyn Fn(&[Cell]) -> bool,
) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    if n < 2 {
        return out;
    }
    let mut corners: Vec<Cell> = (0..n - 1)
        .flat_map(|r| (0..n - 1).map(move |c| Cell::new(r, c)))
        .collect();
    rng.shuffle(&mut corners);
    for corner in corners {
        if out.len() >= most_lines(n) {
            break;
        }
        let block: Vec<Cell> = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .map(|&(dr, dc)| Cell::new(corner.row + dr, corner.col + dc))
            .collect();
        if block.iter().any(|&c| used.has(c)) || !holds(&block) {
            continue;
        }
        used.take(&block);
        out.push(block);
    }
    out
}

/// Lines walked through the grid one king's step at a time (those `step` allows), never through a cell already
/// on a line nor across a line's diagonal step ([`Taken`]): from a random cell, each step to a neighbour that
/// keeps the line acceptable when there is one (else any), and the longest acceptable prefix kept
/// ([`walk_from`]). A fixed number of tries, so the time is bounded whatever the rule.
fn walks(
    n: usize,
    used: &mut Taken,
    step: &dyn Fn(Cell, Cell) -> bool,
    rng: &mut fastrand::Rng,
    holds: &dyn Fn(&[Cell]) -> bool,
) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    let longest = n.clamp(2, 8);
    for _ in 0..40 * n {
        if out.len() >= most_lines(n) {
            break;
        }
        let start = rng.usize(..n * n);
        if used.cells[start] {
            continue;
        }
        let length = rng.usize(2..=longest);
        let path = vec![Cell::new(start / n, start % n)];
        if let Some(path) = walk_from(n, used, step, rng, holds, path, length) {
            used.take(&path);
            out.push(path);
        }
    }
    out
}

/// `path` walked on to at most `length` cells, each step to a neighbour that keeps the line acceptable when
/// there is one (else any), and cut back to its longest acceptable prefix that goes past the start; `None`
/// when no prefix is acceptable.
fn walk_from(
    n: usize,
    used: &Taken,
    step: &dyn Fn(Cell, Cell) -> bool,
    rng: &mut fastrand::Rng,
    holds: &dyn Fn(&[Cell]) -> bool,
    mut path: Vec<Cell>,
    length: usize,
) -> Option<Vec<Cell>> {
    let mut best: Option<usize> = None;
    while path.len() < length {
        let last = *path.last().expect("a start");
        let mut next: Vec<Cell> = king_steps(last, n)
            .filter(|&c| step(last, c) && used.allows(&path, c))
            .collect();
        if next.is_empty() {
            break;
        }
        rng.shuffle(&mut next);
        let pick = next
            .iter()
            .copied()
            .find(|&c| {
                path.push(c);
                let ok = holds(&path);
                path.pop();
                ok
            })
            .unwrap_or(next[0]);
        path.push(pick);
        if holds(&path) {
            best = Some(path.len());
        }
    }
    let len = best?;
    path.truncate(len);
    Some(path)
}

fn king_steps(cell: Cell, n: usize) -> impl Iterator<Item = Cell> {
    let (r, c) = (cell.row as isize, cell.col as isize);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
        .filter(move |&(rr, cc)| {
            (rr, cc) != (r, c) && (0..n as isize).contains(&rr) && (0..n as isize).contains(&cc)
        })
        .map(|(rr, cc)| Cell::new(rr as usize, cc as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Peaks drawn from a solution stand above (with `less`, below) every unmarked neighbour, some are always
    /// drawn, and over many draws some stand beside each other (a fortress of several cells).
    #[test]
    fn peaks_stand_out_from_their_unmarked_neighbours() {
        let rows = ["645312", "213564", "362451", "451623", "136245", "524136"];
        let digits = |r: &str| r.chars().map(|c| c.to_digit(10).unwrap()).collect();
        let solution = Grid::from_rows(&rows.map(digits)).unwrap();
        let mut side_by_side = 0;
        for seed in 0..200 {
            let less = seed % 2 == 1;
            let mut rng = fastrand::Rng::with_seed(seed);
            let (_, form, entries) = peaks("f", "G", less, &solution, &mut rng);
            assert_eq!(form, Form::Grid);
            let marked = |c: Cell| entries[c.row * 6 + c.col].is_some();
            assert!(solution.cells().any(marked), "seed {seed}");
            assert!(!solution.cells().all(marked), "seed {seed}");
            for a in solution.cells().filter(|&c| marked(c)) {
                for b in solution
                    .cells()
                    .filter(|b| a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1)
                {
                    let (va, vb) = (solution.get(a), solution.get(b));
                    if marked(b) {
                        side_by_side += 1;
                    } else {
                        assert!(if less { va < vb } else { va > vb }, "seed {seed}: {a} {b}");
                    }
                }
            }
        }
        assert!(side_by_side > 0);
        // One group only (a 1x1 grid): it is kept whatever the coin says.
        let one = Grid::from_rows(&[vec![1]]).unwrap();
        for seed in 0..20 {
            let (_, _, entries) = peaks("f", "G", false, &one, &mut fastrand::Rng::with_seed(seed));
            assert_eq!(entries, vec![Some("G".to_owned())], "seed {seed}");
        }
    }

    /// A listed value goes from its entry as the section writes it (a run of digits on an edge, the numbers after
    /// a line's `=`), one listing at a time; the last value of an entry stays.
    #[test]
    fn a_listed_value_goes_from_its_entry() {
        let section = |form: Form, entries: &[&str]| Section {
            form,
            entries: entries.iter().map(|e| Some(e.to_string())).collect(),
            required: false,
            droppable: true,
            tied: None,
        };
        let mut draft = Draft {
            n: 9,
            ..Draft::default()
        };
        draft
            .sections
            .insert("top".into(), section(Form::Edge, &["135", "7"]));
        draft.sections.insert(
            "quads".into(),
            section(Form::Lines, &["r1c1 r1c2 r2c1 r2c2 = 5 5 6"]),
        );
        let entry = |d: &Draft, name: &str, i: usize| d.sections[name].entries[i].clone().unwrap();
        let fewer = draft.without_value("top", 0, 3).unwrap();
        assert_eq!(entry(&fewer, "top", 0), "15");
        assert!(draft.without_value("top", 1, 7).is_none());
        assert!(draft.without_value("top", 0, 4).is_none());
        let fewer = draft.without_value("quads", 0, 5).unwrap();
        assert_eq!(entry(&fewer, "quads", 0), "r1c1 r1c2 r2c1 r2c2 = 5 6");
        let names = ["top".to_owned(), "quads".to_owned()];
        assert_eq!(draft.listed(&names).len(), 7);
    }

    /// The first mark whose meaning allows every value held names the entry; none allows a mix.
    #[test]
    fn a_mark_names_an_entry_whose_values_it_allows() {
        let marks: BTreeMap<String, MarkMeaning> = [
            ("E".to_owned(), MarkMeaning::Named("even".into())),
            ("L".to_owned(), MarkMeaning::Values(vec![1, 2, 3])),
            ("O".to_owned(), MarkMeaning::Named("odd".into())),
        ]
        .into_iter()
        .collect();
        let mark = |held: &[u32]| mark_for(&marks, held, 6).map(|c| c.to_string());
        assert_eq!(mark(&[2, 4, 6]), Some("E".into()));
        assert_eq!(mark(&[1, 3, 5]), Some("O".into()));
        assert_eq!(mark(&[1, 3]), Some("L".into()));
        assert_eq!(mark(&[1, 2, 5]), None);
        assert_eq!(mark_for(&BTreeMap::new(), &[2], 6), None);
    }

    #[test]
    fn diagonals_run_from_edge_to_edge() {
        let d = diagonals(4, &mut fastrand::Rng::with_seed(1));
        // 2 directions x (2n - 1 diagonals - 2 single corners).
        assert_eq!(d.len(), 2 * (2 * 4 - 1 - 2));
        for line in &d {
            let on_edge = |c: &Cell| c.row == 0 || c.col == 0 || c.row == 3 || c.col == 3;
            assert!(
                on_edge(&line[0]) && on_edge(line.last().unwrap()),
                "{line:?}"
            );
            assert!(line
                .windows(2)
                .all(|w| w[0].row.abs_diff(w[1].row) == 1 && w[0].col.abs_diff(w[1].col) == 1));
        }
    }

    #[test]
    fn far_pairs_are_apart_related_and_disjoint() {
        let solution = Grid::from_rows(&[
            vec![1, 2, 3, 4],
            vec![3, 4, 1, 2],
            vec![2, 1, 4, 3],
            vec![4, 3, 2, 1],
        ])
        .unwrap();
        let equal = |_: &str, a: u32, b: u32| a == b;
        let (name, _, entries) =
            far_pairs("clones", equal, &solution, &mut fastrand::Rng::with_seed(5));
        assert_eq!(name, "clones");
        assert!(entries.len() >= 2, "{entries:?}");
        let mut seen = std::collections::BTreeSet::new();
        for e in entries.iter().flatten() {
            let (a, b) = e.split_once('-').unwrap();
            let cell = |t: &str| {
                let (r, c) = t.trim_start_matches('r').split_once('c').unwrap();
                Cell::new(
                    r.parse::<usize>().unwrap() - 1,
                    c.parse::<usize>().unwrap() - 1,
                )
            };
            let (a, b) = (cell(a), cell(b));
            assert!(
                a.row.abs_diff(b.row) > 1 || a.col.abs_diff(b.col) > 1,
                "{e}"
            );
            assert_eq!(solution.get(a), solution.get(b), "{e}");
            assert!(seen.insert(a) && seen.insert(b), "{e}");
        }
    }

    #[test]
    fn walks_are_accepted_and_disjoint() {
        let mut used = Taken::new(6);
        let increasing = |cells: &[Cell]| cells.windows(2).all(|w| w[0] < w[1]);
        let lines = walks(
            6,
            &mut used,
            &|_, _| true,
            &mut fastrand::Rng::with_seed(3),
            &increasing,
        );
        assert!(!lines.is_empty());
        let mut seen = std::collections::BTreeSet::new();
        // No two diagonal steps (of one line or two) cross: each 2x2 block is stepped through once at most.
        let mut blocks = std::collections::BTreeSet::new();
        for line in &lines {
            assert!(line.len() >= 2 && increasing(line));
            for c in line {
                assert!(seen.insert(*c), "{c} on two lines");
            }
            for w in line
                .windows(2)
                .filter(|w| w[0].row != w[1].row && w[0].col != w[1].col)
            {
                let block = (w[0].row.min(w[1].row), w[0].col.min(w[1].col));
                assert!(blocks.insert(block), "{block:?} crossed twice");
            }
        }
        // Rook's steps only when the section asks for cells beside each other.
        let any = |_: &[Cell]| true;
        let mut used = Taken::new(6);
        let rook = |a: Cell, b: Cell| a.is_orthogonal_neighbour(b);
        let beside = walks(6, &mut used, &rook, &mut fastrand::Rng::with_seed(3), &any);
        assert!(!beside.is_empty());
        assert!(beside
            .iter()
            .flat_map(|l| l.windows(2))
            .all(|w| w[0].is_orthogonal_neighbour(w[1])));
    }

    #[test]
    fn the_last_entry_of_a_needed_section_stays() {
        let mut draft = Draft {
            n: 2,
            ..Draft::default()
        };
        draft.sections.insert(
            "x".into(),
            Section {
                form: Form::Lines,
                entries: vec![Some("r1c1-r1c2".into()), Some("r2c1-r2c2".into())],
                required: true,
                droppable: true,
                tied: None,
            },
        );
        let one = draft.without("x", 0).unwrap();
        assert_eq!(one.droppable(), vec![("x".to_owned(), 1)]);
        assert!(one.without("x", 1).is_none());
    }

    /// Dropping an entry drops the entries tied to it (a pill with the arrow leaving it), and no other.
    #[test]
    fn a_tied_entry_goes_with_its_line() {
        let mut draft = Draft {
            n: 9,
            ..Draft::default()
        };
        let lines = |entries: &[&str], droppable, tied| Section {
            form: Form::Lines,
            entries: entries.iter().map(|e| Some(e.to_string())).collect(),
            required: false,
            droppable,
            tied,
        };
        draft.sections.insert(
            "arrows".into(),
            lines(
                &["r1c2 r2c3 r3c3", "r5c5 r6c6", "r8c1 r9c2 r9c3"],
                true,
                None,
            ),
        );
        draft.sections.insert(
            "pills".into(),
            lines(
                &["r1c1 r1c2", "r8c1 r8c2"],
                false,
                Some(("arrows".into(), vec![0, 2])),
            ),
        );
        let pills = |d: &Draft| d.sections["pills"].entries.clone();
        let fewer = draft.without("arrows", 2).unwrap();
        assert_eq!(pills(&fewer), vec![Some("r1c1 r1c2".into()), None]);
        let fewer = fewer.without("arrows", 1).unwrap();
        assert_eq!(pills(&fewer), vec![Some("r1c1 r1c2".into()), None]);
        assert!(!draft.droppable().iter().any(|(s, _)| s == "pills"));
    }

    #[test]
    fn the_last_clue_of_all_stays_though_no_section_is_needed() {
        let section = |entries: Vec<Option<String>>| Section {
            form: Form::Lines,
            entries,
            required: false,
            droppable: true,
            tied: None,
        };
        let mut draft = Draft {
            n: 2,
            ..Draft::default()
        };
        draft
            .sections
            .insert("top".into(), section(vec![Some("3".into()), None]));
        draft
            .sections
            .insert("left".into(), section(vec![None, Some("1".into())]));
        // Either may go, one of them.
        let fewer = draft.without("top", 0).unwrap();
        assert!(draft.without("left", 1).is_some());
        assert_eq!(fewer.droppable(), vec![("left".to_owned(), 1)]);
        assert!(fewer.without("left", 1).is_none());
    }
}
