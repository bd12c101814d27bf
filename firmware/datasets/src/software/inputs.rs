// Inputs of the software-primitive benchmarks. Shared verbatim by the datasets crate and its
// build script (which computes the expected outputs from them with reference crates), so
// the two can never disagree. Only `const` items and `const fn`s: the build script
// `include!`s this file.

/// Longest stream-cipher input, in bytes.
pub const SOFTWARE_MAX_BYTES: usize = 4096;

/// Most limbs per multi-precision operand.
pub const MP_MAX_LIMBS: usize = 32;

/// Byte `i` of every stream-cipher input: a pattern that is neither constant nor periodic
/// within 4096 bytes, so a keystream offset error cannot go unnoticed.
pub const fn input_byte(i: usize) -> u8 {
    ((i.wrapping_mul(167).wrapping_add(13)) ^ (i >> 8)) as u8
}

/// ChaCha20 key, nonce and first block counter (RFC 8439 section 2.4.2).
pub const CHACHA20_KEY: [u8; 32] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12,
    0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
];
/// ChaCha20 nonce (RFC 8439 section 2.4.2).
pub const CHACHA20_NONCE: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
/// ChaCha20 initial block counter (RFC 8439 section 2.4.2).
pub const CHACHA20_COUNTER: u32 = 1;

/// AES-128 key of FIPS-197 Appendix C.1 (table-based AES).
pub const AES_TABLE_KEY: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
];
/// Plaintext of FIPS-197 Appendix C.1.
pub const AES_TABLE_PLAINTEXT: [u8; 16] = [
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
];
/// Ciphertext of FIPS-197 Appendix C.1 (published; the host test recomputes it).
pub const AES_TABLE_CIPHERTEXT: [u8; 16] = [
    0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a,
];

/// AES-128-CTR key of NIST SP 800-38A F.5.1 (bitsliced AES).
pub const AES_CTR_KEY: [u8; 16] = [
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
];
/// Initial counter block of NIST SP 800-38A F.5.1; the low 32 bits count, big-endian.
pub const AES_CTR_IV: [u8; 16] = [
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];

/// Keccak-f[1600] input state, lane `i` (little-endian lanes, FIPS 202 order).
pub const fn keccak_lane(i: usize) -> u64 {
    (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((i as u64) << 59)
}

/// Bits per limb of the reduced-radix representation (radix 2^28, as `cyclebench-swcrypto`'s
/// multi-precision code uses; the suite asserts they agree).
pub const MP_REDUCED_BITS: u32 = 28;

/// Limb `i` of multi-precision operand `operand` (0 = a, 1 = b), radix 2^32. Every fifth
/// limb is all ones so that carries ripple through several limbs.
pub const fn mp_limb(operand: usize, i: usize) -> u32 {
    if i % 5 == 3 {
        return u32::MAX;
    }
    let mut x = (operand as u32 + 1).wrapping_mul(0x9e37_79b9) ^ (i as u32).wrapping_mul(0x85eb_ca6b);
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}
