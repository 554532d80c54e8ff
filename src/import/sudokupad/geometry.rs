//! SudokuPad's drawings as things to match: each line, arrow, overlay and underlay with the fields SudokuPad's
//! f-puzzles converter sets (colour, width, centre, points), where it lies on the grid, and whether a reader
//! has taken it; what no reader takes is refused by name.

use serde_json::Value as Json;

use super::grid::name;
use super::Refusal;

/// How near two coordinates must be to be the same point (SudokuPad rounds its offsets to a tenth or hundredth).
pub(super) const NEAR: f64 = 0.02;

/// The most drawings read from one puzzle.
const MAX_DRAWINGS: usize = 5_000;

/// A point of SudokuPad's drawing: `[row, column]` in cell units from the grid's top-left corner.
pub(super) type Point = (f64, f64);

/// One drawn thing: a line, an arrow, an overlay or an underlay, with the fields the converter sets.
pub(super) struct Drawing {
    pub(super) kind: &'static str,
    pub(super) json: Json,
    pub(super) taken: bool,
}

impl Drawing {
    pub(super) fn colour(&self, key: &str) -> String {
        self.json[key]
            .as_str()
            .unwrap_or_default()
            .to_ascii_uppercase()
    }

    pub(super) fn number(&self, key: &str) -> f64 {
        self.json[key].as_f64().unwrap_or(f64::NAN)
    }

    pub(super) fn is(&self, key: &str, value: f64) -> bool {
        (self.number(key) - value).abs() < NEAR
    }

    pub(super) fn rounded(&self) -> bool {
        self.json["rounded"].as_bool() == Some(true)
    }

    pub(super) fn text(&self) -> String {
        match &self.json["text"] {
            Json::String(s) => s.trim().to_owned(),
            Json::Number(x) => x.to_string(),
            _ => String::new(),
        }
    }

    pub(super) fn center(&self) -> Option<Point> {
        point(&self.json["center"])
    }

    pub(super) fn points(&self) -> Vec<Point> {
        self.json["wayPoints"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(point)
            .collect()
    }

    /// What an error says of it: its kind, colour and where it starts.
    pub(super) fn described(&self) -> String {
        let colour = ["color", "backgroundColor", "borderColor"]
            .iter()
            .map(|k| self.colour(k))
            .find(|c| !c.is_empty())
            .unwrap_or_else(|| "no colour".into());
        let at = self
            .center()
            .or_else(|| self.points().first().copied())
            .map_or(String::new(), |(r, c)| {
                format!(" at r{}c{}", (r.floor() as i64) + 1, (c.floor() as i64) + 1)
            });
        let text = self.text();
        let text = if text.is_empty() {
            String::new()
        } else {
            format!(" with text {text:?}")
        };
        let article = if self.kind.starts_with(['a', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {} ({colour}){text}{at}", self.kind)
    }
}

/// A point near the grid: a drawing far off it (or at no finite place) says nothing latin reads, and keeping
/// coordinates small keeps the cell arithmetic below from overflowing on hostile input.
fn point(v: &Json) -> Option<Point> {
    let near_grid = |x: f64| x.abs() < 1e4;
    match v.as_array()?.as_slice() {
        [r, c] => Some((r.as_f64()?, c.as_f64()?)).filter(|&(r, c)| near_grid(r) && near_grid(c)),
        _ => None,
    }
}

pub(super) fn near(a: Point, b: Point) -> bool {
    (a.0 - b.0).abs() < NEAR && (a.1 - b.1).abs() < NEAR
}

/// The cell a point lies in (0-based, -1 or n outside).
pub(super) fn cell_at(p: Point) -> (i64, i64) {
    (p.0.floor() as i64, p.1.floor() as i64)
}

pub(super) fn inside((r, c): (i64, i64), n: usize) -> bool {
    (0..n as i64).contains(&r) && (0..n as i64).contains(&c)
}

/// The centre of a cell.
pub(super) fn centre((r, c): (i64, i64)) -> Point {
    (r as f64 + 0.5, c as f64 + 0.5)
}

pub(super) struct Drawings(pub(super) Vec<Drawing>);

impl Drawings {
    pub(super) fn of(puzzle: &Json) -> Result<Drawings, Refusal> {
        let mut all = Vec::new();
        for (key, kind) in [
            ("lines", "line"),
            ("arrows", "arrow"),
            ("overlays", "overlay"),
            ("underlays", "underlay"),
        ] {
            for json in puzzle[key].as_array().into_iter().flatten() {
                // An empty place in a zipped list is an empty object: nothing drawn.
                if json.as_object().is_some_and(|o| !o.is_empty()) {
                    all.push(Drawing {
                        kind,
                        json: json.clone(),
                        taken: false,
                    });
                }
            }
        }
        // Each drawing is matched against the others (a bulb to its thermometer), so a hostile link of very many
        // would take quadratic time; a real puzzle has a few hundred.
        if all.len() > MAX_DRAWINGS {
            return Err(format!(
                "{} drawings; latin reads up to {MAX_DRAWINGS}",
                all.len()
            ));
        }
        Ok(Drawings(all))
    }

    /// The indices of the drawings not yet read that `test` picks.
    pub(super) fn find(&self, test: impl Fn(&Drawing) -> bool) -> Vec<usize> {
        (0..self.0.len())
            .filter(|&i| !self.0[i].taken && test(&self.0[i]))
            .collect()
    }

    /// Cell highlights (f-puzzles' cell colours, which the f-puzzles reader ignores too) say no rule; anything
    /// else left over is refused by name.
    pub(super) fn rest_refused(&self, n: usize) -> Result<(), Refusal> {
        for d in self.0.iter().filter(|d| !d.taken) {
            let highlight = d.kind == "underlay"
                && !d.rounded()
                && d.is("width", 1.0)
                && d.is("height", 1.0)
                && d.colour("backgroundColor") != "#CFCFCF"
                && d.center().is_some_and(|p| inside(cell_at(p), n));
            if !highlight {
                return Err(format!(
                    "{}, which SudokuPad's f-puzzles drawings do not make: its rule, if it has one, is in the rules text alone",
                    d.described()
                ));
            }
        }
        Ok(())
    }
}

/// The cells a line passes through: its points each at a cell's centre, but for its ends, which may be moved less
/// than half a cell towards the next point (as arrows and between lines start).
pub(super) fn line_cells(points: &[Point], n: usize, what: &str) -> Result<Vec<String>, Refusal> {
    let mut cells = Vec::with_capacity(points.len());
    for (k, &p) in points.iter().enumerate() {
        let cell = cell_at(p);
        let end = k == 0 || k + 1 == points.len();
        if !inside(cell, n) || (!end && !near(p, centre(cell))) {
            return Err(format!(
                "a {what} through ({:.2}, {:.2}), not a cell's centre",
                p.0, p.1
            ));
        }
        cells.push(name(cell.0, cell.1));
    }
    if cells.len() < 2 {
        return Err(format!("a {what} of one point"));
    }
    Ok(cells)
}
