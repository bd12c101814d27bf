//! Messages a request describes instead of naming a stored one: a seeded stream of any length,
//! generated the same way by the suite (before the clock starts) and by the host (which works
//! out the expected output from it), optionally one seeded block repeated.

use alloc::vec::Vec;

/// Largest message the suite holds in RAM; a longer one is a seeded block repeated
/// (`repeated_block`). The suite announces its own limit in its hello; this is the most any
/// suite may announce, the size of the words buffer one hash request may ask for.
pub const MAX_MESSAGE_BYTES: u32 = 16 * 1024;

/// Longest message the repeated-block form may describe.
pub const MAX_REPEATED_MESSAGE_BYTES: u32 = 64 * 1024 * 1024;

/// Most bytes a message given inline (`message_hex`) may have: with its expected output it
/// must fit one wire line.
pub const MAX_INLINE_MESSAGE_BYTES: usize = 128;

/// Fills `out` with the seeded stream of `seed`: little-endian words of xorshift32 (Marsaglia,
/// "Xorshift RNGs", 2003), its state the splitmix32 finaliser of the seed (never zero).
pub fn fill_seeded(seed: u32, out: &mut [u8]) {
    let mut x = splitmix32(seed).max(1);
    for chunk in out.chunks_mut(4) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        chunk.copy_from_slice(&x.to_le_bytes()[..chunk.len()]);
    }
}

fn splitmix32(seed: u32) -> u32 {
    let mut x = seed.wrapping_add(0x9e37_79b9);
    x = (x ^ (x >> 16)).wrapping_mul(0x85eb_ca6b);
    x = (x ^ (x >> 13)).wrapping_mul(0xc2b2_ae35);
    x ^ (x >> 16)
}

/// A message a request describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Generated {
    /// `length` bytes of the seeded stream of `seed`.
    Seeded { length: u32, seed: u32 },
    /// The first `length` bytes of the seeded stream's first `block` bytes, repeated.
    Repeated { length: u32, seed: u32, block: u32 },
    /// The bytes given.
    Inline(Vec<u8>),
}

impl Generated {
    /// Bytes of the message.
    pub fn len(&self) -> u32 {
        match self {
            Self::Seeded { length, .. } | Self::Repeated { length, .. } => *length,
            Self::Inline(bytes) => bytes.len() as u32,
        }
    }

    /// Whether the message is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held in memory: the whole message, or the block that repeats.
    pub fn stored_len(&self) -> usize {
        match self {
            Self::Seeded { length, .. } => *length as usize,
            Self::Repeated { block, .. } => *block as usize,
            Self::Inline(bytes) => bytes.len(),
        }
    }

    /// Writes the bytes held in memory into `out`, [`Generated::stored_len`] long.
    pub fn fill_stored(&self, out: &mut [u8]) {
        match self {
            Self::Seeded { seed, .. } | Self::Repeated { seed, .. } => fill_seeded(*seed, out),
            Self::Inline(bytes) => out.copy_from_slice(bytes),
        }
    }

    /// The bytes held in memory.
    pub fn stored(&self) -> Vec<u8> {
        let mut bytes = alloc::vec![0; self.stored_len()];
        self.fill_stored(&mut bytes);
        bytes
    }

    /// Calls `f` on the whole message, piece by piece (a repeated message is never built).
    pub fn for_each_piece(&self, mut f: impl FnMut(&[u8])) {
        let stored = self.stored();
        let mut left = self.len() as usize;
        while left > 0 {
            let n = left.min(stored.len());
            f(&stored[..n]);
            left -= n;
        }
    }
}

/// `bytes` as lower-case hex.
pub fn to_hex(bytes: &[u8]) -> alloc::string::String {
    use core::fmt::Write;
    let mut s = alloc::string::String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The bytes of a hex string (two digits a byte, either case); says what is wrong otherwise.
pub fn from_hex(hex: &str) -> Result<Vec<u8>, alloc::string::String> {
    if !hex.len().is_multiple_of(2) {
        return Err(alloc::format!("hex string of odd length {}", hex.len()));
    }
    hex.as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let digit = |c: u8| (c as char).to_digit(16);
            match (digit(pair[0]), digit(pair[1])) {
                (Some(h), Some(l)) => Ok((h * 16 + l) as u8),
                _ => Err(alloc::format!("not hex at character {}", 2 * i + 1)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_streams_are_fixed_and_differ_by_seed() {
        let mut a = [0u8; 8];
        fill_seeded(0, &mut a);
        let mut b = [0u8; 8];
        fill_seeded(1, &mut b);
        assert_ne!(a, b);
        // A prefix of a longer stream is the shorter stream.
        let mut long = [0u8; 11];
        fill_seeded(0, &mut long);
        assert_eq!(long[..8], a);
    }

    #[test]
    fn a_repeated_message_is_its_block_again_and_again() {
        let m = Generated::Repeated {
            length: 10,
            seed: 3,
            block: 4,
        };
        let mut whole = alloc::vec::Vec::new();
        m.for_each_piece(|p| whole.extend_from_slice(p));
        let mut block = [0u8; 4];
        fill_seeded(3, &mut block);
        assert_eq!(whole.len(), 10);
        assert_eq!(whole[..4], block[..]);
        assert_eq!(whole[4..8], block[..]);
        assert_eq!(whole[8..], block[..2]);
    }

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(from_hex(&to_hex(&[0, 0xab, 0xff])).unwrap(), [0, 0xab, 0xff]);
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").unwrap_err().contains("character 1"));
    }
}
