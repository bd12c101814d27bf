//! The chip's accelerators under the leakage test: AES (key or data secret), HMAC-SHA256 and
//! KMAC256 (key secret).
//!
//! A timed call is the whole operation as a driver runs it: configuration and key written,
//! message or blocks in, the engine's work, the output read. Class 0 is the fixed input of
//! `cyclebench_datasets::leakage` (published vectors); class 1 draws its secret from that
//! crate's pool of random inputs, whose answers the build computed with RustCrypto, so every
//! output of both classes is checked against a known answer without a reference on the
//! device (software AES, HMAC or KMAC on the core would cost more cycles than the
//! accelerator, on a model that runs some thousands of cycles per second). The inputs and
//! answers are copied once into RAM as the words the engines take and give: read from flash
//! a byte at a time for every call, they cost several times the operation.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_datasets::leakage as data;
use cyclebench_modules::{AesConfig, AesEngine, AesMode, Hasher, KeyLength, ModuleError};
use cyclebench_protocol::{
    Check, ErrorKind, ImplementationKind, LeakOperation, LeakageBenchmark, Phases, Secret, LEAK_AES_MAX_BYTES,
};

use cyclebench_swcrypto::harness::{Input, Rng, Subject};

use super::{test, unsupported};
use crate::benchmarks::window::timed;
use crate::benchmarks::{BenchError, Outcome};
use crate::platform::{Platform, Provided};

/// Blocks of the longest AES call.
const AES_BLOCKS: usize = LEAK_AES_MAX_BYTES as usize / 16;

/// Mask for AES key share 0; share 1 is key XOR mask, so the engine sees a split key whatever
/// the key (the value is arbitrary, the same for both classes).
const KEY_MASK: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// Runs the leakage test `b` of an accelerator, or says why this platform cannot.
pub(super) fn run<P: Platform>(platform: &mut P, b: &LeakageBenchmark, overhead: u32) -> Result<Outcome, BenchError> {
    let result = match b.operation {
        LeakOperation::Aes => {
            let Some(aes) = hardware(platform.aes()) else {
                return Ok(unsupported(b, "this platform has no AES accelerator"));
            };
            let bytes = b.length.unwrap_or(LEAK_AES_MAX_BYTES) as usize;
            test::<P, _>(b, overhead, Aes::new(aes, b.secret == Secret::Key, bytes / 16)?)
        }
        LeakOperation::Hmac => {
            let Some(hmac) = hardware(platform.sha2()) else {
                return Ok(unsupported(b, "this platform has no HMAC accelerator"));
            };
            test::<P, _>(b, overhead, Mac::hmac(hmac)?)
        }
        LeakOperation::Kmac => {
            let Some(kmac) = hardware(platform.sha3()) else {
                return Ok(unsupported(b, "this platform has no KMAC accelerator"));
            };
            test::<P, _>(b, overhead, Mac::kmac(kmac)?)
        }
        LeakOperation::Primitive(_)
        | LeakOperation::CompareLeaky
        | LeakOperation::CompareConstantTime
        | LeakOperation::Implementation => {
            return Err(BenchError::new(
                ErrorKind::InvalidParameter,
                format!("leakage: {} is software, not an accelerator", b.operation.name()),
            ))
        }
    };
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Hardware,
        check: Check::KnownAnswer,
        phases: Phases::Leakage(result?),
    })
}

/// The module, if it is an accelerator (a platform without one hands out software).
fn hardware<M>(provided: Provided<'_, M>) -> Option<&mut M> {
    (provided.kind == ImplementationKind::Hardware).then_some(provided.module)
}

/// Little-endian words of `bytes` (the engines' byte order for keys and data).
fn le_words<const N: usize>(bytes: &[u8]) -> [u32; N] {
    core::array::from_fn(|i| {
        bytes
            .get(4 * i..4 * i + 4)
            .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    })
}

/// Big-endian words of `bytes` (how the hash engines hand out digests).
fn be_words<const N: usize>(bytes: &[u8]) -> [u32; N] {
    core::array::from_fn(|i| {
        bytes
            .get(4 * i..4 * i + 4)
            .map_or(0, |w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
    })
}

/// What went wrong in a call, for the check after the window; notes a timeout in `timeout`.
fn failed(error: Option<ModuleError>, timeout: &mut bool) -> Result<(), String> {
    match error {
        None => Ok(()),
        Some(ModuleError::Timeout(what)) => {
            *timeout = true;
            Err(format!("timed out waiting for {what}"))
        }
        Some(ModuleError::Usage(what)) => Err(String::from(what)),
    }
}

/// AES-128 ECB encryption of `blocks` blocks on the accelerator, automatic operation with two
/// blocks in flight (as the `aes` benchmark's total), with the key or the data secret.
struct Aes<'a, M: AesEngine> {
    engine: &'a mut M,
    key_secret: bool,
    blocks: usize,
    config: AesConfig,
    /// Class 0's key share 1, blocks and answers.
    fixed: AesCase,
    /// Class 1's cases: a pool key with the fixed blocks (key secret), or the fixed key with a
    /// pool block in every position (data secret).
    pool: Vec<AesCase>,
    input: [[u32; 4]; AES_BLOCKS],
    output: [[u32; 4]; AES_BLOCKS],
    /// The known answer of this call's input.
    expected: [[u32; 4]; AES_BLOCKS],
    error: Option<ModuleError>,
    timeout: bool,
}

/// One input of the AES test as the engine takes it, with its answer.
#[derive(Clone, Copy)]
struct AesCase {
    key_share1: [u32; 8],
    input: [[u32; 4]; AES_BLOCKS],
    expected: [[u32; 4]; AES_BLOCKS],
}

impl AesCase {
    fn new(key: &[u8; 16], input: &[u8], expected: &[u8]) -> Self {
        let key: [u32; 4] = le_words(key);
        Self {
            key_share1: core::array::from_fn(|i| key.get(i).copied().unwrap_or(0) ^ KEY_MASK[i]),
            input: core::array::from_fn(|j| le_words(&input[16 * j..])),
            expected: core::array::from_fn(|j| le_words(&expected[16 * j..])),
        }
    }
}

impl<'a, M: AesEngine> Aes<'a, M> {
    fn new(engine: &'a mut M, key_secret: bool, blocks: usize) -> Result<Self, BenchError> {
        let fixed = AesCase::new(&data::AES_KEY, &data::AES_PLAINTEXT, &data::AES_CIPHERTEXT);
        let mut pool = Vec::new();
        pool.try_reserve_exact(data::LEAK_POOL).map_err(|_| no_memory())?;
        for i in 0..data::LEAK_POOL {
            pool.push(if key_secret {
                AesCase::new(
                    &data::AES_KEY_POOL[i],
                    &data::AES_PLAINTEXT,
                    &data::AES_KEY_POOL_CIPHERTEXTS[i],
                )
            } else {
                // Pool blocks i, i + 1, … in the block positions; a call draws one case per
                // position, so the blocks of a call are independent draws.
                let mut input = [0u8; 16 * AES_BLOCKS];
                let mut expected = [0u8; 16 * AES_BLOCKS];
                for j in 0..AES_BLOCKS {
                    let k = (i + j) % data::LEAK_POOL;
                    input[16 * j..16 * j + 16].copy_from_slice(&data::AES_BLOCK_POOL[k]);
                    expected[16 * j..16 * j + 16].copy_from_slice(&data::AES_BLOCK_POOL_CIPHERTEXTS[k]);
                }
                AesCase::new(&data::AES_KEY, &input, &expected)
            });
        }
        Ok(Self {
            engine,
            key_secret,
            blocks: blocks.clamp(1, AES_BLOCKS),
            config: AesConfig {
                key_length: KeyLength::Aes128,
                encrypt: true,
                mode: AesMode::Ecb,
                key_share0: KEY_MASK,
                key_share1: fixed.key_share1,
                manual: false,
            },
            fixed,
            pool,
            input: [[0; 4]; AES_BLOCKS],
            output: [[0; 4]; AES_BLOCKS],
            expected: [[0; 4]; AES_BLOCKS],
            error: None,
            timeout: false,
        })
    }
}

fn no_memory() -> BenchError {
    BenchError::new(
        ErrorKind::InvalidParameter,
        String::from("leakage: not enough memory for the inputs"),
    )
}

impl<M: AesEngine> Subject for Aes<'_, M> {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        if input == Input::Fixed {
            self.config.key_share1 = self.fixed.key_share1;
            self.input = self.fixed.input;
            self.expected = self.fixed.expected;
        } else if self.key_secret {
            let case = &self.pool[rng.pool_index(data::LEAK_POOL) % self.pool.len()];
            self.config.key_share1 = case.key_share1;
            self.input = case.input;
            self.expected = case.expected;
        } else {
            // Every block drawn on its own: ECB encrypts them independently.
            self.config.key_share1 = self.fixed.key_share1;
            for j in 0..AES_BLOCKS {
                let case = &self.pool[rng.pool_index(data::LEAK_POOL) % self.pool.len()];
                self.input[j] = case.input[j];
                self.expected[j] = case.expected[j];
            }
        }
        self.output = [[0; 4]; AES_BLOCKS];
    }

    #[inline(always)]
    fn call(&mut self) -> u32 {
        let (input, output) = (&self.input[..self.blocks], &mut self.output[..self.blocks]);
        self.error = self
            .engine
            .init(&self.config)
            .and_then(|()| crate::benchmarks::aes::pipeline(self.engine, input, output, false))
            .err();
        0
    }

    fn check(&mut self, _input: Input, _answer: u32) -> Result<(), String> {
        // Key, input and output cleared after the window, so the next call starts from an
        // idle engine, as every call of the `aes` benchmark does.
        let cleared = self.engine.deinit();
        failed(self.error.take(), &mut self.timeout)?;
        failed(cleared.err(), &mut self.timeout)?;
        let n = self.blocks;
        match (0..n).find(|&j| self.output[j] != self.expected[j]) {
            None => Ok(()),
            Some(j) => Err(format!(
                "block {j} is {:08x?}, expected {:08x?}",
                self.output[j], self.expected[j]
            )),
        }
    }

    fn entry(&self) -> usize {
        timed::<Self> as fn(&mut Self) -> (u32, u32) as usize
    }

    fn timed_out(&self) -> bool {
        self.timeout
    }
}

/// A keyed hash on the accelerator, HMAC-SHA256 or KMAC256, with the key secret and the
/// message fixed.
struct Mac<'a, H: Hasher> {
    engine: &'a mut H,
    /// Class 0's key and MAC.
    fixed: ([u32; 8], [u32; 8]),
    /// Class 1's keys and MACs.
    pool: Vec<([u32; 8], [u32; 8])>,
    /// The message as the engine takes it (little-endian words), and its length in words.
    message: [u32; 2],
    words: usize,
    key: [u32; 8],
    tag: [u32; 8],
    expected: [u32; 8],
    error: Option<ModuleError>,
    timeout: bool,
}

impl<'a, H: Hasher> Mac<'a, H> {
    fn hmac(engine: &'a mut H) -> Result<Self, BenchError> {
        Self::new(
            engine,
            (&data::HMAC_KEY, &data::HMAC_TAG),
            (&data::HMAC_KEY_POOL, &data::HMAC_KEY_POOL_TAGS),
            &data::HMAC_MESSAGE,
        )
    }

    fn kmac(engine: &'a mut H) -> Result<Self, BenchError> {
        Self::new(
            engine,
            (&data::KMAC_KEY, &data::KMAC_TAG),
            (&data::KMAC_KEY_POOL, &data::KMAC_KEY_POOL_TAGS),
            &data::KMAC_MESSAGE,
        )
    }

    fn new(
        engine: &'a mut H,
        (key, tag): (&[u8; 32], &[u8; 32]),
        (pool_keys, pool_tags): (
            &'static [[u8; 32]; data::LEAK_POOL],
            &'static [[u8; 32]; data::LEAK_POOL],
        ),
        message: &[u8],
    ) -> Result<Self, BenchError> {
        let fixed = (le_words(key), be_words(tag));
        let mut pool = Vec::new();
        pool.try_reserve_exact(data::LEAK_POOL).map_err(|_| no_memory())?;
        pool.extend(pool_keys.iter().zip(pool_tags).map(|(k, t)| (le_words(k), be_words(t))));
        Ok(Self {
            engine,
            fixed,
            pool,
            message: le_words(message),
            // Both messages are whole words (8 and 4 bytes).
            words: message.len() / 4,
            key: fixed.0,
            tag: [0; 8],
            expected: fixed.1,
            error: None,
            timeout: false,
        })
    }
}

impl<H: Hasher> Subject for Mac<'_, H> {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        if input == Input::Fixed {
            (self.key, self.expected) = self.fixed;
        } else {
            (self.key, self.expected) = self.pool[rng.pool_index(data::LEAK_POOL) % self.pool.len()];
        }
        self.tag = [0; 8];
    }

    #[inline(always)]
    fn call(&mut self) -> u32 {
        let message = &self.message[..self.words];
        self.error = self
            .engine
            .init_keyed(&self.key)
            .and_then(|()| {
                self.engine.write_inputs(message);
                self.engine.wait_for_keyed_completion()
            })
            .map(|()| self.engine.read_digest(&mut self.tag))
            .err();
        0
    }

    fn check(&mut self, _input: Input, _answer: u32) -> Result<(), String> {
        failed(self.error.take(), &mut self.timeout)?;
        if self.tag == self.expected {
            Ok(())
        } else {
            Err(format!("MAC {:08x?}, expected {:08x?}", self.tag, self.expected))
        }
    }

    fn entry(&self) -> usize {
        timed::<Self> as fn(&mut Self) -> (u32, u32) as usize
    }

    fn timed_out(&self) -> bool {
        self.timeout
    }
}
