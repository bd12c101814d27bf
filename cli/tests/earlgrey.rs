//! End-to-end on the Earl Grey Verilator model: the real CLI, the real suite, hardware
//! accelerators. The model takes 10–15 minutes to build the first time and each request
//! several seconds of simulation, so these tests are `#[ignore]`d in a plain `cargo test`;
//! `scripts/test.sh` builds the model and runs them with `--ignored`.

mod common;

use common::{cyclebench, records, text};

#[test]
#[ignore = "needs the Earl Grey model (scripts/test.sh builds it and runs this)"]
fn smoke_set_gives_verified_hardware_results_on_earlgrey_sim() {
    let out = tempfile::tempdir().unwrap();
    let o = cyclebench(&[
        "run",
        "--target",
        "earlgrey-sim",
        "--no-report",
        "--out",
        out.path().to_str().unwrap(),
        "benchmarks/smoke/smoke.bench",
    ]);
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    let records = records(out.path());
    assert_eq!(records.len(), 6, "{log}");
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["verified"], true, "{r}");
        assert_eq!(r["cycle_accurate"], true, "{r}");
        assert_eq!(r["platform"], "earlgrey", "{r}");
    }
    // Accelerators, not software, answered.
    for r in records.iter().filter(|r| r["benchmark"] != "micro") {
        assert_eq!(r["implementation"], "hardware", "{r}");
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
}
