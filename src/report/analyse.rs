//! The answers of `latin candidates` and of `latin check` on a grid filled part way, as text and as JSON.

use serde_json::json;

use super::steps::{chain_lines, line, runs, step};
use crate::analyse::candidates::Candidates;
use crate::analyse::draft::SectionText;
use crate::analyse::generate::Generated;
use crate::analyse::hint::{Hint, Hints, Source};
use crate::analyse::progress::{Fault, Judged, Progress};
use crate::analyse::rate::Rating;
use crate::grid::{Cell, Grid};
use crate::model::Puzzle;

/// A cell's candidates: digits run together up to 9x9 (`137`), comma-separated above.
fn cell_text(mask: u64, n: usize) -> String {
    let values: Vec<String> = (1..=n as u32)
        .filter(|v| mask & (1 << (v - 1)) != 0)
        .map(|v| v.to_string())
        .collect();
    match values.as_slice() {
        [] => "-".into(),
        _ if n <= 9 => values.concat(),
        _ => values.join(","),
    }
}

/// The candidates grid, then what it means.
pub(crate) fn candidates_text(file: &str, c: &Candidates) -> String {
    let n = c.size;
    let cells: Vec<String> = c.masks.iter().map(|&m| cell_text(m, n)).collect();
    let width = cells.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for row in cells.chunks(n) {
        let padded: Vec<String> = row.iter().map(|t| format!("{t:<width$}")).collect();
        out += padded.join("  ").trim_end();
        out.push('\n');
    }
    let fixed = c.fixed().len();
    out += &if !c.complete && !c.several {
        let found = match c.examples.len() {
            0 => "no solution found",
            _ => "one solution found, not proved the only one",
        };
        format!(
            "{file}: {found}; {fixed} of {} cells have one candidate left\n",
            n * n
        )
    } else if c.masks.iter().all(|&m| m == 0) {
        format!("{file}: no solution, so no cell has a candidate\n")
    } else if !c.several {
        format!("{file}: one solution; every cell is fixed\n")
    } else {
        format!("{file}: two or more solutions; {fixed} of {} cells are the same in all of them ({} solves)\n", n * n, c.solves)
    };
    if !c.complete {
        out +=
            "time limit reached: the cells not yet tested show every value propagation left them\n";
    }
    out
}

pub(crate) fn candidates_json(file: &str, c: &Candidates) -> String {
    let n = c.size;
    let grid: Vec<Vec<Vec<u32>>> = c
        .masks
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|&m| (1..=n as u32).filter(|v| m & (1 << (v - 1)) != 0).collect())
                .collect()
        })
        .collect();
    json!({
        "file": file,
        "candidates": grid,
        "fixed": c.fixed().len(),
        "several": c.several,
        "complete": c.complete,
        "solves": c.solves,
    })
    .to_string()
        + "\n"
}

fn judged_name(j: Judged) -> &'static str {
    match j {
        Judged::Unique => "unique",
        Judged::Completes => "completes",
        Judged::NoCompletion => "no-completion",
        Judged::NoSolution => "infeasible",
        Judged::Unknown => "timeout",
    }
}

fn why(fault: &Fault) -> String {
    match fault {
        Fault::Breaks(message) => message.clone(),
        Fault::NotTheSolution => "not the value of the puzzle's one solution".into(),
    }
}

/// `check` on a grid filled part way: never the solution, only what is wrong so far.
pub(crate) fn progress_text(file: &str, p: &Progress) -> String {
    let mut out = String::new();
    let counts = format!("{} cells filled, {} open", p.filled, p.open);
    if p.is_fine() {
        return format!("{file}: nothing wrong so far ({counts})\n");
    }
    if !p.faults.is_empty() {
        let s = if p.faults.len() == 1 {
            "cell is"
        } else {
            "cells are"
        };
        out += &format!("{file}: {} {s} wrong ({counts})\n", p.faults.len());
        for (cell, value, fault) in &p.faults {
            out += &format!("  {cell} = {value}: {}\n", why(fault));
        }
    }
    match p.judged {
        Judged::NoCompletion => {
            out += &format!(
                "{file}: no solution agrees with the filled cells (the puzzle has several)\n"
            )
        }
        Judged::NoSolution => out += &format!("{file}: the puzzle itself has no solution\n"),
        Judged::Unknown => {
            out += &format!("{file}: time limit reached before the filled cells could be judged\n")
        }
        Judged::Unique | Judged::Completes => {}
    }
    out
}

pub(crate) fn progress_json(file: &str, p: &Progress) -> String {
    let wrong: Vec<_> = p
        .faults
        .iter()
        .map(|(cell, value, fault)| json!({"cell": Cell::to_string(cell), "value": value, "why": why(fault)}))
        .collect();
    json!({
        "file": file,
        "ok": p.is_fine(),
        "judged": judged_name(p.judged),
        "filled": p.filled,
        "open": p.open,
        "wrong": wrong,
    })
    .to_string()
        + "\n"
}

/// `rate`: the level, its score, and what was needed.
pub(crate) fn rating_text(file: &str, r: &Rating) -> String {
    let [inter, subsets, fish, probes, nodes] = r.uses;
    let steps = format!("{inter} intersections, {subsets} subsets, {fish} fish, {probes} probes");
    let needed = match r.level_name() {
        "singles" => "singles and each rule's own deductions only".to_owned(),
        "search" => format!("search ({nodes} nodes) after {steps}"),
        _ => steps,
    };
    let answers = match (r.solvable, r.unique) {
        (false, _) => " (the puzzle has no solution)",
        (true, Some(false)) => {
            " (the puzzle has more than one solution: no grade reaches the answer)"
        }
        (true, None) => " (not proved within the time limit to have only one solution)",
        (true, Some(true)) => "",
    };
    format!(
        "{file}: {} (score {}): {needed}{answers}\n",
        r.level_name(),
        r.score
    )
}

pub(crate) fn rating_json(file: &str, r: &Rating) -> String {
    let [intersections, subsets, fish, probes, nodes] = r.uses;
    json!({
        "file": file,
        "level": r.level_name(),
        "score": r.score,
        "intersections": intersections,
        "subsets": subsets,
        "fish": fish,
        "probes": probes,
        "search_nodes": nodes,
        "solvable": r.solvable,
        "unique": r.unique,
    })
    .to_string()
        + "\n"
}

/// A step, and under a contradiction the chain that shows it, one step a line indented by `indent`.
fn step_lines(h: &Hint, indent: &str) -> String {
    let Some(chain) = &h.chain else {
        return format!("{}\n", step(h));
    };
    let mut out = format!("{}:\n", step(h));
    for line in chain_lines(chain) {
        out += &format!("{indent}then {line}\n");
    }
    out + &format!("{indent}so {}\n", chain.end)
}

/// `hint`: one step, or every step numbered (`--all`), then why it stopped.
/// `filled`: whether the person has filled cells of their own (a `progress:` grid).
pub(crate) fn hints_text(
    file: &str,
    found: &Hints,
    all: bool,
    finished: bool,
    filled: bool,
) -> String {
    let mut out = String::new();
    let steps = found.steps.as_slice();
    // Strikes of one deduction in a row are one line, as a person takes them.
    let sourced: Vec<(&Hint, Option<Source>)> =
        steps.iter().zip(found.sources.iter().copied()).collect();
    let runs = runs(&sourced);
    let lines = |r: &std::ops::Range<usize>, indent: &str| match r.len() {
        1 => step_lines(&steps[r.start], indent),
        _ => format!("{}\n", line(&sourced[r.clone()])),
    };
    match (runs.as_slice(), all || found.no_solution) {
        ([], _) => {}
        ([one], false) => out += &lines(one, "    "),
        (many, _) => {
            for (k, r) in many.iter().enumerate() {
                out += &format!("{:>3}. {}", k + 1, lines(r, "         "));
            }
        }
    }
    if found.no_solution {
        let after = if steps.is_empty() {
            ""
        } else {
            "after these steps, "
        };
        let what = match (filled, found.left == Some(0)) {
            (true, false) => "the givens and the filled cells leave a cell or a group no value (`latin check` shows which filled cells no solution agrees with)",
            (false, false) => "the givens leave a cell or a group no value",
            (true, true) => "no deduction shows it, but search finds none from the givens and the filled cells (`latin check` shows which filled cells no solution agrees with)",
            (false, true) => "no deduction shows it, but search finds none from the givens",
        };
        out += &format!("{file}: no solution: {after}{what}\n");
    } else if found.timed_out {
        out += &format!("{file}: time limit reached\n");
    } else if finished && (all || steps.is_empty()) {
        out += &format!("{file}: every cell is filled\n");
    } else if !finished && (all || steps.is_empty()) {
        let why = match found.left {
            Some(2) => {
                "the grid has more than one solution from here, so no deduction can finish it"
            }
            _ => "the rest needs search",
        };
        out += &format!(
            "{file}: no further step by singles, rules, intersections, subsets, fish or one contradiction: {why}\n"
        );
    }
    out
}

pub(crate) fn hints_json(file: &str, found: &Hints, finished: bool) -> String {
    let one = |h: &Hint| {
        json!({"cell": h.cell.to_string(), "value": h.value, "place": h.place,
            "technique": h.technique, "reason": h.reason, "text": step(h)})
    };
    let list: Vec<_> = found
        .steps
        .iter()
        .map(|h| {
            let mut out = one(h);
            if let Some(chain) = &h.chain {
                out["chain"] = chain.steps.iter().map(one).collect();
                out["lines"] = json!(chain_lines(chain));
                out["contradiction"] = json!(chain.end);
            }
            out
        })
        .collect();
    json!({"file": file, "steps": list, "finished": finished, "no_solution": found.no_solution,
        "solutions_left": found.left})
    .to_string()
        + "\n"
}

/// A generated puzzle as a puzzle file: its type, size, boxes and rules as asked, a title saying how it was made,
/// the givens, and the solution.
pub(crate) fn generated_yaml(template: &Puzzle, header: &str, g: &Generated) -> String {
    let figure = template.figure();
    let grid = |name: &str, grid: &Grid| {
        let text = crate::report::plain::render(grid, figure);
        block_scalar(name, text.lines())
    };
    let mut sections = String::new();
    for (name, text) in &g.sections {
        match text {
            SectionText::Block(lines) => {
                sections += &block_scalar(name, lines.iter().map(String::as_str))
            }
            SectionText::Map(clues) => {
                sections += &format!("{name}:\n");
                for (id, clue) in clues {
                    sections += &format!("  {id}: \"{clue}\"\n");
                }
            }
        }
    }
    let grade = match &g.rating {
        Some(r) => format!("{}, score {}", r.level_name(), r.score),
        None if !crate::analyse::rate::grades(g.solution.size()) => {
            // No `: ` in the title, which YAML would read as a mapping.
            format!(
                "not graded, as grades go up to {0}x{0}",
                crate::analyse::rate::LARGEST_GRADED
            )
        }
        None => "not graded within the time limit".to_owned(),
    };
    let stopped = match g.thinned {
        true => "",
        false => "; givens and clues removed until the time limit",
    };
    format!(
        "title: generated by latin, seed {} ({grade}{stopped})\n{header}{sections}{}{}",
        g.seed,
        grid("givens", &g.givens),
        grid("solution", &g.solution)
    )
}

/// A YAML literal block, each line indented by two. YAML takes a block's indentation from its first line, so
/// when that one starts with a space (a grid of 10 or more, its numbers right-aligned: ` .` over `10`) the
/// indentation is stated (`|2`); otherwise a later line with less space before it would end the block.
fn block_scalar<'a>(name: &str, lines: impl Iterator<Item = &'a str> + Clone) -> String {
    let stated = lines.clone().any(|l| l.starts_with(' '));
    let mut out = format!("{name}: |{}\n", if stated { "2" } else { "" });
    for line in lines {
        out += &format!("  {line}\n");
    }
    out
}

/// One line: the givens row by row, `.` empty, `1`-`9` then `A`-`Z` (the `--lines` form).
pub(crate) fn generated_line(g: &Generated) -> String {
    g.givens.to_line() + "\n"
}

/// The header of `generate --format csv`: the columns `solve --lines` reads as a table (the puzzle, and the
/// solution it compares its answer with), then the grade and the seed that remakes the puzzle.
pub(crate) const GENERATED_CSV_HEADER: &str = "puzzle,solution,level,score,seed\n";

/// One row of `generate --format csv` (the level and score empty when the puzzle was not graded).
pub(crate) fn generated_csv_row(g: &Generated) -> String {
    let (level, score) = g
        .rating
        .as_ref()
        .map_or((String::new(), String::new()), |r| {
            (r.level_name().to_string(), r.score.to_string())
        });
    format!(
        "{},{},{level},{score},{}\n",
        g.givens.to_line(),
        g.solution.to_line(),
        g.seed
    )
}

pub(crate) fn generated_json(kind: &str, g: &Generated) -> String {
    json!({
        "type": kind,
        "size": g.givens.size(),
        "givens": g.givens.rows(),
        "sections": sections_json(&g.sections),
        "solution": g.solution.rows(),
        "seed": g.seed,
        "level": g.rating.as_ref().map(|r| r.level_name()),
        "score": g.rating.as_ref().map(|r| r.score),
        "thinned": g.thinned,
    })
    .to_string()
        + "\n"
}

/// The sections as JSON: a block as its lines joined (the text a puzzle file holds), a map as an object.
fn sections_json(sections: &[(String, SectionText)]) -> serde_json::Value {
    sections
        .iter()
        .map(|(name, text)| {
            let value = match text {
                SectionText::Block(lines) => json!(lines.join("\n")),
                SectionText::Map(clues) => clues
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect::<serde_json::Map<_, _>>()
                    .into(),
            };
            (name.clone(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}
