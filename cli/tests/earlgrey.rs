//! End-to-end on the Earl Grey Verilator model: the real CLI, the real suite, hardware
//! accelerators, over the testbench's mailbox (the default link) and over the chip's UART (as
//! a board is reached). The model takes 4–8 minutes to build the first time and each request
//! seconds of simulation (over the UART far longer), so these tests are `#[ignore]`d in a
//! plain `cargo test`; `scripts/test.sh` builds the model and runs them with `--ignored`.

mod common;

use common::{run_logged, software_pairs};
use serde_json::Value;

/// The model CI builds: the snapshot's default, masked AES.
const TARGET: &str = "earlgrey-sim";

/// Runs `bench` on `TARGET` with the further `options` and returns the run's output, its
/// records and the results directory (kept while the value lives).
fn run_set(options: &[&str], bench: &str) -> (String, Vec<Value>, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let (log, records) = run_logged(TARGET, out.path(), options, &[bench]);
    (log, records, out)
}

/// Runs the smoke set on `TARGET` over `link` with one model instance and returns its records
/// after checking that every one is a verified hardware result.
fn smoke_records(link: &str) -> Vec<Value> {
    let (log, records, _out) = run_set(
        &["--link", link, "--jobs", "1", "--no-report"],
        "benchmarks/smoke/smoke.bench",
    );
    assert_eq!(records.len(), 6, "--link {link}: {log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "--link {link}: {r}");
        assert_eq!(r["verified"], true, "--link {link}: {r}");
        assert_eq!(r["cycle_accurate"], true, "--link {link}: {r}");
        assert_eq!(r["platform"], "earlgrey", "--link {link}: {r}");
    }
    // Accelerators, not software, answered.
    for r in records.iter().filter(|r| r["benchmark"] != "micro") {
        assert_eq!(r["implementation"], "hardware", "--link {link}: {r}");
    }
    let aes = records.iter().find(|r| r["dataset"] == "ecb-256-1b").unwrap();
    assert_eq!(aes["implementation_name"], "aes-masked", "{aes}");
    // Cycle-accurate and deterministic: every micro-benchmark block costs the same in every
    // repetition, and ten nops cost at least ten cycles.
    let micro = records.iter().find(|r| r["benchmark"] == "micro").unwrap();
    for (phase, stats) in micro["statistics"].as_object().unwrap() {
        assert_eq!(stats["min"], stats["max"], "{phase} varies: {micro}");
    }
    assert!(micro["phases"]["nop10"].as_u64().unwrap() >= 10, "{micro}");
    records
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn smoke_set_is_verified_and_the_mailbox_and_the_uart_give_the_same_cycles() {
    // The testbench's mailbox only saves the UART's simulated time, which lies outside every
    // measured window: every count must be the one the UART, as on a board, gives. The two
    // runs are independent models; they run side by side.
    let (mailbox, uart) = std::thread::scope(|s| {
        let uart = s.spawn(|| smoke_records("uart"));
        (smoke_records("mailbox"), uart.join().expect("the UART run"))
    });
    for (m, u) in mailbox.iter().zip(&uart) {
        assert_eq!((&m["file"], &m["line"]), (&u["file"], &u["line"]));
        for field in ["phases", "raw_phases", "statistics", "overhead", "total_cycles", "fifo"] {
            assert_eq!(m[field], u[field], "{field} of {}:{}: {m} / {u}", m["file"], m["line"]);
        }
        assert!(m["raw_phases"].as_object().is_some_and(|p| !p.is_empty()), "{m}");
    }
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn the_accelerators_and_software_on_the_same_core_answer_the_same_requests() {
    let (log, records, out) = run_set(&[], "benchmarks/on_chip/hardware_and_software.bench");
    assert_eq!(records.len(), 20, "{log}");
    let pairs = software_pairs(&records);
    assert_eq!(pairs.len(), 12, "{log}");
    for (hardware, software) in pairs {
        for (r, kind) in [(hardware, "hardware"), (software, "software")] {
            assert_eq!(r["status"], "ok", "{r}");
            assert_eq!(r["verified"], true, "{r}");
            assert_eq!(r["implementation"], kind, "{r}");
        }
        assert_eq!(hardware["config"], software["config"]);
        let request = software["request"].as_str().unwrap();
        let name = software["implementation_name"].as_str().unwrap();
        if request.contains("\"own\"") {
            assert!(name.starts_with("cyclebench-"), "{software}");
        } else {
            assert!(name.starts_with("rustcrypto-"), "{software}");
        }
        assert!(
            software["total_cycles"].as_u64() > hardware["total_cycles"].as_u64(),
            "{hardware} / {software}"
        );
    }
    // The suite's own SHA3-256 (Keccak-f[1600] assembly) beats RustCrypto's on this core.
    let sha3_256 = |name: &str| {
        records
            .iter()
            .find(|r| r["dataset"] == "msg-256" && r["implementation_name"] == name)
            .and_then(|r| r["total_cycles"].as_u64())
            .unwrap()
    };
    assert!(
        sha3_256("cyclebench-sha3-keccak-asm") < sha3_256("rustcrypto-sha3"),
        "{log}"
    );
    // The report pairs them: one speed-up row per operation.
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(report.contains("plots/speedup.png"), "{report}");
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn offload_requests_hand_jobs_to_the_accelerators_and_time_the_same_job_in_software() {
    let (log, records, _out) = run_set(&["--no-report"], "benchmarks/smoke/offload.bench");
    assert_eq!(records.len(), 3, "{log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["implementation"], "hardware", "{r}");
        assert_eq!(r["payload_bytes"], 1024, "{r}");
        // The chip's share and the accelerator's add up to what the offload cost, and the
        // accelerator beats the same job in software on the same Ibex.
        let cycles = |f: &str| r[f].as_u64().unwrap_or_else(|| panic!("{f} in {r}"));
        assert_eq!(
            cycles("operation_cycles") + cycles("device_overhead_cycles") + cycles("host_cycles"),
            cycles("offload_cycles"),
            "{r}"
        );
        let overhead = r["overhead_percent"].as_f64().unwrap();
        assert!(overhead > 0.0 && overhead < 100.0, "{r}");
        assert!(cycles("software_cycles") > cycles("offload_cycles"), "{r}");
        assert!(r["speedup"].as_f64().unwrap() > 1.0, "{r}");
        // Beside RustCrypto, the fastest software the project has: faster than RustCrypto
        // for AES-CBC-256 (table AES-256, not constant time) and SHA3-256 (the Keccak
        // assembly), RustCrypto itself for SHA-256; the accelerator beats it too.
        let fastest = cycles("fastest_software_cycles");
        if r["operation"] == "sha256" {
            assert_eq!(fastest, cycles("software_cycles"), "{r}");
        } else {
            assert!(fastest < cycles("software_cycles"), "{r}");
        }
        assert!(fastest > cycles("offload_cycles"), "{r}");
        assert!(r["fastest_speedup"].as_f64().unwrap() > 1.0, "{r}");
        assert_eq!(
            r["fastest_software_constant_time"],
            r["operation"] != "aes-cbc-256",
            "{r}"
        );
    }
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn otbn_verifies_and_rejects_p256_signatures_and_encrypts_with_rsa() {
    let (log, records, _out) = run_set(&["--no-report"], "benchmarks/smoke/otbn.bench");
    assert_eq!(records.len(), 3, "{log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["implementation"], "hardware", "{r}");
        assert_eq!(r["implementation_name"], "otbn", "{r}");
        // The program was loaded (both memories written) and the accelerator computed for
        // longer than everything around it took.
        assert!(
            r["imem_words"].as_u64().unwrap() > 0 && r["dmem_words"].as_u64().unwrap() > 0,
            "{r}"
        );
        let phase = |p: &str| r["phases"][p].as_u64().unwrap_or_else(|| panic!("{p} in {r}"));
        assert!(phase("load") > 0, "{r}");
        assert!(
            phase("compute") > phase("load") + phase("input") + phase("output") + phase("cleanup"),
            "{r}"
        );
    }
    // The suite checks each answer; the records say which one it gave.
    let verdicts: Vec<&Value> = records.iter().map(|r| &r["accepted"]).collect();
    assert_eq!(
        verdicts,
        [&Value::Bool(true), &Value::Bool(false), &Value::Null],
        "{log}"
    );
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn an_implementation_from_outside_the_tree_is_measured_beside_the_hmac_block() {
    // The folder as a user has it: a copy outside the tree.
    let folder = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(common::repo().join("examples/impl/sha256-c")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, folder.path().join(path.file_name().unwrap())).unwrap();
    }
    let bench = folder.path().join("chip.bench");
    std::fs::write(
        &bench,
        r#"{"impl": {"name": "sha256-c", "length": [0, 64]}}
{"hash": {"algorithm": "sha2", "length": [0, 64]}}
{"hash": {"algorithm": "sha2", "length": 64, "software": "rustcrypto"}}
"#,
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    let (log, records) = run_logged(TARGET, out.path(), &["--impl", dir], &[bench.to_str().unwrap()]);
    assert_eq!(records.len(), 5, "{log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["platform"], "earlgrey", "{r}");
    }
    let own = &records[1];
    assert_eq!(own["reference"], "sha256", "{own}");
    assert!(own["vectors_checked"].as_u64().unwrap() > 0, "{own}");
    assert!(own["impl_flags"].as_str().unwrap().contains("-march=rv32imc"), "{own}");
    assert_eq!(records[3]["implementation"], "hardware", "{}", records[3]);
    // The report sets the user's digest beside the HMAC block's and RustCrypto's of 64 bytes.
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    let section = report.split("## Your implementations").nth(1).expect("the section");
    let row = section
        .lines()
        .find(|l| l.contains("sha256-c") && l.contains("| 64 |"))
        .unwrap();
    assert!(
        row.contains("(hardware)") && row.contains("rustcrypto-sha2 (software)"),
        "{row}"
    );
}

/// Runs `benchmarks/layout/padding.bench` on `TARGET` with `pad` bytes of layout padding and
/// returns the run's output and records.
fn padded_run(pad: u32) -> (String, Vec<Value>) {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_cyclebench"))
        .current_dir(common::repo())
        .env("CYCLEBENCH_LAYOUT_PAD", pad.to_string())
        .args(["run", "--target", TARGET, "--jobs", "1", "--no-report", "--out"])
        .arg(out.path())
        .arg("benchmarks/layout/padding.bench")
        .output()
        .expect("run cyclebench");
    let log = common::text(&o);
    assert!(o.status.success(), "CYCLEBENCH_LAYOUT_PAD={pad}: {log}");
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("run.json")).unwrap()).unwrap();
    assert_eq!(meta["layout_pad"].as_u64().unwrap_or(0), u64::from(pad), "{meta}");
    (log, common::records(out.path()))
}

/// The addresses of `names` in the ELF `path`, and the size of its section `section`.
fn elf_facts(path: &std::path::Path, names: &[&str], section: &str) -> (Vec<u64>, u64) {
    use object::{Object, ObjectSection, ObjectSymbol};
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = object::File::parse(&*data).unwrap();
    let addresses = names
        .iter()
        .map(|name| {
            file.symbols()
                .find(|s| s.name() == Ok(*name))
                .unwrap_or_else(|| panic!("{}: no {name}", path.display()))
                .address()
        })
        .collect();
    let size = file.section_by_name(section).map_or(0, |s| s.size());
    (addresses, size)
}

/// Checks, from the images themselves, that the padded image carries `pad` bytes of padding
/// before the code outside the measured block, which moved by it, and that the block did not
/// move: what the records' identity is evidence of only if the padding was there.
fn padding_reached_the_image(pad: u32) {
    // The images of `TARGET` (masked AES) over the mailbox.
    let layouts = common::repo().join("target/firmware/earlgrey+sim-link-suite/layouts");
    let names = ["_stext", "cyclebench_measured_start", "cb_keccak_f1600_rv32i"];
    let (plain, plain_pad) = elf_facts(&layouts.join("default.elf"), &names, ".layout_pad");
    let (padded, padded_pad) = elf_facts(&layouts.join(format!("pad{pad}.elf")), &names, ".layout_pad");
    assert_eq!((plain_pad, padded_pad), (0, u64::from(pad)), "the padding sections");
    // `_stext` is the first 4-byte boundary after the padding.
    let moved = padded[0] - plain[0];
    assert!(
        (u64::from(pad) - 3..=u64::from(pad) + 3).contains(&moved),
        "the code after the padding moved by {moved} bytes with {pad} bytes of padding"
    );
    assert_eq!(
        plain[1..],
        padded[1..],
        "the measured block moved with {pad} bytes of padding"
    );
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn unrelated_code_before_the_measured_code_moves_no_software_record() {
    // Two sizes of never-run code at the start of flash shift every function outside the
    // measured block: 522 bytes (the code after it then starts 4 bytes past a multiple of 8,
    // the flash word and the cache line) and 904 (8 past a multiple of 16). Nothing measured
    // may move. The image has about 1 KiB of flash to spare for the padding.
    let (plain, padded) = std::thread::scope(|s| {
        let padded = s.spawn(|| padded_run(522));
        (padded_run(0), padded.join().expect("the padded run"))
    });
    let other = padded_run(904);
    for (pad, (log, records)) in [(522, &padded), (904, &other)] {
        padding_reached_the_image(pad);
        assert_eq!(records.len(), plain.1.len(), "{log}");
        for (p, r) in plain.1.iter().zip(records.iter()) {
            assert_eq!(p["status"], "ok", "{p}");
            assert_eq!(p["verified"], true, "{p}");
            assert_eq!(r["layout_pad"], pad, "{r}");
            assert!(p.get("layout_pad").is_none(), "{p}");
            for field in [
                "phases",
                "raw_phases",
                "total_cycles",
                "software_cycles",
                "fastest_software_cycles",
            ] {
                assert_eq!(
                    p[field], r[field],
                    "{field} of line {} with {pad} bytes before it: {p} / {r}",
                    p["line"]
                );
            }
        }
    }
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn masked_aes_and_csrng_say_their_counts_vary_and_two_runs_pass_the_gate() {
    // Masked AES and CSRNG draw from the entropy chain, whose state when a request starts
    // depends on when it arrived and on what drew from the chain before, on each instance
    // (two here, sharing the requests as the host's timing decides). Two runs of one image
    // need not agree on them; they must say so, and the gate must not fail on it, while it
    // holds every other count exactly.
    let set = tempfile::tempdir().unwrap();
    let bench = set.path().join("entropy.bench");
    std::fs::write(
        &bench,
        "{\"aes\": {\"dataset\": \"ecb-128-1b\", \"direction\": \"encrypt\", \"granularity\": \"per_block\", \"trigger\": \"manual\"}}\n\
         {\"aes\": {\"dataset\": \"ecb-128-5b\", \"direction\": \"encrypt\", \"granularity\": \"total\", \"trigger\": \"automatic\", \"repetitions\": 8}}\n\
         {\"rng_seeded\": {\"dataset\": \"seed384-3x128\"}}\n\
         {\"rng_true_random\": {\"blocks\": 3}}\n\
         {\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"msg-256\"}}\n",
    )
    .unwrap();
    let bench = bench.to_str().unwrap();
    let (first, second) = std::thread::scope(|s| {
        let second = s.spawn(|| run_set(&["--jobs", "2", "--no-report"], bench));
        (
            run_set(&["--jobs", "2", "--no-report"], bench),
            second.join().expect("the second run"),
        )
    });
    for r in &first.1 {
        assert_eq!(r["status"], "ok", "{r}");
        let drawing = r["implementation_name"] == "aes-masked" || r["implementation_name"] == "csrng";
        assert_eq!(r.get("varies").is_some(), drawing, "{r}");
    }
    let o = common::cyclebench(&[
        "compare",
        first.2.path().to_str().unwrap(),
        second.2.path().to_str().unwrap(),
        "--fail-on-change",
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
}

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn a_kill_during_the_placements_pass_loses_nothing_and_resume_measures_them() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};

    let tmp = tempfile::tempdir().unwrap();
    let bench = tmp.path().join("placed.bench");
    std::fs::write(
        &bench,
        "{\"software\": {\"primitive\": \"aes-table\", \"variant\": \"rv32i\", \"placements\": 2}}\n\
         {\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\"}}\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let mut cli = Command::new(env!("CARGO_BIN_EXE_cyclebench"))
        .current_dir(common::repo())
        .args(["run", "--target", TARGET, "--jobs", "1", "--no-report", "--out"])
        .arg(&out)
        .arg(&bench)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run cyclebench");
    // The pass announces each placement before it builds that placement's image, which takes
    // a while: killed then, the tool is inside the pass.
    let stderr = BufReader::new(cli.stderr.take().unwrap());
    let mut seen = Vec::new();
    for line in stderr.lines() {
        let line = line.unwrap();
        let announced = line.starts_with("placement +2 B");
        seen.push(line);
        if announced {
            break;
        }
    }
    assert!(seen.last().is_some_and(|l| l.starts_with("placement +2 B")), "{seen:?}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    cli.kill().unwrap();
    assert_eq!(cli.wait().unwrap().signal(), Some(9));

    // The placements come before the run's own requests: nothing of those was measured yet,
    // and run.json says so.
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(
        (&meta["requests"], &meta["finished"]),
        (&Value::from(0), &Value::Bool(false)),
        "{meta}"
    );

    let o = common::cyclebench(&["run", "--resume", out.to_str().unwrap(), "--no-report"]);
    assert!(o.status.success(), "{}", common::text(&o));
    let records = common::records(&out);
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r["status"] == "ok"), "{records:?}");
    let placed = &records[0]["placements"];
    assert_eq!(placed["cycles"].as_array().map(Vec::len), Some(2), "{placed}");
    assert!(placed["min"].is_u64(), "{placed}");
    assert!(records[1].get("placements").is_none());
    // Written once, complete: the log of placements is gone with the finished run.
    assert!(!out.join("placements.jsonl").exists());
}

#[test]
#[ignore = "needs the Earl Grey models (scripts/test.sh builds them and runs this)"]
fn the_smallest_model_a_file_needs_counts_what_the_whole_chip_counts() {
    // A file of software (the suite's primitives, in Rust and RV32I assembly, a constant-time
    // test, and an implementation from outside the tree) and one of SHA-256 on the HMAC block:
    // both run on the smallest variant (sim/earlgrey/variants: software-small, without AES,
    // KMAC, OTBN, the entropy chain and the idle peripherals) by default, and on the whole chip
    // with --model full; both count alike.
    let folder = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(common::repo().join("examples/impl/sha256-c")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, folder.path().join(path.file_name().unwrap())).unwrap();
    }
    let software = folder.path().join("software.bench");
    std::fs::write(
        &software,
        r#"{"software": {"primitive": "aes-table", "variant": ["rust", "rv32i"]}}
{"software": {"primitive": "chacha20", "variant": "rv32i", "length": 64}}
{"leakage": {"operation": "compare-leaky", "variant": "rv32i", "secret": "data", "measurements": 200, "seed": 1}}
{"impl": {"name": "sha256-c", "length": 64}}
"#,
    )
    .unwrap();
    let hmac = folder.path().join("hmac.bench");
    std::fs::write(&hmac, "{\"hash\": {\"algorithm\": \"sha2\", \"length\": [0, 64]}}\n").unwrap();
    let dir = folder.path().to_str().unwrap();
    let files = [software.to_str().unwrap(), hmac.to_str().unwrap()];
    let (full, auto) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (full_run, auto_run) = std::thread::scope(|s| {
        let full_run = s.spawn(|| {
            run_logged(
                TARGET,
                full.path(),
                &["--impl", dir, "--jobs", "1", "--model", "full"],
                &files,
            )
        });
        let auto_run = run_logged(TARGET, auto.path(), &["--impl", dir, "--jobs", "1"], &files);
        (full_run.join().expect("the run on the whole chip"), auto_run)
    });
    for ((log, records), dir, model) in [(&full_run, &full, "full"), (&auto_run, &auto, "software-small")] {
        assert_eq!(records.len(), 7, "{log}");
        for r in records.iter() {
            assert_eq!(r["status"], "ok", "{r}");
            assert_eq!(r["model"], model, "{r}");
        }
        let meta: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("run.json")).unwrap()).unwrap();
        assert_eq!(meta["models"], serde_json::json!([model]), "{meta}");
    }
    let o = common::cyclebench(&[
        "compare",
        full.path().to_str().unwrap(),
        auto.path().to_str().unwrap(),
        "--identical",
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
}

/// The NexysVideo's clocks and baud rate, as the suite's board image takes them.
#[path = "../../firmware/drivers/src/opentitan/earlgrey_2021_03/regs/device_fpga_nexysvideo.rs"]
mod nexysvideo;

/// Clock cycles of the model (its CPU clock, four per peripheral cycle) per UART bit of a chip
/// whose peripheral clock is `peripheral_hz` and whose UART runs at `baud`, to the nearest.
fn model_cycles_per_bit(baud: u32, peripheral_hz: u32) -> u32 {
    (4 * peripheral_hz + baud / 2) / baud
}

#[test]
fn the_model_uart_ratio_of_the_nexysvideo_is_its_baud_rate_to_its_clock() {
    // The model's own: 500 kHz / 7200 baud, the constant 69 of the testbench's UART DPI.
    assert_eq!(model_cycles_per_bit(7200, 125_000), 69);
    // The board's: 2.5 MHz / 115200 baud = 21.7 peripheral cycles per bit.
    assert_eq!(
        model_cycles_per_bit(nexysvideo::UART_BAUDRATE, nexysvideo::CLOCK_FREQ_PERIPHERAL_HZ),
        87
    );
    // The model's ratio of CPU to peripheral clock is the board's.
    assert_eq!(nexysvideo::CLOCK_FREQ_CPU_HZ, 4 * nexysvideo::CLOCK_FREQ_PERIPHERAL_HZ);
}

/// Runs `bench` with `options` on `TARGET` with `env` set, into a fresh directory, and returns
/// the run's output and records.
fn run_with_env(env: &[(&str, String)], options: &[&str], bench: &str) -> (String, Vec<Value>) {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_cyclebench"))
        .current_dir(common::repo())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .args(["run", "--target", TARGET, "--jobs", "1", "--no-report", "--out"])
        .arg(out.path())
        .args(options)
        .arg(bench)
        .output()
        .expect("run cyclebench");
    let log = common::text(&o);
    assert!(o.status.success(), "{env:?} {options:?}: {log}");
    (log, common::records(out.path()))
}

#[test]
#[ignore = "needs the Earl Grey model with patch 11 (scripts/test.sh builds it and runs this)"]
fn the_nexysvideo_image_talks_over_a_uart_at_the_boards_ratio_and_measures_what_the_model_image_does() {
    // The image a user loads onto the board, as `prepare --board` builds it.
    let o = common::cyclebench(&["prepare", "--board", "nexysvideo"]);
    let printed = common::text(&o);
    assert!(o.status.success(), "{printed}");
    let after = |prefix: &str| {
        printed
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {printed}"))
            .to_owned()
    };
    let elf = after("nexysvideo ready: ");
    let binary = std::fs::read(after("flash image for its loader: ")).unwrap();
    // The loader's binary is flash from its base: the snapshot's boot ROM calls the address
    // in its first word, the suite's entry.
    let (start, _) = elf_facts(std::path::Path::new(&elf), &["_start"], ".flash_header");
    assert_eq!(u64::from(u32::from_le_bytes(binary[..4].try_into().unwrap())), start[0]);
    assert!(binary.len() <= 512 * 1024, "{} bytes", binary.len());

    // The smoke set, and two software primitives: their harness's generic instances in the
    // measured block come in an order that follows the build's features.
    let set = tempfile::tempdir().unwrap();
    let bench = set.path().join("board.bench");
    let smoke = std::fs::read_to_string(common::repo().join("benchmarks/smoke/smoke.bench")).unwrap();
    std::fs::write(
        &bench,
        format!(
            "{smoke}{{\"software\": {{\"primitive\": \"aes-table\", \"variant\": \"rv32i\"}}}}\n\
             {{\"software\": {{\"primitive\": \"chacha20\", \"variant\": \"rv32i\", \"length\": 64}}}}\n"
        ),
    )
    .unwrap();
    let bench = bench.to_str().unwrap();
    // The board image over the chip's UART, the testbench's UART DPI at the board's ratio
    // (CYCLEBENCH_EARLGREY_UART_CYCLES_PER_SYMBOL); beside it the model's own image over the
    // mailbox, as a reference. Two models, side by side.
    let cycles = model_cycles_per_bit(nexysvideo::UART_BAUDRATE, nexysvideo::CLOCK_FREQ_PERIPHERAL_HZ);
    let ((board_log, board), (_, model)) = std::thread::scope(|s| {
        let board = s.spawn(|| {
            run_with_env(
                &[("CYCLEBENCH_EARLGREY_UART_CYCLES_PER_SYMBOL", cycles.to_string())],
                &["--link", "uart", "--firmware", &elf],
                bench,
            )
        });
        let model = run_with_env(&[], &[], bench);
        (board.join().expect("the board image's run"), model)
    });
    assert_eq!(board.len(), 8, "{board_log}");
    assert_eq!(model.len(), 8);
    for r in &board {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["platform"], "earlgrey-nexysvideo", "{r}");
        assert_eq!(r["cycle_accurate"], true, "{r}");
    }
    // The board's top builds AES unmasked and the image says so; CI's model is the masked
    // configuration, whose AES gives the same answers.
    let aes = board.iter().find(|r| r["dataset"] == "ecb-256-1b").unwrap();
    assert_eq!(aes["implementation_name"], "aes-unmasked", "{aes}");
    // Only the device's constants differ: the measured code is the same, so every count is
    // the model image's, except masked AES's, which depends on when a request arrives
    // (docs/earlgrey.md) and so on the link.
    for (b, m) in board.iter().zip(&model) {
        assert_eq!((&b["file"], &b["line"]), (&m["file"], &m["line"]));
        if b["benchmark"] == "aes" {
            continue;
        }
        for field in ["phases", "raw_phases", "statistics", "overhead", "total_cycles", "fifo"] {
            assert_eq!(b[field], m[field], "{field} of line {}: {b} / {m}", b["line"]);
        }
    }
}
