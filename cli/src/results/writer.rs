//! Appending records to `results.jsonl` and `results.csv` as soon as each reply is in, so
//! nothing measured is lost if a later request fails.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::Record;

/// serde's snake_case name of a unit enum value, with dashes.
fn kebab<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', "-")))
        .unwrap_or_default()
}

/// Appends records to `results.jsonl` and `results.csv`, flushing after each.
pub struct ResultsWriter {
    jsonl: BufWriter<File>,
    csv: csv::Writer<File>,
}

const CSV_HEADER: [&str; 24] = [
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
];

impl ResultsWriter {
    /// Creates both files in `dir`.
    pub fn create(dir: &Path) -> Result<Self> {
        let open =
            |name: &str| File::create(dir.join(name)).with_context(|| format!("creating {}", dir.join(name).display()));
        let jsonl = BufWriter::new(open("results.jsonl")?);
        let mut csv = csv::Writer::from_writer(open("results.csv")?);
        csv.write_record(CSV_HEADER)?;
        csv.flush()?;
        Ok(Self { jsonl, csv })
    }

    /// Writes one record to both files and flushes them.
    pub fn append(&mut self, r: &Record) -> Result<()> {
        serde_json::to_writer(&mut self.jsonl, r)?;
        self.jsonl.write_all(b"\n")?;
        self.jsonl.flush()?;
        let opt = |v: Option<String>| v.unwrap_or_default();
        let phases: Vec<String> = r.phases.iter().map(|(k, v)| format!("{k}={v}")).collect();
        self.csv.write_record([
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
        ])?;
        self.csv.flush()?;
        Ok(())
    }
}
