//! Fish (X-wing, swordfish, jellyfish) for `hint` and `rate`'s fish rung, between any full groups a grammar
//! declares.
//!
//! Take k full groups that share no cell (the base: rows 2 and 7). Each holds a value v once, so v stands in k
//! distinct cells. When every place v has left in them lies in k other full groups (the cover: columns 3 and
//! 8), each cover group can hold only one v and all k must be used, so the cover's v are the base's, and no
//! other cell of the cover can hold v. The argument needs only that the base groups are disjoint and that every
//! group holds each value once, so the groups are taken from the rules as they are: rows against columns,
//! columns against boxes, jigsaw regions against rows, whatever the puzzle has. Without fish, `hint` reached
//! such steps only by trial and contradiction, and `rate` graded them as probing.

use crate::domains::Domains;
use crate::grid::Cell;

/// The largest fish looked for: a jellyfish (four groups), as far as people look.
const MAX_FISH: u32 = 4;

/// The most base sets one search looks at: on a large grid with many groups a jellyfish search could otherwise
/// take minutes (64 groups choose 4, for each value and pair of families), and a hint must come at once.
const MAX_SETS: usize = 200_000;

/// One fish: the value, and the base and cover groups (indices into the ladder's full groups).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fish {
    pub(crate) value: u32,
    pub(crate) base: Vec<usize>,
    pub(crate) cover: Vec<usize>,
    /// The open cells of its cover outside its base, which lose the value, in order.
    pub(crate) struck: Vec<Cell>,
    /// How to find it again: its families and base, small enough to copy.
    pub(crate) key: Key,
}

/// A fish as a chain remembers it: the value, the families of its base and cover, and its base as a mask over
/// the base family's members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    value: u32,
    base_family: usize,
    cover_family: usize,
    base: u64,
}

/// Not in a family's groups.
const NONE: u8 = u8::MAX;

/// The full groups split into families of groups that share no cell, greedily in the order given (rows fall
/// together, then columns, then boxes); only families of two groups or more are kept. A family has at most n
/// groups (n cells each, n^2 cells), so a set of its members fits a word.
#[derive(Debug)]
pub(crate) struct Families {
    /// Per family, its groups (indices into the ladder's full groups).
    members: Vec<Vec<usize>>,
    /// Per family, per cell (row by row), the position in `members` of the group that holds it, or [`NONE`].
    position: Vec<Vec<u8>>,
}

impl Families {
    pub(crate) fn new(groups: &[(String, Vec<Cell>)], n: usize) -> Families {
        let mut position: Vec<Vec<u8>> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (g, (_, cells)) in groups.iter().enumerate() {
            let free = |at: &Vec<u8>| cells.iter().all(|c| at[c.row * n + c.col] == NONE);
            let f = match position.iter().position(free) {
                Some(f) => f,
                None => {
                    position.push(vec![NONE; n * n]);
                    members.push(Vec::new());
                    members.len() - 1
                }
            };
            for c in cells {
                position[f][c.row * n + c.col] = members[f].len() as u8;
            }
            members[f].push(g);
        }
        let (members, position) = members
            .into_iter()
            .zip(position)
            .filter(|(m, _)| m.len() >= 2)
            .unzip();
        Families { members, position }
    }

    /// The cover family's members (as a mask of positions) that hold the places v has left in a base group's
    /// `cells`; `None` when v is placed there, has one place only, or has a place outside the cover family.
    fn touched(&self, d: &Domains, cells: &[Cell], cover_family: usize, v: u32) -> Option<u64> {
        let n = d.size();
        let (mut mask, mut places) = (0u64, 0);
        for &c in cells.iter().filter(|&&c| d.contains(c, v)) {
            if d.fixed(c).is_some() {
                return None;
            }
            let at = self.position[cover_family][c.row * n + c.col];
            if at == NONE {
                return None;
            }
            mask |= 1 << at;
            places += 1;
        }
        (places >= 2).then_some(mask)
    }

    /// The fish `key` names, if it still stands on `d`.
    pub(crate) fn again(
        &self,
        d: &Domains,
        groups: &[(String, Vec<Cell>)],
        key: Key,
    ) -> Option<Fish> {
        let base = self.groups_of(key.base_family, key.base);
        let mut cover = 0u64;
        for &g in &base {
            cover |= self.touched(d, &groups[g].1, key.cover_family, key.value)?;
        }
        (cover.count_ones() as usize == base.len()).then(|| {
            Fish::new(
                d,
                groups,
                key,
                base,
                self.groups_of(key.cover_family, cover),
            )
        })
    }

    fn groups_of(&self, family: usize, mask: u64) -> Vec<usize> {
        let members = &self.members[family];
        (0..members.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| members[i])
            .collect()
    }

    /// The first fish that strikes something: smallest first, then by base family, value and cover family;
    /// `None` also when [`MAX_SETS`] base sets were looked at without one.
    pub(crate) fn find(&self, d: &Domains, groups: &[(String, Vec<Cell>)]) -> Option<Fish> {
        let n = d.size() as u32;
        let mut sets = 0;
        for k in 2..=MAX_FISH {
            for (f, members) in self.members.iter().enumerate() {
                for v in 1..=n {
                    for b in (0..self.members.len()).filter(|&b| b != f) {
                        // Base groups whose places of v lie in at most k cover groups, with those groups.
                        let open: Vec<(usize, u64)> = (0..members.len())
                            .filter_map(|i| {
                                let mask = self.touched(d, &groups[members[i]].1, b, v)?;
                                (mask.count_ones() <= k).then_some((i, mask))
                            })
                            .collect();
                        for set in super::hint::subsets(open.len(), k as usize) {
                            sets += 1;
                            if sets > MAX_SETS {
                                return None;
                            }
                            let cover = set.iter().fold(0u64, |m, &i| m | open[i].1);
                            if cover.count_ones() != k {
                                continue;
                            }
                            let key = Key {
                                value: v,
                                base_family: f,
                                cover_family: b,
                                base: set.iter().fold(0u64, |m, &i| m | 1 << open[i].0),
                            };
                            let base = self.groups_of(f, key.base);
                            let fish = Fish::new(d, groups, key, base, self.groups_of(b, cover));
                            if !fish.struck.is_empty() {
                                return Some(fish);
                            }
                        }
                    }
                }
            }
        }
        None
    }
}

impl Fish {
    /// The fish of `key` with its groups, and what it strikes on `d`: v from every open cell of its cover
    /// outside its base.
    fn new(
        d: &Domains,
        groups: &[(String, Vec<Cell>)],
        key: Key,
        base: Vec<usize>,
        cover: Vec<usize>,
    ) -> Fish {
        let mut struck: Vec<Cell> = cover
            .iter()
            .flat_map(|&g| groups[g].1.iter().copied())
            .filter(|c| !base.iter().any(|&b| groups[b].1.contains(c)))
            .filter(|&c| d.contains(c, key.value) && d.fixed(c).is_none())
            .collect();
        struck.sort_unstable();
        struck.dedup();
        Fish {
            value: key.value,
            base,
            cover,
            struck,
            key,
        }
    }
}

/// Groups named together: `rows 2 and 7` when they share their first word, else each label in full.
pub(crate) fn named(groups: &[(String, Vec<Cell>)], members: &[usize]) -> String {
    let labels: Vec<&str> = members.iter().map(|&g| groups[g].0.as_str()).collect();
    let split: Vec<Option<(&str, &str)>> = labels.iter().map(|l| l.split_once(' ')).collect();
    let word = split.first().copied().flatten().map(|(w, _)| w);
    match word {
        Some(w)
            if split
                .iter()
                .all(|s| s.is_some_and(|(x, rest)| x == w && !rest.contains(' '))) =>
        {
            // Labels that are already plural (a section's name, `regions A`) stay so.
            let plural = if w.ends_with('s') {
                w.to_owned()
            } else if w.ends_with(['x', 'z']) || w.ends_with("ch") || w.ends_with("sh") {
                format!("{w}es")
            } else {
                format!("{w}s")
            };
            let ids = split.iter().map(|s| s.map_or("", |(_, id)| id).to_owned());
            format!("{plural} {}", super::hint::joined(ids, "and"))
        }
        _ => super::hint::joined(labels.iter().map(|l| l.to_string()), "and"),
    }
}

/// The name people give a fish of `k` groups.
pub(crate) fn kind(k: usize) -> &'static str {
    match k {
        2 => "an X-wing",
        3 => "a swordfish",
        _ => "a jellyfish",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Puzzle;

    fn ladder_parts(p: &Puzzle) -> (Vec<(String, Vec<Cell>)>, Families) {
        let groups = super::super::full_groups(p);
        let families = Families::new(&groups, p.size());
        (groups, families)
    }

    /// Every fish on random candidates of a 4x4 Latin square (rows and columns) and a 4x4 Sudoku (boxes too):
    /// what it strikes is in no solution (each solution is a grid of the type within the candidates, all of them
    /// enumerated by brute force).
    #[test]
    fn fish_strike_only_what_no_solution_within_the_candidates_uses() {
        for (p, families_wanted, solutions) in [
            (Puzzle::latin(4).unwrap(), 2, 576),
            (Puzzle::sudoku(4).unwrap(), 3, 288),
        ] {
            strike_only_what_no_solution_uses(&p, families_wanted, solutions);
        }
    }

    fn strike_only_what_no_solution_uses(p: &Puzzle, families_wanted: usize, solutions: usize) {
        let (groups, families) = ladder_parts(p);
        assert_eq!(families.members.len(), families_wanted);
        // Every Latin square of order 4.
        let mut squares: Vec<[u32; 16]> = Vec::new();
        let perms: Vec<[u32; 4]> = {
            let mut out = Vec::new();
            for a in 1..=4u32 {
                for b in 1..=4 {
                    for c in 1..=4 {
                        for e in 1..=4 {
                            let r = [a, b, c, e];
                            let mut s = r;
                            s.sort();
                            if s == [1, 2, 3, 4] {
                                out.push(r);
                            }
                        }
                    }
                }
            }
            out
        };
        for r0 in &perms {
            for r1 in &perms {
                for r2 in &perms {
                    for r3 in &perms {
                        let rows = [r0, r1, r2, r3];
                        let mut grid = crate::grid::Grid::empty(4);
                        for (i, r) in rows.iter().enumerate() {
                            for (c, &v) in r.iter().enumerate() {
                                grid.set(Cell::new(i, c), v);
                            }
                        }
                        // Every rule of the type, checked exactly on the full grid.
                        if p.check_grid(&grid).is_ok() {
                            let mut g = [0; 16];
                            for (i, r) in rows.iter().enumerate() {
                                g[i * 4..i * 4 + 4].copy_from_slice(&r[..]);
                            }
                            squares.push(g);
                        }
                    }
                }
            }
        }
        assert_eq!(squares.len(), solutions);
        let mut rng = fastrand::Rng::with_seed(5);
        let mut found = 0;
        for _ in 0..4000 {
            // Candidates of a random square, plus random others: at least one solution stays.
            let sol = squares[rng.usize(..squares.len())];
            let mut d = Domains::full(4);
            for (i, v) in sol.iter().enumerate() {
                let extra = rng.u64(0..16);
                d.restrict(Cell::new(i / 4, i % 4), extra | 1 << (v - 1))
                    .unwrap();
            }
            let Some(fish) = families.find(&d, &groups) else {
                continue;
            };
            found += 1;
            assert_eq!(families.again(&d, &groups, fish.key).as_ref(), Some(&fish));
            for &c in &fish.struck {
                let used = squares.iter().any(|s| {
                    (0..16).all(|i| d.contains(Cell::new(i / 4, i % 4), s[i]))
                        && s[c.row * 4 + c.col] == fish.value
                });
                assert!(
                    !used,
                    "{fish:?} strikes {} from {c}, which a solution uses",
                    fish.value
                );
            }
        }
        assert!(found > 100, "only {found} fish found on {}", p.kind());
    }

    #[test]
    fn an_x_wing_between_rows_and_columns_is_found_and_named() {
        let p = Puzzle::sudoku(9).unwrap();
        let (groups, families) = ladder_parts(&p);
        assert_eq!(families.members.len(), 3, "rows, columns and boxes");
        // 4 in rows 2 and 7 only in columns 3 and 8.
        let mut d = Domains::full(9);
        for r in [1, 6] {
            for c in (0..9).filter(|&c| c != 2 && c != 7) {
                d.remove(Cell::new(r, c), 4).unwrap();
            }
        }
        let fish = families.find(&d, &groups).unwrap();
        assert_eq!(fish.value, 4);
        assert_eq!(named(&groups, &fish.base), "rows 2 and 7");
        assert_eq!(named(&groups, &fish.cover), "columns 3 and 8");
        let struck = &fish.struck;
        assert_eq!(struck.len(), 14);
        assert!(struck.contains(&Cell::new(0, 2)) && !struck.contains(&Cell::new(1, 2)));
    }
}
