//! Hashing (thesis Tables 6.1 and 6.2): SHA-256 or SHA3-256 over a dataset message.
//!
//! Wire: `B hash 2|3 DATASET a|t -|f [xREPS]`; result `hash INIT INPUT AWAIT READ [fDEPTH/WAITS]`.

use alloc::format;
use alloc::vec::Vec;

use crate::kind::{DatasetFamily, Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, DatasetId, Module, NamedPhase, Phases, SoftwareLibrary};

/// Which hash module to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HashAlgorithm {
    /// SHA-256.
    Sha2,
    /// SHA3-256.
    Sha3,
}

/// How input is fed to the hash module (thesis Tables 6.1 and 6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum HashStyle {
    /// Check `input_ready` before every word, as the module API asks.
    #[default]
    ApiConform,
    /// Write words back to back without the ready check.
    Tight,
}

/// Hash benchmark request (thesis `HashDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct HashBenchmark {
    /// SHA-2 or SHA-3.
    pub algorithm: HashAlgorithm,
    /// Dataset: message and expected digest.
    pub dataset: DatasetId,
    /// API-conform or tight input.
    #[cfg_attr(feature = "serde", serde(default))]
    pub style: HashStyle,
    /// Record the deepest input FIFO fill seen and how often input had to wait.
    #[cfg_attr(feature = "serde", serde(default))]
    pub track_fifo: bool,
    /// Run one of the suite's software implementations of the module instead of the
    /// platform's: on a chip with the accelerator, the same operation in software on the
    /// same core.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub software: Option<SoftwareLibrary>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl HashBenchmark {
    /// The module this request drives.
    pub fn module(&self) -> Module {
        match self.algorithm {
            HashAlgorithm::Sha2 => Module::Sha2,
            HashAlgorithm::Sha3 => Module::Sha3,
        }
    }
}

impl Kind for HashBenchmark {
    const NAME: &'static str = "hash";
    const TAG: &'static str = "hash";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once("init", PhaseCategory::Initialisation),
        PhaseSpec::once("input", PhaseCategory::Input),
        PhaseSpec::once("await_digest", PhaseCategory::Computation),
        PhaseSpec::once("read_digest", PhaseCategory::Output),
    ];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn dataset(&self) -> Option<(DatasetFamily, &DatasetId)> {
        Some((DatasetFamily::Hash, &self.dataset))
    }

    fn describe(&self) -> Description {
        let style = match self.style {
            HashStyle::ApiConform => "api-conform",
            HashStyle::Tight => "tight",
        };
        let mut config = format!("{} {style}", self.module().name());
        if self.track_fifo {
            config.push_str(" fifo-tracked");
        }
        Description {
            module: Some(self.module()),
            config,
            bytes: None,
            fields: Vec::new(),
        }
    }

    fn software(&self) -> Option<SoftwareLibrary> {
        self.software
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Hash(_))
    }

    fn encode(&self, out: &mut alloc::string::String) {
        wire::push(out, wire::pick(self.algorithm == HashAlgorithm::Sha2, "2", "3"));
        wire::push(out, self.dataset.as_str());
        wire::push(out, wire::pick(self.style == HashStyle::ApiConform, "a", "t"));
        wire::push(out, wire::pick(self.track_fifo, "f", "-"));
        Options {
            software: self.software,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let algorithm = wire::flag(
            t,
            "hash algorithm",
            ("2", HashAlgorithm::Sha2),
            ("3", HashAlgorithm::Sha3),
        )?;
        let dataset = wire::dataset(t)?;
        let style = wire::flag(t, "hash style", ("a", HashStyle::ApiConform), ("t", HashStyle::Tight))?;
        let track_fifo = wire::flag(t, "fifo tracking", ("f", true), ("-", false))?;
        let o = Options::decode(t, "sx")?;
        Ok(Self {
            algorithm,
            dataset,
            style,
            track_fifo,
            software: o.software,
            repetitions: o.repetitions,
        })
    }
}

/// Input FIFO observations of a tracked hash run (thesis 6.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct FifoTrace {
    /// Deepest FIFO fill seen before a write.
    pub max_depth: u32,
    /// How many times input had to wait because the FIFO was full.
    pub full_waits: u32,
}

/// Phases of a hash result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct HashPhases {
    /// `init`.
    pub init: Cycles,
    /// All `write_input` calls with their ready checks.
    pub input: Cycles,
    /// `wait_for_completion`.
    pub await_digest: Cycles,
    /// `read_digest`.
    pub read_digest: Cycles,
    /// FIFO observations when tracking was requested.
    pub fifo: Option<FifoTrace>,
}

impl Shape for HashPhases {
    const TAG: &'static str = "hash";

    fn named(&self) -> Vec<NamedPhase> {
        NamedPhase::once(&[
            ("init", self.init),
            ("input", self.input),
            ("await_digest", self.await_digest),
            ("read_digest", self.read_digest),
        ])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        match self.fifo {
            Some(f) => Vec::from([
                ("fifo_max_depth", Field::Number(u64::from(f.max_depth))),
                ("fifo_full_waits", Field::Number(u64::from(f.full_waits))),
            ]),
            None => Vec::new(),
        }
    }

    fn encode(&self, out: &mut alloc::string::String) {
        for c in [&self.init, &self.input, &self.await_digest, &self.read_digest] {
            wire::encode_cycles(out, c);
        }
        if let Some(f) = self.fifo {
            out.push_str(" f");
            wire::push_decimal(out, f.max_depth);
            out.push('/');
            wire::push_decimal(out, f.full_waits);
        }
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let (init, input, await_digest, read_digest) = (t.cycles()?, t.cycles()?, t.cycles()?, t.cycles()?);
        let fifo = match t.optional()? {
            None => None,
            Some(token) => Some(decode_fifo(token)?),
        };
        Ok(Self {
            init,
            input,
            await_digest,
            read_digest,
            fifo,
        })
    }
}

fn decode_fifo(token: &str) -> Result<FifoTrace, WireError> {
    const WHAT: &str = "fifo trace";
    let (depth, waits) = token
        .strip_prefix('f')
        .and_then(|rest| rest.split_once('/'))
        .ok_or(WireError::Malformed(WHAT))?;
    Ok(FifoTrace {
        max_depth: wire::parse_number(depth, WHAT)?,
        full_waits: wire::parse_number(waits, WHAT)?,
    })
}
