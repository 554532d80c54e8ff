//! The primitive table: how a grammar's `{primitive: NAME, ...}` binds puzzle-file sections to rule primitives.
//!
//! Each entry lists its parameters (which kind of section each must name) and a builder that turns the parsed
//! sections into [`Rule`]s. This table is the one place a new primitive is registered.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{ClueKind, SectionKind, SectionSpec};
use crate::error::Error;
use crate::grid::Cell;
use crate::model::sections::{Clue, SectionValue, Sections};
use crate::parse::clues::Op;
use crate::rules::{
    AllDifferent, Domain, Product, Relation, RelationKind, Rule, Sum, Table, TablePredicate,
    Visibility,
};
use crate::yaml::Value;

/// What a parameter of a primitive use must be.
#[derive(Clone, Copy, Debug)]
pub enum Param {
    /// The name of a section of this kind.
    Section(SectionKind, Need),
    /// A literal `true` / `false`.
    Flag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Required,
    Optional,
}

type Args = BTreeMap<String, Value>;
type Build = fn(&Args, &Sections, usize) -> Result<Vec<Rule>, Error>;

/// A primitive as grammars see it.
pub struct PrimitiveSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [(&'static str, Param)],
    pub build: Build,
}

use Need::{Optional, Required};
use SectionKind as K;

/// Every primitive a grammar may use.
pub const PRIMITIVES: &[PrimitiveSpec] = &[
    PrimitiveSpec {
        name: "distinct",
        description: "the cells of each region hold different values (each region of n cells holds 1..n)",
        params: &[("regions", Param::Section(K::Regions, Required))],
        build: build_distinct,
    },
    PrimitiveSpec {
        name: "sum",
        description: "the values of each region add up to its clue; `distinct: true` also makes them differ",
        params: &[("regions", Param::Section(K::Regions, Required)), ("clues", Param::Section(K::Clues, Required)), ("distinct", Param::Flag)],
        build: build_sum,
    },
    PrimitiveSpec {
        name: "product",
        description: "the values of each region multiply to its clue (tolerance-banded log sum)",
        params: &[("regions", Param::Section(K::Regions, Required)), ("clues", Param::Section(K::Clues, Required))],
        build: build_product,
    },
    PrimitiveSpec {
        name: "arithmetic",
        description: "each cage reaches its target with its operator (+ - x /), or with any of them when hidden",
        params: &[("regions", Param::Section(K::Regions, Required)), ("clues", Param::Section(K::Clues, Required))],
        build: build_arithmetic,
    },
    PrimitiveSpec {
        name: "less",
        description: "each listed relation holds (the smaller cell's value is less)",
        params: &[("relations", Param::Section(K::Relations, Required))],
        build: build_less,
    },
    PrimitiveSpec {
        name: "consecutive",
        description: "listed neighbours differ by exactly 1; with `exclusive` (default) no other neighbours do",
        params: &[("pairs", Param::Section(K::Pairs, Required)), ("exclusive", Param::Flag)],
        build: build_consecutive,
    },
    PrimitiveSpec {
        name: "visibility",
        description: "skyscrapers: each edge clue counts the buildings seen from that side",
        params: &[
            ("top", Param::Section(K::Edge, Optional)),
            ("bottom", Param::Section(K::Edge, Optional)),
            ("left", Param::Section(K::Edge, Optional)),
            ("right", Param::Section(K::Edge, Optional)),
        ],
        build: build_visibility,
    },
    PrimitiveSpec {
        name: "marks",
        description: "each marked cell holds a value its mark allows (e.g. E even, O odd)",
        params: &[("marks", Param::Section(K::Marks, Required))],
        build: build_marks,
    },
];

fn spec(name: &str) -> Option<&'static PrimitiveSpec> {
    PRIMITIVES.iter().find(|p| p.name == name)
}

/// Checks a primitive use against the grammar's sections when the grammar is loaded.
pub fn check_use(
    primitive: &str,
    args: &Args,
    sections: &BTreeMap<String, SectionSpec>,
) -> Result<(), String> {
    let known: Vec<&str> = PRIMITIVES.iter().map(|p| p.name).collect();
    let spec = spec(primitive).ok_or_else(|| {
        format!(
            "unknown primitive {primitive:?} (known: {})",
            known.join(", ")
        )
    })?;
    for key in args.keys() {
        if !spec.params.iter().any(|(p, _)| p == key) {
            let params: Vec<&str> = spec.params.iter().map(|(p, _)| *p).collect();
            return Err(format!(
                "primitive {primitive}: unknown parameter {key:?} (it takes {})",
                params.join(", ")
            ));
        }
    }
    for (param, kind) in spec.params {
        match (kind, args.get(*param)) {
            (Param::Section(_, Required), None) => {
                return Err(format!("primitive {primitive}: `{param}:` is required"))
            }
            (Param::Section(want, _), Some(v)) => {
                let name = v.as_str().ok_or_else(|| {
                    format!("primitive {primitive}: `{param}:` must name a section")
                })?;
                let got = sections.get(name).ok_or_else(|| {
                    format!(
                        "primitive {primitive}: `{param}: {name}` names no section of this grammar"
                    )
                })?;
                if got.kind != *want {
                    return Err(format!("primitive {primitive}: `{param}: {name}` must be a {want:?} section, it is {:?}", got.kind));
                }
            }
            (Param::Flag, Some(v)) if v.as_bool().is_none() => {
                return Err(format!(
                    "primitive {primitive}: `{param}:` must be true or false"
                ))
            }
            _ => {}
        }
    }
    if let (Some(regions), Some(clues)) = (
        args.get("regions").and_then(Value::as_str),
        args.get("clues").and_then(Value::as_str),
    ) {
        let c = &sections[clues];
        if c.of.as_deref() != Some(regions) {
            return Err(format!(
                "primitive {primitive}: clues section {clues:?} is `of: {:?}`, not {regions:?}",
                c.of
            ));
        }
        let want = if primitive == "arithmetic" {
            ClueKind::Arithmetic
        } else {
            ClueKind::Integer
        };
        if c.clue != want {
            return Err(format!(
                "primitive {primitive}: clues section {clues:?} must have `clue: {want:?}`"
            ));
        }
    }
    Ok(())
}

/// Builds the rules of one primitive use from the parsed sections of a puzzle.
pub fn build(
    primitive: &str,
    args: &Args,
    sections: &Sections,
    n: usize,
) -> Result<Vec<Rule>, Error> {
    let spec =
        spec(primitive).ok_or_else(|| Error::Model(format!("unknown primitive {primitive:?}")))?;
    (spec.build)(args, sections, n)
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

fn build_distinct(args: &Args, sections: &Sections, _n: usize) -> Result<Vec<Rule>, Error> {
    let rname = arg(args, "regions").unwrap_or("regions");
    Ok(regions_with_clues(args, sections)
        .into_iter()
        .map(|(id, cells, _, _)| {
            Arc::new(AllDifferent::new(format!("{rname} {id}"), cells.to_vec())) as Rule
        })
        .collect())
}

fn build_sum(args: &Args, sections: &Sections, _n: usize) -> Result<Vec<Rule>, Error> {
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
                }) as Rule
            })
        })
        .collect())
}

fn build_product(args: &Args, sections: &Sections, _n: usize) -> Result<Vec<Rule>, Error> {
    Ok(regions_with_clues(args, sections)
        .into_iter()
        .filter_map(|(_, cells, clue, label)| {
            clue.map(|c| {
                Arc::new(Product {
                    label,
                    cells: cells.to_vec(),
                    product: integer(c),
                }) as Rule
            })
        })
        .collect())
}

fn build_arithmetic(args: &Args, sections: &Sections, n: usize) -> Result<Vec<Rule>, Error> {
    let mut out: Vec<Rule> = Vec::new();
    for (_, cells, clue, label) in regions_with_clues(args, sections) {
        let Some(Clue::Arithmetic(clue)) = clue else {
            continue;
        };
        let cells = cells.to_vec();
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
        let rule: Rule = match clue.op {
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
                Arc::new(Domain {
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
        };
        out.push(rule);
    }
    Ok(out)
}

fn build_less(args: &Args, sections: &Sections, _n: usize) -> Result<Vec<Rule>, Error> {
    let Some((name, SectionValue::Relations(pairs))) = section(args, "relations", sections) else {
        return Ok(vec![]);
    };
    Ok(pairs
        .iter()
        .map(|&(a, b)| {
            Arc::new(Relation {
                a,
                b,
                kind: RelationKind::Less,
                source: name.to_owned(),
            }) as Rule
        })
        .collect())
}

fn build_consecutive(args: &Args, sections: &Sections, n: usize) -> Result<Vec<Rule>, Error> {
    let exclusive = args
        .get("exclusive")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let (name, marked) = match section(args, "pairs", sections) {
        Some((name, SectionValue::Pairs(p))) => (name, p.clone()),
        _ => ("consecutive", Vec::new()),
    };
    let key = |a: Cell, b: Cell| if a < b { (a, b) } else { (b, a) };
    let marked_set: std::collections::BTreeSet<(Cell, Cell)> =
        marked.iter().map(|&(a, b)| key(a, b)).collect();
    let mut out: Vec<Rule> = marked_set
        .iter()
        .map(|&(a, b)| {
            Arc::new(Relation {
                a,
                b,
                kind: RelationKind::Consecutive,
                source: name.to_owned(),
            }) as Rule
        })
        .collect();
    if exclusive {
        for r in 0..n {
            for c in 0..n {
                let a = Cell::new(r, c);
                for b in [Cell::new(r, c + 1), Cell::new(r + 1, c)] {
                    if b.row < n && b.col < n && !marked_set.contains(&(a, b)) {
                        out.push(Arc::new(Relation {
                            a,
                            b,
                            kind: RelationKind::NotConsecutive,
                            source: format!("{name} (unmarked)"),
                        }));
                    }
                }
            }
        }
    }
    Ok(out)
}

fn build_visibility(args: &Args, sections: &Sections, n: usize) -> Result<Vec<Rule>, Error> {
    let mut out: Vec<Rule> = Vec::new();
    for side in ["top", "bottom", "left", "right"] {
        let Some((_, SectionValue::Edge(clues))) = section(args, side, sections) else {
            continue;
        };
        for (i, clue) in clues.iter().enumerate() {
            let Some(clue) = *clue else { continue };
            let (label, cells): (String, Vec<Cell>) = match side {
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
            };
            out.push(Arc::new(Visibility { label, cells, clue }));
        }
    }
    Ok(out)
}

fn build_marks(args: &Args, sections: &Sections, _n: usize) -> Result<Vec<Rule>, Error> {
    let Some((_, SectionValue::Marks(marks))) = section(args, "marks", sections) else {
        return Ok(vec![]);
    };
    Ok(marks
        .iter()
        .map(|(cell, allowed, name)| {
            Arc::new(Domain {
                cell: *cell,
                allowed: allowed.clone(),
                name: name.clone(),
            }) as Rule
        })
        .collect())
}
