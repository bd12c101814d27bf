//! MMIO drivers. A driver holds only its base address; the module trait it implements sits
//! at the end of its file, so nothing outside the driver touches a register.
#![no_std]

pub mod bus_probe;
pub mod hostlink;
pub mod ibex;
pub mod mmio;
pub mod ns16550;
pub mod opentitan;
pub mod sim_mailbox;
pub mod wait;
