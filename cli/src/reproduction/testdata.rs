//! Synthetic results for the reproduction's tests: records shaped like the writer's, results
//! directories holding them, and a complete set of the four runs the document reads.

use serde_json::{json, Map, Value};

use super::results::Run;

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

/// A measured Earl Grey record shaped like the writer's: raw phases as given, corrected
/// ones 6 cycles less.
pub(super) fn ok(file: &str, dataset: Option<&str>, config: &str, raw: &[(&str, u64)]) -> Value {
    let raw_phases: Map<String, Value> = raw.iter().map(|&(k, v)| (k.to_owned(), json!(v))).collect();
    let phases: Map<String, Value> = raw.iter().map(|&(k, v)| (k.to_owned(), json!(v - 6))).collect();
    let total: u64 = raw.iter().map(|&(_, v)| v - 6).sum();
    json!({"status": "ok", "target": "earlgrey-sim-unmasked", "platform": "earlgrey",
        "file": format!("benchmarks/{file}.bench"), "line": 3, "request": "{}",
        "benchmark": file, "dataset": dataset, "config": config, "module": file,
        "implementation": "hardware", "implementation_name": null, "verified": true,
        "check": "known_answer", "cycle_accurate": true, "repetitions": 1, "overhead": 6,
        "phases": phases, "raw_phases": raw_phases, "statistics": null, "total_cycles": total,
        "bytes": null, "cycles_per_byte": null, "fifo": null, "reason": null, "error": null,
        "firmware_revision": "859d4412d912", "timestamp": "2026-11-22T01:53:57+00:00"})
}

/// A failed Earl Grey record.
pub(super) fn failed(file: &str, dataset: Option<&str>, config: &str, error: &str) -> Value {
    let mut r = ok(file, dataset, config, &[]);
    r["status"] = json!("error");
    r["overhead"] = Value::Null;
    r["total_cycles"] = Value::Null;
    r["error"] = json!(error);
    r
}

/// A software record shaped like the writer's; `length` goes into the request (bytes, or
/// limbs for `mp-*`), `bytes` is what the primitive processed.
pub(super) fn sw(status: &str, primitive: &str, variant: &str, length: Option<u64>, bytes: Option<u64>) -> Value {
    let mut request = json!({"software": {"primitive": primitive, "variant": variant}});
    if let Some(n) = length {
        request["software"]["length"] = json!(n);
    }
    let mp = primitive.starts_with("mp-");
    json!({"status": status, "target": "ibex-sim", "platform": "ibex-sim",
        "file": "benchmarks/swcrypto/lengths.bench", "line": 4, "request": request.to_string(),
        "benchmark": "software", "dataset": null, "config": format!("{primitive} {variant}"),
        "module": "cpu", "implementation": null, "implementation_name": null, "verified": false,
        "check": null, "cycle_accurate": true, "repetitions": 1, "overhead": null, "phases": {},
        "raw_phases": {}, "statistics": null, "total_cycles": null,
        "bytes": if mp { None } else { bytes }, "cycles_per_byte": null, "fifo": null,
        "primitive": primitive, "variant": variant, "limbs": if mp { length } else { None },
        "stack_bytes": null, "code_symbol": null, "code_bytes": null, "reason": null,
        "error": null, "firmware_revision": "a57a01d800d3", "timestamp": "2026-11-22T03:30:25+00:00"})
}

/// A measured software record: `cycles` corrected (4 less raw), 2-decimal cycles per byte.
pub(super) fn measured(primitive: &str, variant: &str, length: Option<u64>, bytes: Option<u64>, cycles: u64) -> Value {
    let mut r = sw("ok", primitive, variant, length, bytes);
    r["verified"] = json!(true);
    r["overhead"] = json!(4);
    r["phases"] = json!({"run": cycles});
    r["raw_phases"] = json!({"run": cycles + 4});
    r["total_cycles"] = json!(cycles);
    if let Some(b) = r["bytes"].as_u64() {
        r["cycles_per_byte"] = json!((cycles as f64 / b as f64 * 100.0).round() / 100.0);
    }
    r["stack_bytes"] = json!(208);
    r["code_bytes"] = json!(3146);
    r
}

/// A software record that has no cycles: `why` in `field` (`error` or `reason`).
pub(super) fn not_measured(
    status: &str,
    field: &str,
    why: &str,
    primitive: &str,
    variant: &str,
    length: Option<u64>,
) -> Value {
    let mut r = sw(status, primitive, variant, length, None);
    r[field] = json!(why);
    r
}

/// The records and `run.json` of the four runs the document reads.
pub(super) struct Inputs {
    pub unmasked: (Vec<Value>, Value),
    pub masked: (Vec<Value>, Value),
    pub ibex: (Vec<Value>, Value),
    pub zbb: (Vec<Value>, Value),
}

/// Every run measured, each number passed through `vary(key, number)` first, where `key` names
/// the number (`run file dataset config phase`, or `run primitive variant length`), so that a
/// test can change any one of them or all. The base numbers are those of the real runs in
/// `docs/reproduction.md`, so the document built from them reads like the real one.
pub(super) fn inputs(vary: &dyn Fn(&str, u64) -> u64) -> Inputs {
    Inputs {
        unmasked: (
            earlgrey_records("unmasked", vary),
            meta("unmasked", 876, 7_390_000, 88, vary),
        ),
        masked: (
            earlgrey_records("masked", vary),
            meta("masked", 384, 1_995_000, 24, vary),
        ),
        ibex: (software_records("ibex", vary), meta("ibex", 16, 22_080_000, 372, vary)),
        zbb: (software_records("zbb", vary), meta("zbb", 19, 25_430_000, 372, vary)),
    }
}

fn meta(run: &str, wall: u64, cycles: u64, requests: u64, vary: &dyn Fn(&str, u64) -> u64) -> Value {
    json!({
        "wall_seconds": vary(&format!("{run} meta wall"), wall) as f64,
        "simulated_cycles": vary(&format!("{run} meta cycles"), cycles),
        "requests": vary(&format!("{run} meta requests"), requests),
    })
}

/// One Earl Grey record with its phases varied under `run file dataset config phase`.
fn earlgrey_ok(
    run: &str,
    vary: &dyn Fn(&str, u64) -> u64,
    file: &str,
    dataset: Option<&str>,
    config: &str,
    raw: &[(&str, u64)],
) -> Value {
    let key = format!("{run} {file} {} {config}", dataset.unwrap_or("-"));
    let raw: Vec<(&str, u64)> = raw
        .iter()
        .map(|&(phase, v)| (phase, vary(&format!("{key} {phase}"), v)))
        .collect();
    let mut r = ok(file, dataset, config, &raw);
    r["overhead"] = json!(vary(&format!("{run} overhead"), 6));
    r
}

fn earlgrey_records(run: &str, vary: &dyn Fn(&str, u64) -> u64) -> Vec<Value> {
    let masked = run == "masked";
    let rec = |file: &str, dataset: Option<&str>, config: &str, raw: &[(&str, u64)]| {
        earlgrey_ok(run, vary, file, dataset, config, raw)
    };
    let mut records = Vec::new();
    for (hash, style, input, await_digest, read) in [
        ("sha2", "api-conform", 851, 152, 59),
        ("sha2", "tight", 466, 152, 59),
        ("sha3", "api-conform", 853, 52, 67),
        ("sha3", "tight", 468, 52, 67),
    ] {
        records.push(rec(
            hash,
            Some("msg-256"),
            &format!("{hash} {style}"),
            &[
                ("init", 12),
                ("input", input),
                ("await_digest", await_digest),
                ("read_digest", read),
            ],
        ));
    }
    for (key, compute, compute_masked, process, process_masked, tight_process) in [
        (128, 35, 75, 344, 655, 391),
        (192, 35, 85, 344, 658, 391),
        (256, 35, 91, 344, 747, 421),
    ] {
        let one = format!("ecb-{key}-1b");
        let five = format!("ecb-{key}-5b");
        let (compute, process) = if masked {
            (compute_masked, process_masked)
        } else {
            (compute, process)
        };
        records.push(rec(
            "aes_per_block",
            Some(&one),
            "encrypt per-block manual",
            &[
                ("init", 131),
                ("write", 37),
                ("compute", compute),
                ("read", 40),
                ("deinit", 30),
            ],
        ));
        if key == 256 {
            records.push(rec(
                "aes_per_block",
                Some(&one),
                "encrypt interface manual",
                &[
                    ("init", 131),
                    ("write", 16),
                    ("compute", compute),
                    ("read", 27),
                    ("deinit", 30),
                ],
            ));
        }
        records.push(rec(
            "aes_total",
            Some(&five),
            "encrypt total automatic",
            &[("init", 131), ("process", process), ("deinit", 33)],
        ));
        if masked {
            continue;
        }
        records.push(rec(
            "aes_timed_readout",
            Some(&one),
            "encrypt per-block manual",
            &[("compute", 35)],
        ));
        for (pad, cycles) in [(0, 35), (4, if key == 256 { 36 } else { 34 })] {
            records.push(rec(
                "aes_timed_readout",
                Some(&one),
                &format!("encrypt per-block manual status-pad {pad}"),
                &[("compute", cycles)],
            ));
        }
        records.push(rec(
            "aes_tight",
            Some(&one),
            "encrypt per-block manual tight",
            &[("write", 31), ("compute", 35), ("read", 40)],
        ));
        records.push(rec(
            "aes_tight",
            Some(&five),
            "encrypt total manual tight",
            &[("process", tight_process)],
        ));
    }
    if !masked {
        records.push(failed(
            "rng",
            Some("seed384-3x128"),
            "seeded",
            "suite error (WrongAnswer): generate gave the wrong block",
        ));
        records.push(rec(
            "rng",
            None,
            "entropy-seeded 3 blocks",
            &[("init", 1200), ("generate", 600)],
        ));
        records.push(rec(
            "micro",
            None,
            "instruction blocks",
            &[
                ("nop", 8),
                ("nop10", 18),
                ("add10", 18),
                ("load10", 30),
                ("store10", 28),
            ],
        ));
    }
    records
}

fn software_records(run: &str, vary: &dyn Fn(&str, u64) -> u64) -> Vec<Value> {
    let rec = |primitive: &str, variant: &str, length: Option<u64>, bytes: Option<u64>, cycles: u64| {
        let key = format!(
            "{run} {primitive} {variant} {}",
            length.map_or("-".into(), |n| n.to_string())
        );
        measured(primitive, variant, length, bytes, vary(&key, cycles))
    };
    let mut records = vec![
        rec("aes-table-ks", "rv32i", None, None, 403),
        rec("aes-table-ks", "rust", None, None, 976),
        rec("aes-table", "rv32i", None, Some(16), 1095),
        rec("aes-table", "rust", None, Some(16), 1266),
        rec("aes-bs-ks", "rv32i", None, None, 1064),
        rec("aes-bs-ks", "rust", None, None, 6650),
        rec("aes-bs-ctr", "rv32i", Some(4096), Some(4096), 432_252),
        rec("aes-bs-ctr", "rust", Some(4096), Some(4096), 632_146),
        rec("chacha20", "rv32i", Some(4096), Some(4096), 112_818),
        rec("chacha20", "rust", Some(4096), Some(4096), 151_186),
        rec("keccak-f1600", "rv32i", None, Some(200), 13_598),
        rec("keccak-f1600", "rust", None, Some(200), 22_048),
    ];
    if run == "zbb" {
        records.extend([
            not_measured(
                "unsupported",
                "reason",
                "aes-table zbb: no such variant",
                "aes-table",
                "zbb",
                None,
            ),
            rec("aes-bs-ctr", "zbb", Some(4096), Some(4096), 411_700),
            rec("chacha20", "zbb", Some(4096), Some(4096), 92_200),
            rec("keccak-f1600", "zbb", None, Some(200), 12_111),
        ]);
    }
    // Figures 1 and 2 at a few sizes: schoolbook and Karatsuba cross between 18 and 20 limbs.
    for (n, add, add_reduced, mul, mul_reduced, karatsuba, karatsuba_reduced) in [
        (2, 74, 65, 183, 192, 404, 355),
        (18, 272, 199, 5722, 5251, 5774, 5205),
        (20, 290, 209, 6976, 6373, 6864, 6173),
        (32, 440, 311, 17_125, 15_394, 15_384, 13_721),
    ] {
        for (primitive, cycles) in [
            ("mp-add", add),
            ("mp-add-reduced", add_reduced),
            ("mp-mul", mul),
            ("mp-mul-reduced", mul_reduced),
            ("mp-karatsuba", karatsuba),
            ("mp-karatsuba-reduced", karatsuba_reduced),
        ] {
            records.push(rec(primitive, "rv32i", Some(n), None, cycles));
        }
    }
    records
}

/// The four runs of `inputs` in results directories (kept alive by the returned guards).
pub(super) fn runs(inputs: &Inputs) -> (Vec<tempfile::TempDir>, [Run; 4]) {
    let mut dirs = Vec::new();
    let mut load = |(records, meta): &(Vec<Value>, Value)| {
        let (dir, run) = run_of(records, Some(meta.clone()));
        dirs.push(dir);
        run
    };
    let runs = [
        load(&inputs.unmasked),
        load(&inputs.masked),
        load(&inputs.ibex),
        load(&inputs.zbb),
    ];
    (dirs, runs)
}
