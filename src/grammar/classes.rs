//! The `classes:` parameter of the `classes` primitive: the value sets as listed, or a rule that makes them at
//! any grid size.
//!
//! Entropic, modular and parity lines are set at 6x6 and 12x12 as well as 9x9, and their classes are defined
//! from the grid's values (low, middle and high thirds; remainders mod 3; odd and even), not from 1..9. A
//! grammar that lists `[[1, 2, 3], [4, 5, 6], [7, 8, 9]]` holds at 9x9 only: on a 6x6 the third class is empty
//! and no line of three cells has a solution, and on a 12x12 the values 10 to 12 are in no class and kept off
//! every line. `{bands: 3}` and `{modulo: 3}` say the rule instead, so one grammar file holds at every size.

use crate::domains::{all_values, bit};
use crate::yaml::Value;

/// A rule that makes classes from the grid's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClassRule {
    /// `{bands: k}`: the values 1..n in k runs of n / k (entropic lines: low, middle and high).
    Bands(usize),
    /// `{modulo: k}`: the values of each remainder mod k, remainders 1, 2, .., k - 1 and then 0 (modular lines
    /// mod 3, parity lines mod 2).
    Modulo(usize),
}

/// A `classes:` parameter as the grammar says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Classes {
    /// As listed (bit v - 1 for value v): disjoint, non-empty, values 1 to 64.
    Listed(Vec<u64>),
    /// Made from the grid's values, at whatever size the puzzle has.
    Made(ClassRule),
}

/// The largest value a class can hold: a class is a bit set of one word.
const MAX_VALUE: usize = 64;

impl Classes {
    /// The value sets on an n x n grid (bit v - 1 for value v), or why this grid cannot have them. Listed
    /// classes keep only the values the grid has.
    pub(crate) fn at(&self, n: usize) -> Result<Vec<u64>, String> {
        match self {
            Classes::Listed(lists) => {
                let within = all_values(n.min(MAX_VALUE));
                Ok(lists.iter().map(|c| c & within).collect())
            }
            Classes::Made(rule) => rule.at(n),
        }
    }
}

impl ClassRule {
    fn at(self, n: usize) -> Result<Vec<u64>, String> {
        if n > MAX_VALUE {
            return Err(format!(
                "{self} makes classes of values up to {MAX_VALUE}, and this grid is {n}x{n}"
            ));
        }
        match self {
            ClassRule::Bands(k) if n % k != 0 => Err(format!(
                "{self} cuts the values 1..{n} into {k} runs of equal length, and {n} is not a multiple of {k}"
            )),
            ClassRule::Bands(k) => {
                let run = n / k;
                Ok((0..k).map(|i| all_values(run) << (i * run)).collect())
            }
            ClassRule::Modulo(k) if k > n => Err(format!(
                "{self} has a remainder that no value of 1..{n} leaves"
            )),
            ClassRule::Modulo(k) => Ok((1..=k)
                .map(|r| {
                    (1..=n)
                        .filter(|v| v % k == r % k)
                        .fold(0, |m, v| m | bit(v as u32))
                })
                .collect()),
        }
    }
}

impl std::fmt::Display for ClassRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClassRule::Bands(k) => write!(f, "`{{bands: {k}}}`"),
            ClassRule::Modulo(k) => write!(f, "`{{modulo: {k}}}`"),
        }
    }
}

/// A `classes:` parameter, or what is wrong with it.
pub(crate) fn classes(v: Option<&Value>) -> Result<Classes, String> {
    let form = "must be a list of lists of values, e.g. [[1, 2, 3], [4, 5, 6], [7, 8, 9]], or a rule that \
                makes them at any size: {bands: 3} (the values in three equal runs) or {modulo: 3}";
    if let Some(Value::Mapping(rule)) = v {
        let [(key, k)] = rule.iter().collect::<Vec<_>>()[..] else {
            return Err(format!("{form}: one rule, bands or modulo"));
        };
        let k = k
            .as_u64()
            .filter(|k| (1..=MAX_VALUE as u64).contains(k))
            .ok_or_else(|| {
                format!("{form}: the number of classes is a whole number from 1 to 64")
            })? as usize;
        return match key.as_str() {
            Some("bands") => Ok(Classes::Made(ClassRule::Bands(k))),
            Some("modulo") => Ok(Classes::Made(ClassRule::Modulo(k))),
            _ => Err(format!("{form}: the rule is bands or modulo")),
        };
    }
    let lists = v.and_then(Value::as_sequence).ok_or(form)?;
    if lists.is_empty() || lists.len() > MAX_VALUE {
        return Err(format!("{form}: 1 to 64 classes"));
    }
    let mut seen = 0u64;
    let mut out = Vec::new();
    for list in lists {
        let mut class = 0u64;
        for value in list.as_sequence().ok_or(form)? {
            let v = value
                .as_u64()
                .filter(|v| (1..=MAX_VALUE as u64).contains(v))
                .ok_or_else(|| format!("{form}: values are whole numbers from 1 to 64"))?;
            class |= bit(v as u32);
        }
        if class == 0 {
            return Err(format!("{form}: a class is empty"));
        }
        if class & seen != 0 {
            return Err(format!("{form}: a value is in two classes"));
        }
        seen |= class;
        out.push(class);
    }
    Ok(Classes::Listed(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Classes, String> {
        let args: crate::grammar::Args =
            crate::yaml::from_str(&format!("classes: {text}")).unwrap();
        classes(args.get("classes"))
    }

    /// The classes at size n as lists of values, the way a setter reads them.
    fn values_at(text: &str, n: usize) -> Result<Vec<Vec<usize>>, String> {
        let sets = parsed(text)?.at(n)?;
        Ok(sets
            .iter()
            .map(|&s| (1..=64).filter(|v| s >> (v - 1) & 1 == 1).collect())
            .collect())
    }

    #[test]
    fn classes_are_disjoint_lists_of_values() {
        assert_eq!(
            parsed("[[1, 2], [3]]"),
            Ok(Classes::Listed(vec![0b11, 0b100]))
        );
        for (bad, says) in [
            ("[1, 2]", "list of lists"),
            ("[]", "1 to 64 classes"),
            ("[[1], []]", "empty"),
            ("[[1, 2], [2, 3]]", "two classes"),
            ("[[0]]", "from 1 to 64"),
            ("[[65]]", "from 1 to 64"),
            ("[[1.5]]", "from 1 to 64"),
            ("fives", "list of lists"),
            ("{thirds: 3}", "bands or modulo"),
            ("{bands: 3, modulo: 3}", "one rule"),
            ("{bands: 0}", "from 1 to 64"),
            ("{modulo: 65}", "from 1 to 64"),
            ("{modulo: three}", "from 1 to 64"),
        ] {
            let e = parsed(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    /// Entropic lines' thirds and modular lines' remainders as setters define them at each size.
    #[test]
    fn rules_make_each_size_its_own_classes() {
        let runs = |runs: &[&[usize]]| Ok(runs.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
        for (text, n, want) in [
            ("{bands: 3}", 9, runs(&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]])),
            ("{bands: 3}", 6, runs(&[&[1, 2], &[3, 4], &[5, 6]])),
            (
                "{bands: 3}",
                12,
                runs(&[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12]]),
            ),
            (
                "{modulo: 3}",
                9,
                runs(&[&[1, 4, 7], &[2, 5, 8], &[3, 6, 9]]),
            ),
            (
                "{modulo: 3}",
                12,
                runs(&[&[1, 4, 7, 10], &[2, 5, 8, 11], &[3, 6, 9, 12]]),
            ),
            ("{modulo: 2}", 5, runs(&[&[1, 3, 5], &[2, 4]])),
        ] {
            assert_eq!(values_at(text, n), want, "{text} at {n}");
        }
        // Every value of the grid in exactly one class, at every size a rule allows.
        for n in 1..=64 {
            for text in ["{bands: 3}", "{modulo: 3}", "{modulo: 2}", "{bands: 4}"] {
                if let Ok(sets) = parsed(text).unwrap().at(n) {
                    let all = sets.iter().fold(0u64, |m, s| {
                        assert_eq!(m & s, 0, "{text} at {n}");
                        m | s
                    });
                    assert_eq!(all.count_ones() as usize, n, "{text} at {n}");
                    assert!(sets.iter().all(|&s| s != 0), "{text} at {n}");
                }
            }
        }
    }

    #[test]
    fn a_size_a_rule_cannot_class_is_refused_by_name() {
        for (text, n, says) in [
            ("{bands: 3}", 8, "8 is not a multiple of 3"),
            ("{modulo: 3}", 2, "no value of 1..2"),
            ("{modulo: 2}", 65, "this grid is 65x65"),
        ] {
            let e = parsed(text).unwrap().at(n).unwrap_err();
            assert!(e.contains(says) && e.contains(text), "{text} at {n}: {e}");
        }
        // Listed classes keep only the grid's values: the old entropic list at 6 leaves its third class empty.
        assert_eq!(
            values_at("[[1, 2, 3], [4, 5, 6], [7, 8, 9]]", 6),
            Ok(vec![vec![1, 2, 3], vec![4, 5, 6], vec![]])
        );
    }
}
