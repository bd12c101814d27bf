//! `cyclebench compare BASE NEW --fail-above PCT` as a pull request's gate, and `compare A B
//! --identical` as the check that two runs wrote the same: the real binary on results
//! directories the tests write, as runs on a cycle-accurate target leave them.

mod common;

use std::path::Path;
use std::process::Output;

use serde_json::{json, Value};

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

/// The files of a whole run: line 3 and 4 of `sha256.bench` and line 2 of `aes.bench`.
const FILES: [&str; 2] = ["impl/mysha/sha256.bench", "benchmarks/aes.bench"];

/// The records of a whole run, in file order, received at `second` past the minute.
fn whole_records(second: u32) -> Vec<Value> {
    let record = |file: &str, line: u64, kind: &str, phases: Value| {
        let total: u64 = phases.as_object().unwrap().values().filter_map(Value::as_u64).sum();
        json!({
            "status": "ok", "target": "ibex-sim", "platform": "ibex-sim", "file": file, "line": line,
            "request": format!(r#"{{"{kind}": {{"length": {line}}}}}"#), "benchmark": kind,
            "cycle_accurate": true, "phases": phases, "total_cycles": total, "verified": true,
            "check": "known_answer", "attempts": 1, "firmware_revision": "0123456789ab",
            "rustc": RUSTC, "clang": CLANG, "timestamp": format!("2026-11-28T10:00:{second:02}Z"),
        })
    };
    let (hash, aes) = (
        cyclebench_protocol::BenchmarkKind::Hash.name(),
        cyclebench_protocol::BenchmarkKind::Aes.name(),
    );
    vec![
        record(FILES[0], 3, hash, json!({"init": 40, "input": 2000, "finish": 1000})),
        record(FILES[0], 4, hash, json!({"init": 40, "input": 300, "finish": 900})),
        record(FILES[1], 2, aes, json!({"init": 20, "process": 700})),
    ]
}

/// Writes `records` to the results directory `dir`: `results.jsonl`, `results.csv`, and a
/// `.out` file per input file with each request and its reply, in file order whatever the
/// records' order, as a run writes it.
fn write_whole(dir: &Path, records: &[Value]) {
    let jsonl: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join("results.jsonl"), jsonl).unwrap();
    let mut csv = String::from("status,file,line,total_cycles,firmware_revision,sweep\n");
    for r in records {
        csv.push_str(&format!(
            "{},{},{},{},{},\n",
            r["status"].as_str().unwrap(),
            r["file"].as_str().unwrap(),
            r["line"],
            r["total_cycles"],
            r["firmware_revision"].as_str().unwrap()
        ));
    }
    std::fs::write(dir.join("results.csv"), csv).unwrap();
    for (file, out) in FILES.iter().zip(["sha256.out", "aes.out"]) {
        let mut text = format!("# {file}\n");
        let mut mine: Vec<&Value> = records.iter().filter(|r| r["file"] == *file).collect();
        mine.sort_by_key(|r| r["line"].as_u64());
        mine.dedup_by_key(|r| r["line"].as_u64());
        for r in &mine {
            let reply = json!({"benchmark_results": {"measured": {"phases": r["phases"]}}});
            text.push_str(&format!("{}\n=> {reply}\n", r["request"].as_str().unwrap()));
        }
        text.push_str(&format!("# done: {} served, 0 errors\n", mine.len()));
        std::fs::write(dir.join(out), text).unwrap();
    }
    let meta = json!({"target": "ibex-sim", "files": FILES, "wall_seconds": second_of(records)});
    std::fs::write(dir.join("run.json"), meta.to_string()).unwrap();
}

/// A wall time that differs with the records' timestamps, as two runs' do.
fn second_of(records: &[Value]) -> f64 {
    let stamp = records[0]["timestamp"].as_str().unwrap();
    stamp[17..19].parse().unwrap()
}

/// A whole run's results directory, its records received at `second` past the minute.
fn whole_run(second: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_whole(dir.path(), &whole_records(second));
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn two_runs_of_the_same_are_identical_whenever_the_replies_came_and_however_often_sent() {
    let a = whole_run(1);
    let mut records = whole_records(7);
    records[1]["attempts"] = json!(4);
    let b = tempfile::tempdir().unwrap();
    write_whole(b.path(), &records);
    let o = compare(a.path(), b.path(), &["--identical", "--list"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        stderr(&o),
        "compare: identical: 3 records, results.csv and 2 .out files\n"
    );
    assert_eq!(stdout(&o), "");
}

#[test]
fn a_changed_field_a_moved_record_a_duplicate_and_a_missing_out_file_are_each_named() {
    let a = whole_run(1);
    let mut records = whole_records(1);
    records[1]["phases"]["finish"] = json!(901);
    // Line 4 first, line 3 after it, and the AES record twice.
    records.swap(0, 1);
    records.push(records[2].clone());
    let b = tempfile::tempdir().unwrap();
    write_whole(b.path(), &records);
    std::fs::remove_file(b.path().join("aes.out")).unwrap();
    let o = compare(a.path(), b.path(), &["--identical", "--list"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        stderr(&o),
        "aes.bench:2: twice in B\n\
         sha256.bench:4: phases.finish 900 in A, 901 in B\n\
         sha256.bench:4: out of order: record 2 of A, record 1 of B\n\
         aes.out: missing in B\n\
         compare: 4 differences: not identical\n"
    );
    // Each request a difference names, once, as --not-held reads it.
    assert_eq!(stdout(&o), "benchmarks/aes.bench:2\nimpl/mysha/sha256.bench:4\n");
    // Without --list the differences go to stderr alone.
    let o = compare(a.path(), b.path(), &["--identical"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(1), String::new()), "{}", text(&o));
}

#[test]
fn the_requests_one_comparison_lists_are_not_held_by_the_next() {
    let (a, again, new) = (whole_run(1), whole_run(2), whole_run(3));
    let mut varying = whole_records(2);
    varying[1]["phases"]["input"] = json!(310);
    write_whole(again.path(), &varying);
    let o = compare(a.path(), again.path(), &["--identical", "--list"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let listed = stdout(&o);
    assert_eq!(listed, "impl/mysha/sha256.bench:4\n");

    let mut changed = whole_records(3);
    changed[1]["phases"]["input"] = json!(320);
    write_whole(new.path(), &changed);
    let mut options = vec!["--identical"];
    for request in listed.lines() {
        options.extend(["--not-held", request]);
    }
    let o = compare(a.path(), new.path(), &options);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        stderr(&o),
        "not held, named with --not-held: sha256.bench:4\n\
         compare: identical: 3 records (1 not held), results.csv and 2 .out files\n"
    );
    // Its status is held all the same.
    changed[1]["status"] = json!("error");
    write_whole(new.path(), &changed);
    let o = compare(a.path(), new.path(), &options);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o).contains("sha256.bench:4: status \"ok\" in A, \"error\" in B\n"),
        "{}",
        text(&o)
    );
}

#[test]
fn what_cannot_be_compared_or_is_asked_wrongly_exits_2() {
    let a = whole_run(1);
    let empty = tempfile::tempdir().unwrap();
    for (b, options, needle) in [
        (empty.path(), &["--identical"][..], "results.jsonl"),
        (
            a.path(),
            &["--identical", "--not-held", "sha256.bench:9"][..],
            "A has no such request",
        ),
        (
            a.path(),
            &["--identical", "--not-held", "sha256.bench"][..],
            "expected FILE:LINE",
        ),
        (
            a.path(),
            &["--identical", "--fail-on-change"][..],
            "cannot be used with",
        ),
        (a.path(), &["--list"][..], "--identical"),
    ] {
        let o = compare(a.path(), b, options);
        assert_eq!(o.status.code(), Some(2), "{options:?}: {}", text(&o));
        assert!(stderr(&o).contains(needle), "{options:?}: {}", text(&o));
    }
}
