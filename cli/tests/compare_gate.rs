//! `cyclebench compare BASE NEW --fail-above PCT` as a pull request's gate: the real binary on
//! two results directories the tests write, as two runs on a cycle-accurate target leave them.

mod common;

use std::path::Path;
use std::process::Output;

use serde_json::json;

use common::{cyclebench, text};

/// A results directory holding line 3 of `sha256.bench` with these `input` and `finish`
/// cycles, and line 4 unchanged whatever the run.
fn run(input: u64, finish: u64) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
    let record = |line: u64, dataset: &str, phases: &[(&str, u64)]| {
        let counts: serde_json::Map<String, serde_json::Value> = phases
            .iter()
            .map(|&(name, cycles)| (name.to_owned(), cycles.into()))
            .collect();
        json!({
            "status": "ok", "target": "ibex-sim", "platform": "ibex-sim", "file": "impl/mysha/sha256.bench",
            "line": line, "request": format!(r#"{{"{kind}": {{"algorithm": "sha2", "dataset": "{dataset}"}}}}"#),
            "benchmark": kind, "dataset": dataset, "config": "sha2", "cycle_accurate": true,
            "repetitions": 1, "phases": counts,
            "total_cycles": phases.iter().map(|&(_, cycles)| cycles).sum::<u64>(),
            "firmware_revision": "0123456789ab",
        })
        .to_string()
    };
    let lines = [
        record(3, "msg-256", &[("init", 40), ("input", input), ("finish", finish)]),
        record(4, "abc", &[("init", 40), ("input", 300), ("finish", 900)]),
    ];
    std::fs::write(dir.path().join("results.jsonl"), lines.join("\n") + "\n").unwrap();
    dir
}

fn compare(base: &Path, new: &Path, options: &[&str]) -> Output {
    let mut args = vec!["compare", base.to_str().unwrap(), new.to_str().unwrap()];
    args.extend_from_slice(options);
    cyclebench(&args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn identical_runs_pass_with_no_margin() {
    let (base, new) = (run(2000, 1000), run(2000, 1000));
    let o = compare(base.path(), new.path(), &["--fail-above", "0"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(stderr(&o), "compare: no phase grew more than 0%\n");
    // The comparison is printed as without the gate.
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("2 benchmarks matched"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_grown_phase_fails_naming_the_benchmark_and_the_phase() {
    let (base, new) = (run(2000, 1000), run(2000, 1030));
    let o = compare(base.path(), new.path(), &["--fail-above", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        stderr(&o),
        "sha256.bench:3: total grew from 3040 to 3070 cycles (+0.99%)\n\
         sha256.bench:3: finish grew from 1000 to 1030 cycles (+3.00%)\n\
         compare: 2 phases grew more than 0%: failing\n"
    );
    // Above the total's growth, below the phase's: the phase alone fails.
    let o = compare(base.path(), new.path(), &["--fail-above", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o)
            .ends_with("finish grew from 1000 to 1030 cycles (+3.00%)\ncompare: 1 phase grew more than 1%: failing\n"),
        "{}",
        text(&o)
    );
    // Without the gate, a change is no failure.
    let o = compare(base.path(), new.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_growth_below_the_limit_passes() {
    let (base, new) = (run(2000, 1000), run(2000, 1030));
    let o = compare(base.path(), new.path(), &["--fail-above", "3", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(stderr(&o), "compare: no phase grew more than 3%\n");
    // The gate writes to stderr only: what stdout holds still parses.
    serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();
}

#[test]
fn a_limit_that_is_not_a_number_of_at_least_0_is_refused() {
    let (base, new) = (run(2000, 1000), run(2000, 1000));
    for bad in ["-1", "NaN", "two"] {
        let o = compare(base.path(), new.path(), &["--fail-above", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o));
        assert!(
            stderr(&o).contains(&format!("invalid value '{bad}' for '--fail-above <PCT>'")),
            "{bad}: {}",
            text(&o)
        );
    }
}
