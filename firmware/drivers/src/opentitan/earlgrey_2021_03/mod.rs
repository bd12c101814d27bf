//! Drivers for the OpenTitan Earl Grey IPs of the March 2021 snapshot (PyPI
//! `pythondata-misc-opentitan` 0.0.post5550). Register offsets and fields are generated from
//! the snapshot's own descriptions into `regs/` by `sim/earlgrey/gen_registers.py`.

pub mod aes;
pub mod clkmgr;
pub mod csrng;
pub mod entropy;
pub mod hmac;
pub mod kmac;
pub mod otbn;
pub mod pinmux;
pub mod uart;

pub mod regs;
