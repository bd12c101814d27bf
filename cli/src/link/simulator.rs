//! A simulator that exposes the target's UART as a PTY and announces its path on stdout
//! (the OpenTitan Verilator models do: "UART: Created /dev/pts/N for uart0 ...").

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::process::{dies_with_tool, stop};
use super::{serial, Link};

/// Starts `command`, waits up to `timeout` for it to announce the UART's PTY, and opens it.
/// The simulator's own output keeps being drained (so it never blocks on a full pipe) into
/// `log` if given.
pub fn spawn_with_pty(mut command: Command, timeout: Duration, log: Option<std::path::PathBuf>) -> Result<Link> {
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
                if let Some(pty) = pty_path(&line) {
                    announced = true;
                    let _ = tx.send(pty);
                }
            }
        }
    });
    let pty = match rx.recv_timeout(timeout) {
        Ok(pty) => pty,
        Err(_) => {
            let status = child.try_wait().ok().flatten();
            stop(&mut child);
            match status {
                Some(s) => bail!("{program} exited ({s}) before creating its UART"),
                None => bail!(
                    "{program} did not create its UART within {:.0} s",
                    timeout.as_secs_f64()
                ),
            }
        }
    };
    let mut link = match serial::open_serial(&pty, 115_200) {
        Ok(link) => link,
        Err(e) => {
            stop(&mut child);
            return Err(e.context(format!("opening the UART {pty} of {program}")));
        }
    };
    link.description = format!("{program} (pid {}, UART {pty})", child.id());
    link.child = Some(child);
    Ok(link)
}

/// The PTY path in a simulator line announcing UART0.
fn pty_path(line: &str) -> Option<String> {
    if !line.contains("uart0") && !line.contains("UART") {
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
        let line = "UART: Created /dev/pts/7 for uart0. Connect to it with any terminal program, e.g.";
        assert_eq!(pty_path(line).as_deref(), Some("/dev/pts/7"));
        assert_eq!(pty_path("JTAG: Virtual JTAG interface jtag0 is listening"), None);
    }
}
