//! Messages from the suite to the host (thesis Table 4.2) and the benchmark results they
//! carry (thesis Tables 6.1–6.3).

use alloc::string::String;
use alloc::vec::Vec;

use crate::BenchmarkKind;

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
}

impl Module {
    /// Every module, in announcement order.
    pub const ALL: [Module; 5] = [Self::Sha2, Self::Sha3, Self::Aes, Self::Rng, Self::Entropy];

    /// Stable lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sha2 => "sha2",
            Self::Sha3 => "sha3",
            Self::Aes => "aes",
            Self::Rng => "rng",
            Self::Entropy => "entropy",
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

/// How the output of a measured benchmark was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Check {
    /// Compared against the dataset's known answer.
    KnownAnswer,
    /// No known answer exists (true random); checked for plausibility: not constant, blocks
    /// distinct.
    Plausibility,
    /// The output could not be observed by software, so it was not checked.
    Unverifiable,
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
        let sum: u128 = samples.iter().map(|&s| u128::from(s)).sum();
        let mean_x100 = u64::try_from(sum * 100 / n as u128).unwrap_or(u64::MAX);
        Some(Self {
            min,
            median,
            max,
            mean_x100,
        })
    }
}

/// Input FIFO observations of a tracked hash run (thesis 6.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct FifoTrace {
    /// Deepest FIFO fill seen before a write.
    pub max_depth: u32,
    /// How many times input had to wait because the FIFO was full.
    pub full_waits: u32,
}

/// Cycles of one generate request and of reading its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct GeneratePhases {
    /// Issue the generate request and wait for the output to be valid.
    pub generate: Cycles,
    /// Read the generated block(s).
    pub read: Cycles,
}

/// Phase breakdown of a benchmark; the variant follows the benchmark kind.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum Phases {
    /// Hashing (thesis Tables 6.1, 6.2).
    Hash {
        /// `init`.
        init: Cycles,
        /// All `write_input` calls with their ready checks.
        input: Cycles,
        /// `wait_for_completion`.
        await_digest: Cycles,
        /// `read_digest`.
        read_digest: Cycles,
        /// FIFO observations when tracking was requested.
        fifo: Option<FifoTrace>,
    },
    /// AES, one window around all blocks (thesis Fig. 6.3).
    AesTotal {
        /// `init`: configuration, key shares, IV.
        init: Cycles,
        /// Writing, processing and reading all blocks.
        process: Cycles,
        /// `deinit`.
        deinit: Cycles,
        /// Number of blocks processed.
        blocks: u16,
    },
    /// AES, each block split into write / compute / read (thesis Table 6.3, Fig. 6.4).
    /// Block phases are summed over all blocks.
    AesPerBlock {
        /// `init`.
        init: Cycles,
        /// `write_block` for all blocks.
        write: Cycles,
        /// Trigger (manual) and `wait_for_output` for all blocks.
        compute: Cycles,
        /// `read_block` for all blocks.
        read: Cycles,
        /// `deinit`.
        deinit: Cycles,
        /// Number of blocks processed.
        blocks: u16,
    },
    /// Random number generation (thesis Fig. 6.2): seeding, then each generate request.
    Rng {
        /// `init` (uninstantiate + instantiate with the seed).
        init: Cycles,
        /// One entry per generate request, in order.
        generates: Vec<GeneratePhases>,
    },
    /// Micro-benchmarks: fixed instruction blocks between two counter reads.
    Micro {
        /// Nothing between the reads: the measurement overhead itself.
        empty: Cycles,
        /// One `nop`.
        nop: Cycles,
        /// Ten `nop`s.
        nop10: Cycles,
        /// Ten dependent `add`s.
        add10: Cycles,
        /// Ten loads from RAM.
        load10: Cycles,
        /// Ten stores to RAM.
        store10: Cycles,
        /// Ten `mul`s.
        mul10: Cycles,
        /// One `div`.
        div: Cycles,
        /// Ten iterations of a counted loop (taken branches).
        loop10: Cycles,
    },
    /// A software primitive: one window around one call.
    Software {
        /// The call.
        run: Cycles,
        /// Deepest stack use of the call, in bytes (measured by painting the stack).
        stack_bytes: u32,
        /// Address of the function called, so the host can look up its code size in the ELF.
        entry: u32,
    },
}

impl Phases {
    /// The kind of benchmark these phases belong to, where it is unambiguous.
    pub fn kind(&self) -> Option<BenchmarkKind> {
        match self {
            Self::Hash { .. } => Some(BenchmarkKind::Hash),
            Self::AesTotal { .. } | Self::AesPerBlock { .. } => Some(BenchmarkKind::Aes),
            // Seeded and entropy-seeded generation share a shape.
            Self::Rng { .. } => None,
            Self::Micro { .. } => Some(BenchmarkKind::Micro),
            Self::Software { .. } => Some(BenchmarkKind::Software),
        }
    }

    /// Every phase in execution order. A phase may sum several measurement windows (per-block
    /// AES sums one window per block); the host subtracts the overhead once per window.
    pub fn named(&self) -> Vec<NamedPhase> {
        use alloc::format;
        let blocks = |b: &u16| u32::from(*b);
        let fixed = |pairs: &[(&str, Cycles, u32)]| -> Vec<NamedPhase> {
            pairs
                .iter()
                .map(|(n, c, w)| NamedPhase {
                    name: String::from(*n),
                    cycles: *c,
                    windows: *w,
                })
                .collect()
        };
        match self {
            Self::Hash {
                init,
                input,
                await_digest,
                read_digest,
                ..
            } => fixed(&[
                ("init", *init, 1),
                ("input", *input, 1),
                ("await_digest", *await_digest, 1),
                ("read_digest", *read_digest, 1),
            ]),
            Self::AesTotal {
                init, process, deinit, ..
            } => fixed(&[("init", *init, 1), ("process", *process, 1), ("deinit", *deinit, 1)]),
            Self::AesPerBlock {
                init,
                write,
                compute,
                read,
                deinit,
                blocks: b,
            } => fixed(&[
                ("init", *init, 1),
                ("write", *write, blocks(b)),
                ("compute", *compute, blocks(b)),
                ("read", *read, blocks(b)),
                ("deinit", *deinit, 1),
            ]),
            Self::Rng { init, generates } => {
                let mut named = fixed(&[("init", *init, 1)]);
                for (i, g) in generates.iter().enumerate() {
                    let n = i + 1;
                    named.push(NamedPhase {
                        name: format!("generate{n}"),
                        cycles: g.generate,
                        windows: 1,
                    });
                    named.push(NamedPhase {
                        name: format!("read{n}"),
                        cycles: g.read,
                        windows: 1,
                    });
                }
                named
            }
            Self::Micro {
                empty,
                nop,
                nop10,
                add10,
                load10,
                store10,
                mul10,
                div,
                loop10,
            } => fixed(&[
                ("empty", *empty, 1),
                ("nop", *nop, 1),
                ("nop10", *nop10, 1),
                ("add10", *add10, 1),
                ("load10", *load10, 1),
                ("store10", *store10, 1),
                ("mul10", *mul10, 1),
                ("div", *div, 1),
                ("loop10", *loop10, 1),
            ]),
            Self::Software { run, .. } => fixed(&[("run", *run, 1)]),
        }
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
