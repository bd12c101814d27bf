//! Targets: what `--target` / `--port` name, and how to start or reach them.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::ValueEnum;

use crate::firmware;
use crate::link::{self, Link};

/// A target the tool can start itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetName {
    /// QEMU `virt` (functional only, not cycle-accurate; software modules).
    QemuVirt,
}

impl TargetName {
    /// Name as written on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Self::QemuVirt => "qemu-virt",
        }
    }

    /// The suite's platform feature for this target.
    fn platform_feature(self) -> &'static str {
        match self {
            Self::QemuVirt => "qemu-virt",
        }
    }
}

/// Where to run: options shared by every subcommand that talks to a target.
#[derive(clap::Args, Clone, Debug)]
pub struct TargetArgs {
    /// Target to start (builds the firmware if needed). Default: qemu-virt.
    #[arg(long, value_enum, conflicts_with = "port")]
    pub target: Option<TargetName>,
    /// Serial port (or PTY) of a board already running the suite, instead of --target.
    #[arg(long)]
    pub port: Option<String>,
    /// Baud rate for --port.
    #[arg(long, default_value_t = 115_200, requires = "port")]
    pub baud: u32,
    /// Use this suite ELF instead of building one (--target only).
    #[arg(long, conflicts_with = "port")]
    pub firmware: Option<PathBuf>,
    /// Seconds to wait for the suite's hello after start or connect.
    #[arg(long, default_value_t = 30.0)]
    pub hello_timeout: f64,
    /// Seconds to wait for the reply to one request.
    #[arg(long, default_value_t = 120.0)]
    pub timeout: f64,
}

impl TargetArgs {
    /// Name of the target for results: the target name, or `serial:<port>`.
    pub fn label(&self) -> String {
        match &self.port {
            Some(port) => format!("serial:{port}"),
            None => self.target_name().name().to_owned(),
        }
    }

    fn target_name(&self) -> TargetName {
        self.target.unwrap_or(TargetName::QemuVirt)
    }

    /// Seconds → Duration, rejecting nonsense.
    pub fn duration(seconds: f64, what: &str) -> Result<Duration> {
        if !(seconds.is_finite() && seconds > 0.0) {
            bail!("{what} must be a positive number of seconds, got {seconds}");
        }
        Ok(Duration::from_secs_f64(seconds))
    }

    /// Starts (or opens) the target. `selftest` selects the self-test firmware.
    pub fn connect(&self, selftest: bool) -> Result<Link> {
        if let Some(port) = &self.port {
            return link::open_serial(port, self.baud);
        }
        let target = self.target_name();
        let elf = match &self.firmware {
            Some(elf) if elf.exists() => elf.clone(),
            Some(elf) => bail!("firmware {} does not exist", elf.display()),
            None => firmware::build(target.platform_feature(), selftest)?,
        };
        match target {
            TargetName::QemuVirt => link::spawn(qemu_virt(&elf), false),
        }
    }
}

/// QEMU `virt` with the suite as kernel and its UART on stdio. `-icount shift=0` makes the
/// cycle counter count instructions, so numbers repeat run to run (they are still not
/// cycles of any real core, and results say so).
fn qemu_virt(elf: &std::path::Path) -> Command {
    let mut qemu = Command::new("qemu-system-riscv32");
    qemu.args(["-M", "virt", "-cpu", "rv32", "-bios", "none", "-m", "32M"])
        .args([
            "-display", "none", "-serial", "stdio", "-monitor", "none", "-icount", "shift=0",
        ])
        .arg("-kernel")
        .arg(elf);
    qemu
}
