//! Clock manager: the clocks of blocks a request does not use, switched off between uses, as
//! production firmware does to save power.
//!
//! A simulation model evaluates a clocked block only on its clock's edges, so every stopped
//! clock is simulation time saved; on silicon it is power. The transactional blocks (AES,
//! HMAC, KMAC, OTBN) take a hint: with it cleared the hardware stops their clock once the
//! block is idle and starts it again when the hint is set. The peripheral clocks the suite
//! never uses (GPIO, SPI, I2C, USB, pattern generator, ADC controller, retention-RAM
//! controller) are plain enables. A block whose clock is stopped cannot answer a bus access,
//! so a driver is handed out only after its clock runs ([`Clocks::run`]).
//!
//! A chip generated without some of the hinted blocks (a reduced Earl Grey model) numbers the
//! hints of the blocks it has from bit 0, in the order of [`Hinted::ALL`]: the bits are worked
//! out from which blocks exist, never taken as fixed.

use super::regs::clkmgr as r;
use crate::mmio::Mmio;
use crate::wait;
use cyclebench_modules::ModuleError;

/// A block whose clock the hint controls.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Hinted {
    /// The AES engine.
    Aes,
    /// HMAC (SHA-256).
    Hmac,
    /// KMAC (SHA-3).
    Kmac,
    /// OTBN, the big-number accelerator.
    Otbn,
}

impl Hinted {
    /// Every hinted block, in the order topgen numbers their hints (the order of the chip
    /// description's module list).
    pub const ALL: [Hinted; 4] = [Hinted::Aes, Hinted::Hmac, Hinted::Kmac, Hinted::Otbn];
}

// `Hinted::ALL` lists the blocks in the order of their discriminants (what indexes `bits`),
// and the full chip's generated register map numbers their hints in that order.
const _: () = {
    let mut i = 0;
    while i < Hinted::ALL.len() {
        assert!(Hinted::ALL[i] as usize == i);
        i += 1;
    }
};
const _: () = assert!(
    r::CLK_HINTS_CLK_MAIN_AES_HINT_BIT == 0
        && r::CLK_HINTS_CLK_MAIN_HMAC_HINT_BIT == 1
        && r::CLK_HINTS_CLK_MAIN_KMAC_HINT_BIT == 2
        && r::CLK_HINTS_CLK_MAIN_OTBN_HINT_BIT == 3
);

/// The clock manager's software controls.
pub struct Clocks {
    regs: Mmio,
    /// The hints last written, so that a block already running costs no bus access.
    hints: u32,
    /// Each hinted block's bit in `CLK_HINTS` and its status (indexed by [`Hinted`]); 0 for a
    /// block the chip does not have.
    bits: [u32; 4],
    /// Every bit of `bits`.
    all: u32,
}

impl Clocks {
    /// Binds to the clock manager of a chip that has the hinted blocks whose bits are set in
    /// `present` (bit `i` for `Hinted::ALL[i]`), and stops the peripheral clocks the suite
    /// never uses. The hints stay as reset left them (every clock running) until
    /// [`Clocks::stop_idle`].
    pub fn new(regs: Mmio, present: u8) -> Self {
        let mut bits = [0; 4];
        let mut next = 0;
        for (i, bit) in bits.iter_mut().enumerate() {
            if present & (1 << i) != 0 {
                *bit = 1 << next;
                next += 1;
            }
        }
        regs.write(r::CLK_ENABLES_REG_OFFSET, 0);
        Self {
            regs,
            hints: regs.read(r::CLK_HINTS_REG_OFFSET),
            bits,
            all: bits.iter().fold(0, |all, bit| all | bit),
        }
    }

    /// Lets the hardware stop the clock of every hinted block as soon as it is idle (a block
    /// still working keeps its clock until it is done).
    pub fn stop_idle(&mut self) {
        if self.hints & self.all != 0 {
            self.hints &= !self.all;
            self.regs.write(r::CLK_HINTS_REG_OFFSET, self.hints);
        }
    }

    /// Starts the clock of `block` and waits until the clock manager reports it running.
    #[inline(never)]
    pub fn run(&mut self, block: Hinted) -> Result<(), ModuleError> {
        let bit = self.bits[block as usize];
        if bit == 0 {
            return Err(ModuleError::Usage("the chip has no such block"));
        }
        if self.hints & bit != 0 {
            return Ok(());
        }
        self.hints |= bit;
        self.regs.write(r::CLK_HINTS_REG_OFFSET, self.hints);
        let regs = &self.regs;
        wait::until("block clock to start", wait::Limit::Short, || {
            regs.read(r::CLK_HINTS_STATUS_REG_OFFSET) & bit != 0
        })
    }
}
