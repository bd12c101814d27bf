//! ECDSA P-256 signing in software on the core: RustCrypto `p256` with the caller's nonce,
//! the baseline for the same signature on a big-number accelerator. The fixed input is RFC
//! 6979 A.2.5's digest, key and nonce, whose signature is published; a random input is a
//! random digest under the same key and nonce, whose s follows from the fixed signature's:
//! s' = s + k⁻¹ (z' − z), while r stays the same.

use alloc::format;
use alloc::string::String;

use cyclebench_datasets::pubkey as data;
use ecdsa::hazmat::sign_prehashed;
use ecdsa::RecoveryId;
use p256::ecdsa::Signature;
use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::Field;
use p256::{FieldBytes, NistP256, Scalar, U256};

use crate::harness::{Harness, Input, Rng, Setup, Subject};
use crate::p256_verify::be_bytes;
use crate::Variant;

/// A scalar from big-endian bytes, reduced modulo the group order.
fn scalar(bytes: &[u8; 32]) -> Scalar {
    <Scalar as Reduce<U256>>::reduce_bytes(FieldBytes::from_slice(bytes))
}

/// Signing of a digest with RFC 6979 A.2.5's key and nonce.
pub struct Sign {
    key: Scalar,
    nonce: Scalar,
    signed: [u8; 32],
    digest: [u8; 32],
    signature: Option<Signature>,
}

impl Harness for Sign {
    fn new(setup: &Setup) -> Option<Self> {
        if setup.variant != Variant::Rust {
            return None;
        }
        let signed = be_bytes(&data::P256_MSG);
        Some(Self {
            key: scalar(&be_bytes(&data::P256_D)),
            nonce: scalar(&be_bytes(&data::P256_K)),
            signed,
            digest: signed,
            signature: None,
        })
    }
}

impl Sign {
    /// The signature the digest must get: RFC 6979's for its digest, derived from it for
    /// another.
    fn expected(&self) -> Option<(Scalar, Scalar)> {
        let r = scalar(&be_bytes(&data::P256_R));
        let s = scalar(&be_bytes(&data::P256_S));
        let nonce_inverse = Option::<Scalar>::from(self.nonce.invert())?;
        Some((r, s + nonce_inverse * (scalar(&self.digest) - scalar(&self.signed))))
    }
}

impl Subject for Sign {
    fn known_answer(&self) -> Result<(), String> {
        // The published signature satisfies s k = z + r d with the published key and nonce.
        let (r, s) = (scalar(&be_bytes(&data::P256_R)), scalar(&be_bytes(&data::P256_S)));
        if s * self.nonce == scalar(&self.signed) + r * self.key && !bool::from(r.is_zero()) {
            Ok(())
        } else {
            Err(String::from("RFC 6979's signature does not fit its key and nonce"))
        }
    }

    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match input {
            Input::Fixed => self.digest = self.signed,
            Input::Random => rng.fill_bytes(&mut self.digest),
        }
        self.signature = None;
    }

    fn call(&mut self) -> u32 {
        let signed = sign_prehashed::<NistP256, Scalar>(&self.key, self.nonce, FieldBytes::from_slice(&self.digest));
        self.signature = signed.ok().map(|(signature, _)| signature);
        0
    }

    fn check(&mut self, _input: Input, _answer: u32) -> Result<(), String> {
        let signature = self.signature.ok_or_else(|| String::from("signing failed"))?;
        let (r, s) = (*signature.r(), *signature.s());
        match self.expected() {
            Some(expected) if expected == (r, s) => Ok(()),
            _ => Err(format!(
                "signature of digest {:02x?}… wrong: r {:02x?}…",
                &self.digest[..4],
                &r.to_bytes()[..4]
            )),
        }
    }

    fn entry(&self) -> usize {
        let sign: fn(&Scalar, Scalar, &FieldBytes) -> ecdsa::Result<(Signature, RecoveryId)> =
            sign_prehashed::<NistP256, Scalar>;
        sign as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cyclebench_protocol::{Primitive, Secret};

    #[test]
    fn signs_the_fixed_and_random_digests_and_catches_a_wrong_signature() {
        let setup = Setup {
            primitive: Primitive::EcdsaP256Sign,
            variant: Variant::Rust,
            length: 0,
            secret: Secret::Data,
        };
        let mut sign = Sign::new(&setup).expect("a Rust variant");
        assert_eq!(sign.known_answer(), Ok(()));
        let mut rng = Rng::new(3);
        for input in [Input::Fixed, Input::Random] {
            sign.prepare(input, &mut rng);
            let answer = sign.call();
            assert_eq!(sign.check(input, answer), Ok(()));
        }
        sign.signed[0] ^= 1;
        assert!(sign.check(Input::Random, 0).is_err());
    }
}
