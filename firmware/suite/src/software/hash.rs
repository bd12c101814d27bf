//! SHA-256 and SHA3-256 in software (RustCrypto), behind the `Hasher` trait.

use cyclebench_modules::{Hasher, ModuleError};
use sha2::digest::{Digest, FixedOutputReset};

/// A software hash over a RustCrypto digest with a 32-byte output.
pub struct SoftHash<D> {
    state: D,
    digest: [u8; 32],
}

/// SHA-256 in software.
pub type SoftSha256 = SoftHash<sha2::Sha256>;
/// SHA3-256 in software.
pub type SoftSha3 = SoftHash<sha3::Sha3_256>;

impl<D: Digest + FixedOutputReset> SoftHash<D> {
    /// A fresh hasher.
    pub fn new() -> Self {
        Self {
            state: D::new(),
            digest: [0; 32],
        }
    }
}

impl<D: Digest + FixedOutputReset> Hasher for SoftHash<D> {
    fn init(&mut self) -> Result<(), ModuleError> {
        Digest::reset(&mut self.state);
        Ok(())
    }

    fn input_ready(&mut self) -> bool {
        true
    }

    fn fifo_elements(&mut self) -> u32 {
        0
    }

    fn write_input(&mut self, word: u32) {
        Digest::update(&mut self.state, word.to_le_bytes());
    }

    fn write_input_byte(&mut self, byte: u8) {
        Digest::update(&mut self.state, [byte]);
    }

    fn wait_for_completion(&mut self) -> Result<(), ModuleError> {
        let out = Digest::finalize_reset(&mut self.state);
        if out.len() != self.digest.len() {
            return Err(ModuleError::Usage("digest is not 256 bits"));
        }
        self.digest.copy_from_slice(&out);
        Ok(())
    }

    fn read_digest(&mut self, digest: &mut [u32; 8]) {
        for (word, bytes) in digest.iter_mut().zip(self.digest.chunks_exact(4)) {
            *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
    }
}
