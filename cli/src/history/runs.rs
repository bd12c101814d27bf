//! The runs a history reads, and their order.
//!
//! A run is dated by when it started: `run.json`'s `started` (the earliest shard's, for a
//! merged run). `run.json` records the firmware revision but not the date of its commit, so
//! the page cannot order by commit; a run made for each commit of a branch, as CI makes them,
//! starts after the run of the commit before it. A directory without `run.json` (results
//! copied without it) is dated by its earliest reply's `timestamp`. Runs that start at the
//! same moment, or that nothing dates, keep the order they were given in, the undated last.

use std::path::{Path, PathBuf};

use anyhow::Result;
use chrono::{DateTime, FixedOffset};

use crate::results::{self, Results};
use crate::run::meta::{Meta, RUN_JSON};

/// Where a run's date comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dated {
    /// `run.json`'s `started`.
    Started,
    /// The earliest `timestamp` of its records, for a directory without `run.json`.
    FirstReply,
    /// Nothing dates it.
    Undated,
}

/// One results directory.
pub struct Run {
    /// Its records.
    pub results: Results,
    /// Its `run.json`, when it has a readable one.
    pub meta: Option<Meta>,
    /// When it started, as [`Self::dated`] says.
    pub started: Option<DateTime<FixedOffset>>,
    /// Where [`Self::started`] comes from.
    pub dated: Dated,
}

impl Run {
    /// Reads the results directory (or `results.jsonl`) at `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let results = results::load(path)?;
        results.warn_about_skipped();
        // Read leniently: a history also reads runs written by older tools, whose `run.json`
        // lacks fields that resuming or merging needs.
        let meta = std::fs::read_to_string(results.dir.join(RUN_JSON))
            .ok()
            .and_then(|text| serde_json::from_str::<Meta>(&text).ok());
        let started = meta
            .as_ref()
            .and_then(|m| DateTime::parse_from_rfc3339(&m.started).ok());
        let first_reply = || {
            results
                .records
                .iter()
                .filter_map(|r| DateTime::parse_from_rfc3339(&r.timestamp).ok())
                .min()
        };
        let (started, dated) = match started {
            Some(s) => (Some(s), Dated::Started),
            None => match first_reply() {
                Some(t) => (Some(t), Dated::FirstReply),
                None => (None, Dated::Undated),
            },
        };
        Ok(Self {
            results,
            meta,
            started,
            dated,
        })
    }

    /// The directory's own name, which names the run on the page.
    pub fn name(&self) -> String {
        let dir = &self.results.dir;
        let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        absolute
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| dir.display().to_string())
    }

    /// The firmware revision: `run.json`'s, else its records'.
    pub fn firmware_revision(&self) -> Option<String> {
        self.meta
            .as_ref()
            .map(|m| m.firmware_revision.clone())
            .filter(|r| !r.is_empty())
            .or_else(|| results::distinct(self.results.records.iter().map(|r| r.firmware_revision.as_str())))
    }

    /// The target: `run.json`'s, else its records'.
    pub fn target(&self) -> Option<String> {
        self.meta
            .as_ref()
            .map(|m| m.target.clone())
            .filter(|t| !t.is_empty())
            .or_else(|| results::distinct(self.results.records.iter().map(|r| r.target.as_str())))
    }

    /// Whether its target counts clock cycles: `run.json`'s word, else its records' when
    /// they agree.
    pub fn cycle_accurate(&self) -> Option<bool> {
        if let Some(known) = self.meta.as_ref().and_then(|m| m.cycle_accurate) {
            return Some(known);
        }
        let records = &self.results.records;
        let first = records.first()?.cycle_accurate;
        first.filter(|&f| records.iter().all(|r| r.cycle_accurate == Some(f)))
    }

    /// Its `report.html`, when one was written.
    pub fn report(&self) -> Option<PathBuf> {
        Some(self.results.dir.join("report.html")).filter(|p| p.is_file())
    }
}

/// The order of runs started at `starts` (given in this order): by start, then as given, the
/// undated last. Returns the indices of `starts` in that order.
pub fn order(starts: &[Option<DateTime<FixedOffset>>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..starts.len()).collect();
    // Stable: equal starts keep the order given.
    order.sort_by_key(|&i| (starts[i].is_none(), starts[i]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Option<DateTime<FixedOffset>> {
        Some(DateTime::parse_from_rfc3339(text).unwrap())
    }

    #[test]
    fn runs_are_ordered_by_start_then_as_given_the_undated_last() {
        let starts = [
            at("2026-05-03T10:00:00+00:00"),
            None,
            at("2026-05-01T10:00:00+00:00"),
            at("2026-05-03T10:00:00+00:00"),
            None,
            // The same instant as the first and the fourth, in another zone.
            at("2026-05-03T12:00:00+02:00"),
            // 04:00 UTC on the 3rd: earlier than the 10:00 UTC runs, whatever the day it reads.
            at("2026-05-02T23:00:00-05:00"),
        ];
        assert_eq!(order(&starts), [2, 6, 0, 3, 5, 1, 4]);
        assert_eq!(order(&[]), Vec::<usize>::new());
    }

    #[test]
    fn a_run_is_dated_by_run_json_else_by_its_first_reply() {
        let dir = tempfile::tempdir().unwrap();
        let micro = cyclebench_protocol::BenchmarkKind::Micro.name();
        let record = |timestamp: &str| {
            format!(
                r#"{{"status":"ok","file":"a.bench","line":1,"request":"{{}}","benchmark":"{micro}","phases":{{"run":1}},"total_cycles":1,"timestamp":"{timestamp}"}}"#
            )
        };
        let lines = [record("2026-05-02T10:00:05+00:00"), record("2026-05-02T10:00:01+00:00")];
        std::fs::write(dir.path().join("results.jsonl"), lines.join("\n")).unwrap();
        let run = Run::load(dir.path()).unwrap();
        assert_eq!(
            (run.started, run.dated),
            (at("2026-05-02T10:00:01+00:00"), Dated::FirstReply)
        );
        assert!(run.report().is_none());
        let meta = serde_json::json!({"target": "ibex-sim", "firmware_revision": "abc123", "started": "2026-05-02T09:59:00+00:00"});
        std::fs::write(dir.path().join(RUN_JSON), meta.to_string()).unwrap();
        std::fs::write(dir.path().join("report.html"), "").unwrap();
        let run = Run::load(dir.path()).unwrap();
        assert_eq!(
            (run.started, run.dated),
            (at("2026-05-02T09:59:00+00:00"), Dated::Started)
        );
        assert_eq!(run.firmware_revision().as_deref(), Some("abc123"));
        assert_eq!(run.target().as_deref(), Some("ibex-sim"));
        assert_eq!(run.report(), Some(dir.path().join("report.html")));
        assert_eq!(run.cycle_accurate(), None);
    }
}
