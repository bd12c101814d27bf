//! Table AES-128's harnesses: key expansion and one-block encryption under FIPS-197's
//! Appendix C.1 vector.

use alloc::string::String;

use cyclebench_datasets::software as data;
use cyclebench_protocol::Secret;

use super::{aes128_table, encrypt_block, expand_key, AesTable};
use crate::harness::{differs, reference, Harness, Input, Rng, Setup, Subject};

/// Table AES-128 key expansion, the key the input.
pub struct KeySchedule {
    aes: AesTable,
    reference: Option<AesTable>,
    key: [u8; 16],
    round_keys: [u32; 44],
    expected: [u32; 44],
}

impl Harness for KeySchedule {
    fn new(setup: &Setup) -> Option<Self> {
        let mut expected = [0; 44];
        expand_key(&data::AES_TABLE_KEY, &mut expected);
        Some(Self {
            aes: aes128_table(setup.variant)?,
            reference: reference(setup.variant, aes128_table),
            key: data::AES_TABLE_KEY,
            round_keys: [0; 44],
            expected,
        })
    }
}

impl Subject for KeySchedule {
    /// The expected round keys encrypt FIPS-197's plaintext to its ciphertext.
    fn known_answer(&self) -> Result<(), String> {
        let mut output = [0; 16];
        encrypt_block(&self.expected, &data::AES_TABLE_PLAINTEXT, &mut output);
        differs(&output, &data::AES_TABLE_CIPHERTEXT)
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match input {
            Input::Fixed => self.key = data::AES_TABLE_KEY,
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
        let mut expected = [0; 44];
        (reference.expand_key)(&self.key, &mut expected);
        differs(&self.round_keys, &expected)
    }

    fn entry(&self) -> usize {
        self.aes.expand_key as usize
    }
}

/// Table AES-128 encryption of one block, with the key or the plaintext random.
pub struct Encrypt {
    aes: AesTable,
    reference: Option<AesTable>,
    key_secret: bool,
    key: [u8; 16],
    fixed_round_keys: [u32; 44],
    round_keys: [u32; 44],
    plaintext: [u8; 16],
    output: [u8; 16],
}

impl Harness for Encrypt {
    fn new(setup: &Setup) -> Option<Self> {
        let aes = aes128_table(setup.variant)?;
        let mut fixed_round_keys = [0; 44];
        (aes.expand_key)(&data::AES_TABLE_KEY, &mut fixed_round_keys);
        Some(Self {
            aes,
            reference: reference(setup.variant, aes128_table),
            key_secret: setup.secret == Secret::Key,
            key: data::AES_TABLE_KEY,
            fixed_round_keys,
            round_keys: fixed_round_keys,
            plaintext: data::AES_TABLE_PLAINTEXT,
            output: [0; 16],
        })
    }
}

impl Subject for Encrypt {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match (input, self.key_secret) {
            (Input::Fixed, _) => {
                self.key = data::AES_TABLE_KEY;
                self.round_keys = self.fixed_round_keys;
                self.plaintext = data::AES_TABLE_PLAINTEXT;
            }
            (Input::Random, true) => {
                rng.fill_bytes(&mut self.key);
                (self.aes.expand_key)(&self.key, &mut self.round_keys);
            }
            (Input::Random, false) => rng.fill_bytes(&mut self.plaintext),
        }
    }

    fn call(&mut self) -> u32 {
        (self.aes.encrypt_block)(&self.round_keys, &self.plaintext, &mut self.output);
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        if input == Input::Fixed {
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
