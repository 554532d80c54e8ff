//! Grammars: puzzle types as data.
//!
//! A grammar file (`grammars/NAME.yaml`) declares a puzzle type: the sections a puzzle file of that type has
//! (each of a known [`SectionKind`], so the parser knows how to read it) and the rules the type is made of:
//! named whole-grid rules (`latin`, `boxes`, ...) and primitive uses that bind sections to a rule primitive
//! (`{primitive: product, regions: rooms, clues: hints}`). A new type made of existing primitives is a new
//! grammar file and no Rust code.
//!
//! The built-in grammars are embedded in the binary; [`Registry::load_dir`] adds or overrides grammars from a
//! directory. Every grammar is checked when it is loaded, so a mistake in one is reported against the grammar,
//! not against the first puzzle that uses it.

pub(crate) mod classes;
pub(crate) mod compose;
pub(crate) mod sections;
pub(crate) mod vocabulary;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::error::Error;
use crate::yaml;
use sections::{ClueKind, SectionKind, SectionSpec};

/// A primitive use's arguments as its grammar file gives them: the sections it reads and its parameters.
pub(crate) type Args = BTreeMap<String, yaml::Value>;

/// A rule of the type: a named whole-grid rule, or a primitive bound to sections.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum RuleUse {
    Named(String),
    Primitive {
        primitive: String,
        #[serde(flatten)]
        args: Args,
    },
}

/// A checked puzzle-type declaration.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grammar {
    pub name: String,
    /// What `latin grammars` says of the type; a grammar written for one's own use may leave it out.
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub(crate) sections: BTreeMap<String, SectionSpec>,
    pub(crate) rules: Vec<RuleUse>,
    /// Whether the type uses `box:` (and so accepts it in puzzle files).
    #[serde(skip)]
    pub(crate) uses_boxes: bool,
    /// The file's text as it was read, for `latin grammars TYPE` (a start for a grammar of one's own).
    #[serde(skip)]
    pub(crate) text: String,
}

/// Sections every puzzle file may have, whatever its type.
pub(crate) const COMMON_SECTIONS: &[&str] = &[
    "type",
    "size",
    "title",
    "author",
    "source",
    "givens",
    "solution",
    "progress",
    "box",
    "rules",
    "objective",
];

impl Grammar {
    /// The rules the grammar names (`latin`, `boxes`, `diagonals`, ...), in its order.
    pub(crate) fn named_rules(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().filter_map(|r| match r {
            RuleUse::Named(name) => Some(name.as_str()),
            RuleUse::Primitive { .. } => None,
        })
    }

    /// Parses and checks a grammar file's text.
    pub(crate) fn parse(origin: &str, text: &str) -> Result<Grammar, Error> {
        let bad = |message: String| Error::Grammar {
            grammar: origin.to_owned(),
            message,
        };
        let mut g: Grammar = yaml::from_str(text).map_err(|e| bad(e.to_string()))?;
        for (name, spec) in &g.sections {
            check_section(name, spec, &g.sections).map_err(bad)?;
        }
        for rule in &g.rules {
            match rule {
                RuleUse::Named(name) => {
                    if !vocabulary::is_named_rule(name) {
                        return Err(bad(format!(
                            "unknown rule {name:?}{} (known: {}){}",
                            vocabulary::rule_suggestion(name),
                            vocabulary::named_rule_list(),
                            crate::error::indentation_hint(name)
                        )));
                    }
                }
                RuleUse::Primitive { primitive, args } => {
                    vocabulary::check_use(primitive, args, &g.sections).map_err(bad)?
                }
            }
        }
        // Every type of the family is a Latin square first. A grammar that left `latin` out would have its
        // puzzles solved as grids of any digits (an empty one as all 1s) and called valid.
        if !g.named_rules().any(|n| n == "latin") {
            return Err(bad(
                "`rules:` must include `latin`: every type is a Latin square first (each row and column \
                 holds 1..n once), with its own rules on top"
                    .to_owned(),
            ));
        }
        let boxes = g.named_rules().any(|n| n == "boxes");
        g.uses_boxes = boxes;
        g.text = text.to_owned();
        Ok(g)
    }
}

/// One section's declaration: `clue:`, `marks:` and the shape flags only where they apply; a clues section `of:`
/// a regions section.
fn check_section(
    name: &str,
    spec: &SectionSpec,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    if COMMON_SECTIONS.contains(&name) {
        return Err(format!(
            "section {name:?} is common to every type and cannot be redeclared"
        ));
    }
    if spec.kind == SectionKind::Clues {
        let of = spec
            .of
            .as_deref()
            .ok_or_else(|| format!("clues section {name:?} needs `of:` (a regions section)"))?;
        let regions = || {
            sections
                .iter()
                .filter(|(_, s)| s.kind == SectionKind::Regions)
                .map(|(k, _)| k.as_str())
        };
        match sections.get(of) {
            Some(s) if s.kind == SectionKind::Regions => {}
            Some(s) => {
                return Err(format!(
                    "section {name:?}: `of: {of}` is a {} section, not a regions section",
                    s.kind
                ))
            }
            None => {
                return Err(format!(
                    "section {name:?}: `of: {of}` names no section of this grammar{}",
                    did_you_mean(of, regions())
                ))
            }
        }
    }
    let clue_fits = match spec.kind {
        SectionKind::Clues => matches!(spec.clue, ClueKind::Integer | ClueKind::Arithmetic),
        SectionKind::Edge => {
            matches!(
                spec.clue,
                ClueKind::Integer | ClueKind::Sum | ClueKind::Values | ClueKind::Arrows
            )
        }
        SectionKind::Lines => matches!(
            spec.clue,
            ClueKind::Integer | ClueKind::Values | ClueKind::Arithmetic | ClueKind::Marks
        ),
        _ => spec.clue == ClueKind::Integer,
    };
    if !clue_fits {
        return Err(format!(
            "section {name:?}: `clue: {}` does not apply to a {} section (clues: integer or arithmetic; edge: sum, values or arrows; lines: values, arithmetic or marks)",
            spec.clue, spec.kind
        ));
    }
    if spec.straight && spec.kind != SectionKind::Lines {
        return Err(format!(
            "section {name:?}: `straight` applies to lines sections only"
        ));
    }
    if spec.anywhere && (spec.kind != SectionKind::Lines || spec.straight || spec.adjacent) {
        return Err(format!(
            "section {name:?}: `anywhere` applies to lines sections only, without `straight` or `adjacent`"
        ));
    }
    if spec.block && (spec.kind != SectionKind::Lines || spec.straight || spec.adjacent) {
        return Err(format!(
            "section {name:?}: `block` applies to lines sections only, without `straight` or `adjacent`"
        ));
    }
    if spec.adjacent && !matches!(spec.kind, SectionKind::Pairs | SectionKind::Lines) {
        return Err(format!(
            "section {name:?}: `adjacent` applies to pairs and lines sections only"
        ));
    }
    let marked = spec.kind == SectionKind::Marks || spec.clue == ClueKind::Marks;
    if marked && spec.marks.is_empty() {
        return Err(format!(
            "section {name:?} needs `marks:` (what each mark allows)"
        ));
    }
    if !marked && !spec.marks.is_empty() {
        return Err(format!(
            "section {name:?}: `marks` applies to marks sections and lines sections with `clue: marks`"
        ));
    }
    for meaning in spec.marks.values() {
        meaning
            .allowed(9)
            .map_err(|m| format!("section {name:?}: {m}"))?;
    }
    Ok(())
}

/// The built-in grammars: every file of `grammars/`, embedded at compile time by `build.rs`.
const BUILT_IN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/grammars.rs"));

/// The origin recorded for built-in grammars.
pub(crate) const BUILT_IN_ORIGIN: &str = "built in";

/// The grammars known to a run: built-in ones plus any loaded from directories.
///
/// A grammar file that fails to load does not take the others down: it is kept as [`Broken`], reported by
/// `latin grammars`, and its error is what a puzzle naming that type gets.
#[derive(Clone, Debug)]
pub struct Registry {
    grammars: BTreeMap<String, Slot>,
    /// Where each grammar loaded from a directory came from, for reporting overrides.
    origins: BTreeMap<String, String>,
    /// Grammars that replaced another of the same name: (name, what was replaced, the new file).
    overrides: Vec<(String, String, String)>,
    broken: Vec<Broken>,
}

/// A type's grammar as the registry holds it.
#[derive(Clone, Debug)]
enum Slot {
    /// Loaded from a directory (or added) already parsed.
    Loaded(Grammar),
    /// A built-in grammar's file stem and text, parsed the first time it is asked for: a run that reads one
    /// puzzle needs one grammar of the fifty-odd, and parsing them all was 1.3 ms of CPU of a 4.2 ms `latin
    /// solve` of a 9x9 (2026-12-01). Every built-in parses and declares its stem (`built_ins_load`).
    BuiltIn(&'static str, &'static str, OnceLock<Grammar>),
}

impl Slot {
    fn grammar(&self) -> &Grammar {
        match self {
            Slot::Loaded(g) => g,
            Slot::BuiltIn(stem, text, parsed) => parsed.get_or_init(|| {
                let g = Grammar::parse(&format!("built-in {stem}"), text)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(&g.name, stem, "a built-in grammar declares its file's stem");
                g
            }),
        }
    }
}

/// A grammar file that could not be loaded.
#[derive(Clone, Debug)]
pub struct Broken {
    /// The file's stem (`kropki` for `kropki.yaml`): the type name it most likely declares.
    pub stem: String,
    /// The `name:` the file gives, where its YAML reads that far: the type it certainly meant to declare.
    pub declares: Option<String>,
    pub path: String,
    pub error: Error,
}

/// The `name:` a grammar file's text gives, read through the same guard as the file itself, whatever else in it
/// is wrong.
fn declared_name(text: &str) -> Option<String> {
    let doc = yaml::parse(text).ok()?;
    doc.get("name")?.as_str().map(str::to_owned)
}

impl Registry {
    /// The built-in grammars.
    pub fn built_in() -> Registry {
        let grammars: BTreeMap<String, Slot> = BUILT_IN
            .iter()
            .map(|&(stem, text)| (stem.to_owned(), Slot::BuiltIn(stem, text, OnceLock::new())))
            .collect();
        let origins = grammars
            .keys()
            .map(|k| (k.clone(), BUILT_IN_ORIGIN.to_owned()))
            .collect();
        Registry {
            grammars,
            origins,
            overrides: Vec::new(),
            broken: Vec::new(),
        }
    }

    /// Adds (or overrides) every `*.yaml` / `*.yml` grammar in `dir`. Only a directory that cannot be read is
    /// an error; a file that does not load is recorded (see [`Registry::broken`]) and the others still load.
    pub fn load_dir(&mut self, dir: &Path) -> Result<(), Error> {
        let io = |source: std::io::Error| Error::io(dir, &source);
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        paths.sort();
        for path in paths {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(&path);
            let loaded = match &text {
                Ok(text) => Grammar::parse(&shown, text),
                Err(e) => Err(Error::io(&path, e)),
            };
            match loaded {
                Ok(g) => self.add(g, shown),
                Err(error) => self.broken.push(Broken {
                    stem: path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    declares: text.ok().and_then(|t| declared_name(&t)),
                    path: shown,
                    error,
                }),
            }
        }
        Ok(())
    }

    /// Where a type's grammar came from: `built in`, or its file.
    pub(crate) fn origin(&self, name: &str) -> Option<&str> {
        self.origins.get(name).map(String::as_str)
    }

    /// Whether the type's grammar is the one built in (not loaded from a directory, nor overridden by one).
    pub(crate) fn is_built_in(&self, name: &str) -> bool {
        self.origins.get(name).is_some_and(|o| o == BUILT_IN_ORIGIN)
    }

    /// Adds (or overrides) one grammar, loaded from `origin`.
    pub(crate) fn add(&mut self, g: Grammar, origin: String) {
        if let Some(before) = self.origins.insert(g.name.clone(), origin.clone()) {
            self.overrides.push((g.name.clone(), before, origin));
        }
        self.grammars.insert(g.name.clone(), Slot::Loaded(g));
    }

    /// The grammar of a type: a loaded one, or one composed of loaded types joined by `+` (`killer+thermo`,
    /// see the `compose` module). A type no grammar declares is an error naming the known ones and every grammar file
    /// that failed to load, with its error; when a grammar file of that name (or whose `name:` is that name)
    /// failed to load, that file's error alone.
    pub fn get(&self, name: &str) -> Result<Cow<'_, Grammar>, Error> {
        match self.loaded(name) {
            Ok(g) => Ok(Cow::Borrowed(g)),
            Err(e) if !name.contains(compose::JOIN) => Err(e),
            Err(_) => {
                let names: Vec<&str> = name.split(compose::JOIN).collect();
                let mut parts = Vec::with_capacity(names.len());
                for (i, part) in names.iter().enumerate() {
                    if part.is_empty() {
                        return Err(Error::section(
                            "type",
                            format!("{name}: an empty part (types join as killer+thermo)"),
                        ));
                    }
                    if names[..i].contains(part) {
                        return Err(Error::section(
                            "type",
                            format!(
                                "{name}: {part} twice (each part of a type made of types once)"
                            ),
                        ));
                    }
                    parts.push(self.loaded(part)?);
                }
                compose::compose(name, &parts).map(Cow::Owned)
            }
        }
    }

    /// A grammar loaded or built in under this very name.
    fn loaded(&self, name: &str) -> Result<&Grammar, Error> {
        // A file of that name that failed to load wins over a built-in grammar (the author meant to replace
        // it, and silently solving with the old rules would mislead), not over one loaded from a directory.
        let from_dir = self.origins.get(name).is_some_and(|o| o != BUILT_IN_ORIGIN);
        if !from_dir {
            let meant = |b: &&Broken| b.stem == name || b.declares.as_deref() == Some(name);
            if let Some(b) = self.broken.iter().find(meant) {
                return Err(b.error.clone());
            }
        }
        if let Some(slot) = self.grammars.get(name) {
            return Ok(slot.grammar());
        }
        // A file named otherwise may still have been meant to declare it: say which files did not load, and why.
        Err(Error::UnknownType {
            name: name.to_owned(),
            suggestion: did_you_mean(name, self.grammars.keys().map(String::as_str)),
            known: self.grammars.keys().cloned().collect::<Vec<_>>().join(", "),
            unloaded: self.unloaded(),
        })
    }

    /// `; not loaded, ERROR` for each grammar file that failed to load (empty when all did): for an error about a
    /// type no loaded grammar has, since one of those files may have been meant to declare it.
    pub(crate) fn unloaded(&self) -> String {
        self.broken
            .iter()
            .map(|b| format!("; not loaded, {}", b.error))
            .collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Grammar> {
        self.grammars.values().map(Slot::grammar)
    }

    /// Grammar files that failed to load, in the order met.
    pub fn broken(&self) -> &[Broken] {
        &self.broken
    }

    /// Each grammar that replaced an earlier one of the same name: (type, what it replaced, the new file).
    pub fn overrides(&self) -> &[(String, String, String)] {
        &self.overrides
    }
}

impl Default for Registry {
    fn default() -> Self {
        Registry::built_in()
    }
}

/// `, did you mean X?` when [`suggest`] finds the known name a mistyped one meant, else empty.
pub(crate) fn did_you_mean<'a>(name: &str, known: impl Iterator<Item = &'a str> + Clone) -> String {
    suggest(name, known)
        .map(|k| format!(", did you mean {k}?"))
        .unwrap_or_default()
}

/// The known name (a type, a section, a rule) a mistyped one most likely meant: the same name in other case, else
/// the known name that is a part of it (`killer-sudoku`, `sudoku-x`; the longest, the first on a tie), else the
/// closest spelling (`kiler`, `thermometer`, `given`) when it is close enough to be a slip rather than another
/// word.
pub(crate) fn suggest<'a>(
    name: &str,
    known: impl Iterator<Item = &'a str> + Clone,
) -> Option<&'a str> {
    let lower = name.to_lowercase();
    if let Some(k) = known.clone().find(|k| k.to_lowercase() == lower) {
        return Some(k);
    }
    let parts: Vec<&str> = lower.split(['-', '_', ' ', '+']).collect();
    let part = known
        .clone()
        .filter(|k| parts.contains(k))
        .fold(None, |best: Option<&str>, k| match best {
            Some(b) if b.len() >= k.len() => Some(b),
            _ => Some(k),
        });
    if part.is_some() {
        return part;
    }
    known
        .map(|k| (strsim::jaro_winkler(&lower, k), k))
        .filter(|&(score, _)| score >= 0.88)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_type_is_matched_to_the_known_one_it_most_likely_meant() {
        let known = [
            "killer",
            "sudoku",
            "thermo",
            "futoshiki",
            "killer-x",
            "inshi",
        ];
        let got = |name: &str| suggest(name, known.iter().copied());
        assert_eq!(got("Sudoku"), Some("sudoku"));
        assert_eq!(got("KILLER-X"), Some("killer-x"));
        assert_eq!(got("killer-sudoku"), Some("killer"));
        assert_eq!(got("sudoku-x"), Some("sudoku"));
        assert_eq!(got("inshi-no-heya"), Some("inshi"));
        assert_eq!(got("kiler"), Some("killer"));
        assert_eq!(got("futoshki"), Some("futoshiki"));
        assert_eq!(got("thermometer"), Some("thermo"));
        for far in ["kakuro", "nonogram", "x"] {
            assert_eq!(got(far), None, "{far}");
        }
    }

    #[test]
    fn built_ins_load() {
        let r = Registry::built_in();
        // Each parses when asked for, and declares the type its file is named for (the key it is found by).
        for (stem, _) in BUILT_IN {
            assert_eq!(&r.get(stem).unwrap().name, stem);
        }
        assert_eq!(r.iter().count(), BUILT_IN.len());
        assert!(r.get("sudoku").unwrap().uses_boxes);
        assert!(r
            .get("nope")
            .unwrap_err()
            .to_string()
            .contains("unknown puzzle type"));
    }

    #[test]
    fn a_grammar_needs_no_description() {
        let g = Grammar::parse("g", "name: mine\nrules: [latin, boxes]\n").unwrap();
        assert_eq!((g.name.as_str(), g.description.as_str()), ("mine", ""));
        assert!(g.uses_boxes);
        // Rows and columns are what every type shares: a grammar without them is refused.
        let e = Grammar::parse("g", "name: mine\nrules: [boxes]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("must include `latin`"), "{e}");
    }

    #[test]
    fn bad_grammars_are_reported() {
        let e = Grammar::parse("g", "name: x\ndescription: d\nrules: [latin, flying]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown rule \"flying\""), "{e}");
        let e = Grammar::parse(
            "g",
            "name: x\ndescription: d\nsections: {h: {kind: clues}}\nrules: [latin]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("needs `of:`"), "{e}");
        let e = Grammar::parse("g", "name: x\ndescription: d\nrules: [{primitive: product, regions: rooms, clues: hints}]\n").unwrap_err().to_string();
        assert!(e.contains("rooms"), "{e}");
    }

    /// A grammar author's slips in a name are matched to the name meant, and kinds are spelt as the file spells
    /// them.
    #[test]
    fn slips_in_a_grammar_name_what_was_meant() {
        let killer = |sections: &str, rule: &str| {
            let text = format!("name: k\nsections:\n{sections}rules:\n  - latin\n  - {rule}\n");
            Grammar::parse("g", &text).unwrap_err().to_string()
        };
        let both = "  cages: {kind: regions}\n  hints: {kind: clues, of: cages}\n";
        for (sections, rule, said) in [
            (
                both,
                "{primitive: sums, regions: cages, clues: hints}",
                "unknown primitive \"sums\", did you mean sum? (known: ",
            ),
            (
                both,
                "{primitive: sum, region: cages, clues: hints}",
                "unknown parameter \"region\", did you mean regions? (it takes ",
            ),
            (
                both,
                "{primitive: sum, regions: cage, clues: hints}",
                "`regions: cage` names no section of this grammar, did you mean cages?",
            ),
            (
                both,
                "{primitive: sum, regions: hints, clues: hints}",
                "`regions: hints` must be a regions section, it is clues",
            ),
            (
                "  cages: {kind: regions}\n  hints: {kind: clues, of: cage}\n",
                "latin",
                "`of: cage` names no section of this grammar, did you mean cages?",
            ),
            (
                "  cages: {kind: lines}\n  hints: {kind: clues, of: cages}\n",
                "latin",
                "`of: cages` is a lines section, not a regions section",
            ),
            (
                "  cages: {kind: regions}\n  hints: {kind: clues, of: cages, clue: sum}\n",
                "latin",
                "`clue: sum` does not apply to a clues section",
            ),
            (
                both,
                "{primitive: sum, regions: cages, clues: hints, distinkt: true}",
                "unknown parameter \"distinkt\", did you mean distinct?",
            ),
        ] {
            let e = killer(sections, rule);
            assert!(e.contains(said), "{rule}: {e}");
        }
        // Nothing close: no guess.
        let e = killer(both, "{primitive: flying, regions: cages}");
        assert!(e.contains("unknown primitive \"flying\" (known: "), "{e}");
    }

    /// Edge clues that are sets of values are what `frame-contains` reads and all it reads.
    #[test]
    fn sets_of_values_on_an_edge_go_with_frame_contains() {
        let grammar = |clue: &str, primitive: &str| {
            Grammar::parse(
                "g",
                &format!("name: x\nsections: {{t: {{kind: edge{clue}}}}}\nrules: [latin, {{primitive: {primitive}, top: t, depth: 3}}]\n"),
            )
            .map(|_| ())
            .map_err(|e| e.to_string())
        };
        assert_eq!(grammar(", clue: values", "frame-contains"), Ok(()));
        let e = grammar("", "frame-contains").unwrap_err();
        assert!(
            e.contains("edge section \"t\" must have `clue: values`"),
            "{e}"
        );
        let e = grammar(", clue: values", "frame-sum").unwrap_err();
        assert!(e.contains("which only `frame-contains` reads"), "{e}");
    }

    /// A list of values is what `contains` reads and all it reads, an arithmetic clue on 2x2 blocks what
    /// `diagonal-pairs` reads and all it reads; `block` and `clue: values` are for lines.
    #[test]
    fn clue_kinds_and_blocks_go_with_lines_and_their_readers() {
        let grammar = |section: &str, primitive: &str| {
            Grammar::parse(
                "g",
                &format!("name: x\nsections: {{q: {{kind: {section}}}}}\nrules: [latin, {{primitive: {primitive}, lines: q}}]\n"),
            )
            .map(|_| ())
            .map_err(|e| e.to_string())
        };
        assert_eq!(
            grammar("lines, block: true, clue: values", "contains"),
            Ok(())
        );
        assert_eq!(
            grammar("lines, block: true, clue: arithmetic", "diagonal-pairs"),
            Ok(())
        );
        assert_eq!(
            grammar(
                "lines, block: true, clue: marks, marks: {E: even}",
                "within"
            ),
            Ok(())
        );
        for (section, primitive, says) in [
            (
                "lines, anywhere: true",
                "contains",
                "must have `clue: values`",
            ),
            (
                "lines, clue: values",
                "all-different",
                "only `contains` reads",
            ),
            ("pairs, block: true", "contains", "`block` applies to lines"),
            (
                "lines, block: true, straight: true",
                "contains",
                "`block` applies to lines",
            ),
            ("marks, clue: values", "contains", "does not apply"),
            (
                "lines, block: true",
                "diagonal-pairs",
                "must have `clue: arithmetic`",
            ),
            (
                "lines, anywhere: true, clue: arithmetic",
                "diagonal-pairs",
                "must have `block: true`",
            ),
            (
                "lines, block: true, clue: arithmetic",
                "all-different",
                "only `diagonal-pairs` reads",
            ),
            (
                "lines, block: true, clue: marks",
                "within",
                "needs `marks:`",
            ),
            (
                "lines, block: true, marks: {E: even}",
                "within",
                "`marks` applies to marks sections and lines sections with `clue: marks`",
            ),
            (
                "lines, clue: marks, marks: {E: even}",
                "all-different",
                "only `within` reads",
            ),
            ("lines, block: true", "within", "must have `clue: marks`"),
            (
                "lines, clue: marks, marks: {E: teal}",
                "within",
                "unknown mark meaning",
            ),
        ] {
            let e = grammar(section, primitive).unwrap_err();
            assert!(e.contains(says), "{section} {primitive}: {e}");
        }
    }
}
