//! The cyclebench suite: boots, calibrates its cycle measurement, announces itself and serves
//! benchmark requests from the host, one reply per request (or, built with the `selftest`
//! feature, runs its on-target self-tests).
#![no_std]
#![no_main]

extern crate alloc;

mod benchmarks;
mod cycles;
// The self-test build replaces the main loop, leaving its reader unused.
#[cfg_attr(feature = "selftest", allow(dead_code))]
mod line;
mod pin;
mod placement;
mod platform;
mod runtime;
#[cfg_attr(feature = "selftest", allow(dead_code))]
mod serve;
mod stack;
// Software modules stand in where a platform lacks the accelerator (unused on the others).
#[allow(dead_code)]
mod software;

#[cfg(feature = "selftest")]
mod selftest;
#[cfg(all(feature = "selftest", feature = "ibex-sim"))]
mod timing_check;

use platform::Platform;

#[riscv_rt::entry]
fn main() -> ! {
    runtime::heap::init();
    let mut platform = platform::Current::take();
    let overhead = cycles::calibrate();
    #[cfg(feature = "selftest")]
    selftest::run(&mut platform, overhead);
    #[cfg(not(feature = "selftest"))]
    serve::run(&mut platform, overhead)
}
