//! OpenTitan UART (comm module).

use cyclebench_modules::Comm;

use super::regs::uart as r;
use crate::mmio::Mmio;

/// The UART, configured 8N1 at a baud rate derived from the peripheral clock.
pub struct Uart {
    regs: Mmio,
}

impl Uart {
    /// Configures the UART at `regs` for `baud` with a `peripheral_hz` clock: NCO =
    /// 2^20 · baud / f_pclk (thesis 5.1.5), TX and RX enabled, both FIFOs reset.
    pub fn new(regs: Mmio, baud: u32, peripheral_hz: u32) -> Self {
        let nco = ((u64::from(baud) << 20) / u64::from(peripheral_hz.max(1))) as u32 & r::CTRL_NCO_MASK;
        regs.write(
            r::CTRL_REG_OFFSET,
            (nco << r::CTRL_NCO_OFFSET) | (1 << r::CTRL_TX_BIT) | (1 << r::CTRL_RX_BIT),
        );
        regs.write(
            r::FIFO_CTRL_REG_OFFSET,
            (1 << r::FIFO_CTRL_RXRST_BIT) | (1 << r::FIFO_CTRL_TXRST_BIT),
        );
        Self { regs }
    }
}

impl Comm for Uart {
    fn write_byte(&mut self, byte: u8) {
        while self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_TXFULL_BIT) {}
        self.regs.write(r::WDATA_REG_OFFSET, u32::from(byte));
    }

    fn read_byte(&mut self) -> u8 {
        while self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_RXEMPTY_BIT) {}
        (self.regs.read(r::RDATA_REG_OFFSET) & r::RDATA_RDATA_MASK) as u8
    }

    fn flush(&mut self) {
        while !self.regs.bit(r::STATUS_REG_OFFSET, r::STATUS_TXIDLE_BIT) {}
    }
}
