//! HMAC in SHA-256 mode (thesis 5.1.6): 16-word message FIFO, digest in eight registers.

use cyclebench_modules::{Hasher, ModuleError};

use super::regs::hmac as r;
use crate::mmio::Mmio;
use crate::wait;

/// The HMAC block.
pub struct Hmac {
    regs: Mmio,
}

impl Hmac {
    /// Binds the driver to the block at `regs`.
    pub fn new(regs: Mmio) -> Self {
        Self { regs }
    }
}

impl Hasher for Hmac {
    /// INTR_STATE: hmac_done of an earlier hash acknowledged; CFG: SHA-256 only, no MAC;
    /// endian_swap so that a little-endian word is taken in memory byte order (its reset
    /// value), digest words as computed (big-endian H0..H7); CMD: hash_start.
    ///
    /// The done flag is acknowledged here, before the hash starts, rather than after the wait
    /// for it: the wait then ends with the poll that sees the flag, and a flag left set by any
    /// earlier user of the HMAC cannot end it early.
    #[inline(always)]
    fn init(&mut self) -> Result<(), ModuleError> {
        self.regs
            .write(r::INTR_STATE_REG_OFFSET, 1 << r::INTR_STATE_HMAC_DONE_BIT);
        self.regs.write(
            r::CFG_REG_OFFSET,
            (1 << r::CFG_SHA_EN_BIT) | (1 << r::CFG_ENDIAN_SWAP_BIT),
        );
        self.regs.write(r::CMD_REG_OFFSET, 1 << r::CMD_HASH_START_BIT);
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

    /// CMD: hash_process, then wait for INTR_STATE.hmac_done (acknowledged by the next
    /// `init`).
    #[inline(always)]
    fn wait_for_completion(&mut self) -> Result<(), ModuleError> {
        self.regs.write(r::CMD_REG_OFFSET, 1 << r::CMD_HASH_PROCESS_BIT);
        wait::until("hmac done", wait::Limit::Short, || {
            self.regs.bit(r::INTR_STATE_REG_OFFSET, r::INTR_STATE_HMAC_DONE_BIT)
        })
    }

    /// DIGEST_0..7.
    #[inline(always)]
    fn read_digest(&mut self, digest: &mut [u32; 8]) {
        self.regs.read_consecutive(r::DIGEST_0_REG_OFFSET, digest);
    }

    /// INTR_STATE: hmac_done acknowledged (as in `init`); KEY_0..7 (while the engine is idle,
    /// the only time it takes them), then CFG: HMAC and
    /// SHA-256 on, endian_swap as in `init`; CMD: hash_start. KEY_0 holds the key's first
    /// four bytes as the most significant word (`secret_key` is `{KEY_0, …, KEY_7}` in
    /// `hmac.sv`), so each little-endian key word goes in byte-swapped.
    #[inline(always)]
    fn init_keyed(&mut self, key: &[u32; 8]) -> Result<(), ModuleError> {
        self.regs
            .write(r::INTR_STATE_REG_OFFSET, 1 << r::INTR_STATE_HMAC_DONE_BIT);
        let words: [u32; 8] = core::array::from_fn(|i| key[i].swap_bytes());
        self.regs.write_consecutive(r::KEY_0_REG_OFFSET, &words);
        self.regs.write(
            r::CFG_REG_OFFSET,
            (1 << r::CFG_HMAC_EN_BIT) | (1 << r::CFG_SHA_EN_BIT) | (1 << r::CFG_ENDIAN_SWAP_BIT),
        );
        self.regs.write(r::CMD_REG_OFFSET, 1 << r::CMD_HASH_START_BIT);
        Ok(())
    }
}
