//! Bounded busy-waits. A benchmark keeps its waits as short as the hardware allows, so the
//! condition is polled eight times before the cycle counter is first read, then four times
//! between checks of it: the common case (the flag is already or soon set) never pays for the
//! bound.

use core::arch::asm;

use cyclebench_modules::ModuleError;

/// Cycles a hardware wait may take before it is reported as a timeout. Far above any
/// operation the suite drives (the slowest, entropy seeding, takes thousands of cycles).
pub const WAIT_LIMIT_CYCLES: u32 = 500_000;

#[inline(always)]
fn mcycle() -> u32 {
    let low: u32;
    // SAFETY: reads the low word of the cycle counter; no memory, no stack.
    unsafe { asm!("csrr {0}, mcycle", out(reg) low, options(nomem, nostack)) };
    low
}

/// Polls `ready` until it returns true; `what` names the awaited event in the timeout error.
#[inline(always)]
pub fn until(what: &'static str, mut ready: impl FnMut() -> bool) -> Result<(), ModuleError> {
    // The common case, the event within a few polls, reads no counter: every poll is a load,
    // a mask and a branch, and the poll that sees the event follows the one before it as
    // closely as the bus allows (a counter read between two polls delayed it by 3 cycles).
    if ready() || ready() || ready() || ready() || ready() || ready() || ready() || ready() {
        return Ok(());
    }
    let start = mcycle();
    loop {
        if ready() || ready() || ready() || ready() {
            return Ok(());
        }
        if mcycle().wrapping_sub(start) > WAIT_LIMIT_CYCLES {
            return Err(ModuleError::Timeout(what));
        }
    }
}
