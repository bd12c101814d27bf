//! Implementations from outside the tree (`cyclebench run --impl DIR`): their folders
//! (`impl.toml`, sources or crate, known-answer vectors), and the image that carries them.

mod compile;
mod generate;
mod image;
mod manifest;
mod namespace;
mod size;
mod vectors;

pub use image::{build, Facts};
pub use manifest::Folder;
pub use size::sizes;

use cyclebench_protocol::{IMPL_FIELD, INTERFACE_FIELD};
use serde_json::Value;

use crate::results::Record;

/// Adds to the record of a line that names an implementation from outside the tree how that
/// implementation was built: its language, compiler and flags, and its interface where the
/// result does not already say it (a leakage test's).
pub fn describe(record: &mut Record, implementations: &[Facts]) {
    let Some(name) = record.details.get(IMPL_FIELD).and_then(Value::as_str) else {
        return;
    };
    let Some(facts) = implementations.iter().find(|f| f.name == name) else {
        return;
    };
    for (field, value) in [
        ("impl_language", facts.language.as_str()),
        ("impl_compiler", facts.compiler.as_str()),
        ("impl_flags", facts.flags.as_str()),
    ] {
        record.details.insert(String::from(field), Value::from(value));
    }
    record
        .details
        .entry(INTERFACE_FIELD)
        .or_insert_with(|| Value::from(facts.interface.as_str()));
}

#[cfg(test)]
mod tests {
    use cyclebench_protocol::{BenchmarkKind, Interface};

    use super::*;
    use crate::results::parse;

    fn facts() -> Facts {
        Facts {
            name: String::from("mine"),
            language: String::from("c"),
            interface: String::from(Interface::Stream.name()),
            compiler: String::from("clang 14"),
            flags: String::from("-O2"),
            folder: std::path::PathBuf::from("mine"),
        }
    }

    /// A record of `kind` of the implementation `mine`, with the fields `more`.
    fn record(kind: BenchmarkKind, more: &str) -> Record {
        let kind = kind.name();
        parse(&format!(
            r#"{{"status":"ok","benchmark":"{kind}","{IMPL_FIELD}":"mine"{more}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_record_names_the_interface_once() {
        // An `impl` result names its interface itself; the run adds only how it was built.
        let stream = Interface::Stream.name();
        let mut own = record(
            BenchmarkKind::Implementation,
            &format!(r#","{INTERFACE_FIELD}":"{stream}""#),
        );
        describe(&mut own, &[facts()]);
        // A leakage test's result does not: the run adds it.
        let mut leakage = record(BenchmarkKind::Leakage, "");
        describe(&mut leakage, &[facts()]);
        for r in [own, leakage] {
            assert_eq!(r.details[INTERFACE_FIELD], stream, "{r:?}");
            assert_eq!(r.details["impl_language"], "c", "{r:?}");
            assert!(!r.details.contains_key("impl_interface"), "{r:?}");
        }
    }

    #[test]
    fn a_record_written_with_impl_interface_still_reads() {
        let r = record(
            BenchmarkKind::Leakage,
            r#","impl_interface":"stream","impl_language":"c""#,
        );
        assert_eq!(r.details["impl_interface"], "stream");
    }
}
