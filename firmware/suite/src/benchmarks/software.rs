//! Software primitives (seed 2's study): one window around one call of the chosen variant,
//! the stack the call used, and the function's address for the host's code-size lookup. The
//! primitive's harness (`cyclebench_swcrypto::harness`) makes the call on its fixed input and
//! compares every output with the expected one; a mismatch is an error, never a result.

use alloc::format;
use alloc::string::String;

use cyclebench_protocol::{
    Check, ErrorKind, ImplementationKind, Phases, SoftwareBenchmark, SoftwarePhases, SoftwareVariant,
};
use cyclebench_swcrypto::harness::{Harness, Setup, Timer, Visitor};

use super::{BenchError, Outcome, Samples};
use crate::cycles::stamp;
use crate::stack;

/// The windows and the deepest stack of every repetition.
struct Recorder {
    samples: Samples,
    deepest: u32,
}

impl Timer for Recorder {
    /// Times `call` between two counter reads, with the stack painted beforehand.
    #[inline(always)]
    fn time<R>(&mut self, call: impl FnOnce() -> R) -> R {
        let sp = stack::paint();
        let start = stamp();
        let answer = call();
        let end = stamp();
        // Read before anything else runs on the painted stack.
        let used = stack::used(sp);
        self.samples.push(&[end.since(start)]);
        self.deepest = self.deepest.max(used);
        answer
    }
}

/// Repeats the primitive of a request through its harness.
struct Repeat<'a> {
    setup: Setup,
    repetitions: u16,
    recorder: &'a mut Recorder,
}

impl Visitor for Repeat<'_> {
    type Output = Result<Option<usize>, String>;

    fn visit<H: Harness>(self) -> Self::Output {
        H::repeat(&self.setup, self.repetitions, self.recorder)
    }
}

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
    let mut recorder = Recorder {
        samples: Samples::new(1, repetitions)?,
        deepest: 0,
    };
    let setup = Setup {
        variant: b.variant.into(),
        length: b.length.unwrap_or(0) as usize,
        secret: b.primitive.secrets()[0],
    };
    let entry = cyclebench_swcrypto::visit(
        b.primitive,
        Repeat {
            setup,
            repetitions,
            recorder: &mut recorder,
        },
    )
    .map_err(|what| {
        BenchError::new(
            ErrorKind::WrongAnswer,
            format!("{} {}: {what}", b.primitive.name(), b.variant.name()),
        )
    })?;
    let Some(entry) = entry else {
        return Ok(unsupported(b, "no such variant of this primitive"));
    };
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Software(SoftwarePhases {
            run: recorder.samples.summary()[0],
            stack_bytes: recorder.deepest,
            entry: entry as u32,
        }),
    })
}

fn unsupported(b: &SoftwareBenchmark, why: &str) -> Outcome {
    Outcome::Unsupported(format!("{} {}: {why}", b.primitive.name(), b.variant.name()))
}
