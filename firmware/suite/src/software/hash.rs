//! SHA-256 and SHA3-256 in software (RustCrypto), and SHA3-256 over the suite's own
//! Keccak-f[1600], behind the `Hasher` trait.

use cyclebench_modules::{Hasher, ModuleError};
use cyclebench_swcrypto::keccak::{self, Sha3};
use cyclebench_swcrypto::Variant;
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
        big_endian_words(&self.digest, digest);
    }
}

/// SHA3-256 over the suite's own Keccak-f[1600] assembly (the Zbb routine on a core with Zbb,
/// the RV32I one otherwise).
pub struct OwnSha3 {
    sponge: Sha3,
    digest: [u8; 32],
}

impl OwnSha3 {
    /// A fresh hasher, if this build has the assembly.
    pub fn new() -> Option<Self> {
        let variant = if cfg!(target_feature = "zbb") {
            Variant::Zbb
        } else {
            Variant::Rv32i
        };
        keccak::keccak_f1600(variant).map(|k| Self {
            sponge: Sha3::new(k),
            digest: [0; 32],
        })
    }
}

impl Hasher for OwnSha3 {
    fn init(&mut self) -> Result<(), ModuleError> {
        self.sponge.reset();
        Ok(())
    }

    fn input_ready(&mut self) -> bool {
        true
    }

    fn fifo_elements(&mut self) -> u32 {
        0
    }

    fn write_input(&mut self, word: u32) {
        self.sponge.update_word(word);
    }

    fn write_input_byte(&mut self, byte: u8) {
        self.sponge.update_byte(byte);
    }

    fn wait_for_completion(&mut self) -> Result<(), ModuleError> {
        self.digest = self.sponge.finalize();
        Ok(())
    }

    fn read_digest(&mut self, digest: &mut [u32; 8]) {
        big_endian_words(&self.digest, digest);
    }
}

fn big_endian_words(bytes: &[u8; 32], words: &mut [u32; 8]) {
    for (word, b) in words.iter_mut().zip(bytes.chunks_exact(4)) {
        *word = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    }
}
