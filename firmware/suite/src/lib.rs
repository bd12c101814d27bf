//! The cyclebench suite: boots, calibrates its cycle measurement, announces itself and serves
//! benchmark requests from the host, one reply per request (or, built with the `selftest`
//! feature, runs its on-target self-tests).
//!
//! A library with one entry point, [`start`], so that an image can carry implementations from
//! outside the tree: the suite's own binary (`main.rs`) starts it with none, and the binary the
//! CLI generates for `run --impl` with the implementations of its run.
#![no_std]

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

// Code no function calls, before every other function in flash, in a build made to show that
// unrelated code moves no measured code (build/layout.rs); empty otherwise.
include!(concat!(env!("OUT_DIR"), "/layout_pad.rs"));

pub use cyclebench_impl::Implementation;
use platform::Platform;

/// Boots the suite and serves requests (or runs the self-tests) for ever; `implementations`
/// are the ones from outside the tree that `impl` and leakage requests may name.
pub fn start(implementations: &'static [Implementation]) -> ! {
    runtime::heap::init();
    let mut platform = platform::Current::take();
    let overhead = cycles::calibrate();
    // The self-tests test the suite's own code only.
    #[cfg(feature = "selftest")]
    {
        let _ = implementations;
        selftest::run(&mut platform, overhead);
    }
    #[cfg(not(feature = "selftest"))]
    serve::run(&mut platform, overhead, implementations)
}
