//! One results directory as the reproduction reads it, and the cells its tables show.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::record::{Fields, Record, Status};
use crate::results as load;

/// One run: its records, read by the report's loader, and its `run.json`.
pub(super) struct Run {
    /// The results directory.
    pub dir: PathBuf,
    /// Every record in file order.
    pub records: Vec<Record>,
    /// `run.json`, when present and readable.
    pub meta: Option<Value>,
}

impl Run {
    /// Reads the results directory (or `results.jsonl`) at `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let results = load::load(path)?;
        results.warn_about_skipped();
        let meta = std::fs::read_to_string(results.dir.join("run.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
        Ok(Self {
            dir: results.dir,
            records: results.records,
            meta,
        })
    }

    /// The first record from `file` (stem) with this dataset and config.
    pub fn find(&self, file: &str, dataset: Option<&str>, config: &str) -> Option<&Record> {
        self.records
            .iter()
            .find(|r| r.file_stem() == file && r.dataset_name() == dataset && r.config_words() == Some(config))
    }

    /// Raw cycles of `phase`, or why there are none.
    pub fn raw(&self, file: &str, dataset: &str, config: &str, phase: &str) -> Cell {
        match self.find(file, Some(dataset), config) {
            None => Cell::Missing,
            Some(r) if r.outcome() != Status::Ok => Cell::Failed(short_error(r)),
            Some(r) => r.raw_phase(phase).map_or(Cell::Missing, Cell::Cycles),
        }
    }

    /// Raw cycles of all phases together, or why there are none.
    pub fn total_raw(&self, file: &str, dataset: &str, config: &str) -> Cell {
        match self.find(file, Some(dataset), config) {
            None => Cell::Missing,
            Some(r) if r.outcome() != Status::Ok => Cell::Failed(short_error(r)),
            Some(r) => Cell::Cycles(r.raw_total()),
        }
    }

    /// The software record of `primitive` / `variant` / `length` (bytes or limbs).
    pub fn software(&self, primitive: &str, variant: &str, length: Option<u64>) -> Found {
        let record = self.records.iter().find(|r| {
            r.primitive() == Some(primitive) && r.variant() == Some(variant) && r.software_length() == length
        });
        match record {
            None => Found::NotMeasured(String::from("not run")),
            Some(r) => match (r.outcome(), r.corrected_total()) {
                (Status::Ok, Some(cycles)) => Found::Measured(Measurement {
                    cycles,
                    cycles_per_byte: r.cycles_per_byte(),
                    stack: r.stack_bytes(),
                    code: r.code_size(),
                }),
                (Status::Ok, None) => Found::NotMeasured(String::from("no cycles")),
                (Status::Unsupported, _) => Found::NotMeasured(String::from("—")),
                (Status::Error, _) => Found::NotMeasured(format!("error: {}", short_error(r))),
            },
        }
    }

    /// Corrected cycles of a software record, when measured.
    pub fn software_cycles(&self, primitive: &str, variant: &str, length: Option<u64>) -> Option<f64> {
        self.software(primitive, variant, length).value()
    }

    /// The overhead of one measurement window, from the first record that has one.
    pub fn overhead(&self) -> Option<u32> {
        self.records.iter().find_map(|r| r.window_overhead())
    }
}

/// The record's error (or reason) up to its first colon, at most 60 characters.
pub(super) fn short_error(r: &Record) -> String {
    let e = r.failure().unwrap_or("failed");
    let e = e.split(':').next().unwrap_or(e);
    e.chars().take(60).collect()
}

/// A table cell of raw cycles: a measured number or why there is none.
pub(super) enum Cell {
    Cycles(u64),
    Failed(String),
    Missing,
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Cycles(c) => write!(f, "{c}"),
            Cell::Failed(why) => write!(f, "error: {why}"),
            Cell::Missing => f.write_str("not run"),
        }
    }
}

impl Cell {
    /// The cycles, when measured.
    pub fn value(&self) -> Option<u64> {
        match self {
            Cell::Cycles(c) => Some(*c),
            _ => None,
        }
    }
}

/// A measured software result: corrected cycles, cycles per byte, stack and code bytes.
pub(super) struct Measurement {
    pub cycles: u64,
    pub cycles_per_byte: Option<f64>,
    pub stack: Option<u32>,
    pub code: Option<u64>,
}

/// What one software cell shows: a measurement, or why there is none.
pub(super) enum Found {
    Measured(Measurement),
    NotMeasured(String),
}

impl Found {
    /// Cycles, or why there are none.
    pub fn cycles(&self) -> String {
        match self {
            Found::Measured(m) => m.cycles.to_string(),
            Found::NotMeasured(why) => why.clone(),
        }
    }

    /// Cycles per byte to one decimal, or nothing.
    pub fn per_byte(&self) -> String {
        match self {
            Found::Measured(Measurement {
                cycles_per_byte: Some(c),
                ..
            }) => format!("{c:.1}"),
            _ => String::new(),
        }
    }

    /// Cycles, when measured.
    pub fn value(&self) -> Option<f64> {
        match self {
            Found::Measured(m) => Some(m.cycles as f64),
            Found::NotMeasured(_) => None,
        }
    }

    /// `stack / code` bytes, `?` for what is not known.
    pub fn memory(&self) -> String {
        match self {
            Found::Measured(m) => format!(
                "{} / {}",
                m.stack.map_or("?".into(), |s| s.to_string()),
                m.code.map_or("?".into(), |c| c.to_string())
            ),
            Found::NotMeasured(_) => String::new(),
        }
    }
}
