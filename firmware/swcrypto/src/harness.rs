//! What every kind that runs software primitives needs to know about one: its fixed input and
//! known answer, how to draw a random input, how to call it and how to check its output. A
//! primitive's harness is a type implementing [`Harness`], kept in the primitive's own module
//! (`<primitive>/harness.rs`) and named once in the registry of `lib.rs`; the suite's kinds
//! (one timed call, the constant-time test) work on any [`Subject`] through [`Visit`], so a new
//! primitive edits none of them.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use cyclebench_datasets::software;
use cyclebench_protocol::{Primitive, Secret};

use crate::Variant;

/// Which input the next call gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The input with a published or precomputed answer.
    Fixed,
    /// A fresh random input, checked against the portable Rust reference (or, where the
    /// answer follows from the fixed one, against that).
    Random,
}

/// What a harness is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The primitive (a harness may serve several of one family).
    pub primitive: Primitive,
    /// The implementation to call.
    pub variant: Variant,
    /// The request's length (bytes or limbs, as the primitive counts it; 0 when fixed).
    pub length: usize,
    /// The input a random call draws fresh; the others keep their fixed values.
    pub secret: Secret,
}

/// An operation under measurement: the inputs of each call, the call, and how its output is
/// checked.
pub trait Subject {
    /// Checks, once before measuring, that what the outputs are compared with is right: for
    /// the fixed input, the published or reference-computed answer.
    fn known_answer(&self) -> Result<(), String> {
        Ok(())
    }
    /// Writes the inputs of the next call into the subject's buffers, drawing random ones
    /// from `rng`.
    fn prepare(&mut self, input: Input, rng: &mut Rng);
    /// The timed call: the same instructions and buffers for both inputs. Returns the
    /// operation's answer where it is a value (a comparison's verdict, an addition's carry;
    /// 0 where the output is in the buffers), which stays in a register until the window has
    /// closed instead of being stored inside it.
    fn call(&mut self) -> u32;
    /// Checks the output of the last call, `answer` being what `call` returned; says what was
    /// wrong.
    fn check(&mut self, input: Input, answer: u32) -> Result<(), String>;
    /// Address of the function timed, for the host's code-size lookup.
    fn entry(&self) -> usize;
    /// Whether what the last `check` reported was a hardware wait that ran out, not a wrong
    /// answer.
    fn timed_out(&self) -> bool {
        false
    }
}

/// A primitive's subject, built from a request.
pub trait Harness: Subject + Sized {
    /// The subject for `setup`, or `None` when this build has no such variant.
    fn new(setup: &Setup) -> Option<Self>;
}

/// Something a kind does with a subject, whatever its type.
pub trait Visit {
    /// What it gives back.
    type Output;
    /// Does it with `subject`.
    fn visit<S: Subject>(self, subject: S) -> Self::Output;
}

/// Says where `got` first differs from `expected`.
pub fn differs<T: PartialEq + core::fmt::LowerHex>(got: &[T], expected: &[T]) -> Result<(), String> {
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        None if got.len() == expected.len() => Ok(()),
        None => Err(format!("{} items, expected {}", got.len(), expected.len())),
        Some(i) => Err(format!("item {i} is {:x}, expected {:x}", got[i], expected[i])),
    }
}

/// The portable Rust variant, as the reference for random inputs, unless it is the variant
/// tested.
pub fn reference<T>(v: Variant, select: impl Fn(Variant) -> Option<T>) -> Option<T> {
    if v == Variant::Rust {
        None
    } else {
        select(Variant::Rust)
    }
}

/// A 4-byte-aligned byte buffer: the assembly takes its word path on aligned data.
pub struct Buffer {
    words: Vec<u32>,
    len: usize,
}

impl Buffer {
    /// `len` zero bytes.
    pub fn new(len: usize) -> Self {
        Self {
            words: vec![0; len.div_ceil(4)],
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

/// A stream cipher called on a buffer in place, for [`Stream`]: what differs between two.
pub trait StreamCipher: Copy + Sized {
    /// Key bytes (a random key fills this many).
    const KEY_BYTES: usize;
    /// What a call takes for the key (round keys, or the key itself).
    type Schedule: Copy;
    /// The variant asked for, if this build has it.
    fn select(variant: Variant) -> Option<Self>;
    /// The key of the known answer.
    fn fixed_key() -> [u8; 32];
    /// The known answer for the stream input pattern ([`cyclebench_datasets::software::fill_input`]).
    fn fixed_output() -> &'static [u8];
    /// The key material for `key` (its first [`Self::KEY_BYTES`] bytes).
    fn schedule(self, key: &[u8; 32]) -> Self::Schedule;
    /// XORs the keystream into `data`.
    fn apply(self, schedule: &Self::Schedule, data: &mut [u8]);
    /// Address of the function timed.
    fn entry(self) -> usize;
}

/// A stream cipher over the request's `length` bytes, with the key or the data random.
pub struct Stream<C: StreamCipher> {
    cipher: C,
    reference: Option<C>,
    key_secret: bool,
    key: [u8; 32],
    schedule: C::Schedule,
    fixed_schedule: C::Schedule,
    data: Buffer,
    /// The random data before the call (the data secret).
    input: Vec<u8>,
    /// The keystream of the fixed key: the known answer XOR the input pattern.
    keystream: Vec<u8>,
    /// The reference's output for a random key.
    expected: Vec<u8>,
}

impl<C: StreamCipher> Harness for Stream<C> {
    fn new(setup: &Setup) -> Option<Self> {
        let cipher = C::select(setup.variant)?;
        let length = setup.length;
        let key = C::fixed_key();
        let fixed_schedule = cipher.schedule(&key);
        let mut pattern = vec![0u8; length];
        software::fill_input(&mut pattern);
        let keystream = pattern.iter().zip(C::fixed_output()).map(|(p, c)| p ^ c).collect();
        Some(Self {
            cipher,
            reference: reference(setup.variant, C::select),
            key_secret: setup.secret == Secret::Key,
            key,
            schedule: fixed_schedule,
            fixed_schedule,
            data: Buffer::new(length),
            expected: pattern.clone(),
            input: pattern,
            keystream,
        })
    }
}

impl<C: StreamCipher> Subject for Stream<C> {
    fn known_answer(&self) -> Result<(), String> {
        if self.data.bytes().len() > C::fixed_output().len() {
            return Err(format!("no known answer beyond {} bytes", C::fixed_output().len()));
        }
        Ok(())
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match (input, self.key_secret) {
            (Input::Fixed, _) => {
                self.key = C::fixed_key();
                self.schedule = self.fixed_schedule;
                software::fill_input(self.data.bytes_mut());
            }
            (Input::Random, true) => {
                rng.fill_bytes(&mut self.key[..C::KEY_BYTES]);
                self.schedule = self.cipher.schedule(&self.key);
                software::fill_input(self.data.bytes_mut());
            }
            (Input::Random, false) => {
                rng.fill_bytes(self.data.bytes_mut());
                self.input.copy_from_slice(self.data.bytes());
            }
        }
    }

    fn call(&mut self) -> u32 {
        self.cipher.apply(&self.schedule, self.data.bytes_mut());
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        let got = self.data.bytes();
        if input == Input::Fixed {
            return differs(got, &C::fixed_output()[..got.len()]);
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
        software::fill_input(&mut self.expected);
        reference.apply(&reference.schedule(&self.key), &mut self.expected);
        differs(self.data.bytes(), &self.expected)
    }

    fn entry(&self) -> usize {
        self.cipher.entry()
    }
}

/// Marsaglia's xorshift128 ("Xorshift RNGs", 2003), its four words seeded from a request's
/// seed by the splitmix32 finaliser, so every seed (0 too) gives a nonzero state. Fast and
/// reproducible; nothing on the device is correlated with it.
#[derive(Clone, Copy)]
pub struct Rng {
    words: [u32; 4],
    /// A xorshift32 state from the same paper, seeded by a fifth splitmix32 word, for pool
    /// indices: a draw is six instructions on one word, where a xorshift128 draw per call
    /// would keep its four words in registers of a measurement loop.
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

    /// The next xorshift128 word.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        xorshift128(&mut self.words)
    }

    /// The next xorshift128 word, out of line so that the state's address escapes and its
    /// four words stay in memory: kept in registers of a measurement loop, they took four of
    /// them, and the compiler moved them through one another on every measurement in some
    /// builds and not in others, which changed the loop's cost between two builds of the same
    /// source.
    #[inline(never)]
    pub fn next_u32_in_memory(&mut self) -> u32 {
        xorshift128(&mut self.words)
    }

    /// An index below `pool` (a power of two), from the xorshift128 words.
    #[inline(always)]
    pub fn pool_index(&mut self, pool: usize) -> usize {
        self.next_u32() as usize % pool
    }

    /// An index below `pool` (a power of two), from the xorshift32 state (its top bits, the
    /// better ones).
    #[inline(always)]
    pub fn pick_index(&mut self, pool: usize) -> usize {
        let mut x = self.pick;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.pick = x;
        (x >> (32 - pool.trailing_zeros())) as usize
    }

    /// Fills `out` with fresh words.
    pub fn fill_words(&mut self, out: &mut [u32]) {
        out.iter_mut().for_each(|w| *w = self.next_u32());
    }

    /// Fills `out` with fresh bytes.
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

/// Calls every registered primitive of `variant` on its fixed input and on random ones,
/// checking each answer: the same harness the suite measures, run without a clock.
/// Primitives the on-target self-test leaves out: tens to hundreds of millions of cycles a
/// call, minutes on a cycle-accurate model for the test's four calls. Their harnesses share
/// their code with the shorter sizes the self-test runs, and the host tests run them.
const LONG: [Primitive; 4] = [
    Primitive::Rsa3072Encrypt,
    Primitive::Rsa4096Encrypt,
    Primitive::Rsa1024Decrypt,
    Primitive::Rsa2048Decrypt,
];

pub fn self_test(variant: Variant, report: crate::Report<'_>) {
    struct Exercise;
    impl Visit for Exercise {
        type Output = Result<(), String>;
        fn visit<S: Subject>(self, mut subject: S) -> Result<(), String> {
            subject.known_answer()?;
            let mut rng = Rng::new(1);
            for input in [Input::Fixed, Input::Random, Input::Random, Input::Fixed] {
                subject.prepare(input, &mut rng);
                let answer = subject.call();
                subject.check(input, answer)?;
            }
            Ok(())
        }
    }
    for primitive in Primitive::ALL {
        if LONG.contains(&primitive) {
            continue;
        }
        let length = match primitive.length_unit() {
            cyclebench_protocol::LengthUnit::Fixed => 0,
            cyclebench_protocol::LengthUnit::Bytes => 67,
            cyclebench_protocol::LengthUnit::Limbs => 8,
        };
        for &secret in primitive.secrets() {
            let setup = Setup {
                primitive,
                variant,
                length,
                secret,
            };
            if let Some(verdict) = crate::with_harness(&setup, Exercise) {
                report(
                    &format!("harness {} {} {}", primitive.name(), variant.name(), secret.name()),
                    verdict,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cyclebench_protocol::LengthUnit;

    fn setups(variant: Variant) -> impl Iterator<Item = Setup> {
        Primitive::ALL.into_iter().flat_map(move |primitive| {
            let length = match primitive.length_unit() {
                LengthUnit::Fixed => 0,
                LengthUnit::Bytes => 100,
                LengthUnit::Limbs => 6,
            };
            primitive.secrets().iter().map(move |&secret| Setup {
                primitive,
                variant,
                length,
                secret,
            })
        })
    }

    #[test]
    fn every_primitive_has_a_harness_that_passes_its_self_test() {
        let mut checks = 0;
        self_test(Variant::Rust, &mut |name, verdict| {
            checks += 1;
            assert_eq!(verdict, Ok(()), "{name}");
        });
        let long = setups(Variant::Rust).filter(|s| LONG.contains(&s.primitive)).count();
        assert_eq!(checks, setups(Variant::Rust).count() - long);
    }

    /// An output the call never wrote is a wrong answer for every primitive: the checks compare
    /// with something.
    #[test]
    fn a_call_left_out_is_a_wrong_answer() {
        struct Skip;
        impl Visit for Skip {
            type Output = Result<(), String>;
            fn visit<S: Subject>(self, mut subject: S) -> Result<(), String> {
                subject.known_answer()?;
                subject.prepare(Input::Fixed, &mut Rng::new(7));
                subject.check(Input::Fixed, 0)
            }
        }
        for setup in setups(Variant::Rust) {
            let verdict = crate::with_harness(&setup, Skip).expect("the Rust variant exists");
            assert!(verdict.is_err(), "{setup:?}: unchecked output accepted");
        }
    }

    #[test]
    fn buffers_are_word_aligned() {
        let b = Buffer::new(5);
        assert_eq!(b.bytes().as_ptr().align_offset(4), 0);
        assert_eq!(b.bytes().len(), 5);
    }
}
