//! The thesis's evaluation (tables 6.1–6.3, figures 6.2–6.7) against our runs on the Earl Grey
//! models: the tables, then the comparisons computed from them ([`findings`]).
//!
//! Thesis figures are raw cycle differences (no overhead subtracted), so these tables compare
//! them with our raw phases; corrected figures are in each run's results.

use std::fmt::Write as _;

use super::earlgrey_findings as findings;
use super::record::{Fields, Status};
use super::reference::{self, HashStep};
use super::results::{Cell, Run};

/// The hash benchmarks' dataset: the thesis's 256-byte message.
pub(super) const MESSAGE: &str = "msg-256";
/// The configuration of one block, manual start (Table 6.3, Figs. 6.4 and 6.7).
pub(super) const ONE_BLOCK: &str = "encrypt per-block manual";
/// The same at the thesis's window boundaries (`granularity: interface`).
pub(super) const ONE_BLOCK_THESIS_BOUNDARIES: &str = "encrypt interface manual";
/// The configuration of five blocks, automatic start (Fig. 6.3).
pub(super) const FIVE_BLOCKS: &str = "encrypt total automatic";
/// Blocks in the `ecb-*-5b` datasets.
const FIVE: u64 = 5;
/// AES key lengths, in bits.
pub(super) const KEYS: [u32; 3] = [128, 192, 256];
/// Pads (nops before the status read) the timed-readout benchmarks may use.
const PADS: std::ops::RangeInclusive<u16> = 0..=256;

/// The one-block dataset for a `key`-bit key.
pub(super) fn one_block(key: u32) -> String {
    format!("ecb-{key}-1b")
}

/// The five-block dataset for a `key`-bit key.
pub(super) fn five_blocks(key: u32) -> String {
    format!("ecb-{key}-5b")
}

/// Signed change of `ours` against the thesis, whole percent.
fn delta(ours: &Cell, thesis: u64) -> String {
    ours.value().map_or_else(String::new, |o| {
        format!("{:+.0} %", (o as f64 / thesis as f64 - 1.0) * 100.0)
    })
}

/// The cheapest compute phase of the timed status readout for a `key`-bit key and the pad it
/// took (the smallest on a tie).
pub(super) fn best_pad(run: &Run, key: u32) -> Option<(u64, u16)> {
    PADS.filter_map(|pad| {
        run.raw(
            "aes_timed_readout",
            &one_block(key),
            &format!("{ONE_BLOCK} status-pad {pad}"),
            "compute",
        )
        .value()
        .map(|c| (c, pad))
    })
    .min()
}

/// Writes the Earl Grey section.
pub(super) fn write(w: &mut String, unmasked: &Run, masked: Option<&Run>) {
    let (low, high) = reference::THESIS_WINDOW_OVERHEAD;
    let _ = writeln!(
        w,
        "## The thesis's evaluation on the Earl Grey model\n\n\
         Results: `{}`{}; `scripts/reproduce.sh` re-measures them and regenerates this document \
         (`cyclebench reproduction`). \
         Thesis numbers are {}; ours are {}. Both are **raw** cycle differences: the calibrated \
         overhead of one measurement window ({} cycles here; the thesis reports {low}–{high}) is \
         not subtracted. The comparisons below are computed from these tables; why the figures \
         differ is discussed in [analysis.md](analysis.md).\n",
        unmasked.dir.display(),
        masked.map_or(String::new(), |m| format!(" and `{}`", m.dir.display())),
        reference::THESIS_PLATFORM,
        reference::EARLGREY_MODEL,
        unmasked.overhead().map_or("?".into(), |o| o.to_string()),
    );

    let _ = writeln!(w, "### Table 6.1 — hashing 256 bytes, API-conform input\n");
    hash_table(w, unmasked, "api-conform", &reference::TABLE_6_1);
    let _ = writeln!(w, "### Table 6.2 — hashing 256 bytes, tight input (no ready check)\n");
    hash_table(w, unmasked, "tight", &reference::TABLE_6_2);
    aes_tables(w, unmasked, masked);
    rng(w, unmasked);
    driver_speed(w, unmasked);
    findings::write(w, unmasked, masked);
    let mut runs = vec![("earlgrey-sim-unmasked", unmasked)];
    runs.extend(masked.map(|m| ("earlgrey-sim", m)));
    super::speed::write(w, &runs);
}

fn hash_table(out: &mut String, run: &Run, style: &str, thesis: &[HashStep]) {
    let _ = writeln!(
        out,
        "| step | thesis H | ours H | Δ | thesis K | ours K | Δ |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    for step in thesis {
        let oh = run.raw("sha2", MESSAGE, &format!("sha2 {style}"), step.phase);
        let ok = run.raw("sha3", MESSAGE, &format!("sha3 {style}"), step.phase);
        let _ = writeln!(
            out,
            "| {} | {} | {oh} | {} | {} | {ok} | {} |",
            step.name,
            step.hmac,
            delta(&oh, step.hmac),
            step.kmac,
            delta(&ok, step.kmac)
        );
    }
    let (th, tk) = reference::hash_totals(thesis);
    let oh = run.total_raw("sha2", MESSAGE, &format!("sha2 {style}"));
    let ok = run.total_raw("sha3", MESSAGE, &format!("sha3 {style}"));
    let _ = writeln!(
        out,
        "| **total** | {th} | {oh} | {} | {tk} | {ok} | {} |\n",
        delta(&oh, th),
        delta(&ok, tk)
    );
}

/// Table 6.3 and Figs. 6.3, 6.4 and 6.7.
fn aes_tables(w: &mut String, unmasked: &Run, masked: Option<&Run>) {
    let masked_raw = |dataset: &str, config: &str, phase: &str| {
        masked.map_or(Cell::Missing, |m| m.raw("aes_per_block", dataset, config, phase))
    };
    let _ = writeln!(w, "### Table 6.3 — AES-256, one block, manual start\n");
    let _ = writeln!(
        w,
        "Two splits of the same operation. Our own boundaries put the loads of the block from RAM \
         and, API-conform, the input-ready check into the write window; the thesis's boundaries \
         (`granularity: interface`) hold only the four register stores of a block already in \
         registers, and in the read window the four register loads and the stores into RAM. \
         The thesis's code was also run on this model (masked AES, its default), which compares \
         with our masked figures at its boundaries.\n"
    );
    let _ = writeln!(
        w,
        "| step | thesis (FPGA, unmasked) | ours unmasked | Δ | thesis code, this model (masked) | \
         ours masked, thesis boundaries | Δ | ours unmasked, thesis boundaries | ours masked |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for (step, &on_model) in reference::TABLE_6_3
        .iter()
        .zip(&reference::TABLE_6_3_THESIS_CODE_ON_MODEL)
    {
        let ou = unmasked.raw("aes_per_block", &one_block(256), ONE_BLOCK, step.phase);
        let om = masked_raw(&one_block(256), ONE_BLOCK, step.phase);
        let ui = unmasked.raw(
            "aes_per_block",
            &one_block(256),
            ONE_BLOCK_THESIS_BOUNDARIES,
            step.phase,
        );
        let mi = masked_raw(&one_block(256), ONE_BLOCK_THESIS_BOUNDARIES, step.phase);
        let _ = writeln!(
            w,
            "| {} | {} | {ou} | {} | {on_model} | {mi} | {} | {ui} | {om} |",
            step.name,
            step.cycles,
            delta(&ou, step.cycles),
            delta(&mi, on_model),
        );
    }

    let _ = writeln!(w, "\n### Fig. 6.3 — five blocks, automatic start (two in flight)\n");
    let _ = writeln!(w, "| key | phase | ours unmasked | ours masked |\n|---|---|---:|---:|");
    for key in KEYS {
        for phase in ["init", "process", "deinit"] {
            let ds = five_blocks(key);
            let ou = unmasked.raw("aes_total", &ds, FIVE_BLOCKS, phase);
            let om = masked.map_or(Cell::Missing, |m| m.raw("aes_total", &ds, FIVE_BLOCKS, phase));
            let _ = writeln!(w, "| {key} | {phase} | {ou} | {om} |");
        }
    }
    let _ = writeln!(
        w,
        "\nThe thesis's total for five AES-256 blocks is {} cycles (same for every key length).\n",
        reference::FIG_6_3_FIVE_BLOCKS
    );

    let _ = writeln!(w, "### Fig. 6.4 — one block, manual start, per key length\n");
    let _ = writeln!(
        w,
        "| key | write | compute | read | compute masked |\n|---|---:|---:|---:|---:|"
    );
    for key in KEYS {
        let ds = one_block(key);
        let c = |p: &str| unmasked.raw("aes_per_block", &ds, ONE_BLOCK, p);
        let cm = masked_raw(&ds, ONE_BLOCK, "compute");
        let _ = writeln!(
            w,
            "| {key} | {} | {} | {} | {cm} |",
            c("write"),
            c("compute"),
            c("read")
        );
    }

    let _ = writeln!(
        w,
        "\n### Fig. 6.7 — timed status readout (nops before one status read)\n"
    );
    let _ = writeln!(
        w,
        "| key | ordinary wait: compute | best padded: compute | at pad |\n|---|---:|---:|---:|"
    );
    for key in KEYS {
        let ordinary = unmasked.raw("aes_timed_readout", &one_block(key), ONE_BLOCK, "compute");
        let (b, p) =
            best_pad(unmasked, key).map_or(("not run".into(), "".into()), |(c, p)| (c.to_string(), p.to_string()));
        let _ = writeln!(w, "| {key} | {ordinary} | {b} | {p} |");
    }
}

/// The random-number configurations of Fig. 6.2: what each is called, its dataset and config.
const RNG: [(&str, Option<&str>, &str); 4] = [
    ("384-bit seed", Some("seed384-3x128"), "seeded"),
    ("entropy-seeded", None, "entropy-seeded 3 blocks"),
    (
        "384-bit seed, 2000-cycle init wait",
        Some("seed384-3x128"),
        "seeded init-wait 2000",
    ),
    (
        "entropy-seeded, 2000-cycle init wait",
        None,
        "entropy-seeded 3 blocks init-wait 2000",
    ),
];

/// Fig. 6.2: the raw phases of each configuration, or its error.
fn rng(w: &mut String, run: &Run) {
    let _ = writeln!(w, "\n### Fig. 6.2 — random number generation (3 × 128 bits)\n");
    let mut failed = false;
    for (what, dataset, cfg) in RNG {
        let text = match run.find("rng", dataset, cfg) {
            None => "not run".to_owned(),
            Some(r) if r.outcome() == Status::Ok => {
                let phases: Vec<String> = r
                    .raw_phases_in_order()
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect();
                phases.join(", ")
            }
            Some(r) => {
                failed = true;
                format!("error: {}", r.failure().unwrap_or(""))
            }
        };
        let _ = writeln!(w, "- **{what}**: {text}");
    }
    if failed {
        let _ = writeln!(
            w,
            "\nWhy these checks fail: [analysis.md](analysis.md#random-number-generation)."
        );
    }
    let _ = writeln!(w);
}

/// Totals against the thesis and the IP bounds, the tight AES variant and the micro-benchmarks.
fn driver_speed(w: &mut String, unmasked: &Run) {
    use reference::{
        AES_CYCLES_PER_BLOCK as AES, HMAC_BLOCK_BYTES, HMAC_CYCLES_PER_BLOCK, KMAC_CYCLES_PER_PERMUTATION,
        MESSAGE_BYTES as BYTES, SHA3_256_RATE_BYTES,
    };
    let _ = writeln!(
        w,
        "### Driver speed against the thesis, the IP's own bound and the chip bound\n"
    );
    let aes_cycles: Vec<String> = AES.iter().map(|(_, c)| c.to_string()).collect();
    let aes_keys: Vec<String> = AES.iter().map(|(k, _)| k.to_string()).collect();
    let _ = writeln!(
        w,
        "Totals are raw sums of the phases. Bounds from the OpenTitan documentation: HMAC \
         {HMAC_CYCLES_PER_BLOCK} cycles per {HMAC_BLOCK_BYTES}-byte block ({BYTES} bytes + padding \
         = {} blocks), KMAC {KMAC_CYCLES_PER_PERMUTATION} cycles per Keccak-f (SHA3-256 rate \
         {SHA3_256_RATE_BYTES} bytes: {} permutations), unmasked AES {} cycles per block for \
         {}-bit keys.\n",
        reference::sha256_blocks(BYTES),
        reference::sha3_256_permutations(BYTES),
        aes_cycles.join("/"),
        aes_keys.join("/"),
    );
    let bus = super::chip_bound::BusCosts::measure(unmasked);
    match bus {
        Some(b) => {
            let _ = writeln!(
                w,
                "The chip bound adds to the IP's time the register transfers no driver can avoid, \
                 at this run's bus costs: a register store {:.2} cycles and a register load \
                 {:.2} (from the AES-256 block at the thesis's boundaries: its write window holds \
                 four stores, its read window four loads and four RAM stores, a RAM store being a \
                 tenth of the micro-benchmarks' `store10`), a RAM load {:.2} (a tenth of \
                 `load10`); the status checks the hardware requires, {:.2} cycles each (a register \
                 load, and a mask and a branch at {:.2} cycles per instruction, a tenth of \
                 `add10`); and the calibrated overhead of each window. What each bound counts is in \
                 `cli/src/reproduction/chip_bound.rs`; beyond the checks, the bounds count no \
                 instruction around the transfers.\n",
                b.store,
                b.load,
                b.ram_load,
                b.check(),
                b.instruction
            );
        }
        None => {
            let _ = writeln!(
                w,
                "(No chip bound: the run lacks the AES block at the thesis's boundaries or the \
                 micro-benchmarks, which give the bus costs.)\n"
            );
        }
    }
    let _ = writeln!(
        w,
        "| operation | thesis | ours | Δ | IP bound | chip bound | ours against chip bound |\n\
         |---|---:|---:|---:|---:|---:|---:|"
    );
    let (api_h, api_k) = reference::hash_totals(&reference::TABLE_6_1);
    let (tight_h, tight_k) = reference::hash_totals(&reference::TABLE_6_2);
    let aes256 = reference::aes_cycles_per_block(256).unwrap_or_default();
    let thesis_compute = reference::table_6_3("compute").map_or(0, |s| s.cycles);
    use super::chip_bound as chip;
    let sha3_await = |style: &str| {
        unmasked
            .raw("sha3", MESSAGE, &format!("sha3 {style}"), "await_digest")
            .value()
    };
    let bounds: [Option<u64>; 6] = match bus {
        Some(b) => [
            Some(chip::sha256(b, true)),
            Some(chip::sha256(b, false)),
            chip::sha3(b, true, sha3_await("api-conform")),
            chip::sha3(b, false, sha3_await("tight")),
            Some(chip::aes_five_blocks(b, aes256)),
            Some(chip::aes_compute(b, aes256)),
        ],
        None => [None; 6],
    };
    let rows: [(&str, u64, Cell, u64); 6] = [
        (
            "SHA-256, 256 B, API-conform",
            api_h,
            unmasked.total_raw("sha2", MESSAGE, "sha2 api-conform"),
            reference::hmac_bound(BYTES),
        ),
        (
            "SHA-256, 256 B, tight",
            tight_h,
            unmasked.total_raw("sha2", MESSAGE, "sha2 tight"),
            reference::hmac_bound(BYTES),
        ),
        (
            "SHA3-256, 256 B, API-conform",
            api_k,
            unmasked.total_raw("sha3", MESSAGE, "sha3 api-conform"),
            reference::kmac_bound(BYTES),
        ),
        (
            "SHA3-256, 256 B, tight",
            tight_k,
            unmasked.total_raw("sha3", MESSAGE, "sha3 tight"),
            reference::kmac_bound(BYTES),
        ),
        (
            "AES-256, 5 blocks automatic (process phase)",
            reference::FIG_6_3_FIVE_BLOCKS,
            unmasked.raw("aes_total", &five_blocks(256), FIVE_BLOCKS, "process"),
            FIVE * aes256,
        ),
        (
            "AES-256, 1 block manual (compute phase)",
            thesis_compute,
            unmasked.raw("aes_per_block", &one_block(256), ONE_BLOCK, "compute"),
            aes256,
        ),
    ];
    for ((name, thesis, ours, bound), chip) in rows.into_iter().zip(bounds) {
        let (chip_cell, distance) = match chip {
            Some(c) => (c.to_string(), delta(&ours, c)),
            None => (String::from("—"), String::new()),
        };
        let _ = writeln!(
            w,
            "| {name} | {thesis} | {ours} | {} | {bound} | {chip_cell} | {distance} |",
            delta(&ours, thesis)
        );
    }
    if bus.is_some() && bounds[2].is_none() {
        if let Some(a) = sha3_await("tight") {
            let _ = writeln!(
                w,
                "\nNo chip bound for SHA3-256: its Await Digest ({a} cycles, tight) is shorter than \
                 the documented {KMAC_CYCLES_PER_PERMUTATION} cycles per Keccak-f, so the \
                 documentation's latency does not hold for this RTL and cannot bound it."
            );
        }
    }
    let _ = writeln!(w, "\nWithout the input-ready check (`aes_tight.bench`):\n");
    let _ = writeln!(
        w,
        "| key | 1 block manual: write | compute | read | 5 blocks manual: process |\n|---|---:|---:|---:|---:|"
    );
    for key in KEYS {
        let c = |p: &str| unmasked.raw("aes_tight", &one_block(key), "encrypt per-block manual tight", p);
        let p5 = unmasked.raw("aes_tight", &five_blocks(key), "encrypt total manual tight", "process");
        let _ = writeln!(
            w,
            "| {key} | {} | {} | {} | {p5} |",
            c("write"),
            c("compute"),
            c("read")
        );
    }
    let _ = writeln!(w);
    if let Some(micro) = unmasked
        .records
        .iter()
        .find(|r| r.kind() == "micro" && r.outcome() == Status::Ok)
    {
        let phases: Vec<String> = micro
            .phases()
            .iter()
            .map(|p| format!("{} {}", p.name, p.cycles))
            .collect();
        let _ = writeln!(
            w,
            "Instruction costs on this core (micro-benchmarks, corrected, measured code in RAM): {}.\n",
            phases.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testdata::{failed, line, ok, run_of};
    use super::*;
    use serde_json::json;

    fn earlgrey_of(unmasked: &Run, masked: Option<&Run>) -> String {
        let mut out = String::new();
        write(&mut out, unmasked, masked);
        out
    }

    #[test]
    fn hash_tables_show_raw_cycles_deltas_totals_and_what_was_not_run() {
        let sha2 = [("init", 12), ("input", 851), ("await_digest", 152), ("read_digest", 59)];
        let (_d, unmasked) = run_of(
            &[
                ok("sha2", Some("msg-256"), "sha2 api-conform", &sha2),
                failed(
                    "sha3",
                    Some("msg-256"),
                    "sha3 api-conform",
                    "suite error (Timeout): no digest",
                ),
            ],
            None,
        );
        let out = earlgrey_of(&unmasked, None);
        let t61 = "### Table 6.1";
        // 12 against 21: -42.9 %; 851 against 1694: -49.8 %.
        assert_eq!(
            line(&out, t61, "| Initialization |"),
            "| Initialization | 21 | 12 | -43 % | 20 | error: suite error (Timeout) |  |"
        );
        assert_eq!(
            line(&out, t61, "| Input Data |"),
            "| Input Data | 1694 | 851 | -50 % | 1634 | error: suite error (Timeout) |  |"
        );
        // Raw total 1074 against 1943.
        assert_eq!(
            line(&out, t61, "| **total** |"),
            "| **total** | 1943 | 1074 | -45 % | 1802 | error: suite error (Timeout) |  |"
        );
        assert_eq!(
            line(&out, "### Table 6.2", "| Await Digest |"),
            "| Await Digest | 159 | not run |  | 70 | not run |  |"
        );
        assert_eq!(
            line(&out, "### Driver speed", "| SHA-256, 256 B, API-conform |"),
            "| SHA-256, 256 B, API-conform | 1943 | 1074 | -45 % | 400 | — |  |"
        );
        assert!(out.contains("measurement window (6 cycles here;"), "{out}");
    }

    #[test]
    fn aes_tables_take_each_run_and_the_best_status_pad() {
        let one = [
            ("init", 263),
            ("write", 37),
            ("compute", 35),
            ("read", 25),
            ("deinit", 33),
        ];
        let pad = |p: u16| format!("{ONE_BLOCK} status-pad {p}");
        let (_u, unmasked) = run_of(
            &[
                ok("aes_per_block", Some("ecb-256-1b"), ONE_BLOCK, &one),
                ok(
                    "aes_per_block",
                    Some("ecb-256-1b"),
                    ONE_BLOCK_THESIS_BOUNDARIES,
                    &[("init", 263), ("write", 12), ("read", 20)],
                ),
                ok("aes_total", Some("ecb-256-5b"), FIVE_BLOCKS, &[("process", 344)]),
                ok("aes_timed_readout", Some("ecb-128-1b"), ONE_BLOCK, &[("compute", 35)]),
                ok("aes_timed_readout", Some("ecb-128-1b"), &pad(3), &[("compute", 36)]),
                ok("aes_timed_readout", Some("ecb-128-1b"), &pad(5), &[("compute", 34)]),
                ok("aes_timed_readout", Some("ecb-128-1b"), &pad(9), &[("compute", 34)]),
            ],
            None,
        );
        let (_m, masked) = run_of(
            &[failed(
                "aes_per_block",
                Some("ecb-256-1b"),
                ONE_BLOCK,
                "lost link: model exited",
            )],
            None,
        );
        let out = earlgrey_of(&unmasked, Some(&masked));
        let t63 = "### Table 6.3";
        // 263 against 306: -14.1 %; 37 against 24: +54.2 %.
        assert_eq!(
            line(&out, t63, "| Initialization |"),
            "| Initialization | 306 | 263 | -14 % | 214 | not run |  | 263 | error: lost link |"
        );
        assert_eq!(
            line(&out, t63, "| Write Block |"),
            "| Write Block | 24 | 37 | +54 % | 18 | not run |  | 12 | error: lost link |"
        );
        assert_eq!(
            line(&out, "### Fig. 6.3", "| 256 | process |"),
            "| 256 | process | 344 | not run |"
        );
        assert_eq!(
            line(&out, "### Fig. 6.3", "| 128 | init |"),
            "| 128 | init | not run | not run |"
        );
        // The cheapest pad wins; on a tie the smallest pad.
        assert_eq!(line(&out, "### Fig. 6.7", "| 128 |"), "| 128 | 35 | 34 | 5 |");
        assert_eq!(line(&out, "### Fig. 6.7", "| 192 |"), "| 192 | not run | not run |  |");
        assert_eq!(
            line(&out, "### Driver speed", "| AES-256, 5 blocks automatic"),
            "| AES-256, 5 blocks automatic (process phase) | 491 | 344 | -30 % | 80 | — |  |"
        );
    }

    #[test]
    fn rng_micro_and_tool_speed_lines() {
        let (_d, unmasked) = run_of(
            &[
                failed(
                    "rng",
                    Some("seed384-3x128"),
                    "seeded",
                    "suite error (WrongAnswer): generate 1 gave 2d73",
                ),
                ok(
                    "rng",
                    None,
                    "entropy-seeded 3 blocks",
                    &[("init", 100), ("generate1", 60), ("generate2", 50)],
                ),
                ok("micro", None, "instruction blocks", &[("nop10", 18), ("load10", 30)]),
            ],
            Some(json!({"wall_seconds": 20.0, "simulated_cycles": 100_000, "requests": 10})),
        );
        let out = earlgrey_of(&unmasked, None);
        let rng = "### Fig. 6.2";
        assert_eq!(
            line(&out, rng, "- **384-bit seed**"),
            "- **384-bit seed**: error: suite error (WrongAnswer): generate 1 gave 2d73"
        );
        // Raw phases, in the order measured.
        assert_eq!(
            line(&out, rng, "- **entropy-seeded**"),
            "- **entropy-seeded**: init 100, generate1 60, generate2 50"
        );
        assert_eq!(
            line(&out, rng, "- **384-bit seed, 2000-cycle"),
            "- **384-bit seed, 2000-cycle init wait**: not run"
        );
        assert_eq!(
            line(&out, rng, "Why these checks fail"),
            "Why these checks fail: [analysis.md](analysis.md#random-number-generation)."
        );
        // Corrected phases.
        assert!(
            out.contains("(micro-benchmarks, corrected, measured code in RAM): nop10 12, load10 24.\n"),
            "{out}"
        );
        assert_eq!(
            line(&out, "### Tool speed", "- earlgrey-sim-unmasked"),
            "- earlgrey-sim-unmasked: 10 requests in 20.0 s wall (30.0 benchmarks per minute), 5000 \
             simulated cycles per wall second (including firmware build check, model start-up and boot)"
        );
    }

    #[test]
    fn no_pointer_to_failed_checks_when_every_rng_check_passes() {
        let (_d, unmasked) = run_of(&[ok("rng", Some("seed384-3x128"), "seeded", &[("init", 100)])], None);
        let out = earlgrey_of(&unmasked, None);
        assert!(!out.contains("Why these checks fail"), "{out}");
    }
}
