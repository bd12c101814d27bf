//! Implementations from outside the tree (`run --impl`), each beside what the same run
//! measured of the same algorithm on the same platform and the same number of bytes: the
//! chip's accelerator and the suite's software for a hash (HMAC and RustCrypto for SHA-256),
//! the suite's own primitives for AES and ChaCha20, and the other implementations from outside
//! the tree. The ratio is the other's cycles over this one's: above 1, this one is faster.

use serde::Serialize;
use serde_json::Value;

use super::section::{demangle, Section, Templates, View};
use crate::results::Record;
use cyclebench_protocol::{
    Algorithm, BenchmarkKind, ImplementationKind, Module, Primitive, IMPL_FIELD, INTERFACE_FIELD,
};

/// The view of implementations from outside the tree.
pub struct Outside;

/// One implementation's record.
#[derive(Clone, Debug, Serialize)]
struct Row {
    location: String,
    name: String,
    interface: String,
    /// The algorithm every output was checked against, if any.
    reference: Option<String>,
    /// `known_answer` or `unverified`.
    check: String,
    language: Option<String>,
    compiler: Option<String>,
    flags: Option<String>,
    bytes: Option<u64>,
    setup: Option<u64>,
    run: Option<u64>,
    total: Option<u64>,
    cycles_per_byte: Option<f64>,
    stack_bytes: Option<u64>,
    code_bytes: Option<u64>,
    code_symbol: Option<String>,
    /// What it is set against.
    beside: Vec<Beside>,
}

/// A record of the same algorithm and size.
#[derive(Clone, Debug, Serialize)]
struct Beside {
    location: String,
    /// What it is (`hmac (hardware)`, `aes-table rv32i`, another implementation's name).
    what: String,
    total: u64,
    /// Its cycles over this one's.
    ratio: f64,
}

/// How one implementation was built.
#[derive(Clone, Debug, Serialize, PartialEq)]
struct Build {
    name: String,
    language: Option<String>,
    compiler: Option<String>,
    flags: Option<String>,
}

#[derive(Serialize)]
struct Body {
    rows: Vec<Row>,
    builds: Vec<Build>,
}

fn text(r: &Record, field: &str) -> Option<String> {
    r.details.get(field).and_then(Value::as_str).map(str::to_owned)
}

fn number(r: &Record, field: &str) -> Option<u64> {
    r.details.get(field).and_then(Value::as_u64)
}

/// What the suite measures of an algorithm, beside an implementation of it.
enum Counterpart {
    /// A `hash` record of this module, accelerator or software, on as many bytes.
    Hash(Module),
    /// A `software` record of this primitive; `per_byte`: on as many bytes (one block's
    /// encryption has no length).
    Primitive { primitive: Primitive, per_byte: bool },
}

/// What the suite measures of `algorithm`.
fn counterpart(algorithm: Algorithm) -> Counterpart {
    match algorithm {
        Algorithm::Sha256 => Counterpart::Hash(Module::Sha2),
        Algorithm::Sha3_256 => Counterpart::Hash(Module::Sha3),
        Algorithm::Aes128 => Counterpart::Primitive {
            primitive: Primitive::AesTableEncrypt,
            per_byte: false,
        },
        Algorithm::Aes256 => Counterpart::Primitive {
            primitive: Primitive::AesTable256Encrypt,
            per_byte: false,
        },
        Algorithm::Chacha20 => Counterpart::Primitive {
            primitive: Primitive::Chacha20,
            per_byte: true,
        },
    }
}

/// What `other` is, if it measured the algorithm `reference` on `bytes` bytes.
fn same_algorithm(reference: &str, bytes: Option<u64>, other: &Record) -> Option<String> {
    let kind = other.benchmark_kind()?;
    let implementation = || {
        let name = other.implementation_name.clone().unwrap_or_default();
        match other.implementation {
            Some(ImplementationKind::Hardware) => format!("{name} (hardware)"),
            Some(ImplementationKind::Software) => format!("{name} (software)"),
            None => name,
        }
    };
    if kind == BenchmarkKind::Implementation {
        return (text(other, "reference").as_deref() == Some(reference) && other.bytes == bytes)
            .then(|| text(other, IMPL_FIELD).unwrap_or_default());
    }
    match counterpart(Algorithm::from_name(reference)?) {
        Counterpart::Hash(module) => {
            (kind == BenchmarkKind::Hash && other.module.as_deref() == Some(module.name()) && other.bytes == bytes)
                .then(implementation)
        }
        Counterpart::Primitive { primitive, per_byte } => (kind == BenchmarkKind::Software
            && text(other, "primitive").as_deref().and_then(Primitive::from_name) == Some(primitive)
            && (!per_byte || other.bytes == bytes))
            .then(|| format!("{} {}", primitive.name(), text(other, "variant").unwrap_or_default())),
    }
}

impl View for Outside {
    fn templates(&self) -> Templates {
        Templates {
            markdown: include_str!("implementation.md.j2"),
            html: include_str!("implementation.html.j2"),
        }
    }

    fn section(&self, records: &[&Record], measured: &[&Record]) -> Option<Section> {
        let rows: Vec<Row> = records
            .iter()
            .map(|r| {
                let reference = text(r, "reference");
                let total = r.total_cycles;
                // A block cipher's key schedule is set apart: the suite's primitives time one
                // block's encryption alone.
                let run = r.phases.get("run").copied();
                let compared = run.or(total);
                let beside = match (&reference, compared) {
                    (Some(reference), Some(own)) if own > 0 => measured
                        .iter()
                        .filter(|o| !std::ptr::eq(**o, *r) && o.platform == r.platform)
                        .filter_map(|o| {
                            let what = same_algorithm(reference, r.bytes, o)?;
                            let other = o.total_cycles?;
                            Some(Beside {
                                location: o.location(),
                                what,
                                total: other,
                                ratio: other as f64 / own as f64,
                            })
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                Row {
                    location: r.location(),
                    name: text(r, IMPL_FIELD).unwrap_or_default(),
                    interface: text(r, INTERFACE_FIELD).unwrap_or_default(),
                    reference,
                    check: r
                        .check
                        .and_then(|c| serde_json::to_value(c).ok())
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    language: text(r, "impl_language"),
                    compiler: text(r, "impl_compiler"),
                    flags: text(r, "impl_flags"),
                    bytes: r.bytes,
                    setup: r.phases.get("setup").copied(),
                    run,
                    total,
                    cycles_per_byte: r.cycles_per_byte,
                    stack_bytes: number(r, "stack_bytes"),
                    code_bytes: r.code_bytes,
                    code_symbol: r.code_symbol.as_deref().map(demangle),
                    beside,
                }
            })
            .collect();
        let mut builds: Vec<Build> = Vec::new();
        for r in &rows {
            let build = Build {
                name: r.name.clone(),
                language: r.language.clone(),
                compiler: r.compiler.clone(),
                flags: r.flags.clone(),
            };
            if !builds.contains(&build) {
                builds.push(build);
            }
        }
        (!rows.is_empty()).then(|| Section::new(Body { rows, builds }))
    }
}
