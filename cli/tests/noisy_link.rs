//! Link integrity on qemu-virt: the thesis sets plus the smoke and the RV32I study's Table 1 sets
//! (about 150 requests) run once on a clean link, then five times with 1 % of the bytes damaged in
//! both directions (a bit flipped, the byte dropped, or a byte inserted), each run seeded.
//!
//! Asserted: no wrong result accepted, and at least 99 % of the requests complete with results
//! equal to the clean run's. The wall times are printed, not asserted (a loaded machine would
//! make a time limit fail for nothing); `docs/robustness.md` records them.

mod common;

use std::time::{Duration, Instant};

use common::{cyclebench, records, text};
use serde_json::Value;

const SETS: &[&str] = &[
    "benchmarks/aes_modes.bench",
    "benchmarks/aes_per_block.bench",
    "benchmarks/aes_tight.bench",
    "benchmarks/aes_timed_readout.bench",
    "benchmarks/aes_total.bench",
    "benchmarks/micro.bench",
    "benchmarks/rng.bench",
    "benchmarks/sha2.bench",
    "benchmarks/sha3.bench",
    "benchmarks/smoke/smoke.bench",
    "benchmarks/swcrypto/table1.bench",
];

/// Runs the sets, with `faults` = (rate, seed) if given; returns the records and wall time.
fn run(dir: &std::path::Path, faults: Option<(f64, u64)>) -> (Vec<Value>, Duration) {
    let out = dir.to_str().expect("UTF-8 temp path");
    let mut args = vec![
        "run",
        "--target",
        "qemu-virt",
        "--jobs",
        "1",
        "--no-report",
        "--out",
        out,
    ];
    let rate;
    let seed;
    if let Some((r, s)) = faults {
        rate = r.to_string();
        seed = s.to_string();
        args.extend(["--inject-faults", &rate, "--fault-seed", &seed]);
    }
    args.extend(SETS);
    let start = Instant::now();
    let o = cyclebench(&args);
    let wall = start.elapsed();
    assert!(o.status.success(), "{faults:?}: {}", text(&o));
    (records(dir), wall)
}

/// What a record says about the measurement, without when or how often it was asked for.
fn outcome(r: &Value) -> Value {
    let keep = [
        "status",
        "benchmark",
        "dataset",
        "config",
        "raw_phases",
        "reason",
        "error",
        "verified",
    ];
    keep.iter().map(|k| (k.to_string(), r[*k].clone())).collect()
}

#[test]
fn a_noisy_link_loses_nothing_and_pairs_every_result_with_its_request() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // Untimed: builds the firmware if no earlier test did, so the runs compare links only.
    run(&tmp.path().join("warm-up"), None);
    let (clean, clean_wall) = run(&tmp.path().join("clean"), None);
    assert!(clean.len() >= 140, "{} records", clean.len());
    assert!(clean.iter().all(|r| r["attempts"] == 1), "a clean link needs no retry");
    let mut failures = Vec::new();
    let mut table = vec![format!(
        "clean: {} requests in {:.1} s",
        clean.len(),
        clean_wall.as_secs_f64()
    )];
    for seed in 1..=5u64 {
        let (noisy, wall) = run(&tmp.path().join(format!("noisy-{seed}")), Some((0.01, seed)));
        assert_eq!(noisy.len(), clean.len(), "seed {seed}: every line gets a record");
        let mut equal = 0;
        let mut retried = 0;
        for (c, n) in clean.iter().zip(&noisy) {
            if n["status"] == "ok" {
                assert_eq!(
                    outcome(n),
                    outcome(c),
                    "seed {seed}: a result differs from the clean run's"
                );
            }
            equal += usize::from(outcome(n) == outcome(c));
            retried += usize::from(n["attempts"].as_u64().is_some_and(|a| a > 1));
        }
        let share = equal as f64 / clean.len() as f64;
        let slowdown = wall.as_secs_f64() / clean_wall.as_secs_f64();
        table.push(format!(
            "seed {seed}: {equal}/{} equal to the clean run ({:.1} %), {retried} retried, {:.1} s ({slowdown:.2}x)",
            clean.len(),
            100.0 * share,
            wall.as_secs_f64()
        ));
        if share < 0.99 {
            failures.push(format!(
                "seed {seed}: only {equal} of {} complete and equal",
                clean.len()
            ));
        }
    }
    eprintln!("{}", table.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
