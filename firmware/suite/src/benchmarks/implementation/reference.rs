//! The suite's own computation of the algorithms an implementation from outside the tree may
//! declare: RustCrypto's SHA-256, SHA3-256 and AES, and the portable ChaCha20 whose outputs the
//! host tests pin to RFC 8439. Every output of such an implementation is compared with these.

use aes::cipher::{BlockEncrypt, KeyInit};
use alloc::vec::Vec;
use cyclebench_protocol::Algorithm;
use cyclebench_swcrypto::{chacha20::chacha20, Variant};
use sha2::Digest;

/// The output of `algorithm` for `input` (a message, a block or a plaintext), `key` and
/// `nonce` of the sizes the algorithm fixes.
pub fn output(algorithm: Algorithm, key: &[u8], nonce: &[u8], input: &[u8]) -> Vec<u8> {
    match algorithm {
        Algorithm::Sha256 => sha2::Sha256::digest(input).to_vec(),
        Algorithm::Sha3_256 => sha3::Sha3_256::digest(input).to_vec(),
        Algorithm::Aes128 => {
            let cipher = aes::Aes128::new_from_slice(key).expect("16-byte key");
            let mut block = aes::Block::clone_from_slice(input);
            cipher.encrypt_block(&mut block);
            block.to_vec()
        }
        Algorithm::Aes256 => {
            let cipher = aes::Aes256::new_from_slice(key).expect("32-byte key");
            let mut block = aes::Block::clone_from_slice(input);
            cipher.encrypt_block(&mut block);
            block.to_vec()
        }
        Algorithm::Chacha20 => {
            let mut data = input.to_vec();
            let apply = chacha20(Variant::Rust).expect("the portable variant is always built");
            let key: &[u8; 32] = key.try_into().expect("32-byte key");
            let nonce: &[u8; 12] = nonce.try_into().expect("12-byte nonce");
            apply(key, nonce, 0, &mut data);
            data
        }
    }
}
