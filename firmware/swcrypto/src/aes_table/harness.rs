//! The harnesses of table AES-128: the key expansion (key secret) and the encryption of one
//! block (key or plaintext secret), with FIPS-197 Appendix C.1 as the fixed input.

use alloc::string::String;

use cyclebench_datasets::software as data;

use super::{aes128_table, encrypt_block, expand_key, AesTable};
use crate::harness::{differs, reference, Harness, Rng, Secret, Setup, Subject, Timer, FIXED};
use crate::Variant;

/// The `software` kind's calls: the key expansion or the encryption timed, the other run
/// beside it, the ciphertext checked. One function for both, as the window's instructions
/// depend on the code around it.
fn repeat<T: Timer>(v: Variant, schedule: bool, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
    let Some(aes) = aes128_table(v) else {
        return Ok(None);
    };
    for _ in 0..repetitions {
        let mut round_keys = [0u32; 44];
        let mut output = [0u8; 16];
        if schedule {
            // The key schedule is checked by encrypting with its output.
            timer.time(|| (aes.expand_key)(&data::AES_TABLE_KEY, &mut round_keys));
            (aes.encrypt_block)(&round_keys, &data::AES_TABLE_PLAINTEXT, &mut output);
        } else {
            (aes.expand_key)(&data::AES_TABLE_KEY, &mut round_keys);
            timer.time(|| (aes.encrypt_block)(&round_keys, &data::AES_TABLE_PLAINTEXT, &mut output));
        }
        differs(&output, &data::AES_TABLE_CIPHERTEXT)?;
    }
    Ok(Some(if schedule {
        aes.expand_key as usize
    } else {
        aes.encrypt_block as usize
    }))
}

/// Table AES-128 key expansion with the key secret.
pub struct KeySchedule {
    aes: AesTable,
    reference: Option<AesTable>,
    key: [u8; 16],
    round_keys: [u32; 44],
    expected: [u32; 44],
}

impl Harness for KeySchedule {
    fn new(setup: &Setup) -> Option<Self> {
        let aes = aes128_table(setup.variant)?;
        let mut expected = [0; 44];
        expand_key(&data::AES_TABLE_KEY, &mut expected);
        Some(Self {
            aes,
            reference: reference(setup.variant, aes128_table),
            key: [0; 16],
            round_keys: [0; 44],
            expected,
        })
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        repeat(setup.variant, true, repetitions, timer)
    }
}

impl Subject for KeySchedule {
    fn known_answer(&self) -> Result<(), String> {
        let mut output = [0; 16];
        encrypt_block(&self.expected, &data::AES_TABLE_PLAINTEXT, &mut output);
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

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        repeat(setup.variant, false, repetitions, timer)
    }
}

impl Subject for Encrypt {
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
