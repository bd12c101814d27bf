//! What a results directory already holds, line by line: the record of each line and the reply
//! its `.out` file shows, for `run --resume` to skip and for `merge` to put together.
//!
//! A run writes a `.out` file in file order, each line's entry after its record, so the
//! records say which lines a `.out` file holds and in which order: the `.out` file is read
//! against the input's lines, guided by them. The reply of a line answered ahead of an earlier
//! one waits in `pending.jsonl` until its entry is written; a run ended before then leaves it
//! there. A line whose record or reply is missing or cut short is simply not known.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::Value;

use super::units::is_record_line;
use crate::bench_file::Line;
use crate::results::{self, Record, ResultsWriter, Status};

/// A line's outcome from an earlier run.
#[derive(Clone, Debug)]
pub struct Known {
    /// Its record as written.
    pub record: Record,
    /// The reply its `.out` entry shows.
    pub reply: Value,
}

impl Known {
    /// Whether the line got its answer: the suite replied (whatever it said), or the line was
    /// never to be sent (it is no request). A line that was not sent, or whose reply never
    /// came, is run again by `--resume`.
    ///
    /// A measurement of a line that asks for placements is settled only with all of them.
    pub fn settled(&self, line: &Line) -> bool {
        let placed = match line {
            Line::Action { placements, .. } if *placements > 1 && self.record.is_measurement() => {
                results::Placements::of(&self.record).is_some_and(|p| p.complete())
            }
            _ => true,
        };
        (self.record.attempts.is_some() && placed) || matches!(line, Line::Invalid { .. })
    }

    /// The suite's own count of this line, as its status after `done` sums it: (served, errors).
    pub fn counted(&self) -> (u32, u32) {
        match self.record.status {
            Status::Ok | Status::Unsupported if self.record.benchmark_kind().is_some() => (1, 0),
            Status::Error if self.record.attempts.is_some() => (0, 1),
            _ => (0, 0),
        }
    }
}

/// One file of a directory: the known outcome of each record line, and its `# done:` line.
#[derive(Clone, Debug, Default)]
pub struct KnownFile {
    /// Per record line of the file, in order.
    pub lines: Vec<Option<Known>>,
    /// The closing status line, when the file was finished.
    pub done: Option<String>,
}

/// `<stem>.out` names of `files`, as a run gives them.
pub fn out_names(files: &[PathBuf]) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    files.iter().map(|p| super::write::out_name(p, &mut taken)).collect()
}

/// Reads what `dir` holds of `files` (each with its expanded lines). Records of lines the
/// files do not have are left out and named in a warning.
pub fn load(dir: &Path, files: &[(PathBuf, Vec<Line>)]) -> Result<Vec<KnownFile>> {
    let jsonl = dir.join("results.jsonl");
    let records = match std::fs::read(&jsonl) {
        Ok(_) => match results::load(dir) {
            Ok(r) => r.records,
            // A run killed before its first record leaves an empty file.
            Err(_) => Vec::new(),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", jsonl.display())),
    };
    // Where each record line of each file is: (file, line number, place in its sweep) → index.
    let mut index: HashMap<(String, usize, Option<u64>), (usize, usize)> = HashMap::new();
    for (f, (path, lines)) in files.iter().enumerate() {
        let records = lines.iter().filter(|l| is_record_line(l));
        for (r, line) in records.enumerate() {
            let (number, sweep) = match line {
                Line::Action { number, sweep, .. } | Line::Invalid { number, sweep, .. } => (*number, sweep),
                Line::Comment(_) => continue,
            };
            let key = (
                path.display().to_string(),
                number,
                sweep.as_ref().map(|s| s.index as u64),
            );
            index.insert(key, (f, r));
        }
    }
    let mut present: Vec<Vec<Option<Record>>> = files
        .iter()
        .map(|(_, lines)| lines.iter().filter(|l| is_record_line(l)).map(|_| None).collect())
        .collect();
    let mut strangers = 0;
    for record in records {
        match index.get(&(record.file.clone(), record.line, record.sweep_index())) {
            Some(&(f, r)) => present[f][r] = Some(record),
            None => strangers += 1,
        }
    }
    if strangers > 0 {
        eprintln!(
            "warning: {} holds {strangers} record(s) of lines its input files do not have; left out",
            dir.display()
        );
    }
    let names = out_names(&files.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>());
    let mut parked = ResultsWriter::parked(dir)?;
    let mut known = Vec::with_capacity(files.len());
    for (((_, lines), mut records), name) in files.iter().zip(present).zip(names) {
        let out = match std::fs::read(dir.join(&name)) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("reading {}", dir.join(&name).display())),
        };
        let mut file = read_out(&out, lines, &mut records);
        // Records the `.out` file does not have yet: answered ahead of an earlier line.
        for (k, record) in file.lines.iter_mut().zip(records) {
            let Some(record) = record.filter(|_| k.is_none()) else {
                continue;
            };
            let place = (record.file.clone(), record.line, record.sweep_index());
            if let Some(reply) = parked.remove(&place) {
                *k = Some(Known { record, reply });
            }
        }
        known.push(file);
    }
    Ok(known)
}

/// Pairs the records of one file with the replies of its `.out` text, taking each record it
/// pairs. Only whole lines count: a `.out` cut in the middle of a line ends before that line.
fn read_out(out: &str, lines: &[Line], records: &mut [Option<Record>]) -> KnownFile {
    let whole = out.rfind('\n').map_or("", |end| &out[..end]);
    let mut text = whole.split('\n').filter(|_| !whole.is_empty()).peekable();
    let mut known: Vec<Option<Known>> = records.iter().map(|_| None).collect();
    let mut r = 0;
    for line in lines {
        match line {
            Line::Comment(comment) => {
                if text.peek() == Some(&comment.as_str()) {
                    text.next();
                }
            }
            Line::Action { text: wanted, .. } | Line::Invalid { text: wanted, .. } => {
                if records[r].is_some() && text.peek() == Some(&wanted.as_str()) {
                    text.next();
                    let reply = text
                        .peek()
                        .and_then(|l| l.strip_prefix("=> "))
                        .and_then(|json| serde_json::from_str::<Value>(json).ok());
                    if let (Some(reply), Some(record)) = (reply, records[r].take()) {
                        text.next();
                        known[r] = Some(Known { record, reply });
                    }
                }
                r += 1;
            }
        }
    }
    let done = text.find(|l| l.starts_with(DONE_PREFIX)).map(str::to_owned);
    KnownFile { lines: known, done }
}

/// How the closing status line of a file starts.
pub const DONE_PREFIX: &str = "# done: ";

/// A file's closing status line from the suite's counts (served, errors).
pub fn done_line((served, errors): (u32, u32)) -> String {
    format!("{DONE_PREFIX}{served} served, {errors} errors")
}

/// The served and error counts of a closing status line, when it has them.
pub fn done_counts(line: &str) -> Option<(u32, u32)> {
    let rest = line.strip_prefix(DONE_PREFIX)?;
    let (served, rest) = rest.split_once(" served, ")?;
    let errors = rest.strip_suffix(" errors")?;
    Some((served.parse().ok()?, errors.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_file::parse;

    fn record(line: usize, attempts: Option<u32>) -> Record {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let mut r = results::parse(&format!(r#"{{"status":"ok","benchmark":"{kind}","file":"f.bench"}}"#)).unwrap();
        r.line = line;
        r.attempts = attempts;
        r
    }

    /// A benchmark line of the hash kind.
    fn hash_line() -> String {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "abc"}}}}"#)
    }

    #[test]
    fn replies_are_read_against_the_lines_the_records_name() {
        let hash = hash_line();
        let lines = parse(format!("# one\n{hash}\n{hash}\n# two\n{hash}\n").as_bytes());
        // A shard's .out: the second line belongs to another shard.
        let out = format!("# one\n{hash}\n=> {{\"a\":1}}\n# two\n{hash}\n=> {{\"a\":3}}\n# done: 2 served, 0 errors\n");
        let known = read_out(
            &out,
            &lines,
            &mut [Some(record(2, Some(1))), None, Some(record(5, Some(1)))],
        );
        let replies: Vec<Option<i64>> = known
            .lines
            .iter()
            .map(|k| k.as_ref().map(|k| k.reply["a"].as_i64().unwrap()))
            .collect();
        assert_eq!(replies, [Some(1), None, Some(3)]);
        assert_eq!(known.done.as_deref(), Some("# done: 2 served, 0 errors"));
        assert_eq!(done_counts(known.done.as_deref().unwrap()), Some((2, 0)));
        assert_eq!(done_counts("# done: link lost"), None);
    }

    #[test]
    fn a_reply_cut_short_or_missing_is_not_known() {
        let hash = hash_line();
        let lines = parse(format!("{hash}\n{hash}\n").as_bytes());
        let out = format!("{hash}\n=> {{\"a\":1}}\n{hash}\n=> {{\"a\":");
        let known = read_out(&out, &lines, &mut [Some(record(1, Some(1))), Some(record(2, Some(1)))]);
        assert!(known.lines[0].is_some() && known.lines[1].is_none());
        assert!(known.done.is_none());
        // A record whose reply never reached the .out.
        let known = read_out(&format!("{hash}\n"), &lines, &mut [Some(record(1, Some(1))), None]);
        assert!(known.lines[0].is_none());
    }

    #[test]
    fn a_reply_parked_ahead_of_an_earlier_line_is_known() {
        let dir = tempfile::tempdir().unwrap();
        let hash = hash_line();
        let files = vec![(
            PathBuf::from("f.bench"),
            parse(format!("{hash}\n{hash}\n{hash}\n").as_bytes()),
        )];
        // Lines 1 and 3 answered, line 2 still under way when the tool was killed: line 3's
        // record is on disk, its reply parked.
        let mut writer = ResultsWriter::create(dir.path()).unwrap();
        writer.append(&record(1, Some(1))).unwrap();
        writer.append(&record(3, Some(1))).unwrap();
        writer.park(&record(3, Some(1)), &serde_json::json!({"a": 3})).unwrap();
        drop(writer);
        std::fs::write(dir.path().join("f.out"), format!("{hash}\n=> {{\"a\":1}}\n")).unwrap();
        let known = load(dir.path(), &files).unwrap();
        let replies: Vec<Option<i64>> = known[0]
            .lines
            .iter()
            .map(|k| k.as_ref().map(|k| k.reply["a"].as_i64().unwrap()))
            .collect();
        assert_eq!(replies, [Some(1), None, Some(3)]);
        assert!(known[0].done.is_none());
    }

    #[test]
    fn only_answered_lines_are_settled() {
        let hash = hash_line();
        let lines = parse(format!("{hash}\nnot json\n").as_bytes());
        let reply = Value::Null;
        let answered = Known {
            record: record(1, Some(2)),
            reply: reply.clone(),
        };
        let not_sent = Known {
            record: record(1, None),
            reply,
        };
        assert!(answered.settled(&lines[0]) && !not_sent.settled(&lines[0]));
        assert!(not_sent.settled(&lines[1]));
        assert_eq!(answered.counted(), (1, 0));
    }
}
