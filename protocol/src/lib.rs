//! The one crate both sides of cyclebench link: every message exchanged between the host tool
//! (`cyclebench`) and the on-target suite, and the compact line-based wire form they travel in.
//!
//! Messages are exhaustive enums so that adding a variant breaks the build of whichever side
//! forgets to handle it. With the `std` feature the same types also derive serde, which gives
//! the readable JSON used in `.bench` files and results on disk.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

/// JSON as the wire name: `From<T> for String` and a `TryFrom<String>` whose error lists the
/// names known, from `$all` (every value of the type). Defined before the modules that use it.
macro_rules! json_as_name {
    ($($type:ty: $what:literal, $all:expr;)*) => {$(
        impl From<$type> for alloc::string::String {
            fn from(value: $type) -> Self {
                alloc::string::String::from(value.name())
            }
        }

        impl TryFrom<alloc::string::String> for $type {
            type Error = alloc::string::String;

            fn try_from(name: alloc::string::String) -> Result<Self, alloc::string::String> {
                Self::from_name(&name).ok_or_else(|| {
                    let known: alloc::vec::Vec<&str> = $all.into_iter().map(|v: $type| v.name()).collect();
                    alloc::format!("unknown {} '{name}' (known: {})", $what, known.join(", "))
                })
            }
        }
    )*};
}

mod dataset;
mod implementation_vocabulary;
#[cfg(feature = "serde")]
mod json_names;
pub mod kind;
mod kinds;
pub mod message;
mod reply;
mod request;
pub mod wire;

pub use dataset::{DatasetId, DatasetIdError};
pub use implementation_vocabulary::{
    Algorithm, CFunction, DeclaredSize, Interface, Secret, DEFAULT_BLOCK_BYTES, DEFAULT_DIGEST_BYTES,
};
#[cfg(feature = "serde")]
pub use json_names::json_names;
pub use kind::{DatasetFamily, Description, Field, Kind, PhaseCategory, PhaseSpec, Presentation, Shape, Unbounded};
pub use kinds::*;
pub use reply::*;
pub use request::*;

/// Version of the wire protocol. The suite announces it in its [`Hello`]; the host refuses to
/// talk to a suite that speaks another version.
pub const PROTOCOL_VERSION: u16 = 4;

/// Identifier of a request, echoed by its reply so that a reply is only ever paired with its
/// own request. The suite's unprompted hello and replies to lines whose identifier could not be
/// read carry none.
pub type RequestId = u16;

/// Longest line either side sends or accepts, excluding the terminating newline. A longer
/// line is rejected as a whole without being buffered.
pub const MAX_LINE_LEN: usize = 480;

/// Most repetitions one benchmark request may ask for (bounds on-device memory for medians).
pub const MAX_REPETITIONS: u16 = 255;

/// Most 128-bit blocks one true-random benchmark may ask for.
pub const MAX_RNG_BLOCKS: u8 = 8;

/// Most `nop`s of a timed status readout.
pub const MAX_STATUS_PAD: u16 = 256;

/// Longest unmeasured wait between RNG seeding and the first generate, in cycles.
pub const MAX_INIT_WAIT: u32 = 1_000_000;

/// Most bytes one software stream-cipher benchmark may process (the seed's 4096-byte figure).
pub const MAX_SOFTWARE_BYTES: u32 = 4096;

/// Most 32-bit limbs per operand of a multi-precision benchmark.
pub const MAX_LIMBS: u32 = 32;
