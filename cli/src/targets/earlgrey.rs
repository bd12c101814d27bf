//! The OpenTitan Earl Grey Verilator model, built from the PyPI RTL snapshot by
//! `sim/earlgrey/build.sh` (cached under ~/.cache/cyclebench) and started with the suite in
//! its ROM and flash. The host reaches the suite through the testbench's mailbox or the chip's
//! UART, each a PTY the model announces.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::LinkKind;
use crate::firmware::memory_image;
use crate::link::{self, Link, Pty};

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
        // The chip has two 512 KiB banks, but the model registers only the first for loading.
        size: 0x8_0000,
    },
];

/// OTP image written by `sim/earlgrey/build.sh` next to the model.
const OTP_IMAGE: &str = "otp_img_sim_verilator.vmem";

/// Where `sim/earlgrey/build.sh` describes the model it built, next to it; its line
/// `profile: none (unprofiled)` marks a model compiled without its compiler profile.
const BUILD_INFO: &str = "build-info.txt";

/// How long the model may take to come up and create its PTYs.
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// The testbench's mailbox (sim/earlgrey/patches/07-fast-link.patch): whole lines moved by the
/// simulator between cycles, so a reply costs no simulated UART time.
const MAILBOX: Pty = Pty {
    name: "mailbox",
    announced_by: "SIM_MAILBOX: Created",
};

/// UART0 through the snapshot's UART DPI: 7200 baud, some 700 CPU cycles per byte (unless
/// [`UART_CYCLES_PER_SYMBOL`] says otherwise).
const UART: Pty = Pty {
    name: "UART",
    announced_by: "UART: Created",
};

/// Names a model binary to run instead of the one `sim/earlgrey/build.sh` builds (it needs the
/// OTP image beside it). The build script sets it to train its profile on an instrumented model.
pub const MODEL_OVERRIDE: &str = "CYCLEBENCH_EARLGREY_MODEL";

/// Sets the clock cycles per bit of the testbench's UART
/// (`sim/earlgrey/patches/11-uartdpi-cycles-per-symbol.patch`) instead of the model's own
/// 500 kHz / 7200 baud (69): a suite built for a board, whose UART keeps the board's ratio of
/// baud rate to clock, then talks to the model over `--link uart`. The model's clock is its CPU
/// clock, four per peripheral cycle as on the NexysVideo: 4 · 2.5 MHz / 115200 ≈ 87 for that
/// board (`cli/tests/earlgrey.rs`).
pub const UART_CYCLES_PER_SYMBOL: &str = "CYCLEBENCH_EARLGREY_UART_CYCLES_PER_SYMBOL";

/// The cycles per UART bit [`UART_CYCLES_PER_SYMBOL`] asks for, if it is set.
fn uart_cycles_per_symbol() -> Result<Option<u32>> {
    std::env::var_os(UART_CYCLES_PER_SYMBOL)
        .map(|text| cycles_per_symbol(&text.to_string_lossy()))
        .transpose()
}

/// A number of clock cycles per UART bit: at least 2, since the testbench's receiver samples
/// the start bit half a bit in.
fn cycles_per_symbol(text: &str) -> Result<u32> {
    match text.trim().parse::<u32>() {
        Ok(cycles) if cycles >= 2 => Ok(cycles),
        _ => bail!("{UART_CYCLES_PER_SYMBOL}={text} is not a number of clock cycles per UART bit of at least 2"),
    }
}

/// Returns the model for `config` (`masked` or `unmasked`), building it first if the cache
/// has none. Verilating the whole chip is a long build; its progress is shown.
pub fn model(config: &str) -> Result<PathBuf> {
    let path = match std::env::var_os(MODEL_OVERRIDE) {
        Some(path) => {
            let path = PathBuf::from(path);
            if !path.is_file() {
                bail!("{MODEL_OVERRIDE} names {}, which is not a file", path.display());
            }
            path
        }
        None => super::model::build("sim/earlgrey/build.sh", config, "Earl Grey model")?,
    };
    let info = std::fs::read_to_string(path.with_file_name(BUILD_INFO)).unwrap_or_default();
    if info.lines().any(|l| l.starts_with("profile: none")) {
        eprintln!(
            "note: the Earl Grey model {} is unprofiled (built with CYCLEBENCH_MODEL_PROFILE=off): it simulates about half as fast as one built with its profile",
            path.display()
        );
    }
    Ok(path)
}

/// Starts the model with `elf` loaded (the suite's ROM jump into ROM, the rest into flash)
/// and opens the PTY of `link`, which the suite in `elf` must have been built to use.
///
/// Each model runs in a directory of its own under `work_root` (its memory images, its log):
/// instances of `--jobs`, and other runs, never load images another one is writing. The
/// directory goes with the model, unless the model fails to start: then its log is kept.
///
/// With `trace`, the core's instruction tracer writes `<trace>/<working directory's name>_00000000.log`
/// (the tracer appends the hart id).
pub fn start(model: &Path, elf: &Path, work_root: &Path, link: LinkKind, trace: Option<&Path>) -> Result<Link> {
    let uart_cycles = uart_cycles_per_symbol()?;
    std::fs::create_dir_all(work_root).with_context(|| format!("creating {}", work_root.display()))?;
    let scratch = tempfile::Builder::new()
        .prefix(&format!("{link:?}-").to_lowercase())
        .tempdir_in(work_root)
        .with_context(|| format!("creating a working directory in {}", work_root.display()))?;
    let work_dir = scratch.path();
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
    if let Some(cycles) = uart_cycles {
        sim.arg(format!("+UARTDPI_CYCLES_PER_SYMBOL_uart0={cycles}"));
    }
    match trace {
        // The instruction tracer triples the simulation time and writes gigabytes: off unless
        // asked for.
        None => {
            sim.arg("+ibex_tracer_enable=0");
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            let dir = dir
                .canonicalize()
                .with_context(|| format!("resolving {}", dir.display()))?;
            let base = dir.join(work_dir.file_name().unwrap_or_default());
            eprintln!("instruction trace: {}_00000000.log", base.display());
            sim.arg("+ibex_tracer_enable=1");
            sim.arg(format!("+ibex_tracer_file_base={}", base.display()));
        }
    }
    let pty = match link {
        LinkKind::Mailbox => MAILBOX,
        LinkKind::Uart => UART,
    };
    match link::spawn_with_pty(sim, pty, START_TIMEOUT, Some(work_dir.join("simulator.log"))) {
        Ok(mut link) => {
            link.keep_scratch(scratch);
            Ok(link)
        }
        Err(e) => {
            let kept = scratch.keep();
            Err(e.context(format!(
                "the model's output is in {}",
                kept.join("simulator.log").display()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uart_cycles_per_bit_are_a_number_of_at_least_two() {
        assert_eq!(cycles_per_symbol("87").unwrap(), 87);
        assert_eq!(cycles_per_symbol(" 2\n").unwrap(), 2);
        for wrong in ["1", "0", "-87", "86.8", "fast", ""] {
            let e = cycles_per_symbol(wrong).unwrap_err().to_string();
            assert!(
                e.contains(UART_CYCLES_PER_SYMBOL) && e.contains("at least 2"),
                "{wrong}: {e}"
            );
        }
    }
}
