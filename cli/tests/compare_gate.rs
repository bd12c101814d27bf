//! `cyclebench compare BASE NEW --fail-above PCT` as a pull request's gate: the real binary on
//! two results directories the tests write, as two runs on a cycle-accurate target leave them.

mod common;

use std::path::Path;
use std::process::Output;

use serde_json::json;

use common::{cyclebench, text};

const RUSTC: &str = "rustc 1.95.0 (59807616e 2026-04-14)";
const CLANG: &str = "Debian clang version 14.0.6";

/// A results directory holding line 3 of `sha256.bench` with these `input` and `finish`
/// cycles, and line 4 unchanged whatever the run, each checked against a known answer on an
/// image built by [`RUSTC`] and [`CLANG`].
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
            "firmware_revision": "0123456789ab", "verified": true, "check": "known_answer",
            "rustc": RUSTC, "clang": CLANG,
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

/// Changes every record of the results directory `dir` with `change`.
fn rewrite(dir: &Path, change: impl Fn(&mut serde_json::Value)) {
    let file = dir.join("results.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|line| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            change(&mut record);
            record.to_string()
        })
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
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

#[test]
fn a_check_weakened_in_new_fails_both_gates_by_name() {
    let (base, new) = (run(2000, 1000), run(2000, 1000));
    rewrite(new.path(), |record| {
        if record["line"] == 4 {
            record["check"] = json!("unverified");
            record["verified"] = json!(false);
        }
    });
    for (options, closing) in [
        (&["--fail-above", "0"][..], "no phase grew more than 0%"),
        (&["--fail-on-change"][..], "no phase changed"),
    ] {
        let o = compare(base.path(), new.path(), options);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert_eq!(
            stderr(&o),
            format!(
                "sha256.bench:4: check weakened: known-answer in BASE, unverified in NEW\n\
                 compare: {closing}, but 1 benchmark checked less strictly in NEW: failing\n"
            )
        );
    }
}

#[test]
fn other_compilers_fail_fail_on_change_and_are_a_warning_under_fail_above() {
    let (base, new) = (run(2000, 1000), run(2000, 1000));
    // run.json names the compilers; its records are the fallback.
    let newer = "rustc 1.96.0 (0123456789 2026-05-28)";
    let meta = json!({"target": "ibex-sim", "rustc": newer, "clang": CLANG, "image_sha256": "ab"});
    std::fs::write(new.path().join("run.json"), meta.to_string()).unwrap();
    let o = compare(base.path(), new.path(), &["--fail-on-change"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "compilers differ: {RUSTC} in BASE, {newer} in NEW\n\
             compare: no phase changed, but BASE and NEW were built by different compilers: failing\n"
        )
    );
    let o = compare(base.path(), new.path(), &["--fail-above", "0"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!("warning: compilers differ: {RUSTC} in BASE, {newer} in NEW;"))
            && err.ends_with("\ncompare: no phase grew more than 0%\n"),
        "{}",
        text(&o)
    );
    // The comparison itself names both.
    let o = compare(base.path(), new.path(), &[]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(&format!(
            "A and B were built by different compilers ({RUSTC} in A, {newer} in B)"
        )),
        "{}",
        text(&o)
    );
}

#[test]
fn results_that_name_no_compiler_say_so_and_pass() {
    let (base, new) = (run(2000, 1000), run(2000, 1000));
    rewrite(base.path(), |record| {
        let record = record.as_object_mut().unwrap();
        record.remove("rustc");
        record.remove("clang");
    });
    for options in [&["--fail-above", "0"][..], &["--fail-on-change"][..]] {
        let o = compare(base.path(), new.path(), options);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(stderr(&o).starts_with("compiler unknown in BASE:"), "{}", text(&o));
    }
    let o = compare(base.path(), new.path(), &[]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("note: compiler unknown for A:"),
        "{}",
        text(&o)
    );
}
