//! The module set of a platform without accelerators: RustCrypto SHA-2, SHA-3 and AES and the
//! suite's CTR_DRBG, every one labelled as software. No entropy source.

use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_protocol::{Implementation, ImplementationKind, Module, ModuleInfo};

use super::{entry, Provided};
use crate::software::{SoftAes, SoftCtrDrbg, SoftSha256, SoftSha3};

/// Software implementations of every module.
pub struct SoftwareModules {
    /// SHA-256.
    pub sha2: SoftSha256,
    /// SHA3-256.
    pub sha3: SoftSha3,
    /// AES with the five modes.
    pub aes: SoftAes,
    /// CTR_DRBG with AES-256.
    pub rng: SoftCtrDrbg,
}

impl SoftwareModules {
    /// Fresh instances of every module.
    pub fn new() -> Self {
        Self {
            sha2: SoftSha256::new(),
            sha3: SoftSha3::new(),
            aes: SoftAes::new(),
            rng: SoftCtrDrbg::new(),
        }
    }

    /// The hello's inventory for a platform that runs all modules in software.
    pub fn inventory() -> Vec<ModuleInfo> {
        let sw = |name: &str| Implementation::Software(String::from(name));
        Vec::from([
            entry(Module::Sha2, sw("rustcrypto-sha2")),
            entry(Module::Sha3, sw("rustcrypto-sha3")),
            entry(Module::Aes, sw("rustcrypto-aes")),
            entry(Module::Rng, sw("ctr-drbg-aes256")),
            entry(Module::Entropy, Implementation::Absent),
        ])
    }
}

/// Hands out a software module.
pub fn software<T: ?Sized>(module: &mut T) -> Option<Provided<'_, T>> {
    Some(Provided {
        module,
        kind: ImplementationKind::Software,
    })
}
