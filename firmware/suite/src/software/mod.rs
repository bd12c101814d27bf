//! Software implementations of the module traits: the modules of platforms without
//! accelerators, and on a chip with them the same operations in software on the same core.
//! Results from these are labelled software.

mod aes;
mod ctr_drbg;
mod hash;

pub use aes::SoftAes;
pub use ctr_drbg::SoftCtrDrbg;
pub use hash::{OwnSha3, SoftSha256, SoftSha3};

use cyclebench_protocol::SoftwareLibrary;

/// The software hash and AES modules: RustCrypto's, and the suite's own where it has them.
pub struct SoftwareModules {
    /// SHA-256 (RustCrypto).
    pub sha2: SoftSha256,
    /// SHA3-256 (RustCrypto).
    pub sha3: SoftSha3,
    /// AES (RustCrypto).
    pub aes: SoftAes,
    /// SHA3-256 over the suite's Keccak-f[1600] assembly, where the build has it.
    pub own_sha3: Option<OwnSha3>,
    /// AES-128 encryption over the suite's table-based assembly.
    pub own_aes: SoftAes,
}

impl SoftwareModules {
    /// Fresh modules.
    pub fn new() -> Self {
        Self {
            sha2: SoftSha256::new(),
            sha3: SoftSha3::new(),
            aes: SoftAes::new(SoftwareLibrary::RustCrypto),
            own_sha3: OwnSha3::new(),
            own_aes: SoftAes::new(SoftwareLibrary::Own),
        }
    }

    /// The AES engine of `library`.
    pub fn aes(&mut self, library: SoftwareLibrary) -> &mut SoftAes {
        match library {
            SoftwareLibrary::RustCrypto => &mut self.aes,
            SoftwareLibrary::Own => &mut self.own_aes,
        }
    }
}
