//! What each primitive shows for a solution's values, so that `generate` can write any grammar's clues from a
//! solution: a cage's or room's hint, a line's clue (or whether the line may be drawn at all), an outside clue,
//! whether a pair of neighbours carries a section's mark. One arm per primitive, beside [`super::bind`]'s
//! builder of the same name; a test checks every maker against the rule that the builder makes from its clue.

use crate::grammar::Args;
use crate::grid::{Cell, Grid};
use crate::parse::clues::{Arrow, Op};
use crate::rules::indexer::{self, Along};
use crate::rules::not_monotone::ordered;
use crate::rules::{battlefield, numbered_room, product, sandwich, sum, visibility, x_sum, Score};
use crate::yaml::Value;

/// A line's maker: `None` when the rule forbids the values along the line, else the clue it reads, if any. It
/// is also told where the line lies ([`Place`]), for the rules that read places as well as values.
pub(crate) type LineMaker = fn(&Args, &[u32], &Place) -> Option<Option<LineClue>>;

/// Where a line lies on the solution it is drawn on.
pub(crate) struct Place<'a> {
    /// The cells along the line, first to last.
    pub(crate) cells: &'a [Cell],
    /// Every cell's region, row by row: its box, or its region where the grid is cut into regions (all alike
    /// when there are neither). Region-sum lines are split by them; a box indexer points inside its own.
    pub(crate) regions: &'a [usize],
    /// The solution (an indexer's value points at another cell, which must hold the indexer's own index).
    pub(crate) solution: &'a Grid,
}

impl Place<'_> {
    fn region(&self, cell: Cell) -> Option<usize> {
        self.regions
            .get(cell.row * self.solution.size() + cell.col)
            .copied()
    }

    /// Whether every cell of the line, as an indexer into `along`, points at a cell holding its index. A box
    /// indexer's box is its region here, its cells in reading order.
    fn indexes(
        &self,
        values: &[u32],
        along: fn(usize) -> Option<Along>,
    ) -> Option<Option<LineClue>> {
        let n = self.solution.size();
        let held = self.cells.iter().zip(values).all(|(&cell, &v)| {
            let pointed = match along(n) {
                Some(along) => Some(indexer::points(cell, v as usize, along)),
                None => self.in_region(cell, v as usize),
            };
            pointed.is_some_and(|(target, index)| self.solution.get(target) as usize == index)
        });
        held.then_some(None)
    }

    /// The cell of `cell`'s region that `v` points at, and `cell`'s own place there (both in reading order);
    /// `None` where the region is not n cells.
    fn in_region(&self, cell: Cell, v: usize) -> Option<(Cell, usize)> {
        let n = self.solution.size();
        let mine = self.region(cell);
        let unit: Vec<Cell> = (0..n * n)
            .map(|i| Cell::new(i / n, i % n))
            .filter(|&c| self.region(c) == mine)
            .collect();
        let place = unit.iter().position(|&c| c == cell)?;
        let target = *unit.get(v.checked_sub(1)?)?;
        (unit.len() == n).then_some((target, place + 1))
    }
}

/// What a line shows after `=`: a number (a sum, a difference), or a list of values (a quadruple's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineClue {
    Number(u64),
    Values(Vec<u32>),
    /// A number with its operator (a Mathrax point's `4+`).
    Op(u64, Op),
    /// The values a line's cells hold, for its section to name with a mark that allows them all (a Mathrax
    /// circle's `E`); `generate` turns it into [`LineClue::Mark`] or turns the line down.
    Within(Vec<u32>),
    /// One of the section's marks.
    Mark(String),
}

impl std::fmt::Display for LineClue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineClue::Number(k) => write!(f, "{k}"),
            &LineClue::Op(target, op) => write!(
                f,
                "{}",
                crate::parse::clues::ArithmeticClue {
                    target,
                    op: Some(op)
                }
            ),
            LineClue::Mark(mark) => write!(f, "{mark}"),
            LineClue::Values(vs) | LineClue::Within(vs) => {
                let words: Vec<String> = vs.iter().map(u32::to_string).collect();
                write!(f, "{}", words.join(" "))
            }
        }
    }
}

/// How a primitive's clues are read off a solution, by the kind of section it binds.
#[derive(Clone, Copy)]
pub(crate) enum Maker {
    /// Cages and rooms (`regions` with `clues`): a region's values, and a random number to choose among clues
    /// (KenKen's operator), to the clue's text.
    Region(fn(&[u32], u64) -> String),
    /// `lines`: the values along a line, first to last: `None` when the rule forbids them, else the clue to
    /// write after `=`, if the rule reads one.
    Line(LineMaker),
    /// Edge sections: the clue for a row's or column's values seen from one side (`top`, `bottom`, `left`,
    /// `right`: an arrow's way depends on it), nearest first, as written.
    Edge(fn(&Args, &str, &[u32]) -> String),
    /// `pairs` and `relations`: which section two neighbours belong in, and whether every pair that belongs
    /// in one must be marked.
    Pair(PairMaker),
    /// `marks`: the section's own meanings say which marks a value may carry.
    Marks,
    /// `marks` whose cells stand above (`false`) or below (`true`, the primitive's `less`) their unmarked
    /// neighbours: where the marks go depends on the neighbours' values, not on the cell's alone.
    Peaks(fn(&Args) -> bool),
}

/// A pair primitive's clue maker.
#[derive(Clone, Copy)]
pub(crate) struct PairMaker {
    /// Whether two neighbours' values, in the order written, belong in the named section.
    pub(crate) holds: fn(&Args, &str, u32, u32) -> bool,
    /// Whether the binding says that neighbours in no section satisfy none of the relations (its negative
    /// rule): then every pair of neighbours that belongs in a section must be marked, whatever else is drawn
    /// between them.
    pub(crate) exclusive: fn(&Args) -> bool,
}

/// The clue maker of a primitive, if it has one.
pub(crate) fn maker(primitive: &str) -> Option<Maker> {
    Some(match primitive {
        "sum" => Maker::Region(|values, _| sum::clue_for(values)),
        "product" => Maker::Region(|values, _| product::clue_for(values)),
        "arithmetic" => Maker::Region(arithmetic),
        "less" => Maker::Pair(PairMaker {
            holds: |_, _, a, b| a < b,
            exclusive: |_| false,
        }),
        "consecutive" => Maker::Pair(PairMaker {
            holds: |_, _, a, b| a.abs_diff(b) == 1,
            exclusive: super::bind::consecutive_exclusive,
        }),
        "tagged-pairs" => Maker::Pair(PairMaker {
            holds: tagged,
            exclusive: super::bind::tagged_exclusive,
        }),
        "visibility" => Maker::Edge(|args, _, values| {
            let score = match args.get("sum").and_then(Value::as_bool) {
                Some(true) => Score::Heights,
                _ => Score::Count,
            };
            visibility::seen(values, score).to_string()
        }),
        // A row or column of a Latin square holds 1 and n, in two cells but on a 1x1 grid (no clue there).
        "sandwich" => Maker::Edge(|_, _, values| {
            let between = sandwich::between(values, 1, values.len() as u32);
            between.map_or_else(|| ".".to_owned(), |s| s.to_string())
        }),
        // Every value of a row or column is at most its length, so the first X cells are there.
        "x-sum" => Maker::Edge(|_, _, values| x_sum::seen(values).unwrap_or(0).to_string()),
        // Both armies are on the line: every value of a row or column is at most its length.
        "battlefield" => {
            Maker::Edge(|_, _, values| battlefield::clue_of(values).unwrap_or(0).to_string())
        }
        "frame-sum" => Maker::Edge(|args, _, values| {
            let depth = args.get("depth").and_then(Value::as_u64).unwrap_or(1) as usize;
            values.iter().take(depth).sum::<u32>().to_string()
        }),
        // Every value of the first `depth` cells, smallest first: `generate` then drops whole clues, and the
        // values of those left that the puzzle does not need.
        "frame-contains" => Maker::Edge(|args, _, values| {
            let depth = args.get("depth").and_then(Value::as_u64).unwrap_or(1) as usize;
            let mut first: Vec<u32> = values.iter().take(depth).copied().collect();
            first.sort_unstable();
            crate::parse::clues::set_text(&first, values.len())
        }),
        // An arrow where the first `depth` values rise or fall, pointing at the largest; `.` where they do
        // neither (with `exclusive`, what the absence of an arrow says).
        "frame-order" => Maker::Edge(|args, side, values| {
            let depth = args.get("depth").and_then(Value::as_u64).unwrap_or(1) as usize;
            let first = &values[..depth.min(values.len())];
            let inward = Arrow::inward(side);
            match (ordered(first, true), ordered(first, false)) {
                (true, false) => inward.symbol().to_string(),
                (false, true) => inward.reversed().symbol().to_string(),
                _ => ".".to_owned(),
            }
        }),
        "numbered-room" => {
            Maker::Edge(|_, _, values| numbered_room::room(values).map_or(0, u64::from).to_string())
        }
        "marks" => Maker::Marks,
        "peaks" => Maker::Peaks(|args| args.get("less").and_then(Value::as_bool) == Some(true)),
        _ => Maker::Line(line_maker(primitive)?),
    })
}

/// The maker of a primitive that reads lines, if it is one.
fn line_maker(primitive: &str) -> Option<LineMaker> {
    Some(match primitive {
        "increasing" => |args, values, _| {
            let slow = args.get("slow").and_then(Value::as_bool) == Some(true);
            values
                .windows(2)
                .all(|w| w[0] < w[1] || (slow && w[0] == w[1]))
                .then_some(None)
        },
        "apart" => apart,
        "mirror" => |_, values, _| values.iter().eq(values.iter().rev()).then_some(None),
        "line-sum" => |_, values, _| {
            Some(Some(LineClue::Number(
                values.iter().map(|&v| u64::from(v)).sum(),
            )))
        },
        "arrow-sum" => arrow_sum,
        "difference" => difference,
        // A line with something inside, every inside value strictly between the ends.
        "between" => |_, values, _| match values {
            [a, inside @ .., b] if !inside.is_empty() => inside
                .iter()
                .all(|v| a.min(b) < v && v < a.max(b))
                .then_some(None),
            _ => None,
        },
        "cage" => cage,
        "all-different" => |_, values, _| {
            let mut sorted = values.to_vec();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[0] != w[1]).then_some(None)
        },
        "lockout" => lockout,
        // Cut where the running sum reaches the total; never past it, and nothing left over.
        "segment-sum" => |args, values, _| {
            let total = args.get("total").and_then(Value::as_u64).unwrap_or(10);
            let left = values
                .iter()
                .try_fold(0u64, |s, &v| match s + u64::from(v) {
                    t if t < total => Some(t),
                    t if t == total => Some(0),
                    _ => None,
                })?;
            (left == 0).then_some(None)
        },
        "row-indexer" => |_, values, place| place.indexes(values, |_| Some(Along::Row)),
        "column-indexer" => |_, values, place| place.indexes(values, |_| Some(Along::Column)),
        "box-indexer" => |_, values, place| place.indexes(values, |_| None),
        "consecutive-set" => |_, values, _| {
            let mut sorted = values.to_vec();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[1] == w[0] + 1).then_some(None)
        },
        "region-sum" => region_sum,
        "zipper" => zipper,
        // The two ends add up to the cells between them.
        "double-arrow" => |_, values, _| match values {
            [a, inside @ .., b] if !inside.is_empty() => {
                (inside.iter().sum::<u32>() == a + b).then_some(None)
            }
            _ => None,
        },
        // Two cells at least, one value of each class in every window of the classes' count.
        "classes" => |args, values, place| {
            let classes = crate::grammar::classes::classes(args.get("classes"))
                .ok()?
                .at(place.solution.size())
                .ok()?;
            (values.len() > 1 && crate::rules::classes::first_break(&classes, values).is_none())
                .then_some(None)
        },
        // A group of two to four cells (a quadruple's four, where f-puzzles draws one) shows every value it
        // holds, smallest first: `generate` then drops whole groups, and the values of those left that the
        // puzzle does not need.
        "contains" => |_, values, _| {
            let mut sorted = values.to_vec();
            sorted.sort_unstable();
            (2..=4)
                .contains(&values.len())
                .then_some(Some(LineClue::Values(sorted)))
        },
        "diagonal-pairs" => diagonal_pairs,
        "within" => |_, values, _| {
            let mut held = values.to_vec();
            held.sort_unstable();
            held.dedup();
            Some(Some(LineClue::Within(held)))
        },
        _ => return None,
    })
}

/// A 2x2 block's clue: an operator both its diagonal pairs reach the same number with, if one does. Which of
/// the operators that fit is shown turns with the values' sum, so that a puzzle shows all four.
fn diagonal_pairs(_: &Args, values: &[u32], place: &Place) -> Option<Option<LineClue>> {
    if values.len() != 4 || !crate::parse::cells::is_block(place.cells) {
        return None;
    }
    let value = |cell: Cell| {
        let i = place.cells.iter().position(|&c| c == cell)?;
        Some(u64::from(values[i]))
    };
    let [[a, d], [b, c]] = crate::model::bind::diagonal_pairs(place.cells);
    let (a, d, b, c) = (value(a)?, value(d)?, value(b)?, value(c)?);
    let ratio = |x: u64, y: u64| (x.max(y) % x.min(y) == 0).then(|| x.max(y) / x.min(y));
    let fits = [
        (a + d == b + c).then_some((a + d, Op::Add)),
        (a * d == b * c).then_some((a * d, Op::Mul)),
        (a.abs_diff(d) == b.abs_diff(c)).then_some((a.abs_diff(d), Op::Sub)),
        ratio(a, d)
            .filter(|&r| ratio(b, c) == Some(r))
            .map(|r| (r, Op::Div)),
    ];
    let turn = values.iter().map(|&v| v as usize).sum::<usize>();
    let (k, op) = (0..4).find_map(|i| fits[(turn + i) % 4])?;
    Some(Some(LineClue::Op(k, op)))
}

/// The clue is the difference every step shares; a line whose steps differ by different amounts (or not at
/// all) shows none.
fn difference(_: &Args, values: &[u32], _: &Place) -> Option<Option<LineClue>> {
    let step = |w: &[u32]| w[0].abs_diff(w[1]);
    let first = values.get(..2).map(step).filter(|&k| k > 0)?;
    values
        .windows(2)
        .all(|w| step(w) == first)
        .then_some(Some(LineClue::Number(u64::from(first))))
}

/// Two pieces at least, each adding up to the same (a line inside one box says nothing).
fn region_sum(_: &Args, values: &[u32], place: &Place) -> Option<Option<LineClue>> {
    let indices: Vec<usize> = (0..values.len()).collect();
    let pieces = super::bind::pieces_by(&indices, |i| place.region(*place.cells.get(i)?))?;
    let sum = |p: &Vec<usize>| p.iter().map(|&i| u64::from(values[i])).sum::<u64>();
    (pieces.len() > 1 && pieces.iter().all(|p| sum(p) == sum(&pieces[0]))).then_some(None)
}

/// Three cells at least (a lone pair says nothing), each pair adding up to the middle or to the same.
fn zipper(_: &Args, values: &[u32], _: &Place) -> Option<Option<LineClue>> {
    let (pairs, middle) = super::bind::zipper_pieces(values);
    let sums: Vec<u32> = pairs.iter().map(|p| p.iter().sum()).collect();
    let want = middle.or(sums.first().copied())?;
    (values.len() > 2 && sums.iter().all(|&s| s == want)).then_some(None)
}

/// The circle (the first cell) equals the sum of the rest; with `distinct`, the rest differ.
fn arrow_sum(args: &Args, values: &[u32], _: &Place) -> Option<Option<LineClue>> {
    let (&circle, rest) = values.split_first().filter(|(_, rest)| !rest.is_empty())?;
    let distinct = args.get("distinct").and_then(Value::as_bool) == Some(true);
    let mut sorted = rest.to_vec();
    sorted.sort_unstable();
    let repeats = sorted.windows(2).any(|w| w[0] == w[1]);
    (rest.iter().map(|&v| u64::from(v)).sum::<u64>() == u64::from(circle) && !(distinct && repeats))
        .then_some(None)
}

/// A cage shows its sum (or its product), when its digits differ or may repeat.
fn cage(args: &Args, values: &[u32], _: &Place) -> Option<Option<LineClue>> {
    let flag = |key: &str| args.get(key).and_then(Value::as_bool) == Some(true);
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let mut digits = values.iter().map(|&v| u64::from(v));
    // A product past u64 (a long cage of a large grid) is no clue to show.
    let clue = if flag("product") {
        digits.try_fold(1u64, u64::checked_mul)?
    } else {
        digits.sum()
    };
    (flag("repeat") || sorted.windows(2).all(|w| w[0] != w[1]))
        .then_some(Some(LineClue::Number(clue)))
}

/// Neighbours on the line `by` apart, or every two cells of it with `every: true`.
fn apart(args: &Args, values: &[u32], _: &Place) -> Option<Option<LineClue>> {
    let by = args.get("by").and_then(Value::as_u64).unwrap_or(1);
    let apart = |a: u32, b: u32| u64::from(a.abs_diff(b)) >= by;
    let held = if args.get("every").and_then(Value::as_bool) == Some(true) {
        (0..values.len()).all(|i| values[i + 1..].iter().all(|&b| apart(values[i], b)))
    } else {
        values.windows(2).all(|w| apart(w[0], w[1]))
    };
    held.then_some(None)
}

/// The ends `by` apart, and a cell between them at least (a line of two is a pair apart), each outside them.
fn lockout(args: &Args, values: &[u32], _: &Place) -> Option<Option<LineClue>> {
    match values {
        [a, inside @ .., b] if !inside.is_empty() => {
            let by = args.get("by").and_then(Value::as_u64).unwrap_or(1);
            let out = |v: &u32| v < a.min(b) || v > a.max(b);
            (u64::from(a.abs_diff(*b)) >= by && inside.iter().all(out)).then_some(None)
        }
        _ => None,
    }
}

/// A tagged pair belongs in the section whose relation its values satisfy.
fn tagged(args: &Args, section: &str, a: u32, b: u32) -> bool {
    let Some(Value::Mapping(tags)) = args.get("tags") else {
        return false;
    };
    tags.get(section)
        .and_then(Value::as_str)
        .and_then(super::bind::relation_kind)
        .is_some_and(|kind| kind.holds(a, b))
}

/// A KenKen clue: `-` or `/` on two cells when it comes out whole (half the time), else `+` or `*`, and a
/// single cell shows its value.
fn arithmetic(values: &[u32], pick: u64) -> String {
    if let [v] = values {
        return v.to_string();
    }
    if let [a, b] = values {
        let (hi, lo) = (*a.max(b), *a.min(b));
        if pick % 4 == 0 && hi % lo == 0 {
            return format!("{}/", hi / lo);
        }
        if pick % 4 == 1 {
            return format!("{}-", hi - lo);
        }
    }
    if (pick / 4) % 2 == 0 {
        format!("{}+", sum::clue_for(values))
    } else {
        format!("{}*", crate::rules::product::clue_for(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::vocabulary::PRIMITIVES;

    fn region(p: &str, values: &[u32], pick: u64) -> String {
        let Some(Maker::Region(f)) = maker(p) else {
            panic!("{p} has no region maker")
        };
        f(values, pick)
    }

    /// A maker on a line along the first row of a grid that holds `values` there, each cell of the line in
    /// the region given.
    fn along(
        f: LineMaker,
        args: &Args,
        values: &[u32],
        regions: &[usize],
    ) -> Option<Option<LineClue>> {
        // A grid that holds every value given (the classes of a line depend on the grid's size).
        let largest = values.iter().max().map_or(0, |&v| v as usize);
        let n = values.len().max(largest).max(1);
        let mut rows = vec![vec![0; n]; n];
        rows[0][..values.len()].copy_from_slice(values);
        let solution = Grid::from_rows(&rows).unwrap();
        let mut map = vec![0; n * n];
        map[..regions.len()].copy_from_slice(regions);
        let cells: Vec<Cell> = (0..values.len()).map(|c| Cell::new(0, c)).collect();
        let place = Place {
            cells: &cells,
            regions: &map,
            solution: &solution,
        };
        f(args, values, &place)
    }

    fn line(p: &str, args: &Args, values: &[u32]) -> Option<Option<u64>> {
        let Some(Maker::Line(f)) = maker(p) else {
            panic!("{p} has no line maker")
        };
        along(f, args, values, &vec![0; values.len()]).map(|clue| {
            clue.map(|c| match c {
                LineClue::Number(k) => k,
                _ => panic!("{p} does not read a number"),
            })
        })
    }

    /// An Outside Sudoku clue is the first `depth` values, smallest first, as the section reads them back.
    #[test]
    fn outside_clues_list_the_first_values() {
        let Some(Maker::Edge(outside)) = maker("frame-contains") else {
            panic!()
        };
        let depth: Args = crate::yaml::from_str("depth: 3").unwrap();
        assert_eq!(outside(&depth, "top", &[5, 1, 3, 2, 4]), "135");
        assert_eq!(
            outside(&depth, "top", &[12, 1, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11]),
            "1,3,12"
        );
    }

    /// Rossini arrows made from a solution, on every side, read back through the section parser and the rule
    /// bound from them, hold on it; and each arrow turned the other way, or taken away, breaks it (with
    /// `exclusive`, a missing arrow says the values are not in order).
    #[test]
    fn frame_order_arrows_hold_where_they_were_made() {
        use crate::grammar::sections::{SectionValue, Sections};
        use crate::model::bind::{build, Site};
        let Some(Maker::Edge(arrow)) = maker("frame-order") else {
            panic!()
        };
        let args: Args = crate::yaml::from_str(
            "{top: top, bottom: bottom, left: left, right: right, depth: 3, exclusive: true}",
        )
        .unwrap();
        let n = 5;
        let site = Site { n, boxes: None };
        let seen = |side: &str, i: usize| -> Vec<Cell> {
            let line: Vec<Cell> = match side {
                "top" | "bottom" => (0..n).map(|r| Cell::new(r, i)).collect(),
                _ => (0..n).map(|c| Cell::new(i, c)).collect(),
            };
            match side {
                "bottom" | "right" => line.into_iter().rev().collect(),
                _ => line,
            }
        };
        let sections_of = |texts: &[(&str, Vec<String>)]| -> Sections {
            let parse = |name: &str, text: &str| {
                let arrows = crate::parse::clues::edge_arrows(
                    &crate::parse::SectionText::single(name, text),
                    n,
                );
                SectionValue::EdgeArrows(arrows.unwrap())
            };
            texts
                .iter()
                .map(|(side, tokens)| (side.to_string(), parse(side, &tokens.join(" "))))
                .collect()
        };
        let holds = |texts: &[(&str, Vec<String>)], grid: &Grid| {
            let rules = build("frame-order", &args, &sections_of(texts), &site).unwrap();
            rules.iter().all(|r| r.check(grid).is_ok())
        };
        let mut rng = fastrand::Rng::with_seed(41);
        let (mut arrows, mut dots) = (0, 0);
        for _ in 0..20 {
            // A cyclic Latin square with its rows, columns and values shuffled.
            let (mut rows, mut cols, mut vals) = (
                (0..n).collect::<Vec<_>>(),
                (0..n).collect::<Vec<_>>(),
                (1..=n as u32).collect::<Vec<_>>(),
            );
            rng.shuffle(&mut rows);
            rng.shuffle(&mut cols);
            rng.shuffle(&mut vals);
            let mut grid = Grid::empty(n);
            for r in 0..n {
                for c in 0..n {
                    grid.set(Cell::new(rows[r], cols[c]), vals[(r + c) % n]);
                }
            }
            let texts: Vec<(&str, Vec<String>)> = ["top", "bottom", "left", "right"]
                .into_iter()
                .map(|side| {
                    let made = (0..n).map(|i| {
                        let values: Vec<u32> = seen(side, i).iter().map(|&c| grid.get(c)).collect();
                        arrow(&args, side, &values)
                    });
                    (side, made.collect())
                })
                .collect();
            assert!(holds(&texts, &grid), "{texts:?}");
            for (k, (side, tokens)) in texts.iter().enumerate() {
                for (i, token) in tokens.iter().enumerate() {
                    let turned = match token.as_str() {
                        "v" => "^",
                        "^" => "v",
                        "<" => ">",
                        ">" => "<",
                        _ => {
                            dots += 1;
                            continue;
                        }
                    };
                    arrows += 1;
                    for other in [turned, "."] {
                        let mut changed = texts.clone();
                        changed[k].1[i] = other.to_owned();
                        assert!(!holds(&changed, &grid), "{side} {i}: {token} -> {other}");
                    }
                }
            }
        }
        assert!(arrows > 100 && dots > 100, "{arrows} arrows, {dots} dots");
    }

    #[test]
    fn clues_are_what_the_rules_read() {
        assert_eq!(region("sum", &[3, 5, 1], 0), "9");
        assert_eq!(region("product", &[3, 5, 1], 0), "15");
        assert_eq!(region("arithmetic", &[6, 3], 0), "2/");
        assert_eq!(region("arithmetic", &[6, 3], 1), "3-");
        assert_eq!(region("arithmetic", &[4], 1), "4");
        let none = Args::new();
        assert_eq!(line("increasing", &none, &[1, 4, 7]), Some(None));
        assert_eq!(line("increasing", &none, &[1, 7, 4]), None);
        assert_eq!(line("increasing", &none, &[1, 1, 4]), None);
        let slow: Args = [("slow".to_owned(), Value::from(true))]
            .into_iter()
            .collect();
        assert_eq!(line("increasing", &slow, &[1, 1, 4]), Some(None));
        assert_eq!(line("increasing", &slow, &[1, 7, 4]), None);
        assert_eq!(line("line-sum", &none, &[1, 7, 7]), Some(Some(15)));
        assert_eq!(line("cage", &none, &[1, 7, 2]), Some(Some(10)));
        assert_eq!(line("cage", &none, &[1, 7, 7]), None);
        let repeat: Args = [("repeat".to_owned(), Value::from(true))]
            .into_iter()
            .collect();
        assert_eq!(line("cage", &repeat, &[1, 7, 7]), Some(Some(15)));
        assert_eq!(line("arrow-sum", &none, &[9, 4, 5]), Some(None));
        assert_eq!(line("arrow-sum", &none, &[9, 4, 4]), None);
        assert_eq!(line("arrow-sum", &none, &[9]), None);
        assert_eq!(line("mirror", &none, &[2, 5, 2]), Some(None));
        assert_eq!(line("mirror", &none, &[2, 5, 3]), None);
        assert_eq!(line("between", &none, &[2, 5, 3, 7]), Some(None));
        assert_eq!(line("between", &none, &[7, 5, 3, 2]), Some(None));
        assert_eq!(line("between", &none, &[2, 5, 7, 7]), None);
        assert_eq!(line("between", &none, &[2, 7]), None);
        assert_eq!(line("all-different", &none, &[4, 1, 9]), Some(None));
        assert_eq!(line("all-different", &none, &[4, 1, 4]), None);
        assert_eq!(line("difference", &none, &[4, 1]), Some(Some(3)));
        assert_eq!(line("difference", &none, &[4, 1, 4, 7]), Some(Some(3)));
        assert_eq!(line("difference", &none, &[4, 1, 3]), None);
        assert_eq!(line("difference", &none, &[4, 4]), None);
        assert_eq!(line("consecutive-set", &none, &[4, 2, 3]), Some(None));
        assert_eq!(line("consecutive-set", &none, &[4, 2, 5]), None);
        assert_eq!(line("zipper", &none, &[2, 5, 3]), Some(None));
        assert_eq!(line("zipper", &none, &[2, 6, 3]), None);
        assert_eq!(line("zipper", &none, &[2, 4, 3, 5]), Some(None));
        assert_eq!(line("zipper", &none, &[2, 4, 1, 6]), None);
        assert_eq!(line("zipper", &none, &[2, 4]), None);
        let Some(Maker::Line(region_sum)) = maker("region-sum") else {
            panic!()
        };
        // Boxes 0 | 1 | 0 again: three pieces, 1 + 6, 7, 3 + 4.
        assert_eq!(
            along(region_sum, &none, &[1, 6, 7, 3, 4], &[0, 0, 1, 0, 0]),
            Some(None)
        );
        assert_eq!(
            along(region_sum, &none, &[1, 6, 7, 3, 5], &[0, 0, 1, 0, 0]),
            None
        );
        assert_eq!(along(region_sum, &none, &[1, 6, 7], &[0, 0, 0]), None);
        assert_eq!(line("double-arrow", &none, &[2, 5, 3, 6]), Some(None));
        assert_eq!(line("double-arrow", &none, &[2, 5, 3, 5]), None);
        assert_eq!(line("double-arrow", &none, &[2, 4]), None);
        let entropic: Args =
            crate::yaml::from_str("classes: [[1, 2, 3], [4, 5, 6], [7, 8, 9]]").unwrap();
        assert_eq!(line("classes", &entropic, &[2, 5, 9, 1]), Some(None));
        assert_eq!(line("classes", &entropic, &[2, 5, 9, 6]), None);
        assert_eq!(line("classes", &entropic, &[2, 3]), None);
        assert_eq!(line("classes", &entropic, &[2]), None);
        let by5: Args = [("by".to_owned(), Value::from(5))].into_iter().collect();
        assert_eq!(line("apart", &by5, &[1, 6, 1]), Some(None));
        assert_eq!(line("apart", &by5, &[1, 6, 2]), None);
        let Some(Maker::Line(contains)) = maker("contains") else {
            panic!()
        };
        assert_eq!(
            along(contains, &none, &[7, 2, 7, 1], &[0; 4]),
            Some(Some(LineClue::Values(vec![1, 2, 7, 7])))
        );
        assert_eq!(along(contains, &none, &[7], &[0]), None);
        assert_eq!(LineClue::Values(vec![1, 2, 7]).to_string(), "1 2 7");
        // A mark's maker hands on the distinct values held, for the section to name.
        let Some(Maker::Line(within)) = maker("within") else {
            panic!()
        };
        assert_eq!(
            along(within, &none, &[4, 2, 4, 6], &[0; 4]),
            Some(Some(LineClue::Within(vec![2, 4, 6])))
        );
        assert_eq!(LineClue::Mark("E".into()).to_string(), "E");
        let Some(Maker::Edge(sandwich)) = maker("sandwich") else {
            panic!()
        };
        assert_eq!(sandwich(&none, "top", &[3, 1, 2, 5, 4]), "2");
        assert_eq!(sandwich(&none, "top", &[1]), ".");
        let Some(Maker::Edge(seen)) = maker("visibility") else {
            panic!()
        };
        assert_eq!(seen(&none, "left", &[2, 1, 4, 3, 5]), "3");
        let sums: Args = [("sum".to_owned(), Value::from(true))]
            .into_iter()
            .collect();
        assert_eq!(seen(&sums, "right", &[2, 1, 4, 3, 5]), "11");
        let Some(Maker::Pair(PairMaker {
            holds: tagged,
            exclusive,
        })) = maker("tagged-pairs")
        else {
            panic!()
        };
        let kropki: Args =
            crate::yaml::from_str("tags: {white: difference 1, black: ratio 2}").unwrap();
        assert!(tagged(&kropki, "white", 3, 4) && !tagged(&kropki, "black", 3, 4));
        assert!(tagged(&kropki, "black", 6, 3) && !tagged(&kropki, "white", 6, 3));
        assert!(!tagged(&kropki, "grey", 1, 2));
        // Dots where the setter placed them say nothing of the others; `exclusive: true` says they do.
        assert!(!exclusive(&kropki));
        let all_given: Args =
            crate::yaml::from_str("tags: {white: difference 1}\nexclusive: true").unwrap();
        assert!(exclusive(&all_given));
        let Some(Maker::Pair(consecutive)) = maker("consecutive") else {
            panic!()
        };
        assert!((consecutive.exclusive)(&none));
        let Some(Maker::Pair(less)) = maker("less") else {
            panic!()
        };
        assert!(!(less.exclusive)(&none));
    }

    /// An indexer maker accepts a cell exactly where the rule bound from it holds, for each of the three units
    /// (a box indexer's box read off the regions), on every cell of a 4x4 Latin square and of its transpose.
    #[test]
    fn indexer_makers_agree_with_their_rules() {
        let square = crate::rules::latin_square_4();
        let mut transposed = square.clone();
        for cell in (0..16).map(|i| Cell::new(i / 4, i % 4)) {
            transposed.set(Cell::new(cell.col, cell.row), square.get(cell));
        }
        let boxes = crate::grid::box_map(4, (2, 2));
        let mut accepted = 0;
        for solution in [&square, &transposed] {
            for (name, along) in [
                ("row-indexer", Along::Row),
                ("column-indexer", Along::Column),
                ("box-indexer", Along::Box(2, 2)),
            ] {
                let Some(Maker::Line(f)) = maker(name) else {
                    panic!("{name}")
                };
                for cell in (0..16).map(|i| Cell::new(i / 4, i % 4)) {
                    let place = Place {
                        cells: &[cell],
                        regions: &boxes,
                        solution,
                    };
                    let made = f(&Args::new(), &[solution.get(cell)], &place).is_some();
                    let indexer = indexer::Indexer {
                        label: "test".into(),
                        cell,
                        along,
                        n: 4,
                    };
                    let rule = crate::rules::Rule::check(&indexer, solution).is_ok();
                    assert_eq!(made, rule, "{name} {cell}");
                    accepted += usize::from(made);
                }
            }
        }
        assert!(accepted > 0 && accepted < 96, "{accepted}");
    }

    /// The Mathrax maker, on every 2x2 block of values 1..6 with its cells in a scrambled order: a clue it shows
    /// holds for both diagonal pairs (top-left with bottom-right, top-right with bottom-left), a block it
    /// refuses has no operator that both pairs reach the same number with, and all four operators are shown.
    #[test]
    fn diagonal_pair_clues_hold_on_both_diagonals() {
        let Some(Maker::Line(f)) = maker("diagonal-pairs") else {
            panic!()
        };
        let cells = [
            Cell::new(3, 5),
            Cell::new(4, 4),
            Cell::new(3, 4),
            Cell::new(4, 5),
        ];
        let reach = |op: Op, x: u32, y: u32| -> Option<u32> {
            match op {
                Op::Add => Some(x + y),
                Op::Mul => Some(x * y),
                Op::Sub => Some(x.abs_diff(y)),
                Op::Div => (x.max(y) % x.min(y) == 0).then(|| x.max(y) / x.min(y)),
            }
        };
        let ops = [Op::Add, Op::Sub, Op::Mul, Op::Div];
        let solution = Grid::from_rows(&vec![vec![0; 6]; 6]).unwrap();
        let mut shown = std::collections::BTreeSet::new();
        for k in 0..6u32.pow(4) {
            // values in the order of `cells`: r4c6, r5c5, r4c5, r5c6
            let v: Vec<u32> = (0..4).map(|i| k / 6u32.pow(i) % 6 + 1).collect();
            let (top_left, top_right, bottom_left, bottom_right) = (v[2], v[0], v[1], v[3]);
            let place = Place {
                cells: &cells,
                regions: &[0; 36],
                solution: &solution,
            };
            let both = |op: Op| {
                reach(op, top_left, bottom_right)
                    .filter(|&r| reach(op, top_right, bottom_left) == Some(r))
            };
            match f(&Args::new(), &v, &place) {
                Some(Some(LineClue::Op(target, op))) => {
                    assert_eq!(both(op).map(u64::from), Some(target), "{v:?}");
                    shown.insert(op.symbol());
                }
                None => assert!(ops.iter().all(|&op| both(op).is_none()), "{v:?}"),
                other => panic!("{v:?}: {other:?}"),
            }
        }
        assert_eq!(shown.len(), 4, "{shown:?}");
    }

    #[test]
    fn every_primitive_but_distinct_regions_has_a_maker() {
        for p in PRIMITIVES {
            assert_eq!(maker(p.name).is_none(), p.name == "distinct", "{}", p.name);
        }
    }
}
