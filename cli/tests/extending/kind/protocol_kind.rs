//! A throw-away kind that the extending test adds to a scratch copy of the tree: the sum of
//! 1..=n on the CPU, checked against n(n+1)/2.
//!
//! Wire: `B exsum N [xREPS]`; result `exsum SUM`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, NamedPhase, Phases};

/// Largest `n`: the sum stays below 2^32.
pub const MAX_EXAMPLE_SUM_N: u32 = 65_535;

/// Sum request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ExampleSumBenchmark {
    /// Last term of the sum.
    pub n: u32,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl Kind for ExampleSumBenchmark {
    const NAME: &'static str = "example_sum";
    const TAG: &'static str = "exsum";
    const PHASES: &'static [PhaseSpec] = &[PhaseSpec::once("sum", PhaseCategory::Computation)];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn describe(&self) -> Description {
        Description {
            module: None,
            config: format!("1..={}", self.n),
            bytes: None,
            fields: Vec::from([("n", Field::Number(u64::from(self.n)))]),
        }
    }

    fn check(&self) -> Result<(), String> {
        if (1..=MAX_EXAMPLE_SUM_N).contains(&self.n) {
            Ok(())
        } else {
            Err(format!("\"n\" must be 1 to {MAX_EXAMPLE_SUM_N}, got {}", self.n))
        }
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::ExampleSum(_))
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, &format!("{}", self.n));
        Options {
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let n: u32 = t.number("n")?;
        if !(1..=MAX_EXAMPLE_SUM_N).contains(&n) {
            return Err(WireError::Malformed("n out of range"));
        }
        Ok(Self {
            n,
            repetitions: Options::decode(t, "x")?.repetitions,
        })
    }
}

/// Cycles of the sum.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ExampleSumPhases {
    /// The loop.
    pub sum: Cycles,
}

impl Shape for ExampleSumPhases {
    const TAG: &'static str = "exsum";

    fn named(&self) -> Vec<NamedPhase> {
        Vec::from([NamedPhase::new("sum", self.sum, 1)])
    }

    fn encode(&self, out: &mut String) {
        wire::encode_cycles(out, &self.sum);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self { sum: t.cycles()? })
    }
}
