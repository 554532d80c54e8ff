//! `latin generate TYPE`: puzzles with exactly one solution, graded, reproducible by seed.

use clap::ValueEnum;

use super::{print, Exit};
use crate::analyse::generate::{generate, Kind, Request, Symmetry};
use crate::analyse::rate::LEVELS;
use crate::error::Error;
use crate::grammar::Registry;
use crate::report;
use crate::solve::SolveOptions;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum SymmetryArg {
    None,
    Rotational,
    Mirror,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum GenerateFormat {
    /// A puzzle file with its `solution:`
    Yaml,
    /// One JSON object a puzzle
    Json,
    /// One line a puzzle, as `solve --lines` reads them
    Lines,
    /// A table with a header, `puzzle,solution,level,score,seed`, as `solve --lines` reads and checks it
    Csv,
}

#[derive(clap::Args)]
pub(crate) struct GenerateRun {
    /// The puzzle type: any grammar (its givens, cages, rooms, lines, pairs, outside clues and marks are drawn
    /// from a random solution, then thinned while the solution stays unique)
    #[arg(value_name = "TYPE")]
    kind: String,
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Box shape, rows x columns (default: near-square)
    #[arg(long = "box", value_name = "HxW")]
    boxes: Option<String>,
    /// Named rules to add, comma-separated (diagonals, anti-knight, ...)
    #[arg(long, value_delimiter = ',')]
    rules: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The grade to reach: singles, intersections, subsets, fish, probing, search
    #[arg(long, value_name = "LEVEL")]
    difficulty: Option<String>,
    #[arg(long, value_enum, default_value = "rotational")]
    symmetry: SymmetryArg,
    /// How many puzzles
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Puzzles made before giving up on the difficulty
    #[arg(long, default_value_t = 200, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    attempts: usize,
    #[arg(long, value_enum, default_value = "yaml")]
    format: GenerateFormat,
    /// For the whole run; with no --difficulty, removing givens and clues stops at three quarters of it and the
    /// puzzle keeps what it has then (still unique)
    #[arg(long, value_name = "SECS")]
    pub(crate) time_limit: Option<f64>,
}

pub(crate) fn run(
    run: &GenerateRun,
    registry: &Registry,
    options: &SolveOptions,
) -> Result<Exit, Error> {
    let kind = Kind::new(
        registry,
        &run.kind,
        run.size,
        run.boxes.as_deref(),
        &run.rules,
    )?;
    let one_line = matches!(run.format, GenerateFormat::Lines | GenerateFormat::Csv);
    if one_line && !kind.plan.is_empty() {
        return Err(Error::section(
            "--format",
            format!(
                "type {} has clue sections, which one line of givens cannot hold; use yaml or json",
                run.kind
            ),
        ));
    }
    let level = match &run.difficulty {
        None => None,
        Some(name) => Some(LEVELS.iter().position(|l| l == name).ok_or_else(|| {
            Error::section(
                "--difficulty",
                format!("unknown level {name:?} (known: {})", LEVELS.join(", ")),
            )
        })?),
    };
    let symmetry = match run.symmetry {
        SymmetryArg::None => Symmetry::None,
        SymmetryArg::Rotational => Symmetry::Rotational,
        SymmetryArg::Mirror => Symmetry::Mirror,
    };
    let mut header = format!("type: {}\nsize: {}\n", run.kind, run.size);
    if let Some(b) = &run.boxes {
        header += &format!("box: {b}\n");
    }
    if !run.rules.is_empty() {
        header += &format!("rules: [{}]\n", run.rules.join(", "));
    }
    for k in 0..run.count {
        // Each puzzle starts a fresh run of seeds, far from the others' attempts.
        let seed = run.seed.wrapping_add(k.wrapping_mul(1_000_003));
        let request = Request {
            seed,
            level,
            symmetry,
            attempts: run.attempts,
        };
        let made = generate(&kind, &request, options)?;
        print(&match run.format {
            GenerateFormat::Yaml if k > 0 => format!(
                "---\n{}",
                report::analyse::generated_yaml(&kind.base, &header, &made)
            ),
            GenerateFormat::Yaml => report::analyse::generated_yaml(&kind.base, &header, &made),
            GenerateFormat::Json => report::analyse::generated_json(&run.kind, &made),
            GenerateFormat::Lines => report::analyse::generated_line(&made),
            GenerateFormat::Csv if k > 0 => report::analyse::generated_csv_row(&made),
            GenerateFormat::Csv => {
                report::analyse::GENERATED_CSV_HEADER.to_owned()
                    + &report::analyse::generated_csv_row(&made)
            }
        })?;
    }
    Ok(Exit(0))
}
