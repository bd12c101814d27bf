//! Holds `docs/results-format.md` to the writer: every field of the records the record builder
//! makes of every shipped request with every shape of result, every `results.csv` column and
//! every field of `run.json` must be named in the document.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cyclebench_protocol::{
    json_names, AesPerBlockPhases, AesTotalPhases, BenchmarkResults, Check, ClassTiming, Cycles, FifoTrace,
    GeneratePhases, HashPhases, Hello, ImplPhases, Implementation, ImplementationKind, LeakagePhases, Measured,
    MicroPhases, Module, ModuleInfo, OffloadPhases, Phases, PubkeyPhases, Reply, Request, RngPhases, SoftwarePhases,
    IMPL_FIELD, LEAK_CROPS, LEAK_TESTS, LEAK_T_UNBOUNDED, OFFLOAD_PHASES, PROTOCOL_VERSION,
};
use serde_json::Value;

use super::document::{unmentioned, Document};
use crate::bench_file::{self, Action, Line, SweepPoint};
use crate::implementation::{self, Facts};
use crate::results::{self, Record, RecordContext, ResultsWriter, Status};
use crate::run::Meta;

const DOCUMENT: &str = "docs/results-format.md";

/// Cycles that differ between repetitions, so that a record carries statistics.
fn spread(median: u64) -> Cycles {
    Cycles {
        min: median - 1,
        median,
        max: median + 1,
        mean_x100: median * 100,
    }
}

/// One result of every shape, with every optional part present.
fn shapes() -> Vec<Phases> {
    let c = spread(100);
    let class = ClassTiming {
        count: 10,
        min: 7,
        max: 7,
        sum: 70,
        sum_squares: 490,
    };
    vec![
        Phases::Hash(HashPhases {
            init: c,
            input: c,
            await_digest: c,
            read_digest: c,
            fifo: Some(FifoTrace {
                max_depth: 3,
                full_waits: 1,
            }),
        }),
        Phases::AesTotal(AesTotalPhases {
            init: c,
            process: c,
            deinit: c,
            blocks: 4,
        }),
        Phases::AesPerBlock(AesPerBlockPhases {
            init: c,
            write: c,
            compute: c,
            read: c,
            deinit: c,
            blocks: 4,
        }),
        Phases::Rng(RngPhases {
            init: c,
            generates: vec![GeneratePhases { generate: c, read: c }],
        }),
        Phases::Micro(MicroPhases {
            empty: c,
            nop: c,
            nop10: c,
            add10: c,
            load10: c,
            store10: c,
            mul10: c,
            div: c,
            loop10: c,
        }),
        Phases::Software(SoftwarePhases {
            run: c,
            stack_bytes: 64,
            entry: 0x100,
        }),
        // Two constant classes of different times: |t| unbounded, and said why.
        Phases::Leakage(LeakagePhases {
            class0: class,
            class1: ClassTiming {
                min: 9,
                max: 9,
                sum: 90,
                sum_squares: 810,
                ..class
            },
            abs_t_x100: [LEAK_T_UNBOUNDED; LEAK_TESTS],
            thresholds: [9; LEAK_CROPS],
            entry: 0x100,
        }),
        Phases::Offload(OffloadPhases {
            host_submit: c,
            mailbox: c,
            payload: c,
            operation: c,
            result_copy: c,
            handover: c,
            completion: c,
            host_drain: c,
            software: c,
            software_reused: true,
            fastest_software: Some(c),
            windows: [1; OFFLOAD_PHASES],
            handovers: 1,
            window_overhead: 1,
            host_memory_address: 0x1000,
            spm_address: 0x2000,
            mailbox_address: 0x3000,
        }),
        Phases::Pubkey(PubkeyPhases {
            load: c,
            input: c,
            compute: c,
            output: c,
            cleanup: c,
            imem_words: 700,
            dmem_words: 70,
            accepted: Some(true),
        }),
        Phases::Implementation(ImplPhases {
            interface: String::from("block-cipher"),
            reference: Some(String::from("aes-128")),
            vectors: 2,
            stack_bytes: 64,
            entry: 0x100,
            setup: Some(c),
            run: c,
        }),
    ]
}

fn hello() -> Hello {
    Hello {
        protocol_version: PROTOCOL_VERSION,
        platform: String::from("earlgrey"),
        cpu_hz: 1_000_000,
        cycle_accurate: true,
        overhead: 1,
        max_message: 16384,
        modules: Module::ALL
            .iter()
            .map(|&module| ModuleInfo {
                module,
                implementation: Implementation::Hardware(String::from("block")),
            })
            .collect(),
    }
}

/// The facts of an implementation from outside the tree called `name`.
fn facts(name: &str) -> Facts {
    Facts {
        name: name.to_owned(),
        language: String::from("c"),
        interface: String::from(cyclebench_protocol::IMPL_INTERFACES[0]),
        compiler: String::from("clang 14"),
        flags: String::from("-O2"),
        folder: PathBuf::from(name),
    }
}

/// Every request of the shipped sets and examples, each with its place in its sweep.
fn shipped_requests() -> Vec<(Request, Option<SweepPoint>)> {
    let root = crate::firmware::repo_root();
    let mut dirs = vec![root.join("benchmarks"), root.join("examples")];
    let mut requests = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "bench") {
                requests.extend(requests_of(&path));
            }
        }
    }
    requests
}

fn requests_of(path: &Path) -> Vec<(Request, Option<SweepPoint>)> {
    let lines = bench_file::read(path).expect("readable").expand();
    lines
        .into_iter()
        .filter_map(|line| match line {
            Line::Action {
                action: Action::Request(request),
                sweep,
                ..
            } => Some((request, sweep)),
            _ => None,
        })
        .collect()
}

/// The records the tool writes of `request` answered with each shape, as JSON.
fn records_of(request: &Request, sweep: Option<&SweepPoint>, hello: &Hello) -> Vec<Value> {
    let context = RecordContext {
        target: "earlgrey-sim-unmasked",
        hello: Some(hello),
        file: "benchmarks/x.bench",
        line: 1,
        text: "{}",
        revision: "0123456789ab",
        symbols: None,
    };
    shapes()
        .into_iter()
        .map(|phases| {
            let reply = Reply::BenchmarkResults(BenchmarkResults::Measured(Measured {
                implementation: ImplementationKind::Hardware,
                check: Check::KnownAnswer,
                overhead: 1,
                repetitions: 3,
                phases,
            }));
            let mut record = Record::reply(&context, Some(request), &reply);
            // As the run adds them: the place of a swept request, how an implementation was built.
            if let Some(point) = sweep {
                record.details.insert(String::from(results::SWEEP), point.to_json());
            }
            if let Some(name) = record.text(IMPL_FIELD).map(str::to_owned) {
                implementation::describe(&mut record, &[facts(&name)]);
            }
            // What built the image.
            crate::run::meta::Build {
                rustc: Some(String::from("rustc 1.95.0 (59807616e 2026-04-14)")),
                clang: Some(String::from("Debian clang version 14.0.6")),
                image_sha256: Some(String::from("0123")),
            }
            .stamp(&mut record);
            // And on an image with layout padding, or a line with placements.
            record.details.insert(String::from(results::LAYOUT_PAD), 1234.into());
            let cycles = [Some(10), None];
            let failed = [String::from("+2 B: lost")];
            let spread = crate::run::placements::spread("total_cycles", &cycles, &failed);
            record.details.insert(String::from(results::PLACEMENTS), spread);
            serde_json::to_value(&record).expect("a record serialises")
        })
        .collect()
}

/// The keys of a JSON object.
fn keys(value: &Value) -> impl Iterator<Item = String> + '_ {
    value.as_object().into_iter().flat_map(|o| o.keys().cloned())
}

/// Every field a record can carry: its own, its kind's, its statistics' and its sweep's.
fn record_fields() -> BTreeSet<String> {
    let hello = hello();
    let requests = shipped_requests();
    let mut fields = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for (request, sweep) in &requests {
        if let Request::Benchmark(b) = request {
            kinds.insert(b.kind());
        }
        for record in records_of(request, sweep.as_ref(), &hello) {
            fields.extend(keys(&record));
            for stat in record["statistics"].as_object().into_iter().flat_map(|s| s.values()) {
                fields.extend(keys(stat));
            }
            fields.extend(keys(&record[results::SWEEP]));
            fields.extend(keys(&record[results::PLACEMENTS]));
            fields.extend(keys(&crate::run::placements::spread("total_cycles", &[Some(10)], &[])));
        }
    }
    // A record of a line that is no request, and of a control request.
    let error = Record::error(
        &RecordContext {
            target: "qemu-virt",
            hello: None,
            file: "x.bench",
            line: 1,
            text: "nonsense",
            revision: "0123456789ab",
            symbols: None,
        },
        None,
        String::from("not JSON"),
    );
    fields.extend(keys(&serde_json::to_value(&error).expect("a record serialises")));
    assert_eq!(
        kinds.len(),
        cyclebench_protocol::BenchmarkKind::ALL.len(),
        "the shipped sets and examples no longer hold every kind: {kinds:?}"
    );
    fields
}

#[test]
fn every_shape_of_result_has_a_sample() {
    let tags: BTreeSet<&str> = shapes().iter().map(Phases::tag).collect();
    assert_eq!(tags, Phases::TAGS.iter().copied().collect());
}

#[test]
fn every_record_field_and_value_is_in_the_document() {
    let doc = Document::read(DOCUMENT);
    let fields = record_fields();
    assert!(fields.len() > 80, "only {} fields: {fields:?}", fields.len());
    let values = [
        json_names::<Status>(),
        json_names::<Check>(),
        json_names::<ImplementationKind>(),
    ];
    let names = fields
        .iter()
        .map(String::as_str)
        .chain(values.into_iter().flatten().copied());
    let missing = unmentioned(doc.text(), names);
    assert!(missing.is_empty(), "{} does not name {missing:?}", doc.path);
}

#[test]
fn every_csv_column_is_in_the_document() {
    let doc = Document::read(DOCUMENT);
    let dir = tempfile::tempdir().expect("a temporary directory");
    drop(ResultsWriter::create(dir.path()).expect("the results files"));
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).expect("results.csv");
    let header = csv.lines().next().expect("a header row");
    let section = doc.section("`results.csv`").expect("a section on results.csv");
    let missing = unmentioned(section, header.split(','));
    assert!(missing.is_empty(), "{} does not name the columns {missing:?}", doc.path);
}

#[test]
fn every_field_of_run_json_is_in_the_document() {
    let doc = Document::read(DOCUMENT);
    let mut meta: Meta = serde_json::from_value(serde_json::json!({
        "target": "earlgrey-sim-unmasked",
        "files": ["a.bench"],
        "inputs": ["0"],
        "shard": {"index": 0, "count": 2},
        "merged_from": ["shards/0"],
    }))
    .expect("a run.json");
    meta.hello = Some(hello());
    meta.implementations = vec![facts("mine")];
    meta.layout_pad = 1234;
    let json = serde_json::to_value(&meta).expect("run.json serialises");
    let mut fields: BTreeSet<String> = keys(&json).collect();
    fields.extend(keys(&json["shard"]));
    fields.extend(keys(&json["implementations"][0]));
    fields.extend(keys(&json["hello"]));
    fields.extend(keys(&json["hello"]["modules"][0]));
    let section = doc.section("`run.json`").expect("a section on run.json");
    let missing = unmentioned(section, fields.iter().map(String::as_str));
    assert!(missing.is_empty(), "{} does not name {missing:?} of run.json", doc.path);
}
