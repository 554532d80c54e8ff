//! Command-line tests: output, exit codes, and what a user sees for bad input (section, line and column).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

mod common;

fn latin() -> Command {
    Command::cargo_bin("latin").expect("the latin binary is built")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes a puzzle file named `bad.yaml` in a fresh directory and returns (dir guard, path).
fn file(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Runs `latin solve` on a file and asserts exit code 2 with exactly this error line.
fn rejects(text: &str, message: &str) {
    let (_dir, path) = file(text);
    latin()
        .current_dir(path.parent().unwrap())
        .args(["solve", "bad.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "error: bad.yaml: {message}"
        )));
}

const INSHI: &str = "type: inshi
rooms: |
  ABBCD
  AEEFD
  GGHFD
  IJHKK
  ILHMM
";

#[test]
fn solves_the_inshi_example_as_json() {
    let out = latin()
        .current_dir(root())
        .args(["solve", "--format", "json", "puzzles/inshi/nikoli-5x5.yaml"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["type"], "inshi");
    assert_eq!(v["solutions"][0][0], serde_json::json!([2, 3, 5, 1, 4]));
    assert_eq!(v["count"], 1);
}

#[test]
fn text_output_draws_boxes() {
    latin()
        .current_dir(root())
        .args(["solve", "puzzles/sudoku/clue-list-9x9.yaml"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("┏━━━━━┯━━━━━┯━━━━━┳━━━━━┯"))
        .stdout(predicate::str::contains("┃ [5] │ [3] │  4  ┃  6  │"))
        .stdout(predicate::str::contains("┣━━━━━┿━━━━━┿━━━━━╋"));
}

#[test]
fn every_example_checks() {
    let files = common::example_files();
    assert!(
        files.len() >= 25,
        "expected the examples, found {}",
        files.len()
    );
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        if text.contains("\nsolution:") {
            latin()
                .arg("check")
                .arg(&f)
                .assert()
                .success()
                .stdout(predicate::str::contains(
                    "ok: one solution, equal to `solution:`",
                ));
        } else {
            latin().arg("solve").arg(&f).assert().success();
        }
    }
}

/// Every example janko.at's data block can say, written as one (`convert --to janko`) and pasted back on
/// standard input, has the example's solutions; every other is refused plainly (exit 2, naming the format).
#[test]
fn every_example_janko_can_say_reads_back_as_itself() {
    let files = common::example_files();
    let solutions = |cmd: &mut Command| -> serde_json::Value {
        let out = cmd.assert().success();
        let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        v["solutions"].clone()
    };
    let mut written = 0;
    for f in files {
        let out = latin()
            .args(["convert", "--to", "janko"])
            .arg(&f)
            .output()
            .unwrap();
        if out.status.code() == Some(2) {
            let e = String::from_utf8_lossy(&out.stderr);
            assert!(e.contains("janko: type"), "{}: {e}", f.display());
            continue;
        }
        assert!(out.status.success(), "{}", f.display());
        let block = String::from_utf8(out.stdout).unwrap();
        assert!(block.starts_with("begin\npuzzle "), "{block}");
        let direct = solutions(
            latin()
                .args(["solve", "--max", "2", "--format", "json"])
                .arg(&f),
        );
        let pasted = solutions(
            latin()
                .args(["solve", "--max", "2", "--format", "json", "-"])
                .write_stdin(block),
        );
        assert_eq!(direct, pasted, "{}", f.display());
        written += 1;
    }
    // Sudoku, jigsaw, Futoshiki, skyscrapers, sum skyscrapers and Mathrax examples at least.
    assert!(written >= 12, "{written}");
}

/// Every example written as a corpus record (`convert --to record`) and pasted back has the example's solutions,
/// and writing it again gives the same record: nothing a puzzle file says is lost on the way to the record form.
#[test]
fn every_example_reads_back_from_its_record() {
    let files = common::example_files();
    let run = |cmd: &mut Command| -> Vec<u8> {
        let out = cmd.assert().success();
        out.get_output().stdout.clone()
    };
    let solutions = |out: Vec<u8>| -> serde_json::Value {
        serde_json::from_slice::<serde_json::Value>(&out).unwrap()["solutions"].clone()
    };
    for f in &files {
        let record = run(latin().args(["convert", "--to", "record"]).arg(f));
        let again = run(latin()
            .args(["convert", "--to", "record", "-"])
            .write_stdin(record.clone()));
        assert_eq!(record, again, "{}", f.display());
        let direct = solutions(run(latin()
            .args(["solve", "--max", "2", "--format", "json"])
            .arg(f)));
        let pasted = solutions(run(latin()
            .args(["solve", "--max", "2", "--format", "json", "-"])
            .write_stdin(record)));
        assert_eq!(direct, pasted, "{}", f.display());
    }
    assert!(files.len() >= 100, "{}", files.len());
}

/// A type made of two with clues of one kind from both: where the record keeps them under different keys (a
/// sandwich's sums and numbered rooms' values; Outside Sudoku's sets and skyscrapers' counts; consecutive marks
/// and kropki dots) the record reads back with the same solutions; where both would share one list (two kinds
/// of sums, two kinds of counts, two grids of marks, two lists of relations or of consecutive marks: of
/// greater-than+minarism the record kept one, and read back with two solutions) writing the record, and every
/// form written from it, is refused by name rather than mixing the clues.
#[test]
fn joined_types_keep_their_clues_apart_in_records() {
    let generated = |kind: &str| {
        let out = latin()
            .args(["generate", kind, "--size", "6", "--seed", "2"])
            .assert()
            .success();
        out.get_output().stdout.clone()
    };
    let solutions = |input: Vec<u8>| -> serde_json::Value {
        let out = latin()
            .args(["solve", "--max", "2", "--format", "json", "-"])
            .write_stdin(input)
            .assert()
            .success();
        serde_json::from_slice::<serde_json::Value>(&out.get_output().stdout).unwrap()["solutions"]
            .clone()
    };
    for kind in [
        "sandwich+numbered-rooms",
        "outside+skyscrapers",
        "kropki-latin+consecutive",
    ] {
        let puzzle = generated(kind);
        let out = latin()
            .args(["convert", "--to", "record", "-"])
            .write_stdin(puzzle.clone())
            .assert()
            .success();
        let record = out.get_output().stdout.clone();
        let direct = solutions(puzzle);
        let pasted = solutions(record);
        assert_eq!(direct.as_array().map(Vec::len), Some(1), "{kind}");
        assert_eq!(direct, pasted, "{kind}");
    }
    for (kind, says) in [
        (
            "frame+sum-skyscrapers",
            "keeps one list of `edges` clues a side",
        ),
        (
            "skyscrapers+numbered-rooms",
            "keeps one list of `sky` clues a side",
        ),
        ("fortress+evenodd", "keeps one grid of marks"),
        ("greater-than+minarism", "keeps one list of relations"),
        (
            "consecutive+consecutive-sudoku",
            "keeps one list of consecutive marks",
        ),
    ] {
        let puzzle = generated(kind);
        for form in ["record", "fpuzzles"] {
            let out = latin()
                .args(["convert", "--to", form, "-"])
                .write_stdin(puzzle.clone())
                .assert()
                .code(2);
            let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
            assert!(err.contains(says), "{kind} {form}: {err}");
        }
    }
}

#[test]
fn count_stops_at_max() {
    latin()
        .current_dir(root())
        .args(["count", "puzzles/open/empty-9x9.yaml"])
        .assert()
        .success()
        .stdout("at least 2 solutions (stopped at --max 2)\n");
    latin()
        .current_dir(root())
        .args(["count", "puzzles/inshi/nikoli-5x5.yaml"])
        .assert()
        .success()
        .stdout("1 solution\n");
}

/// A count the time limit cuts short, below `--max`, has no answer to "how many, up to N?": it says how far it
/// got and exits 3, as `rate` and `check` do (an empty 9x9 Latin square, 5.5e27 solutions, at a few thousand a
/// tenth of a second); one that reached `--max` has its answer and exits 0.
#[test]
fn a_count_cut_short_by_the_time_limit_exits_3() {
    let (_dir, empty) = file("type: latin\nsize: 9\n");
    let out = latin()
        .arg("count")
        .arg(&empty)
        .args(["--max", "10000000", "--time-limit", "0.1"])
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.starts_with("at least ") && text.ends_with("solutions (time limit reached)\n"),
        "{text}"
    );
    latin()
        .arg("count")
        .arg(&empty)
        .args(["--max", "2", "--time-limit", "10"])
        .assert()
        .success()
        .stdout("at least 2 solutions (stopped at --max 2)\n");
}

/// Every link `convert` writes reads back: a filled 128x128 Latin square's f-puzzles payload (40 KB) is longer
/// than links are read (32 KB, against lz-string bombs), so the f-puzzles and SudokuPad writers refuse it
/// plainly, where they once wrote a link latin itself refused; its Penpa+ link (89 KB of 256) is written and
/// reads back as the same puzzle.
#[test]
fn every_link_convert_writes_reads_back_or_is_refused() {
    let (_dir, filled) = file(&common::filled_latin_square(128));
    let mut written = Vec::new();
    for form in ["fpuzzles", "sudokupad", "penpa"] {
        let out = latin()
            .args(["convert", "--to", form])
            .arg(&filled)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.code() == Some(2) {
            assert!(err.contains("links are read up to 32768"), "{form}: {err}");
            continue;
        }
        assert!(out.status.success(), "{form}: {err}");
        let link = String::from_utf8(out.stdout).unwrap();
        latin()
            .args(["count", "--time-limit", "30", "-"])
            .write_stdin(link)
            .assert()
            .success()
            .stdout("1 solution\n");
        written.push(form);
    }
    assert_eq!(written, ["penpa"]);
}

/// Several files in one run: each answer under its file's name, an error in one said once while the others are
/// solved, and the exit code the largest of theirs.
#[test]
fn several_files_are_solved_in_turn() {
    let dir = tempfile::tempdir().unwrap();
    let none = dir.path().join("none.yaml");
    std::fs::write(&none, "type: latin\ngivens: |\n  1 .\n  . 2\n").unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "type: latin\ngivens: |\n  1 1\n  . .\n").unwrap();
    let inshi = root().join("puzzles/inshi/nikoli-5x5.yaml");
    let kenken = root().join("puzzles/kenken/kenken-6x6.yaml");
    let out = latin()
        .args(["solve", "--format", "grid"])
        .args([&inshi, &none, &kenken])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("==> ")).collect();
    let name = |p: &Path| format!("==> {} <==", p.display());
    assert_eq!(heads, [name(&inshi), name(&none), name(&kenken)], "{text}");
    assert!(text.contains("no solution"), "{text}");
    assert_eq!(out.status.code(), Some(1), "no solution in one of them");
    // A bad file is said on stderr once, and the next one is solved all the same.
    let out = latin()
        .args(["solve", "--format", "json"])
        .args([&bad, &inshi])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.matches("bad.yaml").count(), 1, "{stderr}");
    let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0]["file"], inshi.display().to_string());
    assert_eq!(answers[0]["status"], "solved");
    assert_eq!(out.status.code(), Some(2));
    // One program, one picture: refused with several files.
    for flags in [&["--write-lp", "x.lp"][..], &["--format", "svg"]] {
        latin()
            .arg("solve")
            .args(flags)
            .args([&inshi, &kenken])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("give one FILE"));
    }
}

/// `check` on several files: a verdict for each, naming it, an error said once, the largest exit code.
#[test]
fn several_files_are_checked_in_turn() {
    let (_dir, bad) = file("type: latin\ngivens: |\n  1 1\n  . .\n");
    let inshi = root().join("puzzles/inshi/nikoli-5x5.yaml");
    let empty = root().join("puzzles/open/empty-9x9.yaml");
    let out = latin()
        .arg("check")
        .args([&inshi, &bad, &empty])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        text.starts_with(&format!("{}: ok", inshi.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: FAILED", empty.display())),
        "{text}"
    );
    assert_eq!(stderr.matches("bad.yaml").count(), 1, "{stderr}");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a bad file's 2 over a failed check's 1"
    );
    latin().arg("check").args([&inshi, &empty]).assert().code(1);
}

/// `count`, `candidates`, `hint`, `rate` and `show` take several files as `solve` does: each file's output under
/// its name in text (a grade names its file on its line), its name in each JSON object, an error said once (a
/// file that does not load gets no heading, as with `tail`) and the others done all the same, the largest exit
/// code.
#[test]
fn the_other_commands_take_several_files_too() {
    let (_dir, bad) = file("type: latin\ngivens: |\n  1 1\n  . .\n");
    let inshi = root().join("puzzles/inshi/nikoli-5x5.yaml");
    let kenken = root().join("puzzles/kenken/kenken-6x6.yaml");
    let name = |p: &Path| p.display().to_string();
    for command in ["solve", "count", "candidates", "hint", "rate", "show"] {
        let out = latin()
            .arg(command)
            .args([&inshi, &bad, &kenken])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let named: Vec<String> = if command == "rate" {
            text.lines()
                .filter_map(|l| l.split_once(": ").map(|(file, _)| file.to_owned()))
                .collect()
        } else {
            text.lines()
                .filter_map(|l| l.strip_prefix("==> ")?.strip_suffix(" <=="))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(named, [name(&inshi), name(&kenken)], "{command}: {text}");
        assert_eq!(stderr.matches("bad.yaml").count(), 1, "{command}: {stderr}");
        assert_eq!(out.status.code(), Some(2), "{command}");
        if command == "show" {
            continue;
        }
        let out = latin()
            .args([command, "--format", "json"])
            .args([&inshi, &kenken])
            .output()
            .unwrap();
        let files: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["file"].to_string())
            .collect();
        let quoted = |p: &Path| format!("{:?}", name(p));
        assert_eq!(files, [quoted(&inshi), quoted(&kenken)], "{command}");
        assert_eq!(out.status.code(), Some(0), "{command}");
    }
    // One file: no heading, as before.
    let out = latin().arg("count").arg(&inshi).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1 solution\n");
}

#[test]
fn no_solution_exits_1() {
    let (_d, path) = file("type: latin\ngivens: |\n  1 .\n  . 2\n");
    latin()
        .arg("solve")
        .arg(&path)
        .assert()
        .code(1)
        .stdout("no solution\n");
    latin()
        .arg("check")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "FAILED: the puzzle has no solution",
        ));
}

#[test]
fn check_shows_a_second_solution() {
    latin()
        .current_dir(root())
        .args(["check", "puzzles/open/empty-9x9.yaml"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("more than one solution"));
}

#[test]
fn check_reports_a_wrong_solution() {
    let text = std::fs::read_to_string(root().join("puzzles/inshi/nikoli-5x5.yaml"))
        .unwrap()
        .replace("  41352", "  41325");
    let (_d, path) = file(&text);
    latin()
        .arg("check")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("differs from `solution:`"));
}

#[test]
fn time_limit_exits_3() {
    latin()
        .current_dir(root())
        .args([
            "solve",
            "--time-limit",
            "0.3",
            // Search or CaDiCaL decide this puzzle in a fraction of a second; CBC alone needs about 20 s.
            "--search-nodes",
            "0",
            "--backend",
            "cbc",
            "puzzles/sudoku/four-givens-magic-9x9.yaml",
        ])
        .assert()
        .code(3)
        .stdout("time limit reached without an answer\n");
}

#[test]
fn usage_errors_exit_2() {
    latin().args(["solve"]).assert().code(2);
    latin()
        .args(["solve", "--max", "0", "x.yaml"])
        .assert()
        .code(2);
    latin()
        .args(["solve", "does-not-exist.yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does-not-exist.yaml"));
    // A time limit out of range is shown as written where that is short, in exponent form where it is long.
    for (limit, shown) in [
        ("0", "0 is not"),
        ("1e10", "10000000000 is not"),
        ("1e300", "1e300 is not"),
    ] {
        latin()
            .args(["solve", "--time-limit", limit, "x.yaml"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "--time-limit: {shown} a number of seconds"
            )));
    }
}

#[test]
fn help_documents_exit_codes() {
    latin()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "3  time limit reached without an answer",
        ));
}

#[test]
fn bad_input_names_section_line_and_column() {
    let hints = "hints: {A: 6, B: 15, C: 1, D: 12, E: 2x0, F: 8, G: 10, H: 6, I: 4, J: 4, K: 15, L: 1, M: 10}\n";
    rejects(
        &format!("{INSHI}{hints}"),
        "hints.E: line 1, column 2: \"2x0\" is not a positive integer",
    );
    rejects(
        "type: kakuro\n",
        "type: unknown puzzle type \"kakuro\" (known: ",
    );
    rejects(
        "type: Killer-Sudoku\n",
        "type: unknown puzzle type \"Killer-Sudoku\", did you mean killer? (known: ",
    );
    rejects(
        "type: sudoku\nsize: 4\ncolour: red\n",
        "colour: unknown section for type sudoku (it has: ",
    );
    // A slip in a section's or a rule's name is matched to the one meant, as a type's is.
    rejects(
        "type: killer\nsize: 4\ncage: |\n  a a\n",
        "cage: unknown section for type killer, did you mean cages? (it has: ",
    );
    rejects(
        "type: sudoku\nsize: 4\nrules: [diagonal]\n",
        "rules: line 1, column 1: unknown rule \"diagonal\", did you mean diagonals? (known: ",
    );
    // A missing section is said in words: the grammar's own description of it, then how it is written.
    rejects(
        "type: killer\nsize: 4\ncages: |\n  a a b b\n  a a b b\n  c c d d\n  c c d d\n",
        "hints: missing: type killer needs it (the sum of each cage; a clue for each region of `cages`: `{A: 6, B: 15}`)",
    );
    rejects(
        "type: thermo\nsize: 4\n",
        "thermos: missing: type thermo needs it (each thermometer's cells, bulb first; lines of cells, one a line: ",
    );
    rejects(
        &format!("{INSHI}hints: {{A: 6, B: 15}}\n"),
        "hints: region \"C\" (at r1c4) has no clue",
    );
    rejects(
        &format!("{INSHI}hints: {{A: 6, Z: 15}}\n"),
        "hints.Z: there is no region \"Z\" in `rooms`",
    );
    rejects(
        "type: latin\ngivens: |\n  1 2 3\n  2 3\n  3 1 2\n",
        "givens: line 2, column 1: this row has 2 cells, the others 3; a grid must be square\n",
    );
    rejects(
        "type: latin\ngivens: |\n  1 . 1\n  . . .\n  . . .\n",
        "givens: line 1, column 5: r1c3 = 1: row 1 repeats 1 (at r1c1, r1c3)\n",
    );
    rejects(
        "type: latin\nsize: 3\ngivens: [r1c1=4]\n",
        "givens: line 1, column 6: value 4 is out of range 1..3",
    );
    rejects(
        "type: sudoku\nsize: 9\nbox: 2x4\n",
        "box: boxes of 2x4 hold 8 cells, not 9",
    );
    rejects(
        "type: sudoku\nsize: 9\nrules: [diagonals, flying]\n",
        "rules: line 2, column 1: unknown rule \"flying\"",
    );
    rejects(
        "type: latin\nsize: 4\nbox: 2x2\n",
        "box: type latin has no boxes",
    );
}

#[test]
fn bad_input_in_family_sections() {
    rejects(
        "type: futoshiki\nsize: 4\nless:\n  - r1c1 < r1c\n",
        "less: line 1, column 8: expected a cell like r1c2, found \"r1c\"",
    );
    rejects(
        "type: futoshiki\nsize: 4\nless:\n  - r1c1 < r1c2\n  - r0c1 < r1c1\n",
        "less: line 2, column 1: r0c1 is off the 4x4 grid",
    );
    rejects(
        "type: consecutive\nsize: 4\nconsecutive:\n  - r1c1-r2c2\n",
        "consecutive: line 1, column 1: r1c1 and r2c2 are not neighbours",
    );
    rejects("type: kenken\ncages: |\n  AABB\n  CCDD\n  EEFF\n  GGHH\nhints: {A: 3+, B: 2-, C: 7+, D: 2/, E: 5+, F: 1-, G: 4x, H: 7+, Q: 1}\n", "hints.Q: there is no region \"Q\" in `cages`");
    rejects("type: kenken\ncages: |\n  AABB\n  CCDD\n  EEFF\n  GGHH\nhints: {A: 3%, B: 2-, C: 7+, D: 2/, E: 5+, F: 1-, G: 4x, H: 7+}\n", "hints.A: line 1, column 2: \"%\" is not an operator");
    rejects("type: kenken\ncages: |\n  AAAB\n  CCDB\n  EEFF\n  GGHH\nhints: {A: 3-, B: 2-, C: 7+, D: 2, E: 5+, F: 1-, G: 4x, H: 7+}\n", "hints.A: `3-` needs a cage of two cells, this one has 3");
    rejects(
        "type: skyscrapers\nsize: 5\ntop: \". 3 3 .\"\n",
        "top: line 1, column 1: expected 5 clues (one per line of the grid), found 4",
    );
    rejects(
        "type: evenodd\nsize: 4\nparity: |\n  E O . .\n  . X . .\n  . . . .\n  . . . .\n",
        "parity: line 2, column 3: unknown mark \"X\"",
    );
    // Entropic lines' low, middle and high thirds: an 8x8 has no three equal runs of values.
    rejects(
        "type: entropic\nsize: 8\nbox: 2x4\nentropic: |\n  r1c1 r1c2 r1c3\n",
        "entropic: `{bands: 3}` cuts the values 1..8 into 3 runs of equal length, and 8 is not a multiple of 3",
    );
}

#[test]
fn a_third_grammar_loads_from_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("product-sudoku.yaml"),
        "name: product-sudoku\ndescription: a Sudoku with product rooms\nsections:\n  rooms: {kind: regions}\n  hints: {kind: clues, of: rooms, clue: integer, every: false}\nrules:\n  - latin\n  - boxes\n  - {primitive: product, regions: rooms, clues: hints}\n",
    )
    .unwrap();
    let puzzles = tempfile::tempdir().unwrap();
    let puzzle = puzzles.path().join("p.yaml");
    std::fs::write(&puzzle, "type: product-sudoku\nrooms: |\n  AABB\n  CCDD\n  EEFF\n  GGHH\nhints: {A: 2, B: 12, C: 12, D: 2, E: 3, F: 8, G: 8, H: 3}\n").unwrap();
    let out = latin()
        .arg("--grammars")
        .arg(dir.path())
        .args(["solve", "--format", "json", "--max", "5"])
        .arg(&puzzle)
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["type"], "product-sudoku");
    for grid in v["solutions"].as_array().unwrap() {
        let g: Vec<Vec<u64>> = serde_json::from_value(grid.clone()).unwrap();
        assert_eq!(g[0][0] * g[0][1], 2);
        assert_eq!(g[3][2] * g[3][3], 3);
    }
    latin()
        .env("LATIN_GRAMMARS", dir.path())
        .arg("grammars")
        .assert()
        .success()
        .stdout(predicate::str::contains("product-sudoku"));
    // Without the directory the type is unknown.
    latin()
        .arg("solve")
        .arg(&puzzle)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown puzzle type \"product-sudoku\"",
        ));
}

/// `latin grammars TYPE` prints the type's grammar file as loaded, which read back under another name is a type
/// of its own that solves the same puzzles.
#[test]
fn a_printed_grammar_is_a_start_for_ones_own() {
    let out = latin().args(["grammars", "thermo"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("# thermo: built in\n"), "{text}");
    assert!(text.contains("primitive: increasing"), "{text}");
    let dir = checked_under_new_name(
        &text,
        "thermo",
        "my-thermo",
        "puzzles/thermo/thermo-6x6.yaml",
    );
    latin()
        .args(["grammars", "my-thermo", "--grammars"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("# my-thermo: "));
    latin()
        .args(["grammars", "no-such-type"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown puzzle type"));
}

/// A type made of types prints as a grammar file too (`# kropki+xv: made of kropki and xv`), and that file,
/// loaded under a name of its own, solves the mix's example as the composed type does.
#[test]
fn a_composed_grammar_prints_as_a_file_of_ones_own() {
    let out = latin().args(["grammars", "kropki+xv"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.starts_with("# kropki+xv: made of kropki and xv\n"),
        "{text}"
    );
    assert_eq!(text.matches("primitive: tagged-pairs").count(), 2, "{text}");
    checked_under_new_name(
        &text,
        "kropki+xv",
        "marks",
        "puzzles/mixed/kropki+xv-6x6.yaml",
    );
}

/// A printed grammar of type `from` saved as type `to` in a directory of its own, and `latin check` on the
/// example of `from` with its type changed to `to` through that directory: one solution, its `solution:`.
fn checked_under_new_name(text: &str, from: &str, to: &str, example: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(format!("{to}.yaml")),
        text.replace(&format!("name: {from}"), &format!("name: {to}")),
    )
    .unwrap();
    let example =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(example))
            .unwrap();
    let puzzle = dir.path().join("p.yaml");
    std::fs::write(
        &puzzle,
        example.replace(&format!("type: {from}"), &format!("type: {to}")),
    )
    .unwrap();
    latin()
        .arg("check")
        .arg(&puzzle)
        .arg("--grammars")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("ok: one solution"));
    dir
}

#[test]
fn lines_answer_every_line_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("some.txt");
    let unique =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    std::fs::write(&path, format!("{unique}\n{}\n12345\n", ".".repeat(81))).unwrap();
    let out = latin()
        .args(["solve", "--lines"])
        .arg(&path)
        .args(["--type", "sudoku", "--box", "3x3"])
        .assert()
        // Every line is answered, and the invalid one makes the run's exit code 2 (bad input).
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: 3 puzzles: 1 solved, 1 with several solutions, 0 with none, 0 timed out, 1 invalid",
            path.display()
        )))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        lines[0],
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    );
    assert!(lines[1].starts_with("multiple "));
    assert!(lines[2].starts_with("invalid 5 characters"));
    // JSON lines, from stdin.
    let out = latin()
        .args(["solve", "--lines", "-", "--format", "json"])
        .write_stdin(format!("{unique}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["line"], 1);
    // A bad type is reported like a bad file.
    latin()
        .args(["solve", "--lines"])
        .arg(&path)
        .args(["--type", "nonesuch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown puzzle type \"nonesuch\""));
}

#[test]
fn lines_that_are_whole_puzzles_name_their_own_types() {
    let stdout = |args: &[&str]| {
        let out = latin()
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap().trim().to_owned()
    };
    // Four types, each in a one-line form: a corpus record, a puzz.link URL, a Tatham game ID and an f-puzzles
    // link; then a bare Sudoku line, which stays one, and two lines that are no puzzle.
    let files = [
        ("puzzles/killer/killer-6x6.yaml", "record"),
        ("puzzles/skyscrapers/skyscrapers-5x5.yaml", "puzzlink"),
        ("puzzles/futoshiki/futoshiki-5x5.yaml", "tatham"),
        ("puzzles/thermo/thermo-9x9.yaml", "fpuzzles"),
    ];
    let sudoku =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let mut lines = vec!["# one of each".to_owned()];
    let mut expected = Vec::new();
    for (file, form) in files {
        lines.push(stdout(&["convert", file, "--to", form]));
        let solved: serde_json::Value =
            serde_json::from_str(&stdout(&["solve", file, "--format", "json"])).unwrap();
        let rows = solved["solutions"][0].as_array().unwrap();
        let digits = rows.iter().flat_map(|r| r.as_array().unwrap());
        expected.push(digits.map(|v| v.to_string()).collect::<String>());
    }
    lines.extend([sudoku, "solo:3x3:not-a-grid", "x,y,\"z"].map(str::to_owned));
    let text = lines.join("\n") + "\n";
    let out = latin()
        .args(["solve", "--lines", "-", "--format", "json"])
        .write_stdin(text.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "7 puzzles: 5 solved, 0 with several solutions, 0 with none, 0 timed out, 2 invalid",
        ))
        .stderr(predicate::str::contains(
            "2 checked against the file's solution or count, 0 not the answer",
        ))
        .get_output()
        .stdout
        .clone();
    let answers: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 7);
    for (answer, solution) in answers.iter().zip(&expected) {
        assert_eq!(answer["status"], "solved", "{answer}");
        assert_eq!(answer["solution"], solution.as_str(), "{answer}");
    }
    // The record and the f-puzzles link carry the file's solution, compared; the others do not.
    let compared: Vec<&serde_json::Value> =
        answers.iter().map(|a| &a["matches_solution"]).collect();
    assert_eq!(
        compared[..4],
        [
            &true.into(),
            &serde_json::Value::Null,
            &serde_json::Value::Null,
            &true.into()
        ]
    );
    assert_eq!(
        answers[4]["solution"],
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    );
    assert_eq!(
        (&answers[5]["status"], &answers[5]["line"]),
        (&"invalid".into(), &7.into())
    );
    let why = answers[5]["message"].as_str().unwrap();
    assert!(why.starts_with("tatham: "), "{why}");
    // A line that reads as nothing is said to be no puzzle, not a table of them.
    let why = answers[6]["message"].as_str().unwrap();
    assert!(
        why.starts_with("not a valid puzzle file: expected a map of sections"),
        "{why}"
    );
    assert!(!why.contains("table"), "{why}");
    // The flags that say what a line of givens is would do nothing here: refused, not ignored.
    latin()
        .args(["solve", "--lines", "-", "--rules", "diagonals"])
        .write_stdin(text.clone())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "error: --rules: goes with lines of givens; these lines are whole puzzles",
        ));
    // Given to `solve` as one puzzle file, such a file is pointed to --lines.
    rejects(
        &lines[1..3].join("\n"),
        &format!(
            "not a valid puzzle file: expected a map of sections (`type: sudoku`, `givens: ...`); these are \
             puzzles, one a line (it begins `{}...`): solve every line with `latin solve --lines`",
            lines[1].chars().take(40).collect::<String>()
        ),
    );
}

#[test]
fn lines_read_tables_of_puzzles_and_solutions() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let run = |table: String, code: i32| {
        let out = latin()
            .args(["solve", "--lines", "-", "--format", "json"])
            .write_stdin(table)
            .assert()
            .code(code)
            .get_output()
            .clone();
        let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (answers, String::from_utf8(out.stderr).unwrap())
    };
    // No header: the puzzle first, a solution as long beside it; a quoted field's comma does not shift the
    // columns; an empty solution is not compared.
    let wrong = solution.replacen("534", "354", 1);
    let (answers, _) = run(
        format!("{puzzle},{solution},\"a, b\"\n\"{puzzle}\",{wrong},x\n{puzzle},,\n"),
        1,
    );
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0]["matches_solution"], true);
    assert_eq!(answers[1]["matches_solution"], false);
    assert_eq!(answers[1]["solution"], solution);
    let why = answers[1]["message"].as_str().unwrap();
    assert!(why.starts_with("the file's solution is wrong: "), "{why}");
    assert!(answers[2].get("matches_solution").is_none());
    // A header names the columns, in any order; several solutions are compared as one that fits.
    let open = format!("..{}", &puzzle[2..]);
    let (answers, stderr) = run(
        format!("id,rating,Answer,QUESTION\n1,2.5,{solution},{puzzle}\n2,9,{solution},{open}\n"),
        0,
    );
    assert_eq!(answers[0]["status"], "solved");
    assert_eq!(answers[0]["line"], 2);
    assert_eq!(answers[1]["status"], "multiple");
    assert_eq!(answers[1]["matches_solution"], true);
    assert!(
        stderr.contains("2 checked against the file's solution or count, 0 not the answer"),
        "{stderr}"
    );
    // The same table given as a puzzle file: pointed to --lines.
    let table_of = |begins: &str| {
        format!(
            "not a valid puzzle file: expected a map of sections (`type: sudoku`, `givens: ...`); these are \
             a table of puzzles, one a line (it begins `{begins}`): solve every line with `latin solve --lines`"
        )
    };
    rejects(
        &format!("quizzes,solutions\n{puzzle},{solution}\n"),
        &table_of("quizzes,solutions"),
    );
    // Every field quoted, as spreadsheets export: no YAML at all, yet still a table.
    let quoted = format!("\"id\",\"puzzle\"\n\"1\",\"{puzzle}\"\n");
    rejects(&quoted, &table_of("\"id\",\"puzzle\""));
    let (answers, _) = run(quoted, 0);
    assert_eq!(answers[0]["solution"], solution);
    // A header that names no puzzle column, and a line short of the puzzle's field.
    latin()
        .args(["solve", "--lines", "-"])
        .write_stdin("id,rating\n1,2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--lines: line 1: the line has commas, so it was read as a table, but no column is named",
        ));
    latin()
        .args(["solve", "--lines", "-"])
        .write_stdin(format!("id,puzzle\n1,{puzzle}\n2\n"))
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "invalid the line has 1 field; the puzzle is field 2",
        ));
}

/// Runs latin with `args`, asserts its exit code, and parses what it wrote on stdout (or stderr) as JSON.
fn json_of(args: &[&str], code: i32, stderr: bool) -> serde_json::Value {
    let out = latin().args(args).assert().code(code).get_output().clone();
    let bytes = if stderr { out.stderr } else { out.stdout };
    serde_json::from_slice(&bytes).unwrap()
}

#[test]
fn count_check_and_errors_speak_json() {
    let inshi = root().join("puzzles/inshi/nikoli-5x5.yaml");
    let inshi = inshi.to_str().unwrap();
    let v = json_of(&["count", "--format", "json", inshi], 0, false);
    assert_eq!(
        (v["status"].as_str(), v["count"].as_u64()),
        (Some("solved"), Some(1))
    );
    assert_eq!(v["complete"], true);
    let v = json_of(&["check", "--format", "json", inshi], 0, false);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["ok"], true);
    assert_eq!(v["matches_solution"], true);
    let empty = root().join("puzzles/open/empty-9x9.yaml");
    let v = json_of(
        &["check", "--format", "json", empty.to_str().unwrap()],
        1,
        false,
    );
    assert_eq!(
        (v["status"].as_str(), v["ok"].as_bool()),
        (Some("multiple"), Some(false))
    );
    let v = json_of(&["solve", "--format", "json", "missing.yaml"], 2, true);
    assert_eq!(v["exit"], 2);
    assert!(
        v["error"].as_str().unwrap().starts_with("missing.yaml:"),
        "{v}"
    );
}

#[test]
fn one_bad_grammar_file_does_not_break_the_others() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("good.yaml"),
        "name: good\ndescription: a Latin square\nrules: [latin]\n",
    )
    .unwrap();
    // The indentation slip of the issue: the second item is read as part of the first.
    std::fs::write(
        dir.path().join("slipped.yaml"),
        "name: slipped\ndescription: d\nrules:\n  - latin\n   - boxes\n",
    )
    .unwrap();
    // Overrides a built-in type.
    std::fs::write(
        dir.path().join("sudoku.yaml"),
        "name: sudoku\ndescription: my own Sudoku\nrules: [latin, boxes]\n",
    )
    .unwrap();
    // A broken replacement of a built-in type: its puzzles get the error, not the old rules.
    std::fs::write(
        dir.path().join("xv.yaml"),
        "name: xv\ndescription: d\nsections:\n  x: {kind: pairs}\nrules:\n  - latin\n  - {primitive: tagged-pairs, tags: {x: sum ten}}\n",
    )
    .unwrap();
    let puzzles = tempfile::tempdir().unwrap();
    let solve = |puzzle: &Path| {
        latin()
            .arg("--grammars")
            .arg(dir.path())
            .arg("solve")
            .arg(puzzle)
            .assert()
    };
    let xv = puzzles.path().join("xv.yaml");
    std::fs::write(&xv, "type: xv\nsize: 4\nx: []\n").unwrap();
    solve(&xv).code(2).stderr(predicate::str::contains(
        "\"sum ten\" is not a pair relation",
    ));
    let good = puzzles.path().join("good.yaml");
    std::fs::write(
        &good,
        "type: good\nsize: 3\ngivens: |\n  1 2 3\n  . . .\n  . . .\n",
    )
    .unwrap();
    solve(&good).code(0);
    let slipped = puzzles.path().join("slipped.yaml");
    std::fs::write(&slipped, "type: slipped\nsize: 4\n").unwrap();
    solve(&slipped)
        .code(2)
        // The indentation is the slip, not the spelling: no "did you mean".
        .stderr(predicate::str::contains(
            "slipped.yaml: unknown rule \"latin - boxes\" (known: ",
        ))
        .stderr(predicate::str::contains(
            "give every `- ` of the list the same indentation",
        ));
    // A file named otherwise than the type it declares: a puzzle of that type hears why the file did not load,
    // and only that (its `name:` says which type it meant).
    std::fs::write(
        dir.path().join("mine.yaml"),
        "name: dotted\ndescription: d\nsections:\n  w: {kind: pairs}\nrules:\n  - latin\n  - {primitive: tagged-pairs, tags: {w: ratio 0}}\n",
    )
    .unwrap();
    let dotted = puzzles.path().join("dotted.yaml");
    std::fs::write(&dotted, "type: dotted\nsize: 4\nw: []\n").unwrap();
    solve(&dotted)
        .code(2)
        .stderr(predicate::str::contains("unknown puzzle type").not())
        .stderr(predicate::str::contains(
            "mine.yaml: primitive tagged-pairs",
        ))
        .stderr(predicate::str::contains(
            "\"ratio 0\" is not a pair relation",
        ));
    // A type no file declares: the known types, and every file that did not load with its reason.
    let nosuch = puzzles.path().join("nosuch.yaml");
    std::fs::write(&nosuch, "type: nosuch\nsize: 4\n").unwrap();
    solve(&nosuch)
        .code(2)
        .stderr(predicate::str::contains("unknown puzzle type \"nosuch\""))
        .stderr(predicate::str::contains("; not loaded, grammar "))
        .stderr(predicate::str::contains(
            "mine.yaml: primitive tagged-pairs",
        ));
    let listing = latin()
        .arg("--grammars")
        .arg(dir.path())
        .arg("grammars")
        .assert()
        .success();
    let text = String::from_utf8_lossy(&listing.get_output().stdout).into_owned();
    assert!(text.contains("good "), "{text}");
    assert!(text.contains("did not load"), "{text}");
    assert!(text.contains("unknown rule \"latin - boxes\""), "{text}");
    assert_eq!(
        text.matches("overriding the one built in").count(),
        1,
        "{text}"
    );
}

#[test]
fn a_latin_square_type_takes_boxes_from_its_rules() {
    let (_dir, path) = file(
        "type: kenken\nbox: 2x2\nrules: [boxes]\ncages: |\n  AABB\n  CCDD\n  EEFF\n  GGHH\nhints: {A: 3+, B: 7+, C: 7+, D: 3+, E: 3+, F: 7+, G: 7+, H: 3+}\n",
    );
    let out = latin()
        .args(["solve", "--format", "json", "--max", "10"])
        .arg(&path)
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let solutions = v["solutions"].as_array().unwrap();
    assert!(!solutions.is_empty());
    for grid in solutions {
        let g: Vec<Vec<u64>> = serde_json::from_value(grid.clone()).unwrap();
        for (br, bc) in [(0, 0), (0, 2), (2, 0), (2, 2)] {
            let mut seen: Vec<u64> = (0..4).map(|i| g[br + i / 2][bc + i % 2]).collect();
            seen.sort_unstable();
            assert_eq!(seen, vec![1, 2, 3, 4], "{g:?}");
        }
    }
    rejects(
        "type: kenken\nbox: 2x2\ncages: |\n  AABB\n  CCDD\n  EEFF\n  GGHH\nhints: {A: 3+, B: 7+, C: 7+, D: 3+, E: 3+, F: 7+, G: 7+, H: 3+}\n",
        "box: type kenken has no boxes (add `rules: [boxes]` to give it some)",
    );
}

#[test]
fn variant_sections_report_their_mistakes() {
    rejects(
        "type: sandwich\nsize: 9\ntop: \". . . . 46 . . . .\"\n",
        "top: line 1, column 9: 46 is more than 1 + 2 + ... + 9 = 45",
    );
    rejects(
        "type: kropki\nsize: 9\nwhite:\n  - r1c1-r1c3\n",
        "white: line 1, column 1: r1c1 and r1c3 are not neighbours (they must share an edge)",
    );
    rejects(
        "type: arrow\nsize: 9\narrows:\n  - r1c1\n",
        "arrows: line 1, column 1: a line needs two cells or more",
    );
    rejects(
        "type: renban\nsize: 9\nrenban:\n  - r1c1 r1c2 r4c4\n",
        "renban: line 1, column 11: r4c4 is not next to r1c2",
    );
}

#[test]
fn a_corpus_record_is_a_puzzle_wherever_one_is_taken() {
    // One line of a corpus `.jsonl` file, pasted whole: read as a record, not as a YAML file whose sections are
    // `id` and `count`.
    let record = r#"{"id":"x","type":"inshi","size":2,"regions":[["a","a"],["b","c"]],"clues":{"a":"2","b":"2","c":"1"},"solution":[[1,2],[2,1]],"count":1}"#;
    let out = latin()
        .args(["solve", "--format", "json", "-"])
        .write_stdin(record)
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["solutions"][0], serde_json::json!([[1, 2], [2, 1]]));
    // Written back as a record, it reads to the same puzzle file.
    let yaml = |input: &str| {
        let out = latin()
            .args(["convert", "-", "--to", "yaml"])
            .write_stdin(input.to_owned())
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let out = latin()
        .args(["convert", "-", "--to", "record"])
        .write_stdin(record)
        .assert()
        .success();
    let written = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        written.starts_with('{') && written.contains(r#""type":"inshi""#),
        "{written}"
    );
    assert_eq!(yaml(&written), yaml(record));
}

/// `latin solve --format json --max 2` on a puzzle file's text: its standard output, after a successful run.
fn solved(text: &str) -> String {
    let (_dir, path) = file(text);
    let out = latin()
        .args(["solve", "--format", "json", "--max", "2"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(json.contains("\"status\":\"solved\""), "{json}");
    // The answer, without the timings after it.
    json[..json.find("\"time_ms\"").expect("a time")].to_owned()
}

#[test]
fn the_forms_setters_write_read_alike() {
    // Givens as a list of entries and as a mapping of cells to values.
    let list = solved("type: sudoku\nsize: 4\ngivens: [r1c1=1, r2c3=2, r3c2=3, r4c4=4]\n");
    let map = solved("type: sudoku\nsize: 4\ngivens: {r1c1: 1, r2c3: 2, r3c2: 3, r4c4: 4}\n");
    assert_eq!(list, map);
    assert!(list.contains("\"count\":1"), "{list}");
    // A quoted size is the same size.
    let quoted = solved("type: sudoku\nsize: \"4\"\ngivens: [r1c1=1, r2c3=2, r3c2=3, r4c4=4]\n");
    assert_eq!(quoted, list);
    // A line's cells separated by spaces and by commas.
    let spaced = solved("type: thermo\nsize: 4\nthermos: [r1c1 r1c2 r2c2, r4c4 r4c3]\n");
    let commas = solved("type: thermo\nsize: 4\nthermos: [\"r1c1, r1c2,r2c2\", \"r4c4,r4c3\"]\n");
    assert_eq!(spaced, commas);
    // Skyscraper counts spaced and run together.
    let clues = "size: 4\ntop: \"2 1 . 3\"\nleft: \". 2 . .\"\n";
    let spaced = solved(&format!("type: skyscrapers\n{clues}"));
    let run = solved("type: skyscrapers\nsize: 4\ntop: \"21.3\"\nleft: \".2..\"\n");
    assert_eq!(spaced, run);
    rejects(
        "type: sudoku\nsize: 4\ngivens: {r1c1: [1]}\n",
        "givens: a mapping of givens takes a cell and a value an entry",
    );
    rejects(
        "type: latin\nsize: 3\ngivens: {r1c1: 1, r2c2: 4}\n",
        "givens: line 2, column 6: value 4 is out of range 1..3",
    );
}

#[test]
fn a_bare_grid_is_a_sudoku_of_its_size() {
    let six = root().join("puzzles/sudoku/boxes-2x3-6x6.yaml");
    let out = latin()
        .args(["convert", "--to", "line"])
        .arg(&six)
        .output()
        .unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert_eq!(line, ".42..5........64.2....5......3.6..1.");
    let file = std::fs::read_to_string(&six).unwrap();
    let expected = solved(&file);
    // The line as the argument, as a file's whole content, and on standard input.
    let by_arg = latin()
        .args(["solve", "--format", "json", "--max", "2", &line])
        .output()
        .unwrap();
    let by_arg = String::from_utf8(by_arg.stdout).unwrap();
    assert!(by_arg.starts_with(&expected), "{by_arg}");
    assert_eq!(solved(&format!("{line}\n")), expected);
    latin()
        .args(["solve", "--format", "json", "--max", "2", "-"])
        .write_stdin(line.clone())
        .assert()
        .success()
        .stdout(predicate::str::starts_with(expected.clone()));
    // The grid's rows, with a printed grid's bars and rules.
    let rows: Vec<String> = line
        .as_bytes()
        .chunks(6)
        .map(|r| {
            let cells: Vec<String> = r.iter().map(|&b| char::from(b).to_string()).collect();
            format!("{} | {}", cells[..3].join(" "), cells[3..].join(" "))
        })
        .collect();
    let printed = format!(
        "{}\n{}\n------+------\n{}\n",
        rows[0],
        rows[1],
        rows[2..].join("\n")
    );
    assert_eq!(solved(&printed), expected);
    // What the line cannot say is refused, and a line that is no grid says why.
    latin()
        .args(["convert", "--to", "line"])
        .arg(root().join("puzzles/sudoku/asterisk-9x9.yaml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a bare grid cannot say the record's \"rules\"",
        ));
    rejects(
        &line.replace("6", "7"),
        "not a valid puzzle file: expected a map of sections (`type: sudoku`, `givens: ...`), or a bare grid (an \
         81-character Sudoku line, or its rows), which it is not: line: column 15: '7' is not a value of a 6x6 grid",
    );
}

#[test]
fn an_error_in_a_pasted_form_names_where_latin_put_it_not_a_column_of_latins_text() {
    let empty_row = format!("[{}]", ["{}"; 9].join(","));
    let grid = vec![empty_row; 9].join(",");
    let link = format!(
        r#"{{"size":9,"grid":[{grid}],"thermometer":[{{"lines":[["R1C1","R1C2","R3C3"]]}}]}}"#
    );
    rejects(
        &link,
        "thermos (latin's reading of the fpuzzles form): entry 1: r3c3 is not next to r1c2",
    );
}
