//! End-to-end: the real `cyclebench` binary against the suite on QEMU `virt`.

mod common;

use std::path::Path;

use common::{cyclebench, records, repo, text};

#[test]
fn every_benchmark_set_gives_verified_or_unsupported_results() {
    let out = tempfile::tempdir().unwrap();
    let mut files: Vec<String> = std::fs::read_dir(repo().join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bench"))
        .map(|p| p.strip_prefix(repo()).unwrap().display().to_string())
        .collect();
    files.sort();
    let mut args = vec!["run", "--target", "qemu-virt", "--out", out.path().to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let o = cyclebench(&args);
    assert!(o.status.success(), "{}", text(&o));

    let requests: usize = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(repo().join(f))
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .count()
        })
        .sum();
    let records = records(out.path());
    assert_eq!(records.len(), requests);
    for r in &records {
        match r["status"].as_str().unwrap() {
            "ok" => {
                assert_eq!(r["verified"], true, "{r}");
                assert_eq!(r["implementation"], "software", "{r}");
                assert_eq!(r["cycle_accurate"], false, "{r}");
                assert!(r["total_cycles"].as_u64().unwrap() > 0, "{r}");
                assert!(!r["phases"].as_object().unwrap().is_empty(), "{r}");
            }
            "unsupported" => assert_eq!(r["benchmark"], "rng_true_random", "{r}"),
            other => panic!("{other}: {r}"),
        }
    }
    // Every kind of the thesis ran.
    for kind in ["aes", "rng_seeded", "rng_true_random", "hash", "micro"] {
        assert!(records.iter().any(|r| r["benchmark"] == kind), "{kind} missing");
    }
    // Repeated runs carry statistics; corrected = raw - overhead.
    let repeated = records
        .iter()
        .find(|r| r["repetitions"].as_u64() == Some(20) && r["benchmark"] == "hash")
        .unwrap();
    assert_eq!(repeated["statistics"]["input"]["n"], 20);
    let overhead = repeated["overhead"].as_u64().unwrap();
    assert_eq!(
        repeated["phases"]["input"].as_u64().unwrap() + overhead,
        repeated["raw_phases"]["input"].as_u64().unwrap()
    );
    for f in &files {
        let stem = Path::new(f).file_stem().unwrap().to_str().unwrap();
        let twin = std::fs::read_to_string(out.path().join(format!("{stem}.out"))).unwrap();
        assert!(twin.contains("=> {\"benchmark_results\""), "{stem}.out");
        assert!(twin.starts_with('#'), "comments kept in {stem}.out");
    }
    let csv = std::fs::read_to_string(out.path().join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), requests + 1);
}

#[test]
fn bad_input_gets_clear_errors_and_keeps_other_results() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("bad.bench");
    let long = "A".repeat(4096);
    std::fs::write(
        &bench,
        format!(
            r#"# a good line, then garbage
{{"hash": {{"algorithm": "sha2", "dataset": "abc"}}}}
this is not json
{{"aes": {{"dataset": "no-such-set"}}}}
{{"raw_line": "{long}"}}
{{"raw_line": "B hash 2 abc a -"}}
{{"rng_seeded": {{"dataset": "nist-ctr-drbg-0"}}}}
"suspend"
{{"hash": {{"algorithm": "sha3", "dataset": "abc"}}}}
"#
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--out",
        out.to_str().unwrap(),
        bench.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = records(&out);
    assert_eq!(r.len(), 8);
    let status: Vec<&str> = r.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["ok", "error", "error", "error", "error", "ok", "ok", "error"]);
    assert_eq!(r[1]["line"], 3);
    assert!(r[1]["error"].as_str().unwrap().contains("invalid line: not JSON"));
    let unknown = r[2]["error"].as_str().unwrap();
    assert!(
        unknown.contains("UnknownDataset") && unknown.contains("aes has no dataset 'no-such-set'"),
        "{unknown}"
    );
    assert!(r[3]["error"].as_str().unwrap().contains("LineTooLong"), "{}", r[3]);
    assert!(r[4]["error"].as_str().unwrap().contains("checksum"), "{}", r[4]);
    assert_eq!(r[5]["verified"], true);
    assert_eq!(r[6]["benchmark"], "suspend");
    assert!(r[7]["error"].as_str().unwrap().contains("suspended by"), "{}", r[7]);
    let twin = std::fs::read_to_string(out.join("bad.out")).unwrap();
    assert!(twin.contains("# a good line, then garbage"));
    assert_eq!(twin.matches("=> ").count(), 8);
}

#[test]
fn selftest_passes_and_prints_its_closing_line() {
    let o = cyclebench(&["selftest", "--target", "qemu-virt"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("test runtime::heap_alloc ... ok"), "{out}");
    assert!(
        out.contains("test rng::entropy_seeded ... skipped (qemu-virt has no entropy source)"),
        "{out}"
    );
    let last = out
        .lines()
        .find(|l| l.ends_with(" skipped") && l.contains(" passed, "))
        .expect(&out);
    assert!(last.contains(" 0 failed,"), "{last}");
}

#[test]
fn wrong_port_is_a_clear_error() {
    let o = cyclebench(&[
        "run",
        "--port",
        "/dev/cyclebench-no-such-port",
        "benchmarks/micro.bench",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("cannot open serial port /dev/cyclebench-no-such-port"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_silent_port_times_out_waiting_for_hello() {
    use serialport::SerialPort;
    let (_master, slave) = serialport::TTYPort::pair().expect("pty pair");
    let name = slave.name().expect("pty name");
    let o = cyclebench(&["run", "--port", &name, "--hello-timeout", "2", "benchmarks/micro.bench"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no hello from the suite"), "{}", text(&o));
}

#[test]
fn a_target_that_dies_at_start_is_a_clear_error() {
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--firmware",
        "benchmarks",
        "benchmarks/micro.bench",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("ended before the suite said hello"), "{}", text(&o));
}

#[test]
fn software_primitives_verify_on_qemu_with_zbb() {
    // Functional check of every variant, the Zbb assembly included (QEMU executes Zbb); the
    // cycle counts here mean nothing and are not asserted.
    let out = tempfile::tempdir().unwrap();
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt-zbb",
        "--no-report",
        "--out",
        out.path().to_str().unwrap(),
        "benchmarks/swcrypto/table1.bench",
        "benchmarks/swcrypto/lengths.bench",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let records = records(out.path());
    assert_eq!(records.len(), 18 + 42, "{}", text(&o));
    for r in &records {
        assert_eq!(r["platform"], "qemu-virt-zbb", "{r}");
        match r["status"].as_str() {
            Some("ok") => assert_eq!(r["verified"], true, "{r}"),
            // Only a variant a primitive does not have may be missing.
            Some("unsupported") => {
                assert!(r["reason"].as_str().unwrap().contains("no such variant"), "{r}")
            }
            _ => panic!("{r}"),
        }
    }
    // The rotation-heavy primitives have a Zbb variant that ran.
    for primitive in ["chacha20", "keccak-f1600", "aes-bs-ctr"] {
        assert!(
            records
                .iter()
                .any(|r| r["primitive"] == primitive && r["variant"] == "zbb" && r["status"] == "ok"),
            "{primitive}"
        );
    }
}

#[test]
fn zbb_variants_are_unsupported_without_zbb() {
    let out = tempfile::tempdir().unwrap();
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--no-report",
        "--out",
        out.path().to_str().unwrap(),
        "benchmarks/swcrypto/table1.bench",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    for r in records(out.path()) {
        if r["variant"] == "zbb" {
            assert_eq!(r["status"], "unsupported", "{r}");
            assert!(r["reason"].as_str().unwrap().contains("needs a core with Zbb"), "{r}");
        } else if r["status"] != "unsupported" {
            assert_eq!(r["status"], "ok", "{r}");
            assert_eq!(r["verified"], true, "{r}");
        }
    }
}
