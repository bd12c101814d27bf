//! Inputs and expected outputs of the offload benchmarks (the co-processor paper, Table I). The
//! payload and the AES key and IV are defined in `inputs.rs`; for every payload size (whole KiB up
//! to 20 KiB) the build script computes with RustCrypto `sha2`, `sha3`, `aes` + `cbc` the SHA-256
//! and SHA3-256 digests of the payload and the SHA-256 digest of its AES-256-CBC ciphertext (a 20
//! KiB ciphertext per size would not fit the chip's flash budget; its digest identifies it as
//! surely).

include!("inputs.rs");

mod expected {
    include!(concat!(env!("OUT_DIR"), "/offload_expected.rs"));
}

/// Known answers for one payload size.
pub struct OffloadExpected {
    /// SHA-256 of the payload.
    pub sha256: [u8; 32],
    /// SHA3-256 of the payload.
    pub sha3_256: [u8; 32],
    /// SHA-256 of the payload's AES-256-CBC ciphertext (key and IV above, no padding).
    pub aes_cbc_256_sha256: [u8; 32],
}

/// Known answers for a payload of `bytes` bytes, if that is a size the suite offers.
pub fn expected(bytes: usize) -> Option<&'static OffloadExpected> {
    if bytes == 0 || !bytes.is_multiple_of(OFFLOAD_STEP_BYTES) {
        return None;
    }
    expected::OFFLOAD_EXPECTED.get(bytes / OFFLOAD_STEP_BYTES - 1)
}

/// Fills `out` with the first `out.len()` payload bytes.
pub fn fill_payload(out: &mut [u8]) {
    out.iter_mut().enumerate().for_each(|(i, b)| *b = payload_byte(i));
}
