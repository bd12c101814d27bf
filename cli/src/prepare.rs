//! `cyclebench prepare`: builds what a run on a target needs (the model of a simulated chip or
//! core, the suite firmware) without running anything, so that a cluster's build job does it
//! once for every shard.

use anyhow::Result;

use crate::firmware::layout::Layout;
use crate::targets::{LinkKind, Target};

/// Arguments of `cyclebench prepare`: what decides the model and the firmware, nothing else
/// (a board on a serial port needs nothing built, and waits and traces belong to a run).
#[derive(clap::Args)]
pub struct Args {
    /// Target to build for: its model (a simulated chip or core) and the suite firmware.
    /// Default: earlgrey-sim-unmasked, as for `run`.
    #[arg(long, value_enum)]
    target: Option<Target>,
    /// Host link on a simulated Earl Grey, which the firmware is built for: `mailbox` (the
    /// default) or `uart`, as the run will use.
    #[arg(long, value_enum)]
    link: Option<LinkKind>,
}

/// Builds the model and the firmware (each a no-op when cached), with the layout padding the
/// environment asks for, and names the firmware.
pub fn run(args: Args) -> Result<bool> {
    let target = args.target.as_ref().unwrap_or_else(|| Target::default_target());
    let elf = target.prepare(args.link, Layout::from_env()?)?;
    println!("{} ready: {}", target.name, elf.display());
    Ok(true)
}
