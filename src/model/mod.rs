//! The checked puzzle: size, givens, rules, and what the report needs to draw it.
//!
//! A [`Puzzle`] is built either from a puzzle file ([`load`]) or in code, and in both cases it is checked on the
//! way in: a value out of range, a cell off the grid, givens that already break a rule: each is an error here,
//! never a panic later. Once built, a puzzle is a plain value that the compiler reads.
//!
//! ```
//! use latin::{Cell, Puzzle, solve, SolveOptions};
//! // The original write-ups: solve an empty 9x9 Sudoku, then fix its first box to 1..9 and solve again.
//! let mut p = Puzzle::sudoku(9).unwrap();
//! let any = solve(&p, &SolveOptions::default()).unwrap();
//! assert_eq!(any.solutions.len(), 1);
//! for (k, v) in (1..=9).enumerate() {
//!     p.give(Cell::new(k / 3, k % 3), v).unwrap();
//! }
//! let again = solve(&p, &SolveOptions::default()).unwrap();
//! assert_eq!(again.solutions[0].rows()[0][..3], [1, 2, 3]);
//! assert_eq!(again.solutions[0].rows()[2][..3], [7, 8, 9]);
//! ```

pub(crate) mod bind;
pub(crate) mod clue;
pub(crate) mod corpus;
mod exact;
pub(crate) mod figure;
mod fit;
pub(crate) mod load;
pub(crate) mod record;

use std::sync::{Arc, OnceLock};

use crate::error::{Error, ModelError, Violation};
use crate::grammar::vocabulary;
use crate::grid::{Cell, Grid};
pub use crate::program::Sense;
use crate::rules::catalogue::{self, Geometry};
use crate::rules::Rule;
use figure::Figure;

pub use load::{load, load_str};

/// Weights on cell values: the solver returns an optimal grid among the solutions.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    pub sense: Sense,
    pub weights: Vec<(Cell, f64)>,
}

/// A checked puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    kind: String,
    size: usize,
    boxes: (usize, usize),
    givens: Grid,
    rules: Vec<Arc<dyn Rule>>,
    objective: Option<Objective>,
    solution: Option<Grid>,
    /// A grid filled part way by a person (`progress:`, or a `solution:` with `.`): what `check` judges.
    progress: Option<Grid>,
    figure: Figure,
    /// Per cell (row-major), the indices of the rules that read it, built when a given first asks and dropped
    /// when a rule is added: a given is checked against those rules alone. Checking every rule after each given
    /// made loading a grid quadratic in its cells (a filled 255x255 Latin square, 233 KB, took 11 s to load).
    rules_at: OnceLock<Arc<Vec<Vec<u32>>>>,
    /// Per rule, whether an earlier rule says the same ([`Self::redundant`]); built when first asked and dropped
    /// when a rule is added, as `rules_at` is.
    redundant: OnceLock<Arc<Vec<bool>>>,
}

impl Puzzle {
    /// A Latin square of size n (rows and columns only): quasigroup completion.
    pub fn latin(n: usize) -> Result<Puzzle, Error> {
        if n == 0 || n > 255 {
            return Err(ModelError::SizeOutOfRange(n).into());
        }
        let boxes = catalogue::default_boxes(n).unwrap_or((1, n));
        let mut p = Puzzle {
            kind: "latin".into(),
            size: n,
            boxes,
            givens: Grid::empty(n),
            rules: Vec::new(),
            objective: None,
            solution: None,
            progress: None,
            figure: Figure::new(n),
            rules_at: OnceLock::new(),
            redundant: OnceLock::new(),
        };
        p.add_named_rule("latin")?;
        Ok(p)
    }

    /// A Sudoku of size n with the default box shape (square root, or near-square such as 2x3 for 6).
    pub fn sudoku(n: usize) -> Result<Puzzle, Error> {
        let (h, w) = catalogue::default_boxes(n).ok_or(ModelError::NoBoxShape(n))?;
        Puzzle::sudoku_with_boxes(n, h, w)
    }

    /// A Sudoku of size n with boxes of h rows by w columns.
    pub fn sudoku_with_boxes(n: usize, h: usize, w: usize) -> Result<Puzzle, Error> {
        let mut p = Puzzle::latin(n)?;
        p.kind = "sudoku".into();
        p.boxes = (h, w);
        p.add_named_rule("boxes")?;
        Ok(p)
    }

    /// An empty puzzle of size n with no rules at all; add them with [`Puzzle::add_rule`].
    pub(crate) fn blank(kind: &str, n: usize) -> Result<Puzzle, Error> {
        let mut p = Puzzle::latin(n)?;
        p.kind = kind.to_owned();
        p.rules.clear();
        p.rules_at = OnceLock::new();
        p.redundant = OnceLock::new();
        Ok(p)
    }

    pub fn kind(&self) -> &str {
        &self.kind
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn givens(&self) -> &Grid {
        &self.givens
    }

    pub(crate) fn rules(&self) -> &[Arc<dyn Rule>] {
        &self.rules
    }

    /// Per rule, whether an earlier rule of the puzzle has the same meaning ([`Rule::meaning`]: a battlefield
    /// clue given at both ends of its column). Propagation and the program leave such a rule out, as it adds
    /// nothing; checking a grid keeps every rule.
    pub(crate) fn redundant(&self) -> &[bool] {
        self.redundant.get_or_init(|| {
            let apart = self.apart();
            let mut seen = std::collections::HashSet::new();
            Arc::new(
                self.rules
                    .iter()
                    .map(|r| r.meaning(&apart).is_some_and(|m| !seen.insert(m)))
                    .collect(),
            )
        })
    }

    /// The rules the solver takes: all but those [`Self::redundant`] marks.
    pub(crate) fn rules_solved(&self) -> impl Iterator<Item = &Arc<dyn Rule>> {
        let twice = self.redundant();
        self.rules
            .iter()
            .enumerate()
            .filter(move |&(i, _)| !twice[i])
            .map(|(_, r)| r)
    }

    /// The rules as the solver takes them ([`Self::rules_solved`]), each as text that tells rules
    /// apart: its meaning where it has one, else its whole description; sorted. Two puzzles with the same list
    /// are the same problem but for their givens, though their clues may be written differently (a battlefield
    /// clue at the head of its column or at its foot).
    pub(crate) fn rules_as_solved(&self) -> Vec<String> {
        let apart = self.apart();
        let mut said: Vec<String> = self
            .rules_solved()
            .map(|r| r.meaning(&apart).unwrap_or_else(|| format!("{r:?}")))
            .collect();
        said.sort_unstable();
        said
    }

    /// Which pairs of cells differ in every solution: those sharing one of the rules' all-different groups
    /// (listed only when first asked).
    pub(crate) fn apart(&self) -> crate::domains::Apart<'_> {
        crate::domains::Apart::new(self.size(), || {
            self.rules
                .iter()
                .filter_map(|r| r.permutation_cells())
                .collect()
        })
    }

    pub fn objective(&self) -> Option<&Objective> {
        self.objective.as_ref()
    }

    /// The expected answer, when the puzzle file gave one.
    pub fn solution(&self) -> Option<&Grid> {
        self.solution.as_ref()
    }

    /// The cells a person has filled so far (0 = empty), when the file gives them.
    pub fn progress(&self) -> Option<&Grid> {
        self.progress.as_ref()
    }

    /// Sets the cells filled so far; `check` judges them.
    pub fn set_progress(&mut self, progress: Option<Grid>) -> Result<&mut Self, Error> {
        if let Some(g) = &progress {
            self.check_size(g)?;
        }
        self.progress = progress;
        Ok(self)
    }

    /// What a picture of the puzzle shows besides its digits.
    pub(crate) fn figure(&self) -> &Figure {
        &self.figure
    }

    pub(crate) fn geometry(&self) -> Geometry {
        Geometry {
            size: self.size,
            boxes: self.boxes,
        }
    }

    /// A grid given for this puzzle (a solution, progress, givens) has its size.
    fn check_size(&self, grid: &Grid) -> Result<(), Error> {
        if grid.size() != self.size {
            return Err(ModelError::SolutionSize {
                solution: grid.size(),
                puzzle: self.size,
            }
            .into());
        }
        Ok(())
    }

    fn check_cell(&self, cell: Cell) -> Result<(), Error> {
        if cell.row >= self.size || cell.col >= self.size {
            return Err(ModelError::OffGrid {
                cell,
                size: self.size,
            }
            .into());
        }
        Ok(())
    }

    /// Fixes a cell's value; rejects values out of range and a given that, with the givens before it, breaks a
    /// rule (one that reads its cell: the givens before broke none).
    pub fn give(&mut self, cell: Cell, value: u32) -> Result<&mut Self, Error> {
        self.check_cell(cell)?;
        if value == 0 || value as usize > self.size {
            return Err(ModelError::ValueOutOfRange {
                cell,
                value,
                size: self.size,
            }
            .into());
        }
        let old = self.givens.get(cell);
        self.givens.set(cell, value);
        // The givens before broke no rule, so only a rule that reads this cell can be broken now.
        let rules_at = Arc::clone(self.rules_at.get_or_init(|| Arc::new(self.index_rules())));
        let broken = rules_at[cell.row * self.size + cell.col]
            .iter()
            .try_for_each(|&r| self.rules[r as usize].check_partial(&self.givens));
        if let Err(e) = broken {
            self.givens.set(cell, old);
            return Err(ModelError::Breaks(e).into());
        }
        Ok(self)
    }

    /// Per cell, the rules that read it ([`Self::rules_at`]).
    fn index_rules(&self) -> Vec<Vec<u32>> {
        let mut at = vec![Vec::new(); self.size * self.size];
        for (r, rule) in self.rules.iter().enumerate() {
            for cell in rule.cells() {
                let list: &mut Vec<u32> = &mut at[cell.row * self.size + cell.col];
                // A rule may name a cell twice (a line that crosses itself): index it once.
                if list.last() != Some(&(r as u32)) {
                    list.push(r as u32);
                }
            }
        }
        at
    }

    /// Fixes every non-empty cell of `givens` at once (a grid of this puzzle's size) and checks the rules once:
    /// what `--lines` does per line, where checking every rule after each given cost a seventh of the run.
    /// On an error nothing is changed.
    pub(crate) fn give_all(&mut self, givens: &Grid) -> Result<&mut Self, Error> {
        self.check_size(givens)?;
        let old = self.givens.clone();
        for (cell, value) in givens.filled() {
            if value as usize > self.size {
                return Err(ModelError::ValueOutOfRange {
                    cell,
                    value,
                    size: self.size,
                }
                .into());
            }
        }
        for (cell, value) in givens.filled() {
            self.givens.set(cell, value);
        }
        if let Err(e) = self.check_givens() {
            self.givens = old;
            return Err(ModelError::Breaks(e).into());
        }
        Ok(self)
    }

    /// Adds a rule.
    pub(crate) fn add_rule(&mut self, rule: Arc<dyn Rule>) -> Result<&mut Self, Error> {
        for cell in rule.cells() {
            self.check_cell(cell)?;
        }
        self.rules.push(rule);
        self.rules_at = OnceLock::new();
        self.redundant = OnceLock::new();
        Ok(self)
    }

    /// Adds a named whole-grid rule such as `diagonals` or `anti-knight`.
    pub fn add_named_rule(&mut self, name: &str) -> Result<&mut Self, Error> {
        let rules =
            catalogue::expand(name, self.geometry())?.ok_or_else(|| ModelError::UnknownRule {
                name: name.to_owned(),
                suggestion: vocabulary::rule_suggestion(name),
                known: vocabulary::named_rule_list(),
            })?;
        if !matches!(name, "latin" | "boxes") && !self.figure.named.iter().any(|n| n == name) {
            self.figure.named.push(name.to_owned());
        }
        match name {
            "boxes" => self.figure.boxes = Some(self.boxes),
            "diagonals" => {
                self.figure.main_diagonal = true;
                self.figure.anti_diagonal = true;
            }
            "main-diagonal" => self.figure.main_diagonal = true,
            "anti-diagonal" => self.figure.anti_diagonal = true,
            // Extra regions of fixed cells are shaded, as their setters draw them.
            "windoku" | "asterisk" | "girandola" | "centre-dot" => {
                self.figure.lines.extend(rules.iter().map(|r| figure::Line {
                    cells: r.cells(),
                    style: Some(crate::grammar::vocabulary::LineStyle::Region),
                    ..figure::Line::default()
                }));
            }
            _ => {}
        }
        for r in rules {
            self.add_rule(r)?;
        }
        Ok(self)
    }

    pub fn set_objective(&mut self, objective: Option<Objective>) -> Result<&mut Self, Error> {
        if let Some(o) = &objective {
            for &(cell, _) in &o.weights {
                self.check_cell(cell)?;
            }
        }
        self.objective = objective;
        Ok(self)
    }

    pub(crate) fn figure_mut(&mut self) -> &mut Figure {
        &mut self.figure
    }

    pub fn set_solution(&mut self, solution: Option<Grid>) -> Result<&mut Self, Error> {
        if let Some(s) = &solution {
            self.check_size(s)?;
        }
        self.solution = solution;
        Ok(self)
    }

    pub(crate) fn set_boxes(&mut self, boxes: (usize, usize)) {
        self.boxes = boxes;
    }

    /// Checks that the givens do not already break a rule (a repeated value in a row, a full cage with the
    /// wrong sum, ...). Returns what is broken.
    pub fn check_givens(&self) -> Result<(), Violation> {
        self.rules
            .iter()
            .try_for_each(|rule| rule.check_partial(&self.givens))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::sum::Sum;

    fn sum(cells: &[(usize, usize)], total: u64) -> Arc<dyn Rule> {
        Arc::new(Sum {
            label: format!("sum {total}"),
            cells: cells.iter().map(|&(r, c)| Cell::new(r, c)).collect(),
            total,
            distinct: false,
        })
    }

    /// A given is checked against the rules that read its cell alone (checking every rule after each given made
    /// loading a filled grid quadratic in its cells): a sum the givens already break elsewhere (added after
    /// them, when nothing checks) does not stop a given outside it, a rule through the cell still does, and a
    /// rule added after the first given is among those checked.
    #[test]
    fn a_given_is_checked_against_the_rules_through_its_cell() {
        let mut p = Puzzle::latin(4).unwrap();
        p.give(Cell::new(0, 0), 1).unwrap();
        p.give(Cell::new(0, 1), 2).unwrap();
        p.add_rule(sum(&[(0, 0), (0, 1)], 7)).unwrap();
        p.give(Cell::new(3, 3), 1).unwrap();
        // Row 4 holds a 1 already.
        assert!(p.give(Cell::new(3, 0), 1).is_err());
        assert_eq!(p.givens().get(Cell::new(3, 0)), 0);
        p.add_rule(sum(&[(1, 1), (2, 2)], 5)).unwrap();
        p.give(Cell::new(1, 1), 3).unwrap();
        assert!(p.give(Cell::new(2, 2), 3).is_err(), "3 + 3 is not 5");
        p.give(Cell::new(2, 2), 2).unwrap();
    }
}
