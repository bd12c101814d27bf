//! AES over a dataset of blocks (thesis Figs. 6.3–6.7, Table 6.3), one configuration (mode,
//! key) per dataset.
//!
//! Wire: `B aes DATASET e|d t|b|i a|m c|t [pPAD] [xREPS]`; results `aest INIT PROCESS DEINIT
//! BLOCKS` or `aesb INIT WRITE COMPUTE READ DEINIT BLOCKS`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{DatasetFamily, Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Cycles, DatasetId, Module, NamedPhase, Phases, SoftwareLibrary, MAX_STATUS_PAD};

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Direction {
    /// Plaintext in, ciphertext out.
    #[default]
    Encrypt,
    /// Ciphertext in, plaintext out.
    Decrypt,
}

/// Whether an AES result breaks every block into write / compute / read or times the whole
/// stream of blocks (thesis Figs. 6.3 and 6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Granularity {
    /// One window around all blocks; automatic mode may pipeline two blocks.
    #[default]
    Total,
    /// Separate windows for writing, computing and reading every block.
    PerBlock,
    /// Per block, with the thesis's window boundaries: the block is in registers and the
    /// engine ready (checked, unless tight) before the write window opens, which then holds
    /// only the four register stores; the read window holds the four register loads and the
    /// stores of the result into RAM.
    Interface,
}

/// Whether the AES engine starts on its own when a block is written, or on a trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Trigger {
    /// The engine starts as soon as a full input block is written.
    #[default]
    Automatic,
    /// The suite writes the start trigger after each block.
    Manual,
}

/// AES benchmark request (thesis `AESDataSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesBenchmark {
    /// Dataset: key, mode, IV, blocks and expected output.
    pub dataset: DatasetId,
    /// Encrypt the plaintext or decrypt the ciphertext of the dataset.
    #[cfg_attr(feature = "serde", serde(default))]
    pub direction: Direction,
    /// Per-block breakdown or one total.
    #[cfg_attr(feature = "serde", serde(default))]
    pub granularity: Granularity,
    /// Automatic or manual start.
    #[cfg_attr(feature = "serde", serde(default))]
    pub trigger: Trigger,
    /// Skip the input-ready check before writing a block (safe only when the engine is known
    /// to be idle; the output is still checked).
    #[cfg_attr(feature = "serde", serde(default))]
    pub tight: bool,
    /// Timed status readout (thesis Fig. 6.7, per-block only): execute this many `nop`s after
    /// starting a block, then read the status once; the busy-wait only runs if that read found
    /// no output yet. At most [`crate::MAX_STATUS_PAD`].
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub status_pad: Option<u16>,
    /// Run one of the suite's software implementations of the module instead of the
    /// platform's: on a chip with the accelerator, the same operation in software on the
    /// same core.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub software: Option<SoftwareLibrary>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl Kind for AesBenchmark {
    const NAME: &'static str = "aes";
    const TAG: &'static str = "aes";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once("init", PhaseCategory::Initialisation),
        PhaseSpec::once("process", PhaseCategory::Computation),
        PhaseSpec::once("write", PhaseCategory::Input),
        PhaseSpec::once("compute", PhaseCategory::Computation),
        PhaseSpec::once("read", PhaseCategory::Output),
        PhaseSpec::once("deinit", PhaseCategory::Deinitialisation),
    ];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn dataset(&self) -> Option<(DatasetFamily, &DatasetId)> {
        Some((DatasetFamily::Aes, &self.dataset))
    }

    fn describe(&self) -> Description {
        let direction = wire::pick(self.direction == Direction::Encrypt, "encrypt", "decrypt");
        let granularity = match self.granularity {
            Granularity::Total => "total",
            Granularity::PerBlock => "per-block",
            Granularity::Interface => "interface",
        };
        let trigger = wire::pick(self.trigger == Trigger::Automatic, "automatic", "manual");
        let mut config = format!("{direction} {granularity} {trigger}");
        if self.tight {
            config.push_str(" tight");
        }
        if let Some(pad) = self.status_pad {
            config.push_str(&format!(" status-pad {pad}"));
        }
        Description {
            module: Some(Module::Aes),
            config,
            bytes: None,
            fields: Vec::new(),
        }
    }

    fn check(&self) -> Result<(), String> {
        match self.status_pad {
            Some(pad) if pad > MAX_STATUS_PAD => Err(format!("status_pad must be 0 to {MAX_STATUS_PAD}, got {pad}")),
            Some(_) if self.granularity == Granularity::Total => Err(String::from(
                "status_pad needs \"granularity\": \"per_block\" or \"interface\"",
            )),
            _ => Ok(()),
        }
    }

    fn software(&self) -> Option<SoftwareLibrary> {
        self.software
    }

    fn accepts(&self, phases: &Phases) -> bool {
        match self.granularity {
            Granularity::Total => matches!(phases, Phases::AesTotal(_)),
            Granularity::PerBlock | Granularity::Interface => matches!(phases, Phases::AesPerBlock(_)),
        }
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.dataset.as_str());
        wire::push(out, wire::pick(self.direction == Direction::Encrypt, "e", "d"));
        wire::push(
            out,
            match self.granularity {
                Granularity::Total => "t",
                Granularity::PerBlock => "b",
                Granularity::Interface => "i",
            },
        );
        wire::push(out, wire::pick(self.trigger == Trigger::Automatic, "a", "m"));
        wire::push(out, wire::pick(self.tight, "t", "c"));
        Options {
            software: self.software,
            pad: self.status_pad,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let dataset = wire::dataset(t)?;
        let direction = wire::flag(t, "direction", ("e", Direction::Encrypt), ("d", Direction::Decrypt))?;
        let granularity = match t.next("granularity")? {
            "t" => Granularity::Total,
            "b" => Granularity::PerBlock,
            "i" => Granularity::Interface,
            _ => return Err(WireError::Malformed("granularity")),
        };
        let trigger = wire::flag(t, "trigger", ("a", Trigger::Automatic), ("m", Trigger::Manual))?;
        let tight = wire::flag(t, "tightness", ("t", true), ("c", false))?;
        let o = Options::decode(t, "spx")?;
        Ok(Self {
            dataset,
            direction,
            granularity,
            trigger,
            tight,
            status_pad: o.pad,
            software: o.software,
            repetitions: o.repetitions,
        })
    }
}

/// AES phases with one window around all blocks (thesis Fig. 6.3).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesTotalPhases {
    /// `init`: configuration, key shares, IV.
    pub init: Cycles,
    /// Writing, processing and reading all blocks.
    pub process: Cycles,
    /// `deinit`.
    pub deinit: Cycles,
    /// Number of blocks processed.
    pub blocks: u16,
}

impl Shape for AesTotalPhases {
    const TAG: &'static str = "aest";

    fn named(&self) -> Vec<NamedPhase> {
        NamedPhase::once(&[("init", self.init), ("process", self.process), ("deinit", self.deinit)])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::from([("blocks", Field::Number(u64::from(self.blocks)))])
    }

    fn encode(&self, out: &mut String) {
        for c in [&self.init, &self.process, &self.deinit] {
            wire::encode_cycles(out, c);
        }
        wire::push_number(out, self.blocks);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            init: t.cycles()?,
            process: t.cycles()?,
            deinit: t.cycles()?,
            blocks: t.number("block count")?,
        })
    }
}

/// AES phases with each block split into write / compute / read (thesis Table 6.3, Fig. 6.4);
/// block phases are summed over all blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct AesPerBlockPhases {
    /// `init`.
    pub init: Cycles,
    /// `write_block` for all blocks.
    pub write: Cycles,
    /// Trigger (manual) and `wait_for_output` for all blocks.
    pub compute: Cycles,
    /// `read_block` for all blocks.
    pub read: Cycles,
    /// `deinit`.
    pub deinit: Cycles,
    /// Number of blocks processed.
    pub blocks: u16,
}

impl Shape for AesPerBlockPhases {
    const TAG: &'static str = "aesb";

    fn named(&self) -> Vec<NamedPhase> {
        let blocks = u32::from(self.blocks);
        Vec::from([
            NamedPhase::new("init", self.init, 1),
            NamedPhase::new("write", self.write, blocks),
            NamedPhase::new("compute", self.compute, blocks),
            NamedPhase::new("read", self.read, blocks),
            NamedPhase::new("deinit", self.deinit, 1),
        ])
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::from([("blocks", Field::Number(u64::from(self.blocks)))])
    }

    fn encode(&self, out: &mut String) {
        for c in [&self.init, &self.write, &self.compute, &self.read, &self.deinit] {
            wire::encode_cycles(out, c);
        }
        wire::push_number(out, self.blocks);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        Ok(Self {
            init: t.cycles()?,
            write: t.cycles()?,
            compute: t.cycles()?,
            read: t.cycles()?,
            deinit: t.cycles()?,
            blocks: t.number("block count")?,
        })
    }
}
