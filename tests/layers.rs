//! The house rule, checked: data flows one way through `src/`. Each top-level module may import only the
//! modules before it in the pipeline order below (foundations first), so no import circle can form. Unit tests
//! (`#[cfg(test)] mod tests`) may reach anywhere and are not counted.

use std::path::{Path, PathBuf};

/// The pipeline order: a module may import only the ones before it.
const ORDER: &[&str] = &[
    // Foundations.
    "grid", "yaml", "error", "domains", "program", // The pipeline.
    "parse", "import", "grammar", "rules", "model", "compile", "solve", "verify", "analyse",
    "report", // Drivers, then the command line.
    "bulk", "bench", "fuzzing", "cli",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a file's code (its unit tests left out) names: `crate::NAME...` paths, and the names
/// at the top of a `crate::{...}` group.
fn imports(text: &str) -> Vec<&'static str> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut named = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut open = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    open += i32::from(c == '{') - i32::from(c == '}');
                    open == 0
                })
                .map_or(group.len(), |(k, _)| k);
            let inner = &group[..end];
            // Top-level names of the group: the first word of each comma-separated item (nested groups
            // hold names below those, which are not modules of the crate root).
            let mut depth = 0;
            let mut item_start = true;
            let mut word = String::new();
            for ch in inner.chars() {
                if (ch.is_alphanumeric() || ch == '_') && depth == 0 && item_start {
                    word.push(ch);
                    continue;
                }
                if !word.is_empty() {
                    named.push(std::mem::take(&mut word));
                    item_start = false;
                }
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    _ => {}
                }
            }
            if !word.is_empty() {
                named.push(word);
            }
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            named.push(word);
        }
    }
    ORDER
        .iter()
        .copied()
        .filter(|m| named.iter().any(|n| n == m))
        .collect()
}

#[test]
fn every_module_imports_only_modules_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let top = top.trim_end_matches(".rs");
        if matches!(top, "lib" | "main") {
            continue;
        }
        let at = ORDER
            .iter()
            .position(|m| *m == top)
            .unwrap_or_else(|| panic!("src/{top} is not in the layer order: add it to ORDER"));
        checked += 1;
        let text = std::fs::read_to_string(file).unwrap();
        for m in imports(&text) {
            let theirs = ORDER.iter().position(|x| *x == m).unwrap();
            if theirs > at {
                wrong.push(format!(
                    "src/{} imports {m}, which comes after {top}",
                    rel.display()
                ));
            }
        }
    }
    assert!(checked > 30, "only {checked} files were checked");
    assert!(
        wrong.is_empty(),
        "imports against the flow:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_an_import_against_the_flow() {
    assert_eq!(imports("use crate::solve::Outcome;\n"), ["solve"]);
    assert_eq!(
        imports("use crate::{model, solve::X};\n"),
        ["model", "solve"]
    );
    assert_eq!(
        imports("use crate::{report::{a, b}, grid};\n"),
        ["grid", "report"]
    );
    assert_eq!(imports("let x = crate::solve(&p, &o);\n"), ["solve"]);
    assert!(imports("#[cfg(test)]\nmod tests {\n use crate::cli::x;\n}").is_empty());
}
