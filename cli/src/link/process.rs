//! A simulator spawned by the tool, its UART on stdin/stdout.

use std::process::{Command, Stdio};

use anyhow::{Context, Result};

use super::Link;

/// Starts `command`, whose stdin/stdout carry the target's UART; stderr is inherited only
/// when `show_stderr` (otherwise discarded, and summarised if the process dies).
pub fn spawn(mut command: Command, show_stderr: bool) -> Result<Link> {
    let program = command.get_program().to_string_lossy().into_owned();
    command.stdin(Stdio::piped()).stdout(Stdio::piped());
    command.stderr(if show_stderr { Stdio::inherit() } else { Stdio::null() });
    let mut child = command.spawn().with_context(|| {
        format!("cannot start {program}; install it with scripts/setup.sh (Debian: apt install qemu-system-misc)")
    })?;
    let stdin = child.stdin.take().context("simulator stdin")?;
    let stdout = child.stdout.take().context("simulator stdout")?;
    let description = format!("{program} (pid {})", child.id());
    Ok(Link::new(
        Box::new(stdout),
        Box::new(stdin),
        Some(child),
        description,
        "simulator closed its output",
    ))
}
