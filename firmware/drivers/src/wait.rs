//! Bounded busy-waits. A benchmark keeps its waits as short as the hardware allows, so a wait
//! is a run of polls (a load, a mask and a branch each) with as little else between them as
//! possible: the bound is a count of polls, kept in a register and checked once per eight, not
//! a read of the cycle counter.

use cyclebench_modules::ModuleError;

/// Polls a hardware wait may take before it is reported as a timeout. Every poll is a bus load
/// of at least three cycles on the chips the suite drives, so this is over 750 k cycles: far
/// above any operation the suite drives (the slowest, entropy seeding, takes thousands).
pub const WAIT_LIMIT_POLLS: u32 = 1 << 18;

/// Polls `ready` until it returns true; `what` names the awaited event in the timeout error.
#[inline(always)]
pub fn until(what: &'static str, mut ready: impl FnMut() -> bool) -> Result<(), ModuleError> {
    // Measured in the Earl Grey model's instruction trace: a poll costs 6 cycles (load 3, the
    // dependent mask 2, branch 1). Reading the cycle counter every four polls, with the limit
    // reloaded from the stack, put 13 cycles between two polls; the counter set once after the
    // eighth poll and counted down once per eight adds 1 cycle there and 3 per eight polls.
    if ready() || ready() || ready() || ready() || ready() || ready() || ready() || ready() {
        return Ok(());
    }
    let mut rounds = WAIT_LIMIT_POLLS / 8;
    loop {
        if ready() || ready() || ready() || ready() || ready() || ready() || ready() || ready() {
            return Ok(());
        }
        rounds -= 1;
        if rounds == 0 {
            return Err(ModuleError::Timeout(what));
        }
    }
}
