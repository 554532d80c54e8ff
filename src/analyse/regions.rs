//! Cages and rooms for `generate`: a grammar whose only required sections are a region map and the clues of a
//! primitive with a clue maker ([`crate::model::clue`]: sums, products, KenKen's arithmetic) gets random regions
//! cut from a solution, each with the clue its primitive reads from the solution's values.

use std::collections::BTreeMap;

use crate::error::Error;
use crate::grammar::sections::SectionKind;
use crate::grammar::{Grammar, Registry, RuleUse};
use crate::grid::{Cell, Grid};
use crate::import::region_id;
use crate::model::load::load_mapping;
use crate::model::Puzzle;
use crate::yaml::{Mapping, Value};

/// How a type's clues are made: its region section, the clue section of it, and the primitive's clue maker.
pub(crate) struct Plan {
    pub(crate) regions: String,
    pub(crate) clues: String,
    pub(crate) maker: fn(&[u32], u64) -> String,
}

/// Regions cut from a solution, with their clues.
#[derive(Clone, Debug)]
pub struct Cut {
    pub regions_section: String,
    pub clues_section: String,
    /// Every cell's region id, row by row.
    pub ids: Vec<String>,
    pub clues: BTreeMap<String, String>,
}

/// The plan for a grammar: `None` when it has no sections (its clues are givens), an error naming a section
/// `generate` cannot make. Optional sections count too: skyscrapers without their outside clues would be a Latin
/// square under another name.
pub(crate) fn plan(grammar: &Grammar) -> Result<Option<Plan>, Error> {
    let required: Vec<(&String, SectionKind)> =
        grammar.sections.iter().map(|(n, s)| (n, s.kind)).collect();
    if required.is_empty() {
        return Ok(None);
    }
    let refuse = |name: &str| {
        Error::section(
            "generate",
            format!("type {} has a `{name}` section, which generate does not fill yet (it makes givens, and cages or rooms with sum, product or arithmetic clues)", grammar.name),
        )
    };
    for rule in &grammar.rules {
        let RuleUse::Primitive { primitive, args } = rule else {
            continue;
        };
        let (Some(regions), Some(clues)) = (
            args.get("regions").and_then(Value::as_str),
            args.get("clues").and_then(Value::as_str),
        ) else {
            continue;
        };
        let Some(maker) = crate::model::clue::maker(primitive) else {
            continue;
        };
        if let Some((name, _)) = required
            .iter()
            .find(|(n, _)| n.as_str() != regions && n.as_str() != clues)
        {
            return Err(refuse(name));
        }
        return Ok(Some(Plan {
            regions: regions.to_owned(),
            clues: clues.to_owned(),
            maker,
        }));
    }
    Err(refuse(required[0].0))
}

/// The puzzle a solution of the type is drawn from: a Latin square with the type's own named rules (boxes,
/// diagonals, ...) and those asked for.
pub(crate) fn base(
    grammar: &Grammar,
    n: usize,
    boxes: Option<&str>,
    rules: &[String],
    registry: &Registry,
) -> Result<Puzzle, Error> {
    let mut named: Vec<String> = grammar
        .rules
        .iter()
        .filter_map(|r| match r {
            RuleUse::Named(name) if name != "latin" => Some(name.clone()),
            _ => None,
        })
        .collect();
    named.extend(rules.iter().cloned());
    crate::model::load::template("latin", n, boxes, &named, registry)
}

/// Random regions of 2 to 4 cells (1 where no neighbour is left), grown from random cells.
fn partition(n: usize, rng: &mut fastrand::Rng) -> Vec<String> {
    let mut id = vec![usize::MAX; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    let mut next = 0;
    for &start in &order {
        if id[start] != usize::MAX {
            continue;
        }
        let target = rng.usize(2..=4);
        let mut cells = vec![start];
        id[start] = next;
        while cells.len() < target {
            let mut frontier: Vec<usize> = cells
                .iter()
                .flat_map(|&i| {
                    let (r, c) = (i / n, i % n);
                    [
                        (r > 0).then(|| i - n),
                        (r + 1 < n).then(|| i + n),
                        (c > 0).then(|| i - 1),
                        (c + 1 < n).then(|| i + 1),
                    ]
                })
                .flatten()
                .filter(|&j| id[j] == usize::MAX)
                .collect();
            frontier.dedup();
            if frontier.is_empty() {
                break;
            }
            let j = frontier[rng.usize(..frontier.len())];
            id[j] = next;
            cells.push(j);
        }
        next += 1;
    }
    // Ids in order of each region's first cell, as a reader expects.
    let mut rename = vec![usize::MAX; next];
    let mut k = 0;
    id.iter()
        .map(|&r| {
            if rename[r] == usize::MAX {
                rename[r] = k;
                k += 1;
            }
            region_id(rename[r])
        })
        .collect()
}

/// Cuts regions from `solution` until the puzzle they make accepts it (a cage whose digits must differ may not
/// repeat one), and returns that puzzle (no givens) with the cut.
pub(crate) fn cut(
    plan: &Plan,
    header: &Mapping,
    solution: &Grid,
    rng: &mut fastrand::Rng,
    registry: &Registry,
) -> Result<(Puzzle, Cut), Error> {
    let n = solution.size();
    for _ in 0..200 {
        let ids = partition(n, rng);
        let mut clues = BTreeMap::new();
        for (i, region) in ids.iter().enumerate() {
            if clues.contains_key(region) {
                continue;
            }
            let values: Vec<u32> = (0..n * n)
                .filter(|&j| ids[j] == *region)
                .map(|j| solution.get(Cell::new(j / n, j % n)))
                .collect();
            let _ = i;
            clues.insert(region.clone(), (plan.maker)(&values, rng.u64(..)));
        }
        let mut map = header.clone();
        let grid: String = ids.chunks(n).map(|row| row.join(" ") + "\n").collect();
        map.insert(Value::String(plan.regions.clone()), Value::String(grid));
        let hints: Mapping = clues
            .iter()
            .map(|(k, v)| (Value::String(k.clone()), Value::String(v.clone())))
            .collect();
        map.insert(Value::String(plan.clues.clone()), Value::Mapping(hints));
        let Ok(puzzle) = load_mapping(&map, registry) else {
            continue;
        };
        if puzzle.check_grid(solution).is_ok() {
            let cut = Cut {
                regions_section: plan.regions.clone(),
                clues_section: plan.clues.clone(),
                ids,
                clues,
            };
            return Ok((puzzle, cut));
        }
    }
    Err(Error::section(
        "generate",
        "no regions cut from the solution made a valid puzzle in 200 tries",
    ))
}
