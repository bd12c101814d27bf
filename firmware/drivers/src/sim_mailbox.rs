//! The fast host link of cyclebench's Earl Grey simulation build
//! (`sim/earlgrey/patches/07-fast-link.patch`): a mailbox in the testbench's simulation SRAM,
//! which the simulator itself reads and writes through the RAM's backdoor and connects to a
//! PTY. A line costs the suite a few stores instead of ~700 cycles per byte on the UART, and
//! the simulator's side costs no simulated time. Not a device of the chip: a board has none.
//!
//! Layout (byte offsets; `sim_mailbox.h` of the patch says the same):
//!
//! | offset | register | written by |
//! |---|---|---|
//! | 0x000 | `TX_LEN`: bytes waiting in `TX_DATA` for the host, 0 = free | suite (n), testbench (0) |
//! | 0x004 | `RX_LEN`: bytes waiting in `RX_DATA` for the suite, 0 = free | testbench (n), suite (0) |
//! | 0x200 | `TX_DATA`: [`CAPACITY`] bytes, suite → host | suite |
//! | 0x400 | `RX_DATA`: [`CAPACITY`] bytes, host → suite | testbench |
//!
//! Each side writes a length only after the data and touches a buffer only while its length
//! says the buffer is its own, so neither overwrites what the other still reads. A chunk is a
//! line (up to and including its `\n`) or, for longer byte runs, [`CAPACITY`] bytes.

use cyclebench_modules::Comm;

use crate::mmio::Mmio;

const TX_LEN: usize = 0x000;
const RX_LEN: usize = 0x004;
const TX_DATA: usize = 0x200;
const RX_DATA: usize = 0x400;

/// Bytes in each data buffer: a whole protocol line (at most `MAX_LINE_LEN` = 480 bytes and
/// its newline) travels as one chunk.
pub const CAPACITY: usize = 512;

/// The mailbox at a fixed base address.
pub struct SimMailbox {
    regs: Mmio,
    /// Bytes written into `TX_DATA` and not yet posted.
    tx_len: usize,
    /// Bytes of the current `RX_DATA` chunk already returned.
    rx_pos: usize,
    /// Length of the current `RX_DATA` chunk (0: none held).
    rx_len: usize,
}

impl SimMailbox {
    /// Binds the driver to the mailbox at `base`.
    ///
    /// # Safety
    /// `base` must be the address of the testbench's mailbox, and no other code may drive it
    /// concurrently (a fresh handle after a panic only ever sends).
    pub const unsafe fn new(base: usize) -> Self {
        Self {
            // SAFETY: forwarded from the caller.
            regs: unsafe { Mmio::new(base) },
            tx_len: 0,
            rx_pos: 0,
            rx_len: 0,
        }
    }

    /// Hands the bytes written so far to the testbench.
    fn post(&mut self) {
        // The length last: the testbench reads the data once it sees it.
        self.regs.write(TX_LEN, self.tx_len as u32);
        self.tx_len = 0;
    }

    /// Waits until the testbench has taken the last posted chunk (volatile reads: it clears
    /// `TX_LEN` behind the compiler's back).
    fn wait_tx_free(&self) {
        while self.regs.read(TX_LEN) != 0 {}
    }
}

impl Comm for SimMailbox {
    fn write_byte(&mut self, byte: u8) {
        if self.tx_len == 0 {
            self.wait_tx_free();
        }
        self.regs.write_byte(TX_DATA + self.tx_len, byte);
        self.tx_len += 1;
        if byte == b'\n' || self.tx_len == CAPACITY {
            self.post();
        }
    }

    fn read_byte(&mut self) -> u8 {
        if self.rx_pos == self.rx_len {
            let len = loop {
                let len = self.regs.read(RX_LEN) as usize;
                if len != 0 {
                    break len;
                }
            };
            self.rx_len = len.min(CAPACITY);
            self.rx_pos = 0;
        }
        let word = self.regs.read(RX_DATA + (self.rx_pos & !3));
        let byte = (word >> (8 * (self.rx_pos & 3))) as u8;
        self.rx_pos += 1;
        if self.rx_pos == self.rx_len {
            // Every byte is read: the buffer goes back to the testbench.
            self.regs.write(RX_LEN, 0);
        }
        byte
    }

    fn write_line(&mut self, bytes: &[u8]) {
        let len = bytes.len() + 1;
        if self.tx_len != 0 || len > CAPACITY {
            bytes.iter().for_each(|&b| self.write_byte(b));
            self.write_byte(b'\n');
            return;
        }
        // A whole line in one chunk, four bytes per store: a reply costs the suite a few
        // dozen stores rather than a loop over its bytes.
        self.wait_tx_free();
        let mut word = 0u32;
        for (i, &byte) in bytes.iter().chain(core::iter::once(&b'\n')).enumerate() {
            word |= u32::from(byte) << (8 * (i & 3));
            if i & 3 == 3 {
                self.regs.write(TX_DATA + (i & !3), word);
                word = 0;
            }
        }
        if len & 3 != 0 {
            self.regs.write(TX_DATA + (len & !3), word);
        }
        self.tx_len = len;
        self.post();
    }

    fn flush(&mut self) {
        if self.tx_len != 0 {
            self.post();
        }
        self.wait_tx_free();
    }
}
