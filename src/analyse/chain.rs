//! Why a candidate fails when a person tries it: the steps that follow from the trial, each by one of the hint
//! ladder's simple techniques, down to the contradiction they reach. A bare "leads to a contradiction" is a
//! hint no one can check; the chain makes it one a person can follow with a pencil.
//!
//! The steps are found forward (simplest first, as the hints themselves), then every step the contradiction
//! does not need is left out: a step goes when the rest, each asked again whether it still follows by its own
//! technique, still ends in a contradiction. Pencil marks come from written values only (the givens, the trial,
//! the chain's placements), as a person's do, so a cell left with one value is written as a step before its
//! value is struck elsewhere.

use super::hint::{joined, naked, subsets, values_of, Hint, Ladder, Source};
use crate::domains::{bit_indices, Domains};
use crate::grid::{Cell, Grid};

/// What follows from trying a value, and where it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    /// The steps, in order, each following from the trial and the steps before it.
    pub steps: Vec<Hint>,
    /// The contradiction they reach, in words (`5 has no place left in box 2`).
    pub end: String,
    /// The technique of each step, and which group, rule or intersection of it.
    pub(crate) sources: Vec<Source>,
}

/// The most steps a chain is looked for in, before the steps it does not need are left out (those it keeps are
/// 8 at the median on the examples, 72 at most): past that the trial is shown alone.
const MAX_STEPS: usize = 150;

/// How a chain ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// A value with no place left in a full group.
    NoPlace { group: usize, value: u32 },
    /// A written value whose pencil marks would strike the last value of another cell of its group.
    Clash {
        group: usize,
        value: u32,
        written: Cell,
        other: Cell,
    },
    /// A rule whose own propagation fails (an index into the puzzle's rules).
    Broken(usize),
}

impl End {
    /// The end in words, with what shows it in `d`, the domains where the steps stop.
    fn words(self, ladder: &Ladder<'_>, d: &Domains) -> String {
        let label = |g: usize| ladder.groups[g].0.as_str();
        match self {
            End::NoPlace { group, value } => {
                format!("{value} has no place left in {}", label(group))
            }
            End::Clash {
                group,
                value,
                written,
                other,
            } => format!(
                "{written} and {other} would both be {value} in {}",
                label(group)
            ),
            End::Broken(i) => match ladder.group_of_rule(i) {
                Some(g) => {
                    let why = hall_set(&ladder.groups[g].1, d).map(|w| format!(": {w}"));
                    format!(
                        "{} can no longer hold each value once{}",
                        label(g),
                        why.unwrap_or_default()
                    )
                }
                None => {
                    let rule = &ladder.puzzle.rules()[i];
                    let cells = rule.cells();
                    // A rule over a few cells shows them; a whole row's or the grid's would be a wall of text.
                    match cells.len() <= MAX_SHOWN {
                        true => format!(
                            "{} can no longer be kept ({})",
                            rule.label(),
                            candidates(&cells, d)
                        ),
                        false => format!("{} can no longer be kept", rule.label()),
                    }
                }
            },
        }
    }
}

/// The most cells of a broken rule whose candidates the end lists.
const MAX_SHOWN: usize = 9;

/// The largest set [`hall_set`] looks for.
const MAX_HALL: usize = 4;

/// Why a group's cells cannot hold each value once, as a person sees it: a few cells with fewer values between
/// them, or a few values with fewer places; `None` when no set of up to [`MAX_HALL`] shows it.
fn hall_set(cells: &[Cell], d: &Domains) -> Option<String> {
    let union = |set: &[usize], of: &dyn Fn(usize) -> u64| set.iter().fold(0u64, |m, &i| m | of(i));
    let n = d.size();
    let of_cell = |i: usize| d.get(cells[i]);
    let of_value = |v: usize| {
        (0..cells.len())
            .filter(|&i| d.contains(cells[i], v as u32 + 1))
            .fold(0u64, |m, i| m | 1 << i)
    };
    for k in 2..=MAX_HALL {
        if let Some(set) =
            subsets(cells.len(), k).find(|s| (union(s, &of_cell).count_ones() as usize) < k)
        {
            let values = values_of(union(&set, &of_cell));
            let at = set.iter().map(|&i| cells[i].to_string());
            return Some(format!(
                "{} can only hold {} between them",
                joined(at, "and"),
                joined(values, "and")
            ));
        }
        if let Some(set) = subsets(n, k).find(|s| (union(s, &of_value).count_ones() as usize) < k) {
            let places = bit_indices(union(&set, &of_value)).map(|i| cells[i].to_string());
            let values = set.iter().map(|&v| (v + 1).to_string());
            return Some(format!(
                "{} can only go in {} between them",
                joined(values, "and"),
                joined(places, "and")
            ));
        }
    }
    None
}

/// The candidates of `cells` in `d`, in words (`r1c1 is 2 or 5; r1c2 is 7`).
fn candidates(cells: &[Cell], d: &Domains) -> String {
    let each = cells
        .iter()
        .map(|&c| format!("{c} is {}", joined(values_of(d.get(c)), "or")));
    each.collect::<Vec<_>>().join("; ")
}

/// A trial: the domains with the value tried assigned (its pencil marks not yet struck), and the value.
struct Trial {
    d: Domains,
    at: (Cell, u32),
}

/// The trial of `value` in `cell` from domains `d` (pencil marks applied, `known` the written values), as a
/// chain of steps to a contradiction; `None` when the simple techniques stall, or the chain grows past
/// [`MAX_STEPS`] or the steps left in `budget` first (the solver's propagation found a contradiction that the
/// ladder does not reach, or not soon).
pub(crate) fn explain(
    ladder: &Ladder<'_>,
    d: &Domains,
    known: &Grid,
    (cell, value): (Cell, u32),
    budget: &mut usize,
    late: &dyn Fn() -> bool,
) -> Option<Chain> {
    let mut trial = Trial {
        d: d.clone(),
        at: (cell, value),
    };
    trial.d.assign(cell, value).ok()?;
    let mut t = trial.d.clone();
    let mut written = known.clone();
    written.set(cell, value);
    let mut steps: Vec<(Hint, Source)> = Vec::new();
    let mut marked = mark(ladder, &mut t, trial.at);
    let end = loop {
        if let Err(end) = marked {
            break end;
        }
        if let Some(end) = no_place(ladder, &t) {
            break end;
        }
        if steps.len() >= MAX_STEPS || *budget == 0 || late() {
            return None;
        }
        *budget -= 1;
        let mut broken = None;
        let step = naked(&t, &written)
            .map(|h| (h, Source::Naked))
            .or_else(|| ladder.next(&t, late, &mut broken));
        if let Some(i) = broken {
            break End::Broken(i);
        }
        let (h, source) = step?;
        h.apply(&mut t).ok()?;
        if h.place {
            written.set(h.cell, h.value);
            marked = mark(ladder, &mut t, (h.cell, h.value));
        }
        steps.push((h, source));
    };
    Some(shortest(ladder, &trial, steps, end))
}

/// `steps` less every step the contradiction does not need, tried from the last to the first.
fn shortest(
    ladder: &Ladder<'_>,
    trial: &Trial,
    mut steps: Vec<(Hint, Source)>,
    mut end: End,
) -> Chain {
    for i in (0..steps.len()).rev() {
        if i >= steps.len() {
            continue;
        }
        let mut fewer = steps.clone();
        fewer.remove(i);
        if let (_, Some((k, e))) = run(ladder, trial, &fewer, true) {
            fewer.truncate(k);
            steps = fewer;
            end = e;
        }
    }
    let words = end.words(ladder, &run(ladder, trial, &steps, false).0);
    let (steps, sources) = steps.into_iter().unzip();
    Chain {
        steps,
        end: words,
        sources,
    }
}

/// Where `steps` lead from the trial: the domains they stop in, and the contradiction they reach with how many
/// steps it took (fewer than all when the pencil marks clash early). With `strict`, a step that no longer
/// follows by its technique ends the run without one.
fn run(
    ladder: &Ladder<'_>,
    trial: &Trial,
    steps: &[(Hint, Source)],
    strict: bool,
) -> (Domains, Option<(usize, End)>) {
    let mut t = trial.d.clone();
    if let Err(end) = mark(ladder, &mut t, trial.at) {
        return (t, Some((0, end)));
    }
    for (k, (h, source)) in steps.iter().enumerate() {
        if (strict && !ladder.derives(&t, h, *source)) || h.apply(&mut t).is_err() {
            return (t, None);
        }
        if h.place {
            if let Err(end) = mark(ladder, &mut t, (h.cell, h.value)) {
                return (t, Some((k + 1, end)));
            }
        }
    }
    let end = no_place(ladder, &t).or_else(|| broken(ladder, &t));
    (t, end.map(|e| (steps.len(), e)))
}

/// Strikes a value just written in `cell` from the rest of its full groups; the clash when that would empty a
/// cell. (The domains a chain starts from have every earlier written value struck already.)
fn mark(ladder: &Ladder<'_>, d: &mut Domains, (cell, value): (Cell, u32)) -> Result<(), End> {
    for &group in ladder.holding(cell) {
        for &other in ladder.groups[group].1.iter().filter(|&&o| o != cell) {
            if d.remove(other, value).is_err() {
                return Err(End::Clash {
                    group,
                    value,
                    written: cell,
                    other,
                });
            }
        }
    }
    Ok(())
}

/// A value with no place left in a full group.
fn no_place(ladder: &Ladder<'_>, d: &Domains) -> Option<End> {
    let n = ladder.puzzle.size() as u32;
    ladder
        .groups
        .iter()
        .enumerate()
        .find_map(|(group, (_, cells))| {
            (1..=n)
                .find(|&v| !cells.iter().any(|&c| d.contains(c, v)))
                .map(|value| End::NoPlace { group, value })
        })
}

/// The first rule whose propagation fails on `d`.
fn broken(ladder: &Ladder<'_>, d: &Domains) -> Option<End> {
    (0..ladder.puzzle.rules().len())
        .find(|&i| {
            ladder
                .propagator(i)
                .is_some_and(|p| p.propagate(&mut d.clone()).is_err())
        })
        .map(End::Broken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::hint::{hints, marks};
    use crate::grammar::Registry;

    /// Every contradiction hint with a chain in the examples' `--all` runs: each step follows by its technique
    /// from the trial and the steps before it (checked here from the step's source, not by the chain's own
    /// run), the steps end in a contradiction, and no step can be left out with the rest still reaching one.
    #[test]
    fn chains_follow_step_by_step_and_need_every_step() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        let (mut chains, mut pointing) = (0, 0);
        for name in [
            "arrow/arrow-6x6.yaml",
            "consecutive/consecutive-6x6.yaml",
            "jigsaw/jigsaw-9x9.yaml",
            "kropki/kropki-6x6.yaml",
            "renban/renban-6x6.yaml",
            "sudoku/diagonal-9x9.yaml",
            "whispers/whispers-9x9.yaml",
        ] {
            let p = crate::model::load(&root.join(name), &Registry::built_in()).unwrap();
            let ladder = Ladder::new(&p);
            let steps = hints(&p, None, true, None).unwrap().steps;
            // The hints' own domains, step by step: the givens, then each step, with the pencil marks.
            let mut d = Domains::full(p.size());
            let mut known = p.givens().clone();
            for (c, v) in p.givens().filled() {
                d.assign(c, v).unwrap();
            }
            marks(&ladder.groups, &mut d).unwrap();
            for h in &steps {
                if let Some(chain) = &h.chain {
                    chains += 1;
                    pointing += chain
                        .sources
                        .iter()
                        .filter(|s| matches!(s, Source::Pointing(_)))
                        .count();
                    check_chain(name, &ladder, &d, &known, h, chain);
                }
                h.apply(&mut d).unwrap();
                if h.place {
                    known.set(h.cell, h.value);
                }
                marks(&ladder.groups, &mut d).unwrap();
            }
        }
        assert!(chains >= 20, "only {chains} chains in the examples");
        // A fish is rare in a chain (none in these, nor in 60 of Tatham's Unreasonable Sudokus once a rule's
        // pointing came before it): the test below builds one.
        assert!(
            pointing >= 1,
            "no rule's pointing in the chains: its check is not exercised"
        );
    }

    /// A plain 9x9 whose 1s have the places below (every other value open), a pattern found by trying random
    /// ones for a trial whose first step can only be a fish (no group has one place for the 1, and no box meets
    /// a line where it alone holds them): 1 in r4c5 leaves rows 3, 5 and 7 a swordfish on columns 2, 6 and 8,
    /// which strikes r2c2, and hidden singles from there leave row 7 no 1. The chain follows step by step as
    /// the examples' chains do, with the fish in it.
    #[test]
    fn a_chain_that_needs_a_fish_follows_step_by_step() {
        let p = crate::model::Puzzle::sudoku(9).unwrap();
        let ladder = Ladder::new(&p);
        // Row by row, where a 1 may go.
        let places = [
            "..1...1.1",
            ".1.11..1.",
            ".....1.1.",
            "....1...1",
            ".1..1..1.",
            "1..1....1",
            ".1...1...",
            "..11...1.",
            "1....11..",
        ];
        let mut d = Domains::full(9);
        for cell in p.givens().cells() {
            if places[cell.row].as_bytes()[cell.col] == b'.' {
                d.remove(cell, 1).unwrap();
            }
        }
        let tried = Cell::new(3, 4);
        let chain = explain(&ladder, &d, p.givens(), (tried, 1), &mut 1000, &|| false)
            .expect("the trial ends in a contradiction the ladder reaches");
        assert!(
            chain.sources.iter().any(|s| matches!(s, Source::Fish(_))),
            "{chain:#?}"
        );
        let h = Hint {
            cell: tried,
            value: 1,
            place: false,
            technique: "contradiction",
            reason: String::new(),
            chain: None,
        };
        check_chain("a fish", &ladder, &d, p.givens(), &h, &chain);
    }

    /// Strikes `value` from the other cells of every group that holds `cell` (a person's pencil marks); `false`
    /// when that empties a cell.
    fn strike(ladder: &Ladder<'_>, t: &mut Domains, cell: Cell, value: u32) -> bool {
        let mut groups = ladder
            .groups
            .iter()
            .filter(|(_, cells)| cells.contains(&cell));
        groups.all(|(_, cells)| {
            let mut others = cells.iter().filter(|&&o| o != cell);
            others.all(|&o| t.remove(o, value).is_ok())
        })
    }

    /// A fish's strike stands: the base's groups share no cell, the cover has as many groups, every place of
    /// the value in the base lies in the cover, and the struck cell lies in the cover, not the base.
    fn fish_follows(
        ladder: &Ladder<'_>,
        t: &Domains,
        s: &Hint,
        key: crate::analyse::fish::Key,
    ) -> bool {
        let f = ladder
            .families()
            .again(t, &ladder.groups, key)
            .expect("the fish stands");
        let cells = |g: &usize| ladder.groups[*g].1.clone();
        let in_any = |gs: &[usize], c: &Cell| gs.iter().any(|g| cells(g).contains(c));
        let base: Vec<Cell> = f.base.iter().flat_map(cells).collect();
        let mut distinct = base.clone();
        distinct.sort_unstable();
        distinct.dedup();
        !s.place
            && s.value == f.value
            && distinct.len() == base.len()
            && f.cover.len() == f.base.len()
            && base
                .iter()
                .filter(|&&c| t.contains(c, s.value))
                .all(|c| in_any(&f.cover, c))
            && in_any(&f.cover, &s.cell)
            && !in_any(&f.base, &s.cell)
    }

    fn check_chain(
        name: &str,
        ladder: &Ladder<'_>,
        d: &Domains,
        known: &Grid,
        h: &Hint,
        chain: &Chain,
    ) {
        let mut t = d.clone();
        let mut written = known.clone();
        t.assign(h.cell, h.value).unwrap();
        written.set(h.cell, h.value);
        let mut clashed = !strike(ladder, &mut t, h.cell, h.value);
        for (k, (s, source)) in chain.steps.iter().zip(&chain.sources).enumerate() {
            assert!(!clashed, "{name}: {h:?}: the marks clash before step {k}");
            let struck = |after: &Domains| match s.place {
                true => after.fixed(s.cell) == Some(s.value),
                false => !after.contains(s.cell, s.value),
            };
            let by = |p: &dyn crate::domains::Propagator| {
                let mut after = t.clone();
                p.propagate(&mut after).is_ok() && struck(&after)
            };
            let follows = match *source {
                Source::Naked => t.fixed(s.cell) == Some(s.value) && written.get(s.cell) == 0,
                Source::Hidden(g) => {
                    let (label, cells) = &ladder.groups[g];
                    let places: Vec<&Cell> =
                        cells.iter().filter(|&&c| t.contains(c, s.value)).collect();
                    places == [&s.cell] && s.reason.ends_with(label.as_str())
                }
                Source::Rule(i) => by(ladder.propagator(i).unwrap()),
                Source::Intersection(k) => by(&ladder.intersections()[k]),
                Source::Pointing(i) => by(&ladder.pointing(i).expect("the rule meets a group")),
                Source::Fish(key) => fish_follows(ladder, &t, s, key),
            };
            assert!(follows, "{name}: {h:?}: step {s:?} does not follow");
            s.apply(&mut t).unwrap();
            if s.place {
                written.set(s.cell, s.value);
                clashed = !strike(ladder, &mut t, s.cell, s.value);
            }
        }
        // A contradiction where the steps stop: a clash of the marks, a value without a place, a broken rule.
        let n = ladder.puzzle.size() as u32;
        let no_place = ladder
            .groups
            .iter()
            .any(|(_, cells)| (1..=n).any(|v| cells.iter().all(|&c| !t.contains(c, v))));
        let broken = (0..ladder.puzzle.rules().len()).any(|i| {
            ladder
                .propagator(i)
                .is_some_and(|p| p.propagate(&mut t.clone()).is_err())
        });
        assert!(
            clashed || no_place || broken,
            "{name}: {h:?}: no contradiction at the end"
        );
        assert!(!chain.end.is_empty());
        // None of its steps can go.
        let mut trial = Trial {
            d: d.clone(),
            at: (h.cell, h.value),
        };
        trial.d.assign(h.cell, h.value).unwrap();
        let sourced: Vec<(Hint, Source)> = chain
            .steps
            .iter()
            .cloned()
            .zip(chain.sources.iter().copied())
            .collect();
        assert!(
            run(ladder, &trial, &sourced, true).1.is_some(),
            "{name}: {h:?}"
        );
        for i in 0..sourced.len() {
            let mut fewer = sourced.clone();
            fewer.remove(i);
            assert!(
                run(ladder, &trial, &fewer, true).1.is_none(),
                "{name}: {h:?}: step {i} is not needed"
            );
        }
    }
}
