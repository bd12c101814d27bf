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

use super::regs::clkmgr as r;
use crate::mmio::Mmio;
use crate::wait;
use cyclebench_modules::ModuleError;

/// A block whose clock the hint controls (bit positions of `CLK_HINTS` and its status).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Hinted {
    /// The AES engine.
    Aes = r::CLK_HINTS_CLK_MAIN_AES_HINT_BIT as isize,
    /// HMAC (SHA-256).
    Hmac = r::CLK_HINTS_CLK_MAIN_HMAC_HINT_BIT as isize,
    /// KMAC (SHA-3).
    Kmac = r::CLK_HINTS_CLK_MAIN_KMAC_HINT_BIT as isize,
    /// OTBN, the big-number accelerator.
    Otbn = r::CLK_HINTS_CLK_MAIN_OTBN_HINT_BIT as isize,
}

/// Every hinted block.
const ALL_HINTS: u32 =
    (1 << Hinted::Aes as u32) | (1 << Hinted::Hmac as u32) | (1 << Hinted::Kmac as u32) | (1 << Hinted::Otbn as u32);

/// The clock manager's software controls.
pub struct Clocks {
    regs: Mmio,
    /// The hints last written, so that a block already running costs no bus access.
    hints: u32,
}

impl Clocks {
    /// Binds to the clock manager and stops the peripheral clocks the suite never uses. The
    /// hints stay as reset left them (every clock running) until [`Clocks::stop_idle`].
    pub fn new(regs: Mmio) -> Self {
        regs.write(r::CLK_ENABLES_REG_OFFSET, 0);
        Self {
            regs,
            hints: regs.read(r::CLK_HINTS_REG_OFFSET),
        }
    }

    /// Lets the hardware stop the clock of every hinted block as soon as it is idle (a block
    /// still working keeps its clock until it is done).
    pub fn stop_idle(&mut self) {
        if self.hints & ALL_HINTS != 0 {
            self.hints &= !ALL_HINTS;
            self.regs.write(r::CLK_HINTS_REG_OFFSET, self.hints);
        }
    }

    /// Starts the clock of `block` and waits until the clock manager reports it running.
    #[inline(never)]
    pub fn run(&mut self, block: Hinted) -> Result<(), ModuleError> {
        let bit = 1 << block as u32;
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
