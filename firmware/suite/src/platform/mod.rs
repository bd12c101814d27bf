//! Platforms: which implementation serves each module, the UART, clock and memory layout.
//! Exactly one is compiled in, selected by a cargo feature.

use alloc::vec::Vec;

use cyclebench_modules::{AesEngine, Comm, Hasher, Rng};
use cyclebench_protocol::{Implementation, ImplementationKind, Module, ModuleInfo};

#[cfg(feature = "qemu-virt")]
mod qemu_virt;
#[cfg(feature = "qemu-virt")]
pub use qemu_virt::QemuVirt as Current;

#[cfg(feature = "ibex-sim")]
mod ibex_sim;
#[cfg(feature = "ibex-sim")]
pub use ibex_sim::IbexSim as Current;

#[cfg(any(feature = "qemu-virt", feature = "ibex-sim"))]
mod software_modules;

#[cfg(feature = "earlgrey")]
mod earlgrey;
#[cfg(feature = "earlgrey")]
pub use earlgrey::EarlGrey as Current;

/// A module implementation together with what it is (hardware block or software).
pub struct Provided<'a, T: ?Sized> {
    /// The implementation.
    pub module: &'a mut T,
    /// Hardware or software, reported with every result.
    pub kind: ImplementationKind,
}

/// What the suite needs from a platform.
pub trait Platform {
    /// Platform name announced in the hello.
    const NAME: &'static str;
    /// CPU clock in Hz.
    const CPU_HZ: u32;
    /// Whether the cycle counter counts real (or faithfully modelled) CPU cycles.
    const CYCLE_ACCURATE: bool;
    /// The link to the host.
    type Comm: Comm;
    /// SHA-256 implementation. Concrete types (not trait objects) keep the measured loops
    /// free of indirect calls.
    type Sha2: Hasher;
    /// SHA3-256 implementation.
    type Sha3: Hasher;
    /// AES implementation.
    type Aes: AesEngine;
    /// Random bit generator implementation.
    type Rng: Rng;

    /// Sets up the platform and its modules; called once at start-up.
    fn take() -> Self;
    /// A fresh handle on the host link for the panic handler (which cannot borrow the platform).
    fn panic_comm() -> Self::Comm;
    /// Stops the suite for good; `success` becomes the simulator's exit status where it has one.
    fn stop(success: bool) -> !;

    /// The host link.
    fn comm(&mut self) -> &mut dyn Comm;
    /// The SHA-256 module.
    fn sha2(&mut self) -> Provided<'_, Self::Sha2>;
    /// The SHA3-256 module.
    fn sha3(&mut self) -> Provided<'_, Self::Sha3>;
    /// The AES module.
    fn aes(&mut self) -> Provided<'_, Self::Aes>;
    /// The random bit generator.
    fn rng(&mut self) -> Provided<'_, Self::Rng>;
    /// Whether `rng` can be seeded from an entropy source.
    fn has_entropy(&self) -> bool;
    /// Inventory for the hello: every module and what implements it.
    fn modules(&self) -> Vec<ModuleInfo>;
}

/// Builds an inventory entry.
pub fn entry(module: Module, implementation: Implementation) -> ModuleInfo {
    ModuleInfo { module, implementation }
}
