//! The leakage subject of the two stream ciphers (bitsliced AES-128-CTR and ChaCha20) over
//! `length` bytes, with the key or the data secret: one subject for both, so that they are
//! timed through the same instructions.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;

use cyclebench_datasets::software as data;

use crate::harness::{differs, reference, Buffer, Rng, Setup, Subject, FIXED};
use crate::{aes_bitsliced, chacha20};

/// A stream cipher of the suite, called on a buffer in place.
#[derive(Clone, Copy)]
pub(crate) enum Cipher {
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

/// Bitsliced AES-128-CTR or ChaCha20 over `length` bytes, with the key or the data secret;
/// `C` names the cipher's harness (its family module implements [`crate::harness::Harness`]
/// for `Stream<C>`).
pub struct Stream<C> {
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
    harness: PhantomData<C>,
}

impl<C> Stream<C> {
    pub(crate) fn new(cipher: Cipher, setup: &Setup) -> Self {
        let v = setup.variant;
        let length = setup.length;
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
            key_secret: setup.secret == crate::harness::Secret::Key,
            key,
            round_keys: fixed_round_keys,
            fixed_round_keys,
            data: Buffer::new(length),
            expected: pattern.clone(),
            input: pattern,
            keystream,
            harness: PhantomData,
        }
    }
}

impl<C> Subject for Stream<C> {
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
