//! Implementations from outside the tree (`cyclebench run --impl DIR`): one timed call through
//! the implementation's interface, with a block cipher's key schedule timed apart as `setup`.
//! Before anything is timed, the implementation must pass every known-answer vector of its
//! folder; every timed output is then checked against the suite's reference of the declared
//! algorithm, or is the answer of the folder's vector it was timed on. An implementation with
//! neither is measured and its result marked unverified.

mod reference;
mod subject;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use cyclebench_impl::{Implementation, Interface};
use cyclebench_protocol::{Check, ErrorKind, ImplBenchmark, ImplPhases, ImplementationKind, Phases, Secret};
use cyclebench_swcrypto::harness::{Input, Rng, Subject};

pub use subject::{secrets, Call, Known, Outside};

use super::window::timed_with_stack;
use super::{BenchError, Outcome, Samples};
use crate::stack::PAINT_BYTES;

/// The implementation called `name`, or an error listing the ones this image carries.
pub fn find<'a>(implementations: &'a [Implementation], name: &str) -> Result<&'a Implementation, BenchError> {
    implementations.iter().find(|i| i.name == name).ok_or_else(|| {
        let known: Vec<&str> = implementations.iter().map(|i| i.name).collect();
        BenchError::new(
            ErrorKind::InvalidParameter,
            if known.is_empty() {
                format!("no implementation '{name}' in this image: give its folder with --impl")
            } else {
                format!(
                    "no implementation '{name}' in this image (it carries: {}); give its folder with --impl",
                    known.join(", ")
                )
            },
        )
    })
}

/// The error of an implementation that failed its request.
pub fn failed(name: &str, why: String) -> BenchError {
    BenchError::new(ErrorKind::WrongAnswer, format!("{name}: {why}"))
}

/// How the outputs of an implementation were checked.
pub fn check(known: &Known) -> Check {
    match known {
        Known::Reference(_) | Known::Vector => Check::KnownAnswer,
        Known::Unknown => Check::Unverified,
    }
}

/// Runs `b`: the folder's vectors first, then `repetitions` timed calls (and key schedules).
pub fn run(b: &ImplBenchmark, repetitions: u16, implementations: &[Implementation]) -> Result<Outcome, BenchError> {
    let implementation = find(implementations, &b.name)?;
    let invalid = |why: String| BenchError::new(ErrorKind::InvalidParameter, format!("{}: {why}", b.name));
    let mut run = Outside::new(implementation, b.length, Call::Run, Secret::Data).map_err(invalid)?;
    let vectors = run.check_vectors().map_err(|e| failed(&b.name, e))?;
    let block = matches!(implementation.interface, Interface::BlockCipher { .. });
    let setup = match block {
        true => Some(measure(
            &b.name,
            Outside::new(implementation, b.length, Call::Setup, Secret::Data).map_err(invalid)?,
            repetitions,
        )?),
        false => None,
    };
    let check = check(run.known());
    let reference = match run.known() {
        Known::Reference(r) => Some(*r),
        Known::Vector | Known::Unknown => None,
    };
    let entry = run.entry() as u32;
    let measured = measure(&b.name, run, repetitions)?;
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check,
        phases: Phases::Implementation(ImplPhases {
            interface: implementation.interface.kind(),
            reference,
            vectors,
            stack_bytes: measured.deepest.max(setup.as_ref().map_or(0, |s| s.deepest)),
            entry,
            setup: setup.map(|s| s.samples.summary()[0]),
            run: measured.samples.summary()[0],
        }),
    })
}

/// The windows of one call and the deepest stack they used.
struct Measured {
    samples: Samples,
    deepest: u32,
}

/// `repetitions` timed calls of `subject` on its fixed input, each output checked; a call
/// that used all the painted stack is reported as a possible overrun, not as a result.
fn measure(name: &str, mut subject: Outside<'_>, repetitions: u16) -> Result<Measured, BenchError> {
    let mut measured = Measured {
        samples: Samples::new(1, repetitions)?,
        deepest: 0,
    };
    // Unused: the fixed input draws nothing.
    let mut rng = Rng::new(0);
    for _ in 0..repetitions {
        subject.prepare(Input::Fixed, &mut rng);
        let (answer, cycles, stack) = timed_with_stack(&mut subject);
        if stack as usize >= PAINT_BYTES {
            return Err(failed(
                name,
                format!(
                    "the call wrote the deepest of the {PAINT_BYTES} stack bytes the suite watches: it may have \
                     overrun its stack, so nothing it did is trusted"
                ),
            ));
        }
        measured.deepest = measured.deepest.max(stack);
        measured.samples.push(&[u64::from(cycles)]);
        subject.check(Input::Fixed, answer).map_err(|e| failed(name, e))?;
    }
    Ok(measured)
}
