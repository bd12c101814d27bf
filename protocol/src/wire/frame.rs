//! Framing: checksum suffix and line-level validation.

use alloc::string::String;

use super::WireError;
use crate::MAX_LINE_LEN;

/// A `static`, so its 512-byte table exists once rather than wherever the constant is used.
static CRC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);

/// CRC-16/XMODEM of a payload, as carried in the `*CCCC` suffix. Exposed for writers that
/// cannot allocate (the suite's panic handler).
pub fn checksum(payload: &[u8]) -> u16 {
    CRC.checksum(payload)
}

/// Appends `*CCCC` to a payload, making it a frame (without newline).
pub fn frame(mut payload: String) -> String {
    let sum = CRC.checksum(payload.as_bytes());
    payload.push('*');
    for shift in [12, 8, 4, 0] {
        payload.push(char::from(b"0123456789abcdef"[usize::from(sum >> shift) & 0xf]));
    }
    payload
}

/// Checks a received line (newline already stripped) and returns its payload.
pub fn unframe(line: &[u8]) -> Result<&str, WireError> {
    if line.len() > MAX_LINE_LEN {
        return Err(WireError::TooLong);
    }
    if !line.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        return Err(WireError::NotAscii);
    }
    let text = core::str::from_utf8(line).map_err(|_| WireError::NotAscii)?;
    let (payload, sum) = text.rsplit_once('*').ok_or(WireError::MissingChecksum)?;
    if sum.len() != 4 || !sum.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(WireError::MissingChecksum);
    }
    let expected = u16::from_str_radix(sum, 16).map_err(|_| WireError::MissingChecksum)?;
    if CRC.checksum(payload.as_bytes()) != expected {
        return Err(WireError::Checksum);
    }
    Ok(payload)
}
