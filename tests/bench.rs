//! `latin bench` as a CI job uses it: exit codes it can trust, baselines that match from anywhere, slowdowns
//! judged by intervals, and two builds side by side.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

mod common;

fn latin() -> Command {
    Command::cargo_bin("latin").expect("the latin binary is built")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const SET: [&str; 3] = ["puzzles/inshi", "puzzles/latin", "puzzles/killer"];

/// `latin bench ARGS --format json` from `dir`: the exit code, the report and what went to stderr.
fn bench(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = latin()
        .current_dir(dir)
        .arg("bench")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap(),
        report,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn with(paths: &[&str], more: &[&str]) -> Vec<String> {
    paths.iter().chain(more).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_baseline_flags_a_real_slowdown_and_never_an_unchanged_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    let base_arg = base.to_str().unwrap();
    let args = with(&SET, &["--save", base_arg]);
    let (code, report, err) = bench(&root(), &strs(&args));
    assert_eq!(code, 0, "{err}");
    let puzzles = report["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 6);
    for p in puzzles {
        assert_eq!(p["count"], 1, "{p}");
        assert_eq!(p["matches"], true);
        assert!(p["times_ms"].as_array().unwrap().len() >= 5);
        assert!(p["low_ms"].as_f64() <= p["median_ms"].as_f64());
        assert!(p["id"]
            .as_str()
            .unwrap()
            .starts_with(|c: char| c.is_ascii_lowercase()));
    }
    for round in 0..5 {
        let args = with(&SET, &["--baseline", base_arg]);
        let (code, report, err) = bench(&root(), &strs(&args));
        assert_eq!(
            code, 0,
            "round {round}: an unchanged re-run was flagged: {err}"
        );
        assert_eq!(report["comparison"]["puzzles"].as_array().unwrap().len(), 6);
    }
    // The same puzzles without presolve: tens of times slower, caught puzzle by puzzle and by type.
    let html = dir.path().join("report.html");
    let args = with(
        &SET,
        &[
            "--baseline",
            base_arg,
            "--no-presolve",
            "--html",
            html.to_str().unwrap(),
        ],
    );
    let (code, report, err) = bench(&root(), &strs(&args));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("regression: inshi/nikoli-5x5.yaml: slower"),
        "{err}"
    );
    assert!(err.contains("regression: killer: type slower"), "{err}");
    let flagged = report["comparison"]["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["slower"] == true)
        .count();
    assert!(flagged >= 4, "{report}");
    // The HTML report: self-contained, with both charts and the failures.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    assert_eq!(
        page.matches("<svg").count(),
        2,
        "a times chart and a ratio chart"
    );
    assert!(page.contains("failures</h2>") && page.contains("inshi/nikoli-5x5.yaml: slower"));
    // The baseline's own median beside each type's ratio, as the text table has it.
    let killer = &report["comparison"]["types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "killer")
        .unwrap()["times"][1];
    let cell = format!("<td>{:.3}</td>", killer["median_ms"].as_f64().unwrap());
    assert!(
        page.contains("<th>other's median ms</th>") && page.contains(&cell),
        "{killer}"
    );
    let outside = page.replace("http://www.w3.org/2000/svg", "");
    assert!(
        !outside.contains("http") && !outside.contains("<script"),
        "nothing from the network"
    );
}

#[test]
fn puzzles_match_by_id_from_anywhere_and_missing_ones_fail() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    let absolute = root().join("puzzles/inshi");
    latin()
        .current_dir(dir.path())
        .arg("bench")
        .arg(&absolute)
        .arg("--save")
        .arg(&base)
        .assert()
        .success();
    // Relative paths from the project root match the absolute ones of the baseline.
    let (code, report, err) = bench(
        &root(),
        &["puzzles/inshi", "--baseline", base.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["comparison"]["puzzles"].as_array().unwrap().len(), 2);
    // One puzzle of the baseline left out: it is missing, and that fails.
    let (code, _, err) = bench(
        &root(),
        &[
            "puzzles/inshi/nikoli-5x5.yaml",
            "--baseline",
            base.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("inshi/rooms-6x6.yaml: missing"), "{err}");
}

#[test]
fn errors_answers_and_grammar_files() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    std::fs::create_dir(&set).unwrap();
    let good = std::fs::read_to_string(root().join("puzzles/inshi/nikoli-5x5.yaml")).unwrap();
    std::fs::write(set.join("good.yaml"), &good).unwrap();
    std::fs::write(
        set.join("grammar.yaml"),
        "name: mine\ndescription: a type\nrules: [latin]\n",
    )
    .unwrap();
    let (code, report, err) = bench(dir.path(), &["set"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["puzzles"].as_array().unwrap().len(), 1);
    assert_eq!(report["skipped"][0]["id"], "set/grammar.yaml");
    // A puzzle of an unknown type (a forgotten --grammars) is an error, and the run fails.
    std::fs::write(set.join("other.yaml"), "type: mine\nsize: 3\n").unwrap();
    let (code, _, err) = bench(dir.path(), &["set"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("failed: set/other.yaml: error"), "{err}");
    // With the grammar directory given, it loads.
    let (code, _, err) = bench(dir.path(), &["set", "--grammars", "set"]);
    assert_eq!(code, 0, "{err}");
    // An answer that differs from `solution:` fails.
    std::fs::remove_file(set.join("other.yaml")).unwrap();
    let wrong = good.replace("solution: |\n  23514", "solution: |\n  32514");
    assert_ne!(wrong, good);
    std::fs::write(set.join("good.yaml"), wrong).unwrap();
    let (code, _, err) = bench(dir.path(), &["set"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("differs from `solution:`"), "{err}");
}

#[test]
fn a_baseline_of_another_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.json");
    std::fs::write(
        &old,
        r#"{"repeat": 3, "cores": 2, "puzzles": [], "types": []}"#,
    )
    .unwrap();
    let (code, _, err) = bench(
        &root(),
        &["puzzles/inshi", "--baseline", old.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("save a new baseline"), "{err}");
}

#[test]
fn the_same_build_against_itself_has_ratios_around_one() {
    let this = assert_cmd::cargo::cargo_bin("latin");
    let (code, report, err) = bench(
        &root(),
        &strs(&with(
            &SET,
            &["--against", this.to_str().unwrap(), "--repeat", "10"],
        )),
    );
    assert_eq!(code, 0, "{err}");
    let c = &report["comparison"];
    let ratios: Vec<&Value> = c["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .chain(c["types"].as_array().unwrap())
        .collect();
    assert_eq!(ratios.len(), 9);
    // Each interval is a 95% one, so with nine of them one misses 1 by chance about a third of the time on
    // an honest tool. What must hold is what the judge promises: no interval lies wholly beyond the
    // default tolerance (0.25) either way, and no ratio is flagged slower. A comparison that timed the two
    // sides differently (one warm, one cold; one with its start-up, one without) breaks this.
    for r in ratios {
        let (low, high) = (r["low"].as_f64().unwrap(), r["high"].as_f64().unwrap());
        assert!(low <= 1.25 && 1.0 / 1.25 <= high, "{r}");
        assert_eq!(r["slower"], Value::Bool(false), "{r}");
    }
    // Each type has both builds' median and total over its puzzles (here every puzzle: none failed), this
    // build's the same as the type's own row; the text table shows the other's beside the ratio.
    for t in c["types"].as_array().unwrap() {
        let times = t["times"].as_array().expect("a type's times");
        let row = report["types"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["type"] == t["name"])
            .unwrap();
        for key in ["median_ms", "total_ms"] {
            let (mine, own) = (times[0][key].as_f64().unwrap(), row[key].as_f64().unwrap());
            assert!((mine - own).abs() <= 1e-9 * own, "{t}");
            assert!(times[1][key].as_f64().unwrap() > 0.0, "{t}");
        }
    }
    assert!(c["puzzles"].as_array().unwrap()[0].get("times").is_none());
    let text = latin()
        .current_dir(root())
        .args(["bench", "puzzles/inshi/nikoli-5x5.yaml", "--repeat", "3"])
        .args(["--max-repeat", "3", "--against", this.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("other's median ms"), "{text}");
}

/// The other build is checked before any puzzle: a wrong path, or a binary that is not latin, is bad usage
/// (exit 2, named), not every puzzle failing. And where the other build fails on one puzzle only (an older
/// build that does not know a type), this build's result for it is still measured, and the failure is a
/// finding for that puzzle alone.
#[cfg(unix)]
#[test]
fn a_broken_other_build_is_named_and_spoils_nothing_of_this_one() {
    use std::os::unix::fs::PermissionsExt;
    let this = assert_cmd::cargo::cargo_bin("latin");
    for (other, says) in [
        ("/nonexistent/latin", "cannot run it"),
        ("/bin/true", "not a latin binary"),
    ] {
        let (code, _, err) = bench(&root(), &["puzzles/inshi", "--against", other]);
        assert_eq!(code, 2, "{other}: {err}");
        assert!(
            err.contains(&format!("--against: {other}: {says}")),
            "{err}"
        );
    }
    // A latin that refuses one file: the 6x6 Inshi (rooms-6x6).
    let dir = tempfile::tempdir().unwrap();
    let picky = dir.path().join("picky-latin");
    std::fs::write(
        &picky,
        format!(
            "#!/bin/sh\ncase \"$*\" in *rooms-6x6*) echo 'error: not known here' >&2; exit 2;; esac\nexec '{}' \"$@\"\n",
            this.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&picky, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, report, err) = bench(
        &root(),
        &[
            "puzzles/inshi",
            "--repeat",
            "3",
            "--max-repeat",
            "3",
            "--against",
            picky.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "the other build's failure is a regression: {err}");
    let mine = report["puzzles"].as_array().unwrap();
    assert!(mine.len() >= 2, "{report}");
    for p in mine {
        assert_eq!(p["status"], "solved", "{p}");
        assert_eq!(p["times_ms"].as_array().map(Vec::len), Some(3), "{p}");
        assert!(p["median_ms"].as_f64().unwrap() > 0.0, "{p}");
    }
    let findings = report["comparison"]["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0]["id"].as_str().unwrap().contains("rooms-6x6"),
        "{findings:?}"
    );
    assert!(err.contains("the other build failed"), "{err}");
}

#[test]
fn corpus_files_are_benchmarked_as_they_are() {
    // A few records of each schema feature: regions and clues, relations, outside clues, marks, lines, pairs.
    let mut lines = Vec::new();
    for (file, kinds) in [
        ("kenken.jsonl", &["kenken"][..]),
        ("inshi.jsonl", &["inshi"]),
        ("futoshiki.jsonl", &["futoshiki"]),
        ("skyscrapers.jsonl", &["skyscrapers"]),
        ("evenodd.jsonl", &["evenodd"]),
        ("consecutive.jsonl", &["consecutive"]),
        (
            "variants.jsonl",
            &[
                "thermo",
                "kropki",
                "xv",
                "palindrome",
                "sum-skyscrapers",
                "whispers",
            ],
        ),
    ] {
        let Some(records) = common::records(file) else {
            return;
        };
        for kind in kinds {
            let of_kind = records.iter().filter(|r| r["type"] == *kind).take(3);
            lines.extend(of_kind.map(Value::to_string));
        }
    }
    assert_eq!(lines.len(), 36);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mixed.jsonl"), lines.join("\n") + "\n").unwrap();
    let (code, report, err) = bench(
        dir.path(),
        &["mixed.jsonl", "--repeat", "1", "--max-repeat", "1"],
    );
    assert_eq!(code, 0, "{err}");
    let puzzles = report["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 36);
    for p in puzzles {
        assert!(p["id"].as_str().unwrap().starts_with("mixed.jsonl#"), "{p}");
        assert_eq!(p["matches"], true, "{p}");
        assert_eq!(p["count"], 1, "{p}");
    }
}

/// A file of puzzles that name their type, one a line (what `solve --lines` reads), is benchmarked a line
/// each, by itself and against another build; a file holding one ID stays one puzzle.
#[test]
fn files_of_ids_and_links_are_benchmarked_a_line_each() {
    let convert = |file: &str, form: &str| {
        let out = latin()
            .current_dir(root())
            .args(["convert", file, "--to", form])
            .output()
            .unwrap();
        assert!(out.status.success(), "{file} --to {form}");
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let lines = [
        "# four types".to_owned(),
        convert("puzzles/futoshiki/futoshiki-5x5.yaml", "tatham"),
        String::new(),
        convert("puzzles/skyscrapers/skyscrapers-5x5.yaml", "puzzlink"),
        convert("puzzles/thermo/thermo-9x9.yaml", "fpuzzles"),
        convert("puzzles/killer/killer-6x6.yaml", "record"),
    ];
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("set.txt"), lines.join("\n") + "\n").unwrap();
    std::fs::write(dir.path().join("one.txt"), format!("{}\n", lines[1])).unwrap();
    let me = env!("CARGO_BIN_EXE_latin");
    // Against itself, one run each: a difference under a second is noise, not a regression.
    for against in [&[][..], &["--against", me, "--floor-ms", "1000"]] {
        let mut args = vec!["set.txt", "one.txt", "--repeat", "1", "--max-repeat", "1"];
        args.extend(against);
        let (code, report, err) = bench(dir.path(), &args);
        assert_eq!(code, 0, "{err}");
        let puzzles = report["puzzles"].as_array().unwrap();
        let seen: Vec<(&str, &str)> = puzzles
            .iter()
            .map(|p| (p["id"].as_str().unwrap(), p["type"].as_str().unwrap()))
            .collect();
        assert_eq!(
            seen,
            [
                ("set.txt#line2", "futoshiki"),
                ("set.txt#line4", "skyscrapers"),
                ("set.txt#line5", "thermo"),
                ("set.txt#line6", "killer"),
                ("one.txt", "futoshiki"),
            ],
            "{against:?}"
        );
        for p in puzzles {
            assert_eq!(
                (&p["status"], &p["count"]),
                (&"solved".into(), &1.into()),
                "{p}"
            );
        }
        // The f-puzzles link and the record carry the solution, compared.
        assert_eq!(
            (&puzzles[2]["matches"], &puzzles[3]["matches"]),
            (&true.into(), &true.into())
        );
    }
}
