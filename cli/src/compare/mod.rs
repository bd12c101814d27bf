//! `cyclebench compare A B`: the benchmarks two runs have in common, side by side, with the
//! changes that lie beyond the measured spread flagged.
//!
//! A benchmark of A matches one of B when file name (without directory), benchmark,
//! dataset, configuration and request text (JSON with its keys sorted, so spacing and key
//! order do not matter) are all equal; the k-th of several identical lines of a file matches
//! the k-th in the other run. Control requests (hello, done, ...) carry no counts and are
//! left out. With `--fail-above PCT` the comparison is also a gate on cycle counts ([`gate`]).
//! `--identical` replaces the comparison with a check that B holds exactly what A holds
//! ([`identical`]).
//!
//! A cycle count depends on the code the compilers emit, so the comparison names the compilers
//! of both runs when they differ, and says so when a run does not name its compilers.

pub(crate) mod gate;
mod identical;

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use cyclebench_protocol::Check;
use serde::Serialize;
use serde_json::Value;

use crate::report::stats::{self, Spread, Verdict};
use crate::results::{self as load, Phase, Record, Results, Status};
use crate::run::meta::{Build, Meta, RUN_JSON};

/// Arguments of `cyclebench compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The baseline: a results directory (or its results.jsonl).
    a: PathBuf,
    /// The run set against the baseline.
    b: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Fail (exit status 1) when a phase or total of a benchmark both runs measured grew by more
    /// than PCT percent, a benchmark measured in A failed, is unsupported or is missing in B, or
    /// B checked a benchmark's output less strictly than A (known answer, then plausibility,
    /// then none); 0 fails on any cycle more. Images built by different compilers are a
    /// warning.
    #[arg(long, value_name = "PCT", value_parser = gate::percent, allow_negative_numbers = true)]
    fail_above: Option<f64>,
    /// Fail (exit status 1) when any phase or total of a benchmark both runs measured differs,
    /// up or down, a benchmark measured in A failed, is unsupported or is missing in B, B
    /// checked a benchmark's output less strictly than A, or A and B were built by different
    /// compilers: for a change meant to move no cycle, such as a faster simulation model.
    #[arg(long, conflicts_with = "fail_above")]
    fail_on_change: bool,
    #[command(flatten)]
    identity: identical::Options,
}

/// How the comparison is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table for the terminal.
    Table,
    /// A Markdown table with notes.
    Markdown,
    /// One row per benchmark and phase.
    Csv,
    /// The whole comparison as one JSON document.
    Json,
}

/// Runs `cyclebench compare`.
pub fn run(args: Args) -> Result<bool> {
    if args.identity.identical {
        return identical::run(&args.a, &args.b, &args.identity);
    }
    let a = load::load(&args.a)?;
    let b = load::load(&args.b)?;
    a.warn_about_skipped();
    b.warn_about_skipped();
    let comparison = Comparison::build(&a, &b);
    let text = match args.format {
        Format::Table => comparison.table(),
        Format::Markdown => comparison.markdown(),
        Format::Csv => comparison.csv()?,
        Format::Json => serde_json::to_string_pretty(&comparison)? + "\n",
    };
    // A reader that stops early (`| head`) is not an error of the comparison.
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    let rule = match (args.fail_on_change, args.fail_above) {
        (true, _) => Some(gate::Rule::Unchanged),
        (false, limit) => limit.map(gate::Rule::GrowAtMost),
    };
    Ok(rule.is_none_or(|rule| gate::check(&comparison, rule)))
}

/// What identifies a benchmark across runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Key {
    /// `.bench` file name without its directory.
    pub file: String,
    /// Benchmark kind.
    pub benchmark: String,
    /// Dataset.
    pub dataset: Option<String>,
    /// Configuration in words.
    pub config: Option<String>,
    /// Request text, canonical.
    pub request: String,
    /// 0 for the first line with this key in its file, 1 for the second, ...
    pub occurrence: usize,
}

/// One run, as the comparison's header names it.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// Directory the results were read from.
    pub path: String,
    /// Target(s).
    pub target: String,
    /// Platform(s).
    pub platform: String,
    /// `true`/`false` when all records agree, `null` when unknown or mixed.
    pub cycle_accurate: Option<bool>,
    /// Firmware revision(s).
    pub firmware_revision: String,
    /// The compilers that built the image; `null` when the results do not name them.
    pub compilers: Option<Compilers>,
}

/// The compilers that built a run's image, as its results name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Compilers {
    /// The first line of `rustc --version` (several, comma-separated, should records differ).
    pub rustc: String,
    /// The first line of `clang --version`; `null` when clang was not installed.
    pub clang: Option<String>,
}

impl Compilers {
    /// The compilers `run.json` in the directory of `results` names, else those its records
    /// name; `None` when neither names rustc, which every image the tool builds needs: results
    /// from before cyclebench recorded compilers, or of an image it did not build (a board,
    /// `--firmware`).
    fn of(results: &Results) -> Option<Self> {
        let meta = std::fs::read_to_string(results.dir.join(RUN_JSON))
            .ok()
            .and_then(|text| serde_json::from_str::<Meta>(&text).ok());
        if let Some(Build {
            rustc: Some(rustc),
            clang,
            ..
        }) = meta.map(|m| m.build)
        {
            return Some(Self { rustc, clang });
        }
        let named: Vec<&Record> = results.records.iter().filter(|r| r.rustc.is_some()).collect();
        Some(Self {
            rustc: load::distinct(named.iter().filter_map(|r| r.rustc.as_deref()))?,
            clang: load::distinct(named.iter().filter_map(|r| r.clang.as_deref())),
        })
    }

    /// What differs between `a`'s compilers and `b`'s, each compiler as `X in A, Y in B` with
    /// the sides named by `labels`; `None` when both were built alike.
    pub fn difference(a: &Self, b: &Self, labels: [&str; 2]) -> Option<String> {
        let [la, lb] = labels;
        let clang = |c: &Option<String>| c.clone().unwrap_or_else(|| String::from("no clang"));
        let mut parts = Vec::new();
        if a.rustc != b.rustc {
            parts.push(format!("{} in {la}, {} in {lb}", a.rustc, b.rustc));
        }
        if a.clang != b.clang {
            parts.push(format!("{} in {la}, {} in {lb}", clang(&a.clang), clang(&b.clang)));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// Which of two runs, labelled `labels`, do not name their compilers (`A`, `B`, `A and B`);
/// `None` when both do.
fn without_compilers(a: &Run, b: &Run, labels: [&str; 2]) -> Option<String> {
    match (a.compilers.is_none(), b.compilers.is_none()) {
        (false, false) => None,
        (true, false) => Some(labels[0].to_owned()),
        (false, true) => Some(labels[1].to_owned()),
        (true, true) => Some(format!("{} and {}", labels[0], labels[1])),
    }
}

/// A count in A and B.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    /// Phase name, or `total`.
    pub phase: String,
    /// Cycles in A (absent when A has no such phase).
    pub a: Option<u64>,
    /// Cycles in B.
    pub b: Option<u64>,
    /// `[min, max]` over A's repetitions.
    pub a_range: Option<[u64; 2]>,
    /// `[min, max]` over B's repetitions.
    pub b_range: Option<[u64; 2]>,
    /// `b / a`.
    pub ratio: Option<f64>,
    /// Whether the change is real, when both sides have the count.
    pub verdict: Option<Verdict>,
}

/// A benchmark present in both runs.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The matching key.
    pub key: Key,
    /// Line in A's file.
    pub line_a: usize,
    /// Line in B's file.
    pub line_b: usize,
    /// Place in A's swept line, for a request of a sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_a: Option<u64>,
    /// Place in B's swept line, for a request of a sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep_b: Option<u64>,
    /// The total, when both sides measured.
    pub total: Option<Change>,
    /// Every phase, in A's order, then B's extra phases.
    pub phases: Vec<Change>,
    /// Why there are no counts to compare (unsupported, error), per side.
    pub note: Option<String>,
    /// Why A's and B's record have no counts, for each that has none; `note` in words.
    #[serde(skip)]
    pub no_counts: [Option<NoCounts>; 2],
    /// How A's and B's output was checked.
    #[serde(skip)]
    pub checks: [Option<Check>; 2],
    /// Why the counts differ between runs of the same image, when A's or B's record says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub varies: Option<String>,
}

/// A benchmark found in one run only.
#[derive(Clone, Debug, Serialize)]
pub struct Unmatched {
    /// The key nothing in the other run has.
    pub key: Key,
    /// Line in its file.
    pub line: usize,
    /// Place in its swept line, for a request of a sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<u64>,
    /// Why the record has no counts, when it has none.
    #[serde(skip)]
    pub no_counts: Option<NoCounts>,
}

impl Unmatched {
    fn new(key: Key, r: &Record) -> Self {
        Self {
            key,
            line: r.line,
            sweep: r.sweep_index(),
            no_counts: NoCounts::of(r),
        }
    }

    /// `file.bench:line`, with `[k]` for a request of a sweep.
    fn location(&self) -> String {
        format!("{}:{}", self.key.file, line_label(self.line, self.sweep))
    }
}

/// Why a record has no counts to compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoCounts {
    /// The platform cannot run it, for this reason.
    Unsupported(String),
    /// It failed with this error.
    Error(String),
}

impl NoCounts {
    fn of(r: &Record) -> Option<Self> {
        match r.status {
            Status::Ok => None,
            Status::Unsupported => Some(Self::Unsupported(r.reason.clone().unwrap_or_default())),
            Status::Error => Some(Self::Error(r.error.clone().unwrap_or_default())),
        }
    }
}

impl fmt::Display for NoCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported(reason) => write!(f, "unsupported ({reason})"),
            Self::Error(error) => write!(f, "error ({error})"),
        }
    }
}

/// A line number, with `[k]` for the k-th request of a swept line.
fn line_label(line: usize, sweep: Option<u64>) -> String {
    match sweep {
        Some(k) => format!("{line}[{k}]"),
        None => line.to_string(),
    }
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The baseline.
    pub a: Run,
    /// The run set against it.
    pub b: Run,
    /// Matched benchmarks, largest change of the total first.
    pub rows: Vec<Row>,
    /// Benchmarks only A has.
    pub only_a: Vec<Unmatched>,
    /// Benchmarks only B has.
    pub only_b: Vec<Unmatched>,
    /// What the verdicts rest on.
    pub notes: Vec<String>,
}

/// A request with its keys sorted, so that formatting does not break a match.
fn canonical(request: &str) -> String {
    fn sorted(v: Value) -> Value {
        match v {
            Value::Object(map) => {
                let mut entries: Vec<(String, Value)> = map.into_iter().collect();
                entries.sort_by(|x, y| x.0.cmp(&y.0));
                Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
            }
            Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
            other => other,
        }
    }
    serde_json::from_str::<Value>(request).map_or_else(|_| request.trim().to_owned(), |v| sorted(v).to_string())
}

/// The comparable records of a run (control requests have no counts) with their keys: how
/// `compare` and `history` pair the records of two runs.
pub(crate) fn keyed(results: &Results) -> Vec<(Key, &Record)> {
    let mut seen: HashMap<Key, usize> = HashMap::new();
    results
        .records
        .iter()
        .filter(|r| r.status != Status::Ok || r.is_measurement())
        .map(|r| {
            let mut key = Key {
                file: r.file_name().to_owned(),
                benchmark: r.benchmark.clone(),
                dataset: r.dataset.clone(),
                config: r.config.clone(),
                request: canonical(&r.request),
                occurrence: 0,
            };
            let count = seen.entry(key.clone()).or_insert(0);
            key.occurrence = *count;
            *count += 1;
            (key, r)
        })
        .collect()
}

fn describe(results: &Results) -> Run {
    let records = &results.records;
    let first = records.first().and_then(|r| r.cycle_accurate);
    let known = |v: Option<String>| v.unwrap_or_else(|| String::from("unknown"));
    Run {
        path: results.dir.display().to_string(),
        target: known(load::distinct(records.iter().map(|r| r.target.as_str()))),
        platform: known(load::distinct(records.iter().filter_map(|r| r.platform.as_deref()))),
        cycle_accurate: first.filter(|&f| records.iter().all(|r| r.cycle_accurate == Some(f))),
        firmware_revision: known(load::distinct(records.iter().map(|r| r.firmware_revision.as_str()))),
        compilers: Compilers::of(results),
    }
}

/// How a record's output was checked: its `check`, or for a record written before there was
/// one, a known answer when it says it was verified.
pub(crate) fn check_of(r: &Record) -> Option<Check> {
    r.check.or(r.verified.then_some(Check::KnownAnswer))
}

pub(crate) fn range(spread: Spread) -> Option<[u64; 2]> {
    match spread {
        Spread::Range { min, max } => Some([min, max]),
        Spread::Exact | Spread::Unknown => None,
    }
}

fn phase_change(a: &Record, pa: Option<&Phase>, b: &Record, pb: Option<&Phase>, name: &str) -> Change {
    let sa = pa.map(|p| stats::phase_spread(a, p));
    let sb = pb.map(|p| stats::phase_spread(b, p));
    let (ca, cb) = (pa.map(|p| p.cycles), pb.map(|p| p.cycles));
    Change {
        phase: name.to_owned(),
        a: ca,
        b: cb,
        a_range: sa.and_then(range),
        b_range: sb.and_then(range),
        ratio: ca.zip(cb).and_then(|(x, y)| stats::ratio(x, y)),
        verdict: match (ca, sa, cb, sb) {
            (Some(x), Some(sx), Some(y), Some(sy)) => Some(stats::judge(x, sx, y, sy)),
            _ => None,
        },
    }
}

fn row(key: Key, a: &Record, b: &Record) -> Row {
    let no_counts = [NoCounts::of(a), NoCounts::of(b)];
    let checks = [check_of(a), check_of(b)];
    let varies = a.varies_between_runs().or(b.varies_between_runs()).map(str::to_owned);
    let note = match &no_counts {
        [None, None] => None,
        [Some(na), Some(nb)] if na == nb => Some(format!("A and B: {na}")),
        [na, nb] => Some(
            [
                na.as_ref().map(|n| format!("A: {n}")),
                nb.as_ref().map(|n| format!("B: {n}")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; "),
        ),
    };
    if note.is_some() {
        return Row {
            key,
            line_a: a.line,
            line_b: b.line,
            sweep_a: a.sweep_index(),
            sweep_b: b.sweep_index(),
            total: None,
            phases: Vec::new(),
            note,
            no_counts,
            checks,
            varies,
        };
    }
    let (phases_a, phases_b) = (a.phases(), b.phases());
    let mut names: Vec<&str> = phases_a.iter().map(|p| p.name.as_str()).collect();
    for p in &phases_b {
        if !names.contains(&p.name.as_str()) {
            names.push(&p.name);
        }
    }
    let find = |phases: &[Phase], name: &str| phases.iter().find(|p| p.name == name).cloned();
    let phases = names
        .iter()
        .map(|name| {
            phase_change(
                a,
                find(&phases_a, name).as_ref(),
                b,
                find(&phases_b, name).as_ref(),
                name,
            )
        })
        .collect();
    let total = match (a.total_cycles, b.total_cycles) {
        (Some(ta), Some(tb)) => {
            let (sa, sb) = (stats::total_spread(a), stats::total_spread(b));
            Some(Change {
                phase: String::from("total"),
                a: Some(ta),
                b: Some(tb),
                a_range: range(sa),
                b_range: range(sb),
                ratio: stats::ratio(ta, tb),
                verdict: Some(stats::judge(ta, sa, tb, sb)),
            })
        }
        _ => None,
    };
    Row {
        key,
        line_a: a.line,
        line_b: b.line,
        sweep_a: a.sweep_index(),
        sweep_b: b.sweep_index(),
        total,
        phases,
        note: None,
        no_counts,
        checks,
        varies,
    }
}

impl Comparison {
    /// Matches the benchmarks of `a` and `b` and judges every change.
    pub fn build(a: &Results, b: &Results) -> Self {
        let keyed_a = keyed(a);
        let mut keyed_b: Vec<Option<(Key, &Record)>> = keyed(b).into_iter().map(Some).collect();
        let index_b: HashMap<Key, usize> = keyed_b
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|(k, _)| (k.clone(), i)))
            .collect();
        let mut rows = Vec::new();
        let mut only_a = Vec::new();
        for (key, ra) in keyed_a {
            match index_b.get(&key).and_then(|&i| keyed_b[i].take()) {
                Some((_, rb)) => rows.push(row(key, ra, rb)),
                None => only_a.push(Unmatched::new(key, ra)),
            }
        }
        let only_b = keyed_b
            .into_iter()
            .flatten()
            .map(|(key, r)| Unmatched::new(key, r))
            .collect();
        // Largest change of the total first; rows without totals last, in file order.
        let size = |r: &Row| {
            r.total
                .as_ref()
                .and_then(|t| Some(stats::change_size(t.a?, t.b?)))
                .unwrap_or(-1.0)
        };
        rows.sort_by(|x, y| size(y).total_cmp(&size(x)));
        let (a, b) = (describe(a), describe(b));
        let notes = notes(&a, &b);
        Self {
            a,
            b,
            rows,
            only_a,
            only_b,
            notes,
        }
    }

    /// Counts of verdicts of the totals, in words.
    fn summary(&self) -> String {
        let count = |v: Verdict| {
            self.rows
                .iter()
                .filter(|r| r.total.as_ref().and_then(|t| t.verdict) == Some(v))
                .count()
        };
        let uncompared = self.rows.iter().filter(|r| r.total.is_none()).count();
        format!(
            "{} benchmarks matched: {} changed beyond the spread, {} within the spread, {} not judged, {} unchanged, \
             {} without counts on a side; {} only in A, {} only in B",
            self.rows.len(),
            count(Verdict::Changed),
            count(Verdict::WithinSpread),
            count(Verdict::NotJudged),
            count(Verdict::Unchanged),
            uncompared,
            self.only_a.len(),
            self.only_b.len()
        )
    }

    fn run_line(label: &str, run: &Run) -> String {
        let accuracy = match run.cycle_accurate {
            Some(true) => "cycle-accurate",
            Some(false) => "NOT cycle-accurate",
            None => "cycle accuracy unknown",
        };
        format!(
            "{label}: {} ({} on {}, {accuracy}, firmware {})",
            run.path, run.platform, run.target, run.firmware_revision
        )
    }

    /// A table for the terminal: one row per benchmark, its total and phases on lines.
    pub fn table(&self) -> String {
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED).set_header([
            "where",
            "benchmark",
            "dataset, configuration",
            "phase",
            "A",
            "B",
            "B/A",
            "verdict",
        ]);
        for r in &self.rows {
            let changes: Vec<&Change> = r.total.iter().chain(&r.phases).collect();
            let lines = |f: &dyn Fn(&Change) -> String| changes.iter().map(|c| f(c)).collect::<Vec<_>>().join("\n");
            let number = |text: String| Cell::new(text).set_alignment(CellAlignment::Right);
            table.add_row(vec![
                Cell::new(location(r)),
                Cell::new(&r.key.benchmark),
                Cell::new(description(&r.key)),
                Cell::new(lines(&|c| c.phase.clone())),
                number(lines(&|c| count(c.a, c.a_range))),
                number(lines(&|c| count(c.b, c.b_range))),
                number(lines(&|c| ratio(c.ratio))),
                // A benchmark without counts says why where the verdict would be.
                Cell::new(r.note.clone().unwrap_or_else(|| lines(&|c| verdict(c.verdict)))),
            ]);
        }
        let mut out = String::new();
        let _ = writeln!(out, "{}", Self::run_line("A", &self.a));
        let _ = writeln!(out, "{}", Self::run_line("B", &self.b));
        let _ = writeln!(out, "{table}");
        self.unmatched_lines(&mut out, "");
        let _ = writeln!(out, "{}", self.summary());
        for note in &self.notes {
            let _ = writeln!(out, "note: {note}");
        }
        out
    }

    fn unmatched_lines(&self, out: &mut String, bullet: &str) {
        for (side, list) in [("A", &self.only_a), ("B", &self.only_b)] {
            for u in list {
                let _ = writeln!(
                    out,
                    "{bullet}only in {side}: {} {} {}",
                    u.location(),
                    u.key.benchmark,
                    description(&u.key)
                );
            }
        }
    }

    /// A Markdown table, one row per benchmark and phase, with the notes below.
    pub fn markdown(&self) -> String {
        let cell = |t: &str| t.replace('|', "\\|");
        let mut out = String::from("# cyclebench compare\n\n");
        let _ = writeln!(out, "- {}", cell(&Self::run_line("A", &self.a)));
        let _ = writeln!(out, "- {}\n", cell(&Self::run_line("B", &self.b)));
        out.push_str("| where | benchmark | dataset, configuration | phase | A | B | B/A | verdict |\n");
        out.push_str("|---|---|---|---|--:|--:|--:|---|\n");
        for r in &self.rows {
            let head = [location(r), r.key.benchmark.clone(), description(&r.key)].map(|t| cell(&t));
            if let Some(note) = &r.note {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | | | | | {} |",
                    head[0],
                    head[1],
                    head[2],
                    cell(note)
                );
                continue;
            }
            for (i, c) in r.total.iter().chain(&r.phases).enumerate() {
                // The benchmark's columns are filled on its first (total) line only.
                let [w, b, d] = if i == 0 { head.clone() } else { Default::default() };
                let phase = if c.phase == "total" {
                    String::from("**total**")
                } else {
                    cell(&c.phase)
                };
                let _ = writeln!(
                    out,
                    "| {w} | {b} | {d} | {phase} | {} | {} | {} | {} |",
                    count(c.a, c.a_range),
                    count(c.b, c.b_range),
                    ratio(c.ratio),
                    verdict(c.verdict)
                );
            }
        }
        out.push('\n');
        self.unmatched_lines(&mut out, "- ");
        let _ = writeln!(out, "\n{}.\n", self.summary());
        for note in &self.notes {
            let _ = writeln!(out, "- {}", cell(note));
        }
        out
    }

    /// One CSV row per benchmark and phase (`total` included).
    pub fn csv(&self) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "file",
            "line_a",
            "line_b",
            "benchmark",
            "dataset",
            "config",
            "request",
            "phase",
            "a",
            "b",
            "ratio",
            "a_min",
            "a_max",
            "b_min",
            "b_max",
            "verdict",
            "note",
        ])?;
        let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        for r in &self.rows {
            let key = [
                r.key.file.clone(),
                r.line_a.to_string(),
                r.line_b.to_string(),
                r.key.benchmark.clone(),
                r.key.dataset.clone().unwrap_or_default(),
                r.key.config.clone().unwrap_or_default(),
                r.key.request.clone(),
            ];
            if let Some(note) = &r.note {
                let mut record = key.to_vec();
                record.extend(std::iter::repeat_n(String::new(), 9));
                record.push(note.clone());
                w.write_record(&record)?;
            }
            for c in r.total.iter().chain(&r.phases) {
                let mut record = key.to_vec();
                record.extend([
                    c.phase.clone(),
                    opt(c.a),
                    opt(c.b),
                    c.ratio.map(|x| format!("{x:.4}")).unwrap_or_default(),
                    opt(c.a_range.map(|[lo, _]| lo)),
                    opt(c.a_range.map(|[_, hi]| hi)),
                    opt(c.b_range.map(|[lo, _]| lo)),
                    opt(c.b_range.map(|[_, hi]| hi)),
                    c.verdict.map(|v| v.name().to_owned()).unwrap_or_default(),
                    String::new(),
                ]);
                w.write_record(&record)?;
            }
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }
}

fn notes(a: &Run, b: &Run) -> Vec<String> {
    let mut notes = vec![
        String::from(
            "matched by (file name, benchmark, dataset, configuration, request text); the k-th identical line \
             matches the k-th",
        ),
        String::from(
            "CHANGED: outside the min..max of the repetitions on both sides (a total's range is the sum of its \
             phases' ranges, which contains every repetition's total), or any difference between single runs \
             on a cycle-accurate target, whose counts are exact",
        ),
    ];
    let labels = ["A", "B"];
    match (&a.compilers, &b.compilers) {
        (Some(ca), Some(cb)) => {
            if let Some(difference) = Compilers::difference(ca, cb, labels) {
                notes.push(format!(
                    "A and B were built by different compilers ({difference}): a change may come from the \
                     compilers rather than from the code"
                ));
            }
        }
        _ => {
            let sides = without_compilers(a, b, labels).unwrap_or_default();
            notes.push(format!(
                "compiler unknown for {sides}: the results do not name the compilers that built the image \
                 (results from before cyclebench recorded them, a board, or an image given with --firmware); \
                 the compilers were not compared"
            ));
        }
    }
    let who = match (a.cycle_accurate == Some(true), b.cycle_accurate == Some(true)) {
        (true, true) => return notes,
        (false, true) => format!("A ({}) is", a.platform),
        (true, false) => format!("B ({}) is", b.platform),
        (false, false) if a.platform == b.platform => format!("A and B ({}) are", a.platform),
        (false, false) => format!("A ({}) and B ({}) are", a.platform, b.platform),
    };
    notes.push(format!(
        "{who} not cycle-accurate: the counts are not clock cycles, and a change involving a single run there \
         is not judged (its spread was not measured)"
    ));
    notes
}

fn location(r: &Row) -> String {
    let (a, b) = (line_label(r.line_a, r.sweep_a), line_label(r.line_b, r.sweep_b));
    if a == b {
        format!("{}:{a}", r.key.file)
    } else {
        format!("{}:{a}/{b}", r.key.file)
    }
}

fn description(key: &Key) -> String {
    [key.dataset.as_deref(), key.config.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A count with its measured range, e.g. `25851 [25850..25900]`; nothing when absent.
fn count(value: Option<u64>, range: Option<[u64; 2]>) -> String {
    match (value, range) {
        (Some(v), Some([lo, hi])) if lo != hi => format!("{v} [{lo}..{hi}]"),
        (Some(v), _) => v.to_string(),
        (None, _) => String::new(),
    }
}

fn ratio(r: Option<f64>) -> String {
    r.map(|r| format!("{r:.3}")).unwrap_or_default()
}

fn verdict(v: Option<Verdict>) -> String {
    v.map(|v| v.words().to_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_match_whatever_their_spacing_and_key_order() {
        let hash = cyclebench_protocol::BenchmarkKind::Hash.name();
        assert_eq!(
            canonical(&format!(r#"{{"{hash}": {{"dataset": "abc", "algorithm": "sha2"}}}}"#)),
            canonical(&format!(r#"{{"{hash}":{{"algorithm":"sha2","dataset":"abc"}}}}"#))
        );
        assert_eq!(canonical(" not json "), "not json");
    }

    #[test]
    fn a_count_shows_its_range_only_when_it_varied() {
        assert_eq!(count(Some(5), Some([4, 9])), "5 [4..9]");
        assert_eq!(count(Some(5), Some([5, 5])), "5");
        assert_eq!(count(None, None), "");
    }

    /// The records of a swept line: one request per length, `total` cycles each.
    fn swept(lengths: &[u64], total: impl Fn(u64) -> u64) -> Results {
        let kind = cyclebench_protocol::BenchmarkKind::Micro.name();
        let records = lengths
            .iter()
            .enumerate()
            .map(|(i, &length)| {
                let request = format!(r#"{{"{kind}": {{"length": {length}}}}}"#);
                let text = serde_json::json!({
                    "status": "ok", "file": "benchmarks/lengths.bench", "line": 2, "request": request,
                    "benchmark": kind, "cycle_accurate": true, "phases": {"run": total(length)},
                    "total_cycles": total(length),
                    "sweep": {"index": i + 1, "of": lengths.len(), "values": {"length": length}},
                });
                crate::results::parse(&text.to_string()).unwrap()
            })
            .collect();
        Results {
            dir: PathBuf::from("."),
            file: PathBuf::from("results.jsonl"),
            records,
            skipped: Vec::new(),
        }
    }

    #[test]
    fn the_requests_of_a_swept_line_match_one_by_one() {
        let a = swept(&[16, 64, 256], |l| 100 + l);
        let b = swept(&[64, 256, 1024], |l| if l == 256 { 400 } else { 100 + l });
        let c = Comparison::build(&a, &b);
        assert_eq!(c.rows.len(), 2);
        // The changed one first, named by its place in each run's sweep.
        assert_eq!(location(&c.rows[0]), "lengths.bench:2[3]/2[2]");
        assert_eq!(c.rows[0].total.as_ref().unwrap().b, Some(400));
        assert_eq!(location(&c.rows[1]), "lengths.bench:2[2]/2[1]");
        assert_eq!((c.only_a.len(), c.only_b.len()), (1, 1));
        assert_eq!(c.only_a[0].sweep, Some(1));
        assert!(c.table().contains("only in B: lengths.bench:2[3] "), "{}", c.table());
    }

    #[test]
    fn compilers_come_from_run_json_else_from_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let record = |rustc: Value, clang: Value| {
            let kind = cyclebench_protocol::BenchmarkKind::Micro.name();
            let text = serde_json::json!({
                "status": "ok", "file": "a.bench", "line": 1, "request": "{}", "benchmark": kind,
                "phases": {"run": 1}, "total_cycles": 1, "rustc": rustc, "clang": clang,
            });
            crate::results::parse(&text.to_string()).unwrap()
        };
        let mut results = Results {
            dir: dir.path().to_path_buf(),
            file: dir.path().join("results.jsonl"),
            records: vec![record("rustc 1".into(), Value::Null), record(Value::Null, Value::Null)],
            skipped: Vec::new(),
        };
        let named = |rustc: &str, clang: Option<&str>| Compilers {
            rustc: rustc.to_owned(),
            clang: clang.map(str::to_owned),
        };
        // No run.json: the records that name rustc, and no clang among them.
        assert_eq!(Compilers::of(&results), Some(named("rustc 1", None)));
        // A run.json that names rustc wins; one that does not (a board) leaves the records.
        let write = |rustc: Value| {
            let meta = serde_json::json!({"target": "t", "rustc": rustc, "clang": "clang 2", "image_sha256": null});
            std::fs::write(dir.path().join(RUN_JSON), meta.to_string()).unwrap();
        };
        write("rustc 3".into());
        assert_eq!(Compilers::of(&results), Some(named("rustc 3", Some("clang 2"))));
        write(Value::Null);
        assert_eq!(Compilers::of(&results), Some(named("rustc 1", None)));
        results.records.remove(0);
        assert_eq!(Compilers::of(&results), None);
    }

    #[test]
    fn the_report_names_other_compilers_and_unknown_ones() {
        let c = |rustc: &str| Compilers {
            rustc: rustc.to_owned(),
            clang: Some(String::from("clang 14")),
        };
        assert_eq!(Compilers::difference(&c("rustc 1"), &c("rustc 1"), ["A", "B"]), None);
        assert_eq!(
            Compilers::difference(&c("rustc 1"), &c("rustc 2"), ["A", "B"]).as_deref(),
            Some("rustc 1 in A, rustc 2 in B")
        );
        let run = |compilers: Option<Compilers>| Run {
            path: String::from("r"),
            target: String::from("ibex-sim"),
            platform: String::from("ibex"),
            cycle_accurate: Some(true),
            firmware_revision: String::from("v1"),
            compilers,
        };
        let differ = notes(&run(Some(c("rustc 1"))), &run(Some(c("rustc 2"))));
        assert!(
            differ
                .iter()
                .any(|n| n.starts_with("A and B were built by different compilers (rustc 1 in A, rustc 2 in B)")),
            "{differ:?}"
        );
        let unknown = notes(&run(Some(c("rustc 1"))), &run(None));
        assert!(
            unknown.iter().any(|n| n.starts_with("compiler unknown for B:")),
            "{unknown:?}"
        );
        let alike = notes(&run(Some(c("rustc 1"))), &run(Some(c("rustc 1"))));
        assert!(!alike.iter().any(|n| n.contains("compiler")), "{alike:?}");
    }
}
