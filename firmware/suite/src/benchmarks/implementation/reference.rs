//! The suite's own computation of the algorithms an implementation from outside the tree may
//! declare: RustCrypto's SHA-256, SHA3-256 and AES, and the portable ChaCha20 whose outputs the
//! host tests pin to RFC 8439. Every output of such an implementation is compared with these.

use aes::cipher::{BlockEncrypt, KeyInit};
use alloc::vec::Vec;
use cyclebench_impl::Reference;
use cyclebench_protocol::IMPL_ALGORITHMS;
use cyclebench_swcrypto::{chacha20::chacha20, Variant};
use sha2::Digest;

/// The interface's sizes a reference fixes, checked against what the implementation declares.
pub struct Sizes {
    /// Bytes of output for one call (a digest; a block).
    pub output: Option<usize>,
    /// Bytes of key.
    pub key: usize,
    /// Bytes of nonce.
    pub nonce: usize,
}

/// The sizes `reference` fixes.
pub fn sizes(reference: Reference) -> Sizes {
    match reference {
        Reference::Sha256 | Reference::Sha3_256 => Sizes {
            output: Some(32),
            key: 0,
            nonce: 0,
        },
        Reference::Aes128 => Sizes {
            output: Some(16),
            key: 16,
            nonce: 0,
        },
        Reference::Aes256 => Sizes {
            output: Some(16),
            key: 32,
            nonce: 0,
        },
        Reference::Chacha20 => Sizes {
            output: None,
            key: 32,
            nonce: 12,
        },
    }
}

/// The algorithm's name, as `impl.toml` and results give it: the protocol's list is in the
/// order of [`Reference`]'s variants.
pub fn name(reference: Reference) -> &'static str {
    IMPL_ALGORITHMS[reference as usize]
}

/// The output of `reference` for `input` (a message, a block or a plaintext), `key` and
/// `nonce` of the sizes [`sizes`] gives.
pub fn output(reference: Reference, key: &[u8], nonce: &[u8], input: &[u8]) -> Vec<u8> {
    match reference {
        Reference::Sha256 => sha2::Sha256::digest(input).to_vec(),
        Reference::Sha3_256 => sha3::Sha3_256::digest(input).to_vec(),
        Reference::Aes128 => {
            let cipher = aes::Aes128::new_from_slice(key).expect("16-byte key");
            let mut block = aes::Block::clone_from_slice(input);
            cipher.encrypt_block(&mut block);
            block.to_vec()
        }
        Reference::Aes256 => {
            let cipher = aes::Aes256::new_from_slice(key).expect("32-byte key");
            let mut block = aes::Block::clone_from_slice(input);
            cipher.encrypt_block(&mut block);
            block.to_vec()
        }
        Reference::Chacha20 => {
            let mut data = input.to_vec();
            let apply = chacha20(Variant::Rust).expect("the portable variant is always built");
            let key: &[u8; 32] = key.try_into().expect("32-byte key");
            let nonce: &[u8; 12] = nonce.try_into().expect("12-byte nonce");
            apply(key, nonce, 0, &mut data);
            data
        }
    }
}
