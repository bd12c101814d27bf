//! Decimal numbers without `core::fmt`: on a 32-bit core, `core::fmt` prints a `u64` by
//! 64-bit divisions, which RV32 does in software, hundreds of cycles each, and every reply of
//! the suite is mostly numbers. Here a number that fits 32 bits (nearly all do) costs one
//! multiply-high per digit.

use alloc::string::String;

/// Appends `n` in decimal.
pub fn push_decimal(out: &mut String, n: impl Into<u64>) {
    let n: u64 = n.into();
    match u32::try_from(n) {
        Ok(small) => push_u32(out, small, 1),
        Err(_) => {
            // One 64-bit division splits off the low nine digits.
            const BILLION: u64 = 1_000_000_000;
            push_decimal(out, n / BILLION);
            push_u32(out, (n % BILLION) as u32, 9);
        }
    }
}

/// Appends a space, then `n` in decimal.
pub fn push_number(out: &mut String, n: impl Into<u64>) {
    out.push(' ');
    push_decimal(out, n);
}

/// Appends `n` with at least `width` digits (leading zeros).
fn push_u32(out: &mut String, mut n: u32, width: usize) {
    let mut digits = [b'0'; 10];
    let mut start = digits.len();
    while n > 0 || digits.len() - start < width {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    // Only ASCII digits were written.
    out.push_str(core::str::from_utf8(&digits[start..]).unwrap_or("0"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn every_magnitude_prints_as_core_fmt_does() {
        let mut values = alloc::vec![0u64, 1, 9, 10, 99, 100, 999_999_999, 1_000_000_000, 1_000_000_001];
        values.extend([u64::from(u32::MAX), u64::from(u32::MAX) + 1, u64::MAX, u64::MAX - 1]);
        values.extend((0..64).map(|s| 1u64 << s));
        values.extend((0..20).map(|e| 10u64.pow(e)));
        values.extend((1..20).map(|e| 10u64.pow(e) - 1));
        for v in values {
            let mut out = String::from("x");
            push_number(&mut out, v);
            assert_eq!(out, format!("x {v}"));
        }
    }
}
