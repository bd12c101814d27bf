//! AES benchmark (thesis 6.1.3): total (pipelined in automatic mode, Fig. 6.3) or per block
//! (write / compute / read, Table 6.3 and Fig. 6.4), over a dataset or over data the request
//! describes (generated here before the clock starts; the output's SHA-256, worked out after
//! the windows, is compared with the host's).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_datasets::{AesDataset, AesDatasetMode, AesKeyBits};
use cyclebench_modules::{AesConfig, AesEngine, AesMode, KeyLength, ModuleError};
use cyclebench_protocol::{
    AesBenchmark, AesData, AesPerBlockPhases, AesTotalPhases, Check, CipherMode, Direction, ErrorKind, Granularity,
    Phases, Trigger,
};
use sha2::Digest as _;

use super::{cached, hex_words, on_software, software, BenchError, Outcome, Samples};
use crate::cycles::Marks;
use crate::pin;
use crate::platform::{Platform, Provided};
use crate::software::SoftAes;

/// Mask for key share 0; share 1 is key XOR mask, so the engine sees a genuinely split key.
const KEY_MASK: [u32; 8] = [
    0x9e37_79b9,
    0x7f4a_7c15,
    0xf39c_c060,
    0x5ced_c834,
    0x1082_276b,
    0xf3a2_7251,
    0xf86c_6a11,
    0xd0c1_8e95,
];

/// Little-endian words of `bytes` (the engine's byte order).
pub(crate) fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn block(words: &[u32]) -> [u32; 4] {
    core::array::from_fn(|i| words.get(i).copied().unwrap_or(0))
}

/// The two key shares the engine is given for `key`: the mask, and key XOR mask.
pub(crate) fn key_shares(key: &[u8]) -> ([u32; 8], [u32; 8]) {
    let key = le_words(key);
    let share1 = core::array::from_fn(|i| key.get(i).copied().unwrap_or(0) ^ KEY_MASK[i]);
    (KEY_MASK, share1)
}

/// Engine configuration for a dataset.
pub fn config(d: &AesDataset, encrypt: bool, manual: bool) -> AesConfig {
    let (key_share0, key_share1) = key_shares(d.key);
    let iv = block(&le_words(&d.iv.unwrap_or([0; 16])));
    AesConfig {
        key_length: match d.key_bits {
            AesKeyBits::B128 => KeyLength::Aes128,
            AesKeyBits::B192 => KeyLength::Aes192,
            AesKeyBits::B256 => KeyLength::Aes256,
        },
        encrypt,
        mode: match d.mode {
            AesDatasetMode::Ecb => AesMode::Ecb,
            AesDatasetMode::Cbc => AesMode::Cbc(iv),
            AesDatasetMode::Cfb => AesMode::Cfb(iv),
            AesDatasetMode::Ofb => AesMode::Ofb(iv),
            AesDatasetMode::Ctr => AesMode::Ctr(iv),
        },
        key_share0,
        key_share1,
        manual,
    }
}

/// Runs `b` on the platform's AES module, or on the software one.
pub fn run<P: Platform>(platform: &mut P, b: &AesBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    if let Some(library) = b.software {
        // One untimed run first: the timed ones find the code in the instruction cache.
        let job = job(b)?;
        return on_software(platform, |s| {
            let engine = s.aes(library);
            match own_limit(engine, &job.cfg) {
                Some(reason) => Ok(Outcome::Unsupported(format!("aes: {reason}"))),
                None => measure::<_, P>(software(engine), b, &job, repetitions, true),
            }
        });
    }
    let job = job(b)?;
    measure::<_, P>(platform.aes(), b, &job, repetitions, false)
}

/// What a request processes and how its output is checked.
struct Job {
    /// What errors name: the dataset, or the description.
    id: String,
    cfg: AesConfig,
    input: Vec<[u32; 4]>,
    /// How often the input goes through: more than once for repeated data, whose output
    /// overwrites itself pass after pass.
    passes: u32,
    expected: Expected,
}

/// The known answer of a job.
enum Expected {
    /// The dataset's output words.
    Words(&'static [u8]),
    /// SHA-256 of the first `bytes` bytes of the output (the last block of a stream mode may
    /// be padded).
    Digest { bytes: usize, digest: [u8; 32] },
}

/// The job of `b`: its dataset's, or the data it describes.
fn job(b: &AesBenchmark) -> Result<Job, BenchError> {
    let encrypt = b.direction == Direction::Encrypt;
    let manual = b.trigger == Trigger::Manual;
    let invalid = |what: String| BenchError::new(ErrorKind::InvalidParameter, format!("aes: {what}"));
    let Some(data) = b.described().map_err(invalid)? else {
        let all = cyclebench_datasets::AES;
        let wanted = b.dataset.as_ref().map_or("", |d| d.as_str());
        let d = cyclebench_datasets::aes(wanted)
            .ok_or_else(|| BenchError::unknown_dataset("aes", wanted, all.iter().map(|d| d.id)))?;
        let (input, expected) = if encrypt {
            (d.plaintext, d.ciphertext)
        } else {
            (d.ciphertext, d.plaintext)
        };
        return Ok(Job {
            id: String::from(d.id),
            cfg: config(d, encrypt, manual),
            input: le_words(input).chunks_exact(4).map(block).collect(),
            passes: 1,
            expected: Expected::Words(expected),
        });
    };
    let digest = b
        .expected
        .ok_or_else(|| invalid(String::from("the request carries no expected digest")))?;
    let passes = data.len() / (data.input.len() as u32).max(1);
    let AesData {
        mode, key, iv, input, ..
    } = data;
    let (key_share0, key_share1) = key_shares(&key);
    let iv = block(&le_words(&iv));
    let bytes = input.len();
    let mut padded = Vec::new();
    padded
        .try_reserve_exact(bytes.div_ceil(16))
        .map_err(|_| invalid(format!("not enough memory for {bytes} bytes")))?;
    padded.extend(input.chunks(16).map(|chunk| {
        let mut b = [0u8; 16];
        b[..chunk.len()].copy_from_slice(chunk);
        block(&le_words(&b))
    }));
    Ok(Job {
        id: format!(
            "{} bytes of seed {}",
            u64::from(passes) * bytes as u64,
            b.seed.unwrap_or(0)
        ),
        cfg: AesConfig {
            key_length: match key.len() {
                16 => KeyLength::Aes128,
                24 => KeyLength::Aes192,
                _ => KeyLength::Aes256,
            },
            encrypt,
            mode: match mode {
                CipherMode::Ecb => AesMode::Ecb,
                CipherMode::Cbc => AesMode::Cbc(iv),
                CipherMode::Cfb => AesMode::Cfb(iv),
                CipherMode::Ofb => AesMode::Ofb(iv),
                CipherMode::Ctr => AesMode::Ctr(iv),
            },
            key_share0,
            key_share1,
            manual,
        },
        input: padded,
        passes,
        expected: Expected::Digest { bytes, digest },
    })
}

/// Says what is wrong with `output`, if anything.
fn wrong(output: &[[u32; 4]], expected: &Expected) -> Option<String> {
    match expected {
        Expected::Words(bytes) => {
            let got: Vec<u32> = output.iter().flatten().copied().collect();
            let expected = le_words(bytes);
            (got != expected).then(|| format!("output {} expected {}", hex_words(&got), hex_words(&expected)))
        }
        Expected::Digest { bytes, digest } => {
            let mut h = sha2::Sha256::new();
            let mut left = *bytes;
            for word in output.iter().flatten() {
                let w = word.to_le_bytes();
                let n = left.min(4);
                h.update(&w[..n]);
                left -= n;
            }
            let got: [u8; 32] = h.finalize().into();
            (got != *digest).then(|| {
                format!(
                    "output's SHA-256 {} expected {}",
                    cyclebench_protocol::message::to_hex(&got),
                    cyclebench_protocol::message::to_hex(digest)
                )
            })
        }
    }
}

/// Runs `job` as `b` asks on `module`; software (`warm_up`) after one untimed run, each run
/// with the instruction cache on.
fn measure<M: AesEngine, P: Platform>(
    module: Provided<'_, M>,
    b: &AesBenchmark,
    job: &Job,
    repetitions: u16,
    warm_up: bool,
) -> Result<Outcome, BenchError> {
    let (cfg, input) = (&job.cfg, &job.input);
    let blocks = (input.len() as u32).saturating_mul(job.passes);

    if b.status_pad.is_some() && b.granularity == Granularity::Total {
        return Err(BenchError::new(
            cyclebench_protocol::ErrorKind::InvalidParameter,
            alloc::string::String::from("status_pad applies to per-block windows only (granularity b or i)"),
        ));
    }
    let width = match b.granularity {
        Granularity::Total => 3,
        Granularity::PerBlock | Granularity::Interface => 5,
    };
    let mut samples = Samples::new(width, repetitions)?;
    let mut output = alloc::vec![[0u32; 4]; input.len()];
    let passes = job.passes;
    let whole = |e: &mut M, output: &mut [[u32; 4]]| {
        let mut run = || {
            if passes > 1 {
                total_repeated(e, cfg, input, output, passes, b.tight)
            } else {
                total(e, cfg, input, output, b.tight)
            }
        };
        if warm_up {
            cached::<P, _>(run)
        } else {
            run()
        }
    };
    if warm_up {
        whole(module.module, &mut output).map_err(|e| BenchError::module("aes", e))?;
    }
    for _ in 0..repetitions {
        output.iter_mut().for_each(|o| *o = [0; 4]);
        let row = match b.granularity {
            Granularity::Total => whole(module.module, &mut output).map(|p| p.to_vec()),
            Granularity::PerBlock | Granularity::Interface => {
                let interface = b.granularity == Granularity::Interface;
                let mut run = || {
                    per_block(
                        &mut *module.module,
                        cfg,
                        input,
                        &mut output,
                        b.tight,
                        b.status_pad,
                        interface,
                    )
                };
                if warm_up { cached::<P, _>(run) } else { run() }.map(|p| p.to_vec())
            }
        }
        .map_err(|e| BenchError::module("aes", e))?;
        if let Some(what) = wrong(&output, &job.expected) {
            return Err(BenchError::wrong_answer("aes", &job.id, &what));
        }
        samples.push(&row);
    }
    let s = samples.summary();
    let phases = match b.granularity {
        Granularity::Total => Phases::AesTotal(AesTotalPhases {
            init: s[0],
            process: s[1],
            deinit: s[2],
            blocks,
        }),
        Granularity::PerBlock | Granularity::Interface => Phases::AesPerBlock(AesPerBlockPhases {
            init: s[0],
            write: s[1],
            compute: s[2],
            read: s[3],
            deinit: s[4],
            blocks,
        }),
    };
    Ok(Outcome::Measured {
        implementation: module.kind,
        check: Check::KnownAnswer,
        phases,
    })
}

/// init | all blocks | deinit. Automatic mode keeps two blocks in flight (write the next block
/// as soon as the input is free, then read the previous output).
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn total<M: AesEngine>(
    e: &mut M,
    cfg: &AesConfig,
    input: &[[u32; 4]],
    output: &mut [[u32; 4]],
    tight: bool,
) -> Result<[u64; 4], ModuleError> {
    let mut marks = Marks::<4>::new();
    marks.mark();
    e.init(cfg)?;
    marks.mark();
    if cfg.manual {
        for (i, o) in input.iter().zip(output.iter_mut()) {
            if !tight {
                e.wait_for_input_ready()?;
            }
            e.write_block(i);
            e.trigger_start();
            e.wait_for_output()?;
            e.read_block(o);
        }
    } else {
        pipeline(e, input, output, tight)?;
    }
    marks.mark();
    e.deinit()?;
    marks.mark();
    Ok(marks.phases())
}

/// [`total`] over `input` passed through `passes` times, its output overwriting `output` pass
/// after pass. A function of its own, so that the windows over data held whole keep their
/// code.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn total_repeated<M: AesEngine>(
    e: &mut M,
    cfg: &AesConfig,
    input: &[[u32; 4]],
    output: &mut [[u32; 4]],
    passes: u32,
    tight: bool,
) -> Result<[u64; 4], ModuleError> {
    let n = input.len().min(output.len());
    let (input, output) = (&input[..n], &mut output[..n]);
    let mut marks = Marks::<4>::new();
    marks.mark();
    e.init(cfg)?;
    marks.mark();
    if cfg.manual {
        for _ in 0..passes {
            for (i, o) in input.iter().zip(output.iter_mut()) {
                if !tight {
                    e.wait_for_input_ready()?;
                }
                e.write_block(i);
                e.trigger_start();
                e.wait_for_output()?;
                e.read_block(o);
            }
        }
    } else if let (Some((first, rest)), Some((last_out, outs))) = (input.split_first(), output.split_last_mut()) {
        // Two blocks in flight across the passes, each pass the same loop as `pipeline`'s: its
        // first block goes in again while the pass's last output comes out.
        if !tight {
            e.wait_for_input_ready()?;
        }
        e.write_block(first);
        for pass in 0..passes {
            for (next, previous_out) in rest.iter().zip(outs.iter_mut()) {
                if !tight {
                    e.wait_for_input_ready()?;
                }
                e.write_block(next);
                e.wait_for_output()?;
                e.read_block(previous_out);
            }
            if pass + 1 < passes {
                if !tight {
                    e.wait_for_input_ready()?;
                }
                e.write_block(first);
            }
            e.wait_for_output()?;
            e.read_block(last_out);
        }
    }
    marks.mark();
    e.deinit()?;
    marks.mark();
    Ok(marks.phases())
}

/// Automatic mode with two blocks in flight: write the next block as soon as the input is
/// free (checked unless `tight`), then read the previous output.
#[inline(always)]
pub(crate) fn pipeline<M: AesEngine>(
    e: &mut M,
    input: &[[u32; 4]],
    output: &mut [[u32; 4]],
    tight: bool,
) -> Result<(), ModuleError> {
    let Some((first, rest)) = input.split_first() else {
        return Ok(());
    };
    if !tight {
        e.wait_for_input_ready()?;
    }
    e.write_block(first);
    for (next, previous_out) in rest.iter().zip(output.iter_mut()) {
        if !tight {
            e.wait_for_input_ready()?;
        }
        e.write_block(next);
        e.wait_for_output()?;
        e.read_block(previous_out);
    }
    if let Some(last) = output.last_mut() {
        e.wait_for_output()?;
        e.read_block(last);
    }
    Ok(())
}

/// init | Σ write | Σ compute | Σ read | deinit, one block at a time. With a status pad the
/// compute phase is: start, `pad` nops, one status read, and the busy-wait only if that read
/// came too early. With `interface` (the thesis's boundaries) the ready check and the loads of
/// the block from RAM happen before the write window, which holds only the register stores.
///
/// Each window holds one path: which boundaries the write window has and what the compute
/// window does (start or not, ordinary wait or status pad) are chosen here, once, and each
/// choice gets a block loop of its own. A branch on them inside a window would be timed with
/// the hardware (a taken branch before the start trigger or the first poll), and two write
/// paths sharing their register stores would put a jump into the write window.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn per_block<M: AesEngine>(
    e: &mut M,
    cfg: &AesConfig,
    input: &[[u32; 4]],
    output: &mut [[u32; 4]],
    tight: bool,
    status_pad: Option<u16>,
    interface: bool,
) -> Result<[u64; 5], ModuleError> {
    let mut setup = Marks::<2>::new();
    setup.mark();
    e.init(cfg)?;
    setup.mark();
    let init = setup.phases()[0];
    let [write, compute, read] = match (interface, tight) {
        (true, tight) => with_compute(
            e,
            cfg,
            input,
            output,
            status_pad,
            InterfaceWrite { ready_check: !tight },
        ),
        (false, false) => with_compute(e, cfg, input, output, status_pad, OwnWrite::<true>),
        (false, true) => with_compute(e, cfg, input, output, status_pad, OwnWrite::<false>),
    }?;
    let mut teardown = Marks::<2>::new();
    teardown.mark();
    e.deinit()?;
    teardown.mark();
    Ok([init, write, compute, read, teardown.phases()[0]])
}

/// The block loop of [`per_block`] for one write window, with its compute window chosen.
#[inline(always)]
fn with_compute<M: AesEngine>(
    e: &mut M,
    cfg: &AesConfig,
    input: &[[u32; 4]],
    output: &mut [[u32; 4]],
    status_pad: Option<u16>,
    write: impl WriteWindow,
) -> Result<[u64; 3], ModuleError> {
    let manual = cfg.manual;
    match status_pad {
        None if manual => blocks(e, input, output, &write, |e: &mut M| {
            e.trigger_start();
            e.wait_for_output()
        }),
        None => blocks(e, input, output, &write, |e: &mut M| e.wait_for_output()),
        Some(pad) => blocks(e, input, output, &write, |e: &mut M| {
            if manual {
                e.trigger_start();
            }
            crate::cycles::nops(pad);
            let status = e.read_status();
            if e.output_ready(status) {
                Ok(())
            } else {
                e.wait_for_output()
            }
        }),
    }
}

/// Σ write | Σ compute | Σ read over the blocks; `compute` is everything between the write and
/// the read window.
#[inline(always)]
fn blocks<M: AesEngine>(
    e: &mut M,
    input: &[[u32; 4]],
    output: &mut [[u32; 4]],
    write: &impl WriteWindow,
    mut compute: impl FnMut(&mut M) -> Result<(), ModuleError>,
) -> Result<[u64; 3], ModuleError> {
    // Sums in 32 bits (a block's phase is far below 2^32 / blocks cycles): 64-bit sums kept
    // six registers live across the loop, and their copies landed inside the write window.
    let mut sums = [0u32; 3];
    for (i, o) in input.iter().zip(output.iter_mut()) {
        let mut marks = Marks::<4>::new();
        // The output block's address into a register before any window, so that neither the
        // compute nor the read window computes it.
        let o = pin::mutable(o);
        write.write(e, i, &mut marks)?;
        marks.mark();
        compute(e)?;
        marks.mark();
        e.read_block(o);
        marks.mark();
        let p = marks.phases();
        for (sum, phase) in sums.iter_mut().zip(p) {
            *sum = sum.saturating_add(u32::try_from(phase).unwrap_or(u32::MAX));
        }
    }
    Ok(sums.map(u64::from))
}

/// The start of a write window and what it holds, up to its end mark.
trait WriteWindow {
    /// Takes the window's start mark and writes `block`.
    fn write<M: AesEngine>(&self, e: &mut M, block: &[u32; 4], marks: &mut Marks<4>) -> Result<(), ModuleError>;
}

/// The thesis's boundaries: the ready check (if any) and the loads of the block from RAM
/// before the window, which holds only the four register stores.
struct InterfaceWrite {
    ready_check: bool,
}

impl WriteWindow for InterfaceWrite {
    #[inline(always)]
    fn write<M: AesEngine>(&self, e: &mut M, block: &[u32; 4], marks: &mut Marks<4>) -> Result<(), ModuleError> {
        if self.ready_check {
            e.wait_for_input_ready()?;
        }
        // The mark reads no memory but is not `nomem`, so these loads cannot move past it.
        let words = *block;
        marks.mark();
        e.write_block(&words);
        Ok(())
    }
}

/// Our boundaries: the input-ready check if `READY_CHECK` (API-conform), the loads of the
/// block and the register stores.
struct OwnWrite<const READY_CHECK: bool>;

impl<const READY_CHECK: bool> WriteWindow for OwnWrite<READY_CHECK> {
    #[inline(always)]
    fn write<M: AesEngine>(&self, e: &mut M, block: &[u32; 4], marks: &mut Marks<4>) -> Result<(), ModuleError> {
        let block = pin::reference(block);
        marks.mark();
        if READY_CHECK {
            e.wait_for_input_ready()?;
        }
        e.write_block(block);
        Ok(())
    }
}

/// Why `engine` cannot run `cfg`, if it cannot (the suite's own AES serves AES-128 encryption
/// only).
fn own_limit(engine: &SoftAes, cfg: &AesConfig) -> Option<&'static str> {
    let ecb_or_cbc = matches!(cfg.mode, AesMode::Ecb | AesMode::Cbc(_));
    engine.unsupported(cfg.key_length, ecb_or_cbc, cfg.encrypt)
}
