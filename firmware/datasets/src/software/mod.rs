//! Inputs and expected outputs of the software-primitive benchmarks. The inputs are defined
//! in `inputs.rs`; the expected outputs are computed from them by the build script with
//! reference crates (RustCrypto, `num-bigint`), and the published vectors among them (RFC
//! 8439, FIPS-197, SP 800-38A) are checked against those crates by the host tests.

include!("inputs.rs");

mod expected {
    include!(concat!(env!("OUT_DIR"), "/software_expected.rs"));
}

pub use expected::{AES_CTR_OUTPUT, CHACHA20_OUTPUT, KECCAK_OUTPUT, MP_CARRY, MP_PRODUCT, MP_REDUCED_PRODUCT, MP_SUM};

/// Fills `out` with the first `out.len()` bytes of the stream-cipher input.
pub fn fill_input(out: &mut [u8]) {
    out.iter_mut().enumerate().for_each(|(i, b)| *b = input_byte(i));
}

/// The Keccak-f[1600] input state.
pub fn keccak_input() -> [u64; 25] {
    core::array::from_fn(keccak_lane)
}

/// Fills `out` with the first `out.len()` limbs of multi-precision operand `operand`.
pub fn fill_operand(operand: usize, out: &mut [u32]) {
    out.iter_mut().enumerate().for_each(|(i, l)| *l = mp_limb(operand, i));
}
