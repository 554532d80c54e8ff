//! Regions for `generate`: cages and rooms cut from a solution, each with the clue its primitive reads from the
//! solution's values ([`crate::model::clue`]: sums, products, KenKen's arithmetic), and jigsaw layouts of n
//! regions of n cells, cut before any solution.

use super::draft::{Draft, Form, Section};
use super::plan::Cages;
use crate::error::Error;
use crate::grammar::{Grammar, Registry};
use crate::grid::{Cell, Grid};
use crate::import::region_id;
use crate::model::load::load_mapping;
use crate::model::Puzzle;
use crate::yaml::Mapping;

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
        .named_rules()
        .filter(|&name| name != "latin")
        .map(str::to_owned)
        .collect();
    named.extend(rules.iter().cloned());
    // Built on a Latin square, so a box shape for a type without boxes is refused here, by the type's name.
    let uses_boxes = grammar.uses_boxes || named.iter().any(|r| r == "boxes");
    crate::model::load::boxes_asked(&grammar.name, uses_boxes, boxes)?;
    crate::model::load::template("latin", n, boxes, &named, registry, "--size")
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
                .flat_map(|&i| neighbours(i, n))
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
    named(&id)
}

/// Region ids for cells numbered by region, renamed in order of each region's first cell, as a reader expects.
fn named(id: &[usize]) -> Vec<String> {
    let mut rename = vec![usize::MAX; id.iter().max().map_or(0, |m| m + 1)];
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

/// Cuts cages from `solution` until the puzzle they make with the sections drawn so far accepts it (a cage
/// whose digits must differ may not repeat one), and adds them to `draft`.
pub(crate) fn cut(
    cages: &Cages,
    header: &Mapping,
    solution: &Grid,
    rng: &mut fastrand::Rng,
    registry: &Registry,
    draft: &mut Draft,
) -> Result<(), Error> {
    let n = solution.size();
    for _ in 0..200 {
        let ids = partition(n, rng);
        let mut order: Vec<String> = Vec::new();
        for id in &ids {
            if !order.contains(id) {
                order.push(id.clone());
            }
        }
        let clues = order
            .iter()
            .map(|region| {
                let values: Vec<u32> = solution
                    .cells()
                    .filter(|c| ids[c.row * n + c.col] == *region)
                    .map(|c| solution.get(c))
                    .collect();
                Some((cages.maker)(&values, rng.u64(..)))
            })
            .collect();
        let mut tried = draft.clone();
        tried
            .sections
            .insert(cages.regions.clone(), whole(Form::Grid, ids));
        tried
            .sections
            .insert(cages.clues.clone(), whole(Form::Map(order), clues));
        let mut map = header.clone();
        tried.write_into(&mut map);
        let Ok(puzzle) = load_mapping(&map, registry) else {
            continue;
        };
        if puzzle.check_grid(solution).is_ok() {
            *draft = tried;
            return Ok(());
        }
    }
    Err(Error::section(
        "generate",
        "no regions cut from the solution made a valid puzzle in 200 tries",
    ))
}

/// A section kept whole.
pub(crate) fn whole(form: Form, entries: Vec<impl Into<Option<String>>>) -> Section {
    Section {
        form,
        entries: entries.into_iter().map(Into::into).collect(),
        required: true,
        droppable: false,
        tied: None,
    }
}

/// Exchanges tried for a layout: 200 n^3 (145,800 for 9x9), capped where each costs O(n^2) so that big grids
/// stay within a second or two.
const MAX_EXCHANGES: usize = 400_000;

/// A random layout of n connected regions of n cells: near-square boxes (rows when n is prime), then many
/// exchanges of cells between neighbouring regions, each kept when both regions stay connected. `None` when
/// `deadline` passes first.
pub(crate) fn layout(
    n: usize,
    rng: &mut fastrand::Rng,
    deadline: Option<std::time::Instant>,
) -> Option<Vec<String>> {
    let mut id = start_ids(n);
    tries(n, deadline, || exchange(n, &mut id, rng))?;
    Some(named(&id))
}

/// Runs `step` as many times as a layout is tried ([`MAX_EXCHANGES`]), looking at the clock every 1,024 steps:
/// `None` when `deadline` passes first.
fn tries(n: usize, deadline: Option<std::time::Instant>, mut step: impl FnMut()) -> Option<()> {
    for tried in 0..(200 * n * n * n).min(MAX_EXCHANGES) {
        if tried % 1024 == 0 && deadline.is_some_and(|t| std::time::Instant::now() >= t) {
            return None;
        }
        step();
    }
    Some(())
}

/// The boxes, rows by columns, that [`layout`] starts from: the squarest that divide n (1 x n, the rows, when n
/// is prime).
pub(crate) fn start_boxes(n: usize) -> (usize, usize) {
    let h = (1..=n)
        .filter(|h| n % h == 0 && h * h <= n)
        .max()
        .unwrap_or(1);
    (h, n / h)
}

/// The region of each cell (row by row) in [`start_boxes`]'s boxes, numbered in reading order.
fn start_ids(n: usize) -> Vec<usize> {
    let (h, w) = start_boxes(n);
    (0..n * n).map(|i| (i / n) / h * h + (i % n) / w).collect()
}

/// A random layout on which `solution`, which has every value once in each of [`start_boxes`]'s boxes, is a
/// solution too: the boxes, then many rotations of the cells of one value among a cycle of regions, each region
/// handing its cell of that value to the next one, which it touches; kept when every region of the cycle stays
/// connected. Each region keeps one cell of each value. Less irregular than [`layout`]'s (a cell moves only
/// where a cycle of its value's cells goes round), and used where no solution of those is found: past 16x16,
/// where a random layout is seldom decided. `None` when `deadline` passes first.
pub(crate) fn layout_of(
    solution: &Grid,
    rng: &mut fastrand::Rng,
    deadline: Option<std::time::Instant>,
) -> Option<Vec<String>> {
    let n = solution.size();
    let mut cycles = Cycles::new(solution);
    tries(n, deadline, || cycles.rotate(rng))?;
    Some(named(&cycles.id))
}

/// The regions of [`layout_of`] as they are rotated.
struct Cycles {
    n: usize,
    /// The region of each cell.
    id: Vec<usize>,
    /// The cell of each value (0-based) in each region, at `region * n + value`.
    at: Vec<usize>,
    /// The value of each cell, 0-based.
    value: Vec<usize>,
    /// The last walk's regions, and each region's place on it (`usize::MAX` off it).
    walk: Vec<usize>,
    place: Vec<usize>,
}

impl Cycles {
    fn new(solution: &Grid) -> Cycles {
        let n = solution.size();
        let id = start_ids(n);
        let value: Vec<usize> = (0..n * n)
            .map(|k| solution.get(Cell::new(k / n, k % n)) as usize - 1)
            .collect();
        let mut at = vec![0; n * n];
        for k in 0..n * n {
            at[id[k] * n + value[k]] = k;
        }
        Cycles {
            n,
            id,
            at,
            value,
            walk: Vec::new(),
            place: vec![usize::MAX; n],
        }
    }

    /// One try at a rotation: a walk from a random region, each step to a region its cell of a random value v
    /// touches, until a region repeats; the cycle it closed hands each region's cell of v to the next region.
    /// Kept when every region of the cycle stays connected.
    fn rotate(&mut self, rng: &mut fastrand::Rng) {
        let n = self.n;
        let v = rng.usize(..n);
        self.walk.iter().for_each(|&r| self.place[r] = usize::MAX);
        self.walk.clear();
        let mut x = rng.usize(..n);
        let from = loop {
            self.place[x] = self.walk.len();
            self.walk.push(x);
            let k = self.at[x * n + v];
            let next: Vec<usize> = neighbours(k, n)
                .map(|j| self.id[j])
                .filter(|&r| r != x)
                .collect();
            if next.is_empty() {
                return;
            }
            x = next[rng.usize(..next.len())];
            if self.place[x] != usize::MAX {
                break self.place[x];
            }
        };
        let ring = self.walk[from..].to_vec();
        let cells: Vec<usize> = ring.iter().map(|&r| self.at[r * n + v]).collect();
        self.move_round(&ring, &cells, 1);
        if !ring.iter().all(|&r| connected(&self.id, r, n)) {
            self.move_round(&ring, &cells, 0);
        }
    }

    /// Puts `cells[i]`, each of one value, in region `ring[i + by]` (round the ring).
    fn move_round(&mut self, ring: &[usize], cells: &[usize], by: usize) {
        for (i, &k) in cells.iter().enumerate() {
            let to = ring[(i + by) % ring.len()];
            self.id[k] = to;
            self.at[to * self.n + self.value[k]] = k;
        }
    }
}

/// One try at an exchange of two cells between neighbouring regions of `id`: a random cell joins a
/// neighbouring region, and some other cell of that region, next to the first's, joins the first's; kept when
/// both regions stay connected.
fn exchange(n: usize, id: &mut [usize], rng: &mut fastrand::Rng) {
    let a = rng.usize(..n * n);
    let (r, c) = (a / n, a % n);
    let b = match rng.u8(..4) {
        0 if r > 0 => a - n,
        1 if r + 1 < n => a + n,
        2 if c > 0 => a - 1,
        3 if c + 1 < n => a + 1,
        _ => return,
    };
    let (ra, rb) = (id[a], id[b]);
    if ra == rb {
        return;
    }
    let giving: Vec<usize> = (0..n * n)
        .filter(|&k| k != b && id[k] == rb && touches(id, k, ra, n, a))
        .collect();
    if giving.is_empty() {
        return;
    }
    let k = giving[rng.usize(..giving.len())];
    id[a] = rb;
    id[k] = ra;
    if !(connected(id, ra, n) && connected(id, rb, n)) {
        id[a] = ra;
        id[k] = rb;
    }
}

/// Whether cell `k` has a neighbour in region `region` other than `except`.
fn touches(id: &[usize], k: usize, region: usize, n: usize, except: usize) -> bool {
    neighbours(k, n).any(|j| j != except && id[j] == region)
}

/// The indices (row by row) of the cells sharing an edge with cell `k`.
fn neighbours(k: usize, n: usize) -> impl Iterator<Item = usize> {
    Cell::new(k / n, k % n)
        .orthogonal(n)
        .map(move |c| c.row * n + c.col)
}

/// Whether the cells of `region` are connected.
fn connected(id: &[usize], region: usize, n: usize) -> bool {
    let cells: Vec<usize> = (0..n * n).filter(|&k| id[k] == region).collect();
    let Some(&first) = cells.first() else {
        return true;
    };
    let mut seen = vec![false; n * n];
    let mut stack = vec![first];
    seen[first] = true;
    let mut reached = 1;
    while let Some(k) = stack.pop() {
        for j in neighbours(k, n) {
            if !seen[j] && id[j] == region {
                seen[j] = true;
                reached += 1;
                stack.push(j);
            }
        }
    }
    reached == cells.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_n_connected_regions_of_n_cells() {
        for (n, seed) in [(4, 1), (6, 2), (9, 3)] {
            let ids = layout(n, &mut fastrand::Rng::with_seed(seed), None).unwrap();
            let mut regions: std::collections::BTreeMap<&String, usize> = Default::default();
            for id in &ids {
                *regions.entry(id).or_default() += 1;
            }
            assert_eq!(regions.len(), n);
            assert!(regions.values().all(|&k| k == n));
            let numbers: Vec<usize> = ids
                .iter()
                .map(|id| regions.keys().position(|k| *k == id).unwrap())
                .collect();
            for r in 0..n {
                assert!(connected(&numbers, r, n));
            }
            // Not the rows any more.
            assert!((0..n).any(|r| ids[r * n] != ids[r * n + n - 1]), "{n}");
        }
    }

    /// A layout cut from a solution has the solution's values once in each region, each region connected,
    /// and it is not the boxes it started from.
    #[test]
    fn a_layout_cut_from_a_solution_keeps_each_value_once_a_region() {
        for (n, seed) in [(9, 1), (12, 2), (16, 3), (7, 4)] {
            let (h, w) = start_boxes(n);
            let start = if h == 1 {
                Puzzle::latin(n).unwrap()
            } else {
                Puzzle::sudoku_with_boxes(n, h, w).unwrap()
            };
            let solved = crate::solve(&start, &crate::SolveOptions::default()).unwrap();
            let solution = &solved.solutions[0];
            let ids = layout_of(solution, &mut fastrand::Rng::with_seed(seed), None).unwrap();
            let names: Vec<&String> = ids
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(names.len(), n, "{n}");
            let numbers: Vec<usize> = ids
                .iter()
                .map(|id| names.iter().position(|k| *k == id).unwrap())
                .collect();
            for r in 0..n {
                let mut values: Vec<u32> = (0..n * n)
                    .filter(|&k| numbers[k] == r)
                    .map(|k| solution.get(Cell::new(k / n, k % n)))
                    .collect();
                values.sort_unstable();
                assert_eq!(
                    values,
                    (1..=n as u32).collect::<Vec<_>>(),
                    "{n}: region {r}"
                );
                assert!(connected(&numbers, r, n), "{n}: region {r}");
            }
            // Cells in another region than their box's first cell: many moved.
            let boxes = start_ids(n);
            let first = |k: usize| boxes.iter().position(|&b| b == boxes[k]).unwrap();
            let moved = (0..n * n)
                .filter(|&k| numbers[k] != numbers[first(k)])
                .count();
            // From rows (a prime size), a cell moves only at a row's end, where its value's cycle allows.
            assert!(h == 1 || moved > n, "{n}: {moved} cells left their box");
        }
    }
}
