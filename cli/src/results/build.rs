//! Building a [`Record`] from a request line and what the suite answered. Everything
//! particular to a benchmark kind comes from its protocol description (`describe`, the result
//! shape's phases and facts), so a new kind needs nothing here.

use cyclebench_protocol::{
    Benchmark, BenchmarkResults, Check, Cycles, DatasetFamily, Field, Hello, Implementation, Measured, Module, Reply,
    Request, IMPL_FIELD,
};
use serde_json::{Map, Value};

use super::{Named, Record, Stat, Status};
use crate::firmware::symbols::Symbols;
use crate::implementation;

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
            phases: Named::default(),
            raw_phases: Named::default(),
            statistics: None,
            total_cycles: None,
            bytes: None,
            cycles_per_byte: None,
            code_symbol: None,
            code_bytes: None,
            glue_bytes: None,
            reason: None,
            error: None,
            attempts: None,
            firmware_revision: ctx.revision.to_owned(),
            // The run names the image's build on every record it writes.
            rustc: None,
            clang: None,
            image_sha256: None,
            varies: None,
            timestamp: chrono::Local::now().to_rfc3339(),
            details: Map::new(),
            result_fields: Vec::new(),
        }
    }

    /// A line that produced no reply (invalid line, lost link, ...).
    pub fn error(ctx: &RecordContext<'_>, request: Option<&Request>, error: String) -> Self {
        let mut record = Self::base(ctx, Status::Error);
        if let Some(r) = request {
            record.describe_request(r, ctx.hello);
        }
        record.error = Some(error);
        record
    }

    /// A request and its reply.
    pub fn reply(ctx: &RecordContext<'_>, request: Option<&Request>, reply: &Reply) -> Self {
        let mut record = Self::base(ctx, Status::Ok);
        match request {
            Some(r) => record.describe_request(r, ctx.hello),
            None => record.benchmark = String::from("raw_line"),
        }
        match reply {
            Reply::Hello(_) | Reply::Status(_) | Reply::Accepted => {}
            Reply::Error(e) => {
                record.status = Status::Error;
                record.error = Some(format!("suite error ({:?}): {}", e.kind, e.detail));
            }
            Reply::BenchmarkResults(BenchmarkResults::Unsupported { reason, .. }) => {
                record.status = Status::Unsupported;
                record.reason = Some(reason.clone());
            }
            Reply::BenchmarkResults(BenchmarkResults::Measured(m)) => {
                record.fill_measured(m, ctx.symbols);
                record.varies = super::arrival_dependent(record.implementation, record.implementation_name.as_deref())
                    .map(str::to_owned);
            }
        }
        record
    }

    fn fill_measured(&mut self, m: &Measured, symbols: Option<&Symbols>) {
        self.implementation = Some(m.implementation);
        self.check = Some(m.check);
        self.verified = m.check == Check::KnownAnswer;
        self.repetitions = Some(m.repetitions);
        self.overhead = Some(m.overhead);
        let mut total = 0u64;
        let mut stats = Named::default();
        for phase in m.phases.named() {
            let correction = u64::from(m.overhead) * u64::from(phase.windows);
            let corrected = correct(&phase.cycles, correction);
            total += corrected.median;
            self.phases.insert(phase.name.clone(), corrected.median);
            self.raw_phases.insert(phase.name.clone(), phase.cycles.median);
            stats.insert(
                phase.name,
                Stat {
                    n: m.repetitions,
                    min: corrected.min,
                    median: corrected.median,
                    max: corrected.max,
                    mean: corrected.mean_x100 as f64 / 100.0,
                },
            );
        }
        self.statistics = (m.repetitions > 1).then_some(stats);
        // A kind without phases (a leakage test) reports statistics, not a cycle total.
        self.total_cycles = (!self.phases.is_empty()).then_some(total);
        let fields = m.phases.fields();
        self.result_fields = fields.iter().map(|(name, _)| (*name).to_owned()).collect();
        self.add_fields(fields);
        if let (Some(entry), Some(symbols)) = (self.number("entry"), symbols) {
            if let Some(code) = symbols.code(entry) {
                self.code_bytes = Some(code.bytes);
                // An implementation from outside the tree is more than the function called.
                let sizes = self
                    .text(IMPL_FIELD)
                    .and_then(|name| implementation::sizes(symbols, name, &code));
                if let Some(sizes) = sizes {
                    self.code_bytes = Some(sizes.code_bytes);
                    self.glue_bytes = Some(sizes.glue_bytes);
                }
                self.code_symbol = Some(code.symbol);
            }
        }
        if let Some(bytes) = self.bytes.filter(|&b| b > 0) {
            self.cycles_per_byte = Some((total as f64 / bytes as f64 * 100.0).round() / 100.0);
        }
    }

    fn describe_request(&mut self, request: &Request, hello: Option<&Hello>) {
        let b = match request {
            Request::Benchmark(b) => b,
            Request::Hello => return self.benchmark = String::from("hello"),
            Request::GetStatus => return self.benchmark = String::from("get_status"),
            Request::Done => return self.benchmark = String::from("done"),
            Request::Suspend => return self.benchmark = String::from("suspend"),
            Request::Repeat => return self.benchmark = String::from("repeat"),
        };
        let description = b.describe();
        self.benchmark = b.kind().name().to_owned();
        self.dataset = b.dataset().map(|(_, id)| id.as_str().to_owned());
        self.module = Some(description.module.map_or("cpu", Module::name).to_owned());
        self.config = Some(description.config);
        self.bytes = description.bytes.or_else(|| dataset_bytes(b));
        self.repetitions = Some(b.repetitions());
        // A request for a software library names its implementation; otherwise the platform's
        // inventory does.
        self.implementation_name = description.module.and_then(|m| match b.software() {
            Some(library) => library.implementation_name(m).map(String::from),
            None => implementation_name(m, hello?),
        });
        self.add_fields(description.fields);
    }

    fn add_fields(&mut self, fields: Vec<(&'static str, Field)>) {
        for (name, field) in fields {
            let value = match field {
                Field::Text(t) => Value::from(t),
                Field::Number(n) => Value::from(n),
                Field::Decimal(d) => Value::from(d),
                Field::Flag(b) => Value::from(b),
                Field::Null => Value::Null,
            };
            self.details.insert(name.to_owned(), value);
        }
    }
}

/// Bytes one run of a dataset-driven benchmark processes, from the host's copy of the
/// datasets.
fn dataset_bytes(b: &Benchmark) -> Option<u64> {
    let (family, id) = b.dataset()?;
    let id = id.as_str();
    match family {
        DatasetFamily::Hash => cyclebench_datasets::hash(id).map(|d| d.message.len() as u64),
        DatasetFamily::Aes => cyclebench_datasets::aes(id).map(|d| d.plaintext.len() as u64),
        DatasetFamily::Rng => {
            cyclebench_datasets::rng(id).map(|d| d.generates.iter().map(|g| 16 * u64::from(g.blocks)).sum())
        }
    }
}

/// What implements `module` according to the suite's inventory. The entropy source seeds the
/// random bit generator, which is what an entropy-seeded benchmark times.
fn implementation_name(module: Module, hello: &Hello) -> Option<String> {
    let lookup = if module == Module::Entropy { Module::Rng } else { module };
    hello
        .modules
        .iter()
        .find(|i| i.module == lookup)
        .and_then(|i| match &i.implementation {
            Implementation::Hardware(n) | Implementation::Software(n) => Some(n.clone()),
            Implementation::Absent => None,
        })
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
