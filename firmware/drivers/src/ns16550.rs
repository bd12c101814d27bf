//! NS16550-compatible UART (QEMU `virt`), byte-wide registers.

use core::ptr::{read_volatile, write_volatile};

use cyclebench_modules::Comm;

/// Receive buffer (read) / transmit holding register (write).
const RBR_THR: usize = 0;
/// FIFO control register (write).
const FCR: usize = 2;
/// Line control register.
const LCR: usize = 3;
/// Line status register.
const LSR: usize = 5;

/// LSR: a received byte is waiting.
const LSR_DATA_READY: u8 = 1 << 0;
/// LSR: the transmit holding register can take a byte.
const LSR_THR_EMPTY: u8 = 1 << 5;
/// LSR: transmitter completely idle.
const LSR_TX_IDLE: u8 = 1 << 6;
/// LCR: 8 data bits, no parity, 1 stop bit.
const LCR_8N1: u8 = 0b11;
/// FCR: enable and clear both FIFOs.
const FCR_ENABLE_CLEAR: u8 = 0b111;

/// An NS16550 UART at a fixed MMIO base address.
pub struct Ns16550 {
    base: usize,
}

impl Ns16550 {
    /// Binds the driver to the UART at `base` and configures 8N1 with FIFOs.
    ///
    /// # Safety
    /// `base` must be the address of an NS16550 register block that nothing else accesses.
    pub unsafe fn new(base: usize) -> Self {
        let uart = Self { base };
        uart.write(LCR, LCR_8N1);
        uart.write(FCR, FCR_ENABLE_CLEAR);
        uart
    }

    fn read(&self, offset: usize) -> u8 {
        // SAFETY: `new` guarantees `base` points at this UART's byte-wide registers.
        unsafe { read_volatile((self.base + offset) as *const u8) }
    }

    fn write(&self, offset: usize, value: u8) {
        // SAFETY: `new` guarantees `base` points at this UART's byte-wide registers.
        unsafe { write_volatile((self.base + offset) as *mut u8, value) }
    }
}

impl Comm for Ns16550 {
    fn write_byte(&mut self, byte: u8) {
        while self.read(LSR) & LSR_THR_EMPTY == 0 {}
        self.write(RBR_THR, byte);
    }

    fn read_byte(&mut self) -> u8 {
        while self.read(LSR) & LSR_DATA_READY == 0 {}
        self.read(RBR_THR)
    }

    fn flush(&mut self) {
        while self.read(LSR) & LSR_TX_IDLE == 0 {}
    }
}
