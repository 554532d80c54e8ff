//! An oracle for the variant examples in `puzzles/`, written apart from the rule primitives: each file's
//! `solution:` is checked against the rules of its type as the puzzle community states them, reading the
//! file with plain string handling. `every_example_checks` (tests/cli.rs) then has `latin check` confirm
//! that the solver finds exactly that one solution.

use std::collections::BTreeMap;
use std::path::PathBuf;

type Grid = Vec<Vec<u32>>;
type Cells = Vec<(usize, usize)>;
/// A section of marked pairs and what its pairs satisfy.
/// Whether two values stand in a relation with a number (differ by it, one is it times the other, add up to it).
type Test = fn(u32, u32, u32) -> bool;

/// A section of marked pairs, its relation of two values and a number, and the number its marks mean when they
/// show none (a numbered dot `r1c1-r1c2 = 3` shows its own).
type Mark<'a> = (&'a str, Test, u32);

/// A marked pair: its two cells and its number.
type Marked = ((usize, usize), (usize, usize), u32);

const VARIANTS: &[&str] = &[
    "thermo",
    "arrow",
    "whispers",
    "renban",
    "palindrome",
    "little-killer",
    "kropki",
    "xv",
    "sandwich",
    "sum-skyscrapers",
    "minarism",
    "kropki-latin",
    "extra-regions",
    "between",
    "region-sum",
    "zipper",
    "entropic",
    "modular",
    "parity-lines",
    "double-arrow",
    "x-sums",
    "skyscraper-sudoku",
    "quadruple",
    "greater-than",
    "clone",
    "slow-thermo",
    "numbered-rooms",
    "dutch-whispers",
    "nabner",
    "indexer",
    "lockout",
    "kropki-dots",
    "kropki-all-black",
    "kropki-all-white",
    "xv-marks",
    "consecutive-sudoku",
    "killer-cages",
    "killer-repeats",
    "product-killer",
    "arrow-distinct",
    "ten-lines",
    "mathrax",
    "frame",
    "outside",
    "battlefield",
    "rossini",
    "fortress",
];

/// A solution grid as puzzle files write it; `|` between boxes and `---+---` rules between bands (as `generate`
/// writes them) are left out.
fn grid(text: &str) -> Grid {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('-'))
        .map(|l| {
            l.split_whitespace()
                .filter(|&t| t != "|")
                .map(|t| t.parse().unwrap_or(0))
                .collect()
        })
        .collect()
}

fn cell(token: &str) -> (usize, usize) {
    let (r, c) = token
        .trim()
        .trim_start_matches('r')
        .split_once('c')
        .expect("rXcY");
    (
        r.parse::<usize>().unwrap() - 1,
        c.parse::<usize>().unwrap() - 1,
    )
}

/// A line: its cells (a `..` run expanded step by step) and its `= N` clue.
fn line(text: &str) -> (Cells, Option<u32>) {
    let (cells, clue) = match text.split_once('=') {
        Some((a, b)) => (a, Some(b.trim().parse().unwrap())),
        None => (text, None),
    };
    if let Some((a, b)) = cells.split_once("..") {
        let ((r1, c1), (r2, c2)) = (cell(a), cell(b));
        let steps = r1.abs_diff(r2).max(c1.abs_diff(c2));
        let dr = (r2 as isize - r1 as isize).signum();
        let dc = (c2 as isize - c1 as isize).signum();
        let run = (0..=steps as isize)
            .map(|k| {
                (
                    (r1 as isize + k * dr) as usize,
                    (c1 as isize + k * dc) as usize,
                )
            })
            .collect();
        return (run, clue);
    }
    (cells.split_whitespace().map(cell).collect(), clue)
}

fn values(g: &Grid, cells: &[(usize, usize)]) -> Vec<u32> {
    cells.iter().map(|&(r, c)| g[r][c]).collect()
}

fn distinct_full(vals: &[u32]) -> bool {
    let mut v = vals.to_vec();
    v.sort_unstable();
    v == (1..=vals.len() as u32).collect::<Vec<_>>()
}

/// Rows, columns and (with `box: HxW`) boxes each hold 1..n once; givens agree.
fn check_base(doc: &serde_yaml::Value, sol: &Grid) {
    let n = sol.len();
    for (i, row) in sol.iter().enumerate() {
        assert!(distinct_full(row), "row {i}");
        let col: Vec<u32> = sol.iter().map(|row| row[i]).collect();
        assert!(distinct_full(&col), "column {i}");
    }
    if let Some(b) = doc["box"].as_str() {
        let (h, w) = b.split_once('x').unwrap();
        let (h, w): (usize, usize) = (h.parse().unwrap(), w.parse().unwrap());
        for br in (0..n).step_by(h) {
            for bc in (0..n).step_by(w) {
                let b: Vec<u32> = (0..n).map(|k| sol[br + k / w][bc + k % w]).collect();
                assert!(distinct_full(&b), "box at {br},{bc}");
            }
        }
    }
    if let Some(givens) = doc["givens"].as_str() {
        for (r, row) in grid(givens).iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                assert!(v == 0 || v == sol[r][c], "given r{}c{}", r + 1, c + 1);
            }
        }
    }
}

fn lines_of(doc: &serde_yaml::Value, key: &str) -> Vec<(Cells, Option<u32>)> {
    assert!(!doc[key].is_null(), "section {key}");
    entries(doc, key).iter().map(|l| line(l)).collect()
}

/// The marked pairs of a section, each with its number: its own after `=`, else `standard`.
fn marked(doc: &serde_yaml::Value, key: &str, standard: u32) -> Vec<Marked> {
    let mut out = Vec::new();
    for p in entries(doc, key) {
        let (pair, number) = match p.split_once('=') {
            Some((pair, k)) => (pair, k.trim().parse().unwrap()),
            None => (p.as_str(), standard),
        };
        let (a, b) = pair.trim().split_once('-').unwrap();
        out.push((cell(a), cell(b), number));
    }
    out
}

/// Marked pairs per section; every listed pair must satisfy its section's test with its number, every other
/// pair of neighbours none of the tests with any number the marks use (a section's standard number always).
fn check_marks(doc: &serde_yaml::Value, sol: &Grid, tests: &[Mark]) {
    check_some_marks(doc, sol, tests, &[]);
}

/// Marks of `given` sections are all given, of `open` ones where the setter placed them: every mark holds,
/// and a pair with no mark of either holds none of the given sections' relations (numbered ones included).
fn check_some_marks(doc: &serde_yaml::Value, sol: &Grid, given: &[Mark], open: &[Mark]) {
    let n = sol.len();
    let mut marked_pairs = BTreeMap::new();
    let mut ruled_out: Vec<(Test, u32)> = Vec::new();
    for (i, (key, test, standard)) in given.iter().chain(open).enumerate() {
        let all_given = i < given.len();
        if all_given {
            ruled_out.push((*test, *standard));
        }
        for (a, b, k) in marked(doc, key, *standard) {
            assert!(test(sol[a.0][a.1], sol[b.0][b.1], k), "{key} {a:?} {b:?}");
            marked_pairs.insert((a.min(b), a.max(b)), *key);
            if all_given {
                ruled_out.push((*test, k));
            }
        }
    }
    for r in 0..n {
        for c in 0..n {
            for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                if r2 < n && c2 < n && !marked_pairs.contains_key(&((r, c), (r2, c2))) {
                    let (u, v) = (sol[r][c], sol[r2][c2]);
                    assert!(
                        ruled_out.iter().all(|(t, k)| !t(u, v, *k)),
                        "unmarked r{}c{} r{}c{}",
                        r + 1,
                        c + 1,
                        r2 + 1,
                        c2 + 1
                    );
                }
            }
        }
    }
}

/// Marked pairs per section, every one satisfying its section's test; at least one pair in all.
fn check_listed_marks(doc: &serde_yaml::Value, sol: &Grid, tests: &[Mark]) {
    let mut seen = 0;
    for (key, test, standard) in tests {
        for (a, b, k) in marked(doc, key, *standard) {
            assert!(test(sol[a.0][a.1], sol[b.0][b.1], k), "{key} {a:?} {b:?}");
            seen += 1;
        }
    }
    assert!(seen > 0, "no marks");
}

/// The edge clues of a side, with the cells in viewing order.
fn edges(doc: &serde_yaml::Value, n: usize) -> Vec<(Option<u32>, Cells)> {
    edge_texts(doc, n)
        .into_iter()
        .map(|(t, cells)| (t.parse().ok(), cells))
        .collect()
}

/// Each outside clue as written (`.` for none), with its row or column seen from its side, nearest first.
fn edge_texts(doc: &serde_yaml::Value, n: usize) -> Vec<(String, Cells)> {
    let mut out = Vec::new();
    for side in ["top", "bottom", "left", "right"] {
        let Some(text) = doc[side].as_str() else {
            continue;
        };
        for (i, t) in text.split_whitespace().enumerate() {
            let cells: Cells = match side {
                "top" => (0..n).map(|r| (r, i)).collect(),
                "bottom" => (0..n).rev().map(|r| (r, i)).collect(),
                "left" => (0..n).map(|c| (i, c)).collect(),
                _ => (0..n).rev().map(|c| (i, c)).collect(),
            };
            out.push((t.to_owned(), cells));
        }
    }
    out
}

/// Every outside clue as [`edge_texts`] gives it, a side left out of the file read as `.` on every row or column.
fn every_edge_text(doc: &serde_yaml::Value, n: usize) -> Vec<(String, Cells)> {
    let mut doc = doc.clone();
    for side in ["top", "bottom", "left", "right"] {
        if doc[side].is_null() {
            doc[side] = serde_yaml::Value::from(vec!["."; n].join(" "));
        }
    }
    edge_texts(&doc, n)
}

/// The side a row or column seen from outside stands on, from its cells nearest first.
fn side_of(cells: &[(usize, usize)]) -> &'static str {
    let (first, second) = (cells[0], cells[1]);
    match (first.0 == second.0, first) {
        (false, (0, _)) => "top",
        (false, _) => "bottom",
        (true, (_, 0)) => "left",
        _ => "right",
    }
}

/// A row indexer at (r, c) holding v has r in row v of its column; a column indexer, c in column v of its row;
/// a box indexer, its place in its box in the box's v-th cell (places in reading order, 1-based throughout).
fn indexers(doc: &serde_yaml::Value, sol: &Grid) {
    let (h, w) = doc["box"].as_str().and_then(|b| b.split_once('x')).unwrap();
    let (h, w): (usize, usize) = (h.parse().unwrap(), w.parse().unwrap());
    let mut seen = 0;
    // Each of the three sections is optional.
    for key in ["row-indexers", "column-indexers", "box-indexers"] {
        if doc[key].is_null() {
            continue;
        }
        for (cells, _) in lines_of(doc, key) {
            for (r, c) in cells {
                let v = sol[r][c] as usize;
                let (at, want) = match key {
                    "row-indexers" => (sol[v - 1][c], r + 1),
                    "column-indexers" => (sol[r][v - 1], c + 1),
                    _ => {
                        let (top, left) = (r / h * h, c / w * w);
                        let spot = (top + (v - 1) / w, left + (v - 1) % w);
                        (sol[spot.0][spot.1], (r - top) * w + (c - left) + 1)
                    }
                };
                assert_eq!(at as usize, want, "{key}: r{}c{} = {v}", r + 1, c + 1);
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no indexers");
}

/// Each arrow adds up to its circle, or to the number its pill's digits read left to right, top to bottom
/// (an arrow starting in a cell of a pill leaves the whole pill). Returns how many arrows left a pill.
fn arrows(doc: &serde_yaml::Value, sol: &Grid) -> usize {
    // Pills as a list or as a block of lines, or none.
    let pills: Vec<Cells> = match doc["pills"].is_null() {
        false => lines_of(doc, "pills").into_iter().map(|(c, _)| c).collect(),
        true => Vec::new(),
    };
    let mut from_pills = 0;
    for (cells, _) in lines_of(doc, "arrows") {
        let sum: u32 = values(sol, &cells[1..]).iter().sum();
        let circle = match pills.iter().find(|p| p.contains(&cells[0])) {
            Some(pill) => {
                from_pills += 1;
                let mut pill = pill.clone();
                pill.sort();
                pill
            }
            None => vec![cells[0]],
        };
        let digits: String = values(sol, &circle).iter().map(u32::to_string).collect();
        assert_eq!(digits.parse::<u32>().unwrap(), sum, "{cells:?}");
    }
    from_pills
}

/// A cage's digits differ, and its clue, when it shows one, is `shown` (their sum, or their product).
fn distinct_cage_shows(v: &[u32], clue: Option<u32>, shown: u32) {
    let mut seen = v.to_vec();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), v.len(), "a digit twice in a cage: {v:?}");
    assert!(clue.is_none_or(|k| k == shown), "{v:?} {clue:?}");
}

fn check_variant(kind: &str, doc: &serde_yaml::Value, sol: &Grid) {
    let n = sol.len();
    let along = |key: &str| {
        lines_of(doc, key)
            .into_iter()
            .map(move |(cells, clue)| (values(sol, &cells), clue))
    };
    match kind {
        "thermo" => {
            along("thermos").for_each(|(v, _)| assert!(v.windows(2).all(|w| w[0] < w[1]), "{v:?}"))
        }
        // Never decreasing from the bulb; two in a row may be equal.
        "slow-thermo" => {
            along("thermos").for_each(|(v, _)| assert!(v.windows(2).all(|w| w[0] <= w[1]), "{v:?}"))
        }
        "arrow" => {
            arrows(doc, sol);
        }
        // As arrows, and no digit repeats after an arrow's circle or pill.
        "arrow-distinct" => {
            arrows(doc, sol);
            for (cells, _) in lines_of(doc, "arrows") {
                let mut v = values(sol, &cells[1..]);
                v.sort_unstable();
                assert!(v.windows(2).all(|w| w[0] != w[1]), "{cells:?}: {v:?}");
            }
        }
        "whispers" => along("whispers")
            .for_each(|(v, _)| assert!(v.windows(2).all(|w| w[0].abs_diff(w[1]) >= 5), "{v:?}")),
        "dutch-whispers" => along("whispers")
            .for_each(|(v, _)| assert!(v.windows(2).all(|w| w[0].abs_diff(w[1]) >= 4), "{v:?}")),
        "indexer" => indexers(doc, sol),
        // The diamonds at least 4 apart; nothing between them on the line between or equal to them.
        "lockout" => along("lockouts").for_each(|(v, _)| {
            let (a, b) = (v[0], v[v.len() - 1]);
            assert!(a.abs_diff(b) >= 4, "{v:?}");
            let inside = &v[1..v.len() - 1];
            assert!(
                inside.iter().all(|&x| x < a.min(b) || x > a.max(b)),
                "{v:?}"
            )
        }),
        // No two digits on the line the same or consecutive, wherever they stand on it.
        "nabner" => along("nabner").for_each(|(v, _)| {
            for (i, a) in v.iter().enumerate() {
                assert!(v[i + 1..].iter().all(|b| a.abs_diff(*b) >= 2), "{v:?}")
            }
        }),
        "renban" => along("renban").for_each(|(mut v, _)| {
            v.sort_unstable();
            assert!(v.windows(2).all(|w| w[1] == w[0] + 1), "{v:?}")
        }),
        "palindrome" => along("palindromes").for_each(|(v, _)| {
            let mut r = v.clone();
            r.reverse();
            assert_eq!(v, r)
        }),
        "little-killer" => {
            along("diagonals").for_each(|(v, clue)| assert_eq!(Some(v.iter().sum()), clue, "{v:?}"))
        }
        "between" => along("between").for_each(|(v, _)| {
            let (a, b) = (v[0], v[v.len() - 1]);
            let inside = &v[1..v.len() - 1];
            assert!(
                inside.iter().all(|&x| a.min(b) < x && x < a.max(b)),
                "{v:?}"
            )
        }),
        "region-sum" => {
            // Cut where the line steps into another box; every piece adds up to what the first does.
            let (h, w) = doc["box"].as_str().and_then(|b| b.split_once('x')).unwrap();
            let (h, w): (usize, usize) = (h.parse().unwrap(), w.parse().unwrap());
            for (cells, _) in lines_of(doc, "lines") {
                let mut sums = vec![0];
                for (i, &(r, c)) in cells.iter().enumerate() {
                    if i > 0 && (r / h, c / w) != (cells[i - 1].0 / h, cells[i - 1].1 / w) {
                        sums.push(0);
                    }
                    *sums.last_mut().unwrap() += sol[r][c];
                }
                assert!(
                    sums.len() > 1 && sums.iter().all(|&s| s == sums[0]),
                    "{cells:?} {sums:?}"
                );
            }
        }
        "zipper" => along("zippers").for_each(|(v, _)| {
            // Cells the same distance from the middle add up to the middle cell's value, or all to one total.
            let k = v.len();
            let pairs: Vec<u32> = (0..k / 2).map(|i| v[i] + v[k - 1 - i]).collect();
            let want = if k % 2 == 1 { v[k / 2] } else { pairs[0] };
            assert!(pairs.iter().all(|&p| p == want), "{v:?}")
        }),
        // Every three cells in a row: a low, a middle and a high digit, the grid's values in three equal runs
        // (1-3, 4-6, 7-9 on a 9x9; 1-2, 3-4, 5-6 on a 6x6).
        "entropic" => along("entropic").for_each(|(v, _)| {
            assert_eq!(n % 3, 0, "entropic lines on a {n}x{n}");
            for w in v.windows(3) {
                let mut bands: Vec<u32> = w.iter().map(|x| (x - 1) / (n as u32 / 3)).collect();
                bands.sort_unstable();
                assert_eq!(bands, [0, 1, 2], "{v:?}");
            }
        }),
        // Every three cells in a row: one digit of each remainder mod 3.
        "modular" => along("modular").for_each(|(v, _)| {
            for w in v.windows(3) {
                let mut rest: Vec<u32> = w.iter().map(|x| x % 3).collect();
                rest.sort_unstable();
                assert_eq!(rest, [0, 1, 2], "{v:?}");
            }
        }),
        "double-arrow" => along("arrows").for_each(|(v, _)| {
            let k = v.len();
            assert_eq!(v[0] + v[k - 1], v[1..k - 1].iter().sum::<u32>(), "{v:?}")
        }),
        "parity-lines" => along("parity")
            .for_each(|(v, _)| assert!(v.windows(2).all(|w| w[0] % 2 != w[1] % 2), "{v:?}")),
        "extra-regions" => along("extra").for_each(|(mut v, _)| {
            v.sort_unstable();
            assert!(v.windows(2).all(|w| w[0] != w[1]), "{v:?}")
        }),
        "minarism" => {
            // Each chain `a < b > c` relation by relation; each circled difference between a line's neighbours.
            for chain in doc["less"].as_sequence().into_iter().flatten() {
                let tokens: Vec<&str> = chain.as_str().unwrap().split_whitespace().collect();
                for w in tokens.windows(3).step_by(2) {
                    let (a, b) = (cell(w[0]), cell(w[2]));
                    let (u, v) = (sol[a.0][a.1], sol[b.0][b.1]);
                    assert!(if w[1] == "<" { u < v } else { u > v }, "{w:?}");
                }
            }
            for l in doc["differences"].as_sequence().into_iter().flatten() {
                let (cells, clue) = line(l.as_str().unwrap());
                let v = values(sol, &cells);
                assert!(
                    v.windows(2).all(|w| Some(w[0].abs_diff(w[1])) == clue),
                    "{v:?}"
                );
            }
        }
        "kropki" | "kropki-latin" => check_marks(
            doc,
            sol,
            &[
                ("white", |a, b, k| a.abs_diff(b) == k, 1),
                ("black", |a, b, k| a.max(b) == k * a.min(b), 2),
            ],
        ),
        // Every black dot given, white dots where the setter placed them: a pair with no dot is in no ratio
        // of a black dot, and may differ by 1.
        "kropki-all-black" => check_some_marks(
            doc,
            sol,
            &[("black", |a, b, k| a.max(b) == k * a.min(b), 2)],
            &[("white", |a, b, k| a.abs_diff(b) == k, 1)],
        ),
        // Every white dot given, black dots where the setter placed them: a pair with no dot differs by no
        // white dot's number, and may be in a ratio of 2.
        "kropki-all-white" => check_some_marks(
            doc,
            sol,
            &[("white", |a, b, k| a.abs_diff(b) == k, 1)],
            &[("black", |a, b, k| a.max(b) == k * a.min(b), 2)],
        ),
        // Marked neighbours differ by 1, every other pair of neighbours does not.
        "consecutive-sudoku" | "consecutive" => check_marks(
            doc,
            sol,
            &[("consecutive", |a, b, k| a.abs_diff(b) == k, 1)],
        ),
        "xv" => check_marks(
            doc,
            sol,
            &[
                ("x", |a, b, k| a + b == k, 10),
                ("v", |a, b, k| a + b == k, 5),
            ],
        ),
        // Each cage's digits differ, and add up to its sum when it shows one.
        "killer-cages" => along("cages").for_each(|(v, clue)| {
            distinct_cage_shows(&v, clue, v.iter().sum());
        }),
        // Each cage adds up to its sum when it shows one; its digits may repeat.
        "killer-repeats" => {
            for (v, clue) in along("cages") {
                assert!(
                    clue.is_none_or(|k| k == v.iter().sum::<u32>()),
                    "{v:?} {clue:?}"
                );
            }
        }
        // Some set of cuts divides each line into pieces of 10, every set tried.
        "ten-lines" => along("lines").for_each(|(v, _)| {
            let cut = |cuts: u32| {
                let mut sum = 0;
                v.iter().enumerate().all(|(i, &x)| {
                    sum += x;
                    let end = i == v.len() - 1 || cuts >> i & 1 == 1;
                    let piece = sum;
                    if end {
                        sum = 0;
                    }
                    !end || piece == 10
                })
            };
            assert!((0..1u32 << (v.len() - 1)).any(cut), "{v:?}");
        }),
        // Each cage's digits differ, and multiply to its clue when it shows one.
        "product-killer" => along("cages").for_each(|(v, clue)| {
            distinct_cage_shows(&v, clue, v.iter().product());
        }),
        // Marks where the setter placed them: each holds, and nothing is said of the other pairs.
        "kropki-dots" => check_listed_marks(
            doc,
            sol,
            &[
                ("white", |a, b, k| a.abs_diff(b) == k, 1),
                ("black", |a, b, k| a.max(b) == k * a.min(b), 2),
            ],
        ),
        "xv-marks" => check_listed_marks(
            doc,
            sol,
            &[
                ("x", |a, b, k| a + b == k, 10),
                ("v", |a, b, k| a + b == k, 5),
            ],
        ),
        "sandwich" => {
            for (clue, cells) in edges(doc, n) {
                let v = values(sol, &cells);
                let i = v.iter().position(|&x| x == 1).unwrap();
                let j = v.iter().position(|&x| x == n as u32).unwrap();
                let between: u32 = v[i.min(j) + 1..i.max(j)].iter().sum();
                assert!(clue.is_none_or(|k| k == between), "{v:?} {clue:?}");
            }
        }
        "sum-skyscrapers" => {
            for (clue, cells) in edges(doc, n) {
                let (mut top, mut sum) = (0, 0);
                for v in values(sol, &cells) {
                    if v > top {
                        top = v;
                        sum += v;
                    }
                }
                assert!(clue.is_none_or(|k| k == sum), "{cells:?} {clue:?}");
            }
        }
        // The first X digits from that side add up to the clue, X the nearest digit.
        "x-sums" => {
            for (clue, cells) in edges(doc, n) {
                let v = values(sol, &cells);
                let seen: u32 = v[..v[0] as usize].iter().sum();
                assert!(clue.is_none_or(|k| k == seen), "{v:?} {clue:?}");
            }
        }
        // Two armies march in, one from each end, as many cells as the digit each starts on: the clue adds up the
        // cells both reach where some cell has both, else the cells neither reaches.
        "battlefield" => {
            for (clue, cells) in edges(doc, n) {
                let v = values(sol, &cells);
                let m = v.len();
                let first = |i: usize| i < v[0] as usize;
                let last = |i: usize| m - i <= v[m - 1] as usize;
                let battle = (0..m).any(|i| first(i) && last(i));
                let sum: u32 = (0..m)
                    .filter(|&i| {
                        if battle {
                            first(i) && last(i)
                        } else {
                            !first(i) && !last(i)
                        }
                    })
                    .map(|i| v[i])
                    .sum();
                assert!(clue.is_none_or(|k| k == sum), "{v:?} {clue:?}");
            }
        }
        // A digit in a grey cell is greater than each white cell beside it.
        "fortress" => {
            let grey: Vec<Vec<bool>> = doc["fortress"]
                .as_str()
                .unwrap()
                .lines()
                .map(|l| l.split_whitespace().map(|t| t == "G").collect())
                .collect();
            let mut compared = 0;
            for r in 0..n {
                for c in 0..n {
                    let beside = [
                        (r + 1, c),
                        (r, c + 1),
                        (r.wrapping_sub(1), c),
                        (r, c.wrapping_sub(1)),
                    ];
                    for (r2, c2) in beside.into_iter().filter(|&(r2, c2)| r2 < n && c2 < n) {
                        if grey[r][c] && !grey[r2][c2] {
                            assert!(
                                sol[r][c] > sol[r2][c2],
                                "r{}c{} beside r{}c{}",
                                r + 1,
                                c + 1,
                                r2 + 1,
                                c2 + 1
                            );
                            compared += 1;
                        }
                    }
                }
            }
            assert!(compared > 0);
        }
        // The three digits nearest an arrow increase toward where it points; beside a row or column with no
        // arrow (all are given), they neither increase nor decrease.
        "rossini" => {
            for (arrow, cells) in every_edge_text(doc, n) {
                let v = values(sol, &cells[..3]);
                let up = v[0] < v[1] && v[1] < v[2];
                let down = v[0] > v[1] && v[1] > v[2];
                // Seen from its side (nearest first), an arrow pointing at the grid has the largest farthest.
                let toward_grid = |side: &str| match side {
                    "top" => "v",
                    "bottom" => "^",
                    "left" => ">",
                    _ => "<",
                };
                let ok = match arrow.as_str() {
                    "." => !up && !down,
                    a if a == toward_grid(side_of(&cells)) => up,
                    _ => down,
                };
                assert!(ok, "{cells:?} {arrow:?} {v:?}");
            }
        }
        // The first three digits from that side add up to the clue.
        "frame" => {
            for (clue, cells) in edges(doc, n) {
                let seen: u32 = values(sol, &cells[..3]).iter().sum();
                assert!(clue.is_none_or(|k| k == seen), "{cells:?} {clue:?}");
            }
        }
        // Every digit of the clue is one of the first three digits from that side.
        "outside" => {
            for (clue, cells) in edge_texts(doc, n) {
                let first = values(sol, &cells[..3]);
                let digits = clue.chars().filter_map(|c| c.to_digit(10));
                assert!(
                    clue == "." || digits.clone().all(|d| first.contains(&d)),
                    "{cells:?} {clue:?}"
                );
            }
        }
        // The X-th digit from that side is the clue, X the nearest digit.
        "numbered-rooms" => {
            for (clue, cells) in edges(doc, n) {
                let v = values(sol, &cells);
                assert!(
                    clue.is_none_or(|k| k == v[v[0] as usize - 1]),
                    "{v:?} {clue:?}"
                );
            }
        }
        // Digits seen from that side, a larger one hiding every smaller one behind it.
        "skyscraper-sudoku" => {
            for (clue, cells) in edges(doc, n) {
                let (mut top, mut seen) = (0, 0);
                for v in values(sol, &cells) {
                    if v > top {
                        top = v;
                        seen += 1;
                    }
                }
                assert!(clue.is_none_or(|k| k == seen), "{cells:?} {clue:?}");
            }
        }
        // Four cells around a circle; each digit in it appears in them, a digit written twice in two.
        "mathrax" => mathrax(doc, sol),
        "quadruple" => {
            for entry in doc["quadruples"].as_sequence().expect("quadruples") {
                let (cells, digits) = entry.as_str().unwrap().split_once('=').unwrap();
                let cells: Cells = cells.split_whitespace().map(cell).collect();
                let rows: Vec<usize> = cells.iter().map(|c| c.0).collect();
                let cols: Vec<usize> = cells.iter().map(|c| c.1).collect();
                let span = |v: &[usize]| v.iter().max().unwrap() - v.iter().min().unwrap();
                assert!(
                    cells.len() == 4 && span(&rows) == 1 && span(&cols) == 1,
                    "{cells:?}"
                );
                let mut held = values(sol, &cells);
                for d in digits.split_whitespace().map(|t| t.parse::<u32>().unwrap()) {
                    let at = held.iter().position(|&x| x == d);
                    assert!(at.is_some(), "{cells:?} lacks {d}");
                    held.remove(at.unwrap());
                }
            }
        }
        // Each sign between two cells holds, chain by chain (`a < b > c`).
        "greater-than" => {
            for chain in doc["less"].as_sequence().expect("less") {
                let tokens: Vec<&str> = chain.as_str().unwrap().split_whitespace().collect();
                for w in tokens.windows(3).step_by(2) {
                    let (a, b) = (cell(w[0]), cell(w[2]));
                    let (u, v) = (sol[a.0][a.1], sol[b.0][b.1]);
                    assert!(if w[1] == "<" { u < v } else { u > v }, "{w:?}");
                }
            }
        }
        // A cell and its copy hold the same digit.
        "clone" => {
            for pair in doc["clones"].as_sequence().expect("clones") {
                let (a, b) = pair.as_str().unwrap().split_once('-').unwrap();
                let (a, b) = (cell(a), cell(b));
                assert_eq!(sol[a.0][a.1], sol[b.0][b.1], "{a:?} {b:?}");
            }
        }
        // Rows and columns, which `check_base` checks of every type.
        "latin" => {}
        other => panic!("no oracle for {other}"),
    }
}

#[test]
fn variant_examples_satisfy_their_rules() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    for kind in VARIANTS {
        let dir = root.join(kind);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() >= 2, "{kind}: at least two examples");
        for f in files {
            let doc: serde_yaml::Value =
                serde_yaml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            assert_eq!(doc["type"].as_str(), Some(*kind), "{}", f.display());
            let sol = grid(
                doc["solution"]
                    .as_str()
                    .expect("every example has its solution"),
            );
            check_base(&doc, &sol);
            check_variant(kind, &doc, &sol);
        }
    }
}

/// Types made of types (`puzzles/mixed/`, `jigsaw+thermo`): every part's oracle holds of the one solution; a
/// jigsaw's regions (each of n cells holding 1..n) are checked here.
#[test]
fn mixed_examples_satisfy_every_part_s_rules() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles/mixed");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 2, "at least two mixed examples");
    for f in files {
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let kind = doc["type"].as_str().unwrap();
        let parts: Vec<&str> = kind.split('+').collect();
        assert!(parts.len() >= 2, "{}: {kind} is one type", f.display());
        let sol = grid(doc["solution"].as_str().expect("a solution"));
        check_base(&doc, &sol);
        for part in parts {
            match part {
                "jigsaw" => check_regions(&doc, &sol),
                other => check_variant(other, &doc, &sol),
            }
        }
    }
}

/// Each region of the `regions:` map holds 1..n once.
fn check_regions(doc: &serde_yaml::Value, sol: &Grid) {
    let mut groups: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    let map = doc["regions"].as_str().expect("regions");
    for (r, row) in map.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        for (c, id) in row.split_whitespace().enumerate() {
            groups.entry(id).or_default().push(sol[r][c]);
        }
    }
    assert_eq!(groups.len(), sol.len(), "{} regions", groups.len());
    for (id, values) in groups {
        assert!(distinct_full(&values), "region {id}: {values:?}");
        assert_eq!(values.len(), sol.len(), "region {id}");
    }
}

/// Mathrax: each point's clue holds for both diagonal pairs of the four cells around it (`4+` sum, `3-`
/// difference, `6x` product, `2/` ratio), and cells marked E are even, O odd.
/// A lines section's entries, written as a list or as a block of text (as `generate` writes them).
fn entries(doc: &serde_yaml::Value, key: &str) -> Vec<String> {
    match &doc[key] {
        serde_yaml::Value::Sequence(list) => list
            .iter()
            .map(|e| e.as_str().unwrap().to_owned())
            .collect(),
        serde_yaml::Value::String(text) => text.lines().map(str::to_owned).collect(),
        _ => Vec::new(),
    }
}

fn mathrax(doc: &serde_yaml::Value, sol: &Grid) {
    let points = entries(doc, "points");
    assert!(!points.is_empty(), "no points");
    for entry in &points {
        let (cells, clue) = entry.split_once('=').unwrap();
        let cells: Cells = cells.split_whitespace().map(cell).collect();
        let top = cells.iter().map(|c| c.0).min().unwrap();
        let left = cells.iter().map(|c| c.1).min().unwrap();
        let mut block: Cells = (0..4).map(|k| (top + k / 2, left + k % 2)).collect();
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        block.sort_unstable();
        assert_eq!(sorted, block, "{cells:?} is not a 2x2 block");
        let clue = clue.trim();
        let (number, op) = clue.split_at(clue.len() - 1);
        let target: u32 = number.parse().unwrap();
        let reach = |x: u32, y: u32| match op {
            "+" => x + y == target,
            "-" => x.abs_diff(y) == target,
            "x" => x * y == target,
            "/" => x.max(y) == target * x.min(y),
            _ => panic!("operator {op:?}"),
        };
        let at = |r: usize, c: usize| sol[top + r][left + c];
        assert!(
            reach(at(0, 0), at(1, 1)),
            "{clue} at r{}c{}",
            top + 1,
            left + 1
        );
        assert!(
            reach(at(0, 1), at(1, 0)),
            "{clue} at r{}c{}",
            top + 1,
            left + 1
        );
    }
    // An E circle's four cells are even, an O circle's odd.
    for entry in entries(doc, "circles") {
        let (cells, mark) = entry.split_once('=').unwrap();
        let cells: Cells = cells.split_whitespace().map(cell).collect();
        assert_eq!(cells.len(), 4, "{entry}");
        let want = match mark.trim() {
            "E" => 0,
            "O" => 1,
            other => panic!("mark {other:?}"),
        };
        for (r, c) in cells {
            assert_eq!(sol[r][c] % 2, want, "{entry}: r{}c{}", r + 1, c + 1);
        }
    }
}

/// The cells of each named rule's groups that an example uses, as the rule's setters define them: both main
/// diagonals; the cells at one place inside their boxes (disjoint groups). Each must hold 1..n once.
fn named_groups(rule: &str, n: usize, (h, w): (usize, usize)) -> Option<Vec<Cells>> {
    match rule {
        "diagonals" => Some(vec![
            (0..n).map(|i| (i, i)).collect(),
            (0..n).map(|i| (i, n - 1 - i)).collect(),
        ]),
        // As their setters draw them, rows and columns from 1.
        "asterisk" => Some(vec![[
            (2, 5),
            (3, 3),
            (3, 7),
            (5, 2),
            (5, 5),
            (5, 8),
            (7, 3),
            (7, 7),
            (8, 5),
        ]
        .iter()
        .map(|&(r, c)| (r - 1, c - 1))
        .collect()]),
        "girandola" => Some(vec![[
            (1, 1),
            (1, 9),
            (2, 5),
            (5, 2),
            (5, 5),
            (5, 8),
            (8, 5),
            (9, 1),
            (9, 9),
        ]
        .iter()
        .map(|&(r, c)| (r - 1, c - 1))
        .collect()]),
        "disjoint-groups" => Some(
            (0..h * w)
                .map(|p| {
                    (0..n)
                        .map(|b| ((b / (n / w)) * h + p / w, (b % (n / w)) * w + p % w))
                        .collect()
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The Sudoku examples that add named rules with groups: every group of each holds 1..n once.
#[test]
fn named_rule_examples_satisfy_their_groups() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles/sudoku");
    let mut checked = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        // Box separators drawn as `|` and `---+---` lines; rows of one-digit values written without spaces.
        let text = doc["solution"]
            .as_str()
            .unwrap()
            .replace(['|', '-', '+'], " ");
        let spaced: Vec<String> = text
            .lines()
            .map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
                [row] => row.chars().map(String::from).collect::<Vec<_>>().join(" "),
                _ => l.to_owned(),
            })
            .collect();
        let sol = grid(&spaced.join("\n"));
        let n = sol.len();
        let shape = match doc["box"].as_str() {
            Some(b) => {
                let (h, w) = b.split_once('x').unwrap();
                (h.parse().unwrap(), w.parse().unwrap())
            }
            None => (3, 3),
        };
        for rule in doc["rules"].as_sequence().into_iter().flatten() {
            let rule = rule.as_str().unwrap();
            for cells in named_groups(rule, n, shape).into_iter().flatten() {
                assert!(distinct_full(&values(&sol, &cells)), "{rule} {cells:?}");
                *checked.entry(rule.to_owned()).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(checked.get("disjoint-groups"), Some(&9), "{checked:?}");
    assert!(checked.contains_key("diagonals"), "{checked:?}");
    assert_eq!(checked.get("asterisk"), Some(&1), "{checked:?}");
    assert_eq!(checked.get("girandola"), Some(&1), "{checked:?}");
}

#[test]
fn the_oracle_rejects_a_broken_solution() {
    // The same checks must fail on a wrong grid: swap two values of a row of an arrow example's solution.
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles/arrow/arrow-6x6.yaml"),
    )
    .unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let mut sol = grid(doc["solution"].as_str().unwrap());
    sol[0].swap(0, 1);
    let broke = std::panic::catch_unwind(|| {
        check_base(&doc, &sol);
        check_variant("arrow", &doc, &sol);
    });
    assert!(broke.is_err());
}

/// Dots of one colour all given, of the other not: the oracle rejects the examples with a dot of the other
/// colour taken away where its pair is in the first colour's relation (a black 1-2 beside white dots all given,
/// a white 1-2 beside black ones), and accepts them with any other such dot taken away.
#[test]
fn the_one_colour_oracles_free_pairs_of_the_other_colour_alone() {
    let double: Test = |a, b, _| a.max(b) == 2 * a.min(b);
    let consecutive: Test = |a, b, _| a.abs_diff(b) == 1;
    for (kind, other, given) in [
        ("kropki-all-black", "white", double),
        ("kropki-all-white", "black", consecutive),
    ] {
        for size in ["6x6", "9x9"] {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join(format!("puzzles/{kind}/{kind}-{size}.yaml"));
            let doc: serde_yaml::Value =
                serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let sol = grid(doc["solution"].as_str().unwrap());
            let dots = marked(&doc, other, 1);
            let holds = |&(a, b, _): &Marked| given(sol[a.0][a.1], sol[b.0][b.1], 0);
            assert!(dots.iter().any(holds), "{kind} {size}");
            for dot in &dots {
                let mut without = doc.clone();
                let name = |(r, c): (usize, usize)| format!("r{}c{}", r + 1, c + 1);
                let gone = format!("{}-{}", name(dot.0), name(dot.1));
                let kept: Vec<&str> = doc[other]
                    .as_str()
                    .unwrap()
                    .lines()
                    .filter(|l| l.trim() != gone)
                    .collect();
                assert_eq!(kept.len() + 1, dots.len(), "{gone}");
                without[other] = serde_yaml::Value::String(kept.join("\n"));
                let checked = std::panic::catch_unwind(|| check_variant(kind, &without, &sol));
                assert_eq!(checked.is_err(), holds(dot), "{kind} {size}: {gone}");
            }
        }
    }
}

/// The pill examples have arrows leaving pills, and the oracle rejects each with a pill's digits swapped (a
/// pill of two different digits then reads another number).
#[test]
fn the_arrow_oracle_reads_pills_and_rejects_a_swapped_pill() {
    for size in ["6x6", "9x9"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("puzzles/arrow/pill-arrow-{size}.yaml"));
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut sol = grid(doc["solution"].as_str().unwrap());
        assert!(arrows(&doc, &sol) > 0, "{size}: no arrow leaves a pill");
        let pill = &lines_of(&doc, "pills")[0].0;
        let ((r, c), (r2, c2)) = (pill[0], pill[1]);
        let (a, b) = (sol[r][c], sol[r2][c2]);
        (sol[r][c], sol[r2][c2]) = (b, a);
        let broke = std::panic::catch_unwind(|| arrows(&doc, &sol));
        assert!(broke.is_err(), "{size}");
    }
}

/// Each arrow-distinct example read as plain arrows has another solution, which repeats a digit on an arrow:
/// the example needs the rule, and the oracle rejects that solution.
#[test]
fn the_distinct_arrow_examples_need_their_rule_and_the_oracle_sees_it() {
    for size in ["6x6", "9x9"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("puzzles/arrow-distinct/arrow-distinct-{size}.yaml"));
        let text = std::fs::read_to_string(path).unwrap();
        let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        let plain = text.replace("type: arrow-distinct", "type: arrow");
        let file = std::env::temp_dir().join(format!(
            "latin-plain-arrows-{size}-{}.yaml",
            std::process::id()
        ));
        std::fs::write(&file, plain).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_latin"))
            .args([
                "solve",
                file.to_str().unwrap(),
                "--max",
                "2",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        std::fs::remove_file(&file).unwrap();
        let solved: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let solutions = solved["solutions"].as_array().unwrap();
        assert_eq!(solutions.len(), 2, "{size}: {solved}");
        let own = grid(doc["solution"].as_str().unwrap());
        let other: Vec<Grid> = solutions
            .iter()
            .map(|s| serde_json::from_value(s.clone()).unwrap())
            .filter(|g: &Grid| *g != own)
            .collect();
        assert!(!other.is_empty(), "{size}");
        for sol in other {
            arrows(&doc, &sol);
            let caught = std::panic::catch_unwind(|| check_variant("arrow-distinct", &doc, &sol));
            assert!(caught.is_err(), "{size}: {sol:?}");
        }
    }
}

/// The Mathrax oracle rejects each example with one cell of its first point changed to the next value (every
/// operator's result on that diagonal pair then changes).
#[test]
fn the_mathrax_oracle_rejects_a_changed_cell() {
    for size in ["6x6", "7x7"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("puzzles/mathrax/mathrax-{size}.yaml"));
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let sol = grid(doc["solution"].as_str().unwrap());
        mathrax(&doc, &sol);
        // The first cell of a point, and of a circle, moved to the next value, in turn.
        for key in ["points", "circles"] {
            let first = &entries(&doc, key)[0];
            let (r, c) = cell(first.split_whitespace().next().unwrap());
            let mut sol = sol.clone();
            let n = sol.len() as u32;
            sol[r][c] = sol[r][c] % n + 1;
            let broke = std::panic::catch_unwind(|| mathrax(&doc, &sol));
            assert!(broke.is_err(), "{size} {key}");
        }
    }
}

/// The line oracles alone reject a solution with one cell of a line changed (a whisper's first cell to its
/// neighbour's value, which no whisper allows; another line's to the next value).
#[test]
fn the_line_oracles_reject_a_changed_cell() {
    for (kind, section) in [
        ("slow-thermo", "thermos"),
        ("dutch-whispers", "whispers"),
        ("nabner", "nabner"),
        ("lockout", "lockouts"),
        ("region-sum", "lines"),
        ("zipper", "zippers"),
        ("entropic", "entropic"),
        ("modular", "modular"),
        ("parity-lines", "parity"),
        ("double-arrow", "arrows"),
        ("ten-lines", "lines"),
    ] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("puzzles/{kind}/{kind}-9x9.yaml"));
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut sol = grid(doc["solution"].as_str().unwrap());
        check_variant(kind, &doc, &sol);
        let line = &lines_of(&doc, section)[0].0;
        let ((r, c), (r2, c2)) = (line[0], line[1]);
        sol[r][c] = match kind {
            "dutch-whispers" | "nabner" => sol[r2][c2],
            _ => sol[r][c] % 9 + 1,
        };
        let broke = std::panic::catch_unwind(|| check_variant(kind, &doc, &sol));
        assert!(broke.is_err(), "{kind}");
    }
}

/// The indexer oracle rejects each example with one indexer moved to a cell where the rule does not hold.
#[test]
fn the_indexer_oracle_rejects_a_moved_indexer() {
    for file in ["159-9x9.yaml", "indexer-6x6.yaml"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles/indexer")
            .join(file);
        let text = std::fs::read_to_string(path).unwrap();
        let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        let sol = grid(doc["solution"].as_str().unwrap());
        check_variant("indexer", &doc, &sol);
        // r1c1..r9c1 as r1c2..r9c2; r3c4 as r3c3: a cell that is no indexer of that kind.
        let moved = text
            .replacen("r1c1..r9c1", "r1c2..r9c2", 1)
            .replacen("r3c4 ", "r3c3 ", 1);
        assert_ne!(moved, text, "{file}");
        let doc: serde_yaml::Value = serde_yaml::from_str(&moved).unwrap();
        let broke = std::panic::catch_unwind(|| check_variant("indexer", &doc, &sol));
        assert!(broke.is_err(), "{file}");
    }
}

/// The outside-clue oracles reject a changed clue: each clue of an example moved by one, in turn, fails.
#[test]
fn the_edge_oracles_reject_a_changed_clue() {
    for kind in [
        "x-sums",
        "skyscraper-sudoku",
        "sandwich",
        "sum-skyscrapers",
        "numbered-rooms",
        "frame",
        "outside",
        "battlefield",
        "rossini",
    ] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("puzzles/{kind}/{kind}-6x6.yaml"));
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let sol = grid(doc["solution"].as_str().unwrap());
        check_variant(kind, &doc, &sol);
        let mut changed = 0;
        for side in ["top", "bottom", "left", "right"] {
            let Some(text) = doc[side].as_str() else {
                continue;
            };
            let tokens: Vec<&str> = text.split_whitespace().collect();
            for (i, t) in tokens.iter().enumerate() {
                // A number moved by one; for Outside Sudoku's sets of digits, a digit added: some digit not
                // among the first three cells; a Rossini arrow turned round or taken away.
                let changes: Vec<String> = match (kind, *t) {
                    ("rossini", "v" | "^") => {
                        vec![if *t == "v" { "^" } else { "v" }.into(), ".".into()]
                    }
                    ("rossini", "<" | ">") => {
                        vec![if *t == "<" { ">" } else { "<" }.into(), ".".into()]
                    }
                    // No arrow: the three are out of order, so an arrow either way is wrong.
                    ("rossini", _) if side == "top" || side == "bottom" => {
                        vec!["v".into(), "^".into()]
                    }
                    ("rossini", _) => vec!["<".into(), ">".into()],
                    (_, t) => match t.parse::<u32>() {
                        Ok(_) if kind == "outside" => (1..=6).map(|d| format!("{t}{d}")).collect(),
                        Ok(k) => vec![(k + 1).to_string()],
                        Err(_) => continue,
                    },
                };
                let broke = changes.iter().any(|change| {
                    let mut moved = tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>();
                    moved[i] = change.clone();
                    let mut doc = doc.clone();
                    doc[side] = serde_yaml::Value::from(moved.join(" "));
                    std::panic::catch_unwind(|| check_variant(kind, &doc, &sol)).is_err()
                });
                assert!(broke, "{kind} {side} {i}");
                changed += 1;
            }
        }
        assert!(changed > 0, "{kind}");
    }
}

/// The fortress oracle rejects a white cell shaded grey where a white neighbour holds more, in every example
/// that has one.
#[test]
fn the_fortress_oracle_rejects_a_grey_cell_below_a_white_one() {
    for size in [4, 6, 9] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("puzzles/fortress/fortress-{size}x{size}.yaml"));
        let doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let sol = grid(doc["solution"].as_str().unwrap());
        check_variant("fortress", &doc, &sol);
        let rows: Vec<Vec<String>> = doc["fortress"]
            .as_str()
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect();
        // The first white cell with a white right-hand neighbour holding more.
        let (r, c) = (0..size * size)
            .map(|i| (i / size, i % size))
            .find(|&(r, c)| {
                c + 1 < size
                    && rows[r][c] == "."
                    && rows[r][c + 1] == "."
                    && sol[r][c] < sol[r][c + 1]
            })
            .unwrap();
        let mut shaded = rows.clone();
        shaded[r][c] = "G".into();
        let mut doc = doc.clone();
        let text: Vec<String> = shaded.iter().map(|row| row.join(" ")).collect();
        doc["fortress"] = serde_yaml::Value::from(text.join("\n"));
        let broke = std::panic::catch_unwind(|| check_variant("fortress", &doc, &sol));
        assert!(broke.is_err(), "{size}x{size}: r{}c{}", r + 1, c + 1);
    }
}

/// The quadruple oracle rejects a solution with a circle's cell changed to a digit the circle does not list
/// (where the cell's own digit is listed).
#[test]
fn the_quadruple_oracle_rejects_a_changed_cell() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles/quadruple/quadruple-9x9.yaml");
    let doc: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut sol = grid(doc["solution"].as_str().unwrap());
    check_variant("quadruple", &doc, &sol);
    // The first cell of the first circle whose digit the circle lists.
    let entry = doc["quadruples"][0].as_str().unwrap();
    let (cells, digits) = entry.split_once('=').unwrap();
    let listed: Vec<u32> = digits
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (r, c) = cells
        .split_whitespace()
        .map(cell)
        .find(|&(r, c)| listed.contains(&sol[r][c]))
        .unwrap();
    sol[r][c] = (1..=9).find(|d| !listed.contains(d)).unwrap();
    let broke = std::panic::catch_unwind(|| check_variant("quadruple", &doc, &sol));
    assert!(broke.is_err());
}

/// A region-sum line whose grammar names a regions section is cut by those regions, not by boxes: the line
/// r1c1 r2c1 in regions that are the rows is two pieces of one cell each, equal though they share a column (no
/// solution); in regions that are the columns it is one piece, and says nothing.
#[test]
fn region_sum_lines_are_cut_by_the_regions_their_grammar_names() {
    let dir = std::env::temp_dir().join(format!("latin-region-sum-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("jigsaw-sums.yaml"),
        "name: jigsaw-sums\ndescription: d\nsections:\n  regions: {kind: regions}\n  lines: {kind: lines}\n\
         rules:\n  - latin\n  - primitive: distinct\n    regions: regions\n  - primitive: region-sum\n    \
         lines: lines\n    regions: regions\n",
    )
    .unwrap();
    let mut registry = latin::Registry::built_in();
    registry.load_dir(&dir).unwrap();
    let solutions = |layout: &str| {
        let text =
            format!("type: jigsaw-sums\nsize: 4\nregions: |\n{layout}lines:\n  - r1c1 r2c1\n");
        let puzzle = latin::load_str(&text, &registry).unwrap();
        latin::solve(&puzzle, &latin::SolveOptions::default())
            .unwrap()
            .solutions
            .len()
    };
    let rows = solutions("  AAAA\n  BBBB\n  CCCC\n  DDDD\n");
    let columns = solutions("  ABCD\n  ABCD\n  ABCD\n  ABCD\n");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!((rows, columns), (0, 1));
}
