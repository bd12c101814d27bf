//! Holds `docs/bench-format.md` to the parser: every kind has its section, naming every option
//! the kind's request reads and every value of the options whose values the protocol lists;
//! every control request and form of line is named, with the limits the tool enforces.

use cyclebench_protocol::{
    json_names, Addressing, BenchmarkKind, CipherMode, Direction, Granularity, HashAlgorithm, HashStyle, LeakOperation,
    LeakVariant, OffloadDesign, OffloadOperation, OutsideProgram, Primitive, PubkeyOperation, Request, Secret,
    SoftwareLibrary, SoftwareVariant, Trigger, Verdict, MAX_REPETITIONS, SOFTWARE_FIELD,
};

use super::document::{unmentioned, Document};
use crate::bench_file::{self, SWEEP_REQUESTS_WITHOUT_YES};
use crate::firmware::layout::MAX_PLACEMENTS;

const DOCUMENT: &str = "docs/bench-format.md";

/// The options of `kind` whose values the tool has a list of, with that list. A new kind does
/// not compile here until its lists are named.
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
    }
}

#[test]
fn every_kind_option_and_listed_value_is_in_the_document() {
    let doc = Document::read(DOCUMENT);
    let mut gaps = Vec::new();
    for &kind in BenchmarkKind::ALL {
        let title = format!("`{}`", kind.name());
        let Some(section) = doc.section(&title) else {
            gaps.push(format!("no section \"## {title}\""));
            continue;
        };
        for option in unmentioned(section, kind.options().iter().copied()) {
            gaps.push(format!("{title}: option `{option}`"));
        }
        for (option, values) in listed_values(kind) {
            assert!(kind.options().contains(&option), "{title} has no option {option}");
            for value in unmentioned(section, values) {
                gaps.push(format!("{title}: value `{value}` of `{option}`"));
            }
        }
    }
    assert!(
        gaps.is_empty(),
        "{} lacks what the tool accepts:\n  {}",
        doc.path,
        gaps.join("\n  ")
    );
}

#[test]
fn every_form_of_line_and_its_limits_are_in_the_document() {
    let doc = Document::read(DOCUMENT);
    let quoted: Vec<String> = Request::control_names().iter().map(|n| format!("\"{n}\"")).collect();
    let forms = quoted.iter().map(String::as_str).chain([
        "raw_line",
        Request::BENCHMARK,
        "repetitions",
        bench_file::PLACEMENTS_FIELD,
    ]);
    let missing = unmentioned(doc.text(), forms);
    assert!(missing.is_empty(), "{} does not name {missing:?}", doc.path);
    // Sentences wrap: a limit is looked for in the text as one line.
    let flowing = doc.text().replace('\n', " ");
    for limit in [
        format!("at most {SWEEP_REQUESTS_WITHOUT_YES} requests"),
        format!("1 to {MAX_REPETITIONS}"),
        format!("`\"{}\": N` (1 to {MAX_PLACEMENTS})", bench_file::PLACEMENTS_FIELD),
    ] {
        assert!(flowing.contains(&limit), "{} does not state {limit:?}", doc.path);
    }
}
