//! Bitsliced AES-128's harnesses: its key schedule, and CTR as the stream of
//! [`crate::harness::Stream`] under SP 800-38A's key and counter block.

use alloc::string::String;

use cyclebench_datasets::software as data;

use super::{aes128_bitsliced, ctr, expand_key, AesBitsliced};
use crate::harness::{differs, reference, Harness, Input, Rng, Setup, Stream, StreamCipher, Subject};
use crate::Variant;

/// Bitsliced AES-128-CTR over the request's length.
pub type Ctr = Stream<BitslicedCtr>;

/// One variant of bitsliced AES-128-CTR, as a stream cipher.
#[derive(Clone, Copy)]
pub struct BitslicedCtr(AesBitsliced);

impl StreamCipher for BitslicedCtr {
    const KEY_BYTES: usize = 16;
    type Schedule = [u32; 88];

    fn select(variant: Variant) -> Option<Self> {
        aes128_bitsliced(variant).map(Self)
    }

    fn fixed_key() -> [u8; 32] {
        let mut key = [0; 32];
        key[..16].copy_from_slice(&data::AES_CTR_KEY);
        key
    }

    fn fixed_output() -> &'static [u8] {
        &data::AES_CTR_OUTPUT
    }

    fn schedule(self, key: &[u8; 32]) -> [u32; 88] {
        let mut round_keys = [0; 88];
        if let Some(key) = key.first_chunk::<16>() {
            (self.0.expand_key)(key, &mut round_keys);
        }
        round_keys
    }

    fn apply(self, round_keys: &[u32; 88], data: &mut [u8]) {
        (self.0.ctr)(round_keys, &data::AES_CTR_IV, data)
    }

    fn entry(self) -> usize {
        self.0.ctr as usize
    }
}

/// Bitsliced AES-128 key expansion, the key the input.
pub struct KeySchedule {
    aes: AesBitsliced,
    reference: Option<AesBitsliced>,
    key: [u8; 16],
    round_keys: [u32; 88],
    expected: [u32; 88],
}

impl Harness for KeySchedule {
    fn new(setup: &Setup) -> Option<Self> {
        let mut expected = [0; 88];
        expand_key(&data::AES_CTR_KEY, &mut expected);
        Some(Self {
            aes: aes128_bitsliced(setup.variant)?,
            reference: reference(setup.variant, aes128_bitsliced),
            key: data::AES_CTR_KEY,
            round_keys: [0; 88],
            expected,
        })
    }
}

impl Subject for KeySchedule {
    /// The expected round keys encrypt SP 800-38A's blocks to the published ciphertext.
    fn known_answer(&self) -> Result<(), String> {
        let mut block = [0u8; 64];
        data::fill_input(&mut block);
        ctr(&self.expected, &data::AES_CTR_IV, &mut block);
        differs(&block, &data::AES_CTR_OUTPUT[..64])
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match input {
            Input::Fixed => self.key = data::AES_CTR_KEY,
            Input::Random => rng.fill_bytes(&mut self.key),
        }
    }

    fn call(&mut self) -> u32 {
        (self.aes.expand_key)(&self.key, &mut self.round_keys);
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        if input == Input::Fixed {
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
