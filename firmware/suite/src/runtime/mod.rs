//! Start-up support: heap, panic and trap reporting.

pub mod heap;
mod panic;
