//! `solve --lines` composes with engines that split work: GNU parallel cutting standard input into blocks, one
//! `latin` per block, output kept in input order, gives exactly what one `latin` gives on the whole input. This
//! is what the README's "more than one machine" section runs (with `--sshlogin` added).

mod common;

use std::io::Write as _;
use std::process::{Command, Stdio};

/// GNU parallel, or `None` (a failure under `CI=true`, where `.ci/run` installs it).
fn parallel() -> Option<&'static str> {
    let found = Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some("parallel");
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "GNU parallel missing under CI=true (.ci/run installs it)"
    );
    eprintln!("NOTE: GNU parallel not installed; nothing was checked");
    None
}

/// Runs `program args` with `input` on standard input; its standard output.
fn run(program: &str, args: &[&str], input: &str) -> String {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn parallel_pipe_keep_order_equals_one_run() {
    let Some(parallel) = parallel() else { return };
    let lines = common::corpus_dir().join("lines");
    let read = |name: &str, take: usize| -> Vec<String> {
        let path = lines.join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "{} missing under CI=true: {e}",
                path.display()
            );
            String::new()
        });
        text.lines().take(take).map(str::to_owned).collect()
    };
    // Puzzles others wrote: minimal 17-clue ones, the forum's hardest, and ones with several solutions; and one
    // line that is not a puzzle, which must keep its place too.
    let mut input: Vec<String> = read("sudoku-17clue.txt", 1500);
    input.extend(read("sudoku-forum-hardest-1106.txt", 60));
    input.extend(read("sudoku-serg-multi.txt", 200));
    if input.is_empty() {
        eprintln!("NOTE: corpus lines not found; nothing was checked");
        return;
    }
    input.insert(700, "12345".into());
    let input = input.join("\n") + "\n";
    let latin = env!("CARGO_BIN_EXE_latin");
    let args = ["solve", "--lines", "-", "--type", "sudoku", "--box", "3x3"];
    let one = run(latin, &args, &input);
    let mut split = vec!["--pipe", "--keep-order", "-N", "150", "--jobs", "2", latin];
    split.extend(args);
    let many = run(parallel, &split, &input);
    assert_eq!(one.lines().count(), input.lines().count(), "{one}");
    assert!(one.lines().nth(700).unwrap().starts_with("invalid"));
    assert!(one.lines().any(|l| l.starts_with("multiple")));
    assert_eq!(many, one);
    // The same puzzles as a table with a header line: parallel puts the header at the top of every block
    // (`--header '.*\n'`), so each `latin` reads its block as the same table.
    let table: String = std::iter::once("id,puzzle".to_owned())
        .chain(
            input
                .lines()
                .enumerate()
                .map(|(i, l)| format!("{},{l}", i + 1)),
        )
        .map(|l| l + "\n")
        .collect();
    assert_eq!(run(latin, &args, &table), one);
    let mut split = vec!["--pipe", "--keep-order", "--header", ".*\n", "-N", "150"];
    split.extend(["--jobs", "2", latin]);
    split.extend(args);
    assert_eq!(run(parallel, &split, &table), one);
}
