//! The statistics of a leakage test that both ends compute bit-exactly: the suite to decide,
//! the host to check what the suite sent. Integers wherever a result has to agree to the bit,
//! then IEEE-754 operations in a fixed order.

/// Most measurements a leakage request may ask for; the statistics' sums are sized for it.
pub const MAX_LEAK_MEASUREMENTS: u32 = 1_000_000;

/// Longest timed call, in corrected cycles, the statistics can hold: with at most
/// [`MAX_LEAK_MEASUREMENTS`] (< 2^20) samples below 2^22 the sum of squares stays below 2^64.
pub const MAX_LEAK_SAMPLE: u32 = (1 << 22) - 1;

/// Cropped tests besides the uncropped one.
pub const LEAK_CROPS: usize = 5;

/// Tests per result: the uncropped one (index 0), then crop `k` = `1..=LEAK_CROPS`.
pub const LEAK_TESTS: usize = LEAK_CROPS + 1;

/// Measurements whose pooled timings fix the crop thresholds (all of them when fewer).
pub const LEAK_WARMUP: u32 = 1000;

/// |t| × 100 above which a result is a leak: the 4.5 of dudect and of TVLA.
pub const LEAK_THRESHOLD_X100: u32 = 450;

/// |t| × 100 reported when both classes have zero variance and different means (the timing
/// is a function of the class, so the statistic is unbounded), and the value larger |t|
/// saturate at.
pub const LEAK_T_UNBOUNDED: u32 = u32::MAX;

/// Index into the sorted `warmup` pooled timings of the threshold of crop `k`
/// (`1..=LEAK_CROPS`): the percentile `1 - 0.5^(2k)` (75 %, 93.75 %, 98.4 %, 99.6 %, 99.9 %),
/// dudect's `1 - 0.5^(10 (i + 1) / N)` spacing with five crops instead of a hundred.
pub fn crop_index(k: usize, warmup: usize) -> usize {
    let tail = warmup.div_ceil(1 << (2 * k.min(15)));
    warmup.saturating_sub(tail).min(warmup.saturating_sub(1))
}

/// Exact running statistics of one set of timings: count, sum and sum of squares. Integer
/// sums lose nothing, so merging sets (the crop bands of the suite) and the variance
/// `(n Σx² − (Σx)²) / (n (n − 1))` are exact; no Welford update with its rounding is needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    /// Samples.
    pub count: u32,
    /// Their sum.
    pub sum: u64,
    /// The sum of their squares.
    pub sum_squares: u64,
}

impl Moments {
    /// Adds one sample (at most [`MAX_LEAK_SAMPLE`], so that the sums cannot overflow).
    #[inline(always)]
    pub fn add(&mut self, x: u32) {
        self.count += 1;
        self.sum += u64::from(x);
        self.sum_squares += u64::from(x) * u64::from(x);
    }

    /// Adds every sample of `other`.
    pub fn merge(&mut self, other: &Moments) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
    }

    /// `n Σx² − (Σx)²` = `n` times the sum of squared deviations: zero exactly when every
    /// sample is equal. Saturates at zero for sums no set of samples has.
    fn n_m2(&self) -> u128 {
        (u128::from(self.count) * u128::from(self.sum_squares)).saturating_sub(u128::from(self.sum).pow(2))
    }

    /// The mean, when there is a sample.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / f64::from(self.count))
    }

    /// The unbiased sample variance, when there are two samples or more.
    pub fn variance(&self) -> Option<f64> {
        let n = u128::from(self.count);
        (n > 1).then(|| self.n_m2() as f64 / (n * (n - 1)) as f64)
    }
}

/// |t| × 100, rounded down, of Welch's t-test between two sets of timings, computed the same
/// way on both sides (exact integers, then IEEE-754 operations in a fixed order, then an
/// integer square root), so the host can check what the suite sent.
///
/// - Fewer than two samples in a set: 0 (the test says nothing).
/// - Both sets constant (zero variance, normal on a core with exact timing): 0 when the
///   values are equal, [`LEAK_T_UNBOUNDED`] when they differ (the time is a function of the
///   class).
/// - Otherwise `t = (m0 − m1) / sqrt(v0 / n0 + v1 / n1)`, saturating at [`LEAK_T_UNBOUNDED`].
pub fn welch_abs_t_x100(a: &Moments, b: &Moments) -> u32 {
    if a.count < 2 || b.count < 2 {
        return 0;
    }
    let (na, nb) = (u128::from(a.count), u128::from(b.count));
    // (m_a − m_b) · n_a · n_b, exactly.
    let (xa, xb) = (u128::from(a.sum) * nb, u128::from(b.sum) * na);
    let difference = xa.abs_diff(xb);
    let (ma, mb) = (a.n_m2(), b.n_m2());
    if ma == 0 && mb == 0 {
        return if difference == 0 { 0 } else { LEAK_T_UNBOUNDED };
    }
    let mean_difference = difference as f64 / (na * nb) as f64;
    let variance_of_difference = ma as f64 / (na * na * (na - 1)) as f64 + mb as f64 / (nb * nb * (nb - 1)) as f64;
    let t_squared_x10000 = mean_difference * mean_difference / variance_of_difference * 10_000.0;
    // The cast saturates; the square root of the floor is the floor of the square root.
    let t_x100 = (t_squared_x10000 as u128).isqrt();
    u32::try_from(t_x100).unwrap_or(LEAK_T_UNBOUNDED)
}
