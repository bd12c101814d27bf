//! An implementation from outside the tree (`cyclebench run --impl DIR`), behind one of the
//! fixed interfaces (hash, block cipher, stream cipher, function): one timed call, with the key
//! schedule timed apart where the interface has one. Before the first call the suite checks
//! the implementation against every known-answer vector of its folder; every timed output is
//! checked against the suite's reference of the algorithm the implementation declares, or is
//! one of those vectors. An implementation with neither is measured and marked unverified.
//!
//! Wire: `B impl NAME [lLENGTH] [xREPS]`; result
//! `impl INTERFACE REFERENCE VECTORS STACK_BYTES ENTRY RUN [SETUP]`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kind::{Description, Field, Kind, PhaseCategory, PhaseSpec, Shape};
use crate::wire::{self, Options, Tokens, WireError};
use crate::{Algorithm, Cycles, Interface, NamedPhase, Phases, MAX_SOFTWARE_BYTES};

/// The result field that names an implementation from outside the tree (in `impl` and
/// leakage records).
pub const IMPL_FIELD: &str = "impl";

/// The result field that names an implementation's interface (in `impl` records, and given to
/// the leakage records of an implementation by the host).
pub const INTERFACE_FIELD: &str = "interface";

/// Longest implementation name.
pub const MAX_IMPL_NAME: usize = 32;

/// Whether `name` can name an implementation: 1 to [`MAX_IMPL_NAME`] lowercase ASCII letters,
/// digits and `-`, starting with a letter or digit (it is a wire token and part of file names).
pub fn valid_impl_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_IMPL_NAME
        && bytes[0] != b'-'
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
}

/// One timed call of an implementation from outside the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ImplBenchmark {
    /// The implementation's name, as its `impl.toml` gives it.
    pub name: String,
    /// Bytes of input (hash, stream, function); absent for a block cipher, which encrypts
    /// one block, and for the first of the folder's vectors.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub length: Option<u32>,
    /// Repetitions (default 1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub repetitions: Option<u16>,
}

impl Kind for ImplBenchmark {
    const NAME: &'static str = "impl";
    const TAG: &'static str = "impl";
    const PHASES: &'static [PhaseSpec] = &[
        PhaseSpec::once("setup", PhaseCategory::Initialisation),
        PhaseSpec::once("run", PhaseCategory::Computation),
    ];

    fn repetitions(&self) -> Option<u16> {
        self.repetitions
    }

    fn describe(&self) -> Description {
        let mut config = self.name.clone();
        if let Some(n) = self.length {
            config.push_str(&format!(" {n} B"));
        }
        Description {
            module: None,
            config,
            bytes: self.length.map(u64::from),
            fields: Vec::from([(IMPL_FIELD, Field::Text(self.name.clone()))]),
        }
    }

    fn check(&self) -> Result<(), String> {
        if !valid_impl_name(&self.name) {
            return Err(format!(
                "the implementation's name must be 1 to {MAX_IMPL_NAME} lowercase letters, digits and '-', \
                 got \"{}\"",
                self.name
            ));
        }
        match self.length {
            Some(n) if n > MAX_SOFTWARE_BYTES => {
                Err(format!("\"length\" must be 0 to {MAX_SOFTWARE_BYTES} bytes, got {n}"))
            }
            _ => Ok(()),
        }
    }

    fn accepts(&self, phases: &Phases) -> bool {
        matches!(phases, Phases::Implementation(_))
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, &self.name);
        Options {
            length: self.length,
            repetitions: self.repetitions,
            ..Options::default()
        }
        .encode(out);
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let name = t.next("implementation name")?;
        if !valid_impl_name(name) {
            return Err(WireError::Malformed("implementation name"));
        }
        let o = Options::decode(t, "lx")?;
        let request = Self {
            name: String::from(name),
            length: o.length,
            repetitions: o.repetitions,
        };
        request
            .check()
            .map_err(|_| WireError::Malformed("length out of range"))?;
        Ok(request)
    }
}

/// Phases of an implementation's call, and how its output was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct ImplPhases {
    /// The interface it provides.
    pub interface: Interface,
    /// The algorithm the suite checked every output against, if it declares one.
    pub reference: Option<Algorithm>,
    /// How many of the folder's own known-answer vectors it passed before it was timed.
    pub vectors: u32,
    /// Deepest stack use of the call, in bytes (measured by painting the stack).
    pub stack_bytes: u32,
    /// Address of the function timed, for the host's code-size lookup.
    pub entry: u32,
    /// The key schedule (block ciphers only).
    pub setup: Option<Cycles>,
    /// The call.
    pub run: Cycles,
}

impl Shape for ImplPhases {
    const TAG: &'static str = "impl";

    fn named(&self) -> Vec<NamedPhase> {
        match self.setup {
            Some(setup) => NamedPhase::once(&[("setup", setup), ("run", self.run)]),
            None => NamedPhase::once(&[("run", self.run)]),
        }
    }

    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::from([
            (INTERFACE_FIELD, Field::Text(String::from(self.interface.name()))),
            (
                "reference",
                self.reference
                    .map_or(Field::Null, |r| Field::Text(String::from(r.name()))),
            ),
            ("vectors_checked", Field::Number(u64::from(self.vectors))),
            ("stack_bytes", Field::Number(u64::from(self.stack_bytes))),
            ("entry", Field::Number(u64::from(self.entry))),
        ])
    }

    fn encode(&self, out: &mut String) {
        wire::push(out, self.interface.name());
        wire::push(out, self.reference.map_or("-", Algorithm::name));
        wire::push_number(out, self.vectors);
        wire::push_number(out, self.stack_bytes);
        wire::push_number(out, self.entry);
        wire::encode_cycles(out, &self.run);
        if let Some(setup) = &self.setup {
            wire::encode_cycles(out, setup);
        }
    }

    fn decode(t: &mut Tokens<'_>) -> Result<Self, WireError> {
        let interface = Interface::from_name(t.next("interface")?).ok_or(WireError::Malformed("interface"))?;
        let reference = match t.next("reference")? {
            "-" => None,
            name => Some(Algorithm::from_name(name).ok_or(WireError::Malformed("reference"))?),
        };
        let vectors = t.number("vectors")?;
        let stack_bytes = t.number("stack bytes")?;
        let entry = t.number("entry address")?;
        let run = t.cycles()?;
        let setup = match t.optional()? {
            Some(token) => Some(wire::decode_cycles(token)?),
            None => None,
        };
        Ok(Self {
            interface,
            reference,
            vectors,
            stack_bytes,
            entry,
            setup,
            run,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_tokens_and_file_names() {
        assert!(valid_impl_name("sha256-c"));
        assert!(valid_impl_name("x"));
        for bad in ["", "-x", "Sha", "a b", "a_b", "a.b", &"a".repeat(MAX_IMPL_NAME + 1)] {
            assert!(!valid_impl_name(bad), "{bad}");
        }
    }

    #[test]
    fn a_long_length_is_refused_with_its_range() {
        let b = ImplBenchmark {
            name: String::from("mine"),
            length: Some(MAX_SOFTWARE_BYTES + 1),
            repetitions: None,
        };
        assert!(b.check().unwrap_err().contains("0 to 4096"));
    }
}
