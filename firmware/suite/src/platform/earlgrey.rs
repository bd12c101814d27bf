//! OpenTitan Earl Grey (the 2021 snapshot, Verilator model or FPGA): HMAC for SHA-256, KMAC
//! for SHA3-256, AES, CSRNG with the entropy complex, OTBN, UART0. Cycle-accurate.
//!
//! Boot is the suite's own: Ibex starts at ROM + 0x80, where a single jump leads to the
//! suite's start-up in flash. No banner, no bootstrap: the hello is the first output.
//!
//! The host link is UART0, what a board has. Built with the `sim-link` feature it is instead
//! the mailbox of cyclebench's simulation testbench (`sim/earlgrey/README.md`): the same
//! lines, without the 7200-baud UART's ~700 cycles per byte. Nothing measured differs.

use alloc::string::String;
use alloc::vec::Vec;
use core::arch::global_asm;
use core::ptr::write_volatile;

use cyclebench_drivers::ibex;
use cyclebench_drivers::mmio::Mmio;
use cyclebench_drivers::opentitan::earlgrey_2021_03::regs::top_earlgrey as top;
use cyclebench_drivers::opentitan::earlgrey_2021_03::{
    aes::Aes,
    clkmgr::{Clocks, Hinted},
    csrng::Csrng,
    entropy,
    hmac::Hmac,
    kmac::Kmac,
    otbn::Otbn,
};
#[cfg(not(feature = "sim-link"))]
use cyclebench_drivers::opentitan::earlgrey_2021_03::{pinmux, uart::Uart};
#[cfg(feature = "sim-link")]
use cyclebench_drivers::sim_mailbox::SimMailbox;
use cyclebench_modules::Comm;
use cyclebench_protocol::{Implementation, ImplementationKind, Module, ModuleInfo};

use super::{entry, Platform, Provided};
use crate::software::SoftwareModules;

// In this snapshot, instruction fetches from flash return stale words (the low half of each
// 64-bit flash word comes from the previous one) until the flash controller's life-cycle
// manager has enabled its read buffers, some 10^5 cycles after reset; no register shows
// that. So the ROM stage calls a probe in flash, sixteen distinct `addi`s, until it
// computes the right sum, and only then enters the suite.
global_asm!(
    ".section .earlgrey_boot, \"ax\"",
    ".option push",
    ".option norvc",
    "li t2, 136",
    "la t3, earlgrey_flash_probe",
    "5: jalr ra, 0(t3)",
    "bne a0, t2, 5b",
    "la t0, _start",
    "jr t0",
    ".option pop",
    "",
    ".section .text.earlgrey_flash_probe, \"ax\"",
    ".balign 8",
    ".option push",
    ".option norvc",
    "earlgrey_flash_probe:",
    "li a0, 0",
    ".set step, 1",
    ".rept 16",
    "addi a0, a0, step",
    ".set step, step + 1",
    ".endr",
    "ret",
    "ret",
    ".option pop",
);

/// Name of the AES block in the inventory: which masking configuration this suite was built
/// for (the bitstream or model must match; the suite cannot tell the two apart).
#[cfg(feature = "aes-unmasked")]
const AES_NAME: &str = "aes-unmasked";
#[cfg(not(feature = "aes-unmasked"))]
const AES_NAME: &str = "aes-masked";

fn block(base: usize) -> Mmio {
    // SAFETY: every base passed here is a distinct IP block from the snapshot's generated
    // memory map; the suite is single-threaded and each block has exactly one driver.
    unsafe { Mmio::new(base) }
}

/// The link to the host: UART0.
#[cfg(not(feature = "sim-link"))]
type Link = Uart;
/// The link to the host: the simulation testbench's mailbox.
#[cfg(feature = "sim-link")]
type Link = SimMailbox;

/// The mailbox of the simulation build's testbench (`sim/earlgrey/patches/07-fast-link.patch`):
/// in its 4 KiB simulation SRAM at 0x3000_0000, whose word 0 is the test-status address. A
/// testbench device outside the chip's memory map, so the suite's RAM stays whole.
#[cfg(feature = "sim-link")]
const SIM_MAILBOX_BASE: usize = 0x3000_0800;

#[cfg(not(feature = "sim-link"))]
fn link() -> Link {
    pinmux::route_uart0(block(top::PINMUX_AON_BASE_ADDR));
    Uart::new(
        block(top::UART0_BASE_ADDR),
        top::UART_BAUDRATE,
        top::CLOCK_FREQ_PERIPHERAL_HZ,
    )
}

#[cfg(feature = "sim-link")]
fn link() -> Link {
    // SAFETY: the testbench's mailbox, driven only by this handle (the panic handler's fresh
    // one takes over from a suite that has stopped).
    unsafe { SimMailbox::new(SIM_MAILBOX_BASE) }
}

/// The Earl Grey platform.
pub struct EarlGrey {
    link: Link,
    clocks: Clocks,
    hmac: Hmac,
    kmac: Kmac,
    aes: Aes,
    csrng: Csrng,
    #[cfg_attr(not(feature = "public-key"), allow(dead_code))]
    otbn: Otbn,
    software: SoftwareModules,
}

/// Starts `block`'s clock before its driver is handed out: a block whose clock is stopped
/// never answers a bus access, which would hang the core rather than fail the request.
fn clocked(clocks: &mut Clocks, block: Hinted) {
    if clocks.run(block).is_err() {
        panic!("the clock manager did not start a block's clock");
    }
}

fn hardware<T: ?Sized>(module: &mut T) -> Provided<'_, T> {
    Provided {
        module,
        kind: ImplementationKind::Hardware,
    }
}

impl Platform for EarlGrey {
    const NAME: &'static str = "earlgrey";
    const CPU_HZ: u32 = top::CLOCK_FREQ_CPU_HZ;
    const CYCLE_ACCURATE: bool = true;
    type Comm = Link;
    type Sha2 = Hmac;
    type Sha3 = Kmac;
    type Aes = Aes;
    type Rng = Csrng;
    type BigNum = Otbn;

    fn take() -> Self {
        let link = Self::panic_comm();
        // Masked AES draws randomness from EDN at reset and stalls until the chain runs.
        entropy::enable(
            block(top::ENTROPY_SRC_BASE_ADDR),
            block(top::CSRNG_BASE_ADDR),
            &[block(top::EDN0_BASE_ADDR)],
        );
        let aes = Aes::new(block(top::AES_BASE_ADDR));
        // A failure here surfaces as a timeout on the first AES request, with its name.
        let _ = aes.wait_idle();
        let mut clocks = Clocks::new(block(top::CLKMGR_AON_BASE_ADDR));
        clocks.stop_idle();
        Self {
            link,
            clocks,
            hmac: Hmac::new(block(top::HMAC_BASE_ADDR)),
            kmac: Kmac::new(block(top::KMAC_BASE_ADDR)),
            aes,
            csrng: Csrng::new(block(top::CSRNG_BASE_ADDR)),
            otbn: Otbn::new(block(top::OTBN_BASE_ADDR)),
            software: SoftwareModules::new(),
        }
    }

    fn panic_comm() -> Link {
        link()
    }

    fn stop(success: bool) -> ! {
        let status = if success {
            top::TEST_STATUS_PASSED
        } else {
            top::TEST_STATUS_FAILED
        };
        let address = top::TEST_STATUS_ADDRESS as *mut u32;
        // SAFETY: the simulation's test-status address; the testbench ends the simulation on a
        // verdict written after "in test". On an FPGA the writes go nowhere and the CPU waits.
        unsafe {
            write_volatile(address, top::TEST_STATUS_IN_TEST);
            write_volatile(address, status);
        }
        loop {
            riscv::asm::wfi();
        }
    }

    fn comm(&mut self) -> &mut dyn Comm {
        &mut self.link
    }
    fn sha2(&mut self) -> Provided<'_, Self::Sha2> {
        clocked(&mut self.clocks, Hinted::Hmac);
        hardware(&mut self.hmac)
    }
    fn sha3(&mut self) -> Provided<'_, Self::Sha3> {
        clocked(&mut self.clocks, Hinted::Kmac);
        hardware(&mut self.kmac)
    }
    fn aes(&mut self) -> Provided<'_, Self::Aes> {
        clocked(&mut self.clocks, Hinted::Aes);
        hardware(&mut self.aes)
    }
    fn rng(&mut self) -> Provided<'_, Self::Rng> {
        hardware(&mut self.csrng)
    }
    fn big_num(&mut self) -> Result<&mut Otbn, String> {
        clocked(&mut self.clocks, Hinted::Otbn);
        Ok(&mut self.otbn)
    }
    fn software(&mut self) -> &mut SoftwareModules {
        &mut self.software
    }
    fn has_entropy(&self) -> bool {
        true
    }

    fn stop_unused_clocks(&mut self) {
        self.clocks.stop_idle();
    }

    fn modules(&self) -> Vec<ModuleInfo> {
        let hw = |name: &str| Implementation::Hardware(String::from(name));
        Vec::from([
            entry(Module::Sha2, hw("hmac")),
            entry(Module::Sha3, hw("kmac")),
            entry(Module::Aes, hw(AES_NAME)),
            entry(Module::Rng, hw("csrng")),
            entry(Module::Entropy, hw("entropy_src")),
            entry(Module::BigNum, hw("otbn")),
        ])
    }

    // Ibex here has an instruction cache (`IbexICache = 1`), off after reset. On, the suite's
    // code in flash runs several times faster between requests; measurements keep it off.
    #[inline(always)]
    fn set_instruction_cache(enabled: bool) {
        ibex::set_instruction_cache(enabled);
    }

    fn reset_instruction_cache(scratch: &mut [u16]) -> bool {
        ibex::reset_instruction_cache(scratch)
    }
}

/// The platform this build runs on.
pub type Current = EarlGrey;
