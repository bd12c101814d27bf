//! The options shared by every subcommand that talks to a target.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};

use super::Target;
use crate::link::{self, Link};

/// Where to run: a target the tool starts, or a board on a serial port.
#[derive(clap::Args, Clone, Debug)]
pub struct TargetArgs {
    /// Target to start (builds the firmware, and the model of a simulated chip, if needed).
    /// Default: earlgrey-sim-unmasked, the configuration the thesis measured.
    #[arg(long, value_enum, conflicts_with = "port")]
    pub target: Option<Target>,
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
            None => self.target().name.to_owned(),
        }
    }

    fn target(&self) -> &Target {
        self.target.as_ref().unwrap_or_else(|| Target::default_target())
    }

    /// (hello timeout, request timeout) for this target, from the flags or its defaults.
    pub fn timeouts(&self) -> Result<(Duration, Duration)> {
        let defaults = self.target().timeouts;
        Ok((
            Self::duration(self.hello_timeout, "--hello-timeout")?.unwrap_or(defaults.hello),
            Self::duration(self.timeout, "--timeout")?.unwrap_or(defaults.request),
        ))
    }

    /// Seconds given on the command line → Duration, rejecting nonsense.
    fn duration(seconds: Option<f64>, flag: &str) -> Result<Option<Duration>> {
        match seconds {
            Some(s) if !(s.is_finite() && s > 0.0) => {
                bail!("{flag} must be a positive number of seconds, got {s}")
            }
            seconds => Ok(seconds.map(Duration::from_secs_f64)),
        }
    }

    /// Starts (or opens) the target. `selftest` selects the self-test firmware. Returns the
    /// link and the suite's ELF, when known (not for `--port` without `--firmware`).
    pub fn connect(&self, selftest: bool) -> Result<(Link, Option<PathBuf>)> {
        if let Some(port) = &self.port {
            return Ok((link::open_serial(port, self.baud)?, self.firmware.clone()));
        }
        let (link, elf) = self.target().start(self.firmware.as_deref(), selftest)?;
        Ok((link, Some(elf)))
    }
}
