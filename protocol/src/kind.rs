//! What every benchmark kind and result shape declares about itself. The wire form, the JSON
//! names, the phase names and their report categories all follow from this one description,
//! so a kind lives in one file under `kinds/` and is registered on one line there.

use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::{Tokens, WireError};
use crate::{DatasetId, Module, NamedPhase, Phases};

/// What a phase does; reports give phases of one category one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PhaseCategory {
    /// Setting the module up (key expansion, seeding, configuration).
    Initialisation,
    /// Feeding data in.
    Input,
    /// Computing, or waiting for the module to.
    Computation,
    /// Reading results out.
    Output,
    /// Clearing and releasing the module.
    Deinitialisation,
    /// Anything else (instruction blocks, whole calls).
    Other,
}

/// A phase that results of a kind can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseSpec {
    /// Phase name as results carry it (without the number of a numbered phase).
    pub name: &'static str,
    /// What the phase does.
    pub category: PhaseCategory,
    /// Whether the phase repeats with a 1-based number appended (`generate1`, `generate2`).
    pub numbered: bool,
}

impl PhaseSpec {
    /// A phase that occurs once.
    pub const fn once(name: &'static str, category: PhaseCategory) -> Self {
        Self {
            name,
            category,
            numbered: false,
        }
    }

    /// A phase that repeats, numbered from 1.
    pub const fn numbered(name: &'static str, category: PhaseCategory) -> Self {
        Self {
            name,
            category,
            numbered: true,
        }
    }

    /// Whether `phase` (a name from a result) is this phase.
    pub fn matches(&self, phase: &str) -> bool {
        if !self.numbered {
            return phase == self.name;
        }
        phase
            .strip_prefix(self.name)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    }
}

/// A family of datasets stored on the suite (and in the host's copy of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetFamily {
    /// Messages with SHA-256 and SHA3-256 digests.
    Hash,
    /// AES key, mode, IV, plaintext and ciphertext.
    Aes,
    /// Seed material and generate requests of a DRBG with expected output.
    Rng,
}

/// A fact about a request or a result that results files keep beside the phases.
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// Text, e.g. a primitive's name.
    Text(String),
    /// A count, size or address.
    Number(u64),
    /// A quantity with a fraction, e.g. a mean or a test statistic (a JSON number).
    Decimal(f64),
    /// A yes-or-no fact (a JSON boolean).
    Flag(bool),
    /// A quantity that has no finite value here, e.g. an unbounded test statistic (JSON
    /// `null`); a field beside it says why.
    Null,
}

/// How a request reads in results files and reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    /// The module the benchmark exercises; `None` for the CPU itself.
    pub module: Option<Module>,
    /// Configuration in words, e.g. `sha2 tight` or `decrypt per-block manual`.
    pub config: String,
    /// Bytes one run processes, when the request alone says so (a dataset's size is looked
    /// up by the host through [`Kind::dataset`]).
    pub bytes: Option<u64>,
    /// Further facts for results files, named as their JSON fields.
    pub fields: Vec<(&'static str, Field)>,
}

/// A result field whose value can be unbounded (a t-statistic of two constant classes), and
/// how a record says so: the field is `null`, a flag beside it is `true` and a text says why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unbounded {
    /// The field, `null` when unbounded (`max_abs_t`).
    pub field: &'static str,
    /// The boolean field that is `true` when it is unbounded.
    pub flag: &'static str,
    /// The text field that says why.
    pub reason: &'static str,
    /// How tables show the unbounded value.
    pub shown: &'static str,
    /// The number that stood for an unbounded value in records written before the flag
    /// existed; a value at or above it reads as unbounded.
    pub legacy_sentinel: Option<f64>,
}

/// How reports, the run's progress lines and summaries, `compare` and the results loader
/// show results of a kind. [`Presentation::PHASES`], the default, suits a kind whose result is
/// phases of one operation: stacked bars, a row per result and nothing else to declare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Presentation {
    /// Why the report does not draw its results as stacked phase bars (independent blocks,
    /// a single phase, no phases), in words after the kind's name; `None` stacks them.
    pub not_stacked: Option<&'static str>,
    /// The result fields a progress line shows for a result without phases, in order; empty
    /// for the first [`Presentation::HEADLINE_FIELDS`] fields the result carries.
    pub headline: &'static [&'static str],
    /// Result fields whose value can be unbounded: tables show them as such and statistics
    /// leave them out.
    pub unbounded: &'static [Unbounded],
}

impl Presentation {
    /// A result of phases of one operation, shown as stacked bars.
    pub const PHASES: Self = Self {
        not_stacked: None,
        headline: &[],
        unbounded: &[],
    };

    /// How many result fields a progress line shows when the kind names no headline.
    pub const HEADLINE_FIELDS: usize = 4;

    /// The declaration of `field`, when its value can be unbounded.
    pub fn unbounded(&self, field: &str) -> Option<&'static Unbounded> {
        self.unbounded.iter().find(|u| u.field == field)
    }
}

/// A benchmark request kind: its names, its wire form and what its results hold.
pub trait Kind: Sized {
    /// JSON name in `.bench` files and results (`aes`, `rng_seeded`).
    const NAME: &'static str;
    /// Wire tag after `B ` (`aes`, `rng`).
    const TAG: &'static str;
    /// Every phase its results can carry, in execution order.
    const PHASES: &'static [PhaseSpec];
    /// How its results are shown; a kind with ordinary phases keeps the default.
    const PRESENTATION: Presentation = Presentation::PHASES;

    /// Repetitions asked for, if any (the suite runs one when none).
    fn repetitions(&self) -> Option<u16>;
    /// The stored dataset the benchmark reads, if any.
    fn dataset(&self) -> Option<(DatasetFamily, &DatasetId)> {
        None
    }
    /// How the request reads in results files.
    fn describe(&self) -> Description;
    /// The software library the request asks for instead of the platform's module, if any.
    fn software(&self) -> Option<crate::SoftwareLibrary> {
        None
    }
    /// The platform module (a block of the chip) the request drives, if any: `None` for
    /// software and for the CPU itself. A model of the chip without that block cannot serve it.
    fn accelerator(&self) -> Option<crate::Module> {
        None
    }
    /// Range checks, explained for a person writing a `.bench` file; the wire decoder
    /// enforces the same limits. Repetitions are checked for every kind by
    /// [`crate::Benchmark::check`].
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
    /// Works out on the host what the suite checks the output against when the request
    /// describes its input instead of naming a stored dataset (a generated message's digest);
    /// says what is wrong with the description.
    #[cfg(feature = "std")]
    fn complete(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// Whether a result of this shape can answer this request: the host records nothing that
    /// does not fit.
    fn accepts(&self, phases: &Phases) -> bool;
    /// Appends the request's tokens after `B TAG`, each preceded by a space.
    fn encode(&self, out: &mut String);
    /// Reads the tokens after `B TAG`; range checks belong here, so the suite only sees
    /// requests it can serve. The caller rejects trailing tokens.
    fn decode(tokens: &mut Tokens<'_>) -> Result<Self, WireError>;
}

/// A result shape: the phases one benchmark result carries, and their wire form.
pub trait Shape: Sized {
    /// Wire tag after the measured header (`hash`, `aesb`).
    const TAG: &'static str;

    /// Every phase in execution order, with the number of measurement windows it sums.
    fn named(&self) -> Vec<NamedPhase>;
    /// Facts beside the phases for results files (stack use, FIFO depth).
    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::new()
    }
    /// Appends the shape's tokens after its tag, each preceded by a space.
    fn encode(&self, out: &mut String);
    /// Reads the tokens after the tag. The caller rejects trailing tokens.
    fn decode(tokens: &mut Tokens<'_>) -> Result<Self, WireError>;
}
