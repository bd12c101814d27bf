//! The records of a session as they come in. Each goes to `results.jsonl` and `results.csv`
//! the moment its reply is in, whatever line it answers, and `run.json` counts it at once: a
//! tool ended in any way (a second signal, SIGKILL, a lost machine) loses nothing it received,
//! and the progress output shows every result as it arrives.
//!
//! With several instances, replies come in out of file order. The `.out` files are written in
//! file order as they go: the reply of a line answered ahead of an earlier one waits in
//! `pending.jsonl` (which `--resume` reads) until the lines before it are written. The records
//! are put in file order when the session ends, by files written whole and renamed over the
//! ones they replace; nothing is held only in memory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Result;
use indicatif::ProgressBar;
use serde_json::Value;

use super::meta::Meta;
use crate::results::{Record, ResultsWriter, Status};
use crate::signals;

/// `run.json` while a session writes: its counts follow every record received, and it says
/// `interrupted` the moment a signal arrives. Each write replaces the file whole.
#[derive(Clone)]
pub(crate) struct RunJson(Arc<Mutex<RunFacts>>);

struct RunFacts {
    dir: PathBuf,
    meta: Meta,
}

impl RunJson {
    /// `meta` as the session starts, in `dir`, counting from no records.
    pub fn new(dir: &Path, meta: &Meta) -> Self {
        let mut meta = meta.clone();
        (meta.requests, meta.ok, meta.unsupported, meta.failed) = (0, 0, 0, 0);
        Self(Arc::new(Mutex::new(RunFacts {
            dir: dir.to_path_buf(),
            meta,
        })))
    }

    /// Marks `run.json` interrupted at every signal until the guard drops: a second signal
    /// ends the tool at once, and the file must say by then that a signal stopped the run.
    pub fn watch_signals(&self) -> signals::OnSignal {
        let facts = Arc::clone(&self.0);
        signals::on_signal(move || {
            let mut facts = facts.lock().unwrap_or_else(PoisonError::into_inner);
            facts.meta.interrupted = true;
            // The tool may be about to end: what cannot be written is no reason to fail.
            let _ = facts.meta.write(&facts.dir);
        })
    }

    /// Counts one more record.
    fn count(&self, record: &Record) -> Result<()> {
        let mut facts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let meta = &mut facts.meta;
        meta.requests += 1;
        match record.status {
            Status::Ok => meta.ok += 1,
            Status::Unsupported => meta.unsupported += 1,
            Status::Error => meta.failed += 1,
        }
        meta.interrupted = signals::received().is_some();
        facts.meta.write(&facts.dir)
    }
}

/// Where a session's records go: the results files at once, the `.out` files in file order.
pub(crate) struct Recorder {
    dir: PathBuf,
    results: ResultsWriter,
    run_json: Option<RunJson>,
    progress: ProgressBar,
    /// Whether to leave out the progress line of each record (a merge, which measures nothing).
    quiet: bool,
    /// Records received.
    received: usize,
    /// Whether a record was received while another was waiting for its `.out` entry: the
    /// results files are then out of file order until [`Self::finish`].
    ahead: bool,
    /// Every record whose `.out` entry is written, in file order.
    all: Vec<Record>,
}

impl Recorder {
    /// Starts the results files in `dir`; `run_json`, when given, counts every record.
    pub fn create(dir: &Path, progress: ProgressBar, quiet: bool, run_json: Option<RunJson>) -> Result<Self> {
        Ok(Self {
            dir: dir.to_path_buf(),
            results: ResultsWriter::create(dir)?,
            run_json,
            progress,
            quiet,
            received: 0,
            ahead: false,
            all: Vec::new(),
        })
    }

    /// Shows which file the records come from.
    pub fn show_file(&self, file: &str) {
        self.progress.set_message(file.to_owned());
    }

    /// Takes a record in as its reply arrives: on disk, counted and shown at once.
    pub fn receive(&mut self, record: &Record) -> Result<()> {
        // Records go to the results files as they come, their `.out` entries in file order:
        // both orders agree as long as each record's entry is written before the next comes.
        self.ahead |= self.all.len() < self.received;
        self.results.append(record)?;
        self.received += 1;
        if let Some(run_json) = &self.run_json {
            run_json.count(record)?;
        }
        self.progress.inc(1);
        if !self.quiet {
            self.progress.suspend(|| super::write::report_line(record));
        }
        Ok(())
    }

    /// Keeps the reply of a received record whose line cannot be written to its `.out` file
    /// yet (an earlier line is still under way) in `pending.jsonl`.
    pub fn park(&mut self, record: &Record, reply: &Value) -> Result<()> {
        self.results.park(record, reply)
    }

    /// Writes a received record's line and reply to its `.out` file, in file order.
    pub fn place(&mut self, out: &mut impl Write, text: &str, record: Record, reply: &Value) -> Result<()> {
        writeln!(out, "{text}")?;
        writeln!(out, "=> {reply}")?;
        out.flush()?;
        self.all.push(record);
        Ok(())
    }

    /// Ends the session's writing. When every record received has its `.out` entry, the
    /// results files are put in file order (replaced whole, if replies came in out of order)
    /// and `pending.jsonl` goes; otherwise both stay as they are, for `--resume`. Returns every
    /// record written to the `.out` files, in file order.
    pub fn finish(self) -> Result<Vec<Record>> {
        self.progress.finish_and_clear();
        drop(self.results);
        if self.all.len() == self.received {
            if self.ahead {
                ResultsWriter::replace(&self.dir, &self.all)?;
            }
            ResultsWriter::forget_parked(&self.dir)?;
        }
        Ok(self.all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(line: usize) -> Record {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let text = format!(r#"{{"status":"ok","benchmark":"{kind}","file":"f.bench"}}"#);
        let mut r = crate::results::parse(&text).unwrap();
        r.line = line;
        r
    }

    /// The line numbers of the records in `dir`'s `results.jsonl`, in the file's order.
    fn lines_in(dir: &Path) -> Vec<usize> {
        let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
        text.lines().map(|l| crate::results::parse(l).unwrap().line).collect()
    }

    fn meta(dir: &Path) -> Meta {
        serde_json::from_str(&std::fs::read_to_string(dir.join(super::super::meta::RUN_JSON)).unwrap()).unwrap()
    }

    #[test]
    fn a_record_ahead_of_its_turn_is_on_disk_at_once_and_in_file_order_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let start: Meta = serde_json::from_value(serde_json::json!({"target": "qemu-virt"})).unwrap();
        let run_json = RunJson::new(dir.path(), &start);
        let mut recorder = Recorder::create(dir.path(), ProgressBar::hidden(), true, Some(run_json)).unwrap();
        let mut out = Vec::new();
        // Line 3 answered while line 2 is under way.
        recorder.receive(&record(3)).unwrap();
        recorder.park(&record(3), &serde_json::json!({"line": 3})).unwrap();
        assert_eq!(lines_in(dir.path()), [3]);
        assert_eq!(meta(dir.path()).requests, 1);
        assert!(dir.path().join(ResultsWriter::PENDING).exists());
        recorder.receive(&record(2)).unwrap();
        for (text, line) in [("two", 2), ("three", 3)] {
            let reply = serde_json::json!({ "line": line });
            recorder.place(&mut out, text, record(line), &reply).unwrap();
        }
        assert_eq!(lines_in(dir.path()), [3, 2]);
        let all = recorder.finish().unwrap();
        assert_eq!(all.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(lines_in(dir.path()), [2, 3]);
        assert!(!dir.path().join(ResultsWriter::PENDING).exists());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "two\n=> {\"line\":2}\nthree\n=> {\"line\":3}\n"
        );
        let counted = meta(dir.path());
        assert_eq!((counted.requests, counted.ok, counted.interrupted), (2, 2, false));
    }

    #[test]
    fn a_session_that_ends_with_a_line_under_way_leaves_its_records_and_replies_for_resume() {
        let dir = tempfile::tempdir().unwrap();
        let mut recorder = Recorder::create(dir.path(), ProgressBar::hidden(), true, None).unwrap();
        recorder.receive(&record(3)).unwrap();
        recorder.park(&record(3), &serde_json::json!({"line": 3})).unwrap();
        assert!(recorder.finish().unwrap().is_empty());
        assert_eq!(lines_in(dir.path()), [3]);
        let parked = ResultsWriter::parked(dir.path()).unwrap();
        assert_eq!(parked[&(String::from("f.bench"), 3, None)]["line"], 3);
    }
}
