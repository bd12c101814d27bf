//! The harness of one Keccak-f[1600] permutation with the state secret.

use alloc::string::String;

use cyclebench_datasets::software as data;

use super::{keccak_f1600, KeccakF1600};
use crate::harness::{differs, reference, Harness, Rng, Setup, Subject, Timer, FIXED};

/// One Keccak-f[1600] permutation with the state secret.
pub struct Keccak {
    k: KeccakF1600,
    reference: Option<KeccakF1600>,
    lanes: [u64; 25],
    internal: [u32; 50],
}

impl Harness for Keccak {
    fn new(setup: &Setup) -> Option<Self> {
        Some(Self {
            k: keccak_f1600(setup.variant)?,
            reference: reference(setup.variant, keccak_f1600),
            lanes: [0; 25],
            internal: [0; 50],
        })
    }

    fn repeat<T: Timer>(setup: &Setup, repetitions: u16, timer: &mut T) -> Result<Option<usize>, String> {
        let Some(k) = keccak_f1600(setup.variant) else {
            return Ok(None);
        };
        let input = data::keccak_input();
        let mut internal = [0u32; 50];
        let mut state = [0u64; 25];
        for _ in 0..repetitions {
            (k.to_internal)(&input, &mut internal);
            timer.time(|| (k.permute)(&mut internal));
            (k.from_internal)(&internal, &mut state);
            differs(&state, &data::KECCAK_OUTPUT)?;
        }
        Ok(Some(k.permute as usize))
    }
}

impl Subject for Keccak {
    fn prepare(&mut self, class: usize, rng: &mut Rng) {
        if class == FIXED {
            self.lanes = data::keccak_input();
        } else {
            self.lanes = core::array::from_fn(|_| u64::from(rng.next_u32()) | u64::from(rng.next_u32()) << 32);
        }
        (self.k.to_internal)(&self.lanes, &mut self.internal);
    }

    fn call(&mut self) -> u32 {
        (self.k.permute)(&mut self.internal);
        0
    }

    fn check(&mut self, class: usize, _answer: u32) -> Result<(), String> {
        let mut got = [0u64; 25];
        (self.k.from_internal)(&self.internal, &mut got);
        if class == FIXED {
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
