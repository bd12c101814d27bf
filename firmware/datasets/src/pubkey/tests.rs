//! The known answers as the suite reads them (little-endian words) checked again with the
//! reference crates: the build script's conversion is part of what is tested.

extern crate std;

use std::vec::Vec;

use num_bigint::BigUint;
use p256::ecdsa::signature::hazmat::PrehashVerifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{EncodedPoint, FieldBytes, ProjectivePoint, SecretKey};

use super::*;

fn be_bytes(words: &[u32; 8]) -> FieldBytes {
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.reverse();
    FieldBytes::clone_from_slice(&bytes)
}

fn digest() -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(P256_MESSAGE).into()
}

#[test]
fn the_p256_words_are_rfc_6979_a_2_5() {
    assert_eq!(be_bytes(&P256_D).as_slice(), P256_PRIVATE_KEY);
    assert_eq!(be_bytes(&P256_K).as_slice(), P256_NONCE);
    assert_eq!(be_bytes(&P256_R).as_slice(), P256_SIGNATURE[0]);
    assert_eq!(be_bytes(&P256_S).as_slice(), P256_SIGNATURE[1]);
    assert_eq!(be_bytes(&P256_MSG).as_slice(), digest());
    let secret = SecretKey::from_bytes(&be_bytes(&P256_D)).unwrap();
    let public = (ProjectivePoint::GENERATOR * *secret.to_nonzero_scalar())
        .to_affine()
        .to_encoded_point(false);
    assert_eq!(public.x().unwrap(), &be_bytes(&P256_X));
    assert_eq!(public.y().unwrap(), &be_bytes(&P256_Y));
}

#[test]
fn the_valid_signature_verifies_and_the_corrupted_one_does_not() {
    let point = EncodedPoint::from_affine_coordinates(&be_bytes(&P256_X), &be_bytes(&P256_Y), false);
    let key = VerifyingKey::from_encoded_point(&point).unwrap();
    let valid = Signature::from_scalars(be_bytes(&P256_R), be_bytes(&P256_S)).unwrap();
    let corrupted = Signature::from_scalars(be_bytes(&P256_R), be_bytes(&P256_S_CORRUPTED)).unwrap();
    assert!(key.verify_prehash(&digest(), &valid).is_ok());
    assert!(key.verify_prehash(&digest(), &corrupted).is_err());
    assert_ne!(P256_X1_CORRUPTED, P256_R);
}

#[test]
fn every_rsa_key_encrypts_and_decrypts_its_message() {
    let e = BigUint::from(RSA_PUBLIC_EXPONENT);
    for bits in RSA_BITS {
        let v = rsa(bits).unwrap();
        let n = BigUint::from_slice(v.modulus);
        let (m, c) = (BigUint::from_slice(v.plaintext), BigUint::from_slice(v.ciphertext));
        assert_eq!(n.bits(), u64::from(bits));
        assert_eq!(v.modulus.len(), usize::from(bits) / 32);
        assert_eq!(m.modpow(&e, &n), c, "{bits}");
        assert_eq!(c.modpow(&BigUint::from_slice(v.private_exponent), &n), m, "{bits}");
    }
}
