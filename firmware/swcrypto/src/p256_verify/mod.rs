//! ECDSA P-256 signature verification in software on the core: RustCrypto `p256`, the
//! baseline for the same verification on a big-number accelerator. Verification checks a
//! public signature against a public key, so nothing in it is secret; the random input is a
//! digest the signature does not sign, which must be rejected.

use alloc::format;
use alloc::string::String;

use cyclebench_datasets::pubkey as data;
use p256::ecdsa::signature::hazmat::PrehashVerifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::EncodedPoint;

use crate::harness::{Harness, Input, Rng, Setup, Subject};
use crate::Variant;

/// A 256-bit integer of the datasets (little-endian words) as big-endian bytes.
pub(crate) fn be_bytes(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(words.iter().rev()) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Verification of RFC 6979 A.2.5's signature, or of a random digest under it.
pub struct Verify {
    key: VerifyingKey,
    signature: Signature,
    signed: [u8; 32],
    digest: [u8; 32],
}

impl Harness for Verify {
    fn new(setup: &Setup) -> Option<Self> {
        if setup.variant != Variant::Rust {
            return None;
        }
        let point = EncodedPoint::from_affine_coordinates(
            &be_bytes(&data::P256_X).into(),
            &be_bytes(&data::P256_Y).into(),
            false,
        );
        let key = VerifyingKey::from_encoded_point(&point).ok()?;
        let signature = Signature::from_scalars(be_bytes(&data::P256_R), be_bytes(&data::P256_S)).ok()?;
        let signed = be_bytes(&data::P256_MSG);
        Some(Self {
            key,
            signature,
            signed,
            digest: signed,
        })
    }
}

impl Subject for Verify {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match input {
            Input::Fixed => self.digest = self.signed,
            Input::Random => rng.fill_bytes(&mut self.digest),
        }
    }

    fn call(&mut self) -> u32 {
        u32::from(self.key.verify_prehash(&self.digest, &self.signature).is_ok())
    }

    fn check(&mut self, input: Input, answer: u32) -> Result<(), String> {
        // The signed digest must be accepted; any other (a random one) rejected.
        let expected = u32::from(self.digest == self.signed);
        match (input, answer == expected) {
            (_, true) => Ok(()),
            (Input::Fixed, false) => Err(String::from("RFC 6979's signature rejected")),
            (Input::Random, false) => Err(format!(
                "a digest it does not sign accepted: {:02x?}",
                &self.digest[..4]
            )),
        }
    }

    fn entry(&self) -> usize {
        let verify: fn(&VerifyingKey, &[u8], &Signature) -> Result<(), p256::ecdsa::Error> =
            <VerifyingKey as PrehashVerifier<Signature>>::verify_prehash;
        verify as usize
    }
}
