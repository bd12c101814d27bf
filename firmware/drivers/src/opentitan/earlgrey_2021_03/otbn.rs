//! OTBN, the big-number accelerator: the CPU loads a program into its instruction and data
//! memories (32-bit word accesses only), starts it at an address, waits for STATUS.busy to
//! clear and reads the results from data memory (the register sequence of the snapshot's
//! `dif_otbn.c`).

use cyclebench_modules::{BigNumAccelerator, ModuleError};

use super::regs::otbn as r;
use crate::mmio::Mmio;
use crate::wait;

/// ERR_BITS's bits by position, named as the register description names them.
const ERR_NAMES: [&str; 8] = {
    let mut names = [""; 8];
    names[r::ERR_BITS_BAD_DATA_ADDR_BIT as usize] = "bad_data_addr";
    names[r::ERR_BITS_BAD_INSN_ADDR_BIT as usize] = "bad_insn_addr";
    names[r::ERR_BITS_CALL_STACK_BIT as usize] = "call_stack";
    names[r::ERR_BITS_ILLEGAL_INSN_BIT as usize] = "illegal_insn";
    names[r::ERR_BITS_LOOP_BIT as usize] = "loop";
    names[r::ERR_BITS_FATAL_IMEM_BIT as usize] = "fatal_imem";
    names[r::ERR_BITS_FATAL_DMEM_BIT as usize] = "fatal_dmem";
    names[r::ERR_BITS_FATAL_REG_BIT as usize] = "fatal_reg";
    names
};

/// The OTBN block.
pub struct Otbn {
    regs: Mmio,
}

impl Otbn {
    /// Binds the driver to the block at `regs`.
    pub fn new(regs: Mmio) -> Self {
        Self { regs }
    }

    /// Writes `words` to the window at `window` from byte address `address`, eight words at a
    /// time: eight loads, then eight stores to consecutive addresses, so no store waits for a
    /// load's response in between (as the HMAC and AES drivers move their FIFO words).
    #[inline(always)]
    fn write_window(&mut self, window: usize, address: u32, words: &[u32]) {
        let mut offset = window + address as usize;
        let mut chunks = words.chunks_exact(8);
        for chunk in chunks.by_ref() {
            if let Ok(eight) = <&[u32; 8]>::try_from(chunk) {
                self.regs.write_consecutive(offset, eight);
            }
            offset += 32;
        }
        for (i, &w) in chunks.remainder().iter().enumerate() {
            self.regs.write(offset + 4 * i, w);
        }
    }
}

impl BigNumAccelerator for Otbn {
    /// IMEM window.
    #[inline(always)]
    fn write_imem(&mut self, address: u32, words: &[u32]) {
        self.write_window(r::IMEM_REG_OFFSET, address, words);
    }

    /// DMEM window.
    #[inline(always)]
    fn write_dmem(&mut self, address: u32, words: &[u32]) {
        self.write_window(r::DMEM_REG_OFFSET, address, words);
    }

    /// DMEM window, one load per word.
    #[inline(always)]
    fn read_dmem(&mut self, address: u32, words: &mut [u32]) {
        let first = r::DMEM_REG_OFFSET + address as usize;
        for (i, w) in words.iter_mut().enumerate() {
            *w = self.regs.read(first + 4 * i);
        }
    }

    /// INTR_STATE: done of an earlier run acknowledged; START_ADDR; CMD: start. Refused while
    /// a run is under way (the memories are the program's then).
    #[inline(always)]
    fn start(&mut self, entry: u32) -> Result<(), ModuleError> {
        if self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_BUSY_BIT) {
            return Err(ModuleError::Usage("OTBN is busy"));
        }
        self.regs.write(r::INTR_STATE_REG_OFFSET, 1 << r::INTR_STATE_DONE_BIT);
        self.regs.write(r::START_ADDR_REG_OFFSET, entry);
        self.regs.write(r::CMD_REG_OFFSET, 1 << r::CMD_START_BIT);
        Ok(())
    }

    const ERROR_BITS: &'static [&'static str] = &ERR_NAMES;

    /// STATUS.busy clear (bounded), then ERR_BITS.
    #[inline(always)]
    fn wait_for_completion(&mut self) -> Result<u32, ModuleError> {
        wait::until_long("otbn done", || !self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_BUSY_BIT))?;
        Ok(self.regs.read(r::ERR_BITS_REG_OFFSET))
    }
}
