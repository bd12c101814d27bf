//! Appending records to `results.jsonl` and `results.csv` as soon as each reply is in, so
//! nothing measured is lost if a later request fails.
//!
//! Each record is one complete line, handed to the system in one write: a tool that is
//! killed leaves whole lines only. A write that fails half-way (a full disk) is cut back to
//! the last whole line, so the files stay readable. Files that must change as a whole (put in
//! file order, given placements) are never rewritten in place: new ones are written beside
//! them and renamed over them.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{plain, Record};

/// serde's snake_case name of a unit enum value, with dashes.
fn kebab<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', "-")))
        .unwrap_or_default()
}

/// Appends records to `results.jsonl` and `results.csv`, each record complete on disk before
/// the next request is sent; and parks in `pending.jsonl` the replies of lines answered ahead
/// of an earlier one, until their `.out` entries can be written in file order.
pub struct ResultsWriter {
    dir: PathBuf,
    jsonl: LineFile,
    csv: LineFile,
    /// `pending.jsonl`, from the first reply parked.
    pending: Option<LineFile>,
}

/// Where a record stands: its file as given, its line number and its place in its sweep.
pub type Place = (String, usize, Option<u64>);

/// A line of `pending.jsonl`: the line a reply answers, and the reply.
#[derive(Serialize, Deserialize)]
struct Parked {
    file: String,
    line: usize,
    sweep: Option<u64>,
    reply: Value,
}

/// Results files written whole beside the ones they are to replace.
struct Staged {
    writer: ResultsWriter,
    /// (written, to be replaced) for each file.
    renames: [(PathBuf, PathBuf); 2],
}

impl Staged {
    /// Puts the files in place of the old ones, each with one rename: a tool killed before,
    /// between or after the renames leaves every file whole, old or new.
    fn commit(self) -> Result<()> {
        // On disk before the names move, so that a machine lost right after the rename finds
        // the new content, not an empty file.
        self.writer.jsonl.sync()?;
        self.writer.csv.sync()?;
        drop(self.writer);
        for (from, to) in &self.renames {
            std::fs::rename(from, to).with_context(|| format!("replacing {}", to.display()))?;
        }
        Ok(())
    }
}

/// A file written in whole lines (or whole CSV rows).
struct LineFile {
    path: PathBuf,
    file: File,
    /// Bytes of whole lines written so far.
    len: u64,
}

impl LineFile {
    fn create(path: PathBuf) -> Result<Self> {
        let file = File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(Self { path, file, len: 0 })
    }

    fn sync(&self) -> Result<()> {
        self.file
            .sync_all()
            .with_context(|| format!("writing {}", self.path.display()))
    }

    /// Writes `line` (ending in a newline) with one write, or not at all.
    fn append(&mut self, line: &[u8], what: &str) -> Result<()> {
        match self.file.write_all(line).and_then(|()| self.file.flush()) {
            Ok(()) => {
                self.len += line.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Whatever part of the line reached the file goes: a half record would break
                // every later reading of it.
                let _ = self
                    .file
                    .set_len(self.len)
                    .and_then(|()| self.file.seek(SeekFrom::Start(self.len)));
                let hint = if e.kind() == io::ErrorKind::StorageFull {
                    "the disk is full"
                } else {
                    "the disk may be full"
                };
                Err(anyhow::Error::new(e).context(format!(
                    "cannot write {what} to {} ({hint}): free space or choose another --out, then \
                     run the remaining lines again; every record already in the file is complete",
                    self.path.display()
                )))
            }
        }
    }
}

const CSV_HEADER: [&str; 26] = [
    "status",
    "target",
    "platform",
    "file",
    "line",
    "benchmark",
    "dataset",
    "config",
    "implementation",
    "implementation_name",
    "verified",
    "cycle_accurate",
    "repetitions",
    "overhead",
    "total_cycles",
    "bytes",
    "cycles_per_byte",
    "primitive",
    "variant",
    "stack_bytes",
    "code_bytes",
    "phases",
    "error",
    "firmware_revision",
    "sweep",
    "swept_values",
];

/// The names of the results files.
const JSONL: &str = "results.jsonl";
const CSV: &str = "results.csv";

/// What a file written to replace another is called until it does.
fn partial(name: &str) -> String {
    format!("{name}.partial")
}

impl ResultsWriter {
    /// The file of replies that came in ahead of an earlier line of their file, one JSON object
    /// a line (`file`, `line`, `sweep`, `reply`), kept until the session ends.
    pub const PENDING: &'static str = "pending.jsonl";

    /// Creates both files in `dir`, and removes the replies an earlier run there parked (they
    /// would be taken for this one's).
    pub fn create(dir: &Path) -> Result<Self> {
        let writer = Self::create_named(dir, JSONL, CSV)?;
        Self::forget_parked(dir)?;
        Ok(writer)
    }

    fn create_named(dir: &Path, jsonl: &str, csv: &str) -> Result<Self> {
        let jsonl = LineFile::create(dir.join(jsonl))?;
        let mut csv = LineFile::create(dir.join(csv))?;
        csv.append(&csv_row(CSV_HEADER)?, "the header")?;
        Ok(Self {
            dir: dir.to_path_buf(),
            jsonl,
            csv,
            pending: None,
        })
    }

    /// Replaces `dir`'s `results.jsonl` and `results.csv` by `records`, never rewriting either in
    /// place: each is written whole beside it (`<name>.partial`) and renamed over it.
    pub fn replace(dir: &Path, records: &[Record]) -> Result<()> {
        Self::stage(dir, records)?.commit()
    }

    /// Writes `records` beside `dir`'s results files, to replace them.
    fn stage(dir: &Path, records: &[Record]) -> Result<Staged> {
        let (jsonl, csv) = (partial(JSONL), partial(CSV));
        let mut writer = Self::create_named(dir, &jsonl, &csv)?;
        for record in records {
            writer.append(record)?;
        }
        Ok(Staged {
            writer,
            renames: [(dir.join(jsonl), dir.join(JSONL)), (dir.join(csv), dir.join(CSV))],
        })
    }

    /// Keeps the reply of `r`, a line answered ahead of an earlier one, in `pending.jsonl`:
    /// `--resume` takes it from there if the tool ends before its `.out` entry is written.
    pub fn park(&mut self, r: &Record, reply: &Value) -> Result<()> {
        let pending = match &mut self.pending {
            Some(pending) => pending,
            None => self.pending.insert(LineFile::create(self.dir.join(Self::PENDING))?),
        };
        let parked = Parked {
            file: r.file.clone(),
            line: r.line,
            sweep: r.sweep_index(),
            reply: reply.clone(),
        };
        let mut line = serde_json::to_vec(&parked).context("serializing a reply")?;
        line.push(b'\n');
        pending.append(&line, &format!("the reply of {}:{}", r.file, r.line_label()))
    }

    /// The replies parked in `dir`'s `pending.jsonl`, by the place of the line each answers; a
    /// line cut short is left out.
    pub fn parked(dir: &Path) -> Result<HashMap<Place, Value>> {
        let path = dir.join(Self::PENDING);
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(HashMap::new()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        Ok(whole
            .lines()
            .filter_map(|line| serde_json::from_str::<Parked>(line).ok())
            .map(|p| ((p.file, p.line, p.sweep), p.reply))
            .collect())
    }

    /// Removes `dir`'s `pending.jsonl`: every reply parked there is in its `.out` file.
    pub fn forget_parked(dir: &Path) -> Result<()> {
        let path = dir.join(Self::PENDING);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("removing {}", path.display()))
            }
            _ => Ok(()),
        }
    }

    /// Writes one record to both files, each as one complete line.
    pub fn append(&mut self, r: &Record) -> Result<()> {
        let what = format!("the record of {}:{}", r.file, r.line_label());
        let mut line = serde_json::to_vec(r).context("serializing a record")?;
        line.push(b'\n');
        self.jsonl.append(&line, &what)?;
        self.csv.append(&csv_row(Self::csv_fields(r))?, &what)
    }

    /// The CSV columns of a record, in the order of [`CSV_HEADER`].
    fn csv_fields(r: &Record) -> [String; CSV_HEADER.len()] {
        let opt = |v: Option<String>| v.unwrap_or_default();
        let phases: Vec<String> = r.phases.iter().map(|(k, v)| format!("{k}={v}")).collect();
        [
            kebab(&r.status),
            r.target.clone(),
            opt(r.platform.clone()),
            r.file.clone(),
            r.line.to_string(),
            r.benchmark.clone(),
            opt(r.dataset.clone()),
            opt(r.config.clone()),
            opt(r.implementation.map(|k| k.name().to_owned())),
            opt(r.implementation_name.clone()),
            r.verified.to_string(),
            opt(r.cycle_accurate.map(|b| b.to_string())),
            opt(r.repetitions.map(|n| n.to_string())),
            opt(r.overhead.map(|n| n.to_string())),
            opt(r.total_cycles.map(|n| n.to_string())),
            opt(r.bytes.map(|n| n.to_string())),
            opt(r.cycles_per_byte.map(|n| n.to_string())),
            opt(r.primitive().map(str::to_owned)),
            opt(r.variant().map(str::to_owned)),
            opt(r.stack_bytes().map(|n| n.to_string())),
            opt(r.code_bytes.map(|n| n.to_string())),
            phases.join(" "),
            opt(r.error.clone().or_else(|| r.reason.clone())),
            r.firmware_revision.clone(),
            opt(r.sweep_index().map(|k| k.to_string())),
            opt(r.swept_values().map(|values| {
                let pairs: Vec<String> = values.iter().map(|(k, v)| format!("{k}={}", plain(v))).collect();
                pairs.join(" ")
            })),
        ]
    }
}

/// One CSV row, quoted as needed, with its line ending.
fn csv_row<I, F>(fields: I) -> Result<Vec<u8>>
where
    I: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut row = csv::Writer::from_writer(Vec::new());
    row.write_record(fields).context("formatting a CSV row")?;
    row.into_inner().context("formatting a CSV row")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(line: usize, error: &str) -> Record {
        let hash = cyclebench_protocol::BenchmarkKind::Hash.name();
        let text = format!(r#"{{"status":"error","benchmark":"{hash}","file":"f.bench"}}"#);
        let mut r = super::super::parse(&text).unwrap();
        r.line = line;
        r.error = Some(error.to_owned());
        r
    }

    #[test]
    fn every_record_is_one_whole_line_in_both_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = ResultsWriter::create(dir.path()).unwrap();
        writer.append(&record(3, "a, \"quoted\"\nsecond line")).unwrap();
        writer.append(&record(4, "plain")).unwrap();
        let jsonl = std::fs::read_to_string(dir.path().join("results.jsonl")).unwrap();
        assert!(jsonl.ends_with('\n'));
        let lines: Vec<Record> = jsonl.lines().map(|l| super::super::parse(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].error.as_deref(), Some("a, \"quoted\"\nsecond line"));
        let mut csv = csv::Reader::from_path(dir.path().join("results.csv")).unwrap();
        assert_eq!(csv.headers().unwrap(), CSV_HEADER.as_slice());
        let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][4], "3");
        assert_eq!(&rows[0][22], "a, \"quoted\"\nsecond line");
        assert_eq!((&rows[0][24], &rows[0][25]), ("", ""));
    }

    #[test]
    fn a_request_of_a_swept_line_says_where_it_stands_in_its_sweep() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = ResultsWriter::create(dir.path()).unwrap();
        let mut r = record(4, "plain");
        let sweep = serde_json::json!({"index": 3, "of": 6, "values": {"variant": "rv32i", "length": 64}});
        r.details.insert(String::from(super::super::SWEEP), sweep);
        assert_eq!(r.location(), "f.bench:4[3]");
        writer.append(&r).unwrap();
        let jsonl = std::fs::read_to_string(dir.path().join("results.jsonl")).unwrap();
        let back = super::super::parse(jsonl.trim()).unwrap();
        assert_eq!((back.line, back.sweep_index()), (4, Some(3)));
        assert_eq!(back.swept_values().unwrap()["length"], 64);
        let mut csv = csv::Reader::from_path(dir.path().join("results.csv")).unwrap();
        let row = csv.records().next().unwrap().unwrap();
        assert_eq!((&row[4], &row[24], &row[25]), ("4", "3", "variant=rv32i length=64"));
    }

    /// The records of `dir`'s `results.jsonl` and `results.csv`, by line number, checking that
    /// both are whole.
    fn lines_of(dir: &Path) -> (Vec<usize>, Vec<String>) {
        let jsonl = std::fs::read_to_string(dir.join(JSONL)).unwrap();
        assert!(jsonl.is_empty() || jsonl.ends_with('\n'), "{jsonl:?}");
        let records = jsonl.lines().map(|l| super::super::parse(l).unwrap().line).collect();
        let mut csv = csv::Reader::from_path(dir.join(CSV)).unwrap();
        assert_eq!(csv.headers().unwrap(), CSV_HEADER.as_slice());
        let rows = csv.records().map(|r| r.unwrap()[4].to_owned()).collect();
        (records, rows)
    }

    #[test]
    fn a_tool_killed_while_replacing_the_files_leaves_each_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = ResultsWriter::create(dir.path()).unwrap();
        for line in [5, 3] {
            writer.append(&record(line, "first")).unwrap();
        }
        drop(writer);
        let old = (vec![5, 3], vec![String::from("5"), String::from("3")]);
        let new: Vec<Record> = [3, 5, 7].into_iter().map(|l| record(l, "again")).collect();
        // Killed while the new files are written: the old ones are as they were.
        drop(ResultsWriter::stage(dir.path(), &new).unwrap());
        assert_eq!(lines_of(dir.path()), old);
        assert!(dir.path().join(partial(JSONL)).exists());
        // Killed between the two renames: one file new, the other old, each whole.
        let staged = ResultsWriter::stage(dir.path(), &new).unwrap();
        let [(from, to), _] = &staged.renames;
        std::fs::rename(from, to).unwrap();
        let (records, rows) = lines_of(dir.path());
        assert_eq!((records, rows), (vec![3, 5, 7], old.1.clone()));
        // A replacement that runs its course: both new, nothing left beside them.
        ResultsWriter::replace(dir.path(), &new).unwrap();
        let three: Vec<String> = ["3", "5", "7"].map(String::from).to_vec();
        assert_eq!(lines_of(dir.path()), (vec![3, 5, 7], three));
        assert!(!dir.path().join(partial(JSONL)).exists() && !dir.path().join(partial(CSV)).exists());
    }

    #[test]
    fn parked_replies_read_back_by_place_and_a_new_run_forgets_them() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = ResultsWriter::create(dir.path()).unwrap();
        let mut swept = record(4, "b");
        let sweep = serde_json::json!({"index": 2, "of": 3, "values": {"length": 16}});
        swept.details.insert(String::from(super::super::SWEEP), sweep);
        writer.park(&record(3, "a"), &serde_json::json!({"a": 1})).unwrap();
        writer.park(&swept, &serde_json::json!({"b": 2})).unwrap();
        drop(writer);
        // A reply cut short by a kill.
        let path = dir.path().join(ResultsWriter::PENDING);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(r#"{"file":"f.bench","line":9,"sweep":null,"rep"#);
        std::fs::write(&path, text).unwrap();
        let parked = ResultsWriter::parked(dir.path()).unwrap();
        assert_eq!(parked.len(), 2, "{parked:?}");
        assert_eq!(parked[&(String::from("f.bench"), 3, None)]["a"], 1);
        assert_eq!(parked[&(String::from("f.bench"), 4, Some(2))]["b"], 2);
        drop(ResultsWriter::create(dir.path()).unwrap());
        assert!(!path.exists());
        assert!(ResultsWriter::parked(dir.path()).unwrap().is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_named_with_the_file() {
        // /dev/full fails every write with ENOSPC.
        let path = PathBuf::from("/dev/full");
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let mut full = LineFile { path, file, len: 0 };
        let e = full.append(b"{}\n", "the record of f.bench:3").unwrap_err();
        let message = format!("{e:#}");
        assert!(
            message.starts_with("cannot write the record of f.bench:3 to /dev/full (the disk is full)"),
            "{message}"
        );
        assert_eq!(full.len, 0);
    }
}
