//! Platforms without accelerators (QEMU `virt`, the Ibex testbench): a board that provides
//! the host link and a way to stop, and every module in software — RustCrypto SHA-2, SHA-3
//! and AES and the suite's CTR_DRBG, each labelled as software. No entropy source.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_modules::{BigNumAccelerator, Comm, ModuleError};
use cyclebench_protocol::{Implementation, ImplementationKind, Module, ModuleInfo};

use super::{entry, Platform, Provided};
use crate::software::{SoftAes, SoftCtrDrbg, SoftSha256, SoftSha3, SoftwareModules};

/// What a board without accelerators contributes: its name, clock, link and stop.
pub trait Board {
    /// Platform name announced in the hello.
    const NAME: &'static str;
    /// CPU clock in Hz.
    const CPU_HZ: u32;
    /// Whether the cycle counter counts real (or faithfully modelled) CPU cycles.
    const CYCLE_ACCURATE: bool;
    /// The link to the host.
    type Comm: Comm;

    /// A fresh handle on the host link.
    fn comm() -> Self::Comm;
    /// Stops the suite for good; `success` becomes the simulator's exit status.
    fn stop(success: bool) -> !;
}

/// The big-number accelerator of a board without one: there is no value of this type.
pub enum NoBigNum {}

impl BigNumAccelerator for NoBigNum {
    const ERROR_BITS: &'static [&'static str] = &[];
    fn write_imem(&mut self, _: u32, _: &[u32]) {
        match *self {}
    }
    fn write_dmem(&mut self, _: u32, _: &[u32]) {
        match *self {}
    }
    fn read_dmem(&mut self, _: u32, _: &mut [u32]) {
        match *self {}
    }
    fn start(&mut self, _: u32) -> Result<(), ModuleError> {
        match *self {}
    }
    fn wait_for_completion(&mut self) -> Result<u32, ModuleError> {
        match *self {}
    }
}

/// A board with every module in software.
pub struct SoftwarePlatform<B: Board> {
    comm: B::Comm,
    software: SoftwareModules,
    rng: SoftCtrDrbg,
}

fn software<T: ?Sized>(module: &mut T) -> Provided<'_, T> {
    Provided {
        module,
        kind: ImplementationKind::Software,
    }
}

impl<B: Board> Platform for SoftwarePlatform<B> {
    const NAME: &'static str = B::NAME;
    const CPU_HZ: u32 = B::CPU_HZ;
    const CYCLE_ACCURATE: bool = B::CYCLE_ACCURATE;
    type Comm = B::Comm;
    type Sha2 = SoftSha256;
    type Sha3 = SoftSha3;
    type Aes = SoftAes;
    type Rng = SoftCtrDrbg;
    type BigNum = NoBigNum;

    fn take() -> Self {
        Self {
            comm: B::comm(),
            software: SoftwareModules::new(),
            rng: SoftCtrDrbg::new(),
        }
    }

    fn panic_comm() -> B::Comm {
        B::comm()
    }

    fn stop(success: bool) -> ! {
        B::stop(success)
    }

    fn comm(&mut self) -> &mut dyn Comm {
        &mut self.comm
    }
    fn sha2(&mut self) -> Provided<'_, Self::Sha2> {
        software(&mut self.software.sha2)
    }
    fn sha3(&mut self) -> Provided<'_, Self::Sha3> {
        software(&mut self.software.sha3)
    }
    fn aes(&mut self) -> Provided<'_, Self::Aes> {
        software(&mut self.software.aes)
    }
    fn rng(&mut self) -> Provided<'_, Self::Rng> {
        software(&mut self.rng)
    }
    fn big_num(&mut self) -> Result<&mut NoBigNum, String> {
        Err(format!("{} has no big-number accelerator (OTBN)", B::NAME))
    }
    fn software(&mut self) -> &mut SoftwareModules {
        &mut self.software
    }
    fn has_entropy(&self) -> bool {
        false
    }

    fn modules(&self) -> Vec<ModuleInfo> {
        let sw = |name: &str| Implementation::Software(String::from(name));
        Vec::from([
            entry(Module::Sha2, sw("rustcrypto-sha2")),
            entry(Module::Sha3, sw("rustcrypto-sha3")),
            entry(Module::Aes, sw("rustcrypto-aes")),
            entry(Module::Rng, sw("ctr-drbg-aes256")),
            entry(Module::Entropy, Implementation::Absent),
            entry(Module::BigNum, Implementation::Absent),
        ])
    }
}
