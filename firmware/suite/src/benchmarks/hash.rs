//! Hash benchmark (thesis 6.1.1): init, input, await digest, read digest, over a dataset's
//! message or one the request describes (generated here before the clock starts, its digest
//! worked out by the host and carried in the request).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_drivers::mmio::in_registers;
use cyclebench_modules::Hasher;
use cyclebench_protocol::message::Generated;
use cyclebench_protocol::{
    Check, ErrorKind, FifoTrace, HashAlgorithm, HashBenchmark, HashPhases, HashStyle, Phases, SoftwareLibrary,
};

use super::{cached, hex_words, on_software, software, BenchError, Outcome, Samples};
use crate::cycles::Marks;
use crate::pin;
use crate::platform::{Platform, Provided};

/// Runs `b` on the platform's module for its algorithm, or on the software one it names.
pub fn run<P: Platform>(platform: &mut P, b: &HashBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    if let Some(library) = b.software {
        // One untimed run first: the timed ones find the code in the instruction cache.
        return on_software(platform, |s| match (library, b.algorithm) {
            (SoftwareLibrary::RustCrypto, HashAlgorithm::Sha2) => {
                measure::<_, P>("sha2", software(&mut s.sha2), b, repetitions, true)
            }
            (SoftwareLibrary::RustCrypto, HashAlgorithm::Sha3) => {
                measure::<_, P>("sha3", software(&mut s.sha3), b, repetitions, true)
            }
            (SoftwareLibrary::Own, HashAlgorithm::Sha3) => match s.own_sha3.as_mut() {
                Some(own) => measure::<_, P>("sha3", software(own), b, repetitions, true),
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
        HashAlgorithm::Sha2 => measure::<_, P>("sha2", platform.sha2(), b, repetitions, false),
        HashAlgorithm::Sha3 => measure::<_, P>("sha3", platform.sha3(), b, repetitions, false),
    }
}

/// Runs `b` on `module` (`name` is "sha2" or "sha3"); software (`warm_up`) after one untimed
/// run, each run with the instruction cache on.
fn measure<M: Hasher, P: Platform>(
    name: &str,
    module: Provided<'_, M>,
    b: &HashBenchmark,
    repetitions: u16,
    warm_up: bool,
) -> Result<Outcome, BenchError> {
    let Message {
        id,
        bytes,
        repeat,
        expected: expected_bytes,
    } = message(name, b)?;
    let expected: [u32; 8] = core::array::from_fn(|i| {
        u32::from_be_bytes([
            expected_bytes[4 * i],
            expected_bytes[4 * i + 1],
            expected_bytes[4 * i + 2],
            expected_bytes[4 * i + 3],
        ])
    });
    // Words are prepared before timing: the input phase measures the transfer only.
    let chunks = bytes.chunks_exact(4);
    let tail = chunks.remainder();
    let mut words: Vec<u32> = Vec::new();
    words.try_reserve_exact(bytes.len() / 4).map_err(|_| {
        BenchError::new(
            ErrorKind::InvalidParameter,
            format!("{name}: not enough memory for a message of {} bytes", bytes.len()),
        )
    })?;
    words.extend(chunks.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));

    let mut samples = Samples::new(4, repetitions)?;
    let mut fifo: Option<FifoTrace> = None;
    let mut run = |digest: &mut [u32; 8]| {
        let mut run = || match repeat {
            None => once(&mut *module.module, &words, tail, b, digest),
            Some(r) => once_repeated(&mut *module.module, &words, r, b.style, digest).map(|p| (p, None)),
        };
        if warm_up {
            cached::<P, _>(run)
        } else {
            run()
        }
    };
    if warm_up {
        run(&mut [0; 8]).map_err(|e| BenchError::module(name, e))?;
    }
    for _ in 0..repetitions {
        let mut digest = [0u32; 8];
        let (phases, trace) = run(&mut digest).map_err(|e| BenchError::module(name, e))?;
        if digest != expected {
            return Err(BenchError::wrong_answer(
                name,
                &id,
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

/// The message of a request: the bytes held (the whole message, or the block that repeats),
/// how often a repeated block goes in whole and the words of its last partial pass, and the
/// expected digest.
struct Message<'a> {
    /// What errors name: the dataset, or the description.
    id: String,
    bytes: alloc::borrow::Cow<'a, [u8]>,
    repeat: Option<Repeat>,
    expected: [u8; 32],
}

/// A block repeated: `passes` whole passes, then the first `last_words` words of the block.
#[derive(Clone, Copy)]
struct Repeat {
    passes: u32,
    last_words: usize,
}

/// The message `b` names or describes, for `name` (`sha2` or `sha3`).
fn message<'a>(name: &str, b: &'a HashBenchmark) -> Result<Message<'a>, BenchError> {
    let invalid = |what: String| BenchError::new(ErrorKind::InvalidParameter, format!("{name}: {what}"));
    let generated = b.generated().map_err(invalid)?;
    let Some(generated) = generated else {
        let datasets = cyclebench_datasets::HASH;
        let wanted = b.dataset.as_ref().map_or("", |d| d.as_str());
        let dataset = cyclebench_datasets::hash(wanted)
            .ok_or_else(|| BenchError::unknown_dataset(name, wanted, datasets.iter().map(|d| d.id)))?;
        return Ok(Message {
            id: String::from(dataset.id),
            bytes: alloc::borrow::Cow::Borrowed(dataset.message),
            repeat: None,
            expected: if name == "sha2" {
                dataset.sha256
            } else {
                dataset.sha3_256
            },
        });
    };
    let expected = b
        .expected
        .ok_or_else(|| invalid(String::from("the request carries no expected digest")))?;
    let id = match &generated {
        Generated::Seeded { length, seed } => format!("{length} bytes of seed {seed}"),
        Generated::Repeated { length, seed, block } => {
            format!("{length} bytes, block of {block} of seed {seed} repeated")
        }
        Generated::Inline(bytes) => format!("{} bytes given", bytes.len()),
    };
    let repeat = match generated {
        // The protocol makes block and length multiples of 4, so a partial pass is whole words.
        Generated::Repeated { length, block, .. } => Some(Repeat {
            passes: length / block,
            last_words: (length % block) as usize / 4,
        }),
        _ => None,
    };
    let stored = generated.stored_len();
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(stored)
        .map_err(|_| invalid(format!("not enough memory for a message of {stored} bytes")))?;
    bytes.resize(stored, 0);
    generated.fill_stored(&mut bytes);
    Ok(Message {
        id,
        bytes: alloc::borrow::Cow::Owned(bytes),
        repeat,
        expected,
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

/// One timed hash computation over a block repeated: `repeat.passes` passes over `block`, then
/// its first `repeat.last_words` words. A function of its own, so that the windows of stored
/// messages keep their code.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn once_repeated<M: Hasher>(
    h: &mut M,
    block: &[u32],
    repeat: Repeat,
    style: HashStyle,
    digest: &mut [u32; 8],
) -> Result<[u64; 5], cyclebench_modules::ModuleError> {
    let last = pin::slice(&block[..repeat.last_words.min(block.len())]);
    let block = pin::slice(block);
    let mut marks = Marks::<5>::new();
    marks.mark();
    h.init()?;
    marks.mark();
    match style {
        HashStyle::ApiConform => {
            for _ in 0..repeat.passes {
                for &w in block {
                    while !h.input_ready() {}
                    h.write_input(w);
                }
            }
            for &w in last {
                while !h.input_ready() {}
                h.write_input(w);
            }
        }
        HashStyle::Tight => {
            for _ in 0..repeat.passes {
                h.write_inputs(block);
            }
            h.write_inputs(last);
        }
    }
    marks.mark();
    h.wait_for_completion()?;
    marks.mark();
    h.read_digest(digest);
    marks.mark();
    Ok(marks.phases())
}
