//! The subject of the leakage test's controls: a 16-byte buffer compared with a fixed
//! reference; class 0 equal to it, class 1 drawn from the build's pool, none of whose buffers
//! is equal to it, so the right answer is "equal" for class 0 and "different" for class 1.

use alloc::format;
use alloc::string::String;

use cyclebench_datasets::leakage::{self as leak, COMPARE_BYTES, LEAK_POOL};
use cyclebench_datasets::software as data;

use super::EqualFn;
use crate::harness::{Rng, Subject, FIXED};

/// A comparison control under the leakage test.
pub struct Compare {
    f: EqualFn,
    buffer: [u32; 4],
    reference: [u32; 4],
    /// Class 1's buffers as words, in RAM: four fresh words a call, and the answer worked out
    /// from them, cost more cycles than the comparison itself.
    pool: [[u32; 4]; LEAK_POOL],
}

impl Compare {
    /// The control that times `f`.
    pub fn new(f: EqualFn) -> Self {
        let mut reference = [0u8; COMPARE_BYTES];
        data::fill_input(&mut reference);
        Self {
            f,
            buffer: [0; 4],
            reference: bytemuck::cast(reference),
            pool: leak::COMPARE_POOL.map(bytemuck::cast),
        }
    }
}

impl Subject for Compare {
    fn known_answer(&self) -> Result<(), String> {
        match self.pool.iter().position(|b| *b == self.reference) {
            None => Ok(()),
            Some(i) => Err(format!("pool buffer {i} equals class 0's")),
        }
    }

    #[inline(always)]
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        self.buffer = if class == FIXED {
            self.reference
        } else {
            self.pool[rng.pick_index()]
        };
    }

    #[inline(always)]
    fn call(&mut self) -> u32 {
        u32::from((self.f)(
            bytemuck::cast_ref(&self.buffer),
            bytemuck::cast_ref(&self.reference),
        ))
    }

    #[inline(always)]
    fn check(&mut self, class: usize, answer: u32) -> Result<(), String> {
        if answer == u32::from(class == FIXED) {
            Ok(())
        } else {
            Err(wrong_comparison(answer))
        }
    }

    fn entry(&self) -> usize {
        self.f as usize
    }
}

/// The error of a comparison that answered `answer` wrongly; out of line, so that what it
/// needs takes no register in the measurement loop.
#[cold]
#[inline(never)]
fn wrong_comparison(answer: u32) -> String {
    format!("answered {}, expected {}", answer != 0, answer == 0)
}
