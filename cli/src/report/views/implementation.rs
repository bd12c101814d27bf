//! Implementations from outside the tree (`run --impl`), each beside what the same run
//! measured of the same algorithm on the same platform and the same number of bytes: the
//! chip's accelerator and the suite's software for a hash (HMAC and RustCrypto for SHA-256),
//! the suite's own primitives for AES and ChaCha20, and the other implementations from outside
//! the tree. The ratio is the other's cycles over this one's: above 1, this one is faster.

use serde::Serialize;
use serde_json::Value;

use super::section::{demangle, Section, Templates, View};
use crate::results::Record;
use cyclebench_protocol::{BenchmarkKind, ImplementationKind, Module, Primitive, IMPL_ALGORITHMS, IMPL_FIELD};

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

/// What `other` is, if it measured the algorithm `reference` on `bytes` bytes.
fn same_algorithm(reference: &str, bytes: Option<u64>, other: &Record) -> Option<String> {
    let kind = other.benchmark_kind()?;
    let module = |m: Module| other.module.as_deref() == Some(m.name());
    let primitive = text(other, "primitive").as_deref().and_then(Primitive::from_name);
    let implementation = || {
        let name = other.implementation_name.clone().unwrap_or_default();
        match other.implementation {
            Some(ImplementationKind::Hardware) => format!("{name} (hardware)"),
            Some(ImplementationKind::Software) => format!("{name} (software)"),
            None => name,
        }
    };
    let variant = || text(other, "variant").unwrap_or_default();
    if kind == BenchmarkKind::Implementation {
        return (text(other, "reference").as_deref() == Some(reference) && other.bytes == bytes)
            .then(|| text(other, IMPL_FIELD).unwrap_or_default());
    }
    // The algorithms in the protocol's order: SHA-256, SHA3-256, AES-128, AES-256, ChaCha20.
    let algorithm = IMPL_ALGORITHMS.iter().position(|a| *a == reference)?;
    let named = |p: Primitive| format!("{} {}", p.name(), variant());
    match (algorithm, kind) {
        (0, BenchmarkKind::Hash) if module(Module::Sha2) => (other.bytes == bytes).then(implementation),
        (1, BenchmarkKind::Hash) if module(Module::Sha3) => (other.bytes == bytes).then(implementation),
        (2, BenchmarkKind::Software) if primitive == Some(Primitive::AesTableEncrypt) => {
            Some(named(Primitive::AesTableEncrypt))
        }
        (3, BenchmarkKind::Software) if primitive == Some(Primitive::AesTable256Encrypt) => {
            Some(named(Primitive::AesTable256Encrypt))
        }
        (4, BenchmarkKind::Software) if primitive == Some(Primitive::Chacha20) => {
            (other.bytes == bytes).then(|| named(Primitive::Chacha20))
        }
        _ => None,
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
                    interface: text(r, "interface").unwrap_or_default(),
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
