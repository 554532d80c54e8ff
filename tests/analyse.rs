//! `latin candidates` and `latin check` on a grid filled part way, as a user meets them on the command line.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// On every example (each has one solution), the candidates are the solution: one value a cell, all fixed.
#[test]
fn the_candidates_of_a_unique_puzzle_are_its_solution() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut checked = 0;
    for dir in std::fs::read_dir(&root).unwrap() {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let file = file.unwrap().path();
            let text = std::fs::read_to_string(&file).unwrap();
            let has_solution = text.lines().any(|l| l.starts_with("solution:"));
            if !has_solution || file.to_string_lossy().contains("little-killer-9x9") {
                continue;
            }
            let out = latin()
                .arg("candidates")
                .arg(&file)
                .args(["--format", "json"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", file.display());
            let got = json(&out);
            let solved = latin()
                .arg("solve")
                .arg(&file)
                .args(["--format", "json"])
                .output()
                .unwrap();
            let solution = &json(&solved)["solutions"][0];
            let n = solution.as_array().unwrap().len();
            assert_eq!(got["fixed"], n * n, "{}", file.display());
            for (r, row) in got["candidates"].as_array().unwrap().iter().enumerate() {
                for (c, values) in row.as_array().unwrap().iter().enumerate() {
                    assert_eq!(
                        values,
                        &serde_json::json!([solution[r][c]]),
                        "{} r{}c{}",
                        file.display(),
                        r + 1,
                        c + 1
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}

/// A half-filled `solution:` is judged cell by cell, and the answer never shows the solution.
#[test]
fn a_half_filled_grid_names_its_wrong_cells_and_keeps_the_secret() {
    let dir = std::env::temp_dir().join(format!("latin-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let puzzle = "type: sudoku\nsize: 4\ngivens: |\n  1 2 3 4\n  . . . .\n  2 1 . 3\n  . 3 . 1\n";
    let cases = [
        ("  1 2 3 4\n  3 4 . .\n  2 1 . 3\n  . 3 . 1\n", 0, vec![]),
        (
            "  1 2 3 4\n  4 . . .\n  2 1 . 3\n  . 3 . 1\n",
            1,
            vec!["r2c1 = 4"],
        ),
        (
            "  1 2 3 4\n  3 3 . .\n  2 1 . 3\n  . 3 . 1\n",
            1,
            vec!["r2c2 = 3"],
        ),
    ];
    for (k, (grid, code, named)) in cases.into_iter().enumerate() {
        let file = dir.join(format!("p{k}.yaml"));
        std::fs::write(&file, format!("{puzzle}solution: |\n{grid}")).unwrap();
        let out = latin().arg("check").arg(&file).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(code), "{grid}: {text}");
        for cell in named {
            assert!(text.contains(cell), "{grid}: {text}");
        }
        // The solution's second row (3 4 1 2) appears nowhere in the answer.
        assert!(
            !text.contains("3 4 1 2") && !text.contains("3412"),
            "{text}"
        );
        let j = json(
            &latin()
                .arg("check")
                .arg(&file)
                .args(["--format", "json"])
                .output()
                .unwrap(),
        );
        assert_eq!(j["ok"], code == 0, "{j}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Several solutions: the cells that differ between them keep several candidates, and a partial grid that no
/// solution completes is said to be so.
#[test]
fn several_solutions_show_what_is_open() {
    let dir = std::env::temp_dir().join(format!("latin-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("open.yaml");
    std::fs::write(
        &file,
        "type: latin\nsize: 3\ngivens: |\n  1 . .\n  . . .\n  . . .\n",
    )
    .unwrap();
    let got = json(
        &latin()
            .arg("candidates")
            .arg(&file)
            .args(["--format", "json"])
            .output()
            .unwrap(),
    );
    assert_eq!(got["several"], true);
    assert_eq!(got["candidates"][0][0], serde_json::json!([1]));
    assert_eq!(got["candidates"][1][1], serde_json::json!([1, 2, 3]));
    let stuck = dir.join("stuck.yaml");
    std::fs::write(
        &stuck,
        "type: latin\nsize: 3\nprogress: |\n  1 . .\n  . 1 .\n  . . 2\n",
    )
    .unwrap();
    let out = latin().arg("check").arg(&stuck).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no solution agrees"));
    std::fs::remove_dir_all(dir).ok();
}

/// `hint --all` on puzzles Tatham's generator grades up to Advanced: every placement is the solution's value,
/// every strike is not, and the steps fill the grid. A `progress:` grid is taken as filled.
#[test]
fn hints_follow_to_the_solution_and_start_from_progress() {
    let Some(solo) = common::tatham_game("solo") else {
        return;
    };
    let out = Command::new(&solo)
        .args(["--generate", "8", "3x3da"])
        .output()
        .unwrap();
    for id in String::from_utf8(out.stdout).unwrap().split_whitespace() {
        let id = format!("solo:{id}");
        let solved = json(
            &latin()
                .args(["solve", &id, "--format", "json"])
                .output()
                .unwrap(),
        );
        let solution = &solved["solutions"][0];
        let steps = json(
            &latin()
                .args(["hint", &id, "--all", "--format", "json"])
                .output()
                .unwrap(),
        );
        assert_eq!(steps["finished"], true, "{id}");
        for s in steps["steps"].as_array().unwrap() {
            let cell = s["cell"].as_str().unwrap();
            let (r, c) = cell[1..].split_once('c').unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            let right = solution[r - 1][c - 1] == s["value"];
            assert_eq!(s["place"].as_bool().unwrap(), right, "{id}: {s}");
        }
    }
    let dir = std::env::temp_dir().join(format!("latin-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.yaml");
    // With all but r4c3 filled by the person, the one step left is that cell.
    let base = "type: sudoku\nsize: 4\ngivens: |\n  1 2 3 4\n  . . . .\n  2 1 . 3\n  . 3 . 1\n";
    std::fs::write(
        &file,
        format!("{base}progress: |\n  . . . .\n  3 4 1 2\n  . . 4 .\n  4 . . .\n"),
    )
    .unwrap();
    let out = latin().arg("hint").arg(&file).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "r4c3 = 2: 2 is the only value left for r4c3"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// `generate`: every puzzle made has one solution (proved by `count`), the same seed makes the same puzzle, the
/// asked grade is the grade `rate` gives, for givens-only and region types.
#[test]
fn generated_puzzles_are_unique_reproducible_and_graded() {
    let runs = [
        vec!["sudoku", "--size", "4"],
        vec!["sudoku", "--size", "6", "--symmetry", "mirror"],
        vec!["sudoku", "--seed", "5", "--difficulty", "intersections"],
        // Thinned Sudokus rarely need fish; this seed's does, and no other rung finishes it.
        vec![
            "sudoku",
            "--seed",
            "1595",
            "--difficulty",
            "fish",
            "--attempts",
            "1",
        ],
        vec!["latin", "--size", "5", "--symmetry", "none"],
        vec!["sudoku", "--rules", "diagonals,anti-king", "--seed", "9"],
        vec!["killer", "--size", "6", "--seed", "2"],
        vec!["inshi", "--size", "5", "--seed", "4"],
        vec!["kenken", "--size", "5", "--seed", "1"],
        vec!["killer", "--seed", "11"],
        // Numbers of two digits, right-aligned: a first row starting ` .` once made the file unreadable.
        vec!["skyscrapers", "--size", "10", "--seed", "1"],
    ];
    for (k, args) in runs.iter().enumerate() {
        let text = generated_and_checked(args, &format!("g{k}"));
        if let Some(i) = args.iter().position(|a| *a == "--difficulty") {
            assert!(text.contains(&format!("({}, ", args[i + 1])), "{text}");
        }
    }
}

/// `generate --format csv`: the puzzles of `--format lines`, each with its solution and grade, in a table that
/// `solve --lines` reads and checks (every solution the answer, with the rules the puzzles were made with).
#[test]
fn generated_tables_are_what_solve_lines_checks() {
    let args = [
        "generate",
        "sudoku",
        "--rules",
        "diagonals",
        "--count",
        "3",
        "--seed",
        "7",
    ];
    let made = |format: &str, extra: &[&str]| {
        let out = latin()
            .args(args)
            .args(["--format", format])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let table = made("csv", &["--difficulty", "intersections"]);
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows[0], "puzzle,solution,level,score,seed");
    assert_eq!(rows.len(), 4, "{table}");
    let lines = made("lines", &["--difficulty", "intersections"]);
    for (row, line) in rows[1..].iter().zip(lines.lines()) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!((fields[0], fields[2]), (line, "intersections"), "{row}");
        assert_eq!(fields[1].len(), 81);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("made.csv");
    std::fs::write(&path, &table).unwrap();
    let out = latin()
        .args(["solve", "--lines"])
        .arg(&path)
        .args(["--rules", "diagonals"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("3 solved")
            && stderr.contains("3 checked against the file's solution or count, 0 not the answer"),
        "{stderr}"
    );
    // Read as plain Sudokus (no diagonals), whatever their count, each made solution still fits every rule.
    let out = latin()
        .args(["solve", "--lines"])
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("0 not the answer"), "{stderr}");
}

/// Every type under `grammars/`, whatever its sections (lines, pairs, relations, outside clues, marks, a jigsaw
/// layout, cages): `generate` makes a unique, reproducible, graded puzzle, and writes every section the type
/// needs with something in it. Nothing here names a type: a new grammar file is covered by being there.
/// `generate arrow` draws arrows leaving pills too (the pills section the arrow grammar names), and a pill
/// stays only while an arrow leaves it: each written pill holds the first cell of some arrow, and the file's
/// solution is the one solution.
#[test]
fn generated_arrows_leave_pills() {
    let mut pills = 0;
    for seed in ["1", "2"] {
        let text = generated_and_checked(&["arrow", "--size", "9", "--seed", seed], "arrow");
        let made: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        let starts: Vec<&str> = made["arrows"]
            .as_str()
            .unwrap()
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        for pill in made["pills"].as_str().unwrap_or("").lines() {
            let cells: Vec<&str> = pill.split_whitespace().collect();
            assert_eq!(cells.len(), 2, "{pill}");
            assert!(
                cells.iter().any(|c| starts.contains(c)),
                "no arrow leaves the pill {pill} in\n{text}"
            );
            pills += 1;
        }
    }
    assert!(pills > 0, "no pill drawn");
}

/// The built-in grammar files, sorted.
fn grammar_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    names
}

#[test]
fn every_type_generates() {
    let names = grammar_files();
    for path in names {
        let grammar: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = grammar["name"].as_str().unwrap().to_owned();
        let text = generated_and_checked(&[&name, "--size", "6", "--seed", "3"], &name);
        let made: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        if let Some(sections) = grammar["sections"].as_mapping() {
            for (section, spec) in sections {
                if spec["optional"].as_bool() == Some(true) {
                    continue;
                }
                let written = &made[section.as_str().unwrap()];
                let empty = match written {
                    serde_yaml::Value::String(s) => s.trim().is_empty(),
                    serde_yaml::Value::Mapping(m) => m.is_empty(),
                    _ => true,
                };
                assert!(
                    !empty,
                    "{name}: section {section:?} missing or empty in\n{text}"
                );
            }
        }
    }
    // One line of givens cannot hold a type's clue sections.
    let out = latin()
        .args(["generate", "thermo", "--format", "lines"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("clue sections"));
    // Sizes no grid has, and a size no box tiles, are named by the flag that gave them.
    for (args, says) in [
        (
            ["sudoku", "--size", "0"],
            "--size: 0: a grid is from 1 to 255",
        ),
        (
            ["latin", "--size", "100000"],
            "--size: 100000: a grid is from 1",
        ),
        (["little-killer", "--size", "300"], "--size: 300: a grid is"),
        (
            ["sudoku", "--size", "2"],
            "--box: no box shape tiles 2x2 grids by default; give one, e.g. --box 1x2",
        ),
        // No puzzles, or no attempts, is a mistake rather than an empty answer.
        (["sudoku", "--count", "0"], "invalid value '0' for '--count"),
        (
            ["sudoku", "--attempts", "0"],
            "invalid value '0' for '--attempts",
        ),
        // A type whose lines or pairs `generate` draws on a Latin square with its grammar's boxes.
        (
            ["kropki", "--size", "2"],
            "--box: no box shape tiles 2x2 grids by default; give one, e.g. --box 1x2",
        ),
        // A box shape for a type without boxes names that type (not the Latin square generate builds on).
        (
            ["futoshiki", "--box", "3x2"],
            "--box: type futoshiki has no boxes (add --rules boxes to give it some)",
        ),
        // Two types' regions joined need two cuts, whichever type comes first.
        (
            ["killer+kenken", "--size", "6"],
            "type killer+kenken has two layouts of regions, `cages` and `kenken-cages`; generate cuts only one",
        ),
        (
            ["killer+jigsaw", "--size", "6"],
            "type killer+jigsaw has both a region layout and cages",
        ),
        // Region-sum lines are cut where the box changes: joined with a type without boxes, there is nothing
        // to cut at, and the message says so rather than blaming the size alone.
        (
            ["futoshiki+region-sum", "--size", "6"],
            "need boxes or regions, which this type has none of (--rules boxes adds boxes)",
        ),
        // A rule made from the grid's values names the size it cannot be made at, before any drawing.
        (
            ["entropic", "--size", "8"],
            "entropic: `{bands: 3}` cuts the values 1..8 into 3 runs of equal length, and 8 is not a multiple of 3",
        ),
    ] {
        let out = latin().arg("generate").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Grids of one to three cells a side, with boxes of one row where the type has boxes: every type either makes
/// a puzzle that checks as unique or refuses with exit 2 (a 1x1 sandwich, whose 1 and n are one cell, panicked in
/// its clue maker). These are cheap, and the sizes where "between the 1 and the n" or "the first X cells" meet
/// their edge cases.
#[test]
fn every_type_at_the_smallest_sizes_generates_or_refuses() {
    let names: Vec<String> = grammar_files()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut made = 0;
    for name in &names {
        for (size, box_shape) in [("1", "1x1"), ("2", "1x2"), ("3", "1x3")] {
            let args = [name, "--size", size, "--box", box_shape, "--seed", "1"];
            let out = latin().arg("generate").args(args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => {
                    written_and_checked(&out.stdout, &format!("tiny-{name}-{size}"), &args);
                    made += 1;
                }
                Some(2) => assert!(err.starts_with("error: "), "{args:?}: {err}"),
                other => panic!("{args:?}: exit {other:?}: {err}"),
            }
        }
    }
    // Most types make a 1x1 at least (any clue section optional); a change that refused them all would pass
    // the loop above.
    assert!(made >= 30, "only {made} small puzzles made");
}

/// Types joined with `+` generate too, where one type's drawing used to spoil another's: kropki or XV marks
/// (every pair that satisfies a mark's relation marked) beside lines, which left the pairs a line joins
/// unmarked and so broke the negative rule; and 2x2 blocks drawn after walked lines, which on a 6x6 could
/// leave them no room (between lines before quadruples).
#[test]
fn joined_types_generate() {
    for (kind, seed) in [
        ("kropki+thermo", "1"),
        ("xv+arrow", "2"),
        ("extra-regions+consecutive", "1"),
        ("kropki-latin+renban", "1"),
        ("between+quadruple", "1"),
    ] {
        let text = generated_and_checked(&[kind, "--size", "6", "--seed", seed], kind);
        assert!(text.contains(&format!("type: {kind}")), "{text}");
    }
}

/// A generated puzzle written to a temporary file that `latin check` passes (valid, unique, its solution).
fn written_and_checked(puzzle: &[u8], tag: &str, args: &[&str]) -> std::path::PathBuf {
    let file =
        std::env::temp_dir().join(format!("latin-generate-{}-{tag}.yaml", std::process::id()));
    std::fs::write(&file, puzzle).unwrap();
    let checked = latin().arg("check").arg(&file).output().unwrap();
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&checked.stdout)
    );
    file
}

/// Runs `latin generate ARGS` twice (the same output), checks the puzzle (its `solution:` is the one solution),
/// and that the grade written in its title is what `rate` says; returns its text.
fn generated_and_checked(args: &[&str], tag: &str) -> String {
    let made = latin().arg("generate").args(args).output().unwrap();
    assert!(
        made.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let again = latin().arg("generate").args(args).output().unwrap();
    assert_eq!(
        made.stdout, again.stdout,
        "{args:?}: the same seed makes the same puzzle"
    );
    let file = written_and_checked(&made.stdout, tag, args);
    let text = String::from_utf8_lossy(&made.stdout).to_string();
    let count = latin().arg("count").arg(&file).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&count.stdout).trim(),
        "1 solution",
        "{args:?}: {text}"
    );
    let rated = json(
        &latin()
            .arg("rate")
            .arg(&file)
            .args(["--format", "json"])
            .output()
            .unwrap(),
    );
    assert!(
        text.contains(&format!(
            "({}, score {})",
            rated["level"].as_str().unwrap(),
            rated["score"]
        )),
        "{text}"
    );
    assert_eq!(rated["unique"], true, "{args:?}: {text}");
    std::fs::remove_file(file).ok();
    text
}

/// A big puzzle does not keep `hint`, `rate`, `candidates` or `generate` past `--time-limit`: each ends (exit 2 or
/// 3, 0 with what it found, or 1 for an answer that is not one) long before the generous bound below.
#[test]
fn the_new_commands_stop_at_the_time_limit() {
    let dir = std::env::temp_dir().join(format!("latin-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.yaml");
    std::fs::write(&big, "type: latin\nsize: 40\n").unwrap();
    let big = big.to_str().unwrap();
    // One propagation of every line of this sandwich takes 25 s: `hint` and `rate` ran on past the limit.
    let heavy = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hostile/sandwich-64-large-clues.yaml"
    );
    for args in [
        vec!["hint", big, "--all", "--time-limit", "1"],
        vec!["rate", big, "--time-limit", "1"],
        vec!["hint", heavy, "--time-limit", "1"],
        vec!["rate", heavy, "--time-limit", "1"],
        vec!["candidates", heavy, "--time-limit", "1"],
        vec!["candidates", big, "--time-limit", "1"],
        vec!["generate", "latin", "--size", "30", "--time-limit", "1"],
        // A jigsaw layout is cut before any solve: its exchanges look at the clock too.
        vec!["generate", "jigsaw", "--size", "40", "--time-limit", "1"],
        vec![
            "generate",
            "little-killer",
            "--size",
            "16",
            "--time-limit",
            "1",
        ],
    ] {
        let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_latin"))
            .args(&args)
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        // 1: the empty square has more than one solution, which `rate` says once it finds two in time.
        assert!(
            matches!(out.status.code(), Some(0 | 2 | 3))
                || (args[..2] == ["rate", big] && out.status.code() == Some(1)),
            "{args:?}: {:?}",
            out.status
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// A command stopped by `--time-limit` says so and exits 3: it does not call the puzzle unsolvable (`rate` once
/// graded a puzzle whose search the clock cut off as having no solution, exit 1; `candidates` printed "no
/// solution, so no cell has a candidate"), nor a bad input (exit 2, as `generate` and `rate` once did).
#[test]
fn a_time_limit_is_not_an_answer() {
    // A little killer with no givens that takes seconds, about 13 times the limit here.
    let Some(records) = common::records("variants.jsonl") else {
        return;
    };
    let record = records
        .iter()
        .find(|r| r["id"] == "variant-little-killer-003")
        .expect("variant-little-killer-003 in variants.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lk.yaml");
    std::fs::write(&file, common::to_yaml(record)).unwrap();
    for command in ["rate", "candidates"] {
        let out = latin()
            .arg(command)
            .arg(&file)
            .args(["--time-limit", "0.3"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{command}: {said}");
        assert!(
            !said.contains("no solution,") && !said.contains("has no solution"),
            "{command}: {said}"
        );
        assert!(
            said.contains("time limit") || said.contains("--time-limit"),
            "{command}: {said}"
        );
    }
    // With a level asked, a puzzle stopped short would grade too easy: the limit is no answer there either.
    let made = latin()
        .args([
            "generate",
            "little-killer",
            "--difficulty",
            "singles",
            "--time-limit",
            "0.3",
        ])
        .output()
        .unwrap();
    assert_eq!(
        made.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
}

/// What `latin ARGS` writes, when it exits 0.
fn made(args: &[&str]) -> String {
    let made = latin().args(args).output().unwrap();
    assert_eq!(
        made.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    String::from_utf8(made.stdout).unwrap()
}

/// With no level asked, `generate` stops removing givens at three quarters of `--time-limit` and writes the
/// puzzle it has: unique, since every removal was proved, and saying it was stopped. A 25x25 Sudoku's removals
/// take a minute to finish, so four seconds stop them; the grade may or may not fit in the last second.
#[test]
fn a_time_limit_on_generate_keeps_the_puzzle_made_so_far() {
    let args = ["generate", "sudoku", "--size", "25", "--time-limit", "4"];
    let text = made(&args);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("removed until the time limit"),
        "{}",
        text.lines().next().unwrap()
    );
    let file = written_and_checked(text.as_bytes(), "time-limit", &args);
    std::fs::remove_file(file).ok();
}

/// Past 64x64, where `rate` grades nothing, `generate` still makes a puzzle, ungraded and saying why (it once
/// ended "rate: grades grids up to 64x64" after all its work), and draws its solution in one search a draw (a
/// solve per placement took an 81x81 Sudoku past a 4 s limit, and past 90 s); a level asked there is refused
/// before any work.
#[test]
fn grids_past_the_graded_sizes_generate_ungraded() {
    let args = [
        "generate",
        "sudoku",
        "--size",
        "81",
        "--seed",
        "1",
        "--time-limit",
        "4",
    ];
    let text = made(&args);
    let title = text.lines().next().unwrap();
    assert!(
        title.contains("not graded, as grades go up to 64x64"),
        "{title}"
    );
    let file = written_and_checked(text.as_bytes(), "past-64", &args);
    std::fs::remove_file(file).ok();
    let asked = latin()
        .args([
            "generate",
            "sudoku",
            "--size",
            "81",
            "--difficulty",
            "singles",
        ])
        .args(["--time-limit", "10"])
        .output()
        .unwrap();
    assert_eq!(asked.status.code(), Some(2));
    let said = String::from_utf8_lossy(&asked.stderr);
    assert!(
        said.contains("--difficulty: grades go up to 64x64"),
        "{said}"
    );
}

/// `rate` grades a puzzle with one answer: a grid with several climbs to `search` as the hardest puzzle does
/// (it once graded an empty 9x9 "search (score 460)", exit 0), so the grade says so and exits 1.
#[test]
fn a_grade_of_a_puzzle_with_several_answers_says_so() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let rate = |name: &str, format: &str| {
        latin()
            .arg("rate")
            .arg(root.join(name))
            .args(["--format", format])
            .output()
            .unwrap()
    };
    let open = rate("open/empty-9x9.yaml", "text");
    let said = String::from_utf8_lossy(&open.stdout);
    assert_eq!(open.status.code(), Some(1), "{said}");
    assert!(said.contains("more than one solution"), "{said}");
    assert_eq!(json(&rate("open/empty-9x9.yaml", "json"))["unique"], false);
    // The same rung, with one answer.
    let one = rate("sudoku/four-givens-magic-9x9.yaml", "json");
    assert_eq!(one.status.code(), Some(0));
    let one = json(&one);
    assert_eq!(
        (one["level"].as_str(), &one["unique"]),
        (Some("search"), &serde_json::json!(true))
    );
}

/// `hint` on a grid that has no solution says so and exits 1, as every command does (it once called it bad input,
/// exit 2, "the givens and filled cells already break a rule", though none did): from the givens alone, and
/// from a person's filled cell that leaves another cell no value.
/// One primitive (pieces of a line with one total) serves region-sum lines, double arrows and zippers: each
/// hint names the rule in its own type's words.
#[test]
fn hints_say_each_line_rule_in_its_types_words() {
    for (file, says) in [
        (
            "puzzles/region-sum/region-sum-9x9.yaml",
            "(its pieces in each box add up to the same)",
        ),
        (
            "puzzles/double-arrow/double-arrow-9x9.yaml",
            "(the two ends add up to the cells between them)",
        ),
        (
            "puzzles/zipper/zipper-9x9.yaml",
            "zippers line 2 (cells the same distance from the middle add up to r2c8)",
        ),
        (
            "puzzles/zipper/zipper-6x6.yaml",
            "(cells the same distance from the middle add up to the same)",
        ),
    ] {
        let out = latin().args(["hint", file, "--all"]).output().unwrap();
        let steps = String::from_utf8(out.stdout).unwrap();
        assert!(steps.contains(says), "{file}: {steps}");
    }
}

#[test]
fn a_hint_on_a_grid_without_solution_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // r1c1 can only be 4 by its row, and r2c1 holds 4.
    let stuck = dir.path().join("stuck.yaml");
    std::fs::write(
        &stuck,
        "type: sudoku\nsize: 4\ngivens: |\n  . 2 3 1\n  4 . . .\n  . . . .\n  . . . .\n",
    )
    .unwrap();
    // Solvable, but the person's 2 at r1c1 leaves r1c3 nothing: row 1 then holds 1, 2 and 3 elsewhere, and
    // column 3 already has 4.
    let wrong = dir.path().join("wrong.yaml");
    std::fs::write(
        &wrong,
        "type: sudoku\nsize: 4\ngivens: |\n  . 1 . 3\n  . . . .\n  . . 4 .\n  . . . .\nprogress: |\n  2 . . .\n  . . . .\n  . . . .\n  . . . .\n",
    )
    .unwrap();
    for file in [&stuck, &wrong] {
        let out = latin().arg("hint").arg(file).output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: {said}{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("no solution"), "{}: {said}", file.display());
        let out = latin()
            .arg("hint")
            .arg(file)
            .args(["--all", "--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(json(&out)["no_solution"], true, "{}", file.display());
    }
}

/// Where the steps stop short of a full grid, `hint` counts what is left to two and says which it is: search
/// finishes a puzzle with one answer; a grid with several cannot be finished by any deduction (an empty 9x9 was
/// once told "the rest needs search"); and a person's wrong value that no deduction catches still leaves no
/// solution, which search shows.
#[test]
fn a_hint_that_stops_says_what_is_left() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let killer =
        std::fs::read_to_string(root.join("little-killer/little-killer-9x9.yaml")).unwrap();
    let before_solution = killer.split("solution:").next().unwrap();
    // Its solution has 9 at r1c1; the 1 there passes every step's propagation.
    let wrong = format!(
        "{before_solution}progress: |\n  1 . . . . . . . .\n{}",
        "  . . . . . . . . .\n".repeat(8)
    );
    let dir = tempfile::tempdir().unwrap();
    let wrong_file = dir.path().join("wrong.yaml");
    std::fs::write(&wrong_file, wrong).unwrap();
    let cases = [
        (
            root.join("open/empty-9x9.yaml"),
            2,
            "more than one solution from here",
            false,
        ),
        (
            root.join("little-killer/little-killer-9x9.yaml"),
            1,
            "the rest needs search",
            false,
        ),
        (wrong_file, 0, "search finds none", true),
    ];
    for (file, left, words, none) in cases {
        let run = |format: &str| {
            latin()
                .arg("hint")
                .arg(&file)
                .args(["--all", "--format", format])
                .output()
                .unwrap()
        };
        let text = run("text");
        let said = String::from_utf8_lossy(&text.stdout);
        assert!(said.contains(words), "{}: {said}", file.display());
        let got = json(&run("json"));
        assert_eq!(got["solutions_left"], left, "{}", file.display());
        assert_eq!(got["no_solution"], none, "{}", file.display());
        assert_eq!(got["finished"], false, "{}", file.display());
    }
}

/// A contradiction hint shows the trial's steps and where it breaks, in text and in JSON, on nearly every
/// contradiction of these examples (one left bare would be one the simple techniques do not reach soon).
#[test]
fn contradiction_hints_show_the_steps_that_lead_there() {
    let (mut contradictions, mut explained) = (0, 0);
    let (mut steps, mut shared) = (0, 0);
    for file in [
        "puzzles/arrow/arrow-6x6.yaml",
        "puzzles/whispers/whispers-9x9.yaml",
        "puzzles/sudoku/diagonal-9x9.yaml",
        "puzzles/killer-cages/killer-cages-9x9.yaml",
    ] {
        let found = json(
            &latin()
                .args(["hint", file, "--all", "--format", "json"])
                .output()
                .unwrap(),
        );
        let text = latin().args(["hint", file, "--all"]).output().unwrap();
        let text = String::from_utf8(text.stdout).unwrap();
        for s in found["steps"].as_array().unwrap() {
            if s["technique"] != "contradiction" {
                assert!(s.get("chain").is_none(), "{file}: {s}");
                continue;
            }
            contradictions += 1;
            let Some(chain) = s["chain"].as_array() else {
                continue;
            };
            explained += 1;
            let end = s["contradiction"].as_str().unwrap();
            // The text shows the step, then its chain's lines (strikes of one deduction in a row share one),
            // then the end.
            let chain_lines = s["lines"].as_array().unwrap();
            assert!(chain_lines.len() <= chain.len(), "{file}: {s}");
            steps += chain.len();
            shared += chain.len() - chain_lines.len();
            let mut lines = vec![format!("{}:", s["text"].as_str().unwrap())];
            lines.extend(
                chain_lines
                    .iter()
                    .map(|l| format!("then {}", l.as_str().unwrap())),
            );
            lines.push(format!("so {end}"));
            let shown = text
                .lines()
                .map(|l| l.trim_start().splitn(2, ". ").last().unwrap().trim_start())
                .collect::<Vec<_>>();
            let at = shown
                .iter()
                .position(|l| *l == lines[0])
                .expect("the step is shown");
            assert_eq!(shown[at..at + lines.len()], lines, "{file}");
            // The trial's own cell is taken: no step of the chain places or strikes there.
            assert!(chain.iter().all(|c| c["cell"] != s["cell"]), "{file}: {s}");
        }
    }
    assert!(
        explained * 10 >= contradictions * 9 && contradictions >= 20,
        "{explained} of {contradictions} contradictions explained"
    );
    // Strikes of one deduction share lines often enough to matter (a tenth of the steps or more).
    assert!(
        shared * 10 >= steps,
        "{shared} of {steps} chain steps share a line"
    );
}

/// `hint` without `--all` gives the next deduction whole: the strikes it makes in a row on one cell or of one
/// value (a rule's several values, an X-wing's cells), which are the first steps `--all` lists, on one line.
#[test]
fn a_hint_is_one_deduction_with_all_its_strikes() {
    let mut grouped = 0;
    for file in [
        "puzzles/killer/killer-6x6.yaml",
        "puzzles/kenken/kenken-6x6.yaml",
        "puzzles/inshi/nikoli-5x5.yaml",
        "puzzles/thermo/thermo-9x9.yaml",
        "puzzles/sandwich/sandwich-9x9.yaml",
        "puzzles/futoshiki/futoshiki-7x7.yaml",
        "puzzles/extra-regions/windoku-9x9.yaml",
        "puzzles/jigsaw/jigsaw-9x9.yaml",
    ] {
        let run = |args: &[&str]| latin().arg("hint").arg(file).args(args).output().unwrap();
        let one = json(&run(&["--format", "json"]));
        let all = json(&run(&["--all", "--format", "json"]));
        let (one, all) = (
            one["steps"].as_array().unwrap(),
            all["steps"].as_array().unwrap(),
        );
        assert!(!one.is_empty(), "{file}");
        assert_eq!(
            one[..],
            all[..one.len()],
            "{file}: the first steps of --all"
        );
        if one.len() > 1 {
            grouped += 1;
            // Strikes only, by one technique, all on one cell or all of one value.
            assert!(one
                .iter()
                .all(|s| s["place"] == false && s["technique"] == one[0]["technique"]));
            let same = |key: &str| one.iter().all(|s| s[key] == one[0][key]);
            assert!(same("cell") || same("value"), "{file}: {one:?}");
        }
        let text = String::from_utf8(run(&[]).stdout).unwrap();
        assert_eq!(text.lines().count(), 1, "{file}: {text}");
        for s in one {
            let (cell, value) = (s["cell"].as_str().unwrap(), s["value"].to_string());
            assert!(
                text.contains(cell) && text.contains(&value),
                "{file}: {text} leaves out {s}"
            );
        }
    }
    assert!(
        grouped >= 2,
        "only {grouped} first deductions strike more than one candidate"
    );
}
