//! Software implementations of the module traits: the modules of platforms without
//! accelerators, and on a chip with them the same operations in software on the same core.
//! Results from these are labelled software.

mod aes;
mod ctr_drbg;
mod hash;

pub use aes::SoftAes;
pub use ctr_drbg::SoftCtrDrbg;
pub use hash::{SoftSha256, SoftSha3};

/// The software hash and AES modules (RustCrypto).
pub struct SoftwareModules {
    /// SHA-256.
    pub sha2: SoftSha256,
    /// SHA3-256.
    pub sha3: SoftSha3,
    /// AES.
    pub aes: SoftAes,
}

impl SoftwareModules {
    /// Fresh modules.
    pub fn new() -> Self {
        Self {
            sha2: SoftSha256::new(),
            sha3: SoftSha3::new(),
            aes: SoftAes::new(),
        }
    }
}
