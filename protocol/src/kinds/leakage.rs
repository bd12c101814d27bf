//! Constant-time leakage test in the style of dudect (Reparaz, Balasch, Verbauwhede, "Dude, is
//! my code constant time?", DATE 2017): an operation is timed on two classes of input, class 0
//! a fixed input and class 1 a fresh random one, in a random order drawn on the device from the
//! request's seed; Welch's t-test on the two timing distributions, and on the distributions
//! cropped below fixed percentiles, says whether the cycle count depends on the secret.
//!
//! The suite keeps the statistics itself, so a million measurements cost no link traffic:
//! per class the count, the extremes and the exact integer sums of the samples and of their
//! squares (from which mean and variance follow without rounding), and |t| of every test.
//!
//! What is timed is a software primitive (a variant of the `software` kind's), one of two
//! controls, or, on a chip with accelerators, the accelerator itself (`aes`, `hmac`, `kmac`,
//! variant `hardware`).
//!
//! Wire: `B leak OPERATION VARIANT SECRET MEASUREMENTS SEED [lLENGTH]`; result
//! `leak CLASS0 CLASS1 TESTS THRESHOLDS ENTRY`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::kind::{Description, Field, Kind, PhaseSpec, Presentation, Shape, Unbounded};
use crate::wire::{self, parse_number, Options, Tokens, WireError};
use crate::{LengthUnit, Module, NamedPhase, Phases, Primitive, SoftwareBenchmark, SoftwareVariant};

/// Most bytes the accelerated AES test encrypts per call: the four blocks of the published
/// ECB vector that class 0 uses.
pub const LEAK_AES_MAX_BYTES: u32 = 64;

/// Fewest measurements a leakage request may ask for.
pub const MIN_LEAK_MEASUREMENTS: u32 = 100;

/// Most measurements a leakage request may ask for (about a minute and a half of the Ibex model for
/// the 200-cycle constant-time control).
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

/// What is timed: a software primitive as the `software` kind runs it, one of the two
/// controls shipped with the suite, or an accelerator of the chip. Its JSON name is its wire
/// name ([`LeakOperation::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub enum LeakOperation {
    /// A software primitive.
    Primitive(Primitive),
    /// Control that must be flagged: a 16-byte comparison that returns at the first
    /// differing byte.
    CompareLeaky,
    /// Control that must not be flagged: a 16-byte comparison that ORs the XOR of every byte
    /// pair and looks at the result once.
    CompareConstantTime,
    /// The AES accelerator: AES-128 ECB encryption of `length` bytes, key and blocks written,
    /// output read.
    Aes,
    /// The HMAC accelerator in HMAC-SHA256 mode with a 256-bit key, over a fixed message.
    Hmac,
    /// The KMAC accelerator in KMAC256 mode (SP 800-185) with a 256-bit key and a 256-bit
    /// output, over a fixed message.
    Kmac,
}

impl LeakOperation {
    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Primitive(p) => p.name(),
            Self::CompareLeaky => "compare-leaky",
            Self::CompareConstantTime => "compare-ct",
            Self::Aes => "aes",
            Self::Hmac => "hmac",
            Self::Kmac => "kmac",
        }
    }

    /// The operations that are not software primitives, by name.
    const OWN: [Self; 5] = [
        Self::CompareLeaky,
        Self::CompareConstantTime,
        Self::Aes,
        Self::Hmac,
        Self::Kmac,
    ];

    /// Whether the operation runs on an accelerator (variant `hardware`).
    pub fn accelerator(self) -> bool {
        matches!(self, Self::Aes | Self::Hmac | Self::Kmac)
    }

    /// The module an accelerated operation drives.
    pub fn module(self) -> Option<Module> {
        match self {
            Self::Aes => Some(Module::Aes),
            Self::Hmac => Some(Module::Sha2),
            Self::Kmac => Some(Module::Sha3),
            Self::Primitive(_) | Self::CompareLeaky | Self::CompareConstantTime => None,
        }
    }

    /// The operation called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::OWN
            .into_iter()
            .find(|o| o.name() == name)
            .or_else(|| Primitive::from_name(name).map(Self::Primitive))
    }

    /// The inputs that can be made secret: the key of a cipher, the data of anything that
    /// has data (message, state, operands, compared buffer).
    pub fn secrets(self) -> &'static [Secret] {
        use Primitive::*;
        match self {
            Self::Primitive(AesTableKeySchedule | AesBitslicedKeySchedule) | Self::Hmac | Self::Kmac => &[Secret::Key],
            Self::Primitive(AesTableEncrypt | AesBitslicedCtr | Chacha20) | Self::Aes => &[Secret::Key, Secret::Data],
            Self::Primitive(_) | Self::CompareLeaky | Self::CompareConstantTime => &[Secret::Data],
        }
    }

    /// What `length` counts for this operation.
    pub fn length_unit(self) -> LengthUnit {
        match self {
            Self::Primitive(p) => p.length_unit(),
            Self::Aes => LengthUnit::Bytes,
            Self::CompareLeaky | Self::CompareConstantTime | Self::Hmac | Self::Kmac => LengthUnit::Fixed,
        }
    }
}

impl From<LeakOperation> for String {
    fn from(operation: LeakOperation) -> Self {
        String::from(operation.name())
    }
}

impl TryFrom<String> for LeakOperation {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        Self::from_name(&name).ok_or_else(|| {
            let mut known: Vec<&str> = Primitive::ALL.iter().map(|p| p.name()).collect();
            known.extend(Self::OWN.iter().map(|o| o.name()));
            format!("unknown operation '{name}' (known: {})", known.join(", "))
        })
    }
}

/// Which implementation is timed: a variant of a software primitive or control, or the
/// accelerator. Its JSON name is its wire name ([`LeakVariant::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub enum LeakVariant {
    /// A software variant (portable Rust, RV32I or Zbb assembly).
    Software(SoftwareVariant),
    /// The chip's accelerator (operations `aes`, `hmac`, `kmac`).
    Hardware,
}

impl LeakVariant {
    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Software(v) => v.name(),
            Self::Hardware => "hardware",
        }
    }

    /// The variant called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "hardware" => Some(Self::Hardware),
            _ => SoftwareVariant::from_name(name).map(Self::Software),
        }
    }
}

impl From<LeakVariant> for String {
    fn from(variant: LeakVariant) -> Self {
        String::from(variant.name())
    }
}

impl TryFrom<String> for LeakVariant {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        Self::from_name(&name).ok_or_else(|| format!("unknown variant '{name}' (known: rust, rv32i, zbb, hardware)"))
    }
}

/// Which input differs between the classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Secret {
    /// The key (class 1: a fresh random key; the key schedule runs outside the window where
    /// the operation is not the key schedule itself).
    Key,
    /// The data: plaintext, message, permutation state, both operands, or the compared
    /// buffer.
    Data,
}

impl Secret {
    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Key => "key",
            Self::Data => "data",
        }
    }
}

/// Leakage test request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LeakageBenchmark {
    /// What to time.
    pub operation: LeakOperation,
    /// Which implementation of it.
    pub variant: LeakVariant,
    /// Which input is secret: fixed in class 0, random in class 1.
    pub secret: Secret,
    /// Bytes or limbs, as for the `software` kind; absent for fixed-size operations.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub length: Option<u32>,
    /// Timed calls, both classes together.
    pub measurements: u32,
    /// Seed of the device's generator, which draws the class sequence and the random inputs:
    /// the same seed gives the same sequence and the same result.
    pub seed: u32,
}

impl Kind for LeakageBenchmark {
    const NAME: &'static str = "leakage";
    const TAG: &'static str = "leak";
    // The result is statistics of many calls, not phases of one.
    const PHASES: &'static [PhaseSpec] = &[];
    const PRESENTATION: Presentation = Presentation {
        not_stacked: Some("its result is timing statistics of many calls, not phases, tabled under Leakage tests"),
        headline: &["measurements", "max_abs_t", "max_abs_t_test", "verdict"],
        unbounded: &[Unbounded {
            field: "max_abs_t",
            flag: "t_unbounded",
            reason: "t_unbounded_reason",
            shown: "∞ (zero variance)",
            // |t| × 100 saturated at u32::MAX.
            legacy_sentinel: Some(u32::MAX as f64 / 100.0),
        }],
    };

    fn repetitions(&self) -> Option<u16> {
        None
    }

    fn describe(&self) -> Description {
        let mut config = format!("{} {}", self.operation.name(), self.variant.name());
        let mut fields = Vec::from([
            ("operation", Field::Text(String::from(self.operation.name()))),
            ("variant", Field::Text(String::from(self.variant.name()))),
            ("secret", Field::Text(String::from(self.secret.name()))),
            ("seed", Field::Number(u64::from(self.seed))),
        ]);
        match (self.operation.length_unit(), self.length) {
            (LengthUnit::Bytes, Some(n)) => {
                fields.push(("length_bytes", Field::Number(u64::from(n))));
                let _ = write!(config, " {n} B");
            }
            (LengthUnit::Limbs, Some(n)) => {
                fields.push(("limbs", Field::Number(u64::from(n))));
                let _ = write!(config, " {n} limbs");
            }
            _ => {}
        }
        let _ = write!(
            config,
            ", secret {}, {} measurements, seed {}",
            self.secret.name(),
            self.measurements,
            self.seed
        );
        Description {
            module: self.operation.module(),
            config,
            // Cycles per byte of a statistic mean nothing.
            bytes: None,
            fields,
        }
    }

    fn check(&self) -> Result<(), String> {
        let name = self.operation.name();
        if !(MIN_LEAK_MEASUREMENTS..=MAX_LEAK_MEASUREMENTS).contains(&self.measurements) {
            return Err(format!(
                "\"measurements\" must be {MIN_LEAK_MEASUREMENTS} to {MAX_LEAK_MEASUREMENTS}, got {}",
                self.measurements
            ));
        }
        if !self.operation.secrets().contains(&self.secret) {
            let names: Vec<&str> = self.operation.secrets().iter().map(|s| s.name()).collect();
            return Err(format!(
                "{name} has no secret {}: \"secret\" must be {}",
                self.secret.name(),
                names.join(" or ")
            ));
        }
        match (self.operation.accelerator(), self.variant) {
            (true, LeakVariant::Software(v)) => {
                return Err(format!(
                    "{name} is the chip's accelerator: \"variant\" must be \"hardware\", not \"{}\"",
                    v.name()
                ))
            }
            (false, LeakVariant::Hardware) => {
                return Err(format!(
                    "{name} is software: \"hardware\" is for the accelerators (aes, hmac, kmac)"
                ))
            }
            _ => {}
        }
        match (self.operation, self.variant) {
            // The length rules and their messages are the `software` kind's.
            (LeakOperation::Primitive(primitive), LeakVariant::Software(variant)) => SoftwareBenchmark {
                primitive,
                variant,
                length: self.length,
                repetitions: None,
            }
            .check(),
            (LeakOperation::Aes, _) => match self.length {
                Some(n) if n > 0 && n <= LEAK_AES_MAX_BYTES && n % 16 == 0 => Ok(()),
                Some(n) => Err(format!(
                    "aes encrypts whole blocks of the published vector: \"length\" must be 16, 32, 48 or \
                     {LEAK_AES_MAX_BYTES} bytes, got {n}"
                )),
                None => Err(String::from("aes needs \"length\": 16 to 64 bytes, whole blocks")),
            },
            (LeakOperation::Hmac | LeakOperation::Kmac, _) if self.length.is_some() => {
                Err(format!("{name} works on a fixed message: remove \"length\""))
            }
            _ if self.length.is_some() => Err(format!("{name} works on 16 bytes: remove \"length\"")),
            _ => Ok(()),
        }
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Leakage(p) if p.measurements() == u64::from(self.measurements))
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.operation.name());
        wire::push(out, self.variant.name());
        wire::push(out, self.secret.name());
        let _ = write!(out, " {} {}", self.measurements, self.seed);
        Options {
            length: self.length,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let operation =
            LeakOperation::from_name(t.next("operation")?).ok_or(WireError::Malformed("unknown operation"))?;
        let variant = LeakVariant::from_name(t.next("variant")?).ok_or(WireError::Malformed("unknown variant"))?;
        let secret = wire::flag(t, "secret", ("key", Secret::Key), ("data", Secret::Data))?;
        let measurements: u32 = t.number("measurements")?;
        let seed: u32 = t.number("seed")?;
        let length = Options::decode(t, "l")?.length;
        let request = Self {
            operation,
            variant,
            secret,
            length,
            measurements,
            seed,
        };
        request
            .check()
            .map_err(|_| WireError::Malformed("leakage parameter out of range or not applicable"))?;
        Ok(request)
    }
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

/// The timings of one class: extremes and moments, in corrected cycles (the suite subtracts
/// the calibrated overhead from every window itself, since the result has no phases for the
/// host to correct).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ClassTiming {
    /// Measurements of this class.
    pub count: u32,
    /// Shortest call (0 when there was none).
    pub min: u32,
    /// Longest call (0 when there was none).
    pub max: u32,
    /// Sum of the calls.
    pub sum: u64,
    /// Sum of the squares of the calls.
    pub sum_squares: u64,
}

impl ClassTiming {
    /// Count, sum and sum of squares.
    pub fn moments(&self) -> Moments {
        Moments {
            count: self.count,
            sum: self.sum,
            sum_squares: self.sum_squares,
        }
    }

    /// Whether some set of `count` samples between `min` and `max` has these sums.
    fn consistent(&self) -> bool {
        let n = u128::from(self.count);
        let (sum, squares) = (u128::from(self.sum), u128::from(self.sum_squares));
        let (lo, hi) = (u128::from(self.min), u128::from(self.max));
        if n == 0 {
            return self.min == 0 && self.max == 0 && sum == 0 && squares == 0;
        }
        lo <= hi
            && hi <= u128::from(MAX_LEAK_SAMPLE)
            && n * lo <= sum
            && sum <= n * hi
            && n * lo * lo <= squares
            && squares <= n * hi * hi
            && sum * sum <= n * squares
    }

    fn encode(&self, out: &mut String) {
        let _ = write!(
            out,
            " {}/{}/{}/{}/{}",
            self.count, self.min, self.max, self.sum, self.sum_squares
        );
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        const WHAT: &str = "class timing";
        let [count, min, max, sum, sum_squares] = numbers::<u64, 5>(t.next(WHAT)?, WHAT)?;
        let small = |v: u64| u32::try_from(v).map_err(|_| WireError::Malformed(WHAT));
        let class = Self {
            count: small(count)?,
            min: small(min)?,
            max: small(max)?,
            sum,
            sum_squares,
        };
        if !class.consistent() {
            return Err(WireError::Malformed("inconsistent class timing"));
        }
        Ok(class)
    }
}

/// Exactly `N` numbers separated by `/`.
fn numbers<T: core::str::FromStr + Default + Copy, const N: usize>(
    token: &str,
    what: &'static str,
) -> Result<[T; N], WireError> {
    let mut out = [T::default(); N];
    let mut parts = token.split('/');
    for slot in &mut out {
        *slot = parse_number(parts.next().unwrap_or(""), what)?;
    }
    match parts.next() {
        None => Ok(out),
        Some(_) => Err(WireError::Malformed(what)),
    }
}

/// Result of a leakage test.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LeakagePhases {
    /// Class 0: the fixed input.
    pub class0: ClassTiming,
    /// Class 1: a fresh random input per measurement.
    pub class1: ClassTiming,
    /// |t| × 100 of every test: uncropped first, then the crops by growing threshold.
    pub abs_t_x100: [u32; LEAK_TESTS],
    /// Crop thresholds in corrected cycles, nondecreasing: crop `k` keeps the calls shorter
    /// than `thresholds[k - 1]`.
    pub thresholds: [u32; LEAK_CROPS],
    /// Address of the function timed, so the host can look up its code size in the ELF.
    pub entry: u32,
}

impl LeakagePhases {
    /// Measurements of both classes.
    pub fn measurements(&self) -> u64 {
        u64::from(self.class0.count) + u64::from(self.class1.count)
    }

    /// The largest |t| × 100 and the test it came from (0 uncropped, `k` crop `k`; the first
    /// on a tie).
    pub fn max_abs_t_x100(&self) -> (u32, usize) {
        let mut best = (self.abs_t_x100[0], 0);
        for (test, &t) in self.abs_t_x100.iter().enumerate().skip(1) {
            if t > best.0 {
                best = (t, test);
            }
        }
        best
    }

    /// Whether some test's |t| exceeds 4.5.
    pub fn leaks(&self) -> bool {
        self.max_abs_t_x100().0 > LEAK_THRESHOLD_X100
    }

    /// `leak` or `no-leak-detected`.
    pub fn verdict(&self) -> &'static str {
        if self.leaks() {
            "leak"
        } else {
            "no-leak-detected"
        }
    }
}

impl Shape for LeakagePhases {
    const TAG: &'static str = "leak";

    fn named(&self) -> Vec<NamedPhase> {
        Vec::new()
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        let (t, test) = self.max_abs_t_x100();
        let mut fields = Vec::from([
            ("measurements", Field::Number(self.measurements())),
            ("max_abs_t", Field::Decimal(f64::from(t) / 100.0)),
            ("max_abs_t_test", Field::Number(test as u64)),
            ("verdict", Field::Text(String::from(self.verdict()))),
        ]);
        let names = [
            (
                "class0_count",
                "class0_min",
                "class0_max",
                "class0_mean",
                "class0_variance",
            ),
            (
                "class1_count",
                "class1_min",
                "class1_max",
                "class1_mean",
                "class1_variance",
            ),
        ];
        for (class, (count, min, max, mean, variance)) in [&self.class0, &self.class1].into_iter().zip(names) {
            fields.push((count, Field::Number(u64::from(class.count))));
            if class.count > 0 {
                fields.push((min, Field::Number(u64::from(class.min))));
                fields.push((max, Field::Number(u64::from(class.max))));
            }
            if let Some(m) = class.moments().mean() {
                fields.push((mean, Field::Decimal(m)));
            }
            if let Some(v) = class.moments().variance() {
                fields.push((variance, Field::Decimal(v)));
            }
        }
        fields.push(("entry", Field::Number(u64::from(self.entry))));
        fields
    }

    fn encode(&self, out: &mut String) {
        self.class0.encode(out);
        self.class1.encode(out);
        let join = |values: &[u32]| values.iter().map(|v| format!("{v}")).collect::<Vec<_>>().join("/");
        wire::push(out, &join(&self.abs_t_x100));
        wire::push(out, &join(&self.thresholds));
        let _ = write!(out, " {}", self.entry);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let class0 = ClassTiming::decode(t)?;
        let class1 = ClassTiming::decode(t)?;
        let abs_t_x100 = numbers(t.next("t statistics")?, "t statistics")?;
        let thresholds: [u32; LEAK_CROPS] = numbers(t.next("crop thresholds")?, "crop thresholds")?;
        let entry = t.number("entry address")?;
        if thresholds.windows(2).any(|w| w[0] > w[1]) {
            return Err(WireError::Malformed("crop thresholds out of order"));
        }
        // The uncropped test follows from the class timings; both sides compute it alike.
        if abs_t_x100[0] != welch_abs_t_x100(&class0.moments(), &class1.moments()) {
            return Err(WireError::Malformed(
                "uncropped t does not follow from the class timings",
            ));
        }
        Ok(Self {
            class0,
            class1,
            abs_t_x100,
            thresholds,
            entry,
        })
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::wire::{decode_reply, decode_request, encode_reply, encode_request, frame, Rejected};
    use crate::{Benchmark, BenchmarkResults, Check, ImplementationKind, Measured, Reply, Request};

    fn moments(samples: &[u32]) -> Moments {
        let mut m = Moments::default();
        samples.iter().for_each(|&x| m.add(x));
        m
    }

    fn timing(samples: &[u32]) -> ClassTiming {
        let m = moments(samples);
        ClassTiming {
            count: m.count,
            min: samples.iter().copied().min().unwrap_or(0),
            max: samples.iter().copied().max().unwrap_or(0),
            sum: m.sum,
            sum_squares: m.sum_squares,
        }
    }

    fn request(operation: LeakOperation, secret: Secret, length: Option<u32>) -> LeakageBenchmark {
        LeakageBenchmark {
            operation,
            variant: LeakVariant::Software(SoftwareVariant::Rv32i),
            secret,
            length,
            measurements: 10_000,
            seed: 7,
        }
    }

    fn result(class0: &[u32], class1: &[u32]) -> LeakagePhases {
        let (class0, class1) = (timing(class0), timing(class1));
        LeakagePhases {
            class0,
            class1,
            abs_t_x100: [welch_abs_t_x100(&class0.moments(), &class1.moments()), 0, 3, 0, 0, 0],
            thresholds: [98, 98, 150, 150, 151],
            entry: 0x8000_1234,
        }
    }

    #[test]
    fn welch_t_matches_the_textbook_formula() {
        let a = [10, 12, 11, 13, 12, 10, 11];
        let b = [14, 15, 13, 16, 15];
        let mean = |s: &[u32]| s.iter().map(|&x| f64::from(x)).sum::<f64>() / s.len() as f64;
        let var = |s: &[u32]| {
            let m = mean(s);
            s.iter().map(|&x| (f64::from(x) - m).powi(2)).sum::<f64>() / (s.len() - 1) as f64
        };
        let t = (mean(&a) - mean(&b)).abs() / (var(&a) / 7.0 + var(&b) / 5.0).sqrt();
        assert_eq!(welch_abs_t_x100(&moments(&a), &moments(&b)), (t * 100.0) as u32);
        assert_eq!(moments(&a).mean(), Some(mean(&a)));
        assert!((moments(&b).variance().unwrap() - var(&b)).abs() < 1e-12);
        // Symmetric.
        assert_eq!(
            welch_abs_t_x100(&moments(&a), &moments(&b)),
            welch_abs_t_x100(&moments(&b), &moments(&a))
        );
    }

    #[test]
    fn constant_classes_are_decided_by_their_means() {
        let same = welch_abs_t_x100(&moments(&[103; 50]), &moments(&[103; 60]));
        assert_eq!(same, 0);
        let different = welch_abs_t_x100(&moments(&[103; 50]), &moments(&[104; 60]));
        assert_eq!(different, LEAK_T_UNBOUNDED);
        // One constant class is enough for a finite statistic.
        let finite = welch_abs_t_x100(&moments(&[103; 50]), &moments(&[103, 104, 103, 105]));
        assert!(finite > 0 && finite < LEAK_T_UNBOUNDED, "{finite}");
        // Too few samples say nothing.
        assert_eq!(welch_abs_t_x100(&moments(&[1]), &moments(&[5, 6, 7])), 0);
        assert_eq!(welch_abs_t_x100(&Moments::default(), &moments(&[5, 6])), 0);
    }

    #[test]
    fn huge_statistics_saturate_and_sums_do_not_overflow() {
        let mut a = Moments::default();
        let mut b = Moments::default();
        for i in 0..MAX_LEAK_MEASUREMENTS / 2 {
            a.add(MAX_LEAK_SAMPLE - (i & 1));
            b.add(i & 1);
        }
        assert_eq!(welch_abs_t_x100(&a, &b), LEAK_T_UNBOUNDED);
        let mut merged = a;
        merged.merge(&b);
        assert_eq!(merged.count, MAX_LEAK_MEASUREMENTS);
    }

    #[test]
    fn crop_percentiles_follow_dudect() {
        let indices: Vec<usize> = (1..=LEAK_CROPS).map(|k| crop_index(k, 1000)).collect();
        assert_eq!(indices, [750, 937, 984, 996, 999]);
        assert_eq!(crop_index(1, 100), 75);
        assert_eq!(crop_index(5, 100), 99);
        assert_eq!(crop_index(3, 1), 0);
    }

    #[test]
    fn verdict_and_fields_come_from_the_largest_t() {
        let mut r = result(&[150; 40], &[20, 22, 20, 20, 35, 20, 20, 150]);
        assert!(r.leaks());
        assert_eq!(r.verdict(), "leak");
        let fields = r.fields();
        let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
        assert_eq!(get("measurements"), Some(Field::Number(48)));
        assert_eq!(get("verdict"), Some(Field::Text("leak".into())));
        assert_eq!(get("max_abs_t_test"), Some(Field::Number(0)));
        assert_eq!(get("class0_mean"), Some(Field::Decimal(150.0)));
        assert_eq!(get("class0_variance"), Some(Field::Decimal(0.0)));
        assert_eq!(get("class1_min"), Some(Field::Number(20)));
        assert_eq!(get("class1_max"), Some(Field::Number(150)));

        r = result(&[103; 40], &[103; 40]);
        r.abs_t_x100 = [0, 450, 12, 450, 0, 0];
        assert_eq!(r.max_abs_t_x100(), (450, 1));
        assert_eq!(r.verdict(), "no-leak-detected");
        r.abs_t_x100[4] = 451;
        assert_eq!((r.max_abs_t_x100(), r.verdict()), ((451, 4), "leak"));
        let fields = r.fields();
        assert!(fields.contains(&("max_abs_t", Field::Decimal(4.51))));
    }

    #[test]
    fn requests_round_trip_and_are_range_checked() {
        let cases = [
            request(LeakOperation::CompareLeaky, Secret::Data, None),
            request(LeakOperation::CompareConstantTime, Secret::Data, None),
            request(LeakOperation::Primitive(Primitive::AesTableEncrypt), Secret::Key, None),
            request(LeakOperation::Primitive(Primitive::Chacha20), Secret::Data, Some(64)),
            request(
                LeakOperation::Primitive(Primitive::MpMulKaratsuba),
                Secret::Data,
                Some(32),
            ),
            LeakageBenchmark {
                variant: LeakVariant::Hardware,
                ..request(LeakOperation::Aes, Secret::Data, Some(64))
            },
            LeakageBenchmark {
                variant: LeakVariant::Hardware,
                ..request(LeakOperation::Hmac, Secret::Key, None)
            },
            LeakageBenchmark {
                variant: LeakVariant::Hardware,
                ..request(LeakOperation::Kmac, Secret::Key, None)
            },
            LeakageBenchmark {
                measurements: MAX_LEAK_MEASUREMENTS,
                seed: u32::MAX,
                ..request(LeakOperation::Primitive(Primitive::KeccakF1600), Secret::Data, None)
            },
        ];
        for (i, r) in cases.into_iter().enumerate() {
            let request = Request::Benchmark(Benchmark::Leakage(r));
            let line = encode_request(i as u16, &request);
            assert_eq!(decode_request(line.as_bytes()), Ok((i as u16, request)), "{line}");
        }
        assert!(encode_request(
            1,
            &Request::Benchmark(Benchmark::Leakage(request(
                LeakOperation::Primitive(Primitive::Chacha20),
                Secret::Key,
                Some(64),
            )))
        )
        .starts_with("1 B leak chacha20 rv32i key 10000 7 l64*"));
        for payload in [
            "B leak compare-leaky rv32i data 99 1",
            "B leak compare-leaky rv32i data 1000001 1",
            "B leak compare-leaky rv32i key 1000 1",
            "B leak compare-leaky rv32i data 1000 1 l16",
            "B leak compare-leaky rv32i data 1000 1 x3",
            "B leak compare rv32i data 1000 1",
            "B leak keccak-f1600 rust key 1000 1",
            "B leak aes-table-ks rust data 1000 1",
            "B leak chacha20 rust key 1000 1",
            "B leak mp-karatsuba rust data 1000 1 l7",
            "B leak compare-ct rust data 1000",
            "B leak compare-ct rust data 1000 4294967296",
            "B leak compare-ct rust secret 1000 1",
            "B leak compare-ct hardware data 1000 1",
            "B leak aes rv32i key 1000 1 l16",
            "B leak aes hardware key 1000 1",
            "B leak aes hardware key 1000 1 l20",
            "B leak aes hardware key 1000 1 l80",
            "B leak hmac hardware data 1000 1",
            "B leak kmac hardware key 1000 1 l16",
            "B leak kmac software key 1000 1",
        ] {
            let line = frame(format!("3 {payload}"));
            assert!(
                matches!(
                    decode_request(line.as_bytes()),
                    Err(Rejected {
                        id: Some(3),
                        error: WireError::Malformed(_)
                    })
                ),
                "{payload}"
            );
        }
    }

    #[test]
    fn results_round_trip_and_are_checked() {
        let r = result(
            &[150; 5000],
            &[20; 4990].iter().chain(&[28; 10]).copied().collect::<Vec<_>>(),
        );
        let reply = Reply::BenchmarkResults(BenchmarkResults::Measured(Measured {
            implementation: ImplementationKind::Software,
            check: Check::KnownAnswer,
            overhead: 4,
            repetitions: 1,
            phases: Phases::Leakage(r.clone()),
        }));
        let line = encode_reply(Some(9), &reply);
        assert!(line.len() <= crate::MAX_LINE_LEN, "{line}");
        assert_eq!(decode_reply(line.as_bytes()), Ok((Some(9), reply)), "{line}");
        let fits = request(LeakOperation::CompareLeaky, Secret::Data, None);
        assert!(Benchmark::Leakage(fits.clone()).accepts(&Phases::Leakage(r.clone())));
        let other = LeakageBenchmark {
            measurements: 10_001,
            ..fits
        };
        assert!(!Benchmark::Leakage(other).accepts(&Phases::Leakage(r)));

        for payload in [
            // The uncropped t does not follow from the classes.
            "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 0/0/0/0/0/0 5/5/6/6/6 0",
            // Sums no samples between min and max have.
            "R s k 4 1 leak 2/5/5/11/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6 0",
            "R s k 4 1 leak 2/5/6/11/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6 0",
            "R s k 4 1 leak 0/1/0/0/0 2/6/6/12/72 0/0/0/0/0/0 5/5/6/6/6 0",
            // Thresholds out of order, too few tests, too many thresholds.
            "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/6/5/6/6 0",
            "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0 5/5/6/6/6 0",
            "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6/7 0",
            "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6",
        ] {
            let line = frame(format!("1 {payload}"));
            assert!(decode_reply(line.as_bytes()).is_err(), "{payload}");
        }
        let good = frame(String::from(
            "1 R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6 0",
        ));
        assert!(decode_reply(good.as_bytes()).is_ok());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_names_are_wire_names() {
        let r = request(
            LeakOperation::Primitive(Primitive::AesBitslicedCtr),
            Secret::Key,
            Some(64),
        );
        let json = serde_json::to_value(Benchmark::Leakage(r.clone())).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"leakage": {"operation": "aes-bs-ctr", "variant": "rv32i", "secret": "key",
                "length": 64, "measurements": 10000, "seed": 7}})
        );
        assert_eq!(
            serde_json::from_value::<Benchmark>(json).unwrap(),
            Benchmark::Leakage(r)
        );
        let control: LeakageBenchmark = serde_json::from_str(
            r#"{"operation": "compare-ct", "variant": "rust", "secret": "data", "measurements": 100, "seed": 0}"#,
        )
        .unwrap();
        assert_eq!(control.operation, LeakOperation::CompareConstantTime);
        let accelerator: LeakageBenchmark = serde_json::from_str(
            r#"{"operation": "hmac", "variant": "hardware", "secret": "key", "measurements": 1000, "seed": 1}"#,
        )
        .unwrap();
        assert_eq!(
            (accelerator.operation, accelerator.variant),
            (LeakOperation::Hmac, LeakVariant::Hardware)
        );
        assert_eq!(accelerator.describe().module, Some(Module::Sha2));
        let error = serde_json::from_str::<LeakageBenchmark>(
            r#"{"operation": "sha1", "variant": "rust", "secret": "data", "measurements": 100, "seed": 0}"#,
        )
        .unwrap_err();
        let error = format!("{error}");
        assert!(
            error.contains("unknown operation 'sha1' (known: aes-table-ks,"),
            "{error}"
        );
    }
}
