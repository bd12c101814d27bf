//! "Differences from the paper": what the study's tables show, computed from the Ibex runs and
//! seed 2's figures. Every comparison is worded from the numbers ([`wording`]); a bullet whose
//! numbers were not measured is left out. Why Ibex differs from the E31 is explained in
//! `docs/analysis.md`.

use std::fmt::Write as _;

use super::reference::{self, Table1Row, TABLE_1, TABLE_2};
use super::results::Run;
use super::study::{change, LIMBS};
use super::wording::{join_and, span};

/// Table 1's rows grouped by the implementation they measure, as the bullets name them.
const FAMILIES: [(&str, &[&str]); 4] = [
    ("Table AES", &["aes-table-ks", "aes-table"]),
    ("Bitsliced AES", &["aes-bs-ks", "aes-bs-ctr"]),
    ("ChaCha20", &["chacha20"]),
    ("Keccak-f[1600]", &["keccak-f1600"]),
];

/// Writes the section.
pub(super) fn write(w: &mut String, ibex: &Run, zbb: Option<&Run>) {
    let mut bullets: Vec<String> = FAMILIES
        .iter()
        .filter_map(|&(name, primitives)| against_e31(ibex, name, primitives))
        .collect();
    bullets.extend(zbb.and_then(rotations));
    bullets.extend(multi_precision(ibex));
    let _ = writeln!(w, "### Differences from the paper\n");
    if bullets.is_empty() {
        let _ = writeln!(w, "Nothing to compare: the runs hold none of the figures above.");
    }
    for bullet in bullets {
        let _ = writeln!(w, "- {bullet}");
    }
    let _ = writeln!(w);
}

/// Whether the RV32I assembly of one family beats the E31, from its Table 1 rows.
fn against_e31(ibex: &Run, family: &str, primitives: &[&str]) -> Option<String> {
    let rows: Vec<(&Table1Row, f64)> = TABLE_1
        .iter()
        .filter(|row| primitives.contains(&row.primitive))
        .filter_map(|row| Some((row, ibex.software_cycles(row.primitive, "rv32i", row.length)?)))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let cheaper: Vec<&str> = rows
        .iter()
        .filter(|&&(row, ours)| ours < row.e31)
        .map(|(row, _)| row.primitive)
        .collect();
    let verdict = if cheaper.len() == rows.len() {
        String::from("beats the E31")
    } else if cheaper.is_empty() {
        String::from("does not beat the E31")
    } else {
        let names: Vec<String> = cheaper.iter().map(|p| format!("`{p}`")).collect();
        format!("beats the E31 only in {}", join_and(&names))
    };
    let changes: Vec<String> = rows
        .iter()
        .map(|&(row, ours)| format!("`{}` {}", row.primitive, change(Some(ours), row.e31)))
        .collect();
    Some(format!(
        "**{family} {verdict}** (Table 1, RV32I assembly: {}).",
        changes.join(", ")
    ))
}

/// The measured saving per rotation against the paper's assumption, and what the Zbb code
/// would take with rotations as fast as the paper assumed.
fn rotations(zbb: &Run) -> Option<String> {
    // The Zbb assembly executes exactly the rotations the paper counted (bitsliced AES: 16
    // per MixColumns; ChaCha20: 320 per block; Keccak-f: 52 per round), so a rotation as fast
    // as the paper assumed would save the difference to Ibex's on each of them.
    let slower_by = (reference::IBEX_ROTATION_CYCLES - reference::PAPER_ROTATION_CYCLES) as f64;
    let (mut savings, mut measured, mut faster) = (Vec::new(), Vec::new(), Vec::new());
    let (mut below, mut not_below) = (Vec::new(), Vec::new());
    for row in TABLE_2.iter().filter(|r| r.rotations > 0) {
        let (Some(base), Some(with)) = (
            zbb.software_cycles(row.primitive, "rv32i", row.length),
            zbb.software_cycles(row.primitive, "zbb", row.length),
        ) else {
            continue;
        };
        let rotations = row.rotations_for_input();
        let bytes = row.input_bytes() as f64;
        let hypothetical = (with - rotations * slower_by) / bytes;
        savings.push((base - with) / rotations);
        measured.push(format!("{} {:.1} against {}", row.name, with / bytes, row.estimate));
        faster.push(format!("{hypothetical:.1}"));
        if hypothetical < row.estimate {
            below.push(row.name);
        } else {
            not_below.push(row.name);
        }
    }
    let saved = span(&savings, |v| format!("{v:.2}"))?;
    let assumed = reference::paper_saving_per_rotation() as f64;
    let than = if savings.iter().all(|&s| s < assumed) {
        "less than"
    } else if savings.iter().all(|&s| s > assumed) {
        "more than"
    } else {
        "around"
    };
    let verdict = match (below.is_empty(), not_below.is_empty()) {
        (false, true) => String::from("below every estimate"),
        (true, _) => String::from("below none of the estimates"),
        (false, false) => format!("below the estimate only for {}", join_and(&below)),
    };
    Some(format!(
        "**Rotations** (Table 2): each rotation the paper counted saves {saved} cycles, {than} the \
         {assumed} the paper assumed. Zbb assembly against the paper's estimate, c/B: {}. With a \
         {}-cycle rotation, as the paper assumed, the same code would take {} c/B: {verdict}.",
        measured.join(", "),
        reference::PAPER_ROTATION_CYCLES,
        join_and(&faster),
    ))
}

/// The reduced radix's gain and the Karatsuba crossover against the paper's, and the
/// schoolbook's cost per limb product.
fn multi_precision(ibex: &Run) -> Option<String> {
    let at = |p: &str, n: u64| ibex.software_cycles(p, "rv32i", Some(n));
    let largest = *LIMBS.end();
    let gain = |full: &str, what: &str| {
        let paper = reference::paper_reduced_radix_gain(full).map_or(String::new(), |g| format!(" (paper: {g} %)"));
        match (at(full, largest), at(&format!("{full}-reduced"), largest)) {
            (Some(f), Some(r)) if r <= f => format!("faster by {:.0} % for {what}{paper}", (1.0 - r / f) * 100.0),
            (Some(f), Some(r)) => format!("slower by {:.0} % for {what}{paper}", (r / f - 1.0) * 100.0),
            _ => format!("not measured for {what}{paper}"),
        }
    };
    let measured_any = LIMBS
        .clone()
        .any(|n| ["mp-add", "mp-mul", "mp-karatsuba"].iter().any(|p| at(p, n).is_some()));
    if !measured_any {
        return None;
    }
    let crossover = LIMBS
        .clone()
        .filter(|n| n % 2 == 0)
        .find(|&n| matches!((at("mp-karatsuba", n), at("mp-mul", n)), (Some(k), Some(s)) if k < s));
    let mut text = format!(
        "**Multi-precision** (Figures 1 and 2, {largest} limbs, RV32I assembly): the reduced radix \
         (2^28) is {}, {} and {}. One-level Karatsuba overtakes our schoolbook {}; the paper found \
         it {}.",
        gain("mp-add", "addition"),
        gain("mp-mul", "schoolbook multiplication"),
        gain("mp-karatsuba", "Karatsuba"),
        crossover.map_or(format!("at no size up to {largest} limbs"), |n| format!(
            "from {n} limbs"
        )),
        reference::PAPER_KARATSUBA,
    );
    if let Some(schoolbook) = at("mp-mul", largest) {
        let _ = write!(
            text,
            " Our schoolbook costs {:.1} cycles per limb product at {largest} limbs.",
            schoolbook / (largest * largest) as f64
        );
    }
    Some(text)
}
