//! What a session does with every line: the files read, each record line known from an
//! earlier session, sent, or another shard's, and each file's closing line.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::previous::{Known, KnownFile};
use super::units::{self, Shard};
use crate::bench_file::{self, Line, SWEEP_REQUESTS_WITHOUT_YES};

/// What this session does with one record line.
pub(crate) enum Todo {
    /// Written as an earlier run recorded it.
    Known(Box<Known>),
    /// Sent to the suite (or, for a line that is no request, recorded as such).
    Send,
    /// Another shard's: neither sent nor written.
    Skip,
}

/// How a file's closing status line is made.
pub(crate) enum Closing {
    /// Asked of every instance with `done` (the end of a file, as the thesis's protocol
    /// announces it); the counts of lines known from earlier sessions are added.
    Ask {
        /// (served, errors) of the known lines.
        prior: (u32, u32),
    },
    /// Known already: this line, or none (a file an earlier run never finished).
    Known(Option<String>),
}

/// One input file as this session writes it.
pub(crate) struct Planned {
    /// As given on the command line.
    pub path: PathBuf,
    /// Its lines, sweeps expanded.
    pub lines: Vec<Line>,
    /// Per record line, in order.
    pub todo: Vec<Todo>,
    /// Its closing status line.
    pub closing: Closing,
    /// The variant of the chip its requests run on, where the target has variants.
    pub model: Option<String>,
}

impl Planned {
    /// Whether any of its lines is to be sent.
    pub fn sends(&self) -> bool {
        self.todo.iter().any(|t| matches!(t, Todo::Send))
    }
}

/// Reads the files of a run and their digests, refusing over-large sweeps unless `yes`.
pub(crate) fn read_files(paths: &[PathBuf], yes: bool) -> Result<Vec<(PathBuf, Vec<Line>)>> {
    let read: Vec<(PathBuf, bench_file::BenchFile)> = paths
        .iter()
        .map(|p| bench_file::read(p).map(|f| (p.clone(), f)))
        .collect::<Result<_>>()?;
    if !yes {
        check_sweep_sizes(&read)?;
    }
    Ok(read.into_iter().map(|(p, f)| (p, f.expand())).collect())
}

/// Refuses a file named twice: a shard, a resumed run and a merge tell lines apart by file.
pub(crate) fn distinct_files(paths: &[PathBuf]) -> Result<()> {
    for (i, path) in paths.iter().enumerate() {
        if paths[..i].contains(path) {
            bail!(
                "{} is named twice; a sharded, resumed or merged run needs each file once",
                path.display()
            );
        }
    }
    Ok(())
}

/// What to do with every line of `files` in a session that runs `shard`, given what an earlier
/// session left (`known`, per file; empty for a fresh run). A unit is run again unless every
/// line of it got its answer.
pub(crate) fn plan(files: Vec<(PathBuf, Vec<Line>)>, shard: Shard, mut known: Vec<KnownFile>) -> Vec<Planned> {
    let numbered = {
        let lines: Vec<&[Line]> = files.iter().map(|(_, l)| l.as_slice()).collect();
        units::number(&lines)
    };
    known.resize_with(files.len(), KnownFile::default);
    // Units with a line that is not settled.
    let mut open = std::collections::HashSet::new();
    for (((_, lines), units), k) in files.iter().zip(&numbered).zip(&known) {
        let record_lines = lines.iter().filter(|l| units::is_record_line(l));
        for (r, line) in record_lines.enumerate() {
            let settled = k.lines.get(r).and_then(Option::as_ref).is_some_and(|k| k.settled(line));
            if !settled {
                open.insert(units[r]);
            }
        }
    }
    files
        .into_iter()
        .zip(numbered)
        .zip(known)
        .map(|(((path, lines), units), k)| {
            let mut prior = (0, 0);
            let mut all_known = true;
            let mut lines_known = k.lines.into_iter();
            let todo: Vec<Todo> = units
                .iter()
                .map(|&unit| {
                    let known = lines_known.next().flatten();
                    if !shard.owns(unit) {
                        return Todo::Skip;
                    }
                    match known {
                        Some(known) if !open.contains(&unit) => {
                            let (served, errors) = known.counted();
                            prior = (prior.0 + served, prior.1 + errors);
                            Todo::Known(Box::new(known))
                        }
                        _ => {
                            all_known = false;
                            Todo::Send
                        }
                    }
                })
                .collect();
            let closing = match k.done {
                Some(line) if all_known && !todo.is_empty() => Closing::Known(Some(line)),
                _ => Closing::Ask { prior },
            };
            Planned {
                path,
                lines,
                todo,
                closing,
                model: None,
            }
        })
        .collect()
}

/// Refuses files whose sweeps ask for more requests than a run makes unasked, naming each
/// with its count.
fn check_sweep_sizes(files: &[(PathBuf, bench_file::BenchFile)]) -> Result<()> {
    let large: Vec<String> = files
        .iter()
        .filter(|(_, f)| f.swept_requests() > SWEEP_REQUESTS_WITHOUT_YES)
        .map(|(p, f)| format!("{}: its sweeps expand to {} requests", p.display(), f.swept_requests()))
        .collect();
    if large.is_empty() {
        return Ok(());
    }
    bail!(
        "{}; more than {SWEEP_REQUESTS_WITHOUT_YES} requests from the sweeps of one file are run only with --yes",
        large.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_file::parse;

    fn hash() -> String {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "abc"}}}}"#)
    }

    fn files(text: &str) -> Vec<(PathBuf, Vec<Line>)> {
        vec![(PathBuf::from("a.bench"), parse(text.as_bytes()))]
    }

    fn known(attempts: Option<u32>) -> Option<Known> {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let mut record = crate::results::parse(&format!(r#"{{"status":"ok","benchmark":"{kind}"}}"#)).unwrap();
        record.attempts = attempts;
        Some(Known {
            record,
            reply: serde_json::json!({}),
        })
    }

    fn todo(planned: &Planned) -> Vec<&'static str> {
        planned
            .todo
            .iter()
            .map(|t| match t {
                Todo::Known(_) => "known",
                Todo::Send => "send",
                Todo::Skip => "skip",
            })
            .collect()
    }

    #[test]
    fn a_fresh_run_sends_every_record_line_and_asks_for_the_closing_line() {
        let h = hash();
        let planned = plan(files(&format!("# c\n{h}\n\n{h}\n")), Shard::WHOLE, Vec::new());
        assert_eq!(todo(&planned[0]), ["send", "send"]);
        assert!(planned[0].sends());
        assert!(matches!(planned[0].closing, Closing::Ask { prior: (0, 0) }));
    }

    #[test]
    fn a_resumed_run_keeps_settled_lines_and_sends_the_others() {
        let h = hash();
        let earlier = KnownFile {
            lines: vec![known(Some(1)), known(None), None],
            done: None,
        };
        let planned = plan(files(&format!("{h}\n{h}\n{h}\n")), Shard::WHOLE, vec![earlier]);
        assert_eq!(todo(&planned[0]), ["known", "send", "send"]);
        // The known line's count is added to what the instances count.
        assert!(matches!(planned[0].closing, Closing::Ask { prior: (1, 0) }));

        let finished = KnownFile {
            lines: vec![known(Some(1))],
            done: Some(String::from("# done: 1 served, 0 errors")),
        };
        let planned = plan(files(&format!("{h}\n")), Shard::WHOLE, vec![finished]);
        assert!(!planned[0].sends());
        assert!(matches!(&planned[0].closing, Closing::Known(Some(l)) if l == "# done: 1 served, 0 errors"));
    }

    #[test]
    fn a_shard_sends_its_own_units_only() {
        let h = hash();
        let text = format!("{h}\n{h}\n{h}\n");
        let first = plan(files(&text), Shard { index: 0, count: 2 }, Vec::new());
        let second = plan(files(&text), Shard { index: 1, count: 2 }, Vec::new());
        assert_eq!(todo(&first[0]), ["send", "skip", "send"]);
        assert_eq!(todo(&second[0]), ["skip", "send", "skip"]);
    }

    #[test]
    fn a_measurement_without_its_placements_is_measured_again() {
        let kind = cyclebench_protocol::BenchmarkKind::Software.name();
        let primitive = cyclebench_protocol::Primitive::AesTableEncrypt.name();
        let placed = &format!(r#"{{"{kind}": {{"primitive": "{primitive}", "variant": "rv32i", "placements": 2}}}}"#);
        let mut record = crate::results::parse(&format!(
            r#"{{"status":"ok","benchmark":"{kind}","phases":{{"run":5}}}}"#
        ))
        .unwrap();
        record.attempts = Some(1);
        let without = Known {
            record: record.clone(),
            reply: serde_json::json!({}),
        };
        let earlier = KnownFile {
            lines: vec![Some(without)],
            done: None,
        };
        assert_eq!(todo(&plan(files(placed), Shard::WHOLE, vec![earlier])[0]), ["send"]);
        crate::results::Placements::new(
            crate::results::PlacedField::TotalCycles,
            2,
            vec![Some(5), Some(6)],
            vec![],
        )
        .insert_into(&mut record);
        let with = KnownFile {
            lines: vec![Some(Known {
                record,
                reply: serde_json::json!({}),
            })],
            done: None,
        };
        assert_eq!(todo(&plan(files(placed), Shard::WHOLE, vec![with])[0]), ["known"]);
    }
}
