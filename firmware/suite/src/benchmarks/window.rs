//! The measured window around one call of a harness's subject, shared by every kind that runs
//! primitives, so a primitive's window holds the same instructions whichever kind times it.

use cyclebench_swcrypto::harness::Subject;

use crate::cycles::stamp;
use crate::stack;

/// One timed call, in a function of its own: its code depends only on the subject's `call`,
/// never on the code around it (a window inlined into its caller changed by a cycle or two
/// whenever that caller's register allocation did, with any edit of the caller), and it is
/// always entered by the same jump whatever path the caller took before it (Ibex's prefetch
/// buffer carries the state of that path into the instructions after it, a difference the
/// constant-time test would report as a leak). The answer comes first: the call leaves it in
/// the register it is returned in, so returning it costs no moves.
#[inline(never)]
#[link_section = crate::placement::measured_section!()]
pub fn timed<S: Subject>(subject: &mut S) -> (u32, u32) {
    let start = stamp();
    let answer = subject.call();
    let end = stamp();
    // A window longer than 32 bits counts is far beyond what anything timed here takes:
    // saturated, it is rejected as too long.
    (answer, u32::try_from(end.since(start)).unwrap_or(u32::MAX))
}

/// [`timed`], also returning the bytes of stack the call used: the stack is painted below this
/// function's own frame, so the frame is not counted with the call's.
#[inline(never)]
#[link_section = crate::placement::measured_section!()]
pub fn timed_with_stack<S: Subject>(subject: &mut S) -> (u32, u32, u32) {
    let sp = stack::paint();
    let start = stamp();
    let answer = subject.call();
    let end = stamp();
    let used = stack::used(sp);
    (answer, u32::try_from(end.since(start)).unwrap_or(u32::MAX), used)
}
