//! Table-based AES-128 (FIPS 197): key expansion and single-block encryption with four 1 KiB
//! T-tables, the design Stoffelen ("Efficient cryptography on the RISC-V architecture",
//! LATINCRYPT 2019) measured on the SiFive E31. Not constant time: table indices depend on the
//! key and the data, which is what the bitsliced implementation is compared against.
//!
//! Round-key layout, shared by every variant here: `round_keys[4 * r + c]` is column `c` of
//! round key `r` as a little-endian word, i.e. `u32::from_le_bytes` of FIPS-197 `w[4r + c]`
//! (a column is what one `lw` of the state gives, so the assembly needs no byte swapping).

pub mod harness;

use alloc::format;
use alloc::string::String;

use crate::test_support::{Aligned, Xorshift32};
use crate::{Report, Variant};

/// One variant of table-based AES-128.
#[derive(Clone, Copy)]
pub struct AesTable {
    /// Expands a key into the 11 round keys (layout: see the module documentation).
    pub expand_key: fn(key: &[u8; 16], round_keys: &mut [u32; 44]),
    /// Encrypts one block with round keys from the same variant's `expand_key`.
    pub encrypt_block: fn(round_keys: &[u32; 44], input: &[u8; 16], output: &mut [u8; 16]),
}

/// The variant of table-based AES-128 asked for, if this build has it.
pub fn aes128_table(variant: Variant) -> Option<AesTable> {
    match variant {
        Variant::Rust => Some(AesTable {
            expand_key,
            encrypt_block,
        }),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(AesTable {
            expand_key: asm::expand_key_rv32i,
            encrypt_block: asm::encrypt_block_rv32i,
        }),
        // A Zbb variant would need a second 4 KiB table set (entries rotated by two bits so
        // that one byte per column is a single `andi`) to shorten only the index arithmetic:
        // not worth the memory.
        _ => None,
    }
}

/// The lookup tables: `te[r][x]` is the MixColumns column contributed by `S(x)` in row `r`
/// (`te[r]` is `te[0]` rotated left by `8 * r` bits), followed by the plain S-box for the last
/// round and the key expansion. A `static`, read-only data wherever the platform keeps it: RAM
/// on the Ibex testbench and QEMU, flash on Earl Grey (where the suite's own AES, run as
/// firmware would run it, reads its tables through the flash controller).
#[repr(C)]
pub(crate) struct Tables {
    te: [[u32; 256]; 4],
    pub(crate) sbox: [u8; 256],
}

pub(crate) static TABLES: Tables = make_tables();

/// Multiplication by x in GF(2^8) modulo the AES polynomial.
const fn xtime(x: u8) -> u8 {
    (x << 1) ^ if x & 0x80 != 0 { 0x1b } else { 0 }
}

const fn make_sbox() -> [u8; 256] {
    let mut sbox = [0u8; 256];
    // p walks the multiplicative group by powers of 3 and q by powers of 3^-1, so q = p^-1
    // throughout; the S-box is the affine map of the inverse.
    let (mut p, mut q) = (1u8, 1u8);
    loop {
        p ^= xtime(p);
        q ^= q << 1;
        q ^= q << 2;
        q ^= q << 4;
        if q & 0x80 != 0 {
            q ^= 0x09;
        }
        sbox[p as usize] = q ^ q.rotate_left(1) ^ q.rotate_left(2) ^ q.rotate_left(3) ^ q.rotate_left(4) ^ 0x63;
        if p == 1 {
            break;
        }
    }
    sbox[0] = 0x63;
    sbox
}

const fn make_tables() -> Tables {
    let sbox = make_sbox();
    let mut te = [[0u32; 256]; 4];
    let mut x = 0;
    while x < 256 {
        let s = sbox[x];
        // Column (2s, s, s, 3s): row 0 of MixColumns' matrix applied to S(x).
        let column = u32::from_le_bytes([xtime(s), s, s, xtime(s) ^ s]);
        te[0][x] = column;
        te[1][x] = column.rotate_left(8);
        te[2][x] = column.rotate_left(16);
        te[3][x] = column.rotate_left(24);
        x += 1;
    }
    Tables { te, sbox }
}

const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

fn le_words(bytes: &[u8; 16]) -> [u32; 4] {
    core::array::from_fn(|c| u32::from_le_bytes([bytes[4 * c], bytes[4 * c + 1], bytes[4 * c + 2], bytes[4 * c + 3]]))
}

fn sbox(x: u32) -> u32 {
    u32::from(TABLES.sbox[(x & 0xff) as usize])
}

/// `SubWord(RotWord(w))` on a little-endian column.
fn sub_rot_word(w: u32) -> u32 {
    sbox(w >> 8) | sbox(w >> 16) << 8 | sbox(w >> 24) << 16 | sbox(w) << 24
}

/// Key expansion (FIPS 197, section 5.2) into little-endian columns.
pub fn expand_key(key: &[u8; 16], round_keys: &mut [u32; 44]) {
    round_keys[..4].copy_from_slice(&le_words(key));
    for i in 4..44 {
        let mut t = round_keys[i - 1];
        if i % 4 == 0 {
            t = sub_rot_word(t) ^ u32::from(RCON[i / 4 - 1]);
        }
        round_keys[i] = round_keys[i - 4] ^ t;
    }
}

/// Encrypts one block: nine T-table rounds and a last round with the plain S-box.
pub fn encrypt_block(round_keys: &[u32; 44], input: &[u8; 16], output: &mut [u8; 16]) {
    let te = &TABLES.te;
    let byte = |w: u32, row: u32| ((w >> (8 * row)) & 0xff) as usize;
    let input = le_words(input);
    let mut s: [u32; 4] = core::array::from_fn(|c| input[c] ^ round_keys[c]);
    for round in 1..10 {
        let rk = &round_keys[4 * round..4 * round + 4];
        // ShiftRows: row r of output column c comes from input column c + r.
        s = core::array::from_fn(|c| {
            rk[c]
                ^ te[0][byte(s[c], 0)]
                ^ te[1][byte(s[(c + 1) % 4], 1)]
                ^ te[2][byte(s[(c + 2) % 4], 2)]
                ^ te[3][byte(s[(c + 3) % 4], 3)]
        });
    }
    let rk = &round_keys[40..44];
    for (c, out) in output.chunks_exact_mut(4).enumerate() {
        let column = rk[c]
            ^ sbox(s[c])
            ^ sbox(s[(c + 1) % 4] >> 8) << 8
            ^ sbox(s[(c + 2) % 4] >> 16) << 16
            ^ sbox(s[(c + 3) % 4] >> 24) << 24;
        out.copy_from_slice(&column.to_le_bytes());
    }
}

#[cfg(target_arch = "riscv32")]
#[allow(unsafe_code)]
mod asm {
    use super::{Tables, TABLES};

    core::arch::global_asm!(include_str!("rv32i.S"));

    extern "C" {
        fn cb_aes128_table_expand_key_rv32i(key: *const u8, round_keys: *mut u32, sbox: *const u8);
        fn cb_aes128_table_encrypt_rv32i(
            round_keys: *const u32,
            input: *const u8,
            output: *mut u8,
            tables: *const Tables,
        );
    }

    pub(super) fn expand_key_rv32i(key: &[u8; 16], round_keys: &mut [u32; 44]) {
        // SAFETY: reads the 16 key bytes and the 256-byte S-box, writes exactly the 44 words
        // of `round_keys`; any alignment of `key` is handled; ilp32 calling convention.
        unsafe { cb_aes128_table_expand_key_rv32i(key.as_ptr(), round_keys.as_mut_ptr(), TABLES.sbox.as_ptr()) }
    }

    pub(super) fn encrypt_block_rv32i(round_keys: &[u32; 44], input: &[u8; 16], output: &mut [u8; 16]) {
        // SAFETY: reads the 44 round-key words, 16 input bytes and the tables, writes the 16
        // output bytes; any alignment of the byte buffers is handled; ilp32 convention.
        unsafe { cb_aes128_table_encrypt_rv32i(round_keys.as_ptr(), input.as_ptr(), output.as_mut_ptr(), &TABLES) }
    }
}

/// FIPS 197 Appendix A.1: the expansion of key 2b7e1516 28aed2a6 abf71588 09cf4f3c, as the
/// standard prints it (big-endian words).
const FIPS197_A1_KEY: [u8; 16] = [
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
];
const FIPS197_A1_WORDS: [u32; 44] = [
    0x2b7e1516, 0x28aed2a6, 0xabf71588, 0x09cf4f3c, 0xa0fafe17, 0x88542cb1, 0x23a33939, 0x2a6c7605, 0xf2c295f2,
    0x7a96b943, 0x5935807a, 0x7359f67f, 0x3d80477d, 0x4716fe3e, 0x1e237e44, 0x6d7a883b, 0xef44a541, 0xa8525b7f,
    0xb671253b, 0xdb0bad00, 0xd4d1c6f8, 0x7c839d87, 0xcaf2b8bc, 0x11f915bc, 0x6d88a37a, 0x110b3efd, 0xdbf98641,
    0xca0093fd, 0x4e54f70e, 0x5f5fc9f3, 0x84a64fb2, 0x4ea6dc4f, 0xead27321, 0xb58dbad2, 0x312bf560, 0x7f8d292f,
    0xac7766f3, 0x19fadc21, 0x28d12941, 0x575c006e, 0xd014f9a8, 0xc9ee2589, 0xe13f0cc8, 0xb6630ca6,
];

/// A known answer: check name, key, plaintext, ciphertext.
type Vector = (&'static str, [u8; 16], [u8; 16], [u8; 16]);

/// FIPS 197 Appendix B (key of A.1) and Appendix C.1.
const FIPS197_VECTORS: [Vector; 2] = [
    (
        "fips197_appendix_b",
        FIPS197_A1_KEY,
        [
            0x32, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d, 0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07, 0x34,
        ],
        [
            0x39, 0x25, 0x84, 0x1d, 0x02, 0xdc, 0x09, 0xfb, 0xdc, 0x11, 0x85, 0x97, 0x19, 0x6a, 0x0b, 0x32,
        ],
    ),
    (
        "fips197_appendix_c1",
        [
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
        ],
        [
            0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
        ],
        [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a,
        ],
    ),
];

fn encrypt(aes: &AesTable, key: &[u8; 16], input: &[u8; 16]) -> [u8; 16] {
    let mut round_keys = [0u32; 44];
    let mut output = [0u8; 16];
    (aes.expand_key)(key, &mut round_keys);
    (aes.encrypt_block)(&round_keys, input, &mut output);
    output
}

fn check_round_keys(aes: &AesTable) -> Result<(), String> {
    let mut round_keys = [0u32; 44];
    (aes.expand_key)(&FIPS197_A1_KEY, &mut round_keys);
    match round_keys
        .iter()
        .zip(FIPS197_A1_WORDS)
        .position(|(&got, w)| got != w.swap_bytes())
    {
        None => Ok(()),
        Some(i) => Err(format!(
            "w[{i}] = {:08x}, expected {:08x}",
            round_keys[i].swap_bytes(),
            FIPS197_A1_WORDS[i]
        )),
    }
}

/// `blocks` encryptions under fresh keys, against RustCrypto's `aes`; input and output sit at
/// every offset modulo 4 so that the assembly's unaligned paths run too.
fn check_random(aes: &AesTable, blocks: usize) -> Result<(), String> {
    use aes::cipher::{BlockEncrypt, KeyInit};
    let mut rng = Xorshift32::new(0x2545_f491);
    for i in 0..blocks {
        // Sixteen blocks see every pair of input and output offsets, and every key offset.
        let (key_offset, in_offset, out_offset) = ((i + i / 4) % 4, i % 4, (i / 4) % 4);
        let mut key_buffer = Aligned([0; 20]);
        let mut in_buffer = Aligned([0; 20]);
        let mut out_buffer = Aligned([0; 20]);
        let (Some(key), Some(input), Some(output)) = (
            key_buffer.0[key_offset..].first_chunk_mut::<16>(),
            in_buffer.0[in_offset..].first_chunk_mut::<16>(),
            out_buffer.0[out_offset..].first_chunk_mut::<16>(),
        ) else {
            return Err(String::from("buffer windows"));
        };
        rng.fill_low_bytes(key);
        rng.fill_low_bytes(input);
        let mut expected = (*input).into();
        aes::Aes128::new(&(*key).into()).encrypt_block(&mut expected);
        let mut round_keys = [0u32; 44];
        (aes.expand_key)(key, &mut round_keys);
        (aes.encrypt_block)(&round_keys, input, output);
        if output[..] != expected[..] {
            return Err(format!(
                "key {key:02x?} block {input:02x?}: got {output:02x?}, expected {expected:02x?}"
            ));
        }
    }
    Ok(())
}

/// Checks `variant` (if this build has it) against FIPS 197 and RustCrypto's `aes`.
pub fn self_test(variant: Variant, report: Report<'_>) {
    let Some(aes) = aes128_table(variant) else {
        return;
    };
    let name = |check: &str| format!("aes_table::{}::{check}", variant.name());
    report(&name("fips197_appendix_a1_round_keys"), check_round_keys(&aes));
    for (check, key, plaintext, ciphertext) in FIPS197_VECTORS {
        let got = encrypt(&aes, &key, &plaintext);
        let verdict = if got == ciphertext {
            Ok(())
        } else {
            Err(format!("got {got:02x?}, expected {ciphertext:02x?}"))
        };
        report(&name(check), verdict);
    }
    report(&name("random_vs_rustcrypto"), check_random(&aes, 16));
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn self_test_passes_for_rust() {
        let mut checks = Vec::new();
        self_test(Variant::Rust, &mut |name, verdict| {
            checks.push((String::from(name), verdict))
        });
        assert_eq!(checks.len(), 4);
        for (name, verdict) in checks {
            assert_eq!(verdict, Ok(()), "{name}");
        }
    }

    #[test]
    fn matches_rustcrypto_on_many_random_blocks() {
        let aes = aes128_table(Variant::Rust).expect("the Rust variant always exists");
        assert_eq!(check_random(&aes, 4000), Ok(()));
    }

    #[test]
    fn tables_are_consistent() {
        // FIPS 197 figure 7 spot values, and S-box bijectivity.
        assert_eq!(
            (TABLES.sbox[0x00], TABLES.sbox[0x53], TABLES.sbox[0xff]),
            (0x63, 0xed, 0x16)
        );
        let mut seen = [false; 256];
        TABLES.sbox.iter().for_each(|&s| seen[usize::from(s)] = true);
        assert!(seen.iter().all(|&s| s));
        // te[0][0x01]: S(1) = 0x7c, column (2s, s, s, 3s) = (f8, 7c, 7c, 84).
        assert_eq!(TABLES.te[0][1], u32::from_le_bytes([0xf8, 0x7c, 0x7c, 0x84]));
    }

    #[test]
    fn asm_variants_are_absent_on_the_host() {
        assert!(aes128_table(Variant::Rv32i).is_none());
        assert!(aes128_table(Variant::Zbb).is_none());
    }
}
