//! Bitsliced AES-128 in CTR mode: two blocks at once in eight 32-bit words, the S-box as the
//! 113-gate circuit (32 AND, 81 XOR; Boyar and Peralta's construction) that Schwabe and
//! Stoffelen use, so encryption makes no secret-dependent table lookups or branches. The design of Schwabe and Stoffelen
//! (Cortex-M4, 2016) as Stoffelen ported it to RISC-V (LATINCRYPT 2019). The key schedule looks
//! the S-box up in a table (like those implementations): it runs once per key.
//!
//! State: plane `i` holds bit `i` (0 = least significant) of all 32 bytes; byte (row `r`,
//! column `c`) of block `b` is bit `8r + 2c + b`. A row is thus one byte of every plane:
//! MixColumns rotates whole planes by 8 and 16 bits, ShiftRows rotates byte `r` by `2r` bits.
//! The blocks go in as little-endian column words, word `2c + b` holding column `c` of block
//! `b`; the conversion is a transpose of four 8x8 bit matrices, its own inverse.
//!
//! Round keys (every variant here): 11 x 8 planes, `round_keys[8 * r + i]` plane `i` of round
//! key `r`, the same key in both block positions. Round keys 1 to 10 have planes 0, 1, 5 and 6
//! complemented: that is the S-box's additive constant 0x63, which the circuit leaves out and
//! which ShiftRows and MixColumns pass through unchanged (every byte holds it, and the
//! MixColumns coefficients sum to 1).
//!
//! CTR: counter block `i` is `iv` with its last four bytes, read as a big-endian number,
//! increased by `i` modulo 2^32 (RustCrypto's `Ctr32BE`); the pair of blocks `2j`, `2j + 1`
//! covers bytes `32j..32j + 32` of the data.

pub mod harness;

use alloc::format;
use alloc::string::String;

use crate::test_support::{Aligned, Xorshift32};
use crate::{Report, Variant};

/// One variant of bitsliced AES-128-CTR.
#[derive(Clone, Copy)]
pub struct AesBitsliced {
    /// Expands a key into the 11 bitsliced round keys (layout: see the module documentation).
    pub expand_key: fn(key: &[u8; 16], round_keys: &mut [u32; 88]),
    /// XORs the CTR keystream for `iv` into `data` (any length), in place.
    pub ctr: fn(round_keys: &[u32; 88], iv: &[u8; 16], data: &mut [u8]),
}

/// The variant of bitsliced AES-128-CTR asked for, if this build has it.
pub fn aes128_bitsliced(variant: Variant) -> Option<AesBitsliced> {
    match variant {
        Variant::Rust => Some(AesBitsliced { expand_key, ctr }),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(AesBitsliced {
            expand_key: asm::expand_key_rv32i,
            ctr: asm::ctr_rv32i,
        }),
        // Zbb has nothing for the key schedule (table lookups, shifts, swapmoves), so the Zbb
        // variant shares the RV32I one.
        #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
        Variant::Zbb => Some(AesBitsliced {
            expand_key: asm::expand_key_rv32i,
            ctr: asm::ctr_zbb,
        }),
        // A build for a core without Zbb leaves its assembly out: it could never run.
        #[cfg(not(all(target_arch = "riscv32", target_feature = "zbb")))]
        _ => None,
    }
}

/// Exchanges the bits of `a` selected by `mask << shift` with the bits of `b` selected by
/// `mask`.
fn swapmove(a: &mut u32, b: &mut u32, shift: u32, mask: u32) {
    let t = ((*a >> shift) ^ *b) & mask;
    *b ^= t;
    *a ^= t << shift;
}

/// Column words to planes and back: in each byte lane, word `k` bit `i` trades places with
/// word `i` bit `k`.
fn transpose(w: &mut [u32; 8]) {
    for (shift, mask) in [(4, 0x0f0f_0f0f), (2, 0x3333_3333), (1, 0x5555_5555)] {
        for k in (0..8).filter(|k| k & shift == 0) {
            let (low, high) = w.split_at_mut(k + shift);
            swapmove(&mut low[k], &mut high[0], shift as u32, mask);
        }
    }
}

/// SubBytes without the constant 0x63 (it is in the round keys). The circuit numbers bits
/// from the most significant: input `u0` is plane 7, output `s7` plane 0.
fn sub_bytes(p: &mut [u32; 8]) {
    let [u7, u6, u5, u4, u3, u2, u1, u0] = *p;
    let y14 = u3 ^ u5;
    let y13 = u0 ^ u6;
    let y12 = y13 ^ y14;
    let t1 = u4 ^ y12;
    let y15 = t1 ^ u5;
    let t2 = y12 & y15;
    let y6 = y15 ^ u7;
    let y20 = t1 ^ u1;
    let y9 = u0 ^ u3;
    let y11 = y20 ^ y9;
    let t12 = y9 & y11;
    let y7 = u7 ^ y11;
    let y8 = u0 ^ u5;
    let t0 = u1 ^ u2;
    let y10 = y15 ^ t0;
    let y17 = y10 ^ y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let y19 = y10 ^ y8;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let t7 = y13 & y16;
    let y18 = u0 ^ y16;
    let y1 = t0 ^ u7;
    let y4 = y1 ^ u3;
    let t5 = y4 & u7;
    let t6 = t5 ^ t2;
    let t18 = t6 ^ t16;
    let t22 = t18 ^ y19;
    let y2 = y1 ^ u0;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t20 = t11 ^ t16;
    let t24 = t20 ^ y18;
    let y5 = y1 ^ u6;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t19 = t9 ^ t14;
    let t23 = t19 ^ y21;
    let y3 = y5 ^ y8;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t17 = t4 ^ y20;
    let t21 = t17 ^ t14;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t31 = t22 ^ t26;
    let t25 = t21 ^ t22;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let z14 = t29 & y2;
    let z5 = t29 & y7;
    let t30 = t23 ^ t24;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;
    let t43 = t29 ^ t40;
    let z3 = t43 & y16;
    let tc12 = z3 ^ z5;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z4 = t40 & y1;
    let tc6 = z3 ^ z4;
    let t34 = t23 ^ t33;
    let t37 = t36 ^ t34;
    let t41 = t40 ^ t37;
    let z8 = t41 & y10;
    let z17 = t41 & y8;
    let t44 = t33 ^ t37;
    let z0 = t44 & y15;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z1 = t37 & y6;
    let tc5 = z1 ^ z0;
    let tc11 = tc6 ^ tc5;
    let z11 = t33 & y4;
    let t42 = t29 ^ t33;
    let t45 = t42 ^ t41;
    let z7 = t45 & y17;
    let tc8 = z7 ^ tc6;
    let z16 = t45 & y14;
    let z6 = t42 & y11;
    let tc16 = z6 ^ tc8;
    let z15 = t42 & y9;
    let tc20 = z15 ^ tc16;
    let tc1 = z15 ^ z16;
    let tc2 = z10 ^ tc1;
    let tc21 = tc2 ^ z11;
    let tc3 = z9 ^ tc2;
    let s0 = tc3 ^ tc16;
    let s3 = tc3 ^ tc11;
    let s1 = s3 ^ tc16;
    let tc13 = z13 ^ tc1;
    let z2 = t33 & u7;
    let tc4 = z0 ^ z2;
    let tc7 = z12 ^ tc4;
    let tc9 = z8 ^ tc7;
    let tc10 = tc8 ^ tc9;
    let tc17 = z14 ^ tc10;
    let s5 = tc21 ^ tc17;
    let tc26 = tc17 ^ tc20;
    let s2 = tc26 ^ z17;
    let tc14 = tc4 ^ tc12;
    let tc18 = tc13 ^ tc14;
    let s6 = tc10 ^ tc18;
    let s7 = z12 ^ tc18;
    let s4 = tc14 ^ s3;
    *p = [s7, s6, s5, s4, s3, s2, s1, s0];
}

/// Row `r` (byte `r` of a plane) rotated right by `r` columns (`2r` bits): nibble swap for
/// rows 2 and 3, then one column for rows 1 and 3.
fn shift_rows(p: &mut [u32; 8]) {
    for x in p.iter_mut() {
        let t = ((*x >> 4) ^ *x) & 0x0f0f_0000;
        let y = *x ^ t ^ (t << 4);
        *x = (y & 0x00ff_00ff) | ((y >> 2) & 0x3f00_3f00) | ((y << 6) & 0xc000_c000);
    }
}

/// Row `r` of the output is `2 a[r] + 3 a[r+1] + a[r+2] + a[r+3]` = `2 t[r] + a[r+1] +
/// t[r+2]` with `t[r] = a[r] + a[r+1]`; rotating a plane right by 8 bits brings row `r + 1`
/// to row `r`, and doubling is a shift across planes with the reduction by 0x1b.
fn mix_columns(p: &mut [u32; 8]) {
    let next: [u32; 8] = core::array::from_fn(|i| p[i].rotate_right(8));
    let t: [u32; 8] = core::array::from_fn(|i| p[i] ^ next[i]);
    let double = [t[7], t[0] ^ t[7], t[1], t[2] ^ t[7], t[3] ^ t[7], t[4], t[5], t[6]];
    *p = core::array::from_fn(|i| double[i] ^ next[i] ^ t[i].rotate_right(16));
}

fn add_round_key(p: &mut [u32; 8], round_key: &[u32]) {
    p.iter_mut().zip(round_key).for_each(|(x, k)| *x ^= k);
}

/// Encrypts the two blocks in `w` (column words `2c + b`) in place.
fn encrypt_pair(round_keys: &[u32; 88], w: &mut [u32; 8]) {
    transpose(w);
    add_round_key(w, &round_keys[..8]);
    for round_key in round_keys[8..80].chunks_exact(8) {
        sub_bytes(w);
        shift_rows(w);
        mix_columns(w);
        add_round_key(w, round_key);
    }
    sub_bytes(w);
    shift_rows(w);
    add_round_key(w, &round_keys[80..]);
    transpose(w);
}

/// Planes of the round key with little-endian columns `c`, in both block positions.
fn bitslice_round_key(c: &[u32], planes: &mut [u32]) {
    let mut w = [c[0], c[0], c[1], c[1], c[2], c[2], c[3], c[3]];
    transpose(&mut w);
    planes.copy_from_slice(&w);
}

/// Key expansion (the table-based one of [`crate::aes_table`]), then bitslicing.
pub fn expand_key(key: &[u8; 16], round_keys: &mut [u32; 88]) {
    let mut columns = [0u32; 44];
    crate::aes_table::expand_key(key, &mut columns);
    for (round, (c, planes)) in columns.chunks_exact(4).zip(round_keys.chunks_exact_mut(8)).enumerate() {
        bitslice_round_key(c, planes);
        if round > 0 {
            for i in [0, 1, 5, 6] {
                planes[i] = !planes[i];
            }
        }
    }
}

/// XORs the keystream into `data`, two blocks at a time.
pub fn ctr(round_keys: &[u32; 88], iv: &[u8; 16], data: &mut [u8]) {
    let nonce: [u32; 3] =
        core::array::from_fn(|c| u32::from_le_bytes([iv[4 * c], iv[4 * c + 1], iv[4 * c + 2], iv[4 * c + 3]]));
    // The counter column as the little-endian word of its big-endian bytes.
    let column = |counter: u32| u32::from_le_bytes(counter.to_be_bytes());
    let mut counter = u32::from_be_bytes([iv[12], iv[13], iv[14], iv[15]]);
    for chunk in data.chunks_mut(32) {
        let mut w = [
            nonce[0],
            nonce[0],
            nonce[1],
            nonce[1],
            nonce[2],
            nonce[2],
            column(counter),
            column(counter.wrapping_add(1)),
        ];
        encrypt_pair(round_keys, &mut w);
        for (i, byte) in chunk.iter_mut().enumerate() {
            let (block, column, row) = (i / 16, i % 16 / 4, i % 4);
            *byte ^= (w[2 * column + block] >> (8 * row)) as u8;
        }
        counter = counter.wrapping_add(2);
    }
}

#[cfg(target_arch = "riscv32")]
#[allow(unsafe_code)]
mod asm {
    core::arch::global_asm!(include_str!("rv32i.S"));
    #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
    core::arch::global_asm!(include_str!("zbb.S"));

    extern "C" {
        fn cb_aes128_bitsliced_expand_key_rv32i(key: *const u8, round_keys: *mut u32, sbox: *const u8);
        fn cb_aes128_bitsliced_ctr_rv32i(round_keys: *const u32, iv: *const u8, data: *mut u8, len: usize);
        #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
        fn cb_aes128_bitsliced_ctr_zbb(round_keys: *const u32, iv: *const u8, data: *mut u8, len: usize);
    }

    pub(super) fn expand_key_rv32i(key: &[u8; 16], round_keys: &mut [u32; 88]) {
        // SAFETY: reads the 16 key bytes (any alignment) and the 256-byte S-box, writes the 88
        // words of `round_keys`; ilp32 calling convention.
        unsafe {
            cb_aes128_bitsliced_expand_key_rv32i(
                key.as_ptr(),
                round_keys.as_mut_ptr(),
                crate::aes_table::TABLES.sbox.as_ptr(),
            )
        }
    }

    pub(super) fn ctr_rv32i(round_keys: &[u32; 88], iv: &[u8; 16], data: &mut [u8]) {
        // SAFETY: reads the 88 round-key words and 16 IV bytes, reads and writes exactly the
        // `data.len()` bytes of `data` (any alignment); saves every callee-saved register it uses.
        unsafe { cb_aes128_bitsliced_ctr_rv32i(round_keys.as_ptr(), iv.as_ptr(), data.as_mut_ptr(), data.len()) }
    }

    #[cfg(all(target_arch = "riscv32", target_feature = "zbb"))]
    pub(super) fn ctr_zbb(round_keys: &[u32; 88], iv: &[u8; 16], data: &mut [u8]) {
        // SAFETY: as for the RV32I routine; the caller only selects Zbb variants on a Zbb core.
        unsafe { cb_aes128_bitsliced_ctr_zbb(round_keys.as_ptr(), iv.as_ptr(), data.as_mut_ptr(), data.len()) }
    }
}

/// NIST SP 800-38A F.5.1, CTR-AES128.Encrypt. Its counter is the whole block, but from
/// f0f1...feff four blocks never carry out of the last 32 bits, so `Ctr32BE` agrees.
const SP800_38A_KEY: [u8; 16] = [
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
];
const SP800_38A_COUNTER: [u8; 16] = [
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];
const SP800_38A_PLAINTEXT: [u8; 64] = [
    0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a, 0xae, 0x2d, 0x8a,
    0x57, 0x1e, 0x03, 0xac, 0x9c, 0x9e, 0xb7, 0x6f, 0xac, 0x45, 0xaf, 0x8e, 0x51, 0x30, 0xc8, 0x1c, 0x46, 0xa3, 0x5c,
    0xe4, 0x11, 0xe5, 0xfb, 0xc1, 0x19, 0x1a, 0x0a, 0x52, 0xef, 0xf6, 0x9f, 0x24, 0x45, 0xdf, 0x4f, 0x9b, 0x17, 0xad,
    0x2b, 0x41, 0x7b, 0xe6, 0x6c, 0x37, 0x10,
];
const SP800_38A_CIPHERTEXT: [u8; 64] = [
    0x87, 0x4d, 0x61, 0x91, 0xb6, 0x20, 0xe3, 0x26, 0x1b, 0xef, 0x68, 0x64, 0x99, 0x0d, 0xb6, 0xce, 0x98, 0x06, 0xf6,
    0x6b, 0x79, 0x70, 0xfd, 0xff, 0x86, 0x17, 0x18, 0x7b, 0xb9, 0xff, 0xfd, 0xff, 0x5a, 0xe4, 0xdf, 0x3e, 0xdb, 0xd5,
    0xd3, 0x5e, 0x5b, 0x4f, 0x09, 0x02, 0x0d, 0xb0, 0x3e, 0xab, 0x1e, 0x03, 0x1d, 0xda, 0x2f, 0xbe, 0x03, 0xd1, 0x79,
    0x21, 0x70, 0xa0, 0xf3, 0x00, 0x9c, 0xee,
];

fn check_sp800_38a(aes: &AesBitsliced) -> Result<(), String> {
    let mut round_keys = [0u32; 88];
    (aes.expand_key)(&SP800_38A_KEY, &mut round_keys);
    let mut data = SP800_38A_PLAINTEXT;
    (aes.ctr)(&round_keys, &SP800_38A_COUNTER, &mut data);
    match data
        .iter()
        .zip(SP800_38A_CIPHERTEXT)
        .position(|(&got, want)| got != want)
    {
        None => Ok(()),
        Some(i) => Err(format!(
            "byte {i} is {:02x}, expected {:02x}",
            data[i], SP800_38A_CIPHERTEXT[i]
        )),
    }
}

/// `Ctr32BE` keystream from RustCrypto's AES block cipher, XORed into `data`.
fn ctr32be_rustcrypto(key: &[u8; 16], iv: &[u8; 16], data: &mut [u8]) {
    use aes::cipher::{BlockEncrypt, KeyInit};
    let cipher = aes::Aes128::new(key.into());
    let mut counter = u32::from_be_bytes([iv[12], iv[13], iv[14], iv[15]]);
    for chunk in data.chunks_mut(16) {
        let mut block = aes::Block::from(*iv);
        block[12..].copy_from_slice(&counter.to_be_bytes());
        cipher.encrypt_block(&mut block);
        chunk.iter_mut().zip(block).for_each(|(d, k)| *d ^= k);
        counter = counter.wrapping_add(1);
    }
}

/// Data lengths the CTR comparison covers: around block and pair boundaries, and longer.
const LENGTHS: [usize; 11] = [0, 1, 15, 16, 17, 31, 32, 33, 63, 100, 300];

/// For every length (data at offsets 0..3 in turn), random key and IV, the last IV word
/// sometimes 0xffffffff or 0xfffffffe so that the counter wraps inside a pair or between
/// pairs; compares with RustCrypto, and the round keys with the Rust variant's.
fn check_random(aes: &AesBitsliced, lengths: &[usize]) -> Result<(), String> {
    let mut rng = Xorshift32::new(0x6a09_e667);
    for (i, &len) in lengths.iter().enumerate() {
        let mut key_buffer = Aligned([0u8; 20]);
        let mut iv = [0u8; 16];
        let key_offset = i % 4;
        let Some(key) = key_buffer.0[key_offset..].first_chunk_mut::<16>() else {
            return Err(String::from("key window"));
        };
        rng.fill_low_bytes(key);
        rng.fill_low_bytes(&mut iv);
        match i % 3 {
            0 => iv[12..].copy_from_slice(&[0xff; 4]),
            1 => iv[12..].copy_from_slice(&[0xff, 0xff, 0xff, 0xfe]),
            _ => {}
        }
        let mut round_keys = [0u32; 88];
        let mut reference_keys = [0u32; 88];
        (aes.expand_key)(key, &mut round_keys);
        expand_key(key, &mut reference_keys);
        if round_keys != reference_keys {
            return Err(format!("round keys of key {key:02x?} differ from the Rust variant's"));
        }
        // Four spare bytes on either side, the window starting at `offset` modulo 4.
        let mut buffer = alloc::vec![0u8; len + 12];
        let start = buffer.as_ptr().align_offset(4) + (i / 2) % 4;
        let offset = start % 4;
        let Some(data) = buffer.get_mut(start..start + len) else {
            return Err(String::from("data window"));
        };
        rng.fill_low_bytes(data);
        let mut expected = data.to_vec();
        ctr32be_rustcrypto(key, &iv, &mut expected);
        (aes.ctr)(&round_keys, &iv, data);
        if let Some(at) = data.iter().zip(&expected).position(|(a, b)| a != b) {
            return Err(format!(
                "length {len} at offset {offset}, iv {iv:02x?}: byte {at} is {:02x}, expected {:02x}",
                data[at], expected[at]
            ));
        }
        // Bytes around the window are untouched.
        if buffer[..start].iter().chain(&buffer[start + len..]).any(|&b| b != 0) {
            return Err(format!("length {len} at offset {offset}: wrote outside the data"));
        }
    }
    Ok(())
}

/// Checks `variant` (if this build has it) against SP 800-38A and RustCrypto's AES.
pub fn self_test(variant: Variant, report: Report<'_>) {
    let Some(aes) = aes128_bitsliced(variant) else {
        return;
    };
    let name = |check: &str| format!("aes_bitsliced::{}::{check}", variant.name());
    report(&name("sp800_38a_f51"), check_sp800_38a(&aes));
    report(&name("ctr32be_vs_rustcrypto"), check_random(&aes, &LENGTHS));
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use ctr::cipher::{KeyIvInit, StreamCipher};

    #[test]
    fn self_test_passes_for_rust() {
        let mut checks = Vec::new();
        self_test(Variant::Rust, &mut |name, verdict| {
            checks.push((String::from(name), verdict))
        });
        assert_eq!(checks.len(), 2);
        for (name, verdict) in checks {
            assert_eq!(verdict, Ok(()), "{name}");
        }
    }

    /// Against the `ctr` crate's `Ctr32BE<Aes128>` (not just the block cipher), lengths
    /// around the pair boundaries and 4096, IVs that wrap.
    #[test]
    fn matches_ctr_crate() {
        let mut rng = Xorshift32::new(0xbb67_ae85);
        for (i, len) in [0, 1, 15, 16, 17, 31, 32, 33, 100, 4096].into_iter().enumerate() {
            for wrap in [None, Some(0xffff_ffffu32), Some(0xffff_fffe), Some(0xffff_fffd)] {
                let (mut key, mut iv) = ([0u8; 16], [0u8; 16]);
                rng.fill_low_bytes(&mut key);
                rng.fill_low_bytes(&mut iv);
                if let Some(w) = wrap {
                    iv[12..].copy_from_slice(&w.to_be_bytes());
                }
                let mut data = alloc::vec![0u8; len];
                rng.fill_low_bytes(&mut data);
                let mut expected = data.clone();
                ctr::Ctr32BE::<aes::Aes128>::new(&key.into(), &iv.into()).apply_keystream(&mut expected);
                let mut round_keys = [0u32; 88];
                expand_key(&key, &mut round_keys);
                ctr(&round_keys, &iv, &mut data);
                assert_eq!(data, expected, "case {i}, length {len}, wrap {wrap:x?}");
            }
        }
    }

    #[test]
    fn random_lengths_match_rustcrypto() {
        let aes = aes128_bitsliced(Variant::Rust).expect("the Rust variant always exists");
        let lengths: Vec<usize> = (0..200).chain([1000, 4096]).collect();
        assert_eq!(check_random(&aes, &lengths), Ok(()));
    }

    #[test]
    fn transpose_is_an_involution_with_the_documented_layout() {
        let mut rng = Xorshift32::new(1);
        let mut bytes = [0u8; 32];
        rng.fill_low_bytes(&mut bytes);
        let words: [u32; 8] = core::array::from_fn(|k| {
            let (c, b) = (k / 2, k % 2);
            u32::from_le_bytes(core::array::from_fn(|r| bytes[16 * b + 4 * c + r]))
        });
        let mut planes = words;
        transpose(&mut planes);
        for (b, c, r, i) in
            (0..2).flat_map(|b| (0..4).flat_map(move |c| (0..4).flat_map(move |r| (0..8).map(move |i| (b, c, r, i)))))
        {
            let bit = (bytes[16 * b + 4 * c + r] >> i) & 1;
            assert_eq!((planes[i] >> (8 * r + 2 * c + b)) & 1, u32::from(bit));
        }
        transpose(&mut planes);
        assert_eq!(planes, words);
    }

    #[test]
    fn sub_bytes_is_the_sbox_without_its_constant() {
        // All 256 inputs across the 32 byte positions of 8 states.
        for chunk in 0..8 {
            let bytes: [u8; 32] = core::array::from_fn(|j| (32 * chunk + j) as u8);
            let mut planes: [u32; 8] = core::array::from_fn(|i| {
                bytes
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (j, &x)| acc | u32::from((x >> i) & 1) << j)
            });
            sub_bytes(&mut planes);
            for (j, &x) in bytes.iter().enumerate() {
                let y = (0..8).fold(0u8, |acc, i| acc | (((planes[i] >> j) & 1) as u8) << i);
                assert_eq!(y ^ 0x63, crate::aes_table::TABLES.sbox[usize::from(x)], "S({x:#04x})");
            }
        }
    }

    #[test]
    fn asm_variants_are_absent_on_the_host() {
        assert!(aes128_bitsliced(Variant::Rv32i).is_none());
        assert!(aes128_bitsliced(Variant::Zbb).is_none());
    }
}
