//! Keccak-f[1600]'s harness: one permutation of the state, the state the input.

use alloc::string::String;

use cyclebench_datasets::software as data;

use super::{keccak_f1600, KeccakF1600};
use crate::harness::{differs, reference, Harness, Input, Rng, Setup, Subject};

/// One Keccak-f[1600] permutation.
pub struct Permutation {
    k: KeccakF1600,
    reference: Option<KeccakF1600>,
    lanes: [u64; 25],
    internal: [u32; 50],
}

impl Harness for Permutation {
    fn new(setup: &Setup) -> Option<Self> {
        Some(Self {
            k: keccak_f1600(setup.variant)?,
            reference: reference(setup.variant, keccak_f1600),
            lanes: [0; 25],
            internal: [0; 50],
        })
    }
}

impl Subject for Permutation {
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        self.lanes = match input {
            Input::Fixed => data::keccak_input(),
            Input::Random => core::array::from_fn(|_| u64::from(rng.next_u32()) | u64::from(rng.next_u32()) << 32),
        };
        (self.k.to_internal)(&self.lanes, &mut self.internal);
    }

    fn call(&mut self) -> u32 {
        (self.k.permute)(&mut self.internal);
        0
    }

    fn check(&mut self, input: Input, _answer: u32) -> Result<(), String> {
        let mut got = [0u64; 25];
        (self.k.from_internal)(&self.internal, &mut got);
        if input == Input::Fixed {
            return differs(&got, &data::KECCAK_OUTPUT);
        }
        let Some(reference) = self.reference else {
            return Ok(());
        };
        let mut internal = [0; 50];
        let mut expected = [0u64; 25];
        (reference.to_internal)(&self.lanes, &mut internal);
        (reference.permute)(&mut internal);
        (reference.from_internal)(&internal, &mut expected);
        differs(&got, &expected)
    }

    fn entry(&self) -> usize {
        self.k.permute as usize
    }
}
