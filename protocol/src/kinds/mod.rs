//! Every benchmark kind and result shape, registered once.
//!
//! A kind is one file here: its request, its result shape(s), their wire forms and how they
//! read in results files (the [`Kind`] and [`Shape`] traits). The registry below turns the
//! list into the exhaustive [`Benchmark`], [`BenchmarkKind`] and [`Phases`] enums and their
//! dispatch, so a kind that is added here and not handled by the suite does not compile.

mod aes;
mod hash;
mod implementation;
mod leakage;
mod library;
mod micro;
mod offload;
mod pubkey;
mod rng;
mod software;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "std")]
pub use aes::reference_output as aes_reference_output;
pub use aes::{
    AesBenchmark, AesData, AesPerBlockPhases, AesTotalPhases, CipherMode, Direction, Granularity, Trigger,
    MAX_AES_INLINE_BYTES,
};
pub use hash::{FifoTrace, HashAlgorithm, HashBenchmark, HashPhases, HashStyle};
pub use implementation::{valid_impl_name, ImplBenchmark, ImplPhases, IMPL_FIELD, INTERFACE_FIELD, MAX_IMPL_NAME};
pub use leakage::{
    crop_index, welch_abs_t_x100, ClassTiming, LeakOperation, LeakVariant, LeakageBenchmark, LeakagePhases, Moments,
    LEAK_AES_MAX_BYTES, LEAK_CROPS, LEAK_TESTS, LEAK_THRESHOLD_X100, LEAK_T_UNBOUNDED, LEAK_WARMUP,
    MAX_LEAK_MEASUREMENTS, MAX_LEAK_SAMPLE, MIN_LEAK_MEASUREMENTS,
};
pub use library::{SoftwareLibrary, SOFTWARE_FIELD};
pub use micro::{MicroBenchmark, MicroPhases};
pub use offload::{
    Addressing, OffloadBenchmark, OffloadDesign, OffloadOperation, OffloadPhases, MAX_OFFLOAD_BYTES,
    OFFLOAD_ADDRESS_FIELDS, OFFLOAD_PAGE_BYTES, OFFLOAD_PHASES, OFFLOAD_SIZE_STEP,
};
pub use pubkey::{
    p256_scalar_in_range, Operand, OutsideProgram, P256Vector, PubkeyBenchmark, PubkeyOperation, PubkeyPhases, Verdict,
    P256_ORDER, RSA_DECRYPT_BITS, RSA_ENCRYPT_BITS,
};
pub use rng::{GeneratePhases, RngPhases, RngSeededBenchmark, RngTrueRandomBenchmark};
pub use software::{LengthUnit, Primitive, SoftwareBenchmark, SoftwarePhases, SoftwareVariant};

use crate::kind::{DatasetFamily, Description, Field, Kind, PhaseCategory, PhaseSpec, Presentation, Shape};
use crate::wire::{Tokens, WireError};
use crate::{DatasetId, NamedPhase, MAX_REPETITIONS};

macro_rules! register {
    (
        kinds { $( $(#[$kind_doc:meta])* $kind:ident($kind_type:ty), )* }
        shapes { $( $(#[$shape_doc:meta])* $shape:ident($shape_type:ty), )* }
    ) => {
        /// One benchmark the suite can run. The variant decides the shape of the result.
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
        pub enum Benchmark {
            $( $(#[$kind_doc])* $kind($kind_type), )*
        }

        /// Which kind of benchmark a request or result belongs to.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
        pub enum BenchmarkKind {
            $( $(#[$kind_doc])* $kind, )*
        }

        impl BenchmarkKind {
            /// Every kind, in registry order.
            pub const ALL: &'static [BenchmarkKind] = &[$(Self::$kind),*];

            /// Stable name, as in `.bench` files and results (`aes`, `rng_seeded`).
            pub fn name(self) -> &'static str {
                match self { $( Self::$kind => <$kind_type as Kind>::NAME, )* }
            }

            /// Wire tag (`aes`, `rng`).
            pub fn tag(self) -> &'static str {
                match self { $( Self::$kind => <$kind_type as Kind>::TAG, )* }
            }

            /// Every phase results of this kind can carry.
            pub fn phases(self) -> &'static [PhaseSpec] {
                match self { $( Self::$kind => <$kind_type as Kind>::PHASES, )* }
            }

            /// How results of this kind are shown.
            pub fn presentation(self) -> &'static Presentation {
                match self { $( Self::$kind => &<$kind_type as Kind>::PRESENTATION, )* }
            }

            /// The options a request of this kind takes in a `.bench` line, by their JSON
            /// names: the fields its request type's JSON form reads, so no list can miss one.
            #[cfg(feature = "serde")]
            pub fn options(self) -> &'static [&'static str] {
                match self { $( Self::$kind => crate::json_names::<$kind_type>(), )* }
            }
        }

        impl Benchmark {
            /// The kind of this benchmark.
            pub fn kind(&self) -> BenchmarkKind {
                match self { $( Self::$kind(_) => BenchmarkKind::$kind, )* }
            }

            /// How often the suite runs the benchmark; results then carry per-phase statistics.
            pub fn repetitions(&self) -> u16 {
                match self { $( Self::$kind(b) => Kind::repetitions(b), )* }.unwrap_or(1)
            }

            /// The stored dataset this benchmark reads, if any.
            pub fn dataset(&self) -> Option<(DatasetFamily, &DatasetId)> {
                match self { $( Self::$kind(b) => Kind::dataset(b), )* }
            }

            /// How the request reads in results files.
            pub fn describe(&self) -> Description {
                match self { $( Self::$kind(b) => Kind::describe(b), )* }
            }

            /// The software library the request asks for instead of the platform's module.
            pub fn software(&self) -> Option<crate::SoftwareLibrary> {
                match self { $( Self::$kind(b) => Kind::software(b), )* }
            }

            /// The platform module (a block of the chip) the request drives, if any.
            pub fn accelerator(&self) -> Option<crate::Module> {
                match self { $( Self::$kind(b) => Kind::accelerator(b), )* }
            }

            /// Whether a result of this shape can answer this request.
            pub fn accepts(&self, phases: &Phases) -> bool {
                match self { $( Self::$kind(b) => Kind::accepts(b, phases), )* }
            }

            /// Range checks, explained for a person: the repetitions, then the kind's own.
            pub fn check(&self) -> Result<(), String> {
                let repetitions = self.repetitions();
                if repetitions == 0 || repetitions > MAX_REPETITIONS {
                    return Err(format!("repetitions must be 1 to {MAX_REPETITIONS}, got {repetitions}"));
                }
                match self { $( Self::$kind(b) => Kind::check(b), )* }
            }

            /// Works out on the host the known answers of inputs the request describes.
            #[cfg(feature = "std")]
            pub fn complete(&mut self) -> Result<(), String> {
                match self { $( Self::$kind(b) => Kind::complete(b), )* }
            }

            pub(crate) fn encode_wire(&self, out: &mut String) {
                out.push_str(self.kind().tag());
                match self { $( Self::$kind(b) => Kind::encode(b, out), )* }
            }

            pub(crate) fn decode_wire(tag: &str, tokens: &mut Tokens<'_>) -> Result<Self, WireError> {
                $(
                    if tag == <$kind_type as Kind>::TAG {
                        return <$kind_type as Kind>::decode(tokens).map(Self::$kind);
                    }
                )*
                Err(WireError::Malformed("unknown benchmark kind"))
            }
        }

        /// Phase breakdown of a measured benchmark; the variant is the result's shape.
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(rename_all = "snake_case", deny_unknown_fields))]
        pub enum Phases {
            $( $(#[$shape_doc])* $shape($shape_type), )*
        }

        impl Phases {
            /// Wire tag of every result shape, in registry order.
            pub const TAGS: &'static [&'static str] = &[$( <$shape_type as Shape>::TAG ),*];

            /// Wire tag of this result's shape (`hash`, `aesb`).
            pub fn tag(&self) -> &'static str {
                match self { $( Self::$shape(_) => <$shape_type as Shape>::TAG, )* }
            }

            /// Every phase in execution order. A phase may sum several measurement windows
            /// (per-block AES sums one window per block); the host subtracts the overhead
            /// once per window.
            pub fn named(&self) -> Vec<NamedPhase> {
                match self { $( Self::$shape(p) => Shape::named(p), )* }
            }

            /// Facts beside the phases, for results files.
            pub fn fields(&self) -> Vec<(&'static str, Field)> {
                match self { $( Self::$shape(p) => Shape::fields(p), )* }
            }

            pub(crate) fn encode_wire(&self, out: &mut String) {
                match self {
                    $( Self::$shape(p) => {
                        out.push_str(<$shape_type as Shape>::TAG);
                        Shape::encode(p, out);
                    } )*
                }
            }

            pub(crate) fn decode_wire(tag: &str, tokens: &mut Tokens<'_>) -> Result<Self, WireError> {
                $(
                    if tag == <$shape_type as Shape>::TAG {
                        return <$shape_type as Shape>::decode(tokens).map(Self::$shape);
                    }
                )*
                Err(WireError::Malformed("result shape"))
            }
        }
    };
}

register! {
    kinds {
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
        /// A constant-time test (dudect): an operation timed on a fixed and on random secret
        /// inputs, compared by Welch's t-test on the device.
        Leakage(LeakageBenchmark),
        /// The co-processor paper's offload: a job handed to the chip through a mailbox, its
        /// payload fetched by page addresses, the result handed back through a scratch-pad memory;
        /// and the same job in software on the same core.
        Offload(OffloadBenchmark),
        /// A public-key operation (ECDSA P-256, RSA) on a big-number accelerator, from program
        /// load to clean-up.
        Pubkey(PubkeyBenchmark),
        /// An implementation from outside the tree, behind one of the fixed interfaces: one
        /// timed call (and its key schedule apart).
        #[cfg_attr(feature = "serde", serde(rename = "impl"))]
        Implementation(ImplBenchmark),
    }
    shapes {
        /// Hashing (thesis Tables 6.1, 6.2).
        Hash(HashPhases),
        /// AES, one window around all blocks (thesis Fig. 6.3).
        AesTotal(AesTotalPhases),
        /// AES, each block split into write / compute / read (thesis Table 6.3, Fig. 6.4).
        AesPerBlock(AesPerBlockPhases),
        /// Random number generation (thesis Fig. 6.2): seeding, then each generate request.
        Rng(RngPhases),
        /// Micro-benchmarks: fixed instruction blocks between two counter reads.
        Micro(MicroPhases),
        /// A software primitive: one window around one call.
        Software(SoftwarePhases),
        /// A leakage test: per-class timing statistics and |t| of every test.
        Leakage(LeakagePhases),
        /// An offload: host and chip phases, the software run, and where the regions were.
        Offload(OffloadPhases),
        /// A public-key operation: load, input, compute, output, clean-up.
        Pubkey(PubkeyPhases),
        /// An implementation from outside the tree: its call and its key schedule.
        Implementation(ImplPhases),
    }
}

impl BenchmarkKind {
    /// The kind called `name` in `.bench` files and results.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// The kind with wire tag `tag`.
    pub fn from_tag(tag: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.tag() == tag)
    }

    /// What the phase `name` of a result of this kind does.
    pub fn category(self, name: &str) -> PhaseCategory {
        self.phases()
            .iter()
            .find(|p| p.matches(name))
            .map_or(PhaseCategory::Other, |p| p.category)
    }
}

#[cfg(test)]
mod tests;
