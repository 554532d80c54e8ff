//! New puzzles with exactly one solution, for any type a grammar declares: a random solution (for a jigsaw
//! layout, of a layout cut first, or past what search and a bounded backend decide, a layout cut from the
//! solution), then every clue the solution shows in each of the type's sections (cages and rooms with their
//! hints, lines, pairs of neighbours, relations, outside clues, marks: [`super::plan`] and [`super::draft`]),
//! with every cell given; then givens removed in a random order (with their symmetric
//! partners) while the solution stays unique, proved by counting to 2, then clues the same way; then graded by
//! [`super::rate`], and tried again from the next seed until the asked level is met.
//!
//! Reproducible: everything random comes from one seeded generator, the solver itself is deterministic, and the
//! proofs are bounded by work, not time ([`PROOF_WORK`]); only `--time-limit` makes a run depend on the machine.
//! Nor do the threads: removals tried side by side are read in order ([`super::thinning`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::draft::{self, Draft, Form, SectionText};
use super::plan::Plan;
use super::rate::{rate, Rating, LEVELS};
use super::regions::{cut, layout, layout_of, start_boxes, whole};
use super::thinning::{Rounds, Trial};
use crate::domains::{bit, Domains};
use crate::error::Error;
use crate::grammar::sections::ClueKind;
use crate::grammar::{vocabulary, Grammar, Registry, RuleUse};
use crate::grid::{Cell, Grid};
use crate::model::load::load_mapping;
use crate::model::Puzzle;
use crate::rules::Differs;
use crate::solve::options::{BYTES_PER_COLUMN, SAT_HANDOVER_MIN_NODES, SAT_HANDOVER_PER_OPEN_CELL};
use crate::solve::{BackendChoice, SolveOptions};
use crate::yaml::Mapping;

/// Which cells are removed together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    None,
    /// A cell with the one turned half a turn about the centre.
    Rotational,
    /// A cell with its mirror image across the vertical middle line.
    Mirror,
}

/// What to make.
#[derive(Clone, Debug)]
pub struct Request {
    pub seed: u64,
    /// Index into [`LEVELS`]; `None` takes the first puzzle made.
    pub level: Option<usize>,
    pub symmetry: Symmetry,
    /// Puzzles made before giving up on the level.
    pub attempts: usize,
}

/// What to make puzzles of: the puzzle solutions are drawn from (a Latin square with the type's named rules),
/// how the type's sections are filled, and the header every puzzle file of the type starts with (type, size,
/// box, rules).
pub(crate) struct Kind<'a> {
    pub(crate) base: Puzzle,
    pub(crate) grammar: std::borrow::Cow<'a, Grammar>,
    /// For a type with a layout, the grammar of the layout alone: what a layout is tried on before the other
    /// sections are drawn from the solution it has (thermometers on a jigsaw).
    sketch: Option<Grammar>,
    pub(crate) plan: Plan,
    pub(crate) header: Mapping,
    pub(crate) registry: &'a Registry,
}

/// One puzzle made.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The type's sections as written in the puzzle file (empty for types whose clues are givens).
    pub sections: Vec<(String, SectionText)>,
    pub givens: Grid,
    pub solution: Grid,
    /// `None` when the time limit came before the grade (only with no level asked: the puzzle is still unique).
    pub rating: Option<Rating>,
    /// The seed that made it (the request's, plus the attempts before it).
    pub seed: u64,
    /// Whether every given and clue was tried for removal; false when the time limit stopped that first.
    pub thinned: bool,
}

/// Makes one puzzle from `template` (the type with its size, boxes and rules, and no givens).
pub(crate) fn generate(
    kind: &Kind,
    request: &Request,
    options: &SolveOptions,
) -> Result<Generated, Error> {
    // `options.time_limit` bounds the whole run: every solve inside gets what is left of it.
    let start = Instant::now();
    let deadline = options.time_limit.map(|t| start + t);
    // With no level asked, the removals stop at three quarters of the time limit and the puzzle keeps what it
    // has then: each removal so far was proved, so it is unique, only with more givens or clues than it would
    // have had (thinning a 25x25 Sudoku to the end takes minutes, most of them on removals that fail). A
    // quarter is left for the grade. With a level asked, a puzzle stopped short is no answer: a grid that
    // kept most of its givens grades as singles.
    let thin_until = match (options.time_limit, request.level) {
        (Some(t), None) => Some(start + t.mul_f64(0.75)),
        _ => None,
    };
    // A level is a grade, and grids past rate's size have none: said before any work, not after it.
    let n = kind.base.size();
    if request.level.is_some() && !super::rate::grades(n) {
        return Err(Error::section(
            "--difficulty",
            format!(
                "grades go up to {0}x{0}, and this grid is {n}x{n}: leave out --difficulty",
                super::rate::LARGEST_GRADED
            ),
        ));
    }
    let options = &Clock::new(options, deadline, thin_until);
    let mut closest: Option<Generated> = None;
    for attempt in 0..request.attempts.max(1) as u64 {
        let seed = request.seed.wrapping_add(attempt);
        let mut rng = fastrand::Rng::with_seed(seed);
        let (solution, draft) = clued_solution(kind, &mut rng, options)?;
        let draft = said_once(kind, draft)?;
        let template = kind.load(&draft)?;
        let givens =
            remove_while_unique(&template, &solution, request.symmetry, &mut rng, options)?;
        let keep = Keep {
            kind,
            givens: &givens,
            solution: &solution,
            options,
        };
        let draft = keep.clues(draft, &mut rng)?;
        let puzzle = with_givens(kind.load(&draft)?, &givens)?;
        let rating = grade(&puzzle, request, options)?;
        let made = Generated {
            sections: draft.texts(),
            thinned: !options.stopped.load(Ordering::Relaxed),
            givens,
            solution,
            rating,
            seed,
        };
        let Some(want) = request.level else {
            return Ok(made);
        };
        // With a level asked every puzzle is graded ([`grade`]).
        let level = |g: &Generated| g.rating.as_ref().map(|r| r.level);
        if level(&made) == Some(want) {
            return Ok(made);
        }
        let distance = |g: &Generated| level(g).map_or(usize::MAX, |l| l.abs_diff(want));
        if closest
            .as_ref()
            .is_none_or(|c| distance(&made) < distance(c))
        {
            closest = Some(made);
        }
    }
    let got = closest.map_or("none", |c| c.rating.map_or("none", |r| LEVELS[r.level]));
    Err(Error::section(
        "--difficulty",
        format!(
            "no {} puzzle in {} attempts from seed {} (the closest was {got}); try another seed or more attempts",
            request.level.map_or("", |l| LEVELS[l]),
            request.attempts,
            request.seed
        ),
    ))
}

impl<'a> Kind<'a> {
    /// What to make of type `name` at size n, with its box shape and added named rules.
    pub(crate) fn new(
        registry: &'a Registry,
        name: &str,
        n: usize,
        boxes: Option<&str>,
        rules: &[String],
    ) -> Result<Kind<'a>, Error> {
        let grammar = registry.get(name)?;
        let plan = super::plan::plan(&grammar)?;
        let header = crate::model::load::header(name, n, boxes, rules);
        let base = if plan.is_empty() {
            crate::model::load::template(name, n, boxes, rules, registry, "--size")?
        } else {
            super::regions::base(&grammar, n, boxes, rules, registry)?
        };
        // After the base, which refuses sizes no grid has.
        crate::model::load::primitives_fit(&grammar, n)?;
        let sketch = plan.layout.as_deref().map(|l| layout_alone(&grammar, l));
        Ok(Kind {
            base,
            grammar,
            sketch,
            plan,
            header,
            registry,
        })
    }

    /// The puzzle of the header and these sections, without givens.
    pub(super) fn load(&self, draft: &Draft) -> Result<Puzzle, Error> {
        if self.plan.is_empty() {
            return Ok(self.base.clone());
        }
        let mut map = self.header.clone();
        draft.write_into(&mut map);
        load_mapping(&map, self.registry)
    }

    /// `draft` with `cut` as its `section`, and the puzzle of that layout alone ([`Self::load_layout`]).
    fn with_layout(
        &self,
        draft: &mut Draft,
        section: &str,
        cut: Vec<String>,
    ) -> Result<Puzzle, Error> {
        draft
            .sections
            .insert(section.to_owned(), whole(Form::Grid, cut));
        self.load_layout(draft)
    }

    /// The puzzle of a layout alone, which the type's other sections will be drawn on.
    fn load_layout(&self, draft: &Draft) -> Result<Puzzle, Error> {
        let mut map = self.header.clone();
        draft.write_into(&mut map);
        crate::model::load::load_as(&map, self.sketch.as_ref().unwrap_or(&self.grammar))
    }
}

/// The grammar with the layout section and the rules on it alone: another section's rule without its clues would
/// say something else (kropki dots all given, so none at all: no two neighbours consecutive).
fn layout_alone(grammar: &Grammar, layout: &str) -> Grammar {
    let mut sketch = grammar.clone();
    sketch.sections.retain(|name, _| name == layout);
    sketch.rules.retain(|rule| match rule {
        RuleUse::Named(_) => true,
        RuleUse::Primitive { primitive, args } => vocabulary::sections_read(primitive, args)
            .iter()
            .all(|(_, s)| *s == layout),
    });
    sketch
}

/// `puzzle` with `givens` fixed, the rules checked once for all of them ([`Puzzle::give_all`]).
fn with_givens(mut puzzle: Puzzle, givens: &Grid) -> Result<Puzzle, Error> {
    puzzle.give_all(givens)?;
    Ok(puzzle)
}

/// A random solution and every clue it shows in the type's sections.
pub(super) fn clued_solution(
    kind: &Kind,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<(Grid, Draft), Error> {
    let n = kind.base.size();
    let mut draft = Draft {
        n,
        ..Draft::default()
    };
    // A solution whose clues leave a needed section empty (no two cells 5 apart next to each other, for a
    // whisper) is drawn again.
    let mut last = None;
    for _ in 0..20 {
        let (solution, regions) = match &kind.plan.layout {
            Some(section) => Layouts {
                kind,
                section,
                draft: &mut draft,
                rng,
                options,
            }
            .laid_out()?,
            None => (
                random_solution(&kind.base, rng, options)?,
                region_of(&kind.base),
            ),
        };
        let required = |name: &str| kind.grammar.sections.get(name).is_some_and(|s| !s.optional);
        let mut drawn = draft.clone();
        match draft::draw(&kind.plan, &solution, &regions, &required, rng, &mut drawn) {
            Ok(()) => return clued(kind, solution, drawn, rng),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(no_solution))
}

/// Random layouts tried, each with its draws, before one is cut from a solution or none is found.
const LAYOUTS: usize = 100;

/// What a layout is drawn for and with: the type and its layout section, the clues drawn so far (each layout
/// tried is written into them), and the run's randomness and clock.
struct Layouts<'k, 'a> {
    kind: &'k Kind<'a>,
    section: &'k str,
    draft: &'k mut Draft,
    rng: &'k mut fastrand::Rng,
    options: &'k Clock<'k>,
}

/// CaDiCaL's conflicts for a solution of a random layout search left undecided. Measured on `latin generate
/// jigsaw --seed S` with 50,000: at 25x25 seeds 1 and 3 found one in 5.1 and 3.8 s, seed 2 none in 6.6 s; at
/// 20x20 0.7 s; at 30x30 and 36x36 none in 5.4 and 7.3 s.
const LAYOUT_WORK: u64 = 50_000;

impl Layouts<'_, '_> {
    /// A layout for the type's section and a solution on it, with the region of each cell. Layouts are cut at
    /// random first, as setters draw them, each tried by search alone ([`searched_solution`]): up to 16x16
    /// search decides them (nearly all have a solution). A layout search leaves undecided goes to the backend
    /// within a bound, and past that the layout is cut from a solution ([`Self::past_search`]). Measured on
    /// `latin generate jigsaw --seed 1` before: at 25x25 search left all 15 draws undecided and CaDiCaL took
    /// 6.9 s to draw one (then 60 s of removals); at 36x36 CaDiCaL had none in 87 s, and `--time-limit 90` made
    /// no puzzle; nor did CP-SAT solve another such layout, empty, in 300 s.
    fn laid_out(&mut self) -> Result<(Grid, Vec<usize>), Error> {
        let n = self.kind.base.size();
        for _ in 0..LAYOUTS {
            let cut = layout(n, self.rng, self.options.deadline).ok_or_else(out_of_time)?;
            let drawn_on = self.kind.with_layout(self.draft, self.section, cut)?;
            match searched_solution(&drawn_on, self.rng, self.options) {
                Ok(Some(s)) => return Ok((s, region_of(&drawn_on))),
                Ok(None) => return self.past_search(&drawn_on),
                Err(e @ Error::TimeLimit(_)) => return Err(e),
                // This layout has no solution: another.
                Err(_) => {
                    self.options.left(1)?;
                }
            }
        }
        Err(no_solution())
    }

    /// A layout search left undecided: its solution by the backend within [`LAYOUT_WORK`], or when that finds
    /// none, a layout cut from a solution instead ([`Self::cut_from_solution`]).
    fn past_search(&mut self, drawn_on: &Puzzle) -> Result<(Grid, Vec<usize>), Error> {
        // Past the engine's sizes the backend's program is large: an 81x81 jigsaw took 2.1 GB, and most of a
        // 90 s limit, for nothing.
        if drawn_on.size() > Domains::MAX_SIZE {
            return self.cut_from_solution();
        }
        let mut bounded = self.options.left(1)?;
        bounded.work_limit = Some(LAYOUT_WORK);
        match crate::solve(drawn_on, &bounded)?
            .solutions
            .into_iter()
            .next()
        {
            Some(found) => Ok((found, region_of(drawn_on))),
            None => self.cut_from_solution(),
        }
    }

    /// A solution of the type's base with every value once in each of [`start_boxes`]'s boxes, and a layout cut
    /// from it ([`layout_of`]): its regions are the boxes with cells of one value moved round, so the solution
    /// is one of the layout's.
    fn cut_from_solution(&mut self) -> Result<(Grid, Vec<usize>), Error> {
        let n = self.kind.base.size();
        let mut boxed = self.kind.base.clone();
        if let (h @ 2.., w) = start_boxes(n) {
            boxed.set_boxes((h, w));
            boxed.add_named_rule("boxes")?;
        }
        let solution = random_solution(&boxed, self.rng, self.options)?;
        let cut = layout_of(&solution, self.rng, self.options.deadline).ok_or_else(out_of_time)?;
        let drawn_on = self.kind.with_layout(self.draft, self.section, cut)?;
        // Holds by construction; checked, since the rest of the puzzle is drawn on it.
        if let Err(broken) = drawn_on.check_grid(&solution) {
            return Err(Error::section(
                "generate",
                format!("a layout cut from a solution breaks {}", broken[0]),
            ));
        }
        Ok((solution, region_of(&drawn_on)))
    }
}

/// The region of each cell (row by row) of the puzzle a solution is drawn on, for the lines split by regions:
/// its layout's regions when it has a layout, else its boxes, else one region.
fn region_of(puzzle: &Puzzle) -> Vec<usize> {
    let figure = puzzle.figure();
    let n = puzzle.size();
    match (&figure.regions, figure.boxes) {
        (Some(regions), _) => regions.clone(),
        (None, Some(boxes)) => crate::grid::box_map(n, boxes),
        (None, None) => vec![0; n * n],
    }
}

/// The cages cut from a solution with its other clues drawn, checked against the rules.
fn clued(
    kind: &Kind,
    solution: Grid,
    mut draft: Draft,
    rng: &mut fastrand::Rng,
) -> Result<(Grid, Draft), Error> {
    if let Some(cages) = &kind.plan.cages {
        cut(
            cages,
            &kind.header,
            &solution,
            rng,
            kind.registry,
            &mut draft,
        )?;
    }
    // Every maker reads the clue its rule checks; a grammar whose rules disagree on a section is caught here.
    if let Err(e) = kind.load(&draft)?.check_grid(&solution) {
        return Err(Error::section(
            "generate",
            format!(
                "the clues drawn from a solution do not accept it: {}",
                e.first().map_or(String::new(), ToString::to_string)
            ),
        ));
    }
    Ok((solution, draft))
}

/// The draft with every clue entry dropped that says again, from the far end of its line, what another entry
/// says from the near end (a battlefield clue, or a sandwich clue, drawn at the foot of a column and at its
/// head): the problem is the same without it, so it goes with no proof, before any thinning, and stays where
/// setters write it (the top, the left: the end a line's cells are listed from, [`Rule::meaning`] telling the
/// two apart). Each drawn from each side, they used to stay in pairs wherever thinning stopped at its time limit
/// before it came to the clues (every clue of the 16x16 and 25x25 battlefields made at `--time-limit 3` and 5).
/// No random draw: the other types make the puzzles they made.
///
/// [`Rule::meaning`]: crate::rules::Rule::meaning
fn said_once(kind: &Kind, mut draft: Draft) -> Result<Draft, Error> {
    let mut before = kind.load(&draft)?;
    if !before.redundant().contains(&true) {
        return Ok(draft);
    }
    // What the draft as it stands says, worked out once until an entry goes.
    let mut before_said: Option<Vec<String>> = None;
    for (section, i) in draft.droppable() {
        let Some(fewer) = draft.without(&section, i) else {
            continue;
        };
        let Ok(after) = kind.load(&fewer) else {
            continue;
        };
        // The one rule the entry made, when it made one, and whether it reads its line from the far end.
        let labels: BTreeSet<String> = after.rules().iter().map(|r| r.label()).collect();
        let mut gone = before
            .rules()
            .iter()
            .filter(|r| !labels.contains(&r.label()));
        let far = match (gone.next(), gone.next()) {
            (Some(rule), None) => rule.cells().first() > rule.cells().last(),
            _ => false,
        };
        if !far {
            continue;
        }
        let said = after.rules_as_solved();
        if said == *before_said.get_or_insert_with(|| before.rules_as_solved()) {
            (draft, before, before_said) = (fewer, after, Some(said));
        }
    }
    Ok(draft)
}

/// What a thinned puzzle must keep: the solution it was drawn from, as its only one, with these givens.
struct Keep<'k, 'a> {
    kind: &'k Kind<'a>,
    givens: &'k Grid,
    solution: &'k Grid,
    options: &'k Clock<'k>,
}

impl Keep<'_, '_> {
    /// Each change in a random order, kept when the puzzle it makes still accepts the solution and has no other
    /// (a change the rules refuse stays out: with exclusive marks, a dropped mark would say the neighbours are
    /// unmarked); tried several at a time where the trials are slow ([`super::thinning`]), to the same outcome.
    fn thin<T: Sync>(
        &self,
        draft: Draft,
        mut changes: Vec<T>,
        change: impl Fn(&Draft, &T) -> Option<Draft> + Sync,
        rng: &mut fastrand::Rng,
    ) -> Result<Draft, Error> {
        rng.shuffle(&mut changes);
        let rounds = Rounds::on(self.options.threads(self.kind.base.size()));
        let stop = || self.options.stop_thinning();
        rounds.in_order(draft, &changes, stop, |draft, c| {
            Ok(match change(draft, c) {
                Some(fewer) if self.accepts(&fewer)? => Trial::Holds(fewer),
                _ => Trial::Fails,
            })
        })
    }

    /// Whether the puzzle of `fewer` clues still accepts the solution and has no other.
    fn accepts(&self, fewer: &Draft) -> Result<bool, Error> {
        let Ok(puzzle) = self.kind.load(fewer) else {
            return Ok(false);
        };
        if puzzle.check_grid(self.solution).is_err() {
            return Ok(false);
        }
        let puzzle = with_givens(puzzle, self.givens)?;
        let outcome = crate::solve(&puzzle, &self.options.proof()?)?;
        Ok(outcome.complete && outcome.solutions.len() == 1)
    }

    /// Clue entries dropped while the solution stays the only one; then the clues that list values (an Outside
    /// Sudoku clue, a quadruple's digits, any section with `clue: values`) say less, a value at a time, as
    /// setters write one or two digits where all three are not needed.
    fn clues(&self, draft: Draft, rng: &mut fastrand::Rng) -> Result<Draft, Error> {
        let entries = draft.droppable();
        let draft = self.thin(draft, entries, |d, (s, i)| d.without(s, *i), rng)?;
        let listing: Vec<String> = self
            .kind
            .grammar
            .sections
            .iter()
            .filter(|(_, spec)| spec.clue == ClueKind::Values)
            .map(|(name, _)| name.clone())
            .collect();
        let values = draft.listed(&listing);
        self.thin(
            draft,
            values,
            |d, (s, i, v)| d.without_value(s, *i, *v),
            rng,
        )
    }
}

/// The solve options with the time left before the run's deadline.
pub(super) struct Clock<'a> {
    options: &'a SolveOptions,
    pub(super) deadline: Option<Instant>,
    /// When removing givens and clues stops, keeping what is left; `None`: it goes on to its end (and a
    /// deadline reached on the way ends the run with an error).
    thin_until: Option<Instant>,
    /// Set when the removals stopped at `thin_until`.
    stopped: AtomicBool,
}

/// The most work one proof of uniqueness may take while clues are removed: conflicts of each CaDiCaL call (CBC
/// nodes where the program goes there). A clue whose removal is not proved within it stays: the puzzle keeps a
/// clue more than it needs, where an unbounded proof took 256 s on one little killer (seed 1). Work, not time,
/// so that a seed makes the same puzzle on every machine and every run: at a second a proof, as before,
/// `latin generate little-killer --size 9 --seed 1` made three different puzzles in three runs of one build.
/// Measured on little killers (9x9, seeds 97, 194, 291, one run each against the second a proof): 10,000
/// conflicts took 0.71-0.78x the time, 20,000 1.5-2.0x, and neither kept fewer diagonals (which removals succeed
/// changes which are tried later). At 10,000 on the 15 seeds of `benches/generate.sh`: median 27.2 -> 19.4 s,
/// 255 -> 256 diagonals and 36 -> 44 givens in all. A 25x25 Sudoku (seed 1): 10,000 61 s and 284 givens,
/// 20,000 81 s and 282, the second 71 s and 282.
const PROOF_WORK: u64 = 10_000;

impl<'a> Clock<'a> {
    pub(super) fn new(
        options: &'a SolveOptions,
        deadline: Option<Instant>,
        thin_until: Option<Instant>,
    ) -> Self {
        Clock {
            options,
            deadline,
            thin_until,
            stopped: AtomicBool::new(false),
        }
    }

    fn left(&self, max_solutions: usize) -> Result<SolveOptions, Error> {
        super::before(self.options, self.deadline, max_solutions).ok_or_else(out_of_time)
    }

    /// Options for one draw of a solution of an n x n grid by search alone, within [`draw_nodes`].
    fn draw(&self, n: usize) -> Result<SolveOptions, Error> {
        let mut options = self.left(1)?;
        options.backend = BackendChoice::SearchOnly;
        options.search_nodes = options.search_nodes.min(draw_nodes((n * n) as u64));
        Ok(options)
    }

    /// Options for a proof of uniqueness (a count to 2, or one solve for another solution), within
    /// [`PROOF_WORK`] and the time left for removals.
    fn proof(&self) -> Result<SolveOptions, Error> {
        let mut options = self.left(2)?;
        if let Some(until) = self.thin_until {
            let thinning = until.saturating_duration_since(Instant::now());
            options.time_limit = Some(options.time_limit.map_or(thinning, |t| t.min(thinning)));
        }
        options.work_limit = Some(PROOF_WORK);
        Ok(options)
    }

    /// Removals tried at once on an n x n grid ([`threads_for`]) on rayon's pool.
    fn threads(&self, n: usize) -> usize {
        threads_for(n, self.options.memory_limit, rayon::current_num_threads())
    }

    /// Whether the removals are to stop here (and so record that they did).
    fn stop_thinning(&self) -> bool {
        let over = self.thin_until.is_some_and(|t| Instant::now() >= t);
        if over {
            self.stopped.store(true, Ordering::Relaxed);
        }
        over
    }
}

/// Draws of a random solution ([`random_solution`]) at most: each but the last is search alone, and the last
/// may go to the backend.
const DRAWS: u32 = 16;

/// Search nodes a draw of a grid of `cells` cells gets: the search's own handover to CaDiCaL (its nodes per
/// open cell and its floor), counted on every cell. Measured 2026-12-01 on 64x64 Sudokus (`latin generate
/// sudoku --size 64 --seed 1..10`): search decides most draws in about 3,500 of their 8,192 nodes (1-3 s),
/// and the others run past them into a long tail; seeds 3, 7, 9 and 10 took 5, 2, 10 and 5 draws (31 s the
/// most), where each ran past 20 s in CaDiCaL before, and seed 3 past 16 minutes unbounded. At 49x49, seeds
/// 1-10 took 1-6 draws (2.7 s the most). Since search repairs before it restarts ([`crate::solve::repair`]), each
/// of the ten 64x64 seeds is made from its first draw; the redraws stay for what the repair does not reach.
fn draw_nodes(cells: u64) -> u64 {
    (SAT_HANDOVER_PER_OPEN_CELL * cells).max(SAT_HANDOVER_MIN_NODES)
}

fn out_of_time() -> Error {
    Error::TimeLimit("a puzzle was made")
}

fn no_solution() -> Error {
    Error::section(
        "generate",
        "the type's rules leave no solution at this size",
    )
}

/// A random solution: random values placed one by one in random cells, each kept only while the puzzle still
/// has a solution, then the solver completes it.
///
/// Each placement is first tested by propagation alone, and the solver runs once at the end. When that finds a
/// solution, every placement kept was in one (the solution holds them all) and every one turned down had none
/// (propagation refuted it), so the placements, and the solution, are exactly those of a solve per placement;
/// that is then run only when the end finds none (a placement propagation let through that no solution has),
/// from the same random state. A solve per placement was n solves: 25 s of a 64x64 Latin square's generation.
///
/// The end's solve is search alone, within [`draw_nodes`], and a draw it leaves undecided is put
/// aside for a fresh one from where the random state is: some placements make a grid whose completion search
/// runs into a long tail on, and another draw is usually quick (measured there). The last of [`DRAWS`] goes
/// to the backend as before. The node budget, not time, bounds each draw, so a seed still makes one puzzle on
/// every machine.
fn random_solution(
    template: &Puzzle,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<Grid, Error> {
    let start = rng.clone();
    match draws(template, rng, options, true)? {
        Drawn::Found(found) => Ok(found),
        Drawn::Refuted | Drawn::Undecided => {
            *rng = start;
            placed_one_by_one(template, rng, options)
        }
    }
}

/// [`random_solution`] by search alone: `None` when search leaves every draw undecided, where the backend's last
/// draw could take minutes (a layout at 36x36, in [`Layouts::laid_out`]).
fn searched_solution(
    template: &Puzzle,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<Option<Grid>, Error> {
    let start = rng.clone();
    match draws(template, rng, options, false)? {
        Drawn::Found(found) => Ok(Some(found)),
        Drawn::Undecided => Ok(None),
        Drawn::Refuted => {
            *rng = start;
            placed_one_by_one(template, rng, options).map(Some)
        }
    }
}

/// What [`draws`] came to.
enum Drawn {
    Found(Grid),
    /// A draw had no solution at all: a placement propagation let through that none has.
    Refuted,
    /// Every draw was left undecided, or the draws do not apply to the grid.
    Undecided,
}

/// Up to [`DRAWS`] draws of n placements tested by propagation, each completed by search within
/// [`draw_nodes`]; with `backend`, the last by the backend. Past the engine's sizes, one [`wide_draw`].
fn draws(
    template: &Puzzle,
    rng: &mut fastrand::Rng,
    options: &Clock,
    backend: bool,
) -> Result<Drawn, Error> {
    if template.size() > Domains::MAX_SIZE {
        return wide_draw(template, rng, options);
    }
    let engine = crate::solve::engine::Engine::new(template);
    let propagates = |p: &Puzzle| Ok(engine.initial(p.givens()).is_ok());
    let last = if backend { DRAWS } else { DRAWS - 1 };
    for draw in 1..=last {
        let puzzle = placed(template, rng, propagates)?;
        let bounded = if draw < DRAWS {
            options.draw(template.size())?
        } else {
            options.left(1)?
        };
        let outcome = crate::solve(&puzzle, &bounded)?;
        if let Some(found) = outcome.solutions.into_iter().next() {
            return Ok(Drawn::Found(found));
        }
        if outcome.complete {
            return Ok(Drawn::Refuted);
        }
    }
    Ok(Drawn::Undecided)
}

/// Past the engine's sizes, a grid of all-different groups alone (searched wide, `solve::wide`): the empty
/// grid's solution with its values relabelled at random, which keeps every group all different. Random
/// placements first, as below that size, made completions that wide search runs into a long tail on: at 121x121
/// each of three draws of n placements ran 20 s (1.9 million nodes) undecided, and `latin generate sudoku
/// --size 121|144`, `latin --size 200` made no puzzle in 60 s; the empty grids are solved in seconds. Every
/// seed's solution has the same pattern of equal cells; the values and the removals differ. `Undecided` where
/// the grid has other rules.
fn wide_draw(template: &Puzzle, rng: &mut fastrand::Rng, options: &Clock) -> Result<Drawn, Error> {
    if crate::solve::wide::Wide::derive(template).is_none() {
        return Ok(Drawn::Undecided);
    }
    // Search alone: the backend's program for a grid this large can be past the memory limit (200x200: 19 GB).
    // Within a draw's nodes, as below that size: an empty random jigsaw layout of 81x81 is not decided in 90 s.
    let outcome = crate::solve(template, &options.draw(template.size())?)?;
    let Some(found) = outcome.solutions.into_iter().next() else {
        return Ok(Drawn::Undecided);
    };
    let mut values: Vec<u32> = (1..=template.size() as u32).collect();
    rng.shuffle(&mut values);
    let mut relabelled = found.clone();
    for (cell, v) in found.filled() {
        relabelled.set(cell, values[v as usize - 1]);
    }
    Ok(Drawn::Found(relabelled))
}

/// A solve per placement, then one for the solution.
fn placed_one_by_one(
    template: &Puzzle,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<Grid, Error> {
    let solvable = |p: &Puzzle| Ok(!crate::solve(p, &options.left(1)?)?.solutions.is_empty());
    let puzzle = placed(template, rng, solvable)?;
    let outcome = crate::solve(&puzzle, &options.left(1)?)?;
    let complete = outcome.complete;
    // No solution in time is not "no solution".
    let missing = || {
        if complete {
            no_solution()
        } else {
            out_of_time()
        }
    };
    outcome.solutions.into_iter().next().ok_or_else(missing)
}

/// n random values in n random cells, each kept when `keeps` says the puzzle with it may still have a solution.
fn placed(
    template: &Puzzle,
    rng: &mut fastrand::Rng,
    keeps: impl Fn(&Puzzle) -> Result<bool, Error>,
) -> Result<Puzzle, Error> {
    let n = template.size();
    let mut puzzle = template.clone();
    let mut cells: Vec<Cell> = (0..n * n).map(|i| Cell::new(i / n, i % n)).collect();
    rng.shuffle(&mut cells);
    for &cell in cells.iter().take(n) {
        let mut values: Vec<u32> = (1..=n as u32).collect();
        rng.shuffle(&mut values);
        for v in values {
            let mut tried = puzzle.clone();
            if tried.give(cell, v).is_ok() && keeps(&tried)? {
                puzzle = tried;
                break;
            }
        }
    }
    Ok(puzzle)
}

/// The cells removed with `cell`.
fn partners(cell: Cell, n: usize, symmetry: Symmetry) -> Vec<Cell> {
    let other = match symmetry {
        Symmetry::None => cell,
        Symmetry::Rotational => Cell::new(n - 1 - cell.row, n - 1 - cell.col),
        Symmetry::Mirror => Cell::new(cell.row, n - 1 - cell.col),
    };
    if other == cell {
        vec![cell]
    } else {
        vec![cell, other]
    }
}

/// Every cell given, then givens removed in a random order while the solution stays the only one: the removals
/// tried several at a time where they are slow ([`super::thinning`]), with the puzzle one at a time makes.
fn remove_while_unique(
    template: &Puzzle,
    solution: &Grid,
    symmetry: Symmetry,
    rng: &mut fastrand::Rng,
    options: &Clock,
) -> Result<Grid, Error> {
    let n = template.size();
    let mut cells: Vec<Cell> = (0..n * n).map(|i| Cell::new(i / n, i % n)).collect();
    rng.shuffle(&mut cells);
    let stop = || options.stop_thinning();
    Rounds::on(options.threads(n)).in_order(solution.clone(), &cells, stop, |givens, &cell| {
        if givens.get(cell) == 0 {
            return Ok(Trial::Fails);
        }
        let removed: Vec<Cell> = partners(cell, n, symmetry)
            .into_iter()
            .filter(|&c| givens.get(c) != 0)
            .collect();
        let mut fewer = givens.clone();
        removed.iter().for_each(|&c| fewer.set(c, 0));
        let holds = still_unique(template, &fewer, &removed, solution, options)?;
        Ok(if holds {
            Trial::Holds(fewer)
        } else {
            Trial::Fails
        })
    })
}

/// Trials of removals at once on an n x n grid ([`super::thinning`]): one on each of `pool` threads, up to the
/// engine's sizes, and no more than `--memory-limit` holds proofs as large as the backend's estimate for the
/// empty grid ([`BYTES_PER_COLUMN`] a cell-value column: 655 MB at 64x64, where a proof with its givens peaks
/// near 180 MB, so this errs towards fewer threads). The limit is read by each proof's CaDiCaL as the growth of
/// the whole process, to which the other threads' proofs add: on a machine of many cores and little memory,
/// 64x64 proofs on every core at once could pass the limit, and proofs stopped for the others' memory would
/// make another puzzle than one thread makes. Past the engine's sizes a proof goes to the backend with the whole
/// grid (633 MB at 121x121), one at a time.
fn threads_for(n: usize, memory_limit: Option<u64>, pool: usize) -> usize {
    if n > Domains::MAX_SIZE {
        return 1;
    }
    let proof = (n as u64).pow(3).saturating_mul(BYTES_PER_COLUMN);
    memory_limit.map_or(pool, |limit| pool.min((limit / proof).max(1) as usize))
}

/// The puzzle's grade. With no level asked and a time limit, a grade the limit cuts off is `None`: the puzzle is
/// still an answer (unique, every removal proved), where a 16x16 or 25x25 near the end of its removals can take
/// seconds to grade. A grid past the sizes `rate` grades has none either (a level asked there is refused before
/// the puzzle is made).
fn grade(puzzle: &Puzzle, request: &Request, options: &Clock) -> Result<Option<Rating>, Error> {
    if !super::rate::grades(puzzle.size()) {
        return Ok(None);
    }
    let graded = options.left(1).and_then(|o| rate(puzzle, &o));
    match graded {
        Err(Error::TimeLimit(_)) if request.level.is_none() => Ok(None),
        other => other.map(Some),
    }
}

/// Whether `solution` is still the only solution once the `removed` cells are no longer given.
///
/// Any other solution keeps every given left, so it differs from `solution` in a removed cell: where it did not,
/// it would satisfy the puzzle before the removal, which had one solution. So the question is whether the
/// puzzle with the removed cells not all as in `solution` ([`Differs`]) has no solution at all: one search for
/// one solution, preferring the solution's values everywhere (a second solution, when there is one, mostly
/// differs in a few cells), where a count to 2 found the known solution again first.
fn still_unique(
    template: &Puzzle,
    fewer: &Grid,
    removed: &[Cell],
    solution: &Grid,
    options: &Clock,
) -> Result<bool, Error> {
    let mut puzzle = with_givens(template.clone(), fewer)?;
    puzzle.add_rule(Arc::new(Differs {
        known: removed.iter().map(|&c| (c, solution.get(c))).collect(),
    }))?;
    let prefer = solution.rows().iter().flatten().map(|&v| bit(v)).collect();
    let mut one = options.proof()?;
    one.max_solutions = 1;
    one.prefer = Some(Arc::new(prefer));
    let outcome = crate::solve(&puzzle, &one)?;
    // A solution found, or none proved absent in time: the removal is not proved harmless.
    Ok(outcome.complete && outcome.solutions.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Registry;

    #[test]
    fn generated_puzzles_are_unique_and_reproducible() {
        for (kind, n, rules) in [
            ("sudoku", 4, vec![]),
            ("sudoku", 6, vec![]),
            ("latin", 5, vec![]),
            ("sudoku", 9, vec!["diagonals".to_owned()]),
        ] {
            let request = Request {
                seed: 7,
                level: None,
                symmetry: Symmetry::Rotational,
                attempts: 1,
            };
            let registry = Registry::built_in();
            let spec = Kind::new(&registry, kind, n, None, &rules).unwrap();
            let t = spec.base.clone();
            let a = generate(&spec, &request, &SolveOptions::default()).unwrap();
            let b = generate(&spec, &request, &SolveOptions::default()).unwrap();
            assert_eq!(a.givens, b.givens, "{kind} {n}: reproducible");
            let mut p = t.clone();
            for (c, v) in a.givens.filled() {
                p.give(c, v).unwrap();
                // Rotational symmetry: the partner is given too.
                assert_ne!(a.givens.get(Cell::new(n - 1 - c.row, n - 1 - c.col)), 0);
            }
            let count = crate::count(&p, 2, &SolveOptions::default()).unwrap();
            assert!(
                count.complete && count.solutions == vec![a.solution.clone()],
                "{kind} {n}"
            );
            assert!(p.check_grid(&a.solution).is_ok());
            assert!(
                a.thinned,
                "{kind} {n}: no time limit, so every given was tried"
            );
        }
    }

    /// Removals tried on several threads make the puzzle one at a time makes ([`super::thinning`]): a 16x16, whose
    /// late trials take long enough to go to the threads, and a 9x9 killer, whose cages are thinned too.
    #[test]
    fn threads_make_the_puzzle_one_thread_makes() {
        let registry = Registry::built_in();
        for (kind, n) in [("sudoku", 16), ("killer", 9)] {
            let spec = Kind::new(&registry, kind, n, None, &[]).unwrap();
            let request = Request {
                seed: 5,
                level: None,
                symmetry: Symmetry::Rotational,
                attempts: 1,
            };
            let made = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| generate(&spec, &request, &SolveOptions::default()).unwrap())
            };
            let (one, three) = (made(1), made(3));
            assert_eq!(one.givens, three.givens, "{kind} {n}");
            assert_eq!(one.sections, three.sections, "{kind} {n}");
        }
    }

    /// Threads are held to what the memory limit has room for, a whole grid's backend estimate a proof.
    #[test]
    fn threads_stay_within_the_memory_limit() {
        let mb = 1u64 << 20;
        // 64x64: 655 MB a proof. The default limit here (a quarter of 24 GiB) holds 9 of 64 cores' proofs.
        assert_eq!(threads_for(64, Some(6 * 1024 * mb), 64), 9);
        assert_eq!(threads_for(64, None, 64), 64);
        // 25x25: 39 MB a proof; a limit under two proofs leaves one thread, and never none.
        assert_eq!(threads_for(25, Some(70 * mb), 2), 1);
        assert_eq!(threads_for(25, Some(80 * mb), 2), 2);
        assert_eq!(threads_for(25, Some(mb), 2), 1);
        assert_eq!(threads_for(9, Some(6 * 1024 * mb), 2), 2);
        // Past the engine's sizes one proof at a time, whatever the room.
        assert_eq!(threads_for(Domains::MAX_SIZE + 1, None, 64), 1);
    }

    /// A solution drawn with placements tested by propagation, then one solve, is the one a solve per
    /// placement draws, seed for seed; and where propagation lets through what no solution has (a 2x2 with
    /// both diagonals, which no propagation refutes before a value is placed), the run falls back to the solves.
    #[test]
    fn a_random_solution_is_the_one_a_solve_per_placement_draws() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let clock = Clock::new(&options, None, None);
        let by_solving = |template: &Puzzle, rng: &mut fastrand::Rng| {
            let solvable = |p: &Puzzle| Ok(!crate::solve(p, &clock.left(1)?)?.solutions.is_empty());
            let puzzle = placed(template, rng, solvable).unwrap();
            crate::solve(&puzzle, &clock.left(1).unwrap())
                .unwrap()
                .solutions
                .into_iter()
                .next()
        };
        for (kind, n, rules) in [
            ("latin", 7, vec![]),
            ("sudoku", 6, vec![]),
            ("sudoku", 9, vec!["diagonals".to_owned()]),
            ("latin", 2, vec!["diagonals".to_owned()]),
        ] {
            let spec = Kind::new(&registry, kind, n, None, &rules).unwrap();
            for seed in 1..=6 {
                let mut rng = fastrand::Rng::with_seed(seed);
                let drawn = random_solution(&spec.base, &mut rng, &clock).ok();
                let mut again = fastrand::Rng::with_seed(seed);
                let solved = by_solving(&spec.base, &mut again);
                assert_eq!(drawn, solved, "{kind} {n} {rules:?}, seed {seed}");
                assert_eq!(rng.u64(..), again.u64(..), "the same random numbers used");
                assert_eq!(drawn.is_none(), n == 2);
            }
        }
    }

    /// A draw search leaves undecided within its nodes is put aside for a fresh one, and the last goes to the
    /// backend: with one search node, no draw is decided by search, so the solution is the last draw's, found
    /// by CaDiCaL, after [`DRAWS`] placements' worth of random numbers.
    #[test]
    fn draws_search_leaves_undecided_are_drawn_again() {
        let registry = Registry::built_in();
        let options = SolveOptions {
            search_nodes: 1,
            ..SolveOptions::default()
        };
        let clock = Clock::new(&options, None, None);
        let spec = Kind::new(&registry, "sudoku", 16, None, &[]).unwrap();
        let engine = crate::solve::engine::Engine::new(&spec.base);
        let propagates = |p: &Puzzle| Ok(engine.initial(p.givens()).is_ok());
        for seed in 1..=3 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let drawn = random_solution(&spec.base, &mut rng, &clock).unwrap();
            assert_eq!(spec.base.check_grid(&drawn), Ok(()), "seed {seed}");
            let mut again = fastrand::Rng::with_seed(seed);
            let mut last = None;
            for _ in 0..DRAWS {
                last = Some(placed(&spec.base, &mut again, propagates).unwrap());
            }
            assert_eq!(rng.u64(..), again.u64(..), "seed {seed}: {DRAWS} draws");
            let last = last.unwrap();
            for r in 0..16 {
                for c in 0..16 {
                    let v = last.givens().get(Cell::new(r, c));
                    assert!(
                        v == 0 || v == drawn.get(Cell::new(r, c)),
                        "seed {seed}: the last draw's"
                    );
                }
            }
        }
    }

    /// Past the engine's sizes a draw is the empty grid's solution relabelled: a solution of the template, the
    /// same for a seed, another for another seed.
    #[test]
    fn a_wide_draw_is_a_relabelled_solution_of_the_grid() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let clock = Clock::new(&options, None, None);
        let spec = Kind::new(&registry, "sudoku", 81, None, &[]).unwrap();
        let draw = |seed| {
            let mut rng = fastrand::Rng::with_seed(seed);
            match wide_draw(&spec.base, &mut rng, &clock).unwrap() {
                Drawn::Found(found) => found,
                _ => panic!("seed {seed}: no solution drawn"),
            }
        };
        let (a, again, b) = (draw(1), draw(1), draw(2));
        assert_eq!(spec.base.check_grid(&a), Ok(()));
        assert_eq!(spec.base.check_grid(&b), Ok(()));
        assert_eq!(a, again);
        assert_ne!(a, b);
    }

    /// A layout that neither search nor the backend finds a solution of (here one with none: region A holds
    /// three cells of the top row and r2c4, so r2c4 would repeat r1c4) gives way to a layout cut from a
    /// solution, which is one of that layout's.
    #[test]
    fn a_layout_without_a_solution_found_is_cut_from_one() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let clock = Clock::new(&options, None, None);
        let spec = Kind::new(&registry, "jigsaw", 4, None, &[]).unwrap();
        let none: Vec<String> = "AAABBBCACCCBDDDD".chars().map(String::from).collect();
        for seed in 1..=3 {
            let mut draft = Draft {
                n: 4,
                ..Draft::default()
            };
            let drawn_on = spec
                .with_layout(&mut draft, "regions", none.clone())
                .unwrap();
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut layouts = Layouts {
                kind: &spec,
                section: "regions",
                draft: &mut draft,
                rng: &mut rng,
                options: &clock,
            };
            let (solution, regions) = layouts.past_search(&drawn_on).unwrap();
            let cut = spec.load_layout(&draft).unwrap();
            assert_eq!(cut.check_grid(&solution), Ok(()), "seed {seed}");
            assert_eq!(regions, region_of(&cut), "seed {seed}");
            assert_ne!(regions, region_of(&drawn_on), "seed {seed}");
        }
    }

    /// Clues that list values lose every value they can: once the clues are thinned, no value left in an Outside
    /// Sudoku clue or a quadruple can go without a second solution (the clues as drawn list every digit of their
    /// cells).
    #[test]
    fn listed_values_are_trimmed_to_the_ones_the_puzzle_needs() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let clock = Clock::new(&options, None, None);
        for (kind, seed) in [
            ("outside", 1),
            ("outside", 2),
            ("quadruple", 1),
            ("quadruple", 2),
        ] {
            let spec = Kind::new(&registry, kind, 6, None, &[]).unwrap();
            let mut rng = fastrand::Rng::with_seed(seed);
            let (solution, draft) = clued_solution(&spec, &mut rng, &clock).unwrap();
            let givens = remove_while_unique(
                &spec.load(&draft).unwrap(),
                &solution,
                Symmetry::None,
                &mut rng,
                &clock,
            )
            .unwrap();
            let keep = Keep {
                kind: &spec,
                givens: &givens,
                solution: &solution,
                options: &clock,
            };
            let listing: Vec<String> = spec.grammar.sections.keys().cloned().collect();
            assert!(!draft.listed(&listing).is_empty(), "{kind} {seed}");
            let trimmed = keep.clues(draft, &mut rng).unwrap();
            let after = trimmed.listed(&listing);
            assert!(!after.is_empty(), "{kind} {seed}");
            for (section, i, v) in after {
                if let Some(fewer) = trimmed.without_value(&section, i, v) {
                    assert!(
                        !keep.accepts(&fewer).unwrap(),
                        "{kind} {seed}: {v} of {section} {i} could go too"
                    );
                }
            }
        }
    }

    /// A battlefield drawn from its solution has every clue at both ends of its line; before any thinning, the
    /// foot's and the right's go, with no proof, and the problem is the one it was. An X-sum, which reads its
    /// line from one end only, keeps every clue.
    #[test]
    fn a_clue_said_at_both_ends_is_kept_at_its_head() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let clock = Clock::new(&options, None, None);
        for kind in ["battlefield", "sandwich", "x-sums"] {
            let spec = Kind::new(&registry, kind, 6, None, &[]).unwrap();
            let mut rng = fastrand::Rng::with_seed(1);
            let (_, draft) = clued_solution(&spec, &mut rng, &clock).unwrap();
            let entries = draft.droppable();
            let once = said_once(&spec, draft.clone()).unwrap();
            let (whole, kept) = (spec.load(&draft).unwrap(), spec.load(&once).unwrap());
            assert_eq!(kept.rules_as_solved(), whole.rules_as_solved(), "{kind}");
            assert!(!kept.redundant().contains(&true), "{kind}");
            let sides: BTreeSet<String> = once.droppable().into_iter().map(|(s, _)| s).collect();
            if kind == "x-sums" {
                assert_eq!((entries.len(), once.droppable()), (24, entries), "{kind}");
            } else {
                assert_eq!((entries.len(), once.droppable().len()), (24, 12), "{kind}");
                assert_eq!(sides, ["left", "top"].map(String::from).into(), "{kind}");
            }
        }
    }

    /// The check by a second solution that differs in a removed cell answers as a count to 2 does: on random
    /// givens of 4x4 and 6x6 Sudokus and 5x5 Latin squares, one to three cells taken out of a unique puzzle at
    /// a time.
    #[test]
    fn a_solution_differing_in_a_removed_cell_tells_uniqueness_as_a_count() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let clock = Clock::new(&options, None, None);
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut unique, mut not) = (0, 0);
        for (kind, n) in [("sudoku", 4), ("sudoku", 6), ("latin", 5)] {
            let spec = Kind::new(&registry, kind, n, None, &[]).unwrap();
            for _ in 0..40 {
                let solution = random_solution(&spec.base, &mut rng, &clock).unwrap();
                let mut givens = solution.clone();
                let mut cells: Vec<Cell> = givens.filled().map(|(c, _)| c).collect();
                rng.shuffle(&mut cells);
                for chunk in cells.chunks(rng.usize(1..=3)) {
                    let mut fewer = givens.clone();
                    chunk.iter().for_each(|&c| fewer.set(c, 0));
                    let puzzle = with_givens(spec.base.clone(), &fewer).unwrap();
                    let count = crate::count(&puzzle, 2, &options).unwrap();
                    let want = count.complete && count.solutions.len() == 1;
                    let got = still_unique(&spec.base, &fewer, chunk, &solution, &clock).unwrap();
                    assert_eq!(got, want, "{kind} {n}: {chunk:?} out of {givens:?}");
                    if want {
                        givens = fewer;
                        unique += 1;
                    } else {
                        not += 1;
                    }
                }
            }
        }
        // Both answers came up often enough to mean something.
        assert!(unique > 100 && not > 100, "{unique} unique, {not} not");
    }

    /// Past the time given to removals, they stop and keep every given left, and the run says so.
    #[test]
    fn removals_stop_at_their_time_and_say_so() {
        let registry = Registry::built_in();
        let options = SolveOptions::default();
        let spec = Kind::new(&registry, "sudoku", 6, None, &[]).unwrap();
        let mut rng = fastrand::Rng::with_seed(3);
        let solution =
            random_solution(&spec.base, &mut rng, &Clock::new(&options, None, None)).unwrap();
        let over = Clock::new(&options, None, Some(Instant::now()));
        let kept =
            remove_while_unique(&spec.base, &solution, Symmetry::None, &mut rng, &over).unwrap();
        assert_eq!(kept, solution);
        assert!(over.stopped.load(Ordering::Relaxed));
        let open = Clock::new(&options, None, None);
        let thinned =
            remove_while_unique(&spec.base, &solution, Symmetry::None, &mut rng, &open).unwrap();
        assert!(thinned.filled().count() < 36);
        assert!(!open.stopped.load(Ordering::Relaxed));
    }

    /// A proof of uniqueness is bounded by work, never by the clock, unless a time limit was asked: a seed then
    /// makes the same puzzle on any machine.
    #[test]
    fn proofs_are_bounded_by_work_and_by_no_clock_unless_asked() {
        let options = SolveOptions::default();
        let proof = Clock::new(&options, None, None).proof().unwrap();
        assert_eq!(proof.time_limit, None);
        assert_eq!(proof.work_limit, Some(PROOF_WORK));
        let limited = SolveOptions {
            time_limit: Some(std::time::Duration::from_secs(100)),
            ..SolveOptions::default()
        };
        let now = Instant::now();
        let clock = Clock::new(
            &limited,
            Some(now + std::time::Duration::from_secs(100)),
            Some(now + std::time::Duration::from_secs(10)),
        );
        let proof = clock.proof().unwrap();
        assert!(proof
            .time_limit
            .is_some_and(|t| t <= std::time::Duration::from_secs(10)));
        assert_eq!(proof.work_limit, Some(PROOF_WORK));
    }
}
