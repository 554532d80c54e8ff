//! Simon Tatham's Portable Puzzle Collection: the game IDs of `solo` (Sudoku: any box shape, `x` diagonals,
//! `j` jigsaw, `k` killer, `jk` both: `jigsaw+killer-cages`), `keen` (KenKen), `towers` (Skyscrapers) and
//! `unequal` (Futoshiki; `a` adjacent mode is our consecutive type), as `GAME:PARAMS:DESC` or the web page's
//! link `.../GAME.html#PARAMS:DESC`.
//!
//! The description formats follow the games' own `new_game` and `encode_*` functions: a grid is runs of blanks
//! as letters (`a` = 1 .. `z` = 26), numbers, and `_` between two numbers; a block structure is the run-length
//! code of the grid's internal edges (vertical ones row by row, then horizontal ones column by column), a
//! letter per run of non-edges ending in an edge (`_` none, `a` 1, .. `y` 25; `z` 25 with no edge after it),
//! where keen lets a count follow a letter to repeat it. A random-seed ID (`9#4527...`) is not a puzzle: the
//! error says to paste the game ID the game shows instead.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value as Json};

use super::{bad, grid, numbers, region_ids, regions, Classes, Format};
use crate::error::Error;

const GAMES: [&str; 4] = ["solo", "keen", "towers", "unequal"];

fn err(message: impl Into<String>) -> Error {
    bad(Format::Tatham, message)
}

/// The game, parameters and description of an ID or link, if it looks like one.
fn split(text: &str) -> Option<(String, &str, &str)> {
    if let Some((page, id)) = text.split_once(".html#") {
        return named(page.rsplit('/').next()?, id);
    }
    let (first, rest) = text.split_once(':')?;
    // No game in front: the ID as the games' own dialog (Game > Specific...) shows it.
    named(first, rest).or_else(|| Some((game_of_bare_id(first, rest)?.to_owned(), first, rest)))
}

/// The parameters and description after a game's name, if it names one of the games read here.
fn named<'t>(game: &str, id: &'t str) -> Option<(String, &'t str, &'t str)> {
    let game = game.to_ascii_lowercase();
    GAMES
        .contains(&game.as_str())
        .then(|| match id.split_once(':') {
            Some((params, desc)) => (game, params, desc),
            None => (game, id, ""),
        })
}

/// Whether a text has the shape of a game ID written without its game (`3x3:a5_3d7...`, `6:...`): parameters
/// that start with the size, letters and digits only, then a description with no space or backslash in it.
/// Which game (if any) writes it is [`game_of_bare_id`]'s to say.
pub(crate) fn looks_bare(text: &str) -> bool {
    text.split_once(':')
        .is_some_and(|(params, desc)| bare_id_shape(params, desc))
}

fn bare_id_shape(params: &str, desc: &str) -> bool {
    params.starts_with(|c: char| c.is_ascii_digit())
        && params.chars().all(|c| c.is_ascii_alphanumeric())
        && !desc.is_empty()
        && !desc.contains(|c: char| c.is_whitespace() || c == '\\')
}

/// The game of an ID written without it (`3x3:d8_4...`), by parameters only that game writes (solo's `x` or `j`
/// after the size, unequal's `a`), else (the size alone, or with a difficulty as a save file's parameters have
/// it, `6dn`) by the shape of the description: towers' clues have `/` between them, keen's block structure one
/// comma before its cage clues, unequal's a comma between every two cells.
fn game_of_bare_id(params: &str, desc: &str) -> Option<&'static str> {
    if !bare_id_shape(params, desc) {
        return None;
    }
    let flags = params.trim_start_matches(|c: char| c.is_ascii_digit());
    match flags.chars().next() {
        Some('x' | 'j') => Some("solo"),
        Some('a') => Some("unequal"),
        _ if desc.contains('/') => Some("towers"),
        _ if desc.matches(',').count() == 1 => Some("keen"),
        _ if desc.contains(',') => Some("unequal"),
        _ => None,
    }
}

/// Whether the text is a game ID or link of a game read here.
pub(crate) fn recognises(text: &str) -> bool {
    split(text).is_some()
}

/// An ID or link as a record.
pub(crate) fn decode(text: &str) -> Result<Json, Error> {
    let (game, params, desc) = split(text).ok_or_else(|| {
        err(format!(
            "not a game ID: expected GAME:PARAMS:DESCRIPTION with GAME one of {}",
            GAMES.join(", ")
        ))
    })?;
    if desc.is_empty() {
        return Err(err(format!(
            "{params:?} is a random seed, not a puzzle: paste the game ID (Game > Specific... in {game})"
        )));
    }
    let (n, flags) =
        leading_number(params).ok_or_else(|| err("parameters start with the grid size"))?;
    match game.as_str() {
        "solo" => solo(n, flags, desc),
        "keen" => keen(size(n)?, desc),
        "towers" => towers(size(n)?, desc),
        _ => unequal(size(n)?, flags.starts_with('a'), desc),
    }
}

fn size(n: usize) -> Result<usize, Error> {
    if (1..=255).contains(&n) {
        Ok(n)
    } else {
        Err(err(format!("size {n} is out of range 1..255")))
    }
}

/// `12abc` -> (12, "abc").
fn leading_number(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// A grid description (`a5_3d7`) up to the next `,`: exactly `area` cells, values 1..=`max`.
fn grid_desc(desc: &str, area: usize, max: u64) -> Result<(Vec<u64>, &str), Error> {
    let mut out = Vec::with_capacity(area);
    let mut rest = desc;
    while let Some(c) = rest.chars().next() {
        match c {
            ',' => break,
            'a'..='z' => {
                out.extend(std::iter::repeat_n(0, (c as u8 - b'a' + 1) as usize));
                rest = &rest[1..];
            }
            '_' => rest = &rest[1..],
            '1'..='9' => {
                let (v, r) = leading_number(rest).ok_or_else(|| err("a number is too long"))?;
                if v as u64 > max {
                    return Err(err(format!("{v} is out of range 1..{max}")));
                }
                out.push(v as u64);
                rest = r;
            }
            _ => return Err(err(format!("unexpected {c:?} in a grid description"))),
        }
        if out.len() > area {
            return Err(err(format!("more than {area} cells in a grid description")));
        }
    }
    if out.len() < area {
        return Err(err(format!(
            "{} cells in a grid description, not {area}",
            out.len()
        )));
    }
    Ok((out, rest))
}

/// The cells on either side of internal edge `pos` of a w x w grid.
fn edge_cells(pos: usize, w: usize) -> (usize, usize) {
    if pos < w * (w - 1) {
        let (y, x) = (pos / (w - 1), pos % (w - 1));
        (y * w + x, y * w + x + 1)
    } else {
        let (x, y) = (pos / (w - 1) - w, pos % (w - 1));
        (y * w + x, (y + 1) * w + x)
    }
}

/// A block structure up to the next `,`: every cell's block id, and the block roots (first cells) in order.
fn blocks_desc(desc: &str, w: usize) -> Result<(Vec<String>, Vec<usize>, &str), Error> {
    let edges = 2 * w * w.saturating_sub(1);
    let mut classes = Classes::new(w * w);
    let mut pos = 0;
    let mut rest = desc;
    while let Some(c) = rest.chars().next() {
        let run = match c {
            ',' => break,
            '_' => 0,
            'a'..='z' => (c as u8 - b'a' + 1).min(25) as usize,
            _ => return Err(err(format!("unexpected {c:?} in a block structure"))),
        };
        rest = &rest[1..];
        let repeat = match leading_number(rest) {
            Some((k, r)) if rest.starts_with(|d: char| d.is_ascii_digit()) => {
                rest = r;
                k
            }
            _ => 1,
        };
        for _ in 0..repeat.min(edges + 1) {
            for _ in 0..run {
                if pos >= edges {
                    return Err(err("too much data in a block structure"));
                }
                let (a, b) = edge_cells(pos, w);
                classes.merge(a, b);
                pos += 1;
            }
            if c != 'z' {
                pos += 1;
            }
        }
    }
    if pos != edges + 1 {
        return Err(err("not enough data in a block structure"));
    }
    let (ids, roots) = classes.ids();
    Ok((ids, roots, rest))
}

fn expect_comma<'a>(rest: &'a str, what: &str) -> Result<&'a str, Error> {
    rest.strip_prefix(',')
        .ok_or_else(|| err(format!("expected `,` and {what}")))
}

fn expect_end(rest: &str) -> Result<(), Error> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(err(format!("unexpected {rest:?} at the end")))
    }
}

/// `solo`: `CxR` boxes C rows high and R columns wide (Tatham's `whichblock = (y/c)*c + x/r`), or `N` and `j` for
/// jigsaw; `x` diagonals; `k` killer cages with their sums.
fn solo(first: usize, flags: &str, desc: &str) -> Result<Json, Error> {
    let (mut c, mut r) = (first, first);
    let mut rest = flags;
    if let Some(s) = rest
        .strip_prefix('x')
        .filter(|s| s.starts_with(|d: char| d.is_ascii_digit()))
    {
        let (k, s) = leading_number(s).ok_or_else(|| err("bad box shape"))?;
        (r, rest) = (k, s);
    }
    let seen_r = rest.len() < flags.len();
    let (jigsaw, xtype, killer) = (rest.contains('j'), rest.contains('x'), rest.contains('k'));
    if jigsaw {
        if seen_r {
            c = c.saturating_mul(r);
        }
        r = 1;
    }
    let n = size(c.saturating_mul(r))?;
    let area = n * n;
    let (givens, mut rest) = grid_desc(desc, area, n as u64)?;
    let mut record = json!({"size": n, "givens": grid(&givens, n)});
    // A killer jigsaw is left untyped: see below.
    let mut kind = Some("sudoku");
    if r == 1 {
        let (ids, roots, after) = blocks_desc(expect_comma(rest, "the jigsaw regions")?, n)?;
        if roots.len() != n
            || roots
                .iter()
                .any(|r| ids.iter().filter(|&i| *i == ids[*r]).count() != n)
        {
            return Err(err(format!(
                "jigsaw regions must be {n} blocks of {n} cells"
            )));
        }
        kind = Some("jigsaw");
        record["regions"] = regions(&ids, n);
        if !killer {
            expect_end(after)?;
        }
        rest = after;
    } else {
        record["boxes"] = json!([c, r]);
    }
    if xtype {
        record["diagonals"] = json!(true);
    }
    if killer {
        let (ids, roots, after) = blocks_desc(expect_comma(rest, "the killer cages")?, n)?;
        let (sums, after) = grid_desc(
            expect_comma(after, "the cage sums")?,
            area,
            (n * area) as u64,
        )?;
        expect_end(after)?;
        let mut cages = Vec::new();
        for (k, &root) in roots.iter().enumerate() {
            let id = &ids[root];
            let cells: Vec<[usize; 2]> = (0..area)
                .filter(|&i| ids[i] == *id)
                .map(|i| [i / n, i % n])
                .collect();
            if !(2..=n).contains(&cells.len()) {
                return Err(err(format!(
                    "cage {} has {} cells; solo's cages have 2 to {n}",
                    k + 1,
                    cells.len()
                )));
            }
            let sum = cells.iter().map(|&[r, c]| sums[r * n + c]).max();
            let sum = sum
                .filter(|&s| s > 0)
                .ok_or_else(|| err(format!("cage {} has no sum", k + 1)))?;
            cages.push((id, cells, sum));
        }
        if r == 1 {
            // Jigsaw regions and cages are two region maps: the cages go as groups of cells with their sums,
            // and the record is left to take the type that fits (`jigsaw+killer-cages`).
            kind = None;
            record["lines"] =
                json!({"killercages": cages.iter().map(|(_, cells, _)| cells).collect::<Vec<_>>()});
            record["line_clues"] =
                json!({"killercages": cages.iter().map(|(.., sum)| sum).collect::<Vec<_>>()});
        } else {
            kind = Some("killer");
            record["regions"] = regions(&ids, n);
            let clues = cages
                .iter()
                .map(|(id, _, sum)| ((*id).clone(), json!(sum.to_string())));
            record["clues"] = Json::Object(clues.collect());
        }
    } else if r > 1 {
        expect_end(rest)?;
    }
    if let Some(kind) = kind {
        record["type"] = json!(kind);
    }
    Ok(record)
}

/// `keen`: the cages' structure, then a clue per cage in order of its first cell: `a` add, `m` multiply, `s`
/// subtract, `d` divide, and the number.
fn keen(n: usize, desc: &str) -> Result<Json, Error> {
    let (ids, roots, rest) = blocks_desc(desc, n)?;
    let mut rest = expect_comma(rest, "the cage clues")?;
    let mut clues = Map::new();
    for root in roots {
        let op = match rest.chars().next() {
            Some('a') => "+",
            Some('m') => "*",
            Some('s') => "-",
            Some('d') => "/",
            Some(c) => return Err(err(format!("unknown clue operator {c:?}"))),
            None => return Err(err("fewer clues than cages")),
        };
        let (k, r) = leading_number(&rest[1..]).ok_or_else(|| err("a clue without its number"))?;
        rest = r;
        clues.insert(ids[root].clone(), json!(format!("{k}{op}")));
    }
    expect_end(rest)?;
    Ok(json!({"type": "kenken", "size": n, "regions": regions(&ids, n), "clues": clues}))
}

/// `towers`: 4n clues split by `/` (top, bottom, left, right; empty = none), then optionally `,` and givens.
fn towers(n: usize, desc: &str) -> Result<Json, Error> {
    let (clues, givens) = match desc.split_once(',') {
        Some((c, g)) => (c, Some(g)),
        None => (desc, None),
    };
    let clues: Vec<u64> = clues
        .split('/')
        .map(|s| match s {
            "" => Ok(0),
            s => s
                .parse()
                .ok()
                .filter(|&k| k <= n as u64)
                .ok_or_else(|| err(format!("clue {s:?}"))),
        })
        .collect::<Result<_, _>>()?;
    if clues.len() != 4 * n {
        return Err(err(format!("{} clues, not {}", clues.len(), 4 * n)));
    }
    let side = |k: usize| json!(clues[k * n..(k + 1) * n]);
    let mut record = json!({"type": "skyscrapers", "size": n,
        "sky": {"top": side(0), "bottom": side(1), "left": side(2), "right": side(3)}});
    if let Some(g) = givens {
        let (values, rest) = grid_desc(g, n * n, n as u64)?;
        expect_end(rest)?;
        record["givens"] = grid(&values, n);
    }
    Ok(record)
}

/// Unequal's direction flags: letter, row step, column step.
const FLAGS: [(char, isize, isize); 4] = [('U', -1, 0), ('R', 0, 1), ('D', 1, 0), ('L', 0, -1)];

/// `unequal`: per cell its given (0 none) and flags `URDL` pointing at a smaller neighbour, `,` between cells;
/// in adjacent mode the flags mark neighbours that differ by 1, and every such pair is marked.
fn unequal(n: usize, adjacent: bool, desc: &str) -> Result<Json, Error> {
    let mut givens = vec![0; n * n];
    let mut pairs = BTreeSet::new();
    let (mut i, mut rest) = (0, desc);
    while !rest.is_empty() {
        while let Some(c) = rest.chars().next().filter(char::is_ascii_lowercase) {
            i += (c as u8 - b'a' + 1) as usize;
            rest = &rest[1..];
        }
        if i >= n * n {
            return Err(err(format!("more than {} cells", n * n)));
        }
        let (v, r) = leading_number(rest).ok_or_else(|| err("expected a number for each cell"))?;
        if v > n {
            return Err(err(format!("{v} is out of range 0..{n}")));
        }
        givens[i] = v as u64;
        rest = r;
        while let Some(&(_, dr, dc)) = FLAGS.iter().find(|f| rest.starts_with(f.0)) {
            let (row, col) = ((i / n) as isize + dr, (i % n) as isize + dc);
            if row < 0 || col < 0 || row >= n as isize || col >= n as isize {
                return Err(err(format!("a flag of cell {} points off the grid", i + 1)));
            }
            let other = row as usize * n + col as usize;
            // Not adjacent: this cell is the greater, so the pair is (smaller, greater).
            pairs.insert(if adjacent {
                (i.min(other), i.max(other))
            } else {
                (other, i)
            });
            rest = &rest[1..];
        }
        i += 1;
        if let Some(r) = rest.strip_prefix(',') {
            rest = r;
        } else if !rest.is_empty() {
            return Err(err(format!("unexpected {rest:?}")));
        }
    }
    if i < n * n {
        return Err(err(format!("{i} cells, not {}", n * n)));
    }
    let list: Vec<Json> = pairs
        .into_iter()
        .map(|(a, b)| json!([a / n, a % n, b / n, b % n]))
        .collect();
    let (kind, key) = if adjacent {
        ("consecutive", "consecutive")
    } else {
        ("futoshiki", "less")
    };
    let mut record = json!({"type": kind, "size": n, "givens": grid(&givens, n)});
    record[key] = Json::Array(list);
    Ok(record)
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

/// A record as a game ID, for the types one of the games plays.
pub(crate) fn encode(record: &Json) -> Result<String, Error> {
    let n = record["size"]
        .as_u64()
        .ok_or_else(|| err("the record has no size"))? as usize;
    let givens = match &record["givens"] {
        Json::Null => vec![0; n * n],
        g => numbers(g, n, "givens").map_err(err)?,
    };
    let kind = record["type"].as_str().unwrap_or_default();
    let diagonals = record["diagonals"].as_bool() == Some(true);
    const PLAYED: [&str; 8] = [
        "sudoku",
        "jigsaw",
        "killer",
        "jigsaw+killer-cages",
        "kenken",
        "skyscrapers",
        "futoshiki",
        "consecutive",
    ];
    let no_game = || {
        err(format!(
            "type {kind}: no Tatham game plays it (solo: sudoku, jigsaw, killer; keen: kenken; towers: skyscrapers; unequal: futoshiki, consecutive)"
        ))
    };
    // Checked first, so that what follows (rules, boxes) is said only of types a game plays.
    if !PLAYED.contains(&kind) {
        return Err(no_game());
    }
    // The games know no rule beyond their own (solo's `x` diagonals): an ID without one would be another
    // puzzle, with other solutions, so it is refused rather than written.
    if let Some(rule) = record["rules"].as_array().and_then(|r| r.first()) {
        let rule = rule.as_str().unwrap_or_default();
        return Err(err(format!("{kind} with {rule}: no Tatham game has it")));
    }
    if !record["boxes"].is_null() && !matches!(kind, "sudoku" | "killer") {
        return Err(err(format!("{kind} with boxes: no Tatham game has them")));
    }
    match kind {
        "sudoku" | "jigsaw" | "killer" | "jigsaw+killer-cages" => {
            solo_id(record, n, &givens, diagonals)
        }
        _ if diagonals => Err(err(format!(
            "{kind} with diagonals: no Tatham game has them"
        ))),
        "kenken" if givens.iter().any(|&v| v > 0) => Err(err("keen has no givens")),
        "kenken" => keen_id(record, n),
        "skyscrapers" => towers_id(record, n, &givens),
        "futoshiki" | "consecutive" => unequal_id(record, n, &givens, kind == "consecutive"),
        _ => Err(no_game()),
    }
}

/// Tatham's grid description.
fn grid_text(values: &[u64]) -> String {
    let mut out = String::new();
    let mut run = 0;
    for (i, &v) in values.iter().chain(std::iter::once(&u64::MAX)).enumerate() {
        if v == 0 {
            run += 1;
            continue;
        }
        if run > 0 {
            while run > 0 {
                let k = run.min(26);
                out.push((b'a' + k as u8 - 1) as char);
                run -= k;
            }
        } else if i > 0 && v != u64::MAX {
            out.push('_');
        }
        if v != u64::MAX {
            out += &v.to_string();
        }
    }
    out
}

/// Tatham's block structure description of a region map.
fn blocks_text(ids: &[String], w: usize) -> String {
    let edges = 2 * w * w.saturating_sub(1);
    let mut out = String::new();
    let mut run = 0;
    for pos in 0..=edges {
        let edge = pos == edges || {
            let (a, b) = edge_cells(pos, w);
            ids[a] != ids[b]
        };
        if !edge {
            run += 1;
            continue;
        }
        while run > 25 {
            out.push('z');
            run -= 25;
        }
        out.push(if run == 0 {
            '_'
        } else {
            (b'a' + run as u8 - 1) as char
        });
        run = 0;
    }
    out
}

fn region_map(record: &Json, n: usize) -> Result<Vec<String>, Error> {
    region_ids(&record["regions"], n).map_err(err)
}

fn solo_id(record: &Json, n: usize, givens: &[u64], diagonals: bool) -> Result<String, Error> {
    let x = if diagonals { "x" } else { "" };
    let mut desc = grid_text(givens);
    let kind = record["type"].as_str().unwrap_or_default();
    let params = if kind.starts_with("jigsaw") {
        desc = format!("{desc},{}", blocks_text(&region_map(record, n)?, n));
        format!("{n}j{x}")
    } else {
        let (c, r) = match record["boxes"].as_array().map(Vec::as_slice) {
            Some([c, r]) => (
                c.as_u64().unwrap_or(0) as usize,
                r.as_u64().unwrap_or(0) as usize,
            ),
            _ => return Err(err("solo needs the box shape")),
        };
        if c.saturating_mul(r) != n || r < 2 {
            return Err(err(format!(
                "boxes {c}x{r}: solo needs boxes at least 2 wide"
            )));
        }
        format!("{c}x{r}{x}")
    };
    let (ids, clues) = match kind {
        "killer" => (region_map(record, n)?, record["clues"].clone()),
        "jigsaw+killer-cages" => drawn_cages(record, n)?,
        _ => return Ok(format!("solo:{params}:{desc}")),
    };
    let mut sums = vec![0; n * n];
    let mut seen = BTreeSet::new();
    for (i, id) in ids.iter().enumerate() {
        if !seen.insert(id) {
            continue;
        }
        if ids.iter().filter(|&o| o == id).count() < 2 {
            return Err(err(format!(
                "cage {id} has one cell; solo's cages have 2 or more"
            )));
        }
        let clue = clues[id.as_str()].as_str().unwrap_or_default();
        sums[i] = clue
            .parse()
            .map_err(|_| err(format!("cage {id}: {clue:?} is not a sum")))?;
    }
    Ok(format!(
        "solo:{params}k:{desc},{},{}",
        blocks_text(&ids, n),
        grid_text(&sums)
    ))
}

/// Cages drawn as groups of cells (`jigsaw+killer-cages`) as solo's killer cages: a region map and a sum per
/// cage, when they tile the grid and each shows its sum (solo has no cell outside a cage, nor a cage without a
/// sum).
fn drawn_cages(record: &Json, n: usize) -> Result<(Vec<String>, Json), Error> {
    let cages = record["lines"]["cages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let sums = &record["line_clues"]["cages"];
    let mut ids = vec![String::new(); n * n];
    let mut clues = Map::new();
    for (k, cage) in cages.iter().enumerate() {
        let id = super::region_id(k);
        for cell in cage.as_array().into_iter().flatten() {
            let at = |i: usize| cell[i].as_u64().map(|v| v as usize).filter(|&v| v < n);
            let (Some(r), Some(c)) = (at(0), at(1)) else {
                return Err(err(format!("cage {}: a cell off the grid", k + 1)));
            };
            if !ids[r * n + c].is_empty() {
                return Err(err(format!("r{}c{} is in two cages", r + 1, c + 1)));
            }
            ids[r * n + c] = id.clone();
        }
        let sum = sums[k]
            .as_u64()
            .filter(|&s| s > 0)
            .ok_or_else(|| err(format!("cage {} shows no sum; solo's cages all do", k + 1)))?;
        clues.insert(id, json!(sum.to_string()));
    }
    if let Some(i) = ids.iter().position(String::is_empty) {
        return Err(err(format!(
            "r{}c{} is in no cage; solo's cages cover the grid",
            i / n + 1,
            i % n + 1
        )));
    }
    Ok((ids, Json::Object(clues)))
}

fn keen_id(record: &Json, n: usize) -> Result<String, Error> {
    let ids = region_map(record, n)?;
    let mut out = format!("keen:{n}:{},", blocks_text(&ids, n));
    let mut seen = BTreeSet::new();
    for id in &ids {
        if !seen.insert(id) {
            continue;
        }
        let clue = record["clues"][id.as_str()].as_str().unwrap_or_default();
        let cells = ids.iter().filter(|&o| o == id).count();
        let (number, op) = clue.split_at(clue.trim_end_matches(['+', '*', 'x', '-', '/']).len());
        let letter = match op {
            "+" => 'a',
            "*" | "x" => 'm',
            "-" if cells == 2 => 's',
            "/" if cells == 2 => 'd',
            "" if cells == 1 => 'a',
            _ => {
                return Err(err(format!(
                    "cage {id}: keen cannot say {clue:?} on {cells} cells"
                )))
            }
        };
        let k: u64 = number
            .parse()
            .map_err(|_| err(format!("cage {id}: clue {clue:?}")))?;
        out += &format!("{letter}{k}");
    }
    Ok(out)
}

fn towers_id(record: &Json, n: usize, givens: &[u64]) -> Result<String, Error> {
    let mut clues = Vec::with_capacity(4 * n);
    for side in ["top", "bottom", "left", "right"] {
        match &record["sky"][side] {
            Json::Null => clues.extend(std::iter::repeat_n(String::new(), n)),
            Json::Array(list) if list.len() == n => {
                clues.extend(list.iter().map(|v| match v.as_u64() {
                    Some(0) | None => String::new(),
                    Some(k) => k.to_string(),
                }));
            }
            _ => return Err(err(format!("sky.{side} is not {n} clues"))),
        }
    }
    let mut out = format!("towers:{n}:{}", clues.join("/"));
    if givens.iter().any(|&v| v > 0) {
        out += &format!(",{}", grid_text(givens));
    }
    Ok(out)
}

fn unequal_id(record: &Json, n: usize, givens: &[u64], adjacent: bool) -> Result<String, Error> {
    let key = if adjacent { "consecutive" } else { "less" };
    let mut flags = vec![BTreeSet::new(); n * n];
    for q in record[key].as_array().into_iter().flatten() {
        let q: Vec<usize> = q
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_u64())
            .map(|v| v as usize)
            .collect();
        let [r1, c1, r2, c2] = q[..] else {
            return Err(err(format!("{key}: {q:?} is not [r1, c1, r2, c2]")));
        };
        let (a, b) = (r1 * n + c1, r2 * n + c2);
        let towards = |from: usize, to: usize| {
            let (dr, dc) = (
                (to / n) as isize - (from / n) as isize,
                (to % n) as isize - (from % n) as isize,
            );
            FLAGS.iter().find(|f| (f.1, f.2) == (dr, dc)).map(|f| f.0)
        };
        let flag = towards(b, a).ok_or_else(|| err(format!("{key}: {q:?} are not neighbours")))?;
        // Not adjacent: the greater cell (b) points at the smaller; adjacent: both point at each other.
        flags[b].insert(flag);
        if adjacent {
            flags[a].insert(towards(a, b).expect("neighbours both ways"));
        }
    }
    let order = |f: &BTreeSet<char>| {
        FLAGS
            .iter()
            .filter(|x| f.contains(&x.0))
            .map(|x| x.0)
            .collect::<String>()
    };
    let cells: Vec<String> = (0..n * n)
        .map(|i| format!("{}{},", givens[i], order(&flags[i])))
        .collect();
    Ok(format!(
        "unequal:{n}{}:{}",
        if adjacent { "a" } else { "" },
        cells.concat()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_the_games_printed_read_as_their_types() {
        let solo =
            decode("solo:3x3:c6_5a4d1a7c6_5_4a2d9d2a3a4c3a6c7a9a1d9d2a1_3_4c9a7d3a6_7c").unwrap();
        assert_eq!(solo["type"], "sudoku");
        assert_eq!(solo["givens"][0], json!([0, 0, 0, 6, 5, 0, 4, 0, 0]));
        // Killer jigsaw: the cages as groups of cells with their sums, beside the jigsaw's regions; the type is
        // the one that fits both (`jigsaw+killer-cages`), chosen when the record is read.
        let jk = decode("solo:4jk:p,ba__a_a_b_bd,ab_a_aa______aaa,5a8a6a3a4b9_5c").unwrap();
        assert!(jk.get("type").is_none());
        assert_eq!(jk["regions"][0], json!(["a", "a", "a", "b"]));
        assert_eq!(jk["lines"]["killercages"][0], json!([[0, 0], [0, 1]]));
        assert_eq!(
            jk["line_clues"]["killercages"],
            json!([5, 8, 6, 3, 4, 9, 5])
        );
        let keen = decode(
            "keen:6:aab__b__a3__a_aa_4a_4aa_3a_3a_aab,s3s2d3m6d2a5m480a8s2m15s3a10m8a11d3d3",
        )
        .unwrap();
        assert_eq!(keen["clues"]["a"], "3-");
        let towers = decode("towers:5:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2").unwrap();
        assert_eq!(towers["sky"]["left"], json!([2, 3, 5, 2, 1]));
        let unequal = decode("unequal:4:0,0,0L,0,0U,0,0,0D,0,0U,0,0L,1,0U,0,0,").unwrap();
        // `0L` on row 1, column 3: it is greater than its left neighbour.
        assert!(unequal["less"]
            .as_array()
            .unwrap()
            .contains(&json!([0, 1, 0, 2])));
    }

    #[test]
    fn the_web_page_link_reads_like_the_id() {
        let link = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/towers.html#5:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2";
        assert_eq!(
            decode(link).unwrap(),
            decode("towers:5:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2").unwrap()
        );
    }

    #[test]
    fn every_id_writes_back_to_itself() {
        for id in [
            "solo:3x3:c6_5a4d1a7c6_5_4a2d9d2a3a4c3a6c7a9a1d9d2a1_3_4c9a7d3a6_7c",
            "solo:9j:6g5a9b4c2a3d1a8b7_2f2e9f3_8b3a8d7a8c2b5a7g6,ag__a_cad_bab_fa__ababacdaeccac_bbd____a__ba__d_aa__abbbab",
            "solo:3x3xk:zzzc,aa___ba___b____b______a______a______aa____b______aa_a____aa____b____aa_a_aaabaabaaaa_aaa______a______a,4a9a17_5_13_15a13a7d10a14a16_9a14_7b3_15b8a11_14c12_14a5a9a13c14a7_10b7a10a15a11a7a10a6a16_12_6_17h",
            "keen:6:aab__b__a3__a_aa_4a_4aa_3a_3a_aab,s3s2d3m6d2a5m480a8s2m15s3a10m8a11d3d3",
            "towers:5:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2",
            "unequal:5a:0,0R,0RDL,0L,0,0D,5,0URD,0DL,0D,0UR,0DL,0UR,2UDL,0U,0D,0UR,0DL,0UR,0DL,0UR,0L,0UR,0L,0U,",
        ] {
            let record = decode(id).unwrap();
            assert_eq!(decode(&encode(&record).unwrap()).unwrap(), record, "{id}");
        }
    }

    #[test]
    fn ids_without_their_game_read_as_the_game_that_writes_them() {
        for id in [
            "solo:3x3:c6_5a4d1a7c6_5_4a2d9d2a3a4c3a6c7a9a1d9d2a1_3_4c9a7d3a6_7c",
            "solo:9j:6g5a9b4c2a3d1a8b7_2f2e9f3_8b3a8d7a8c2b5a7g6,ag__a_cad_bab_fa__ababacdaeccac_bbd____a__ba__d_aa__abbbab",
            "keen:6:aab__b__a3__a_aa_4a_4aa_3a_3a_aab,s3s2d3m6d2a5m480a8s2m15s3a10m8a11d3d3",
            "keen:4:aa_b_a_a__a__a_a,m6m4m8m12m6m2m12",
            "keen:6dn:ba_3a_4aa_4a_3aabaa_aa_4a_4aa_b,m90d2m4a9s3s4d3d2s1a5a5a13m6s1s3m4",
            "towers:5:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2",
            "towers:5de:3/1/2/2/3/1/3/2/4/2/2/3/5/2/1/4/2/1/3/2",
            "unequal:4:0,0,0L,0,0U,0,0,0D,0,0U,0,0L,1,0U,0,0,",
            "unequal:5a:0,0R,0RDL,0L,0,0D,5,0URD,0DL,0D,0UR,0DL,0UR,2UDL,0U,0D,0UR,0DL,0UR,0DL,0UR,0L,0UR,0L,0U,",
        ] {
            let (game, bare) = id.split_once(':').unwrap();
            assert_eq!(split(bare).map(|(g, ..)| g), Some(game.to_owned()), "{bare}");
            assert!(recognises(bare), "{bare}");
        }
        // Text that only resembles an ID is not taken for one.
        for text in ["9:abc", "size: 9", "3x3", "x3:a_b", "9q:abc", "3:4 5,6"] {
            assert!(!recognises(text), "{text}");
        }
    }

    #[test]
    fn hostile_ids_are_errors() {
        for id in [
            "solo:3x3:",
            "solo:3x3#12345",
            "solo:3x3:zzzzzzzzzzzzz",
            "solo:3x3:a",
            "solo:3x3:99",
            "solo:0:a",
            "solo:300x300:a",
            "solo:99999999999x99999999999:a",
            "solo:99999999999x99999999999j:a",
            "solo:9j:zzzc,zzzzzzzzzzzzzzzzzzz",
            "solo:9j:zzzc,_9999999999999999_",
            "solo:9j:zzzc,_9999999999999999",
            // Killer jigsaw: the cage sums left out, a cage without its sum, the cages left out.
            "solo:4jk:p,ba__a_a_b_bd,ab_a_aa______aaa",
            "solo:4jk:p,ba__a_a_b_bd,ab_a_aa______aaa,5a8a6a3a4b9_",
            "solo:4jk:p,ba__a_a_b_bd",
            "keen:4:_,a",
            "keen:4:a99999999999999999999,a1",
            "towers:3:1/2",
            "towers:3:9/////////////",
            "unequal:3:0U,0,0,0,0,0,0,0,0,",
            "unequal:3:0,0,0",
            "unequal:2:0,0,0,0,0,0,",
        ] {
            assert!(decode(id).is_err(), "{id}");
        }
    }
}
