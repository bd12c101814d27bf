//! The harness of ChaCha20 over `length` bytes (key or data secret), with RFC 8439's key,
//! nonce and counter as the fixed input.

use alloc::string::String;

use cyclebench_datasets::software as data;

use super::chacha20;
use crate::harness::{differs, Buffer, Harness, Setup, Timer};
use crate::stream::{Cipher, Stream};

/// Names ChaCha20's [`Stream`].
pub struct Chacha20;

impl Harness for Stream<Chacha20> {
    fn new(setup: &Setup) -> Option<Self> {
        let f = chacha20(setup.variant)?;
        Some(Stream::new(Cipher::Chacha(f), setup))
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        let Some(f) = chacha20(setup.variant) else {
            return Ok(None);
        };
        let length = setup.length;
        let mut buffer = Buffer::new(length);
        for _ in 0..repetitions {
            data::fill_input(buffer.bytes_mut());
            let data = buffer.bytes_mut();
            timer.time(|| f(&data::CHACHA20_KEY, &data::CHACHA20_NONCE, data::CHACHA20_COUNTER, data));
            differs(buffer.bytes(), &data::CHACHA20_OUTPUT[..length])?;
        }
        Ok(Some(f as usize))
    }
}
