//! End-to-end on the Ibex Verilator model: the real CLI, the real suite, the core's RTL timing
//! the software primitives. The model takes a few minutes to build the first time, so these
//! tests are `#[ignore]`d in a plain `cargo test`; `scripts/test.sh` builds the model and runs
//! them with `--ignored`.

mod common;

use serde_json::Value;

use common::{cyclebench, records, text};

/// Runs `file` on `target`, asserts the run succeeded and returns its records.
fn run_set(target: &str, file: &str) -> (String, Vec<Value>) {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let o = cyclebench(&["run", "--target", target, "--no-report", "--out", dir, file]);
    assert!(o.status.success(), "{}", text(&o));
    (text(&o), records(out.path()))
}

#[test]
#[ignore = "needs the Ibex model (scripts/test.sh builds it and runs this)"]
fn smoke_set_gives_verified_exact_results_on_ibex_sim() {
    let (log, records) = run_set("ibex-sim", "benchmarks/smoke/ibex_smoke.bench");
    assert_eq!(records.len(), 25, "{log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["cycle_accurate"], true, "{r}");
        assert_eq!(r["platform"], "ibex-sim", "{r}");
        // Exact: repetitions of the same call cost the same.
        if let Some(stats) = r["statistics"].as_object() {
            for (phase, s) in stats {
                assert_eq!(s["min"], s["max"], "{phase} varies: {r}");
            }
        }
    }
    for r in records.iter().filter(|r| r["benchmark"] == "software") {
        assert!(r["total_cycles"].as_u64().unwrap() > 0, "{r}");
        assert!(r["code_bytes"].as_u64().unwrap() > 0, "{r}");
        assert!(r["code_symbol"].is_string(), "{r}");
        assert!(r["stack_bytes"].is_u64(), "{r}");
    }
    let chacha = records
        .iter()
        .find(|r| r["primitive"] == "chacha20" && r["variant"] == "rv32i")
        .unwrap();
    assert_eq!(chacha["bytes"], 100, "{chacha}");
    assert!(chacha["cycles_per_byte"].as_f64().unwrap() > 1.0, "{chacha}");
}

#[test]
#[ignore = "needs the Ibex model (scripts/test.sh builds it and runs this)"]
fn calibration_self_test_passes_on_ibex_sim() {
    let o = cyclebench(&["selftest", "--target", "ibex-sim"]);
    let text = text(&o);
    assert!(o.status.success(), "{text}");
    // The documented instruction blocks were timed, and each matched exactly.
    let calibration: Vec<&str> = text.lines().filter(|l| l.starts_with("test calibration::")).collect();
    assert!(calibration.len() >= 8, "{text}");
    assert!(calibration.iter().all(|l| l.ends_with("... ok")), "{text}");
    assert!(text.contains(" 0 failed"), "{text}");
}

#[test]
#[ignore = "needs the Ibex Zbb model (scripts/test.sh builds it and runs this)"]
fn zbb_variants_verify_and_save_cycles_on_ibex_sim_zbb() {
    let (log, records) = run_set("ibex-sim-zbb", "benchmarks/swcrypto/table1.bench");
    assert_eq!(records.len(), 18, "{log}");
    for r in &records {
        assert_eq!(r["platform"], "ibex-sim-zbb", "{r}");
        if r["status"] == "unsupported" {
            // Table AES has no rotations to replace, so no Zbb variant.
            assert_eq!(r["variant"], "zbb", "{r}");
            assert!(r["primitive"].as_str().unwrap().starts_with("aes-table"), "{r}");
        } else {
            assert_eq!(r["status"], "ok", "{r}");
            assert_eq!(r["verified"], true, "{r}");
        }
    }
    let cycles = |primitive: &str, variant: &str| {
        records
            .iter()
            .find(|r| r["primitive"] == primitive && r["variant"] == variant)
            .and_then(|r| r["total_cycles"].as_u64())
            .unwrap()
    };
    // Rotations (and and-not) make the rotation-heavy primitives cheaper on the same core.
    for primitive in ["chacha20", "keccak-f1600", "aes-bs-ctr"] {
        assert!(
            cycles(primitive, "zbb") < cycles(primitive, "rv32i"),
            "{primitive}: zbb {} rv32i {}",
            cycles(primitive, "zbb"),
            cycles(primitive, "rv32i")
        );
    }
}

#[test]
#[ignore = "needs the Ibex model (scripts/test.sh builds it and runs this)"]
fn leakage_test_flags_the_leaky_control_and_clears_the_constant_time_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("controls.bench");
    let line = |operation: &str, measurements: u32| {
        format!(
            r#"{{"leakage": {{"operation": "{operation}", "variant": "rv32i", "secret": "data", "measurements": {measurements}, "seed": 1}}}}"#
        )
    };
    let lines = [line("compare-leaky", 10_000), line("compare-ct", 100_000)];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let (log, records) = run_set("ibex-sim", file.to_str().unwrap());
    assert_eq!(records.len(), 2, "{log}");
    for (r, measurements) in records.iter().zip([10_000, 100_000]) {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["measurements"], measurements, "{r}");
        let counts = r["class0_count"].as_u64().unwrap() + r["class1_count"].as_u64().unwrap();
        assert_eq!(counts, measurements, "{r}");
    }
    let (leaky, constant) = (&records[0], &records[1]);
    assert_eq!(leaky["verdict"], "leak", "{leaky}");
    // Both classes take a constant time each: |t| is unbounded, null with its reason, never
    // a large number.
    assert_eq!(leaky["max_abs_t"], Value::Null, "{leaky}");
    assert_eq!(leaky["t_unbounded"], true, "{leaky}");
    assert_eq!(
        leaky["t_unbounded_reason"], "both classes have zero variance and different means",
        "{leaky}"
    );
    // Class 0 equals the reference and compares all 16 bytes; class 1 leaves early.
    assert!(leaky["class0_mean"].as_f64() > leaky["class1_mean"].as_f64(), "{leaky}");
    assert_eq!(leaky["code_symbol"], "cb_compare_leaky_rv32i", "{leaky}");
    assert_eq!(constant["verdict"], "no-leak-detected", "{constant}");
    assert!(constant["max_abs_t"].as_f64().unwrap() <= 4.5, "{constant}");
    assert_eq!(constant["t_unbounded"], false, "{constant}");
    // Exact timing: every call of the constant-time comparison takes the same time.
    for field in ["class0_max", "class1_min", "class1_max"] {
        assert_eq!(constant[field], constant["class0_min"], "{field}: {constant}");
    }
}

#[test]
#[ignore = "needs the Ibex model (scripts/test.sh builds it and runs this)"]
fn accelerator_leakage_tests_are_unsupported_without_accelerators() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("accelerators.bench");
    let lines = [
        r#"{"leakage": {"operation": "aes", "variant": "hardware", "secret": "data", "length": 16, "measurements": 100, "seed": 1}}"#,
        r#"{"leakage": {"operation": "hmac", "variant": "hardware", "secret": "key", "measurements": 100, "seed": 1}}"#,
        r#"{"leakage": {"operation": "kmac", "variant": "hardware", "secret": "key", "measurements": 100, "seed": 1}}"#,
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let (log, records) = run_set("ibex-sim", file.to_str().unwrap());
    assert_eq!(records.len(), 3, "{log}");
    for r in &records {
        assert_eq!(r["status"], "unsupported", "{r}");
        assert!(r["reason"].as_str().unwrap().contains("accelerator"), "{r}");
    }
}
