//! Targets: what `--target` / `--port` name, and how to start or reach them.

mod earlgrey;
mod ibex;
mod model;
mod qemu;

use std::path::PathBuf;
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
    /// QEMU `virt` with the Zbb extension, firmware built for it (functional only).
    QemuVirtZbb,
    /// Cycle-accurate Ibex core (RV32IMC, as in Earl Grey) with RAM and a host link.
    IbexSim,
    /// Cycle-accurate Ibex core with bit manipulation (Zbb: rotations, and-not).
    IbexSimZbb,
    /// OpenTitan Earl Grey Verilator model, the snapshot's default (AES masked).
    EarlgreySim,
    /// OpenTitan Earl Grey Verilator model with AES masking off (as the thesis measured).
    EarlgreySimUnmasked,
}

impl TargetName {
    /// Name as written on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Self::QemuVirt => "qemu-virt",
            Self::QemuVirtZbb => "qemu-virt-zbb",
            Self::IbexSim => "ibex-sim",
            Self::IbexSimZbb => "ibex-sim-zbb",
            Self::EarlgreySim => "earlgrey-sim",
            Self::EarlgreySimUnmasked => "earlgrey-sim-unmasked",
        }
    }

    /// The suite's cargo features for this target.
    fn suite_features(self) -> &'static str {
        match self {
            Self::QemuVirt | Self::QemuVirtZbb => "qemu-virt",
            Self::IbexSim | Self::IbexSimZbb => "ibex-sim",
            Self::EarlgreySim => "earlgrey",
            Self::EarlgreySimUnmasked => "earlgrey,aes-unmasked",
        }
    }

    /// Whether the firmware is compiled for (and the core executes) Zbb.
    fn zbb(self) -> bool {
        matches!(self, Self::QemuVirtZbb | Self::IbexSimZbb)
    }

    /// Default waits: a simulated chip at ~10 k cycles/s with a 7200-baud UART needs minutes
    /// where QEMU needs a fraction of a second.
    fn default_timeouts(self) -> (f64, f64) {
        match self {
            Self::QemuVirt | Self::QemuVirtZbb => (30.0, 120.0),
            // ~0.4 M cycles/s: the longest software benchmark (4096 bytes, 255 repetitions)
            // is about 1.5e8 cycles.
            Self::IbexSim | Self::IbexSimZbb => (60.0, 900.0),
            Self::EarlgreySim | Self::EarlgreySimUnmasked => (300.0, 900.0),
        }
    }
}

/// What runs the firmware, with the model a Verilator target needs.
enum Simulator {
    Qemu,
    Ibex(PathBuf),
    EarlGrey(PathBuf),
}

/// Where to run: options shared by every subcommand that talks to a target.
#[derive(clap::Args, Clone, Debug)]
pub struct TargetArgs {
    /// Target to start (builds the firmware, and the model of a simulated chip, if needed).
    /// Default: earlgrey-sim-unmasked, the configuration the thesis measured.
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
    /// Seconds to wait for the suite's hello after start or connect
    /// (default 30; 300 on simulated chips).
    #[arg(long)]
    pub hello_timeout: Option<f64>,
    /// Seconds to wait for the reply to one request (default 120; 900 on simulated chips).
    #[arg(long)]
    pub timeout: Option<f64>,
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
        self.target.unwrap_or(TargetName::EarlgreySimUnmasked)
    }

    /// (hello timeout, request timeout) for this target, from the flags or its defaults.
    pub fn timeouts(&self) -> Result<(Duration, Duration)> {
        let (hello, request) = self.target_name().default_timeouts();
        Ok((
            Self::duration(self.hello_timeout.unwrap_or(hello), "--hello-timeout")?,
            Self::duration(self.timeout.unwrap_or(request), "--timeout")?,
        ))
    }

    /// Seconds → Duration, rejecting nonsense.
    fn duration(seconds: f64, what: &str) -> Result<Duration> {
        if !(seconds.is_finite() && seconds > 0.0) {
            bail!("{what} must be a positive number of seconds, got {seconds}");
        }
        Ok(Duration::from_secs_f64(seconds))
    }

    /// Starts (or opens) the target. `selftest` selects the self-test firmware. Returns the
    /// link and the suite's ELF, when known (not for `--port` without `--firmware`).
    pub fn connect(&self, selftest: bool) -> Result<(Link, Option<PathBuf>)> {
        if let Some(port) = &self.port {
            return Ok((link::open_serial(port, self.baud)?, self.firmware.clone()));
        }
        let target = self.target_name();
        // The model first: its build is the long step, and fails without touching firmware.
        let simulator = match target {
            TargetName::QemuVirt | TargetName::QemuVirtZbb => Simulator::Qemu,
            TargetName::IbexSim => Simulator::Ibex(ibex::model("rv32imc")?),
            TargetName::IbexSimZbb => Simulator::Ibex(ibex::model("zbb")?),
            TargetName::EarlgreySim => Simulator::EarlGrey(earlgrey::model("masked")?),
            TargetName::EarlgreySimUnmasked => Simulator::EarlGrey(earlgrey::model("unmasked")?),
        };
        let elf = match &self.firmware {
            Some(elf) if elf.exists() => elf.clone(),
            Some(elf) => bail!("firmware {} does not exist", elf.display()),
            None => firmware::build(target.suite_features(), target.zbb(), selftest)?,
        };
        let link = match simulator {
            Simulator::Qemu => qemu::start(&elf, target.zbb())?,
            Simulator::Ibex(model) => ibex::start(&model, &elf)?,
            Simulator::EarlGrey(model) => {
                let work = firmware::repo_root().join("target/sim").join(target.name());
                earlgrey::start(&model, &elf, &work)?
            }
        };
        Ok((link, Some(elf)))
    }
}
