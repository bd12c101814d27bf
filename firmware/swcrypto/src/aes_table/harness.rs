//! Table AES's harnesses: key expansion and one-block encryption, AES-128 and AES-256, under
//! FIPS-197's Appendix C vector of the key length (C.1 for AES-128, from the datasets crate;
//! C.3 for AES-256). Each harness serves both key lengths through [`AnyTableAes`]: a harness
//! type adds some 5 KiB to the Earl Grey image, whose flash the model loads is nearly full.

use alloc::string::String;

use cyclebench_datasets::software as data;
use cyclebench_protocol::{Primitive, Secret};

use super::{any_table_aes, AnyTableAes, FIPS197_C3};
use crate::harness::{differs, reference, Harness, Input, Rng, Setup, Subject};
use crate::Variant;

/// Table AES key expansion, the key the input: AES-128 (`aes-table-ks`) or AES-256
/// (`aes256-table-ks`), as the primitive says.
pub struct KeySchedule {
    aes: AnyTableAes,
    reference: Option<AnyTableAes>,
    fixed: &'static Fixed,
    key: [u8; 32],
    round_keys: [u32; 60],
    expected: [u32; 60],
}

impl Harness for KeySchedule {
    fn new(setup: &Setup) -> Option<Self> {
        let fixed = Fixed::of(setup.primitive);
        let select = |variant| any_table_aes(fixed.key_bytes, variant);
        let mut expected = [0; 60];
        (select(Variant::Rust)?.expand_key)(&fixed.key, &mut expected);
        Some(Self {
            aes: select(setup.variant)?,
            reference: reference(setup.variant, select),
            fixed,
            key: fixed.key,
            round_keys: [0; 60],
            expected,
        })
    }
}

impl Subject for KeySchedule {
    /// The expected round keys encrypt FIPS-197's plaintext to its ciphertext.
    fn known_answer(&self) -> Result<(), String> {
        let Some(rust) = any_table_aes(self.fixed.key_bytes, Variant::Rust) else {
            return Err(String::from("no portable table AES of this key length"));
        };
        let mut output = [0; 16];
        (rust.encrypt_block)(&self.expected, &self.fixed.plaintext, &mut output);
        differs(&output, &self.fixed.ciphertext)
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match input {
            Input::Fixed => self.key = self.fixed.key,
            Input::Random => rng.fill_bytes(&mut self.key[..self.fixed.key_bytes]),
        }
    }

    fn call(&mut self) -> u32 {
        (self.aes.expand_key)(&self.key, &mut self.round_keys);
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        let words = self.fixed.round_key_words;
        if input == Input::Fixed {
            return differs(&self.round_keys[..words], &self.expected[..words]);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut expected = [0; 60];
        (reference.expand_key)(&self.key, &mut expected);
        differs(&self.round_keys[..words], &expected[..words])
    }

    fn entry(&self) -> usize {
        self.aes.expand_key as usize
    }
}

/// A key length's fixed input: FIPS-197's Appendix C vector.
struct Fixed {
    key_bytes: usize,
    round_key_words: usize,
    key: [u8; 32],
    plaintext: [u8; 16],
    ciphertext: [u8; 16],
}

/// AES-128's key in the first 16 bytes of the common 32-byte buffer.
const fn aes128_key() -> [u8; 32] {
    let mut key = [0; 32];
    let mut i = 0;
    while i < 16 {
        key[i] = data::AES_TABLE_KEY[i];
        i += 1;
    }
    key
}

const AES128: Fixed = Fixed {
    key_bytes: 16,
    round_key_words: 44,
    key: aes128_key(),
    plaintext: data::AES_TABLE_PLAINTEXT,
    ciphertext: data::AES_TABLE_CIPHERTEXT,
};

const AES256: Fixed = Fixed {
    key_bytes: 32,
    round_key_words: 60,
    key: FIPS197_C3.1,
    plaintext: FIPS197_C3.2,
    ciphertext: FIPS197_C3.3,
};

/// Table AES encryption of one block, with the key or the plaintext random: AES-128
/// (`aes-table`) or AES-256 (`aes256-table`), as the primitive says.
pub struct Encrypt {
    aes: AnyTableAes,
    reference: Option<AnyTableAes>,
    fixed: &'static Fixed,
    key_secret: bool,
    key: [u8; 32],
    fixed_round_keys: [u32; 60],
    round_keys: [u32; 60],
    plaintext: [u8; 16],
    output: [u8; 16],
}

impl Fixed {
    /// The fixed input of `primitive`'s key length.
    fn of(primitive: Primitive) -> &'static Self {
        match primitive {
            Primitive::AesTable256KeySchedule | Primitive::AesTable256Encrypt => &AES256,
            _ => &AES128,
        }
    }
}

impl Harness for Encrypt {
    fn new(setup: &Setup) -> Option<Self> {
        let fixed = Fixed::of(setup.primitive);
        let select = |variant| any_table_aes(fixed.key_bytes, variant);
        let aes = select(setup.variant)?;
        let mut fixed_round_keys = [0; 60];
        (aes.expand_key)(&fixed.key, &mut fixed_round_keys);
        Some(Self {
            aes,
            reference: reference(setup.variant, select),
            fixed,
            key_secret: setup.secret == Secret::Key,
            key: fixed.key,
            fixed_round_keys,
            round_keys: fixed_round_keys,
            plaintext: fixed.plaintext,
            output: [0; 16],
        })
    }
}

impl Subject for Encrypt {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match (input, self.key_secret) {
            (Input::Fixed, _) => {
                self.key = self.fixed.key;
                self.round_keys = self.fixed_round_keys;
                self.plaintext = self.fixed.plaintext;
            }
            (Input::Random, true) => {
                rng.fill_bytes(&mut self.key[..self.fixed.key_bytes]);
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
            return differs(&self.output, &self.fixed.ciphertext);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut round_keys = [0; 60];
        (reference.expand_key)(&self.key, &mut round_keys);
        let mut expected = [0; 16];
        (reference.encrypt_block)(&round_keys, &self.plaintext, &mut expected);
        differs(&self.output, &expected)
    }

    fn entry(&self) -> usize {
        self.aes.encrypt_block as usize
    }
}
