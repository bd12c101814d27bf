//! OTBN, the big-number accelerator: the CPU loads a program into its instruction and data
//! memories (32-bit word accesses only), starts it at an address, waits for STATUS.busy to
//! clear and reads the results from data memory (the register sequence of the snapshot's
//! `dif_otbn.c`).

use core::arch::asm;

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

    /// Writes `words` to the window at `window` from byte address `address`: sixteen words at
    /// a time in assembly, sixteen loads and then sixteen stores, so no store waits behind a
    /// load's response and the loop's own instructions (two additions and a branch) are spread
    /// over sixteen words; the rest eight at a time (as the HMAC and AES drivers move FIFO
    /// words), then one by one.
    #[inline(always)]
    fn write_window(&mut self, window: usize, address: u32, words: &[u32]) {
        let mut offset = window + address as usize;
        let (blocks, rest) = words.as_chunks::<16>();
        if !blocks.is_empty() {
            let src = blocks.as_ptr() as usize;
            let end = src + 64 * blocks.len();
            // SAFETY: reads the `blocks.len()` whole 16-word blocks of `words` and writes as
            // many words to consecutive registers of this block's memory window (the caller
            // keeps address + length inside it; the block accepts 32-bit stores there).
            unsafe {
                asm!(
                    // The loop starts on a word boundary and holds only 32-bit instructions: a
                    // 32-bit instruction across a word boundary costs a fetch cycle more.
                    ".p2align 2",
                    ".option push",
                    ".option norvc",
                    "2:",
                    "lw {w0}, 0({src})",
                    "lw {w1}, 4({src})",
                    "lw {w2}, 8({src})",
                    "lw {w3}, 12({src})",
                    "lw {w4}, 16({src})",
                    "lw {w5}, 20({src})",
                    "lw {w6}, 24({src})",
                    "lw {w7}, 28({src})",
                    "lw {w8}, 32({src})",
                    "lw {w9}, 36({src})",
                    "lw {w10}, 40({src})",
                    "lw {w11}, 44({src})",
                    "lw {w12}, 48({src})",
                    "lw {w13}, 52({src})",
                    "lw {w14}, 56({src})",
                    "lw {w15}, 60({src})",
                    "sw {w0}, 0({dst})",
                    "sw {w1}, 4({dst})",
                    "sw {w2}, 8({dst})",
                    "sw {w3}, 12({dst})",
                    "sw {w4}, 16({dst})",
                    "sw {w5}, 20({dst})",
                    "sw {w6}, 24({dst})",
                    "sw {w7}, 28({dst})",
                    "sw {w8}, 32({dst})",
                    "sw {w9}, 36({dst})",
                    "sw {w10}, 40({dst})",
                    "sw {w11}, 44({dst})",
                    "sw {w12}, 48({dst})",
                    "sw {w13}, 52({dst})",
                    "sw {w14}, 56({dst})",
                    "sw {w15}, 60({dst})",
                    "addi {src}, {src}, 64",
                    "addi {dst}, {dst}, 64",
                    "bne {src}, {end}, 2b",
                    ".option pop",
                    src = inout(reg) src => _,
                    dst = inout(reg) self.regs.address(offset) => _,
                    end = in(reg) end,
                    w0 = out(reg) _, w1 = out(reg) _, w2 = out(reg) _, w3 = out(reg) _,
                    w4 = out(reg) _, w5 = out(reg) _, w6 = out(reg) _, w7 = out(reg) _,
                    w8 = out(reg) _, w9 = out(reg) _, w10 = out(reg) _, w11 = out(reg) _,
                    w12 = out(reg) _, w13 = out(reg) _, w14 = out(reg) _, w15 = out(reg) _,
                    options(nostack),
                );
            }
            offset += 64 * blocks.len();
        }
        let mut chunks = rest.chunks_exact(8);
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
        wait::until("otbn done", wait::Limit::Long, || {
            !self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_BUSY_BIT)
        })?;
        Ok(self.regs.read(r::ERR_BITS_REG_OFFSET))
    }
}
