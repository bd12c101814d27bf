//! CSRNG software application interface (thesis 5.1.8): commands are 32-bit headers (plus
//! seed words) written to CMD_REQ whenever SW_CMD_STS.cmd_rdy is set; generated bits are read
//! from GENBITS, four words per 128-bit block, once GENBITS_VLD is set.

use cyclebench_modules::{ModuleError, Rng};

use super::regs::csrng as r;
use crate::mmio::Mmio;
use crate::wait;

/// Application commands (`csrng_pkg::acmd_e`).
const INSTANTIATE: u32 = 0x1;
const GENERATE: u32 = 0x3;
const UNINSTANTIATE: u32 = 0x5;
/// Header fields: acmd [3:0], clen [7:4], flag0 [8], glen [30:12].
const CLEN_OFFSET: u32 = 4;
const FLAG0_OFFSET: u32 = 8;
const GLEN_OFFSET: u32 = 12;
const MAX_SEED_WORDS: usize = 12;
const MAX_GLEN: u32 = (1 << 19) - 1;

/// The CSRNG block, software instance.
pub struct Csrng {
    regs: Mmio,
}

impl Csrng {
    /// Binds the driver to the block at `regs` (enabled by [`super::entropy::enable`]).
    pub fn new(regs: Mmio) -> Self {
        Self { regs }
    }

    /// Waits for SW_CMD_STS.cmd_rdy, then writes one word of a command.
    #[inline(always)]
    fn send(&self, word: u32) -> Result<(), ModuleError> {
        wait::until("csrng command ready", wait::Limit::Short, || {
            self.regs.bit(r::SW_CMD_STS_REG_OFFSET, r::SW_CMD_STS_CMD_RDY_BIT)
        })?;
        self.regs.write(r::CMD_REQ_REG_OFFSET, word);
        Ok(())
    }
}

impl Rng for Csrng {
    /// This revision's CSRNG discards its software seed and its entropy input and departs
    /// from SP 800-90A in key/V layout, counter width and update order (docs/earlgrey.md).
    #[inline(always)]
    fn follows_standard(&self) -> bool {
        false
    }

    /// Uninstantiate, then instantiate: with `Some(seed)` flag0 is set so only the given words
    /// (none = all-zero seed) seed the DRBG; with `None` the entropy source seeds it.
    #[inline(always)]
    fn init(&mut self, seed: Option<&[u32]>) -> Result<(), ModuleError> {
        let words = seed.unwrap_or(&[]);
        if words.len() > MAX_SEED_WORDS {
            return Err(ModuleError::Usage("seed longer than 384 bits"));
        }
        self.send(UNINSTANTIATE)?;
        let flag0 = u32::from(seed.is_some()) << FLAG0_OFFSET;
        self.send(INSTANTIATE | ((words.len() as u32) << CLEN_OFFSET) | flag0)?;
        for &w in words {
            self.send(w)?;
        }
        Ok(())
    }

    /// Generate command for `blocks` × 128 bits; waits for GENBITS_VLD.
    #[inline(always)]
    fn generate(&mut self, blocks: u32) -> Result<(), ModuleError> {
        if blocks == 0 || blocks > MAX_GLEN {
            return Err(ModuleError::Usage("generate length out of range"));
        }
        self.send(GENERATE | (blocks << GLEN_OFFSET))?;
        wait::until("csrng genbits valid", wait::Limit::Short, || {
            self.regs.bit(r::GENBITS_VLD_REG_OFFSET, r::GENBITS_VLD_GENBITS_VLD_BIT)
        })
    }

    /// GENBITS four times, after GENBITS_VLD (already checked for the first block).
    #[inline(always)]
    fn read_output(&mut self) -> Result<[u32; 4], ModuleError> {
        wait::until("csrng genbits valid", wait::Limit::Short, || {
            self.regs.bit(r::GENBITS_VLD_REG_OFFSET, r::GENBITS_VLD_GENBITS_VLD_BIT)
        })?;
        Ok(core::array::from_fn(|_| self.regs.read(r::GENBITS_REG_OFFSET)))
    }
}
