//! Embeds every grammar file of `grammars/` in the binary, so a new built-in type is a file there and no list
//! to edit: writes `$OUT_DIR/grammars.rs`, a table of (file stem, contents) in file-name order.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read when the script runs, not when it is compiled: one compiled build script serves every checkout
    // that shares a target directory (CI builds fresh clones against one cache).
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("grammars");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("grammars/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut table = String::from("&[\n");
    for path in files {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 file name");
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            table,
            "    ({stem:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    table.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("grammars.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
