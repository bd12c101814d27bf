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
//! The software primitives and the controls are in this file; the chip's accelerators in
//! `accelerators.rs`.

mod accelerators;
mod statistics;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_protocol::{
    Check, ErrorKind, ImplementationKind, Kind, LeakOperation, LeakVariant, LeakageBenchmark, LeakagePhases, Phases,
    SoftwareVariant, LEAK_WARMUP, MAX_LEAK_SAMPLE,
};
use cyclebench_swcrypto::compare::{self, harness::Compare};
use cyclebench_swcrypto::harness::{Harness, Rng, Setup, Subject, Visitor};
use cyclebench_swcrypto::Variant;

use statistics::Statistics;

use super::{BenchError, Outcome};
use crate::cycles::stamp;
use crate::platform::Platform;

/// Runs the leakage test `b`, or says why this platform cannot.
pub fn run<P: Platform>(platform: &mut P, b: &LeakageBenchmark, overhead: u32) -> Result<Outcome, BenchError> {
    // A Zbb variant on a core without Zbb is answered before the request is checked further;
    // the accelerators take no software variant.
    let v = match b.variant {
        LeakVariant::Software(SoftwareVariant::Rust) | LeakVariant::Hardware => Variant::Rust,
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
    let result = match b.operation {
        LeakOperation::CompareLeaky => compare::leaky(v).map(|f| test::<P, _>(b, overhead, Compare::new(f))),
        LeakOperation::CompareConstantTime => {
            compare::constant_time(v).map(|f| test::<P, _>(b, overhead, Compare::new(f)))
        }
        LeakOperation::Primitive(p) => cyclebench_swcrypto::visit(
            p,
            Test::<P> {
                b,
                overhead,
                setup: Setup {
                    variant: v,
                    length: b.length.unwrap_or(0) as usize,
                    secret: b.secret,
                },
                platform: core::marker::PhantomData,
            },
        ),
        // `check` sends these to the accelerators.
        LeakOperation::Aes | LeakOperation::Hmac | LeakOperation::Kmac => None,
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

fn unsupported(b: &LeakageBenchmark, why: &str) -> Outcome {
    Outcome::Unsupported(format!("{} {}: {why}", b.operation.name(), b.variant.name()))
}

/// Tests the primitive of a request through its harness.
struct Test<'a, P> {
    b: &'a LeakageBenchmark,
    overhead: u32,
    setup: Setup,
    platform: core::marker::PhantomData<P>,
}

impl<P: Platform> Visitor for Test<'_, P> {
    type Output = Option<Result<LeakagePhases, BenchError>>;

    fn visit<H: Harness>(self) -> Self::Output {
        H::new(&self.setup).map(|subject| test::<P, H>(self.b, self.overhead, subject))
    }
}

/// Runs the measurements of `b` on `subject` and works out the statistics.
fn test<P: Platform, S: Subject>(b: &LeakageBenchmark, overhead: u32, subject: S) -> Result<LeakagePhases, BenchError> {
    let fail = |failure: Failure| match failure {
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
            format!(
                "{} {}: measurement {index} (class {class}): {what}",
                b.operation.name(),
                b.variant.name()
            ),
        ),
        Failure::TooLong(cycles) => BenchError::new(
            ErrorKind::InvalidParameter,
            format!("a call took {cycles} cycles, more than the statistics hold ({MAX_LEAK_SAMPLE})"),
        ),
        Failure::NoMemory => BenchError::new(
            ErrorKind::InvalidParameter,
            String::from("not enough memory for the timing histograms"),
        ),
    };
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
                classes = rng.class_bits();
            }
            let class = (classes & 1) as usize;
            classes >>= 1;
            self.subject.prepare(class, &mut rng);
            P::set_instruction_cache(false);
            let (answer, window) = timed(&mut self.subject);
            P::set_instruction_cache(true);
            // Counted before the check, so that neither window nor class has to survive the
            // check's error path: a wrong answer ends the test with an error, and the
            // statistics with it.
            sink(class, window);
            if let Err(what) = self.subject.check(class, answer) {
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

/// One timed call, in a function of its own, so that the window is always entered by the same
/// jump whatever path the class took through the preparation: Ibex's prefetch buffer carries
/// the state of that path into the instructions after it, and a window inlined into the loop
/// varies by a cycle or more with the class, a difference the test would report as a leak.
/// The answer comes first: the call leaves it in the register it is returned in, so returning
/// it costs no moves.
#[inline(never)]
#[link_section = crate::placement::measured_section!()]
fn timed<S: Subject>(subject: &mut S) -> (u32, u32) {
    let start = stamp();
    let answer = subject.call();
    let end = stamp();
    // A window longer than 32 bits counts is far beyond what the statistics hold: saturated,
    // it is rejected as too long.
    (answer, u32::try_from(end.since(start)).unwrap_or(u32::MAX))
}
