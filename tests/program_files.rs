//! The binary program written out (`--write-lp`, `--write-mps`) is one that other solvers read and solve to
//! latin's answer: `glpsol` (GLPK) and `cbc` (COIN-OR), on the LP and the free MPS file of one example of
//! every type, on corpus Inshi puzzles whose rooms multiply to 1 (a row with no free column), and on programs
//! that are infeasible before any search. The solvers are required under `CI=true` (`.ci/run` installs them).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use latin::{Grid, SolveOptions};

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

/// The solvers on PATH; missing ones fail under `CI=true` and are reported (and this test checks nothing)
/// elsewhere.
fn solvers_present() -> bool {
    let missing: Vec<&str> = ["glpsol", "cbc"]
        .into_iter()
        .filter(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .map_or(true, |o| !o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{missing:?} missing under CI=true (.ci/run installs glpk-utils and coinor-cbc)"
    );
    eprintln!("NOTE: {missing:?} not installed; the program files were not checked");
    false
}

/// What another solver made of a program: a grid, or infeasible.
#[derive(Debug, PartialEq)]
enum Answer {
    Grid(Grid),
    Infeasible,
}

/// `x_r1c2_3` -> (row 0, column 1, value 3).
fn column(name: &str) -> Option<(usize, usize, u32)> {
    let rest = name.strip_prefix("x_r")?;
    let (r, rest) = rest.split_once('c')?;
    let (c, v) = rest.split_once('_')?;
    Some((
        r.parse::<usize>().ok()? - 1,
        c.parse::<usize>().ok()? - 1,
        v.parse().ok()?,
    ))
}

fn grid_of(n: usize, ones: impl Iterator<Item = (String, f64)>) -> Grid {
    let mut grid = Grid::empty(n);
    for (name, value) in ones {
        if let (Some((r, c, v)), true) = (column(&name), value > 0.5) {
            grid.set(latin::Cell { row: r, col: c }, v);
        }
    }
    grid
}

/// `glpsol` on a file; `format` is `--lp` or `--freemps`. `--cuts`: without them GLPK takes minutes on the
/// sandwich encoding.
fn glpsol(file: &Path, format: &str, n: usize) -> Answer {
    let out = file.with_extension(format!("{}.glpk", &format[2..]));
    let run = Command::new("glpsol")
        .args([
            format,
            &file.to_string_lossy(),
            "--cuts",
            "--tmlim",
            "300",
            "-o",
        ])
        .arg(&out)
        .output()
        .expect("glpsol runs");
    let log = String::from_utf8_lossy(&run.stdout);
    assert!(
        !log.contains("error"),
        "glpsol on {}: {log}",
        file.display()
    );
    if log.contains("NO PRIMAL FEASIBLE") || log.contains("NO INTEGER FEASIBLE") {
        return Answer::Infeasible;
    }
    let report = std::fs::read_to_string(&out).expect("glpsol wrote its report");
    assert!(
        // `OPTIMAL` alone when no column is left free (no integer columns, so GLPK solves an LP).
        report.contains("INTEGER OPTIMAL") || report.contains("Status:     OPTIMAL"),
        "glpsol on {}: {report}",
        file.display()
    );
    // Column lines: `No. name * activity lower upper` from a MIP, `No. name NS activity ...` from an LP.
    let ones = report.lines().filter_map(|line| {
        let mut tokens = line.split_whitespace().skip(1);
        let name = tokens.next()?;
        let value = tokens.find_map(|t| t.parse().ok())?;
        Some((name.to_owned(), value))
    });
    Answer::Grid(grid_of(n, ones))
}

/// `cbc` on a file (it tells LP from MPS by the extension).
fn cbc(file: &Path, n: usize) -> Answer {
    let out = file.with_extension(format!(
        "{}.cbc",
        file.extension().unwrap().to_string_lossy()
    ));
    let run = Command::new("cbc")
        .arg(file)
        .args(["solve", "solution"])
        .arg(&out)
        .output()
        .expect("cbc runs");
    let log = String::from_utf8_lossy(&run.stdout);
    // The failure the issue saw: a row with no variable made cbc read nothing and answer "Optimal" (with no
    // grid, which the comparison with latin's grid also catches).
    assert!(
        !log.contains("Invalid") && !log.contains("ERROR"),
        "cbc on {}: {log}",
        file.display()
    );
    let report = std::fs::read_to_string(&out).expect("cbc wrote its solution");
    let status = report.lines().next().unwrap_or_default();
    if status.starts_with("Infeasible") || status.contains("infeasible") {
        return Answer::Infeasible;
    }
    assert!(
        status.starts_with("Optimal"),
        "cbc on {}: {status}",
        file.display()
    );
    // Lines: `index name value reduced-cost`.
    let ones = report.lines().skip(1).filter_map(|line| {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let k = tokens.iter().position(|t| t.starts_with("x_r"))?;
        Some((tokens[k].to_owned(), tokens.get(k + 1)?.parse().ok()?))
    });
    Answer::Grid(grid_of(n, ones))
}

/// Writes both files for a puzzle and returns every solver's answer, named.
fn answers(puzzle_file: &Path, dir: &Path, n: usize) -> Vec<(String, Answer)> {
    let stem = puzzle_file
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let (lp, mps) = (
        dir.join(format!("{stem}.lp")),
        dir.join(format!("{stem}.mps")),
    );
    let run = latin()
        .arg("solve")
        .arg(puzzle_file)
        .arg("--write-lp")
        .arg(&lp)
        .arg("--write-mps")
        .arg(&mps)
        .output()
        .unwrap();
    assert!(
        run.status.code().is_some_and(|c| c <= 1),
        "{}: {}",
        puzzle_file.display(),
        String::from_utf8_lossy(&run.stderr)
    );
    vec![
        ("glpsol --lp".into(), glpsol(&lp, "--lp", n)),
        ("glpsol --freemps".into(), glpsol(&mps, "--freemps", n)),
        ("cbc (lp)".into(), cbc(&lp, n)),
        ("cbc (mps)".into(), cbc(&mps, n)),
    ]
}

/// Every solver's grid is latin's (or, when latin finds several, obeys every rule and scores as well).
fn agree(puzzle_file: &Path, dir: &Path) {
    let puzzle = latin::load(puzzle_file, &latin::Registry::built_in()).unwrap();
    let options = SolveOptions {
        max_solutions: 2,
        ..SolveOptions::default()
    };
    let outcome = latin::solve(&puzzle, &options).unwrap();
    let score = |g: &Grid| {
        puzzle.objective().map_or(0.0, |o| {
            o.weights
                .iter()
                .map(|&(cell, w)| w * f64::from(g.get(cell)))
                .sum::<f64>()
        })
    };
    for (solver, answer) in answers(puzzle_file, dir, puzzle.size()) {
        let name = format!("{solver} on {}", puzzle_file.display());
        match (answer, outcome.solutions.as_slice()) {
            (Answer::Infeasible, []) => {}
            (Answer::Grid(grid), [only]) if outcome.complete => {
                assert_eq!(&grid, only, "{name}")
            }
            (Answer::Grid(grid), [first, ..]) => {
                assert!(latin::check(&puzzle, &grid).is_ok(), "{name}: {grid:?}");
                assert!((score(&grid) - score(first)).abs() < 1e-6, "{name}");
            }
            (answer, solutions) => panic!("{name}: {answer:?}, latin found {solutions:?}"),
        }
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latin-program-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The smallest example of each type under `puzzles/`.
fn one_example_per_type() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root).unwrap() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.unwrap().path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort_by_key(|p| {
            let size =
                latin::load(p, &latin::Registry::built_in()).map_or(usize::MAX, |q| q.size());
            (size, std::fs::metadata(p).unwrap().len())
        });
        out.extend(files.into_iter().next());
    }
    out
}

#[test]
fn other_solvers_solve_the_written_program_to_latins_answer() {
    if !solvers_present() {
        return;
    }
    let dir = temp_dir("examples");
    let examples = one_example_per_type();
    assert!(examples.len() >= 20, "{examples:?}");
    for file in &examples {
        agree(file, &dir);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn rooms_whose_product_is_one_are_checked_not_written() {
    let Some(records) = common::records("inshi.jsonl") else {
        return;
    };
    if !solvers_present() {
        return;
    }
    let dir = temp_dir("inshi");
    let with_one: Vec<_> = records
        .iter()
        .filter(|r| r["clues"].as_object().unwrap().values().any(|v| v == "1"))
        .take(2)
        .collect();
    assert_eq!(with_one.len(), 2, "the corpus has Inshi rooms of product 1");
    for (k, record) in with_one.into_iter().enumerate() {
        let file = dir.join(format!("one-{k}.yaml"));
        std::fs::write(&file, common::to_yaml(record)).unwrap();
        agree(&file, &dir);
        let lp = std::fs::read_to_string(dir.join(format!("one-{k}.lp"))).unwrap();
        assert!(!lp.contains(": >=") && !lp.contains(": <=") && !lp.contains(": ="));
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_puzzle_given_whole_is_a_program_of_bounds_only() {
    if !solvers_present() {
        return;
    }
    // Every column fixed, every row dropped: CBC's LP reader overflowed its table of names when columns were
    // named only under `Bounds`.
    let dir = temp_dir("whole");
    let file = dir.join("whole.yaml");
    let text = "type: latin\nsize: 4\ngivens: |\n  1 2 3 4\n  2 1 4 3\n  3 4 1 2\n  4 3 2 1\n";
    std::fs::write(&file, text).unwrap();
    agree(&file, &dir);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_program_infeasible_before_search_is_infeasible_in_the_file() {
    if !solvers_present() {
        return;
    }
    let dir = temp_dir("infeasible");
    // A 2 given in a room of product 3 (2 does not divide 3: the given's column is fixed to 1 and forbidden),
    // and a 3 given in a two-cell cage of sum 3 (its partner has no value left). Neither room is complete, so
    // loading accepts them; the program cannot hold.
    let inshi = "type: inshi\nsize: 3\nrooms: |\n  a a b\n  c c b\n  d e e\nhints: {a: 3, b: 6, c: 6, d: 6, e: 6}\ngivens: [r1c1=2]\n";
    let killer = "type: killer\nsize: 4\ncages: |\n  a a b c\n  d d e c\n  f g e h\n  f g i h\nhints: {a: 3, b: 3, c: 7, d: 7, e: 3, f: 5, g: 5, h: 5, i: 1}\ngivens: [r1c1=3]\n";
    for (name, text) in [("inshi", inshi), ("killer", killer)] {
        let file = dir.join(format!("{name}.yaml"));
        std::fs::write(&file, text).unwrap();
        let n = latin::load(&file, &latin::Registry::built_in())
            .unwrap()
            .size();
        for (solver, answer) in answers(&file, &dir, n) {
            assert_eq!(answer, Answer::Infeasible, "{solver} on {name}");
        }
        let lp = std::fs::read_to_string(dir.join(format!("{name}.lp"))).unwrap();
        assert!(lp.contains("infeasible: never >= 1"), "{lp}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_dash_writes_the_program_to_stdout_and_solves_nothing() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/inshi/nikoli-5x5.yaml");
    for (flag, head) in [
        ("--write-lp", "\\ latin: 5x5"),
        ("--write-mps", "NAME latin"),
    ] {
        let out = latin()
            .arg("solve")
            .arg(&file)
            .args([flag, "-"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with(head), "{text}");
        assert!(!text.contains('┃'), "no picture after the program");
        assert!(!Path::new("-").exists());
    }
    let both = latin()
        .arg("solve")
        .arg(&file)
        .args(["--write-lp", "-", "--write-mps", "-"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
}
