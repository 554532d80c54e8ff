//! Puzzle file (YAML) + grammar -> checked [`Puzzle`].
//!
//! The loader reads the common sections itself (`type`, `size`, `givens`, `solution`, `box`, `rules`,
//! `objective`, `title`, `author`, `source`) and every other section as its grammar declares it, then binds the
//! sections to primitives through the grammar's rule list. Everything a user wrote is checked here.

use std::collections::BTreeMap;
use std::path::Path;

use super::{bind, Objective, Puzzle, Sense};
use crate::error::{Error, Position};
use crate::grammar::sections::{self, SectionKind, SectionSpec, Sections};
use crate::grammar::{Grammar, Registry, RuleUse, COMMON_SECTIONS};
use crate::grid::Cell;
use crate::import::{self, Format};
use crate::parse::lines::first_of_several;
use crate::parse::table::Columns;
use crate::parse::{self, SectionText};
use crate::rules::catalogue;
use crate::yaml::{self, Mapping, Value};

/// Loads a puzzle file; errors name the file.
pub fn load(path: &Path, registry: &Registry) -> Result<Puzzle, Error> {
    load_capped(path, registry, DEFAULT_MAX_INPUT)
}

/// The largest puzzle file read by default: a 255x255 puzzle with every section written out is under 1 MiB.
pub const DEFAULT_MAX_INPUT: u64 = 8 << 20;

/// [`load`] with a cap on the file's size in bytes.
pub(crate) fn load_capped(
    path: &Path,
    registry: &Registry,
    max_bytes: u64,
) -> Result<Puzzle, Error> {
    let text = read_capped(path, max_bytes)?;
    load_str(&text, registry).map_err(|e| e.in_file(path.display().to_string()))
}

/// How a run reads puzzles: through which grammars, at most how many bytes a file, and in which form (`None`:
/// judged from the text, see [`import::detect`]).
#[derive(Clone, Copy)]
pub(crate) struct Reader<'a> {
    pub(crate) registry: &'a Registry,
    pub(crate) max_bytes: u64,
    pub(crate) from: Option<Format>,
}

impl Reader<'_> {
    /// A puzzle argument: a file (YAML, or a whole file holding an ID or link), `-` for standard input, or else
    /// the ID or link itself.
    pub(crate) fn load(&self, arg: &Path) -> Result<Puzzle, Error> {
        let (text, name) = self.read(arg)?;
        self.load_text(&text).map_err(|e| match name {
            Some(name) => e.in_file(name),
            None => e,
        })
    }

    /// The text of an argument, and the name errors give it (none for an ID given as the argument).
    pub(crate) fn read(&self, arg: &Path) -> Result<(String, Option<String>), Error> {
        if arg.as_os_str() == "-" {
            return Ok((read_stdin(self.max_bytes)?, Some("standard input".into())));
        }
        if arg.exists() || self.from == Some(Format::Yaml) {
            let text = read_capped(arg, self.max_bytes)?;
            return Ok((text, Some(arg.display().to_string())));
        }
        match arg.to_str() {
            Some(text) if self.from.is_some() || import::detect(text).is_some() => {
                Ok((text.to_owned(), None))
            }
            Some(text) if import::tatham::looks_bare(text) => Err(Error::section(
                "tatham",
                format!("{text:?} looks like a game ID without its game: write solo:{text} (or keen:, towers:, unequal:)"),
            )),
            _ => Err(Error::Io {
                path: arg.to_owned(),
                message:
                    "No such file or directory, and not a puzzle ID or link this version reads"
                        .into(),
            }),
        }
    }

    /// A puzzle from its text in the reader's form.
    pub(crate) fn load_text(&self, text: &str) -> Result<Puzzle, Error> {
        let (text, form) = self.form_of(text);
        load_mapping(&self.mapping_in(text, form)?, self.registry).map_err(|e| match form {
            Format::Yaml => e,
            form => e.in_pasted_form(form.name()),
        })
    }

    /// The text as the map of sections a puzzle file has: a YAML file as it is, a foreign form through its
    /// record.
    pub(crate) fn mapping(&self, text: &str) -> Result<Mapping, Error> {
        let (text, form) = self.form_of(text);
        self.mapping_in(text, form)
    }

    /// The text without a byte-order mark, and the form it is read in: the reader's, else judged from the text
    /// (once: recognising a form may read the whole text).
    fn form_of<'t>(&self, text: &'t str) -> (&'t str, Format) {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let form = self.from.or_else(|| import::detect(text));
        (text, form.unwrap_or(Format::Yaml))
    }

    fn mapping_in(&self, text: &str, form: Format) -> Result<Mapping, Error> {
        match form {
            Format::Yaml => yaml_mapping(text),
            format => {
                let mut record = import::decode(text, format)?;
                super::fit::fit(&mut record, self.registry)?;
                let kind = record["type"].as_str().unwrap_or_default();
                super::corpus::to_map(&record, &*self.registry.get(kind)?)
            }
        }
    }
}

/// Standard input, at most `max_bytes`.
fn read_stdin(max_bytes: u64) -> Result<String, Error> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("standard input", &e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::section(
            "standard input",
            format!("larger than {max_bytes} bytes (raise the limit with --max-input)"),
        ));
    }
    String::from_utf8(bytes).map_err(|_| Error::section("standard input", "not UTF-8 text"))
}

/// A text file of at most `max_bytes`, read no further than that (`/dev/zero` ends at the cap, not at the end of
/// memory).
pub(crate) fn read_capped(path: &Path, max_bytes: u64) -> Result<String, Error> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, &e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::Io {
            path: path.to_owned(),
            message: format!("larger than {max_bytes} bytes (raise the limit with --max-input)"),
        });
    }
    String::from_utf8(bytes).map_err(|e| Error::Io {
        path: path.to_owned(),
        message: format!(
            "not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        ),
    })
}

/// Loads a puzzle from the text of a puzzle file: YAML, or a puzzle ID or link latin recognises (a Tatham
/// game ID); a leading byte-order mark is skipped.
pub fn load_str(text: &str, registry: &Registry) -> Result<Puzzle, Error> {
    let reader = Reader {
        registry,
        max_bytes: DEFAULT_MAX_INPUT,
        from: None,
    };
    reader.load_text(text)
}

/// YAML text as its map of sections.
fn yaml_mapping(text: &str) -> Result<Mapping, Error> {
    const EXPECTED: &str = "expected a map of sections (`type: sudoku`, `givens: ...`)";
    let parsed = match yaml::parse(text) {
        Ok(Value::Mapping(map)) => return Ok(map),
        parsed => parsed,
    };
    // A dataset's table (`quizzes,solutions`) holds many puzzles, whether or not its text parses as YAML (a
    // quoted field followed by more does not): point to the command that reads it. Judged only here, once the
    // text is no map of sections, so reading a puzzle file costs nothing more.
    if let Some(hint) = table_hint(text) {
        return Err(Error::Yaml(format!("{EXPECTED}; {hint}")));
    }
    parsed.map_err(Error::Yaml)?;
    // A text with no `:` was most likely meant as a bare grid: say why it is not one.
    Err(match import::line::decode(text) {
        Err(e) if !text.contains(':') => Error::Yaml(format!(
            "{EXPECTED}, or a bare grid (an 81-character Sudoku line, or its rows), which it is not: {e}"
        )),
        _ => Error::Yaml(EXPECTED.into()),
    })
}

/// What to say of a text of several puzzle lines (blank and `#` lines aside, as `--lines` reads them) whose first
/// makes it many puzzles, one a line: game IDs, links or records, or a table. (One line is not many: a line of
/// `--lines` that reads as nothing is not called a file.)
fn table_hint(text: &str) -> Option<String> {
    let first = first_of_several(text)?.trim();
    let what = if import::names_its_type(first) {
        "puzzles, one a line"
    } else {
        Columns::of_first_line(first).ok()??;
        "a table of puzzles, one a line"
    };
    let shown: String = first.chars().take(40).collect();
    let more = if first.chars().count() > 40 {
        "..."
    } else {
        ""
    };
    Some(format!(
        "these are {what} (it begins `{shown}{more}`): solve every line with `latin solve --lines`"
    ))
}

/// A `--box` for a type without boxes is refused, naming the type the user asked for.
pub(crate) fn boxes_asked(kind: &str, uses_boxes: bool, boxes: Option<&str>) -> Result<(), Error> {
    if boxes.is_some() && !uses_boxes {
        return Err(Error::section(
            "--box",
            format!("type {kind} has no boxes (add --rules boxes to give it some)"),
        ));
    }
    Ok(())
}

/// A puzzle with no givens, as a file with these sections would give: the template of `solve --lines` and of
/// `generate`, whose flags are checked like the sections of a file, and named as the flags in errors
/// (`size_flag`: the flag that gave the size, `--lines` or `--size`).
pub(crate) fn template(
    kind: &str,
    size: usize,
    boxes: Option<&str>,
    rules: &[String],
    registry: &Registry,
    size_flag: &str,
) -> Result<Puzzle, Error> {
    if !(1..=255).contains(&size) {
        return Err(Error::section(
            size_flag,
            format!("{size}: a grid is from 1 to 255 cells a side"),
        ));
    }
    // Boxes by the type's grammar, or by a named rule (`generate` builds a grammar's own rules on a Latin square).
    let uses_boxes = registry.get(kind)?.uses_boxes || rules.iter().any(|r| r == "boxes");
    boxes_asked(kind, uses_boxes, boxes)?;
    if boxes.is_none() && uses_boxes && catalogue::default_boxes(size).is_none() {
        return Err(Error::section(
            "--box",
            format!(
                "no box shape tiles {size}x{size} grids by default; give one, e.g. --box 1x{size}"
            ),
        ));
    }
    let as_flag = |e: Error| match e {
        Error::Input {
            section,
            position,
            message,
        } => Error::Input {
            section: match section.as_str() {
                "type" => "--type".into(),
                "box" => "--box".into(),
                "rules" => "--rules".into(),
                "size" => size_flag.into(),
                _ => section,
            },
            position,
            message,
        },
        e => e,
    };
    load_mapping(&header(kind, size, boxes, rules), registry).map_err(as_flag)
}

/// Every primitive of `grammar` built on an n x n grid with no clues yet: a rule whose parameters depend on the
/// grid (classes in equal runs of values) refuses a size here, saying why, before `generate` draws any clue for
/// it. Every builder takes missing sections as none (`bind`'s tests hold each one to that).
pub(crate) fn primitives_fit(grammar: &Grammar, n: usize) -> Result<(), Error> {
    let site = bind::Site { n, boxes: None };
    for rule in &grammar.rules {
        if let RuleUse::Primitive { primitive, args } = rule {
            bind::build(primitive, args, &Sections::new(), &site)?;
        }
    }
    Ok(())
}

/// The sections every puzzle file of a type starts with: `type`, `size`, and `box` and `rules` when given.
pub(crate) fn header(kind: &str, size: usize, boxes: Option<&str>, rules: &[String]) -> Mapping {
    let mut map = Mapping::new();
    let mut put = |key: &str, value: Value| map.insert(Value::String(key.into()), value);
    put("type", Value::String(kind.into()));
    put("size", Value::Number((size as u64).into()));
    if let Some(b) = boxes {
        put("box", Value::String(b.into()));
    }
    if !rules.is_empty() {
        put(
            "rules",
            Value::Sequence(rules.iter().cloned().map(Value::String).collect()),
        );
    }
    map
}

/// Loads a puzzle from its sections.
pub(crate) fn load_mapping(map: &Mapping, registry: &Registry) -> Result<Puzzle, Error> {
    let kind = match map.get(Value::String("type".into())) {
        Some(v) => {
            yaml::scalar_text(v).ok_or_else(|| Error::section("type", "expected a type name"))?
        }
        None => {
            return Err(Error::section(
                "type",
                "missing: every puzzle file names its type, e.g. `type: sudoku`",
            ))
        }
    };
    load_as(map, &*registry.get(&kind)?)
}

/// [`load_mapping`] through this grammar, whatever type the map names.
pub(crate) fn load_as(map: &Mapping, grammar: &Grammar) -> Result<Puzzle, Error> {
    let get = |key: &str| map.get(Value::String(key.to_owned()));
    // A file's own `rules: [boxes]` gives boxes to a type without them (KenKen with boxes), and so `box:`.
    let uses_boxes = grammar.uses_boxes || names_boxes(get("rules"));
    check_keys(map, grammar, uses_boxes)?;
    let n = size(map, grammar)?;
    let mut puzzle = Puzzle::blank(&grammar.name, n)?;
    let shape = boxes(get("box"), uses_boxes, n)?;
    if let Some(shape) = shape {
        puzzle.set_boxes(shape);
    }
    let parsed = parse_sections(map, grammar, n)?;
    let site = bind::Site { n, boxes: shape };
    add_rules(&mut puzzle, grammar, &parsed, &site, get("rules"))?;
    if let Some(v) = get("givens") {
        add_givens(&mut puzzle, v)?;
    }
    if let Some(v) = get("solution") {
        // A `solution:` with empty cells is a grid filled part way: what `check` judges.
        let grid = grid_section("solution", v, n)?;
        if grid.cells().all(|c| grid.get(c) != 0) {
            puzzle.set_solution(Some(grid))?;
        } else if get("progress").is_some() {
            return Err(Error::section(
                "solution",
                "has empty cells, and the file has a `progress:` too",
            ));
        } else {
            puzzle.set_progress(Some(grid))?;
        }
    }
    if let Some(v) = get("progress") {
        puzzle.set_progress(Some(grid_section("progress", v, n)?))?;
    }
    if let Some(v) = get("objective") {
        puzzle.set_objective(Some(objective(v, n)?))?;
    }
    puzzle.figure_mut().add_sections(grammar, &parsed);
    Ok(puzzle)
}

/// Whether a `rules:` list names `boxes`.
fn names_boxes(rules: Option<&Value>) -> bool {
    rules
        .and_then(Value::as_sequence)
        .is_some_and(|list| list.iter().any(|v| v.as_str() == Some("boxes")))
}

/// The box shape: `box:` as written, else the default when the puzzle has boxes.
fn boxes(
    written: Option<&Value>,
    uses_boxes: bool,
    n: usize,
) -> Result<Option<(usize, usize)>, Error> {
    if let Some(v) = written {
        let text = SectionText::from_value("box", v)?;
        let (h, w) = parse::clues::box_shape(&text)?;
        if h * w != n {
            return Err(Error::section(
                "box",
                format!("boxes of {h}x{w} hold {} cells, not {n}", h * w),
            ));
        }
        return Ok(Some((h, w)));
    }
    if !uses_boxes {
        return Ok(None);
    }
    catalogue::default_boxes(n).map(Some).ok_or_else(|| {
        Error::section(
            "box",
            format!("no box shape tiles a {n}x{n} grid; give one, e.g. `box: 1x{n}`"),
        )
    })
}

/// The grammar's rules bound to the parsed sections, then the named rules of the file's own `rules:`.
fn add_rules(
    puzzle: &mut Puzzle,
    grammar: &Grammar,
    parsed: &Sections,
    site: &bind::Site,
    extra: Option<&Value>,
) -> Result<(), Error> {
    for rule in &grammar.rules {
        match rule {
            RuleUse::Named(name) => {
                puzzle
                    .add_named_rule(name)
                    .map_err(|e| Error::section(name.clone(), e.to_string()))?;
            }
            RuleUse::Primitive { primitive, args } => {
                for r in bind::build(primitive, args, parsed, site)? {
                    puzzle.add_rule(r)?;
                }
            }
        }
    }
    let Some(v) = extra else {
        return Ok(());
    };
    // A rule named again, or one the type has already (`rules: [diagonals]` on killer-x, which a record of it
    // says as `"diagonals": true`), is the same rule: the puzzle holds it once.
    let mut named: Vec<String> = grammar.named_rules().map(str::to_owned).collect();
    for (i, name) in rule_names(v)?.into_iter().enumerate() {
        if named.contains(&name) {
            continue;
        }
        let position = Position {
            line: i + 1,
            column: 1,
        };
        puzzle.add_named_rule(&name).map_err(|e| match e {
            Error::Model(m) => Error::at("rules", position, m.to_string()),
            e => e,
        })?;
        named.push(name);
    }
    Ok(())
}

/// Each given, checked against the range and the rules through its cell as it is placed; an error names where it
/// was written.
fn add_givens(puzzle: &mut Puzzle, v: &Value) -> Result<(), Error> {
    for (cell, value, position) in givens(v, puzzle.size())? {
        match puzzle.give(cell, value) {
            Ok(_) => {}
            Err(Error::Model(e)) => {
                return Err(Error::at(
                    "givens",
                    position,
                    format!("{cell} = {value}: {e}"),
                ))
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A grid of values (`.` empty), as `solution:` and `progress:` are written.
fn grid_section(name: &str, v: &Value, n: usize) -> Result<crate::grid::Grid, Error> {
    let text = SectionText::from_value(name, v)?;
    let tokens = parse::grid::tokenize(&text)?;
    parse::grid::values(&text, &tokens, n)
}

fn check_keys(map: &Mapping, grammar: &Grammar, uses_boxes: bool) -> Result<(), Error> {
    for key in map.keys() {
        let key = yaml::scalar_text(key).unwrap_or_default();
        if key == "box" && !uses_boxes {
            return Err(Error::section(
                "box",
                format!(
                    "type {} has no boxes (add `rules: [boxes]` to give it some)",
                    grammar.name
                ),
            ));
        }
        if !COMMON_SECTIONS.contains(&key.as_str()) && !grammar.sections.contains_key(&key) {
            let mut known: Vec<&str> = COMMON_SECTIONS
                .iter()
                .copied()
                .filter(|k| *k != "box" || uses_boxes)
                .collect();
            known.extend(grammar.sections.keys().map(String::as_str));
            let meant = crate::grammar::did_you_mean(key.as_str(), known.iter().copied());
            return Err(Error::section(
                key.clone(),
                format!(
                    "unknown section for type {}{meant} (it has: {})",
                    grammar.name,
                    known.join(", ")
                ),
            ));
        }
    }
    for (name, spec) in &grammar.sections {
        if !spec.optional && !map.contains_key(Value::String(name.clone())) {
            return Err(Error::section(
                name.clone(),
                format!("missing: type {} needs it ({})", grammar.name, spec.what()),
            ));
        }
    }
    Ok(())
}

/// The grid size: `size:`, else the first grid-shaped section, else the box shape.
fn size(map: &Mapping, grammar: &Grammar) -> Result<usize, Error> {
    let get = |key: &str| map.get(Value::String(key.to_owned()));
    if let Some(v) = get("size") {
        // `size: "9"`, quoted, is the same size.
        let n = v
            .as_u64()
            .or_else(|| v.as_str().and_then(|t| t.trim().parse().ok()))
            .filter(|&n| (1..=255).contains(&n))
            .ok_or_else(|| Error::section("size", "expected a whole number from 1 to 255"))?;
        return Ok(n as usize);
    }
    for key in ["givens", "solution"] {
        if let Some(v) = get(key) {
            let text = SectionText::from_value(key, v)?;
            if !looks_like_assignments(&text) {
                return Ok(parse::grid::tokenize(&text)?.size());
            }
        }
    }
    for (name, spec) in &grammar.sections {
        if let Some(v) = get(name) {
            if let Some(n) = sections::grid_size(name, spec.kind, v)? {
                return Ok(n);
            }
        }
    }
    if let Some(v) = get("box") {
        let (h, w) = parse::clues::box_shape(&SectionText::from_value("box", v)?)?;
        return Ok(h * w);
    }
    Err(Error::section(
        "size",
        "missing, and no grid in the file fixes it",
    ))
}

/// Parses the grammar's sections, regions first (clues refer to them).
pub(crate) fn parse_sections(
    map: &Mapping,
    grammar: &Grammar,
    n: usize,
) -> Result<Sections, Error> {
    let mut parsed = BTreeMap::new();
    let mut order: Vec<(&String, &SectionSpec)> = grammar.sections.iter().collect();
    order.sort_by_key(|(_, s)| s.kind != SectionKind::Regions);
    for (name, spec) in order {
        if let Some(v) = map.get(Value::String(name.clone())) {
            let value = sections::parse_section(name, spec, v, n, &parsed)?;
            parsed.insert(name.clone(), value);
        }
    }
    Ok(parsed)
}

fn looks_like_assignments(text: &SectionText) -> bool {
    text.content_lines()
        .next()
        .is_some_and(|(_, l)| l.contains('='))
}

/// Givens written as a YAML mapping (`givens: {r1c1: 5, r2c3: 2}`), read as the entries `r1c1=5`, one a line.
fn mapping_as_entries(entries: &Mapping) -> Result<SectionText, Error> {
    let lines = entries
        .iter()
        .map(
            |(cell, value)| match (yaml::scalar_text(cell), yaml::scalar_text(value)) {
                (Some(cell), Some(value)) => Ok(format!("{cell}={value}")),
                _ => Err(Error::section(
                    "givens",
                    "a mapping of givens takes a cell and a value an entry: {r1c1: 5, r2c3: 2}",
                )),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SectionText {
        name: "givens".to_owned(),
        lines,
    })
}

/// Givens as a grid, as `rRcC=V` entries, or as a mapping of cells to values, each with where it was written.
fn givens(v: &Value, n: usize) -> Result<Vec<(Cell, u32, Position)>, Error> {
    let text = match v {
        Value::Mapping(entries) => mapping_as_entries(entries)?,
        _ => SectionText::from_value("givens", v)?,
    };
    if looks_like_assignments(&text) {
        let entries = parse::cells::assignments(&text, n)?;
        let lines: Vec<usize> = text.content_lines().map(|(i, _)| i).collect();
        return Ok(entries
            .into_iter()
            .zip(lines)
            .map(|((c, v), l)| {
                (
                    c,
                    v,
                    Position {
                        line: l + 1,
                        column: 1,
                    },
                )
            })
            .collect());
    }
    let tokens = parse::grid::tokenize(&text)?;
    let grid = parse::grid::values(&text, &tokens, n)?;
    Ok(grid
        .filled()
        .map(|(c, v)| (c, v, tokens.token(c.row, c.col).position()))
        .collect())
}

pub(crate) fn rule_names(v: &Value) -> Result<Vec<String>, Error> {
    match v {
        Value::Sequence(items) => items
            .iter()
            .map(|i| {
                yaml::scalar_text(i).ok_or_else(|| Error::section("rules", "expected rule names"))
            })
            .collect(),
        other => Ok(yaml::scalar_text(other)
            .ok_or_else(|| Error::section("rules", "expected a list of rule names"))?
            .split([',', ' ', '\n'])
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()),
    }
}

/// The largest objective weight accepted. The objective of an optimal grid is at most 1e6 * 255 * 255^2 =
/// 1.7e13 in size, well inside the integers a double holds exactly (2^53 = 9e15), so the backend compares
/// objectives without rounding; weights of 1e21 or `.nan` used to make an empty grid "infeasible".
const MAX_WEIGHT: f64 = 1e6;

fn objective(v: &Value, n: usize) -> Result<Objective, Error> {
    let bad = || {
        Error::section(
            "objective",
            "expected {maximize: {r1c1: 1, ...}} or {minimize: {...}}",
        )
    };
    let Value::Mapping(m) = v else {
        return Err(bad());
    };
    if m.len() != 1 {
        return Err(bad());
    }
    let (k, weights) = m.iter().next().ok_or_else(bad)?;
    let sense: Sense = yaml::from_value(k.clone()).map_err(|_| bad())?;
    let Value::Mapping(w) = weights else {
        return Err(bad());
    };
    let mut out = Vec::new();
    for (cell, weight) in w {
        let name = yaml::scalar_text(cell).unwrap_or_default();
        let cell =
            parse::cells::cell(&SectionText::single(&format!("objective.{name}"), &name), n)?;
        let weight = weight
            .as_f64()
            .filter(|w| w.is_finite() && w.abs() <= MAX_WEIGHT)
            .ok_or_else(|| {
                Error::section(
                    format!("objective.{name}"),
                    format!("the weight must be a number from -{MAX_WEIGHT:e} to {MAX_WEIGHT:e}"),
                )
            })?;
        out.push((cell, weight));
    }
    Ok(Objective {
        sense,
        weights: out,
    })
}
