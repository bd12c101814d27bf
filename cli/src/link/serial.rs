//! A serial port or PTY (a board's UART).

use std::time::Duration;

use anyhow::{Context, Result};

use super::Link;

/// Opens `path` at `baud`, 8N1.
pub fn open_serial(path: &str, baud: u32) -> Result<Link> {
    let port = serialport::new(path, baud)
        .timeout(Duration::from_millis(100))
        .open()
        .with_context(|| {
            format!("cannot open serial port {path}: check the path (ls /dev/ttyUSB* /dev/ttyACM*), permissions (group dialout) and that no other program holds it")
        })?;
    let reader = port.try_clone().context("cloning the serial port handle")?;
    Ok(Link::new(
        Box::new(reader),
        Box::new(port),
        None,
        format!("serial port {path} at {baud} baud"),
        "serial port closed",
    ))
}
