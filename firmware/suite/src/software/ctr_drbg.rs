//! The suite's CTR_DRBG (AES-256, no df) behind the `Rng` trait, with OpenTitan CSRNG's word
//! order so the same datasets check both.

use cyclebench_modules::{ModuleError, Rng};
use cyclebench_protocol::MAX_RNG_BLOCKS;
use cyclebench_swcrypto::ctr_drbg::{CtrDrbg, BLOCK_LEN, SEED_LEN};

const SEED_WORDS: usize = SEED_LEN / 4;
const MAX_BLOCKS: usize = MAX_RNG_BLOCKS as usize;

/// Software deterministic random bit generator; cannot seed itself (no entropy source).
pub struct SoftCtrDrbg {
    drbg: Option<CtrDrbg>,
    blocks: [[u8; BLOCK_LEN]; MAX_BLOCKS],
    ready: usize,
    next: usize,
}

impl SoftCtrDrbg {
    /// An uninstantiated generator.
    pub fn new() -> Self {
        Self {
            drbg: None,
            blocks: [[0; BLOCK_LEN]; MAX_BLOCKS],
            ready: 0,
            next: 0,
        }
    }
}

impl Rng for SoftCtrDrbg {
    fn follows_standard(&self) -> bool {
        true
    }

    fn init(&mut self, seed: Option<&[u32]>) -> Result<(), ModuleError> {
        let seed = seed.ok_or(ModuleError::Usage("no entropy source to seed from"))?;
        if seed.len() > SEED_WORDS {
            return Err(ModuleError::Usage("seed longer than 384 bits"));
        }
        // Word 0 is the least significant: it lands at the end of the big-endian string.
        let mut material = [0u8; SEED_LEN];
        for (i, word) in seed.iter().enumerate() {
            let end = SEED_LEN - 4 * i;
            material[end - 4..end].copy_from_slice(&word.to_be_bytes());
        }
        self.drbg = Some(CtrDrbg::instantiate(&material));
        self.ready = 0;
        self.next = 0;
        Ok(())
    }

    fn generate(&mut self, blocks: u32) -> Result<(), ModuleError> {
        let count = usize::try_from(blocks).unwrap_or(usize::MAX);
        let drbg = self.drbg.as_mut().ok_or(ModuleError::Usage("generate before init"))?;
        let out = self
            .blocks
            .get_mut(..count)
            .ok_or(ModuleError::Usage("too many blocks"))?;
        drbg.generate(out);
        self.ready = count;
        self.next = 0;
        Ok(())
    }

    fn read_output(&mut self) -> Result<[u32; 4], ModuleError> {
        if self.next >= self.ready {
            return Err(ModuleError::Usage("no generated block left"));
        }
        let block = &self.blocks[self.next];
        self.next += 1;
        // Least-significant word first, as CSRNG's GENBITS yields them.
        Ok(core::array::from_fn(|i| {
            let end = BLOCK_LEN - 4 * i;
            u32::from_be_bytes([block[end - 4], block[end - 3], block[end - 2], block[end - 1]])
        }))
    }
}
