//! Seeded damage to a link's bytes, for testing how the host recovers: each byte is, with
//! the given probability, flipped in one bit, dropped, or followed by an inserted byte.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Damages bytes in one direction of a link.
pub struct FaultInjector {
    rate: f64,
    rng: StdRng,
}

impl FaultInjector {
    /// Damages a fraction `rate` of bytes, reproducibly for a given `seed`.
    pub fn new(rate: f64, seed: u64) -> Self {
        Self {
            rate,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// `bytes` as they arrive at the other end.
    pub fn pass(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len() + 8);
        for &b in bytes {
            let roll: f64 = self.rng.random();
            if roll >= self.rate {
                out.push(b);
            } else if roll < self.rate / 3.0 {
                out.push(b ^ (1 << self.rng.random_range(0..8)));
            } else if roll < self.rate * 2.0 / 3.0 {
                // Dropped.
            } else {
                out.push(b);
                out.push(self.rng.random());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_rate_passes_everything_and_a_seed_repeats_itself() {
        let data: Vec<u8> = (0..=255).cycle().take(100_000).collect();
        assert_eq!(FaultInjector::new(0.0, 1).pass(&data), data);
        let a = FaultInjector::new(0.01, 7).pass(&data);
        assert_eq!(a, FaultInjector::new(0.01, 7).pass(&data));
        assert_ne!(a, data);
        assert_ne!(a, FaultInjector::new(0.01, 8).pass(&data));
        // About one byte in a hundred is damaged: the length moves by the inserts minus
        // the drops, each about a third of the faults.
        let changed = a.len().abs_diff(data.len());
        assert!(changed < 300, "{changed}");
    }
}
