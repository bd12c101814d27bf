//! Software cryptographic primitives: the ones the suite runs where a platform has no
//! accelerator (CTR_DRBG), and the ones it benchmarks as software in their own right
//! (table AES-128 and AES-256, bitsliced AES-128, ChaCha20, Keccak-f[1600], multi-precision arithmetic), and
//! the two 16-byte comparisons that control the suite's leakage test.
//!
//! Every benchmarked primitive comes in up to three [`Variant`]s: portable Rust (the
//! reference, host-tested against published vectors and RustCrypto), hand-written RV32I
//! assembly, and assembly using Zbb (rotations, and-not). Each family module hands out its
//! variants as plain function pointers (`None` where a variant does not exist), has an
//! on-target `self_test`, and a harness (`<family>/harness.rs`): the fixed input and its known
//! answer, random inputs, the call and the check, which every kind of the suite that runs
//! primitives uses through [`with_harness`], the registry below.
#![no_std]
// Unsafe is confined to the assembly bindings; each use carries a SAFETY note.
#![deny(unsafe_code)]

extern crate alloc;

pub mod aes_bitsliced;
pub mod aes_table;
pub mod chacha20;
pub mod compare;
pub mod ctr_drbg;
pub mod harness;
pub mod keccak;
pub mod mp;
#[cfg(feature = "public-key")]
pub mod p256_sign;
#[cfg(feature = "public-key")]
pub mod p256_verify;
#[cfg(feature = "public-key")]
pub mod rsa;
mod test_support;

use alloc::string::String;

use cyclebench_protocol::Primitive;
use harness::{Harness, Setup, Visit};

/// The registry: which harness runs which primitive of the protocol's table, one line each.
macro_rules! registry {
    ($($(#[$attr:meta])* $primitive:ident => $harness:ty,)*) => {
        /// Builds the harness of `setup.primitive` and hands it to `visit`; `None` when this
        /// build has no such variant of it, or leaves the primitive out.
        pub fn with_harness<V: Visit>(setup: &Setup, visit: V) -> Option<V::Output> {
            match setup.primitive {
                $($(#[$attr])* Primitive::$primitive => <$harness as Harness>::new(setup).map(|subject| visit.visit(subject)),)*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }
    };
}

registry! {
    AesTableKeySchedule => aes_table::harness::KeySchedule,
    AesTableEncrypt => aes_table::harness::Encrypt,
    AesTable256KeySchedule => aes_table::harness::KeySchedule,
    AesTable256Encrypt => aes_table::harness::Encrypt,
    AesBitslicedKeySchedule => aes_bitsliced::harness::KeySchedule,
    AesBitslicedCtr => aes_bitsliced::harness::Ctr,
    Chacha20 => chacha20::harness::Chacha20Stream,
    KeccakF1600 => keccak::harness::Permutation,
    MpAddFull => mp::harness::Add,
    MpAddReduced => mp::harness::Add,
    MpMulSchoolbook => mp::harness::Mul,
    MpMulSchoolbookReduced => mp::harness::Mul,
    MpMulKaratsuba => mp::harness::Mul,
    MpMulKaratsubaReduced => mp::harness::Mul,
    #[cfg(feature = "public-key")]
    EcdsaP256Verify => p256_verify::Verify,
    #[cfg(feature = "public-key")]
    EcdsaP256Sign => p256_sign::Sign,
    #[cfg(feature = "public-key")]
    Rsa1024Encrypt => rsa::Rsa,
    #[cfg(feature = "public-key")]
    Rsa2048Encrypt => rsa::Rsa,
    #[cfg(feature = "public-key")]
    Rsa3072Encrypt => rsa::Rsa,
    #[cfg(feature = "public-key")]
    Rsa4096Encrypt => rsa::Rsa,
    #[cfg(feature = "public-key")]
    Rsa1024Decrypt => rsa::Rsa,
    #[cfg(feature = "public-key")]
    Rsa2048Decrypt => rsa::Rsa,
}

/// Which implementation of a primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Portable Rust, compiled for whatever ISA the firmware targets (with `+zbb` the
    /// compiler itself may use rotations).
    Rust,
    /// Hand-written assembly using only RV32I(M).
    Rv32i,
    /// Hand-written assembly using Zbb as well; runs only on a core with Zbb.
    Zbb,
}

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 3] = [Self::Rust, Self::Rv32i, Self::Zbb];

    /// Stable lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Rv32i => "rv32i",
            Self::Zbb => "zbb",
        }
    }
}

/// Where a self-test reports each check: its name and the verdict.
pub type Report<'a> = &'a mut dyn FnMut(&str, Result<(), String>);

/// Runs the self-tests of every family for `variant` (on the host, only `Variant::Rust`
/// exists). A variant a family does not provide reports nothing.
pub fn self_test(variant: Variant, report: Report<'_>) {
    mp::self_test(variant, report);
    chacha20::self_test(variant, report);
    keccak::self_test(variant, report);
    aes_table::self_test(variant, report);
    aes_bitsliced::self_test(variant, report);
    compare::self_test(variant, report);
    harness::self_test(variant, report);
}
