//! `cyclebench compare BASE NEW --fail-above PCT`: the comparison as a gate for continuous
//! integration. It fails when a count of a benchmark both runs measured (a phase, or the total)
//! grew by more than PCT percent, or when a benchmark measured in BASE failed, is unsupported
//! or is missing in NEW: a benchmark that stopped working must not pass for one that stopped
//! costing cycles. A benchmark only NEW has is reported and does not fail, as there is nothing
//! to hold it to.
//!
//! The limit applies to the counts as they are, with no margin for noise: on a cycle-accurate
//! target the same code takes the same cycles on every run.
//!
//! `--fail-on-change` holds NEW to exactly BASE instead: a count that shrank fails as well as
//! one that grew. That is the check for a change meant to move no cycle at all (a faster
//! simulation model, a refactoring of the suite).
//!
//! Under either rule a benchmark whose output NEW checks less strictly than BASE did fails:
//! cycles saved by no longer checking against a known answer are no saving. Images built by
//! different compilers fail `--fail-on-change`, which promises that nothing but the change moved;
//! `--fail-above` warns of them, since a growth it lets through may be the compiler's.

use std::fmt;

use cyclebench_protocol::Check;

use super::{location, without_compilers, Change, Comparison, Compilers, Key, NoCounts};

/// What the gate holds NEW to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// No count may grow by more than this many percent (`--fail-above PCT`).
    GrowAtMost(f64),
    /// Every count must stay as it was (`--fail-on-change`).
    Unchanged,
}

/// What the gate found about one benchmark.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// A phase (or the total) of a benchmark both runs measured grew by more than the limit.
    Grew {
        /// The benchmark as the comparison names it, `file.bench:line`.
        benchmark: String,
        /// Phase name, or `total`.
        phase: String,
        /// Cycles in BASE.
        base: u64,
        /// Cycles in NEW.
        new: u64,
    },
    /// A phase (or the total) of a benchmark both runs measured shrank, under
    /// [`Rule::Unchanged`].
    Shrank {
        /// The benchmark as the comparison names it, `file.bench:line`.
        benchmark: String,
        /// Phase name, or `total`.
        phase: String,
        /// Cycles in BASE.
        base: u64,
        /// Cycles in NEW.
        new: u64,
    },
    /// Measured in BASE, not in NEW.
    Lost {
        /// The benchmark as the comparison names it.
        benchmark: String,
        /// Why NEW has no counts; `None` when NEW has no such benchmark.
        new: Option<NoCounts>,
    },
    /// Measured in both, its output checked less strictly in NEW than in BASE.
    Weakened {
        /// The benchmark as the comparison names it.
        benchmark: String,
        /// How BASE checked it.
        base: Option<Check>,
        /// How NEW checked it.
        new: Option<Check>,
    },
    /// BASE and NEW were built by different compilers.
    Compilers {
        /// Each compiler that differs, with its version in BASE and in NEW.
        difference: String,
        /// Whether that fails the gate (`--fail-on-change`), or is a warning (`--fail-above`).
        fails: bool,
    },
    /// BASE, NEW or both do not name the compilers that built them, so they were not compared.
    CompilersUnknown {
        /// `BASE`, `NEW` or `BASE and NEW`.
        runs: String,
    },
    /// A count that varies between runs of the same image, repeated on both sides, whose
    /// range in NEW lies wholly beyond its range in BASE (above it by more than the limit under
    /// [`Rule::GrowAtMost`]; above or below under [`Rule::Unchanged`]).
    Moved {
        /// The benchmark as the comparison names it.
        benchmark: String,
        /// Phase name, or `total`.
        phase: String,
        /// `[min, max]` over BASE's repetitions.
        base: [u64; 2],
        /// `[min, max]` over NEW's repetitions.
        new: [u64; 2],
    },
    /// Counts that vary between runs of the same image differ, and a side has a single run:
    /// nothing tells a change from the variation, so they are not held.
    NotHeld {
        /// The benchmark as the comparison names it.
        benchmark: String,
        /// Why its counts vary.
        why: String,
    },
    /// Only in NEW.
    Added {
        /// The benchmark as the comparison names it.
        benchmark: String,
    },
}

impl Finding {
    /// Whether the finding fails the gate.
    pub fn fails(&self) -> bool {
        match self {
            Self::Compilers { fails, .. } => *fails,
            Self::Added { .. } | Self::CompilersUnknown { .. } | Self::NotHeld { .. } => false,
            Self::Grew { .. }
            | Self::Shrank { .. }
            | Self::Moved { .. }
            | Self::Lost { .. }
            | Self::Weakened { .. } => true,
        }
    }
}

/// How strictly an output was checked, from least to most strict. The one order the gate holds
/// checks to: a benchmark whose check ranks lower in NEW than in BASE fails. A known answer
/// proves the output right, a plausibility check only rules out some wrong ones, and the rest
/// (`unverifiable`, `unverified`, or no check recorded) check nothing, so they rank alike and a
/// change among them is no weakening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strictness {
    /// Output not checked.
    Unchecked,
    /// Output found plausible.
    Plausible,
    /// Output matched a known answer.
    KnownAnswer,
}

impl Strictness {
    fn of(check: Option<Check>) -> Self {
        match check {
            Some(Check::KnownAnswer) => Self::KnownAnswer,
            Some(Check::Plausibility) => Self::Plausible,
            Some(Check::Unverifiable | Check::Unverified) | None => Self::Unchecked,
        }
    }
}

/// A check as the gate's lines name it.
pub(crate) fn check_name(check: Option<Check>) -> &'static str {
    match check {
        Some(Check::KnownAnswer) => "known-answer",
        Some(Check::Plausibility) => "plausibility",
        Some(Check::Unverifiable) => "unverifiable",
        Some(Check::Unverified) => "unverified",
        None => "none",
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Grew {
                benchmark,
                phase,
                base,
                new,
            } => {
                write!(f, "{benchmark}: {phase} grew from {base} to {new} cycles")?;
                match growth(*base, *new) {
                    Some(g) if g.is_finite() => write!(f, " ({})", growth_text(g)),
                    _ => Ok(()),
                }
            }
            Self::Shrank {
                benchmark,
                phase,
                base,
                new,
            } => write!(f, "{benchmark}: {phase} shrank from {base} to {new} cycles"),
            Self::Lost { benchmark, new } => match new {
                Some(NoCounts::Error(error)) => write!(f, "{benchmark}: ok in BASE, error in NEW: {error}"),
                Some(NoCounts::Unsupported(reason)) => {
                    write!(f, "{benchmark}: ok in BASE, unsupported in NEW: {reason}")
                }
                None => write!(f, "{benchmark}: ok in BASE, missing in NEW"),
            },
            Self::Weakened { benchmark, base, new } => write!(
                f,
                "{benchmark}: check weakened: {} in BASE, {} in NEW",
                check_name(*base),
                check_name(*new)
            ),
            Self::Compilers {
                difference,
                fails: true,
            } => write!(f, "compilers differ: {difference}"),
            Self::Compilers {
                difference,
                fails: false,
            } => write!(
                f,
                "warning: compilers differ: {difference}; a change of cycles may be theirs (not failing: \
                 --fail-on-change fails on it)"
            ),
            Self::CompilersUnknown { runs } => write!(
                f,
                "compiler unknown in {runs}: the results do not name the compilers that built the image; \
                 not compared"
            ),
            Self::Moved {
                benchmark,
                phase,
                base,
                new,
            } => write!(
                f,
                "{benchmark}: {phase} moved beyond its spread: {}..{} cycles in BASE, {}..{} in NEW",
                base[0], base[1], new[0], new[1]
            ),
            Self::NotHeld { benchmark, why } => write!(
                f,
                "{benchmark}: counts differ but vary between runs ({why}); not held: with \"repetitions\" on \
                 its line the gate holds their spread"
            ),
            Self::Added { benchmark } => write!(f, "{benchmark}: only in NEW, not gated"),
        }
    }
}

/// Parses the PCT of `--fail-above`: a decimal number of at least 0.
pub fn percent(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        // `abs` turns `-0` into 0, which the closing line then prints as `0`.
        Ok(pct) if pct.is_finite() && pct >= 0.0 => Ok(pct.abs()),
        _ => Err(format!(
            "expected a percentage of at least 0, such as 0, 2 or 0.5; got '{text}'"
        )),
    }
}

/// How much `new` exceeds `base`, in percent of `base` (infinite from 0); `None` when it does
/// not exceed it.
pub(crate) fn growth(base: u64, new: u64) -> Option<f64> {
    let more = new.checked_sub(base).filter(|&d| d > 0)?;
    if base == 0 {
        return Some(f64::INFINITY);
    }
    // Both operands are exact (counts stay far below 2^53), so the division is the only
    // rounding: a growth of exactly PCT rounds to the same number as PCT parsed, and is not
    // above it.
    Some((u128::from(more) * 100) as f64 / base as f64)
}

/// A growth for people: two decimals, and never `+0.00%` for a growth that is one.
pub(crate) fn growth_text(percent: f64) -> String {
    if percent >= 0.005 {
        format!("+{percent:.2}%")
    } else {
        String::from("+<0.01%")
    }
}

/// What `rule` says of one count that was `base` cycles in BASE and is `new` in NEW.
fn judge(rule: Rule, benchmark: &str, phase: &str, base: u64, new: u64) -> Option<Finding> {
    let (benchmark, phase) = (benchmark.to_owned(), phase.to_owned());
    match rule {
        Rule::GrowAtMost(limit) => growth(base, new).filter(|&g| g > limit).map(|_| Finding::Grew {
            benchmark,
            phase,
            base,
            new,
        }),
        Rule::Unchanged if new > base => Some(Finding::Grew {
            benchmark,
            phase,
            base,
            new,
        }),
        Rule::Unchanged if new < base => Some(Finding::Shrank {
            benchmark,
            phase,
            base,
            new,
        }),
        Rule::Unchanged => None,
    }
}

/// What `rule` says of the counts of a benchmark whose counts vary between runs of the same
/// image (`why`): held by their ranges when both sides were repeated, since a single run of
/// each could differ with nothing changed; not held otherwise, which is said once.
fn judge_varying<'c>(rule: Rule, benchmark: &str, counts: impl Iterator<Item = &'c Change>, why: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut unheld = false;
    for c in counts {
        let (Some(a), Some(b)) = (c.a, c.b) else { continue };
        if a == b {
            continue;
        }
        let (Some(base), Some(new)) = (c.a_range, c.b_range) else {
            unheld = true;
            continue;
        };
        let moved = match rule {
            Rule::Unchanged => new[0] > base[1] || new[1] < base[0],
            Rule::GrowAtMost(limit) => growth(base[1], new[0]).is_some_and(|g| g > limit),
        };
        if moved {
            found.push(Finding::Moved {
                benchmark: benchmark.to_owned(),
                phase: c.phase.clone(),
                base,
                new,
            });
        }
    }
    if unheld {
        found.push(Finding::NotHeld {
            benchmark: benchmark.to_owned(),
            why: why.to_owned(),
        });
    }
    found
}

/// What the gate finds in `comparison` under `rule`: whether the compilers differ (or are
/// unknown), then the benchmarks both runs have in the comparison's order (largest change of
/// the total first), then those only BASE, then only NEW has. A phase only one run has is not
/// held to the rule by itself: the total, which counts it, is.
pub fn findings(comparison: &Comparison, rule: Rule) -> Vec<Finding> {
    findings_by_benchmark(comparison, rule)
        .into_iter()
        .map(|(_, finding)| finding)
        .collect()
}

/// [`findings`], each with the key of the benchmark it is about, or `None` for what concerns
/// the two runs as a whole (their compilers): how `history` marks each benchmark at each step
/// with exactly what the gate says of it.
pub fn findings_by_benchmark(comparison: &Comparison, rule: Rule) -> Vec<(Option<&Key>, Finding)> {
    let mut found = Vec::new();
    let labels = ["BASE", "NEW"];
    match (&comparison.a.compilers, &comparison.b.compilers) {
        (Some(base), Some(new)) => found.extend(Compilers::difference(base, new, labels).map(|difference| {
            (
                None,
                Finding::Compilers {
                    difference,
                    fails: rule == Rule::Unchanged,
                },
            )
        })),
        _ => found.extend(
            without_compilers(&comparison.a, &comparison.b, labels)
                .map(|runs| (None, Finding::CompilersUnknown { runs })),
        ),
    }
    for row in &comparison.rows {
        let benchmark = location(row);
        let key = Some(&row.key);
        match &row.no_counts {
            [None, None] => {
                let counts = row.total.iter().chain(&row.phases);
                let judged = match &row.varies {
                    None => counts
                        .filter_map(|c| judge(rule, &benchmark, &c.phase, c.a?, c.b?))
                        .collect(),
                    Some(why) => judge_varying(rule, &benchmark, counts, why),
                };
                found.extend(judged.into_iter().map(|f| (key, f)));
                let [base, new] = row.checks;
                if Strictness::of(new) < Strictness::of(base) {
                    found.push((key, Finding::Weakened { benchmark, base, new }));
                }
            }
            [None, Some(why)] => found.push((
                key,
                Finding::Lost {
                    benchmark,
                    new: Some(why.clone()),
                },
            )),
            // Not measured in BASE: nothing to hold NEW to.
            [Some(_), _] => {}
        }
    }
    found.extend(comparison.only_a.iter().filter(|u| u.no_counts.is_none()).map(|u| {
        (
            Some(&u.key),
            Finding::Lost {
                benchmark: u.location(),
                new: None,
            },
        )
    }));
    found.extend(comparison.only_b.iter().map(|u| {
        (
            Some(&u.key),
            Finding::Added {
                benchmark: u.location(),
            },
        )
    }));
    found
}

/// The gate's closing line: what failed it, or that nothing did.
fn conclusion(findings: &[Finding], rule: Rule) -> String {
    let count = |kind: fn(&Finding) -> bool| findings.iter().filter(|f| kind(f)).count();
    let grew = count(|f| matches!(f, Finding::Grew { .. } | Finding::Shrank { .. } | Finding::Moved { .. }));
    let lost = count(|f| matches!(f, Finding::Lost { .. }));
    let weakened = count(|f| matches!(f, Finding::Weakened { .. }));
    let compilers = count(|f| matches!(f, Finding::Compilers { fails: true, .. }));
    let phases = match grew {
        0 => String::from("no phase"),
        1 => String::from("1 phase"),
        n => format!("{n} phases"),
    };
    let mut line = match rule {
        Rule::GrowAtMost(limit) => format!("compare: {phases} grew more than {limit}%"),
        Rule::Unchanged => format!("compare: {phases} changed"),
    };
    let mut also = Vec::new();
    if lost > 0 {
        let (benchmarks, were) = if lost == 1 {
            ("benchmark", "was")
        } else {
            ("benchmarks", "were")
        };
        also.push(format!(
            "{lost} {benchmarks} measured in BASE {were} not measured in NEW"
        ));
    }
    if weakened > 0 {
        let benchmarks = if weakened == 1 { "benchmark" } else { "benchmarks" };
        also.push(format!("{weakened} {benchmarks} checked less strictly in NEW"));
    }
    if compilers > 0 {
        also.push(String::from("BASE and NEW were built by different compilers"));
    }
    for (i, clause) in also.iter().enumerate() {
        let joint = if i == 0 && grew == 0 { ", but" } else { "," };
        line.push_str(&format!("{joint} {clause}"));
    }
    if grew > 0 || !also.is_empty() {
        line.push_str(": failing");
    }
    let unheld = count(|f| matches!(f, Finding::NotHeld { .. }));
    if unheld > 0 {
        let benchmarks = if unheld == 1 { "benchmark" } else { "benchmarks" };
        line.push_str(&format!(
            " ({unheld} {benchmarks} whose counts vary between runs not held)"
        ));
    }
    line
}

/// Prints what the gate found, one line each, and its closing line to stderr; returns whether
/// the gate passes.
pub fn check(comparison: &Comparison, rule: Rule) -> bool {
    let findings = findings(comparison, rule);
    for finding in &findings {
        eprintln!("{finding}");
    }
    eprintln!("{}", conclusion(&findings, rule));
    !findings.iter().any(Finding::fails)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::results::Results;

    const RUSTC: &str = "rustc 1.95.0 (59807616e 2026-04-14)";
    const CLANG: &str = "Debian clang version 14.0.6";

    /// A measured record of line `line` of `sha256.bench` with these phases, checked against a
    /// known answer, of an image built by [`RUSTC`] and [`CLANG`].
    fn measured(line: usize, phases: &[(&str, u64)]) -> Value {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let counts: serde_json::Map<String, Value> = phases
            .iter()
            .map(|&(name, cycles)| (name.to_owned(), cycles.into()))
            .collect();
        json!({
            "status": "ok", "file": "impl/sha256.bench", "line": line,
            "request": format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "d{line}"}}}}"#),
            "benchmark": kind, "cycle_accurate": true, "phases": counts,
            "total_cycles": phases.iter().map(|&(_, cycles)| cycles).sum::<u64>(),
            "verified": true, "check": "known_answer", "rustc": RUSTC, "clang": CLANG,
        })
    }

    /// `record` with its check `check` (a JSON name, or `null`), `verified` to match.
    fn checked(mut record: Value, check: Value) -> Value {
        record["verified"] = (check == "known_answer").into();
        record["check"] = check;
        record
    }

    /// `records` as an image built by `rustc` and `clang` measured them (`null`: not named).
    fn built(records: &[Value], rustc: Value, clang: Value) -> Vec<Value> {
        let mut records = records.to_vec();
        for record in &mut records {
            record["rustc"] = rustc.clone();
            record["clang"] = clang.clone();
        }
        records
    }

    /// The record of line `line` without counts: `status` `error` or `unsupported`, and why.
    fn without_counts(line: usize, status: &str, why: &str) -> Value {
        let mut record = measured(line, &[]);
        record["status"] = status.into();
        record[if status == "error" { "error" } else { "reason" }] = why.into();
        record["total_cycles"] = Value::Null;
        record
    }

    fn gate(base: &[Value], new: &[Value], limit: f64) -> Vec<Finding> {
        findings(
            &Comparison::build(&Results::of_values(base), &Results::of_values(new)),
            Rule::GrowAtMost(limit),
        )
    }

    fn unchanged(base: &[Value], new: &[Value]) -> Vec<Finding> {
        findings(
            &Comparison::build(&Results::of_values(base), &Results::of_values(new)),
            Rule::Unchanged,
        )
    }

    fn lines(findings: &[Finding]) -> Vec<String> {
        findings.iter().map(ToString::to_string).collect()
    }

    /// `record` as the masked AES block measured it, repeated with `[min, max]` per phase when
    /// `ranges` is given.
    fn masked_aes(mut record: Value, ranges: Option<&[(&str, u64, u64)]>) -> Value {
        record["implementation"] = "hardware".into();
        record["implementation_name"] = "aes-masked".into();
        if let Some(ranges) = ranges {
            let stats: serde_json::Map<String, Value> = ranges
                .iter()
                .map(|&(name, min, max)| {
                    let mid = record["phases"][name].clone();
                    (
                        name.to_owned(),
                        json!({"n": 10, "min": min, "median": mid, "max": max, "mean": mid}),
                    )
                })
                .collect();
            record["statistics"] = stats.into();
            record["repetitions"] = 10.into();
        }
        record
    }

    #[test]
    fn counts_that_vary_between_runs_are_not_held_as_single_runs() {
        let base = [masked_aes(measured(3, &[("compute", 400)]), None)];
        let new = [masked_aes(measured(3, &[("compute", 406)]), None)];
        for found in [unchanged(&base, &new), gate(&base, &new, 0.0)] {
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(!found[0].fails());
            let line = found[0].to_string();
            assert!(line.contains("not held") && line.contains("masked AES"), "{line}");
        }
        assert_eq!(unchanged(&base, &base), []);
    }

    #[test]
    fn repeated_counts_that_vary_are_held_by_their_spread() {
        let base = [masked_aes(
            measured(3, &[("compute", 400)]),
            Some(&[("compute", 394, 406)]),
        )];
        let overlapping = [masked_aes(
            measured(3, &[("compute", 406)]),
            Some(&[("compute", 400, 412)]),
        )];
        assert_eq!(unchanged(&base, &overlapping), []);
        assert_eq!(gate(&base, &overlapping, 0.0), []);
        let beyond = [masked_aes(
            measured(3, &[("compute", 450)]),
            Some(&[("compute", 440, 460)]),
        )];
        let found = unchanged(&base, &beyond);
        assert!(found.iter().all(Finding::fails) && !found.is_empty(), "{found:?}");
        assert_eq!(
            found.last().map(ToString::to_string).as_deref(),
            Some("sha256.bench:3: compute moved beyond its spread: 394..406 cycles in BASE, 440..460 in NEW")
        );
        // 440 is 8.4 % above 406: a limit of 10 % lets it through, one of 5 % does not.
        assert_eq!(gate(&base, &beyond, 10.0), []);
        assert!(!gate(&base, &beyond, 5.0).is_empty());
    }

    #[test]
    fn identical_runs_pass_with_no_margin() {
        let run = [measured(3, &[("init", 10), ("input", 100)]), measured(4, &[("run", 7)])];
        let found = gate(&run, &run, 0.0);
        assert_eq!(found, []);
        assert_eq!(
            conclusion(&found, Rule::GrowAtMost(0.0)),
            "compare: no phase grew more than 0%"
        );
    }

    #[test]
    fn one_cycle_more_fails_a_limit_of_0_naming_the_benchmark_and_the_phase() {
        let base = [measured(3, &[("init", 10), ("input", 100)]), measured(4, &[("run", 7)])];
        let new = [measured(3, &[("init", 10), ("input", 101)]), measured(4, &[("run", 6)])];
        let found = gate(&base, &new, 0.0);
        assert_eq!(
            lines(&found),
            [
                "sha256.bench:3: total grew from 110 to 111 cycles (+0.91%)",
                "sha256.bench:3: input grew from 100 to 101 cycles (+1.00%)",
            ]
        );
        assert!(found.iter().all(Finding::fails));
        assert_eq!(
            conclusion(&found, Rule::GrowAtMost(0.0)),
            "compare: 2 phases grew more than 0%: failing"
        );
    }

    #[test]
    fn a_growth_of_exactly_the_limit_passes_and_more_fails() {
        let run = |cycles| [measured(3, &[("run", cycles)])];
        assert_eq!(gate(&run(1000), &run(1020), 2.0), []);
        assert_eq!(gate(&run(1000), &run(1021), 2.0).len(), 2);
        let tenth = percent("0.1").unwrap();
        assert_eq!(gate(&run(1000), &run(1001), tenth), []);
        assert_eq!(gate(&run(1000), &run(1002), tenth).len(), 2);
        assert_eq!(gate(&run(1000), &run(10), 0.0), []);
    }

    #[test]
    fn a_count_from_nothing_fails_any_limit() {
        let base = [measured(3, &[("init", 0), ("run", 50)])];
        let new = [measured(3, &[("init", 5), ("run", 40)])];
        assert_eq!(
            lines(&gate(&base, &new, 1e9)),
            ["sha256.bench:3: init grew from 0 to 5 cycles"]
        );
        assert_eq!(growth_text(growth(1_000_000, 1_000_001).unwrap()), "+<0.01%");
    }

    #[test]
    fn a_request_of_a_sweep_is_named_by_its_place_in_the_sweep() {
        let swept = |cycles| {
            let mut record = measured(5, &[("run", cycles)]);
            record["sweep"] = json!({"index": 2, "of": 3, "values": {"length": 64}});
            [record]
        };
        assert_eq!(
            lines(&gate(&swept(100), &swept(150), 0.0))[0],
            "sha256.bench:5[2]: total grew from 100 to 150 cycles (+50.00%)"
        );
    }

    #[test]
    fn a_benchmark_measured_in_base_that_failed_or_went_missing_in_new_fails() {
        let base = [
            measured(3, &[("run", 10)]),
            measured(4, &[("run", 10)]),
            measured(5, &[("run", 10)]),
            without_counts(6, "error", "lost link"),
        ];
        let new = [
            without_counts(3, "error", "suite error (Verification): wrong digest"),
            without_counts(4, "unsupported", "no such module"),
            measured(7, &[("run", 10)]),
        ];
        let found = gate(&base, &new, 0.0);
        assert_eq!(
            lines(&found),
            [
                "sha256.bench:3: ok in BASE, error in NEW: suite error (Verification): wrong digest",
                "sha256.bench:4: ok in BASE, unsupported in NEW: no such module",
                "sha256.bench:5: ok in BASE, missing in NEW",
                "sha256.bench:7: only in NEW, not gated",
            ]
        );
        assert_eq!(
            found.iter().map(Finding::fails).collect::<Vec<_>>(),
            [true, true, true, false]
        );
        assert_eq!(
            conclusion(&found, Rule::GrowAtMost(0.0)),
            "compare: no phase grew more than 0%, but 3 benchmarks measured in BASE were not measured in NEW: \
             failing"
        );
    }

    #[test]
    fn benchmarks_new_or_repaired_in_new_do_not_fail() {
        let base = [
            without_counts(3, "error", "lost link"),
            without_counts(4, "unsupported", "no module"),
        ];
        let new = [
            measured(3, &[("run", 10)]),
            measured(4, &[("run", 10)]),
            measured(5, &[("run", 10)]),
        ];
        let found = gate(&base, &new, 2.0);
        assert_eq!(lines(&found), ["sha256.bench:5: only in NEW, not gated"]);
        assert!(!found.iter().any(Finding::fails));
        assert_eq!(
            conclusion(&found, Rule::GrowAtMost(2.0)),
            "compare: no phase grew more than 2%"
        );
    }

    #[test]
    fn the_closing_line_counts_growth_and_losses_together() {
        let found = [
            Finding::Grew {
                benchmark: String::from("a.bench:1"),
                phase: String::from("total"),
                base: 1,
                new: 2,
            },
            Finding::Lost {
                benchmark: String::from("a.bench:2"),
                new: None,
            },
        ];
        assert_eq!(
            conclusion(&found, Rule::GrowAtMost(0.5)),
            "compare: 1 phase grew more than 0.5%, 1 benchmark measured in BASE was not measured in NEW: failing"
        );
    }

    #[test]
    fn fail_on_change_fails_a_count_that_shrank_as_well_as_one_that_grew() {
        let base = [measured(3, &[("init", 10), ("input", 100)]), measured(4, &[("run", 7)])];
        let new = [measured(3, &[("init", 10), ("input", 101)]), measured(4, &[("run", 6)])];
        let found = unchanged(&base, &new);
        assert_eq!(
            lines(&found),
            // The comparison's order: the largest change of the total first.
            [
                "sha256.bench:4: total shrank from 7 to 6 cycles",
                "sha256.bench:4: run shrank from 7 to 6 cycles",
                "sha256.bench:3: total grew from 110 to 111 cycles (+0.91%)",
                "sha256.bench:3: input grew from 100 to 101 cycles (+1.00%)",
            ]
        );
        assert!(found.iter().all(Finding::fails));
        assert_eq!(
            conclusion(&found, Rule::Unchanged),
            "compare: 4 phases changed: failing"
        );
        assert_eq!(unchanged(&base, &base), []);
        assert_eq!(conclusion(&[], Rule::Unchanged), "compare: no phase changed");
    }

    #[test]
    fn fail_on_change_fails_a_benchmark_that_stopped_being_measured() {
        let base = [measured(3, &[("run", 10)])];
        let new = [without_counts(3, "error", "timeout")];
        assert_eq!(
            lines(&unchanged(&base, &new)),
            ["sha256.bench:3: ok in BASE, error in NEW: timeout"]
        );
    }

    #[test]
    fn the_limit_is_a_number_of_at_least_0() {
        assert_eq!(percent("2"), Ok(2.0));
        assert_eq!(percent("0.5"), Ok(0.5));
        assert_eq!(percent("-0").map(|p| p.to_string()), Ok(String::from("0")));
        for bad in ["-1", "-0.5", "NaN", "inf", "two", ""] {
            let error = percent(bad).unwrap_err();
            assert!(error.contains("at least 0"), "{bad}: {error}");
        }
    }

    #[test]
    fn checks_rank_known_answer_over_plausibility_over_the_unchecked() {
        use Strictness::{KnownAnswer, Plausible, Unchecked};
        let rank = |c| Strictness::of(c);
        assert_eq!(rank(Some(Check::KnownAnswer)), KnownAnswer);
        assert_eq!(rank(Some(Check::Plausibility)), Plausible);
        for unchecked in [Some(Check::Unverifiable), Some(Check::Unverified), None] {
            assert_eq!(rank(unchecked), Unchecked, "{unchecked:?}");
        }
        assert!(Unchecked < Plausible && Plausible < KnownAnswer);
    }

    #[test]
    fn a_check_weakened_in_new_fails_both_rules_by_name() {
        let base = [
            measured(3, &[("run", 10)]),
            measured(4, &[("run", 10)]),
            checked(measured(5, &[("run", 10)]), json!("plausibility")),
            measured(6, &[("run", 10)]),
        ];
        let new = [
            checked(measured(3, &[("run", 10)]), json!("unverified")),
            checked(measured(4, &[("run", 10)]), json!("plausibility")),
            checked(measured(5, &[("run", 10)]), json!("unverifiable")),
            checked(measured(6, &[("run", 10)]), Value::Null),
        ];
        let expected = [
            "sha256.bench:3: check weakened: known-answer in BASE, unverified in NEW",
            "sha256.bench:4: check weakened: known-answer in BASE, plausibility in NEW",
            "sha256.bench:5: check weakened: plausibility in BASE, unverifiable in NEW",
            "sha256.bench:6: check weakened: known-answer in BASE, none in NEW",
        ];
        for (rule, closing) in [
            (
                Rule::GrowAtMost(0.0),
                "compare: no phase grew more than 0%, but 4 benchmarks checked less strictly in NEW: failing",
            ),
            (
                Rule::Unchanged,
                "compare: no phase changed, but 4 benchmarks checked less strictly in NEW: failing",
            ),
        ] {
            let found = findings(
                &Comparison::build(&Results::of_values(&base), &Results::of_values(&new)),
                rule,
            );
            assert_eq!(lines(&found), expected, "{rule:?}");
            assert!(found.iter().all(Finding::fails), "{rule:?}");
            assert_eq!(conclusion(&found, rule), closing);
        }
    }

    #[test]
    fn a_check_as_strict_or_stricter_in_new_passes() {
        let base = [
            checked(measured(3, &[("run", 10)]), json!("plausibility")),
            checked(measured(4, &[("run", 10)]), json!("unverifiable")),
            checked(measured(5, &[("run", 10)]), json!("unverified")),
            measured(6, &[("run", 10)]),
        ];
        let new = [
            measured(3, &[("run", 10)]),
            checked(measured(4, &[("run", 10)]), json!("unverified")),
            checked(measured(5, &[("run", 10)]), json!("plausibility")),
            measured(6, &[("run", 10)]),
        ];
        assert_eq!(gate(&base, &new, 0.0), []);
        assert_eq!(unchanged(&base, &new), []);
    }

    #[test]
    fn a_record_from_before_checks_were_named_counts_as_its_verified_says() {
        let mut old = measured(3, &[("run", 10)]);
        old.as_object_mut().unwrap().remove("check");
        let new = checked(measured(3, &[("run", 10)]), json!("unverified"));
        assert_eq!(
            lines(&gate(&[old], &[new], 0.0)),
            ["sha256.bench:3: check weakened: known-answer in BASE, unverified in NEW"]
        );
    }

    #[test]
    fn a_check_is_not_judged_where_new_measured_nothing() {
        // The lost benchmark fails as lost; that it has no check is no second finding.
        let base = [measured(3, &[("run", 10)])];
        let new = [without_counts(3, "error", "wrong digest")];
        assert_eq!(
            lines(&gate(&base, &new, 0.0)),
            ["sha256.bench:3: ok in BASE, error in NEW: wrong digest"]
        );
    }

    #[test]
    fn other_compilers_fail_fail_on_change_and_warn_under_fail_above() {
        let run = [measured(3, &[("run", 10)])];
        let newer = "rustc 1.96.0 (0123456789 2026-05-28)";
        let new = built(&run, json!(newer), json!(CLANG));
        let found = unchanged(&run, &new);
        assert_eq!(
            lines(&found),
            [format!("compilers differ: {RUSTC} in BASE, {newer} in NEW")]
        );
        assert!(found[0].fails());
        assert_eq!(
            conclusion(&found, Rule::Unchanged),
            "compare: no phase changed, but BASE and NEW were built by different compilers: failing"
        );
        let found = gate(&run, &new, 0.0);
        assert_eq!(found.len(), 1);
        assert!(!found[0].fails());
        let line = found[0].to_string();
        assert!(
            line.starts_with(&format!("warning: compilers differ: {RUSTC} in BASE, {newer} in NEW;")),
            "{line}"
        );
        assert_eq!(
            conclusion(&found, Rule::GrowAtMost(0.0)),
            "compare: no phase grew more than 0%"
        );
    }

    #[test]
    fn a_clang_that_differs_or_is_missing_is_named() {
        let run = [measured(3, &[("run", 10)])];
        let without_clang = built(&run, json!(RUSTC), Value::Null);
        assert_eq!(
            lines(&unchanged(&run, &without_clang)),
            [format!("compilers differ: {CLANG} in BASE, no clang in NEW")]
        );
        let both = built(&run, json!("rustc 1.94.0"), json!("clang version 19.1.7"));
        assert_eq!(
            lines(&unchanged(&both, &run)),
            [format!(
                "compilers differ: rustc 1.94.0 in BASE, {RUSTC} in NEW; clang version 19.1.7 in BASE, {CLANG} in NEW"
            )]
        );
    }

    #[test]
    fn results_that_name_no_compiler_are_said_to_and_do_not_fail() {
        let run = vec![measured(3, &[("run", 10)])];
        let old = built(&run, Value::Null, Value::Null);
        for (base, new, runs) in [(&old, &run, "BASE"), (&run, &old, "NEW"), (&old, &old, "BASE and NEW")] {
            for rule in [Rule::Unchanged, Rule::GrowAtMost(0.0)] {
                let found = findings(
                    &Comparison::build(&Results::of_values(base), &Results::of_values(new)),
                    rule,
                );
                assert_eq!(found, [Finding::CompilersUnknown { runs: runs.to_owned() }]);
                assert!(found[0]
                    .to_string()
                    .starts_with(&format!("compiler unknown in {runs}:")));
                assert!(!found[0].fails());
            }
        }
    }

    #[test]
    fn the_closing_line_names_every_reason_to_fail() {
        let found = [
            Finding::Lost {
                benchmark: String::from("a.bench:2"),
                new: None,
            },
            Finding::Weakened {
                benchmark: String::from("a.bench:3"),
                base: Some(Check::KnownAnswer),
                new: None,
            },
            Finding::Compilers {
                difference: String::from("x in BASE, y in NEW"),
                fails: true,
            },
        ];
        assert_eq!(
            conclusion(&found, Rule::Unchanged),
            "compare: no phase changed, but 1 benchmark measured in BASE was not measured in NEW, 1 benchmark \
             checked less strictly in NEW, BASE and NEW were built by different compilers: failing"
        );
    }
}
