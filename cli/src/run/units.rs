//! The units of a run: what `--jobs` shares out (a benchmark line, or a whole file whose lines
//! depend on each other), numbered in file order, and which of them a shard `I/N` runs.
//!
//! Units go to shards round-robin (unit k to shard k mod N): neighbouring lines of a set are
//! often alike in cost, so each shard gets a like share of every file.

use std::fmt;
use std::str::FromStr;

use cyclebench_protocol::Request;

use crate::bench_file::{Action, Line};

/// The I-th of N parts of a run (0-based), as `--shard I/N` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, `0..count`.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl Shard {
    /// The whole run as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether unit `unit` (its number in file order) belongs to this shard.
    pub fn owns(self, unit: usize) -> bool {
        unit % self.count == self.index
    }

    /// The shard of `count` that owns `unit`.
    pub fn of(unit: usize, count: usize) -> Shard {
        Shard {
            index: unit % count,
            count,
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| format!("a shard is I/N (e.g. 0/4, the first of four), got {text:?}"))?;
        let number = |what: &str, t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("the {what} of shard {text:?} is not a whole number"))
        };
        let (index, count) = (number("index", index)?, number("count", count)?);
        if count == 0 {
            return Err(format!("shard {text:?}: a run cannot be cut into 0 parts"));
        }
        if index >= count {
            return Err(format!(
                "shard {text:?}: the index counts from 0, so with {count} parts it is 0 to {}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

/// Whether a line yields a record (a request, or a line that is none and is recorded as an error).
pub fn is_record_line(line: &Line) -> bool {
    !matches!(line, Line::Comment(_))
}

/// Whether the benchmark lines of a file may run on any instance: control requests and raw
/// lines act on one suite's state, so a file with any runs in order on one instance.
pub fn parallel(lines: &[Line]) -> bool {
    lines.iter().all(|l| match l {
        Line::Action { action, .. } => matches!(action, Action::Request(Request::Benchmark(_))),
        _ => true,
    })
}

fn suspends(lines: &[Line]) -> bool {
    lines.iter().any(|l| {
        matches!(
            l,
            Line::Action {
                action: Action::Request(Request::Suspend),
                ..
            }
        )
    })
}

/// For every file, the unit number of each of its record lines, in order. A file that runs in
/// order is one unit; a suspended suite answers no later line of any file, so from the first
/// file with a `suspend` on, every line is one unit.
pub fn number(files: &[&[Line]]) -> Vec<Vec<usize>> {
    let mut next = 0;
    let mut tail: Option<usize> = None;
    let mut numbered = Vec::with_capacity(files.len());
    for lines in files {
        let records = lines.iter().filter(|l| is_record_line(l)).count();
        if tail.is_none() && suspends(lines) {
            tail = Some(next);
            next += 1;
        }
        let units: Vec<usize> = match tail {
            Some(unit) => vec![unit; records],
            None if parallel(lines) => (next..next + records).collect(),
            None => vec![next; records],
        };
        if tail.is_none() {
            next += if parallel(lines) {
                records
            } else {
                usize::from(records > 0)
            };
        }
        numbered.push(units);
    }
    numbered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_file::parse;

    /// A benchmark line of the hash kind.
    fn hash_line() -> String {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "abc"}}}}"#)
    }

    #[test]
    fn a_shard_is_read_and_bad_ones_are_named() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
        for (text, needle) in [
            ("3/3", "0 to 2"),
            ("0/0", "0 parts"),
            ("1", "I/N"),
            ("a/2", "index"),
            ("1/-2", "count"),
        ] {
            let e = text.parse::<Shard>().unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn benchmark_lines_are_units_and_an_ordered_file_is_one() {
        let hash = hash_line();
        let parallel = parse(format!("# c\n{hash}\n{hash}\nnot json\n").as_bytes());
        let ordered = parse(format!("{hash}\n\"get_status\"\n").as_bytes());
        let units = number(&[&parallel, &ordered, &parallel]);
        assert_eq!(units, [vec![0, 1, 2], vec![3, 3], vec![4, 5, 6]]);
        // Every unit has exactly one owner among the shards.
        for count in 1..5 {
            for unit in 0..7 {
                let owners = (0..count).filter(|&index| Shard { index, count }.owns(unit)).count();
                assert_eq!(owners, 1);
                assert!(Shard::of(unit, count).owns(unit));
            }
        }
    }

    #[test]
    fn from_a_suspend_on_everything_is_one_unit() {
        let hash = hash_line();
        let parallel = parse(format!("{hash}\n{hash}\n").as_bytes());
        let suspending = parse(format!("{hash}\n\"suspend\"\n{hash}\n").as_bytes());
        let units = number(&[&parallel, &suspending, &parallel]);
        assert_eq!(units, [vec![0, 1], vec![2, 2, 2], vec![2, 2]]);
    }
}
