//! What the history page shows, worked out from runs already put in order: which record is
//! the same benchmark in every run (paired as `compare` pairs two runs), its counts run by
//! run, and what the gate says of each step from one run to the next.
//!
//! The marks are the gate's own findings: every step is judged by `compare`'s comparison and
//! gate of its two runs, so the page marks exactly what `compare BASE NEW --fail-above PCT`
//! would fail, in the words it would print.

use std::collections::HashMap;

use serde::Serialize;

use crate::compare::gate::{self, Finding, Rule};
use crate::compare::{self, Comparison, Key};
use crate::report::stats;
use crate::results::{Record, Results, Status};

/// The counts of one run of a benchmark, for the charts: the count (a repeated count's
/// median) and, when repeated, its range over the repetitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// Cycles.
    pub value: u64,
    /// `[min, max]` over the repetitions, when they differ.
    pub range: Option<[u64; 2]>,
}

/// One cell of a benchmark's table: one count (or outcome) in one run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Cell {
    /// The count, or the outcome in words; empty when the run has neither.
    pub text: String,
    /// What else the cell says: a repeated count's range, an error or a reason.
    pub detail: Option<String>,
    /// The change from the previous run's count, in percent (`+3.00%`, `-1.20%`).
    pub change: Option<String>,
    /// Whether the gate fails the step into this run on this count or outcome.
    pub fails: bool,
}

/// One line of a benchmark's table: its total, a phase, or its outcome, run by run.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// `total`, a phase's name, or `outcome`.
    pub name: String,
    /// One cell per run.
    pub cells: Vec<Cell>,
    /// The counts, per run, for the chart; empty for the outcome line.
    #[serde(skip)]
    pub points: Vec<Option<Point>>,
}

impl Line {
    /// Runs (0-based) into which the gate fails a step on this line.
    pub fn failing_runs(&self) -> Vec<usize> {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.fails)
            .map(|(i, _)| i)
            .collect()
    }
}

/// What the gate says of a step from one run to the next.
#[derive(Clone, Debug, Serialize)]
pub struct Mark {
    /// 1-based number of the earlier run of the step.
    pub from: usize,
    /// 1-based number of the later run.
    pub to: usize,
    /// The benchmark's index in [`History::benchmarks`]; `None` for the runs as a whole.
    pub benchmark: Option<usize>,
    /// The gate's line, as `compare` prints it (BASE the earlier run, NEW the later).
    pub text: String,
    /// Whether it fails the gate.
    pub fails: bool,
}

/// What the gate says at one or more steps without failing them, said once.
#[derive(Clone, Debug, Serialize)]
pub struct Note {
    /// The steps, e.g. `run 2 → 3` or `runs 1 → 2 → 3, 5 → 6`.
    pub steps: String,
    /// The benchmark's index in [`History::benchmarks`]; `None` for the runs as a whole.
    pub benchmark: Option<usize>,
    /// The gate's line, as `compare` prints it.
    pub text: String,
}

/// Steps (each `(from, to)`, `to = from + 1`, in order) in words: runs in a row as one chain,
/// a chain of more than three steps by its ends.
fn steps_text(steps: &[(usize, usize)]) -> String {
    let mut chains: Vec<(usize, usize)> = Vec::new();
    for &(from, to) in steps {
        match chains.last_mut() {
            Some(last) if last.1 == from => last.1 = to,
            _ => chains.push((from, to)),
        }
    }
    let words: Vec<String> = chains
        .iter()
        .map(|&(from, to)| match to - from {
            1..=3 => (from..=to).map(|r| r.to_string()).collect::<Vec<_>>().join(" → "),
            n => format!("{from} → … → {to} ({n} steps)"),
        })
        .collect();
    let runs = if steps.len() == 1 { "run" } else { "runs" };
    format!("{runs} {}", words.join(", "))
}

/// One benchmark across the runs.
#[derive(Clone, Debug, Serialize)]
pub struct Benchmark {
    /// Its anchor on the page.
    pub id: String,
    /// The `.bench` file name.
    pub file: String,
    /// `file.bench:line` (with `[k]` in a sweep) of its latest record.
    pub location: String,
    /// Its kind.
    pub benchmark: String,
    /// Dataset and configuration in words.
    pub description: String,
    /// Why its counts differ between runs of the same image, when they do.
    pub varies: Option<String>,
    /// The total, then each phase in the order the runs measured them, then the outcome.
    pub lines: Vec<Line>,
    /// What the gate says of it, step by step: failing marks and notes alike.
    pub marks: Vec<Mark>,
    /// Whether any step fails the gate on it.
    pub fails: bool,
}

/// Benchmarks of one `.bench` file.
#[derive(Clone, Debug, Serialize)]
pub struct File {
    /// The file name.
    pub name: String,
    /// Indices into [`History::benchmarks`], in line order.
    pub benchmarks: Vec<usize>,
}

/// The benchmarks of all runs with the gate's marks.
#[derive(Clone, Debug, Serialize)]
pub struct History {
    /// Every benchmark any run has.
    pub benchmarks: Vec<Benchmark>,
    /// The benchmarks grouped by file, files in order of first appearance.
    pub files: Vec<File>,
    /// Every step the gate would fail, step by step, each with what fails it.
    pub failing: Vec<Mark>,
    /// What the gate says of the steps without failing them (compilers that differ, counts
    /// that vary and are not held, benchmarks new in a run), each line once with its steps.
    pub noted: Vec<Note>,
}

/// The record of each key in one run.
fn by_key(results: &Results) -> HashMap<Key, &Record> {
    compare::keyed(results).into_iter().collect()
}

/// The keys of all runs, each once: grouped by file in order of first appearance, and within
/// a file by the place of its latest record (line, then the request of a sweep).
fn benchmark_keys(runs: &[&Results]) -> Vec<Key> {
    let mut keys: Vec<Key> = Vec::new();
    let mut latest: HashMap<Key, (usize, u64)> = HashMap::new();
    for run in runs {
        for (key, record) in compare::keyed(run) {
            if !latest.contains_key(&key) {
                keys.push(key.clone());
            }
            latest.insert(key, (record.line, record.sweep_index().unwrap_or(0)));
        }
    }
    let mut files: Vec<String> = Vec::new();
    for key in &keys {
        if !files.contains(&key.file) {
            files.push(key.file.clone());
        }
    }
    let file_rank = |k: &Key| files.iter().position(|f| *f == k.file).unwrap_or(usize::MAX);
    keys.sort_by_key(|k| (file_rank(k), latest[k], k.occurrence));
    keys
}

/// A count in one run: its text, its range when repeated, and the point to chart.
fn count_cell(value: u64, range: Option<[u64; 2]>, varies: bool) -> (Cell, Point) {
    let range = range.filter(|[lo, hi]| lo != hi);
    let cell = match (range, varies) {
        // A count that varies between runs is its range: its median alone would read as a
        // change where there is only variation.
        (Some([lo, hi]), true) => Cell {
            text: format!("{lo}..{hi}"),
            detail: Some(format!("median {value}")),
            ..Cell::default()
        },
        (Some([lo, hi]), false) => Cell {
            text: value.to_string(),
            detail: Some(format!("{lo}..{hi}")),
            ..Cell::default()
        },
        (None, _) => Cell {
            text: value.to_string(),
            ..Cell::default()
        },
    };
    (cell, Point { value, range })
}

/// The change from `base` to `new` cycles in percent, as the gate words a growth.
fn change_text(base: u64, new: u64) -> Option<String> {
    if new > base {
        return Some(match gate::growth(base, new) {
            Some(g) if g.is_finite() => gate::growth_text(g),
            _ => String::from("from 0"),
        });
    }
    if new == base || base == 0 {
        return None;
    }
    let shrink = (u128::from(base - new) * 100) as f64 / base as f64;
    Some(if shrink >= 0.005 {
        format!("-{shrink:.2}%")
    } else {
        String::from("-<0.01%")
    })
}

/// One count of a record: the total or a phase.
struct Count {
    /// `total` or the phase's name.
    name: String,
    /// Cycles (a repeated count's median).
    value: u64,
    /// `[min, max]` over the repetitions, when repeated.
    range: Option<[u64; 2]>,
}

/// The total's and each phase's count of `record`.
fn counts(record: &Record) -> Vec<Count> {
    let mut found = Vec::new();
    if let Some(total) = record.total_cycles {
        found.push(Count {
            name: String::from("total"),
            value: total,
            range: compare::range(stats::total_spread(record)),
        });
    }
    for phase in record.phases() {
        let range = compare::range(stats::phase_spread(record, &phase));
        found.push(Count {
            name: phase.name,
            value: phase.cycles,
            range,
        });
    }
    found
}

/// How a run ended for a benchmark, in words: the check of a measured record, else its
/// status, with the error or reason.
fn outcome(record: Option<&Record>) -> Cell {
    let Some(r) = record else {
        return Cell {
            text: String::from("missing"),
            ..Cell::default()
        };
    };
    match r.status {
        Status::Ok => Cell {
            text: gate::check_name(compare::check_of(r)).to_owned(),
            ..Cell::default()
        },
        Status::Error => Cell {
            text: String::from("error"),
            detail: r.error.clone(),
            ..Cell::default()
        },
        Status::Unsupported => Cell {
            text: String::from("unsupported"),
            detail: r.reason.clone(),
            ..Cell::default()
        },
    }
}

/// The lines of one benchmark's table from its record in each run (`None`: not in that run).
fn lines(records: &[Option<&Record>], varies: bool) -> Vec<Line> {
    let mut names: Vec<String> = Vec::new();
    let per_run: Vec<Vec<Count>> = records
        .iter()
        .map(|r| r.filter(|r| r.status == Status::Ok).map(counts).unwrap_or_default())
        .collect();
    for count in per_run.iter().flatten() {
        if !names.contains(&count.name) {
            names.push(count.name.clone());
        }
    }
    let mut lines: Vec<Line> = names
        .into_iter()
        .map(|name| {
            let mut cells = Vec::new();
            let mut points = Vec::new();
            let mut previous: Option<u64> = None;
            for run in &per_run {
                match run.iter().find(|c| c.name == name) {
                    Some(&Count { value, range, .. }) => {
                        let (mut cell, point) = count_cell(value, range, varies);
                        if !varies {
                            cell.change = previous.and_then(|base| change_text(base, value));
                        }
                        previous = Some(value);
                        cells.push(cell);
                        points.push(Some(point));
                    }
                    None => {
                        previous = None;
                        cells.push(Cell::default());
                        points.push(None);
                    }
                }
            }
            Line { name, cells, points }
        })
        .collect();
    lines.push(Line {
        name: String::from("outcome"),
        cells: records.iter().map(|r| outcome(*r)).collect(),
        points: Vec::new(),
    });
    lines
}

/// The line a finding marks (a count's phase, or the outcome) and whether it is about the
/// benchmark at all.
fn marked_line(finding: &Finding) -> Option<&str> {
    match finding {
        Finding::Grew { phase, .. } | Finding::Shrank { phase, .. } | Finding::Moved { phase, .. } => Some(phase),
        Finding::Lost { .. } | Finding::Weakened { .. } => Some("outcome"),
        Finding::Added { .. }
        | Finding::NotHeld { .. }
        | Finding::Compilers { .. }
        | Finding::CompilersUnknown { .. } => None,
    }
}

impl History {
    /// The history of `runs`, in the order given (earliest first), each step judged by `rule`.
    pub fn build(runs: &[&Results], rule: Rule) -> Self {
        let keys = benchmark_keys(runs);
        let index: HashMap<&Key, usize> = keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
        let maps: Vec<HashMap<Key, &Record>> = runs.iter().map(|r| by_key(r)).collect();
        let mut benchmarks: Vec<Benchmark> = keys
            .iter()
            .enumerate()
            .map(|(i, key)| {
                let records: Vec<Option<&Record>> = maps.iter().map(|m| m.get(key).copied()).collect();
                let latest = records
                    .iter()
                    .rev()
                    .flatten()
                    .next()
                    .expect("a key comes from a record");
                let varies = records
                    .iter()
                    .flatten()
                    .find_map(|r| r.varies_between_runs())
                    .map(str::to_owned);
                Benchmark {
                    id: format!("b{}", i + 1),
                    file: key.file.clone(),
                    location: latest.location(),
                    benchmark: key.benchmark.clone(),
                    description: latest.description(),
                    lines: lines(&records, varies.is_some()),
                    varies,
                    marks: Vec::new(),
                    fails: false,
                }
            })
            .collect();
        let (mut failing, mut noted) = (Vec::new(), Vec::new());
        for step in 1..runs.len() {
            let comparison = Comparison::build(runs[step - 1], runs[step]);
            for (key, finding) in gate::findings_by_benchmark(&comparison, rule) {
                let benchmark = key.and_then(|k| index.get(k).copied());
                let mark = Mark {
                    from: step,
                    to: step + 1,
                    benchmark,
                    text: finding.to_string(),
                    fails: finding.fails(),
                };
                if let Some(b) = benchmark.map(|b| &mut benchmarks[b]) {
                    if let Some(line) = marked_line(&finding).filter(|_| mark.fails) {
                        if let Some(l) = b.lines.iter_mut().find(|l| l.name == line) {
                            l.cells[step].fails = true;
                        }
                    }
                    b.fails |= mark.fails;
                    b.marks.push(mark.clone());
                }
                if mark.fails {
                    failing.push(mark);
                } else {
                    noted.push(mark);
                }
            }
        }
        // A board's runs name no compilers at every step: the line is said once, with its steps.
        let mut notes: Vec<(Mark, Vec<(usize, usize)>)> = Vec::new();
        for m in noted {
            let step = (m.from, m.to);
            match notes
                .iter_mut()
                .find(|(first, _)| first.benchmark == m.benchmark && first.text == m.text)
            {
                Some((_, steps)) => steps.push(step),
                None => notes.push((m, vec![step])),
            }
        }
        let noted = notes
            .into_iter()
            .map(|(first, steps)| Note {
                steps: steps_text(&steps),
                benchmark: first.benchmark,
                text: first.text,
            })
            .collect();
        let mut files: Vec<File> = Vec::new();
        for (i, b) in benchmarks.iter().enumerate() {
            match files.iter_mut().find(|f| f.name == b.file) {
                Some(f) => f.benchmarks.push(i),
                None => files.push(File {
                    name: b.file.clone(),
                    benchmarks: vec![i],
                }),
            }
        }
        Self {
            benchmarks,
            files,
            failing,
            noted,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    /// A measured SHA-256 record of line `line` with these phases, checked against a known
    /// answer on a cycle-accurate target.
    fn measured(line: usize, dataset: &str, phases: &[(&str, u64)]) -> Value {
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let counts: serde_json::Map<String, Value> = phases.iter().map(|&(n, c)| (n.to_owned(), c.into())).collect();
        json!({
            "status": "ok", "target": "ibex-sim", "file": "impl/sha256.bench", "line": line,
            "request": format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "{dataset}"}}}}"#),
            "benchmark": kind, "dataset": dataset, "cycle_accurate": true, "phases": counts,
            "total_cycles": phases.iter().map(|&(_, c)| c).sum::<u64>(),
            "verified": true, "check": "known_answer", "rustc": "rustc 1", "clang": "clang 1",
        })
    }

    fn history(runs: &[Vec<Value>], limit: f64) -> History {
        let runs: Vec<Results> = runs.iter().map(|r| Results::of_values(r)).collect();
        let refs: Vec<&Results> = runs.iter().collect();
        History::build(&refs, Rule::GrowAtMost(limit))
    }

    fn line<'h>(h: &'h History, benchmark: usize, name: &str) -> &'h Line {
        h.benchmarks[benchmark]
            .lines
            .iter()
            .find(|l| l.name == name)
            .unwrap_or_else(|| panic!("no line {name}"))
    }

    #[test]
    fn records_pair_as_compare_pairs_them_whatever_their_line() {
        // The same request moved from line 3 to line 5, and its key order changed: one
        // benchmark. A request of another dataset is another benchmark.
        let moved = {
            let mut r = measured(5, "abc", &[("run", 12)]);
            let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
            r["request"] = json!(format!(r#"{{"{kind}":{{"dataset":"abc","algorithm":"sha2"}}}}"#));
            r
        };
        let h = history(
            &[
                vec![measured(3, "abc", &[("run", 10)])],
                vec![moved, measured(6, "msg-256", &[("run", 99)])],
            ],
            0.0,
        );
        assert_eq!(h.benchmarks.len(), 2);
        assert_eq!(h.benchmarks[0].location, "sha256.bench:5");
        let total: Vec<&str> = line(&h, 0, "total").cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(total, ["10", "12"]);
        assert_eq!(
            line(&h, 1, "total").points,
            [None, Some(Point { value: 99, range: None })]
        );
        assert_eq!(h.files.len(), 1);
        assert_eq!(h.files[0].benchmarks, [0, 1]);
    }

    #[test]
    fn a_rise_beyond_the_limit_marks_the_step_and_the_count() {
        let run = |finish| {
            vec![
                measured(3, "abc", &[("init", 40), ("finish", finish)]),
                measured(4, "x", &[("run", 7)]),
            ]
        };
        let h = history(&[run(1000), run(1000), run(1030), run(1031)], 2.0);
        // 1000 → 1030 is +3 %: the step from run 2 to run 3 fails on `finish`; the total,
        // +2.88 %, too. 1030 → 1031 is within 2 %.
        let failing: Vec<(usize, usize, &str)> = h.failing.iter().map(|m| (m.from, m.to, m.text.as_str())).collect();
        assert_eq!(
            failing,
            [
                (2, 3, "sha256.bench:3: total grew from 1040 to 1070 cycles (+2.88%)"),
                (2, 3, "sha256.bench:3: finish grew from 1000 to 1030 cycles (+3.00%)"),
            ]
        );
        assert!(h.benchmarks[0].fails && !h.benchmarks[1].fails);
        assert_eq!(line(&h, 0, "finish").failing_runs(), [2]);
        assert_eq!(line(&h, 0, "total").failing_runs(), [2]);
        assert_eq!(line(&h, 0, "init").failing_runs(), Vec::<usize>::new());
        let finish = &line(&h, 0, "finish").cells;
        assert_eq!(finish[2].change.as_deref(), Some("+3.00%"));
        assert_eq!(finish[3].change.as_deref(), Some("+0.10%"));
        assert_eq!(finish[1].change, None);
        // With no margin, the last step fails too.
        let h = history(&[run(1000), run(1030), run(1031)], 0.0);
        assert_eq!(line(&h, 0, "finish").failing_runs(), [1, 2]);
    }

    #[test]
    fn a_weakened_check_and_a_lost_benchmark_mark_the_outcome() {
        let weaker = {
            let mut r = measured(3, "abc", &[("run", 10)]);
            r["check"] = json!("unverified");
            r["verified"] = json!(false);
            r
        };
        let failed = {
            let mut r = measured(4, "x", &[]);
            r["status"] = json!("error");
            r["error"] = json!("wrong digest");
            r["total_cycles"] = Value::Null;
            r
        };
        let h = history(
            &[
                vec![measured(3, "abc", &[("run", 10)]), measured(4, "x", &[("run", 7)])],
                vec![weaker, failed],
            ],
            0.0,
        );
        let texts: Vec<&str> = h.failing.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "sha256.bench:3: check weakened: known-answer in BASE, unverified in NEW",
                "sha256.bench:4: ok in BASE, error in NEW: wrong digest",
            ]
        );
        let outcome = &line(&h, 0, "outcome").cells;
        assert_eq!(
            (outcome[0].text.as_str(), outcome[1].text.as_str()),
            ("known-answer", "unverified")
        );
        assert!(outcome[1].fails && !outcome[0].fails);
        let lost = &line(&h, 1, "outcome").cells[1];
        assert_eq!(
            (lost.text.as_str(), lost.detail.as_deref(), lost.fails),
            ("error", Some("wrong digest"), true)
        );
        // The lost benchmark's counts stop where it stopped being measured.
        assert_eq!(
            line(&h, 1, "total").points,
            [Some(Point { value: 7, range: None }), None]
        );
    }

    #[test]
    fn counts_that_vary_between_runs_show_as_ranges_and_are_not_flagged_on_noise() {
        let masked = |median: u64, range: Option<(u64, u64)>| {
            let mut r = measured(3, "abc", &[("compute", median)]);
            r["implementation"] = json!("hardware");
            r["implementation_name"] = json!("aes-masked");
            if let Some((min, max)) = range {
                r["statistics"] =
                    json!({"compute": {"n": 10, "min": min, "median": median, "max": max, "mean": median}});
                r["repetitions"] = json!(10);
            }
            r
        };
        // Single runs that differ: not held, only noted.
        let h = history(&[vec![masked(400, None)], vec![masked(406, None)]], 0.0);
        assert!(h.failing.is_empty(), "{:?}", h.failing);
        assert_eq!(h.noted.len(), 1);
        assert!(h.noted[0].text.contains("not held"), "{}", h.noted[0].text);
        assert!(h.benchmarks[0].varies.is_some());
        assert_eq!(line(&h, 0, "compute").cells[1].change, None);
        // Repeated, overlapping ranges: a range each, nothing flagged.
        let h = history(
            &[vec![masked(400, Some((394, 406)))], vec![masked(406, Some((400, 412)))]],
            0.0,
        );
        assert!(h.failing.is_empty() && h.noted.is_empty());
        let compute = &line(&h, 0, "compute").cells;
        assert_eq!(
            (compute[0].text.as_str(), compute[1].text.as_str()),
            ("394..406", "400..412")
        );
        assert_eq!(
            line(&h, 0, "compute").points[1],
            Some(Point {
                value: 406,
                range: Some([400, 412])
            })
        );
        // Ranges wholly apart: the gate holds them, and so does the page.
        let h = history(
            &[vec![masked(400, Some((394, 406)))], vec![masked(450, Some((440, 460)))]],
            0.0,
        );
        assert_eq!(line(&h, 0, "compute").failing_runs(), [1]);
    }

    #[test]
    fn a_note_of_many_steps_is_said_once_with_its_steps() {
        assert_eq!(steps_text(&[(2, 3)]), "run 2 → 3");
        assert_eq!(steps_text(&[(1, 2), (2, 3), (5, 6)]), "runs 1 → 2 → 3, 5 → 6");
        assert_eq!(
            steps_text(&[(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]),
            "runs 1 → … → 6 (5 steps)"
        );
        // Results that name no compiler: one note for all steps.
        let old = |cycles: u64| {
            let mut r = measured(3, "abc", &[("run", cycles)]);
            r["rustc"] = Value::Null;
            r["clang"] = Value::Null;
            vec![r]
        };
        let h = history(&[old(5), old(5), old(5)], 0.0);
        assert_eq!(h.noted.len(), 1, "{:?}", h.noted);
        assert_eq!(h.noted[0].steps, "runs 1 → 2 → 3");
        assert!(
            h.noted[0].text.starts_with("compiler unknown in BASE and NEW"),
            "{}",
            h.noted[0].text
        );
        assert_eq!(h.noted[0].benchmark, None);
    }

    #[test]
    fn changes_are_worded_as_the_gate_words_them() {
        assert_eq!(change_text(1000, 1030).as_deref(), Some("+3.00%"));
        assert_eq!(change_text(1000, 988).as_deref(), Some("-1.20%"));
        assert_eq!(change_text(1_000_000, 999_999).as_deref(), Some("-<0.01%"));
        assert_eq!(change_text(5, 5), None);
        assert_eq!(change_text(0, 5).as_deref(), Some("from 0"));
    }
}
