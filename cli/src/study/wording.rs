//! Phrases whose words depend on the numbers they state: which way a comparison goes, whether
//! values agree, singular or plural. Every comparison the document makes in prose is worded
//! here, from the numbers, so that no sentence can claim what the results do not show.

use std::fmt::Display;

/// How `ours` compares with `reference` in cost, rounded to whole percent: "20 % dearer than
/// {what}", "3 % cheaper than {what}", or "about as dear as {what}".
pub fn cost_change(ours: f64, reference: f64, what: &str) -> String {
    cost_range(&[ours / reference], what).unwrap_or_default()
}

/// The span of cost ratios (ours / reference) in whole percent: "17–56 % cheaper than
/// {what}", "5 % dearer than {what}", "between 3 % cheaper and 8 % dearer than {what}";
/// `None` without ratios.
pub fn cost_range(ratios: &[f64], what: &str) -> Option<String> {
    let percents: Vec<f64> = ratios.iter().map(|r| ((r - 1.0) * 100.0).round()).collect();
    let low = percents.iter().copied().reduce(f64::min)?;
    let high = percents.iter().copied().reduce(f64::max)?;
    Some(if low == 0.0 && high == 0.0 {
        format!("about as dear as {what}")
    } else if high <= 0.0 {
        format!("{} % cheaper than {what}", from_to(-high, -low))
    } else if low >= 0.0 {
        format!("{} % dearer than {what}", from_to(low, high))
    } else {
        format!("between {} % cheaper and {high} % dearer than {what}", -low)
    })
}

/// "a" when both ends agree, else "a–b"; both are magnitudes (no "-0" from a rounded zero).
fn from_to(a: f64, b: f64) -> String {
    let (a, b) = (a.abs(), b.abs());
    if a == b {
        format!("{a}")
    } else {
        format!("{a}–{b}")
    }
}

/// The span of `values` as `format` prints them: "344" when they all print alike, else
/// "655–747"; `None` without values.
pub fn span(values: &[f64], format: impl Fn(f64) -> String) -> Option<String> {
    let low = values.iter().copied().reduce(f64::min)?;
    let high = values.iter().copied().reduce(f64::max)?;
    let (low, high) = (format(low), format(high));
    Some(if low == high { low } else { format!("{low}–{high}") })
}

/// Cycles per key length: "35 for every key length" when all measured keys agree and none is
/// missing, else "655–747 across the key lengths"; `None` without values.
pub fn per_key(values: &[u64], keys: usize) -> Option<String> {
    let as_f64: Vec<f64> = values.iter().map(|&v| v as f64).collect();
    let text = span(&as_f64, |v| format!("{v:.0}"))?;
    let uniform = values.windows(2).all(|w| w[0] == w[1]);
    Some(if uniform && values.len() == keys {
        format!("{text} for every key length")
    } else if uniform {
        format!("{text} for the key lengths measured")
    } else {
        format!("{text} across the key lengths")
    })
}

/// "1 cycle", "3 cycles".
pub fn cycles(n: u64) -> String {
    if n == 1 {
        String::from("1 cycle")
    } else {
        format!("{n} cycles")
    }
}

/// "a", "a and b", "a, b and c".
pub fn join_and<T: Display>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(ToString::to_string).collect();
            format!("{} and {last}", init.join(", "))
        }
    }
}

/// "is" for one subject, "are" for more.
pub fn is_are(n: usize) -> &'static str {
    if n == 1 {
        "is"
    } else {
        "are"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_phrases_follow_the_sign_of_the_change() {
        assert_eq!(
            cost_change(37.0, 24.0, "the thesis's 24"),
            "54 % dearer than the thesis's 24"
        );
        assert_eq!(cost_change(344.0, 491.0, "X"), "30 % cheaper than X");
        assert_eq!(cost_change(100.0, 100.2, "X"), "about as dear as X");
        assert_eq!(
            cost_range(&[0.44, 0.83, 0.6], "X").as_deref(),
            Some("17–56 % cheaper than X")
        );
        assert_eq!(
            cost_range(&[0.97, 1.08], "X").as_deref(),
            Some("between 3 % cheaper and 8 % dearer than X")
        );
        assert_eq!(cost_range(&[0.95, 1.002], "X").as_deref(), Some("0–5 % cheaper than X"));
        assert_eq!(cost_range(&[], "X"), None);
    }

    #[test]
    fn spans_and_lists() {
        assert_eq!(per_key(&[35, 35, 35], 3).as_deref(), Some("35 for every key length"));
        assert_eq!(
            per_key(&[35, 35], 3).as_deref(),
            Some("35 for the key lengths measured")
        );
        assert_eq!(
            per_key(&[75, 91, 85], 3).as_deref(),
            Some("75–91 across the key lengths")
        );
        assert_eq!(span(&[1.904, 2.172], |v| format!("{v:.1}")).as_deref(), Some("1.9–2.2"));
        assert_eq!(join_and(&["a", "b", "c"]), "a, b and c");
        assert_eq!(cycles(1), "1 cycle");
    }
}
