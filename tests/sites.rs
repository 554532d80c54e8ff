//! Puzzles that others wrote, of types the corpus does not hold, read from the raw scrapes it was made from
//! (`../shared/datasets/raw/`, described in `SOURCES.md` there), each with the site's solution:
//! - janko.at's frame Sudokus ("Randsummen", `puzzlekit_dataset/MarginSudoku_dataset.json`, 149): a clue outside
//!   is the sum of the first three digits seen from it;
//! - Skyscraper Sudokus (`puzzlekit_dataset/SkyscraperSudoku_dataset.json`, 50);
//! - Sumdokus (`janko_at/Sumdoku.jsonl`, 90): sum cages in a Latin square, digits may repeat in a cage;
//! - sum skyscrapers with both diagonals (`janko_at/Wolkenkratzer-2.jsonl`: the 91 whose rows hold 1..n; the
//!   others leave cells empty, which is no Latin square);
//! - and, of a type the corpus does hold (its killers are janko.at's), krazydad.com's 8,000 killer Sudokus
//!   (`krazydad_killer_bnatalha/dataset_killer_sudoku.csv`): another site, another setter's generator.
//!
//! - krazydad.com's hex Sudokus as the site writes them (`krazydad/krazydad-hexsudoku-20220605_ST.csv`: a table,
//!   `DIFFICULTY,VOLUME,BOOK,NUMBER,PUZZLE`, of the symbols `0`-`9`, `a`-`f`, `.` empty), the file given to
//!   `--lines` as it is, read alike with the corpus's own conversion of the same puzzles
//!   (`lines/sudoku16-krazydad-supertough.txt`, which writes symbol s as the value s + 1);
//! - the corpus's Sudokus as the large datasets share them (Kaggle's `quizzes,solutions`, `0` empty), each
//!   line's solution compared by `--lines`, and the forum's hardest as the forum lists them, ratings after each
//!   puzzle (`;` or tab between);
//! - the corpus files themselves, a record a line, each given to `--lines` as it is: every type's puzzles in
//!   one run, each record's solution compared.
//!
//! Each becomes a puzzle file of its grammar by this file's own converter, is solved with a count to 2, and must
//! have the site's solution and no other. A sample of the frames also goes the pure path (`--no-presolve
//! --backend cbc`). `LATIN_SITES_DIR=DIR` keeps the puzzle files, with their solutions, under `DIR/TYPE/` (for
//! `latin bench`).

mod common;

use latin::{load_str, Registry};
use serde_json::Value;

/// One puzzle: where it came from, its puzzle file, the site's solution.
struct Site {
    id: String,
    file: String,
    solution: Vec<Vec<u32>>,
}

/// A puzzle file's block of rows (`givens: |` and the like), `-` written as `.`.
fn block(rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|row| {
            let cells: Vec<&str> = row
                .iter()
                .map(|v| if v == "-" { "." } else { v.as_str() })
                .collect();
            format!("  {}\n", cells.join(" "))
        })
        .collect()
}

/// An edge section's line: one clue per row or column, `.` for none.
fn edge(clues: &[String]) -> String {
    let clues: Vec<&str> = clues
        .iter()
        .map(|v| if v == "-" { "." } else { v.as_str() })
        .collect();
    format!("\"{}\"", clues.join(" "))
}

/// The puzzles of a puzzlekit file whose problem is a header line `n n`, four rows of outside clues (top,
/// bottom, left, right) and n rows of givens, as a puzzle file of `kind`.
fn puzzlekit_edges(path: &str, kind: &str) -> Option<Vec<Site>> {
    let doc: Value = serde_json::from_str(&common::raw_text(path)?).unwrap();
    let rows = |text: &str| -> Vec<Vec<String>> {
        text.trim()
            .lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect()
    };
    let sites = doc["data"].as_object().unwrap().iter().map(|(id, v)| {
        let problem = rows(v["problem"].as_str().unwrap());
        let n: usize = problem[0][0].parse().unwrap();
        let sides: String = ["top", "bottom", "left", "right"]
            .iter()
            .zip(&problem[1..5])
            .map(|(side, clues)| format!("{side}: {}\n", edge(clues)))
            .collect();
        Site {
            id: format!("{path} {id}"),
            file: format!(
                "type: {kind}\nsize: {n}\n{sides}givens: |\n{}",
                block(&problem[5..5 + n])
            ),
            solution: common::numbers(&rows(v["solution"].as_str().unwrap())[1..=n]),
        }
    });
    Some(sites.collect())
}

/// janko.at's Sumdokus: a cage's sum stands in one of its cells (`problem`), the cages in `areas`.
fn sumdokus() -> Option<Vec<Site>> {
    // A region map takes one character a cell; a 9x9 has at most 81 cages.
    let ids: Vec<char> = ('A'..='Z').chain('a'..='z').chain('0'..='9').collect();
    let text = common::raw_text("janko_at/Sumdoku.jsonl")?;
    let sites = text.lines().enumerate().map(|(i, line)| {
        let d = &serde_json::from_str::<Value>(line).unwrap()["data"];
        let (problem, areas) = (common::strings(&d["problem"]), common::strings(&d["areas"]));
        let mut names: Vec<&String> = areas.iter().flatten().collect();
        names.sort();
        names.dedup();
        let id = |area: &String| ids[names.binary_search(&area).unwrap()];
        let map: Vec<String> = areas.iter().map(|r| r.iter().map(id).collect()).collect();
        let hints: Vec<String> = problem
            .iter()
            .flatten()
            .zip(areas.iter().flatten())
            .filter(|(clue, _)| *clue != "-")
            .map(|(clue, area)| format!("{}: {clue}", id(area)))
            .collect();
        Site {
            id: format!("Sumdoku {}", i + 1),
            file: format!(
                "type: sumdoku\nsize: {}\ncages: |\n{}hints: {{{}}}\n",
                map.len(),
                map.iter().map(|r| format!("  {r}\n")).collect::<String>(),
                hints.join(", ")
            ),
            solution: common::numbers(&common::strings(&d["solution"])),
        }
    });
    Some(sites.collect())
}

/// janko.at's sum skyscrapers whose rows hold 1..n (`depth` = size), with both diagonals as their tag says.
fn sum_skyscrapers() -> Option<Vec<Site>> {
    let text = common::raw_text("janko_at/Wolkenkratzer-2.jsonl")?;
    let sites = text.lines().enumerate().filter_map(|(i, line)| {
        let d = &serde_json::from_str::<Value>(line).unwrap()["data"];
        if d["depth"] != d["size"] {
            return None;
        }
        assert!(d["puzzle"].as_str().unwrap().contains("diagonals"));
        let (columns, rows) = (
            common::strings(&d["clabels"]),
            common::strings(&d["rlabels"]),
        );
        let sides = [
            ("top", &columns[0]),
            ("bottom", &columns[1]),
            ("left", &rows[0]),
            ("right", &rows[1]),
        ];
        let sides: String = sides
            .iter()
            .map(|(side, clues)| format!("{side}: {}\n", edge(clues)))
            .collect();
        Some(Site {
            id: format!("Wolkenkratzer-2 {}", i + 1),
            file: format!(
                "type: sum-skyscrapers\nsize: {}\nrules: [diagonals]\n{sides}",
                d["size"]
            ),
            solution: common::numbers(&common::strings(&d["solution"])),
        })
    });
    Some(sites.collect())
}

/// krazydad.com's killer Sudokus: a CSV line holds the cage map (a letter a cell, after a leading `K`), the
/// cage sums in the order of their letters (A-Z, then a-z) and the solution, 81 digits.
fn krazydad_killers() -> Option<Vec<Site>> {
    let text = common::raw_text("krazydad_killer_bnatalha/dataset_killer_sudoku.csv")?;
    let sites = text.lines().skip(1).map(|line| {
        // `index,title,volume,book,number,map,"sums",solution,"order"`: the quoted fields hold commas.
        let quoted: Vec<&str> = line.split('"').collect();
        let head: Vec<&str> = quoted[0].split(',').collect();
        let (title, map) = (head[1], &head[5][1..]);
        let sums: Vec<&str> = quoted[1].split(',').collect();
        let mut letters: Vec<char> = map.chars().collect();
        letters.sort_by_key(|c| (c.is_lowercase(), *c));
        letters.dedup();
        assert_eq!(letters.len(), sums.len(), "{title}");
        let hints: Vec<String> = letters
            .iter()
            .zip(&sums)
            .map(|(letter, sum)| format!("{letter}: {sum}"))
            .collect();
        let rows: String = (0..9)
            .map(|r| format!("  {}\n", &map[9 * r..9 * r + 9]))
            .collect();
        let digits: Vec<u32> = quoted[2]
            .trim_matches(',')
            .chars()
            .map(|c| c.to_digit(10).unwrap())
            .collect();
        Site {
            id: title.to_owned(),
            file: format!(
                "type: killer\nsize: 9\ncages: |\n{rows}hints: {{{}}}\n",
                hints.join(", ")
            ),
            solution: digits.chunks(9).map(<[u32]>::to_vec).collect(),
        }
    });
    Some(sites.collect())
}

/// With `LATIN_SITES_DIR` set, each site's puzzle file with its solution, under DIR/TYPE/, for `latin bench`.
fn keep(site: &Site) {
    let Some(dir) = std::env::var_os("LATIN_SITES_DIR") else {
        return;
    };
    let kind = site
        .file
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("type: ");
    let dir = std::path::Path::new(&dir).join(kind);
    std::fs::create_dir_all(&dir).unwrap();
    let name: String = site
        .id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let rows: String = site
        .solution
        .iter()
        .map(|r| {
            format!(
                "  {}\n",
                r.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
            )
        })
        .collect();
    let text = format!("{}solution: |\n{rows}", site.file);
    std::fs::write(dir.join(format!("{name}.yaml")), text).unwrap();
}

/// Every site's puzzle has the site's solution and no other; `count` of them.
fn check(sites: &[Site], count: usize) {
    let registry = Registry::built_in();
    for site in sites {
        keep(site);
        let puzzle = load_str(&site.file, &registry)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", site.id, site.file));
        common::assert_only_solution(&puzzle, &site.solution, false, &site.id);
    }
    assert_eq!(sites.len(), count);
}

#[test]
fn janko_frame_sudokus_have_the_sites_solution_and_no_other() {
    if let Some(sites) = puzzlekit_edges("puzzlekit_dataset/MarginSudoku_dataset.json", "frame") {
        check(&sites, 149);
    }
}

#[test]
fn janko_skyscraper_sudokus_have_the_sites_solution_and_no_other() {
    let path = "puzzlekit_dataset/SkyscraperSudoku_dataset.json";
    if let Some(sites) = puzzlekit_edges(path, "skyscraper-sudoku") {
        check(&sites, 50);
    }
}

#[test]
fn janko_sumdokus_have_the_sites_solution_and_no_other() {
    if let Some(sites) = sumdokus() {
        check(&sites, 90);
    }
}

#[test]
fn janko_sum_skyscrapers_have_the_sites_solution_and_no_other() {
    if let Some(sites) = sum_skyscrapers() {
        check(&sites, 91);
    }
}

#[test]
fn krazydad_killers_have_the_sites_solution_and_no_other() {
    if let Some(sites) = krazydad_killers() {
        check(&sites, 8000);
    }
}

#[test]
fn the_pure_path_solves_janko_frame_sudokus_too() {
    let Some(sites) = puzzlekit_edges("puzzlekit_dataset/MarginSudoku_dataset.json", "frame")
    else {
        return;
    };
    let registry = Registry::built_in();
    for site in sites.iter().take(3) {
        let puzzle = load_str(&site.file, &registry).unwrap();
        common::assert_only_solution(&puzzle, &site.solution, true, &site.id);
    }
}

/// The first `take` lines of a corpus lines file (`../shared/corpus/lines/NAME`); none when it is missing and
/// not under `CI=true`.
fn corpus_lines(name: &str, take: usize) -> Option<Vec<String>> {
    let path = common::corpus_dir().join("lines").join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text.lines().take(take).map(str::to_owned).collect()),
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{} is missing under CI=true: {e}", path.display())
        }
        Err(e) => {
            eprintln!("NOTE: {} not found ({e}); nothing checked", path.display());
            None
        }
    }
}

/// `latin solve --lines` on these lines: one answer a line (the run must succeed).
fn solve_lines(lines: &[String]) -> Vec<String> {
    let (code, answers, stderr) = run_lines(lines);
    assert_eq!(code, 0, "{stderr}");
    answers
}

#[test]
fn krazydad_hex_sudokus_read_as_the_site_writes_them() {
    const TAKE: usize = 5600;
    let (Some(raw), Some(converted)) = (
        common::raw_text("krazydad/krazydad-hexsudoku-20220605_ST.csv"),
        corpus_lines("sudoku16-krazydad-supertough.txt", TAKE),
    ) else {
        return;
    };
    // `DIFFICULTY,VOLUME,BOOK,NUMBER,PUZZLE`: the puzzle as published, with `0` and `a`-`f` among its symbols.
    let published: Vec<String> = raw
        .lines()
        .skip(1)
        .take(TAKE)
        .map(|l| l.rsplit(',').next().unwrap().to_owned())
        .collect();
    assert_eq!(published.len(), TAKE);
    let with_zero = published.iter().filter(|p| p.contains('0')).count();
    assert!(with_zero > TAKE / 2, "{with_zero} of {TAKE} show a 0");
    let value = |c: char| c.to_digit(36).unwrap();
    // Read as published, `0` is 16 and every other symbol its own value; the corpus wrote symbol s as s + 1.
    let as_converted =
        |answer: &str| -> Vec<u32> { answer.chars().map(|c| value(c) % 16 + 1).collect() };
    // The site's file as it is, its header line included: a table whose `PUZZLE` column is the puzzle.
    let file: Vec<String> = raw.lines().take(TAKE + 1).map(str::to_owned).collect();
    let mine = solve_lines(&file);
    let theirs = solve_lines(&converted);
    assert_eq!((mine.len(), theirs.len()), (TAKE, TAKE));
    let registry = Registry::built_in();
    for (i, (m, t)) in mine.iter().zip(&theirs).enumerate() {
        assert_eq!(m.len(), 256, "line {}: {m}", i + 1);
        assert_eq!(
            as_converted(m),
            t.chars().map(value).collect::<Vec<_>>(),
            "line {}",
            i + 1
        );
        // The same puzzle pasted into a puzzle file as a grid of 16 rows has that solution and no other.
        if i % 20 == 0 {
            let p = &published[i];
            let rows: String = (0..16)
                .map(|r| format!("  {}\n", &p[16 * r..16 * r + 16]))
                .collect();
            let file = format!("type: sudoku\ngivens: |\n{rows}");
            let puzzle =
                load_str(&file, &registry).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            let solution: Vec<Vec<u32>> = m
                .chars()
                .map(value)
                .collect::<Vec<_>>()
                .chunks(16)
                .map(<[u32]>::to_vec)
                .collect();
            common::assert_only_solution(&puzzle, &solution, false, &format!("line {}", i + 1));
        }
    }
}

/// `latin solve --lines` on a file's lines: its exit code, stdout's lines and stderr.
fn run_lines(lines: &[String]) -> (i32, Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    run_lines_of(&path, &[])
}

/// `latin solve --lines PATH ARGS...`: its exit code, stdout's lines and stderr.
fn run_lines_of(path: &std::path::Path, args: &[&str]) -> (i32, Vec<String>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_latin"))
        .args(["solve", "--lines"])
        .arg(path)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        out.status.code().unwrap(),
        stdout.lines().map(str::to_owned).collect(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_datasets_table_is_solved_and_its_solutions_checked() {
    let Some(records) = common::records("sudoku.jsonl") else {
        return;
    };
    let digits = |grid: &Value| -> String {
        let rows = grid.as_array().unwrap();
        rows.iter()
            .flat_map(|r| r.as_array().unwrap())
            .map(|v| v.as_u64().unwrap().to_string())
            .collect()
    };
    // Plain Sudokus: the Sudoku-X records need their diagonals, which a line cannot say.
    let nine: Vec<&Value> = records
        .iter()
        .filter(|r| r["size"] == 9 && r.get("diagonals").is_none())
        .collect();
    assert!(nine.len() > 900, "{} 9x9 records", nine.len());
    let mut table = vec!["quizzes,solutions".to_owned()];
    table.extend(
        nine.iter()
            .map(|r| format!("{},{}", digits(&r["givens"]), digits(&r["solution"]))),
    );
    let (code, answers, stderr) = run_lines(&table);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answers.len(), nine.len());
    for (answer, row) in answers.iter().zip(&table[1..]) {
        assert_eq!(Some(answer.as_str()), row.split(',').nth(1), "{row}");
    }
    let n = nine.len();
    assert!(
        stderr.contains(&format!(
            "{n} checked against the file's solution or count, 0 not the answer"
        )),
        "{stderr}"
    );
    // A solution with two of its cells swapped is caught, named, and makes the run's exit code 1.
    let (puzzle, solution) = table[7].split_once(',').unwrap();
    let (puzzle, solution) = (puzzle.to_owned(), solution.to_owned());
    let mut swapped: Vec<char> = solution.chars().collect();
    swapped.swap(0, 1);
    let swapped: String = swapped.into_iter().collect();
    table[7] = format!("{puzzle},{swapped}");
    let (code, answers, stderr) = run_lines(&table);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        answers[6].starts_with(&format!(
            "differs {solution} the file's solution is wrong: "
        )),
        "{}",
        answers[6]
    );
    assert!(stderr.contains("1 not the answer"), "{stderr}");
}

/// A solution's values in the one-line form (`1`-`9`, then `A`-`Z`).
fn solution_line(rows: &Value) -> String {
    let rows = rows.as_array().unwrap();
    rows.iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|v| {
            char::from_digit(v.as_u64().unwrap() as u32, 36)
                .unwrap()
                .to_ascii_uppercase()
        })
        .collect()
}

#[test]
fn corpus_files_are_solved_a_record_a_line_with_their_solutions_checked() {
    for file in [
        "killer.jsonl",
        "kenken.jsonl",
        "jigsaw.jsonl",
        "inshi.jsonl",
        "futoshiki.jsonl",
        "skyscrapers.jsonl",
        "consecutive.jsonl",
        "evenodd.jsonl",
        "sudoku.jsonl",
        "sudoku16.jsonl",
    ] {
        let Some(records) = common::records(file) else {
            return;
        };
        let path = common::corpus_dir().join(file);
        let (code, answers, stderr) = run_lines_of(&path, &["--format", "json"]);
        assert_eq!(code, 0, "{file}: {stderr}");
        assert_eq!(answers.len(), records.len(), "{file}");
        for (answer, record) in answers.iter().zip(&records) {
            let answer: Value = serde_json::from_str(answer).unwrap();
            assert_eq!(answer["id"], record["id"], "{file}: {answer}");
            assert_eq!(
                answer["status"], "solved",
                "{file} {}: {answer}",
                record["id"]
            );
            assert_eq!(
                answer["matches_solution"], true,
                "{}: {answer}",
                record["id"]
            );
            let theirs = solution_line(&record["solution"]);
            assert_eq!(answer["solution"], theirs.as_str(), "{}", record["id"]);
        }
        let n = records.len();
        assert!(
            stderr.contains(&format!(
                "{n} checked against the file's solution or count, 0 not the answer"
            )),
            "{file}: {stderr}"
        );
    }
    // A record whose solution has two cells swapped is caught, named, and makes the exit code 1.
    let Some(mut records) = common::records("killer.jsonl") else {
        return;
    };
    records.truncate(5);
    let rows = records[3]["solution"].as_array_mut().unwrap();
    rows.swap(0, 1);
    let lines: Vec<String> = records.iter().map(Value::to_string).collect();
    let (code, answers, stderr) = run_lines(&lines);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        answers[3].starts_with("differs ") && answers[3].contains("the file's solution is wrong: "),
        "{}",
        answers[3]
    );
    assert!(
        stderr.contains("5 checked against the file's solution or count, 1 not the answer"),
        "{stderr}"
    );
}

/// 16x16 Sudokus written with the letters `A`-`P` alone (`A` is 1), as letter Sudokus are published: the
/// corpus's 16x16s so written solve, a line each, to the corpus solution.
#[test]
fn letter_sudokus_count_from_a() {
    let Some(records) = common::records("sudoku16.jsonl") else {
        return;
    };
    let records: Vec<&Value> = records
        .iter()
        .filter(|r| r["size"] == 16)
        .take(30)
        .collect();
    let letters = |rows: &Value| -> String {
        rows.as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .map(|v| match v.as_u64().unwrap() {
                0 => '.',
                v => char::from(b'A' + v as u8 - 1),
            })
            .collect()
    };
    let lines: Vec<String> = records.iter().map(|r| letters(&r["givens"])).collect();
    assert!(lines
        .iter()
        .all(|l| !l.contains(|c: char| c.is_ascii_digit())));
    let (code, answers, stderr) = run_lines(&lines);
    assert_eq!(code, 0, "{stderr}");
    for (answer, record) in answers.iter().zip(&records) {
        assert_eq!(
            answer,
            &solution_line(&record["solution"]),
            "{}",
            record["id"]
        );
    }
    assert_eq!(answers.len(), records.len());
}

/// A record's `count` of solutions (0, 1, or more) and `feasible` are checked against the answer as its
/// solution is: every record of the corpus's counting file and its quasigroup completions agrees, and a count
/// changed to say otherwise is caught, each way, with the exit code 1.
#[test]
fn record_counts_are_checked_against_the_answer() {
    let (Some(counts), Some(qcp)) = (
        common::records("sudoku-counts.jsonl"),
        common::records("latin-qcp.jsonl"),
    ) else {
        return;
    };
    for (file, records) in [("sudoku-counts.jsonl", &counts), ("latin-qcp.jsonl", &qcp)] {
        let path = common::corpus_dir().join(file);
        let (code, answers, stderr) =
            run_lines_of(&path, &["--format", "json", "--line-time-limit", "60"]);
        assert_eq!(code, 0, "{file}: {stderr}");
        for (answer, record) in answers.iter().zip(records) {
            let answer: Value = serde_json::from_str(answer).unwrap();
            let status = match (record["count"].as_u64(), record["feasible"].as_bool()) {
                (Some(0), _) => vec!["infeasible"],
                (Some(1), _) => vec!["solved"],
                (Some(_), _) => vec!["multiple"],
                (None, Some(true)) => vec!["solved", "multiple"],
                _ => panic!("{file}: a record with no count: {}", record["id"]),
            };
            assert!(
                status.contains(&answer["status"].as_str().unwrap()),
                "{}: {answer}",
                record["id"]
            );
            assert_eq!(
                answer["matches_solution"], true,
                "{}: {answer}",
                record["id"]
            );
        }
        let n = records.len();
        let summary = format!("{n} checked against the file's solution or count, 0 not the answer");
        assert!(stderr.contains(&summary), "{file}: {stderr}");
    }
    // Counts changed: a puzzle with no solution said to have one, one with several said to have one, and one
    // with a unique solution (and that solution) said to have none.
    let find = |count: u64| counts.iter().find(|r| r["count"] == count).unwrap().clone();
    let mut lines = Vec::new();
    for (record, said) in [
        (find(0), 1),
        (
            counts
                .iter()
                .find(|r| r["count"].as_u64() > Some(1))
                .unwrap()
                .clone(),
            1,
        ),
        (find(1), 0),
    ] {
        let mut record = record;
        record["count"] = said.into();
        lines.push(record.to_string());
    }
    let (code, answers, stderr) = run_lines(&lines);
    assert_eq!(code, 1, "{stderr}");
    let expected = [
        "differs infeasible the file says it has one solution, and latin found none",
        "differs multiple ",
        "differs ",
    ];
    for (answer, start) in answers.iter().zip(expected) {
        assert!(answer.starts_with(start), "{answer}");
    }
    assert!(
        answers[1].contains("the file says it has one solution, and latin found two"),
        "{}",
        answers[1]
    );
    assert!(
        answers[2]
            .contains("the file says it has no solution, and latin's answer keeps every rule"),
        "{}",
        answers[2]
    );
    assert!(
        stderr.contains("3 checked against the file's solution or count, 3 not the answer"),
        "{stderr}"
    );
}

#[test]
fn forum_lists_with_ratings_after_each_puzzle_read_as_their_puzzles() {
    let Some(plain) = corpus_lines("sudoku-forum-hardest-1106.txt", 120) else {
        return;
    };
    // As the forum posts them: the puzzle, then its Sudoku Explainer ratings and a name, `;` or tab between.
    let rated = |separator: &str| -> Vec<String> {
        plain
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!("{p}{separator}11.9{separator}11.9{separator}11.3{separator}ph-{i}")
            })
            .collect()
    };
    let answers = solve_lines(&plain);
    assert_eq!(answers.len(), plain.len());
    assert_eq!(solve_lines(&rated(";")), answers);
    assert_eq!(solve_lines(&rated("\t")), answers);
}
