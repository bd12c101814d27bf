//! What was measured where, and when two measurements differ by more than their spread.
//!
//! The suite runs the whole benchmark `repetitions` times and summarises every phase's raw
//! windows on the device: min, lower median, max and mean. The CLI subtracts the calibrated
//! overhead once per measurement window from each of them. No repetition is dropped as an
//! outlier. A repeated phase therefore has a measured spread, min..max. The suite does not
//! send the sum of squares, so a standard deviation cannot be recovered and is never shown.
//!
//! The total is the sum of the phase medians. Phases are summarised separately, so no
//! repetition's total is known; every repetition's total lies within Σmin..Σmax, and that
//! bound is used as the total's spread (wider than the real one, so a change flagged
//! against it is real).

use crate::results::{Phase, Record};

/// What is known about how far a count varies between runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// Repeated on the device: every window lay in `min..=max`.
    Range {
        /// Smallest window (or sum of the phases' smallest windows, for a total).
        min: u64,
        /// Largest window (or sum of the phases' largest windows).
        max: u64,
    },
    /// A single run on a cycle-accurate target: the count is exact.
    Exact,
    /// A single run on a target that is not cycle-accurate: the spread was not measured.
    Unknown,
}

impl Spread {
    /// The interval a count with this spread lies in, when known.
    fn interval(self, value: u64) -> Option<(u64, u64)> {
        match self {
            Self::Range { min, max } => Some((min, max)),
            Self::Exact => Some((value, value)),
            Self::Unknown => None,
        }
    }
}

/// Spread of a single run of `r`.
fn single(r: &Record) -> Spread {
    if r.cycle_accurate == Some(true) {
        Spread::Exact
    } else {
        Spread::Unknown
    }
}

/// Spread of one phase of `r`.
pub fn phase_spread(r: &Record, phase: &Phase) -> Spread {
    match phase.stats {
        Some(s) if s.n > 1 => Spread::Range { min: s.min, max: s.max },
        _ => single(r),
    }
}

/// Spread of the total of `r`: Σmin..Σmax of its phases when all were repeated.
pub fn total_spread(r: &Record) -> Spread {
    let stats: Option<Vec<_>> = r.phases().iter().map(|p| p.stats.filter(|s| s.n > 1)).collect();
    match stats {
        Some(stats) if !stats.is_empty() => Spread::Range {
            min: stats.iter().map(|s| s.min).sum(),
            max: stats.iter().map(|s| s.max).sum(),
        },
        _ => single(r),
    }
}

/// How a count in run B relates to the same count in run A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The same count.
    Unchanged,
    /// Beyond the measured spread of both sides (or exact counts that differ): a real change.
    Changed,
    /// Different, but the measured spreads overlap.
    WithinSpread,
    /// Different, but a side is a single run on a target that is not cycle-accurate, whose
    /// spread was not measured.
    NotJudged,
}

impl Verdict {
    /// The name used in CSV and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unchanged => "unchanged",
            Self::Changed => "changed",
            Self::WithinSpread => "within_spread",
            Self::NotJudged => "not_judged",
        }
    }

    /// Short words for tables; a real change in capitals, to stand out.
    pub fn words(self) -> &'static str {
        match self {
            Self::Unchanged => "unchanged",
            Self::Changed => "CHANGED",
            Self::WithinSpread => "within spread",
            Self::NotJudged => "not judged",
        }
    }
}

/// Judges the change from `a` to `b` given each side's spread.
pub fn judge(a: u64, a_spread: Spread, b: u64, b_spread: Spread) -> Verdict {
    if a == b {
        return Verdict::Unchanged;
    }
    match (a_spread.interval(a), b_spread.interval(b)) {
        (Some((a_min, a_max)), Some((b_min, b_max))) if a_max < b_min || b_max < a_min => Verdict::Changed,
        (Some(_), Some(_)) => Verdict::WithinSpread,
        _ => Verdict::NotJudged,
    }
}

/// `b / a`, when `a` is not zero.
pub fn ratio(a: u64, b: u64) -> Option<f64> {
    (a != 0).then(|| b as f64 / a as f64)
}

/// Size of a change for sorting: |ln(b/a)|, so that twice and half as many cycles rank alike.
pub fn change_size(a: u64, b: u64) -> f64 {
    match (a, b) {
        (0, 0) => 0.0,
        (0, _) | (_, 0) => f64::INFINITY,
        _ => (b as f64 / a as f64).ln().abs(),
    }
}

/// The record that stands for several measurements of the same thing: the one repeated most
/// often (its median summarises the most runs), the first of those on a tie.
pub fn representative<'a>(records: impl IntoIterator<Item = &'a Record>) -> Option<&'a Record> {
    records.into_iter().fold(None, |best: Option<&Record>, r| match best {
        Some(b) if b.runs() >= r.runs() => Some(b),
        _ => Some(r),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::parse;

    fn record(accurate: bool, stats: &str) -> Record {
        parse(&format!(
            r#"{{"status":"ok","benchmark":"{hash}","cycle_accurate":{accurate},
            "phases":{{"init":10,"input":100}},"statistics":{stats}}}"#,
            hash = cyclebench_protocol::BenchmarkKind::Hash.name(),
        ))
        .unwrap()
    }

    #[test]
    fn single_runs_are_exact_only_on_cycle_accurate_targets() {
        let exact = record(true, "null");
        let functional = record(false, "null");
        assert_eq!(total_spread(&exact), Spread::Exact);
        assert_eq!(total_spread(&functional), Spread::Unknown);
        assert_eq!(judge(110, Spread::Exact, 111, Spread::Exact), Verdict::Changed);
        assert_eq!(judge(110, Spread::Unknown, 111, Spread::Unknown), Verdict::NotJudged);
        assert_eq!(judge(110, Spread::Unknown, 110, Spread::Unknown), Verdict::Unchanged);
    }

    #[test]
    fn the_total_spread_is_the_sum_of_the_phase_extremes() {
        let r = record(
            false,
            r#"{"init":{"n":5,"min":9,"median":10,"max":12,"mean":10.2},
                "input":{"n":5,"min":95,"median":100,"max":130,"mean":104.0}}"#,
        );
        assert_eq!(total_spread(&r), Spread::Range { min: 104, max: 142 });
        let b = Spread::Range { min: 140, max: 150 };
        assert_eq!(judge(110, total_spread(&r), 145, b), Verdict::WithinSpread);
        let c = Spread::Range { min: 143, max: 150 };
        assert_eq!(judge(110, total_spread(&r), 145, c), Verdict::Changed);
    }

    #[test]
    fn changes_rank_by_factor_either_way() {
        assert_eq!(change_size(100, 200), change_size(200, 100));
        assert!(change_size(100, 101) < change_size(100, 90));
        assert_eq!(ratio(0, 5), None);
    }
}
