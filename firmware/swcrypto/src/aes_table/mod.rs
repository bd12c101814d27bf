//! Table-based AES-128 and AES-256 (FIPS 197): key expansion and single-block encryption with
//! four 1 KiB T-tables, the design Stoffelen ("Efficient cryptography on the RISC-V
//! architecture", LATINCRYPT 2019) measured on the SiFive E31 for AES-128. Not constant time:
//! table indices depend on the key and the data, which is what the bitsliced implementation is
//! compared against. AES-256 is the same rounds, fourteen of them, over a 60-word schedule: the
//! fastest AES-256 the project has, set beside the constant-time software where an accelerator
//! is compared with software.
//!
//! Round-key layout, shared by every variant here: `round_keys[4 * r + c]` is column `c` of
//! round key `r` as a little-endian word, i.e. `u32::from_le_bytes` of FIPS-197 `w[4r + c]`
//! (a column is what one `lw` of the state gives, so the assembly needs no byte swapping).

pub mod harness;

use alloc::format;
use alloc::string::String;

use crate::test_support::{Aligned, Xorshift32};
use crate::{Report, Variant};

/// One variant of table-based AES with a `KEY`-byte key and `WORDS` round-key words.
#[derive(Clone, Copy)]
pub struct TableAes<const KEY: usize, const WORDS: usize> {
    /// Expands a key into the round keys (layout: see the module documentation).
    pub expand_key: fn(key: &[u8; KEY], round_keys: &mut [u32; WORDS]),
    /// Encrypts one block with round keys from the same variant's `expand_key`.
    pub encrypt_block: fn(round_keys: &[u32; WORDS], input: &[u8; 16], output: &mut [u8; 16]),
}

/// Table-based AES-128: 11 round keys.
pub type AesTable = TableAes<16, 44>;

/// Table-based AES-256: 15 round keys.
pub type AesTable256 = TableAes<32, 60>;

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

/// Table AES of either key length behind one signature: the key in a 32-byte buffer (AES-128
/// reads its first 16 bytes) and 60 round-key words (AES-128 uses the first 44). The
/// harnesses serve both key lengths through it, one harness type per operation instead of two
/// (each adds some 5 KiB to the Earl Grey image, whose flash the model loads is nearly full);
/// the functions behind it are each key length's own code.
pub type AnyTableAes = TableAes<32, 60>;

/// The variant of table AES with a `key_bytes`-byte key (16 or 32) asked for, behind the
/// common signature, if this build has it.
pub fn any_table_aes(key_bytes: usize, variant: Variant) -> Option<AnyTableAes> {
    match (key_bytes, variant) {
        (32, _) => aes256_table(variant),
        (16, Variant::Rust) => Some(AnyTableAes {
            expand_key: expand_key_128_any,
            encrypt_block: encrypt_block_128_any,
        }),
        #[cfg(target_arch = "riscv32")]
        (16, Variant::Rv32i) => Some(AnyTableAes {
            expand_key: asm::expand_key_128_any_rv32i,
            encrypt_block: asm::encrypt_block_128_any_rv32i,
        }),
        _ => None,
    }
}

/// AES-128 key expansion behind the common signature: the same code as [`expand_key`], not a
/// call of it, so that the window holds the same instructions.
fn expand_key_128_any(key: &[u8; 32], round_keys: &mut [u32; 60]) {
    expand_key_128_into(key, round_keys);
}

/// AES-128 encryption of one block behind the common signature: the same code as
/// [`encrypt_block`] (the round keys beyond the 44th unread), not a call of it, so that the
/// window holds the same instructions.
fn encrypt_block_128_any(round_keys: &[u32; 60], input: &[u8; 16], output: &mut [u8; 16]) {
    encrypt_rounds::<60, 10>(round_keys, input, output);
}

/// The variant of table-based AES-256 asked for, if this build has it (as for AES-128, no Zbb
/// variant).
pub fn aes256_table(variant: Variant) -> Option<AesTable256> {
    match variant {
        Variant::Rust => Some(AesTable256 {
            expand_key: expand_key_256,
            encrypt_block: encrypt_block_256,
        }),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(AesTable256 {
            expand_key: asm::expand_key_256_rv32i,
            encrypt_block: asm::encrypt_block_256_rv32i,
        }),
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

fn le_words<const N: usize, const BYTES: usize>(bytes: &[u8; BYTES]) -> [u32; N] {
    core::array::from_fn(|c| u32::from_le_bytes([bytes[4 * c], bytes[4 * c + 1], bytes[4 * c + 2], bytes[4 * c + 3]]))
}

fn sbox(x: u32) -> u32 {
    u32::from(TABLES.sbox[(x & 0xff) as usize])
}

/// `SubWord(RotWord(w))` on a little-endian column.
fn sub_rot_word(w: u32) -> u32 {
    sbox(w >> 8) | sbox(w >> 16) << 8 | sbox(w >> 24) << 16 | sbox(w) << 24
}

/// `SubWord(w)` on a little-endian column.
fn sub_word(w: u32) -> u32 {
    sbox(w) | sbox(w >> 8) << 8 | sbox(w >> 16) << 16 | sbox(w >> 24) << 24
}

/// Key expansion (FIPS 197, section 5.2) into little-endian columns.
// A call wherever it is used: the bitsliced key schedule's window holds the call, and an
// inlined copy there would be other code.
#[inline(never)]
pub fn expand_key(key: &[u8; 16], round_keys: &mut [u32; 44]) {
    expand_key_128_into(key, round_keys);
}

/// AES-128 key expansion from the first 16 bytes of `key` into the first 44 words of
/// `round_keys`, for either signature with the same code.
#[inline(always)]
fn expand_key_128_into<const KEY: usize, const WORDS: usize>(key: &[u8; KEY], round_keys: &mut [u32; WORDS]) {
    const { assert!(KEY >= 16 && WORDS >= 44) };
    round_keys[..4].copy_from_slice(&le_words::<4, KEY>(key));
    for i in 4..44 {
        let mut t = round_keys[i - 1];
        if i % 4 == 0 {
            t = sub_rot_word(t) ^ u32::from(RCON[i / 4 - 1]);
        }
        round_keys[i] = round_keys[i - 4] ^ t;
    }
}

/// AES-256 key expansion (FIPS 197, section 5.2, `Nk` = 8) into little-endian columns.
pub fn expand_key_256(key: &[u8; 32], round_keys: &mut [u32; 60]) {
    round_keys[..8].copy_from_slice(&le_words::<8, 32>(key));
    for i in 8..60 {
        let mut t = round_keys[i - 1];
        if i % 8 == 0 {
            t = sub_rot_word(t) ^ u32::from(RCON[i / 8 - 1]);
        } else if i % 8 == 4 {
            t = sub_word(t);
        }
        round_keys[i] = round_keys[i - 8] ^ t;
    }
}

/// Encrypts one block: nine T-table rounds and a last round with the plain S-box.
pub fn encrypt_block(round_keys: &[u32; 44], input: &[u8; 16], output: &mut [u8; 16]) {
    encrypt_rounds::<44, 10>(round_keys, input, output);
}

/// AES-256 encryption of one block: thirteen T-table rounds and a last round with the plain
/// S-box.
pub fn encrypt_block_256(round_keys: &[u32; 60], input: &[u8; 16], output: &mut [u8; 16]) {
    encrypt_rounds::<60, 14>(round_keys, input, output);
}

/// The cipher of `ROUNDS` rounds over the first `ROUNDS + 1` round keys of `round_keys`: the
/// first added to the input, the last in the S-box round, T-table rounds between.
#[inline(always)]
fn encrypt_rounds<const WORDS: usize, const ROUNDS: usize>(
    round_keys: &[u32; WORDS],
    input: &[u8; 16],
    output: &mut [u8; 16],
) {
    let te = &TABLES.te;
    let byte = |w: u32, row: u32| ((w >> (8 * row)) & 0xff) as usize;
    let input = le_words::<4, 16>(input);
    const { assert!(4 * (ROUNDS + 1) <= WORDS) };
    let last = ROUNDS;
    let mut s: [u32; 4] = core::array::from_fn(|c| input[c] ^ round_keys[c]);
    for round in 1..last {
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
    let rk = &round_keys[4 * last..4 * last + 4];
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
        fn cb_aes256_table_expand_key_rv32i(key: *const u8, round_keys: *mut u32, sbox: *const u8);
        fn cb_aes256_table_encrypt_rv32i(
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

    pub(super) fn expand_key_128_any_rv32i(key: &[u8; 32], round_keys: &mut [u32; 60]) {
        // SAFETY: as `expand_key_rv32i`: reads the first 16 of the 32 key bytes, writes the
        // first 44 of the 60 round-key words.
        unsafe { cb_aes128_table_expand_key_rv32i(key.as_ptr(), round_keys.as_mut_ptr(), TABLES.sbox.as_ptr()) }
    }

    pub(super) fn encrypt_block_128_any_rv32i(round_keys: &[u32; 60], input: &[u8; 16], output: &mut [u8; 16]) {
        // SAFETY: as `encrypt_block_rv32i`: reads the first 44 of the 60 round-key words.
        unsafe { cb_aes128_table_encrypt_rv32i(round_keys.as_ptr(), input.as_ptr(), output.as_mut_ptr(), &TABLES) }
    }

    pub(super) fn expand_key_256_rv32i(key: &[u8; 32], round_keys: &mut [u32; 60]) {
        // SAFETY: reads the 32 key bytes and the 256-byte S-box, writes exactly the 60 words
        // of `round_keys`; any alignment of `key` is handled; ilp32 calling convention.
        unsafe { cb_aes256_table_expand_key_rv32i(key.as_ptr(), round_keys.as_mut_ptr(), TABLES.sbox.as_ptr()) }
    }

    pub(super) fn encrypt_block_256_rv32i(round_keys: &[u32; 60], input: &[u8; 16], output: &mut [u8; 16]) {
        // SAFETY: reads the 60 round-key words, 16 input bytes and the tables, writes the 16
        // output bytes; any alignment of the byte buffers is handled; ilp32 convention.
        unsafe { cb_aes256_table_encrypt_rv32i(round_keys.as_ptr(), input.as_ptr(), output.as_mut_ptr(), &TABLES) }
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

/// FIPS 197 Appendix A.3: the AES-256 expansion of key 603deb10 15ca71be 2b73aef0 857d7781
/// 1f352c07 3b6108d7 2d9810a3 0914dff4, as the standard prints it (big-endian words).
const FIPS197_A3_KEY: [u8; 32] = [
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c,
    0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
];
const FIPS197_A3_WORDS: [u32; 60] = [
    0x603deb10, 0x15ca71be, 0x2b73aef0, 0x857d7781, 0x1f352c07, 0x3b6108d7, 0x2d9810a3, 0x0914dff4, 0x9ba35411,
    0x8e6925af, 0xa51a8b5f, 0x2067fcde, 0xa8b09c1a, 0x93d194cd, 0xbe49846e, 0xb75d5b9a, 0xd59aecb8, 0x5bf3c917,
    0xfee94248, 0xde8ebe96, 0xb5a9328a, 0x2678a647, 0x98312229, 0x2f6c79b3, 0x812c81ad, 0xdadf48ba, 0x24360af2,
    0xfab8b464, 0x98c5bfc9, 0xbebd198e, 0x268c3ba7, 0x09e04214, 0x68007bac, 0xb2df3316, 0x96e939e4, 0x6c518d80,
    0xc814e204, 0x76a9fb8a, 0x5025c02d, 0x59c58239, 0xde136967, 0x6ccc5a71, 0xfa256395, 0x9674ee15, 0x5886ca5d,
    0x2e2f31d7, 0x7e0af1fa, 0x27cf73c3, 0x749c47ab, 0x18501dda, 0xe2757e4f, 0x7401905a, 0xcafaaae3, 0xe4d59b34,
    0x9adf6ace, 0xbd10190d, 0xfe4890d1, 0xe6188d0b, 0x046df344, 0x706c631e,
];

/// A known answer: check name, key, plaintext, ciphertext.
type Vector<const KEY: usize> = (&'static str, [u8; KEY], [u8; 16], [u8; 16]);

/// FIPS 197 Appendix B (key of A.1) and Appendix C.1.
const FIPS197_VECTORS: [Vector<16>; 2] = [
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
        FIPS197_PLAINTEXT,
        [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a,
        ],
    ),
];

/// The plaintext of FIPS 197 Appendix C.
const FIPS197_PLAINTEXT: [u8; 16] = [
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
];

/// FIPS 197 Appendix C.3: AES-256, the key bytes 00 to 1f. The fixed input of the AES-256
/// harnesses.
pub(crate) const FIPS197_C3: Vector<32> = (
    "fips197_appendix_c3",
    [
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
        0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    ],
    FIPS197_PLAINTEXT,
    [
        0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf, 0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89,
    ],
);

fn encrypt<const KEY: usize, const WORDS: usize>(
    aes: &TableAes<KEY, WORDS>,
    key: &[u8; KEY],
    input: &[u8; 16],
) -> [u8; 16] {
    let mut round_keys = [0u32; WORDS];
    let mut output = [0u8; 16];
    (aes.expand_key)(key, &mut round_keys);
    (aes.encrypt_block)(&round_keys, input, &mut output);
    output
}

/// The expansion of `key` against the standard's listing `words`.
fn check_round_keys<const KEY: usize, const WORDS: usize>(
    aes: &TableAes<KEY, WORDS>,
    key: &[u8; KEY],
    words: &[u32; WORDS],
) -> Result<(), String> {
    let mut round_keys = [0u32; WORDS];
    (aes.expand_key)(key, &mut round_keys);
    match round_keys.iter().zip(words).position(|(&got, w)| got != w.swap_bytes()) {
        None => Ok(()),
        Some(i) => Err(format!(
            "w[{i}] = {:08x}, expected {:08x}",
            round_keys[i].swap_bytes(),
            words[i]
        )),
    }
}

fn check_vector<const KEY: usize, const WORDS: usize>(
    aes: &TableAes<KEY, WORDS>,
    (_, key, plaintext, ciphertext): &Vector<KEY>,
) -> Result<(), String> {
    let got = encrypt(aes, key, plaintext);
    if got == *ciphertext {
        Ok(())
    } else {
        Err(format!("got {got:02x?}, expected {ciphertext:02x?}"))
    }
}

/// RustCrypto's encryption of `block` under `key`, for the key lengths the table code has.
fn rustcrypto_encrypt(key: &[u8], block: &[u8; 16]) -> Option<[u8; 16]> {
    use aes::cipher::{BlockEncrypt, KeyInit};
    let mut out = (*block).into();
    match key.len() {
        16 => aes::Aes128::new_from_slice(key).ok()?.encrypt_block(&mut out),
        32 => aes::Aes256::new_from_slice(key).ok()?.encrypt_block(&mut out),
        _ => return None,
    }
    Some(out.into())
}

/// `blocks` encryptions under fresh keys, against RustCrypto's `aes`; input and output sit at
/// every offset modulo 4 so that the assembly's unaligned paths run too.
fn check_random<const KEY: usize, const WORDS: usize>(aes: &TableAes<KEY, WORDS>, blocks: usize) -> Result<(), String> {
    let mut rng = Xorshift32::new(0x2545_f491);
    for i in 0..blocks {
        // Sixteen blocks see every pair of input and output offsets, and every key offset.
        let (key_offset, in_offset, out_offset) = ((i + i / 4) % 4, i % 4, (i / 4) % 4);
        let mut key_buffer = Aligned([0; 36]);
        let mut in_buffer = Aligned([0; 20]);
        let mut out_buffer = Aligned([0; 20]);
        let (Some(key), Some(input), Some(output)) = (
            key_buffer.0[key_offset..].first_chunk_mut::<KEY>(),
            in_buffer.0[in_offset..].first_chunk_mut::<16>(),
            out_buffer.0[out_offset..].first_chunk_mut::<16>(),
        ) else {
            return Err(String::from("buffer windows"));
        };
        rng.fill_low_bytes(key);
        rng.fill_low_bytes(input);
        let expected = rustcrypto_encrypt(key, input).ok_or_else(|| format!("no {KEY}-byte AES in RustCrypto"))?;
        let mut round_keys = [0u32; WORDS];
        (aes.expand_key)(key, &mut round_keys);
        (aes.encrypt_block)(&round_keys, input, output);
        if *output != expected {
            return Err(format!(
                "key {key:02x?} block {input:02x?}: got {output:02x?}, expected {expected:02x?}"
            ));
        }
    }
    Ok(())
}

/// Checks `variant` (if this build has it) against FIPS 197 and RustCrypto's `aes`, AES-128
/// and AES-256.
pub fn self_test(variant: Variant, report: Report<'_>) {
    let name = |check: &str| format!("aes_table::{}::{check}", variant.name());
    if let Some(aes) = aes128_table(variant) {
        report(
            &name("fips197_appendix_a1_round_keys"),
            check_round_keys(&aes, &FIPS197_A1_KEY, &FIPS197_A1_WORDS),
        );
        for vector in &FIPS197_VECTORS {
            report(&name(vector.0), check_vector(&aes, vector));
        }
        report(&name("random_vs_rustcrypto"), check_random(&aes, 16));
    }
    if let Some(aes) = aes256_table(variant) {
        report(
            &name("aes256_fips197_appendix_a3_round_keys"),
            check_round_keys(&aes, &FIPS197_A3_KEY, &FIPS197_A3_WORDS),
        );
        report(
            &name(&format!("aes256_{}", FIPS197_C3.0)),
            check_vector(&aes, &FIPS197_C3),
        );
        report(&name("aes256_random_vs_rustcrypto"), check_random(&aes, 16));
    }
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
        assert_eq!(checks.len(), 7);
        for (name, verdict) in checks {
            assert_eq!(verdict, Ok(()), "{name}");
        }
    }

    #[test]
    fn matches_rustcrypto_on_many_random_blocks() {
        let aes = aes128_table(Variant::Rust).expect("the Rust variant always exists");
        assert_eq!(check_random(&aes, 4000), Ok(()));
        let aes = aes256_table(Variant::Rust).expect("the Rust variant always exists");
        assert_eq!(check_random(&aes, 4000), Ok(()));
    }

    #[test]
    fn a_wrong_schedule_or_block_is_reported() {
        let aes = aes256_table(Variant::Rust).expect("the Rust variant always exists");
        let mut words = FIPS197_A3_WORDS;
        words[59] ^= 1;
        assert!(check_round_keys(&aes, &FIPS197_A3_KEY, &words).is_err());
        let mut vector = FIPS197_C3;
        vector.3[0] ^= 1;
        assert!(check_vector(&aes, &vector).is_err());
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
        assert!(aes256_table(Variant::Rv32i).is_none());
        assert!(aes256_table(Variant::Zbb).is_none());
    }
}
