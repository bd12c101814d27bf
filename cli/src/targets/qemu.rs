//! QEMU `virt` (Debian's qemu-system-riscv32).

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::link::{self, Link};

/// Starts QEMU `virt` with the suite as kernel and its UART on stdio. `-icount shift=0` makes
/// the cycle counter count instructions, so numbers repeat run to run (they are still not
/// cycles of any real core, and results say so). `zbb` enables the bit-manipulation
/// extension the Zbb firmware needs.
pub fn start(elf: &Path, zbb: bool) -> Result<Link> {
    let mut qemu = Command::new("qemu-system-riscv32");
    let cpu = if zbb { "rv32,zbb=true" } else { "rv32" };
    qemu.args(["-M", "virt", "-cpu", cpu, "-bios", "none", "-m", "32M"])
        .args([
            "-display", "none", "-serial", "stdio", "-monitor", "none", "-icount", "shift=0",
        ])
        .arg("-kernel")
        .arg(elf);
    link::spawn(qemu, false)
}
