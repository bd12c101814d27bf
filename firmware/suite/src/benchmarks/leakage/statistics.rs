//! The statistics of a leakage test, exact and cheap per sample.
//!
//! A core with exact timing gives an operation few distinct cycle counts, so each class keeps
//! a histogram of [`BINS`] counters from a base just below the warm-up's shortest call: one
//! increment per sample, instead of updating the moments of a band per sample (a search over
//! the thresholds, two 64-bit sums, a 32×32-bit square, the extremes). The moments, the
//! crop percentiles and |t| are the protocol crate's, which the host uses to check. A sample
//! outside the histogram's range goes into the exact moments of its band directly. At the
//! end the histogram is folded into the same moments: per bin `c` samples of value `x` add
//! `c`, `c·x` and `c·x²` to the band of `x`, so the result is what adding every sample one by
//! one gives, to the bit.

use alloc::vec::Vec;

use cyclebench_protocol::{
    crop_index, welch_abs_t_x100, ClassTiming, LeakagePhases, Moments, LEAK_CROPS, LEAK_TESTS, MAX_LEAK_SAMPLE,
};

use super::Failure;

/// Counters per class: the values `base .. base + BINS`.
const BINS: usize = 1024;

/// How far below the warm-up's shortest call the histogram starts, for class 1 calls shorter
/// than any of the warm-up.
const BELOW: u32 = 256;

/// Per class: the histogram, and per band between the crop thresholds (band `j` holds the
/// samples with exactly `j` thresholds at or below them, so crop `k` is the sum of bands
/// `0..k`) the exact moments of the samples the histogram does not cover, with their extremes.
/// Samples come in as raw windows; bin 0 is the raw window `base + overhead`, so one
/// subtraction finds the bin and takes the overhead off.
pub(super) struct Statistics {
    /// Corrected cycles of bin 0, and the raw window of bin 0.
    base: u32,
    raw_base: u32,
    histogram: alloc::boxed::Box<[[u32; BINS]; 2]>,
    bands: Bands,
}

/// The moments of the bands, which the samples outside the histogram go into directly.
struct Bands {
    thresholds: [u32; LEAK_CROPS],
    overhead: u32,
    /// The first corrected sample too long for the statistics, if any.
    too_long: Option<u32>,
    moments: [[Moments; LEAK_CROPS + 1]; 2],
    min: [u32; 2],
    max: [u32; 2],
}

impl Statistics {
    /// Thresholds and the histogram's base from the pooled warm-up windows (raw), which then
    /// count like all others.
    pub(super) fn from_warmup(early: &[(u8, u32)], overhead: u32) -> Result<Self, Failure> {
        let mut sorted: Vec<u32> = Vec::new();
        sorted.try_reserve_exact(early.len()).map_err(|_| Failure::NoMemory)?;
        sorted.extend(early.iter().map(|&(_, window)| window.saturating_sub(overhead)));
        sorted.sort_unstable();
        if let Some(&longest) = sorted.last().filter(|&&x| x > MAX_LEAK_SAMPLE) {
            return Err(Failure::TooLong(longest));
        }
        let thresholds = core::array::from_fn(|k| sorted.get(crop_index(k + 1, sorted.len())).copied().unwrap_or(0));
        let mut histogram = Vec::new();
        histogram.try_reserve_exact(2).map_err(|_| Failure::NoMemory)?;
        histogram.resize(2, [0u32; BINS]);
        // Every bin within what the statistics hold, so the common path needs no limit check.
        let base = sorted
            .first()
            .map_or(0, |&x| x.saturating_sub(BELOW))
            .min(MAX_LEAK_SAMPLE + 1 - BINS as u32);
        let mut s = Self {
            base,
            raw_base: base.wrapping_add(overhead),
            histogram: histogram.into_boxed_slice().try_into().map_err(|_| Failure::NoMemory)?,
            bands: Bands {
                thresholds,
                overhead,
                too_long: None,
                moments: [[Moments::default(); LEAK_CROPS + 1]; 2],
                min: [u32::MAX; 2],
                max: [0; 2],
            },
        };
        {
            let mut add = s.counter();
            early
                .iter()
                .for_each(|&(class, window)| add(usize::from(class), window));
        }
        Ok(s)
    }

    /// What adds the raw window of one sample to its class. The histogram's address and base
    /// are copied into it rather than read through `self`: the rare path hands the bands to a
    /// function out of line, after which the compiler would reload them from `self` after
    /// every window.
    #[inline(always)]
    pub(super) fn counter(&mut self) -> impl FnMut(usize, u32) + '_ {
        let Self {
            raw_base,
            histogram,
            bands,
            ..
        } = self;
        let (raw_base, histogram) = (*raw_base, &mut **histogram);
        move |class, window| {
            let bin = window.wrapping_sub(raw_base) as usize;
            if bin < BINS {
                histogram[class & 1][bin] += 1;
            } else {
                bands.add_outside(class & 1, window);
            }
        }
    }

    /// Folds the histogram into the moments and works out every test.
    pub(super) fn finish(mut self, entry: u32) -> Result<LeakagePhases, Failure> {
        let b = &mut self.bands;
        if let Some(x) = b.too_long {
            return Err(Failure::TooLong(x));
        }
        for class in 0..2 {
            for bin in 0..BINS {
                let count = self.histogram[class][bin];
                if count > 0 {
                    b.add_many(class, self.base + bin as u32, count);
                }
            }
        }
        let timing = |class: usize| {
            let m = b.below(class, LEAK_CROPS + 1);
            let seen = m.count > 0;
            ClassTiming {
                count: m.count,
                min: if seen { b.min[class] } else { 0 },
                max: if seen { b.max[class] } else { 0 },
                sum: m.sum,
                sum_squares: m.sum_squares,
            }
        };
        let abs_t_x100: [u32; LEAK_TESTS] = core::array::from_fn(|test| {
            // Test 0 takes every band; crop k the bands below threshold k.
            let bands = if test == 0 { LEAK_CROPS + 1 } else { test };
            welch_abs_t_x100(&b.below(0, bands), &b.below(1, bands))
        });
        Ok(LeakagePhases {
            class0: timing(0),
            class1: timing(1),
            abs_t_x100,
            thresholds: b.thresholds,
            entry,
        })
    }
}

impl Bands {
    /// Adds `count` samples of value `x` to the moments of `class` in their band.
    fn add_many(&mut self, class: usize, x: u32, count: u32) {
        let band = self.thresholds.iter().take_while(|&&t| t <= x).count();
        let m = &mut self.moments[class][band];
        m.count += count;
        m.sum += u64::from(count) * u64::from(x);
        m.sum_squares += u64::from(count) * u64::from(x) * u64::from(x);
        self.min[class] = self.min[class].min(x);
        self.max[class] = self.max[class].max(x);
    }

    #[cold]
    #[inline(never)]
    fn add_outside(&mut self, class: usize, window: u32) {
        let x = window.saturating_sub(self.overhead);
        if x <= MAX_LEAK_SAMPLE {
            self.add_many(class, x, 1);
        } else if self.too_long.is_none() {
            self.too_long = Some(x);
        }
    }

    /// Moments of `class` over bands `0..bands`.
    fn below(&self, class: usize, bands: usize) -> Moments {
        let mut m = Moments::default();
        self.moments[class][..bands].iter().for_each(|b| m.merge(b));
        m
    }
}
