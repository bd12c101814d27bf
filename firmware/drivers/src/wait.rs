//! Bounded busy-waits. A benchmark keeps its waits as short as the hardware allows, so a wait
//! is a run of polls (a load, a mask and a branch each) with as little else between them as
//! possible: the bound is a count of polls, kept in a register and checked once per eight, not
//! a read of the cycle counter.

use cyclebench_modules::ModuleError;

/// How many polls a wait may take before it is reported as a timeout. Every poll is a bus load
/// of at least three cycles on the chips the suite drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Over 750 k cycles: far above any operation the suite drives but one (the slowest,
    /// entropy seeding, takes thousands).
    Short,
    /// Over 100 M cycles: above the longest program the suite runs on an accelerator (an
    /// RSA-2048 decryption on OTBN, some 17 M cycles).
    Long,
}

impl Limit {
    /// The number of polls.
    #[inline(always)]
    pub const fn polls(self) -> u32 {
        match self {
            Limit::Short => 1 << 18,
            Limit::Long => 1 << 25,
        }
    }
}

/// Polls `ready` until it returns true, at most `limit` polls; `what` names the awaited event
/// in the timeout error.
#[inline(always)]
pub fn until(what: &'static str, limit: Limit, mut ready: impl FnMut() -> bool) -> Result<(), ModuleError> {
    // A poll is a peripheral load, the dependent mask and a branch; anything more between two
    // polls (reading the cycle counter, a limit reloaded from the stack) delays the moment a
    // ready module is seen. So the bound is a count of polls kept in a register, set once after
    // the eighth poll and counted down once per eight; `limit` is a constant at every call, so
    // it only changes the count the register starts from.
    if ready() || ready() || ready() || ready() || ready() || ready() || ready() || ready() {
        return Ok(());
    }
    let mut rounds = limit.polls() / 8;
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
