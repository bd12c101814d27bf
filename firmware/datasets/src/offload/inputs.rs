// Inputs of the offload benchmarks. Shared verbatim by the datasets crate and its build
// script (which computes the expected outputs from them with reference crates). Only
// `const` items and `const fn`s: the build script `include!`s this file.

/// Longest payload, in bytes (five 4 KiB pages, what direct addressing reaches).
pub const OFFLOAD_MAX_BYTES: usize = 20 * 1024;

/// Payload sizes have known answers in steps of this many bytes.
pub const OFFLOAD_STEP_BYTES: usize = 1024;

/// Byte `i` of every payload: neither constant nor periodic within 20 KiB, so a page handed
/// over twice or skipped changes every digest.
pub const fn payload_byte(i: usize) -> u8 {
    ((i.wrapping_mul(151).wrapping_add(29)) ^ (i >> 7) ^ (i >> 13)) as u8
}

/// AES-256 key of NIST SP 800-38A F.2.5 (CBC-AES256.Encrypt).
pub const OFFLOAD_AES_KEY: [u8; 32] = [
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c,
    0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
];

/// IV of NIST SP 800-38A F.2.5.
pub const OFFLOAD_AES_IV: [u8; 16] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
];
