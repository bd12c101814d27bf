
/// The extending test's throw-away interface: a checksum of the input.
pub trait ExampleChecksum {
    /// Bytes of the checksum.
    const OUTPUT_BYTES: usize;
    /// Writes the checksum of `input` into `out` ([`Self::OUTPUT_BYTES`] long).
    fn checksum(out: &mut [u8], input: &[u8]);
}

/// `crypto_example_checksum(out, in, inlen)`.
pub type ExampleChecksumFn = unsafe extern "C" fn(*mut u8, *const u8, usize) -> i32;

/// The [`Interface`] of a Rust [`ExampleChecksum`].
pub const fn example_checksum_interface<C: ExampleChecksum>() -> Interface {
    Interface::ExampleChecksum {
        checksum: adapters::example_checksum::<C>,
        output_bytes: C::OUTPUT_BYTES,
    }
}
