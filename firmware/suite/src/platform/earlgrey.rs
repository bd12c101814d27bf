//! OpenTitan Earl Grey (the 2021 snapshot, Verilator model or FPGA): HMAC for SHA-256, KMAC
//! for SHA3-256, AES, CSRNG with the entropy complex, OTBN, UART0. Cycle-accurate.
//!
//! One image serves the whole chip and the models reduced to fewer blocks
//! (`sim/earlgrey/variants`): start-up probes each block the suite can use once, sets up only
//! those that answer, and a request for a block the chip lacks is answered unsupported, naming
//! the block, before anything touches it.
//!
//! Boot is the suite's own: Ibex starts at ROM + 0x80, where a single jump leads to the
//! suite's start-up in flash. No banner, no bootstrap: the hello is the first output.
//!
//! The host link is UART0, what a board has. Built with the `sim-link` feature it is instead
//! the mailbox of cyclebench's simulation testbench (`sim/earlgrey/README.md`): the same
//! lines, without the 7200-baud UART's ~700 cycles per byte. Nothing measured differs.
//!
//! Built with the `board-nexysvideo` feature it is the image for the NexysVideo FPGA board
//! (`docs/targets.md`): the board's clocks and baud rate, a flash header for the snapshot's
//! boot ROM, no simulator test-status writes, and its own platform name. Nothing measured
//! differs either.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::arch::global_asm;
use core::ptr::write_volatile;

use cyclebench_drivers::bus_probe;
use cyclebench_drivers::ibex;
use cyclebench_drivers::mmio::Mmio;
use cyclebench_drivers::opentitan::earlgrey_2021_03::regs::{self, top_earlgrey as top};
// The device's clocks, baud rate and test-status address, from the snapshot's description of
// it (sw/device/lib/arch/device_*.c, generated into the register maps): the Verilator model's,
// or the NexysVideo FPGA board's.
#[cfg(feature = "board-nexysvideo")]
use cyclebench_drivers::opentitan::earlgrey_2021_03::regs::device_fpga_nexysvideo as device;
#[cfg(not(feature = "board-nexysvideo"))]
use cyclebench_drivers::opentitan::earlgrey_2021_03::regs::top_earlgrey as device;
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

/// The blocks of the chip the suite can use, as bits of a set. A model reduced to fewer blocks
/// lacks some; start-up finds out which ([`Blocks::probe`]).
mod block {
    pub const AES: u8 = 1 << 0;
    pub const HMAC: u8 = 1 << 1;
    pub const KMAC: u8 = 1 << 2;
    pub const OTBN: u8 = 1 << 3;
    pub const CSRNG: u8 = 1 << 4;
    pub const ENTROPY_SRC: u8 = 1 << 5;
    pub const EDN0: u8 = 1 << 6;
    /// The blocks whose clocks the clock manager's hints control, in the order of
    /// `Hinted::ALL` from bit 0 (what `Clocks::new` takes).
    pub const HINTED: u8 = AES | HMAC | KMAC | OTBN;
    /// The entropy chain masked AES draws from.
    pub const ENTROPY_CHAIN: u8 = ENTROPY_SRC | CSRNG | EDN0;
    /// Every block: the whole chip.
    pub const ALL: u8 = HINTED | ENTROPY_CHAIN;
}

// `block::HINTED` is what `Clocks::new` takes: bit `i` for `Hinted::ALL[i]`.
const _: () = assert!(
    block::AES == 1 << Hinted::Aes as u8
        && block::HMAC == 1 << Hinted::Hmac as u8
        && block::KMAC == 1 << Hinted::Kmac as u8
        && block::OTBN == 1 << Hinted::Otbn as u8
);

/// Each block: its bit, its instance name in the chip description (`top_earlgrey.hjson`), and
/// a register whose reading has no effect (a status or interrupt state).
const BLOCKS: [(u8, &str, usize); 7] = [
    (block::AES, "aes", top::AES_BASE_ADDR + regs::aes::STATUS_REG_OFFSET),
    (block::HMAC, "hmac", top::HMAC_BASE_ADDR + regs::hmac::STATUS_REG_OFFSET),
    (block::KMAC, "kmac", top::KMAC_BASE_ADDR + regs::kmac::STATUS_REG_OFFSET),
    (block::OTBN, "otbn", top::OTBN_BASE_ADDR + regs::otbn::STATUS_REG_OFFSET),
    (block::CSRNG, "csrng", top::CSRNG_BASE_ADDR + regs::csrng::INTR_STATE_REG_OFFSET),
    (
        block::ENTROPY_SRC,
        "entropy_src",
        top::ENTROPY_SRC_BASE_ADDR + regs::entropy_src::INTR_STATE_REG_OFFSET,
    ),
    (block::EDN0, "edn0", top::EDN0_BASE_ADDR + regs::edn::INTR_STATE_REG_OFFSET),
];

/// Which blocks this chip has.
#[derive(Clone, Copy)]
struct Blocks(u8);

impl Blocks {
    /// Loads from each block once: a block the chip was built without answers with a bus
    /// error. Run before any clock is stopped (a stopped block would not answer at all).
    fn probe() -> Self {
        // A board's ROM holds the snapshot's boot ROM, not the suite's trap handler, and its
        // bitstream is the whole chip: nothing to probe.
        if cfg!(feature = "board-nexysvideo") {
            return Self(block::ALL);
        }
        let mut present = 0;
        for (bit, _, address) in BLOCKS {
            // SAFETY: a status or interrupt-state register of a block whose clock runs (every
            // clock runs from reset until `Clocks::stop_idle`), or nothing; interrupts are off.
            if unsafe { bus_probe::answers(address) } {
                present |= bit;
            }
        }
        Self(present)
    }

    fn has(self, blocks: u8) -> bool {
        self.0 & blocks == blocks
    }
}

// The board is reached over its UART; the mailbox exists in the simulation testbench only.
#[cfg(all(feature = "board-nexysvideo", feature = "sim-link"))]
compile_error!("board-nexysvideo is reached over UART0: the simulation mailbox (sim-link) is not on a board");

// On the board the bitstream's ROM is the snapshot's boot ROM, which loads the image into
// flash over SPI (bootstrap) and then calls the address in flash's first word, its flash
// header (`_flash_header` in sw/device/boot_rom/rom_link.ld, `.flash_header` in
// sw/device/exts/common/flash_link.ld): here riscv-rt's `_start`. Padded to a whole flash
// word, so everything after it in flash moves by exactly one word (build/layout.rs). The ROM
// stage above stays in the image for the model and is not loaded onto the board.
#[cfg(feature = "board-nexysvideo")]
global_asm!(
    ".section .earlgrey_flash_header, \"a\"",
    ".balign 8",
    ".word _start",
    ".word 0",
);

/// Name of the platform in the hello, and so in every record: the board, or the model.
#[cfg(feature = "board-nexysvideo")]
const PLATFORM_NAME: &str = "earlgrey-nexysvideo";
#[cfg(not(feature = "board-nexysvideo"))]
const PLATFORM_NAME: &str = "earlgrey";

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
        device::UART_BAUDRATE,
        device::CLOCK_FREQ_PERIPHERAL_HZ,
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
    blocks: Blocks,
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

impl EarlGrey {
    /// What `module` needs of the chip: its block, and for masked AES the entropy chain.
    fn needs(module: Module) -> u8 {
        match module {
            Module::Sha2 => block::HMAC,
            Module::Sha3 => block::KMAC,
            Module::Aes if cfg!(feature = "aes-unmasked") => block::AES,
            Module::Aes => block::AES | block::ENTROPY_CHAIN,
            Module::Rng => block::CSRNG,
            Module::Entropy => block::ENTROPY_SRC | block::CSRNG,
            Module::BigNum => block::OTBN,
        }
    }
}

fn hardware<T: ?Sized>(module: &mut T) -> Provided<'_, T> {
    Provided {
        module,
        kind: ImplementationKind::Hardware,
    }
}

impl Platform for EarlGrey {
    const NAME: &'static str = PLATFORM_NAME;
    const CPU_HZ: u32 = device::CLOCK_FREQ_CPU_HZ;
    const CYCLE_ACCURATE: bool = true;
    type Comm = Link;
    type Sha2 = Hmac;
    type Sha3 = Kmac;
    type Aes = Aes;
    type Rng = Csrng;
    type BigNum = Otbn;

    fn take() -> Self {
        let link = Self::panic_comm();
        let blocks = Blocks::probe();
        // Masked AES draws randomness from EDN at reset and stalls until the chain runs. A
        // chip without the chain has no block that needs it.
        if blocks.has(block::ENTROPY_CHAIN) {
            entropy::enable(
                block(top::ENTROPY_SRC_BASE_ADDR),
                block(top::CSRNG_BASE_ADDR),
                &[block(top::EDN0_BASE_ADDR)],
            );
        }
        let aes = Aes::new(block(top::AES_BASE_ADDR));
        if blocks.has(block::AES) {
            // A failure here surfaces as a timeout on the first AES request, with its name.
            let _ = aes.wait_idle();
        }
        // The clock manager numbers the hints of the blocks the chip has.
        let mut clocks = Clocks::new(block(top::CLKMGR_AON_BASE_ADDR), blocks.0 & block::HINTED);
        clocks.stop_idle();
        Self {
            link,
            blocks,
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
        // As the snapshot's test_status.c: a device without a test-status device (address 0,
        // the board) gets no writes; the core then sleeps until reset, and the host ends the
        // run by closing the port.
        if device::TEST_STATUS_ADDRESS != 0 {
            let address = device::TEST_STATUS_ADDRESS as *mut u32;
            // SAFETY: the simulation's test-status address; the testbench ends the simulation
            // on a verdict written after "in test".
            unsafe {
                write_volatile(address, top::TEST_STATUS_IN_TEST);
                write_volatile(address, status);
            }
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
        if let Some(reason) = self.lacks(Module::BigNum) {
            return Err(reason);
        }
        clocked(&mut self.clocks, Hinted::Otbn);
        Ok(&mut self.otbn)
    }
    fn software(&mut self) -> &mut SoftwareModules {
        &mut self.software
    }
    fn has_entropy(&self) -> bool {
        self.lacks(Module::Entropy).is_none()
    }

    fn lacks(&self, module: Module) -> Option<String> {
        // The first block it lacks names the reason.
        let needs = Self::needs(module);
        let (_, missing, _) = BLOCKS.iter().find(|(bit, _, _)| needs & bit != 0 && !self.blocks.has(*bit))?;
        Some(format!("{}: no {missing} in this Earl Grey variant", module.name()))
    }

    fn stop_unused_clocks(&mut self) {
        self.clocks.stop_idle();
    }

    fn modules(&self) -> Vec<ModuleInfo> {
        let hw = |module: Module, name: &str| {
            if self.blocks.has(Self::needs(module)) {
                entry(module, Implementation::Hardware(String::from(name)))
            } else {
                entry(module, Implementation::Absent)
            }
        };
        Vec::from([
            hw(Module::Sha2, "hmac"),
            hw(Module::Sha3, "kmac"),
            hw(Module::Aes, AES_NAME),
            hw(Module::Rng, "csrng"),
            hw(Module::Entropy, "entropy_src"),
            hw(Module::BigNum, "otbn"),
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
