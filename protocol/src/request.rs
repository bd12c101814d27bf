//! Messages from the host to the suite (thesis Table 4.2) and the benchmark requests they
//! carry (thesis Table 5.1).

use crate::DatasetId;

/// A message from the host to the suite. Every request gets exactly one reply.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum Request {
    /// Ask the suite to introduce itself again (reply: [`crate::Reply::Hello`]).
    Hello,
    /// Ask for the suite's current status (reply: [`crate::Reply::Status`]).
    GetStatus,
    /// The host has sent all requests of a file; the suite replies with a status summary and
    /// resets its per-session counters.
    Done,
    /// Stop the suite for good: it replies with a `Suspended` status and serves nothing more
    /// until it is reset.
    Suspend,
    /// Run one benchmark (reply: [`crate::Reply::BenchmarkResults`] or [`crate::Reply::Error`]).
    Benchmark(Benchmark),
}

/// One benchmark the suite can run. The variant decides the shape of the result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
pub enum Benchmark {
    /// AES over a dataset of blocks, one configuration (mode, key) per dataset.
    Aes(AesBenchmark),
    /// Seeded random number generation: seed from the dataset, then generate its blocks.
    RngSeeded(RngSeededBenchmark),
    /// Random number generation seeded from the platform's entropy source.
    RngTrueRandom(RngTrueRandomBenchmark),
    /// SHA-2 or SHA-3 (256-bit digest) over a dataset message.
    Hash(HashBenchmark),
    /// Fixed instruction sequences that characterise the CPU and the measurement itself.
    Micro(MicroBenchmark),
}

/// Which kind of benchmark a request or result belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BenchmarkKind {
    /// [`Benchmark::Aes`]
    Aes,
    /// [`Benchmark::RngSeeded`]
    RngSeeded,
    /// [`Benchmark::RngTrueRandom`]
    RngTrueRandom,
    /// [`Benchmark::Hash`]
    Hash,
    /// [`Benchmark::Micro`]
    Micro,
}

impl BenchmarkKind {
    /// Stable lower-case name, as used in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Aes => "aes",
            Self::RngSeeded => "rng_seeded",
            Self::RngTrueRandom => "rng_true_random",
            Self::Hash => "hash",
            Self::Micro => "micro",
        }
    }
}

impl Benchmark {
    /// The kind of this benchmark.
    pub fn kind(&self) -> BenchmarkKind {
        match self {
            Self::Aes(_) => BenchmarkKind::Aes,
            Self::RngSeeded(_) => BenchmarkKind::RngSeeded,
            Self::RngTrueRandom(_) => BenchmarkKind::RngTrueRandom,
            Self::Hash(_) => BenchmarkKind::Hash,
            Self::Micro(_) => BenchmarkKind::Micro,
        }
    }

    /// How often the suite runs the benchmark; results then carry per-phase statistics.
    pub fn repetitions(&self) -> u16 {
        let requested = match self {
            Self::Aes(b) => b.repetitions,
            Self::RngSeeded(b) => b.repetitions,
            Self::RngTrueRandom(b) => b.repetitions,
            Self::Hash(b) => b.repetitions,
            Self::Micro(b) => b.repetitions,
        };
        requested.unwrap_or(1)
    }

    /// The dataset this benchmark reads, if any.
    pub fn dataset(&self) -> Option<&DatasetId> {
        match self {
            Self::Aes(b) => Some(&b.dataset),
            Self::RngSeeded(b) => Some(&b.dataset),
            Self::Hash(b) => Some(&b.dataset),
            Self::RngTrueRandom(_) | Self::Micro(_) => None,
        }
    }
}

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Direction {
    /// Plaintext in, ciphertext out.
    #[default]
    Encrypt,
    /// Ciphertext in, plaintext out.
    Decrypt,
}

/// Whether an AES result breaks every block into write / compute / read or times the whole
/// stream of blocks (thesis Figs. 6.3 and 6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Granularity {
    /// One window around all blocks; automatic mode may pipeline two blocks.
    #[default]
    Total,
    /// Separate windows for writing, computing and reading every block.
    PerBlock,
}

/// Whether the AES engine starts on its own when a block is written, or on a trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Trigger {
    /// The engine starts as soon as a full input block is written.
    #[default]
    Automatic,
    /// The suite writes the start trigger after each block.
    Manual,
}

/// AES benchmark request (thesis `AESDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesBenchmark {
    /// Dataset: key, mode, IV, blocks and expected output.
    pub dataset: DatasetId,
    /// Encrypt the plaintext or decrypt the ciphertext of the dataset.
    #[cfg_attr(feature = "serde", serde(default))]
    pub direction: Direction,
    /// Per-block breakdown or one total.
    #[cfg_attr(feature = "serde", serde(default))]
    pub granularity: Granularity,
    /// Automatic or manual start.
    #[cfg_attr(feature = "serde", serde(default))]
    pub trigger: Trigger,
    /// Skip the input-ready check before writing a block (safe only when the engine is known
    /// to be idle; the output is still checked).
    #[cfg_attr(feature = "serde", serde(default))]
    pub tight: bool,
    /// Timed status readout (thesis Fig. 6.7, per-block only): execute this many `nop`s after
    /// starting a block, then read the status once; the busy-wait only runs if that read found
    /// no output yet. At most [`crate::MAX_STATUS_PAD`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub status_pad: Option<u16>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// Seeded RNG benchmark request (thesis `RNGDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RngSeededBenchmark {
    /// Dataset: seed material, number of blocks and expected output.
    pub dataset: DatasetId,
    /// Cycles to wait (unmeasured) between seeding and the first generate, to separate the
    /// generator's own settling from the generate (thesis 6.1.2). At most
    /// [`crate::MAX_INIT_WAIT`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub init_wait: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// Entropy-seeded RNG benchmark request (thesis `RNGTrueRandom`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RngTrueRandomBenchmark {
    /// Number of 128-bit blocks to generate after seeding (1 to [`crate::MAX_RNG_BLOCKS`]).
    pub blocks: u8,
    /// Cycles to wait (unmeasured) between seeding and the first generate, to separate the
    /// generator's own settling from the generate (thesis 6.1.2). At most
    /// [`crate::MAX_INIT_WAIT`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub init_wait: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// Which hash module to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HashAlgorithm {
    /// SHA-256.
    Sha2,
    /// SHA3-256.
    Sha3,
}

/// How input is fed to the hash module (thesis Tables 6.1 and 6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HashStyle {
    /// Check `input_ready` before every word, as the module API asks.
    #[default]
    ApiConform,
    /// Write words back to back without the ready check.
    Tight,
}

/// Hash benchmark request (thesis `HashDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct HashBenchmark {
    /// SHA-2 or SHA-3.
    pub algorithm: HashAlgorithm,
    /// Dataset: message and expected digest.
    pub dataset: DatasetId,
    /// API-conform or tight input.
    #[cfg_attr(feature = "serde", serde(default))]
    pub style: HashStyle,
    /// Record the deepest input FIFO fill seen and how often input had to wait.
    #[cfg_attr(feature = "serde", serde(default))]
    pub track_fifo: bool,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// Micro-benchmark request (thesis `MicroBenchmarks`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct MicroBenchmark {
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}
