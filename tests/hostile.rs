//! Hostile input: every input that once crashed `latin`, gave a wrong answer or ignored the time limit is kept
//! as a file under `tests/hostile/` (its first line says the exit code and a piece of the message expected),
//! and the command-line contract is checked for every command: no panic, an exit code from {0, 1, 2, 3} (141
//! for a closed pipe), a clear message on bad input.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

fn latin() -> Command {
    Command::cargo_bin("latin").expect("the latin binary is built")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `# expect: CODE [text]` on the first line of a regression file, and the flags `solve` gets: those of an
/// `# args: FLAGS` second line, else `--time-limit 10`.
fn expectation(path: &Path) -> (i32, String, Vec<String>) {
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let first = lines.next().unwrap_or("");
    let rest = first
        .strip_prefix("# expect: ")
        .unwrap_or_else(|| panic!("{}: no `# expect:` line", path.display()));
    let (code, message) = rest.split_once(' ').unwrap_or((rest, ""));
    let args = match lines.next().and_then(|l| l.strip_prefix("# args: ")) {
        Some(flags) => flags.split_whitespace().map(str::to_owned).collect(),
        None => vec!["--time-limit".to_owned(), "10".to_owned()],
    };
    (code.parse().unwrap(), message.to_owned(), args)
}

/// The `--time-limit` a time-out file's flags name.
fn time_limit(args: &[String]) -> &str {
    args.iter()
        .skip_while(|a| *a != "--time-limit")
        .nth(1)
        .expect("a time-out file names its --time-limit")
}

#[test]
fn every_regression_file_gets_its_exit_code_and_message() {
    let dir = root().join("tests/hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 15, "only {} regression files", files.len());
    for file in files {
        let (code, message, args) = expectation(&file);
        let start = Instant::now();
        let out = latin()
            .arg("solve")
            .args(&args)
            .arg(&file)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}: {stderr}",
            file.display()
        );
        assert!(!stderr.contains("panicked"), "{}: {stderr}", file.display());
        // An error is said on stderr; a time-out is an answer, on stdout.
        let said = format!("{stderr}{}", String::from_utf8_lossy(&out.stdout));
        assert!(said.contains(&message), "{}: {said}", file.display());
        if code == 3 {
            // Stopped at the limit, not long after it (these once ran on for 25 s, or for minutes).
            let limit: f64 = time_limit(&args).parse().unwrap();
            let took = start.elapsed().as_secs_f64();
            assert!(
                took < limit + 4.0,
                "{}: a {limit} s limit took {took:.1} s",
                file.display()
            );
        }
        if code == 0 {
            assert!(!out.stdout.is_empty(), "{}: no answer", file.display());
        }
    }
}

/// The files that once ran past the time limit, under the commands that read a puzzle step by step rather than
/// solve it: each stops at the limit too (`rate` and `hint` once ran for minutes on a 64x64 sandwich, trying
/// each value a rule might have to place where it meets a row or column, each trial the rule's whole
/// propagation).
#[test]
fn the_analysis_commands_stop_at_the_time_limit_too() {
    let dir = root().join("tests/hostile");
    let mut timed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().path();
        let (code, _, args) = expectation(&file);
        if code != 3 {
            continue;
        }
        timed += 1;
        let limit = time_limit(&args);
        for command in ["rate", "hint", "candidates"] {
            let start = Instant::now();
            let out = latin()
                .args([command, "--time-limit", limit])
                .arg(&file)
                .timeout(Duration::from_secs(60))
                .output()
                .unwrap();
            let took = start.elapsed().as_secs_f64();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let name = format!("{command} {}", file.display());
            // Refused (a grid too large for the analysis), answered, or stopped: never a panic or a hang.
            assert!(
                matches!(out.status.code(), Some(0..=3)),
                "{name}: {:?} {stderr}",
                out.status
            );
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
            let limit: f64 = limit.parse().unwrap();
            assert!(
                took < limit + 4.0,
                "{name}: a {limit} s limit took {took:.1} s"
            );
        }
    }
    assert!(timed >= 3, "only {timed} time-out files");
}

#[test]
fn time_limits_out_of_range_are_refused() {
    let sudoku = root().join("puzzles/sudoku/diagonal-9x9.yaml");
    for limit in ["1e300", "1.8e19", "NaN", "-1", "0"] {
        latin()
            .arg("solve")
            .arg(format!("--time-limit={limit}"))
            .arg(&sudoku)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("error: --time-limit:"));
    }
}

#[test]
fn probing_stops_at_the_time_limit() {
    // An objective sends a 36x36 Sudoku through probing, which took 13 s before it looked at the clock.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.yaml");
    std::fs::write(
        &path,
        "type: sudoku\nsize: 36\nobjective: {maximize: {r1c1: 1}}\n",
    )
    .unwrap();
    let start = Instant::now();
    latin()
        .args(["solve", "--time-limit", "1"])
        .arg(&path)
        .assert()
        .code(3);
    let took = start.elapsed().as_secs_f64();
    assert!(took < 5.0, "a 1 s limit took {took:.1} s");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let empty = root().join("puzzles/open/empty-9x9.yaml");
    for args in [
        vec!["solve", "--max", "1000", empty.to_str().unwrap()],
        vec!["grammars"],
    ] {
        let mut child = Process::new(assert_cmd::cargo::cargo_bin("latin"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read nothing: close our end of the pipe at once.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let code = out.status.code();
        assert!(matches!(code, Some(0 | 141)), "{args:?}: {code:?}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn endless_input_is_cut_at_the_cap() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    latin()
        .args(["solve", "/dev/zero"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than"));
    latin()
        .args(["solve", "--lines", "/dev/zero"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than the"));
}

#[test]
fn lines_read_cr_endings_a_bom_and_bad_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lines.txt");
    let unique =
        b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(unique);
    bytes.extend(b"\r\xff\xfe\r");
    bytes.extend(unique);
    bytes.push(b'\r');
    std::fs::write(&path, bytes).unwrap();
    let out = latin()
        .args(["solve", "--lines"])
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), 3, "{text}");
    assert_eq!(answers[0], answers[2]);
    assert!(answers[1].starts_with("invalid not UTF-8"), "{text}");
}

#[test]
fn lines_of_a_size_without_boxes_name_the_flag() {
    latin()
        .args(["solve", "--lines", "-"])
        .write_stdin("1234\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: --box:"))
        .stderr(predicate::str::contains("box:").count(1));
}

#[test]
fn flags_that_would_do_nothing_are_refused() {
    let sudoku = root().join("puzzles/sudoku/diagonal-9x9.yaml");
    for (flag, value) in [
        ("--type", "latin"),
        ("--box", "3x3"),
        ("--rules", "diagonals"),
        ("--line-time-limit", "1"),
    ] {
        latin()
            .args(["solve", flag, value])
            .arg(&sudoku)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "error: {flag}: goes with --lines"
            )));
    }
    let dir = root().join("puzzles/sudoku");
    for (flag, value) in [
        ("--repeat", "0"),
        ("--tolerance", "NaN"),
        ("--tolerance", "-1"),
    ] {
        latin()
            .arg("bench")
            .arg(format!("{flag}={value}"))
            .arg(&dir)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("error: {flag}:")));
    }
}

#[test]
fn bench_paths_are_checked_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "not json").unwrap();
    let sudoku = root().join("puzzles/sudoku/diagonal-9x9.yaml");
    latin()
        .args(["bench", "--baseline"])
        .arg(&bad)
        .arg(&sudoku)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a saved bench report"));
    latin()
        .args(["bench", "--save", "/nonexistent-dir/x.json"])
        .arg(&sudoku)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty());
}

#[test]
fn a_puzzle_too_large_for_memory_is_refused_before_it_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.yaml");
    std::fs::write(&path, "type: latin\nsize: 255\n").unwrap();
    // 255^3 cell-value columns: tens of gigabytes for a backend; `size: 255` used to die at 9 GB. Straight to
    // the backend (`--search-nodes 0`): search on all-different groups fills this one without a backend.
    latin()
        .args(["solve", "--time-limit", "10", "--search-nodes", "0"])
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than the memory limit"));
    latin()
        .args(["--memory-limit", "100", "count"])
        .arg(root().join("puzzles/open/empty-9x9.yaml"))
        .assert()
        .success();
}

/// `count --max` as high as it goes keeps its grids only up to the memory limit (it once kept every grid it
/// counted until the machine ran out), and says where it stopped.
#[test]
fn a_count_stops_at_the_memory_limit() {
    let start = Instant::now();
    latin()
        .args([
            "--memory-limit",
            "1",
            "count",
            "--max",
            "18446744073709551615",
        ])
        .arg(root().join("puzzles/open/empty-9x9.yaml"))
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stdout(predicate::str::contains("stopped at the memory limit"));
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn setting_up_a_large_backend_stops_at_the_time_limit() {
    // An empty 100x100 Latin square sent to CaDiCaL (`--search-nodes 0`) has 9 million clauses: loading them
    // took 4 s, freeing them 1 s more, before the limit was looked at.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.yaml");
    std::fs::write(&path, "type: latin\nsize: 100\n").unwrap();
    let start = Instant::now();
    latin()
        .args(["solve", "--time-limit", "1", "--search-nodes", "0"])
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .assert()
        .code(3);
    let took = start.elapsed().as_secs_f64();
    assert!(took < 3.0, "a 1 s limit took {took:.1} s");
    // By default the search for grids past 64x64 fills it, with no backend at all.
    latin()
        .args(["solve", "--time-limit", "30", "--format", "json"])
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"solved_by_search\":true"));
}

/// A filled grid at the largest size is a small file (a 255x255 Latin square, 233 KB) that must load within the
/// time limit: each given used to be checked against every rule, so loading took time quadratic in the cells
/// (11 s here for a run with `--time-limit 1`; 0.6 s since a given is checked against the rules through its
/// cell).
#[test]
fn a_filled_grid_of_the_largest_size_loads_within_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("filled.yaml");
    std::fs::write(&path, common::filled_latin_square(255)).unwrap();
    let start = Instant::now();
    latin()
        .args(["count", "--time-limit", "1"])
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .assert()
        .code(0)
        .stdout("1 solution\n");
    let took = start.elapsed().as_secs_f64();
    assert!(took < 3.0, "a 1 s limit took {took:.1} s");
}

#[test]
fn the_input_cap_is_a_flag() {
    let sudoku = root().join("puzzles/sudoku/diagonal-9x9.yaml");
    latin()
        .args(["--max-input", "10", "solve"])
        .arg(&sudoku)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than 10 bytes"));
}
