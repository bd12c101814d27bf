//! Hashing (thesis Tables 6.1 and 6.2): SHA-256 or SHA3-256 over a dataset message, or over a
//! message the request describes (a seeded stream of any length, a seeded block repeated, or
//! bytes given inline) with the digest the host worked out for it.
//!
//! Wire: `B hash 2|3 DATASET|- a|t -|f [lLENGTH] [gSEED] [bBLOCK] [mHEX] [dDIGEST] [xREPS]`;
//! result `hash INIT INPUT AWAIT READ [fDEPTH/WAITS]`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{DatasetFamily, Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::message::{from_hex, Generated, MAX_INLINE_MESSAGE_BYTES, MAX_MESSAGE_BYTES, MAX_REPEATED_MESSAGE_BYTES};
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
    /// Dataset: message and expected digest. Without one, the request describes its message
    /// (`length` or `message_hex`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dataset: Option<DatasetId>,
    /// Bytes of a generated message: the seeded stream of `seed`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub length: Option<u32>,
    /// Seed of the generated message (default 0).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub seed: Option<u32>,
    /// A message longer than the suite holds in RAM: the first `repeated_block` bytes of the
    /// seeded stream, repeated up to `length` (a multiple of 4, at most the suite's limit).
    /// The accelerator's cost does not depend on the data (the leakage tests check that).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repeated_block: Option<u32>,
    /// A message of the user's own, as hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub message_hex: Option<String>,
    /// The digest of the described message, worked out on the host
    /// (`Kind::complete`, which replaces any value a `.bench` line gives); the suite compares
    /// its output with it.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub expected: Option<[u8; 32]>,
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

    /// The message the request describes, if it names no dataset; says what is wrong with
    /// the description.
    pub fn generated(&self) -> Result<Option<Generated>, String> {
        let described = (self.length, &self.message_hex);
        match (&self.dataset, described) {
            (Some(_), (None, None)) => {
                if self.seed.is_some() || self.repeated_block.is_some() {
                    return Err(String::from(
                        "seed and repeated_block describe a message of \"length\" bytes, not a dataset",
                    ));
                }
                Ok(None)
            }
            (Some(_), _) => Err(String::from(
                "give a dataset or describe the message (length or message_hex), not both",
            )),
            (None, (None, None)) => Err(String::from(
                "no message: give a dataset, a \"length\" (with an optional \"seed\") or \"message_hex\"",
            )),
            (None, (Some(_), Some(_))) => Err(String::from("give length or message_hex, not both")),
            (None, (None, Some(hex))) => {
                if self.seed.is_some() || self.repeated_block.is_some() {
                    return Err(String::from(
                        "seed and repeated_block describe a message of \"length\" bytes, not message_hex",
                    ));
                }
                let bytes = from_hex(hex).map_err(|e| format!("message_hex: {e}"))?;
                if bytes.len() > MAX_INLINE_MESSAGE_BYTES {
                    return Err(format!(
                        "message_hex holds {} bytes, more than one line carries ({MAX_INLINE_MESSAGE_BYTES}); \
                         describe a longer message by \"length\" and \"seed\"",
                        bytes.len()
                    ));
                }
                Ok(Some(Generated::Inline(bytes)))
            }
            (None, (Some(length), None)) => {
                let seed = self.seed.unwrap_or(0);
                match self.repeated_block {
                    None if length > MAX_MESSAGE_BYTES => Err(format!(
                        "length {length} is above the {MAX_MESSAGE_BYTES} bytes a suite holds in RAM; \
                         add \"repeated_block\" (e.g. 4096) to hash a seeded block repeated"
                    )),
                    None => Ok(Some(Generated::Seeded { length, seed })),
                    Some(block) if block == 0 || !block.is_multiple_of(4) || block > MAX_MESSAGE_BYTES => Err(format!(
                        "repeated_block must be a multiple of 4 from 4 to {MAX_MESSAGE_BYTES}, got {block}"
                    )),
                    Some(block) if !length.is_multiple_of(4) => Err(format!(
                        "a repeated message's length must be a multiple of 4, got {length} (block {block})"
                    )),
                    Some(_) if length > MAX_REPEATED_MESSAGE_BYTES => Err(format!(
                        "length {length} is above the {MAX_REPEATED_MESSAGE_BYTES} bytes a repeated message may have"
                    )),
                    Some(block) => Ok(Some(Generated::Repeated { length, seed, block })),
                }
            }
        }
    }

    /// Works out the digest of the described message on the host, for the suite to check its
    /// output against.
    #[cfg(feature = "std")]
    fn digest(&mut self) -> Result<(), String> {
        use sha2::Digest as _;
        let Some(message) = self.generated()? else {
            return Ok(());
        };
        let digest: [u8; 32] = match self.algorithm {
            HashAlgorithm::Sha2 => {
                let mut h = sha2::Sha256::new();
                message.for_each_piece(|p| h.update(p));
                h.finalize().into()
            }
            HashAlgorithm::Sha3 => {
                let mut h = sha3::Sha3_256::new();
                message.for_each_piece(|p| h.update(p));
                h.finalize().into()
            }
        };
        self.expected = Some(digest);
        Ok(())
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
        self.dataset.as_ref().map(|d| (DatasetFamily::Hash, d))
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
        let mut fields = Vec::new();
        let generated = self.generated().ok().flatten();
        match &generated {
            Some(Generated::Seeded { length, seed }) => config.push_str(&format!(" {length} B seed {seed}")),
            Some(Generated::Repeated { length, seed, block }) => {
                config.push_str(&format!(" {length} B seed {seed} block {block} repeated"));
                fields.push(("repeated_block", Field::Number(u64::from(*block))));
            }
            Some(Generated::Inline(bytes)) => config.push_str(&format!(" {} B given", bytes.len())),
            None => {}
        }
        Description {
            module: Some(self.module()),
            config,
            bytes: generated.map(|m| u64::from(m.len())),
            fields,
        }
    }

    #[cfg(feature = "std")]
    fn complete(&mut self) -> Result<(), String> {
        self.digest()
    }

    fn check(&self) -> Result<(), String> {
        if matches!(self.generated()?, Some(Generated::Repeated { .. })) && self.track_fifo {
            return Err(String::from("track_fifo is not available with repeated_block"));
        }
        Ok(())
    }

    fn software(&self) -> Option<SoftwareLibrary> {
        self.software
    }

    fn accelerator(&self) -> Option<Module> {
        self.software.is_none().then_some(self.module())
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Hash(_))
    }

    fn encode(&self, out: &mut alloc::string::String) {
        wire::push(out, wire::pick(self.algorithm == HashAlgorithm::Sha2, "2", "3"));
        wire::push(out, self.dataset.as_ref().map_or("-", DatasetId::as_str));
        wire::push(out, wire::pick(self.style == HashStyle::ApiConform, "a", "t"));
        wire::push(out, wire::pick(self.track_fifo, "f", "-"));
        Options {
            software: self.software,
            length: self.length,
            seed: self.seed,
            block: self.repeated_block,
            message: self.message_hex.as_deref().and_then(|h| from_hex(h).ok()),
            digest: self.expected,
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
        let dataset = wire::optional_dataset(t)?;
        let style = wire::flag(t, "hash style", ("a", HashStyle::ApiConform), ("t", HashStyle::Tight))?;
        let track_fifo = wire::flag(t, "fifo tracking", ("f", true), ("-", false))?;
        let o = Options::decode(t, "slgbmdx")?;
        let request = Self {
            algorithm,
            dataset,
            length: o.length,
            seed: o.seed,
            repeated_block: o.block,
            message_hex: o.message.as_deref().map(crate::message::to_hex),
            expected: o.digest,
            style,
            track_fifo,
            software: o.software,
            repetitions: o.repetitions,
        };
        match request.generated() {
            Err(_) => Err(WireError::Malformed("hash message")),
            Ok(Some(_)) if request.expected.is_none() => Err(WireError::Malformed("hash message without its digest")),
            Ok(_) => Ok(request),
        }
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
