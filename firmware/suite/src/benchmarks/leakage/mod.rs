//! Leakage test (dudect: Reparaz, Balasch, Verbauwhede 2017): does an operation's cycle count
//! depend on a secret input?
//!
//! Every measurement draws its class from the request's seed: class 0 gets the fixed input
//! (the input with a published or precomputed answer), class 1 a fresh random one (the
//! controls, like the accelerators, one from a pool the build generated). The inputs are
//! written into the same buffers for both classes before the first counter read, so the timed
//! window holds the same instructions for both, and only the data differs. After the second
//! read the corrected cycles go into the statistics and the output is checked (class 0 against
//! its known answer; class 1 against the portable Rust reference, against the known keystream
//! where the secret is the data a stream cipher XORs, or against the pool's answers): a wrong
//! answer ends the test with an error.
//!
//! Statistics are exact: per class a histogram of the cycle counts (a core with exact timing
//! gives few distinct values, so one increment per sample is all the bookkeeping), from which
//! the integer sums (count, sum, sum of squares) of every band between the crop thresholds
//! follow at the end; a sample outside the histogram's range goes straight into those sums.
//! Every cropped test is a sum of bands. The thresholds are the percentiles of the first
//! [`LEAK_WARMUP`] measurements, pooled; those measurements are kept until then and counted
//! like the rest. |t| of each test is computed once at the end, by the protocol crate's
//! function that the host uses to check the reply.
//!
//! The software primitives and the controls are in this file; the chip's accelerators in
//! `accelerators.rs`.

mod accelerators;
mod statistics;

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use cyclebench_datasets::leakage::{self as leak, COMPARE_BYTES, LEAK_POOL};
use cyclebench_datasets::software as data;
use cyclebench_protocol::{
    Check, ErrorKind, ImplementationKind, Kind, LeakOperation, LeakVariant, LeakageBenchmark, LeakagePhases, Phases,
    Primitive, Secret, SoftwareVariant, LEAK_WARMUP, MAX_LEAK_SAMPLE,
};
use cyclebench_swcrypto::{aes_bitsliced, aes_table, chacha20, compare, keccak, mp, Variant};

use statistics::Statistics;

use super::{BenchError, Buffer, Outcome};
use crate::cycles::stamp;
use crate::platform::Platform;

/// Runs the leakage test `b`, or says why this platform cannot.
pub fn run<P: Platform>(platform: &mut P, b: &LeakageBenchmark, overhead: u32) -> Result<Outcome, BenchError> {
    // A Zbb variant on a core without Zbb is answered before the request is checked further;
    // the accelerators take no software variant.
    let v = match b.variant {
        LeakVariant::Software(SoftwareVariant::Rust) | LeakVariant::Hardware => Variant::Rust,
        LeakVariant::Software(SoftwareVariant::Rv32i) => Variant::Rv32i,
        LeakVariant::Software(SoftwareVariant::Zbb) if cfg!(target_feature = "zbb") => Variant::Zbb,
        LeakVariant::Software(SoftwareVariant::Zbb) => {
            return Ok(unsupported(
                b,
                "the zbb variant needs a core with Zbb (target ibex-sim-zbb or qemu-virt-zbb)",
            ));
        }
    };
    b.check()
        .map_err(|e| BenchError::new(ErrorKind::InvalidParameter, format!("leakage: {e}")))?;
    if b.variant == LeakVariant::Hardware {
        return accelerators::run(platform, b, overhead);
    }
    let length = b.length.unwrap_or(0) as usize;
    let key = b.secret == Secret::Key;
    let result = match b.operation {
        LeakOperation::CompareLeaky => compare::leaky(v).map(|f| test::<P, _>(b, overhead, Compare::new(f))),
        LeakOperation::CompareConstantTime => {
            compare::constant_time(v).map(|f| test::<P, _>(b, overhead, Compare::new(f)))
        }
        LeakOperation::Primitive(p) => match p {
            Primitive::AesTableKeySchedule => {
                aes_table::aes128_table(v).map(|aes| test::<P, _>(b, overhead, TableKeySchedule::new(aes, v)))
            }
            Primitive::AesTableEncrypt => {
                aes_table::aes128_table(v).map(|aes| test::<P, _>(b, overhead, TableEncrypt::new(aes, v, key)))
            }
            Primitive::AesBitslicedKeySchedule => aes_bitsliced::aes128_bitsliced(v)
                .map(|aes| test::<P, _>(b, overhead, BitslicedKeySchedule::new(aes, v))),
            Primitive::AesBitslicedCtr => aes_bitsliced::aes128_bitsliced(v)
                .map(|aes| test::<P, _>(b, overhead, Stream::new(Cipher::Bitsliced(aes), v, length, key))),
            Primitive::Chacha20 => {
                chacha20::chacha20(v).map(|f| test::<P, _>(b, overhead, Stream::new(Cipher::Chacha(f), v, length, key)))
            }
            Primitive::KeccakF1600 => keccak::keccak_f1600(v).map(|k| test::<P, _>(b, overhead, Keccak::new(k, v))),
            Primitive::MpAddFull | Primitive::MpAddReduced => {
                let reduced = p == Primitive::MpAddReduced;
                let select = if reduced { mp::add_reduced } else { mp::add_full };
                select(v).map(|f| test::<P, _>(b, overhead, MpAdd::new(f, select, v, length, reduced)))
            }
            Primitive::MpMulSchoolbook
            | Primitive::MpMulSchoolbookReduced
            | Primitive::MpMulKaratsuba
            | Primitive::MpMulKaratsubaReduced => {
                let (select, reduced): (fn(Variant) -> Option<mp::MpMulFn>, bool) = match p {
                    Primitive::MpMulSchoolbook => (mp::mul_schoolbook, false),
                    Primitive::MpMulSchoolbookReduced => (mp::mul_schoolbook_reduced, true),
                    Primitive::MpMulKaratsuba => (mp::mul_karatsuba, false),
                    _ => (mp::mul_karatsuba_reduced, true),
                };
                select(v).map(|f| test::<P, _>(b, overhead, MpMul::new(f, select, v, length, reduced)))
            }
        },
        // `check` sends these to the accelerators.
        LeakOperation::Aes | LeakOperation::Hmac | LeakOperation::Kmac => None,
    };
    let Some(result) = result else {
        return Ok(unsupported(b, "no such variant of this operation"));
    };
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Leakage(result?),
    })
}

fn unsupported(b: &LeakageBenchmark, why: &str) -> Outcome {
    Outcome::Unsupported(format!("{} {}: {why}", b.operation.name(), b.variant.name()))
}

/// Marsaglia's xorshift128 ("Xorshift RNGs", 2003), its four words seeded from the request's
/// seed by the splitmix32 finaliser, so every seed (0 too) gives a nonzero state. Fast and
/// reproducible; nothing on the device is correlated with it.
#[derive(Clone, Copy)]
struct Rng {
    words: [u32; 4],
    /// A xorshift32 state from the same paper, seeded by a fifth splitmix32 word, for the
    /// controls' pool indices: a draw is six instructions on one word, where a xorshift128 draw
    /// per call would keep its four words in registers of the measurement loop (see
    /// [`class_word`]).
    pick: u32,
}

impl Rng {
    fn new(seed: u32) -> Self {
        let mut z = seed;
        let mut splitmix = || {
            z = z.wrapping_add(0x9e37_79b9);
            let mut x = z;
            x = (x ^ (x >> 16)).wrapping_mul(0x85eb_ca6b);
            x = (x ^ (x >> 13)).wrapping_mul(0xc2b2_ae35);
            x ^ (x >> 16)
        };
        let mut words: [u32; 4] = core::array::from_fn(|_| splitmix());
        if words == [0; 4] {
            words[3] = 1;
        }
        let pick = splitmix().max(1);
        Self { words, pick }
    }

    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        xorshift128(&mut self.words)
    }

    /// An index below [`LEAK_POOL`] (a power of two), from the xorshift128 words.
    #[inline(always)]
    fn pool_index(&mut self) -> usize {
        self.next_u32() as usize % LEAK_POOL
    }

    /// An index below [`LEAK_POOL`], from the xorshift32 state (its top bits, the better ones).
    #[inline(always)]
    fn pick_index(&mut self) -> usize {
        let mut x = self.pick;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.pick = x;
        (x >> (32 - LEAK_POOL.trailing_zeros())) as usize
    }

    fn fill_words(&mut self, out: &mut [u32]) {
        out.iter_mut().for_each(|w| *w = self.next_u32());
    }

    fn fill_bytes(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(4) {
            let word = self.next_u32().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

/// One step of xorshift128: the next word, and the state moved on by one word.
#[inline(always)]
fn xorshift128(words: &mut [u32; 4]) -> u32 {
    let [x, y, z, w] = *words;
    let t = x ^ (x << 11);
    let next = w ^ (w >> 19) ^ t ^ (t >> 8);
    *words = [y, z, w, next];
    next
}

/// The next xorshift128 word for the class bits of 32 measurements, out of line so that the
/// state's address escapes and its four words stay in memory. Kept in registers of the
/// measurement loop, they took four of them, and the compiler moved them through one another on
/// every measurement in some builds and not in others: eleven cycles a measurement of the
/// controls between two builds of the same source in different directories.
#[inline(never)]
fn class_word(words: &mut [u32; 4]) -> u32 {
    xorshift128(words)
}

/// Class of a measurement, as an index: the fixed input, or a fresh random one.
const FIXED: usize = 0;

/// An operation under test: the inputs of each class, the call, and how its output is
/// checked.
trait Subject {
    /// Checks, once before measuring, that what the outputs are compared with is right: for
    /// class 0 the published or reference-computed answer.
    fn known_answer(&self) -> Result<(), String> {
        Ok(())
    }
    /// Writes the inputs of the next call into the subject's buffers: the fixed input for
    /// class 0, random input drawn with `rng` for class 1.
    fn prepare(&mut self, class: usize, rng: &mut Rng);
    /// The timed call: the same instructions and buffers for both classes. Returns the
    /// operation's answer where it is a value (a comparison's verdict, an addition's carry;
    /// 0 where the output is in the buffers), which stays in a register until the window has
    /// closed instead of being stored inside it.
    fn call(&mut self) -> u32;
    /// Checks the output of the last call, `answer` being what `call` returned; says what was
    /// wrong.
    fn check(&mut self, class: usize, answer: u32) -> Result<(), String>;
    /// Address of the function timed.
    fn entry(&self) -> usize;
    /// Whether what the last `check` reported was a hardware wait that ran out, not a wrong
    /// answer.
    fn timed_out(&self) -> bool {
        false
    }
}

/// Runs the measurements of `b` on `subject` and works out the statistics.
fn test<P: Platform, S: Subject>(b: &LeakageBenchmark, overhead: u32, subject: S) -> Result<LeakagePhases, BenchError> {
    let fail = |failure: Failure| match failure {
        Failure::Wrong {
            index,
            class,
            what,
            timeout,
        } => BenchError::new(
            if timeout {
                ErrorKind::Timeout
            } else {
                ErrorKind::WrongAnswer
            },
            format!(
                "{} {}: measurement {index} (class {class}): {what}",
                b.operation.name(),
                b.variant.name()
            ),
        ),
        Failure::TooLong(cycles) => BenchError::new(
            ErrorKind::InvalidParameter,
            format!("a call took {cycles} cycles, more than the statistics hold ({MAX_LEAK_SAMPLE})"),
        ),
        Failure::NoMemory => BenchError::new(
            ErrorKind::InvalidParameter,
            String::from("not enough memory for the timing histograms"),
        ),
    };
    // The bookkeeping runs with the instruction cache on (where there is one: on Earl Grey
    // the suite's code is in flash, several times slower uncached), every window with it off,
    // as every other benchmark is measured; the loop switches it around each window.
    let _cache = CacheOn::<P>::new();
    subject
        .known_answer()
        .map_err(|what| BenchError::new(ErrorKind::WrongAnswer, format!("{}: {what}", b.operation.name())))?;
    let warmup = b.measurements.min(LEAK_WARMUP);
    // Raw windows: the overhead is subtracted where the samples are counted.
    let mut early: Vec<(u8, u32)> = Vec::new();
    early.try_reserve_exact(warmup as usize).map_err(|_| {
        BenchError::new(
            ErrorKind::InvalidParameter,
            format!("not enough memory for {warmup} warm-up samples"),
        )
    })?;
    let mut run = Run {
        subject,
        rng: Rng::new(b.seed),
        classes: 0,
    };
    run.measure::<P>(0..warmup, |class, window| early.push((class as u8, window)))
        .map_err(fail)?;
    let mut stats = Statistics::from_warmup(&early, overhead).map_err(fail)?;
    run.measure::<P>(warmup..b.measurements, stats.counter())
        .map_err(fail)?;
    stats.finish(run.subject.entry() as u32).map_err(fail)
}

/// The instruction cache on while it lives, off again when it goes, however the test ends.
struct CacheOn<P: Platform>(core::marker::PhantomData<P>);

impl<P: Platform> CacheOn<P> {
    fn new() -> Self {
        P::set_instruction_cache(true);
        Self(core::marker::PhantomData)
    }
}

impl<P: Platform> Drop for CacheOn<P> {
    fn drop(&mut self) {
        P::set_instruction_cache(false);
    }
}

/// Why the measurements stopped.
enum Failure {
    /// A call answered wrongly.
    Wrong {
        index: u32,
        class: usize,
        what: String,
        /// A hardware wait ran out (no answer at all).
        timeout: bool,
    },
    /// A call took more cycles than the statistics hold.
    TooLong(u32),
    /// The heap cannot hold the histograms.
    NoMemory,
}

/// The state that carries over from one measurement to the next.
struct Run<S> {
    subject: S,
    rng: Rng,
    /// Class bits not used yet.
    classes: u32,
}

impl<S: Subject> Run<S> {
    /// Measurements `indices`, each raw window handed to `sink` with its class (the
    /// statistics subtract the overhead, and note a window too long for them off the common
    /// path, to be reported when the measurements end). One loop per sink, so that the loop
    /// between two windows is as short as the work allows.
    #[inline(always)]
    fn measure<P: Platform>(
        &mut self,
        indices: core::ops::Range<u32>,
        mut sink: impl FnMut(usize, u32),
    ) -> Result<(), Failure> {
        // Locals, not fields: the counter reads may touch memory as far as the compiler
        // knows, so only what is in registers survives them without a reload.
        let (mut rng, mut classes) = (self.rng, self.classes);
        let mut result = Ok(());
        for index in indices {
            // One generator word gives the classes of 32 measurements.
            if index % 32 == 0 {
                classes = class_word(&mut rng.words);
            }
            let class = (classes & 1) as usize;
            classes >>= 1;
            self.subject.prepare(class, &mut rng);
            P::set_instruction_cache(false);
            let (answer, window) = timed(&mut self.subject);
            P::set_instruction_cache(true);
            // Counted before the check, so that neither window nor class has to survive the
            // check's error path: a wrong answer ends the test with an error, and the
            // statistics with it.
            sink(class, window);
            if let Err(what) = self.subject.check(class, answer) {
                let timeout = self.subject.timed_out();
                result = Err(Failure::Wrong {
                    index,
                    class,
                    what,
                    timeout,
                });
                break;
            }
        }
        self.rng = rng;
        self.classes = classes;
        result
    }
}

/// One timed call, in a function of its own, so that the window is always entered by the same
/// jump whatever path the class took through the preparation: Ibex's prefetch buffer carries
/// the state of that path into the instructions after it, and a window inlined into the loop
/// varies by a cycle or more with the class, a difference the test would report as a leak.
/// The answer comes first: the call leaves it in the register it is returned in, so returning
/// it costs no moves.
#[inline(never)]
#[link_section = crate::placement::measured_section!()]
fn timed<S: Subject>(subject: &mut S) -> (u32, u32) {
    let start = stamp();
    let answer = subject.call();
    let end = stamp();
    // A window longer than 32 bits counts is far beyond what the statistics hold: saturated,
    // it is rejected as too long.
    (answer, u32::try_from(end.since(start)).unwrap_or(u32::MAX))
}

/// Says where `got` first differs from `expected`.
fn differs<T: PartialEq + core::fmt::LowerHex>(got: &[T], expected: &[T]) -> Result<(), String> {
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        None if got.len() == expected.len() => Ok(()),
        None => Err(format!("{} items, expected {}", got.len(), expected.len())),
        Some(i) => Err(format!("item {i} is {:x}, expected {:x}", got[i], expected[i])),
    }
}

/// The portable Rust variant, as the reference for class 1, unless it is the variant tested.
fn reference<T>(v: Variant, select: impl Fn(Variant) -> Option<T>) -> Option<T> {
    if v == Variant::Rust {
        None
    } else {
        select(Variant::Rust)
    }
}

/// The controls: a 16-byte buffer compared with a fixed reference; class 0 equal to it, class 1
/// drawn from the build's pool, none of whose buffers is equal to it, so the right answer is
/// "equal" for class 0 and "different" for class 1.
struct Compare {
    f: compare::EqualFn,
    buffer: [u32; 4],
    reference: [u32; 4],
    /// Class 1's buffers as words, in RAM: four fresh words a call, and the answer worked out
    /// from them, cost more cycles than the comparison itself.
    pool: [[u32; 4]; LEAK_POOL],
}

impl Compare {
    fn new(f: compare::EqualFn) -> Self {
        let mut reference = [0u8; COMPARE_BYTES];
        data::fill_input(&mut reference);
        Self {
            f,
            buffer: [0; 4],
            reference: bytemuck::cast(reference),
            pool: leak::COMPARE_POOL.map(bytemuck::cast),
        }
    }
}

impl Subject for Compare {
    fn known_answer(&self) -> Result<(), String> {
        match self.pool.iter().position(|b| *b == self.reference) {
            None => Ok(()),
            Some(i) => Err(format!("pool buffer {i} equals class 0's")),
        }
    }

    #[inline(always)]
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        self.buffer = if class == FIXED {
            self.reference
        } else {
            self.pool[rng.pick_index()]
        };
    }

    #[inline(always)]
    fn call(&mut self) -> u32 {
        u32::from((self.f)(
            bytemuck::cast_ref(&self.buffer),
            bytemuck::cast_ref(&self.reference),
        ))
    }

    #[inline(always)]
    fn check(&mut self, class: usize, answer: u32) -> Result<(), String> {
        if answer == u32::from(class == FIXED) {
            Ok(())
        } else {
            Err(wrong_comparison(answer))
        }
    }

    fn entry(&self) -> usize {
        self.f as usize
    }
}

/// The error of a comparison that answered `answer` wrongly; out of line, so that what it
/// needs takes no register in the measurement loop.
#[cold]
#[inline(never)]
fn wrong_comparison(answer: u32) -> String {
    format!("answered {}, expected {}", answer != 0, answer == 0)
}

/// Table AES-128 key expansion with the key secret.
struct TableKeySchedule {
    aes: aes_table::AesTable,
    reference: Option<aes_table::AesTable>,
    key: [u8; 16],
    round_keys: [u32; 44],
    expected: [u32; 44],
}

impl TableKeySchedule {
    fn new(aes: aes_table::AesTable, v: Variant) -> Self {
        let mut expected = [0; 44];
        aes_table::expand_key(&data::AES_TABLE_KEY, &mut expected);
        Self {
            aes,
            reference: reference(v, aes_table::aes128_table),
            key: [0; 16],
            round_keys: [0; 44],
            expected,
        }
    }
}

impl Subject for TableKeySchedule {
    fn known_answer(&self) -> Result<(), String> {
        let mut output = [0; 16];
        aes_table::encrypt_block(&self.expected, &data::AES_TABLE_PLAINTEXT, &mut output);
        differs(&output, &data::AES_TABLE_CIPHERTEXT)
    }

    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.key = data::AES_TABLE_KEY;
        } else {
            rng.fill_bytes(&mut self.key);
        }
    }

    fn call(&mut self) -> u32 {
        (self.aes.expand_key)(&self.key, &mut self.round_keys);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        if class == FIXED {
            return differs(&self.round_keys, &self.expected);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut expected = [0; 44];
        (reference.expand_key)(&self.key, &mut expected);
        differs(&self.round_keys, &expected)
    }

    fn entry(&self) -> usize {
        self.aes.expand_key as usize
    }
}

/// Table AES-128 encryption of one block, with the key or the plaintext secret.
struct TableEncrypt {
    aes: aes_table::AesTable,
    reference: Option<aes_table::AesTable>,
    key_secret: bool,
    key: [u8; 16],
    fixed_round_keys: [u32; 44],
    round_keys: [u32; 44],
    plaintext: [u8; 16],
    output: [u8; 16],
}

impl TableEncrypt {
    fn new(aes: aes_table::AesTable, v: Variant, key_secret: bool) -> Self {
        let mut fixed_round_keys = [0; 44];
        (aes.expand_key)(&data::AES_TABLE_KEY, &mut fixed_round_keys);
        Self {
            aes,
            reference: reference(v, aes_table::aes128_table),
            key_secret,
            key: data::AES_TABLE_KEY,
            fixed_round_keys,
            round_keys: fixed_round_keys,
            plaintext: data::AES_TABLE_PLAINTEXT,
            output: [0; 16],
        }
    }
}

impl Subject for TableEncrypt {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        match (class == FIXED, self.key_secret) {
            (true, _) => {
                self.key = data::AES_TABLE_KEY;
                self.round_keys = self.fixed_round_keys;
                self.plaintext = data::AES_TABLE_PLAINTEXT;
            }
            (false, true) => {
                rng.fill_bytes(&mut self.key);
                (self.aes.expand_key)(&self.key, &mut self.round_keys);
            }
            (false, false) => rng.fill_bytes(&mut self.plaintext),
        }
    }

    fn call(&mut self) -> u32 {
        (self.aes.encrypt_block)(&self.round_keys, &self.plaintext, &mut self.output);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        if class == FIXED {
            return differs(&self.output, &data::AES_TABLE_CIPHERTEXT);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut round_keys = [0; 44];
        (reference.expand_key)(&self.key, &mut round_keys);
        let mut expected = [0; 16];
        (reference.encrypt_block)(&round_keys, &self.plaintext, &mut expected);
        differs(&self.output, &expected)
    }

    fn entry(&self) -> usize {
        self.aes.encrypt_block as usize
    }
}

/// Bitsliced AES-128 key expansion with the key secret.
struct BitslicedKeySchedule {
    aes: aes_bitsliced::AesBitsliced,
    reference: Option<aes_bitsliced::AesBitsliced>,
    key: [u8; 16],
    round_keys: [u32; 88],
    expected: [u32; 88],
}

impl BitslicedKeySchedule {
    fn new(aes: aes_bitsliced::AesBitsliced, v: Variant) -> Self {
        let mut expected = [0; 88];
        aes_bitsliced::expand_key(&data::AES_CTR_KEY, &mut expected);
        Self {
            aes,
            reference: reference(v, aes_bitsliced::aes128_bitsliced),
            key: [0; 16],
            round_keys: [0; 88],
            expected,
        }
    }
}

impl Subject for BitslicedKeySchedule {
    fn known_answer(&self) -> Result<(), String> {
        let mut block = [0u8; 64];
        data::fill_input(&mut block);
        aes_bitsliced::ctr(&self.expected, &data::AES_CTR_IV, &mut block);
        differs(&block, &data::AES_CTR_OUTPUT[..64])
    }

    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.key = data::AES_CTR_KEY;
        } else {
            rng.fill_bytes(&mut self.key);
        }
    }

    fn call(&mut self) -> u32 {
        (self.aes.expand_key)(&self.key, &mut self.round_keys);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        if class == FIXED {
            return differs(&self.round_keys, &self.expected);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut expected = [0; 88];
        (reference.expand_key)(&self.key, &mut expected);
        differs(&self.round_keys, &expected)
    }

    fn entry(&self) -> usize {
        self.aes.expand_key as usize
    }
}

/// A stream cipher of the suite, called on a buffer in place.
#[derive(Clone, Copy)]
enum Cipher {
    Bitsliced(aes_bitsliced::AesBitsliced),
    Chacha(chacha20::Chacha20Fn),
}

impl Cipher {
    fn entry(self) -> usize {
        match self {
            Self::Bitsliced(aes) => aes.ctr as usize,
            Self::Chacha(f) => f as usize,
        }
    }

    /// The key of the known answer.
    fn fixed_key(self) -> [u8; 32] {
        let mut key = [0; 32];
        match self {
            Self::Bitsliced(_) => key[..16].copy_from_slice(&data::AES_CTR_KEY),
            Self::Chacha(_) => key = data::CHACHA20_KEY,
        }
        key
    }

    /// The known answer for the stream input pattern.
    fn fixed_output(self) -> &'static [u8] {
        match self {
            Self::Bitsliced(_) => &data::AES_CTR_OUTPUT,
            Self::Chacha(_) => &data::CHACHA20_OUTPUT,
        }
    }

    /// Key material for the call (round keys for AES, the key itself for ChaCha20).
    fn schedule(self, key: &[u8; 32], round_keys: &mut [u32; 88]) {
        if let (Self::Bitsliced(aes), Some(key)) = (self, key.first_chunk::<16>()) {
            (aes.expand_key)(key, round_keys);
        }
    }

    #[inline(always)]
    fn apply(self, key: &[u8; 32], round_keys: &[u32; 88], data: &mut [u8]) {
        match self {
            Self::Bitsliced(aes) => (aes.ctr)(round_keys, &data::AES_CTR_IV, data),
            Self::Chacha(f) => f(key, &data::CHACHA20_NONCE, data::CHACHA20_COUNTER, data),
        }
    }
}

/// Bitsliced AES-128-CTR or ChaCha20 over `length` bytes, with the key or the data secret.
struct Stream {
    cipher: Cipher,
    reference: Option<Cipher>,
    key_secret: bool,
    key: [u8; 32],
    round_keys: [u32; 88],
    fixed_round_keys: [u32; 88],
    data: Buffer,
    /// Class 1's data before the call (the data secret).
    input: Vec<u8>,
    /// The keystream of the fixed key: the known answer XOR the input pattern.
    keystream: Vec<u8>,
    /// The reference's output for class 1.
    expected: Vec<u8>,
}

impl Stream {
    fn new(cipher: Cipher, v: Variant, length: usize, key_secret: bool) -> Self {
        let reference = match cipher {
            Cipher::Bitsliced(_) => reference(v, aes_bitsliced::aes128_bitsliced).map(Cipher::Bitsliced),
            Cipher::Chacha(_) => reference(v, chacha20::chacha20).map(Cipher::Chacha),
        };
        let key = cipher.fixed_key();
        let mut fixed_round_keys = [0; 88];
        cipher.schedule(&key, &mut fixed_round_keys);
        let mut pattern = vec![0u8; length];
        data::fill_input(&mut pattern);
        let keystream = pattern.iter().zip(cipher.fixed_output()).map(|(p, c)| p ^ c).collect();
        Self {
            cipher,
            reference,
            key_secret,
            key,
            round_keys: fixed_round_keys,
            fixed_round_keys,
            data: Buffer::new(length),
            expected: pattern.clone(),
            input: pattern,
            keystream,
        }
    }
}

impl Subject for Stream {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        match (class == FIXED, self.key_secret) {
            (true, _) => {
                self.key = self.cipher.fixed_key();
                self.round_keys = self.fixed_round_keys;
                data::fill_input(self.data.bytes_mut());
            }
            (false, true) => {
                rng.fill_bytes(&mut self.key);
                self.cipher.schedule(&self.key, &mut self.round_keys);
                data::fill_input(self.data.bytes_mut());
            }
            (false, false) => {
                rng.fill_bytes(self.data.bytes_mut());
                self.input.copy_from_slice(self.data.bytes());
            }
        }
    }

    fn call(&mut self) -> u32 {
        let Self {
            cipher,
            key,
            round_keys,
            data,
            ..
        } = self;
        cipher.apply(key, round_keys, data.bytes_mut());
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        let got = self.data.bytes();
        if class == FIXED {
            return differs(got, &self.cipher.fixed_output()[..got.len()]);
        }
        if !self.key_secret {
            // Random data under the fixed key: the known keystream gives the answer.
            return match got
                .iter()
                .zip(self.input.iter().zip(&self.keystream))
                .position(|(g, (i, k))| *g != i ^ k)
            {
                None => Ok(()),
                Some(i) => Err(format!(
                    "byte {i} is {:x}, expected {:x}",
                    got[i],
                    self.input[i] ^ self.keystream[i]
                )),
            };
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        data::fill_input(&mut self.expected);
        let mut round_keys = [0; 88];
        reference.schedule(&self.key, &mut round_keys);
        reference.apply(&self.key, &round_keys, &mut self.expected);
        differs(self.data.bytes(), &self.expected)
    }

    fn entry(&self) -> usize {
        self.cipher.entry()
    }
}

/// One Keccak-f[1600] permutation with the state secret.
struct Keccak {
    k: keccak::KeccakF1600,
    reference: Option<keccak::KeccakF1600>,
    lanes: [u64; 25],
    internal: [u32; 50],
}

impl Keccak {
    fn new(k: keccak::KeccakF1600, v: Variant) -> Self {
        Self {
            k,
            reference: reference(v, keccak::keccak_f1600),
            lanes: [0; 25],
            internal: [0; 50],
        }
    }
}

impl Subject for Keccak {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.lanes = data::keccak_input();
        } else {
            self.lanes = core::array::from_fn(|_| u64::from(rng.next_u32()) | u64::from(rng.next_u32()) << 32);
        }
        (self.k.to_internal)(&self.lanes, &mut self.internal);
    }

    fn call(&mut self) -> u32 {
        (self.k.permute)(&mut self.internal);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        let mut got = [0u64; 25];
        (self.k.from_internal)(&self.internal, &mut got);
        if class == FIXED {
            return differs(&got, &data::KECCAK_OUTPUT);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut internal = [0; 50];
        let mut expected = [0u64; 25];
        (reference.to_internal)(&self.lanes, &mut internal);
        (reference.permute)(&mut internal);
        (reference.from_internal)(&internal, &mut expected);
        differs(&got, &expected)
    }

    fn entry(&self) -> usize {
        self.k.permute as usize
    }
}

/// The first `n` limbs of the fixed operands, in reduced radix (top bits clear) when `reduced`.
fn fixed_operands(n: usize, reduced: bool) -> (Vec<u32>, Vec<u32>) {
    let mut a = vec![0u32; n];
    let mut b = vec![0u32; n];
    data::fill_operand(0, &mut a);
    data::fill_operand(1, &mut b);
    if reduced {
        a.iter_mut().chain(b.iter_mut()).for_each(|l| *l &= mp::REDUCED_MASK);
    }
    (a, b)
}

/// Random operands, canonical in reduced radix when `reduced`.
fn random_operands(rng: &mut Rng, a: &mut [u32], b: &mut [u32], reduced: bool) {
    rng.fill_words(a);
    rng.fill_words(b);
    if reduced {
        a.iter_mut().chain(b.iter_mut()).for_each(|l| *l &= mp::REDUCED_MASK);
    }
}

/// Multi-precision addition with both operands secret.
struct MpAdd {
    add: mp::MpAddFn,
    reference: Option<mp::MpAddFn>,
    reduced: bool,
    fixed: (Vec<u32>, Vec<u32>),
    expected: (Vec<u32>, u32),
    a: Vec<u32>,
    b: Vec<u32>,
    r: Vec<u32>,
    /// The reference's sum for class 1.
    scratch: Vec<u32>,
}

impl MpAdd {
    fn new(add: mp::MpAddFn, select: fn(Variant) -> Option<mp::MpAddFn>, v: Variant, n: usize, reduced: bool) -> Self {
        let fixed = fixed_operands(n, reduced);
        let expected = if reduced {
            // Limb-wise sums of reduced limbs never carry.
            (fixed.0.iter().zip(&fixed.1).map(|(x, y)| x + y).collect(), 0)
        } else {
            (data::MP_SUM[..n].to_vec(), u32::from(data::MP_CARRY[n]))
        };
        Self {
            add,
            reference: reference(v, select),
            reduced,
            a: fixed.0.clone(),
            b: fixed.1.clone(),
            fixed,
            expected,
            r: vec![0; n],
            scratch: vec![0; n],
        }
    }
}

impl Subject for MpAdd {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.a.copy_from_slice(&self.fixed.0);
            self.b.copy_from_slice(&self.fixed.1);
        } else {
            random_operands(rng, &mut self.a, &mut self.b, self.reduced);
        }
        self.r.fill(0);
    }

    fn call(&mut self) -> u32 {
        (self.add)(&mut self.r, &self.a, &self.b)
    }

    fn check(&mut self, class: usize, answer: u32) -> Result<(), String> {
        let (expected, carry) = if class == FIXED {
            (&self.expected.0, self.expected.1)
        } else {
            let Some(reference) = self.reference else {
                return Ok(());
            };
            let carry = reference(&mut self.scratch, &self.a, &self.b);
            (&self.scratch, carry)
        };
        differs(&self.r, expected)?;
        if answer != carry {
            return Err(format!("carry {answer}, expected {carry}"));
        }
        Ok(())
    }

    fn entry(&self) -> usize {
        self.add as usize
    }
}

/// Multi-precision multiplication (schoolbook or Karatsuba) with both operands secret.
struct MpMul {
    mul: mp::MpMulFn,
    reference: Option<mp::MpMulFn>,
    reduced: bool,
    fixed: (Vec<u32>, Vec<u32>),
    /// Class 0's product in the output form of the primitive (canonical reduced limbs when
    /// reduced), checked against the known answer when the test is set up.
    expected: Vec<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
    r: Vec<u32>,
    /// The reference's product for class 1.
    scratch: Vec<u32>,
}

impl MpMul {
    fn new(mul: mp::MpMulFn, select: fn(Variant) -> Option<mp::MpMulFn>, v: Variant, n: usize, reduced: bool) -> Self {
        let fixed = fixed_operands(n, reduced);
        // Class 0's product from the Rust variant; `known_answer` compares it with the
        // published one.
        let mut expected = vec![0; 2 * n];
        if let Some(rust) = select(Variant::Rust) {
            rust(&mut expected, &fixed.0, &fixed.1);
        }
        Self {
            mul,
            reference: reference(v, select),
            reduced,
            a: fixed.0.clone(),
            b: fixed.1.clone(),
            fixed,
            expected,
            r: vec![0; 2 * n],
            scratch: vec![0; 2 * n],
        }
    }
}

impl Subject for MpMul {
    fn known_answer(&self) -> Result<(), String> {
        let n = self.a.len();
        if self.reduced {
            differs(
                &mp::reduced_product_to_full(&self.expected),
                &data::MP_REDUCED_PRODUCT[n][..2 * n],
            )
        } else {
            differs(&self.expected, &data::MP_PRODUCT[n][..2 * n])
        }
    }

    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.a.copy_from_slice(&self.fixed.0);
            self.b.copy_from_slice(&self.fixed.1);
        } else {
            random_operands(rng, &mut self.a, &mut self.b, self.reduced);
        }
        self.r.fill(0);
    }

    fn call(&mut self) -> u32 {
        (self.mul)(&mut self.r, &self.a, &self.b);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        if class == FIXED {
            return differs(&self.r, &self.expected);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        reference(&mut self.scratch, &self.a, &self.b);
        differs(&self.r, &self.scratch)
    }

    fn entry(&self) -> usize {
        self.mul as usize
    }
}
