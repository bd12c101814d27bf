//! `cyclebench selftest`: the suite's on-target self-tests, streamed to the terminal.

use std::time::Instant;

use anyhow::{bail, Result};

use crate::link::ReadError;
use crate::targets::{Target, TargetArgs};

/// The target the self-tests run on when none is named: QEMU starts in seconds, where a
/// cycle-accurate model may first have to be built.
const SELFTEST_TARGET: &str = "qemu-virt";

/// Arguments of `cyclebench selftest`: those of any target, the default target the quick one.
#[derive(clap::Args)]
#[command(mut_arg("target", |target| target.help(format!(
    "Target to start (builds the self-test firmware, and the model of a simulated chip, if needed). \
     Default: {SELFTEST_TARGET}, which needs no model built"
))))]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
}

impl Args {
    /// The target options with the self-tests' default target filled in.
    fn target(mut self) -> TargetArgs {
        if self.target.target.is_none() && self.target.port.is_none() {
            self.target.target = Target::named(SELFTEST_TARGET).cloned();
        }
        self.target
    }
}

/// Parses the closing line `N passed, N failed, N skipped`.
fn closing_line(line: &str) -> Option<(u32, u32, u32)> {
    let mut parts = line.trim().split(", ");
    let mut count = |word: &str| parts.next()?.strip_suffix(word)?.trim().parse().ok();
    let counts = (count(" passed")?, count(" failed")?, count(" skipped")?);
    Some(counts)
}

/// Runs the self-tests; `Ok(false)` when any failed.
pub fn run(args: Args) -> Result<bool> {
    let target = args.target();
    let (_, timeout) = target.timeouts()?;
    let (mut link, _) = target.connect_selftest()?;
    let start = Instant::now();
    loop {
        let Some(remaining) = timeout.checked_sub(start.elapsed()) else {
            bail!("self-test gave no closing line within {:.0} s", timeout.as_secs_f64());
        };
        match link.read_line(remaining) {
            Ok(line) => {
                println!("{line}");
                if let Some((_, failed, _)) = closing_line(&line) {
                    return Ok(failed == 0);
                }
            }
            Err(ReadError::Timeout) => continue,
            Err(ReadError::Closed(why)) => {
                bail!("target ended before the self-test finished: {why}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        selftest: Args,
    }

    fn target(args: &[&str]) -> TargetArgs {
        Cli::try_parse_from(std::iter::once("selftest").chain(args.iter().copied()))
            .unwrap()
            .selftest
            .target()
    }

    #[test]
    fn the_quick_target_is_the_default_and_says_so() {
        assert_eq!(target(&[]).label(), SELFTEST_TARGET);
        assert_eq!(target(&["--target", "ibex-sim"]).label(), "ibex-sim");
        assert_eq!(target(&["--port", "/dev/ttyUSB0"]).label(), "serial:/dev/ttyUSB0");
        let help = <Cli as clap::CommandFactory>::command().render_help().to_string();
        assert!(help.contains(&format!("Default: {SELFTEST_TARGET}")), "{help}");
    }

    #[test]
    fn reads_the_closing_line() {
        assert_eq!(closing_line("67 passed, 0 failed, 1 skipped"), Some((67, 0, 1)));
        assert_eq!(closing_line("test x ... ok"), None);
        assert_eq!(closing_line("1 passed, x failed, 1 skipped"), None);
    }
}
