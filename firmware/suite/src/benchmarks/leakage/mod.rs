//! Leakage test (dudect: Reparaz, Balasch, Verbauwhede 2017): does an operation's cycle count
//! depend on a secret input?
//!
//! Every measurement draws its class from the request's seed: class 0 gets the fixed input
//! (the input with a published or precomputed answer), class 1 a fresh random one (the
//! controls, like the accelerators, one from a pool the build generated). The inputs are
//! written into the same buffers for both classes before the first counter read, so the timed
//! window holds the same instructions for both, and only the data differs. After the second
//! read the corrected cycles go into the statistics and the output is checked (class 0 against
//! its known answer; class 1 against the portable Rust reference, against the known keystream
//! where the secret is the data a stream cipher XORs, or against the pool's answers): a wrong
//! answer ends the test with an error.
//!
//! Statistics are exact: per class a histogram of the cycle counts (a core with exact timing
//! gives few distinct values, so one increment per sample is all the bookkeeping), from which
//! the integer sums (count, sum, sum of squares) of every band between the crop thresholds
//! follow at the end; a sample outside the histogram's range goes straight into those sums.
//! Every cropped test is a sum of bands. The thresholds are the percentiles of the first
//! [`LEAK_WARMUP`] measurements, pooled; those measurements are kept until then and counted
//! like the rest. |t| of each test is computed once at the end, by the protocol crate's
//! function that the host uses to check the reply.
//!
//! The controls are in this file, the chip's accelerators in `accelerators.rs`; a software
//! primitive comes with its harness from `cyclebench_swcrypto::with_harness`.

mod accelerators;
mod statistics;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_datasets::leakage::{self as leak, COMPARE_BYTES, LEAK_POOL};
use cyclebench_datasets::software as data;
use cyclebench_protocol::{
    Check, ErrorKind, ImplementationKind, Kind, LeakOperation, LeakVariant, LeakageBenchmark, LeakagePhases, Phases,
    SoftwareVariant, LEAK_WARMUP, MAX_LEAK_SAMPLE,
};
use cyclebench_swcrypto::harness::{Input, Rng, Setup, Subject, Visit};
use cyclebench_swcrypto::{compare, with_harness, Variant};

use statistics::Statistics;

#[cfg(feature = "implementations")]
use super::implementation::{self, Call, Outside};
use super::window::timed;
use super::{BenchError, Outcome};
use crate::platform::Platform;
use crate::Implementation;

/// Runs the leakage test `b`, or says why this platform cannot.
pub fn run<P: Platform>(
    platform: &mut P,
    b: &LeakageBenchmark,
    overhead: u32,
    implementations: &[Implementation],
) -> Result<Outcome, BenchError> {
    // A Zbb variant on a core without Zbb is answered before the request is checked further;
    // the accelerators take no software variant.
    let v = match b.variant {
        LeakVariant::Software(SoftwareVariant::Rust) | LeakVariant::Hardware | LeakVariant::Implementation => {
            Variant::Rust
        }
        LeakVariant::Software(SoftwareVariant::Rv32i) => Variant::Rv32i,
        LeakVariant::Software(SoftwareVariant::Zbb) if cfg!(target_feature = "zbb") => Variant::Zbb,
        LeakVariant::Software(SoftwareVariant::Zbb) => {
            return Ok(unsupported(
                b,
                "the zbb variant needs a core with Zbb (target ibex-sim-zbb or qemu-virt-zbb)",
            ));
        }
    };
    b.check()
        .map_err(|e| BenchError::new(ErrorKind::InvalidParameter, format!("leakage: {e}")))?;
    if b.variant == LeakVariant::Hardware {
        return accelerators::run(platform, b, overhead);
    }
    if let Some(name) = &b.implementation {
        #[cfg(feature = "implementations")]
        return outside::<P>(b, name, overhead, implementations);
        #[cfg(not(feature = "implementations"))]
        return Err(super::no_implementations(name, implementations));
    }
    let result = match b.operation {
        LeakOperation::CompareLeaky => compare::leaky(v).map(|f| test::<P, _>(b, overhead, Compare::new(f))),
        LeakOperation::CompareConstantTime => {
            compare::constant_time(v).map(|f| test::<P, _>(b, overhead, Compare::new(f)))
        }
        LeakOperation::Primitive(primitive) => {
            let setup = Setup {
                primitive,
                variant: v,
                length: b.length.unwrap_or(0) as usize,
                secret: b.secret,
            };
            with_harness(
                &setup,
                Test::<P> {
                    b,
                    overhead,
                    platform: core::marker::PhantomData,
                },
            )
        }
        // `check` sends these to the accelerators, and an implementation from outside the tree
        // (named by `impl`) to `outside`.
        LeakOperation::Aes | LeakOperation::Hmac | LeakOperation::Kmac | LeakOperation::Implementation => None,
    };
    let Some(result) = result else {
        return Ok(unsupported(b, "no such variant of this operation"));
    };
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Leakage(result?),
    })
}

/// The test of an implementation from outside the tree: its folder's vectors first, then the
/// test on its fixed input against random secrets.
#[cfg(feature = "implementations")]
fn outside<P: Platform>(
    b: &LeakageBenchmark,
    name: &str,
    overhead: u32,
    implementations: &[Implementation],
) -> Result<Outcome, BenchError> {
    let implementation = implementation::find(implementations, name)?;
    let invalid = |why: String| BenchError::new(ErrorKind::InvalidParameter, format!("{name}: {why}"));
    let secrets = implementation::secrets(&implementation.interface);
    if !secrets.contains(&b.secret) {
        let names: Vec<&str> = secrets.iter().map(|s| s.name()).collect();
        return Err(invalid(format!(
            "interface {} has no secret {}: \"secret\" must be {}",
            implementation.interface.name(),
            b.secret.name(),
            names.join(" or ")
        )));
    }
    let mut subject = Outside::new(implementation, b.length, Call::Run, b.secret).map_err(invalid)?;
    subject.check_vectors().map_err(|e| implementation::failed(name, e))?;
    let check = implementation::check(subject.known());
    let phases = test::<P, _>(b, overhead, subject)?;
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check,
        phases: Phases::Leakage(phases),
    })
}

fn unsupported(b: &LeakageBenchmark, why: &str) -> Outcome {
    Outcome::Unsupported(format!("{} {}: {why}", b.operation.name(), b.variant.name()))
}

/// The test of a software primitive, whatever its harness.
struct Test<'a, P> {
    b: &'a LeakageBenchmark,
    overhead: u32,
    platform: core::marker::PhantomData<P>,
}

impl<P: Platform> Visit for Test<'_, P> {
    type Output = Result<LeakagePhases, BenchError>;

    fn visit<S: Subject>(self, subject: S) -> Self::Output {
        test::<P, S>(self.b, self.overhead, subject)
    }
}

/// Runs the measurements of `b` on `subject` and works out the statistics.
fn test<P: Platform, S: Subject>(b: &LeakageBenchmark, overhead: u32, subject: S) -> Result<LeakagePhases, BenchError> {
    let fail = |failure: Failure| failed(b, failure);
    // The bookkeeping runs with the instruction cache on (where there is one: on Earl Grey
    // the suite's code is in flash, several times slower uncached), every window with it off,
    // as every other benchmark is measured; the loop switches it around each window.
    let _cache = CacheOn::<P>::new();
    subject
        .known_answer()
        .map_err(|what| BenchError::new(ErrorKind::WrongAnswer, format!("{}: {what}", b.operation.name())))?;
    let warmup = b.measurements.min(LEAK_WARMUP);
    // Raw windows: the overhead is subtracted where the samples are counted.
    let mut early: Vec<(u8, u32)> = Vec::new();
    early.try_reserve_exact(warmup as usize).map_err(|_| {
        BenchError::new(
            ErrorKind::InvalidParameter,
            format!("not enough memory for {warmup} warm-up samples"),
        )
    })?;
    let mut run = Run {
        subject,
        rng: Rng::new(b.seed),
        classes: 0,
    };
    run.measure::<P>(0..warmup, |class, window| early.push((class as u8, window)))
        .map_err(fail)?;
    let mut stats = Statistics::from_warmup(&early, overhead).map_err(fail)?;
    run.measure::<P>(warmup..b.measurements, stats.counter())
        .map_err(fail)?;
    stats.finish(run.subject.entry() as u32).map_err(fail)
}

/// The instruction cache on while it lives, off again when it goes, however the test ends.
struct CacheOn<P: Platform>(core::marker::PhantomData<P>);

impl<P: Platform> CacheOn<P> {
    fn new() -> Self {
        P::set_instruction_cache(true);
        Self(core::marker::PhantomData)
    }
}

impl<P: Platform> Drop for CacheOn<P> {
    fn drop(&mut self) {
        P::set_instruction_cache(false);
    }
}

/// The error of a test that stopped. One function for every subject: formatting is the same
/// whatever was timed, and a copy per subject cost flash the chip model does not have.
#[inline(never)]
fn failed(b: &LeakageBenchmark, failure: Failure) -> BenchError {
    match failure {
        Failure::Wrong {
            index,
            class,
            what,
            timeout,
        } => BenchError::new(
            if timeout {
                ErrorKind::Timeout
            } else {
                ErrorKind::WrongAnswer
            },
            match &b.implementation {
                Some(name) => format!("impl {name}: measurement {index} (class {class}): {what}"),
                None => format!(
                    "{} {}: measurement {index} (class {class}): {what}",
                    b.operation.name(),
                    b.variant.name()
                ),
            },
        ),
        Failure::TooLong(cycles) => BenchError::new(
            ErrorKind::InvalidParameter,
            format!("a call took {cycles} cycles, more than the statistics hold ({MAX_LEAK_SAMPLE})"),
        ),
        Failure::NoMemory => BenchError::new(
            ErrorKind::InvalidParameter,
            String::from("not enough memory for the timing histograms"),
        ),
    }
}

/// Why the measurements stopped.
enum Failure {
    /// A call answered wrongly.
    Wrong {
        index: u32,
        class: usize,
        what: String,
        /// A hardware wait ran out (no answer at all).
        timeout: bool,
    },
    /// A call took more cycles than the statistics hold.
    TooLong(u32),
    /// The heap cannot hold the histograms.
    NoMemory,
}

/// The state that carries over from one measurement to the next.
struct Run<S> {
    subject: S,
    rng: Rng,
    /// Class bits not used yet.
    classes: u32,
}

impl<S: Subject> Run<S> {
    /// Measurements `indices`, each raw window handed to `sink` with its class (the
    /// statistics subtract the overhead, and note a window too long for them off the common
    /// path, to be reported when the measurements end). One loop per sink, so that the loop
    /// between two windows is as short as the work allows.
    #[inline(always)]
    fn measure<P: Platform>(
        &mut self,
        indices: core::ops::Range<u32>,
        mut sink: impl FnMut(usize, u32),
    ) -> Result<(), Failure> {
        // Locals, not fields: the counter reads may touch memory as far as the compiler
        // knows, so only what is in registers survives them without a reload.
        let (mut rng, mut classes) = (self.rng, self.classes);
        let mut result = Ok(());
        for index in indices {
            // One generator word gives the classes of 32 measurements.
            if index % 32 == 0 {
                classes = rng.next_u32_in_memory();
            }
            let class = (classes & 1) as usize;
            classes >>= 1;
            let input = if class == 0 { Input::Fixed } else { Input::Random };
            self.subject.prepare(input, &mut rng);
            P::set_instruction_cache(false);
            let (answer, window) = timed(&mut self.subject);
            P::set_instruction_cache(true);
            // Counted before the check, so that neither window nor class has to survive the
            // check's error path: a wrong answer ends the test with an error, and the
            // statistics with it.
            sink(class, window);
            if let Err(what) = self.subject.check(input, answer) {
                let timeout = self.subject.timed_out();
                result = Err(Failure::Wrong {
                    index,
                    class,
                    what,
                    timeout,
                });
                break;
            }
        }
        self.rng = rng;
        self.classes = classes;
        result
    }
}

/// The controls: a 16-byte buffer compared with a fixed reference; class 0 equal to it, class 1
/// drawn from the build's pool, none of whose buffers is equal to it, so the right answer is
/// "equal" for class 0 and "different" for class 1.
struct Compare {
    f: compare::EqualFn,
    buffer: [u32; 4],
    reference: [u32; 4],
    /// Class 1's buffers as words, in RAM: four fresh words a call, and the answer worked out
    /// from them, cost more cycles than the comparison itself.
    pool: [[u32; 4]; LEAK_POOL],
}

impl Compare {
    fn new(f: compare::EqualFn) -> Self {
        let mut reference = [0u8; COMPARE_BYTES];
        data::fill_input(&mut reference);
        Self {
            f,
            buffer: [0; 4],
            reference: bytemuck::cast(reference),
            pool: leak::COMPARE_POOL.map(bytemuck::cast),
        }
    }
}

impl Subject for Compare {
    fn known_answer(&self) -> Result<(), String> {
        match self.pool.iter().position(|b| *b == self.reference) {
            None => Ok(()),
            Some(i) => Err(format!("pool buffer {i} equals class 0's")),
        }
    }

    #[inline(always)]
    fn prepare(&mut self, input: Input, rng: &mut Rng) {
        self.buffer = match input {
            Input::Fixed => self.reference,
            Input::Random => self.pool[rng.pick_index(LEAK_POOL)],
        };
    }

    #[inline(always)]
    fn call(&mut self) -> u32 {
        u32::from((self.f)(
            bytemuck::cast_ref(&self.buffer),
            bytemuck::cast_ref(&self.reference),
        ))
    }

    #[inline(always)]
    fn check(&mut self, input: Input, answer: u32) -> Result<(), String> {
        if answer == u32::from(input == Input::Fixed) {
            Ok(())
        } else {
            Err(wrong_comparison(answer))
        }
    }

    fn entry(&self) -> usize {
        self.f as usize
    }
}

/// The error of a comparison that answered `answer` wrongly; out of line, so that what it
/// needs takes no register in the measurement loop.
#[cold]
#[inline(never)]
fn wrong_comparison(answer: u32) -> String {
    format!("answered {}, expected {}", answer != 0, answer == 0)
}
