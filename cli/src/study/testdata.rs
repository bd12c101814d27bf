//! Results directories for the study module's tests: records shaped like the writer's.

use serde_json::{json, Map, Value};

use super::records::Run;

/// A results directory holding `records` (one `results.jsonl` line each) and, if given,
/// `run.json`, loaded as a [`Run`].
pub(super) fn run_of(records: &[Value], meta: Option<Value>) -> (tempfile::TempDir, Run) {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.path().join("results.jsonl"), lines).unwrap();
    if let Some(meta) = meta {
        std::fs::write(dir.path().join("run.json"), meta.to_string()).unwrap();
    }
    let run = Run::load(dir.path()).unwrap();
    (dir, run)
}

/// A measured record of `file` for `request` (`{"<kind>": {...}}`): raw phases as given,
/// corrected ones 6 cycles less.
pub(super) fn ok(file: &str, request: Value, raw: &[(&str, u64)]) -> Value {
    let kind = request
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .unwrap_or_default();
    let raw_phases: Map<String, Value> = raw.iter().map(|&(k, v)| (k.to_owned(), json!(v))).collect();
    let phases: Map<String, Value> = raw.iter().map(|&(k, v)| (k.to_owned(), json!(v - 6))).collect();
    let total: u64 = raw.iter().map(|&(_, v)| v - 6).sum();
    let dataset = request[&kind]["dataset"].clone();
    json!({"status": "ok", "target": "earlgrey-sim-unmasked", "platform": "earlgrey",
        "file": format!("benchmarks/{file}.bench"), "line": 3, "request": request.to_string(),
        "benchmark": kind, "dataset": dataset, "config": "words no study reads",
        "module": "cpu", "implementation": "hardware", "implementation_name": null, "verified": true,
        "check": "known_answer", "cycle_accurate": true, "repetitions": 1, "overhead": 6,
        "phases": phases, "raw_phases": raw_phases, "statistics": null, "total_cycles": total,
        "bytes": null, "cycles_per_byte": null, "fifo": null, "reason": null, "error": null,
        "firmware_revision": "859d4412d912", "timestamp": "2026-11-22T01:53:57+00:00"})
}

/// The first line of `section` (from its `### ` heading to the next) starting with `prefix`.
pub(super) fn line<'a>(out: &'a str, section: &str, prefix: &str) -> &'a str {
    let start = out
        .find(section)
        .unwrap_or_else(|| panic!("no section {section} in\n{out}"));
    let rest = &out[start + section.len()..];
    let body = &rest[..rest.find("\n###").unwrap_or(rest.len())];
    body.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in {section}:\n{body}"))
}
