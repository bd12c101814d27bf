//! Benchmarks: drive a module over a dataset, time every phase, check the output against the
//! known answer, and summarise repetitions on the device.

mod aes;
mod hash;
#[cfg(feature = "implementations")]
mod implementation;
mod leakage;
mod micro;
#[cfg(feature = "offload")]
mod offload;
#[cfg(feature = "public-key")]
mod pubkey;
mod rng;
mod software;
mod window;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_modules::ModuleError;
use cyclebench_protocol::{
    Benchmark, BenchmarkResults, Check, Cycles, ErrorKind, ImplementationKind, Measured, Phases,
};

use crate::platform::{Platform, Provided};
use crate::software::SoftwareModules;
use crate::Implementation;

/// Why a benchmark request produced no result.
#[derive(Debug)]
pub struct BenchError {
    /// Error class for the reply.
    pub kind: ErrorKind,
    /// What happened, naming module and dataset.
    pub detail: String,
}

impl BenchError {
    pub(crate) fn new(kind: ErrorKind, detail: String) -> Self {
        Self { kind, detail }
    }

    /// A module operation failed while running `module`.
    fn module(module: &str, error: ModuleError) -> Self {
        match error {
            ModuleError::Timeout(what) => {
                Self::new(ErrorKind::Timeout, format!("{module}: timed out waiting for {what}"))
            }
            ModuleError::Usage(what) => Self::new(ErrorKind::InvalidParameter, format!("{module}: {what}")),
        }
    }

    fn unknown_dataset(module: &str, id: &str, known: impl Iterator<Item = &'static str>) -> Self {
        let known: Vec<&str> = known.collect();
        Self::new(
            ErrorKind::UnknownDataset,
            format!("{module} has no dataset '{id}' (known: {})", known.join(", ")),
        )
    }

    fn wrong_answer(module: &str, dataset: &str, what: &str) -> Self {
        Self::new(ErrorKind::WrongAnswer, format!("{module} dataset '{dataset}': {what}"))
    }
}

/// Raw phase windows of every repetition, one row per repetition.
pub struct Samples {
    width: usize,
    data: Vec<u64>,
}

impl Samples {
    /// Room for `repetitions` rows of `width` phases; fails cleanly when the heap cannot
    /// hold them.
    pub fn new(width: usize, repetitions: u16) -> Result<Self, BenchError> {
        let mut data = Vec::new();
        let needed = width * usize::from(repetitions);
        data.try_reserve_exact(needed).map_err(|_| {
            BenchError::new(
                ErrorKind::InvalidParameter,
                format!("not enough memory for {repetitions} repetitions of {width} phases"),
            )
        })?;
        Ok(Self { width, data })
    }

    /// Adds one repetition's windows (exactly `width` of them are kept).
    pub fn push(&mut self, row: &[u64]) {
        self.data
            .extend(row.iter().copied().chain(core::iter::repeat(0)).take(self.width));
    }

    /// Per-phase statistics over all rows.
    pub fn summary(&self) -> Vec<Cycles> {
        let rows = self.data.len() / self.width.max(1);
        let mut column = Vec::with_capacity(rows);
        (0..self.width)
            .map(|phase| {
                column.clear();
                column.extend(self.data.iter().skip(phase).step_by(self.width).copied());
                Cycles::summarise(&mut column).unwrap_or(Cycles::once(0))
            })
            .collect()
    }
}

/// Runs `f` on the platform's software modules: software runs from where the firmware's code
/// runs (flash, on Earl Grey) with the cache a firmware would turn on, which the kinds turn on
/// around each run with [`cached`]. Hardware benchmarks keep it off, as the thesis measured
/// them. The cache starts empty, its way choice set, so no earlier request leaves a trace (a
/// probe that never saw that state leaves the cache empty all the same).
fn on_software<P: Platform, T>(platform: &mut P, f: impl FnOnce(&mut SoftwareModules) -> T) -> T {
    let mut scratch = alloc::vec![0u16; cyclebench_drivers::ibex::CACHE_SCRATCH_HALFWORDS];
    let _ = P::reset_instruction_cache(&mut scratch);
    drop(scratch);
    f(platform.software())
}

/// `run` with the instruction cache on, from RAM: between the switch and the window only this
/// function's code and the measured code run, so no code outside the measured block fills a
/// line that the measured code's could be evicted by (`docs/analysis.md`).
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn cached<P: Platform, T>(run: impl FnOnce() -> T) -> T {
    P::set_instruction_cache(true);
    let result = run();
    P::set_instruction_cache(false);
    result
}

/// `module`, labelled software.
fn software<T>(module: &mut T) -> Provided<'_, T> {
    Provided {
        module,
        kind: ImplementationKind::Software,
    }
}

/// What a benchmark handler hands back.
// One outcome exists at a time; boxing the phases would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub enum Outcome {
    /// The benchmark ran and its output was checked.
    Measured {
        /// Hardware or software.
        implementation: ImplementationKind,
        /// How the output was checked.
        check: Check,
        /// Phases.
        phases: Phases,
    },
    /// The platform cannot run it; says why.
    Unsupported(String),
}

/// Runs one benchmark request on `platform`: the one table from request kind to handler.
pub fn run<P: Platform>(
    platform: &mut P,
    benchmark: &Benchmark,
    overhead: u32,
    implementations: &[Implementation],
) -> Result<BenchmarkResults, BenchError> {
    // A chip without the block the request drives (a reduced model) says so instead of
    // touching it.
    if let Some(reason) = benchmark.accelerator().and_then(|module| platform.lacks(module)) {
        return Ok(BenchmarkResults::Unsupported {
            kind: benchmark.kind(),
            reason,
        });
    }
    let repetitions = benchmark.repetitions();
    let outcome = match benchmark {
        Benchmark::Hash(b) => hash::run(platform, b, repetitions)?,
        Benchmark::Aes(b) => aes::run(platform, b, repetitions)?,
        Benchmark::RngSeeded(b) => rng::run_seeded(platform, b, repetitions)?,
        Benchmark::RngTrueRandom(b) => rng::run_true_random(platform, b, repetitions)?,
        Benchmark::Micro(_) => micro::run(repetitions)?,
        Benchmark::Software(b) => software::run(b, repetitions)?,
        Benchmark::Leakage(b) => leakage::run(platform, b, overhead, implementations)?,
        #[cfg(feature = "implementations")]
        Benchmark::Implementation(b) => implementation::run(b, repetitions, implementations)?,
        #[cfg(not(feature = "implementations"))]
        Benchmark::Implementation(b) => return Err(no_implementations(&b.name, implementations)),
        #[cfg(feature = "offload")]
        Benchmark::Offload(b) => offload::run(platform, b, repetitions, overhead)?,
        #[cfg(feature = "public-key")]
        Benchmark::Pubkey(b) => pubkey::run(platform, b, repetitions)?,
        #[cfg(not(all(feature = "offload", feature = "public-key")))]
        other => {
            return Err(BenchError::new(
                ErrorKind::InvalidParameter,
                format!(
                    "this image leaves out the {} kind, which its run did not ask for",
                    other.kind().name()
                ),
            ))
        }
    };
    Ok(match outcome {
        Outcome::Measured {
            implementation,
            check,
            phases,
        } => BenchmarkResults::Measured(Measured {
            implementation,
            check,
            overhead,
            repetitions,
            phases,
        }),
        Outcome::Unsupported(reason) => BenchmarkResults::Unsupported {
            kind: benchmark.kind(),
            reason,
        },
    })
}

/// The error of a request naming an implementation from outside the tree in an image built
/// without them.
#[cfg(not(feature = "implementations"))]
pub(crate) fn no_implementations(name: &str, implementations: &[Implementation]) -> BenchError {
    let _ = implementations;
    BenchError::new(
        ErrorKind::InvalidParameter,
        format!("no implementation '{name}' in this image: give its folder with --impl"),
    )
}

/// Formats words as hex for mismatch reports.
fn hex_words(words: &[u32]) -> String {
    words.iter().map(|w| format!("{w:08x}")).collect()
}
