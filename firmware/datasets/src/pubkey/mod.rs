//! Inputs and known answers of the public-key benchmarks: ECDSA P-256 (RFC 6979 A.2.5's key,
//! message, nonce and signature; the public key and the verification results computed at
//! build time with RustCrypto `p256`) and RSA with e = 65537 at 1024 to 4096 bits (keys,
//! message and ciphertext made at build time with `num-bigint`, each key checked by
//! decrypting). Every value is little-endian 32-bit words, as the accelerator's memory holds
//! big integers.

include!("inputs.rs");

mod expected {
    include!(concat!(env!("OUT_DIR"), "/pubkey_expected.rs"));
}

pub use expected::{P256_D, P256_K, P256_MSG, P256_R, P256_S, P256_S_CORRUPTED, P256_X, P256_X1_CORRUPTED, P256_Y};

/// An RSA key with a message and its encryption.
pub struct RsaVector {
    /// Modulus length in bits.
    pub bits: u16,
    /// Modulus n.
    pub modulus: &'static [u32],
    /// Private exponent d.
    pub private_exponent: &'static [u32],
    /// Message m < n.
    pub plaintext: &'static [u32],
    /// m^65537 mod n.
    pub ciphertext: &'static [u32],
}

/// The RSA key of `bits` bits, if that is a length the suite offers.
pub fn rsa(bits: u16) -> Option<&'static RsaVector> {
    expected::RSA.iter().find(|v| v.bits == bits)
}

#[cfg(test)]
mod tests;
