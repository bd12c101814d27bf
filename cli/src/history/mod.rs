//! `cyclebench history RESULTS... [--out DIR] [--fail-above PCT]`: the cycles of every
//! benchmark over a series of runs (each commit of a branch, say), on one offline page,
//! `history.html`, with every step from one run to the next that `compare`'s gate would fail
//! marked and listed.
//!
//! One job per module: [`runs`] reads and orders the runs, [`model`] pairs their records and
//! judges the steps (through `compare`'s pairing and gate, so the page and the gate agree),
//! [`chart`] draws each benchmark's counts, and the template lays the page out.

mod chart;
mod model;
mod runs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::compare::gate::{self, Rule};
use crate::results::{self, Results, Status};
use model::History;
use runs::{Dated, Run};

/// The page's template.
const TEMPLATE: &str = include_str!("history.html.j2");
/// The page's file name in the `--out` folder.
pub const PAGE: &str = "history.html";

/// Arguments of `cyclebench history`.
#[derive(clap::Args)]
pub struct Args {
    /// Results directories (runs or merged runs, or their results.jsonl), in any order: the
    /// page orders them by when each started (run.json's `started`), then as given.
    #[arg(required = true, value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// The folder to write history.html to; created when missing.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out: PathBuf,
    /// Mark a step from one run to the next where `compare BASE NEW --fail-above PCT` would
    /// fail: a phase or total that grew by more than PCT percent (0: any cycle more), a
    /// benchmark that stopped being measured, or a check that weakened.
    #[arg(long, value_name = "PCT", value_parser = gate::percent, default_value = "0")]
    fail_above: f64,
}

/// Runs `cyclebench history`: writes the page, whatever it marks (the gate is `compare`).
pub fn run(args: Args) -> Result<bool> {
    let written = write(&args.results, &args.out, args.fail_above)?;
    println!(
        "history: {} ({} runs, {} benchmarks; {} of {} steps the gate would fail)",
        written.page.display(),
        written.runs,
        written.benchmarks,
        written.failing_steps,
        written.runs.saturating_sub(1)
    );
    Ok(true)
}

/// What [`write`] wrote.
#[derive(Debug)]
pub struct Written {
    /// The page.
    pub page: PathBuf,
    /// Runs read.
    pub runs: usize,
    /// Benchmarks shown.
    pub benchmarks: usize,
    /// Steps from one run to the next that the gate would fail.
    pub failing_steps: usize,
}

/// One run as the page's table shows it.
#[derive(Serialize)]
struct RunRow {
    /// 1-based place in the order.
    number: usize,
    /// The directory's name.
    name: String,
    /// Its `report.html`, relative to the page; `None` when it has none.
    href: Option<String>,
    /// When it started, and what says so.
    started: String,
    firmware_revision: String,
    target: String,
    /// `yes`, `no` or `unknown`.
    cycle_accurate: &'static str,
    /// Records measured, and records of failed lines.
    measured: usize,
    failed: usize,
}

#[derive(Serialize)]
struct Page<'a> {
    title: String,
    /// PCT as given.
    limit: String,
    runs: Vec<RunRow>,
    /// Steps the gate would fail.
    failing_steps: usize,
    /// Whether a run's target does not count clock cycles.
    not_cycle_accurate: bool,
    history: &'a History,
    /// Benchmark id → its chart (SVG; empty for a benchmark without counts).
    svg: BTreeMap<String, String>,
}

/// Writes `history.html` into `out` from the runs at `paths`, marking the steps that
/// `compare --fail-above limit` would fail.
pub fn write(paths: &[PathBuf], out: &Path, limit: f64) -> Result<Written> {
    let mut loaded = Vec::new();
    for path in paths {
        loaded.push(Run::load(path)?);
    }
    let starts: Vec<_> = loaded.iter().map(|r| r.started).collect();
    let mut slots: Vec<Option<Run>> = loaded.into_iter().map(Some).collect();
    let runs: Vec<Run> = runs::order(&starts)
        .into_iter()
        .filter_map(|i| slots[i].take())
        .collect();
    let results: Vec<&Results> = runs.iter().map(|r| &r.results).collect();
    let history = History::build(&results, Rule::GrowAtMost(limit));

    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut svg = BTreeMap::new();
    for b in &history.benchmarks {
        svg.insert(b.id.clone(), chart::draw(&b.lines, runs.len())?);
    }
    let mut steps: Vec<(usize, usize)> = history.failing.iter().map(|m| (m.from, m.to)).collect();
    steps.dedup();
    let rows = runs
        .iter()
        .enumerate()
        .map(|(i, run)| run_row(i + 1, run, out))
        .collect::<Result<Vec<_>>>()?;
    let targets = results::distinct(rows.iter().map(|r| r.target.as_str()));
    let page = Page {
        title: format!(
            "cyclebench history: {} runs{}",
            runs.len(),
            targets.map(|t| format!(" on {t}")).unwrap_or_default()
        ),
        limit: limit.to_string(),
        runs: rows,
        failing_steps: steps.len(),
        not_cycle_accurate: runs.iter().any(|r| r.cycle_accurate() == Some(false)),
        history: &history,
        svg,
    };
    let html = render(&page)?;
    let path = out.join(PAGE);
    std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
    Ok(Written {
        page: path,
        runs: runs.len(),
        benchmarks: history.benchmarks.len(),
        failing_steps: steps.len(),
    })
}

fn run_row(number: usize, run: &Run, out: &Path) -> Result<RunRow> {
    let started = match (run.started, run.dated) {
        (Some(at), Dated::Started) => at.format("%Y-%m-%d %H:%M:%S %:z").to_string(),
        (Some(at), _) => format!("{} (first reply; no run.json)", at.format("%Y-%m-%d %H:%M:%S %:z")),
        (None, _) => String::from("unknown"),
    };
    let href = match run.report() {
        Some(report) => Some(relative_link(&report, out)?),
        None => None,
    };
    let records = &run.results.records;
    Ok(RunRow {
        number,
        name: run.name(),
        href,
        started,
        firmware_revision: run.firmware_revision().unwrap_or_else(|| String::from("unknown")),
        target: run.target().unwrap_or_else(|| String::from("unknown")),
        cycle_accurate: match run.cycle_accurate() {
            Some(true) => "yes",
            Some(false) => "no",
            None => "unknown",
        },
        measured: records.iter().filter(|r| r.is_measurement()).count(),
        failed: records.iter().filter(|r| r.status == Status::Error).count(),
    })
}

/// The address of `file` relative to the folder `from`, as a page's link: so the page and
/// the runs can move together (an artifact unpacked elsewhere) and the links still hold.
fn relative_link(file: &Path, from: &Path) -> Result<String> {
    let absolute = |p: &Path| std::path::absolute(p).with_context(|| format!("resolving {}", p.display()));
    let (file, from) = (absolute(file)?, absolute(from)?);
    let relative = pathdiff::diff_paths(&file, &from).unwrap_or(file);
    let text: Vec<String> = relative
        .components()
        .map(|c| escape_segment(&c.as_os_str().to_string_lossy()))
        .collect();
    Ok(text.join("/"))
}

/// A path segment as a URL's: the characters that would end or change the address escaped.
/// Only ASCII is escaped; a browser takes any other character of a link as it is.
fn escape_segment(segment: &str) -> String {
    let mut out = String::new();
    for c in segment.chars() {
        match c {
            // Also what HTML gives a meaning, so that the page can write the link as it is.
            '%' | ' ' | '#' | '?' | '"' | '\'' | '&' | '<' | '>' | '\\' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn render(page: &Page) -> Result<String> {
    let mut env = crate::report::render::strict_environment()?;
    // Escaping follows the name: HTML-escaped for `.html.j2`.
    env.add_template("history.html.j2", TEMPLATE)
        .context("loading history.html.j2")?;
    env.get_template("history.html.j2")
        .and_then(|t| t.render(minijinja::Value::from(minijinja::value::Serde(page))))
        .context("rendering history.html.j2")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_linked_relative_to_the_page() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("runs/2026 05#1&<x>/report.html");
        assert_eq!(
            relative_link(&report, &dir.path().join("runs")).unwrap(),
            "2026%2005%231%26%3Cx%3E/report.html"
        );
        assert_eq!(
            relative_link(&report, &dir.path().join("pages/history")).unwrap(),
            "../../runs/2026%2005%231%26%3Cx%3E/report.html"
        );
    }

    /// A results directory of one SHA-256 line with `finish` cycles, started at `started`.
    fn run_dir(root: &Path, name: &str, started: &str, finish: u64) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let record = serde_json::json!({
            "status": "ok", "target": "ibex-sim", "file": "sha256.bench", "line": 3,
            "request": format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "abc"}}}}"#),
            "benchmark": kind, "dataset": "abc", "cycle_accurate": true,
            "phases": {"init": 40, "finish": finish}, "total_cycles": 40 + finish,
            "verified": true, "check": "known_answer", "firmware_revision": name,
        });
        std::fs::write(dir.join("results.jsonl"), record.to_string() + "\n").unwrap();
        let meta = serde_json::json!({"target": "ibex-sim", "firmware_revision": name, "started": started});
        std::fs::write(dir.join("run.json"), meta.to_string()).unwrap();
        dir
    }

    #[test]
    fn the_page_orders_the_runs_and_lists_the_failing_step() {
        let root = tempfile::tempdir().unwrap();
        // Given out of order: the page orders them by start.
        let paths = [
            run_dir(root.path(), "third", "2026-05-03T10:00:00+00:00", 1300),
            run_dir(root.path(), "first", "2026-05-01T10:00:00+00:00", 1000),
            run_dir(root.path(), "second", "2026-05-02T10:00:00+00:00", 1000),
        ];
        std::fs::write(paths[1].join("report.html"), "").unwrap();
        let out = root.path().join("page");
        let written = write(&paths, &out, 0.0).unwrap();
        assert_eq!((written.runs, written.benchmarks, written.failing_steps), (3, 1, 1));
        let html = std::fs::read_to_string(&written.page).unwrap();
        let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("{needle} missing:\n{html}"));
        assert!(at(">first<") < at(">second<") && at(">second<") < at(">third<"));
        assert!(html.contains("<a href=\"../first/report.html\">first</a>"), "{html}");
        assert!(
            html.contains(
                "run 2 → 3: <a href=\"#b1\">sha256.bench:3: finish grew from 1000 to 1300 cycles (+30.00%)</a>"
            ),
            "{html}"
        );
        assert!(!html.contains("http") || html.matches("http").count() == html.matches("xmlns=\"http").count());
    }
}
