//! How `generate` fills each section of a grammar, worked out once per type from the grammar alone: the
//! primitive each section is bound to (through the primitives' signatures, so no type is named here) and that
//! primitive's clue maker ([`crate::model::clue`]). A required section that no maker can fill is refused up front,
//! naming it.

use std::collections::BTreeMap;

use crate::error::Error;
use crate::grammar::sections::{ClueKind, MarkMeaning, SectionKind};
use crate::grammar::vocabulary;
use crate::grammar::{Args, Grammar, RuleUse};
use crate::model::clue::{maker, LineMaker, Maker, PairMaker};

/// Every section of a type, and how it is drawn from a solution.
#[derive(Clone, Default)]
pub(crate) struct Plan {
    /// A region map without clues (jigsaw): its regions are cut before the solution is drawn, since a random
    /// Latin square almost never has n-cell regions of distinct values (or, where no solution of a random layout
    /// is found, cut from a solution whose boxes they start from: `generate::Layouts::laid_out`).
    pub(crate) layout: Option<String>,
    /// Cages or rooms with a clue each, cut from the solution.
    pub(crate) cages: Option<Cages>,
    /// The other sections.
    pub(crate) drawn: Vec<Drawn>,
}

#[derive(Clone)]
pub(crate) struct Cages {
    pub(crate) regions: String,
    pub(crate) clues: String,
    pub(crate) maker: fn(&[u32], u64) -> String,
}

/// Sections filled from a solution by one binding's maker.
#[derive(Clone)]
pub(crate) struct Drawn {
    pub(crate) args: Args,
    pub(crate) how: How,
}

#[derive(Clone)]
pub(crate) enum How {
    /// A lines section: every maker reading it must accept a line.
    Lines {
        section: String,
        makers: Vec<(Args, LineMaker)>,
        straight: bool,
        /// Each cell shares an edge with the one before (the section's `adjacent`, or `anywhere`: a group).
        adjacent: bool,
        /// Each entry is a 2x2 block (the section's `block`).
        block: bool,
        /// The section of pills some lines leave from (a primitive's `pills`): such a line's first cell holds,
        /// for the makers, the number the pill reads.
        pills: Option<String>,
        /// A section whose clues are marks (`clue: marks`): what each means.
        marks: BTreeMap<String, MarkMeaning>,
    },
    /// An edge section seen from `side` (top, bottom, left, right).
    Edge {
        section: String,
        side: String,
        maker: fn(&Args, &str, &[u32]) -> String,
    },
    /// Pairs or relations sections of one binding: each pair of neighbours goes to one section whose relation
    /// it satisfies.
    Pairs {
        sections: Vec<String>,
        relations: bool,
        /// The pairs sections whose two cells may lie anywhere (no `adjacent`): they also get pairs of cells
        /// apart (a clone's cell and its copy).
        far: Vec<String>,
        maker: PairMaker,
    },
    /// A marks grid: each cell a mark that allows its value.
    Marks {
        section: String,
        meanings: BTreeMap<String, MarkMeaning>,
    },
    /// A marks grid whose marked cells stand above their unmarked neighbours (below with `less`): marked with
    /// `token`, the section's first mark.
    Peaks {
        section: String,
        token: String,
        less: bool,
    },
}

impl Plan {
    /// Whether the type has sections at all (else its clues are givens only).
    pub(crate) fn is_empty(&self) -> bool {
        self.layout.is_none() && self.cages.is_none() && self.drawn.is_empty()
    }
}

/// What [`plan`] gathers, rule by rule.
#[derive(Default)]
struct Planning {
    plan: Plan,
    /// The sections some maker fills.
    filled: Vec<String>,
    /// Lines sections, each with every maker that reads it (a line must satisfy them all).
    lines: BTreeMap<String, How>,
    /// Every cages section (a regions section with clues), in the order the rules name them.
    cages: Vec<String>,
    /// Every regions section whose cells only differ, in the same order: a layout, unless it is also cages.
    layouts: Vec<String>,
}

impl Planning {
    /// What one use of a primitive draws, by the kind of its clue maker.
    fn add(&mut self, grammar: &Grammar, primitive: &str, args: &Args) {
        let read = vocabulary::sections_read(primitive, args);
        let section = |key: &str| {
            read.iter()
                .find(|(k, _)| *k == key)
                .map(|(_, s)| s.to_string())
        };
        match maker(primitive) {
            Some(Maker::Region(maker)) => {
                if let (Some(regions), Some(clues)) = (section("regions"), section("clues")) {
                    self.filled.extend([regions.clone(), clues.clone()]);
                    self.cages.push(regions.clone());
                    self.plan.cages.get_or_insert(Cages {
                        regions,
                        clues,
                        maker,
                    });
                }
            }
            Some(Maker::Line(maker)) => self.add_lines(grammar, &read, args, maker),
            Some(Maker::Edge(maker)) => {
                for (side, name) in &read {
                    let how = How::Edge {
                        section: name.to_string(),
                        side: side.to_string(),
                        maker,
                    };
                    self.draw(name, args, how);
                }
            }
            Some(Maker::Pair(maker)) => self.add_pairs(grammar, &read, args, maker),
            Some(Maker::Marks) => {
                for (_, name) in &read {
                    if let Some(spec) = grammar.sections.get(*name) {
                        let how = How::Marks {
                            section: name.to_string(),
                            meanings: spec.marks.clone(),
                        };
                        self.draw(name, args, how);
                    }
                }
            }
            Some(Maker::Peaks(less)) => {
                for (_, name) in &read {
                    let token = grammar
                        .sections
                        .get(*name)
                        .and_then(|s| s.marks.keys().next());
                    if let Some(token) = token {
                        let how = How::Peaks {
                            section: name.to_string(),
                            token: token.clone(),
                            less: less(args),
                        };
                        self.draw(name, args, how);
                    }
                }
            }
            // Regions whose cells differ and nothing more: a layout, cut first.
            None => {
                if let Some(regions) = section("regions") {
                    self.filled.push(regions.clone());
                    self.layouts.push(regions);
                }
            }
        }
    }

    /// One section drawn on its own, as `how` says: filled, and drawn after the lines.
    fn draw(&mut self, section: &str, args: &Args, how: How) {
        self.filled.push(section.to_owned());
        self.plan.drawn.push(Drawn {
            args: args.clone(),
            how,
        });
    }

    /// A line primitive: each lines section it reads gets the maker, beside any other primitive's. The other
    /// sections a line primitive reads (an arrow's pills, a region-sum's regions) are not lines of that rule.
    fn add_lines(
        &mut self,
        grammar: &Grammar,
        read: &[(&str, &str)],
        args: &Args,
        maker: LineMaker,
    ) {
        let pill_section = read
            .iter()
            .find(|(key, _)| *key == "pills")
            .map(|(_, s)| s.to_string());
        for (_, name) in read.iter().filter(|(key, _)| *key == "lines") {
            let spec = grammar.sections.get(*name);
            let entry = self.lines.entry(name.to_string()).or_insert(How::Lines {
                section: name.to_string(),
                makers: Vec::new(),
                straight: spec.is_some_and(|s| s.straight),
                // A group of cells anywhere (an extra region, a cage) is drawn connected by its sides, as
                // setters draw them.
                adjacent: spec.is_some_and(|s| s.adjacent || s.anywhere),
                block: spec.is_some_and(|s| s.block),
                pills: None,
                marks: spec
                    .filter(|s| s.clue == ClueKind::Marks)
                    .map(|s| s.marks.clone())
                    .unwrap_or_default(),
            });
            if let How::Lines { makers, pills, .. } = entry {
                makers.push((args.clone(), maker));
                if pill_section.is_some() {
                    pills.clone_from(&pill_section);
                }
            }
            self.filled.push(name.to_string());
        }
        self.filled.extend(pill_section);
    }

    /// A pair primitive: its pairs or relations sections, drawn together (each pair goes to the section whose
    /// relation it satisfies).
    fn add_pairs(
        &mut self,
        grammar: &Grammar,
        read: &[(&str, &str)],
        args: &Args,
        maker: PairMaker,
    ) {
        let sections: Vec<String> = read.iter().map(|(_, s)| s.to_string()).collect();
        let kind_of = |s: &str| {
            grammar
                .sections
                .get(s)
                .map(|spec| (spec.kind, spec.adjacent))
        };
        let relations = sections
            .iter()
            .any(|s| kind_of(s).is_some_and(|(kind, _)| kind == SectionKind::Relations));
        let far = sections
            .iter()
            .filter(|s| kind_of(s) == Some((SectionKind::Pairs, false)))
            .cloned()
            .collect();
        self.filled.extend(sections.iter().cloned());
        self.plan.drawn.push(Drawn {
            args: args.clone(),
            how: How::Pairs {
                sections,
                relations,
                far,
                maker,
            },
        });
    }
}

/// The plan for a grammar, or an error naming a section that `generate` cannot fill.
pub(crate) fn plan(grammar: &Grammar) -> Result<Plan, Error> {
    let mut planning = Planning::default();
    for rule in &grammar.rules {
        if let RuleUse::Primitive { primitive, args } = rule {
            planning.add(grammar, primitive, args);
        }
    }
    let Planning {
        mut plan,
        filled,
        lines,
        mut cages,
        mut layouts,
    } = planning;
    // Lines first: a pair's mark is then drawn only between neighbours no line joins (see `draft::draw`). Of
    // those, 2x2 blocks before walked lines, which find room around them more easily than blocks between lines.
    let mut drawn: Vec<Drawn> = lines
        .into_values()
        .map(|how| Drawn {
            args: Args::new(),
            how,
        })
        .collect();
    drawn.sort_by_key(|d| !matches!(d.how, How::Lines { block: true, .. }));
    drawn.append(&mut plan.drawn);
    plan.drawn = drawn;
    // An optional section no maker fills is left out of every puzzle made (an arrow's pills).
    let unfilled = grammar
        .sections
        .iter()
        .find(|(s, spec)| !spec.optional && !filled.contains(s));
    if let Some((name, _)) = unfilled {
        return Err(Error::section(
            "generate",
            format!(
                "type {} has a `{name}` section that no primitive with a clue maker reads, so generate cannot fill it",
                grammar.name
            ),
        ));
    }
    // Cages whose digits also differ (killer's `distinct` on its cages) are cages, not a layout. Two layouts
    // of either kind (two types' cages joined with `+`) would need two cuts.
    layouts.retain(|l| !cages.contains(l));
    for found in [&mut cages, &mut layouts] {
        found.dedup();
        if let [first, second, ..] = found.as_slice() {
            return Err(Error::section(
                "generate",
                format!(
                    "type {} has two layouts of regions, `{first}` and `{second}`; generate cuts only one",
                    grammar.name
                ),
            ));
        }
    }
    plan.layout = layouts.pop();
    if plan.layout.is_some() && plan.cages.is_some() {
        return Err(Error::section(
            "generate",
            format!(
                "type {} has both a region layout and cages; generate makes one or the other",
                grammar.name
            ),
        ));
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;

    #[test]
    fn every_built_in_type_has_a_plan() {
        let registry = Registry::built_in();
        for grammar in registry.iter() {
            let name = &grammar.name;
            let plan = plan(grammar).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(plan.is_empty(), grammar.sections.is_empty(), "{name}");
        }
    }

    #[test]
    fn a_section_no_maker_fills_is_named() {
        let grammar: Grammar = crate::yaml::from_str(
            "name: odd\ndescription: x\nsections:\n  extra: {kind: lines}\nrules: [latin]\n",
        )
        .unwrap();
        let e = plan(&grammar).err().unwrap().to_string();
        assert!(e.contains("`extra`"), "{e}");
    }
}
