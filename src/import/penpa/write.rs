//! f-puzzles constraints drawn as Penpa+ draws them with its Sudoku tools, in the save text of a solve link:
//! exactly the drawings [`super::drawings`] reads back, so a written link reads as the puzzle it came from.

use serde_json::{json, Map, Value as Json};

use super::drawings::Refusal;
use super::geometry::Board;
use crate::import::{coloured, fpuzzles, globals, signs};

/// The f-puzzles keys drawn (the rules over the whole grid go in the rules text as sentences that read back,
/// [`globals`]; line rules are redrawn as cosmetic `line`s first, [`coloured`]); every other constraint is
/// refused, as Penpa+ would show it only as lines or marks whose meaning is in the rules text, which the reader
/// then refuses.
const DRAWN: [&str; 23] = [
    "size",
    "sandwichsum",
    "skyscraper",
    "xsum",
    "battlefield",
    "negative",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "diagonal+",
    "diagonal-",
    "killercage",
    "thermometer",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "odd",
    "even",
    "line",
    signs::SIGNS,
];

/// Penpa+'s empty drawing: every part its editor keeps, so that it finds each where it looks.
fn empty_drawing() -> Map<String, Json> {
    let history = json!({"__a": []});
    let mut d = Map::new();
    for key in ["command_redo", "command_undo", "command_replay"] {
        d.insert(key.into(), history.clone());
    }
    for key in [
        "surface",
        "number",
        "numberS",
        "symbol",
        "freeline",
        "freelineE",
        "line",
        "lineE",
        "wall",
        "cage",
        "deletelineE",
    ] {
        d.insert(key.into(), json!({}));
    }
    for key in [
        "thermo",
        "arrows",
        "direction",
        "squareframe",
        "polygon",
        "killercages",
        "nobulbthermo",
    ] {
        d.insert(key.into(), json!([]));
    }
    d
}

/// The save text of a solve link drawing an f-puzzles puzzle.
pub(super) fn from_fpuzzles(puzzle: &Json) -> Result<String, Refusal> {
    // Penpa+ has no line rules of its own: setters draw them as coloured lines and say each colour's rule.
    let mut puzzle = puzzle.clone();
    coloured::redraw(&mut puzzle, &coloured::line_rules())?;
    globals::say_slow_thermos(&mut puzzle)?;
    signs_as_pairs(&mut puzzle)?;
    let puzzle = &puzzle;
    if let Some((key, _)) = puzzle.as_object().into_iter().flatten().find(|(k, _)| {
        let said = DRAWN.contains(&k.as_str()) || globals::flags().any(|f| f == k.as_str());
        !said && fpuzzles::present(puzzle, k)
    }) {
        return Err(match &puzzle[key] {
            Json::Bool(_) => format!("`{key}`: a rule a Penpa+ link says in its rules text alone, in words latin does not read for it"),
            _ => format!("`{key}`: Penpa+ draws it as lines or marks whose rule is in the rules text alone, which latin would not read back"),
        });
    }
    let mut puzzle = puzzle.clone();
    rules_text(&mut puzzle)?;
    let n = puzzle["size"].as_u64().unwrap_or(0) as usize;
    // Outside clues go in a band of cells all round, as Penpa+'s Sudoku grid with outside clues has it.
    let board = match EDGE_CLUES
        .iter()
        .any(|(key, _)| fpuzzles::present(&puzzle, key))
    {
        true => Board::new(n + 2, n + 2, [1; 4]).expect("a square grid"),
        false => Board::plain(n),
    };
    let puzzle = &puzzle;
    let (givens, region_of) = fpuzzles::cells(puzzle, n).map_err(|e| e.to_string())?;
    let mut d = empty_drawing();
    let mut numbers = Map::new();
    for (i, &v) in givens.iter().enumerate().filter(|(_, &v)| v != 0) {
        numbers.insert(
            board.cell(i / n, i % n).to_string(),
            json!([v.to_string(), 1, "1"]),
        );
    }
    connected(&region_of, n)?;
    let mut edges = borders(&board, &region_of);
    diagonals(puzzle, &board, &mut edges);
    edge_clues(puzzle, &board, &mut numbers)?;
    let mut symbols = Map::new();
    marks(puzzle, &board, &mut numbers, &mut symbols)?;
    let Cages {
        cells: cages,
        sums,
        outlines,
    } = cages(puzzle, &board)?;
    d.insert("number".into(), Json::Object(numbers));
    d.insert("numberS".into(), Json::Object(sums));
    d.insert("symbol".into(), Json::Object(symbols));
    d.insert("lineE".into(), Json::Object(edges));
    d.insert("killercages".into(), json!(cages));
    d.insert("cage".into(), Json::Object(outlines));
    d.insert(
        "thermo".into(),
        json!(paths(puzzle, "thermometer", &board)?),
    );
    d.insert("arrows".into(), json!(paths(puzzle, "arrow", &board)?));
    let (lines, custom) = coloured_lines(puzzle, &board)?;
    d.insert("line".into(), Json::Object(lines));
    Ok(save_text(puzzle, &board, &Json::Object(d), custom))
}

/// The style of line Penpa+'s line tool draws coloured lines in (its green line, whose colour a custom one
/// replaces), and that colour.
const LINE_STYLE: u64 = 3;
const LINE_STYLE_COLOUR: &str = "#208020";

/// A part of Penpa+'s drawing: its entries by key.
type Part = Map<String, Json>;

/// Cosmetic lines as Penpa+ line segments between cells' centres, with the custom colour of each that is not
/// the style's own. Penpa+ keeps segments, not lines, and the reader joins those of a colour into paths, so two
/// lines of one colour that meet would read back as one (two renban lines as one longer run): refused.
fn coloured_lines(puzzle: &Json, board: &Board) -> Result<(Part, Part), Refusal> {
    let (mut lines, mut custom) = (Map::new(), Map::new());
    let mut drawn = std::collections::HashSet::new();
    let n = board.n;
    for entry in fpuzzles::list(puzzle, "line") {
        let colour = entry["outlineC"].as_str().unwrap_or(LINE_STYLE_COLOUR);
        for cells in fpuzzles::list(entry, "lines") {
            let at: Vec<usize> = cells
                .as_array()
                .into_iter()
                .flatten()
                .map(|name| {
                    let [r, c] = cell(name, n)?;
                    if !drawn.insert((colour.to_ascii_uppercase(), [r, c])) {
                        return Err(format!(
                            "two lines of one colour meet at {}, which Penpa+ would draw as one line",
                            name.as_str().unwrap_or_default()
                        ));
                    }
                    Ok(board.cell(r, c))
                })
                .collect::<Result<_, _>>()?;
            for pair in at.windows(2) {
                let key = format!("{},{}", pair[0].min(pair[1]), pair[0].max(pair[1]));
                if !colour.eq_ignore_ascii_case(LINE_STYLE_COLOUR) {
                    custom.insert(key.clone(), json!(colour));
                }
                lines.insert(key, json!(LINE_STYLE));
            }
        }
    }
    Ok((lines, custom))
}

/// The f-puzzles keys of outside clues, and the sentence of the rules text that says what they are, in the
/// words the reader takes ([`super::drawings`]).
const EDGE_CLUES: [(&str, &str); 4] = [
    ("sandwichsum", "Sandwich clues outside the grid."),
    ("skyscraper", "Skyscraper clues outside the grid."),
    ("xsum", "X-sum clues outside the grid."),
    ("battlefield", "Battlefield clues outside the grid."),
];

/// What a Penpa+ drawing has no way of its own to say, said as the rules text says it, in the words the reader
/// takes: the negative constraint, and what the outside clues are (one kind of them).
fn rules_text(puzzle: &mut Json) -> Result<(), Refusal> {
    let negative: Vec<&str> = fpuzzles::list(puzzle, "negative")
        .iter()
        .filter_map(Json::as_str)
        .collect();
    let mut text = puzzle["ruleset"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_owned();
    let mut sentences = vec![
        (
            negative.contains(&"difference") && negative.contains(&"ratio"),
            "All possible dots are given.",
        ),
        (
            negative.contains(&"difference") && !negative.contains(&"ratio"),
            "All possible white dots are given.",
        ),
        (
            negative.contains(&"ratio") && !negative.contains(&"difference"),
            "All possible black dots are given.",
        ),
        (negative.contains(&"xv"), "All possible X and V are given."),
    ];
    let outside: Vec<(bool, &str)> = EDGE_CLUES
        .iter()
        .map(|&(k, s)| (fpuzzles::present(puzzle, k), s))
        .collect();
    if outside.iter().filter(|o| o.0).count() > 1 {
        return Err(
            "outside clues of two kinds, which a Penpa+ drawing does not tell apart".into(),
        );
    }
    sentences.extend(outside);
    sentences.extend(globals::sentences(puzzle).into_iter().map(|s| (true, s)));
    for (said, sentence) in sentences {
        if said {
            text = format!("{text}\n{sentence}").trim().to_owned();
        }
    }
    if !text.is_empty() {
        puzzle["ruleset"] = json!(text);
    }
    Ok(())
}

/// Outside clues as numbers in the band's cells beside the grid (f-puzzles' row or column 0 or n + 1).
fn edge_clues(
    puzzle: &Json,
    board: &Board,
    numbers: &mut Map<String, Json>,
) -> Result<(), Refusal> {
    let n = board.n;
    for (key, _) in EDGE_CLUES {
        for e in fpuzzles::list(puzzle, key) {
            let (r, c) = fpuzzles::position(&e["cell"])
                .ok()
                .filter(|&(r, c)| r <= n + 1 && c <= n + 1)
                .ok_or_else(|| format!("{} is not a cell beside the grid", e["cell"]))?;
            let value = e["value"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| e["value"].to_string());
            numbers.insert(
                board.centre(r as isize - 1, c as isize - 1).to_string(),
                json!([value, 1, "1"]),
            );
        }
    }
    Ok(())
}

/// The lines of a solve link in the order Penpa+ reads them (`load`), as its `maketext_solve` writes them; the
/// editor's own settings (modes, colours, tabs) left to its defaults.
fn save_text(
    puzzle: &Json,
    board: &Board,
    drawing: &Json,
    line_colours: Map<String, Json>,
) -> String {
    let n = board.n;
    let size = 38;
    let canvas = (board.nx + 1) * size;
    let centre = board.cell(n / 2, n / 2);
    let text = |key: &str| {
        puzzle[key]
            .as_str()
            .unwrap_or_default()
            .replace(',', "%2C")
            .replace('\n', "%2D")
            .replace('&', "%2E")
            .replace('=', "%2F")
    };
    // The flags Penpa+'s new-grid dialog sets for the diagonals it then draws (falling, outside clues twice,
    // rising).
    let flag = |key: &str| u8::from(fpuzzles::present(puzzle, key));
    let header = format!(
        "sudoku,{},{},{size},0,1,1,{canvas},{canvas},{centre},{centre},{},{},0,{},Title: {},Author: {},,{},OFF,false",
        board.nx,
        board.ny,
        flag("diagonal-"),
        u8::from(board.space != [0; 4]),
        flag("diagonal+"),
        text("title"),
        text("author"),
        text("ruleset"),
    );
    // Penpa+ keeps the grid's cells as the first centre and then the steps between them.
    let centres: Vec<usize> = (0..n * n).map(|i| board.cell(i / n, i % n)).collect();
    let steps: Vec<usize> = centres
        .iter()
        .enumerate()
        .map(|(k, &c)| if k == 0 { c } else { c - centres[k - 1] })
        .collect();
    // Custom colours, and the flag that has Penpa+ show them.
    let custom = u8::from(!line_colours.is_empty());
    let mut colours = empty_drawing();
    colours.insert("line".into(), Json::Object(line_colours));
    let colours = Json::Object(colours);
    [
        header,
        json!(board.space).to_string(),
        r#"["1","2","1"]~"sudoku"~["1",9]"#.into(),
        drawing.to_string(),
        String::new(),
        json!(steps).to_string(),
        "[]".into(),
        "{}".into(),
        r#""x""#.into(),
        r#""x""#.into(),
        "[3,2,3]".into(),
        String::new(),
        r#""x""#.into(),
        custom.to_string(),
        colours.to_string(),
        "x".into(),
        "{}".into(),
        "[]".into(),
        "false".into(),
    ]
    .join("\n")
}

/// Each region in one piece: thick lines draw only such.
fn connected(region_of: &[Option<usize>], n: usize) -> Result<(), Refusal> {
    let mut classes = crate::import::Classes::new(n * n);
    for i in 0..n * n {
        for j in [i + 1, i + n] {
            let beside = j < n * n && (j == i + n || j % n != 0);
            if beside && region_of[i] == region_of[j] {
                classes.merge(i, j);
            }
        }
    }
    let mut first = std::collections::HashMap::new();
    for (i, region) in region_of.iter().enumerate() {
        let root = classes.root(i);
        if *first.entry(region).or_insert(root) != root {
            let k = region.map_or(0, |k| k + 1);
            return Err(format!(
                "region {k} in pieces, which Penpa+'s thick lines do not draw"
            ));
        }
    }
    Ok(())
}

/// Thick lines (style 2) between cells of different regions; none on a Latin square.
fn borders(board: &Board, region_of: &[Option<usize>]) -> Map<String, Json> {
    let n = board.n;
    let mut edges = Map::new();
    for r in 0..n {
        for c in 0..n {
            let here = region_of[r * n + c];
            let (x, y) = board.top_left(r, c);
            if c + 1 < n && here != region_of[r * n + c + 1] {
                let (a, b) = (board.vertex(x + 1, y), board.vertex(x + 1, y + 1));
                edges.insert(format!("{a},{b}"), json!(2));
            }
            if r + 1 < n && here != region_of[(r + 1) * n + c] {
                let (a, b) = (board.vertex(x, y + 1), board.vertex(x + 1, y + 1));
                edges.insert(format!("{a},{b}"), json!(2));
            }
        }
    }
    edges
}

/// The main diagonals as Penpa+'s Sudoku grid draws them: dotted (style 12), corner to corner through each cell.
fn diagonals(puzzle: &Json, board: &Board, edges: &mut Map<String, Json>) {
    let n = board.n;
    for k in 0..n {
        if fpuzzles::present(puzzle, "diagonal-") {
            let (x, y) = board.top_left(k, k);
            let (a, b) = (board.vertex(x, y), board.vertex(x + 1, y + 1));
            edges.insert(format!("{a},{b}"), json!(12));
        }
        if fpuzzles::present(puzzle, "diagonal+") {
            let (x, y) = board.top_left(k, n - 1 - k);
            let (a, b) = (board.vertex(x + 1, y), board.vertex(x, y + 1));
            edges.insert(format!("{a},{b}"), json!(12));
        }
    }
}

/// `R3C4` as (2, 3), on the grid: f-puzzles' reading, its error a refusal here.
fn cell(name: &Json, n: usize) -> Result<[usize; 2], Refusal> {
    fpuzzles::inside(name, n).map_err(|e| e.to_string())
}

/// The signs between cells as the pairs they order ([`signs::SIGNS`]), for Penpa+ to draw each on its edge: those
/// f-puzzles draws as text, and those minimum and maximum cells stand for (Penpa+ has no such cell).
fn signs_as_pairs(puzzle: &mut Json) -> Result<(), Refusal> {
    signs::read(puzzle)?;
    let n = puzzle["size"].as_u64().unwrap_or(0) as usize;
    let mut pairs = fpuzzles::extreme_signs(puzzle, n).map_err(|e| e.to_string())?;
    pairs.extend(signs::pairs(puzzle, n)?);
    let map = puzzle.as_object_mut().expect("an object");
    map.remove("minimum");
    map.remove("maximum");
    if !pairs.is_empty() {
        map.insert(signs::SIGNS.into(), json!(pairs));
    }
    Ok(())
}

/// Kropki dots (small circles on the edge, white or black), inequality signs on the edge, X and V (letters on
/// the edge), and grey circles (odd) and squares (even) in cells.
fn marks(
    puzzle: &Json,
    board: &Board,
    numbers: &mut Map<String, Json>,
    symbols: &mut Map<String, Json>,
) -> Result<(), Refusal> {
    let n = board.n;
    let edge = |e: &Json| -> Result<usize, Refusal> {
        match fpuzzles::list(e, "cells") {
            [a, b] => Ok(board.edge(cell(a, n)?, cell(b, n)?)),
            _ => Err("a mark that is not between two cells".into()),
        }
    };
    for (key, style, standard) in [("difference", 8, "1"), ("ratio", 2, "2")] {
        for e in fpuzzles::list(puzzle, key) {
            match e["value"].as_str() {
                Some(v) if !v.is_empty() && v != standard => {
                    return Err(format!(
                        "a {key} dot numbered {v}, which Penpa+'s dots do not show"
                    ))
                }
                _ => {}
            }
            // One symbol an edge: a pair with a white and a black dot (consecutive marks beside black dots,
            // both on a 1 and a 2) would read back with one of them.
            if symbols
                .insert(edge(e)?.to_string(), json!([style, "circle_SS", 2]))
                .is_some()
            {
                let cells = fpuzzles::list(e, "cells");
                let names: Vec<&str> = cells.iter().filter_map(Json::as_str).collect();
                return Err(format!(
                    "a white and a black dot between {}, where Penpa+ draws one dot an edge",
                    names.join(" and ")
                ));
            }
        }
    }
    for [r, c, r2, c2] in signs::pairs(puzzle, n)? {
        let (smaller, larger) = ([r, c], [r2, c2]);
        // Penpa+'s open signs, as its Sudoku tools draw them: the tip toward the left, up, right, down.
        let k = match (
            larger[0] as i64 - smaller[0] as i64,
            larger[1] as i64 - smaller[1] as i64,
        ) {
            (0, 1) => 5,
            (1, 0) => 6,
            (0, -1) => 7,
            (-1, 0) => 8,
            _ => {
                return Err(format!(
                    "a sign between {} and {}, which are not beside each other",
                    fpuzzles::cell_name(smaller[0], smaller[1]),
                    fpuzzles::cell_name(larger[0], larger[1])
                ))
            }
        };
        let edge = board.edge(smaller, larger).to_string();
        if let Some(there) = symbols.insert(edge, json!([k, "inequality", 2])) {
            // The pairs are a set: a sign already there points the other way.
            let what = match there[1].as_str() {
                Some("inequality") => "two signs pointing opposite ways",
                _ => "a sign and a dot",
            };
            return Err(format!(
                "{what} between {} and {}, where Penpa+ draws one symbol an edge",
                fpuzzles::cell_name(smaller[0], smaller[1]),
                fpuzzles::cell_name(larger[0], larger[1])
            ));
        }
    }
    for e in fpuzzles::list(puzzle, "xv") {
        numbers.insert(
            edge(e)?.to_string(),
            json!([e["value"].as_str().unwrap_or("X"), 1, "1"]),
        );
    }
    for (key, shape) in [("odd", "circle_L"), ("even", "square_L")] {
        for e in fpuzzles::list(puzzle, key) {
            let [r, c] = cell(&e["cell"], n)?;
            symbols.insert(board.cell(r, c).to_string(), json!([3, shape, 2]));
        }
    }
    Ok(())
}

/// Killer cages: their cells, their sums (a small number in the top-left corner of their first cell), and
/// their dashed outlines (style 10), a quarter of a cell inside their border as Penpa+'s Killer tool draws them.
fn cages(puzzle: &Json, board: &Board) -> Result<Cages, Refusal> {
    let n = board.n;
    let (mut cells_of, mut sums, mut outlines) = (Vec::new(), Map::new(), Map::new());
    for cage in fpuzzles::list(puzzle, "killercage") {
        let mut cells: Vec<[usize; 2]> = fpuzzles::list(cage, "cells")
            .iter()
            .map(|c| cell(c, n))
            .collect::<Result<_, _>>()?;
        cells.sort_unstable();
        let Some(&[r, c]) = cells.first() else {
            continue;
        };
        if let Some(sum) = cage["value"].as_str().filter(|s| !s.trim().is_empty()) {
            sums.insert(board.corner(r, c, 0).to_string(), json!([sum.trim(), 1]));
        }
        outline(&cells, board, &mut outlines);
        cells_of.push(cells.iter().map(|&[r, c]| board.cell(r, c)).collect());
    }
    Ok(Cages {
        cells: cells_of,
        sums,
        outlines,
    })
}

/// Killer cages as Penpa+ keeps them: each cage's cell centres, the sums by corner point, the outlines.
struct Cages {
    cells: Vec<Vec<usize>>,
    sums: Map<String, Json>,
    outlines: Map<String, Json>,
}

/// A step between cells: rows, columns.
type Step = (isize, isize);

/// A cage's dashed outline, a quarter of a cell inside its border, going round clockwise: along each side of a
/// cell that borders the outside, on to the next cell's corner where the border goes on, and from there up into
/// the cell the border turns into at an inner corner of the cage.
fn outline(cells: &[[usize; 2]], board: &Board, lines: &mut Map<String, Json>) {
    let n = board.n as isize;
    let has = |r: isize, c: isize| {
        (0..n).contains(&r) && (0..n).contains(&c) && cells.contains(&[r as usize, c as usize])
    };
    let corner = |r: isize, c: isize, q: usize| board.corner(r as usize, c as usize, q);
    let mut add = |a: usize, b: usize| {
        lines.insert(format!("{},{}", a.min(b), a.max(b)), json!(10));
    };
    // Per side: the neighbour across it, the corners along it (clockwise), the next cell along it, and the
    // cell the border turns into there.
    let sides: [(Step, [usize; 2], Step, Step); 4] = [
        ((-1, 0), [0, 1], (0, 1), (-1, 1)),
        ((0, 1), [1, 3], (1, 0), (1, 1)),
        ((1, 0), [3, 2], (0, -1), (1, -1)),
        ((0, -1), [2, 0], (-1, 0), (-1, -1)),
    ];
    for &[r, c] in cells {
        let (r, c) = (r as isize, c as isize);
        for (across, [from, to], along, turn) in sides {
            if has(r + across.0, c + across.1) {
                continue;
            }
            add(corner(r, c, from), corner(r, c, to));
            let next = (r + along.0, c + along.1);
            if !has(next.0, next.1) {
                continue;
            }
            add(corner(r, c, to), corner(next.0, next.1, from));
            if has(r + turn.0, c + turn.1) {
                add(
                    corner(next.0, next.1, from),
                    corner(r + turn.0, c + turn.1, from_turned(from)),
                );
            }
        }
    }
}

/// Where the outline goes on after turning in at an inner corner: the first corner (clockwise) of the side it
/// follows next, in the cell it turns into. The sides start at corners 0 (top), 1 (right), 3 (bottom) and 2
/// (left), and a turn in from one side leads onto the side before it.
fn from_turned(from: usize) -> usize {
    match from {
        0 => 2,
        1 => 0,
        3 => 1,
        _ => 3,
    }
}

/// Thermometers (bulb first) and arrows (circle first) as lists of cell centres; a pill (a circle of several
/// cells) has no Penpa+ drawing.
fn paths(puzzle: &Json, key: &str, board: &Board) -> Result<Vec<Vec<usize>>, Refusal> {
    let n = board.n;
    let mut out = Vec::new();
    for entry in fpuzzles::list(puzzle, key) {
        if key == "arrow" && fpuzzles::list(entry, "cells").len() != 1 {
            return Err(
                "an arrow from a pill of several cells, which Penpa+'s arrows do not draw".into(),
            );
        }
        for line in fpuzzles::list(entry, "lines") {
            let cells: Vec<[usize; 2]> = line
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| cell(c, n))
                .collect::<Result<_, _>>()?;
            out.push(cells.iter().map(|&[r, c]| board.cell(r, c)).collect());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Whatever the cage's shape (bends, inner corners, holes), its outline is closed loops: every quarter point
    /// it passes through joins exactly two of its lines, and each lies in a cell of the cage.
    #[test]
    fn cage_outlines_are_closed_loops() {
        let board = Board::plain(6);
        let mut rng = fastrand::Rng::with_seed(7);
        let mut bent = 0;
        for _ in 0..400 {
            let mut cells = vec![[rng.usize(..6), rng.usize(..6)]];
            for _ in 0..rng.usize(0..12) {
                let [r, c] = cells[rng.usize(..cells.len())];
                let next = match rng.u8(..4) {
                    0 => [r.saturating_sub(1), c],
                    1 => [(r + 1).min(5), c],
                    2 => [r, c.saturating_sub(1)],
                    _ => [r, (c + 1).min(5)],
                };
                if !cells.contains(&next) {
                    cells.push(next);
                }
            }
            let mut lines = Map::new();
            outline(&cells, &board, &mut lines);
            let mut degree: HashMap<usize, usize> = HashMap::new();
            for key in lines.keys() {
                let (a, b) = key.split_once(',').unwrap();
                for p in [a, b] {
                    *degree.entry(p.parse().unwrap()).or_default() += 1;
                }
            }
            for (&p, &d) in &degree {
                assert_eq!(d, 2, "{cells:?}: point {p}");
                match board.point(p) {
                    super::super::geometry::Point::Corner(cell, _) => {
                        assert!(cells.contains(&cell))
                    }
                    other => panic!("{other:?}"),
                }
            }
            bent += usize::from(lines.len() > 4 * cells.len() / 2 + 2);
        }
        assert!(bent > 100, "{bent}");
    }

    /// Signs f-puzzles draws as text and those its minimum and maximum cells stand for are drawn as Penpa+'s
    /// signs on their edges, and read back as the same pairs.
    #[test]
    fn signs_and_extreme_cells_are_drawn_as_signs_on_edges() {
        let mut puzzle = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4],
            "minimum": [{"cell": "R1C1"}], "maximum": [{"cell": "R4C4"}]});
        crate::import::signs::write(&mut puzzle, &[[2, 1, 1, 1], [2, 2, 2, 3]]).unwrap();
        let text = from_fpuzzles(&puzzle).unwrap();
        let back = super::super::drawings::to_fpuzzles(&text).unwrap();
        let mut pairs: Vec<[usize; 4]> =
            serde_json::from_value(back[signs::SIGNS].clone()).unwrap();
        pairs.sort_unstable();
        let want = [
            [0, 0, 0, 1],
            [0, 0, 1, 0],
            [2, 1, 1, 1],
            [2, 2, 2, 3],
            [2, 3, 3, 3],
            [3, 2, 3, 3],
        ];
        assert_eq!(pairs, want);
        // One edge holds one symbol.
        for (dot, says) in [
            (true, "a sign and a dot"),
            (false, "two signs pointing opposite ways"),
        ] {
            let mut puzzle = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4]});
            let mut less = vec![[0, 0, 0, 1]];
            if dot {
                puzzle["ratio"] = json!([{"cells": ["R1C1", "R1C2"]}]);
            } else {
                less.push([0, 1, 0, 0]);
            }
            crate::import::signs::write(&mut puzzle, &less).unwrap();
            let e = from_fpuzzles(&puzzle).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    /// Outside clues are written in a band all round, with the rules text that names them, and read back; two
    /// kinds at once are refused.
    #[test]
    fn outside_clues_read_back() {
        let clues = json!([
            {"cell": "R0C1", "value": "5"},
            {"cell": "R2C5", "value": "0"},
            {"cell": "R5C4", "value": "9"},
            {"cell": "R3C0", "value": "10"},
        ]);
        let puzzle = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4], "sandwichsum": clues});
        let text = from_fpuzzles(&puzzle).unwrap();
        assert!(text.lines().nth(1) == Some("[1,1,1,1]"), "{text}");
        let back = super::super::drawings::to_fpuzzles(&text).unwrap();
        // The same clues in any order.
        let sorted = |list: &Json| {
            let mut all: Vec<String> = list
                .as_array()
                .unwrap()
                .iter()
                .map(Json::to_string)
                .collect();
            all.sort();
            all
        };
        assert_eq!(sorted(&back["sandwichsum"]), sorted(&clues));
        // Battlefield clues, which f-puzzles has no key for, travel the same way.
        let puzzle = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4], "battlefield": clues});
        let back = super::super::drawings::to_fpuzzles(&from_fpuzzles(&puzzle).unwrap()).unwrap();
        assert_eq!(sorted(&back["battlefield"]), sorted(&clues));
        assert!(back["sandwichsum"].is_null());
        let mut two = puzzle.clone();
        two["xsum"] = json!([{"cell": "R0C2", "value": "3"}]);
        assert!(from_fpuzzles(&two).unwrap_err().contains("two kinds"));
    }

    /// A pair with a white and a black dot (a consecutive mark beside a black dot on a 1 and a 2) is refused:
    /// Penpa+ draws one symbol an edge, and the link would read back with one of them.
    #[test]
    fn two_dots_on_one_edge_are_refused() {
        let puzzle = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4],
            "difference": [{"cells": ["R1C1", "R2C1"]}], "ratio": [{"cells": ["R1C1", "R2C1"]}]});
        let e = from_fpuzzles(&puzzle).unwrap_err();
        assert!(
            e.contains("a white and a black dot between R1C1 and R2C1"),
            "{e}"
        );
        let mut apart = puzzle.clone();
        apart["ratio"] = json!([{"cells": ["R1C2", "R2C2"]}]);
        assert!(from_fpuzzles(&apart).is_ok());
    }

    /// Every constraint drawn reads back as itself: regions, diagonals, givens, cages with sums, thermometers,
    /// arrows, dots, X and V, odd and even, and the negative constraint in the rules text.
    #[test]
    fn what_is_drawn_reads_back() {
        let cell = |v: u64| json!({"value": v, "given": v != 0});
        let mut grid = vec![vec![cell(0); 4]; 4];
        grid[0][1] = cell(3);
        let regions = ["0001", "0211", "2231", "2333"];
        for (i, row) in grid.iter_mut().enumerate() {
            for (j, c) in row.iter_mut().enumerate() {
                c["region"] = json!(regions[i].as_bytes()[j] - b'0');
            }
        }
        let puzzle = json!({
            "size": 4,
            "grid": grid,
            "title": "A, b",
            "ruleset": "Rules & more = these",
            "diagonal-": true,
            "killercage": [{"cells": ["R3C2", "R2C2", "R3C3"], "value": "6"}, {"cells": ["R4C4"]}],
            "thermometer": [{"lines": [["R1C1", "R2C1", "R3C1"]]}],
            "arrow": [{"cells": ["R4C1"], "lines": [["R4C1", "R4C2"], ["R4C1", "R3C1"]]}],
            "difference": [{"cells": ["R1C3", "R1C4"]}],
            "ratio": [{"cells": ["R2C4", "R3C4"]}],
            "xv": [{"cells": ["R2C3", "R2C4"], "value": "V"}],
            "odd": [{"cell": "R1C2"}],
            "even": [{"cell": "R4C3"}],
            "negative": ["difference", "ratio", "xv"],
        });
        let text = from_fpuzzles(&puzzle).unwrap();
        let back = super::super::drawings::to_fpuzzles(&text).unwrap();
        let cells = |p: &Json| fpuzzles::cells(p, 4).unwrap();
        assert_eq!(cells(&back), cells(&puzzle));
        for key in [
            "diagonal-",
            "thermometer",
            "difference",
            "ratio",
            "xv",
            "odd",
            "even",
            "negative",
            "title",
        ] {
            assert_eq!(back[key], puzzle[key], "{key}");
        }
        assert!(back["diagonal+"].is_null());
        assert_eq!(
            back["killercage"],
            json!([{"cells": ["R2C2", "R3C2", "R3C3"], "value": "6"}, {"cells": ["R4C4"]}])
        );
        assert_eq!(
            back["arrow"],
            json!([
                {"cells": ["R4C1"], "lines": [["R4C1", "R4C2"]]},
                {"cells": ["R4C1"], "lines": [["R4C1", "R3C1"]]}
            ])
        );
        assert!(back["ruleset"]
            .as_str()
            .unwrap()
            .starts_with("Rules & more = these\nAll possible dots"));
        // A region in two pieces (thick lines would draw three regions), a pill, and a rule with no drawing are
        // refused.
        let mut pieces = puzzle.clone();
        pieces["grid"][0][3]["region"] = json!(2);
        pieces["grid"][1][1]["region"] = json!(1);
        assert!(from_fpuzzles(&pieces)
            .unwrap_err()
            .contains("region 3 in pieces"));
        let mut pill = puzzle.clone();
        pill["arrow"][0]["cells"] = json!(["R4C1", "R4C2"]);
        assert!(from_fpuzzles(&pill).unwrap_err().contains("pill"));
        let mut between = puzzle.clone();
        between["betweenline"] = json!([{"lines": [["R1C1", "R1C2", "R1C3"]]}]);
        assert!(from_fpuzzles(&between)
            .unwrap_err()
            .contains("rules text alone"));
        // Line rules are coloured lines and the sentence that gives each colour its rule.
        let mut lines = puzzle.clone();
        lines["whispers"] = json!([{"lines": [["R1C1", "R2C2", "R1C3"]]}]);
        lines["renban"] = json!([{"lines": [["R4C1", "R4C2"]]}]);
        let text = from_fpuzzles(&lines).unwrap();
        let back = super::super::drawings::to_fpuzzles(&text).unwrap();
        assert_eq!(
            back["whispers"],
            json!([{"lines": [["R1C1", "R2C2", "R1C3"]], "value": 2}])
        );
        assert_eq!(back["renban"], json!([{"lines": [["R4C1", "R4C2"]]}]));
        let mut meeting = lines.clone();
        meeting["renban"] = json!([{"lines": [["R4C1", "R4C2"]]}, {"lines": [["R4C2", "R3C2"]]}]);
        assert!(from_fpuzzles(&meeting)
            .unwrap_err()
            .contains("meet at R4C2,"));
        // The rules over the whole grid go in the rules text, and read back from it.
        let mut global = puzzle.clone();
        global["antiknight"] = json!(true);
        global["nonconsecutive"] = json!(true);
        let text = from_fpuzzles(&global).unwrap();
        let back = super::super::drawings::to_fpuzzles(&text).unwrap();
        assert_eq!(back["antiknight"], json!(true));
        assert_eq!(back["nonconsecutive"], json!(true));
        assert!(back["antiking"].is_null() && back["disjointgroups"].is_null());
    }
}
