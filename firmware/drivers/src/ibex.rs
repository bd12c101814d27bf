//! Ibex core controls the suite uses that are CSRs rather than MMIO registers.

use core::arch::asm;

/// `cpuctrl`, Ibex's custom control CSR; bit 0 enables the instruction cache on cores built
/// with one (Earl Grey's is) and reads as zero on cores without.
const CPUCTRL_ICACHE_ENABLE: usize = 1;

/// Turns the instruction cache on or off.
///
/// Off, every fetch goes to memory as on a core without a cache: no lookups, no fills
/// (`ibex_icache.sv`), whatever the cache holds. No `fence.i` is needed on the way back: the
/// cache invalidates itself at reset and the suite never writes instructions.
#[inline(always)]
pub fn set_instruction_cache(enabled: bool) {
    if enabled {
        // SAFETY: sets a core control bit; touches no memory, registers or stack.
        unsafe { asm!("csrs 0x7c0, {0}", in(reg) CPUCTRL_ICACHE_ENABLE, options(nomem, nostack)) };
    } else {
        // SAFETY: clears a core control bit; touches no memory, registers or stack.
        unsafe { asm!("csrc 0x7c0, {0}", in(reg) CPUCTRL_ICACHE_ENABLE, options(nomem, nostack)) };
    }
}
