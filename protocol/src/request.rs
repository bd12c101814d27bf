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
    /// A software primitive (AES, ChaCha20, Keccak-f[1600], multi-precision arithmetic) on
    /// the CPU, in one of its implementation variants.
    Software(SoftwareBenchmark),
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
    /// [`Benchmark::Software`]
    Software,
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
            Self::Software => "software",
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
            Self::Software(_) => BenchmarkKind::Software,
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
            Self::Software(b) => b.repetitions,
        };
        requested.unwrap_or(1)
    }

    /// The dataset this benchmark reads, if any.
    pub fn dataset(&self) -> Option<&DatasetId> {
        match self {
            Self::Aes(b) => Some(&b.dataset),
            Self::RngSeeded(b) => Some(&b.dataset),
            Self::Hash(b) => Some(&b.dataset),
            Self::RngTrueRandom(_) | Self::Micro(_) | Self::Software(_) => None,
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

/// A software primitive the suite can time (seed 2's study, plus its key schedules). Its
/// JSON name is its wire name ([`Primitive::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Primitive {
    /// Table-based AES-128 key expansion.
    #[cfg_attr(feature = "serde", serde(rename = "aes-table-ks"))]
    AesTableKeySchedule,
    /// Table-based AES-128 encryption of one 16-byte block.
    #[cfg_attr(feature = "serde", serde(rename = "aes-table"))]
    AesTableEncrypt,
    /// Bitsliced AES-128 key expansion into the bitsliced round-key format.
    #[cfg_attr(feature = "serde", serde(rename = "aes-bs-ks"))]
    AesBitslicedKeySchedule,
    /// Bitsliced AES-128-CTR (two blocks in parallel) over `length` bytes.
    #[cfg_attr(feature = "serde", serde(rename = "aes-bs-ctr"))]
    AesBitslicedCtr,
    /// ChaCha20 over `length` bytes.
    #[cfg_attr(feature = "serde", serde(rename = "chacha20"))]
    Chacha20,
    /// One Keccak-f[1600] permutation of the 200-byte state.
    #[cfg_attr(feature = "serde", serde(rename = "keccak-f1600"))]
    KeccakF1600,
    /// Addition of two `length`-limb integers in radix 2^32 with explicit carries.
    #[cfg_attr(feature = "serde", serde(rename = "mp-add"))]
    MpAddFull,
    /// Limb-wise addition of two `length`-limb integers in a reduced radix (no carries).
    #[cfg_attr(feature = "serde", serde(rename = "mp-add-reduced"))]
    MpAddReduced,
    /// Schoolbook multiplication of two `length`-limb integers, radix 2^32.
    #[cfg_attr(feature = "serde", serde(rename = "mp-mul"))]
    MpMulSchoolbook,
    /// Schoolbook multiplication in a reduced radix.
    #[cfg_attr(feature = "serde", serde(rename = "mp-mul-reduced"))]
    MpMulSchoolbookReduced,
    /// One level of subtractive Karatsuba, radix 2^32 (`length` even).
    #[cfg_attr(feature = "serde", serde(rename = "mp-karatsuba"))]
    MpMulKaratsuba,
    /// One level of subtractive Karatsuba in a reduced radix (`length` even).
    #[cfg_attr(feature = "serde", serde(rename = "mp-karatsuba-reduced"))]
    MpMulKaratsubaReduced,
}

/// What a software benchmark's `length` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthUnit {
    /// The primitive works on a fixed size; no length is given.
    Fixed,
    /// Bytes of input, 1 to [`crate::MAX_SOFTWARE_BYTES`].
    Bytes,
    /// 32-bit limbs per operand, 2 to [`crate::MAX_LIMBS`].
    Limbs,
}

impl Primitive {
    /// Every primitive, in report order.
    pub const ALL: [Primitive; 12] = [
        Self::AesTableKeySchedule,
        Self::AesTableEncrypt,
        Self::AesBitslicedKeySchedule,
        Self::AesBitslicedCtr,
        Self::Chacha20,
        Self::KeccakF1600,
        Self::MpAddFull,
        Self::MpAddReduced,
        Self::MpMulSchoolbook,
        Self::MpMulSchoolbookReduced,
        Self::MpMulKaratsuba,
        Self::MpMulKaratsubaReduced,
    ];

    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::AesTableKeySchedule => "aes-table-ks",
            Self::AesTableEncrypt => "aes-table",
            Self::AesBitslicedKeySchedule => "aes-bs-ks",
            Self::AesBitslicedCtr => "aes-bs-ctr",
            Self::Chacha20 => "chacha20",
            Self::KeccakF1600 => "keccak-f1600",
            Self::MpAddFull => "mp-add",
            Self::MpAddReduced => "mp-add-reduced",
            Self::MpMulSchoolbook => "mp-mul",
            Self::MpMulSchoolbookReduced => "mp-mul-reduced",
            Self::MpMulKaratsuba => "mp-karatsuba",
            Self::MpMulKaratsubaReduced => "mp-karatsuba-reduced",
        }
    }

    /// The primitive called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What `length` counts for this primitive.
    pub fn length_unit(self) -> LengthUnit {
        match self {
            Self::AesBitslicedCtr | Self::Chacha20 => LengthUnit::Bytes,
            Self::MpAddFull
            | Self::MpAddReduced
            | Self::MpMulSchoolbook
            | Self::MpMulSchoolbookReduced
            | Self::MpMulKaratsuba
            | Self::MpMulKaratsubaReduced => LengthUnit::Limbs,
            Self::AesTableKeySchedule | Self::AesTableEncrypt | Self::AesBitslicedKeySchedule | Self::KeccakF1600 => {
                LengthUnit::Fixed
            }
        }
    }

    /// Whether `length` is acceptable for this primitive (`None` for fixed-size ones).
    pub fn accepts(self, length: Option<u32>) -> bool {
        match (self.length_unit(), length) {
            (LengthUnit::Fixed, None) => true,
            (LengthUnit::Bytes, Some(n)) => (1..=crate::MAX_SOFTWARE_BYTES).contains(&n),
            (LengthUnit::Limbs, Some(n)) => {
                let even = !matches!(self, Self::MpMulKaratsuba | Self::MpMulKaratsubaReduced) || n % 2 == 0;
                (2..=crate::MAX_LIMBS).contains(&n) && even
            }
            _ => false,
        }
    }

    /// Bytes of data one run processes, where cycles per byte mean something (the seed's
    /// Table 1 divides by 16 for a table-AES block and by 200 for Keccak-f's state).
    pub fn bytes_processed(self, length: Option<u32>) -> Option<u32> {
        match self {
            Self::AesTableEncrypt => Some(16),
            Self::KeccakF1600 => Some(200),
            Self::AesBitslicedCtr | Self::Chacha20 => length,
            _ => None,
        }
    }
}

/// Implementation variant of a software primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SoftwareVariant {
    /// Portable Rust, compiled for the platform's ISA.
    Rust,
    /// Hand-written RV32I(M) assembly.
    Rv32i,
    /// Hand-written assembly using the Zbb bit-manipulation extension.
    Zbb,
}

impl SoftwareVariant {
    /// Every variant.
    pub const ALL: [SoftwareVariant; 3] = [Self::Rust, Self::Rv32i, Self::Zbb];

    /// Stable name, as on the wire and in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Rv32i => "rv32i",
            Self::Zbb => "zbb",
        }
    }

    /// The variant called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// Software primitive benchmark request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SoftwareBenchmark {
    /// What to run.
    pub primitive: Primitive,
    /// Which implementation of it.
    pub variant: SoftwareVariant,
    /// Bytes or limbs (see [`Primitive::length_unit`]); absent for fixed-size primitives.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub length: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn json_names_are_wire_names() {
        for p in Primitive::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), p.name(), "{p:?}");
        }
        for v in SoftwareVariant::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.name(), "{v:?}");
        }
    }
}
