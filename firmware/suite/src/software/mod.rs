//! Software implementations of the module traits, for platforms without the accelerator.
//! Results from these are labelled software.

mod aes;
mod ctr_drbg;
mod hash;

pub use aes::SoftAes;
pub use ctr_drbg::SoftCtrDrbg;
pub use hash::{SoftSha256, SoftSha3};
