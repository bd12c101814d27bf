//! `cyclebench prepare`: builds what a run on a target needs (the model of a simulated chip or
//! core, the suite firmware) without running anything, so that a cluster's build job does it
//! once for every shard; or, with `--board`, the suite's image for a board, which the user
//! loads and `run --port` then reaches.

use anyhow::Result;

use crate::firmware::layout::Layout;
use crate::targets::{Board, LinkKind, Target};

/// Arguments of `cyclebench prepare`: what decides the model and the firmware, nothing else
/// (waits and traces belong to a run).
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
    /// Instead of a target, build the suite's image for a board and the file its loader
    /// takes, and print both; load it with the board's own tools, then `run --port DEV --baud
    /// BAUD` (docs/targets.md).
    #[arg(long, value_enum, conflicts_with_all = ["target", "link"])]
    board: Option<Board>,
}

/// Builds the model and the firmware (each a no-op when cached), with the layout padding the
/// environment asks for, and names the firmware; or a board's image.
pub fn run(args: Args) -> Result<bool> {
    if let Some(board) = &args.board {
        let image = board.prepare(Layout::from_env()?)?;
        println!("{} ready: {}", board.name, image.elf.display());
        println!("{} image for its loader: {}", board.loaded, image.binary.display());
        println!("then: cyclebench run --port DEV --baud {} FILES", board.baud);
        return Ok(true);
    }
    let target = args.target.as_ref().unwrap_or_else(|| Target::default_target());
    let elf = target.prepare(args.link, Layout::from_env()?)?;
    println!("{} ready: {}", target.name, elf.display());
    Ok(true)
}
