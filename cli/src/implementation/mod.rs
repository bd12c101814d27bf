//! Implementations from outside the tree (`cyclebench run --impl DIR`): their folders
//! (`impl.toml`, sources or crate, known-answer vectors), and the image that carries them.

mod compile;
mod generate;
mod image;
mod manifest;
mod vectors;

pub use image::{build, Facts};
pub use manifest::Folder;

use cyclebench_protocol::IMPL_FIELD;
use serde_json::Value;

use crate::results::Record;

/// Adds to the record of a line that names an implementation from outside the tree how that
/// implementation was built: its language, interface, compiler and flags.
pub fn describe(record: &mut Record, implementations: &[Facts]) {
    let Some(name) = record.details.get(IMPL_FIELD).and_then(Value::as_str) else {
        return;
    };
    let Some(facts) = implementations.iter().find(|f| f.name == name) else {
        return;
    };
    for (field, value) in [
        ("impl_language", facts.language.as_str()),
        ("impl_interface", facts.interface.as_str()),
        ("impl_compiler", facts.compiler.as_str()),
        ("impl_flags", facts.flags.as_str()),
    ] {
        record.details.insert(String::from(field), Value::from(value));
    }
}
