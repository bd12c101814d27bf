//! The cycle-accurate Ibex core in cyclebench's own testbench (`sim/ibex/`): RAM and a host
//! link, no accelerators. Every module is software and labelled so; the point of this
//! platform is the software primitives, timed to the cycle by the RTL.

use alloc::vec::Vec;

use cyclebench_drivers::hostlink::HostLink;
use cyclebench_modules::Comm;
use cyclebench_protocol::ModuleInfo;

use super::software_modules::{software, SoftwareModules};
use super::{Platform, Provided};
use crate::software::{SoftAes, SoftCtrDrbg, SoftSha256, SoftSha3};

/// The testbench's host link.
const HOST_LINK: usize = 0x0002_0000;

/// The Ibex simulation platform.
pub struct IbexSim {
    link: HostLink,
    modules: SoftwareModules,
}

impl Platform for IbexSim {
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
    type Sha2 = SoftSha256;
    type Sha3 = SoftSha3;
    type Aes = SoftAes;
    type Rng = SoftCtrDrbg;

    fn take() -> Self {
        Self {
            link: Self::panic_comm(),
            modules: SoftwareModules::new(),
        }
    }

    fn panic_comm() -> HostLink {
        // SAFETY: HOST_LINK is the testbench's host-link block; the suite is single-threaded
        // and the panic path only takes it over when normal execution has ended.
        unsafe { HostLink::new(HOST_LINK) }
    }

    fn stop(success: bool) -> ! {
        Self::panic_comm().exit(if success { 0 } else { 1 });
        loop {
            riscv::asm::wfi();
        }
    }

    fn comm(&mut self) -> &mut dyn Comm {
        &mut self.link
    }
    fn sha2(&mut self) -> Option<Provided<'_, Self::Sha2>> {
        software(&mut self.modules.sha2)
    }
    fn sha3(&mut self) -> Option<Provided<'_, Self::Sha3>> {
        software(&mut self.modules.sha3)
    }
    fn aes(&mut self) -> Option<Provided<'_, Self::Aes>> {
        software(&mut self.modules.aes)
    }
    fn rng(&mut self) -> Option<Provided<'_, Self::Rng>> {
        software(&mut self.modules.rng)
    }
    fn has_entropy(&self) -> bool {
        false
    }

    fn modules(&self) -> Vec<ModuleInfo> {
        SoftwareModules::inventory()
    }
}
