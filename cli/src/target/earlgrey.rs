//! The OpenTitan Earl Grey Verilator model, built from the PyPI RTL snapshot by
//! `sim/earlgrey/build.sh` (cached under ~/.cache/cyclebench) and started with the suite in
//! its ROM and flash.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Result};

use crate::firmware::memory_image;
use crate::link::{self, Link};

/// The memories the suite's ELF is split into (hw/top_earlgrey/sw/autogen/top_earlgrey.h).
const MEMORIES: [memory_image::Memory; 2] = [
    memory_image::Memory {
        name: "rom",
        base: 0x8000,
        size: 0x4000,
    },
    memory_image::Memory {
        name: "flash",
        base: 0x2000_0000,
        size: 0x10_0000,
    },
];

/// OTP image written by `sim/earlgrey/build.sh` next to the model.
const OTP_IMAGE: &str = "otp_img_sim_verilator.vmem";

/// How long the model may take to come up and create its UART.
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// Returns the model for `config` (`masked` or `unmasked`), building it first if the cache
/// has none. Verilating the whole chip is a long build; its progress is shown.
pub fn model(config: &str) -> Result<PathBuf> {
    super::model::build("sim/earlgrey/build.sh", config, "Earl Grey model")
}

/// Starts the model with `elf` loaded: the suite's ROM jump into ROM, the rest into flash.
pub fn start(model: &Path, elf: &Path, work_dir: &Path) -> Result<Link> {
    std::fs::create_dir_all(work_dir)?;
    let images = memory_image::split(elf, &MEMORIES, work_dir)?;
    let mut sim = Command::new(model);
    sim.current_dir(work_dir);
    for (memory, path) in &images {
        sim.arg(format!("--meminit={memory},{}", path.display()));
    }
    // The life-cycle state lives in OTP; the build script generates the image beside the model.
    let otp = model.with_file_name(OTP_IMAGE);
    if !otp.is_file() {
        bail!(
            "OTP image {} is missing; rebuild the model with sim/earlgrey/build.sh",
            otp.display()
        );
    }
    sim.arg(format!("--meminit=otp,{}", otp.display()));
    // The instruction tracer triples the simulation time and writes gigabytes.
    sim.arg("+ibex_tracer_enable=0");
    link::spawn_with_pty(sim, START_TIMEOUT, Some(work_dir.join("simulator.log")))
}
