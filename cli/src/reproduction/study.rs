//! Seed 2's software-cryptography study (Stoffelen, "Efficient cryptography on the RISC-V
//! architecture", 2019) re-measured on the Ibex model: its Table 1 (cycles and cycles per byte
//! on the E31), Table 2 (estimated gain from a rotation instruction) against the rotations of
//! Zbb actually measured, and the data of Figures 1 and 2 (multi-precision arithmetic against
//! the number of limbs).
//!
//! Our figures are corrected cycles (the calibrated window overhead subtracted), which on
//! this model is exact: what the call itself costs, like the paper's counts.

use std::fmt::Write as _;

use super::reference::{self, TABLE_1, TABLE_2};
use super::results::{Found, Run};
use super::study_findings as findings;

/// Multi-precision operations of Figures 1 and 2.
pub(super) const MP_OPS: [(&str, &str); 6] = [
    ("mp-add", "add"),
    ("mp-add-reduced", "add, reduced"),
    ("mp-mul", "schoolbook"),
    ("mp-mul-reduced", "schoolbook, reduced"),
    ("mp-karatsuba", "Karatsuba"),
    ("mp-karatsuba-reduced", "Karatsuba, reduced"),
];

/// Limbs per operand the multi-precision benchmarks cover.
pub(super) const LIMBS: std::ops::RangeInclusive<u64> = 2..=32;

/// Signed change of `ours` against `reference`, one decimal.
pub(super) fn change(ours: Option<f64>, reference: f64) -> String {
    ours.map_or_else(String::new, |o| format!("{:+.1} %", (o / reference - 1.0) * 100.0))
}

/// Writes the study section.
pub(super) fn write(w: &mut String, ibex: &Run, zbb: Option<&Run>, one_instance: Option<&Run>) {
    let _ = writeln!(
        w,
        "## Seed 2's software-cryptography study on the Ibex model\n\n\
         Results: `{}`{}. The paper measured {}; we measure {} in a Verilator model, where \
         the counter is exact: the calibration self-test times documented instruction blocks to \
         the cycle. Our cycles are corrected (the window overhead subtracted) medians; every \
         output is checked against an expected output computed by reference crates, and a \
         mismatch shows as an error in the tables. Stack and code are bytes (code: the function \
         called plus the assembly it wraps, from the symbol table). The comparisons below are \
         computed from these tables; why the figures differ, and how they move between firmware \
         builds, is discussed in [analysis.md](analysis.md).\n",
        ibex.dir.display(),
        zbb.map_or(String::new(), |z| format!(" and `{}`", z.dir.display())),
        reference::PAPER_PLATFORM,
        reference::IBEX_MODEL,
    );
    table_1(w, ibex);
    match zbb {
        Some(zbb) => table_2(w, zbb),
        None => {
            let _ = writeln!(
                w,
                "\n(No ibex-sim-zbb results: Table 2 and the rotation study were not run.)\n"
            );
        }
    }
    mp_figures(w, ibex);
    findings::write(w, ibex, zbb);
    let mut runs = vec![("ibex-sim", ibex)];
    runs.extend(zbb.map(|z| ("ibex-sim-zbb", z)));
    runs.extend(one_instance.map(|o| ("ibex-sim, one instance", o)));
    super::speed::write(w, &runs);
}

/// Table 1: the paper's E31 and Cortex-M4 figures against our Rust and RV32I assembly.
fn table_1(w: &mut String, ibex: &Run) {
    let _ = writeln!(w, "### Table 1 — cycles on RV32I\n");
    let _ = writeln!(
        w,
        "| primitive | E31 (paper) | c/B | Cortex-M4 (paper) | ibex-sim Rust | ibex-sim RV32I asm | c/B | vs E31 | stack / code (asm) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for row in &TABLE_1 {
        let rust = ibex.software(row.primitive, "rust", row.length);
        let asm = ibex.software(row.primitive, "rv32i", row.length);
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row.name,
            row.e31,
            row.e31_per_byte.map_or(String::new(), |c| format!("{c:.1}")),
            row.cortex_m4,
            rust.cycles(),
            asm.cycles(),
            asm.per_byte(),
            change(asm.value(), row.e31),
            asm.memory(),
        );
    }
}

/// Table 2: the paper's estimated rotation gain against Zbb measured.
fn table_2(w: &mut String, zbb: &Run) {
    let _ = writeln!(
        w,
        "\n### Table 2 — rotations: the paper's estimate against Zbb measured\n"
    );
    let _ = writeln!(
        w,
        "The paper counted the instruction sequences a rotation would replace and assumed a \
         {}-cycle rotation, saving {} cycles per sequence (two shifts and an or become one \
         instruction). On `ibex-sim-zbb` the same core runs the RV32I assembly and the Zbb \
         assembly (`rori`, and for Keccak `andn`), so the gain is measured. The last column \
         divides the measured saving by the paper's rotation count for the same input.\n",
        reference::PAPER_ROTATION_CYCLES,
        reference::paper_saving_per_rotation(),
    );
    let _ = writeln!(
        w,
        "| scheme | rotations (paper) | est. gain | est. c/B | RV32I asm c/B | Zbb asm c/B | measured gain | Rust with Zbb c/B | saved per rotation |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for row in &TABLE_2 {
        let base = zbb.software(row.primitive, "rv32i", row.length);
        let with = zbb.software(row.primitive, "zbb", row.length);
        let rust = zbb.software(row.primitive, "rust", row.length);
        let measured = match (base.value(), with.value()) {
            (Some(b), Some(z)) => format!("{:.1} %", (1.0 - z / b) * 100.0),
            _ => String::new(),
        };
        let rotations = row.rotations_for_input();
        let per_rotation = match (base.value(), with.value()) {
            (Some(b), Some(z)) if rotations > 0.0 => format!("{:.2}", (b - z) / rotations),
            _ => String::new(),
        };
        let zbb_per_byte = match &with {
            Found::Measured(_) => with.per_byte(),
            Found::NotMeasured(why) => why.clone(),
        };
        let _ = writeln!(
            w,
            "| {} | {} | {:.1} % | {} | {} | {zbb_per_byte} | {measured} | {} | {per_rotation} |",
            row.name,
            row.rotations,
            row.gain,
            row.estimate,
            base.per_byte(),
            rust.per_byte(),
        );
    }
    let _ = writeln!(w);
}

/// Figures 1 and 2 as tables: cycles against limbs for every operation, both variants.
fn mp_figures(w: &mut String, ibex: &Run) {
    let _ = writeln!(
        w,
        "### Figures 1 and 2 — multi-precision addition and multiplication\n\n\
         Cycles on `ibex-sim` against the number of 32-bit limbs per operand (Karatsuba: even \
         counts only). RV32I assembly, with the portable Rust in parentheses.\n\n\
         ![Figure 1: addition](figures/seed2-fig1-mp-addition.svg)\n\
         ![Figure 2: multiplication](figures/seed2-fig2-mp-multiplication.svg)\n"
    );
    let mut header = String::from("| limbs |");
    let mut rule = String::from("|---:|");
    for (_, label) in MP_OPS {
        let _ = write!(header, " {label} |");
        rule.push_str("---:|");
    }
    let _ = writeln!(w, "{header}\n{rule}");
    for n in LIMBS {
        let mut row = format!("| {n} |");
        for (primitive, _) in MP_OPS {
            let asm = ibex.software(primitive, "rv32i", Some(n));
            let rust = ibex.software(primitive, "rust", Some(n));
            let cell = match (&asm, &rust) {
                (Found::NotMeasured(_), Found::NotMeasured(_)) => String::new(),
                _ => format!("{} ({})", asm.cycles(), rust.cycles()),
            };
            let _ = write!(row, " {cell} |");
        }
        let _ = writeln!(w, "{row}");
    }
    let _ = writeln!(w);
}

#[cfg(test)]
mod tests {
    use super::super::testdata::{line, measured, not_measured, run_of};
    use super::*;

    #[test]
    fn table_1_shows_each_variant_and_the_change_against_the_e31() {
        let (_d, ibex) = run_of(
            &[
                measured("aes-table", "rv32i", None, Some(16), 1000),
                not_measured("error", "error", "wrong answer: 00 != 01", "aes-table", "rust", None),
                // Same primitive and variant at another length: not Table 1's 4096 B row.
                measured("chacha20", "rv32i", Some(64), Some(64), 1800),
                measured("chacha20", "rv32i", Some(4096), Some(4096), 110_000),
            ],
            None,
        );
        let mut out = String::new();
        write(&mut out, &ibex, None, None);
        let t1 = "### Table 1";
        // 1000 against 912: +9.6 %; 1000 / 16 B = 62.5 c/B.
        assert_eq!(
            line(&out, t1, "| Table AES-128, one block |"),
            "| Table AES-128, one block | 912 | 57.0 | 644.7 | error: wrong answer | 1000 | 62.5 | +9.6 % | 208 / 3146 |"
        );
        // 110000 against 114365: -3.8 %; 26.86 c/B.
        assert_eq!(
            line(&out, t1, "| ChaCha20, 4096 B |"),
            "| ChaCha20, 4096 B | 114365 | 27.9 | 56934.4 | not run | 110000 | 26.9 | -3.8 % | 208 / 3146 |"
        );
        assert_eq!(
            line(&out, t1, "| Keccak-f[1600] |"),
            "| Keccak-f[1600] | 13774 | 68.9 | 12969 | not run | not run |  |  |  |"
        );
        assert!(out.contains("(No ibex-sim-zbb results"), "{out}");
    }

    #[test]
    fn table_2_measures_the_gain_and_the_cycles_saved_per_rotation() {
        // A record Table 2 does not read: a results file without records would not load.
        let (_i, ibex) = run_of(&[measured("mp-add", "rv32i", Some(32), None, 1000)], None);
        let (_z, zbb) = run_of(
            &[
                measured("chacha20", "rv32i", Some(4096), Some(4096), 110_000),
                measured("chacha20", "zbb", Some(4096), Some(4096), 90_000),
                measured("chacha20", "rust", Some(4096), Some(4096), 120_000),
                measured("keccak-f1600", "rv32i", None, Some(200), 13_000),
                not_measured(
                    "unsupported",
                    "reason",
                    "keccak-f1600 zbb: no such variant",
                    "keccak-f1600",
                    "zbb",
                    None,
                ),
                measured("aes-bs-ctr", "rv32i", Some(4096), Some(4096), 500_000),
                not_measured(
                    "error",
                    "error",
                    "lost link: model exited",
                    "aes-bs-ctr",
                    "zbb",
                    Some(4096),
                ),
            ],
            None,
        );
        let mut out = String::new();
        write(&mut out, &ibex, Some(&zbb), None);
        let t2 = "### Table 2";
        // 320 rotations per 64 B: 20480 over 4096 B; (110000 - 90000) / 20480 = 0.98 saved per
        // rotation; gain 1 - 90000/110000 = 18.2 %.
        assert_eq!(
            line(&out, t2, "| ChaCha20 |"),
            "| ChaCha20 | 320 | 35.8 % | 17.9 | 26.9 | 22.0 | 18.2 % | 29.3 | 0.98 |"
        );
        assert_eq!(
            line(&out, t2, "| Keccak-f[1600] |"),
            "| Keccak-f[1600] | 1248 | 18.1 % | 56.4 | 65.0 | — |  |  |  |"
        );
        assert_eq!(
            line(&out, t2, "| Bitsliced AES-CTR |"),
            "| Bitsliced AES-CTR | 144 | 7.0 % | 115.7 | 122.1 | error: lost link |  |  |  |"
        );
        assert_eq!(
            line(&out, t2, "| Table-based AES |"),
            "| Table-based AES | 0 | 0.0 % | 57 |  | not run |  |  |  |"
        );
    }

    #[test]
    fn multi_precision_rows_and_the_first_even_karatsuba_crossover() {
        let mut records = Vec::new();
        // Schoolbook 100 n² cycles; Karatsuba cheaper only at 3 (odd: not a Karatsuba size),
        // 6 and 8, not measured at 4.
        for n in 2..=8u64 {
            records.push(measured("mp-mul", "rv32i", Some(n), None, 100 * n * n));
        }
        for (n, k) in [(2, 500), (3, 800), (6, 3500), (8, 6000)] {
            records.push(measured("mp-karatsuba", "rv32i", Some(n), None, k));
        }
        records.push(measured("mp-karatsuba", "rust", Some(6), None, 4000));
        records.push(measured("mp-add", "rv32i", Some(32), None, 1000));
        records.push(measured("mp-add-reduced", "rv32i", Some(32), None, 630));
        let (_d, ibex) = run_of(&records, None);
        let mut out = String::new();
        write(&mut out, &ibex, None, None);
        let figures = "### Figures 1 and 2";
        assert_eq!(
            line(&out, figures, "| 6 |"),
            "| 6 |  |  | 3600 (not run) |  | 3500 (4000) |  |"
        );
        assert_eq!(line(&out, figures, "| 9 |"), "| 9 |  |  |  |  |  |  |");
        assert!(
            out.contains("One-level Karatsuba overtakes our schoolbook from 6 limbs;"),
            "{out}"
        );
        assert!(
            out.contains("faster by 37 % for addition (paper: 37 %), not measured for schoolbook"),
            "{out}"
        );

        let (_e, never) = run_of(&records[..7], None);
        let mut out = String::new();
        write(&mut out, &never, None, None);
        assert!(
            out.contains("overtakes our schoolbook at no size up to 32 limbs;"),
            "{out}"
        );
    }
}
