//! The cycle-accurate Ibex core in cyclebench's own testbench (`sim/ibex/`): RAM and a host
//! link, no accelerators, so every module is software. The point of this platform is the
//! software primitives, timed to the cycle by the RTL.

use cyclebench_drivers::hostlink::HostLink;

use super::software_modules::{Board, SoftwarePlatform};

/// The testbench's host link.
const HOST_LINK: usize = 0x0002_0000;

/// The Ibex testbench.
pub struct Testbench;

/// The Ibex simulation platform.
pub type IbexSim = SoftwarePlatform<Testbench>;

impl Board for Testbench {
    const NAME: &'static str = if cfg!(target_feature = "zbb") {
        "ibex-sim-zbb"
    } else {
        "ibex-sim"
    };
    // The model has no real clock; 50 MHz is the nominal clock of Ibex's simple system and
    // only matters for converting cycles to time.
    const CPU_HZ: u32 = 50_000_000;
    const CYCLE_ACCURATE: bool = true;
    type Comm = HostLink;

    fn comm() -> HostLink {
        // SAFETY: HOST_LINK is the testbench's host-link block; the suite is single-threaded
        // and the panic path only takes it over when normal execution has ended.
        unsafe { HostLink::new(HOST_LINK) }
    }

    fn stop(success: bool) -> ! {
        Self::comm().exit(if success { 0 } else { 1 });
        loop {
            riscv::asm::wfi();
        }
    }
}

/// The platform this build runs on.
pub type Current = IbexSim;
