//! Random number generation (thesis Fig. 6.2): seed from a dataset or from the platform's
//! entropy source, then generate 128-bit blocks.
//!
//! Wire: `B rng DATASET [wWAIT] [xREPS]`, `B trng BLOCKS [wWAIT] [xREPS]`; both answer with
//! `rng INIT (GENERATE READ)*`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{DatasetFamily, Description, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, DatasetId, Module, NamedPhase, Phases, MAX_INIT_WAIT, MAX_RNG_BLOCKS};

const PHASES: &[PhaseSpec] = &[
    PhaseSpec::once("init", PhaseCategory::Initialisation),
    PhaseSpec::numbered("generate", PhaseCategory::Computation),
    PhaseSpec::numbered("read", PhaseCategory::Output),
];

/// Seeded RNG benchmark request (thesis `RNGDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RngSeededBenchmark {
    /// Dataset: seed material, number of blocks and expected output.
    pub dataset: DatasetId,
    /// Cycles to wait (unmeasured) between seeding and the first generate, to separate the
    /// generator's own settling from the generate (thesis 6.1.2). At most
    /// [`crate::MAX_INIT_WAIT`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub init_wait: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

/// Entropy-seeded RNG benchmark request (thesis `RNGTrueRandom`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RngTrueRandomBenchmark {
    /// Number of 128-bit blocks to generate after seeding (1 to [`crate::MAX_RNG_BLOCKS`]).
    pub blocks: u8,
    /// Cycles to wait (unmeasured) between seeding and the first generate, to separate the
    /// generator's own settling from the generate (thesis 6.1.2). At most
    /// [`crate::MAX_INIT_WAIT`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub init_wait: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

fn check_wait(init_wait: Option<u32>) -> Result<(), String> {
    match init_wait {
        Some(w) if w > MAX_INIT_WAIT => Err(format!("init_wait must be at most {MAX_INIT_WAIT} cycles, got {w}")),
        _ => Ok(()),
    }
}

fn with_wait(mut config: String, init_wait: Option<u32>) -> String {
    if let Some(w) = init_wait {
        config.push_str(&format!(" init-wait {w}"));
    }
    config
}

impl Kind for RngSeededBenchmark {
    const NAME: &'static str = "rng_seeded";
    const TAG: &'static str = "rng";
    const PHASES: &'static [PhaseSpec] = PHASES;

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn dataset(&self) -> Option<(DatasetFamily, &DatasetId)> {
        Some((DatasetFamily::Rng, &self.dataset))
    }

    fn accelerator(&self) -> Option<Module> {
        Some(Module::Rng)
    }

    fn describe(&self) -> Description {
        Description {
            module: Some(Module::Rng),
            config: with_wait(String::from("seeded"), self.init_wait),
            bytes: None,
            fields: Vec::new(),
        }
    }

    fn check(&self) -> Result<(), String> {
        check_wait(self.init_wait)
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Rng(_))
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.dataset.as_str());
        Options {
            wait: self.init_wait,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let dataset = wire::dataset(t)?;
        let o = Options::decode(t, "wx")?;
        Ok(Self {
            dataset,
            init_wait: o.wait,
            repetitions: o.repetitions,
        })
    }
}

impl Kind for RngTrueRandomBenchmark {
    const NAME: &'static str = "rng_true_random";
    const TAG: &'static str = "trng";
    const PHASES: &'static [PhaseSpec] = PHASES;

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn accelerator(&self) -> Option<Module> {
        Some(Module::Entropy)
    }

    fn describe(&self) -> Description {
        Description {
            module: Some(Module::Entropy),
            config: with_wait(format!("entropy-seeded {} blocks", self.blocks), self.init_wait),
            bytes: Some(16 * u64::from(self.blocks)),
            fields: Vec::new(),
        }
    }

    fn check(&self) -> Result<(), String> {
        if self.blocks == 0 || self.blocks > MAX_RNG_BLOCKS {
            return Err(format!("blocks must be 1 to {MAX_RNG_BLOCKS}, got {}", self.blocks));
        }
        check_wait(self.init_wait)
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Rng(_))
    }

    fn encode(&self, out: &mut String) {
        wire::push_number(out, self.blocks);
        Options {
            wait: self.init_wait,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let blocks: u8 = t.number("block count")?;
        if blocks == 0 || blocks > MAX_RNG_BLOCKS {
            return Err(WireError::Malformed("block count out of range"));
        }
        let o = Options::decode(t, "wx")?;
        Ok(Self {
            blocks,
            init_wait: o.wait,
            repetitions: o.repetitions,
        })
    }
}

/// Cycles of one generate request and of reading its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct GeneratePhases {
    /// Issue the generate request and wait for the output to be valid.
    pub generate: Cycles,
    /// Read the generated block(s).
    pub read: Cycles,
}

/// Phases of a random-generation result: seeding, then each generate request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct RngPhases {
    /// `init` (uninstantiate + instantiate with the seed).
    pub init: Cycles,
    /// One entry per generate request, in order.
    pub generates: Vec<GeneratePhases>,
}

impl Shape for RngPhases {
    const TAG: &'static str = "rng";

    fn named(&self) -> Vec<NamedPhase> {
        let mut named = Vec::from([NamedPhase::new("init", self.init, 1)]);
        for (i, g) in self.generates.iter().enumerate() {
            let n = i + 1;
            named.push(NamedPhase::new(&format!("generate{n}"), g.generate, 1));
            named.push(NamedPhase::new(&format!("read{n}"), g.read, 1));
        }
        named
    }

    fn encode(&self, out: &mut String) {
        wire::encode_cycles(out, &self.init);
        for g in &self.generates {
            wire::encode_cycles(out, &g.generate);
            wire::encode_cycles(out, &g.read);
        }
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let init = t.cycles()?;
        let mut generates = Vec::new();
        while let Some(token) = t.optional()? {
            let generate = wire::decode_cycles(token)?;
            let read = t.cycles()?;
            generates.push(GeneratePhases { generate, read });
        }
        Ok(Self { init, generates })
    }
}
