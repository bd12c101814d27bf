//! The compact line-based ASCII wire form.
//!
//! On the Earl Grey simulation one UART byte costs about 700 CPU cycles, so a typical reply
//! has to fit in 64 bytes. A frame is `PAYLOAD*CCCC`: space-separated tokens, then `*` and
//! the CRC-16/XMODEM of the payload as four lower-case hex digits. The newline is not part
//! of the frame. Full grammar: `docs/protocol.md`.
//!
//! Decoding never panics, whatever bytes it is fed; it returns a [`WireError`] instead.

mod cycles;
mod decimal;
mod frame;
mod options;
mod reply;
mod request;

use alloc::string::String;
use core::fmt;

pub use cycles::{decode as decode_cycles, encode as encode_cycles};
pub use decimal::{push_decimal, push_number};
pub use frame::{checksum, frame, unframe};
pub use options::Options;
pub use reply::{decode_reply, encode_reply};
pub use request::{decode_request, encode_request, Rejected};

use crate::DatasetId;

/// Why a line could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Longer than [`crate::MAX_LINE_LEN`].
    TooLong,
    /// Holds a byte outside printable ASCII.
    NotAscii,
    /// No `*CCCC` checksum suffix.
    MissingChecksum,
    /// The checksum does not match the payload.
    Checksum,
    /// A hello from a suite speaking another protocol version.
    Version(u16),
    /// Well-framed but not a valid message; says what was wrong.
    Malformed(&'static str),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong => write!(f, "line longer than {} bytes", crate::MAX_LINE_LEN),
            Self::NotAscii => f.write_str("line holds non-printable or non-ASCII bytes"),
            Self::MissingChecksum => f.write_str("line has no '*CCCC' checksum"),
            Self::Checksum => f.write_str("checksum mismatch"),
            Self::Version(v) => write!(
                f,
                "peer speaks protocol version {v}, this build speaks {}",
                crate::PROTOCOL_VERSION
            ),
            Self::Malformed(what) => write!(f, "malformed message: {what}"),
        }
    }
}

/// Splits a payload into tokens; an empty token (double space) is malformed.
fn tokens(payload: &str) -> Tokens<'_> {
    Tokens {
        inner: SpaceSplit { rest: Some(payload) },
    }
}

/// The pieces of a string between single spaces, as `str::split(' ')` yields them, found by a
/// byte search: on the suite's core the generic character searcher cost about a thousand
/// cycles per request line.
struct SpaceSplit<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for SpaceSplit<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|b| b == b' ') {
            Some(i) => {
                // A space is one byte, so both sides of it are character boundaries.
                self.rest = rest.get(i + 1..);
                rest.get(..i)
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// Iterator over the space-separated tokens of a payload, with typed accessors.
pub struct Tokens<'a> {
    inner: SpaceSplit<'a>,
}

impl<'a> Tokens<'a> {
    /// The next token; `what` names it in the error when there is none.
    pub fn next(&mut self, what: &'static str) -> Result<&'a str, WireError> {
        match self.inner.next() {
            Some(t) if !t.is_empty() => Ok(t),
            _ => Err(WireError::Malformed(what)),
        }
    }

    /// The next token, if the payload has one.
    pub fn optional(&mut self) -> Result<Option<&'a str>, WireError> {
        match self.inner.next() {
            None => Ok(None),
            Some("") => Err(WireError::Malformed("empty token")),
            Some(t) => Ok(Some(t)),
        }
    }

    /// The next token as a canonical unsigned decimal.
    pub fn number<T: core::str::FromStr>(&mut self, what: &'static str) -> Result<T, WireError> {
        parse_number(self.next(what)?, what)
    }

    /// The next token as one phase's cycle summary.
    pub fn cycles(&mut self) -> Result<crate::Cycles, WireError> {
        cycles::decode(self.next("cycle count")?)
    }

    /// The rest of the payload as free text, in the one form the encoder writes: words
    /// separated by single spaces, `-` for no text.
    fn text(self) -> Result<alloc::string::String, WireError> {
        let mut out = alloc::string::String::new();
        for (i, t) in self.inner.enumerate() {
            if t.is_empty() {
                return Err(WireError::Malformed("free text with empty words"));
            }
            if i > 0 {
                out.push(' ');
            }
            out.push_str(t);
        }
        match out.as_str() {
            "" => Err(WireError::Malformed("free text missing")),
            "-" => Ok(alloc::string::String::new()),
            _ => Ok(out),
        }
    }

    fn end(mut self) -> Result<(), WireError> {
        match self.inner.next() {
            None => Ok(()),
            Some(_) => Err(WireError::Malformed("trailing tokens")),
        }
    }
}

/// Parses an unsigned decimal in canonical form: digits only, no sign, no leading zero.
pub fn parse_number<T: core::str::FromStr>(token: &str, what: &'static str) -> Result<T, WireError> {
    let canonical =
        !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) && (token == "0" || !token.starts_with('0'));
    if !canonical {
        return Err(WireError::Malformed(what));
    }
    token.parse().map_err(|_| WireError::Malformed(what))
}

/// Whether `token` is a valid name token (platform, implementation): `[a-z0-9._-]{1,32}`.
fn is_name(token: &str) -> bool {
    (1..=32).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_' || b == b'.')
}

/// Appends one token, preceded by its separating space.
pub fn push(out: &mut String, token: &str) {
    out.push(' ');
    out.push_str(token);
}

/// `a` when `first`, else `b`: the two letters of a two-valued field.
pub fn pick(first: bool, a: &'static str, b: &'static str) -> &'static str {
    if first {
        a
    } else {
        b
    }
}

/// Reads a two-valued field: the token `a.0` means `a.1`, `b.0` means `b.1`.
pub fn flag<T>(t: &mut Tokens<'_>, what: &'static str, a: (&str, T), b: (&str, T)) -> Result<T, WireError> {
    let token = t.next(what)?;
    if token == a.0 {
        Ok(a.1)
    } else if token == b.0 {
        Ok(b.1)
    } else {
        Err(WireError::Malformed(what))
    }
}

/// Reads a dataset id token.
pub fn dataset(t: &mut Tokens<'_>) -> Result<DatasetId, WireError> {
    DatasetId::new(t.next("dataset id")?).map_err(|_| WireError::Malformed("invalid dataset id"))
}

/// Reads a dataset id, or `-` for none.
pub fn optional_dataset(t: &mut Tokens<'_>) -> Result<Option<DatasetId>, WireError> {
    match t.next("dataset id")? {
        "-" => Ok(None),
        id => DatasetId::new(id)
            .map(Some)
            .map_err(|_| WireError::Malformed("invalid dataset id")),
    }
}

#[cfg(test)]
mod tests;
