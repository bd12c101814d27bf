//! A throw-away primitive that the extending test adds to a scratch copy of the tree: sixteen
//! words folded into one, each step a rotation left by 5 and an XOR. Only a portable Rust
//! variant exists.

use alloc::format;

use crate::{Report, Variant};

/// A fold: the block in, the folded word out.
pub type FoldFn = fn(&[u32; 16]) -> u32;

/// The fold in `variant`, if there is one.
pub fn fold(variant: Variant) -> Option<FoldFn> {
    match variant {
        Variant::Rust => Some(fold_rust),
        Variant::Rv32i | Variant::Zbb => None,
    }
}

fn fold_rust(words: &[u32; 16]) -> u32 {
    words.iter().fold(0, |acc, &w| acc.rotate_left(5) ^ w)
}

/// The fixed block: the multiples of the golden-ratio constant 0x9e3779b9, 1 to 16.
pub const INPUT: [u32; 16] = [
    0x9e3779b9, 0x3c6ef372, 0xdaa66d2b, 0x78dde6e4, 0x1715609d, 0xb54cda56, 0x5384540f, 0xf1bbcdc8, 0x8ff34781,
    0x2e2ac13a, 0xcc623af3, 0x6a99b4ac, 0x08d12e65, 0xa708a81e, 0x454021d7, 0xe3779b90,
];

/// Its fold, worked out by hand outside this code.
pub const OUTPUT: u32 = 0xe382d765;

/// Checks the variant against the known answer.
pub fn self_test(variant: Variant, report: Report<'_>) {
    let Some(f) = fold(variant) else { return };
    let got = f(&INPUT);
    report(
        &format!("example_fold::{}", variant.name()),
        if got == OUTPUT {
            Ok(())
        } else {
            Err(format!("{got:08x}, expected {OUTPUT:08x}"))
        },
    );
}
