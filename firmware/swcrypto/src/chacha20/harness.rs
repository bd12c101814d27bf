//! ChaCha20's harness: the stream of [`crate::harness::Stream`] under RFC 8439's key and nonce.

use cyclebench_datasets::software as data;

use super::{chacha20, Chacha20Fn};
use crate::harness::{Stream, StreamCipher};
use crate::Variant;

/// ChaCha20 over the request's length.
pub type Chacha20Stream = Stream<Chacha20>;

/// One variant of ChaCha20, as a stream cipher.
#[derive(Clone, Copy)]
pub struct Chacha20(Chacha20Fn);

impl StreamCipher for Chacha20 {
    const KEY_BYTES: usize = 32;
    type Schedule = [u8; 32];

    fn select(variant: Variant) -> Option<Self> {
        chacha20(variant).map(Self)
    }

    fn fixed_key() -> [u8; 32] {
        data::CHACHA20_KEY
    }

    fn fixed_output() -> &'static [u8] {
        &data::CHACHA20_OUTPUT
    }

    fn schedule(self, key: &[u8; 32]) -> [u8; 32] {
        *key
    }

    fn apply(self, key: &[u8; 32], data: &mut [u8]) {
        (self.0)(key, &data::CHACHA20_NONCE, data::CHACHA20_COUNTER, data)
    }

    fn entry(self) -> usize {
        self.0 as usize
    }
}
