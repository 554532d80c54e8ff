//! janko.at's puzzle data: the block each puzzle page carries in `<script id="data"
//! type="application/x-janko">`, a line per key between `begin` and `end` (`puzzle sudoku`, `size 9`,
//! `patternx 3`), and a key alone on its line followed by the rows of a grid (`problem`, `solution`, `areas`,
//! `nodes`, `clabels`, `rlabels`), cells separated by spaces, `-` for none.
//!
//! The `puzzle` key names the type, with its extras after commas (`killer, diagonals`, `skyscrapers, sums,
//! diagonals`): `sudoku` (boxes from `patternx` wide and `patterny` high, or `pattern` square; with `areas`, a
//! jigsaw; values may be letters, `a` for 1), `killer`, `factors` (Inshi no heya), `kendoku` (KenKen),
//! `sumdoku`, each cage's clue in one of its cells of `problem` and the cages in `areas`; `futoshiki`, whose
//! `problem` interleaves cells and signs (`«` `»` between neighbours in a row, `A` `V` in a column);
//! `skyscrapers`, with `clabels` (top, then bottom) and `rlabels` (left, then right), `sums` for sum
//! skyscrapers, and a `depth` below the size refused (rows with empty cells are no Latin square); `mathrax`,
//! with `nodes`, the (n-1) x (n-1) points between cells. `diagonals` adds both main diagonals. Any `solution`
//! comes along, and so do `title`, `author` and `source`. The page's `moves` (its replay) are skipped.
//!
//! Both directions: `encode` writes a record of these types back as such a block.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value as Json};

use super::{bad, numbers, region_ids, Format, ATTRIBUTION};
use crate::error::Error;

fn err(message: impl Into<String>) -> Error {
    bad(Format::Janko, message)
}

/// The keys whose value is a grid on the lines after them.
const GRIDS: [&str; 7] = [
    "problem", "solution", "areas", "nodes", "clabels", "rlabels", "moves",
];

/// The types read, by the first word of `puzzle`.
const TYPES: [&str; 8] = [
    "sudoku",
    "killer",
    "factors",
    "kendoku",
    "sumdoku",
    "futoshiki",
    "skyscrapers",
    "mathrax",
];

/// The largest grid read: janko.at's largest Latin squares are 16x16 and 25x25 Sudokus.
const MAX_SIZE: usize = 64;

/// Whether the text is janko.at's data block: `begin` then a line of one of its keys, or the page's script
/// element.
pub(crate) fn recognises(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let known = |l: &str| {
        key_of(l)
            .is_some_and(|(k, _)| ["puzzle", "size", "rows"].contains(&k) || GRIDS.contains(&k))
    };
    text.contains("application/x-janko") || (lines.next() == Some("begin") && lines.any(known))
}

/// The keys of a data block: each key's text, a grid key's rows as tokens.
#[derive(Default)]
struct Data {
    values: BTreeMap<String, String>,
    grids: BTreeMap<String, Vec<Vec<String>>>,
}

/// A key line starts with a word of three or more lower-case letters, which no cell of a grid is.
fn key_of(line: &str) -> Option<(&str, &str)> {
    let word = line.split_whitespace().next()?;
    let is_key = word.len() >= 3 && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    is_key.then(|| (word, line[word.len()..].trim()))
}

fn read(text: &str) -> Result<Data, Error> {
    let body = match text.find("begin") {
        Some(at) => &text[at + "begin".len()..],
        None => text,
    };
    // A page's script element may close on the `end` line itself.
    let body = body.split("</script>").next().unwrap_or_default();
    let mut data = Data::default();
    let mut grid: Option<String> = None;
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match key_of(line) {
            Some(("end", _)) => return Ok(data),
            Some((key, "")) if GRIDS.contains(&key) => {
                grid = Some(key.to_owned());
                data.grids.insert(key.to_owned(), Vec::new());
            }
            Some((key, value)) => {
                grid = None;
                data.values.insert(key.to_owned(), value.to_owned());
            }
            None => {
                let Some(key) = &grid else {
                    return Err(err(format!(
                        "{line:?} is neither a key nor a row of a grid"
                    )));
                };
                // The page's replay, however long, is nothing the puzzle needs.
                if key == "moves" {
                    continue;
                }
                let rows = data.grids.get_mut(key).expect("opened");
                if rows.len() > MAX_SIZE * 2 {
                    return Err(err(format!("{key}: more than {} rows", MAX_SIZE * 2)));
                }
                rows.push(line.split_whitespace().map(str::to_owned).collect());
            }
        }
    }
    Err(err(
        "no `end` line: paste the whole block, `begin` to `end`",
    ))
}

impl Data {
    fn number(&self, key: &str) -> Result<Option<usize>, Error> {
        self.values
            .get(key)
            .map(|v| {
                v.parse::<usize>()
                    .map_err(|_| err(format!("{key} {v:?} is not a whole number")))
            })
            .transpose()
    }

    /// The grid `key`, checked to be `rows` x `cols`.
    fn grid(&self, key: &str, rows: usize, cols: usize) -> Result<Option<&[Vec<String>]>, Error> {
        let Some(grid) = self.grids.get(key) else {
            return Ok(None);
        };
        if grid.len() != rows || grid.iter().any(|r| r.len() != cols) {
            return Err(err(format!("{key} is not {rows} rows of {cols}")));
        }
        Ok(Some(grid))
    }

    fn needed(&self, key: &str, rows: usize, cols: usize) -> Result<&[Vec<String>], Error> {
        self.grid(key, rows, cols)?
            .ok_or_else(|| err(format!("no `{key}` grid")))
    }
}

/// A janko.at data block as a record.
pub(crate) fn decode(text: &str) -> Result<Json, Error> {
    let data = read(text)?;
    let tag = data
        .values
        .get("puzzle")
        .ok_or_else(|| err("no `puzzle` line: the block does not say its type"))?;
    let words: Vec<&str> = tag.split(',').map(str::trim).collect();
    let kind = words[0];
    if !TYPES.contains(&kind) {
        return Err(err(format!(
            "puzzle type {tag:?} is not one latin reads (it reads {})",
            TYPES.join(", ")
        )));
    }
    let n = size(&data)?;
    let mut record = match kind {
        "sudoku" | "killer" => sudoku(&data, kind, n)?,
        "factors" | "kendoku" | "sumdoku" => cages(&data, kind, n)?,
        "futoshiki" => futoshiki(&data, n)?,
        "skyscrapers" => skyscrapers(&data, words.contains(&"sums"), n)?,
        _ => mathrax(&data, n)?,
    };
    if words.contains(&"diagonals") {
        record["diagonals"] = json!(true);
    }
    record["size"] = json!(n);
    for key in ATTRIBUTION {
        if let Some(text) = data.values.get(key) {
            record[key] = json!(text);
        }
    }
    if let Some(solution) = data.grid("solution", n, n)? {
        record["solution"] = cells(solution, n, "solution")?;
    }
    Ok(record)
}

/// `size`, or `rows` and `cols` when they agree, or the rows of `problem`.
fn size(data: &Data) -> Result<usize, Error> {
    let n = match (
        data.number("size")?,
        data.number("rows")?,
        data.number("cols")?,
    ) {
        (Some(n), _, _) => n,
        (None, Some(r), Some(c)) if r == c => r,
        (None, Some(r), Some(c)) => {
            return Err(err(format!("a {r}x{c} board: Latin squares are square")))
        }
        _ => data
            .grids
            .get("problem")
            .map(Vec::len)
            .ok_or_else(|| err("no `size`"))?,
    };
    if !(1..=MAX_SIZE).contains(&n) {
        return Err(err(format!("size {n} is out of range 1..{MAX_SIZE}")));
    }
    Ok(n)
}

/// A cell's value: a number, or a letter (`a` or `A` for 1); `-`, `.`, `?` and `0` none.
fn value(token: &str, n: usize) -> Result<u64, String> {
    let v = match token {
        "-" | "." | "?" | "0" => 0,
        t if t.len() == 1 && t.as_bytes()[0].is_ascii_alphabetic() => {
            u64::from(t.as_bytes()[0].to_ascii_lowercase() - b'a' + 1)
        }
        t => t
            .parse::<u64>()
            .map_err(|_| format!("{t:?} is not a value"))?,
    };
    if v > n as u64 {
        return Err(format!("{token:?} is more than {n}"));
    }
    Ok(v)
}

/// A grid of values as a record grid.
fn cells(rows: &[Vec<String>], n: usize, what: &str) -> Result<Json, Error> {
    let rows: Vec<Vec<u64>> = rows
        .iter()
        .map(|r| r.iter().map(|t| value(t, n)).collect())
        .collect::<Result<_, _>>()
        .map_err(|e| err(format!("{what}: {e}")))?;
    Ok(json!(rows))
}

/// Sudoku and Killer Sudoku: boxes, or a jigsaw's regions (`areas`), and givens or cage sums.
fn sudoku(data: &Data, kind: &str, n: usize) -> Result<Json, Error> {
    let boxes = match (
        data.number("patternx")?,
        data.number("patterny")?,
        data.number("pattern")?,
    ) {
        (Some(w), Some(h), _) => Some([h, w]),
        (_, _, Some(k)) => Some([k, k]),
        _ => None,
    };
    let mut record = match kind {
        "killer" => cages(data, kind, n)?,
        _ => match data.grid("areas", n, n)? {
            Some(areas) => json!({"type": "jigsaw", "regions": areas,
                                  "givens": cells(data.needed("problem", n, n)?, n, "problem")?}),
            None => json!({"type": "sudoku",
                           "givens": cells(data.needed("problem", n, n)?, n, "problem")?}),
        },
    };
    if let Some(b) = boxes.filter(|_| record["type"] != "jigsaw") {
        if b[0] * b[1] != n {
            return Err(err(format!(
                "{}x{} boxes do not tile a {n}x{n} grid",
                b[0], b[1]
            )));
        }
        record["boxes"] = json!(b);
    }
    Ok(record)
}

/// Cages in `areas` with each clue in one cell of its cage in `problem`: killer sums, Inshi products, KenKen
/// targets with their operators, Sumdoku sums.
fn cages(data: &Data, kind: &str, n: usize) -> Result<Json, Error> {
    let areas = data.needed("areas", n, n)?;
    let problem = data.needed("problem", n, n)?;
    let mut clues = Map::new();
    for (area, clue) in areas.iter().flatten().zip(problem.iter().flatten()) {
        if matches!(clue.as_str(), "-" | ".") {
            continue;
        }
        if clues.insert(area.clone(), json!(clue)).is_some() {
            return Err(err(format!("cage {area:?} has two clues")));
        }
    }
    let kind = match kind {
        "factors" => "inshi",
        "kendoku" => "kenken",
        k => k,
    };
    Ok(json!({"type": kind, "regions": areas, "clues": clues}))
}

/// Futoshiki: a (2n-1) x (2n-1) grid, cells at even places and signs between them.
fn futoshiki(data: &Data, n: usize) -> Result<Json, Error> {
    let m = 2 * n - 1;
    let problem = data.needed("problem", m, m)?;
    let mut givens = vec![vec![0u64; n]; n];
    let mut less = Vec::new();
    for (i, row) in problem.iter().enumerate() {
        for (j, token) in row.iter().enumerate() {
            let (r, c) = (i / 2, j / 2);
            match (i % 2, j % 2) {
                (0, 0) => givens[r][c] = value(token, n).map_err(err)?,
                (0, 1) => match token.trim_start_matches('Â') {
                    "«" | "<" => less.push([r, c, r, c + 1]),
                    "»" | ">" => less.push([r, c + 1, r, c]),
                    _ => {}
                },
                (1, 0) => match token.as_str() {
                    "A" | "^" => less.push([r, c, r + 1, c]),
                    "V" | "v" => less.push([r + 1, c, r, c]),
                    _ => {}
                },
                _ => {}
            }
        }
    }
    Ok(json!({"type": "futoshiki", "givens": givens, "less": less}))
}

/// Skyscrapers: `clabels` top then bottom, `rlabels` left then right; counts, or sums.
fn skyscrapers(data: &Data, sums: bool, n: usize) -> Result<Json, Error> {
    if let Some(depth) = data.number("depth")?.filter(|&d| d != n) {
        return Err(err(format!(
            "skyscrapers of heights 1 to {depth} on a {n}x{n} grid leave cells empty: no Latin square"
        )));
    }
    let columns = data.needed("clabels", 2, n)?;
    let rows = data.needed("rlabels", 2, n)?;
    let side = |labels: &[String]| -> Result<Vec<Json>, Error> {
        labels
            .iter()
            .map(|t| match t.as_str() {
                "-" | "." => Ok(if sums { Json::Null } else { json!(0) }),
                t => t
                    .parse::<u64>()
                    .map(|k| json!(k))
                    .map_err(|_| err(format!("{t:?} is not a clue"))),
            })
            .collect()
    };
    let clues = json!({"top": side(&columns[0])?, "bottom": side(&columns[1])?,
                       "left": side(&rows[0])?, "right": side(&rows[1])?});
    let mut record = match sums {
        true => json!({"type": "sum-skyscrapers", "edges": clues}),
        false => json!({"type": "skyscrapers", "sky": clues}),
    };
    if let Some(problem) = data.grid("problem", n, n)? {
        record["givens"] = cells(problem, n, "problem")?;
    }
    Ok(record)
}

/// Mathrax: `nodes`, a clue for the four cells around each point (`4+`, `E`, `O`, `-` none), and givens.
fn mathrax(data: &Data, n: usize) -> Result<Json, Error> {
    let nodes = data.needed("nodes", n.saturating_sub(1), n.saturating_sub(1))?;
    let (mut points, mut circles) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
    for (r, row) in nodes.iter().enumerate() {
        for (c, clue) in row.iter().enumerate() {
            let block = json!([[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]]);
            match clue.as_str() {
                "-" | "." => {}
                "E" | "e" | "O" | "o" => {
                    circles.0.push(block);
                    circles.1.push(json!(clue.to_ascii_uppercase()));
                }
                _ => {
                    points.0.push(block);
                    points.1.push(json!(clue));
                }
            }
        }
    }
    let mut record = json!({"type": "mathrax",
        "lines": {"points": points.0}, "line_clues": {"points": points.1}});
    if !circles.0.is_empty() {
        record["lines"]["circles"] = json!(circles.0);
        record["line_clues"]["circles"] = json!(circles.1);
    }
    if let Some(problem) = data.grid("problem", n, n)? {
        record["givens"] = cells(problem, n, "problem")?;
    }
    Ok(record)
}

/// A record as a janko.at data block, for the types read here.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let kind = record["type"].as_str().unwrap_or_default();
    let n = record["size"]
        .as_u64()
        .filter(|&n| (1..=MAX_SIZE as u64).contains(&n))
        .ok_or_else(|| err("the record has no size from 1 to 64"))? as usize;
    let mut out = String::from("begin\n");
    let mut put = |key: &str, value: String| out.push_str(&format!("{key} {value}\n"));
    let diagonals = if record["diagonals"] == true {
        ", diagonals"
    } else {
        ""
    };
    let tag = match kind {
        "sudoku" | "jigsaw" => "sudoku",
        "killer" => "killer",
        "inshi" => "factors",
        "kenken" => "kendoku",
        "sumdoku" | "futoshiki" | "mathrax" | "skyscrapers" => kind,
        "sum-skyscrapers" => "skyscrapers, sums",
        _ => {
            return Err(err(format!(
                "type {kind}: janko.at's data block has no way to say it (it says sudoku, jigsaw, killer, inshi, kenken, sumdoku, futoshiki, skyscrapers, sum-skyscrapers, mathrax)"
            )))
        }
    };
    unsaid(record, kind)?;
    put("puzzle", format!("{tag}{diagonals}"));
    for key in ATTRIBUTION {
        if let Some(text) = record[key].as_str() {
            // One line each: a title or source of several lines keeps its first.
            put(key, text.lines().next().unwrap_or_default().to_owned());
        }
    }
    put("size", n.to_string());
    // A Sudoku's boxes are always written: janko.at's own default (the square root) is not latin's on 6x6.
    let boxes = match record["boxes"].as_array().map(Vec::as_slice) {
        Some([h, w]) => Some((h.to_string(), w.to_string())),
        _ if matches!(kind, "sudoku" | "killer") => {
            crate::grid::default_boxes(n).map(|(h, w)| (h.to_string(), w.to_string()))
        }
        _ => None,
    };
    if let Some((h, w)) = boxes {
        put("patternx", w);
        put("patterny", h);
    }
    match kind {
        "futoshiki" => out.push_str(&futoshiki_grid(record, n)?),
        "skyscrapers" | "sum-skyscrapers" => out.push_str(&labels(record, n)?),
        "mathrax" => out.push_str(&nodes(record, n)?),
        _ => {}
    }
    if !record["regions"].is_null() {
        let ids = region_ids(&record["regions"], n).map_err(err)?;
        out.push_str(&block("areas", &ids, n));
    }
    out.push_str(&problem(record, kind, n)?);
    if !record["solution"].is_null() {
        let solution = numbers(&record["solution"], n, "solution").map_err(err)?;
        let tokens: Vec<String> = solution.iter().map(u64::to_string).collect();
        out.push_str(&block("solution", &tokens, n));
    }
    out.push_str("end\n");
    Ok(out)
}

/// Refuses what the block cannot say rather than drop it: named rules, keys it has no place for (marks, pairs,
/// x-sums, ...), lines other than a Mathrax's points and circles, and givens beside cage clues (a number in a
/// cell of a janko.at killer, Inshi, KenKen or Sumdoku is its cage's clue).
fn unsaid(record: &Json, kind: &str) -> Result<(), Error> {
    let refuse = |what: &str| {
        err(format!(
            "type {kind}: janko.at's data block has no way to say {what}"
        ))
    };
    if let Some(rule) = record["rules"].as_array().and_then(|r| r.first()) {
        return Err(refuse(&format!("the rule {rule}")));
    }
    // What the block says, beside what says nothing about the puzzle (`super::ABOUT`, and whether it has a
    // solution); any other key is refused, not dropped.
    const SAYABLE: [&str; 13] = [
        "feasible",
        "size",
        "givens",
        "solution",
        "boxes",
        "regions",
        "clues",
        "diagonals",
        "less",
        "sky",
        "edges",
        "lines",
        "line_clues",
    ];
    let keys = record.as_object().into_iter().flat_map(|o| o.keys());
    if let Some(key) = keys
        .filter(|&k| k != "rules")
        .find(|k| !super::ABOUT.contains(&k.as_str()) && !SAYABLE.contains(&k.as_str()))
    {
        return Err(refuse(&format!("`{key}`")));
    }
    if let Some(lines) = record["lines"].as_object() {
        let other = lines
            .keys()
            .find(|k| kind != "mathrax" || !["points", "circles"].contains(&k.as_str()));
        if let Some(other) = other {
            return Err(refuse(&format!("lines `{other}`")));
        }
    }
    let given = record["givens"].as_array().is_some_and(|rows| {
        rows.iter()
            .flat_map(|r| r.as_array().into_iter().flatten())
            .any(|v| v.as_u64() != Some(0))
    });
    if given && record["clues"].is_object() {
        return Err(refuse(
            "givens beside cage clues (a number in a cell is its cage's clue)",
        ));
    }
    Ok(())
}

/// A grid key and its rows, `n` tokens a row.
fn block(key: &str, tokens: &[String], n: usize) -> String {
    let mut out = format!("{key}\n");
    for row in tokens.chunks(n.max(1)) {
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// `problem`: the givens, with each cage's clue in its first cell for the caged types.
fn problem(record: &Json, kind: &str, n: usize) -> Result<String, Error> {
    if kind == "futoshiki" {
        return Ok(String::new());
    }
    let givens = match record["givens"].is_null() {
        true => vec![0; n * n],
        false => numbers(&record["givens"], n, "givens").map_err(err)?,
    };
    let mut tokens: Vec<String> = givens
        .iter()
        .map(|&v| if v == 0 { "-".into() } else { v.to_string() })
        .collect();
    if let Some(clues) = record["clues"].as_object() {
        let ids = region_ids(&record["regions"], n).map_err(err)?;
        for (id, clue) in clues {
            let first = ids
                .iter()
                .position(|x| x == id)
                .ok_or_else(|| err(format!("clue for {id:?}, which is no region")))?;
            if tokens[first] != "-" {
                return Err(err(format!(
                    "cage {id:?}: its first cell is a given, where janko.at writes the clue"
                )));
            }
            tokens[first] = match clue {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
        }
    }
    let skip = matches!(kind, "skyscrapers" | "sum-skyscrapers" | "mathrax")
        && tokens.iter().all(|t| t == "-");
    Ok(if skip {
        String::new()
    } else {
        block("problem", &tokens, n)
    })
}

/// Futoshiki's interleaved grid: cells at even places, `«`/`»` in rows and `A`/`V` in columns between them.
fn futoshiki_grid(record: &Json, n: usize) -> Result<String, Error> {
    let m = 2 * n - 1;
    let mut grid = vec![vec!["-".to_string(); m]; m];
    if !record["givens"].is_null() {
        let givens = numbers(&record["givens"], n, "givens").map_err(err)?;
        for (k, v) in givens.iter().enumerate().filter(|(_, &v)| v > 0) {
            grid[2 * (k / n)][2 * (k % n)] = v.to_string();
        }
    }
    for pair in record["less"].as_array().into_iter().flatten() {
        let p: Vec<usize> = pair
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_u64().map(|x| x as usize))
            .collect();
        let &[r1, c1, r2, c2] = p.as_slice() else {
            return Err(err(format!("less: {pair} is not [r1, c1, r2, c2]")));
        };
        let sign = match (r2 as isize - r1 as isize, c2 as isize - c1 as isize) {
            (0, 1) => "«",
            (0, -1) => "»",
            (1, 0) => "A",
            (-1, 0) => "V",
            _ => {
                return Err(err(format!(
                    "less: {pair} is not two neighbours, which janko.at's grid needs"
                )))
            }
        };
        if r1.max(r2) >= n || c1.max(c2) >= n {
            return Err(err(format!("less: {pair} is off the grid")));
        }
        grid[r1 + r2][c1 + c2] = sign.into();
    }
    let tokens: Vec<String> = grid.into_iter().flatten().collect();
    Ok(block("problem", &tokens, m))
}

/// `clabels` (top, bottom) and `rlabels` (left, right) from `sky` counts (0 none) or `edges` sums (null none).
fn labels(record: &Json, n: usize) -> Result<String, Error> {
    let clues = if record["sky"].is_object() {
        &record["sky"]
    } else {
        &record["edges"]
    };
    let side = |name: &str| -> Result<Vec<String>, Error> {
        match &clues[name] {
            Json::Null => Ok(vec!["-".into(); n]),
            Json::Array(v) if v.len() == n => Ok(v
                .iter()
                .map(|x| match x.as_u64() {
                    Some(0) if record["sky"].is_object() => "-".into(),
                    Some(k) => k.to_string(),
                    None => "-".into(),
                })
                .collect()),
            _ => Err(err(format!("{name}: not {n} clues"))),
        }
    };
    let columns = [side("top")?, side("bottom")?].concat();
    let rows = [side("left")?, side("right")?].concat();
    Ok(block("clabels", &columns, n) + &block("rlabels", &rows, n))
}

/// `nodes` from a Mathrax record's points and circles.
fn nodes(record: &Json, n: usize) -> Result<String, Error> {
    let m = n.saturating_sub(1);
    let mut grid = vec!["-".to_string(); m * m];
    for section in ["points", "circles"] {
        let lines = record["lines"][section].as_array().into_iter().flatten();
        let clues = record["line_clues"][section].as_array();
        for (i, line) in lines.enumerate() {
            let corner = line
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|rc| Some((rc[0].as_u64()? as usize, rc[1].as_u64()? as usize)))
                .min()
                .ok_or_else(|| err(format!("{section}: an entry has no cells")))?;
            let clue = clues
                .and_then(|c| c.get(i))
                .and_then(Json::as_str)
                .ok_or_else(|| err(format!("{section}: entry {} has no clue", i + 1)))?;
            if corner.0 >= m || corner.1 >= m {
                return Err(err(format!("{section}: entry {} is off the points", i + 1)));
            }
            grid[corner.0 * m + corner.1] = clue.to_owned();
        }
    }
    Ok(block("nodes", &grid, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example in tkoz0's scraper's README: a 4x4 Sudoku as janko.at's page holds it, moves included.
    const PAGE: &str = "<script id=\"data\" type=\"application/x-janko\">\nbegin\npuzzle sudoku\nauthor Otto Janko\n\
        solver Otto Janko\nsource https://www.janko.at/Raetsel/\ninfo 9037-41-405125-0-254\nunit 30\nsize 4\n\
        patternx 2\npatterny 2\nproblem\n- - 3 1\n- - - -\n- - - -\n1 4 - -\nsolution\n4 2 3 1\n3 1 4 2\n\
        2 3 1 4\n1 4 2 3\nmoves\nZ2;ba,2;aa,4;ab,3;bb,1;ac,2;bc,3;cd,2;dd,3;dc,4;cc,1;\ncb,4;db,2;\nend\n</script>\n";

    #[test]
    fn a_page_s_data_block_is_a_record() {
        assert!(recognises(PAGE));
        let record = decode(PAGE).unwrap();
        assert_eq!(record["type"], "sudoku");
        assert_eq!(record["boxes"], json!([2, 2]));
        assert_eq!(record["givens"][0], json!([0, 0, 3, 1]));
        assert_eq!(record["solution"][3], json!([1, 4, 2, 3]));
        assert_eq!(record["author"], "Otto Janko");
        assert_eq!(record["source"], "https://www.janko.at/Raetsel/");
        // A replay of any length is skipped.
        let replay = "Z2;ab,1;\n".repeat(500);
        let long = PAGE.replace("cb,4;db,2;\n", &format!("cb,4;db,2;\n{replay}"));
        assert_eq!(decode(&long).unwrap(), record);
        // The script element may close on the `end` line itself.
        let closed = PAGE.replace("end\n</script>", "end</script>");
        assert_eq!(decode(&closed).unwrap(), record);
        let again = decode(&encode(&record).unwrap()).unwrap();
        assert_eq!(again, record);
    }

    #[test]
    fn every_type_reads_back_what_it_writes() {
        let blocks = [
            "begin\npuzzle killer, diagonals\nsize 4\npatternx 2\npatterny 2\nareas\n1 1 2 2\n3 3 2 2\n4 4 5 5\n4 6 6 5\nproblem\n5 - 8 -\n3 - - -\n7 - 5 -\n- 5 - -\nend",
            "begin\npuzzle kendoku\nsize 3\nareas\na a b\nc d b\nc d e\nproblem\n3+ - 2/\n3 1- -\n- - 3\nend",
            "begin\npuzzle futoshiki\nsize 3\nproblem\n- « - - -\n. . . . V\n2 - - » -\n- - - - -\n- - - - -\nend",
            "begin\npuzzle skyscrapers, sums, diagonals\nsize 4\ndepth 4\nclabels\n- 7 - -\n4 - - -\nrlabels\n- - 9 -\n- - - 4\nend",
            "begin\npuzzle mathrax\nsize 4\nnodes\n3+ - E\n- 1- -\no - 4x\nend",
            "begin\npuzzle sudoku\nsize 4\nareas\n1 1 2 2\n1 1 2 2\n3 3 4 4\n3 4 3 4\nproblem\na - - -\n- - - -\n- - - -\n- - - d\nend",
        ];
        for text in blocks {
            let record = decode(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let written = encode(&record).unwrap();
            assert_eq!(decode(&written).unwrap(), record, "{written}");
        }
        let killer = decode(blocks[0]).unwrap();
        assert_eq!(
            killer["clues"],
            json!({"1": "5", "2": "8", "3": "3", "4": "7", "5": "5", "6": "5"})
        );
        assert_eq!(killer["diagonals"], true);
        let futoshiki = decode(blocks[2]).unwrap();
        assert_eq!(
            futoshiki["less"],
            json!([[0, 0, 0, 1], [1, 2, 0, 2], [1, 2, 1, 1]])
        );
        let sky = decode(blocks[3]).unwrap();
        assert_eq!(sky["type"], "sum-skyscrapers");
        assert_eq!(sky["edges"]["top"], json!([null, 7, null, null]));
        let mathrax = decode(blocks[4]).unwrap();
        assert_eq!(
            mathrax["line_clues"],
            json!({"points": ["3+", "1-", "4x"], "circles": ["E", "O"]})
        );
        let jigsaw = decode(blocks[5]).unwrap();
        assert_eq!(
            (jigsaw["type"].clone(), jigsaw["givens"][3][3].clone()),
            (json!("jigsaw"), json!(4))
        );
    }

    #[test]
    fn blocks_latin_cannot_read_are_refused_by_what_is_wrong() {
        for (text, says) in [
            ("begin\npuzzle slitherlink\nsize 5\nend", "not one latin reads"),
            ("begin\nsize 4\nend", "no `puzzle` line"),
            ("begin\npuzzle sudoku\nsize 4\nproblem\n- -\nend", "problem is not 4 rows of 4"),
            ("begin\npuzzle sudoku\nsize 4\nproblem\n1 2 3 4\n- - - -\n- - - -\n- - - 5\nend", "more than 4"),
            ("begin\npuzzle skyscrapers\nsize 5\ndepth 4\nend", "leave cells empty"),
            ("begin\npuzzle sudoku\nsize 400\nend", "out of range"),
            ("begin\npuzzle sudoku\nsize 4\nproblem\n- - - -", "no `end` line"),
            ("begin\npuzzle killer\nsize 2\nareas\na a\nb b\nproblem\n1 2\n- -\nend", "two clues"),
            ("begin\npuzzle sudoku\nsize 4\npatternx 3\npatterny 2\nproblem\n- - - -\n- - - -\n- - - -\n- - - -\nend", "do not tile"),
            ("begin\npuzzle sudoku\nsize 4\n1 2 3 4\nend", "neither a key nor a row"),
            ("begin\npuzzle sudoku\nsize 2\nproblem\nZ -\n- -\nend", "janko: problem: \"Z\" is more than 2"),
        ] {
            let e = decode(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
        let inequality = json!({"type": "futoshiki", "size": 3, "less": [[0, 0, 2, 2]]});
        assert!(encode(&inequality)
            .unwrap_err()
            .to_string()
            .contains("two neighbours"));
        let thermo = json!({"type": "thermo", "size": 9});
        assert!(encode(&thermo)
            .unwrap_err()
            .to_string()
            .contains("no way to say it"));
        let marked = json!({"type": "sudoku", "size": 2, "parity": [["E", ""], ["", "O"]]});
        let e = encode(&marked).unwrap_err().to_string();
        assert!(e.contains("no way to say `parity`"), "{e}");
        let asterisk = json!({"type": "sudoku", "size": 9, "rules": ["asterisk"]});
        let e = encode(&asterisk).unwrap_err().to_string();
        assert!(e.contains("the rule \"asterisk\""), "{e}");
        let given = json!({"type": "killer", "size": 2, "regions": [["a", "a"], ["b", "b"]],
                           "clues": {"a": "3", "b": "3"}, "givens": [[0, 0], [0, 1]]});
        let e = encode(&given).unwrap_err().to_string();
        assert!(e.contains("givens beside cage clues"), "{e}");
        // Latin's 6x6 boxes are 2 high and 3 wide, and the block says so.
        let six = encode(&json!({"type": "sudoku", "size": 6})).unwrap();
        assert!(six.contains("patternx 3\npatterny 2\n"), "{six}");
    }
}
