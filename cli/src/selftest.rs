//! `cyclebench selftest`: the suite's on-target self-tests, streamed to the terminal.

use std::time::Instant;

use anyhow::{bail, Result};

use crate::link::ReadError;
use crate::target::TargetArgs;

/// Arguments of `cyclebench selftest`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
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
    let (_, timeout) = args.target.timeouts()?;
    let (mut link, _) = args.target.connect(true)?;
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
    use super::closing_line;

    #[test]
    fn reads_the_closing_line() {
        assert_eq!(closing_line("67 passed, 0 failed, 1 skipped"), Some((67, 0, 1)));
        assert_eq!(closing_line("test x ... ok"), None);
        assert_eq!(closing_line("1 passed, x failed, 1 skipped"), None);
    }
}
