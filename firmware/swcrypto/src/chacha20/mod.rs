//! ChaCha20 stream cipher (RFC 8439: 256-bit key, 96-bit nonce, 32-bit block counter).
//!
//! Every variant XORs the keystream into a buffer of any length, starting at a given block;
//! the final block may be partial. The block counter wraps modulo 2^32 (RFC 8439 leaves a
//! longer message undefined; RustCrypto refuses it).
//!
//! The assembly variants keep the whole 16-word state in registers (Stoffelen 2019, "Efficient
//! cryptography on the RISC-V architecture"): `Rv32i` rotates with two shifts and an OR (20
//! instructions per quarter-round), `Zbb` with `rori` (12 instructions). Both take the
//! initial state prepared by Rust (so key and nonce may be unaligned), XOR whole words where
//! the data is 4-byte aligned and go through a 64-byte keystream buffer on the stack, byte by
//! byte, for a partial final block or unaligned data. `zbb.S` instantiates the function body
//! that `rv32i.S` defines as a macro, so both files go into one `global_asm!`.

pub mod harness;

use crate::test_support::{Aligned, Xorshift32};
use crate::{Report, Variant};
use alloc::format;

/// A ChaCha20 implementation: XORs the keystream for `key` and `nonce`, starting at block
/// `counter`, into `data` in place (encryption and decryption are the same operation).
pub type Chacha20Fn = fn(key: &[u8; 32], nonce: &[u8; 12], counter: u32, data: &mut [u8]);

/// The ChaCha20 implementation of `variant`, if this build has it (the assembly variants exist
/// only on riscv32; `Zbb` runs only on a core with Zbb).
pub fn chacha20(variant: Variant) -> Option<Chacha20Fn> {
    match variant {
        Variant::Rust => Some(chacha20_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::chacha20_rv32i),
        #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
        Variant::Zbb => Some(asm::chacha20_zbb),
        // A build for a core without Zbb leaves its assembly out: it could never run.
        #[cfg(all(target_arch = "riscv32", not(target_feature = "zbb")))]
        Variant::Zbb => None,
        #[cfg(not(target_arch = "riscv32"))]
        Variant::Rv32i | Variant::Zbb => None,
    }
}

/// "expand 32-byte k" as four little-endian words.
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The input block of RFC 8439 §2.3: constants, key, block counter, nonce.
fn initial_state(key: &[u8; 32], nonce: &[u8; 12], counter: u32) -> [u32; 16] {
    let word = |bytes: &[u8], i: usize| {
        u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]])
    };
    let mut state = [0u32; 16];
    state[..4].copy_from_slice(&SIGMA);
    for i in 0..8 {
        state[4 + i] = word(key, i);
    }
    state[12] = counter;
    for i in 0..3 {
        state[13 + i] = word(nonce, i);
    }
    state
}

#[inline(always)]
fn quarter_round(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(16);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(12);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(8);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(7);
}

/// The ChaCha20 block function (RFC 8439 §2.3): 20 rounds and the feed-forward.
fn block(input: &[u32; 16]) -> [u32; 16] {
    let mut x = *input;
    for _ in 0..10 {
        quarter_round(&mut x, 0, 4, 8, 12);
        quarter_round(&mut x, 1, 5, 9, 13);
        quarter_round(&mut x, 2, 6, 10, 14);
        quarter_round(&mut x, 3, 7, 11, 15);
        quarter_round(&mut x, 0, 5, 10, 15);
        quarter_round(&mut x, 1, 6, 11, 12);
        quarter_round(&mut x, 2, 7, 8, 13);
        quarter_round(&mut x, 3, 4, 9, 14);
    }
    for (word, input) in x.iter_mut().zip(input) {
        *word = word.wrapping_add(*input);
    }
    x
}

/// Portable reference: one block at a time, whole words where the block is complete.
fn chacha20_rust(key: &[u8; 32], nonce: &[u8; 12], counter: u32, data: &mut [u8]) {
    let mut state = initial_state(key, nonce, counter);
    for chunk in data.chunks_mut(64) {
        let keystream = block(&state);
        if chunk.len() == 64 {
            for (bytes, k) in chunk.chunks_exact_mut(4).zip(keystream) {
                let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) ^ k;
                bytes.copy_from_slice(&word.to_le_bytes());
            }
        } else {
            let bytes = keystream.iter().flat_map(|k| k.to_le_bytes());
            chunk.iter_mut().zip(bytes).for_each(|(d, k)| *d ^= k);
        }
        state[12] = state[12].wrapping_add(1);
    }
}

#[cfg(target_arch = "riscv32")]
#[allow(unsafe_code)]
mod asm {
    core::arch::global_asm!(include_str!("rv32i.S"));
    // rv32i.S defines the function body as a macro that zbb.S instantiates again (module
    // assembly is one unit).
    #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
    core::arch::global_asm!(include_str!("zbb.S"));

    extern "C" {
        fn cb_chacha20_rv32i(state: *const u32, data: *mut u8, len: usize);
        #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
        fn cb_chacha20_zbb(state: *const u32, data: *mut u8, len: usize);
    }

    pub(super) fn chacha20_rv32i(key: &[u8; 32], nonce: &[u8; 12], counter: u32, data: &mut [u8]) {
        let state = super::initial_state(key, nonce, counter);
        // SAFETY: the routine reads the 16 words of `state` and reads/writes exactly `data`.
        unsafe { cb_chacha20_rv32i(state.as_ptr(), data.as_mut_ptr(), data.len()) }
    }

    #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
    pub(super) fn chacha20_zbb(key: &[u8; 32], nonce: &[u8; 12], counter: u32, data: &mut [u8]) {
        let state = super::initial_state(key, nonce, counter);
        // SAFETY: as above; the caller picks Variant::Zbb only on a core with Zbb.
        unsafe { cb_chacha20_zbb(state.as_ptr(), data.as_mut_ptr(), data.len()) }
    }
}

const KEY: [u8; 32] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12,
    0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
];

/// RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000, block counter 1.
const BLOCK_NONCE: [u8; 12] = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0];
const BLOCK_OUTPUT: [u8; 64] = [
    0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4, 0xc7, 0xd1, 0xf4,
    0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f,
    0xaa, 0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2, 0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9, 0xcb,
    0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e,
];

/// RFC 8439 §2.4.2: key 00..1f, nonce 000000000000004a00000000, initial counter 1.
const ENCRYPT_NONCE: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
const PLAINTEXT: &[u8; 114] = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the \
future, sunscreen would be it.";
const CIPHERTEXT: [u8; 114] = [
    0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69, 0x81, 0xe9, 0x7e, 0x7a,
    0xec, 0x1d, 0x43, 0x60, 0xc2, 0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b, 0xf9, 0x1b, 0x65, 0xc5, 0x52, 0x47,
    0x33, 0xab, 0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57, 0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab, 0x8f,
    0x53, 0x0c, 0x35, 0x9f, 0x08, 0x61, 0xd8, 0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61, 0x56, 0xa3, 0x8e, 0x08,
    0x8a, 0x22, 0xb6, 0x5e, 0x52, 0xbc, 0x51, 0x4d, 0x16, 0xcc, 0xf8, 0x06, 0x81, 0x8c, 0xe9, 0x1a, 0xb7, 0x79, 0x37,
    0x36, 0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6, 0xb4, 0x0b, 0x8e, 0xed, 0xf2, 0x78, 0x5e, 0x42, 0x87, 0x4d,
];

/// Deterministic test data, so host and target see the same inputs.
fn fill(buf: &mut [u8], seed: u32) {
    Xorshift32::new(seed | 1).fill_high_bytes(buf);
}

/// Longest message of the on-target comparison.
const MAX_LEN: usize = 256;

/// Runs `f` on a copy of `input` placed `offset` bytes into a word-aligned buffer; returns the
/// result and whether the bytes around the slice came back untouched.
fn run_at(
    f: Chacha20Fn,
    key: &[u8; 32],
    nonce: &[u8; 12],
    counter: u32,
    input: &[u8],
    offset: usize,
) -> ([u8; MAX_LEN], bool) {
    let mut buf = Aligned([0; MAX_LEN + 8]);
    let end = offset + input.len();
    buf.0[offset..end].copy_from_slice(input);
    f(key, nonce, counter, &mut buf.0[offset..end]);
    let mut out = [0u8; MAX_LEN];
    out[..input.len()].copy_from_slice(&buf.0[offset..end]);
    (out, buf.0[..offset].iter().chain(&buf.0[end..]).all(|&b| b == 0))
}

/// On-target self-test of `variant`: the RFC 8439 vectors, then agreement with the Rust
/// reference over lengths around the block size, several counters and unaligned buffers.
pub fn self_test(variant: Variant, report: Report<'_>) {
    let Some(f) = chacha20(variant) else { return };
    let name = variant.name();

    let mut block_out = [0u8; 64];
    f(&KEY, &BLOCK_NONCE, 1, &mut block_out);
    report(
        &format!("chacha20::{name}::rfc8439_block"),
        if block_out == BLOCK_OUTPUT {
            Ok(())
        } else {
            Err(format!("got {block_out:02x?}"))
        },
    );

    let mut text = *PLAINTEXT;
    f(&KEY, &ENCRYPT_NONCE, 1, &mut text);
    report(
        &format!("chacha20::{name}::rfc8439_encrypt"),
        if text == CIPHERTEXT {
            Ok(())
        } else {
            Err(format!("got {text:02x?}"))
        },
    );

    if variant == Variant::Rust {
        return;
    }
    let mut result = Ok(());
    let mut input = [0u8; MAX_LEN];
    // Every length meets every alignment once, each with another counter (the last wraps).
    let cases = [(0u32, 0usize), (1, 1), (0x1234_5678, 2), (u32::MAX - 1, 3)];
    for (i, &len) in [0usize, 1, 3, 63, 64, 65, 129, MAX_LEN].iter().enumerate() {
        for &(counter, offset) in &cases {
            let seed = (i as u32) << 8 | offset as u32;
            fill(&mut input[..len], seed);
            let mut key = [0u8; 32];
            let mut nonce = [0u8; 12];
            fill(&mut key, seed ^ 0x5555);
            fill(&mut nonce, seed ^ 0xaaaa);
            let expect = run_at(chacha20_rust, &key, &nonce, counter, &input[..len], offset);
            let got = run_at(f, &key, &nonce, counter, &input[..len], offset);
            if got != expect && result.is_ok() {
                result = Err(format!("len {len} counter {counter:#x} offset {offset}: mismatch"));
            }
        }
    }
    report(&format!("chacha20::{name}::vs_rust"), result);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
    use ::chacha20::ChaCha20;

    fn rustcrypto(key: &[u8; 32], nonce: &[u8; 12], counter: u32, data: &mut [u8]) {
        let mut cipher = ChaCha20::new(key.into(), nonce.into());
        cipher.seek(u64::from(counter) * 64);
        cipher.apply_keystream(data);
    }

    #[test]
    fn rfc8439_vectors() {
        let mut block_out = [0u8; 64];
        chacha20_rust(&KEY, &BLOCK_NONCE, 1, &mut block_out);
        assert_eq!(block_out, BLOCK_OUTPUT);
        let mut text = *PLAINTEXT;
        chacha20_rust(&KEY, &ENCRYPT_NONCE, 1, &mut text);
        assert_eq!(text, CIPHERTEXT);
        // The vectors themselves, checked against RustCrypto.
        let mut block_out = [0u8; 64];
        rustcrypto(&KEY, &BLOCK_NONCE, 1, &mut block_out);
        assert_eq!(block_out, BLOCK_OUTPUT);
    }

    #[test]
    fn matches_rustcrypto() {
        let mut input = [0u8; 4096];
        for (i, &len) in [0usize, 1, 3, 63, 64, 65, 127, 128, 1000, 4096].iter().enumerate() {
            for (j, &counter) in [0u32, 1, 7, 0x0100_0000, u32::MAX - 64].iter().enumerate() {
                let seed = (i * 16 + j) as u32;
                let (mut key, mut nonce) = ([0u8; 32], [0u8; 12]);
                fill(&mut key, seed ^ 0x1111);
                fill(&mut nonce, seed ^ 0x2222);
                fill(&mut input[..len], seed);
                let mut ours = input[..len].to_vec();
                let mut theirs = input[..len].to_vec();
                chacha20_rust(&key, &nonce, counter, &mut ours);
                rustcrypto(&key, &nonce, counter, &mut theirs);
                assert_eq!(ours, theirs, "len {len} counter {counter:#x}");
            }
        }
    }

    #[test]
    fn counter_wraps() {
        // Block 2^32 - 1 (RustCrypto refuses to produce it), then block 0 again.
        let (key, nonce) = ([7u8; 32], [9u8; 12]);
        let mut both = [0u8; 128];
        chacha20_rust(&key, &nonce, u32::MAX, &mut both);
        let (mut last, mut first) = ([0u8; 64], [0u8; 64]);
        chacha20_rust(&key, &nonce, u32::MAX, &mut last);
        rustcrypto(&key, &nonce, 0, &mut first);
        assert_eq!(both[..64], last);
        assert_eq!(both[64..], first);
    }

    #[test]
    fn self_test_rust_passes() {
        let mut checks = 0;
        self_test(Variant::Rust, &mut |name, verdict| {
            checks += 1;
            assert_eq!(verdict, Ok(()), "{name}");
        });
        assert_eq!(checks, 2);
        assert!(chacha20(Variant::Rv32i).is_none() && chacha20(Variant::Zbb).is_none());
    }
}
