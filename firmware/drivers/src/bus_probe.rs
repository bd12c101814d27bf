//! Whether a device answers at an address, learnt without a fault reaching the suite.
//!
//! A chip built without a block (a reduced Earl Grey model) has nothing at its address: the
//! crossbar answers a load there with a bus error (TL-UL `d_error`), which the core raises as a
//! load access fault. [`answers`] makes one load with a trap handler of its own in place for
//! that one instruction: a fault skips the load and reports `false`.
//!
//! The handler is in the section `.bus_probe_trap`, which the platform's linker script must
//! place at a 256-byte boundary: Ibex keeps the low eight bits of `mtvec` fixed (vectored mode)
//! and enters every exception at that boundary (a core in direct mode enters there too).
//! Earl Grey puts it at the start of the ROM, where it costs no flash.

use core::arch::global_asm;

// The probe: `t1` holds the `mtvec` it replaces for the one load, `a1` its verdict. The load is
// a 4-byte instruction (no compressed code here), which the handler steps over. Interrupts are
// off (the suite takes none), so only the load can trap.
global_asm!(
    ".section .bus_probe_trap, \"ax\"",
    ".option push",
    ".option norvc",
    "cyclebench_bus_probe_trap:",
    "    li a1, 0",
    "    csrr t0, mepc",
    "    addi t0, t0, 4",
    "    csrw mepc, t0",
    "    mret",
    ".option pop",
    "",
    ".section .text.cyclebench_bus_probe, \"ax\"",
    ".option push",
    ".option norvc",
    ".globl cyclebench_bus_probe",
    "cyclebench_bus_probe:",
    "    la t0, cyclebench_bus_probe_trap",
    "    csrrw t1, mtvec, t0",
    "    li a1, 1",
    "    lw t2, 0(a0)",
    "    csrw mtvec, t1",
    "    mv a0, a1",
    "    ret",
    ".option pop",
);

extern "C" {
    fn cyclebench_bus_probe(address: usize) -> usize;
}

/// Whether a 32-bit load from `address` completes (`true`) or the bus answers it with an
/// error (`false`).
///
/// # Safety
/// `address` must be word-aligned, and a load from it must have no effect (a status or
/// interrupt-state register, not a FIFO) and must get an answer: a device whose clock is
/// stopped never answers, and the core then waits for ever. Interrupts must be off, and the
/// platform must place `.bus_probe_trap` as the module documentation says.
pub unsafe fn answers(address: usize) -> bool {
    // SAFETY: the probe touches no memory but the one load, restores `mtvec`, and follows the
    // C calling convention (it clobbers only caller-saved registers).
    unsafe { cyclebench_bus_probe(address) != 0 }
}
