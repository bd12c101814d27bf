//! Benchmark datasets of the cyclebench suite: input, configuration and expected output, from
//! published vectors (FIPS 180-4, FIPS 202, NIST SP 800-38A, NIST CAVP CTR_DRBG). The host
//! tests recompute every expected output with well-kept reference crates.
#![no_std]
#![forbid(unsafe_code)]

mod aes;
mod hash;
pub mod leakage;
pub mod offload;
pub mod pubkey;
mod rng;
pub mod software;

pub use aes::{AesDataset, AesDatasetMode, AesKeyBits, AES};
pub use hash::{HashDataset, HASH};
pub use rng::{RngDataset, RngGenerate, RNG};

/// The AES dataset called `id`.
pub fn aes(id: &str) -> Option<&'static AesDataset> {
    AES.iter().find(|d| d.id == id)
}

/// The hash dataset called `id`.
pub fn hash(id: &str) -> Option<&'static HashDataset> {
    HASH.iter().find(|d| d.id == id)
}

/// The seeded RNG dataset called `id`.
pub fn rng(id: &str) -> Option<&'static RngDataset> {
    RNG.iter().find(|d| d.id == id)
}

#[cfg(test)]
mod tests;
