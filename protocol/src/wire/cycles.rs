//! Wire form of [`Cycles`]: `V` when every window was equal, else `MIN/MEDIAN/MAX/MEAN`
//! with the mean as a decimal with two fraction digits.

use alloc::string::String;

use super::{parse_number, push_decimal, push_number, WireError};
use crate::Cycles;

/// Appends one phase's cycle summary as a token, preceded by its space.
pub fn encode(out: &mut String, c: &Cycles) {
    push_number(out, c.min);
    if !c.is_constant() {
        for n in [c.median, c.max] {
            out.push('/');
            push_decimal(out, n);
        }
        out.push('/');
        // The mean's fraction: two digits, a leading zero kept.
        let (whole, hundredths) = match u32::try_from(c.mean_x100) {
            Ok(m) => (u64::from(m / 100), u64::from(m % 100)),
            Err(_) => (c.mean_x100 / 100, c.mean_x100 % 100),
        };
        push_decimal(out, whole);
        out.push('.');
        if hundredths < 10 {
            out.push('0');
        }
        push_decimal(out, hundredths);
    }
}

/// Reads one phase's cycle summary token.
pub fn decode(token: &str) -> Result<Cycles, WireError> {
    const WHAT: &str = "cycle count";
    let mut parts = token.split('/');
    let min: u64 = parse_number(parts.next().unwrap_or(""), WHAT)?;
    let Some(median) = parts.next() else {
        return Ok(Cycles::once(min));
    };
    let median: u64 = parse_number(median, WHAT)?;
    let max: u64 = parse_number(parts.next().unwrap_or(""), WHAT)?;
    let (whole, frac) = parts
        .next()
        .unwrap_or("")
        .split_once('.')
        .ok_or(WireError::Malformed(WHAT))?;
    if parts.next().is_some() || frac.len() != 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WireError::Malformed(WHAT));
    }
    let whole: u64 = parse_number(whole, WHAT)?;
    let frac: u64 = frac.parse().map_err(|_| WireError::Malformed(WHAT))?;
    let mean_x100 = whole.checked_mul(100).and_then(|w| w.checked_add(frac));
    let mean_x100 = mean_x100.ok_or(WireError::Malformed(WHAT))?;
    let ordered = min <= median && median <= max && min < max;
    let mean_in_range =
        u128::from(min) * 100 <= u128::from(mean_x100) && u128::from(mean_x100) <= u128::from(max) * 100;
    if !ordered || !mean_in_range {
        return Err(WireError::Malformed("inconsistent statistics"));
    }
    Ok(Cycles {
        min,
        median,
        max,
        mean_x100,
    })
}
