//! RNG benchmarks (thesis 6.1.2, Fig. 6.2): seeding, then each generate request and the read
//! of its blocks.

use alloc::format;
use alloc::vec::Vec;

use cyclebench_modules::{ModuleError, Rng};
use cyclebench_protocol::{Check, GeneratePhases, Phases, RngPhases, RngSeededBenchmark, RngTrueRandomBenchmark};

use super::{hex_words, BenchError, Outcome, Samples};
use crate::cycles::stamp;
use crate::platform::Platform;

/// Seeds with `seed` (None = entropy source), runs the generate plan, and returns
/// `[init, gen1, read1, gen2, read2, ...]` and every block read.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn once<M: Rng>(
    r: &mut M,
    seed: Option<&[u32]>,
    plan: &[u8],
    init_wait: Option<u32>,
    out: &mut Vec<[u32; 4]>,
) -> Result<Vec<u64>, ModuleError> {
    let mut phases = Vec::with_capacity(1 + 2 * plan.len());
    out.clear();
    // A slot for every block before the clock starts: an allocation inside a read window would
    // time the heap, and a push would keep the words alive across its (never taken) call to
    // grow the vector, spilling them to the stack inside the window.
    out.resize(plan.iter().map(|&b| usize::from(b)).sum(), [0; 4]);
    let mut slots = out.iter_mut();
    let start = stamp();
    r.init(seed)?;
    let seeded = stamp();
    phases.push(seeded.since(start));
    if let Some(cycles) = init_wait {
        crate::cycles::pause(cycles);
    }
    let mut last = if init_wait.is_some() { stamp() } else { seeded };
    for &blocks in plan {
        r.generate(u32::from(blocks))?;
        let generated = stamp();
        for slot in slots.by_ref().take(usize::from(blocks)) {
            *slot = r.read_output()?;
        }
        let read = stamp();
        phases.push(generated.since(last));
        phases.push(read.since(generated));
        last = read;
    }
    Ok(phases)
}

fn summarise(samples: &Samples, implementation: cyclebench_protocol::ImplementationKind, check: Check) -> Outcome {
    let s = samples.summary();
    let generates = s[1..]
        .chunks_exact(2)
        .map(|p| GeneratePhases {
            generate: p[0],
            read: p[1],
        })
        .collect();
    Outcome::Measured {
        implementation,
        check,
        phases: Phases::Rng(RngPhases { init: s[0], generates }),
    }
}

/// Seeded generation over a dataset; every block with a known answer is checked.
pub fn run_seeded<P: Platform>(
    platform: &mut P,
    b: &RngSeededBenchmark,
    repetitions: u16,
) -> Result<Outcome, BenchError> {
    let module = platform.rng();
    let all = cyclebench_datasets::RNG;
    let d = cyclebench_datasets::rng(b.dataset.as_str())
        .ok_or_else(|| BenchError::unknown_dataset("rng", b.dataset.as_str(), all.iter().map(|d| d.id)))?;
    let plan: Vec<u8> = d.generates.iter().map(|g| g.blocks).collect();
    let mut samples = Samples::new(1 + 2 * plan.len(), repetitions)?;
    let mut out = Vec::new();
    let standard = module.module.follows_standard();
    // Without a known answer, the check the thesis made: the same seed gives the same output.
    let mut first: Option<Vec<[u32; 4]>> = None;
    for _ in 0..repetitions {
        let row = once(module.module, Some(d.seed), &plan, b.init_wait, &mut out)
            .map_err(|e| BenchError::module("rng", e))?;
        if standard {
            check_known_answers(d, &out)?;
        } else {
            same_output(d.id, first.get_or_insert_with(|| out.clone()), &out)?;
        }
        samples.push(&row);
    }
    if standard {
        return Ok(summarise(&samples, module.kind, Check::KnownAnswer));
    }
    if repetitions == 1 {
        // One more (unmeasured) instantiation with the same seed, to have two to compare.
        let mut again = Vec::new();
        once(module.module, Some(d.seed), &plan, None, &mut again).map_err(|e| BenchError::module("rng", e))?;
        same_output(d.id, &out, &again)?;
    }
    Ok(summarise(&samples, module.kind, Check::Plausibility))
}

/// Compares every generate of the dataset that has a published answer.
fn check_known_answers(d: &cyclebench_datasets::RngDataset, out: &[[u32; 4]]) -> Result<(), BenchError> {
    let mut blocks = out.iter();
    for (i, g) in d.generates.iter().enumerate() {
        let got: Vec<[u32; 4]> = blocks.by_ref().take(usize::from(g.blocks)).copied().collect();
        if let Some(expected) = g.expected {
            if got != expected {
                let flat = |b: &[[u32; 4]]| hex_words(&b.iter().flatten().copied().collect::<Vec<_>>());
                return Err(BenchError::wrong_answer(
                    "rng",
                    d.id,
                    &format!("generate {} gave {} expected {}", i + 1, flat(&got), flat(expected)),
                ));
            }
        }
    }
    Ok(())
}

/// Two instantiations with one seed must give one output.
fn same_output(dataset: &str, first: &[[u32; 4]], again: &[[u32; 4]]) -> Result<(), BenchError> {
    if first == again {
        return Ok(());
    }
    let flat = |b: &[[u32; 4]]| hex_words(&b.iter().flatten().copied().collect::<Vec<_>>());
    Err(BenchError::wrong_answer(
        "rng",
        dataset,
        &format!("the same seed gave {} and then {}", flat(first), flat(again)),
    ))
}

/// Entropy-seeded generation of `b.blocks` single-block requests. No known answer exists;
/// the output must not be constant, no two blocks may repeat, and a second (unmeasured)
/// entropy-seeded instantiation must start differently: a generator whose output repeats
/// across instantiations is not being seeded by its entropy source. A generator that departs
/// from its standard can be judged by none of that: its cycles are reported unverifiable.
pub fn run_true_random<P: Platform>(
    platform: &mut P,
    b: &RngTrueRandomBenchmark,
    repetitions: u16,
) -> Result<Outcome, BenchError> {
    if !platform.has_entropy() {
        return Ok(Outcome::Unsupported(format!("{} has no entropy source", P::NAME)));
    }
    let module = platform.rng();
    let plan: Vec<u8> = alloc::vec![1; usize::from(b.blocks)];
    let mut samples = Samples::new(1 + 2 * plan.len(), repetitions)?;
    let mut out = Vec::new();
    let mut seen: Vec<[u32; 4]> = Vec::new();
    if !module.module.follows_standard() {
        for _ in 0..repetitions {
            let row =
                once(module.module, None, &plan, b.init_wait, &mut out).map_err(|e| BenchError::module("rng", e))?;
            samples.push(&row);
        }
        return Ok(summarise(&samples, module.kind, Check::Unverifiable));
    }
    for _ in 0..repetitions {
        let row = once(module.module, None, &plan, b.init_wait, &mut out).map_err(|e| BenchError::module("rng", e))?;
        for block in &out {
            if block.iter().all(|&w| w == block[0]) || seen.contains(block) {
                return Err(BenchError::wrong_answer(
                    "rng",
                    "entropy",
                    &format!("implausible output block {}", hex_words(block)),
                ));
            }
            seen.push(*block);
        }
        samples.push(&row);
    }
    let first = seen.first().copied();
    once(module.module, None, &[1], None, &mut out).map_err(|e| BenchError::module("rng", e))?;
    if out.first().copied() == first {
        return Err(BenchError::wrong_answer(
            "rng",
            "entropy",
            &format!(
                "a second entropy-seeded instantiation repeated the first block {}: the entropy does not reach the generator",
                hex_words(out.first().map_or(&[][..], |b| &b[..]))
            ),
        ));
    }
    Ok(summarise(&samples, module.kind, Check::Plausibility))
}
