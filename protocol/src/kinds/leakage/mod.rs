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
use crate::{LengthUnit, Module, NamedPhase, Phases, Primitive, Secret, SoftwareBenchmark, SoftwareVariant};

mod statistics;
#[cfg(test)]
mod tests;

pub use statistics::{
    crop_index, welch_abs_t_x100, Moments, LEAK_CROPS, LEAK_TESTS, LEAK_THRESHOLD_X100, LEAK_T_UNBOUNDED, LEAK_WARMUP,
    MAX_LEAK_MEASUREMENTS, MAX_LEAK_SAMPLE,
};

/// Most bytes the accelerated AES test encrypts per call: the four blocks of the published
/// ECB vector that class 0 uses.
pub const LEAK_AES_MAX_BYTES: u32 = 64;

/// Fewest measurements a leakage request may ask for.
pub const MIN_LEAK_MEASUREMENTS: u32 = 100;

/// The operations that are not software primitives: one line each, from which the
/// [`LeakOperation`] variants, their names, secrets, length rule and module are generated
/// (the primitives' come from their own table).
macro_rules! operations {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal, $unit:ident, [$($secret:ident),+], $module:expr;
    )*) => {
        /// What is timed: a software primitive as the `software` kind runs it, one of the two
        /// controls shipped with the suite, or an accelerator of the chip. Its JSON name is its
        /// wire name ([`LeakOperation::name`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
        pub enum LeakOperation {
            /// A software primitive.
            Primitive(Primitive),
            $($(#[$doc])* $variant,)*
        }

        impl LeakOperation {
            /// The operations that are not software primitives.
            const OWN: &'static [Self] = &[$(Self::$variant),*];

            /// Stable name, as on the wire and in results files.
            pub fn name(self) -> &'static str {
                match self {
                    Self::Primitive(p) => p.name(),
                    $(Self::$variant => $name,)*
                }
            }

            /// The inputs that can be made secret: the key of a cipher, the data of anything
            /// that has data (message, state, operands, compared buffer).
            pub fn secrets(self) -> &'static [Secret] {
                match self {
                    Self::Primitive(p) => p.secrets(),
                    $(Self::$variant => &[$(Secret::$secret),+],)*
                }
            }

            /// What `length` counts for this operation.
            pub fn length_unit(self) -> LengthUnit {
                match self {
                    Self::Primitive(p) => p.length_unit(),
                    $(Self::$variant => LengthUnit::$unit,)*
                }
            }

            /// The module an accelerated operation drives.
            pub fn module(self) -> Option<Module> {
                match self {
                    Self::Primitive(_) => None,
                    $(Self::$variant => $module,)*
                }
            }
        }
    };
}

operations! {
    /// Control that must be flagged: a 16-byte comparison that returns at the first
    /// differing byte.
    CompareLeaky = "compare-leaky", Fixed, [Data], None;
    /// Control that must not be flagged: a 16-byte comparison that ORs the XOR of every byte
    /// pair and looks at the result once.
    CompareConstantTime = "compare-ct", Fixed, [Data], None;
    /// The AES accelerator: AES-128 ECB encryption of `length` bytes, key and blocks written,
    /// output read.
    Aes = "aes", Bytes, [Key, Data], Some(Module::Aes);
    /// The HMAC accelerator in HMAC-SHA256 mode with a 256-bit key, over a fixed message.
    Hmac = "hmac", Fixed, [Key], Some(Module::Sha2);
    /// The KMAC accelerator in KMAC256 mode (SP 800-185) with a 256-bit key and a 256-bit
    /// output, over a fixed message.
    Kmac = "kmac", Fixed, [Key], Some(Module::Sha3);
    /// An implementation from outside the tree (the request's `impl`), over `length` bytes
    /// where its interface takes data; which secrets it has depends on its interface, which
    /// the suite knows.
    Implementation = "impl", Bytes, [Key, Data], None;
}

impl LeakOperation {
    /// The operation of a request that names an implementation from outside the tree.
    pub fn outside() -> Self {
        Self::Implementation
    }

    /// Whether the operation runs on an accelerator (variant `hardware`).
    pub fn accelerator(self) -> bool {
        self.module().is_some()
    }

    /// The operation called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::OWN
            .iter()
            .copied()
            .find(|o| o.name() == name)
            .or_else(|| Primitive::from_name(name).map(Self::Primitive))
    }
}

impl LeakOperation {
    /// Every operation: the primitives, then the others.
    pub fn all() -> impl Iterator<Item = Self> {
        Primitive::ALL
            .into_iter()
            .map(Self::Primitive)
            .chain(Self::OWN.iter().copied())
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
    /// An implementation from outside the tree (operation `impl`).
    Implementation,
}

impl LeakVariant {
    /// The variant of a request that names an implementation from outside the tree.
    pub fn outside() -> Self {
        Self::Implementation
    }

    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Software(v) => v.name(),
            Self::Hardware => "hardware",
            Self::Implementation => "impl",
        }
    }

    /// Every variant: the software ones, then the accelerator.
    pub fn all() -> impl Iterator<Item = Self> {
        SoftwareVariant::ALL
            .into_iter()
            .map(Self::Software)
            .chain([Self::Hardware, Self::Implementation])
    }

    /// The variant called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "hardware" => Some(Self::Hardware),
            "impl" => Some(Self::Implementation),
            _ => SoftwareVariant::from_name(name).map(Self::Software),
        }
    }
}

json_as_name! {
    LeakOperation: "operation", LeakOperation::all();
    LeakVariant: "variant", LeakVariant::all();
}

/// Leakage test request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LeakageBenchmark {
    /// What to time (`impl` when the request names an implementation from outside the tree,
    /// which is also its default).
    #[cfg_attr(feature = "serde", serde(default = "LeakOperation::outside"))]
    pub operation: LeakOperation,
    /// Which implementation of it (`impl` for one from outside the tree, also its default).
    #[cfg_attr(feature = "serde", serde(default = "LeakVariant::outside"))]
    pub variant: LeakVariant,
    /// The implementation from outside the tree to time, by its `impl.toml` name; given, it
    /// stands for `operation` and `variant`.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "impl", default, skip_serializing_if = "Option::is_none")
    )]
    pub implementation: Option<String>,
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

    fn accelerator(&self) -> Option<Module> {
        self.operation.module()
    }

    fn describe(&self) -> Description {
        let mut config = match &self.implementation {
            Some(name) => format!("impl {name}"),
            None => format!("{} {}", self.operation.name(), self.variant.name()),
        };
        let mut fields = Vec::from([
            ("operation", Field::Text(String::from(self.operation.name()))),
            ("variant", Field::Text(String::from(self.variant.name()))),
            ("secret", Field::Text(String::from(self.secret.name()))),
            ("seed", Field::Number(u64::from(self.seed))),
        ]);
        if let Some(name) = &self.implementation {
            fields.push((crate::IMPL_FIELD, Field::Text(name.clone())));
        }
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
        let outside = (
            self.operation == LeakOperation::Implementation,
            self.variant == LeakVariant::Implementation,
        );
        match (&self.implementation, outside) {
            // The name and length rules and their messages are the `impl` kind's.
            (Some(name), (true, true)) => {
                return crate::ImplBenchmark {
                    name: name.clone(),
                    length: self.length,
                    repetitions: None,
                }
                .check();
            }
            (Some(_), _) => {
                return Err(String::from(
                    "a request naming \"impl\" takes no \"operation\" or \"variant\": the implementation is both",
                ))
            }
            (None, (false, false)) => {}
            (None, _) => {
                return Err(String::from(
                    "operation and variant \"impl\" need \"impl\": the name of an implementation given with --impl",
                ))
            }
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
        if let Some(name) = &self.implementation {
            wire::push(out, name);
        }
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
        let secret = wire::flag(
            t,
            "secret",
            (Secret::Key.name(), Secret::Key),
            (Secret::Data.name(), Secret::Data),
        )?;
        let measurements: u32 = t.number("measurements")?;
        let seed: u32 = t.number("seed")?;
        let implementation = match operation {
            LeakOperation::Implementation => Some(String::from(t.next("implementation name")?)),
            _ => None,
        };
        let length = Options::decode(t, "l")?.length;
        let request = Self {
            operation,
            variant,
            implementation,
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

    /// Why the largest |t| has no finite value, when it has none: the statistic is
    /// unbounded when both classes have zero variance and different means, and saturates on
    /// the wire beyond [`LEAK_T_UNBOUNDED`] / 100. For the uncropped test the class timings
    /// tell the two apart; a crop's moments are not sent, so its reason names both.
    pub fn unbounded_reason(&self) -> Option<&'static str> {
        let (t, test) = self.max_abs_t_x100();
        if t != LEAK_T_UNBOUNDED {
            return None;
        }
        let constant = |c: &ClassTiming| c.count > 0 && c.min == c.max;
        Some(match test {
            0 if constant(&self.class0) && constant(&self.class1) => {
                "both classes have zero variance and different means"
            }
            0 => "|t| is beyond the largest value the statistic holds",
            _ => {
                "below the crop threshold both classes have zero variance and different means, or |t| is \
                 beyond the largest value the statistic holds"
            }
        })
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
        let unbounded = self.unbounded_reason();
        let mut fields = Vec::from([
            ("measurements", Field::Number(self.measurements())),
            // The wire's saturated value is no measurement: a reader would average or plot it.
            (
                "max_abs_t",
                match unbounded {
                    Some(_) => Field::Null,
                    None => Field::Decimal(f64::from(t) / 100.0),
                },
            ),
            ("max_abs_t_test", Field::Number(test as u64)),
            ("verdict", Field::Text(String::from(self.verdict()))),
            ("t_unbounded", Field::Flag(unbounded.is_some())),
        ]);
        if let Some(reason) = unbounded {
            fields.push(("t_unbounded_reason", Field::Text(String::from(reason))));
        }
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
