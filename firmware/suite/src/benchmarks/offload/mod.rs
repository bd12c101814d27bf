//! Offload (the co-processor paper, Table I): the host hands a job to the chip through a mailbox,
//! the chip's firmware serves it with the accelerator and hands the result back through the SPM;
//! then the same job runs in software on the same core.
//!
//! `regions.rs` holds the shared memory and the mailbox layout, `host.rs` the host's steps,
//! `chip.rs` the firmware's, `clock.rs` the per-phase sums. The software runs twice where the
//! project has something faster than RustCrypto (`OffloadOperation::has_faster_software`):
//! RustCrypto, constant time, and the fastest (CBC over the table AES-256 assembly, SHA3-256
//! over the Keccak-f[1600] assembly). Every output — the drained digest or ciphertext, and
//! each software run's — is checked against the known answers the datasets crate computed at
//! build time.

mod chip;
mod clock;
mod host;
mod regions;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, Ordering};

use cyclebench_datasets::offload::{self as data, OffloadExpected};
use cyclebench_modules::Hasher;
use cyclebench_modules::{AesConfig, AesMode, KeyLength};
use cyclebench_protocol::{
    Addressing, Check, ErrorKind, ImplementationKind, Kind, OffloadBenchmark, OffloadOperation, OffloadPhases, Phases,
    MAX_OFFLOAD_BYTES, OFFLOAD_SIZE_STEP,
};
use cyclebench_swcrypto::aes_table::{self, AesTable256};
use cyclebench_swcrypto::Variant;
use sha2::Digest;

use self::clock::Clock;
use self::regions::{Regions, CMD_AES_CBC_256, CMD_INDIRECT, CMD_SHA256, CMD_SHA3_256, PAGE_WORDS};
use super::aes::{key_shares, le_words};
use super::{hex_words, BenchError, Outcome, Samples};
use crate::cycles::stamp;
use crate::platform::Platform;
use crate::software::OwnSha3;

/// Phases plus the two software runs (RustCrypto's, the fastest's), per repetition.
const WIDTH: usize = cyclebench_protocol::OFFLOAD_PHASES + 2;

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
        let (software, fastest) = match earlier {
            Some(runs) => runs,
            None => {
                let runs = software_runs::<P>(b.operation, &mut regions, len, expected)?;
                remember_software_runs(b.operation, len, runs);
                runs
            }
        };
        let mut row = [0u64; WIDTH];
        row[..WIDTH - 2].copy_from_slice(&clock.sums);
        row[WIDTH - 2] = software;
        row[WIDTH - 1] = fastest.unwrap_or(0);
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
            fastest_software: b.operation.has_faster_software().then_some(s[9]),
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

/// The chip's AES-256-CBC configuration: its own key (the co-processor paper keeps keys inside
/// the root of trust; the mailbox carries none), split into two shares, automatic start.
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

/// Software cycles measured earlier in this session, by operation and payload KiB:
/// RustCrypto's and the fastest software's (0: none yet). A run of the software over 16 KiB
/// takes minutes of a simulated chip's time, and on a cycle-accurate core the same code on the
/// same payload with a warm cache repeats its count to within a few hundred cycles in a
/// million, so the design and addressing variants of one job share one measurement of each;
/// their records say so (`software_reused`).
static SOFTWARE_RUNS: [[AtomicU32; 2]; 3 * MAX_KIB] = [const { [const { AtomicU32::new(0) }; 2] }; 3 * MAX_KIB];

/// The cycles of a job's software runs: RustCrypto's, and the fastest software's where the
/// project has something faster.
type SoftwareRuns = (u64, Option<u64>);

/// Payload sizes in KiB.
const MAX_KIB: usize = (MAX_OFFLOAD_BYTES / OFFLOAD_SIZE_STEP) as usize;

fn software_slot(op: OffloadOperation, len: usize) -> Option<&'static [AtomicU32; 2]> {
    let kib = len / OFFLOAD_SIZE_STEP as usize;
    let op = OffloadOperation::ALL.iter().position(|&o| o == op)?;
    SOFTWARE_RUNS.get(op * MAX_KIB + kib.checked_sub(1)?)
}

/// The software cycles of earlier runs of the same job in this session, if cycle-accurate:
/// both runs or none.
fn earlier_software_run(op: OffloadOperation, len: usize) -> Option<SoftwareRuns> {
    let [software, fastest] = software_slot(op, len)?.each_ref().map(|c| c.load(Ordering::Relaxed));
    let fastest = match (op.has_faster_software(), fastest) {
        (false, _) => None,
        (true, 0) => return None,
        (true, cycles) => Some(u64::from(cycles)),
    };
    (software != 0).then_some((u64::from(software), fastest))
}

fn remember_software_runs(op: OffloadOperation, len: usize, (software, fastest): SoftwareRuns) {
    let Some(slot) = software_slot(op, len) else {
        return;
    };
    // A count that does not fit is measured again next time rather than kept wrong.
    let (Ok(software), Ok(fastest)) = (u32::try_from(software), u32::try_from(fastest.unwrap_or(0))) else {
        return;
    };
    slot[1].store(fastest, Ordering::Relaxed);
    slot[0].store(software, Ordering::Relaxed);
}

/// The same job in software on the same core, over the payload in host memory, with the
/// instruction cache on and warmed by one untimed run: code running from flash as firmware
/// would. First RustCrypto (`sha2`, `sha3`, `aes` + `cbc`, as the platforms without
/// accelerators use), then, where the project has something faster, the fastest software.
/// Returns their cycles after checking each output.
fn software_runs<P: Platform>(
    op: OffloadOperation,
    r: &mut Regions,
    len: usize,
    expected: &OffloadExpected,
) -> Result<SoftwareRuns, BenchError> {
    let mut digest = [0u8; 32];
    let mut scratch = alloc::vec![0u16; cyclebench_drivers::ibex::CACHE_SCRATCH_HALFWORDS];
    let cycles = warm_then_timed::<P>(r, len, &mut scratch, |r, n| software_once(op, r, n, &mut digest))?;
    check_software(op, false, r, len, &digest, expected)?;
    if !op.has_faster_software() {
        return Ok((cycles, None));
    }
    let mut fastest = Fastest::new().ok_or_else(|| {
        BenchError::new(
            ErrorKind::InvalidParameter,
            String::from("offload: the suite's own assembly is not in this build"),
        )
    })?;
    let fastest_cycles = warm_then_timed::<P>(r, len, &mut scratch, |r, n| fastest_once(op, &mut fastest, r, n))?;
    let mut words = [0u32; 8];
    fastest.sha3.read_digest(&mut words);
    let digest: [u8; 32] = bytemuck::cast(words.map(u32::to_be));
    check_software(op, true, r, len, &digest, expected)?;
    Ok((cycles, Some(fastest_cycles)))
}

/// An untimed run over the payload's first KiB (which runs every instruction the full length
/// does) and the timed run over all of it, with the instruction cache on for both and off in
/// between, in RAM. With the cache on, every line fetched may evict one: code outside the
/// measured block running between the two runs (the payload's refill, the caller) would leave
/// the cache as its own addresses happen to map, and a build with more or less unrelated code
/// would change the timed run. Off, that code neither looks up nor fills.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn warm_then_timed<P: Platform>(
    r: &mut Regions,
    len: usize,
    scratch: &mut [u16],
    mut once: impl FnMut(&mut Regions, usize) -> u64,
) -> Result<u64, BenchError> {
    fill_payload(r, len);
    if !P::reset_instruction_cache(scratch) {
        return Err(BenchError::new(
            ErrorKind::Timeout,
            String::from("offload: the instruction cache's way choice could not be set before the software run"),
        ));
    }
    P::set_instruction_cache(true);
    let _ = once(r, len.min(1024));
    P::set_instruction_cache(false);
    fill_payload(r, len);
    P::set_instruction_cache(true);
    let cycles = once(r, len);
    P::set_instruction_cache(false);
    Ok(cycles)
}

/// Checks a software run's output (RustCrypto's, or the fastest software's): its digest, or
/// the SHA-256 of the ciphertext it left in host memory.
fn check_software(
    op: OffloadOperation,
    fastest: bool,
    r: &Regions,
    len: usize,
    digest: &[u8; 32],
    expected: &OffloadExpected,
) -> Result<(), BenchError> {
    let what = match (op, fastest) {
        (OffloadOperation::AesCbc256, false) => "SHA-256 of the software ciphertext",
        (OffloadOperation::AesCbc256, true) => "SHA-256 of the fastest software's ciphertext",
        (_, false) => "software digest",
        (_, true) => "fastest software's digest",
    };
    match op {
        OffloadOperation::Sha256 => compare(op, what, digest, &expected.sha256),
        OffloadOperation::Sha3_256 => compare(op, what, digest, &expected.sha3_256),
        OffloadOperation::AesCbc256 => {
            let got: [u8; 32] = sha2::Sha256::digest(&r.host_bytes()[..len]).into();
            compare(op, what, &got, &expected.aes_cbc_256_sha256)
        }
    }
}

/// The fastest software the project has for the jobs that have something faster than
/// RustCrypto: the table AES-256 assembly (not constant time) and SHA3-256 over the
/// Keccak-f[1600] assembly (the suite's own SHA3-256 of `hash` requests).
struct Fastest {
    aes: AesTable256,
    sha3: OwnSha3,
    /// The job's key and IV, as the window reads them.
    key: [u8; 32],
    iv: [u32; 4],
}

impl Fastest {
    /// The routines, if this build has the assembly.
    fn new() -> Option<Self> {
        Some(Self {
            aes: aes_table::aes256_table(Variant::Rv32i)?,
            sha3: OwnSha3::new()?,
            key: data::OFFLOAD_AES_KEY,
            iv: bytemuck::cast(data::OFFLOAD_AES_IV),
        })
    }
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

/// One timed run of the fastest software, as `software_once` does RustCrypto's: the key
/// expansion or the sponge's initialisation inside the window, the digest left in the hasher,
/// or the ciphertext in place. SHA-256 has nothing faster than RustCrypto's and takes no
/// window.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn fastest_once(op: OffloadOperation, fastest: &mut Fastest, r: &mut Regions, len: usize) -> u64 {
    if !op.has_faster_software() {
        return 0;
    }
    // The host pages are words, so the payload is read and written a word at a time.
    let words: &mut [u32] = bytemuck::cast_slice_mut(&mut r.host[..]);
    let words = &mut words[..len / 4];
    let start = stamp();
    match op {
        OffloadOperation::Sha256 => {}
        OffloadOperation::Sha3_256 => {
            // The own hasher never fails: it has no engine to time out.
            let _ = fastest.sha3.init();
            for &w in words.iter() {
                fastest.sha3.write_input(w);
            }
            let _ = fastest.sha3.wait_for_completion();
        }
        OffloadOperation::AesCbc256 => {
            let mut round_keys = [0u32; 60];
            (fastest.aes.expand_key)(&fastest.key, &mut round_keys);
            let mut chain = fastest.iv;
            for block in words.as_chunks_mut::<4>().0 {
                let input: [u32; 4] = core::array::from_fn(|i| block[i] ^ chain[i]);
                (fastest.aes.encrypt_block)(&round_keys, bytemuck::cast_ref(&input), bytemuck::cast_mut(block));
                chain = *block;
            }
        }
    }
    stamp().since(start)
}
