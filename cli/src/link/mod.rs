//! Byte links to a target, read line by line on a background thread so that every wait can
//! have a timeout.

mod faults;
mod process;
mod serial;
mod simulator;

use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;
use std::time::Instant;

use anyhow::{Context, Result};

use faults::FaultInjector;
pub use process::spawn;
pub use serial::open_serial;
pub use simulator::{spawn_with_pty, Pty};

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
    /// The simulator's working directory, removed once the simulator is stopped.
    scratch: Option<tempfile::TempDir>,
    /// Human-readable description, e.g. "qemu-system-riscv32 (pid 123)".
    pub description: String,
    closed: Option<String>,
    /// Damage to outgoing bytes, when testing recovery.
    outgoing_faults: Option<FaultInjector>,
    /// Damage to incoming bytes, applied by the reader thread.
    incoming_faults: Arc<Mutex<Option<FaultInjector>>>,
    /// When the link was made, and when its last byte arrived (milliseconds after that):
    /// a reply on a slow link is many seconds of bytes before it is a line.
    opened: Instant,
    last_byte: Arc<AtomicU64>,
    /// Bytes received since the last newline.
    partial: Arc<AtomicU64>,
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
        let incoming_faults = Arc::new(Mutex::new(None));
        let faults = Arc::clone(&incoming_faults);
        let opened = Instant::now();
        let last_byte = Arc::new(AtomicU64::new(0));
        let partial = Arc::new(AtomicU64::new(0));
        let seen = Arc::clone(&last_byte);
        let pending = Arc::clone(&partial);
        let on_bytes = move |line_len: usize| {
            seen.store(opened.elapsed().as_millis() as u64, Ordering::Relaxed);
            pending.store(line_len as u64, Ordering::Relaxed);
        };
        thread::spawn(move || read_lines(reader, &tx, closed_reason, &faults, &on_bytes));
        Self {
            writer,
            lines: rx,
            child,
            scratch: None,
            description,
            closed: None,
            outgoing_faults: None,
            incoming_faults,
            opened,
            last_byte,
            partial,
        }
    }

    /// Keeps `dir`, the simulator's working directory, until the simulator is stopped.
    pub fn keep_scratch(&mut self, dir: tempfile::TempDir) {
        self.scratch = Some(dir);
    }

    /// Whether bytes of an unfinished line have arrived.
    pub fn partial_line(&self) -> bool {
        self.partial.load(Ordering::Relaxed) > 0
    }

    /// How long ago the last byte arrived (or the link was made).
    pub fn idle(&self) -> Duration {
        let last = Duration::from_millis(self.last_byte.load(Ordering::Relaxed));
        self.opened.elapsed().saturating_sub(last)
    }

    /// From now on, damages a fraction `rate` of the bytes in each direction (see
    /// [`FaultInjector`]); each direction has its own stream seeded from `seed`.
    pub fn inject_faults(&mut self, rate: f64, seed: u64) {
        self.outgoing_faults = Some(FaultInjector::new(rate, seed));
        let incoming = FaultInjector::new(rate, seed.wrapping_add(0x9e37_79b9_7f4a_7c15));
        if let Ok(mut faults) = self.incoming_faults.lock() {
            *faults = Some(incoming);
        }
    }

    /// Sends one line (a newline is appended).
    pub fn write_line(&mut self, line: &str) -> Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        if let Some(faults) = self.outgoing_faults.as_mut() {
            bytes = faults.pass(&bytes);
        }
        self.writer
            .write_all(&bytes)
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
            process::stop(child);
        }
    }
}

fn read_lines(
    mut reader: Box<dyn Read + Send>,
    tx: &mpsc::Sender<Incoming>,
    closed_reason: &str,
    faults: &Mutex<Option<FaultInjector>>,
    on_bytes: &dyn Fn(usize),
) {
    let mut buf = [0u8; 4096];
    let mut line = Vec::new();
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let received = match faults.lock().ok().as_deref_mut().and_then(Option::as_mut) {
                    Some(f) => f.pass(&buf[..n]),
                    None => buf[..n].to_vec(),
                };
                for &b in &received {
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
                on_bytes(line.len());
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
