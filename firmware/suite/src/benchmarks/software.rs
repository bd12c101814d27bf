//! Software primitives (the RV32I study, Stoffelen 2019): one window around one call of the chosen
//! variant on its fixed input, the stack the call used, and the function's address for the host's
//! code-size lookup. The primitive's harness (`cyclebench_swcrypto::with_harness`) gives the input,
//! the call and the check: every output is compared with the expected output the datasets crate
//! computed with reference crates; a mismatch is an error, never a result.

use alloc::format;
use alloc::string::String;

use cyclebench_protocol::{
    Check, ErrorKind, ImplementationKind, Phases, Secret, SoftwareBenchmark, SoftwarePhases, SoftwareVariant,
};
use cyclebench_swcrypto::harness::{Input, Rng, Setup, Subject, Visit};
use cyclebench_swcrypto::{with_harness, Variant};

use super::window::timed_with_stack;
use super::{BenchError, Outcome, Samples};

/// Runs `b`, or says why this platform cannot.
pub fn run(b: &SoftwareBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    if b.variant == SoftwareVariant::Zbb && !cfg!(target_feature = "zbb") {
        return Ok(unsupported(
            b,
            "the zbb variant needs a core with Zbb (target ibex-sim-zbb or qemu-virt-zbb)",
        ));
    }
    if !b.primitive.accepts(b.length) {
        return Err(BenchError::new(
            ErrorKind::InvalidParameter,
            format!("{}: length {:?} out of range", b.primitive.name(), b.length),
        ));
    }
    let setup = Setup {
        primitive: b.primitive,
        variant: match b.variant {
            SoftwareVariant::Rust => Variant::Rust,
            SoftwareVariant::Rv32i => Variant::Rv32i,
            SoftwareVariant::Zbb => Variant::Zbb,
        },
        length: b.length.unwrap_or(0) as usize,
        // Only the fixed input is timed here; the secret picks what a random input varies.
        secret: Secret::Data,
    };
    let Some(measured) = with_harness(&setup, Repeat { b, repetitions }) else {
        return Ok(unsupported(b, "no such variant of this primitive"));
    };
    let measured = measured?;
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Software(SoftwarePhases {
            run: measured.samples.summary()[0],
            stack_bytes: measured.deepest,
            entry: measured.entry as u32,
        }),
    })
}

/// The windows, the deepest stack of every repetition and the function timed.
struct Measured {
    samples: Samples,
    deepest: u32,
    entry: usize,
}

/// `repetitions` timed calls of `b` on the fixed input, each output checked.
struct Repeat<'a> {
    b: &'a SoftwareBenchmark,
    repetitions: u16,
}

impl Visit for Repeat<'_> {
    type Output = Result<Measured, BenchError>;

    fn visit<S: Subject>(self, mut subject: S) -> Result<Measured, BenchError> {
        let wrong = |what: String| {
            BenchError::new(
                ErrorKind::WrongAnswer,
                format!("{} {}: {what}", self.b.primitive.name(), self.b.variant.name()),
            )
        };
        subject.known_answer().map_err(wrong)?;
        let mut measured = Measured {
            samples: Samples::new(1, self.repetitions)?,
            deepest: 0,
            entry: subject.entry(),
        };
        // Unused: the fixed input draws nothing.
        let mut rng = Rng::new(0);
        for _ in 0..self.repetitions {
            subject.prepare(Input::Fixed, &mut rng);
            let (answer, cycles, stack) = timed_with_stack(&mut subject);
            measured.deepest = measured.deepest.max(stack);
            measured.samples.push(&[u64::from(cycles)]);
            subject.check(Input::Fixed, answer).map_err(wrong)?;
        }
        Ok(measured)
    }
}

fn unsupported(b: &SoftwareBenchmark, why: &str) -> Outcome {
    Outcome::Unsupported(format!("{} {}: {why}", b.primitive.name(), b.variant.name()))
}
