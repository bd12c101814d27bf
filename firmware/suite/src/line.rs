//! Bounded line reader: a line never grows past the protocol limit, whatever the host sends.

use cyclebench_modules::Comm;
use cyclebench_protocol::MAX_LINE_LEN;

/// A received line that did not fit.
pub struct TooLong;

/// Reads bytes into a fixed buffer until a newline.
pub struct LineReader {
    buf: [u8; MAX_LINE_LEN],
}

impl LineReader {
    /// An empty reader.
    pub const fn new() -> Self {
        Self { buf: [0; MAX_LINE_LEN] }
    }

    /// Reads one line (without `\n` and a trailing `\r`). An overlong line is consumed up to
    /// its newline and reported as [`TooLong`], so the next line starts clean.
    pub fn read_line(&mut self, comm: &mut dyn Comm) -> Result<&[u8], TooLong> {
        let mut len = 0;
        let mut overflow = false;
        loop {
            match comm.read_byte() {
                b'\n' => break,
                byte if len < self.buf.len() => {
                    self.buf[len] = byte;
                    len += 1;
                }
                _ => overflow = true,
            }
        }
        if overflow {
            return Err(TooLong);
        }
        let line = &self.buf[..len];
        Ok(line.strip_suffix(b"\r").unwrap_or(line))
    }
}
