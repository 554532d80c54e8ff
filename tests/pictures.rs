//! Pictures as a user sees them: the text picture of every example type (golden files), SVG that parses,
//! and PNGs whose thick walls are exactly where the puzzle files put their regions.
//!
//! The wall checks read the region map from the YAML themselves and look at pixels, so they test what is
//! drawn, not the code that decides it. The frame is found in the image (scanning the diagonal from each
//! corner), so a change of margins does not break them; a change of where walls go does.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use resvg::tiny_skia::Pixmap;

fn latin() -> Command {
    Command::cargo_bin("latin").expect("the latin binary is built")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The first example file of each type directory of `puzzles/`, by name.
fn one_per_type() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("puzzles"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|d| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
                .collect();
            files.sort();
            files.remove(0)
        })
        .collect()
}

fn stdout(args: &[&str]) -> String {
    let out = latin().current_dir(root()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

#[test]
fn text_pictures_of_every_example_type() {
    let files = one_per_type();
    assert!(files.len() >= 20, "{} example types", files.len());
    for path in files {
        let file = relative(&path);
        let kind = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let shown = stdout(&["show", &file, "--color", "never"]);
        let solved = stdout(&["solve", &file, "--color", "never"]);
        let ascii = stdout(&["show", &file, "--ascii"]);
        assert!(ascii.is_ascii(), "{file}: --ascii wrote {ascii}");
        insta::assert_snapshot!(kind, format!("$ latin show {file}\n{shown}\n$ latin solve {file}\n{solved}\n$ latin show --ascii {file}\n{ascii}"));
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let file = "puzzles/killer/killer-6x6.yaml";
    let always = stdout(&["solve", file, "--color", "always"]);
    assert!(always.contains("\x1b[1m5"), "the given 5 is bold: {always}");
    assert!(always.contains("\x1b[34m"), "solved values are blue");
    assert!(
        !always.contains("[5]"),
        "no brackets when colour sets givens apart"
    );
    // Not a terminal: no colour, and givens in brackets instead.
    let auto = stdout(&["solve", file]);
    assert!(!auto.contains('\x1b'), "{auto}");
    assert!(auto.contains("[5]"), "{auto}");
    let out = latin()
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args(["solve", file, "--color", "auto"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
}

#[test]
fn plain_grid_format_reads_back_as_a_solution() {
    let text = stdout(&[
        "solve",
        "puzzles/sudoku/clue-list-9x9.yaml",
        "--format",
        "grid",
    ]);
    assert!(text.starts_with("5 3 4 | 6 7 8 | 9 1 2\n"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("back.yaml");
    let solution: String = text.lines().map(|l| format!("  {l}\n")).collect();
    let original =
        std::fs::read_to_string(root().join("puzzles/sudoku/clue-list-9x9.yaml")).unwrap();
    let without: String = original.split("\nsolution:").next().unwrap().to_owned();
    std::fs::write(&path, format!("{without}\nsolution: |\n{solution}")).unwrap();
    latin().arg("check").arg(&path).assert().success();
}

#[test]
fn every_example_draws_as_svg_that_parses() {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root().join("puzzles")).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    assert!(files.len() >= 40);
    for path in files {
        let file = relative(&path);
        for args in [
            vec!["draw", &file],
            vec!["draw", &file, "--solution"],
            vec!["solve", &file, "--format", "svg"],
        ] {
            let svg = stdout(&args);
            let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default());
            assert!(tree.is_ok(), "{args:?}: {:?}", tree.err());
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        }
    }
}

/// A PNG of the puzzle drawn by the command line.
fn png(file: &str, extra: &[&str]) -> Pixmap {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.png");
    latin()
        .current_dir(root())
        .args(["draw", file, "-o"])
        .arg(&out)
        .args(extra)
        .assert()
        .success();
    Pixmap::load_png(&out).unwrap()
}

fn dark(p: &Pixmap, x: u32, y: u32) -> bool {
    let c = p.pixel(x, y).unwrap();
    u32::from(c.red()) + u32::from(c.green()) + u32::from(c.blue()) < 3 * 90
}

/// The grid's outer corners: the first dark pixel on the diagonal from each corner of the image.
fn frame(p: &Pixmap) -> (f64, f64) {
    let first = (0..p.width()).find(|&k| dark(p, k, k)).unwrap();
    let last = (0..p.width())
        .find(|&k| dark(p, p.width() - 1 - k, p.height() - 1 - k))
        .unwrap();
    (
        f64::from(first) + 1.5,
        f64::from(p.width() - 1 - last) - 1.5,
    )
}

/// The share of dark pixels on the vertical segment at x, over the middle of row r's cells.
fn dark_share(p: &Pixmap, x: f64, top: f64, cell: f64) -> f64 {
    let ys: Vec<u32> = (0..20)
        .map(|k| (top + cell * (0.35 + 0.3 * f64::from(k) / 19.0)) as u32)
        .collect();
    let hits = ys
        .iter()
        .filter(|&&y| (-1..=1).any(|dx| dark(p, (x + f64::from(dx)).round() as u32, y)))
        .count();
    hits as f64 / ys.len() as f64
}

/// The region map of a puzzle file's section, row by row.
fn region_map(file: &str, section: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    doc[section]
        .as_str()
        .unwrap()
        .lines()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .map(String::from)
                .collect()
        })
        .filter(|row: &Vec<String>| !row.is_empty())
        .collect()
}

/// Checks every vertical edge between two cells of a row: a thick wall (dark down its middle) exactly where
/// `wall` says, and at `inset` pixels on both sides a dashed outline (partly dark) exactly where `dashed` says.
fn check_walls(
    p: &Pixmap,
    n: usize,
    wall: &dyn Fn(usize, usize) -> bool,
    dashed: &dyn Fn(usize, usize) -> bool,
) {
    let (left, right) = frame(p);
    let cell = (right - left) / n as f64;
    for r in 0..n {
        for c in 0..n - 1 {
            let x = left + (c + 1) as f64 * cell;
            let top = left + r as f64 * cell;
            let on = dark_share(p, x, top, cell);
            if wall(r, c) {
                assert!(
                    on > 0.9,
                    "r{}c{}|c{}: no wall drawn ({on})",
                    r + 1,
                    c + 1,
                    c + 2
                );
            } else {
                assert!(
                    on == 0.0,
                    "r{}c{}|c{}: a wall where none is ({on})",
                    r + 1,
                    c + 1,
                    c + 2
                );
            }
            let inset = cell * 5.0 / 48.0;
            let beside =
                dark_share(p, x - inset, top, cell).min(dark_share(p, x + inset, top, cell));
            if dashed(r, c) {
                assert!(
                    beside > 0.3,
                    "r{}c{}|c{}: no cage outline ({beside})",
                    r + 1,
                    c + 1,
                    c + 2
                );
            } else {
                assert!(
                    beside == 0.0,
                    "r{}c{}|c{}: an outline where none is",
                    r + 1,
                    c + 1,
                    c + 2
                );
            }
        }
    }
}

#[test]
fn box_walls_are_thick_and_nothing_else_is() {
    let p = png("puzzles/sudoku/clue-list-9x9.yaml", &[]);
    check_walls(&p, 9, &|_, c| c % 3 == 2, &|_, _| false);
}

#[test]
fn region_walls_follow_the_room_map() {
    for (file, section, n) in [
        ("puzzles/jigsaw/jigsaw-9x9.yaml", "regions", 9),
        ("puzzles/inshi/rooms-6x6.yaml", "rooms", 6),
    ] {
        let map = region_map(file, section);
        assert_eq!(map.len(), n);
        let p = png(file, &["--scale", "2"]);
        check_walls(&p, n, &|r, c| map[r][c] != map[r][c + 1], &|_, _| false);
    }
}

#[test]
fn killer_cages_are_dashed_inside_thick_boxes() {
    let file = "puzzles/killer/killer-6x6.yaml";
    let map = region_map(file, "cages");
    let p = png(file, &["--scale", "2"]);
    check_walls(&p, 6, &|_, c| c == 2, &|r, c| map[r][c] != map[r][c + 1]);
}

#[test]
fn png_size_scale_and_colours() {
    let file = "puzzles/sudoku/clue-list-9x9.yaml";
    let one = png(file, &[]);
    let two = png(file, &["--scale", "2", "--solution"]);
    assert_eq!(
        (two.width(), two.height()),
        (2 * one.width(), 2 * one.height())
    );
    // 9 cells of 48 units and a quarter cell of margin on each side.
    assert_eq!(one.width(), 9 * 48 + 24);
    let white = one.pixel(0, 0).unwrap();
    assert_eq!((white.red(), white.green(), white.blue()), (255, 255, 255));
    let blue = |p: &Pixmap| {
        p.pixels()
            .iter()
            .filter(|c| u32::from(c.blue()) > u32::from(c.red()) + 80)
            .count()
    };
    assert_eq!(blue(&one), 0, "no solved digits without --solution");
    assert!(blue(&two) > 1000, "solved digits are blue");
}

#[test]
fn draw_refuses_what_it_cannot_write() {
    let dir = tempfile::tempdir().unwrap();
    let out = latin()
        .current_dir(root())
        .args(["draw", "puzzles/sudoku/clue-list-9x9.yaml", "-o"])
        .arg(dir.path().join("p.gif"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name a .svg or .png file"));
    latin()
        .current_dir(root())
        .args([
            "draw",
            "puzzles/sudoku/clue-list-9x9.yaml",
            "--format",
            "png",
        ])
        .assert()
        .code(2);
    latin()
        .current_dir(root())
        .args([
            "draw",
            "puzzles/sudoku/clue-list-9x9.yaml",
            "--scale",
            "1e9",
            "-o",
        ])
        .arg(dir.path().join("p.png"))
        .assert()
        .code(2);
}

/// A PNG that cannot be written (too many pixels, or no file named) is refused before the puzzle is solved: a
/// 16x16 with no solution says only why the picture is refused, not that the puzzle has no solution.
#[test]
fn draw_refuses_a_png_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let n = 16;
    let mut rows = vec![vec![".".to_string(); n]; n];
    for (c, cell) in rows[0].iter_mut().enumerate().take(n - 1) {
        *cell = (c + 1).to_string();
    }
    // r1c16 can only be 16, which column 16 already holds.
    rows[1][n - 1] = n.to_string();
    let grid: Vec<String> = rows.iter().map(|r| format!("  {}", r.join(" "))).collect();
    let file = dir.path().join("none.yaml");
    let text = format!("type: latin\nsize: {n}\ngivens: |\n{}\n", grid.join("\n"));
    std::fs::write(&file, text).unwrap();
    let refused = |args: &[&str], why: &str| {
        let out = latin().arg("draw").arg(&file).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: only the refusal: {err}");
    };
    let png = dir.path().join("p.png");
    let png = png.to_str().unwrap();
    refused(&["--solution", "--scale", "16", "-o", png], "lower --scale");
    refused(&["--solution", "--format", "png"], "a PNG needs a file");
    // The same puzzle at a scale that fits is solved, found to have no solution and drawn alone.
    let out = latin()
        .arg("draw")
        .arg(&file)
        .args(["--solution", "-o", png])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no solution"));
}

/// `draw FILE... --out-dir DIR`: each file's picture in DIR after its name, the same picture `draw FILE` prints;
/// a file that does not load is said once and the others drawn; a clash of names or several files without a
/// directory are refused before anything is written.
#[test]
fn draw_takes_several_files_into_a_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.yaml");
    std::fs::write(&bad, "type: latin\ngivens: |\n  1 1\n  . .\n").unwrap();
    let inshi = "puzzles/inshi/nikoli-5x5.yaml";
    let kenken = "puzzles/kenken/kenken-6x6.yaml";
    let alone = |file: &str| {
        latin()
            .current_dir(root())
            .args(["draw", file])
            .output()
            .unwrap()
            .stdout
    };
    let dir = tmp.path().join("new/pictures");
    let out = latin()
        .current_dir(root())
        .args(["draw", inshi])
        .arg(&bad)
        .args(["-", kenken, "--out-dir"])
        .arg(&dir)
        .write_stdin(std::fs::read(root().join(kenken)).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.matches("bad.yaml").count(), 1, "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["kenken-6x6.svg", "nikoli-5x5.svg", "puzzle-3.svg"]);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert_eq!(read("nikoli-5x5.svg"), alone(inshi));
    assert_eq!(read("kenken-6x6.svg"), alone(kenken));
    assert_eq!(read("puzzle-3.svg"), alone(kenken));
    // PNG by --format; a clash refused with nothing written; several files need the directory.
    let pngs = tmp.path().join("pngs");
    latin()
        .current_dir(root())
        .args(["draw", inshi, kenken, "--format", "png", "--out-dir"])
        .arg(&pngs)
        .assert()
        .code(0);
    let png = Pixmap::load_png(pngs.join("kenken-6x6.png")).unwrap();
    assert!(png.width() > 0 && png.height() > 0);
    let clash = tmp.path().join("clash");
    let out = latin()
        .current_dir(root())
        .args(["draw", inshi, kenken, inshi, "--out-dir"])
        .arg(&clash)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would both be drawn to"));
    assert!(!clash.exists(), "nothing written on a clash");
    // A file where the directory should be is named as such.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = latin()
        .current_dir(root())
        .args(["draw", inshi, kenken, "--out-dir"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--out-dir: ") && err.contains("a-file: not a directory"),
        "{err}"
    );
    let out = latin()
        .current_dir(root())
        .args(["draw", inshi, kenken])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out-dir"));
}

/// A pill is a rounded outline around its cells: along its top edge, from the first cell's centre to the
/// second's, the picture is drawn on; drawn without its pills (the arrows then leave one-cell circles), the
/// same segment is white but where it crosses a grid line and a circle's rim.
#[test]
fn pills_are_outlined_over_their_cells() {
    let file = "puzzles/arrow/pill-arrow-9x9.yaml";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let pill = doc["pills"][1].as_str().unwrap().to_owned();
    assert_eq!(
        pill, "r6c4 r6c5",
        "the example's second pill lies along row 6"
    );
    let bare = tempfile::NamedTempFile::new().unwrap();
    let without: String = text
        .lines()
        .filter(|l| {
            !l.starts_with("pills:")
                && !l.starts_with("  - r8c3 r8c4")
                && !l.starts_with("  - r6c4 r6c5")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(bare.path(), without).unwrap();
    let drawn_on = |p: &Pixmap| {
        let (left, right) = frame(p);
        let cell = (right - left) / 9.0;
        let y = (left + 5.5 * cell - 0.4 * cell).round() as u32;
        let xs: Vec<u32> = (0..40)
            .map(|k| (left + 3.5 * cell + cell * f64::from(k) / 39.0) as u32)
            .collect();
        let white = |x: u32, y: u32| {
            let c = p.pixel(x, y).unwrap();
            c.red() > 240 && c.green() > 240 && c.blue() > 240
        };
        let hits = xs
            .iter()
            .filter(|&&x| (-1..=1).any(|dy: i32| !white(x, (y as i32 + dy) as u32)))
            .count();
        hits as f64 / xs.len() as f64
    };
    let with = drawn_on(&png(file, &["--scale", "2"]));
    let alone = drawn_on(&png(bare.path().to_str().unwrap(), &["--scale", "2"]));
    assert!(with > 0.9, "the pill's top edge is not drawn ({with})");
    assert!(
        alone < 0.3,
        "without pills the segment is drawn on ({alone})"
    );
}

/// Every example file in `puzzles/`.
fn every_example() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root().join("puzzles")).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "yaml") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    files
}

/// `solve --format json --max 2` of a file: its solutions and whether they are all there are.
fn solutions(file: &Path) -> Result<serde_json::Value, String> {
    let out = latin()
        .current_dir(root())
        .arg("solve")
        .arg(file)
        .args(["--format", "json", "--max", "2"])
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(format!(
            "exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    Ok(serde_json::json!([
        json["solutions"],
        json["count"],
        json["complete"]
    ]))
}

/// What `show` prints reads back in, as a pasted picture: the walls, givens and named rules (the legend under
/// the frame) of a Sudoku, jigsaw or Latin square are that puzzle again, with the same solutions; and every
/// picture that shows more (cage sums, signs, dots, lines, edge clues) is refused by the picture reader with exit
/// 2, never read as another puzzle. A solved picture (`--solution`: the givens bracketed) reads as the puzzle
/// with its solution.
#[test]
fn text_pictures_read_back_as_their_puzzle_or_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (mut read, mut refused) = (Vec::new(), 0);
    for file in every_example() {
        for style in [&[][..], &["--ascii"][..]] {
            let mut args = vec!["show", file.to_str().unwrap(), "--color", "never"];
            args.extend(style);
            let picture = dir.path().join("picture.txt");
            std::fs::write(&picture, stdout(&args)).unwrap();
            match solutions(&picture) {
                Ok(back) => {
                    let theirs = solutions(&file).unwrap();
                    assert_eq!(back, theirs, "{} {style:?}", relative(&file));
                    args.push("--solution");
                    std::fs::write(&picture, stdout(&args)).unwrap();
                    let record = stdout(&["convert", picture.to_str().unwrap(), "--to", "record"]);
                    let record: serde_json::Value = serde_json::from_str(&record).unwrap();
                    // With no givens to bracket (an empty grid), the answer is all the picture has.
                    let answer = match &record["solution"] {
                        serde_json::Value::Null => &record["givens"],
                        solution => solution,
                    };
                    assert_eq!(answer, &theirs[0][0], "{}: solved", relative(&file));
                    read.push(relative(&file));
                }
                Err(e) => {
                    assert!(
                        e.starts_with("exit Some(2)") && e.contains("picture:"),
                        "{}: {e}",
                        relative(&file)
                    );
                    refused += 1;
                }
            }
        }
    }
    // Named rules come back from the legend: these would otherwise read as plain Sudokus.
    for (named, rule) in [
        ("diagonal-9x9", "diagonals"),
        ("disjoint-groups-9x9", "disjoint-groups"),
        ("four-givens-magic-9x9", "magic-centre"),
    ] {
        let file = format!("puzzles/sudoku/{named}.yaml");
        assert!(read.contains(&file), "{file} not read back: {read:?}");
        let picture = dir.path().join("named.txt");
        std::fs::write(&picture, stdout(&["show", &file, "--color", "never"])).unwrap();
        let yaml = stdout(&["convert", picture.to_str().unwrap(), "--to", "yaml"]);
        assert!(yaml.contains(&format!("- {rule}\n")), "{file}: {yaml}");
    }
    for kind in ["puzzles/sudoku/", "puzzles/jigsaw/", "puzzles/latin/"] {
        assert!(
            read.iter().any(|f| f.starts_with(kind)),
            "no {kind} read back: {read:?}"
        );
    }
    for kind in [
        "killer",
        "futoshiki",
        "skyscrapers",
        "kropki",
        "thermo",
        "sandwich",
    ] {
        assert!(
            !read
                .iter()
                .any(|f| f.starts_with(&format!("puzzles/{kind}/"))),
            "{kind} read back from a picture: {read:?}"
        );
    }
    assert!(refused > 50, "{refused} refused");
}

/// `convert --to picture` writes `show`'s picture only where it reads back as the same puzzle (with the file's
/// solution, givens in brackets), and refuses every other type plainly.
#[test]
fn pictures_are_written_only_where_they_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("written.txt");
    let mut drawn = 0;
    for file in every_example() {
        let out = latin()
            .current_dir(root())
            .arg("convert")
            .arg(&file)
            .args(["--to", "picture"])
            .output()
            .unwrap();
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.code() == Some(2) && err.contains("--to picture"),
                "{}: {err}",
                relative(&file)
            );
            continue;
        }
        std::fs::write(&written, &out.stdout).unwrap();
        assert_eq!(
            solutions(&written).unwrap(),
            solutions(&file).unwrap(),
            "{}",
            relative(&file)
        );
        let record = |f: &Path| -> serde_json::Value {
            let text = stdout(&["convert", f.to_str().unwrap(), "--to", "record"]);
            serde_json::from_str(&text).unwrap()
        };
        let (back, theirs) = (record(&written), record(&file));
        assert_eq!(back["solution"], theirs["solution"], "{}", relative(&file));
        drawn += 1;
    }
    assert!(drawn >= 10, "{drawn} written");
}

/// The clues of little-killer arrows that point into neighbouring cells from one margin cell (one entering
/// down-left, the next down-right; one entering up-right, the next down-right) stand apart: no two of their
/// text boxes come within a third of a digit of each other, a digit taken as DejaVu Sans's (0.64 of the size
/// wide). Along the diagonals, 44 and 25 read as "4425".
#[test]
fn little_killer_clues_over_one_margin_cell_stand_apart() {
    let diagonals = [
        "r1c4..r4c1 = 22",
        "r1c6..r4c9 = 25",
        "r6c1..r1c6 = 33",
        "r8c1..r9c2 = 17",
    ];
    let puzzle = format!(
        "type: little-killer\nsize: 9\ndiagonals:\n{}",
        diagonals.map(|d| format!("  - {d}\n")).concat()
    );
    let out = latin()
        .args(["draw", "-"])
        .write_stdin(puzzle)
        .assert()
        .success();
    let svg = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let attr = |tag: &str, name: &str| -> f64 {
        let from = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[from..].split('"').next().unwrap().parse().unwrap()
    };
    // Each clue's box: left, right, top, bottom (the baseline less the height of a digit).
    let boxes: Vec<(String, [f64; 4])> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let label = rest.split('<').next()?.to_string();
            ["22", "25", "33", "17"].contains(&label.as_str()).then(|| {
                let (x, y, size) = (attr(tag, "x"), attr(tag, "y"), attr(tag, "font-size"));
                let width = 0.64 * size * label.len() as f64;
                let left = match tag {
                    _ if tag.contains("\"middle\"") => x - width / 2.0,
                    _ if tag.contains("\"end\"") => x - width,
                    _ => x,
                };
                // Half the gap on every side.
                let pad = 0.64 * size / 6.0;
                (
                    label,
                    [
                        left - pad,
                        left + width + pad,
                        y - 0.72 * size - pad,
                        y + pad,
                    ],
                )
            })
        })
        .collect();
    assert_eq!(boxes.len(), 4, "{svg}");
    for (i, (a, p)) in boxes.iter().enumerate() {
        for (b, q) in &boxes[i + 1..] {
            let apart = p[1] <= q[0] || q[1] <= p[0] || p[3] <= q[2] || q[3] <= p[2];
            assert!(apart, "{a} at {p:?} and {b} at {q:?} are too close");
        }
    }
}
