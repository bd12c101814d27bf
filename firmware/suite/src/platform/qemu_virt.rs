//! QEMU `virt`: a 16550 UART and RAM, no accelerators, so every module is software. Not
//! cycle-accurate: `mcycle` follows host time (or instructions with `-icount`).

use core::ptr::write_volatile;

use cyclebench_drivers::ns16550::Ns16550;

use super::software_modules::{Board, SoftwarePlatform};

/// The 16550 UART of `virt`.
const UART0: usize = 0x1000_0000;
/// The SiFive test device of `virt`: writing to it ends QEMU with a status.
const TEST_DEVICE: usize = 0x0010_0000;
const TEST_PASS: u32 = 0x5555;
const TEST_FAIL: u32 = 0x3333;

/// The QEMU `virt` board.
pub struct Virt;

/// The QEMU `virt` platform.
pub type QemuVirt = SoftwarePlatform<Virt>;

impl Board for Virt {
    const NAME: &'static str = if cfg!(target_feature = "zbb") {
        "qemu-virt-zbb"
    } else {
        "qemu-virt"
    };
    // QEMU has no fixed CPU clock; this is virt's timebase (10 MHz), for orientation only.
    const CPU_HZ: u32 = 10_000_000;
    const CYCLE_ACCURATE: bool = false;
    type Comm = Ns16550;

    fn comm() -> Ns16550 {
        // SAFETY: UART0 is virt's 16550; the suite is single-threaded and the panic path only
        // takes it over when normal execution has ended.
        unsafe { Ns16550::new(UART0) }
    }

    fn stop(success: bool) -> ! {
        let code = if success { TEST_PASS } else { TEST_FAIL | (1 << 16) };
        // SAFETY: TEST_DEVICE is virt's SiFive test device; writing a code ends the simulation.
        unsafe { write_volatile(TEST_DEVICE as *mut u32, code) };
        loop {
            riscv::asm::wfi();
        }
    }
}

/// The platform this build runs on.
pub type Current = QemuVirt;
