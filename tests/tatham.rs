//! Simon Tatham's games, as the Debian `sgt-puzzles` programs generate them: each game ID latin reads must
//! solve to the one solution the game itself stored for it (the `AUXINFO` of a save file), and `convert --to
//! tatham` must write an ID that reads back as the same puzzle. The programs are required under `CI=true`
//! (`.ci/run` installs `sgt-puzzles`).

mod common;

use std::process::Command;

fn latin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_latin"))
}

/// One field of a save file (`KEY    :LEN:VALUE` a line).
fn field<'a>(save: &'a str, key: &str) -> &'a str {
    save.lines()
        .find_map(|line| {
            let (k, rest) = line.split_once(':')?;
            (k.trim() == key).then(|| rest.split_once(':').map_or("", |(_, v)| v))
        })
        .unwrap_or_else(|| panic!("no {key} in {save}"))
}

/// Undoes the games' `obfuscate_bitmap` on hex text: two passes, each XORing one half with SHA-1 of the other
/// half followed by a decimal counter.
fn deobfuscate(hex: &str) -> String {
    let mut b: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let half = b.len() / 2;
    for (seed, target) in [(0..half, half..b.len()), (half..b.len(), 0..half)] {
        let base = b[seed].to_vec();
        let mut mask = Vec::new();
        let mut counter = 0;
        while mask.len() < target.len() {
            let mut h = sha1_smol::Sha1::new();
            h.update(&base);
            h.update(counter.to_string().as_bytes());
            mask.extend(h.digest().bytes());
            counter += 1;
        }
        for (k, i) in target.enumerate() {
            b[i] ^= mask[k];
        }
    }
    String::from_utf8(b).unwrap()
}

/// The solution as grid text: `S` then digits, comma-separated (solo) or not (values below 10).
fn solution_rows(aux: &str, n: usize) -> Vec<Vec<u32>> {
    let s = aux.strip_prefix('S').unwrap_or_else(|| panic!("aux {aux}"));
    let values: Vec<u32> = if s.contains(',') {
        s.split(',').map(|v| v.parse().unwrap()).collect()
    } else {
        s.chars().map(|c| c.to_digit(36).unwrap()).collect()
    };
    assert_eq!(values.len(), n * n, "{aux}");
    values.chunks(n).map(<[u32]>::to_vec).collect()
}

fn json_rows(v: &serde_json::Value) -> Vec<Vec<u32>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect()
        })
        .collect()
}

/// `count` puzzles of `params` as the game generates them, in `dir`: each game ID with its save file; `None`
/// where the game is not installed (outside CI).
fn generated(
    name: &str,
    params: &str,
    count: usize,
    dir: &std::path::Path,
) -> Option<Vec<(String, String)>> {
    let program = common::tatham_game(name)?;
    std::fs::create_dir_all(dir).unwrap();
    let stem = dir.join(format!("{name}-{params}-"));
    let status = Command::new(&program)
        .args(["--generate", &count.to_string(), params, "--save"])
        .arg(&stem)
        .args(["--save-suffix", ".sav"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{program} --generate {params}");
    let saves = (0..count).map(|k| {
        let save = std::fs::read_to_string(format!("{}{k}.sav", stem.display())).unwrap();
        let id = format!("{name}:{}:{}", field(&save, "PARAMS"), field(&save, "DESC"));
        (id, save)
    });
    Some(saves.collect())
}

/// Generates `count` puzzles of `params` with the game and checks each one.
fn check(name: &str, params: &str, count: usize) {
    let dir = std::env::temp_dir().join(format!(
        "latin-tatham-{name}-{params}-{}",
        std::process::id()
    ));
    let Some(saves) = generated(name, params, count, &dir) else {
        return;
    };
    for (k, (id, save)) in saves.into_iter().enumerate() {
        let out = latin()
            .args(["solve", &id, "--format", "json", "--max", "2"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (&json["count"], &json["complete"]),
            (&serde_json::json!(1), &serde_json::json!(true)),
            "{id}: {json}"
        );
        let grid = json_rows(&json["solutions"][0]);
        let theirs = solution_rows(&deobfuscate(field(&save, "AUXINFO")), grid.len());
        assert_eq!(grid, theirs, "{id}");
        // Written back as an ID, the puzzle reads the same: same solution, and the same ID again.
        let back = latin()
            .args(["convert", &id, "--to", "tatham"])
            .output()
            .unwrap();
        assert!(
            back.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&back.stderr)
        );
        let written = String::from_utf8(back.stdout).unwrap();
        let again = latin()
            .args(["convert", written.trim(), "--to", "tatham"])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(again.stdout).unwrap(), written, "{id}");
        let yaml = latin().args(["convert", &id]).output().unwrap();
        let file = dir.join(format!("p{k}.yaml"));
        std::fs::write(&file, &yaml.stdout).unwrap();
        let from_yaml = latin()
            .arg("convert")
            .arg(&file)
            .args(["--to", "tatham"])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(from_yaml.stdout).unwrap(),
            written,
            "{id} through YAML"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn solo_ids_solve_to_solos_own_solution() {
    for params in [
        "2x2", "2x3", "3x2", "3x3", "3x3x", "2x4", "3x4", "3x3dt", "3x3de",
    ] {
        check("solo", params, 4);
    }
}

#[test]
fn solo_jigsaw_and_killer_ids_solve_to_solos_own_solution() {
    // `jk`: killer jigsaw, read as `jigsaw+killer-cages` (two region maps) and written back as `jk`.
    for params in [
        "6j", "9j", "3x3jx", "2x3k", "3x3k", "3x3xk", "2x3jk", "3x3jxk",
    ] {
        check("solo", params, 3);
    }
}

#[test]
fn keen_ids_solve_to_keens_own_solution() {
    for params in ["4", "5", "6", "6m", "7de"] {
        check("keen", params, 4);
    }
}

#[test]
fn towers_ids_solve_to_towers_own_solution() {
    for params in ["4", "5", "6", "6de"] {
        check("towers", params, 4);
    }
}

#[test]
fn unequal_ids_solve_to_unequals_own_solution() {
    for params in ["4", "5", "6de", "5a", "6a"] {
        check("unequal", params, 4);
    }
}

/// A file of game IDs of several games, one a line, with or without the game's name, is one `--lines` run: each
/// line's answer is the solution its game stored.
#[test]
fn a_file_of_game_ids_of_several_games_is_solved_a_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut ids = Vec::new();
    for (name, params) in [
        ("solo", "3x3"),
        ("solo", "9jx"),
        ("keen", "6"),
        ("towers", "5"),
        ("unequal", "5a"),
    ] {
        let Some(saves) = generated(name, params, 3, dir.path()) else {
            return;
        };
        ids.extend(saves);
    }
    let file = dir.path().join("ids.txt");
    // Every other ID without the game's name (as the game's Specific dialog shows it, though with the save
    // file's parameters, which add the difficulty): known by its shape.
    let lines: Vec<&str> = ids
        .iter()
        .enumerate()
        .map(|(k, (id, _))| match k % 2 {
            0 => id.as_str(),
            _ => id.split_once(':').unwrap().1,
        })
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = latin()
        .args(["solve", "--lines"])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let answers = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), ids.len(), "{stderr}");
    for (answer, (id, save)) in answers.iter().zip(&ids) {
        let n = answer.len().isqrt();
        let theirs: String = solution_rows(&deobfuscate(field(save, "AUXINFO")), n)
            .concat()
            .into_iter()
            .map(|v| char::from_digit(v, 36).unwrap().to_ascii_uppercase())
            .collect();
        assert_eq!(*answer, theirs, "{id}");
    }
    assert!(
        stderr.contains(&format!("{} solved", ids.len())),
        "{stderr}"
    );
}

/// An ID works wherever a puzzle file does: as the argument, as a file's whole content, on standard input.
#[test]
fn an_id_is_read_as_an_argument_a_file_or_standard_input() {
    let id = "towers:5:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2";
    let grid = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let direct = grid(
        latin()
            .args(["solve", id, "--format", "grid"])
            .output()
            .unwrap(),
    );
    let file = std::env::temp_dir().join(format!("latin-tatham-id-{}.txt", std::process::id()));
    std::fs::write(&file, format!("{id}\n")).unwrap();
    let from_file = grid(
        latin()
            .arg("solve")
            .arg(&file)
            .args(["--format", "grid"])
            .output()
            .unwrap(),
    );
    std::fs::remove_file(&file).ok();
    let mut child = latin()
        .args(["solve", "-", "--format", "grid"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(id.as_bytes())
        .unwrap();
    let from_stdin = grid(child.wait_with_output().unwrap());
    assert_eq!(direct, from_file);
    assert_eq!(direct, from_stdin);
    assert_eq!(direct.lines().next(), Some("3 5 4 2 1"), "{direct}");
    let bench = latin()
        .args(["bench", id, "--format", "json"])
        .output()
        .unwrap();
    assert!(
        bench.status.success(),
        "{}",
        String::from_utf8_lossy(&bench.stderr)
    );
    assert!(String::from_utf8_lossy(&bench.stdout).contains("skyscrapers"));
}

/// What cannot be read or written says why, once, with exit 2.
#[test]
fn unreadable_ids_and_unwritable_types_are_plain_errors() {
    for (args, says) in [
        (vec!["solve", "solo:3x3#123456"], "random seed"),
        (vec!["solve", "keen:4:_,a"], "tatham:"),
        (vec!["solve", "no-such-puzzle.yaml"], "No such file"),
        // Without the game's name, an ID is known by its shape: this one is solo's, and short.
        (
            vec!["solve", "3x3:a5_3d7"],
            "tatham: 8 cells in a grid description, not 81",
        ),
        (vec!["solve", "9:a5_3d7"], "write solo:9:a5_3d7"),
        (
            vec!["solve", "--from", "tatham", "type: sudoku"],
            "tatham: not a game ID",
        ),
        (vec!["solve", "--from", "morse", "x"], "unknown form"),
        (
            // The file is named, as when it does not load.
            vec!["convert", "puzzles/inshi/nikoli-5x5.yaml", "--to", "tatham"],
            "error: puzzles/inshi/nikoli-5x5.yaml: tatham: type inshi: no Tatham game plays it",
        ),
        (
            // solo has diagonals but not the anti-knight rule nor a magic centre: an ID would drop them.
            vec![
                "convert",
                "puzzles/sudoku/four-givens-magic-9x9.yaml",
                "--to",
                "tatham",
            ],
            "sudoku with anti-knight: no Tatham game has it",
        ),
        (
            vec!["convert", "solo:9j:zzzc,_9999999999999999"],
            "9 blocks of 9 cells",
        ),
    ] {
        let out = latin()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.matches("error").count(), 1, "{args:?}: {err}");
    }
}
