//! One harness per benchmarked primitive, used by every kind that runs primitives: the
//! `software` kind times it on its fixed input, repeated; the `leakage` kind times it on the
//! fixed input (class 0) and on random ones (class 1).
//!
//! A harness is a [`Subject`] (the buffers of one call: how to fill them for either class,
//! the timed call, how to check its output, the function's address) that a [`Harness`] builds
//! from the request ([`Setup`]: the variant, the length, the secret). The registry in
//! `lib.rs` ([`crate::visit`]) maps every [`Primitive`] of the protocol to its harness, so a
//! primitive the registry lacks does not compile; the suite's kinds look harnesses up there
//! and never name a primitive.
//!
//! The counter reads belong to the suite: the `leakage` kind times [`Subject::call`] in a
//! function of its own; the `software` kind hands a [`Timer`] to [`Harness::repeat`], whose
//! default times the same call, and which a harness may replace to keep the instructions
//! inside its window to exactly what its call needs (arguments prepared before the first
//! counter read, the call through the variant's function pointer).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use cyclebench_datasets::leakage::LEAK_POOL;
pub use cyclebench_protocol::{Primitive, Secret, SoftwareVariant};

use crate::Variant;

/// Class of a measurement, as an index: the fixed input, or a fresh random one.
pub const FIXED: usize = 0;

impl From<SoftwareVariant> for Variant {
    fn from(v: SoftwareVariant) -> Self {
        match v {
            SoftwareVariant::Rust => Variant::Rust,
            SoftwareVariant::Rv32i => Variant::Rv32i,
            SoftwareVariant::Zbb => Variant::Zbb,
        }
    }
}

/// What a harness is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The implementation timed.
    pub variant: Variant,
    /// Bytes or limbs, as the protocol's length unit of the primitive says; 0 for fixed-size
    /// primitives.
    pub length: usize,
    /// The input that differs between the classes; the `software` kind, which runs class 0
    /// only, gives the primitive's first.
    pub secret: Secret,
}

/// An operation under test: the inputs of each class, the call, and how its output is
/// checked.
pub trait Subject {
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

/// Takes the cycle counter around one call, for [`Harness::repeat`].
pub trait Timer {
    /// Runs `call` between two counter reads and records the window.
    fn time<R>(&mut self, call: impl FnOnce() -> R) -> R;
}

/// A primitive's harness: how to build its subject, and how the `software` kind repeats it.
pub trait Harness: Subject + Sized {
    /// The subject for `setup`, or `None` when the primitive has no such variant.
    fn new(setup: &Setup) -> Option<Self>;

    /// `repetitions` timed calls on the fixed input, each output checked: the address of the
    /// function timed, `None` when the primitive has no such variant, or what was wrong.
    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        let Some(mut subject) = Self::new(setup) else {
            return Ok(None);
        };
        subject.known_answer()?;
        let mut rng = Rng::new(0);
        for _ in 0..repetitions {
            subject.prepare(FIXED, &mut rng);
            let answer = timer.time(|| subject.call());
            subject.check(FIXED, answer)?;
        }
        Ok(Some(subject.entry()))
    }
}

/// Does something with the harness of a primitive ([`crate::visit`] picks it).
pub trait Visitor {
    /// What it gives.
    type Output;
    /// Does it with harness `H`.
    fn visit<H: Harness>(self) -> Self::Output;
}

/// Generates [`crate::visit`] from `Primitive => harness type` lines.
macro_rules! registry {
    ($($primitive:ident => $harness:ty,)*) => {
        /// Hands the harness of `primitive` to `visitor`.
        pub fn visit<V: harness::Visitor>(primitive: harness::Primitive, visitor: V) -> V::Output {
            match primitive {
                $(harness::Primitive::$primitive => visitor.visit::<$harness>(),)*
            }
        }
    };
}
pub(crate) use registry;

/// Marsaglia's xorshift128 ("Xorshift RNGs", 2003), its four words seeded from the request's
/// seed by the splitmix32 finaliser, so every seed (0 too) gives a nonzero state. Fast and
/// reproducible; nothing on the device is correlated with it.
#[derive(Clone, Copy)]
pub struct Rng {
    words: [u32; 4],
    /// A xorshift32 state from the same paper, seeded by a fifth splitmix32 word, for the
    /// controls' pool indices: a draw is six instructions on one word, where a xorshift128 draw
    /// per call would keep its four words in registers of the measurement loop (see
    /// [`Rng::class_bits`]).
    pick: u32,
}

impl Rng {
    /// The generator of `seed`.
    pub fn new(seed: u32) -> Self {
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

    /// The next word.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        xorshift128(&mut self.words)
    }

    /// The class bits of the next 32 measurements.
    #[inline(always)]
    pub fn class_bits(&mut self) -> u32 {
        class_word(&mut self.words)
    }

    /// An index below [`LEAK_POOL`] (a power of two), from the xorshift128 words.
    #[inline(always)]
    pub fn pool_index(&mut self) -> usize {
        self.next_u32() as usize % LEAK_POOL
    }

    /// An index below [`LEAK_POOL`], from the xorshift32 state (its top bits, the better
    /// ones).
    #[inline(always)]
    pub fn pick_index(&mut self) -> usize {
        let mut x = self.pick;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.pick = x;
        (x >> (32 - LEAK_POOL.trailing_zeros())) as usize
    }

    /// Fills `out` with words.
    pub fn fill_words(&mut self, out: &mut [u32]) {
        out.iter_mut().for_each(|w| *w = self.next_u32());
    }

    /// Fills `out` with bytes, a word at a time.
    pub fn fill_bytes(&mut self, out: &mut [u8]) {
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
/// state's address escapes and its four words stay in memory: kept in registers of the
/// measurement loop, they take four of them, and whether the compiler then moves them through
/// one another on every measurement depends on the build.
#[inline(never)]
fn class_word(words: &mut [u32; 4]) -> u32 {
    xorshift128(words)
}

/// A 4-byte-aligned byte buffer (the assembly takes its word path on aligned data).
pub struct Buffer {
    words: Vec<u32>,
    len: usize,
}

impl Buffer {
    /// `len` zero bytes.
    pub fn new(len: usize) -> Self {
        Self {
            words: alloc::vec![0; len.div_ceil(4)],
            len,
        }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &bytemuck::cast_slice(&self.words)[..self.len]
    }

    /// The bytes, to fill or transform in place.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut(&mut self.words)[..self.len]
    }
}

/// Says where `got` first differs from `expected`.
pub fn differs<T: PartialEq + core::fmt::LowerHex>(got: &[T], expected: &[T]) -> Result<(), String> {
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        None if got.len() == expected.len() => Ok(()),
        None => Err(format!("{} items, expected {}", got.len(), expected.len())),
        Some(i) => Err(format!("item {i} is {:x}, expected {:x}", got[i], expected[i])),
    }
}

/// The portable Rust variant, as the reference for class 1, unless it is the variant tested.
pub fn reference<T>(v: Variant, select: impl Fn(Variant) -> Option<T>) -> Option<T> {
    if v == Variant::Rust {
        None
    } else {
        select(Variant::Rust)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the calls it times.
    struct Count(u32);

    impl Timer for Count {
        fn time<R>(&mut self, call: impl FnOnce() -> R) -> R {
            self.0 += 1;
            call()
        }
    }

    /// Every primitive of the protocol through its harness, as both kinds use it.
    struct Check(Setup);

    impl Visitor for Check {
        type Output = ();

        fn visit<H: Harness>(self) -> Self::Output {
            let setup = &self.0;
            let mut count = Count(0);
            let entry = H::repeat(setup, 3, &mut count).unwrap_or_else(|e| panic!("{setup:?}: {e}"));
            assert!(entry.is_some() && count.0 == 3, "{setup:?}");
            let mut subject = H::new(setup).expect("the Rust variant");
            subject.known_answer().unwrap();
            let mut rng = Rng::new(7);
            for class in [FIXED, 1, 1, FIXED, 1] {
                subject.prepare(class, &mut rng);
                let answer = subject.call();
                subject
                    .check(class, answer)
                    .unwrap_or_else(|e| panic!("{setup:?} class {class}: {e}"));
            }
            assert_eq!(Some(subject.entry()), entry);
        }
    }

    #[test]
    fn every_primitive_has_a_harness_that_runs_and_checks_both_classes() {
        for primitive in Primitive::ALL {
            let length = match primitive.length_unit() {
                cyclebench_protocol::LengthUnit::Fixed => 0,
                cyclebench_protocol::LengthUnit::Bytes => 100,
                cyclebench_protocol::LengthUnit::Limbs => 8,
            };
            for &secret in primitive.secrets() {
                let setup = Setup {
                    variant: Variant::Rust,
                    length,
                    secret,
                };
                crate::visit(primitive, Check(setup));
            }
        }
    }

    #[test]
    fn a_wrong_output_is_caught() {
        assert!(differs(&[1u8, 2, 3], &[1, 2, 3]).is_ok());
        assert_eq!(
            differs(&[1u8, 5, 3], &[1, 2, 3]),
            Err(String::from("item 1 is 5, expected 2"))
        );
        assert!(differs(&[1u8, 2], &[1, 2, 3]).is_err());
    }
}
