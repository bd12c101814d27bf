//! A session with a running suite: the hello handshake, then one request and one reply at a
//! time, every wait bounded.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use cyclebench_protocol::wire::{decode_reply, encode_request, WireError};
use cyclebench_protocol::{Hello, Reply, Request};

use crate::link::{Link, ReadError};

/// How long to listen for a spontaneous hello before asking for one.
const SPONTANEOUS_HELLO: Duration = Duration::from_secs(3);

/// Why a request got no reply.
#[derive(Debug)]
pub enum RequestError {
    /// No reply within the timeout; the link is considered dead.
    Timeout(Duration),
    /// The link closed; says why.
    Closed(String),
    /// The suite started over (it sent a hello instead of a reply).
    Reset(Box<Hello>),
    /// A reply arrived but did not decode.
    Garbled { line: String, error: WireError },
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Timeout(t) => write!(
                f,
                "no reply within {:.0} s (raise --timeout if the benchmark is long)",
                t.as_secs_f64()
            ),
            Self::Closed(why) => write!(f, "link lost: {why}"),
            Self::Reset(hello) => write!(
                f,
                "the target reset during this request (it sent a new hello as {})",
                hello.platform
            ),
            Self::Garbled { line, error } => write!(f, "undecodable reply ({error}): {line:?}"),
        }
    }
}

impl RequestError {
    /// Whether further requests can still be sent.
    pub fn link_usable(&self) -> bool {
        matches!(self, Self::Reset(_) | Self::Garbled { .. })
    }
}

/// A connected suite.
pub struct Session {
    link: Link,
    /// The suite's latest hello.
    pub hello: Hello,
    timeout: Duration,
}

impl Session {
    /// Waits for the suite's hello (asking for it if the suite was already running).
    pub fn connect(mut link: Link, hello_timeout: Duration, timeout: Duration) -> Result<Self> {
        let start = Instant::now();
        let mut noise: Vec<String> = Vec::new();
        let mut asked = false;
        loop {
            let elapsed = start.elapsed();
            if elapsed >= hello_timeout {
                bail!(
                    "no hello from the suite on {} within {:.0} s{}",
                    link.description,
                    hello_timeout.as_secs_f64(),
                    describe_noise(&noise)
                );
            }
            if !asked && elapsed >= SPONTANEOUS_HELLO.min(hello_timeout / 2) {
                link.write_line(&encode_request(&Request::Hello))?;
                asked = true;
            }
            let wait = (hello_timeout - elapsed).min(Duration::from_millis(250));
            match link.read_line(wait) {
                Ok(line) => match decode_reply(line.as_bytes()) {
                    Ok(Reply::Hello(hello)) => return Ok(Self { link, hello, timeout }),
                    Err(WireError::Version(v)) => bail!(
                        "the suite speaks protocol version {v}, this cyclebench speaks {}: rebuild one of them from the same revision",
                        cyclebench_protocol::PROTOCOL_VERSION
                    ),
                    _ if !line.trim().is_empty() => noise.push(line),
                    _ => {}
                },
                Err(ReadError::Timeout) => {}
                Err(ReadError::Closed(why)) => {
                    bail!("{} ended before the suite said hello: {why}{}", link.description, describe_noise(&noise))
                }
            }
        }
    }

    /// Sends `request` and waits for its reply.
    pub fn request(&mut self, request: &Request) -> Result<Reply, RequestError> {
        self.exchange(&encode_request(request), *request == Request::Hello)
    }

    /// Sends `line` verbatim (for testing the suite's input handling) and waits for the reply.
    pub fn send_raw(&mut self, line: &str) -> Result<Reply, RequestError> {
        self.exchange(line, false)
    }

    fn exchange(&mut self, line: &str, hello_expected: bool) -> Result<Reply, RequestError> {
        self.link
            .write_line(line)
            .map_err(|e| RequestError::Closed(format!("{e:#}")))?;
        let start = Instant::now();
        loop {
            let remaining = self
                .timeout
                .checked_sub(start.elapsed())
                .ok_or(RequestError::Timeout(self.timeout))?;
            let line = match self.link.read_line(remaining) {
                Ok(line) => line,
                Err(ReadError::Timeout) => return Err(RequestError::Timeout(self.timeout)),
                Err(ReadError::Closed(why)) => return Err(RequestError::Closed(why)),
            };
            if line.trim().is_empty() {
                continue;
            }
            return match decode_reply(line.as_bytes()) {
                Ok(Reply::Hello(hello)) if !hello_expected => {
                    self.hello = hello.clone();
                    Err(RequestError::Reset(Box::new(hello)))
                }
                Ok(reply) => Ok(reply),
                Err(error) => Err(RequestError::Garbled { line, error }),
            };
        }
    }
}

fn describe_noise(noise: &[String]) -> String {
    if noise.is_empty() {
        return String::from(" (it sent nothing)");
    }
    let tail: Vec<&str> = noise.iter().rev().take(5).rev().map(String::as_str).collect();
    format!("; last output:\n  {}", tail.join("\n  "))
}
