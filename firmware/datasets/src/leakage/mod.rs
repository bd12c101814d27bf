//! Inputs and known answers of the accelerator leakage tests (AES-128, HMAC-SHA256, KMAC256)
//! and of the comparison controls. Class 0 is a fixed input (`inputs.rs`: published vectors
//! where there is one); class 1 draws from a pool of [`LEAK_POOL`] random inputs that the
//! build script generates from a fixed seed, with every answer computed by RustCrypto (`aes`,
//! `sha2`, `sha3`; the controls' buffers all differ from class 0's), so each output of both
//! classes is checked without a reference running on the device.

include!("inputs.rs");

mod expected {
    include!(concat!(env!("OUT_DIR"), "/leakage_expected.rs"));
}

pub use expected::{
    AES_BLOCK_POOL, AES_BLOCK_POOL_CIPHERTEXTS, AES_CIPHERTEXT, AES_KEY_POOL, AES_KEY_POOL_CIPHERTEXTS, COMPARE_POOL,
    HMAC_KEY_POOL, HMAC_KEY_POOL_TAGS, HMAC_TAG, KMAC_KEY_POOL, KMAC_KEY_POOL_TAGS, KMAC_TAG,
};
