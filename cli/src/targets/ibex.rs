//! The cycle-accurate Ibex core, a Verilator model of the RTL in PyPI
//! `pythondata-cpu-ibex` inside the project's own testbench (`sim/ibex/`): RAM plus a host
//! link on the simulator's stdin/stdout.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Result;

use crate::link::{self, Link};

/// Returns the model for `config` (`rv32imc` or `zbb`), building it first if the cache has
/// none; its progress is shown.
pub fn model(config: &str) -> Result<PathBuf> {
    super::model::build("sim/ibex/build.sh", config, "Ibex model")
}

/// Starts the model with the suite loaded into its RAM. The simulator's diagnostics (cycle
/// limit, bad fetch) go to the terminal; its stdout is the link.
pub fn start(model: &Path, elf: &Path) -> Result<Link> {
    let mut sim = Command::new(model);
    sim.arg(elf);
    link::spawn(sim, true)
}
