//! The compact line-based ASCII wire form.
//!
//! On the Earl Grey simulation one UART byte costs about 700 CPU cycles, so a typical reply
//! has to fit in 64 bytes. A frame is `PAYLOAD*CCCC`: space-separated tokens, then `*` and
//! the CRC-16/XMODEM of the payload as four lower-case hex digits. The newline is not part
//! of the frame. Full grammar: `docs/protocol.md`.
//!
//! Decoding never panics, whatever bytes it is fed; it returns a [`WireError`] instead.

mod cycles;
mod frame;
mod reply;
mod request;

use core::fmt;

pub use frame::{checksum, frame, unframe};
pub use reply::{decode_reply, encode_reply};
pub use request::{decode_request, encode_request};

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
        inner: payload.split(' '),
    }
}

/// Iterator over the space-separated tokens of a payload, with typed accessors.
struct Tokens<'a> {
    inner: core::str::Split<'a, char>,
}

impl<'a> Tokens<'a> {
    fn next(&mut self, what: &'static str) -> Result<&'a str, WireError> {
        match self.inner.next() {
            Some(t) if !t.is_empty() => Ok(t),
            _ => Err(WireError::Malformed(what)),
        }
    }

    fn optional(&mut self) -> Result<Option<&'a str>, WireError> {
        match self.inner.next() {
            None => Ok(None),
            Some("") => Err(WireError::Malformed("empty token")),
            Some(t) => Ok(Some(t)),
        }
    }

    fn number<T: core::str::FromStr>(&mut self, what: &'static str) -> Result<T, WireError> {
        parse_number(self.next(what)?, what)
    }

    /// The rest of the payload, verbatim (free text at the end of a message).
    fn rest(self) -> alloc::string::String {
        let mut out = alloc::string::String::new();
        for (i, t) in self.inner.enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(t);
        }
        out
    }

    fn end(mut self) -> Result<(), WireError> {
        match self.inner.next() {
            None => Ok(()),
            Some(_) => Err(WireError::Malformed("trailing tokens")),
        }
    }
}

/// Parses an unsigned decimal in canonical form: digits only, no sign, no leading zero.
fn parse_number<T: core::str::FromStr>(token: &str, what: &'static str) -> Result<T, WireError> {
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

#[cfg(test)]
mod tests;
