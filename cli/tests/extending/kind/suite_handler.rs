//! The throw-away kind of the extending test: the sum of 1..=n, timed and checked.

use cyclebench_protocol::{Check, ExampleSumBenchmark, ExampleSumPhases, ImplementationKind, Phases};

use super::{BenchError, Outcome, Samples};
use crate::cycles::stamp;

/// Sums 1..=n in one window; the compiler must not fold the loop into n(n+1)/2.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn once(n: u32) -> (u64, u32) {
    let n = core::hint::black_box(n);
    let start = stamp();
    let mut sum = 0u32;
    let mut i = 1;
    while i <= n {
        sum = core::hint::black_box(sum.wrapping_add(i));
        i += 1;
    }
    (stamp().since(start), sum)
}

/// Runs the sum `repetitions` times; every answer is checked.
pub fn run(b: &ExampleSumBenchmark, repetitions: u16) -> Result<Outcome, BenchError> {
    let expected = b.n * (b.n + 1) / 2;
    let mut samples = Samples::new(1, repetitions)?;
    for _ in 0..repetitions {
        let (cycles, sum) = once(b.n);
        if sum != expected {
            return Err(BenchError::wrong_answer(
                "example_sum",
                "1..=n",
                &alloc::format!("{sum}, expected {expected}"),
            ));
        }
        samples.push(&[cycles]);
    }
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::ExampleSum(ExampleSumPhases {
            sum: samples.summary()[0],
        }),
    })
}
