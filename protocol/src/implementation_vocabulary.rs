//! The vocabulary of implementations from outside the tree (`cyclebench run --impl DIR`),
//! defined once for every side that speaks it: the interfaces an implementation provides, the
//! algorithms the suite checks one against, and the secrets a constant-time test varies.
//!
//! The host reads `impl.toml` and writes the image's registry with these names, symbols and
//! sizes; the suite reports by them; the report groups by them. Every list is an exhaustive
//! enum, so an interface or an algorithm added here does not compile until each of those
//! places handles it.

#[cfg(feature = "serde")]
use alloc::string::String;

/// Bytes of a hash's digest where the implementation declares none.
pub const DEFAULT_DIGEST_BYTES: usize = 32;

/// Bytes of a block cipher's block where the implementation declares none.
pub const DEFAULT_BLOCK_BYTES: usize = 16;

/// One of the fixed interfaces an implementation provides (`firmware/impl/include/cyclebench.h`
/// in C, the traits of the crate `cyclebench-impl` in Rust). Its JSON name is its wire name
/// ([`Interface::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub enum Interface {
    /// A hash function (SUPERCOP's `crypto_hash`).
    Hash,
    /// A block cipher's encryption, with its key schedule timed apart.
    BlockCipher,
    /// A stream cipher (SUPERCOP's `crypto_stream_xor`).
    Stream,
    /// Anything that fits no other interface: bytes in, bytes out, with an optional key.
    Function,
}

impl Interface {
    /// Every interface.
    pub const ALL: [Self; 4] = [Self::Hash, Self::BlockCipher, Self::Stream, Self::Function];

    /// Stable name, as in `impl.toml`, on the wire and in results files.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Hash => "hash",
            Self::BlockCipher => "block-cipher",
            Self::Stream => "stream",
            Self::Function => "function",
        }
    }

    /// The interface called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The C functions an implementation of it defines, in the order the suite calls them.
    pub const fn functions(self) -> &'static [CFunction] {
        match self {
            Self::Hash => &[CFunction::HASH],
            Self::BlockCipher => &[CFunction::BLOCK_SETUP, CFunction::BLOCK_ENCRYPT],
            Self::Stream => &[CFunction::STREAM_XOR],
            Self::Function => &[CFunction::FUNCTION],
        }
    }

    /// The trait of the crate `cyclebench-impl` a Rust type implements for it.
    pub const fn rust_trait(self) -> &'static str {
        match self {
            Self::Hash => "Hash",
            Self::BlockCipher => "BlockCipher",
            Self::Stream => "StreamCipher",
            Self::Function => "Function",
        }
    }

    /// The function of the crate `cyclebench-impl` that makes the registry's entry of a Rust
    /// type implementing [`Interface::rust_trait`].
    pub const fn rust_constructor(self) -> &'static str {
        match self {
            Self::Hash => "hash_interface",
            Self::BlockCipher => "block_cipher_interface",
            Self::Stream => "stream_interface",
            Self::Function => "function_interface",
        }
    }

    /// The sizes an implementation of it declares, in the order `impl.toml` is checked, each
    /// with the bytes it has where none is declared (`None`: it must be declared).
    pub const fn sizes(self) -> &'static [(DeclaredSize, Option<usize>)] {
        match self {
            Self::Hash => &[(DeclaredSize::Output, Some(DEFAULT_DIGEST_BYTES))],
            Self::BlockCipher => &[
                (DeclaredSize::Key, None),
                (DeclaredSize::Context, None),
                (DeclaredSize::Block, Some(DEFAULT_BLOCK_BYTES)),
            ],
            Self::Stream => &[(DeclaredSize::Key, None), (DeclaredSize::Nonce, None)],
            // A function without a key declares none: its key is then empty.
            Self::Function => &[(DeclaredSize::Output, None), (DeclaredSize::Key, Some(0))],
        }
    }

    /// Whether an implementation of it declares `size`.
    pub fn declares(self, size: DeclaredSize) -> bool {
        self.sizes().iter().any(|(s, _)| *s == size)
    }

    /// The bytes `size` has where an implementation declares none; `None` where it must be
    /// declared, or the interface has no such size.
    pub fn default_bytes(self, size: DeclaredSize) -> Option<usize> {
        self.sizes()
            .iter()
            .find(|(s, _)| *s == size)
            .and_then(|(_, default)| *default)
    }

    /// The inputs its constant-time test may vary: data where it takes data, the key where it
    /// takes one. A function declares one of the two.
    pub const fn secrets(self) -> &'static [Secret] {
        match self {
            Self::Hash => &[Secret::Data],
            Self::BlockCipher | Self::Stream | Self::Function => &[Secret::Key, Secret::Data],
        }
    }
}

/// A C function an interface consists of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CFunction {
    /// Its name in `cyclebench.h` (renamed apart per implementation when compiled).
    pub symbol: &'static str,
    /// Its parameters and result as a Rust `extern "C"` declaration spells them: what the
    /// generated registry declares. They must be those of the function type the registry
    /// stores it as (`cyclebench_impl::HashFn`, …), or the generated crate does not compile.
    pub rust_signature: &'static str,
}

impl CFunction {
    /// `crypto_hash(out, in, inlen)`, interface [`Interface::Hash`].
    pub const HASH: Self = Self {
        symbol: "crypto_hash",
        rust_signature: "(out: *mut u8, input: *const u8, len: u64) -> i32",
    };
    /// `crypto_block_setup(context, key)`, the key schedule of [`Interface::BlockCipher`].
    pub const BLOCK_SETUP: Self = Self {
        symbol: "crypto_block_setup",
        rust_signature: "(context: *mut u8, key: *const u8) -> i32",
    };
    /// `crypto_block_encrypt(context, out, in)`, one block of [`Interface::BlockCipher`].
    pub const BLOCK_ENCRYPT: Self = Self {
        symbol: "crypto_block_encrypt",
        rust_signature: "(context: *const u8, out: *mut u8, input: *const u8) -> i32",
    };
    /// `crypto_stream_xor(c, m, mlen, n, k)`, interface [`Interface::Stream`].
    pub const STREAM_XOR: Self = Self {
        symbol: "crypto_stream_xor",
        rust_signature: "(out: *mut u8, input: *const u8, len: u64, nonce: *const u8, key: *const u8) -> i32",
    };
    /// `crypto_function(out, in, inlen, key)`, interface [`Interface::Function`].
    pub const FUNCTION: Self = Self {
        symbol: "crypto_function",
        rust_signature: "(out: *mut u8, input: *const u8, len: usize, key: *const u8) -> i32",
    };
}

/// A size an implementation declares: in `impl.toml` for C, by the trait's constants (or its
/// context type) for Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeclaredSize {
    /// Bytes of output: a hash's digest, a function's output.
    Output,
    /// Bytes of the key.
    Key,
    /// Bytes of a stream cipher's nonce.
    Nonce,
    /// Bytes of a block cipher's context, which its key schedule fills.
    Context,
    /// Bytes of a block cipher's block.
    Block,
}

impl DeclaredSize {
    /// Every size.
    pub const ALL: [Self; 5] = [Self::Output, Self::Key, Self::Nonce, Self::Context, Self::Block];

    /// Its key in `impl.toml`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Output => "output_bytes",
            Self::Key => "key_bytes",
            Self::Nonce => "nonce_bytes",
            Self::Context => "context_bytes",
            Self::Block => "block_bytes",
        }
    }
}

/// A standard algorithm the suite computes itself, against which every output of an
/// implementation that declares it is checked. Its JSON name is its wire name
/// ([`Algorithm::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub enum Algorithm {
    /// SHA-256 (FIPS 180-4).
    Sha256,
    /// SHA3-256 (FIPS 202).
    Sha3_256,
    /// AES-128 (FIPS 197).
    Aes128,
    /// AES-256 (FIPS 197).
    Aes256,
    /// ChaCha20 (RFC 8439: 32-byte key, 12-byte nonce, counter from 0).
    Chacha20,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Self; 5] = [Self::Sha256, Self::Sha3_256, Self::Aes128, Self::Aes256, Self::Chacha20];

    /// Stable name, as in `impl.toml`, on the wire and in results files.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sha256 => "sha256",
            Self::Sha3_256 => "sha3-256",
            Self::Aes128 => "aes-128",
            Self::Aes256 => "aes-256",
            Self::Chacha20 => "chacha20",
        }
    }

    /// The algorithm called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The interface an implementation of it provides.
    pub const fn interface(self) -> Interface {
        match self {
            Self::Sha256 | Self::Sha3_256 => Interface::Hash,
            Self::Aes128 | Self::Aes256 => Interface::BlockCipher,
            Self::Chacha20 => Interface::Stream,
        }
    }

    /// Bytes of output of one call (a digest, a block); `None` where it is as long as the
    /// input (a stream cipher).
    pub const fn output_bytes(self) -> Option<usize> {
        match self {
            Self::Sha256 | Self::Sha3_256 => Some(32),
            Self::Aes128 | Self::Aes256 => Some(16),
            Self::Chacha20 => None,
        }
    }

    /// Bytes of the key (0: none).
    pub const fn key_bytes(self) -> usize {
        match self {
            Self::Sha256 | Self::Sha3_256 => 0,
            Self::Aes128 => 16,
            Self::Aes256 | Self::Chacha20 => 32,
        }
    }

    /// Bytes of the nonce (0: none).
    pub const fn nonce_bytes(self) -> usize {
        match self {
            Self::Sha256 | Self::Sha3_256 | Self::Aes128 | Self::Aes256 => 0,
            Self::Chacha20 => 12,
        }
    }
}

/// Which input differs between the classes of a constant-time (leakage) test: fixed in class
/// 0, random in class 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Secret {
    /// The key (class 1: a fresh random key; the key schedule runs outside the window where
    /// the operation is not the key schedule itself).
    Key,
    /// The data: plaintext, message, permutation state, both operands, or the compared
    /// buffer.
    Data,
}

impl Secret {
    /// Every secret.
    pub const ALL: [Self; 2] = [Self::Key, Self::Data];

    /// Stable name, as on the wire, in `impl.toml` and in results files.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Key => "key",
            Self::Data => "data",
        }
    }

    /// The secret called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether an implementation of `interface` can have this secret.
    pub fn admitted_by(self, interface: Interface) -> bool {
        interface.secrets().contains(&self)
    }
}

json_as_name! {
    Interface: "interface", Interface::ALL;
    Algorithm: "algorithm", Algorithm::ALL;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for i in Interface::ALL {
            assert_eq!(Interface::from_name(i.name()), Some(i));
        }
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_name(a.name()), Some(a));
        }
        for s in Secret::ALL {
            assert_eq!(Secret::from_name(s.name()), Some(s));
        }
        assert_eq!(Interface::from_name("mac"), None);
    }

    #[test]
    fn every_algorithm_fits_the_sizes_its_interface_declares() {
        for a in Algorithm::ALL {
            let i = a.interface();
            // A size the algorithm fixes is one its interface declares.
            assert_eq!(a.key_bytes() > 0, i.declares(DeclaredSize::Key), "{a:?}");
            assert_eq!(a.nonce_bytes() > 0, i.declares(DeclaredSize::Nonce), "{a:?}");
        }
    }

    #[test]
    fn every_interface_admits_a_secret_and_declares_its_functions() {
        for i in Interface::ALL {
            assert!(!i.secrets().is_empty(), "{i:?}");
            assert!(!i.functions().is_empty(), "{i:?}");
            for f in i.functions() {
                assert!(f.symbol.starts_with("crypto_"), "{f:?}");
            }
        }
        assert!(!Secret::Key.admitted_by(Interface::Hash));
        assert!(Secret::Data.admitted_by(Interface::Hash));
    }
}
