//! A simulator that exposes a link to the suite as a PTY and announces its path on stdout
//! (the OpenTitan Verilator models do for the UART: "UART: Created /dev/pts/N for uart0 ...",
//! cyclebench's Earl Grey testbench for its mailbox: "SIM_MAILBOX: Created /dev/pts/N ...").

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::process::{dies_with_tool, stop};
use super::{serial, Link};

/// A PTY a simulator announces on stdout.
#[derive(Clone, Copy, Debug)]
pub struct Pty {
    /// What it carries, for messages ("UART", "mailbox").
    pub name: &'static str,
    /// How the line announcing it begins; the path is the line's `/dev/pts/` word.
    pub announced_by: &'static str,
}

/// Starts `command`, waits up to `timeout` for it to announce the PTY `pty`, and opens it.
/// The simulator's own output keeps being drained (so it never blocks on a full pipe) into
/// `log` if given.
pub fn spawn_with_pty(
    mut command: Command,
    pty: Pty,
    timeout: Duration,
    log: Option<std::path::PathBuf>,
) -> Result<Link> {
    let program = command.get_program().to_string_lossy().into_owned();
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    dies_with_tool(&mut command);
    let mut child = command
        .spawn()
        .with_context(|| format!("cannot start the simulator {program}"))?;
    let Some(stdout) = child.stdout.take() else {
        stop(&mut child);
        bail!("{program} started without the pipe of its output");
    };
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        let mut log = log.and_then(|p| std::fs::File::create(p).ok());
        let mut announced = false;
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(file) = log.as_mut() {
                use std::io::Write;
                let _ = writeln!(file, "{line}");
            }
            if !announced {
                if let Some(path) = pty_path(&line, pty.announced_by) {
                    announced = true;
                    let _ = tx.send(path);
                }
            }
        }
    });
    let name = pty.name;
    let path = match rx.recv_timeout(timeout) {
        Ok(path) => path,
        Err(_) => {
            let status = child.try_wait().ok().flatten();
            stop(&mut child);
            match status {
                Some(s) => bail!("{program} exited ({s}) before creating its {name}"),
                None => bail!(
                    "{program} did not create its {name} within {:.0} s",
                    timeout.as_secs_f64()
                ),
            }
        }
    };
    let mut link = match serial::open_serial(&path, 115_200) {
        Ok(link) => link,
        Err(e) => {
            stop(&mut child);
            return Err(e.context(format!("opening the {name} {path} of {program}")));
        }
    };
    link.description = format!("{program} (pid {}, {name} {path})", child.id());
    link.child = Some(child);
    Ok(link)
}

/// The PTY path in a simulator line that begins with `announced_by`.
fn pty_path(line: &str, announced_by: &str) -> Option<String> {
    if !line.trim_start().starts_with(announced_by) {
        return None;
    }
    line.split_whitespace()
        .find(|w| w.starts_with("/dev/pts/"))
        .map(|w| w.trim_end_matches([',', '.']).to_owned())
}

#[cfg(test)]
mod tests {
    use super::pty_path;

    #[test]
    fn finds_the_announced_pty() {
        let uart = "UART: Created /dev/pts/7 for uart0. Connect to it with any terminal program, e.g.";
        let mailbox = "SIM_MAILBOX: Created /dev/pts/8 for the host link (mailbox at 0x30000800, \
                       polled every 64 cycles)";
        assert_eq!(pty_path(uart, "UART: Created").as_deref(), Some("/dev/pts/7"));
        assert_eq!(pty_path(mailbox, "SIM_MAILBOX: Created").as_deref(), Some("/dev/pts/8"));
        // Each link finds only its own PTY.
        assert_eq!(pty_path(mailbox, "UART: Created"), None);
        assert_eq!(pty_path(uart, "SIM_MAILBOX: Created"), None);
        assert_eq!(
            pty_path("JTAG: Virtual JTAG interface jtag0 is listening", "UART: Created"),
            None
        );
    }
}
