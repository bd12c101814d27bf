//! Byte links to a target, read line by line on a background thread so that every wait can
//! have a timeout.

mod process;
mod serial;
mod simulator;

use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};

pub use process::spawn;
pub use serial::open_serial;
pub use simulator::spawn_with_pty;

/// Longest line kept from a target; a runaway target cannot exhaust host memory.
const MAX_HOST_LINE: usize = 64 * 1024;

/// What the reader thread delivers.
enum Incoming {
    Line(String),
    Closed(String),
}

/// Why no line arrived.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing within the timeout.
    Timeout,
    /// The link ended (process exited, port closed); says why.
    Closed(String),
}

/// A line-based link to a target.
pub struct Link {
    writer: Box<dyn Write + Send>,
    lines: Receiver<Incoming>,
    /// Kept so that dropping the link stops the simulator.
    child: Option<std::process::Child>,
    /// Human-readable description, e.g. "qemu-system-riscv32 (pid 123)".
    pub description: String,
    closed: Option<String>,
}

impl Link {
    fn new(
        reader: Box<dyn Read + Send>,
        writer: Box<dyn Write + Send>,
        child: Option<std::process::Child>,
        description: String,
        closed_reason: &'static str,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || read_lines(reader, &tx, closed_reason));
        Self {
            writer,
            lines: rx,
            child,
            description,
            closed: None,
        }
    }

    /// Sends one line (a newline is appended).
    pub fn write_line(&mut self, line: &str) -> Result<()> {
        self.writer
            .write_all(line.as_bytes())
            .and_then(|()| self.writer.write_all(b"\n"))
            .and_then(|()| self.writer.flush())
            .with_context(|| format!("writing to {}", self.description))
    }

    /// Waits up to `timeout` for the next line.
    pub fn read_line(&mut self, timeout: Duration) -> Result<String, ReadError> {
        if let Some(why) = &self.closed {
            return Err(ReadError::Closed(why.clone()));
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Incoming::Line(line)) => Ok(line),
            Ok(Incoming::Closed(why)) => {
                let why = self.exit_status().map_or(why.clone(), |s| format!("{why} ({s})"));
                self.closed = Some(why.clone());
                Err(ReadError::Closed(why))
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed(String::from("link reader stopped"))),
        }
    }

    fn exit_status(&mut self) -> Option<String> {
        let child = self.child.as_mut()?;
        // Give an exiting process a moment so its status is known.
        for _ in 0..20 {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(format!("simulator {status}"));
            }
            thread::sleep(Duration::from_millis(25));
        }
        None
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn read_lines(mut reader: Box<dyn Read + Send>, tx: &mpsc::Sender<Incoming>, closed_reason: &str) {
    let mut buf = [0u8; 4096];
    let mut line = Vec::new();
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                for &b in &buf[..n] {
                    if b == b'\n' || line.len() >= MAX_HOST_LINE {
                        if line.last() == Some(&b'\r') {
                            line.pop();
                        }
                        let text = String::from_utf8_lossy(&line).into_owned();
                        line.clear();
                        if tx.send(Incoming::Line(text)).is_err() {
                            return;
                        }
                        if b == b'\n' {
                            continue;
                        }
                    }
                    line.push(b);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut || e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Incoming::Closed(format!("{closed_reason}: {e}")));
                return;
            }
        }
    }
    let _ = tx.send(Incoming::Closed(String::from(closed_reason)));
}
