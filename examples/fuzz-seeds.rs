//! Writes the fuzz targets' seed inputs (`latin::fuzzing::seeds`) where cargo-fuzz reads them: one directory
//! per target under the directory given (default `fuzz/corpus`), one file per input.
//!
//!     cargo run --release --example fuzz-seeds && cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O pasted

fn main() -> std::io::Result<()> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus".into());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = latin::fuzzing::seeds(root);
    for (i, (target, data)) in seeds.iter().enumerate() {
        let dir = std::path::Path::new(&out).join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("seed-{i:04}")), data)?;
    }
    println!("{} seeds under {out}", seeds.len());
    Ok(())
}
