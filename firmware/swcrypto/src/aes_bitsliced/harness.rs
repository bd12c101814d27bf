//! The harnesses of bitsliced AES-128: the key expansion (key secret) and CTR mode over
//! `length` bytes (key or data secret), with NIST SP 800-38A F.5.1 as the fixed input.

use alloc::string::String;

use cyclebench_datasets::software as data;

use super::{aes128_bitsliced, ctr, expand_key, AesBitsliced};
use crate::harness::{differs, reference, Buffer, Harness, Rng, Setup, Subject, Timer, FIXED};
use crate::stream::{Cipher, Stream};
use crate::Variant;

/// The `software` kind's calls: the key expansion or CTR timed, the other run beside it,
/// the output checked (the key schedule's by encrypting with it). One function for both, as
/// the window's instructions depend on the code around it.
fn repeat<T: Timer>(
    v: Variant,
    schedule: bool,
    length: usize,
    repetitions: u16,
    timer: &mut T,
) -> Result<Option<usize>, String> {
    let Some(aes) = aes128_bitsliced(v) else {
        return Ok(None);
    };
    let checked = if schedule { 64 } else { length };
    let mut buffer = Buffer::new(checked);
    for _ in 0..repetitions {
        let mut round_keys = [0u32; 88];
        if schedule {
            timer.time(|| (aes.expand_key)(&data::AES_CTR_KEY, &mut round_keys));
        } else {
            (aes.expand_key)(&data::AES_CTR_KEY, &mut round_keys);
        }
        data::fill_input(buffer.bytes_mut());
        let data = buffer.bytes_mut();
        if schedule {
            (aes.ctr)(&round_keys, &data::AES_CTR_IV, data);
        } else {
            timer.time(|| (aes.ctr)(&round_keys, &data::AES_CTR_IV, data));
        }
        differs(buffer.bytes(), &data::AES_CTR_OUTPUT[..checked])?;
    }
    Ok(Some(if schedule {
        aes.expand_key as usize
    } else {
        aes.ctr as usize
    }))
}

/// Bitsliced AES-128 key expansion with the key secret.
pub struct KeySchedule {
    aes: AesBitsliced,
    reference: Option<AesBitsliced>,
    key: [u8; 16],
    round_keys: [u32; 88],
    expected: [u32; 88],
}

impl Harness for KeySchedule {
    fn new(setup: &Setup) -> Option<Self> {
        let aes = aes128_bitsliced(setup.variant)?;
        let mut expected = [0; 88];
        expand_key(&data::AES_CTR_KEY, &mut expected);
        Some(Self {
            aes,
            reference: reference(setup.variant, aes128_bitsliced),
            key: [0; 16],
            round_keys: [0; 88],
            expected,
        })
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        repeat(setup.variant, true, 0, repetitions, timer)
    }
}

impl Subject for KeySchedule {
    fn known_answer(&self) -> Result<(), String> {
        let mut block = [0u8; 64];
        data::fill_input(&mut block);
        ctr(&self.expected, &data::AES_CTR_IV, &mut block);
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

/// Names bitsliced AES-128-CTR's [`Stream`].
pub struct Ctr;

impl Harness for Stream<Ctr> {
    fn new(setup: &Setup) -> Option<Self> {
        let aes = aes128_bitsliced(setup.variant)?;
        Some(Stream::new(Cipher::Bitsliced(aes), setup))
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        repeat(setup.variant, false, setup.length, repetitions, timer)
    }
}
