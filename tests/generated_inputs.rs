//! Generated hostile inputs, in the normal test run: every example puzzle file, mutated as a careless user or
//! an attacker would (bytes flipped, deleted or repeated, lines swapped, huge or negative numbers, unicode,
//! tabs, brackets, anchors), goes through the library as a file would. Whatever comes in: no panic, an error
//! only of the bad-input kind, and every answer verified. The seed of a failing case is printed by proptest,
//! which also shrinks it to a small one.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use latin::{check, load_str, solve, Registry, SolveOptions};
use proptest::prelude::*;

/// The example puzzle files, read once.
fn examples() -> &'static [String] {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml") {
                    out.push(std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        out.sort();
        assert!(out.len() >= 20, "only {} example files", out.len());
        out
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: usize,
        byte: u8,
    },
    Delete {
        at: usize,
        len: usize,
    },
    Repeat {
        at: usize,
        len: usize,
        times: usize,
    },
    SwapLines {
        a: usize,
        b: usize,
    },
    Insert {
        at: usize,
        text: String,
    },
    /// The k-th run of digits becomes another number (a hint, a size, a cell, a given).
    Number {
        which: usize,
        text: String,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pieces = prop_oneof![
        Just("99999999999999999999999".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("255".to_string()),
        Just("18446744073709551615".to_string()),
        Just("\t".to_string()),
        Just("é∑😀".to_string()),
        Just("\u{feff}".to_string()),
        Just("[[[[[[[[".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("\n".to_string()),
        Just(": ".to_string()),
        Just("- ".to_string()),
        Just("|".to_string()),
        Just(".nan".to_string()),
        Just("r0c0".to_string()),
        Just("r300c1".to_string()),
        "[ -~]{0,12}",
    ];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 1usize..40, 1usize..6).prop_map(|(at, len, times)| Mutation::Repeat {
            at,
            len,
            times
        }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        (any::<usize>(), pieces).prop_map(|(at, text)| Mutation::Insert { at, text }),
        (any::<usize>(), numbers()).prop_map(|(which, text)| Mutation::Number { which, text }),
        (any::<usize>(), numbers()).prop_map(|(which, text)| Mutation::Number { which, text }),
    ]
}

fn numbers() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..40).prop_map(|v| v.to_string()),
        Just("99999999999999999999999".to_string()),
        Just("18446744073709551615".to_string()),
        Just("-3".to_string()),
        Just("1e21".to_string()),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let len = bytes.len().max(1);
    match m {
        Mutation::Flip { at, byte } => {
            if !bytes.is_empty() {
                bytes[at % len] = *byte;
            }
        }
        Mutation::Delete { at, len: n } => {
            let start = at % len;
            let end = (start + n).min(bytes.len());
            bytes.drain(start.min(end)..end);
        }
        Mutation::Repeat { at, len: n, times } => {
            let start = at % len;
            let end = (start + n).min(bytes.len());
            let piece = bytes[start.min(end)..end].to_vec();
            for _ in 0..*times {
                bytes.splice(end..end, piece.iter().copied());
            }
        }
        Mutation::SwapLines { a, b } => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let k = lines.len();
                lines.swap(a % k, b % k);
            }
            return lines.join("\n");
        }
        Mutation::Number { which, text: piece } => {
            let runs: Vec<(usize, usize)> = digit_runs(&bytes);
            if let Some(&(start, end)) = runs.get(which % runs.len().max(1)) {
                bytes.splice(start..end, piece.bytes());
            }
        }
        Mutation::Insert { at, text: piece } => {
            let at = at % (bytes.len() + 1);
            bytes.splice(at..at, piece.bytes());
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Where the runs of ASCII digits are.
fn digit_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k].is_ascii_digit() {
            let start = k;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            runs.push((start, k));
        } else {
            k += 1;
        }
    }
    runs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_puzzle_files_never_crash_and_never_answer_wrong(
        file in 0usize..1000,
        mutations in proptest::collection::vec(mutation(), 1..3),
    ) {
        let registry = Registry::built_in();
        let files = examples();
        let mut text = files[file % files.len()].clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        let puzzle = match load_str(&text, &registry) {
            Ok(p) => p,
            Err(e) => {
                prop_assert!(e.is_bad_input(), "a load error of the wrong kind: {e}");
                return Ok(());
            }
        };
        let limit = Duration::from_millis(200);
        let options = SolveOptions {
            max_solutions: 2,
            time_limit: Some(limit),
            memory_limit: Some(256 << 20),
            ..SolveOptions::default()
        };
        let start = Instant::now();
        match solve(&puzzle, &options) {
            Ok(outcome) => {
                for grid in &outcome.solutions {
                    prop_assert!(check(&puzzle, grid).is_ok(), "an unverified answer:\n{text}");
                }
            }
            Err(e) => prop_assert!(e.is_bad_input(), "a solve error of the wrong kind: {e}\n{text}"),
        }
        // Generous: a hang shows as seconds, noise as milliseconds.
        prop_assert!(start.elapsed() < limit + Duration::from_secs(3), "{:?} on\n{text}", start.elapsed());
    }
}
