//! "Differences from the thesis": what the Earl Grey tables show, computed from the runs and
//! the reference figures. Each bullet states only numbers from those two sources and words
//! every comparison from them ([`wording`]); a bullet whose numbers were not measured is left
//! out. Why the numbers come out as they do is explained in `docs/analysis.md`.

use std::cmp::Reverse;
use std::fmt::Write as _;

use super::earlgrey::{best_pad, five_blocks as five_block_dataset, one_block, FIVE_BLOCKS, KEYS, MESSAGE, ONE_BLOCK};
use super::reference::{self, TABLE_6_1, TABLE_6_2};
use super::results::Run;
use super::wording::{cost_change, cost_range, cycles, is_are, join_and, per_key, span};

/// The hash step the accelerator, not the driver, dominates.
const AWAIT: &str = "await_digest";

/// Writes the section.
pub(super) fn write(w: &mut String, unmasked: &Run, masked: Option<&Run>) {
    let bullets = [
        driver_steps(unmasked),
        input_rate(unmasked),
        await_digest(unmasked),
        write_block(unmasked),
        compute(unmasked),
        timed_readout(unmasked),
        five_blocks(unmasked, masked),
        masking(unmasked, masked),
    ];
    let _ = writeln!(w, "### Differences from the thesis\n");
    let mut any = false;
    for bullet in bullets.into_iter().flatten() {
        let _ = writeln!(w, "- {bullet}");
        any = true;
    }
    if !any {
        let _ = writeln!(w, "Nothing to compare: the runs hold none of the figures above.");
    }
    let _ = writeln!(w);
}

/// Raw cycles of one AES benchmark phase.
fn aes(run: &Run, file: &str, dataset: &str, config: &str, phase: &str) -> Option<u64> {
    run.raw(file, dataset, config, phase).value()
}

/// The driver's own steps of both hashing tables against the thesis.
fn driver_steps(run: &Run) -> Option<String> {
    let mut ratios = Vec::new();
    for (style, table) in [("api-conform", &TABLE_6_1), ("tight", &TABLE_6_2)] {
        for step in table.iter().filter(|s| s.phase != AWAIT) {
            for (hash, thesis) in [("sha2", step.hmac), ("sha3", step.kmac)] {
                if let Some(ours) = run.raw(hash, MESSAGE, &format!("{hash} {style}"), step.phase).value() {
                    ratios.push(ours as f64 / thesis as f64);
                }
            }
        }
    }
    let range = cost_range(&ratios, "the thesis's")?;
    let names: Vec<&str> = TABLE_6_1.iter().filter(|s| s.phase != AWAIT).map(|s| s.name).collect();
    Some(format!(
        "**{}** (Tables 6.1 and 6.2, both hashes): {range}.",
        join_and(&names)
    ))
}

/// Input cycles per word against what each accelerator needs per word at its bound.
fn input_rate(run: &Run) -> Option<String> {
    let words = (reference::MESSAGE_BYTES / reference::WORD_BYTES) as f64;
    let per_word = |hash: &str, style: &str| {
        run.raw(hash, MESSAGE, &format!("{hash} {style}"), "input")
            .value()
            .map(|c| c as f64 / words)
    };
    let mut parts = Vec::new();
    let (mut slower, mut not_slower) = (Vec::new(), Vec::new());
    for (hash, label, ip, rate) in [
        ("sha2", "SHA-256", "HMAC", reference::hmac_cycles_per_word()),
        ("sha3", "SHA3-256", "KMAC", reference::kmac_cycles_per_word()),
    ] {
        let (Some(tight), Some(api)) = (per_word(hash, "tight"), per_word(hash, "api-conform")) else {
            continue;
        };
        parts.push(format!(
            "{label} {tight:.1} tight and {api:.1} API-conform against the {ip}'s {rate:.1}"
        ));
        if tight.min(api) > rate {
            slower.push(ip);
        } else {
            not_slower.push(ip);
        }
    }
    let takes = |ips: &[&str]| if ips.len() == 1 { "takes" } else { "take" };
    let verdict = match (slower.is_empty(), not_slower.is_empty()) {
        (true, true) => return None,
        (false, true) => format!(
            "the CPU supplies words more slowly than the {} {} them",
            join_and(&slower),
            takes(&slower)
        ),
        (true, false) => format!(
            "the CPU supplies words at least as fast as the {} {} them",
            join_and(&not_slower),
            takes(&not_slower)
        ),
        (false, false) => format!(
            "the CPU supplies words more slowly than the {} {} them and at least as fast as the {}",
            join_and(&slower),
            takes(&slower),
            join_and(&not_slower)
        ),
    };
    Some(format!(
        "**Input Data, cycles per 32-bit word** (Tables 6.1 and 6.2): {}: {verdict}.",
        parts.join("; ")
    ))
}

/// The wait for the digest in units of the accelerator's own work.
fn await_digest(run: &Run) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(h) = run.raw("sha2", MESSAGE, "sha2 api-conform", AWAIT).value() {
        let per_block = reference::HMAC_CYCLES_PER_BLOCK;
        parts.push(format!(
            "HMAC {h} cycles, {:.2} times its {per_block} cycles per block",
            h as f64 / per_block as f64
        ));
    }
    if let Some(k) = run.raw("sha3", MESSAGE, "sha3 api-conform", AWAIT).value() {
        let per_permutation = reference::KMAC_CYCLES_PER_PERMUTATION;
        parts.push(format!(
            "KMAC {k} cycles, {:.2} times its {per_permutation} cycles per Keccak-f",
            k as f64 / per_permutation as f64
        ));
    }
    (!parts.is_empty()).then(|| format!("**Await Digest** (Table 6.1): {}.", parts.join("; ")))
}

/// Writing one block against the thesis, with and without the input-ready check.
fn write_block(run: &Run) -> Option<String> {
    let thesis = reference::table_6_3("write")?.cycles;
    let ours = aes(run, "aes_per_block", &one_block(256), ONE_BLOCK, "write")?;
    let mut text = format!(
        "**Write Block** (Table 6.3, AES-256): {ours} cycles, {}",
        cost_change(ours as f64, thesis as f64, &format!("the thesis's {thesis}"))
    );
    let tight = aes(
        run,
        "aes_tight",
        &one_block(256),
        "encrypt per-block manual tight",
        "write",
    );
    if let Some(tight) = tight {
        let _ = write!(text, "; {tight} without the input-ready check (`aes_tight.bench`)");
    }
    text.push('.');
    Some(text)
}

/// Encryption compute per key length against the unmasked cipher's own time.
fn compute(run: &Run) -> Option<String> {
    let measured: Vec<(u32, u64)> = KEYS
        .iter()
        .filter_map(|&k| aes(run, "aes_per_block", &one_block(k), ONE_BLOCK, "compute").map(|c| (k, c)))
        .collect();
    let values: Vec<u64> = measured.iter().map(|&(_, c)| c).collect();
    let text = per_key(&values, KEYS.len())?;
    let longer: Vec<String> = measured
        .iter()
        .filter(|&&(k, c)| reference::aes_cycles_per_block(k).is_some_and(|bound| c > bound))
        .map(|(k, _)| format!("{k}-bit"))
        .collect();
    let verdict = if longer.len() == measured.len() {
        String::from("each longer than the cipher's own time for its key")
    } else if longer.is_empty() {
        String::from("none longer than the cipher's own time for its key")
    } else {
        format!("longer than the cipher's own time only for {} keys", join_and(&longer))
    };
    let bounds: Vec<String> = reference::AES_CYCLES_PER_BLOCK
        .iter()
        .map(|(_, c)| c.to_string())
        .collect();
    let keys: Vec<String> = reference::AES_CYCLES_PER_BLOCK
        .iter()
        .map(|(k, _)| k.to_string())
        .collect();
    Some(format!(
        "**Compute Block, encryption** (Fig. 6.4, unmasked): {text}, {verdict} ({} cycles per \
         block for {}-bit keys).",
        bounds.join("/"),
        keys.join("/")
    ))
}

/// The best timed status readout against the ordinary wait, next to the thesis's saving.
fn timed_readout(run: &Run) -> Option<String> {
    let thesis = reference::FIG_6_7_BEST_SAVING_PERCENT;
    let (saving, ordinary) = KEYS
        .iter()
        .filter_map(|&k| {
            let ordinary = aes(run, "aes_timed_readout", &one_block(k), ONE_BLOCK, "compute")?;
            let (best, _) = best_pad(run, k)?;
            Some((ordinary as i64 - best as i64, ordinary))
        })
        // The largest saving; on a tie the one that is the larger share of its wait.
        .max_by_key(|&(saving, ordinary)| (saving, Reverse(ordinary)))?;
    Some(match u64::try_from(saving) {
        Ok(saving) if saving > 0 => format!(
            "**Timed status readout** (Fig. 6.7): the best pad saves at most {} ({:.0} % of the \
             ordinary wait), where the thesis saved up to {thesis:.0} %.",
            cycles(saving),
            saving as f64 / ordinary as f64 * 100.0
        ),
        _ => format!(
            "**Timed status readout** (Fig. 6.7): no pad is faster than the ordinary wait, where \
             the thesis saved up to {thesis:.0} %."
        ),
    })
}

/// Process phase of five blocks per key length, against the thesis's one figure.
fn five_blocks(unmasked: &Run, masked: Option<&Run>) -> Option<String> {
    let thesis = reference::FIG_6_3_FIVE_BLOCKS;
    let process = |run: &Run| -> Vec<u64> {
        KEYS.iter()
            .filter_map(|&k| aes(run, "aes_total", &five_block_dataset(k), FIVE_BLOCKS, "process"))
            .collect()
    };
    let aes256 = aes(unmasked, "aes_total", &five_block_dataset(256), FIVE_BLOCKS, "process")?;
    let mut text = format!(
        "**Five blocks, automatic start** (Fig. 6.3, process phase): AES-256 unmasked {aes256} \
         cycles, {}; unmasked {}",
        cost_change(aes256 as f64, thesis as f64, &format!("the thesis's {thesis}")),
        per_key(&process(unmasked), KEYS.len())?
    );
    if let Some(spread) = masked.and_then(|m| per_key(&process(m), KEYS.len())) {
        let _ = write!(text, ", masked {spread}");
    }
    text.push('.');
    Some(text)
}

/// Masked against unmasked AES, step by step, per key length and for five blocks.
fn masking(unmasked: &Run, masked: Option<&Run>) -> Option<String> {
    let masked = masked?;
    let one = |run: &Run, key: u32, phase: &str| aes(run, "aes_per_block", &one_block(key), ONE_BLOCK, phase);
    let (mut same, mut differ) = (Vec::new(), Vec::new());
    for step in &reference::TABLE_6_3 {
        let (Some(u), Some(m)) = (one(unmasked, 256, step.phase), one(masked, 256, step.phase)) else {
            continue;
        };
        if u == m {
            same.push(step.name.to_owned());
        } else {
            differ.push(format!(
                "{} {m} masked against {u} unmasked ({:.2} times)",
                step.name,
                m as f64 / u as f64
            ));
        }
    }
    let mut parts = Vec::new();
    if !same.is_empty() {
        parts.push(format!("{} {} the same", join_and(&same), is_are(same.len())));
    }
    if !differ.is_empty() {
        parts.push(join_and(&differ));
    }
    let compute: Vec<u64> = KEYS.iter().filter_map(|&k| one(masked, k, "compute")).collect();
    if let Some(spread) = per_key(&compute, KEYS.len()) {
        parts.push(format!("masked Compute Block {spread} (Fig. 6.4)"));
    }
    let ratios: Vec<f64> = KEYS
        .iter()
        .filter_map(|&k| {
            let process = |run: &Run| aes(run, "aes_total", &five_block_dataset(k), FIVE_BLOCKS, "process");
            Some(process(masked)? as f64 / process(unmasked)? as f64)
        })
        .collect();
    if let Some(spread) = span(&ratios, |v| format!("{v:.2}")) {
        parts.push(format!("five blocks masked {spread} times unmasked (Fig. 6.3)"));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "**Masked against unmasked AES** (Table 6.3, AES-256): {}.",
            parts.join("; ")
        )
    })
}
