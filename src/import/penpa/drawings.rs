//! A Penpa+ drawing read as the f-puzzles constraints it stands for: the shapes Penpa+'s own Sudoku tools make,
//! each read once, and every other drawing refused by name.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value as Json};

use super::geometry::{Board, Point};
use crate::import::signs::SIGNS;
use crate::import::Classes;

/// A drawing latin does not read, described for the error.
pub(super) type Refusal = String;

/// Keys of the drawing that hold no puzzle: the editor's history.
const HISTORY: [&str; 3] = ["command_redo", "command_undo", "command_replay"];

/// The line styles of region borders: black, thick (2) and thicker (21), as Penpa+'s Sudoku grid draws its boxes.
const BORDER: [u64; 2] = [2, 21];

/// Thin black lines (grid (1) and thin (80)): drawn over the grid's own lines, they change nothing.
const THIN: [u64; 2] = [1, 80];

/// Circle styles filled white (`set_circle_style`: 1, 6, 8 and 10 with a black or grey rim), black (2), and
/// grey (3, 5, 9).
const WHITE: [u64; 4] = [1, 6, 8, 10];
const BLACK: u64 = 2;
const GREY: [u64; 3] = [3, 5, 9];

/// Penpa+'s save text as f-puzzles JSON.
pub(super) fn to_fpuzzles(text: &str) -> Result<Json, Refusal> {
    let lines: Vec<&str> = text.split('\n').collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let board = board(&header, lines.get(1).copied())?;
    let n = board.n;
    let drawing: Map<String, Json> = lines
        .get(3)
        .and_then(|l| serde_json::from_str(l).ok())
        .ok_or("the link has no drawing of the puzzle (its fourth line is not Penpa+'s JSON)")?;
    // Custom colours (Penpa+'s `pu_q_col`), by part and key, where the setter chose one.
    let colours: Json = lines
        .get(14)
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(Json::Null);
    let mut out = json!({"size": n, "grid": vec![vec![json!({}); n]; n]});
    about(&header, &mut out);
    let mut reader = Reader {
        board,
        out,
        drawing,
        labels: Vec::new(),
        outside: Vec::new(),
    };
    reader.numbers()?;
    reader.edge_clues()?;
    reader.lines()?;
    reader.cages()?;
    reader.paths("thermo", "thermometer")?;
    reader.paths("arrows", "arrow")?;
    reader.symbols()?;
    reader.coloured_lines(&colours["line"])?;
    reader.rest()?;
    crate::import::globals::read(&mut reader.out)?;
    crate::import::coloured::read(&mut reader.out)?;
    Ok(reader.out)
}

/// The grid of a header (`square,nx,ny,size,theta,reflect,reflect,...`) and its `space` line.
fn board(header: &[&str], space: Option<&str>) -> Result<Board, Refusal> {
    let kind = header[0];
    if kind.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(
            "a link in Penpa's first save format, which latin does not read: open it in Penpa+ and share it again"
                .into(),
        );
    }
    if !matches!(kind, "square" | "sudoku") {
        return Err(format!(
            "a `{kind}` grid: latin reads Penpa+'s square and Sudoku grids"
        ));
    }
    let field = |k: usize| header.get(k).and_then(|t| t.trim().parse::<usize>().ok());
    let (Some(nx), Some(ny)) = (field(1), field(2)) else {
        return Err("the header has no grid size".into());
    };
    // Bands of outside clues are a few cells wide; past this no grid of up to 255 cells a side is left.
    if nx.max(ny) > 1024 {
        return Err(format!(
            "a {nx}x{ny} board: latin reads grids up to 255 cells a side"
        ));
    }
    if (field(4), field(5), field(6)) != (Some(0), Some(1), Some(1)) {
        return Err("a grid Penpa+ shows turned or mirrored: latin reads it as drawn, so turn it back first".into());
    }
    let space: [usize; 4] = space
        .and_then(|s| serde_json::from_str(s).ok())
        .ok_or("the link has no `space` line (four numbers)")?;
    let board = Board::new(nx, ny, space).filter(|b| b.n <= 255);
    board.ok_or_else(|| {
        format!("a {nx}x{ny} board with bands of {space:?} leaves no square grid of 1 to 255 cells a side")
    })
}

/// Title, author and rules from the header (Penpa+ writes `%2C` for commas in them).
fn about(header: &[&str], out: &mut Json) {
    let field = |k: usize, prefix: &str| {
        let text = header.get(k)?.strip_prefix(prefix).unwrap_or(header[k]);
        let text = text
            .replace("%2C", ",")
            .replace("%2D", "\n")
            .replace("%2E", "&")
            .replace("%2F", "=");
        Some(text.trim().to_owned()).filter(|t| !t.is_empty())
    };
    for (k, prefix, key) in [
        (15, "Title:", "title"),
        (16, "Author:", "author"),
        (18, "", "ruleset"),
    ] {
        if let Some(text) = field(k, prefix) {
            out[key] = json!(text);
        }
    }
}

/// `R3C4` for (2, 3), as f-puzzles names cells.
fn name([r, c]: [usize; 2]) -> String {
    crate::import::fpuzzles::cell_name(r, c)
}

/// `r3c4`, as an error names a cell.
fn said([r, c]: [usize; 2]) -> String {
    format!("r{}c{}", r + 1, c + 1)
}

/// Whether a part of the drawing holds nothing (Penpa+ leaves `null` where something was deleted).
fn empty(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::Object(m) => m.is_empty(),
        Json::Array(a) => a.iter().all(empty),
        _ => false,
    }
}

struct Reader {
    board: Board,
    out: Json,
    drawing: Map<String, Json>,
    /// Outside cells with a label of letters (contest sites mark the rows whose digits make the answer key):
    /// no clue, so their marks are passed over too.
    labels: Vec<usize>,
    /// Numbers outside the grid: grid row and column, and the number's text.
    outside: Vec<(isize, isize, String)>,
}

/// The f-puzzles keys of outside clues, and the words of a rules text that name each kind.
const EDGE_CLUES: [(&str, &[&str]); 4] = [
    ("sandwichsum", &["sandwich"]),
    ("skyscraper", &["skyscraper"]),
    ("xsum", &["x-sum", "x sum"]),
    ("battlefield", &["battlefield"]),
];

impl Reader {
    /// Takes a part of the drawing out, so that what is left at the end was not read.
    fn take(&mut self, key: &str) -> Json {
        self.drawing.remove(key).unwrap_or(Json::Null)
    }

    /// Entries of a map part (`{"point": value}`) with their points, and each point's number.
    fn entries(&mut self, key: &str) -> Result<Vec<(Point, Json, usize)>, Refusal> {
        let part = self.take(key);
        let Json::Object(map) = part else {
            return if empty(&part) {
                Ok(Vec::new())
            } else {
                Err(format!("`{key}` is not Penpa+'s map of points"))
            };
        };
        let mut out = Vec::with_capacity(map.len());
        for (k, v) in map {
            let at = k
                .parse::<usize>()
                .map_err(|_| format!("`{key}`: {k} is not a point"))?;
            if !empty(&v) {
                out.push((self.board.point(at), v, at));
            }
        }
        Ok(out)
    }

    fn push(&mut self, key: &str, entry: Json) {
        match self.out[key].as_array_mut() {
            Some(list) => list.push(entry),
            None => self.out[key] = json!([entry]),
        }
    }

    /// Given digits in the cells (Penpa+'s normal-sized numbers), X and V on the edges between cells, and labels
    /// of letters outside the grid (passed over).
    fn numbers(&mut self) -> Result<(), Refusal> {
        let n = self.board.n;
        for (point, v, at) in self.entries("number")? {
            let text = v[0].as_str().unwrap_or_default().trim().to_owned();
            if text.is_empty() {
                continue;
            }
            match point {
                Point::Outside(r, c) if text.contains(|c: char| c.is_ascii_digit()) => {
                    self.outside.push((r, c, text))
                }
                Point::Outside(..) => self.labels.push(at),
                Point::Cell(r, c) if v[2].as_str() == Some("1") => {
                    let value = text
                        .parse::<u64>()
                        .ok()
                        .filter(|d| (1..=n as u64).contains(d));
                    let value = value.ok_or_else(|| {
                        format!("`{text}` in {}: givens are digits 1 to {n}", said([r, c]))
                    })?;
                    self.out["grid"][r][c]["value"] = json!(value);
                    self.out["grid"][r][c]["given"] = json!(true);
                }
                Point::Edge(a, b) if matches!(text.as_str(), "X" | "V" | "x" | "v") => {
                    let value = text.to_ascii_uppercase();
                    self.push("xv", json!({"cells": [name(a), name(b)], "value": value}));
                }
                Point::Cell(r, c) => {
                    return Err(format!(
                        "`{text}` written small or in another style in {}: latin reads givens in Penpa+'s normal size",
                        said([r, c])
                    ))
                }
                _ => {
                    return Err(format!(
                        "the number `{text}` drawn off the cells (outside the grid, or on a line or corner): its rule is in the rules text alone"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Numbers in the cells beside the grid as the outside clues the rules text names: sandwich sums,
    /// skyscraper counts, x-sums or battlefield clues, when it names exactly one of them (Penpa+'s Sudoku grid
    /// makes the bands for them, the rules text alone says which they are).
    fn edge_clues(&mut self) -> Result<(), Refusal> {
        let Some((r, c, text)) = self.outside.first() else {
            return Ok(());
        };
        let rules = self.out["ruleset"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase();
        let named: Vec<&str> = EDGE_CLUES
            .iter()
            .filter(|(_, words)| words.iter().any(|w| rules.contains(w)))
            .map(|(key, _)| *key)
            .collect();
        let [key] = named[..] else {
            return Err(format!(
                "the number `{text}` outside the grid at row {}, column {}: latin reads outside numbers as sandwich, skyscraper, x-sum or battlefield clues when the rules text names one of those alone",
                r + 1,
                c + 1
            ));
        };
        let n = self.board.n as isize;
        for (r, c, text) in std::mem::take(&mut self.outside) {
            let beside = |k: isize| (0..n).contains(&k);
            let (row, col) = match (r, c) {
                (-1, c) if beside(c) => (0, c + 1),
                (r, c) if r == n && beside(c) => (n + 1, c + 1),
                (r, -1) if beside(r) => (r + 1, 0),
                (r, c) if c == n && beside(r) => (r + 1, n + 1),
                _ => {
                    return Err(format!(
                    "the number `{text}` outside the grid but not beside it, at row {}, column {}",
                    r + 1,
                    c + 1
                ))
                }
            };
            self.push(key, json!({"cell": format!("R{row}C{col}"), "value": text}));
        }
        Ok(())
    }

    /// Thick lines between cells as regions (none: a Latin square), and the dotted main diagonals.
    fn lines(&mut self) -> Result<(), Refusal> {
        let (board, n) = (self.board, self.board.n);
        let mut borders = Vec::new();
        let mut diagonal = [vec![false; n], vec![false; n]];
        for (key, style) in self.take("lineE").as_object().into_iter().flatten() {
            let style = style.as_u64().unwrap_or(0);
            let ends = ends(key);
            let (Some((a, b)), true) = (ends, style != 0) else {
                continue;
            };
            let (Point::Vertex(x1, y1), Point::Vertex(x2, y2)) = (board.point(a), board.point(b))
            else {
                return Err(format!(
                    "an edge line {key} that does not join two corners of cells"
                ));
            };
            let ((x1, y1), (x2, y2)) = ((x1, y1).min((x2, y2)), (x1, y1).max((x2, y2)));
            let (r1, c1) = board.corner_in_grid(x1, y1);
            let inside =
                |r: isize, c: isize| (0..n as isize).contains(&r) && (0..n as isize).contains(&c);
            let cell = |r: isize, c: isize| [r as usize, c as usize];
            match (x2 - x1, y2 as isize - y1 as isize) {
                // Down a column boundary (the cells left and right of it) or along a row boundary (above and
                // below).
                (0, 1) | (1, 0) => {
                    let before = if x1 == x2 { (r1, c1 - 1) } else { (r1 - 1, c1) };
                    let (a, b) = (inside(before.0, before.1), inside(r1, c1));
                    if a && b && BORDER.contains(&style) {
                        borders.push((cell(before.0, before.1), cell(r1, c1)));
                    } else if !((a || b) && (BORDER.contains(&style) || THIN.contains(&style))) {
                        // Thin lines over the grid's own, and thick ones on its frame, change nothing.
                        return Err(line_refused(style, key));
                    }
                }
                // Corner to corner through one cell: falling (top-left to bottom-right) or rising.
                (1, dy @ (1 | -1)) => {
                    let (r, c) = if dy == 1 { (r1, c1) } else { (r1 - 1, c1) };
                    let on = if dy == 1 {
                        r == c
                    } else {
                        r + c == n as isize - 1
                    };
                    if !inside(r, c) || !on {
                        return Err(format!(
                            "a diagonal line {key} off the grid's two main diagonals: its rule is in the rules text alone"
                        ));
                    }
                    diagonal[usize::from(dy == -1)][r as usize] = true;
                }
                _ => return Err(line_refused(style, key)),
            }
        }
        self.regions(&borders)?;
        for (k, key) in ["diagonal-", "diagonal+"].into_iter().enumerate() {
            match diagonal[k].iter().filter(|&&d| d).count() {
                0 => {}
                m if m == n => self.out[key] = json!(true),
                m => {
                    return Err(format!(
                        "a line along {m} of the {n} cells of a main diagonal: latin's diagonals hold 1 to {n} end to end"
                    ))
                }
            }
        }
        Ok(())
    }

    /// The regions the borders cut the grid into: n of n cells each, or one (a Latin square).
    fn regions(&mut self, borders: &[([usize; 2], [usize; 2])]) -> Result<(), Refusal> {
        let n = self.board.n;
        let mut classes = Classes::new(n * n);
        let cut: std::collections::HashSet<_> = borders.iter().copied().collect();
        for r in 0..n {
            for c in 0..n {
                for next in [[r + 1, c], [r, c + 1]] {
                    if next[0] < n && next[1] < n && !cut.contains(&([r, c], next)) {
                        classes.merge(r * n + c, next[0] * n + next[1]);
                    }
                }
            }
        }
        if let Some((a, b)) = borders
            .iter()
            .find(|([r, c], [r2, c2])| classes.root(r * n + c) == classes.root(r2 * n + c2))
        {
            return Err(format!(
                "a thick line between {} and {} that closes no region",
                said(*a),
                said(*b)
            ));
        }
        let (_, roots) = classes.ids();
        let mut index = vec![0; n * n];
        roots.iter().enumerate().for_each(|(k, &r)| index[r] = k);
        let region_of: Vec<usize> = (0..n * n).map(|i| index[classes.root(i)]).collect();
        let mut sizes = vec![0; roots.len()];
        region_of.iter().for_each(|&k| sizes[k] += 1);
        if roots.len() != 1 && (roots.len() != n || sizes.iter().any(|&s| s != n)) {
            return Err(format!(
                "the thick lines cut the grid into {} regions of {sizes:?} cells, not {n} regions of {n}",
                roots.len()
            ));
        }
        for (i, &k) in region_of.iter().enumerate() {
            self.out["grid"][i / n][i % n]["region"] = match roots.len() {
                1 => Json::Null,
                _ => json!(k),
            };
        }
        Ok(())
    }

    /// Killer cages (Penpa+ keeps each cage's cells) with their sums, small numbers in a corner of one of
    /// their cells. The dashed outlines (`cage`) are how Penpa+ draws them; without cages they say nothing latin
    /// can read.
    fn cages(&mut self) -> Result<(), Refusal> {
        let cages = self.take("killercages");
        let outlines = self.take("cage");
        if empty(&cages) && !empty(&outlines) {
            return Err("dashed cage lines drawn without Penpa+'s killer cages: draw the cages with its Killer tool".into());
        }
        let mut cage_of = BTreeMap::new();
        let mut cells_of = Vec::new();
        for cage in cages.as_array().into_iter().flatten().filter(|c| !empty(c)) {
            let cells = self.cells(cage, "a killer cage")?;
            for &cell in &cells {
                if cage_of.insert(cell, cells_of.len()).is_some() {
                    return Err(format!("{} is in two killer cages", said(cell)));
                }
            }
            cells_of.push(cells);
        }
        let mut sums: Vec<Option<String>> = vec![None; cells_of.len()];
        for (point, v, _) in self.entries("numberS")? {
            let text = v[0].as_str().unwrap_or_default().trim().to_owned();
            if text.is_empty() {
                continue;
            }
            let Point::Corner(cell, _) = point else {
                return Err(format!("the small number `{text}` off the cells' corners"));
            };
            let Some(&k) = cage_of.get(&cell) else {
                return Err(format!(
                    "the small number `{text}` in a corner of {}, in no killer cage: its rule is in the rules text alone",
                    said(cell)
                ));
            };
            if sums[k].replace(text).is_some() {
                return Err(format!("two sums in the killer cage of {}", said(cell)));
            }
        }
        for (cells, sum) in cells_of.into_iter().zip(sums) {
            let names: Vec<String> = cells.into_iter().map(name).collect();
            let entry = match sum {
                Some(sum) => json!({"cells": names, "value": sum}),
                None => json!({"cells": names}),
            };
            self.push("killercage", entry);
        }
        Ok(())
    }

    /// A list of cell centres as grid cells.
    fn cells(&self, list: &Json, what: &str) -> Result<Vec<[usize; 2]>, Refusal> {
        let points = list
            .as_array()
            .ok_or_else(|| format!("{what} is not a list of cells"))?;
        points
            .iter()
            .map(|p| match p.as_u64().map(|k| self.board.point(k as usize)) {
                Some(Point::Cell(r, c)) => Ok([r, c]),
                _ => Err(format!("{what} through {p}, not a cell of the grid")),
            })
            .collect()
    }

    /// Thermometers (bulb first) and arrows (circle first), as f-puzzles draws them.
    fn paths(&mut self, key: &str, fkey: &str) -> Result<(), Refusal> {
        let what = if key == "thermo" {
            "a thermometer"
        } else {
            "an arrow"
        };
        for path in self
            .take(key)
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| !empty(p))
        {
            let cells: Vec<String> = self.cells(path, what)?.into_iter().map(name).collect();
            if cells.len() < 2 {
                return Err(format!("{what} of one cell, at {}", cells[0]));
            }
            let entry = match fkey {
                "arrow" => json!({"cells": [cells[0]], "lines": [cells]}),
                _ => json!({"lines": [cells]}),
            };
            self.push(fkey, entry);
        }
        Ok(())
    }

    /// Dots on edges (white: differ by 1; black: one is double), inequality signs on edges, grey circles (odd)
    /// and squares (even) in cells, and white circles where an arrow's circle already is.
    fn symbols(&mut self) -> Result<(), Refusal> {
        let circles: Vec<Json> = self.out["arrow"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| a["cells"][0].clone())
            .collect();
        for (point, v, at) in self.entries("symbol")? {
            let (style, shape) = (
                v[0].as_u64().unwrap_or(0),
                v[1].as_str().unwrap_or_default(),
            );
            if self.labels.contains(&at) {
                continue;
            }
            let small = matches!(shape, "circle_SS" | "circle_S");
            let large = |kind: &str| shape == format!("{kind}_L") || shape == format!("{kind}_M");
            match point {
                Point::Edge(a, b) if small && WHITE.contains(&style) => {
                    self.push("difference", json!({"cells": [name(a), name(b)]}))
                }
                Point::Edge(a, b) if small && style == BLACK => {
                    self.push("ratio", json!({"cells": [name(a), name(b)]}))
                }
                Point::Edge(a, b) if shape == "inequality" => {
                    self.push(SIGNS, json!(ordered(a, b, style)?))
                }
                Point::Cell(r, c) if large("circle") && GREY.contains(&style) => {
                    self.push("odd", json!({"cell": name([r, c])}))
                }
                Point::Cell(r, c) if large("square") && GREY.contains(&style) => {
                    self.push("even", json!({"cell": name([r, c])}))
                }
                Point::Cell(r, c)
                    if large("circle") && WHITE.contains(&style) && circles.contains(&json!(name([r, c]))) => {}
                Point::Cell(r, c) => {
                    return Err(format!(
                        "a `{shape}` symbol (style {style}) in {}: its rule is in the rules text alone",
                        said([r, c])
                    ))
                }
                _ => {
                    return Err(format!(
                        "a `{shape}` symbol (style {style}) off the cells, or on an edge as no kropki dot is"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Lines through the cells' centres (Penpa+'s line tool, in any style or custom colour), joined into one
    /// path per piece of each colour, as f-puzzles' cosmetic lines: the rules text says what each colour means
    /// ([`crate::import::coloured`]). A piece that branches or closes on itself is refused: a coloured line is
    /// read as one path.
    fn coloured_lines(&mut self, custom: &Json) -> Result<(), Refusal> {
        let board = self.board;
        let mut by_colour: Vec<(String, Vec<[[usize; 2]; 2]>)> = Vec::new();
        for (key, style) in self.take("line").as_object().into_iter().flatten() {
            let style = style.as_u64().unwrap_or(0);
            if style == 0 && custom[key].is_null() {
                // Nothing drawn there, as with edge lines.
                continue;
            }
            let ends = ends(key);
            let segment = ends.and_then(|(a, b)| match (board.point(a), board.point(b)) {
                (Point::Cell(r1, c1), Point::Cell(r2, c2))
                    if r1.abs_diff(r2) <= 1 && c1.abs_diff(c2) <= 1 && (r1, c1) != (r2, c2) =>
                {
                    Some([[r1, c1], [r2, c2]])
                }
                _ => None,
            });
            let Some(segment) = segment else {
                return Err(format!(
                    "a line {key} that does not join the centres of two neighbouring cells: its rule is in the rules text alone"
                ));
            };
            let colour = custom[key]
                .as_str()
                .map(str::to_owned)
                .or_else(|| line_colour(style).map(str::to_owned))
                .ok_or_else(|| format!("a line of style {style} from {}, a style latin does not know the colour of", said(segment[0])))?
                .to_ascii_uppercase();
            match by_colour.iter_mut().find(|(c, _)| *c == colour) {
                Some((_, segments)) => segments.push(segment),
                None => by_colour.push((colour, vec![segment])),
            }
        }
        for (colour, segments) in by_colour {
            for path in paths(&segments)? {
                let cells: Vec<String> = path.into_iter().map(name).collect();
                self.push(
                    "line",
                    json!({"lines": [cells], "outlineC": colour, "width": 0.25}),
                );
            }
        }
        Ok(())
    }

    /// Whatever is left with content was not read: refused by name.
    fn rest(&mut self) -> Result<(), Refusal> {
        let left = self
            .drawing
            .iter()
            .find(|(k, v)| !HISTORY.contains(&k.as_str()) && !empty(v));
        match left {
            Some((key, _)) => Err(format!(
                "the drawing has `{key}` (lines, shading, frames or other marks), whose rule is in the rules text alone"
            )),
            None => Ok(()),
        }
    }
}

/// The two points a line's key (`"a,b"`) joins.
fn ends(key: &str) -> Option<(usize, usize)> {
    key.split_once(',')
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
}

/// The colour Penpa+ draws a line style in when the setter chose none (`default_line_style_color`, with
/// `Color` of Penpa+'s `style.js`): black, green, grey, red and light blue, and darker greys.
fn line_colour(style: u64) -> Option<&'static str> {
    Some(match style {
        1 | 2 | 10 | 13 | 16 | 17 | 21 | 80 => "#000000",
        3 | 30 => "#208020",
        5 | 40 => "#999999",
        7 | 14 | 15 => "#777777",
        8 => "#FF0000",
        9 => "#187BCD",
        12 => "#444444",
        _ => return None,
    })
}

/// The segments of one colour as paths, one per connected piece, each from one end to the other.
fn paths(segments: &[[[usize; 2]; 2]]) -> Result<Vec<Vec<[usize; 2]>>, Refusal> {
    let mut next: BTreeMap<[usize; 2], Vec<[usize; 2]>> = BTreeMap::new();
    for &[a, b] in segments {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default().push(a);
    }
    if let Some((cell, _)) = next.iter().find(|(_, to)| to.len() > 2) {
        return Err(format!(
            "a coloured line that branches at {}: latin reads each coloured line as one path",
            said(*cell)
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (&start, _) in next.iter().filter(|(_, to)| to.len() == 1) {
        if seen.contains(&start) {
            continue;
        }
        let mut path = vec![start];
        seen.insert(start);
        while let Some(&step) = next[path.last().expect("a cell")]
            .iter()
            .find(|c| !seen.contains(*c))
        {
            seen.insert(step);
            path.push(step);
        }
        out.push(path);
    }
    if let Some(cell) = next.keys().find(|c| !seen.contains(*c)) {
        return Err(format!(
            "a coloured line that closes on itself through {}: latin reads each coloured line as one path with two ends",
            said(*cell)
        ));
    }
    Ok(out)
}

fn line_refused(style: u64, key: &str) -> Refusal {
    format!(
        "an edge line of style {style} at {key}: latin reads thick black lines between cells as region borders, and nothing else drawn along the edges"
    )
}

/// The pair an inequality sign on the edge between `a` and `b` (the upper or left cell first) orders, the smaller
/// cell first. Penpa+ draws sign `k` (1 to 4 filled, 5 to 8 open, as its Sudoku tools draw them) with its tip
/// toward the left, up, right and down in turn; a sign pointing along the edge points to neither cell.
fn ordered(a: [usize; 2], b: [usize; 2], k: u64) -> Result<[usize; 4], Refusal> {
    let toward = k.wrapping_sub(1) % 4;
    let side_by_side = a[0] == b[0];
    match (side_by_side, toward) {
        _ if !(1..=8).contains(&k) => Err(format!(
            "an inequality sign of kind {k}, which Penpa+ does not draw"
        )),
        (true, 0) | (false, 1) => Ok([a[0], a[1], b[0], b[1]]),
        (true, 2) | (false, 3) => Ok([b[0], b[1], a[0], a[1]]),
        _ => Err(format!(
            "an inequality sign between {} and {} that points along their edge, to neither",
            name(a),
            name(b)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A save text of an n x n grid (no space bands unless given) with this drawing and rules text.
    fn save(n: usize, space: [usize; 4], rules: &str, drawing: Json) -> String {
        let (nx, ny) = (n + space[2] + space[3], n + space[0] + space[1]);
        format!(
            "sudoku,{nx},{ny},38,0,1,1,0,0,0,0,0,0,0,0,Title: T,Author: A,,{rules},OFF,false\n{}\n[]\n{drawing}\n",
            json!(space)
        )
    }

    fn read(drawing: Json) -> Result<Json, Refusal> {
        to_fpuzzles(&save(4, [0; 4], "", drawing))
    }

    /// An inequality sign on an edge orders its cells by where its tip points, filled or open; one pointing
    /// along its edge is refused.
    #[test]
    fn inequality_signs_on_edges_order_their_cells() {
        let b = Board::plain(4);
        let (row, column) = (b.edge([1, 1], [1, 2]), b.edge([1, 1], [2, 1]));
        for (edge, k, want) in [
            (row, 1, Some([1, 1, 1, 2])),
            (row, 5, Some([1, 1, 1, 2])),
            (row, 3, Some([1, 2, 1, 1])),
            (row, 7, Some([1, 2, 1, 1])),
            (row, 6, None),
            (column, 2, Some([1, 1, 2, 1])),
            (column, 6, Some([1, 1, 2, 1])),
            (column, 8, Some([2, 1, 1, 1])),
            (column, 4, Some([2, 1, 1, 1])),
            (column, 5, None),
        ] {
            let read = read(json!({"symbol": {edge.to_string(): [k, "inequality", 2]}}));
            match want {
                Some(pair) => assert_eq!(read.unwrap()[SIGNS], json!([pair]), "{k}"),
                None => assert!(read.unwrap_err().contains("to neither"), "{k}"),
            }
        }
    }

    #[test]
    fn every_drawing_latin_does_not_read_is_refused_by_name() {
        let b = Board::plain(4);
        let corner = |r: usize, c: usize| b.top_left(r, c);
        let (x, y) = corner(1, 1);
        let cases = [
            (
                json!({"line": {"20,21": 3}}),
                "what green lines (#208020, the first from r1c3) mean",
            ),
            (json!({"surface": {"20": 1}}), "`surface`"),
            (
                json!({"number": {"0": ["5", 1, "1"]}}),
                "names one of those alone",
            ),
            (
                json!({"number": {b.edge([0, 0], [0, 1]).to_string(): ["3", 1, "1"]}}),
                "off the cells",
            ),
            (
                json!({"number": {b.cell(0, 0).to_string(): ["5", 1, "5"]}}),
                "normal size",
            ),
            (
                json!({"number": {b.cell(0, 0).to_string(): ["9", 1, "1"]}}),
                "givens are digits 1 to 4",
            ),
            (
                json!({"symbol": {b.cell(0, 0).to_string(): [1, "star", 2]}}),
                "`star`",
            ),
            (
                json!({"symbol": {b.cell(0, 0).to_string(): [1, "circle_L", 2]}}),
                "`circle_L`",
            ),
            (
                json!({"lineE": {format!("{},{}", b.vertex(x, y), b.vertex(x, y + 1)): 8}}),
                "style 8",
            ),
            (
                json!({"lineE": {format!("{},{}", b.vertex(x, y), b.vertex(x + 1, y + 1)): 12}}),
                "along 1 of the 4 cells",
            ),
            (
                json!({"lineE": {format!("{},{}", b.vertex(x + 1, y), b.vertex(x + 2, y + 1)): 12}}),
                "off the grid's two main diagonals",
            ),
            (
                json!({"numberS": {b.corner(0, 0, 0).to_string(): ["7", 1]}}),
                "in no killer cage",
            ),
            (json!({"cage": {"900,901": 10}}), "Killer tool"),
            (json!({"thermo": [[b.cell(0, 0)]]}), "of one cell"),
            (
                json!({"arrows": [[b.cell(0, 0), 3]]}),
                "not a cell of the grid",
            ),
            (
                json!({"killercages": [[b.cell(0, 0)], [b.cell(0, 0)]]}),
                "in two killer cages",
            ),
        ];
        // Coloured lines are read as paths: one that branches, or closes on itself, is refused.
        let segments = |cells: &[([usize; 2], [usize; 2])]| {
            let map: Map<String, Json> = cells
                .iter()
                .map(|&([r1, c1], [r2, c2])| {
                    (format!("{},{}", b.cell(r1, c1), b.cell(r2, c2)), json!(3))
                })
                .collect();
            json!({ "line": map })
        };
        let branched = segments(&[([0, 0], [0, 1]), ([0, 1], [0, 2]), ([0, 1], [1, 1])]);
        let closed = segments(&[
            ([0, 0], [0, 1]),
            ([0, 1], [1, 1]),
            ([1, 1], [1, 0]),
            ([0, 0], [1, 0]),
        ]);
        let cases = cases
            .into_iter()
            .chain([(branched, "branches at r1c2"), (closed, "closes on itself")]);
        for (drawing, says) in cases {
            let e = read(drawing.clone()).unwrap_err();
            assert!(e.contains(says), "{drawing}: {e}");
        }
        // A thick line down the middle of rows 1 and 2 alone closes no region: refused, not read as a Latin
        // square; closed off from the rest, the left half is one region of 8 cells.
        let mut lines = Map::new();
        for r in 0..2 {
            let (x, y) = corner(r, 2);
            lines.insert(
                format!("{},{}", b.vertex(x, y), b.vertex(x, y + 1)),
                json!(2),
            );
        }
        let e = read(json!({"lineE": lines.clone()})).unwrap_err();
        assert!(
            e.contains("between r1c2 and r1c3 that closes no region"),
            "{e}"
        );
        for r in 2..4 {
            let (x, y) = corner(r, 2);
            lines.insert(
                format!("{},{}", b.vertex(x, y), b.vertex(x, y + 1)),
                json!(2),
            );
        }
        let e = read(json!({"lineE": lines})).unwrap_err();
        assert!(e.contains("2 regions of [8, 8] cells"), "{e}");
        for (header, says) in [
            ("square,4,4,38,90,1,1", "turned or mirrored"),
            ("hex,4,4,38,0,1,1", "square and Sudoku"),
            ("2,4,4", "first save format"),
            ("square,100000,4,38,0,1,1", "up to 255"),
            ("square,5,4,38,0,1,1", "no square grid"),
        ] {
            let e = to_fpuzzles(&format!("{header}\n[0,0,0,0]\n[]\n{{}}\n")).unwrap_err();
            assert!(e.contains(says), "{header}: {e}");
        }
    }

    #[test]
    fn what_penpa_draws_for_sudoku_is_read() {
        let b = Board::new(6, 5, [1, 0, 1, 1]).unwrap();
        assert_eq!(b.n, 4);
        // Boxes of 2x2: thick lines between columns 2 and 3 and between rows 2 and 3, the frame thick too.
        let mut lines = Map::new();
        for k in 0..4 {
            let (x, y) = b.top_left(k, 2);
            lines.insert(
                format!("{},{}", b.vertex(x, y), b.vertex(x, y + 1)),
                json!(2),
            );
            let (x, y) = b.top_left(2, k);
            lines.insert(
                format!("{},{}", b.vertex(x + 1, y), b.vertex(x, y)),
                json!(21),
            );
            let (x, y) = b.top_left(0, k);
            lines.insert(
                format!("{},{}", b.vertex(x, y), b.vertex(x + 1, y)),
                json!(2),
            );
        }
        let label = 1;
        let drawing = json!({
            "number": {
                b.cell(0, 0).to_string(): ["1", 1, "1"],
                b.edge([1, 1], [1, 2]).to_string(): ["X", 1, "1"],
                label.to_string(): ["A", 4, "6"],
            },
            "symbol": {
                label.to_string(): [7, "arrow_Short", 2],
                b.edge([2, 0], [3, 0]).to_string(): [2, "circle_SS", 2],
                b.cell(3, 3).to_string(): [3, "square_L", 2],
            },
            "lineE": lines,
            "killercages": [[b.cell(1, 0), b.cell(2, 0)], null, []],
            "numberS": {b.corner(1, 0, 0).to_string(): [" 5", 1]},
            "cage": {"1,2": 10},
            "command_undo": {"__a": [["number", 1, 2]]},
        });
        let text = save(
            4,
            [1, 0, 1, 1],
            "Normal rules.%2DAll possible dots are given%2C X too",
            drawing,
        );
        let out = to_fpuzzles(&text).unwrap();
        assert_eq!(
            out["grid"][0][0],
            json!({"value": 1, "given": true, "region": 0})
        );
        let regions: Vec<u64> = (0..16)
            .map(|i| out["grid"][i / 4][i % 4]["region"].as_u64().unwrap())
            .collect();
        assert_eq!(regions, [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]);
        assert_eq!(
            out["xv"],
            json!([{"cells": ["R2C2", "R2C3"], "value": "X"}])
        );
        assert_eq!(out["ratio"], json!([{"cells": ["R3C1", "R4C1"]}]));
        assert_eq!(out["even"], json!([{"cell": "R4C4"}]));
        assert_eq!(
            out["killercage"],
            json!([{"cells": ["R2C1", "R3C1"], "value": "5"}])
        );
        assert_eq!(out["negative"], json!(["difference", "ratio"]));
        assert_eq!(
            (out["title"].as_str(), out["author"].as_str()),
            (Some("T"), Some("A"))
        );
        // "Not all": no negative constraint.
        let text = save(4, [0; 4], "Not all possible dots are given.", json!({}));
        assert!(to_fpuzzles(&text).unwrap()["negative"].is_null());
    }

    /// Numbers beside the grid are the outside clues the rules text names, when it names one kind alone.
    #[test]
    fn outside_numbers_are_the_clues_the_rules_text_names() {
        let b = Board::new(6, 6, [1, 1, 1, 1]).unwrap();
        let drawing = json!({"number": {
            b.centre(-1, 1).to_string(): ["7", 1, "1"],
            b.centre(2, 4).to_string(): ["12", 1, "1"],
            b.centre(4, 0).to_string(): ["3", 1, "1"],
            b.centre(3, -1).to_string(): ["0", 1, "1"],
        }});
        let read = |rules: &str| to_fpuzzles(&save(4, [1; 4], rules, drawing.clone()));
        let out = read("Normal sandwich rules apply.").unwrap();
        assert_eq!(
            out["sandwichsum"],
            json!([
                {"cell": "R0C2", "value": "7"},
                {"cell": "R3C5", "value": "12"},
                {"cell": "R4C0", "value": "0"},
                {"cell": "R5C1", "value": "3"},
            ])
        );
        let out = read("Clues are X-Sums.").unwrap();
        assert_eq!(out["xsum"].as_array().map(Vec::len), Some(4));
        let out = read("Normal Sudoku rules apply. Battlefield rules apply.").unwrap();
        assert_eq!(out["battlefield"].as_array().map(Vec::len), Some(4));
        assert!(out["sandwichsum"].is_null() && out["xsum"].is_null());
        for rules in [
            "",
            "Sandwich and skyscraper clues.",
            "Battlefield or X-sums?",
        ] {
            let e = read(rules).unwrap_err();
            assert!(e.contains("names one of those alone"), "{rules}: {e}");
        }
        let corner = json!({"number": {b.centre(-1, -1).to_string(): ["7", 1, "1"]}});
        let e = to_fpuzzles(&save(4, [1; 4], "Sandwich", corner)).unwrap_err();
        assert!(e.contains("not beside it, at row 0, column 0"), "{e}");
    }

    /// Hostile boards stay cheap: every cell its own region on the largest grid is refused at once.
    #[test]
    fn a_grid_cut_into_single_cells_is_refused() {
        let n = 255;
        let b = Board::plain(n);
        let mut lines = Map::new();
        for r in 0..n {
            for c in 0..n {
                let (x, y) = b.top_left(r, c);
                lines.insert(
                    format!("{},{}", b.vertex(x + 1, y), b.vertex(x + 1, y + 1)),
                    json!(2),
                );
                lines.insert(
                    format!("{},{}", b.vertex(x, y + 1), b.vertex(x + 1, y + 1)),
                    json!(2),
                );
            }
        }
        let e = to_fpuzzles(&save(n, [0; 4], "", json!({"lineE": lines}))).unwrap_err();
        assert!(e.contains("65025 regions"), "{e}");
    }
}
