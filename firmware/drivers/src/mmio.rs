//! Volatile access to a memory-mapped register block.

use core::arch::asm;
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

    /// The address of the register at `offset`, for assembly that moves a block itself.
    #[inline(always)]
    pub fn address(self, offset: usize) -> usize {
        self.base + offset
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

    /// Writes `words` to the consecutive registers from `first`, all loaded from RAM first.
    ///
    /// On this bus a load that follows a store waits for the store's response: moved as
    /// alternating loads and stores a word costs a cycle more than as loads, then stores.
    #[inline(always)]
    pub fn write_consecutive<const N: usize>(self, first: usize, words: &[u32; N]) {
        let words = in_registers(words);
        for (i, &w) in words.iter().enumerate() {
            self.write(first + 4 * i, w);
        }
    }

    /// Writes `words` to the one register at `offset` (a FIFO), all loaded from RAM first (as
    /// [`Self::write_consecutive`]).
    #[inline(always)]
    pub fn write_repeated<const N: usize>(self, offset: usize, words: &[u32; N]) {
        for w in in_registers(words) {
            self.write(offset, w);
        }
    }

    /// Writes `words` to the FIFO register at `offset`, eight at a time as
    /// [`Self::write_repeated`] does, the last few one by one.
    #[inline(always)]
    pub fn write_fifo(self, offset: usize, words: &[u32]) {
        let mut chunks = words.chunks_exact(8);
        for chunk in chunks.by_ref() {
            if let Ok(eight) = <&[u32; 8]>::try_from(chunk) {
                self.write_repeated(offset, eight);
            }
        }
        for &w in chunks.remainder() {
            self.write(offset, w);
        }
    }

    /// Reads the consecutive registers from `first` into `out`: every load first, then the
    /// stores into RAM (as [`Self::write_consecutive`], the other way round).
    #[inline(always)]
    pub fn read_consecutive<const N: usize>(self, first: usize, out: &mut [u32; N]) {
        let mut words = [0; N];
        for (i, w) in words.iter_mut().enumerate() {
            *w = self.read(first + 4 * i);
        }
        *out = in_registers(&words);
    }

    /// Whether bit `bit` of the register at `offset` is set.
    #[inline(always)]
    pub fn bit(self, offset: usize, bit: u32) -> bool {
        self.read(offset) & (1 << bit) != 0
    }
}

/// `words`, loaded into registers at this point: the copy is read before the first asm block,
/// which may touch memory as far as the compiler knows, so every load is issued before
/// anything that follows; each block pins one word in a register. `N` is a constant (4 or 8)
/// at every call site, so this unrolls.
#[inline(always)]
pub fn in_registers<const N: usize>(words: &[u32; N]) -> [u32; N] {
    let mut w = *words;
    for x in w.iter_mut() {
        // SAFETY: an empty instruction sequence; it only claims to change one register.
        unsafe { asm!("/* {0} */", inout(reg) * x, options(nostack, preserves_flags)) };
    }
    w
}

/// Copies `src` into `dst` (the shorter length) eight words at a time, every load of a group
/// before its stores, the way the register helpers move blocks; the last few one by one.
/// Not `copy_from_slice`: that becomes a call to `memcpy`, which on Earl Grey runs from flash
/// and would put its wait states into the measured window of the code that copies.
#[inline(always)]
pub fn copy_words(dst: &mut [u32], src: &[u32]) {
    let len = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..len], &src[..len]);
    let mut to = dst.chunks_exact_mut(8);
    let mut from = src.chunks_exact(8);
    for (d, s) in to.by_ref().zip(from.by_ref()) {
        if let (Ok(d), Ok(s)) = (<&mut [u32; 8]>::try_from(d), <&[u32; 8]>::try_from(s)) {
            *d = in_registers(s);
        }
    }
    for (d, s) in to.into_remainder().iter_mut().zip(from.remainder()) {
        *d = in_registers(&[*s])[0];
    }
}
