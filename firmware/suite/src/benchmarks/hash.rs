//! Hash benchmark (thesis 6.1.1): init, input, await digest, read digest.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_drivers::mmio::in_registers;
use cyclebench_modules::Hasher;
use cyclebench_protocol::{
    Check, FifoTrace, HashAlgorithm, HashBenchmark, HashPhases, HashStyle, Phases, SoftwareLibrary,
};

use super::{hex_words, on_software, software, BenchError, Outcome, Samples};
use crate::cycles::Marks;
use crate::pin;
use crate::platform::{Platform, Provided};

/// Runs `b` on the platform's module for its algorithm, or on the software one it names.
pub fn run<P: Platform>(platform: &mut P, b: &HashBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    if let Some(library) = b.software {
        // One untimed run first: the timed ones find the code in the instruction cache.
        return on_software(platform, |s| match (library, b.algorithm) {
            (SoftwareLibrary::RustCrypto, HashAlgorithm::Sha2) => {
                measure("sha2", software(&mut s.sha2), b, repetitions, true)
            }
            (SoftwareLibrary::RustCrypto, HashAlgorithm::Sha3) => {
                measure("sha3", software(&mut s.sha3), b, repetitions, true)
            }
            (SoftwareLibrary::Own, HashAlgorithm::Sha3) => match s.own_sha3.as_mut() {
                Some(own) => measure("sha3", software(own), b, repetitions, true),
                None => Ok(Outcome::Unsupported(String::from(
                    "sha3: the suite's own Keccak-f[1600] assembly is not in this build",
                ))),
            },
            (SoftwareLibrary::Own, HashAlgorithm::Sha2) => Ok(Outcome::Unsupported(String::from(
                "sha2: the suite has no SHA-256 of its own (ask for \"software\": \"rustcrypto\")",
            ))),
        });
    }
    match b.algorithm {
        HashAlgorithm::Sha2 => measure("sha2", platform.sha2(), b, repetitions, false),
        HashAlgorithm::Sha3 => measure("sha3", platform.sha3(), b, repetitions, false),
    }
}

/// Runs `b` on `module` (`name` is "sha2" or "sha3"), after one untimed run if `warm_up`.
fn measure<M: Hasher>(
    name: &str,
    module: Provided<'_, M>,
    b: &HashBenchmark,
    repetitions: u16,
    warm_up: bool,
) -> Result<Outcome, BenchError> {
    let datasets = cyclebench_datasets::HASH;
    let dataset = cyclebench_datasets::hash(b.dataset.as_str())
        .ok_or_else(|| BenchError::unknown_dataset(name, b.dataset.as_str(), datasets.iter().map(|d| d.id)))?;
    let expected_bytes = if name == "sha2" {
        &dataset.sha256
    } else {
        &dataset.sha3_256
    };
    let expected: [u32; 8] = core::array::from_fn(|i| {
        u32::from_be_bytes([
            expected_bytes[4 * i],
            expected_bytes[4 * i + 1],
            expected_bytes[4 * i + 2],
            expected_bytes[4 * i + 3],
        ])
    });
    // Words are prepared before timing: the input phase measures the transfer only.
    let chunks = dataset.message.chunks_exact(4);
    let tail = chunks.remainder();
    let words: Vec<u32> = chunks.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();

    let mut samples = Samples::new(4, repetitions)?;
    let mut fifo: Option<FifoTrace> = None;
    if warm_up {
        once(module.module, &words, tail, b, &mut [0; 8]).map_err(|e| BenchError::module(name, e))?;
    }
    for _ in 0..repetitions {
        let mut digest = [0u32; 8];
        let (phases, trace) =
            once(module.module, &words, tail, b, &mut digest).map_err(|e| BenchError::module(name, e))?;
        if digest != expected {
            return Err(BenchError::wrong_answer(
                name,
                dataset.id,
                &format!("digest {} expected {}", hex_words(&digest), hex_words(&expected)),
            ));
        }
        samples.push(&phases[..4]);
        if let Some(t) = trace {
            let merged = fifo.get_or_insert(t);
            merged.max_depth = merged.max_depth.max(t.max_depth);
            merged.full_waits = merged.full_waits.max(t.full_waits);
        }
    }
    let s = samples.summary();
    Ok(Outcome::Measured {
        implementation: module.kind,
        check: Check::KnownAnswer,
        phases: Phases::Hash(HashPhases {
            init: s[0],
            input: s[1],
            await_digest: s[2],
            read_digest: s[3],
            fifo,
        }),
    })
}

/// One timed hash computation.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn once<M: Hasher>(
    h: &mut M,
    words: &[u32],
    tail: &[u8],
    b: &HashBenchmark,
    digest: &mut [u32; 8],
) -> Result<([u64; 5], Option<FifoTrace>), cyclebench_modules::ModuleError> {
    let mut trace = FifoTrace {
        max_depth: 0,
        full_waits: 0,
    };
    // The API-conform input goes eight words at a time, their loads from RAM first: each word
    // then costs its check and its store, not also a loop branch and a load behind the previous
    // store (a load right behind a peripheral store stalls). The split into groups is computed
    // here, before the clock starts, so that short messages do not pay for it.
    let (groups, rest) = words.as_chunks::<8>();
    let (groups, rest) = (pin::slice(groups), pin::slice(rest));
    let mut marks = Marks::<5>::new();
    marks.mark();
    h.init()?;
    marks.mark();
    match (b.style, b.track_fifo) {
        (HashStyle::ApiConform, false) => {
            for group in groups {
                for w in in_registers(group) {
                    while !h.input_ready() {}
                    h.write_input(w);
                }
            }
            for &w in rest {
                while !h.input_ready() {}
                h.write_input(w);
            }
        }
        (HashStyle::ApiConform, true) => {
            for &w in words {
                while !h.input_ready() {
                    trace.full_waits += 1;
                }
                trace.max_depth = trace.max_depth.max(h.fifo_elements());
                h.write_input(w);
            }
        }
        (HashStyle::Tight, false) => h.write_inputs(words),
        (HashStyle::Tight, true) => {
            // The thesis's tracked tight run: one FIFO readout instead of the ready loop.
            for &w in words {
                trace.max_depth = trace.max_depth.max(h.fifo_elements());
                h.write_input(w);
            }
        }
    }
    for &byte in tail {
        if b.style == HashStyle::ApiConform {
            while !h.input_ready() {}
        }
        h.write_input_byte(byte);
    }
    marks.mark();
    h.wait_for_completion()?;
    marks.mark();
    h.read_digest(digest);
    marks.mark();
    Ok((marks.phases(), b.track_fifo.then_some(trace)))
}
