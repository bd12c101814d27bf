//! Offload (seed 3, Table I): the host hands a job to the chip through a mailbox, the chip's
//! firmware serves it with the accelerator and hands the result back through the SPM; then
//! the same job runs in software on the same core.
//!
//! `regions.rs` holds the shared memory and the mailbox layout, `host.rs` the host's steps,
//! `chip.rs` the firmware's, `clock.rs` the per-phase sums. Every output — the drained digest
//! or ciphertext, and the software's — is checked against the known answers the datasets
//! crate computed at build time.

mod chip;
mod clock;
mod host;
mod regions;

use alloc::format;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, Ordering};

use cyclebench_datasets::offload::{self as data, OffloadExpected};
use cyclebench_modules::{AesConfig, AesMode, KeyLength};
use cyclebench_protocol::{
    Addressing, Check, ErrorKind, ImplementationKind, Kind, OffloadBenchmark, OffloadOperation, OffloadPhases, Phases,
    MAX_OFFLOAD_BYTES, OFFLOAD_SIZE_STEP,
};
use sha2::Digest;

use self::clock::Clock;
use self::regions::{Regions, CMD_AES_CBC_256, CMD_INDIRECT, CMD_SHA256, CMD_SHA3_256, PAGE_WORDS};
use super::aes::{key_shares, le_words};
use super::{hex_words, BenchError, Outcome, Samples};
use crate::cycles::stamp;
use crate::platform::Platform;

/// Phases plus the software run, per repetition.
const WIDTH: usize = cyclebench_protocol::OFFLOAD_PHASES + 1;

/// Runs `b` on the platform's module for its operation.
pub fn run<P: Platform>(
    platform: &mut P,
    b: &OffloadBenchmark,
    repetitions: u16,
    overhead: u32,
) -> Result<Outcome, BenchError> {
    b.check()
        .map_err(|e| BenchError::new(ErrorKind::InvalidParameter, format!("offload: {e}")))?;
    let name = b.operation.name();
    let len = b.payload_bytes as usize;
    let expected = data::expected(len).ok_or_else(|| {
        BenchError::new(
            ErrorKind::UnknownDataset,
            format!("offload: no known answers for {len} bytes"),
        )
    })?;
    let mut regions = Regions::allocate().ok_or_else(|| out_of_memory("the shared regions"))?;
    let mut staging = try_buffer(PAGE_WORDS)?;
    let mut output = try_buffer(PAGE_WORDS)?;
    let mut samples = Samples::new(WIDTH, repetitions)?;
    let mut first: Option<(Clock, ImplementationKind)> = None;
    // Only a cycle-accurate core repeats the same count for the same software run.
    let earlier = if P::CYCLE_ACCURATE {
        earlier_software_run(b.operation, len)
    } else {
        None
    };
    let command = match b.operation {
        OffloadOperation::Sha256 => CMD_SHA256,
        OffloadOperation::Sha3_256 => CMD_SHA3_256,
        OffloadOperation::AesCbc256 => CMD_AES_CBC_256,
    } | if b.addressing == Addressing::IndirectL1 {
        CMD_INDIRECT
    } else {
        0
    };
    let pages = len.div_ceil(PAGE_WORDS * 4);
    for _ in 0..repetitions {
        fill_payload(&mut regions, len);
        let mut clock = Clock::default();
        host::submit(&regions, command, b.payload_bytes, pages, &mut clock);
        let (served, kind) = match b.operation {
            OffloadOperation::Sha256 => {
                let m = platform.sha2();
                let r = chip::serve_hash(m.module, &mut regions, &mut staging, b.design, &mut clock);
                (r, m.kind)
            }
            OffloadOperation::Sha3_256 => {
                let m = platform.sha3();
                let r = chip::serve_hash(m.module, &mut regions, &mut staging, b.design, &mut clock);
                (r, m.kind)
            }
            OffloadOperation::AesCbc256 => {
                let m = platform.aes();
                let r = chip::serve_aes(
                    m.module,
                    &aes_config(),
                    &mut regions,
                    &mut staging,
                    &mut output,
                    b.design,
                    &mut clock,
                );
                (r, m.kind)
            }
        };
        let served = served.map_err(|e| BenchError::module(name, e))?;
        if served != command & 0xff {
            return Err(BenchError::new(
                ErrorKind::WrongAnswer,
                format!("offload {name}: the chip read command {served} from the mailbox, the host wrote {command}"),
            ));
        }
        check_offload(b.operation, &regions, len, expected)?;
        let software = match earlier {
            Some(cycles) => cycles,
            None => {
                let cycles = software_run(platform, b.operation, &mut regions, len, expected)?;
                remember_software_run(b.operation, len, cycles);
                cycles
            }
        };
        let mut row = [0u64; WIDTH];
        row[..WIDTH - 1].copy_from_slice(&clock.sums);
        row[WIDTH - 1] = software;
        samples.push(&row);
        if first.is_none() {
            first = Some((clock, kind));
        }
    }
    let Some((clock, implementation)) = first else {
        return Err(BenchError::new(
            ErrorKind::InvalidParameter,
            format!("offload {name}: no repetition ran"),
        ));
    };
    let s = samples.summary();
    Ok(Outcome::Measured {
        implementation,
        check: Check::KnownAnswer,
        phases: Phases::Offload(OffloadPhases {
            host_submit: s[0],
            mailbox: s[1],
            payload: s[2],
            operation: s[3],
            result_copy: s[4],
            handover: s[5],
            completion: s[6],
            host_drain: s[7],
            software: s[8],
            software_reused: earlier.is_some(),
            windows: clock.windows,
            handovers: clock.windows[5] / 2,
            window_overhead: overhead,
            host_memory_address: regions.page_address(0),
            spm_address: regions.spm_address(),
            mailbox_address: regions.mailbox_address(),
        }),
    })
}

fn out_of_memory(what: &str) -> BenchError {
    BenchError::new(
        ErrorKind::InvalidParameter,
        format!("offload: not enough memory for {what}"),
    )
}

/// `words` zero words, or a clean error when the heap cannot hold them.
fn try_buffer(words: usize) -> Result<Vec<u32>, BenchError> {
    let mut v = Vec::new();
    v.try_reserve_exact(words)
        .map_err(|_| out_of_memory("the firmware's page buffers"))?;
    v.resize(words, 0);
    Ok(v)
}

/// The payload's first `len` bytes into the host pages (before any window).
fn fill_payload(r: &mut Regions, len: usize) {
    data::fill_payload(&mut r.host_bytes_mut()[..len]);
}

/// The chip's AES-256-CBC configuration: its own key (seed 3 keeps keys inside the root of
/// trust; the mailbox carries none), split into two shares, automatic start.
fn aes_config() -> AesConfig {
    let (key_share0, key_share1) = key_shares(&data::OFFLOAD_AES_KEY);
    let iv = le_words(&data::OFFLOAD_AES_IV);
    AesConfig {
        key_length: KeyLength::Aes256,
        encrypt: true,
        mode: AesMode::Cbc([iv[0], iv[1], iv[2], iv[3]]),
        key_share0,
        key_share1,
        manual: false,
    }
}

/// Checks what the host holds after the job: the digest it drained, or the ciphertext it
/// drained over its payload pages (by its SHA-256, which the build computed for every size).
fn check_offload(op: OffloadOperation, r: &Regions, len: usize, expected: &OffloadExpected) -> Result<(), BenchError> {
    match op {
        OffloadOperation::Sha256 | OffloadOperation::Sha3_256 => {
            let want = if op == OffloadOperation::Sha256 {
                &expected.sha256
            } else {
                &expected.sha3_256
            };
            let got: [u8; 32] = bytemuck::cast(r.host_digest.map(u32::to_be));
            compare(op, "offloaded digest", &got, want)
        }
        OffloadOperation::AesCbc256 => {
            let got: [u8; 32] = sha2::Sha256::digest(&r.host_bytes()[..len]).into();
            compare(
                op,
                "SHA-256 of the offloaded ciphertext",
                &got,
                &expected.aes_cbc_256_sha256,
            )
        }
    }
}

fn compare(op: OffloadOperation, what: &str, got: &[u8; 32], want: &[u8; 32]) -> Result<(), BenchError> {
    if got == want {
        return Ok(());
    }
    let words = |b: &[u8; 32]| -> [u32; 8] {
        core::array::from_fn(|i| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]))
    };
    Err(BenchError::wrong_answer(
        op.name(),
        "offload payload",
        &format!("{what} {} expected {}", hex_words(&words(got)), hex_words(&words(want))),
    ))
}

/// Software cycles measured earlier in this session, by operation and payload KiB (0: none
/// yet). A run of the software over 16 KiB takes minutes of a simulated chip's time, and on a
/// cycle-accurate core the same code on the same payload with a warm cache repeats its count
/// to within a few hundred cycles in a million, so the design and addressing variants of one
/// job share one measurement; their records say so (`software_reused`).
static SOFTWARE_RUNS: [AtomicU32; 3 * MAX_KIB] = [const { AtomicU32::new(0) }; 3 * MAX_KIB];

/// Payload sizes in KiB.
const MAX_KIB: usize = (MAX_OFFLOAD_BYTES / OFFLOAD_SIZE_STEP) as usize;

fn software_slot(op: OffloadOperation, len: usize) -> Option<&'static AtomicU32> {
    let kib = len / OFFLOAD_SIZE_STEP as usize;
    let op = OffloadOperation::ALL.iter().position(|&o| o == op)?;
    SOFTWARE_RUNS.get(op * MAX_KIB + kib.checked_sub(1)?)
}

/// The software cycles of an earlier run of the same job in this session, if cycle-accurate.
fn earlier_software_run(op: OffloadOperation, len: usize) -> Option<u64> {
    let cycles = software_slot(op, len)?.load(Ordering::Relaxed);
    (cycles != 0).then_some(u64::from(cycles))
}

fn remember_software_run(op: OffloadOperation, len: usize, cycles: u64) {
    if let (Some(slot), Ok(cycles)) = (software_slot(op, len), u32::try_from(cycles)) {
        slot.store(cycles, Ordering::Relaxed);
    }
}

/// The same job in software on the same core (RustCrypto `sha2`, `sha3`, `aes` + `cbc`, as
/// the platforms without accelerators use), over the payload in host memory, with the
/// instruction cache on and warmed by one untimed run: code running from flash as firmware
/// would. Returns its cycles after checking its output.
fn software_run<P: Platform>(
    platform: &mut P,
    op: OffloadOperation,
    r: &mut Regions,
    len: usize,
    expected: &OffloadExpected,
) -> Result<u64, BenchError> {
    fill_payload(r, len);
    platform.instruction_cache(true);
    let mut digest = [0u8; 32];
    // One KiB runs every instruction the full length does.
    let _ = software_once(op, r, len.min(1024), &mut digest);
    fill_payload(r, len);
    let cycles = software_once(op, r, len, &mut digest);
    platform.instruction_cache(false);
    match op {
        OffloadOperation::Sha256 => compare(op, "software digest", &digest, &expected.sha256)?,
        OffloadOperation::Sha3_256 => compare(op, "software digest", &digest, &expected.sha3_256)?,
        OffloadOperation::AesCbc256 => {
            let got: [u8; 32] = sha2::Sha256::digest(&r.host_bytes()[..len]).into();
            compare(
                op,
                "SHA-256 of the software ciphertext",
                &got,
                &expected.aes_cbc_256_sha256,
            )?;
        }
    }
    Ok(cycles)
}

/// One timed software run: the digest into `digest`, or the ciphertext in place.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn software_once(op: OffloadOperation, r: &mut Regions, len: usize, digest: &mut [u8; 32]) -> u64 {
    use aes::cipher::{BlockEncryptMut, KeyIvInit};
    let bytes = &mut r.host_bytes_mut()[..len];
    let start = stamp();
    match op {
        OffloadOperation::Sha256 => *digest = sha2::Sha256::digest(&*bytes).into(),
        OffloadOperation::Sha3_256 => *digest = sha3::Sha3_256::digest(&*bytes).into(),
        OffloadOperation::AesCbc256 => {
            let mut cipher =
                cbc::Encryptor::<aes::Aes256>::new(&data::OFFLOAD_AES_KEY.into(), &data::OFFLOAD_AES_IV.into());
            for block in bytes.chunks_exact_mut(16) {
                cipher.encrypt_block_mut(block.into());
            }
        }
    }
    stamp().since(start)
}
