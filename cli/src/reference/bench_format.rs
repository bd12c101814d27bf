//! What `docs/bench-format.md` must name, from the parser's own lists: every kind with the
//! options its request reads and the values of the options whose values the protocol lists,
//! every control request and form of line, and the limits the tool enforces.
//! `cyclebench reference bench-format` prints it as JSON, and `cli/tests/reference_docs.rs`
//! holds the document to it.

use cyclebench_protocol::{
    json_names, Addressing, BenchmarkKind, CipherMode, Direction, Granularity, HashAlgorithm, HashStyle, LeakOperation,
    LeakVariant, OffloadDesign, OffloadOperation, OutsideProgram, Primitive, PubkeyOperation, Request, Secret,
    SoftwareLibrary, SoftwareVariant, Trigger, Verdict, MAX_REPETITIONS, SOFTWARE_FIELD,
};
use serde::Serialize;

use crate::bench_file::{self, SWEEP_REQUESTS_WITHOUT_YES};
use crate::firmware::layout::MAX_PLACEMENTS;

/// What the document must name.
#[derive(Debug, Serialize)]
pub struct Names {
    /// Every kind, in the protocol's order: each has a section `` ## `kind` ``.
    pub kinds: Vec<KindNames>,
    /// Every form of line, as the document names it in code: the control requests (quoted as
    /// a line writes them), a raw line, a benchmark, repetitions and placements.
    pub forms: Vec<String>,
    /// The limits the tool enforces, which the document states.
    pub limits: Limits,
}

/// What the section of one kind must name.
#[derive(Debug, Serialize)]
pub struct KindNames {
    /// The kind's name, its section's title.
    pub name: &'static str,
    /// Every option its request reads.
    pub options: Vec<&'static str>,
    /// The options whose values the tool has a list of, each with that list.
    pub listed: Vec<Listed>,
}

/// An option whose values the tool lists.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// The option.
    pub option: &'static str,
    /// Every value it takes.
    pub values: Vec<&'static str>,
}

/// The limits of a `.bench` file.
#[derive(Debug, Serialize)]
pub struct Limits {
    /// Requests a sweep may expand to without `"yes": true`.
    pub sweep_requests_without_yes: usize,
    /// The most repetitions a request may ask for.
    pub max_repetitions: u16,
    /// The field that asks for a line to be measured at several placements.
    pub placements_field: &'static str,
    /// The most placements a line may ask for.
    pub max_placements: u32,
}

/// What `docs/bench-format.md` must name.
pub fn names() -> Names {
    let kinds = BenchmarkKind::ALL
        .iter()
        .map(|&kind| KindNames {
            name: kind.name(),
            options: kind.options().to_vec(),
            listed: listed_values(kind)
                .into_iter()
                .map(|(option, values)| Listed { option, values })
                .collect(),
        })
        .collect();
    let quoted = Request::control_names().into_iter().map(|n| format!("\"{n}\""));
    let forms = quoted
        .chain(
            [
                "raw_line",
                Request::BENCHMARK,
                "repetitions",
                bench_file::PLACEMENTS_FIELD,
            ]
            .map(String::from),
        )
        .collect();
    Names {
        kinds,
        forms,
        limits: Limits {
            sweep_requests_without_yes: SWEEP_REQUESTS_WITHOUT_YES,
            max_repetitions: MAX_REPETITIONS,
            placements_field: bench_file::PLACEMENTS_FIELD,
            max_placements: MAX_PLACEMENTS,
        },
    }
}

/// The options of `kind` whose values the tool has a list of, with that list.
fn listed_values(kind: BenchmarkKind) -> Vec<(&'static str, Vec<&'static str>)> {
    let ids = |datasets: &mut dyn Iterator<Item = &'static str>| datasets.collect::<Vec<_>>();
    let software = (SOFTWARE_FIELD, json_names::<SoftwareLibrary>().to_vec());
    match kind {
        BenchmarkKind::Hash => vec![
            ("algorithm", json_names::<HashAlgorithm>().to_vec()),
            ("style", json_names::<HashStyle>().to_vec()),
            ("dataset", ids(&mut cyclebench_datasets::HASH.iter().map(|d| d.id))),
            software,
        ],
        BenchmarkKind::Aes => vec![
            ("mode", json_names::<CipherMode>().to_vec()),
            ("direction", json_names::<Direction>().to_vec()),
            ("granularity", json_names::<Granularity>().to_vec()),
            ("trigger", json_names::<Trigger>().to_vec()),
            ("dataset", ids(&mut cyclebench_datasets::AES.iter().map(|d| d.id))),
            software,
        ],
        BenchmarkKind::RngSeeded => vec![("dataset", ids(&mut cyclebench_datasets::RNG.iter().map(|d| d.id)))],
        BenchmarkKind::Software => vec![
            ("primitive", Primitive::ALL.iter().map(|p| p.name()).collect()),
            ("variant", json_names::<SoftwareVariant>().to_vec()),
        ],
        BenchmarkKind::Leakage => vec![
            ("operation", LeakOperation::all().map(LeakOperation::name).collect()),
            ("variant", LeakVariant::all().map(LeakVariant::name).collect()),
            ("secret", json_names::<Secret>().to_vec()),
        ],
        BenchmarkKind::Offload => vec![
            ("operation", json_names::<OffloadOperation>().to_vec()),
            ("addressing", json_names::<Addressing>().to_vec()),
            ("design", json_names::<OffloadDesign>().to_vec()),
        ],
        BenchmarkKind::Pubkey => vec![
            ("operation", json_names::<PubkeyOperation>().to_vec()),
            ("expected", json_names::<Verdict>().to_vec()),
            ("unverifiable", json_names::<OutsideProgram>().to_vec()),
        ],
        BenchmarkKind::RngTrueRandom | BenchmarkKind::Micro | BenchmarkKind::Implementation => Vec::new(),
        // A kind added by the recipe of docs/extending.md, which touches no file here: it has
        // no listed values until it is named above, and the document check holds its options
        // by name.
        #[allow(unreachable_patterns)]
        _ => Vec::new(),
    }
}
