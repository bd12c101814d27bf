//! Benchmarks: drive a module over a dataset, time every phase, check the output against the
//! known answer, and summarise repetitions on the device.

mod aes;
mod hash;
mod micro;
mod rng;
mod software;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_modules::ModuleError;
use cyclebench_protocol::{
    Benchmark, BenchmarkKind, BenchmarkResults, Check, Cycles, ErrorKind, ImplementationKind, Measured, Phases,
};

use crate::platform::Platform;

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

/// Everything a benchmark hands back besides its phases.
pub struct Outcome {
    /// Hardware or software.
    pub implementation: ImplementationKind,
    /// How the output was checked.
    pub check: Check,
    /// Phases.
    pub phases: Phases,
}

fn unsupported(kind: BenchmarkKind, reason: String) -> BenchmarkResults {
    BenchmarkResults::Unsupported { kind, reason }
}

/// Runs one benchmark request on `platform`.
pub fn run<P: Platform>(
    platform: &mut P,
    benchmark: &Benchmark,
    overhead: u32,
) -> Result<BenchmarkResults, BenchError> {
    let repetitions = benchmark.repetitions();
    let outcome = match benchmark {
        Benchmark::Hash(b) => {
            let missing = |name| unsupported(BenchmarkKind::Hash, format!("{} has no {name} module", P::NAME));
            match b.algorithm {
                cyclebench_protocol::HashAlgorithm::Sha2 => match platform.sha2() {
                    Some(module) => hash::run("sha2", module, b, repetitions)?,
                    None => return Ok(missing("sha2")),
                },
                cyclebench_protocol::HashAlgorithm::Sha3 => match platform.sha3() {
                    Some(module) => hash::run("sha3", module, b, repetitions)?,
                    None => return Ok(missing("sha3")),
                },
            }
        }
        Benchmark::Aes(b) => {
            let Some(module) = platform.aes() else {
                return Ok(unsupported(
                    BenchmarkKind::Aes,
                    format!("{} has no aes module", P::NAME),
                ));
            };
            aes::run(module, b, repetitions)?
        }
        Benchmark::RngSeeded(b) => {
            let Some(module) = platform.rng() else {
                return Ok(unsupported(
                    BenchmarkKind::RngSeeded,
                    format!("{} has no rng module", P::NAME),
                ));
            };
            rng::run_seeded(module, b, repetitions)?
        }
        Benchmark::RngTrueRandom(b) => {
            if !platform.has_entropy() {
                return Ok(unsupported(
                    BenchmarkKind::RngTrueRandom,
                    format!("{} has no entropy source", P::NAME),
                ));
            }
            let Some(module) = platform.rng() else {
                return Ok(unsupported(
                    BenchmarkKind::RngTrueRandom,
                    format!("{} has no rng module", P::NAME),
                ));
            };
            rng::run_true_random(module, b, repetitions)?
        }
        Benchmark::Micro(_) => micro::run(repetitions)?,
        Benchmark::Software(b) => match software::run(b, repetitions)? {
            Ok(outcome) => outcome,
            Err(unsupported) => return Ok(unsupported),
        },
    };
    Ok(BenchmarkResults::Measured(Measured {
        implementation: outcome.implementation,
        check: outcome.check,
        overhead,
        repetitions,
        phases: outcome.phases,
    }))
}

/// Formats words as hex for mismatch reports.
fn hex_words(words: &[u32]) -> String {
    words.iter().map(|w| format!("{w:08x}")).collect()
}
