//! `cyclebench prepare`: builds what a run on a target needs (the model of a simulated chip or
//! core, the suite firmware) without running anything, so that a cluster's build job does it
//! once for every shard.

use anyhow::Result;

use crate::target::TargetArgs;

/// Arguments of `cyclebench prepare`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
}

/// Builds the model and the firmware (each a no-op when cached) and names the firmware.
pub fn run(args: Args) -> Result<bool> {
    match args.target.prepare()? {
        Some(elf) => println!("{} ready: {}", args.target.label(), elf.display()),
        None => println!("{}: a board needs nothing built", args.target.label()),
    }
    Ok(true)
}
