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
    // A poll is a peripheral load, the dependent mask and a branch; anything more between two
    // polls (reading the cycle counter, a limit reloaded from the stack) delays the moment a
    // ready module is seen. So the bound is a count of polls kept in a register, set once after
    // the eighth poll and counted down once per eight.
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

/// Polls a wait for a long computation may take: over 100 M cycles, above the longest program
/// the suite runs on an accelerator (an RSA-2048 decryption on OTBN, some 17 M cycles).
pub const LONG_WAIT_LIMIT_POLLS: u32 = 1 << 25;

/// [`until`] with the bound [`LONG_WAIT_LIMIT_POLLS`], for a module that computes for millions
/// of cycles. The same polls: the bound only changes the count the register starts from.
#[inline(always)]
pub fn until_long(what: &'static str, mut ready: impl FnMut() -> bool) -> Result<(), ModuleError> {
    if ready() || ready() || ready() || ready() || ready() || ready() || ready() || ready() {
        return Ok(());
    }
    let mut rounds = LONG_WAIT_LIMIT_POLLS / 8;
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
