//! The host link of cyclebench's Ibex testbench (`sim/ibex/`): a transmit register whose
//! bytes appear on the simulator's stdout, a receive queue fed from its stdin, and an exit
//! register that ends the simulation with a status.

use cyclebench_modules::Comm;

use crate::mmio::Mmio;

/// Write: the low byte goes to the host.
const TXDATA: usize = 0x0;
/// Read: bit 0 set while a byte from the host is waiting.
const RXSTATUS: usize = 0x4;
/// Read: pops the next byte from the host.
const RXDATA: usize = 0x8;
/// Write: ends the simulation; the low byte is the simulator's exit status.
const EXIT: usize = 0xc;

/// RXSTATUS: a byte is waiting.
const RX_VALID: u32 = 1 << 0;

/// The host link at a fixed MMIO base address.
pub struct HostLink {
    regs: Mmio,
}

impl HostLink {
    /// Binds the driver to the host link at `base`.
    ///
    /// # Safety
    /// `base` must be the address of the testbench's host-link block that nothing else drives.
    pub const unsafe fn new(base: usize) -> Self {
        // SAFETY: forwarded from the caller.
        Self {
            regs: unsafe { Mmio::new(base) },
        }
    }

    /// Ends the simulation with `status` (0 = success).
    pub fn exit(&self, status: u8) {
        self.regs.write(EXIT, u32::from(status));
    }
}

impl Comm for HostLink {
    fn write_byte(&mut self, byte: u8) {
        // The testbench takes a byte per write; there is no queue to wait for.
        self.regs.write(TXDATA, u32::from(byte));
    }

    fn read_byte(&mut self) -> u8 {
        while self.regs.read(RXSTATUS) & RX_VALID == 0 {}
        // Only the low byte carries data once RX_VALID was seen.
        (self.regs.read(RXDATA) & 0xff) as u8
    }

    fn flush(&mut self) {}
}
