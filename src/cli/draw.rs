//! `latin draw FILE -o out.svg|out.png`: the puzzle as a picture file, with its answer under `--solution`;
//! `latin draw FILE... --out-dir DIR`: one picture a file, named after it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{exit_for, print, Exit};
use crate::error::Error;
use crate::model::load::Reader;
use crate::report::picture::{png, svg, Values};
use crate::solve::{SolveOptions, Status};

#[derive(clap::Args)]
pub(crate) struct DrawRun {
    /// Puzzle files; several need --out-dir
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the picture here (`.svg` or `.png`); without it, SVG goes to standard output
    #[arg(short, long, value_name = "FILE", conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Write one picture a puzzle into this directory (made if missing), each named after its file: DIR/STEM.svg,
    /// or .png with --format png (a puzzle given as a link or on standard input: puzzle-K, K its place)
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// The picture's format, when the extension of -o does not say it
    #[arg(long, value_enum)]
    format: Option<PictureFormat>,
    /// Solve the puzzle and draw its answer (givens black, solved digits blue)
    #[arg(long)]
    solution: bool,
    /// PNG pixels per SVG unit (a cell is 48 units)
    #[arg(long, default_value_t = 1.0)]
    scale: f32,
    /// With --solution: give up on a puzzle after this many seconds (exit 3)
    #[arg(long, value_name = "SECS")]
    pub(crate) time_limit: Option<f64>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum PictureFormat {
    Svg,
    Png,
}

/// The largest PNG scale: a 255x255 grid at this scale is about 12,000 pixels a side.
const MAX_SCALE: f32 = 16.0;

/// The format asked for: `--format`, else the extension of `-o`, else SVG.
fn format(run: &DrawRun) -> Result<PictureFormat, Error> {
    if let Some(f) = run.format {
        return Ok(f);
    }
    let Some(path) = &run.output else {
        return Ok(PictureFormat::Svg);
    };
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
    {
        Some(e) if e == "svg" => Ok(PictureFormat::Svg),
        Some(e) if e == "png" => Ok(PictureFormat::Png),
        _ => Err(Error::section(
            "--output",
            format!(
                "{}: name a .svg or .png file, or give --format",
                path.display()
            ),
        )),
    }
}

pub(crate) fn run(run: &DrawRun, options: &SolveOptions, reader: &Reader) -> Result<Exit, Error> {
    let format = format(run)?;
    let scale_ok = run.scale.is_finite() && run.scale > 0.0 && run.scale <= MAX_SCALE;
    if !scale_ok {
        return Err(Error::section(
            "--scale",
            format!("must be above 0 and at most {MAX_SCALE}"),
        ));
    }
    let Some(dir) = &run.out_dir else {
        let [file] = run.files.as_slice() else {
            return Err(Error::section(
                "draw",
                "several files make several pictures: give --out-dir DIR",
            ));
        };
        return draw(run, file, run.output.as_deref(), format, options, reader);
    };
    let paths = named(&run.files, dir, format)?;
    // A file in the way would otherwise say only "File exists".
    if dir.exists() && !dir.is_dir() {
        return Err(Error::section(
            "--out-dir",
            format!("{}: not a directory", dir.display()),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, &e))?;
    let mut next = paths.iter();
    super::each(&run.files, false, |file| {
        let path = next.next().expect("one path a file");
        draw(run, file, Some(path), format, options, reader)
    })
}

/// Where each puzzle's picture goes in `dir`: its file's stem (or `puzzle-K` for a link or standard input) and
/// the format's extension; refused before anything is drawn when two would be written to one path.
fn named(files: &[PathBuf], dir: &Path, format: PictureFormat) -> Result<Vec<PathBuf>, Error> {
    let ext = match format {
        PictureFormat::Svg => "svg",
        PictureFormat::Png => "png",
    };
    let mut taken: HashMap<PathBuf, &Path> = HashMap::new();
    let mut out = Vec::with_capacity(files.len());
    for (k, file) in files.iter().enumerate() {
        let stem = match file.file_stem() {
            Some(stem) if file.is_file() => stem.to_string_lossy().into_owned(),
            _ => format!("puzzle-{}", k + 1),
        };
        let path = dir.join(format!("{stem}.{ext}"));
        if let Some(before) = taken.insert(path.clone(), file) {
            return Err(Error::section(
                "--out-dir",
                format!(
                    "{} and {} would both be drawn to {}",
                    before.display(),
                    file.display(),
                    path.display()
                ),
            ));
        }
        out.push(path);
    }
    Ok(out)
}

/// One puzzle's picture, to `output` or (SVG only) standard output.
fn draw(
    run: &DrawRun,
    file: &Path,
    output: Option<&Path>,
    format: PictureFormat,
    options: &SolveOptions,
    reader: &Reader,
) -> Result<Exit, Error> {
    let png_file =
        || output.ok_or_else(|| Error::section("--output", "a PNG needs a file: -o out.png"));
    let puzzle = reader.load(file)?;
    // A PNG that cannot be written is refused before the puzzle is solved, not after.
    if format == PictureFormat::Png {
        png_file()?;
        png::fits(svg::size(puzzle.figure()), run.scale)?;
    }
    let mut status = Status::Solved;
    let outcome = run
        .solution
        .then(|| crate::solve(&puzzle, options))
        .transpose()?;
    if let Some(o) = &outcome {
        status = o.status;
        if o.solutions.is_empty() {
            let why = match o.status {
                Status::Timeout => "time limit reached without an answer",
                _ => "no solution",
            };
            eprintln!("{}: {why}; drawing the puzzle alone", file.display());
        }
    }
    let values = Values {
        givens: puzzle.givens(),
        solution: outcome.as_ref().and_then(|o| o.solutions.first()),
    };
    let picture = svg::render(puzzle.figure(), &values);
    match (format, output) {
        (PictureFormat::Svg, None) => print(&picture)?,
        (PictureFormat::Svg, Some(path)) => write(path, picture.as_bytes())?,
        (PictureFormat::Png, _) => write(png_file()?, &png::render(&picture, run.scale)?)?,
    }
    Ok(Exit(exit_for(status)))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    std::fs::write(path, bytes).map_err(|e| Error::io(path, &e))
}
