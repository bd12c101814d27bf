//! SHA3-256 (FIPS 202) as a sponge over one of this crate's Keccak-f[1600] variants.
//!
//! The state stays in the variant's internal representation from the first block to the last:
//! message lanes are interleaved (and XORed into the complemented lanes as they are, since
//! complementing commutes with XOR), so only the squeeze converts back to ordinary lanes.

use super::KeccakF1600;

/// Rate of SHA3-256: 1088 bits, 17 lanes.
const RATE_BYTES: usize = 136;
const RATE_WORDS: usize = RATE_BYTES / 4;

/// An incremental SHA3-256 over a Keccak-f[1600] variant.
pub struct Sha3 {
    keccak: KeccakF1600,
    state: [u32; 50],
    /// The block being filled, as little-endian message words (lane `i` is words `2i`, `2i + 1`).
    block: [u32; RATE_WORDS],
    /// Message bytes in `block`.
    filled: usize,
}

impl Sha3 {
    /// A SHA3-256 computation on `keccak`, with nothing absorbed.
    pub fn new(keccak: KeccakF1600) -> Self {
        let mut hasher = Self {
            keccak,
            state: [0; 50],
            block: [0; RATE_WORDS],
            filled: 0,
        };
        hasher.reset();
        hasher
    }

    /// Starts a new message.
    pub fn reset(&mut self) {
        (self.keccak.to_internal)(&[0; 25], &mut self.state);
        self.filled = 0;
    }

    /// Absorbs four message bytes, the first in bits 7:0.
    #[inline]
    pub fn update_word(&mut self, word: u32) {
        if self.filled.is_multiple_of(4) {
            self.block[self.filled / 4] = word;
            self.filled += 4;
            if self.filled == RATE_BYTES {
                self.absorb_block();
            }
        } else {
            word.to_le_bytes().iter().for_each(|&b| self.update_byte(b));
        }
    }

    /// Absorbs one message byte.
    pub fn update_byte(&mut self, byte: u8) {
        let (index, shift) = (self.filled / 4, 8 * (self.filled % 4));
        if shift == 0 {
            self.block[index] = u32::from(byte);
        } else {
            self.block[index] |= u32::from(byte) << shift;
        }
        self.filled += 1;
        if self.filled == RATE_BYTES {
            self.absorb_block();
        }
    }

    /// Pads the message (SHA-3 domain bits `01`, then pad10*1), absorbs the last block and
    /// returns the digest; the hasher then starts a new message.
    pub fn finalize(&mut self) -> [u8; 32] {
        // A full block is absorbed as soon as it fills, so the padding starts inside this one.
        let (index, shift) = (self.filled / 4, 8 * (self.filled % 4));
        let message = if shift == 0 {
            0
        } else {
            self.block[index] & ((1 << shift) - 1)
        };
        self.block[index] = message | 0x06 << shift;
        self.block[index + 1..].fill(0);
        self.block[RATE_WORDS - 1] |= 0x80 << 24;
        self.absorb_block();
        let mut lanes = [0u64; 25];
        (self.keccak.from_internal)(&self.state, &mut lanes);
        let mut digest = [0; 32];
        for (out, lane) in digest.chunks_exact_mut(8).zip(lanes) {
            out.copy_from_slice(&lane.to_le_bytes());
        }
        self.reset();
        digest
    }

    fn absorb_block(&mut self) {
        for (words, lane) in self.state.chunks_exact_mut(2).zip(self.block.chunks_exact(2)) {
            let [even, odd] = interleave_words(lane[0], lane[1]);
            words[0] ^= even;
            words[1] ^= odd;
        }
        (self.keccak.permute)(&mut self.state);
        self.filled = 0;
    }
}

/// Moves the even bits of `x` to its low half and the odd bits to its high half, in order
/// (four delta swaps).
#[inline(always)]
fn unshuffle(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0c0c_0c0c;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00f0_00f0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000_ff00;
    x ^= t ^ (t << 8);
    x
}

/// The lane `low | high << 32` as (even bits, odd bits), as [`super::interleave`] computes it
/// with 32-bit operations only.
#[inline(always)]
fn interleave_words(low: u32, high: u32) -> [u32; 2] {
    let (l, h) = (unshuffle(low), unshuffle(high));
    [(l & 0xffff) | (h << 16), (l >> 16) | (h & 0xffff_0000)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak::{interleave, keccak_f1600};
    use crate::test_support::Xorshift64;
    use crate::Variant;
    use sha3::{Digest, Sha3_256};

    fn rust() -> Sha3 {
        Sha3::new(keccak_f1600(Variant::Rust).unwrap())
    }

    #[test]
    fn word_interleaving_matches_the_lane_interleaving() {
        let mut rng = Xorshift64::new(7);
        for _ in 0..1000 {
            let lane = rng.next_u64();
            assert_eq!(interleave_words(lane as u32, (lane >> 32) as u32), interleave(lane));
        }
    }

    #[test]
    fn fips_202_abc() {
        let mut h = rust();
        b"abc".iter().for_each(|&b| h.update_byte(b));
        assert_eq!(
            h.finalize(),
            hex_literal::hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
        );
    }

    #[test]
    fn every_length_around_the_rate_matches_rustcrypto_by_words_and_by_bytes() {
        let mut rng = Xorshift64::new(3);
        let message: alloc::vec::Vec<u8> = (0..3 * RATE_BYTES + 9).map(|_| rng.next_u64() as u8).collect();
        let mut h = rust();
        for len in 0..message.len() {
            let expected: [u8; 32] = Sha3_256::digest(&message[..len]).into();
            message[..len].iter().for_each(|&b| h.update_byte(b));
            assert_eq!(h.finalize(), expected, "bytes, length {len}");
            // Words first, then the tail by bytes (how the suite feeds it), with one odd
            // byte in front when the length allows, to take the unaligned word path.
            let (head, rest) = message[..len].split_at(len % 2);
            head.iter().for_each(|&b| h.update_byte(b));
            let words = rest.chunks_exact(4);
            let tail = words.remainder();
            words.for_each(|w| h.update_word(u32::from_le_bytes([w[0], w[1], w[2], w[3]])));
            tail.iter().for_each(|&b| h.update_byte(b));
            assert_eq!(h.finalize(), expected, "words, length {len}");
        }
    }
}
