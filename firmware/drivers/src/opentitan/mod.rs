//! Drivers for the OpenTitan Earl Grey IPs of the 2021 snapshot. Register offsets and fields
//! are generated from the snapshot's own descriptions (`regs/`).

pub mod aes;
pub mod csrng;
pub mod entropy;
pub mod hmac;
pub mod kmac;
pub mod pinmux;
pub mod uart;

/// Generated register maps.
pub mod regs {
    pub mod aes;
    pub mod csrng;
    pub mod edn;
    pub mod entropy_src;
    pub mod flash_ctrl;
    pub mod hmac;
    pub mod kmac;
    pub mod pinmux;
    pub mod top_earlgrey;
    pub mod uart;
}
