//! Micro-benchmarks (thesis `MicroBenchmarks`): fixed instruction blocks between two counter
//! reads, characterising the CPU and the measurement itself.
//!
//! Wire: `B micro [xREPS]`; result `micro EMPTY NOP NOP10 ADD10 LOAD10 STORE10 MUL10 DIV LOOP10`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Kind, PhaseCategory, PhaseSpec, Presentation, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, NamedPhase, Phases};

/// Micro-benchmark request.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct MicroBenchmark {
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// The instruction blocks, in execution order.
const BLOCKS: [&str; 9] = [
    "empty", "nop", "nop10", "add10", "load10", "store10", "mul10", "div", "loop10",
];

impl Kind for MicroBenchmark {
    const NAME: &'static str = "micro";
    const TAG: &'static str = "micro";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once(BLOCKS[0], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[1], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[2], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[3], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[4], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[5], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[6], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[7], PhaseCategory::Other),
        PhaseSpec::once(BLOCKS[8], PhaseCategory::Other),
    ];
    const PRESENTATION: Presentation = Presentation {
        // Stacking would suggest a sequence that is not there.
        not_stacked: Some("its blocks are independent instruction sequences, not phases of one operation"),
        ..Presentation::PHASES
    };

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn describe(&self) -> Description {
        Description {
            module: None,
            config: String::from("instruction blocks"),
            bytes: None,
            fields: Vec::new(),
        }
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Micro(_))
    }

    fn encode(&self, out: &mut String) {
        Options {
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            repetitions: Options::decode(t, "x")?.repetitions,
        })
    }
}

/// Cycles of each instruction block.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct MicroPhases {
    /// Nothing between the reads: the measurement overhead itself.
    pub empty: Cycles,
    /// One `nop`.
    pub nop: Cycles,
    /// Ten `nop`s.
    pub nop10: Cycles,
    /// Ten dependent `add`s.
    pub add10: Cycles,
    /// Ten loads from RAM.
    pub load10: Cycles,
    /// Ten stores to RAM.
    pub store10: Cycles,
    /// Ten `mul`s.
    pub mul10: Cycles,
    /// One `div`.
    pub div: Cycles,
    /// Ten iterations of a counted loop (taken branches).
    pub loop10: Cycles,
}

impl MicroPhases {
    fn in_order(&self) -> [Cycles; 9] {
        [
            self.empty,
            self.nop,
            self.nop10,
            self.add10,
            self.load10,
            self.store10,
            self.mul10,
            self.div,
            self.loop10,
        ]
    }
}

impl Shape for MicroPhases {
    const TAG: &'static str = "micro";

    fn named(&self) -> Vec<NamedPhase> {
        BLOCKS
            .iter()
            .zip(self.in_order())
            .map(|(name, cycles)| NamedPhase::new(name, cycles, 1))
            .collect()
    }

    fn encode(&self, out: &mut String) {
        for c in &self.in_order() {
            wire::encode_cycles(out, c);
        }
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            empty: t.cycles()?,
            nop: t.cycles()?,
            nop10: t.cycles()?,
            add10: t.cycles()?,
            load10: t.cycles()?,
            store10: t.cycles()?,
            mul10: t.cycles()?,
            div: t.cycles()?,
            loop10: t.cycles()?,
        })
    }
}
