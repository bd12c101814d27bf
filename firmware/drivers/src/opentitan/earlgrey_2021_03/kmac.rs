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
        wait::until("kmac squeeze", wait::Limit::Short, || {
            self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_SHA3_SQUEEZE_BIT)
        })
    }

    /// STATE words 0..7 (share 0; unmasked), then CMD: done to return to idle.
    #[inline(always)]
    fn read_digest(&mut self, digest: &mut [u32; 8]) {
        self.regs.read_consecutive(r::STATE_REG_OFFSET, digest);
        self.command(r::CMD_CMD_VALUE_DONE);
    }

    /// KMAC256 (SP 800-185) with an empty customisation string: CFG as in `init` but
    /// KMAC enabled and cSHAKE mode; KEY_LEN 256 bits; KEY_SHARE0_0..7 the key, KEY_SHARE1_0..7
    /// zero (this build is unmasked and ignores share 1; a masked one takes the key as the XOR
    /// of the shares); PREFIX_0..1 `encode_string("KMAC") || encode_string("")` (the engine
    /// adds bytepad's `left_encode(rate)` and the zeros, which the later PREFIX words already
    /// are); CMD: start. The engine then absorbs the padded prefix and
    /// `bytepad(encode_string(key))` before the message.
    #[inline(always)]
    fn init_keyed(&mut self, key: &[u32; 8]) -> Result<(), ModuleError> {
        let cfg = (1 << r::CFG_KMAC_EN_BIT)
            | (r::CFG_KSTRENGTH_VALUE_L256 << r::CFG_KSTRENGTH_OFFSET)
            | (r::CFG_MODE_VALUE_CSHAKE << r::CFG_MODE_OFFSET)
            | (1 << r::CFG_STATE_ENDIANNESS_BIT);
        self.regs.write(r::CFG_REG_OFFSET, cfg);
        self.regs.write(
            r::KEY_LEN_REG_OFFSET,
            r::KEY_LEN_LEN_VALUE_KEY256 << r::KEY_LEN_LEN_OFFSET,
        );
        self.regs.write_consecutive(r::KEY_SHARE0_0_REG_OFFSET, key);
        self.regs.write_consecutive(r::KEY_SHARE1_0_REG_OFFSET, &[0u32; 8]);
        // Bytes 01 20 'K' 'M' 'A' 'C' 01 00, little-endian words.
        self.regs
            .write_consecutive(r::PREFIX_0_REG_OFFSET, &[0x4d4b_2001, 0x0001_4341]);
        self.command(r::CMD_CMD_VALUE_START);
        Ok(())
    }

    /// `right_encode(256)` (bytes 01 00 02) into the message FIFO, then as
    /// `wait_for_completion`.
    #[inline(always)]
    fn wait_for_keyed_completion(&mut self) -> Result<(), ModuleError> {
        for byte in [0x01, 0x00, 0x02] {
            self.regs.write_byte(r::MSG_FIFO_REG_OFFSET, byte);
        }
        self.wait_for_completion()
    }
}
