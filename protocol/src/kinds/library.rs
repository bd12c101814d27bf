//! Which software implementation a hash or AES request asks for instead of the platform's
//! module.

/// The field of a hash or AES request that names a [`SoftwareLibrary`].
pub const SOFTWARE_FIELD: &str = "software";

/// A software library of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SoftwareLibrary {
    /// RustCrypto's portable Rust (`sha2`, `sha3`, `aes`), as the platforms without
    /// accelerators use.
    #[cfg_attr(feature = "serde", serde(rename = "rustcrypto"))]
    RustCrypto,
    /// The suite's own fastest implementation, where it has one: SHA3-256 over its
    /// Keccak-f[1600] assembly, AES-128 over its table-based assembly (encryption only). It has
    /// no SHA-256 of its own.
    Own,
}

impl SoftwareLibrary {
    /// The name results files give this library's implementation of `module`, if it has one.
    pub fn implementation_name(self, module: crate::Module) -> Option<&'static str> {
        use crate::Module;
        match (self, module) {
            (Self::RustCrypto, Module::Sha2) => Some("rustcrypto-sha2"),
            (Self::RustCrypto, Module::Sha3) => Some("rustcrypto-sha3"),
            (Self::RustCrypto, Module::Aes) => Some("rustcrypto-aes"),
            (Self::Own, Module::Sha3) => Some("cyclebench-sha3-keccak-asm"),
            (Self::Own, Module::Aes) => Some("cyclebench-aes128-table-asm"),
            (Self::Own, Module::Sha2) | (_, Module::Rng | Module::Entropy | Module::BigNum) => None,
        }
    }

    /// The wire letter after `s`.
    pub(crate) fn letter(self) -> char {
        match self {
            Self::RustCrypto => 'r',
            Self::Own => 'o',
        }
    }

    /// The library a wire letter names.
    pub(crate) fn from_letter(letter: &str) -> Option<Self> {
        match letter {
            "r" => Some(Self::RustCrypto),
            "o" => Some(Self::Own),
            _ => None,
        }
    }
}
