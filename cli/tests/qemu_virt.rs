//! End-to-end: the real `cyclebench` binary against the suite on QEMU `virt`.

mod common;

use std::path::Path;

use common::{cyclebench, records, repo, run_records, software_pairs, text};

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
fn the_offload_sets_run_functionally_with_software_in_place_of_the_accelerators() {
    let out = tempfile::tempdir().unwrap();
    // Beyond the shipped sets: the largest payload, whose AES ciphertext fills the SPM four
    // times before the end, in both designs and both addressings.
    let extra = out.path().join("largest.bench");
    std::fs::write(
        &extra,
        "{\"offload\": {\"operation\": \"aes-cbc-256\", \"payload_bytes\": 20480}}\n\
         {\"offload\": {\"operation\": \"aes-cbc-256\", \"payload_bytes\": 20480, \"addressing\": \"indirect-l1\", \"design\": \"streaming\"}}\n\
         {\"offload\": {\"operation\": \"sha3-256\", \"payload_bytes\": 20480, \"addressing\": \"indirect-l1\"}}\n",
    )
    .unwrap();
    let records = run_records(
        "qemu-virt",
        &out.path().join("results"),
        &[
            "benchmarks/offload/table1.bench",
            "benchmarks/offload/streaming.bench",
            "benchmarks/offload/addressing.bench",
            extra.to_str().unwrap(),
        ],
    );
    assert_eq!(records.len(), 15 + 15 + 7 + 3);
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["implementation"], "software", "{r}");
        let bytes = r["payload_bytes"].as_u64().unwrap();
        let pages = bytes.div_ceil(4096);
        // The parts add up, and the AES ciphertext was handed over once per page but the last.
        let sum = ["operation_cycles", "device_overhead_cycles", "host_cycles"]
            .iter()
            .map(|f| r[*f].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(sum, r["offload_cycles"].as_u64().unwrap(), "{r}");
        assert_eq!(r["offload_cycles"], r["total_cycles"], "{r}");
        let handovers = if r["operation"] == "aes-cbc-256" { pages - 1 } else { 0 };
        assert_eq!(r["handovers"].as_u64(), Some(handovers), "{r}");
        assert_eq!(r["phases"]["handover"].as_u64().unwrap() > 0, handovers > 0, "{r}");
        // Streaming copies nothing on the chip; staging copies every page.
        let streaming = r["design"] == "streaming";
        assert_eq!(r["phases"]["payload"] == 0, streaming, "{r}");
        // QEMU counts no cycles, so nothing is reused across requests.
        assert_eq!(r["software_reused"], 0, "{r}");
        assert!(r["software_cycles"].as_u64().unwrap() > 0, "{r}");
        assert!(r["speedup"].as_f64().unwrap() > 0.0, "{r}");
        // Beside RustCrypto, the fastest software the project has, named, with its own
        // speed-up: another implementation for AES-CBC-256 and SHA3-256, executing fewer
        // instructions (QEMU counts instructions); RustCrypto itself for SHA-256.
        let (software, fastest) = (
            r["software_cycles"].as_u64().unwrap(),
            r["fastest_software_cycles"].as_u64().unwrap(),
        );
        assert!(r["fastest_speedup"].as_f64().unwrap() > 0.0, "{r}");
        let name = r["fastest_software_implementation"].as_str().unwrap();
        match r["operation"].as_str().unwrap() {
            "sha256" => {
                assert_eq!(fastest, software, "{r}");
                assert!(name.starts_with("rustcrypto-sha2"), "{r}");
            }
            "sha3-256" => {
                assert!(fastest < software, "{r}");
                assert!(name.starts_with("cyclebench-sha3-keccak-asm"), "{r}");
                assert_eq!(r["fastest_software_constant_time"], true, "{r}");
            }
            _ => {
                assert!(fastest < software, "{r}");
                assert!(name.starts_with("cyclebench-aes256-table-asm"), "{r}");
                assert_eq!(r["fastest_software_constant_time"], false, "{r}");
            }
        }
        assert!(
            r["software_implementation"].as_str().unwrap().starts_with("rustcrypto"),
            "{r}"
        );
    }
}

#[test]
fn hash_and_aes_requests_can_ask_for_the_software_implementation() {
    let out = tempfile::tempdir().unwrap();
    let records = run_records(
        "qemu-virt",
        out.path(),
        &["benchmarks/on_chip/hardware_and_software.bench"],
    );
    assert_eq!(records.len(), 20);
    let pairs = software_pairs(&records);
    assert_eq!(pairs.len(), 12);
    for (platform, software) in pairs {
        // On this platform both are software; the name says which library ran.
        for r in [platform, software] {
            assert_eq!(r["status"], "ok", "{r}");
            assert_eq!(r["verified"], true, "{r}");
            assert_eq!(r["implementation"], "software", "{r}");
        }
        assert_eq!(platform["config"], software["config"]);
        let own = software["request"].as_str().unwrap().contains("\"own\"");
        let expected = match (software["module"].as_str().unwrap(), own) {
            ("sha2", false) => "rustcrypto-sha2",
            ("sha3", false) => "rustcrypto-sha3",
            ("aes", false) => "rustcrypto-aes",
            ("sha3", true) => "cyclebench-sha3-keccak-asm",
            ("aes", true) => "cyclebench-aes128-table-asm",
            other => panic!("unexpected pair {other:?}"),
        };
        assert_eq!(software["implementation_name"], expected, "{software}");
    }
}

#[test]
fn the_suites_own_software_says_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("own.bench");
    std::fs::write(
        &bench,
        concat!(
            r#"{"hash": {"algorithm": "sha2", "dataset": "abc", "software": "own"}}"#,
            "\n",
            r#"{"aes": {"dataset": "ecb-256", "software": "own"}}"#,
            "\n",
            r#"{"aes": {"dataset": "cbc-128", "direction": "decrypt", "software": "own"}}"#,
            "\n",
            r#"{"aes": {"dataset": "cfb-128", "direction": "decrypt", "software": "own"}}"#,
            "\n",
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--no-report",
        "--out",
        out.to_str().unwrap(),
        bench.to_str().unwrap(),
    ]);
    let records = records(&out);
    assert_eq!(records.len(), 4, "{}", text(&o));
    let reasons: Vec<&str> = records[..3]
        .iter()
        .map(|r| r["reason"].as_str().unwrap_or(""))
        .collect();
    for r in &records[..3] {
        assert_eq!(r["status"], "unsupported", "{r}");
    }
    assert!(reasons[0].contains("no SHA-256 of its own"), "{reasons:?}");
    assert!(reasons[1].contains("AES-128 only"), "{reasons:?}");
    assert!(reasons[2].contains("no ECB or CBC decryption"), "{reasons:?}");
    // CFB decryption runs the forward cipher: the own AES serves it.
    assert_eq!(records[3]["status"], "ok", "{}", records[3]);
    assert_eq!(records[3]["verified"], true, "{}", records[3]);
    assert_eq!(records[3]["implementation_name"], "cyclebench-aes128-table-asm");
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
    let records = run_records(
        "qemu-virt-zbb",
        out.path(),
        &["benchmarks/swcrypto/table1.bench", "benchmarks/swcrypto/lengths.bench"],
    );
    assert_eq!(records.len(), 18 + 42);
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
    for r in run_records("qemu-virt", out.path(), &["benchmarks/swcrypto/table1.bench"]) {
        if r["variant"] == "zbb" {
            assert_eq!(r["status"], "unsupported", "{r}");
            assert!(r["reason"].as_str().unwrap().contains("needs a core with Zbb"), "{r}");
        } else if r["status"] != "unsupported" {
            assert_eq!(r["status"], "ok", "{r}");
            assert_eq!(r["verified"], true, "{r}");
        }
    }
}

#[test]
fn nonsense_numbers_are_usage_errors_not_panics() {
    for args in [
        &[
            "run",
            "--target",
            "qemu-virt",
            "--timeout",
            "1e300",
            "benchmarks/micro.bench",
        ][..],
        &[
            "run",
            "--target",
            "qemu-virt",
            "--hello-timeout",
            "1e300",
            "benchmarks/micro.bench",
        ],
        &[
            "run",
            "--target",
            "qemu-virt",
            "--timeout",
            "-5",
            "benchmarks/micro.bench",
        ],
        &[
            "run",
            "--target",
            "qemu-virt",
            "--hello-timeout",
            "0",
            "benchmarks/micro.bench",
        ],
        &["selftest", "--target", "qemu-virt", "--timeout", "1e300"],
        &["run", "--port", "/dev/null", "--baud", "0", "benchmarks/micro.bench"],
    ] {
        let o = cyclebench(args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {out}");
        assert!(
            out.contains("error: invalid value") && !out.contains("panicked"),
            "{args:?}: {out}"
        );
    }
    let o = cyclebench(&["run", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = text(&o);
    for default in [
        "[default: 10 with --port; 30 on qemu-virt, qemu-virt-zbb; 60 on ibex-sim, ibex-sim-zbb; \
         300 on earlgrey-sim, earlgrey-sim-unmasked]",
        "[default: 120 with --port and on qemu-virt, qemu-virt-zbb; \
         900 on ibex-sim, ibex-sim-zbb; 1800 on earlgrey-sim, earlgrey-sim-unmasked]",
    ] {
        assert!(help.contains(default), "{default} not in:\n{help}");
    }
}

#[test]
fn a_line_that_cannot_be_sent_fails_alone() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("bytes.bench");
    let mut bytes = b"# caf\xe9: a Latin-1 comment\n".to_vec();
    bytes.extend_from_slice(b"{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\"}}\n");
    bytes.extend_from_slice(b"{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"caf\xe9\"}}\n");
    bytes.extend_from_slice(b"{\"raw_line\": \"\"}\n");
    bytes.extend_from_slice(b"{\"raw_line\": \"S\\n\"}\n");
    bytes.extend_from_slice(b"{\"hash\": {\"algorithm\": \"sha3\", \"dataset\": \"abc\"}}\n");
    std::fs::write(&bench, bytes).unwrap();
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--no-report",
        "--out",
        out.to_str().unwrap(),
        bench.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // The empty raw line is refused, not sent: nothing waits for a reply that never comes.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(100),
        "{:?}",
        started.elapsed()
    );
    let r = records(&out);
    let status: Vec<&str> = r.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["ok", "error", "error", "error", "ok"], "{r:?}");
    assert_eq!(r[1]["line"], 3);
    assert_eq!(
        r[1]["error"],
        "invalid line: line is not UTF-8 (byte 0xE9 at column 47)"
    );
    assert!(
        r[2]["error"].as_str().unwrap().contains("raw_line is empty"),
        "{}",
        r[2]
    );
    assert!(r[3]["error"].as_str().unwrap().contains("line break"), "{}", r[3]);
    assert_eq!(r[4]["verified"], true);
    let twin = std::fs::read_to_string(out.join("bytes.out")).unwrap();
    assert!(twin.starts_with("# caf\u{fffd}: a Latin-1 comment\n"), "{twin}");
}

/// The children of process `pid`, from every thread's list in /proc.
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Whether process `pid` still runs (a zombie waiting to be reaped no longer does).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rsplit_once(") ").map(|(_, rest)| !rest.starts_with(['Z', 'X'])))
        .unwrap_or(false)
}

/// Polls `done` every 50 ms for up to `limit`; whether it became true.
fn within(limit: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    done()
}

/// A run of a long file on two QEMU instances, started once it has written a few records: the
/// CLI, its QEMUs' pids, the results directory, and the number of request lines.
struct LongRun {
    cli: std::process::Child,
    qemu: Vec<u32>,
    out: std::path::PathBuf,
    lines: usize,
    _dir: tempfile::TempDir,
}

impl LongRun {
    fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let bench = dir.path().join("long.bench");
        let lines = 5000;
        let line = "{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\"}}\n";
        std::fs::write(&bench, line.repeat(lines)).unwrap();
        let out = dir.path().join("out");
        // Output to files: a pipe nobody reads would block the CLI once full. No report: in a
        // debug build its plots alone take seconds, and what is timed here is the stop.
        let log = |name: &str| std::fs::File::create(dir.path().join(name)).unwrap();
        let mut cli = std::process::Command::new(env!("CARGO_BIN_EXE_cyclebench"))
            .current_dir(repo())
            .args([
                "run",
                "--target",
                "qemu-virt",
                "--no-report",
                "--jobs",
                "2",
                "--out",
                out.to_str().unwrap(),
            ])
            .arg(&bench)
            .stdin(std::process::Stdio::null())
            .stdout(log("stdout"))
            .stderr(log("stderr"))
            .spawn()
            .unwrap();
        let written = || std::fs::read_to_string(out.join("results.jsonl")).map_or(0, |t| t.lines().count());
        let started = within(std::time::Duration::from_secs(300), || {
            written() >= 5 || cli.try_wait().unwrap().is_some()
        });
        assert!(started && written() >= 5, "the run did not get going");
        let qemu = children(cli.id());
        assert_eq!(qemu.len(), 2, "children of the CLI: {qemu:?}");
        for pid in &qemu {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap();
            assert_eq!(comm.trim(), "qemu-system-ris", "the CLI's children are QEMU");
        }
        Self {
            cli,
            qemu,
            out,
            lines,
            _dir: dir,
        }
    }

    fn signal(&self, name: &str) {
        let sent = std::process::Command::new("kill")
            .args([&format!("-{name}"), &self.cli.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits up to `limit` for the CLI to end, killing it if it does not.
    fn wait(&mut self, limit: std::time::Duration) -> Option<std::process::ExitStatus> {
        let mut status = None;
        within(limit, || {
            status = self.cli.try_wait().unwrap();
            status.is_some()
        });
        if status.is_none() {
            let _ = self.cli.kill();
            let _ = self.cli.wait();
        }
        status
    }

    fn log(&self) -> String {
        let dir = self.out.parent().unwrap();
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        format!("{}{}", read("stdout"), read("stderr"))
    }
}

impl Drop for LongRun {
    fn drop(&mut self) {
        // Whatever the test found, leave nothing running.
        let _ = self.cli.kill();
        let _ = self.cli.wait();
    }
}

#[test]
fn sigterm_stops_the_run_between_requests_and_takes_qemu_with_it() {
    use std::os::unix::process::ExitStatusExt;

    let mut run = LongRun::start();
    run.signal("TERM");
    let status = run.wait(std::time::Duration::from_secs(10));
    let log = run.log();
    let status = status.unwrap_or_else(|| panic!("the CLI still ran 10 s after SIGTERM:\n{log}"));
    assert!(!status.success(), "{log}");
    assert_eq!(
        status.signal(),
        Some(15),
        "ends as SIGTERM would have ended it: {status:?}\n{log}"
    );
    assert!(
        within(std::time::Duration::from_secs(2), || run
            .qemu
            .iter()
            .all(|&pid| !running(pid))),
        "a QEMU (pids {:?}) outlived the CLI",
        run.qemu
    );
    assert!(log.contains("SIGTERM: stopping after the current request"), "{log}");
    // Every record written is whole, and the run stopped well before the end of the file.
    let records = records(&run.out);
    assert!(
        records.len() >= 5 && records.len() < run.lines,
        "{} records",
        records.len()
    );
    assert!(records.iter().all(|r| r["status"] == "ok"), "{records:?}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.out.join("run.json")).unwrap()).unwrap();
    assert_eq!(meta["interrupted"], true, "{meta}");
    assert_eq!(meta["requests"], records.len(), "{meta}");
}

#[test]
fn a_cli_killed_outright_takes_qemu_with_it() {
    let mut run = LongRun::start();
    run.signal("KILL");
    assert!(run.wait(std::time::Duration::from_secs(5)).is_some());
    assert!(
        within(std::time::Duration::from_secs(2), || run
            .qemu
            .iter()
            .all(|&pid| !running(pid))),
        "a QEMU (pids {:?}) outlived the CLI",
        run.qemu
    );
    // Killed between two writes or not, the records on disk are whole.
    let records = records(&run.out);
    assert!(records.len() >= 5, "{} records", records.len());
}

#[test]
fn two_instances_write_the_same_results_as_one() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let sets = [
        "benchmarks/aes_modes.bench",
        "benchmarks/sha2.bench",
        "benchmarks/micro.bench",
        "benchmarks/smoke/smoke.bench",
    ];
    let run = |jobs: &str| {
        let dir = tmp.path().join(format!("jobs-{jobs}"));
        let mut args = vec!["run", "--target", "qemu-virt", "--no-report", "--jobs", jobs];
        let out = dir.to_str().expect("UTF-8 path").to_owned();
        args.extend(["--out", &out]);
        args.extend(sets);
        let o = cyclebench(&args);
        assert!(o.status.success(), "--jobs {jobs}: {}", text(&o));
        dir
    };
    let (one, two) = (run("1"), run("2"));
    let without_time = |dir: &std::path::Path| -> Vec<serde_json::Value> {
        records(dir)
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().expect("record").remove("timestamp");
                r
            })
            .collect()
    };
    assert_eq!(without_time(&one), without_time(&two));
    for set in sets {
        let name = std::path::Path::new(set).with_extension("out");
        let name = name.file_name().expect("file name");
        let read = |dir: &std::path::Path| std::fs::read_to_string(dir.join(name)).expect(".out file");
        assert_eq!(read(&one), read(&two), "{name:?}");
    }
}

#[test]
fn a_swept_line_runs_every_combination_and_the_report_fits_its_growth() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("lengths.bench");
    std::fs::write(
        &bench,
        r#"# ChaCha20 in two variants at five lengths, in one line
{"software": {"primitive": "chacha20", "variant": ["rust", "rv32i"], "length": [16, 64, 256, 1024, 4096]}}
{"software": {"primitive": "chacha20", "variant": "rust", "length": [64, 5000]}}
{"software": {"primitive": "chacha20", "variant": "rust", "length": []}}
"#,
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
    // 5000 bytes is more than ChaCha20 takes: that request fails alone.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("lengths.bench:2[10] software"), "{log}");
    let r = records(&out);
    assert_eq!(r.len(), 10 + 2 + 1, "{r:?}");
    let mut expected = Vec::new();
    for variant in ["rust", "rv32i"] {
        for length in [16, 64, 256, 1024, 4096] {
            expected.push((variant, length));
        }
    }
    for (i, (record, (variant, length))) in r.iter().zip(&expected).enumerate() {
        assert_eq!(record["status"], "ok", "{record}");
        assert_eq!(record["verified"], true, "{record}");
        assert_eq!(record["line"], 2, "{record}");
        assert_eq!(record["bytes"], *length, "{record}");
        assert_eq!(record["variant"], *variant, "{record}");
        assert_eq!(record["sweep"]["index"], i + 1, "{record}");
        assert_eq!(record["sweep"]["of"], 10, "{record}");
        assert_eq!(record["sweep"]["values"]["length"], *length, "{record}");
        assert_eq!(
            record["request"],
            format!(r#"{{"software": {{"primitive": "chacha20", "variant": "{variant}", "length": {length}}}}}"#)
        );
    }
    assert_eq!(r[10]["status"], "ok", "{}", r[10]);
    assert_eq!(r[11]["status"], "error", "{}", r[11]);
    assert_eq!(
        (r[11]["line"].as_u64(), r[11]["sweep"]["index"].as_u64()),
        (Some(3), Some(2))
    );
    assert!(
        r[11]["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid line: length 5000: "),
        "{}",
        r[11]
    );
    assert_eq!(r[12]["status"], "error", "{}", r[12]);
    assert!(
        r[12]["error"].as_str().unwrap().contains("length is an empty list"),
        "{}",
        r[12]
    );

    let twin = std::fs::read_to_string(out.join("lengths.out")).unwrap();
    assert!(twin.contains("\n# sweep of 10 requests: {\"software\""), "{twin}");
    assert!(
        twin.contains("{\"software\": {\"primitive\": \"chacha20\", \"variant\": \"rv32i\", \"length\": 256}}\n=> "),
        "{twin}"
    );
    assert_eq!(twin.matches("\n=> ").count(), 13, "{twin}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.contains(",6,variant=rv32i length=16"), "{csv}");

    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("### lengths.bench:2 software (primitive chacha20): cycles and cycles per byte against length"),
        "{md}"
    );
    assert!(out.join("plots/growth-01-lengths-2-software.png").is_file());
    for variant in ["rust", "rv32i"] {
        // Fixed cost, per-byte slope, R² and the largest residual of each configuration.
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| variant {variant} | ")) && l.ends_with(" | 5 |"))
            .unwrap_or_else(|| panic!("no fit of {variant}:\n{md}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let per_byte: f64 = cells[3].parse().unwrap();
        let r_squared: f64 = cells[4].parse().unwrap();
        assert!(per_byte > 1.0, "{row}");
        assert!(r_squared > 0.99, "{row}");
        assert!(cells[5].contains("% at "), "{row}");
    }
}

#[test]
fn a_file_that_sweeps_more_than_the_threshold_runs_only_with_yes() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("huge.bench");
    // 5001 lengths ChaCha20 does not take: each request fails on its own without being sent.
    let lengths: Vec<String> = (5000..10001).map(|n| n.to_string()).collect();
    std::fs::write(
        &bench,
        format!(
            "{{\"software\": {{\"primitive\": \"chacha20\", \"variant\": \"rust\", \"length\": [{}]}}}}\n",
            lengths.join(", ")
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let args = [
        "run",
        "--target",
        "qemu-virt",
        "--no-report",
        "--out",
        out.to_str().unwrap(),
        bench.to_str().unwrap(),
    ];
    let o = cyclebench(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let log = text(&o);
    assert!(log.contains("huge.bench: its sweeps expand to 5001 requests"), "{log}");
    assert!(log.contains("--yes"), "{log}");
    assert!(!out.join("results.jsonl").exists());

    let mut with_yes = args.to_vec();
    with_yes.insert(1, "--yes");
    let o = cyclebench(&with_yes);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = records(&out);
    assert_eq!(r.len(), 5001);
    assert!(r.iter().all(|r| r["status"] == "error"));
    assert_eq!(r[5000]["sweep"]["index"], 5001);
}

#[test]
fn described_messages_are_checked_against_the_hosts_answers() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("described.bench");
    // Requests whose answers the host works out, then two framed by hand with a wrong digest:
    // the suite must answer those with a wrong-answer error, not a result.
    let zeros = "0".repeat(64);
    let wrong_hash = cyclebench_protocol::wire::frame(format!("60001 B hash 2 - a - l16 d{zeros}"));
    let wrong_aes = cyclebench_protocol::wire::frame(format!("60002 B aes - e t a c l32 yctr128 d{zeros}"));
    std::fs::write(
        &bench,
        format!(
            r#"{{"hash": {{"algorithm": "sha2", "length": 1000, "seed": 3}}}}
{{"hash": {{"algorithm": "sha3", "length": 8192, "repeated_block": 1024, "style": "tight"}}}}
{{"hash": {{"algorithm": "sha2", "message_hex": "616263"}}}}
{{"aes": {{"mode": "cbc", "key_bits": 192, "length": 48, "direction": "decrypt"}}}}
{{"aes": {{"mode": "ctr", "key_bits": 128, "length": 4096, "repeated_block": 256, "seed": 5}}}}
{{"aes": {{"mode": "cfb", "key_hex": "2b7e151628aed2a6abf7158809cf4f3c", "iv_hex": "000102030405060708090a0b0c0d0e0f", "message_hex": "6bc1bee22e409f96e93d7e117393172aae"}}}}
{{"hash": {{"algorithm": "sha3", "message_hex": ""}}}}
{{"raw_line": "{wrong_hash}"}}
{{"raw_line": "{wrong_aes}"}}
{{"hash": {{"algorithm": "sha2", "length": 20000}}}}
{{"aes": {{"mode": "ecb", "key_bits": 128, "length": 17}}}}
{{"hash": {{"algorithm": "sha2", "message_hex": "xyz0"}}}}
"#
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--no-report",
        "--out",
        out.to_str().unwrap(),
        bench.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = records(&out);
    assert_eq!(r.len(), 12, "{r:?}");
    for ok in &r[..7] {
        assert_eq!(ok["status"], "ok", "{ok}");
        assert_eq!(ok["verified"], true, "{ok}");
    }
    assert_eq!(r[0]["bytes"], 1000);
    assert_eq!(r[1]["bytes"], 8192);
    assert_eq!(r[1]["repeated_block"], 1024);
    assert_eq!(r[4]["bytes"], 4096);
    assert_eq!(r[5]["bytes"], 17);
    // NIST's first ShortMsg vector, the empty message, is a message like any other.
    assert_eq!(r[6]["bytes"], 0, "{}", r[6]);
    for wrong in &r[7..9] {
        let error = wrong["error"].as_str().unwrap();
        assert!(error.contains("WrongAnswer"), "{wrong}");
    }
    let refused: Vec<&str> = r[9..].iter().map(|r| r["error"].as_str().unwrap()).collect();
    assert!(refused[0].contains("add \"repeated_block\""), "{refused:?}");
    assert!(refused[1].contains("not a multiple of 16"), "{refused:?}");
    assert!(refused[2].contains("message_hex: not hex"), "{refused:?}");
}
