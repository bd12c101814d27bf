//! What `docs/results-format.md` must name, from the writer itself: every field of the records
//! the record builder makes of every shipped request with every shape of result, every
//! `results.csv` column and every field of `run.json`. `cyclebench reference results-format`
//! prints it as JSON, and `cli/tests/reference_docs.rs` holds the document to it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cyclebench_protocol::{
    json_names, AesPerBlockPhases, AesTotalPhases, Algorithm, BenchmarkResults, Check, ClassTiming, Cycles, FifoTrace,
    GeneratePhases, HashPhases, Hello, ImplPhases, Implementation, ImplementationKind, Interface, LeakagePhases,
    Measured, MicroPhases, Module, ModuleInfo, OffloadPhases, Phases, PubkeyPhases, Reply, Request, RngPhases,
    SoftwarePhases, IMPL_FIELD, LEAK_CROPS, LEAK_TESTS, LEAK_T_UNBOUNDED, OFFLOAD_PHASES, PROTOCOL_VERSION,
};
use serde::Serialize;
use serde_json::Value;

use crate::bench_file::{self, Action, Line, SweepPoint};
use crate::implementation::{self, Facts};
use crate::results::{self, Record, RecordContext, ResultsWriter, Status};
use crate::run::Meta;

/// What the document must name.
#[derive(Debug, Serialize)]
pub struct Names {
    /// Every field a record can carry: its own, its kind's, its statistics', its sweep's and
    /// its placements'.
    pub record_fields: BTreeSet<String>,
    /// The kinds of the shipped requests the record fields were gathered from; a kind missing
    /// here would leave its fields unchecked.
    pub kinds: BTreeSet<&'static str>,
    /// The values of a record's fields that the tool lists: statuses, checks and
    /// implementation kinds.
    pub values: Vec<&'static str>,
    /// The columns of `results.csv`, as the writer writes its header.
    pub csv_columns: Vec<String>,
    /// Every field of `run.json`, its shard's, its implementations', its hello's and its
    /// modules'.
    pub run_json_fields: BTreeSet<String>,
}

/// What `docs/results-format.md` must name.
pub fn names() -> Result<Names> {
    let (record_fields, kinds) = record_fields()?;
    let values = [
        json_names::<Status>(),
        json_names::<Check>(),
        json_names::<ImplementationKind>(),
    ];
    Ok(Names {
        record_fields,
        kinds,
        values: values.into_iter().flatten().copied().collect(),
        csv_columns: csv_columns()?,
        run_json_fields: run_json_fields()?,
    })
}

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
            interface: Interface::BlockCipher,
            reference: Some(Algorithm::Aes128),
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
        interface: String::from(Interface::Hash.name()),
        compiler: String::from("clang 14"),
        flags: String::from("-O2"),
        folder: PathBuf::from(name),
    }
}

/// Every request of the shipped sets and examples, each with its place in its sweep.
fn shipped_requests() -> Result<Vec<(Request, Option<SweepPoint>)>> {
    let root = crate::firmware::repo_root();
    let mut dirs = vec![root.join("benchmarks"), root.join("examples")];
    let mut requests = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "bench") {
                requests.extend(requests_of(&path)?);
            }
        }
    }
    Ok(requests)
}

fn requests_of(path: &Path) -> Result<Vec<(Request, Option<SweepPoint>)>> {
    let lines = bench_file::read(path)?.expand();
    Ok(lines
        .into_iter()
        .filter_map(|line| match line {
            Line::Action {
                action: Action::Request(request),
                sweep,
                ..
            } => Some((request, sweep)),
            _ => None,
        })
        .collect())
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
            // And on a variant of the chip's model.
            record.details.insert(String::from(results::MODEL), "reduced".into());
            let failed = vec![String::from("+2 B: lost")];
            results::Placements::new(results::PlacedField::TotalCycles, 2, vec![Some(10), None], failed)
                .insert_into(&mut record);
            serde_json::to_value(&record).expect("a record serialises")
        })
        .collect()
}

/// The keys of a JSON object.
fn keys(value: &Value) -> impl Iterator<Item = String> + '_ {
    value.as_object().into_iter().flat_map(|o| o.keys().cloned())
}

/// Every field a record can carry: its own, its kind's, its statistics' and its sweep's; and
/// the kinds of the requests they come from, by name.
fn record_fields() -> Result<(BTreeSet<String>, BTreeSet<&'static str>)> {
    let hello = hello();
    let requests = shipped_requests()?;
    let mut fields = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for (request, sweep) in &requests {
        if let Request::Benchmark(b) = request {
            kinds.insert(b.kind().name());
        }
        for record in records_of(request, sweep.as_ref(), &hello) {
            fields.extend(keys(&record));
            for stat in record["statistics"].as_object().into_iter().flat_map(|s| s.values()) {
                fields.extend(keys(stat));
            }
            fields.extend(keys(&record[results::SWEEP]));
            fields.extend(keys(&record[results::PLACEMENTS]));
            let whole = results::Placements::new(results::PlacedField::TotalCycles, 2, vec![Some(10)], vec![]);
            fields.extend(keys(&serde_json::to_value(whole)?));
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
    fields.extend(keys(&serde_json::to_value(&error)?));
    Ok((fields, kinds))
}

/// The columns of `results.csv`: the header the writer writes.
fn csv_columns() -> Result<Vec<String>> {
    let dir = tempfile::tempdir().context("a temporary directory")?;
    drop(ResultsWriter::create(dir.path())?);
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).context("reading results.csv")?;
    let header = csv.lines().next().context("results.csv has no header row")?;
    Ok(header.split(',').map(str::to_owned).collect())
}

/// Every field of a `run.json` with every optional part present.
fn run_json_fields() -> Result<BTreeSet<String>> {
    let mut meta: Meta = serde_json::from_value(serde_json::json!({
        "target": "earlgrey-sim-unmasked",
        "files": ["a.bench"],
        "inputs": ["0"],
        "shard": {"index": 0, "count": 2},
        "merged_from": ["shards/0"],
    }))?;
    meta.hello = Some(hello());
    meta.implementations = vec![facts("mine")];
    meta.layout_pad = 1234;
    meta.models = vec![String::from("reduced"), String::from("full")];
    let json = serde_json::to_value(&meta)?;
    let mut fields: BTreeSet<String> = keys(&json).collect();
    fields.extend(keys(&json["shard"]));
    fields.extend(keys(&json["implementations"][0]));
    fields.extend(keys(&json["hello"]));
    fields.extend(keys(&json["hello"]["modules"][0]));
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_of_result_has_a_sample() {
        let tags: BTreeSet<&str> = shapes().iter().map(Phases::tag).collect();
        assert_eq!(tags, Phases::TAGS.iter().copied().collect());
    }
}
