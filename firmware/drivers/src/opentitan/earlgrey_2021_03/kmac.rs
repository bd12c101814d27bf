//! KMAC in SHA3-256 mode (thesis 5.1.7), unmasked configuration: message FIFO, digest read
//! from the state window.

use cyclebench_modules::{Hasher, ModuleError};

use super::regs::kmac as r;
use crate::mmio::Mmio;
use crate::wait;

/// The KMAC block.
pub struct Kmac {
    regs: Mmio,
}

impl Kmac {
    /// Binds the driver to the block at `regs`.
    pub fn new(regs: Mmio) -> Self {
        Self { regs }
    }

    #[inline(always)]
    fn command(&self, cmd: u32) {
        self.regs.write(r::CMD_REG_OFFSET, cmd << r::CMD_CMD_OFFSET);
    }
}

impl Hasher for Kmac {
    /// CFG: SHA3 with 256-bit strength, state read back byte-swapped (so digest words come
    /// out big-endian); CMD: start.
    #[inline(always)]
    fn init(&mut self) -> Result<(), ModuleError> {
        let cfg = (r::CFG_KSTRENGTH_VALUE_L256 << r::CFG_KSTRENGTH_OFFSET)
            | (r::CFG_MODE_VALUE_SHA3 << r::CFG_MODE_OFFSET)
            | (1 << r::CFG_STATE_ENDIANNESS_BIT);
        self.regs.write(r::CFG_REG_OFFSET, cfg);
        self.command(r::CMD_CMD_VALUE_START);
        Ok(())
    }

    /// STATUS.fifo_full clear.
    #[inline(always)]
    fn input_ready(&mut self) -> bool {
        !self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_FIFO_FULL_BIT)
    }

    /// STATUS.fifo_depth.
    #[inline(always)]
    fn fifo_elements(&mut self) -> u32 {
        (self.regs.read(r::STATUS_REG_OFFSET) >> r::STATUS_FIFO_DEPTH_OFFSET) & r::STATUS_FIFO_DEPTH_MASK
    }

    /// MSG_FIFO, one word.
    #[inline(always)]
    fn write_input(&mut self, word: u32) {
        self.regs.write(r::MSG_FIFO_REG_OFFSET, word);
    }

    /// MSG_FIFO, eight words at a time: eight loads, then eight stores.
    #[inline(always)]
    fn write_inputs(&mut self, words: &[u32]) {
        self.regs.write_fifo(r::MSG_FIFO_REG_OFFSET, words);
    }

    /// MSG_FIFO, one byte.
    #[inline(always)]
    fn write_input_byte(&mut self, byte: u8) {
        self.regs.write_byte(r::MSG_FIFO_REG_OFFSET, byte);
    }

    /// CMD: process, then wait for STATUS.sha3_squeeze.
    #[inline(always)]
    fn wait_for_completion(&mut self) -> Result<(), ModuleError> {
        self.command(r::CMD_CMD_VALUE_PROCESS);
        wait::until("kmac squeeze", || {
            self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_SHA3_SQUEEZE_BIT)
        })
    }

    /// STATE words 0..7 (share 0; unmasked), then CMD: done to return to idle.
    #[inline(always)]
    fn read_digest(&mut self, digest: &mut [u32; 8]) {
        self.regs.read_consecutive(r::STATE_REG_OFFSET, digest);
        self.command(r::CMD_CMD_VALUE_DONE);
    }
}
