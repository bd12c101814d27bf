//! Deterministic inputs and aligned buffers for the checks: the on-target `self_test`
//! functions (compiled into the firmware) and the host tests share them, so both see the same
//! data from the same seeds. The generators only need to be reproducible, not good.

/// Marsaglia's xorshift32 (shifts 13, 17, 5).
pub(crate) struct Xorshift32(u32);

impl Xorshift32 {
    /// A generator starting from `seed`, which must not be zero: zero is a fixed point.
    pub(crate) const fn new(seed: u32) -> Self {
        debug_assert!(seed != 0, "xorshift never leaves the zero state");
        Self(seed)
    }

    /// Advances the state and returns it.
    pub(crate) fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    /// Fills `out` with the least significant byte of each successive word.
    pub(crate) fn fill_low_bytes(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next_u32() as u8;
        }
    }

    /// Fills `out` with the most significant byte of each successive word.
    pub(crate) fn fill_high_bytes(&mut self, out: &mut [u8]) {
        for b in out {
            *b = (self.next_u32() >> 24) as u8;
        }
    }
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17), for 64-bit lanes.
pub(crate) struct Xorshift64(u64);

impl Xorshift64 {
    /// A generator starting from `seed`, which must not be zero: zero is a fixed point.
    pub(crate) const fn new(seed: u64) -> Self {
        debug_assert!(seed != 0, "xorshift never leaves the zero state");
        Self(seed)
    }

    /// Advances the state and returns it.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// A byte buffer that starts on a word boundary, so a window starting `k` bytes in has a
/// known alignment (`k` modulo 4) and the assembly's unaligned paths can be chosen on purpose.
#[repr(C, align(4))]
pub(crate) struct Aligned<const N: usize>(pub(crate) [u8; N]);

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of the examples in Marsaglia, "Xorshift RNGs" (2003), so the streams
    /// every check draws from cannot change unnoticed.
    #[test]
    fn generators_match_marsaglia() {
        assert_eq!(Xorshift32::new(2_463_534_242).next_u32(), 723_471_715);
        assert_eq!(
            Xorshift64::new(88_172_645_463_325_252).next_u64(),
            8_748_534_153_485_358_512
        );
    }

    #[test]
    fn byte_streams_take_the_documented_byte() {
        let words: [u32; 4] = {
            let mut rng = Xorshift32::new(7);
            core::array::from_fn(|_| rng.next_u32())
        };
        let (mut low, mut high) = ([0u8; 4], [0u8; 4]);
        Xorshift32::new(7).fill_low_bytes(&mut low);
        Xorshift32::new(7).fill_high_bytes(&mut high);
        assert_eq!(low, words.map(|w| w as u8));
        assert_eq!(high, words.map(|w| (w >> 24) as u8));
    }

    #[test]
    fn aligned_buffers_start_on_a_word() {
        let buffer = Aligned([0u8; 5]);
        assert_eq!(buffer.0.as_ptr().align_offset(4), 0);
        assert_eq!(core::mem::align_of::<Aligned<5>>(), 4);
    }
}
