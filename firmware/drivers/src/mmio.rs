//! Volatile access to a memory-mapped register block.

use core::ptr::{read_volatile, write_volatile};

/// A register block at a fixed base address. Every access is a single volatile 32-bit (or,
/// where a FIFO takes bytes, 8-bit) load or store.
#[derive(Clone, Copy)]
pub struct Mmio {
    base: usize,
}

impl Mmio {
    /// Binds to the block at `base`.
    ///
    /// # Safety
    /// `base` must be the address of a device register block that is valid to access with
    /// aligned 32-bit loads and stores, and that no other code drives concurrently.
    pub const unsafe fn new(base: usize) -> Self {
        Self { base }
    }

    /// Reads the register at `offset`.
    #[inline(always)]
    pub fn read(self, offset: usize) -> u32 {
        // SAFETY: `new` guarantees the block is valid; offsets come from the generated maps.
        unsafe { read_volatile((self.base + offset) as *const u32) }
    }

    /// Writes the register at `offset`.
    #[inline(always)]
    pub fn write(self, offset: usize, value: u32) {
        // SAFETY: as for `read`.
        unsafe { write_volatile((self.base + offset) as *mut u32, value) }
    }

    /// Writes one byte at `offset` (byte-wide FIFO writes).
    #[inline(always)]
    pub fn write_byte(self, offset: usize, value: u8) {
        // SAFETY: as for `read`; the caller only uses this on registers that accept byte writes.
        unsafe { write_volatile((self.base + offset) as *mut u8, value) }
    }

    /// Whether bit `bit` of the register at `offset` is set.
    #[inline(always)]
    pub fn bit(self, offset: usize, bit: u32) -> bool {
        self.read(offset) & (1 << bit) != 0
    }
}
