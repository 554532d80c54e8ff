//! Which files a bench run measures, and what each is called.
//!
//! A puzzle's identity is its path relative to the parent of the directory it was found under (`inshi/a.yaml`
//! for `latin bench puzzles/inshi`, wherever that is run from), plus a hash of its content: a baseline taken
//! from another directory, or with absolute paths, still matches puzzle by puzzle, and an edited puzzle is
//! told apart from a slower one. Grammar files in the tree are skipped with a note, not benchmarked as broken
//! puzzles. Corpus files (`.jsonl`) are read a record a line, each a puzzle named `file.jsonl#ID`, and so is a
//! file given by name whose lines are puzzles that name their type (IDs, links), each `file#lineK`.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::parse::lines::{first_of_several, is_puzzle_line};
use crate::yaml::{self, Value};

/// A puzzle to benchmark: a puzzle file, or one record of a corpus file (`.jsonl`, one JSON object a line).
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) path: PathBuf,
    pub(crate) id: String,
    /// The record's line, for a corpus file.
    pub(crate) record: Option<String>,
}

/// The files found, and those passed over with the reason.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    pub(crate) entries: Vec<Entry>,
    pub(crate) skipped: Vec<(String, String)>,
}

/// The puzzle files under `paths`: files as given, directories searched recursively for `.yaml`, `.yml` and
/// `.jsonl`, in sorted order; an argument that is no file but a puzzle ID or link is one puzzle.
pub(crate) fn collect(paths: &[PathBuf]) -> Result<Collected, Error> {
    let mut out = Collected::default();
    for p in paths {
        if p.is_dir() {
            // The directory's own name starts the ids: `.` and `..` are named by what they stand for.
            let full = p.canonicalize().map_err(|e| Error::io(p, &e))?;
            let name = full.file_name().map(|n| n.to_string_lossy().to_string());
            walk(p, Path::new(name.as_deref().unwrap_or("")), &mut out)?;
        } else if p.exists() {
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().to_string());
            add(p, name, &mut out)?;
        } else if let Some(id) = p.to_str().filter(|t| crate::import::detect(t).is_some()) {
            // A puzzle ID or link given as the argument: read as `solve` reads it.
            out.entries.push(Entry {
                path: p.clone(),
                id: id.to_owned(),
                record: None,
            });
        } else {
            return Err(Error::Io {
                path: p.clone(),
                message: "no such file or directory".into(),
            });
        }
    }
    // The same id twice (two arguments with equal names): number the later ones.
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for e in &mut out.entries {
        let k = seen.entry(e.id.clone()).or_insert(0);
        *k += 1;
        if *k > 1 {
            e.id = format!("{}#{k}", e.id);
        }
    }
    Ok(out)
}

fn walk(dir: &Path, prefix: &Path, out: &mut Collected) -> Result<(), Error> {
    let io = |source: std::io::Error| Error::io(dir, &source);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for p in entries {
        let Some(name) = p.file_name().map(PathBuf::from) else {
            continue;
        };
        if p.is_dir() {
            walk(&p, &prefix.join(&name), out)?;
        } else if p
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "jsonl")
        {
            let id = prefix.join(&name).to_string_lossy().replace('\\', "/");
            add(&p, id, out)?;
        }
    }
    Ok(())
}

/// The largest corpus file read: the biggest of `../shared/corpus` is under 2 MB.
const MAX_CORPUS_BYTES: u64 = 256 << 20;

fn add(path: &Path, id: String, out: &mut Collected) -> Result<(), Error> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if extension == "jsonl" {
        let text = crate::model::load::read_capped(path, MAX_CORPUS_BYTES)?;
        return add_records(path, &id, &text, out);
    }
    if extension != "yaml" && extension != "yml" {
        // Read once: judged here, and its lines taken from the same text.
        if let Ok(text) = crate::model::load::read_capped(path, MAX_CORPUS_BYTES) {
            if holds_puzzle_lines(&text) {
                return add_records(path, &id, &text, out);
            }
        }
    }
    if is_grammar(path) {
        out.skipped.push((
            id,
            "a grammar file, not a puzzle (give its directory to --grammars to use it)".into(),
        ));
    } else {
        out.entries.push(Entry {
            path: path.to_path_buf(),
            id,
            record: None,
        });
    }
    Ok(())
}

/// Whether a file's text holds several puzzles one a line, each naming its type, as `solve --lines` reads them
/// (Tatham IDs, puzz.link or f-puzzles links): its first puzzle line is one, and another line follows.
fn holds_puzzle_lines(text: &str) -> bool {
    first_of_several(text).is_some_and(crate::import::names_its_type)
}

/// Every record of a corpus file's text, or puzzle of a file of them one a line, named by its `id` (or its line
/// number).
fn add_records(path: &Path, id: &str, text: &str, out: &mut Collected) -> Result<(), Error> {
    for (k, line) in text.lines().enumerate() {
        if !is_puzzle_line(line) {
            continue;
        }
        let name = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v["id"].as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("line{}", k + 1));
        out.entries.push(Entry {
            path: path.to_path_buf(),
            id: format!("{id}#{name}"),
            record: Some(line.to_owned()),
        });
    }
    Ok(())
}

/// A YAML map with `rules:` and a `name:` but no `type:` declares a type; it is not a puzzle.
fn is_grammar(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Ok(Value::Mapping(map)) = yaml::parse(&text) else {
        return false;
    };
    let has = |k: &str| map.contains_key(Value::String(k.into()));
    !has("type") && has("name") && has("rules")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_relative_to_the_named_directory_and_grammars_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("set");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/a.yaml"), "type: sudoku\nsize: 4\n").unwrap();
        std::fs::write(
            root.join("g.yaml"),
            "name: g\ndescription: x\nrules: [latin]\n",
        )
        .unwrap();
        std::fs::write(root.join("notes.txt"), "").unwrap();
        std::fs::write(root.join("c.jsonl"), "{\"id\": \"k1\"}\n\n{}\n").unwrap();
        let found = collect(std::slice::from_ref(&root)).unwrap();
        let ids: Vec<&str> = found.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(
            ids,
            ["set/c.jsonl#k1", "set/c.jsonl#line3", "set/sub/a.yaml"]
        );
        assert_eq!(found.skipped.len(), 1);
        assert_eq!(found.skipped[0].0, "set/g.yaml");
        // The same tree named another way gives the same ids.
        let again = collect(&[root.join("sub/..")]).unwrap();
        assert_eq!(again.entries[2].id, "set/sub/a.yaml");
    }
}
