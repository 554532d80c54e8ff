//! Binding: how a grammar's `{primitive: NAME, ...}` turns parsed puzzle-file sections into rules.
//!
//! This is the building half of the vocabulary; the signatures that grammar files are checked against are in
//! `grammar::vocabulary`. One function per primitive, one line per primitive in [`build`]; a test keeps the
//! two tables equal.

use std::sync::Arc;

use crate::error::Error;
use crate::grammar::sections::{Clue, SectionValue, Sections};
use crate::grammar::Args;
use crate::grid::Cell;
use crate::parse::cells::CellLine;
use crate::parse::clues::{pair_relation, PairRelation};
use crate::parse::clues::{ArithmeticClue, Op};
use crate::rules::indexer::{Along, Indexer};
use crate::rules::segments;
use crate::rules::{
    AllDifferent, Allowed, Arrow, Battlefield, Between, Classes, Contains, EqualSums, Lockout,
    NotMonotone, NumberedRoom, PillArrow, Product, Relation, RelationKind, Rule, Run, Sandwich,
    Score, Segments, Sum, Table, TablePredicate, Visibility, XSum,
};
use crate::yaml::Value;

type Rules = Vec<Arc<dyn Rule>>;

/// What a builder knows of the grid besides the sections: its size, and its box shape when it has boxes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Site {
    pub(crate) n: usize,
    pub(crate) boxes: Option<(usize, usize)>,
}

/// Builds the rules of one primitive use from the parsed sections of a puzzle.
pub(crate) fn build(
    primitive: &str,
    args: &Args,
    sections: &Sections,
    site: &Site,
) -> Result<Rules, Error> {
    let build = match primitive {
        "distinct" => build_distinct,
        "sum" => build_sum,
        "product" => build_product,
        "arithmetic" => build_arithmetic,
        "less" => build_less,
        "consecutive" => build_consecutive,
        "visibility" => build_visibility,
        "marks" => build_marks,
        "increasing" => build_increasing,
        "apart" => build_apart,
        "mirror" => build_mirror,
        "line-sum" => build_line_sum,
        "arrow-sum" => build_arrow_sum,
        "difference" => build_difference,
        "all-different" => build_all_different,
        "cage" => build_cage,
        "between" => build_between,
        "diagonal-pairs" => build_diagonal_pairs,
        "consecutive-set" => build_consecutive_set,
        "region-sum" => build_region_sum,
        "zipper" => build_zipper,
        "classes" => build_classes,
        "contains" => build_contains,
        "within" => build_within,
        "double-arrow" => build_double_arrow,
        "tagged-pairs" => build_tagged_pairs,
        "sandwich" => build_sandwich,
        "x-sum" => build_x_sum,
        "battlefield" => build_battlefield,
        "frame-sum" => build_frame_sum,
        "frame-contains" => build_frame_contains,
        "frame-order" => build_frame_order,
        "peaks" => build_peaks,
        "numbered-room" => build_numbered_room,
        "lockout" => build_lockout,
        "segment-sum" => build_segment_sum,
        "row-indexer" => build_row_indexer,
        "column-indexer" => build_column_indexer,
        "box-indexer" => build_box_indexer,
        // A grammar is checked against the vocabulary when it is loaded, so this is a grammar built in code.
        _ => {
            return Err(Error::Grammar {
                grammar: "(in code)".into(),
                message: format!("unknown primitive {primitive:?}"),
            })
        }
    };
    build(args, sections, site)
}

fn arg<'a>(args: &'a Args, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// The section named by parameter `key` (present whenever the section is in the file).
fn section<'a>(
    args: &Args,
    key: &str,
    sections: &'a Sections,
) -> Option<(&'a str, &'a SectionValue)> {
    let name = arg(args, key)?;
    sections.get_key_value(name).map(|(k, v)| (k.as_str(), v))
}

/// Every region of the `regions` parameter with its clue (if any), in order of first appearance.
fn regions_with_clues<'a>(
    args: &Args,
    sections: &'a Sections,
) -> Vec<(&'a str, &'a [Cell], Option<&'a Clue>, String)> {
    let Some((rname, SectionValue::Regions(regions))) = section(args, "regions", sections) else {
        return vec![];
    };
    let clues = match section(args, "clues", sections) {
        Some((cname, SectionValue::Clues(c))) => Some((cname, c)),
        _ => None,
    };
    regions
        .order
        .iter()
        .map(|id| {
            let clue = clues.and_then(|(_, c)| c.entries.get(id));
            let label = match clues {
                Some((cname, _)) => format!("{cname}.{id}"),
                None => format!("{rname} {id}"),
            };
            (id.as_str(), regions.cells[id].as_slice(), clue, label)
        })
        .collect()
}

fn integer(clue: &Clue) -> u64 {
    match clue {
        Clue::Integer(v) => *v,
        Clue::Arithmetic(a) => a.target,
    }
}

fn build_distinct(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let rname = arg(args, "regions").unwrap_or("regions");
    Ok(regions_with_clues(args, sections)
        .into_iter()
        .map(|(id, cells, _, _)| {
            Arc::new(AllDifferent::new(format!("{rname} {id}"), cells.to_vec())) as Arc<dyn Rule>
        })
        .collect())
}

fn build_sum(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let distinct = args
        .get("distinct")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(regions_with_clues(args, sections)
        .into_iter()
        .filter_map(|(_, cells, clue, label)| {
            clue.map(|c| {
                Arc::new(Sum {
                    label,
                    cells: cells.to_vec(),
                    total: integer(c),
                    distinct,
                }) as Arc<dyn Rule>
            })
        })
        .collect())
}

fn build_product(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    Ok(regions_with_clues(args, sections)
        .into_iter()
        .filter_map(|(_, cells, clue, label)| {
            clue.map(|c| {
                Arc::new(Product {
                    label,
                    cells: cells.to_vec(),
                    product: integer(c),
                }) as Arc<dyn Rule>
            })
        })
        .collect())
}

fn build_arithmetic(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let mut out: Rules = Vec::new();
    for (_, cells, clue, label) in regions_with_clues(args, sections) {
        let Some(Clue::Arithmetic(clue)) = clue else {
            continue;
        };
        out.push(arithmetic_rule(label, cells.to_vec(), *clue, site.n)?);
    }
    Ok(out)
}

/// The rule of an arithmetic clue on a group of cells (a KenKen cage, one diagonal pair of a Mathrax point):
/// a sum, a product, a difference or ratio of two cells, or any of them when the operator is hidden.
fn arithmetic_rule(
    label: String,
    cells: Vec<Cell>,
    clue: ArithmeticClue,
    n: usize,
) -> Result<Arc<dyn Rule>, Error> {
    let t = clue.target;
    let two = |op: Op| {
        if cells.len() == 2 {
            Ok(())
        } else {
            Err(Error::section(
                label.clone(),
                format!(
                    "`{t}{}` needs a cage of two cells, this one has {}",
                    op.symbol(),
                    cells.len()
                ),
            ))
        }
    };
    Ok(match clue.op {
        Some(Op::Add) => Arc::new(Sum {
            label,
            cells,
            total: t,
            distinct: false,
        }),
        Some(Op::Mul) => Arc::new(Product {
            label,
            cells,
            product: t,
        }),
        Some(Op::Sub) => {
            two(Op::Sub)?;
            Arc::new(Table {
                label,
                cells,
                predicate: TablePredicate::Difference(t),
            })
        }
        Some(Op::Div) => {
            two(Op::Div)?;
            Arc::new(Table {
                label,
                cells,
                predicate: TablePredicate::Ratio(t),
            })
        }
        None if cells.len() == 1 => {
            if t as usize > n {
                return Err(Error::section(
                    label,
                    format!("{t} is out of range 1..{n} for a one-cell cage"),
                ));
            }
            Arc::new(Allowed {
                cell: cells[0],
                allowed: vec![t as u32],
                name: format!("{t} ({label})"),
            })
        }
        None => {
            let combinations = (n as u64)
                .checked_pow(cells.len() as u32)
                .unwrap_or(u64::MAX);
            if combinations > crate::rules::table::MAX_COMBINATIONS {
                return Err(Error::section(label, format!("a hidden operator on a cage of {} cells is too large to tabulate; give the operator", cells.len())));
            }
            Arc::new(Table {
                label,
                cells,
                predicate: TablePredicate::AnyOperator(t),
            })
        }
    })
}

/// Each 2x2 entry's two diagonal pairs, each reaching the entry's clue with its operator (Mathrax).
fn build_diagonal_pairs(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let Some((name, lines)) = lines_of(args, sections) else {
        return Ok(vec![]);
    };
    let mut out: Rules = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let label = format!("{name} line {}", i + 1);
        let target = line.clue.ok_or_else(|| {
            Error::section(label.clone(), "needs its clue: `= 4+` after the cells")
        })?;
        let clue = ArithmeticClue {
            target,
            op: line.op,
        };
        for pair in diagonal_pairs(&line.cells) {
            out.push(arithmetic_rule(label.clone(), pair.to_vec(), clue, site.n)?);
        }
    }
    Ok(out)
}

/// The two diagonal pairs of a 2x2 block's cells (given in any order): top-left with bottom-right, top-right
/// with bottom-left.
pub(crate) fn diagonal_pairs(cells: &[Cell]) -> [[Cell; 2]; 2] {
    let top = cells.iter().map(|c| c.row).min().unwrap_or(0);
    let left = cells.iter().map(|c| c.col).min().unwrap_or(0);
    let at = |r: usize, c: usize| Cell::new(top + r, left + c);
    [[at(0, 0), at(1, 1)], [at(0, 1), at(1, 0)]]
}

fn build_less(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let Some((name, SectionValue::Relations(pairs))) = section(args, "relations", sections) else {
        return Ok(vec![]);
    };
    Ok(pairs
        .iter()
        .map(|&(a, b)| Arc::new(Relation::new(a, b, RelationKind::Less, name)) as Arc<dyn Rule>)
        .collect())
}

/// Whether consecutive marks come with their negative rule: `exclusive`, true unless said otherwise.
pub(crate) fn consecutive_exclusive(args: &Args) -> bool {
    args.get("exclusive")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

/// Whether tagged pairs come with a negative rule: `exclusive: true` with at least one tag, or a list of tags.
pub(crate) fn tagged_exclusive(args: &Args) -> bool {
    !exclusive_tags(args).is_empty()
}

/// The tags whose relation neighbours in no section avoid: every tag with `exclusive: true`, the listed ones
/// with `exclusive: [black]` (every black dot given, white dots only where the setter placed them), none else.
pub(crate) fn exclusive_tags(args: &Args) -> Vec<String> {
    let Some(Value::Mapping(tags)) = args.get("tags") else {
        return Vec::new();
    };
    let names = tags.keys().filter_map(Value::as_str).map(str::to_owned);
    match args.get("exclusive") {
        Some(Value::Bool(true)) => names.collect(),
        Some(Value::Sequence(listed)) => {
            let listed: Vec<&str> = listed.iter().filter_map(Value::as_str).collect();
            names
                .filter(|name| listed.contains(&name.as_str()))
                .collect()
        }
        _ => Vec::new(),
    }
}

fn build_consecutive(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let n = site.n;
    let exclusive = consecutive_exclusive(args);
    let name = arg(args, "pairs").unwrap_or("consecutive").to_owned();
    let unmarked = exclusive.then(|| (RelationKind::NotConsecutive, format!("{name} (unmarked)")));
    marked_pairs(&[(name, RelationKind::Consecutive)], unmarked, sections, n)
}

/// The relations of marked pairs: each pair of a named pairs section satisfies that section's relation, with
/// the pair's own number when it has one (a numbered dot; a pair listed twice is one rule), and, with
/// `unmarked`, every pair of orthogonal neighbours in no section satisfies that relation instead (the negative
/// rule of consecutive, kropki and XV marks). A negative rule of tagged marks ([`RelationKind::NoneOf`]) also
/// rules out every numbered relation the marks of its tags use, as SudokuSolver reads f-puzzles' numbered dots: a
/// pair with no dot differs by neither 1 nor 3 when a dot says 3.
fn marked_pairs(
    tags: &[(String, RelationKind)],
    unmarked: Option<(RelationKind, String)>,
    sections: &Sections,
    n: usize,
) -> Result<Rules, Error> {
    let key = |a: Cell, b: Cell| if a < b { (a, b) } else { (b, a) };
    let mut marked = std::collections::BTreeSet::new();
    // Each numbered relation with the relation of its tag.
    let mut numbered: Vec<(RelationKind, RelationKind)> = Vec::new();
    let mut out: Rules = Vec::new();
    for (name, kind) in tags {
        let Some(SectionValue::Pairs(pairs)) = sections.get(name) else {
            continue;
        };
        let mut listed = std::collections::BTreeSet::new();
        for (i, p) in pairs.iter().enumerate() {
            if !listed.insert(key(p.a, p.b)) {
                continue;
            }
            marked.insert(key(p.a, p.b));
            let kind = match p.number {
                None => kind.clone(),
                Some(k) => {
                    let own = kind.numbered(k).ok_or_else(|| {
                        let message = format!(
                            "{}-{} = {k}: this section's pairs carry no number (its relation has none)",
                            p.a, p.b
                        );
                        Error::section(format!("{name} line {}", i + 1), message)
                    })?;
                    if !numbered.contains(&(kind.clone(), own.clone())) {
                        numbered.push((kind.clone(), own.clone()));
                    }
                    own
                }
            };
            // In the order written: `less` is not symmetric.
            out.push(Arc::new(Relation::new(p.a, p.b, kind, name.clone())));
        }
    }
    let Some((kind, source)) = unmarked else {
        return Ok(out);
    };
    let kind = match kind {
        RelationKind::NoneOf(kinds) => {
            let mut all = kinds.to_vec();
            all.extend(
                numbered
                    .into_iter()
                    .filter(|(tag, own)| kinds.contains(tag) && !kinds.contains(own))
                    .map(|(_, own)| own),
            );
            RelationKind::NoneOf(all.into())
        }
        other => other,
    };
    for a in (0..n).flat_map(|r| (0..n).map(move |c| Cell::new(r, c))) {
        for b in [Cell::new(a.row, a.col + 1), Cell::new(a.row + 1, a.col)] {
            if b.row < n && b.col < n && !marked.contains(&(a, b)) {
                out.push(Arc::new(Relation::new(a, b, kind.clone(), source.clone())));
            }
        }
    }
    Ok(out)
}

/// Where the clue of row or column `i` on `side` stands, and that row or column in viewing order (nearest
/// first).
fn edge_view(side: &str, i: usize, n: usize) -> (String, Vec<Cell>) {
    match side {
        "top" => (
            format!("top of column {}", i + 1),
            (0..n).map(|r| Cell::new(r, i)).collect(),
        ),
        "bottom" => (
            format!("bottom of column {}", i + 1),
            (0..n).rev().map(|r| Cell::new(r, i)).collect(),
        ),
        "left" => (
            format!("left of row {}", i + 1),
            (0..n).map(|c| Cell::new(i, c)).collect(),
        ),
        _ => (
            format!("right of row {}", i + 1),
            (0..n).rev().map(|c| Cell::new(i, c)).collect(),
        ),
    }
}

/// Every clue of the edge sections named by `top`, `bottom`, `left`, `right` that `clues_of` reads: where it
/// stands, the row or column in viewing order (nearest first), and the clue.
fn edge_clues<T: Clone>(
    args: &Args,
    sections: &Sections,
    n: usize,
    clues_of: fn(&SectionValue) -> Option<&[Option<T>]>,
) -> Vec<(String, Vec<Cell>, T)> {
    let mut out = Vec::new();
    for side in ["top", "bottom", "left", "right"] {
        let Some((_, value)) = section(args, side, sections) else {
            continue;
        };
        for (i, clue) in clues_of(value).unwrap_or_default().iter().enumerate() {
            if let Some(clue) = clue {
                let (label, cells) = edge_view(side, i, n);
                out.push((label, cells, clue.clone()));
            }
        }
    }
    out
}

/// The number clues of the edge sections the sides name (counts and sums).
fn edge_lines(args: &Args, sections: &Sections, n: usize) -> Vec<(String, Vec<Cell>, u64)> {
    edge_clues(args, sections, n, |value| match value {
        SectionValue::Edge(clues) => Some(clues),
        _ => None,
    })
}

/// The clues of the edge sections of sets of values (`clue: values`) the sides name.
fn edge_sets(args: &Args, sections: &Sections, n: usize) -> Vec<(String, Vec<Cell>, Vec<u32>)> {
    edge_clues(args, sections, n, |value| match value {
        SectionValue::EdgeSets(clues) => Some(clues),
        _ => None,
    })
}

fn build_visibility(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let n = site.n;
    let score = match args.get("sum").and_then(Value::as_bool) {
        Some(true) => Score::Heights,
        _ => Score::Count,
    };
    Ok(edge_lines(args, sections, n)
        .into_iter()
        .map(|(label, cells, clue)| {
            Arc::new(Visibility {
                label,
                cells,
                clue,
                score,
            }) as Arc<dyn Rule>
        })
        .collect())
}

fn build_sandwich(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let n = site.n;
    Ok(edge_lines(args, sections, n)
        .into_iter()
        .map(|(label, cells, clue)| {
            Arc::new(Sandwich {
                label,
                cells,
                clue,
                low: 1,
                high: n as u32,
                distinct: false,
            }) as Arc<dyn Rule>
        })
        .collect())
}

fn build_numbered_room(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    Ok(edge_lines(args, sections, site.n)
        .into_iter()
        .map(|(label, cells, clue)| {
            // An edge clue is a count from 1 to n (checked when the section was read).
            Arc::new(NumberedRoom {
                label,
                cells,
                clue: clue as u32,
                distinct: false,
            }) as Arc<dyn Rule>
        })
        .collect())
}

fn build_x_sum(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    Ok(edge_lines(args, sections, site.n)
        .into_iter()
        .map(|(label, cells, clue)| {
            Arc::new(XSum {
                label,
                cells,
                clue,
                distinct: false,
            }) as Arc<dyn Rule>
        })
        .collect())
}

fn build_battlefield(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    Ok(edge_lines(args, sections, site.n)
        .into_iter()
        .map(|(label, cells, clue)| Arc::new(Battlefield { label, cells, clue }) as Arc<dyn Rule>)
        .collect())
}

/// How many cells from its side a frame clue covers (`depth`), refused by the first clue's place when a row of
/// the grid is shorter.
fn frame_depth(args: &Args, first: Option<&String>, site: &Site) -> Result<usize, Error> {
    // The grammar check guarantees a number from 1 to 255.
    let depth = args.get("depth").and_then(Value::as_u64).unwrap_or(1) as usize;
    match first.filter(|_| depth > site.n) {
        Some(label) => Err(Error::section(
            label.clone(),
            format!(
                "a frame clue covers the first {depth} cells, and a row of this {n}x{n} grid has {n}",
                n = site.n
            ),
        )),
        None => Ok(depth),
    }
}

/// A frame clue is a cage of the first `depth` cells seen from its side: a sum of distinct values (they share a
/// row or column), so the cage's own encoding, check and propagator are the rule.
fn build_frame_sum(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let lines = edge_lines(args, sections, site.n);
    let depth = frame_depth(args, lines.first().map(|l| &l.0), site)?;
    Ok(lines
        .into_iter()
        .map(|(label, cells, clue)| {
            Arc::new(Sum {
                label: format!("{label} (first {depth})"),
                cells: cells[..depth].to_vec(),
                total: clue,
                distinct: true,
            }) as Arc<dyn Rule>
        })
        .collect())
}

/// An Outside Sudoku clue is a quadruple's rule on the first `depth` cells seen from its side: they hold every
/// value it lists, so [`Contains`] with its encoding, check and propagator is the rule.
fn build_frame_contains(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let sets = edge_sets(args, sections, site.n);
    let depth = frame_depth(args, sets.first().map(|s| &s.0), site)?;
    // As a quadruple lists no more values than it has cells.
    if let Some((label, _, values)) = sets.iter().find(|(_, _, values)| values.len() > depth) {
        return Err(Error::section(
            label.clone(),
            format!(
                "{} values for the first {depth} cells: a clue lists at most {depth}",
                values.len()
            ),
        ));
    }
    Ok(sets
        .into_iter()
        .map(|(label, cells, values)| {
            Arc::new(Contains {
                label: format!("{label} (first {depth})"),
                cells: cells[..depth].to_vec(),
                values,
            }) as Arc<dyn Rule>
        })
        .collect())
}

/// A Rossini arrow is a thermometer on the first `depth` cells seen from its side, rising the way it points
/// ([`Relation`]s `less` between neighbours, with their encoding, check and propagator). With `exclusive: true`
/// every row and column end of a side the rule reads that has no arrow (`.`, or the whole section left out, as
/// all arrows are given) is [`NotMonotone`] on those cells.
fn build_frame_order(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    use crate::parse::clues::Arrow as Pointing;
    let n = site.n;
    let exclusive = args.get("exclusive").and_then(Value::as_bool) == Some(true);
    // The grammar check guarantees a number from 1 to 255.
    let depth = args.get("depth").and_then(Value::as_u64).unwrap_or(1) as usize;
    let mut out: Rules = Vec::new();
    for side in ["top", "bottom", "left", "right"] {
        let Some(name) = arg(args, side) else {
            continue;
        };
        let arrows: &[Option<Pointing>] = match sections.get(name) {
            Some(SectionValue::EdgeArrows(arrows)) => arrows,
            _ => &[],
        };
        if arrows.iter().all(Option::is_none) && !exclusive {
            continue;
        }
        let too_few = (depth < 2).then(|| format!("an arrow orders 2 cells or more, not {depth}"));
        let too_many = (depth > n).then(|| {
            format!(
                "an arrow orders the first {depth} cells, and a row of this {n}x{n} grid has {n}"
            )
        });
        if let Some(message) = too_few.or(too_many) {
            return Err(Error::section(name.to_owned(), message));
        }
        // Seen from its side, a row or column runs inward: down from the top, left from the right.
        let inward = Pointing::inward(side);
        for i in 0..n {
            let (label, cells) = edge_view(side, i, n);
            let mut first = cells[..depth].to_vec();
            match arrows.get(i).copied().flatten() {
                Some(a) if a.vertical() != inward.vertical() => {
                    let (along, ways) = match inward.vertical() {
                        true => ("column", "^ or v"),
                        false => ("row", "< or >"),
                    };
                    return Err(Error::section(
                        name.to_owned(),
                        format!(
                            "clue {}: {} points across its {along}; an arrow on the {side} points {ways}",
                            i + 1,
                            a.symbol()
                        ),
                    ));
                }
                Some(a) => {
                    if a != inward {
                        first.reverse();
                    }
                    let label = format!("{label} (arrow {}, first {depth})", a.symbol());
                    for w in first.windows(2) {
                        out.push(Arc::new(Relation::new(
                            w[0],
                            w[1],
                            RelationKind::Less,
                            label.clone(),
                        )));
                    }
                }
                None if exclusive => out.push(Arc::new(NotMonotone {
                    label: format!("{label} (no arrow, first {depth})"),
                    cells: first,
                })),
                None => {}
            }
        }
    }
    Ok(out)
}

/// The relation a tag phrase names (checked when the grammar was loaded).
pub(crate) fn relation_kind(phrase: &str) -> Option<RelationKind> {
    Some(match pair_relation(phrase).ok()? {
        PairRelation::Difference(k) => RelationKind::Difference(k),
        PairRelation::Ratio(k) => RelationKind::Ratio(k),
        PairRelation::Sum(k) => RelationKind::SumTo(k),
        PairRelation::Apart(k) => RelationKind::Apart(k),
        PairRelation::Less => RelationKind::Less,
        PairRelation::Equal => RelationKind::Equal,
    })
}

fn build_tagged_pairs(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let n = site.n;
    let exclusive = exclusive_tags(args);
    let tags: Vec<(String, RelationKind)> = match args.get("tags") {
        Some(Value::Mapping(map)) => map
            .iter()
            .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), relation_kind(v.as_str()?)?)))
            .collect(),
        _ => Vec::new(),
    };
    // Pairs any tag marks are exempt, as SudokuSolver reads f-puzzles' dots: a white dot on 1-2 under the
    // black dots' negative rule.
    let avoided: Vec<&(String, RelationKind)> = tags
        .iter()
        .filter(|(name, _)| exclusive.contains(name))
        .collect();
    let unmarked = (!avoided.is_empty()).then(|| {
        let none: Arc<[RelationKind]> = avoided.iter().map(|(_, k)| k.clone()).collect();
        let names: Vec<&str> = avoided.iter().map(|(name, _)| name.as_str()).collect();
        (
            RelationKind::NoneOf(none),
            format!("unmarked by {}", names.join(", ")),
        )
    });
    marked_pairs(&tags, unmarked, sections, n)
}

fn build_marks(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let Some((_, SectionValue::Marks(marks))) = section(args, "marks", sections) else {
        return Ok(vec![]);
    };
    Ok(marks
        .iter()
        .map(|mark| {
            Arc::new(Allowed {
                cell: mark.cell,
                allowed: mark.allowed.clone(),
                name: mark.label.clone(),
            }) as Arc<dyn Rule>
        })
        .collect())
}

/// A marked cell above (or with `less`, below) each orthogonal neighbour its section leaves unmarked: one
/// [`Relation`] `less` a pair, with its encoding, check and propagator. Two marked neighbours say nothing of
/// each other (a fortress's grey cells side by side).
fn build_peaks(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let Some((name, SectionValue::Marks(marks))) = section(args, "marks", sections) else {
        return Ok(vec![]);
    };
    let less = args.get("less").and_then(Value::as_bool) == Some(true);
    let marked: std::collections::BTreeSet<Cell> = marks.iter().map(|m| m.cell).collect();
    let n = site.n;
    let mut out: Rules = Vec::new();
    for &cell in &marked {
        for other in cell.orthogonal(n).filter(|o| !marked.contains(o)) {
            let (low, high) = if less { (cell, other) } else { (other, cell) };
            let label = format!("{name} at {cell}");
            out.push(Arc::new(Relation::new(
                low,
                high,
                RelationKind::Less,
                label,
            )));
        }
    }
    Ok(out)
}

/// The lines of the `lines` parameter, with the section's name.
fn lines_of<'a>(args: &Args, sections: &'a Sections) -> Option<(&'a str, &'a [CellLine])> {
    match section(args, "lines", sections) {
        Some((name, SectionValue::Lines(lines))) => Some((name, lines.as_slice())),
        _ => None,
    }
}

/// One rule per line of the `lines` parameter, built from its label (`arrows line 3`) and the line.
fn per_line(
    args: &Args,
    sections: &Sections,
    rule: impl Fn(String, &CellLine) -> Result<Arc<dyn Rule>, Error>,
) -> Result<Rules, Error> {
    let Some((name, lines)) = lines_of(args, sections) else {
        return Ok(vec![]);
    };
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| rule(format!("{name} line {}", i + 1), line))
        .collect()
}

/// A relation between pairs of cells of each line, chosen by `pairs` from the line's cells.
fn line_relations(
    args: &Args,
    sections: &Sections,
    kind: RelationKind,
    pairs: fn(&[Cell]) -> Vec<(Cell, Cell)>,
) -> Rules {
    let Some((name, lines)) = lines_of(args, sections) else {
        return vec![];
    };
    let mut out: Rules = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        for (a, b) in pairs(&line.cells) {
            out.push(Arc::new(Relation::new(
                a,
                b,
                kind.clone(),
                format!("{name} line {}", i + 1),
            )));
        }
    }
    out
}

/// Each cell with the next one along the line.
fn neighbours(cells: &[Cell]) -> Vec<(Cell, Cell)> {
    cells.windows(2).map(|w| (w[0], w[1])).collect()
}

/// Every two cells of the line.
fn every_pair(cells: &[Cell]) -> Vec<(Cell, Cell)> {
    cells
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| cells[i + 1..].iter().map(move |&b| (a, b)))
        .collect()
}

fn build_increasing(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    // A slow thermometer's values may also stay the same from one cell to the next.
    let kind = match args.get("slow").and_then(Value::as_bool) {
        Some(true) => RelationKind::AtMost,
        _ => RelationKind::Less,
    };
    Ok(line_relations(args, sections, kind, neighbours))
}

/// The most pairs all `every: true` lines of one section may make: a relation each, so a hostile file of many
/// long lines would otherwise take memory in the square of its size. Real puzzles have a few hundred.
const MOST_PAIRS: usize = 1 << 20;

fn build_apart(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    // The grammar check guarantees a number from 1 to 255.
    let by = args.get("by").and_then(Value::as_u64).unwrap_or(1) as u32;
    let every = args.get("every").and_then(Value::as_bool) == Some(true);
    if let (true, Some((name, lines))) = (every, lines_of(args, sections)) {
        // Values of 1..=n pairwise `by` apart: at most this many on one line.
        let most = (site.n.saturating_sub(1)) / by as usize + 1;
        if let Some((i, line)) = lines.iter().enumerate().find(|(_, l)| l.cells.len() > most) {
            return Err(Error::section(
                name,
                format!(
                    "line {}: {} cells cannot all be {by} apart from each other among 1..{}",
                    i + 1,
                    line.cells.len(),
                    site.n
                ),
            ));
        }
        let pairs: usize = lines
            .iter()
            .map(|l| l.cells.len() * (l.cells.len() - 1) / 2)
            .sum();
        if pairs > MOST_PAIRS {
            return Err(Error::section(
                name,
                format!("{pairs} pairs of cells on its lines, more than the {MOST_PAIRS} read"),
            ));
        }
    }
    Ok(line_relations(
        args,
        sections,
        RelationKind::Apart(by),
        if every { every_pair } else { neighbours },
    ))
}

fn build_mirror(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let ends = |cells: &[Cell]| -> Vec<(Cell, Cell)> {
        (0..cells.len() / 2)
            .map(|i| (cells[i], cells[cells.len() - 1 - i]))
            .collect()
    };
    Ok(line_relations(args, sections, RelationKind::Equal, ends))
}

fn build_line_sum(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    per_line(args, sections, |label, line| {
        let total = line
            .clue
            .ok_or_else(|| Error::section(label.clone(), "needs its sum: `= N` after the cells"))?;
        Ok(Arc::new(Sum {
            label,
            cells: line.cells.clone(),
            total,
            distinct: false,
        }))
    })
}

fn build_between(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    per_line(args, sections, |label, line| {
        Ok(Arc::new(Between {
            label,
            cells: line.cells.clone(),
        }))
    })
}

fn build_all_different(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    Ok(per_group(args, sections, |label, line| {
        Arc::new(AllDifferent::new(label, line.cells.clone())) as Arc<dyn Rule>
    }))
}

/// A cage with its sum is a distinct sum; one without, its cells distinct. With `repeat`, a sum alone; with
/// `product`, a product in place of the sum (the parser refuses a clue of 0).
fn build_cage(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    // Where digits may repeat, a cage without a clue says nothing, so it binds no rule.
    let flag = |key: &str| args.get(key).and_then(Value::as_bool) == Some(true);
    let (repeat, product) = (flag("repeat"), flag("product"));
    let mut rules: Rules = Vec::new();
    for (label, line) in per_group(args, sections, |label, line| (label, line.clone())) {
        match line.clue {
            // A product cage's digits differ by an all-different rule of their own beside the product, which
            // says nothing of repeats (an Inshi room's digits may repeat where rows and columns allow).
            Some(clue) if product => {
                if !repeat {
                    rules.push(Arc::new(AllDifferent::new(
                        label.clone(),
                        line.cells.clone(),
                    )));
                }
                rules.push(Arc::new(Product {
                    label,
                    cells: line.cells,
                    product: clue,
                }));
            }
            Some(total) => rules.push(Arc::new(Sum {
                label,
                cells: line.cells,
                total,
                distinct: !repeat,
            })),
            None if repeat => {}
            None => rules.push(Arc::new(AllDifferent::new(label, line.cells))),
        }
    }
    Ok(rules)
}

/// One rule an entry of a lines section whose entries are groups of cells, not lines: named as regions are
/// (`extra 2`, `cages 3`, like `cages A`).
fn per_group<T>(args: &Args, sections: &Sections, rule: impl Fn(String, &CellLine) -> T) -> Vec<T> {
    let Some((name, lines)) = lines_of(args, sections) else {
        return vec![];
    };
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| rule(format!("{name} {}", i + 1), line))
        .collect()
}

fn build_segment_sum(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    // The grammar check guarantees a number from 1 to 255.
    let total = args.get("total").and_then(Value::as_u64).unwrap_or(10) as u32;
    per_line(args, sections, |label, line| {
        if !segments::fits(line.cells.len(), total, site.n) {
            return Err(Error::section(
                label,
                format!(
                    "a line of {} cells in segments of {total} on a {}x{} grid is too large to encode",
                    line.cells.len(),
                    site.n,
                    site.n
                ),
            ));
        }
        Ok(Arc::new(Segments {
            label,
            cells: line.cells.clone(),
            total,
        }))
    })
}

fn build_lockout(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    // The grammar check guarantees a number from 1 to 255.
    let by = args.get("by").and_then(Value::as_u64).unwrap_or(1) as u32;
    per_line(args, sections, |label, line| {
        Ok(Arc::new(Lockout {
            label,
            cells: line.cells.clone(),
            by,
        }))
    })
}

fn build_row_indexer(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    build_indexer(args, sections, site, Some(Along::Row))
}

fn build_column_indexer(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    build_indexer(args, sections, site, Some(Along::Column))
}

fn build_box_indexer(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let along = site.boxes.map(|(h, w)| Along::Box(h, w));
    build_indexer(args, sections, site, along)
}

/// Every cell of every entry an indexer into the unit `along` (`None`: box indexers on a puzzle without boxes).
fn build_indexer(
    args: &Args,
    sections: &Sections,
    site: &Site,
    along: Option<Along>,
) -> Result<Rules, Error> {
    let Some((name, lines)) = lines_of(args, sections) else {
        return Ok(vec![]);
    };
    let along = along.ok_or_else(|| {
        Error::section(
            name,
            "box indexers point into boxes, and this puzzle has none",
        )
    })?;
    let mut out: Rules = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        for &cell in &line.cells {
            out.push(Arc::new(Indexer {
                label: format!("{name} {}", i + 1),
                cell,
                along,
                n: site.n,
            }));
        }
    }
    Ok(out)
}

fn build_contains(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    // Named as groups are (`quadruples 2`): an entry is a group of cells with its values, not a line.
    let Some((name, lines)) = lines_of(args, sections) else {
        return Ok(vec![]);
    };
    let mut out: Rules = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let label = format!("{name} {}", i + 1);
        if line.values.is_empty() {
            return Err(Error::section(
                label,
                "needs its values: `= 1 2 9` after the cells",
            ));
        }
        out.push(Arc::new(Contains {
            label,
            cells: line.cells.clone(),
            values: line.values.clone(),
        }));
    }
    Ok(out)
}

/// Each cell of an entry holds a value its mark allows: one [`Allowed`] a cell, as a marks grid's mark is, named
/// by the entry (`r1c1 is E (circles 3)`).
fn build_within(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let Some((name, lines)) = lines_of(args, sections) else {
        return Ok(vec![]);
    };
    let mut out: Rules = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(mark) = &line.mark else {
            return Err(Error::section(
                format!("{name} {}", i + 1),
                "needs its mark: `= E` after the cells",
            ));
        };
        for &cell in &line.cells {
            out.push(Arc::new(Allowed {
                cell,
                allowed: line.values.clone(),
                name: format!("{mark} ({name} {})", i + 1),
            }));
        }
    }
    Ok(out)
}

fn build_difference(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    let Some((name, lines)) = lines_of(args, sections) else {
        return Ok(vec![]);
    };
    let mut out: Rules = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let label = format!("{name} line {}", i + 1);
        let clue = line.clue.ok_or_else(|| {
            Error::section(label.clone(), "needs its difference: `= N` after the cells")
        })?;
        // A difference past u32 holds for no two values, as one of n or more does on a grid of n.
        let k = u32::try_from(clue).unwrap_or(u32::MAX);
        for (a, b) in neighbours(&line.cells) {
            out.push(Arc::new(Relation::new(
                a,
                b,
                RelationKind::Difference(k),
                label.clone(),
            )));
        }
    }
    Ok(out)
}

fn build_arrow_sum(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let mut rules = arrow_sums(args, sections, site)?;
    // With `distinct`, the digits along an arrow (after its circle or pill) differ too: the circle itself may
    // equal no digit of an arrow of two or more cells anyway, and equals the one digit of a one-cell arrow.
    if args.get("distinct").and_then(Value::as_bool) == Some(true) {
        if let Some((name, lines)) = lines_of(args, sections) {
            for (i, line) in lines.iter().enumerate() {
                if line.cells.len() > 2 {
                    let label = format!("{name} line {} (no repeats)", i + 1);
                    rules.push(Arc::new(AllDifferent::new(label, line.cells[1..].to_vec())));
                }
            }
        }
    }
    Ok(rules)
}

/// Each line's sum rule: an arrow's from its circle, a pill arrow's from its pill.
fn arrow_sums(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    let pills = pills(args, sections, site)?;
    per_line(args, sections, |label, line| {
        let Some((&start, rest)) = line.cells.split_first().filter(|(_, r)| !r.is_empty()) else {
            return Err(Error::section(
                label,
                "needs its circle and at least one more cell",
            ));
        };
        let Some(pill) = pills.iter().find(|p| p.contains(&start)) else {
            return Ok(Arc::new(Arrow {
                label,
                target: start,
                cells: rest.to_vec(),
            }));
        };
        if let Some(c) = rest.iter().find(|c| pill.contains(c)) {
            return Err(Error::section(
                label,
                format!("runs through {c}, a cell of the pill it starts in"),
            ));
        }
        Ok(Arc::new(PillArrow {
            label,
            pill: pill.clone(),
            cells: rest.to_vec(),
        }))
    })
}

/// The pills of the `pills` parameter, each in reading order (left to right, top to bottom: its digits from
/// the most significant). A cell may be in one pill only, and a pill's digits must be single digits.
fn pills(args: &Args, sections: &Sections, site: &Site) -> Result<Vec<Vec<Cell>>, Error> {
    let Some((name, SectionValue::Lines(lines))) = section(args, "pills", sections) else {
        return Ok(Vec::new());
    };
    if site.n > 9 && !lines.is_empty() {
        return Err(Error::section(
            name,
            format!(
                "a pill reads its digits as one number, and a grid of {} has values of two digits",
                site.n
            ),
        ));
    }
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(c) = line
            .cells
            .iter()
            .find(|c| out.iter().flatten().any(|d| d == *c))
        {
            return Err(Error::section(
                name,
                format!("line {}: {c} is already in another pill", i + 1),
            ));
        }
        let mut cells = line.cells.clone();
        cells.sort_by_key(|c| (c.row, c.col));
        out.push(cells);
    }
    Ok(out)
}

fn build_consecutive_set(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    per_line(args, sections, |label, line| {
        Ok(Arc::new(Run {
            label,
            cells: line.cells.clone(),
        }))
    })
}

/// Each line in pieces: a piece ends where the next cell lies in another box, or in another region of the
/// `regions` section when the grammar names one.
fn build_region_sum(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    // The region of every cell, row by row.
    let (regions, unit) = match section(args, "regions", sections) {
        Some((_, SectionValue::Regions(regions))) => (Some(regions.indices()), "region"),
        _ => (site.boxes.map(|b| crate::grid::box_map(site.n, b)), "box"),
    };
    let region_of = |c: Cell| Some(regions.as_ref()?[c.row * site.n + c.col]);
    per_line(args, sections, |label, line| {
        let pieces = pieces_by(&line.cells, region_of).ok_or_else(|| {
            Error::section(
                label.clone(),
                "needs boxes or regions to split it: this type has neither",
            )
        })?;
        let label = format!("{label} (its pieces in each {unit} add up to the same)");
        Ok(Arc::new(EqualSums::new(label, pieces, None)))
    })
}

/// The line cut where the region (`None`: none known) changes from one cell to the next.
pub(crate) fn pieces_by<T: Copy>(
    cells: &[T],
    region_of: impl Fn(T) -> Option<usize>,
) -> Option<Vec<Vec<T>>> {
    let mut pieces: Vec<Vec<T>> = Vec::new();
    let mut last = None;
    for &c in cells {
        let r = region_of(c)?;
        match pieces.last_mut() {
            Some(p) if last == Some(r) => p.push(c),
            _ => pieces.push(vec![c]),
        }
        last = Some(r);
    }
    Some(pieces)
}

/// One value of each class every k cells along each line, the classes as they are at this grid's size (listed
/// ones without the values past n; a rule's made for n, or refused where n cannot have them).
fn build_classes(args: &Args, sections: &Sections, site: &Site) -> Result<Rules, Error> {
    // Named after the lines they are for (`entropic: ...`), which is what the puzzle file and the grammar say.
    let section = arg(args, "lines").unwrap_or("classes");
    let classes: Vec<u64> = crate::grammar::classes::classes(args.get("classes"))
        .and_then(|c| c.at(site.n))
        .map_err(|e| Error::section(section, e))?;
    per_line(args, sections, |label, line| {
        Ok(Arc::new(Classes {
            label,
            cells: line.cells.clone(),
            classes: classes.clone(),
        }))
    })
}

/// The two ends of a line, and the cells between them: two pieces with one sum.
fn build_double_arrow(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    per_line(args, sections, |label, line| match &line.cells[..] {
        [first, inside @ .., last] if !inside.is_empty() => Ok(Arc::new(EqualSums::new(
            format!("{label} (the two ends add up to the cells between them)"),
            vec![vec![*first, *last], inside.to_vec()],
            None,
        ))),
        _ => Err(Error::section(
            label,
            "needs its two circles and at least one cell between them",
        )),
    })
}

/// Cells the same distance from the middle in pairs, the middle cell (on a line of odd length) the total.
fn build_zipper(args: &Args, sections: &Sections, _: &Site) -> Result<Rules, Error> {
    per_line(args, sections, |label, line| {
        let (pieces, middle) = zipper_pieces(&line.cells);
        let total = middle.map_or("the same".to_owned(), |m| m.to_string());
        let label = format!("{label} (cells the same distance from the middle add up to {total})");
        Ok(Arc::new(EqualSums::new(label, pieces, middle)))
    })
}

/// A zipper line's pairs, outermost first, and its middle cell when it has one.
pub(crate) fn zipper_pieces<T: Copy>(cells: &[T]) -> (Vec<Vec<T>>, Option<T>) {
    let k = cells.len();
    let pairs = (0..k / 2)
        .map(|i| vec![cells[i], cells[k - 1 - i]])
        .collect();
    (pairs, (k % 2 == 1).then(|| cells[k / 2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::vocabulary::{NAMED_RULES, PRIMITIVES};
    use crate::rules::catalogue::{self, Geometry};

    #[test]
    fn every_signature_has_a_builder() {
        let mut args: Args = [("by".to_string(), Value::from(5))].into_iter().collect();
        let classes: Args = crate::yaml::from_str("classes: [[1, 2], [3, 4]]").unwrap();
        args.extend(classes);
        // `tags` and the sections it names are absent: every builder copes with missing sections.
        for p in PRIMITIVES {
            let built = build(p.name, &args, &Sections::new(), &Site { n: 4, boxes: None });
            assert!(built.is_ok(), "{}: {:?}", p.name, built.err());
        }
        assert!(build(
            "flying",
            &Args::new(),
            &Sections::new(),
            &Site { n: 4, boxes: None }
        )
        .is_err());
    }

    /// Every 4x4 Sudoku (288), by brute force.
    fn sudokus_4x4() -> Vec<Vec<Vec<u32>>> {
        let mut grids = Vec::new();
        let mut rows = vec![vec![0u32; 4]; 4];
        fn fill(i: usize, rows: &mut Vec<Vec<u32>>, out: &mut Vec<Vec<Vec<u32>>>) {
            if i == 16 {
                out.push(rows.clone());
                return;
            }
            let (r, c) = (i / 4, i % 4);
            for v in 1..=4 {
                let clash = (0..4).any(|k| rows[r][k] == v || rows[k][c] == v)
                    || (0..4).any(|k| rows[r / 2 * 2 + k / 2][c / 2 * 2 + k % 2] == v);
                if !clash {
                    rows[r][c] = v;
                    fill(i + 1, rows, out);
                    rows[r][c] = 0;
                }
            }
        }
        fill(0, &mut rows, &mut grids);
        assert_eq!(grids.len(), 288);
        grids
    }

    /// How many of the 4x4 Sudokus the puzzle file's rules accept, each checked against `want`; the solver
    /// counts as many solutions, on the fast path and on the whole program given to CBC.
    fn accepted_4x4(text: &str, mut want: impl FnMut(&[Vec<u32>]) -> bool) -> usize {
        let puzzle =
            crate::model::load::load_str(text, &crate::grammar::Registry::built_in()).unwrap();
        let mut kept = 0;
        for g in &sudokus_4x4() {
            let got = puzzle
                .check_grid(&crate::grid::Grid::from_rows(g).unwrap())
                .is_ok();
            assert_eq!(got, want(g), "{g:?}");
            kept += usize::from(got);
        }
        let fast = crate::solve::SolveOptions::default();
        let pure = crate::solve::SolveOptions {
            presolve: false,
            backend: crate::solve::BackendChoice::Cbc,
            ..fast.clone()
        };
        for options in [fast, pure] {
            let counted = crate::count(&puzzle, 300, &options).unwrap();
            assert!(counted.complete);
            assert_eq!(counted.solutions.len(), kept, "{options:?}");
        }
        kept
    }

    /// A numbered dot holds with its own number in place of its section's (a white dot `= 3` differs by 3, a
    /// black one `= 3` is a ratio of 3), beside plain dots; checked on every 4x4 Sudoku against the rule
    /// written out by hand.
    #[test]
    fn a_numbered_pair_holds_with_its_own_number() {
        let text = "type: kropki-dots\nsize: 4\nwhite:\n  - r1c1-r1c2 = 3\n  - r3c3-r3c4\n\
                    black:\n  - r2c1-r3c1 = 3\n";
        let kept = accepted_4x4(text, |g| {
            let (lo, hi) = (g[1][0].min(g[2][0]), g[1][0].max(g[2][0]));
            g[0][0].abs_diff(g[0][1]) == 3 && g[2][2].abs_diff(g[2][3]) == 1 && hi == 3 * lo
        });
        assert!(0 < kept && kept < 288, "{kept}");
    }

    /// With every mark given, a neighbour pair with no mark holds none of the marks' relations, numbered ones
    /// included (a V `= 7` rules out sums of 7 between unmarked neighbours, beside 5 and 10); checked on every
    /// 4x4 Sudoku against the rule written out by hand.
    #[test]
    fn an_unmarked_pair_holds_no_numbered_relation_either() {
        // Marks found by a search for ones where the numbered V's part in the negative rule shows: two 4x4
        // Sudokus keep every pair that has no mark off 5, 7 and 10, four off 5 and 10 alone.
        let fives = [
            (1, 2, 1, 3),
            (2, 2, 2, 3),
            (1, 1, 2, 1),
            (0, 2, 0, 3),
            (3, 0, 3, 1),
            (1, 3, 2, 3),
        ]
        .into_iter()
        .chain([
            (2, 0, 2, 1),
            (3, 2, 3, 3),
            (1, 0, 1, 1),
            (1, 0, 2, 0),
            (1, 2, 2, 2),
            (0, 0, 0, 1),
        ]);
        let sevens = [(0, 1, 1, 1), (1, 1, 1, 2), (2, 0, 3, 0)];
        let name = |(r, c, r2, c2): (usize, usize, usize, usize)| {
            format!("r{}c{}-r{}c{}", r + 1, c + 1, r2 + 1, c2 + 1)
        };
        let mut text = "type: xv\nsize: 4\nv:\n".to_owned();
        for q in fives.clone() {
            text += &format!("  - {}\n", name(q));
        }
        for q in sevens {
            text += &format!("  - {} = 7\n", name(q));
        }
        let kept = accepted_4x4(&text, |g| {
            let sum = |(r, c, r2, c2): (usize, usize, usize, usize)| g[r][c] + g[r2][c2];
            let marked: Vec<_> = fives.clone().chain(sevens).collect();
            let unmarked_ok = (0..4)
                .flat_map(|r| (0..4).map(move |c| (r, c)))
                .all(|(r, c)| {
                    [(r, c + 1), (r + 1, c)].iter().all(|&(r2, c2)| {
                        let q = (r, c, r2, c2);
                        r2 > 3 || c2 > 3 || marked.contains(&q) || ![5, 7, 10].contains(&sum(q))
                    })
                });
            fives.clone().all(|q| sum(q) == 5) && sevens.iter().all(|&q| sum(q) == 7) && unmarked_ok
        });
        assert_eq!(kept, 2);
    }

    /// `exclusive: [black]`: every black dot given, white dots where the setter placed them. A pair with no dot
    /// is in no ratio of 2 (nor of a numbered black dot's 3) but may differ by 1 or 3; a pair with a white dot is
    /// free of the black dots' rule (a white dot on 1-2, as SudokuSolver reads it). Checked on every 4x4
    /// Sudoku against the rule written out by hand.
    #[test]
    fn black_dots_all_given_leave_white_pairs_and_differences_free() {
        // Dots of one grid (found by a search): black on its pairs in a ratio of 2 but one, which holds 1-2
        // and has a white dot; a black dot numbered 3 on one 1-3 pair and white dots numbered 2 on the others; a
        // white dot numbered 3 on one 1-4 pair, which says nothing of the others.
        type Dot = ((usize, usize), (usize, usize), u32);
        let white: [Dot; 5] = [
            ((0, 0), (0, 1), 1),
            ((1, 1), (1, 2), 3),
            ((0, 2), (1, 2), 2),
            ((2, 1), (3, 1), 2),
            ((2, 3), (3, 3), 2),
        ];
        let mut black: Vec<Dot> = [(0, 1, 1, 1), (0, 3, 1, 3), (1, 2, 1, 3), (2, 0, 2, 1)]
            .into_iter()
            .chain([(2, 0, 3, 0), (2, 2, 3, 2), (3, 2, 3, 3)])
            .map(|(r, c, r2, c2)| ((r, c), (r2, c2), 2))
            .collect();
        black.push(((0, 0), (1, 0), 3));
        // A dot shows its number when it is not its colour's own (1 white, 2 black).
        let name = |(a, b, k): Dot, own: u32| {
            let cell = |(r, c): (usize, usize)| format!("r{}c{}", r + 1, c + 1);
            let number = if k == own {
                String::new()
            } else {
                format!(" = {k}")
            };
            format!("  - {}-{}{number}\n", cell(a), cell(b))
        };
        let mut text = String::from("type: kropki-all-black\nsize: 4\nwhite:\n");
        text.extend(white.iter().map(|&d| name(d, 1)));
        text += "black:\n";
        text.extend(black.iter().map(|&d| name(d, 2)));
        let (mut free_white_ratio, mut unmarked_differences) = (0, 0);
        let kept = accepted_4x4(&text, |g| {
            let at = |(r, c): (usize, usize)| g[r][c];
            let ratio = |a: u32, b: u32, k: u32| a.max(b) == k * a.min(b);
            let marked = |a, b| white.iter().chain(&black).any(|d| (d.0, d.1) == (a, b));
            let (mut differences, mut differences_of_3) = (false, false);
            let unmarked_ok = (0..4).flat_map(|r| (0..4).map(move |c| (r, c))).all(|a| {
                [(a.0, a.1 + 1), (a.0 + 1, a.1)]
                    .into_iter()
                    .filter(|&(r, c)| r < 4 && c < 4 && !marked(a, (r, c)))
                    .all(|b| {
                        differences |= at(a).abs_diff(at(b)) == 1;
                        differences_of_3 |= at(a).abs_diff(at(b)) == 3;
                        !ratio(at(a), at(b), 2) && !ratio(at(a), at(b), 3)
                    })
            });
            let ok = white.iter().all(|&(a, b, k)| at(a).abs_diff(at(b)) == k)
                && black.iter().all(|&(a, b, k)| ratio(at(a), at(b), k))
                && unmarked_ok;
            if ok {
                free_white_ratio += usize::from(ratio(g[0][0], g[0][1], 2));
                unmarked_differences += usize::from(differences && differences_of_3);
            }
            ok
        });
        // What the rule leaves free shows in the grid kept: a white 1-2, unmarked pairs differing by 1 and 3.
        assert_eq!((kept, free_white_ratio, unmarked_differences), (1, 1, 1));
    }

    /// `exclusive:` is true, false or a list of the use's tags, each once; anything else is refused when the
    /// grammar loads.
    #[test]
    fn an_exclusive_list_names_tags_of_the_use() {
        let grammar = |exclusive: &str| {
            format!(
                "name: t\nsections:\n  white: {{kind: pairs, optional: true}}\n  black: {{kind: pairs, optional: true}}\n\
                 rules:\n  - latin\n  - primitive: tagged-pairs\n    tags: {{white: difference 1, black: ratio 2}}\n    \
                 exclusive: {exclusive}\n"
            )
        };
        for ok in ["true", "false", "[black]", "[white, black]"] {
            crate::grammar::Grammar::parse("t.yaml", &grammar(ok)).unwrap();
        }
        for (bad, says) in [
            ("[grey]", "\"grey\" is not one of the tags (white, black)"),
            ("[black, black]", "lists \"black\" twice"),
            ("[]", "must be true, false or a list of some of the tags"),
            ("black", "must be true, false or a list of some of the tags"),
        ] {
            let err = crate::grammar::Grammar::parse("t.yaml", &grammar(bad))
                .unwrap_err()
                .to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    /// A number on a pair whose relation has none (a clone's `equal`, a consecutive mark) is refused by the
    /// pair's section and line.
    #[test]
    fn a_number_on_a_pair_without_one_is_refused() {
        let registry = crate::grammar::Registry::built_in();
        for (text, section) in [
            (
                "type: clone\nsize: 4\nclones:\n  - r1c1-r3c2\n  - r1c2-r3c1 = 2\n",
                "clones line 2",
            ),
            (
                "type: consecutive\nsize: 4\nconsecutive:\n  - r1c1-r1c2 = 1\n",
                "consecutive line 1",
            ),
        ] {
            let err = crate::model::load::load_str(text, &registry)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(section) && err.contains("carry no number"),
                "{err}"
            );
        }
    }

    /// A cage with its sum holds distinct digits adding up to it; one without, distinct digits only; a cell
    /// in no cage is free. Checked on every 4x4 Sudoku, against the rule written out by hand.
    #[test]
    fn a_cage_is_a_distinct_sum_or_distinct_digits() {
        let text = "type: killer-cages\nsize: 4\ncages:\n  - r1c1 r3c2 = 4\n  - r2c3 r4c4\n";
        let kept = accepted_4x4(text, |g| {
            g[0][0] + g[2][1] == 4 && g[0][0] != g[2][1] && g[1][2] != g[3][3]
        });
        assert!(0 < kept && kept < 288, "{kept}");
    }

    /// With `repeat: true` a cage with its sum adds up to it, a digit allowed twice (r1c1 and r3c2 share no row,
    /// column or box); one without says nothing. Checked on every 4x4 Sudoku, against the rule by hand.
    #[test]
    fn a_cage_that_may_repeat_is_its_sum_alone() {
        let text = "type: killer-repeats\nsize: 4\ncages:\n  - r1c1 r3c2 = 4\n  - r2c3 r4c4\n";
        let kept = accepted_4x4(text, |g| g[0][0] + g[2][1] == 4);
        let twice = sudokus_4x4()
            .iter()
            .filter(|g| g[0][0] == 2 && g[2][1] == 2)
            .count();
        assert!(twice > 0 && kept > twice && kept < 288, "{kept} {twice}");
    }

    /// An arrow leaving a pill adds up to the number the pill reads left to right, however the file lists the
    /// pill's cells (one 4x4 Sudoku of the 288 has it; six, read right to left); an arrow leaving any other cell
    /// adds up to that cell.
    #[test]
    fn an_arrow_from_a_pill_adds_up_to_its_number() {
        let text =
            "type: arrow\nsize: 4\narrows:\n  - r1c2 r2c3 r3c4 r4c3 r4c2\npills:\n  - r1c2 r1c1\n";
        let kept = accepted_4x4(text, |g| {
            10 * g[0][0] + g[0][1] == g[1][2] + g[2][3] + g[3][2] + g[3][1]
        });
        assert_eq!(kept, 1);
        let text = "type: arrow\nsize: 4\narrows:\n  - r2c1 r3c1 r3c2\npills:\n  - r1c2 r1c1\n";
        let kept = accepted_4x4(text, |g| g[1][0] == g[2][0] + g[2][1]);
        assert!(0 < kept && kept < 288, "{kept}");
    }

    /// Every cell of a circle's block holds a value its mark allows (an O: odd), beside a point's sums; checked
    /// on every 4x4 Sudoku (a Mathrax given boxes) against the rules written out by hand.
    #[test]
    fn a_marked_block_holds_only_what_its_mark_allows() {
        let text =
            "type: mathrax\nsize: 4\nrules: [boxes]\npoints:\n  - r3c3 r3c4 r4c3 r4c4 = 5+\n\
                    circles:\n  - r1c2 r1c3 r2c2 r2c3 = O\n";
        let kept = accepted_4x4(text, |g| {
            let odd = [g[0][1], g[0][2], g[1][1], g[1][2]]
                .iter()
                .all(|v| v % 2 == 1);
            odd && g[2][2] + g[3][3] == 5 && g[2][3] + g[3][2] == 5
        });
        assert!(0 < kept && kept < 288, "{kept}");
    }

    /// A frame clue adds up the first three digits seen from its side (top: down its column; right: leftwards
    /// along its row), checked on every 4x4 Sudoku against the rule written out by hand; a depth past the grid's
    /// edge is refused by its clue's place.
    #[test]
    fn a_frame_clue_adds_up_the_first_cells_from_its_side() {
        let text = "type: frame\nsize: 4\ntop: \"6 . . .\"\nright: \". 9 . .\"\n";
        let kept = accepted_4x4(text, |g| {
            g[0][0] + g[1][0] + g[2][0] == 6 && g[1][3] + g[1][2] + g[1][1] == 9
        });
        assert!(0 < kept && kept < 288, "{kept}");
        let args: Args = crate::yaml::from_str("{depth: 5, top: top}").unwrap();
        let sections: Sections = [(
            "top".into(),
            SectionValue::Edge(vec![None, Some(7), None, None]),
        )]
        .into_iter()
        .collect();
        let err = build("frame-sum", &args, &sections, &Site { n: 4, boxes: None }).unwrap_err();
        assert!(err.to_string().contains("top of column 2"), "{err}");
    }

    /// Rossini arrows say the three digits nearest them rise toward where they point, and every other end of a
    /// row or column (a side left out of the file too) has its three in neither order; checked on every 4x4
    /// Sudoku against the rule written out by hand, and counted by both paths. An arrow that points across its
    /// row is refused by its clue's place, and so is a depth the grid cannot hold.
    #[test]
    fn rossini_arrows_order_the_first_cells_and_no_arrow_means_no_order() {
        let text =
            "type: rossini\nsize: 4\ntop: \". v . .\"\nright: \"> . . .\"\nleft: \". < . .\"\nbottom: \". . v .\"\n";
        let arrows = [
            ("top", ". v . ."),
            ("right", "> . . ."),
            ("left", ". < . ."),
            ("bottom", ". . v ."),
        ];
        let kept = accepted_4x4(text, |g| {
            arrows.iter().all(|(side, marks)| {
                marks.split(' ').enumerate().all(|(i, mark)| {
                    let first: Vec<u32> = (0..3)
                        .map(|k| match *side {
                            "top" => g[k][i],
                            "bottom" => g[3 - k][i],
                            "left" => g[i][k],
                            _ => g[i][3 - k],
                        })
                        .collect();
                    let rises = first[0] < first[1] && first[1] < first[2];
                    let falls = first[0] > first[1] && first[1] > first[2];
                    match mark {
                        "v" | ">" if *side == "top" || *side == "left" => rises,
                        "<" | "^" if *side == "right" || *side == "bottom" => rises,
                        "." => !rises && !falls,
                        _ => falls,
                    }
                })
            })
        });
        assert!(kept > 0, "{kept}");
        let arrows = |text: &str| {
            let section = crate::parse::SectionText::single("left", text);
            SectionValue::EdgeArrows(crate::parse::clues::edge_arrows(&section, 4).unwrap())
        };
        let site = Site { n: 4, boxes: None };
        let sections: Sections = [("left".into(), arrows(". . v ."))].into_iter().collect();
        let args: Args = crate::yaml::from_str("{depth: 3, left: left}").unwrap();
        let err = build("frame-order", &args, &sections, &site).unwrap_err();
        assert!(
            err.to_string().contains("clue 3: v points across its row"),
            "{err}"
        );
        let sections: Sections = [("left".into(), arrows(". . > ."))].into_iter().collect();
        assert_eq!(
            build("frame-order", &args, &sections, &site).unwrap().len(),
            2
        );
        let args: Args = crate::yaml::from_str("{depth: 5, left: left}").unwrap();
        let err = build("frame-order", &args, &sections, &site).unwrap_err();
        assert!(
            err.to_string()
                .contains("first 5 cells, and a row of this 4x4 grid has 4"),
            "{err}"
        );
    }

    /// A grey fortress cell is greater than each white cell beside it and says nothing of a grey one; checked
    /// on every 4x4 Sudoku against the rule written out by hand, and counted by both paths. With `less`, a
    /// marked cell is smaller than each unmarked neighbour instead.
    #[test]
    fn peaks_stand_above_their_unmarked_neighbours() {
        let shading = "G G . .\n. . . .\n. . . G\n. . . .";
        let text = format!(
            "type: fortress\nsize: 4\nfortress: |\n  {}\n",
            shading.replace('\n', "\n  ")
        );
        let grey: Vec<Vec<bool>> = shading
            .lines()
            .map(|l| l.split(' ').map(|t| t == "G").collect())
            .collect();
        let holds = |g: &[Vec<u32>], less: bool| {
            (0..16usize).all(|i| {
                let (r, c) = (i / 4, i % 4);
                let beside = [
                    (r + 1, c),
                    (r, c + 1),
                    (r.wrapping_sub(1), c),
                    (r, c.wrapping_sub(1)),
                ];
                !grey[r][c]
                    || beside
                        .into_iter()
                        .filter(|&(r2, c2)| r2 < 4 && c2 < 4 && !grey[r2][c2])
                        .all(|(r2, c2)| {
                            if less {
                                g[r][c] < g[r2][c2]
                            } else {
                                g[r][c] > g[r2][c2]
                            }
                        })
            })
        };
        let kept = accepted_4x4(&text, |g| holds(g, false));
        assert!(0 < kept && kept < 288, "{kept}");
        // The same marks read with `less`: each rule the builder makes against the rule by hand.
        let marks: Vec<crate::grammar::sections::Mark> = (0..16)
            .filter(|&i| grey[i / 4][i % 4])
            .map(|i| crate::grammar::sections::Mark {
                cell: Cell::new(i / 4, i % 4),
                allowed: (1..=4).collect(),
                label: "marked".into(),
                token: "G".into(),
            })
            .collect();
        let sections: Sections = [("low".into(), SectionValue::Marks(marks))]
            .into_iter()
            .collect();
        let args: Args = crate::yaml::from_str("{marks: low, less: true}").unwrap();
        let rules = build("peaks", &args, &sections, &Site { n: 4, boxes: None }).unwrap();
        let mut low = 0;
        for g in &sudokus_4x4() {
            let grid = crate::grid::Grid::from_rows(g).unwrap();
            let got = rules.iter().all(|r| r.check(&grid).is_ok());
            assert_eq!(got, holds(g, true), "{g:?}");
            low += usize::from(got);
        }
        assert!(0 < low && low < 288, "{low}");
    }

    /// An Outside Sudoku clue's digits all stand among the first three cells from its side (top: down its
    /// column; right: leftwards along its row), checked on every 4x4 Sudoku against the rule written out by hand;
    /// a depth past the grid's edge is refused by its clue's place.
    #[test]
    fn an_outside_clue_holds_its_digits_in_the_first_cells_from_its_side() {
        let text = "type: outside\nsize: 4\ntop: \"12 . . .\"\nright: \". 3 . .\"\n";
        let kept = accepted_4x4(text, |g| {
            let top = [g[0][0], g[1][0], g[2][0]];
            let right = [g[1][3], g[1][2], g[1][1]];
            top.contains(&1) && top.contains(&2) && right.contains(&3)
        });
        assert!(0 < kept && kept < 288, "{kept}");
        let args: Args = crate::yaml::from_str("{depth: 5, left: left}").unwrap();
        let sections: Sections = [(
            "left".into(),
            SectionValue::EdgeSets(vec![None, None, Some(vec![2]), None]),
        )]
        .into_iter()
        .collect();
        let site = Site { n: 4, boxes: None };
        let err = build("frame-contains", &args, &sections, &site).unwrap_err();
        assert!(err.to_string().contains("left of row 3"), "{err}");
        // More values than the cells they must stand in: refused by the clue's place, not left unsolvable.
        let args: Args = crate::yaml::from_str("{depth: 3, left: left}").unwrap();
        let sections: Sections = [(
            "left".into(),
            SectionValue::EdgeSets(vec![None, Some(vec![1, 2, 3, 4]), None, None]),
        )]
        .into_iter()
        .collect();
        let err = build("frame-contains", &args, &sections, &site).unwrap_err();
        assert!(
            err.to_string()
                .contains("left of row 2: 4 values for the first 3 cells"),
            "{err}"
        );
    }

    /// Pills that cannot be read are refused by name: on a grid of two-digit values, sharing a cell, or with an
    /// arrow that runs back through its own pill.
    #[test]
    fn unreadable_pills_are_refused() {
        let registry = crate::grammar::Registry::built_in();
        for (text, says) in [
            ("type: arrow\nsize: 16\narrows:\n  - r1c2 r2c3\npills:\n  - r1c1 r1c2\n", "values of two digits"),
            ("type: arrow\nsize: 9\narrows:\n  - r1c2 r2c3\npills:\n  - r1c1 r1c2\n  - r1c2 r1c3\n", "already in another pill"),
            ("type: arrow\nsize: 9\narrows:\n  - r1c1 r2c2 r1c2\npills:\n  - r1c1 r1c2\n", "runs through r1c2"),
        ] {
            let e = crate::model::load::load_str(text, &registry).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn every_named_rule_expands() {
        let g = Geometry {
            size: 9,
            boxes: (3, 3),
        };
        for (name, _) in NAMED_RULES {
            let rules = catalogue::expand(name, g).unwrap();
            assert!(rules.is_some_and(|r| !r.is_empty()), "{name}");
        }
    }
}
