//! Two comparisons of 16-byte buffers that control the suite's leakage test: one whose time
//! depends on the data and one whose time does not. A leakage test that does not flag the
//! first, or flags the second, is broken, whatever it says about a primitive.
//!
//! - `leaky`: byte by byte, returning at the first difference, as `memcmp` and a naive MAC
//!   check do. Its time is the length of the common prefix.
//! - `constant_time`: ORs the XOR of every byte pair and tests the accumulated difference
//!   once, so every call does the same work.
//!
//! The `Rv32i` variants are the reference controls: assembly, so their timing is exactly
//! what the code says. The `Rust` variants are the same loops in portable Rust; what their
//! timing shows is what the compiler made of them.

use alloc::format;

use crate::{Report, Variant};

/// A comparison of two 16-byte buffers: `true` when they are equal.
pub type EqualFn = fn(a: &[u8; 16], b: &[u8; 16]) -> bool;

/// The comparison that returns at the first differing byte, in `variant`, if this build has
/// it.
pub fn leaky(variant: Variant) -> Option<EqualFn> {
    match variant {
        Variant::Rust => Some(equal_leaky),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::equal_leaky_rv32i),
        _ => None,
    }
}

/// The comparison that looks at every byte whatever the data, in `variant`, if this build
/// has it.
pub fn constant_time(variant: Variant) -> Option<EqualFn> {
    match variant {
        Variant::Rust => Some(equal_constant_time),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::equal_constant_time_rv32i),
        _ => None,
    }
}

/// Byte by byte, returning at the first difference.
pub fn equal_leaky(a: &[u8; 16], b: &[u8; 16]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// The OR of the XOR of every byte pair, tested once.
pub fn equal_constant_time(a: &[u8; 16], b: &[u8; 16]) -> bool {
    a.iter().zip(b).fold(0u8, |difference, (x, y)| difference | (x ^ y)) == 0
}

#[cfg(target_arch = "riscv32")]
#[allow(unsafe_code)]
mod asm {
    core::arch::global_asm!(include_str!("rv32i.S"));

    extern "C" {
        fn cb_compare_leaky_rv32i(a: *const u8, b: *const u8) -> u32;
        fn cb_compare_ct_rv32i(a: *const u8, b: *const u8) -> u32;
    }

    pub(super) fn equal_leaky_rv32i(a: &[u8; 16], b: &[u8; 16]) -> bool {
        // SAFETY: reads the 16 bytes of each buffer and nothing else; ilp32 convention.
        unsafe { cb_compare_leaky_rv32i(a.as_ptr(), b.as_ptr()) != 0 }
    }

    pub(super) fn equal_constant_time_rv32i(a: &[u8; 16], b: &[u8; 16]) -> bool {
        // SAFETY: reads the 16 bytes of each buffer and nothing else; ilp32 convention.
        unsafe { cb_compare_ct_rv32i(a.as_ptr(), b.as_ptr()) != 0 }
    }
}

/// Pairs of buffers with their expected answer: equal, and differing in the first byte, the
/// last, one in the middle, and every byte.
fn cases() -> [([u8; 16], [u8; 16], bool); 5] {
    let a: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
    let flip = |positions: &[usize]| {
        let mut b = a;
        positions.iter().for_each(|&i| b[i] ^= 0x80);
        b
    };
    [
        (a, a, true),
        (a, flip(&[0]), false),
        (a, flip(&[15]), false),
        (a, flip(&[7]), false),
        (a, flip(&core::array::from_fn::<usize, 16, _>(|i| i)), false),
    ]
}

/// Checks both comparisons of `variant` on equal buffers and on buffers differing in one or
/// every byte.
pub fn self_test(variant: Variant, report: Report<'_>) {
    for (name, select) in [
        ("leaky", leaky as fn(Variant) -> Option<EqualFn>),
        ("constant_time", constant_time),
    ] {
        let Some(f) = select(variant) else { continue };
        let failure = cases()
            .iter()
            .position(|(a, b, expected)| f(a, b) != *expected)
            .map(|i| format!("case {i} answered wrongly"));
        report(
            &format!("compare::{}::{name}", variant.name()),
            failure.map_or(Ok(()), Err),
        );
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn both_comparisons_agree_with_equality() {
        for (a, b, expected) in cases() {
            assert_eq!(a == b, expected);
            assert_eq!(equal_leaky(&a, &b), expected);
            assert_eq!(equal_constant_time(&a, &b), expected);
        }
    }

    #[test]
    fn self_test_passes_on_the_host() {
        let mut failures = std::vec::Vec::new();
        self_test(Variant::Rust, &mut |name, verdict| {
            if let Err(e) = verdict {
                failures.push(format!("{name}: {e}"));
            }
        });
        assert!(failures.is_empty(), "{failures:?}");
    }
}
