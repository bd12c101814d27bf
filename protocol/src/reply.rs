//! Messages from the suite to the host (thesis Table 4.2) and the benchmark results they
//! carry (thesis Tables 6.1–6.3).

use alloc::string::String;
use alloc::vec::Vec;

use crate::{BenchmarkKind, Phases, RequestId};

/// A message from the suite to the host.
// One reply exists at a time; boxing the large variants would only add allocations.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum Reply {
    /// Sent once at boot and on request: who the suite is and what it can measure.
    Hello(Hello),
    /// Reply to `GetStatus`, `Done` and `Suspend`.
    Status(Status),
    /// A request could not be served.
    Error(ErrorReply),
    /// Reply to a benchmark request that was served.
    BenchmarkResults(BenchmarkResults),
    /// Sent before a benchmark runs: the request arrived intact and the suite is busy with
    /// it. Not the reply; that follows. Tells the host not to disturb a long benchmark with
    /// questions its input buffer may not hold.
    Accepted,
}

/// The suite's introduction: enough for the host to label every result it gets afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Hello {
    /// [`crate::PROTOCOL_VERSION`] of the suite.
    pub protocol_version: u16,
    /// Platform name, e.g. `qemu-virt`.
    pub platform: String,
    /// CPU clock in Hz.
    pub cpu_hz: u32,
    /// Whether one counted cycle is one CPU clock cycle of the modelled hardware.
    pub cycle_accurate: bool,
    /// Cycles one empty measurement window reads, calibrated at boot (minimum of many).
    pub overhead: u32,
    /// Largest message the suite holds in RAM; a longer one is a repeated block
    /// ([`crate::message`]).
    pub max_message: u32,
    /// Every module the suite knows, and what implements it on this platform.
    pub modules: Vec<ModuleInfo>,
}

/// A module of the suite (thesis chapter 4.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Module {
    /// SHA-256 hashing.
    Sha2,
    /// SHA3-256 hashing.
    Sha3,
    /// AES block cipher with modes.
    Aes,
    /// Seeded deterministic random bit generator.
    Rng,
    /// Entropy source for true-random seeding.
    Entropy,
    /// Big-number accelerator for public-key operations (OTBN).
    BigNum,
}

impl Module {
    /// Every module, in announcement order.
    pub const ALL: [Module; 6] = [
        Self::Sha2,
        Self::Sha3,
        Self::Aes,
        Self::Rng,
        Self::Entropy,
        Self::BigNum,
    ];

    /// Stable lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sha2 => "sha2",
            Self::Sha3 => "sha3",
            Self::Aes => "aes",
            Self::Rng => "rng",
            Self::Entropy => "entropy",
            Self::BigNum => "bignum",
        }
    }
}

/// What implements a module on a platform.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum Implementation {
    /// A hardware block, e.g. `hmac`.
    Hardware(String),
    /// A software implementation running on the CPU, e.g. `rustcrypto-sha2`.
    Software(String),
    /// The platform has no implementation.
    Absent,
}

/// One entry of the module inventory in [`Hello`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ModuleInfo {
    /// The module.
    pub module: Module,
    /// What implements it.
    pub implementation: Implementation,
}

/// State of the suite's main loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SuiteState {
    /// Serving requests.
    Ready,
    /// Stopped by `Suspend`; serves nothing more until reset.
    Suspended,
}

/// Status summary of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Status {
    /// Main-loop state.
    pub state: SuiteState,
    /// Benchmark requests answered with results since boot or the last `Done`.
    pub served: u32,
    /// Requests answered with an error since boot or the last `Done`.
    pub errors: u32,
    /// The suite's cycle counter when it replied (simulated cycles since reset on a
    /// simulator), for tool-speed figures.
    pub cycles: u64,
    /// Identifier of the last request the suite carried out, other than a status or repeat
    /// request: what a repeat request would send again. Tells the host whether a request
    /// whose reply it did not get ever arrived.
    pub last_request: Option<RequestId>,
}

/// Why a request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ErrorKind {
    /// The line is not a valid request.
    Malformed,
    /// The line's checksum does not match its content.
    Checksum,
    /// The line exceeds [`crate::MAX_LINE_LEN`].
    LineTooLong,
    /// The request names a dataset the addressed module does not have.
    UnknownDataset,
    /// A parameter is out of range (e.g. too many repetitions or blocks).
    InvalidParameter,
    /// The benchmark ran but its output differs from the known answer.
    WrongAnswer,
    /// A hardware wait exceeded its cycle bound.
    Timeout,
    /// The suite panicked; it stops after sending this.
    Panic,
}

/// An error reply.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ErrorReply {
    /// Class of the error.
    pub kind: ErrorKind,
    /// Human-readable detail (printable ASCII).
    pub detail: String,
}

/// Reply to a benchmark request.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum BenchmarkResults {
    /// The benchmark ran and its output was checked.
    Measured(Measured),
    /// The platform cannot run this benchmark.
    Unsupported {
        /// Kind of the requested benchmark.
        kind: BenchmarkKind,
        /// Why, e.g. "no entropy source on qemu-virt".
        reason: String,
    },
}

/// Whether an implementation is a hardware block or CPU software.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ImplementationKind {
    /// A hardware accelerator.
    Hardware,
    /// Software on the CPU.
    Software,
}

impl ImplementationKind {
    /// The name used in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hardware => "hardware",
            Self::Software => "software",
        }
    }
}

/// How the output of a measured benchmark was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Check {
    /// Compared against the dataset's known answer.
    KnownAnswer,
    /// No known answer exists; checked for plausibility: for entropy-seeded generation, not
    /// constant, blocks distinct, instantiations different; for a seeded generator that
    /// departs from its standard, the same seed gives the same output.
    Plausibility,
    /// No known answer can exist and no plausibility check holds: the implementation departs
    /// from its standard (an entropy-seeded generator that ignores its entropy), so the
    /// cycles are reported with the output unchecked.
    Unverifiable,
    /// An implementation from outside the tree that declares neither an algorithm the suite
    /// knows nor known-answer vectors of its own: measured, its output unchecked.
    Unverified,
}

/// A measured benchmark result. All cycle counts are raw: the host subtracts `overhead` per
/// measurement window and says so.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Measured {
    /// Hardware block or software.
    pub implementation: ImplementationKind,
    /// How the output was checked.
    pub check: Check,
    /// Calibrated cost of one empty measurement window, in cycles.
    pub overhead: u32,
    /// How often the benchmark ran; every phase below summarises that many windows.
    pub repetitions: u16,
    /// The phase breakdown.
    pub phases: Phases,
}

/// Raw cycles of one phase over all repetitions, summarised on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Cycles {
    /// Smallest window.
    pub min: u64,
    /// Median window (lower median for an even count).
    pub median: u64,
    /// Largest window.
    pub max: u64,
    /// Mean window times 100, rounded down.
    pub mean_x100: u64,
}

impl Cycles {
    /// Summary of a single window.
    pub fn once(cycles: u64) -> Self {
        Self {
            min: cycles,
            median: cycles,
            max: cycles,
            mean_x100: cycles.saturating_mul(100),
        }
    }

    /// Whether all windows had the same length.
    pub fn is_constant(&self) -> bool {
        self.min == self.max
    }

    /// Summary of `samples`, sorting them in place. `None` when empty.
    pub fn summarise(samples: &mut [u64]) -> Option<Self> {
        samples.sort_unstable();
        let n = samples.len();
        let min = *samples.first()?;
        let max = *samples.last()?;
        let median = samples[(n - 1) / 2];
        // The narrowest arithmetic that cannot overflow: RV32 divides 32-bit numbers in
        // hardware, but 64-bit ones by a library call of hundreds of cycles and 128-bit ones
        // of thousands, paid for every phase of every request.
        let sum_x100 = samples
            .iter()
            .try_fold(0u64, |sum, &s| sum.checked_add(s))
            .and_then(|sum| sum.checked_mul(100));
        let mean_x100 = match sum_x100 {
            Some(sum_x100) if n == 1 => sum_x100,
            Some(sum_x100) => match (u32::try_from(sum_x100), u32::try_from(n)) {
                (Ok(sum), Ok(count)) => u64::from(sum / count),
                _ => sum_x100 / n as u64,
            },
            None => {
                let sum: u128 = samples.iter().map(|&s| u128::from(s)).sum();
                u64::try_from(sum * 100 / n as u128).unwrap_or(u64::MAX)
            }
        };
        Some(Self {
            min,
            median,
            max,
            mean_x100,
        })
    }
}

/// One phase of a result with its name and how many measurement windows it sums.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedPhase {
    /// Phase name, e.g. `await_digest`.
    pub name: String,
    /// Raw cycles.
    pub cycles: Cycles,
    /// Number of measurement windows summed into `cycles`.
    pub windows: u32,
}

impl NamedPhase {
    /// A phase summing `windows` measurement windows.
    pub fn new(name: &str, cycles: Cycles, windows: u32) -> Self {
        Self {
            name: String::from(name),
            cycles,
            windows,
        }
    }

    /// Phases of one window each, in the order given.
    pub fn once(phases: &[(&str, Cycles)]) -> Vec<Self> {
        phases
            .iter()
            .map(|(name, cycles)| Self::new(name, *cycles, 1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::Cycles;

    #[test]
    fn summary_of_samples() {
        let c = Cycles::summarise(&mut [7, 1, 4, 2]).unwrap();
        assert_eq!((c.min, c.median, c.max, c.mean_x100), (1, 2, 7, 350));
        assert_eq!(Cycles::summarise(&mut []), None);
    }

    #[test]
    fn mean_of_sums_beyond_64_bits_is_exact_or_saturates() {
        // The sum needs more than 64 bits; the mean times 100 does not.
        let sample = u64::MAX / 150;
        let c = Cycles::summarise(&mut vec![sample; 200]).unwrap();
        assert_eq!(c.mean_x100, sample * 100);
        let c = Cycles::summarise(&mut [u64::MAX, u64::MAX]).unwrap();
        assert_eq!(c.mean_x100, u64::MAX);
    }
}
