//! Known answers of the public-key benchmarks (`src/pubkey/`): the ECDSA P-256 signature of
//! RFC 6979 A.2.5 recomputed with RustCrypto `p256` and checked against the published one,
//! the public key, the verification results of the valid signature and of one with a bit of s
//! flipped, and RSA keys of every offered length with a message, its encryption and (the
//! check of the key) its decryption, by `num-bigint`. Written to `$OUT_DIR/pubkey_expected.rs`
//! as little-endian 32-bit words, the order the accelerator's memory takes them in.

use std::fmt::Write as _;
use std::path::PathBuf;

use num_bigint::BigUint;
use p256::ecdsa::signature::hazmat::PrehashVerifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::point::AffineCoordinates;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::elliptic_curve::PrimeField;
use p256::{FieldBytes, ProjectivePoint, Scalar, U256};
use sha2::Digest as _;

#[allow(dead_code)]
mod inputs {
    include!("../src/pubkey/inputs.rs");
}
use inputs::*;

/// A big-endian integer as little-endian 32-bit words.
fn le_words(big_endian: &[u8]) -> Vec<u32> {
    let mut bytes = big_endian.to_vec();
    bytes.reverse();
    bytes
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

fn words(out: &mut String, name: &str, doc: &str, words: &[u32]) {
    let _ = writeln!(
        out,
        "/// {doc}\npub static {name}: [u32; {}] = {words:#010x?};",
        words.len()
    );
}

fn scalar(bytes: &[u8; 32]) -> Scalar {
    Option::from(Scalar::from_repr(FieldBytes::from(*bytes))).expect("a scalar below the group order")
}

/// x of `u1·G + u2·Q`, reduced modulo n: what the accelerator's verification returns.
fn verify_x1(z: Scalar, r: Scalar, s: Scalar, q: ProjectivePoint) -> Scalar {
    let w = Option::<Scalar>::from(s.invert()).expect("s is invertible");
    let point = (ProjectivePoint::GENERATOR * (z * w) + q * (r * w)).to_affine();
    <Scalar as Reduce<U256>>::reduce_bytes(&point.x())
}

fn p256_expected(out: &mut String) {
    let digest: [u8; 32] = sha2::Sha256::digest(P256_MESSAGE).into();
    let d = scalar(&P256_PRIVATE_KEY);
    let k = scalar(&P256_NONCE);
    let z = <Scalar as Reduce<U256>>::reduce_bytes(&digest.into());
    let r = <Scalar as Reduce<U256>>::reduce_bytes(&(ProjectivePoint::GENERATOR * k).to_affine().x());
    let s = Option::<Scalar>::from(k.invert()).expect("k is invertible") * (z + r * d);
    assert_eq!(
        [r.to_repr().as_slice(), s.to_repr().as_slice()],
        [P256_SIGNATURE[0].as_slice(), P256_SIGNATURE[1].as_slice()],
        "p256 does not reproduce RFC 6979 A.2.5's signature"
    );
    let q = ProjectivePoint::GENERATOR * d;
    let encoded = q.to_affine().to_encoded_point(false);
    let (x, y) = (encoded.x().expect("affine"), encoded.y().expect("affine"));

    let key = VerifyingKey::from_encoded_point(&encoded).expect("a valid public key");
    let valid = Signature::from_scalars(r.to_repr(), s.to_repr()).expect("a signature");
    assert!(
        key.verify_prehash(&digest, &valid).is_ok(),
        "p256 rejects the valid signature"
    );
    let mut corrupted_s = s.to_repr();
    corrupted_s[31] ^= 1;
    let corrupted = Signature::from_scalars(r.to_repr(), corrupted_s).expect("a signature");
    assert!(
        key.verify_prehash(&digest, &corrupted).is_err(),
        "p256 accepts the corrupted signature"
    );
    let x1_valid = verify_x1(z, r, s, q);
    assert_eq!(x1_valid, r, "the valid signature's x1 is r");
    let x1_corrupted = verify_x1(z, r, scalar(&corrupted_s.into()), q);
    assert_ne!(x1_corrupted, r, "the corrupted signature's x1 differs from r");

    let values: [(&str, &str, &[u8]); 9] = [
        ("P256_D", "Private key d.", &P256_PRIVATE_KEY),
        ("P256_K", "Nonce k.", &P256_NONCE),
        ("P256_MSG", "The SHA-256 digest signed, as the integer z.", &digest),
        ("P256_R", "Signature r (RFC 6979 A.2.5).", &r.to_repr()),
        ("P256_S", "Signature s (RFC 6979 A.2.5).", &s.to_repr()),
        (
            "P256_S_CORRUPTED",
            "s with its lowest bit flipped: a signature to reject.",
            &corrupted_s,
        ),
        ("P256_X", "Public key Q = d·G, x.", x),
        ("P256_Y", "Public key Q = d·G, y.", y),
        (
            "P256_X1_CORRUPTED",
            "x of u1·G + u2·Q mod n for the corrupted signature (not r: rejected).",
            &x1_corrupted.to_repr(),
        ),
    ];
    for (name, doc, value) in values {
        words(out, name, doc, &le_words(value));
    }
}

/// SHA-256(seed ‖ label ‖ counter) blocks, concatenated to `bytes` bytes.
fn stream(label: &str, bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 32);
    let mut counter = 0u32;
    while out.len() < bytes {
        let mut h = sha2::Sha256::new();
        h.update(RSA_SEED);
        h.update(label.as_bytes());
        h.update(counter.to_be_bytes());
        out.extend_from_slice(&h.finalize());
        counter += 1;
    }
    out.truncate(bytes);
    out
}

const SMALL_PRIMES: [u32; 24] = [
    3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
];

/// Miller–Rabin with the first bases: the candidates are not chosen by an adversary, and the
/// key is checked by a decryption below.
fn probably_prime(n: &BigUint) -> bool {
    if SMALL_PRIMES.iter().any(|&p| (n % p) == BigUint::from(0u8)) {
        return false;
    }
    let one = BigUint::from(1u8);
    let n1 = n - &one;
    let shift = n1.trailing_zeros().expect("n > 1");
    let odd = &n1 >> shift;
    [2u32, 3, 5, 7, 11, 13, 17, 19].iter().all(|&a| {
        let mut x = BigUint::from(a).modpow(&odd, n);
        if x == one || x == n1 {
            return true;
        }
        for _ in 1..shift {
            x = x.modpow(&BigUint::from(2u8), n);
            if x == n1 {
                return true;
            }
        }
        false
    })
}

/// The first probable prime p of `bits` bits (the top two set, so a product of two has twice
/// as many) with gcd(e, p - 1) = 1, from the stream `label`.
fn prime(bits: usize, label: &str) -> BigUint {
    let mut start = stream(label, bits / 8);
    start[0] |= 0xc0;
    let last = start.len() - 1;
    start[last] |= 1;
    let mut candidate = BigUint::from_bytes_be(&start);
    let e = BigUint::from(RSA_PUBLIC_EXPONENT);
    loop {
        if (&candidate - 1u8) % &e != BigUint::from(0u8) && probably_prime(&candidate) {
            return candidate;
        }
        candidate += 2u8;
    }
}

fn rsa_expected(out: &mut String) {
    let e = BigUint::from(RSA_PUBLIC_EXPONENT);
    let _ = writeln!(
        out,
        "/// One RSA key per offered length, shortest first.\npub static RSA: [super::RsaVector; {}] = [",
        RSA_BITS.len()
    );
    for bits in RSA_BITS {
        let half = usize::from(bits) / 2;
        let p = prime(half, &format!("{bits} p"));
        let q = prime(half, &format!("{bits} q"));
        let n = &p * &q;
        assert_eq!(n.bits(), u64::from(bits));
        let phi = (&p - 1u8) * (&q - 1u8);
        let d = e.modinv(&phi).expect("e is invertible modulo phi");
        let mut message = stream(&format!("{bits} message"), usize::from(bits) / 8);
        message[0] &= 0x7f;
        let m = BigUint::from_bytes_be(&message);
        let c = m.modpow(&e, &n);
        assert_eq!(c.modpow(&d, &n), m, "the {bits}-bit key decrypts its encryption");
        let limbs = |v: &BigUint| {
            let mut w = v.to_u32_digits();
            w.resize(usize::from(bits) / 32, 0);
            w
        };
        let _ = writeln!(
            out,
            "    super::RsaVector {{ bits: {bits}, modulus: &{:#010x?}, private_exponent: &{:#010x?}, plaintext: &{:#010x?}, ciphertext: &{:#010x?} }},",
            limbs(&n),
            limbs(&d),
            limbs(&m),
            limbs(&c)
        );
    }
    out.push_str("];\n");
}

/// Writes `pubkey_expected.rs`.
pub fn pubkey_expected() {
    let mut out = String::from("// Generated by build.rs from src/pubkey/inputs.rs. Do not edit.\n");
    p256_expected(&mut out);
    rsa_expected(&mut out);
    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("pubkey_expected.rs");
    std::fs::write(&path, out).expect("write pubkey_expected.rs");
    println!("cargo:rerun-if-changed=src/pubkey/inputs.rs");
    println!("cargo:rerun-if-changed=build/pubkey.rs");
}
