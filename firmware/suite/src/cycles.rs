//! Cycle measurement: window boundaries of one instruction each, the boot-time calibration of
//! what an empty window costs, and the 64-bit count since reset.

use core::arch::asm;

/// Reads the 64-bit machine cycle counter: the cycles since reset, for the status reply.
///
/// The read is a single asm block (`mcycleh`, `mcycle`, `mcycleh`, branch); the retry only
/// runs when the low word wrapped between the reads.
#[inline(always)]
pub fn now() -> u64 {
    let hi: u32;
    let lo: u32;
    // SAFETY: reads the cycle counter CSRs only; touches no memory and no stack.
    unsafe {
        asm!(
            "3:",
            "csrr {hi}, mcycleh",
            "csrr {lo}, mcycle",
            "csrr {check}, mcycleh",
            "bne {hi}, {check}, 3b",
            hi = out(reg) hi,
            lo = out(reg) lo,
            check = out(reg) _,
            options(nostack),
        );
    }
    (u64::from(hi) << 32) | u64::from(lo)
}

/// A measurement-window boundary: the low word of the cycle counter.
///
/// One `csrr`, so a window costs one instruction at each end. Every window the suite measures
/// lasts far fewer than 2^32 cycles (hours at the chip's clock), so the difference of two low
/// words, taken modulo 2^32, is exact.
#[derive(Clone, Copy)]
pub struct Stamp(u32);

impl Stamp {
    /// Cycles from `earlier` to this stamp.
    #[inline(always)]
    pub fn since(self, earlier: Stamp) -> u64 {
        u64::from(self.0.wrapping_sub(earlier.0))
    }
}

/// Takes a window boundary. The asm block is not `nomem`, so the compiler does not move
/// memory or MMIO accesses across it.
#[inline(always)]
pub fn stamp() -> Stamp {
    let low: u32;
    // SAFETY: reads the cycle counter CSR only; touches no memory and no stack.
    unsafe { asm!("csrr {0}, mcycle", out(reg) low, options(nostack)) };
    Stamp(low)
}

/// Cycles between two back-to-back reads: the minimum over many tries, so that an interrupt
/// or a counter wrap in one try does not inflate it.
///
/// It runs where measured code runs: from flash (on Earl Grey) the empty window's cost
/// depends on where the linker places it, so calibrating elsewhere would not measure the
/// overhead the benchmarks pay.
#[inline(never)]
#[link_section = crate::placement::measured_section!()]
pub fn calibrate() -> u32 {
    let mut best = u64::MAX;
    for _ in 0..64 {
        let start = stamp();
        let end = stamp();
        best = best.min(end.since(start));
    }
    u32::try_from(best).unwrap_or(u32::MAX)
}

/// Timestamps taken at phase boundaries; phase `i` lasts from mark `i` to mark `i + 1`.
pub struct Marks<const N: usize> {
    at: [u32; N],
    next: usize,
}

impl<const N: usize> Marks<N> {
    /// No marks yet.
    #[inline(always)]
    pub fn new() -> Self {
        Self { at: [0; N], next: 0 }
    }

    /// Records the current cycle count as the next boundary.
    #[inline(always)]
    pub fn mark(&mut self) {
        let Stamp(t) = stamp();
        if let Some(slot) = self.at.get_mut(self.next) {
            *slot = t;
        }
        self.next += 1;
    }

    /// Lengths of the `N - 1` phases between consecutive marks.
    ///
    /// Every timestamp first passes through an empty asm block, ordered after the last mark:
    /// the subtractions depend on its outputs, so the compiler cannot schedule them into a
    /// measured window (left alone, it fills the last window's load latencies with them).
    pub fn phases(mut self) -> [u64; N] {
        for t in self.at.iter_mut() {
            // SAFETY: an empty instruction sequence; it only claims to change one register.
            unsafe { asm!("/* {t} */", t = inout(reg) * t, options(nostack)) };
        }
        let mut out = [0; N];
        for i in 1..N {
            out[i - 1] = Stamp(self.at[i]).since(Stamp(self.at[i - 1]));
        }
        out
    }
}

/// Spins for at least `cycles` cycles (an unmeasured pause between phases).
pub fn pause(cycles: u32) {
    let start = stamp();
    while stamp().since(start) < u64::from(cycles) {}
}

/// Executes exactly `count` `nop`s (at most [`cyclebench_protocol::MAX_STATUS_PAD`]) after a
/// fixed-cost jump into a nop sled, so that a status read can be placed to the cycle
/// (thesis Fig. 6.7).
#[inline(always)]
pub fn nops(count: u16) {
    let count = u32::from(count.min(cyclebench_protocol::MAX_STATUS_PAD));
    // SAFETY: jumps into the sled below, `count` nops before its end, and falls out of it;
    // touches only the two scratch registers.
    unsafe {
        asm!(
            ".option push",
            ".option norvc",
            "la {target}, 4f",
            "slli {offset}, {count}, 2",
            "sub {target}, {target}, {offset}",
            "jr {target}",
            ".rept 256",
            "nop",
            ".endr",
            "4:",
            ".option pop",
            count = in(reg) count,
            target = out(reg) _,
            offset = out(reg) _,
            options(nostack),
        );
    }
}
