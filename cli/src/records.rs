//! Result records: one per request, written to `results.jsonl` and `results.csv` as soon as
//! the reply is in, so nothing measured is lost if a later request fails.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use cyclebench_protocol::{
    Benchmark, BenchmarkResults, Check, Cycles, FifoTrace, HashAlgorithm, Hello, Implementation, ImplementationKind,
    LengthUnit, Measured, Module, Phases, Reply, Request,
};

use crate::firmware::symbols::Symbols;
use serde::Serialize;
use serde_json::{Map, Value};

/// Outcome class of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Measured and checked.
    Ok,
    /// The platform cannot run it.
    Unsupported,
    /// No result: bad line, suite error, wrong answer, lost link.
    Error,
}

/// Per-phase statistics after overhead correction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseStats {
    /// Repetitions.
    pub n: u16,
    /// Smallest window.
    pub min: u64,
    /// Median window.
    pub median: u64,
    /// Largest window.
    pub max: u64,
    /// Mean window.
    pub mean: f64,
}

/// One line of `results.jsonl`.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    /// "ok", "unsupported" or "error".
    pub status: Status,
    /// Target as named on the command line (`qemu-virt`, `serial:/dev/ttyUSB1`).
    pub target: String,
    /// Platform the suite announced.
    pub platform: Option<String>,
    /// `.bench` file and line.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// The request as written in the file.
    pub request: String,
    /// Benchmark kind, or the control request's name.
    pub benchmark: String,
    /// Dataset, where the benchmark has one.
    pub dataset: Option<String>,
    /// Configuration in words (e.g. "sha2 tight", "decrypt per-block manual").
    pub config: Option<String>,
    /// Module the benchmark exercised.
    pub module: Option<String>,
    /// "hardware" or "software".
    pub implementation: Option<String>,
    /// Name of the implementation from the suite's inventory (e.g. `hmac`, `rustcrypto-sha2`).
    pub implementation_name: Option<String>,
    /// Whether the output matched a known answer.
    pub verified: bool,
    /// How the output was checked.
    pub check: Option<String>,
    /// Whether the target counts real cycles.
    pub cycle_accurate: Option<bool>,
    /// Repetitions run on the device.
    pub repetitions: Option<u16>,
    /// Calibrated overhead of one measurement window.
    pub overhead: Option<u32>,
    /// Phase → median cycles minus the overhead of its windows.
    pub phases: Map<String, Value>,
    /// Phase → median raw cycles as measured.
    pub raw_phases: Map<String, Value>,
    /// Phase → corrected statistics, when repeated.
    pub statistics: Option<Map<String, Value>>,
    /// Sum of the corrected phases.
    pub total_cycles: Option<u64>,
    /// Bytes processed, where meaningful.
    pub bytes: Option<u64>,
    /// `total_cycles / bytes`.
    pub cycles_per_byte: Option<f64>,
    /// FIFO observations of tracked hash runs.
    pub fifo: Option<FifoTrace>,
    /// Software primitive, for software benchmarks (e.g. `chacha20`).
    pub primitive: Option<String>,
    /// Its implementation variant (`rust`, `rv32i`, `zbb`).
    pub variant: Option<String>,
    /// Limbs per operand, for multi-precision benchmarks.
    pub limbs: Option<u32>,
    /// Deepest stack use of the primitive's call, in bytes.
    pub stack_bytes: Option<u32>,
    /// Function the suite called, from the firmware's symbol table.
    pub code_symbol: Option<String>,
    /// Its code size in bytes: the function, plus the assembly it wraps (other callees are
    /// not counted).
    pub code_bytes: Option<u64>,
    /// Why a benchmark is unsupported.
    pub reason: Option<String>,
    /// What went wrong.
    pub error: Option<String>,
    /// Revision of the firmware (git describe of the tree it was built from).
    pub firmware_revision: String,
    /// When the reply arrived (RFC 3339).
    pub timestamp: String,
}

/// Where a record comes from.
pub struct RecordContext<'a> {
    /// Target label.
    pub target: &'a str,
    /// The suite's hello, if connected.
    pub hello: Option<&'a Hello>,
    /// File name.
    pub file: &'a str,
    /// Line number.
    pub line: usize,
    /// Line text.
    pub text: &'a str,
    /// Firmware revision.
    pub revision: &'a str,
    /// Function symbols of the firmware, when the tool built or was given it.
    pub symbols: Option<&'a Symbols>,
}

impl Record {
    /// A record with only the context filled in.
    fn base(ctx: &RecordContext<'_>, status: Status) -> Self {
        Self {
            status,
            target: ctx.target.to_owned(),
            platform: ctx.hello.map(|h| h.platform.clone()),
            file: ctx.file.to_owned(),
            line: ctx.line,
            request: ctx.text.trim().to_owned(),
            benchmark: String::from("invalid"),
            dataset: None,
            config: None,
            module: None,
            implementation: None,
            implementation_name: None,
            verified: false,
            check: None,
            cycle_accurate: ctx.hello.map(|h| h.cycle_accurate),
            repetitions: None,
            overhead: None,
            phases: Map::new(),
            raw_phases: Map::new(),
            statistics: None,
            total_cycles: None,
            bytes: None,
            cycles_per_byte: None,
            fifo: None,
            primitive: None,
            variant: None,
            limbs: None,
            stack_bytes: None,
            code_symbol: None,
            code_bytes: None,
            reason: None,
            error: None,
            firmware_revision: ctx.revision.to_owned(),
            timestamp: chrono::Local::now().to_rfc3339(),
        }
    }

    /// A line that produced no reply (invalid line, lost link, ...).
    pub fn error(ctx: &RecordContext<'_>, request: Option<&Request>, error: String) -> Self {
        let mut record = Self::base(ctx, Status::Error);
        if let Some(r) = request {
            describe_request(&mut record, r, ctx.hello);
        }
        record.error = Some(error);
        record
    }

    /// A request and its reply.
    pub fn reply(ctx: &RecordContext<'_>, request: Option<&Request>, reply: &Reply) -> Self {
        let mut record = Self::base(ctx, Status::Ok);
        match request {
            Some(r) => describe_request(&mut record, r, ctx.hello),
            None => record.benchmark = String::from("raw_line"),
        }
        match reply {
            Reply::Hello(_) | Reply::Status(_) => {}
            Reply::Error(e) => {
                record.status = Status::Error;
                record.error = Some(format!("suite error ({:?}): {}", e.kind, e.detail));
            }
            Reply::BenchmarkResults(BenchmarkResults::Unsupported { reason, .. }) => {
                record.status = Status::Unsupported;
                record.reason = Some(reason.clone());
            }
            Reply::BenchmarkResults(BenchmarkResults::Measured(m)) => record.fill_measured(m, ctx.symbols),
        }
        record
    }

    fn fill_measured(&mut self, m: &Measured, symbols: Option<&Symbols>) {
        self.implementation = Some(String::from(match m.implementation {
            ImplementationKind::Hardware => "hardware",
            ImplementationKind::Software => "software",
        }));
        self.check = Some(String::from(match m.check {
            Check::KnownAnswer => "known_answer",
            Check::Plausibility => "plausibility",
            Check::Unverifiable => "unverifiable",
        }));
        self.verified = m.check == Check::KnownAnswer;
        self.repetitions = Some(m.repetitions);
        self.overhead = Some(m.overhead);
        let mut total = 0u64;
        let mut stats = Map::new();
        for phase in m.phases.named() {
            let correction = u64::from(m.overhead) * u64::from(phase.windows);
            let corrected = correct(&phase.cycles, correction);
            total += corrected.median;
            self.phases.insert(phase.name.clone(), corrected.median.into());
            self.raw_phases.insert(phase.name.clone(), phase.cycles.median.into());
            if m.repetitions > 1 {
                let s = PhaseStats {
                    n: m.repetitions,
                    min: corrected.min,
                    median: corrected.median,
                    max: corrected.max,
                    mean: corrected.mean_x100 as f64 / 100.0,
                };
                stats.insert(phase.name, serde_json::to_value(s).unwrap_or(Value::Null));
            }
        }
        self.statistics = (m.repetitions > 1).then_some(stats);
        self.total_cycles = Some(total);
        match &m.phases {
            Phases::Hash { fifo, .. } => self.fifo = *fifo,
            Phases::Software { stack_bytes, entry, .. } => {
                self.stack_bytes = Some(*stack_bytes);
                if let Some(code) = symbols.and_then(|s| s.code(u64::from(*entry))) {
                    self.code_symbol = Some(code.symbol);
                    self.code_bytes = Some(code.bytes);
                }
            }
            _ => {}
        }
        if let Some(bytes) = self.bytes.filter(|&b| b > 0) {
            self.cycles_per_byte = Some((total as f64 / bytes as f64 * 100.0).round() / 100.0);
        }
    }
}

/// Subtracts the measurement overhead, never below zero.
fn correct(c: &Cycles, overhead: u64) -> Cycles {
    Cycles {
        min: c.min.saturating_sub(overhead),
        median: c.median.saturating_sub(overhead),
        max: c.max.saturating_sub(overhead),
        mean_x100: c.mean_x100.saturating_sub(overhead * 100),
    }
}

fn describe_request(record: &mut Record, request: &Request, hello: Option<&Hello>) {
    let b = match request {
        Request::Benchmark(b) => b,
        Request::Hello => return record.benchmark = String::from("hello"),
        Request::GetStatus => return record.benchmark = String::from("get_status"),
        Request::Done => return record.benchmark = String::from("done"),
        Request::Suspend => return record.benchmark = String::from("suspend"),
    };
    record.benchmark = b.kind().name().to_owned();
    record.dataset = b.dataset().map(|d| d.as_str().to_owned());
    let (module, config, bytes) = match b {
        Benchmark::Hash(h) => {
            let module = match h.algorithm {
                HashAlgorithm::Sha2 => Module::Sha2,
                HashAlgorithm::Sha3 => Module::Sha3,
            };
            let mut config = format!("{} {}", module.name(), kebab(&h.style));
            if h.track_fifo {
                config.push_str(" fifo-tracked");
            }
            let bytes = cyclebench_datasets::hash(h.dataset.as_str()).map(|d| d.message.len() as u64);
            (Some(module), config, bytes)
        }
        Benchmark::Aes(a) => {
            let mut config = format!(
                "{} {} {}",
                kebab(&a.direction),
                kebab(&a.granularity),
                kebab(&a.trigger)
            );
            if a.tight {
                config.push_str(" tight");
            }
            if let Some(pad) = a.status_pad {
                config.push_str(&format!(" status-pad {pad}"));
            }
            let bytes = cyclebench_datasets::aes(a.dataset.as_str()).map(|d| d.plaintext.len() as u64);
            (Some(Module::Aes), config, bytes)
        }
        Benchmark::RngSeeded(r) => {
            let bytes = cyclebench_datasets::rng(r.dataset.as_str())
                .map(|d| d.generates.iter().map(|g| 16 * u64::from(g.blocks)).sum());
            (Some(Module::Rng), with_wait(String::from("seeded"), r.init_wait), bytes)
        }
        Benchmark::RngTrueRandom(r) => {
            let config = with_wait(format!("entropy-seeded {} blocks", r.blocks), r.init_wait);
            (Some(Module::Entropy), config, Some(16 * u64::from(r.blocks)))
        }
        Benchmark::Micro(_) => (None, String::from("instruction blocks"), None),
        Benchmark::Software(s) => {
            record.primitive = Some(s.primitive.name().to_owned());
            record.variant = Some(s.variant.name().to_owned());
            let mut config = format!("{} {}", s.primitive.name(), s.variant.name());
            match (s.primitive.length_unit(), s.length) {
                (LengthUnit::Bytes, Some(n)) => config.push_str(&format!(" {n} B")),
                (LengthUnit::Limbs, Some(n)) => {
                    record.limbs = Some(n);
                    config.push_str(&format!(" {n} limbs"));
                }
                _ => {}
            }
            let bytes = s.primitive.bytes_processed(s.length).map(u64::from);
            (None, config, bytes)
        }
    };
    record.module = Some(module.map_or("cpu", Module::name).to_owned());
    record.config = Some(config);
    record.bytes = bytes;
    record.repetitions = Some(b.repetitions());
    record.implementation_name = module.and_then(|m| {
        let lookup = if m == Module::Entropy { Module::Rng } else { m };
        hello?
            .modules
            .iter()
            .find(|i| i.module == lookup)
            .and_then(|i| match &i.implementation {
                Implementation::Hardware(n) | Implementation::Software(n) => Some(n.clone()),
                Implementation::Absent => None,
            })
    });
}

fn with_wait(mut config: String, init_wait: Option<u32>) -> String {
    if let Some(w) = init_wait {
        config.push_str(&format!(" init-wait {w}"));
    }
    config
}

/// serde's snake_case name of a unit enum value, with dashes.
fn kebab<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', "-")))
        .unwrap_or_default()
}

/// Appends records to `results.jsonl` and `results.csv`, flushing after each.
pub struct ResultsWriter {
    jsonl: BufWriter<File>,
    csv: csv::Writer<File>,
}

const CSV_HEADER: [&str; 24] = [
    "status",
    "target",
    "platform",
    "file",
    "line",
    "benchmark",
    "dataset",
    "config",
    "implementation",
    "implementation_name",
    "verified",
    "cycle_accurate",
    "repetitions",
    "overhead",
    "total_cycles",
    "bytes",
    "cycles_per_byte",
    "primitive",
    "variant",
    "stack_bytes",
    "code_bytes",
    "phases",
    "error",
    "firmware_revision",
];

impl ResultsWriter {
    /// Creates both files in `dir`.
    pub fn create(dir: &Path) -> Result<Self> {
        let open =
            |name: &str| File::create(dir.join(name)).with_context(|| format!("creating {}", dir.join(name).display()));
        let jsonl = BufWriter::new(open("results.jsonl")?);
        let mut csv = csv::Writer::from_writer(open("results.csv")?);
        csv.write_record(CSV_HEADER)?;
        csv.flush()?;
        Ok(Self { jsonl, csv })
    }

    /// Writes one record to both files and flushes them.
    pub fn append(&mut self, r: &Record) -> Result<()> {
        serde_json::to_writer(&mut self.jsonl, r)?;
        self.jsonl.write_all(b"\n")?;
        self.jsonl.flush()?;
        let opt = |v: Option<String>| v.unwrap_or_default();
        let phases: Vec<String> = r.phases.iter().map(|(k, v)| format!("{k}={v}")).collect();
        self.csv.write_record([
            kebab(&r.status),
            r.target.clone(),
            opt(r.platform.clone()),
            r.file.clone(),
            r.line.to_string(),
            r.benchmark.clone(),
            opt(r.dataset.clone()),
            opt(r.config.clone()),
            opt(r.implementation.clone()),
            opt(r.implementation_name.clone()),
            r.verified.to_string(),
            opt(r.cycle_accurate.map(|b| b.to_string())),
            opt(r.repetitions.map(|n| n.to_string())),
            opt(r.overhead.map(|n| n.to_string())),
            opt(r.total_cycles.map(|n| n.to_string())),
            opt(r.bytes.map(|n| n.to_string())),
            opt(r.cycles_per_byte.map(|n| n.to_string())),
            opt(r.primitive.clone()),
            opt(r.variant.clone()),
            opt(r.stack_bytes.map(|n| n.to_string())),
            opt(r.code_bytes.map(|n| n.to_string())),
            phases.join(" "),
            opt(r.error.clone().or_else(|| r.reason.clone())),
            r.firmware_revision.clone(),
        ])?;
        self.csv.flush()?;
        Ok(())
    }
}
