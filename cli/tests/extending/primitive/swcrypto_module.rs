//! A throw-away primitive that the extending test adds to a scratch copy of the tree: sixteen
//! words folded into one, each step a rotation left by 5 and an XOR. Only a portable Rust
//! variant exists.

use alloc::format;
use alloc::string::String;

use crate::harness::{Harness, Input, Rng, Setup, Subject};
use crate::Variant;

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

/// The harness: the fixed block or a random one, the folded word the answer.
pub struct Fold {
    f: FoldFn,
    input: [u32; 16],
}

impl Harness for Fold {
    fn new(setup: &Setup) -> Option<Self> {
        Some(Self {
            f: fold(setup.variant)?,
            input: INPUT,
        })
    }
}

impl Subject for Fold {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        match input {
            Input::Fixed => self.input = INPUT,
            Input::Random => rng.fill_words(&mut self.input),
        }
    }

    fn call(&mut self) -> u32 {
        (self.f)(&self.input)
    }

    fn check(&mut self, input: Input, answer: u32) -> Result<(), String> {
        let expected = match input {
            Input::Fixed => OUTPUT,
            // Worked out apart from the variant under test.
            Input::Random => self.input.iter().rev().enumerate().fold(0u32, |acc, (i, &w)| {
                acc ^ w.rotate_left(5 * i as u32)
            }),
        };
        if answer == expected {
            Ok(())
        } else {
            Err(format!("{answer:08x}, expected {expected:08x}"))
        }
    }

    fn entry(&self) -> usize {
        self.f as usize
    }
}
