//! A hint's steps in words, as a person reads them: strikes that one deduction makes in a row share a line
//! (`r6c6 is not 6 or 7: ...`, `r6c1, r6c2 and r6c3 are not 8: ...`), in a chain and in `hint --all`'s list,
//! where the steps themselves are one candidate each. Long chains were mostly such runs: a subset striking its
//! values from every other cell of a row took a line a cell and a value.

use crate::analyse::hint::{deduction_run, joined, tail, Chain, Hint, Source, Tail};

/// One step: `r1c3 = 4: ...` or `r1c3 is not 4: ...`.
pub(crate) fn step(h: &Hint) -> String {
    if h.place {
        format!("{} = {}: {}", h.cell, h.value, h.reason)
    } else {
        format!("{} is not {}: {}", h.cell, h.value, h.reason)
    }
}

/// A chain's steps, one line each but that consecutive strikes of one deduction, on one cell or of one value,
/// share a line.
pub(crate) fn chain_lines(chain: &Chain) -> Vec<String> {
    let steps: Vec<(&Hint, Option<Source>)> = chain
        .steps
        .iter()
        .zip(chain.sources.iter().map(|&s| Some(s)))
        .collect();
    runs(&steps).into_iter().map(|r| line(&steps[r])).collect()
}

/// The steps split into runs of one deduction ([`deduction_run`]), as index ranges in order.
pub(crate) fn runs(steps: &[(&Hint, Option<Source>)]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let k = deduction_run(&steps[i..]).max(1);
        out.push(i..i + k);
        i += k;
    }
    out
}

/// One run of steps on one line: a single step as it is, several as they share it.
pub(crate) fn line(run: &[(&Hint, Option<Source>)]) -> String {
    match run {
        [one] => step(one.0),
        _ => shared(run),
    }
}

/// Strikes of one deduction, all on one cell or all of one value, on one line.
fn shared(run: &[(&Hint, Option<Source>)]) -> String {
    let first = run[0].0;
    let (cells, values, head) = if run.iter().all(|s| s.0.cell == first.cell) {
        let values = joined(run.iter().map(|s| s.0.value.to_string()), "or");
        let head = format!("{} is not {values}", first.cell);
        (first.cell.to_string(), values, head)
    } else {
        let cells = joined(run.iter().map(|s| s.0.cell.to_string()), "and");
        let head = format!("{cells} are not {}", first.value);
        (cells, first.value.to_string(), head)
    };
    let reason = match tail(first) {
        Some(Tail::So(prefix)) => format!("{prefix}so {cells} cannot be {values}"),
        Some(Tail::There(prefix)) => format!("{prefix}cannot use {values} there"),
        None => first.reason.clone(),
    };
    format!("{head}: {reason}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    fn strike(cell: Cell, value: u32, reason: &str) -> Hint {
        Hint {
            cell,
            value,
            place: false,
            technique: "rule",
            reason: reason.to_owned(),
            chain: None,
        }
    }

    #[test]
    fn strikes_of_one_deduction_share_a_line() {
        let (a, b, c) = (Cell::new(5, 5), Cell::new(5, 0), Cell::new(5, 1));
        let rule = "whispers line 1: r6c6 differs by at least 5 from r5c5";
        let row = "in row 6, r6c5 and r6c6 can only hold 8 and 9, one each, ";
        let steps = vec![
            strike(a, 6, &format!("{rule} cannot use 6 there")),
            strike(a, 7, &format!("{rule} cannot use 7 there")),
            strike(b, 8, &format!("{row}so r6c1 cannot be 8")),
            strike(c, 8, &format!("{row}so r6c2 cannot be 8")),
            // The same subset, another cell and another value: a line of its own.
            strike(a, 9, &format!("{row}so r6c6 cannot be 9")),
            // The same words from another rule are another deduction.
            strike(a, 4, &format!("{rule} cannot use 4 there")),
        ];
        let sources = vec![
            Source::Rule(3),
            Source::Rule(3),
            Source::Rule(9),
            Source::Rule(9),
            Source::Rule(9),
            Source::Rule(4),
        ];
        let chain = Chain {
            steps,
            end: String::new(),
            sources,
        };
        assert_eq!(
            chain_lines(&chain),
            [
                format!("r6c6 is not 6 or 7: {rule} cannot use 6 or 7 there"),
                format!("r6c1 and r6c2 are not 8: {row}so r6c1 and r6c2 cannot be 8"),
                format!("r6c6 is not 9: {row}so r6c6 cannot be 9"),
                format!("r6c6 is not 4: {rule} cannot use 4 there"),
            ]
        );
    }
}
