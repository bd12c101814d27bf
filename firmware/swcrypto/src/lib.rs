//! Software cryptographic primitives the suite runs and benchmarks where a platform has no
//! accelerator. Portable Rust, host-tested against published vectors.
#![no_std]
#![forbid(unsafe_code)]

pub mod ctr_drbg;
