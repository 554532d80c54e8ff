//! The clue each region primitive shows for the values a region holds, so that `generate` can write the hints of
//! cages and rooms from a solution for any grammar that binds them to one of these primitives.

use crate::rules::{product, sum};

/// The clue maker of a primitive, if it has one: values, and a random number to choose among clues (KenKen's
/// operator), to the clue's text.
pub(crate) fn maker(primitive: &str) -> Option<fn(&[u32], u64) -> String> {
    match primitive {
        "sum" => Some(|values, _| sum::clue_for(values)),
        "product" => Some(|values, _| product::clue_for(values)),
        "arithmetic" => Some(arithmetic),
        _ => None,
    }
}

/// A KenKen clue: `-` or `/` on two cells when it comes out whole (half the time), else `+` or `*`, and a
/// single cell shows its value.
fn arithmetic(values: &[u32], pick: u64) -> String {
    if let [v] = values {
        return v.to_string();
    }
    if let [a, b] = values {
        let (hi, lo) = (*a.max(b), *a.min(b));
        if pick % 4 == 0 && hi % lo == 0 {
            return format!("{}/", hi / lo);
        }
        if pick % 4 == 1 {
            return format!("{}-", hi - lo);
        }
    }
    if (pick / 4) % 2 == 0 {
        format!("{}+", sum::clue_for(values))
    } else {
        format!("{}*", crate::rules::product::clue_for(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clues_are_what_the_rules_read() {
        assert_eq!(maker("sum").unwrap()(&[3, 5, 1], 0), "9");
        assert_eq!(maker("product").unwrap()(&[3, 5, 1], 0), "15");
        assert_eq!(maker("arithmetic").unwrap()(&[6, 3], 0), "2/");
        assert_eq!(maker("arithmetic").unwrap()(&[6, 3], 1), "3-");
        assert_eq!(maker("arithmetic").unwrap()(&[4], 1), "4");
        assert!(maker("less").is_none());
    }
}
