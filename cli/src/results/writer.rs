//! Appending records to `results.jsonl` and `results.csv` as soon as each reply is in, so
//! nothing measured is lost if a later request fails.
//!
//! Each record is one complete line, handed to the system in one write: a tool that is
//! killed leaves whole lines only. A write that fails half-way (a full disk) is cut back to
//! the last whole line, so the files stay readable.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::{plain, Record};

/// serde's snake_case name of a unit enum value, with dashes.
fn kebab<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', "-")))
        .unwrap_or_default()
}

/// Appends records to `results.jsonl` and `results.csv`, each record complete on disk before
/// the next request is sent.
pub struct ResultsWriter {
    jsonl: LineFile,
    csv: LineFile,
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

impl ResultsWriter {
    /// Creates both files in `dir`.
    pub fn create(dir: &Path) -> Result<Self> {
        let jsonl = LineFile::create(dir.join("results.jsonl"))?;
        let mut csv = LineFile::create(dir.join("results.csv"))?;
        csv.append(&csv_row(CSV_HEADER)?, "the header")?;
        Ok(Self { jsonl, csv })
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
