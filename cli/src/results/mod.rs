//! Results on disk: one [`Record`] per request line, the one schema that the run writes
//! (`results.jsonl`, `results.csv`) and that `report`, `compare` and `study render` read.
//!
//! Reading is tolerant: every field but `status` and `benchmark` has a default, and fields
//! a benchmark kind adds (its protocol description's facts, such as `primitive` or
//! `stack_bytes`) land in [`Record::details`], so results written by an older or newer
//! `cyclebench` still load.

mod build;
mod load;
mod named;
mod placements;
mod writer;

use std::path::Path;

use cyclebench_protocol::{
    BenchmarkKind, Check, ImplementationKind, PhaseCategory, Presentation, Unbounded, IMPL_FIELD,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use build::RecordContext;
#[cfg(test)]
pub use load::parse;
pub use load::{distinct, load, Results};
pub use named::Named;
pub use placements::{PlacedField, Placements};
pub use writer::ResultsWriter;

/// The field of a record of a swept `.bench` line that says where it stands in its line's
/// sweep: `{"index": 3, "of": 10, "values": {"length": 256}}` (1-based index, the swept fields
/// with this request's values). Records of other lines have none.
pub const SWEEP: &str = "sweep";

/// The field of a record measured on an image with layout padding (`CYCLEBENCH_LAYOUT_PAD`):
/// the bytes of unrelated code before all other code in flash. Records of the default image
/// have none.
pub const LAYOUT_PAD: &str = "layout_pad";

/// The field of a record whose line asked for `"placements": N`: a [`Placements`].
pub const PLACEMENTS: &str = "placements";

/// The field of a record measured on a model of a chip with variants (`run --model`): which
/// variant ran it (`full` for the whole chip). Records of other targets have none.
pub const MODEL: &str = "model";

/// Outcome class of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Measured and checked (or a control request that was answered).
    Ok,
    /// The platform cannot run it.
    Unsupported,
    /// No result: bad line, suite error, wrong answer, lost link.
    Error,
}

/// Corrected statistics of one phase over the repetitions of a benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// Repetitions.
    pub n: u16,
    /// Shortest window.
    pub min: u64,
    /// Median window (lower median for even n).
    pub median: u64,
    /// Longest window.
    pub max: u64,
    /// Mean window (two decimals, as the suite sends it).
    pub mean: f64,
}

/// One phase of a measurement, in execution order.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// Phase name as the suite names it (`init`, `input`, `generate1`, ...).
    pub name: String,
    /// Corrected (median) cycles.
    pub cycles: u64,
    /// Statistics, when the benchmark was repeated.
    pub stats: Option<Stat>,
}

/// One line of `results.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// "ok", "unsupported" or "error".
    pub status: Status,
    /// Target as named on the command line (`qemu-virt`, `serial:/dev/ttyUSB1`).
    #[serde(default)]
    pub target: String,
    /// Platform the suite announced.
    #[serde(default)]
    pub platform: Option<String>,
    /// `.bench` file as given on the command line.
    #[serde(default)]
    pub file: String,
    /// 1-based line number in that file.
    #[serde(default)]
    pub line: usize,
    /// The request as written in the file.
    #[serde(default)]
    pub request: String,
    /// Benchmark kind (its protocol name), or the control request's name.
    pub benchmark: String,
    /// Dataset, where the benchmark has one.
    #[serde(default)]
    pub dataset: Option<String>,
    /// Configuration in words (e.g. "sha2 tight", "decrypt per-block manual").
    #[serde(default)]
    pub config: Option<String>,
    /// Module the benchmark exercised (`cpu` for the processor itself).
    #[serde(default)]
    pub module: Option<String>,
    /// Hardware block or software, for measured records.
    #[serde(default)]
    pub implementation: Option<ImplementationKind>,
    /// Name of the implementation from the suite's inventory (e.g. `hmac`, `rustcrypto-sha2`).
    #[serde(default)]
    pub implementation_name: Option<String>,
    /// Whether the output matched a known answer.
    #[serde(default)]
    pub verified: bool,
    /// How the output was checked.
    #[serde(default)]
    pub check: Option<Check>,
    /// Whether the target counts real cycles; `None` when not known.
    #[serde(default)]
    pub cycle_accurate: Option<bool>,
    /// Repetitions run on the device.
    #[serde(default)]
    pub repetitions: Option<u16>,
    /// Calibrated overhead of one measurement window.
    #[serde(default)]
    pub overhead: Option<u32>,
    /// Phase → median cycles minus the overhead of its windows, in execution order.
    #[serde(default)]
    pub phases: Named<u64>,
    /// Phase → median raw cycles as measured, in execution order.
    #[serde(default)]
    pub raw_phases: Named<u64>,
    /// Phase → corrected statistics, when repeated.
    #[serde(default)]
    pub statistics: Option<Named<Stat>>,
    /// Sum of the corrected phase medians.
    #[serde(default)]
    pub total_cycles: Option<u64>,
    /// Bytes processed, where meaningful.
    #[serde(default)]
    pub bytes: Option<u64>,
    /// `total_cycles / bytes`, two decimals.
    #[serde(default)]
    pub cycles_per_byte: Option<f64>,
    /// Function the suite called, from the firmware's symbol table (results that name an
    /// entry address).
    #[serde(default)]
    pub code_symbol: Option<String>,
    /// Its code size in bytes: the function, plus the assembly it wraps; for an implementation
    /// from outside the tree, every function and table of the implementation.
    #[serde(default)]
    pub code_bytes: Option<u64>,
    /// For an implementation from outside the tree, the bytes of the function the suite called
    /// (`code_symbol`): its interface's glue. Absent on every other record, and on records
    /// written before it was recorded, which read back as they were written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glue_bytes: Option<u64>,
    /// Why a benchmark is unsupported.
    #[serde(default)]
    pub reason: Option<String>,
    /// What went wrong.
    #[serde(default)]
    pub error: Option<String>,
    /// How many times the request was sent before an intact reply came back (1 on a clean
    /// link); absent when no reply came.
    #[serde(default)]
    pub attempts: Option<u32>,
    /// Revision of the firmware (git describe of the tree it was built from).
    #[serde(default)]
    pub firmware_revision: String,
    /// The compiler that built the image's Rust: the first line of `rustc --version`; absent
    /// when the tool did not build the image (a board, `--firmware`) or results predate it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rustc: Option<String>,
    /// The C compiler of `run --impl`, installed when the image was built: the first line of
    /// `clang --version`, recorded whether or not the image holds C. Absent when clang was
    /// missing, and where `rustc` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clang: Option<String>,
    /// SHA-256 (hex) of the ELF file the run started, built or given; absent for a board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_sha256: Option<String>,
    /// When the reply arrived (RFC 3339).
    /// Why this count differs between two runs of the same image, for a block whose count
    /// depends on the cycle a request arrives at; absent when it repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub varies: Option<String>,
    #[serde(default)]
    pub timestamp: String,
    /// Facts particular to the benchmark kind, named as its protocol description names them
    /// (`primitive`, `variant`, `limbs`, `stack_bytes`, `blocks`, `fifo_max_depth`, ...).
    #[serde(flatten)]
    pub details: Map<String, Value>,
    /// Which of `details` the result carried (rather than the request), in the result's order:
    /// what a kind without phases (a leakage test) reports instead of cycles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub result_fields: Vec<String>,
}

/// Why the counts of a hardware block depend on when a request arrives, by the name the
/// suite gives the block: what [`Record::varies`] says of its records.
const ARRIVAL_DEPENDENT: &[(&str, &str)] = &[
    (
        "aes-masked",
        "masked AES reseeds its masks from EDN, whose fill depends on the cycle the request arrived at \
         and on what drew from the entropy chain before",
    ),
    (
        "csrng",
        "CSRNG also serves EDN's refills, which depend on the cycle the request arrived at and on what \
         drew from the entropy chain before",
    ),
    (
        "entropy_src",
        "entropy_src also feeds CSRNG's reseeds, which depend on the cycle the request arrived at",
    ),
];

/// Why a measurement of the hardware block `implementation_name` differs between two runs of
/// the same image, if it does.
pub fn arrival_dependent(
    implementation: Option<ImplementationKind>,
    implementation_name: Option<&str>,
) -> Option<&'static str> {
    if implementation != Some(ImplementationKind::Hardware) {
        return None;
    }
    ARRIVAL_DEPENDENT
        .iter()
        .find(|(name, _)| Some(*name) == implementation_name)
        .map(|(_, why)| *why)
}

impl Record {
    /// Why this record's counts differ between runs of the same image: as recorded, or, for a
    /// record written before that was recorded, as its block says.
    pub fn varies_between_runs(&self) -> Option<&str> {
        self.varies.as_deref().or_else(|| {
            (self.status == Status::Ok)
                .then(|| arrival_dependent(self.implementation, self.implementation_name.as_deref()))
                .flatten()
        })
    }

    /// What ran, in words, so that the records of one operation run two ways read apart: the
    /// hardware block or the software library by the name the suite gives it, with its kind
    /// (`hmac (hardware)`, `rustcrypto-sha2 (software)`); an implementation from outside the
    /// tree by its name (`sha256-c (--impl)`); the suite's own code, which has no such name
    /// (software primitives, instruction blocks), as `suite's own (software)`. A record with
    /// only a name or only a kind (a request the platform could not run names what it lacks)
    /// gives that one; a record with neither, nothing.
    pub fn ran(&self) -> String {
        if let Some(name) = self.text(IMPL_FIELD) {
            return format!("{name} (--impl)");
        }
        match (self.implementation_name.as_deref(), self.implementation) {
            (Some(name), Some(kind)) => format!("{name} ({})", kind.name()),
            (Some(name), None) => name.to_owned(),
            (None, Some(ImplementationKind::Software)) => String::from("suite's own (software)"),
            (None, Some(kind)) => kind.name().to_owned(),
            (None, None) => String::new(),
        }
    }

    /// Whether this record carries cycle counts (a control request answered `ok` does not).
    pub fn is_measurement(&self) -> bool {
        self.status == Status::Ok && !self.phases.is_empty()
    }

    /// The result's first `most` facts as `name value` pairs, in the result's order, with `…`
    /// when there are more. An unbounded value reads as its kind shows it; the fields that
    /// say it is unbounded are folded into it.
    pub fn result_summary(&self, most: usize) -> String {
        self.summary_of(self.result_fields.iter().map(String::as_str), most)
    }

    /// The facts a progress line shows for a result without phases: the headline fields its
    /// kind declares (with `…` when the result has more), or its first few facts.
    pub fn headline(&self) -> String {
        let headline = self.presentation().headline;
        if headline.is_empty() {
            return self.result_summary(Presentation::HEADLINE_FIELDS);
        }
        let mut text = self.summary_of(headline.iter().copied(), usize::MAX);
        if self.summary_of(self.result_fields.iter().map(String::as_str), usize::MAX) != text {
            text.push_str(", …");
        }
        text
    }

    fn summary_of<'a>(&self, names: impl Iterator<Item = &'a str>, most: usize) -> String {
        let presentation = self.presentation();
        let folded = |name: &str| {
            presentation
                .unbounded
                .iter()
                .any(|u| u.flag == name || u.reason == name)
        };
        let mut pairs: Vec<String> = names
            .filter(|name| !folded(name))
            .filter_map(|name| {
                let shown = match self.unbounded(name) {
                    Some(u) => u.shown.to_owned(),
                    None => plain(self.details.get(name)?),
                };
                Some(format!("{name} {shown}"))
            })
            .collect();
        if pairs.len() > most {
            pairs.truncate(most);
            pairs.push(String::from("…"));
        }
        pairs.join(", ")
    }

    /// The benchmark kind, when the record names one.
    pub fn benchmark_kind(&self) -> Option<BenchmarkKind> {
        BenchmarkKind::from_name(&self.benchmark)
    }

    /// How the record's kind is shown; the default for records of no known kind.
    pub fn presentation(&self) -> &'static Presentation {
        self.benchmark_kind()
            .map_or(&Presentation::PHASES, BenchmarkKind::presentation)
    }

    /// The declaration of `field` when the record's value of it is unbounded: its flag is
    /// set, or (in records written before the flag) its value is the old sentinel number.
    pub fn unbounded(&self, field: &str) -> Option<&'static Unbounded> {
        let u = self.presentation().unbounded(field)?;
        let flagged = self.details.get(u.flag).and_then(Value::as_bool) == Some(true);
        let sentinel = u
            .legacy_sentinel
            .zip(self.details.get(field).and_then(Value::as_f64))
            .is_some_and(|(sentinel, value)| value >= sentinel);
        (flagged || sentinel).then_some(u)
    }

    /// Corrected phases in execution order, with their statistics when repeated.
    pub fn phases(&self) -> Vec<Phase> {
        self.phases
            .iter()
            .map(|(name, cycles)| Phase {
                name: name.clone(),
                cycles: *cycles,
                stats: self.statistics.as_ref().and_then(|s| s.get(name).copied()),
            })
            .collect()
    }

    /// What the phase `name` does, by the record's benchmark kind.
    pub fn category(&self, name: &str) -> PhaseCategory {
        self.benchmark_kind().map_or(PhaseCategory::Other, |k| k.category(name))
    }

    /// The `.bench` file's name without its directory.
    pub fn file_name(&self) -> &str {
        Path::new(&self.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.file)
    }

    /// `file.bench:line`, or `file.bench:line[k]` for the k-th request of a swept line.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file_name(), self.line_label())
    }

    /// The line number, with `[k]` for the k-th request of a swept line.
    pub fn line_label(&self) -> String {
        match self.sweep_index() {
            Some(k) => format!("{}[{k}]", self.line),
            None => self.line.to_string(),
        }
    }

    /// The record's 1-based place among the requests of its swept line.
    pub fn sweep_index(&self) -> Option<u64> {
        self.details.get(SWEEP)?.get("index")?.as_u64()
    }

    /// The swept fields of the record's line with this record's values, in the line's order;
    /// `None` for a line without a sweep.
    pub fn swept_values(&self) -> Option<&Map<String, Value>> {
        self.details.get(SWEEP)?.get("values")?.as_object()
    }

    /// Dataset and configuration in words, e.g. `msg-256 sha2 tight`.
    pub fn description(&self) -> String {
        [self.dataset.as_deref(), self.config.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether the benchmark was repeated (and so has per-phase statistics).
    pub fn repeated(&self) -> bool {
        self.statistics.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// Sum of the raw phases (0 when none were recorded).
    pub fn raw_total(&self) -> u64 {
        self.raw_phases.iter().map(|(_, c)| c).sum()
    }

    /// The `.bench` file's name without directory and extension (`sha2` for
    /// `benchmarks/sha2.bench`).
    pub fn file_stem(&self) -> &str {
        Path::new(&self.file).file_stem().and_then(|n| n.to_str()).unwrap_or("")
    }

    /// Repetitions, 1 when not recorded.
    pub fn runs(&self) -> u16 {
        self.repetitions.unwrap_or(1)
    }

    /// Cycles per byte of the total, where the benchmark processed bytes: the record's own
    /// (rounded) figure, so that the report and `results.csv` agree.
    pub fn cycles_per_byte(&self) -> Option<f64> {
        let bytes = self.bytes.filter(|&b| b > 0)?;
        let total = self.total_cycles?;
        Some(self.cycles_per_byte.unwrap_or(total as f64 / bytes as f64))
    }

    /// A text detail of the benchmark kind (e.g. `primitive`).
    pub fn text(&self, field: &str) -> Option<&str> {
        self.details.get(field).and_then(Value::as_str)
    }

    /// A numeric detail of the benchmark kind (e.g. `limbs`).
    pub fn number(&self, field: &str) -> Option<u64> {
        self.details.get(field).and_then(Value::as_u64)
    }

    /// A detail with a fraction (e.g. `speedup`); `None` when it is unbounded, so that no
    /// statistic averages or plots a stand-in number.
    pub fn decimal(&self, field: &str) -> Option<f64> {
        if self.unbounded(field).is_some() {
            return None;
        }
        self.details.get(field).and_then(Value::as_f64)
    }

    /// Software primitive (`chacha20`, `mp-mul`, ...), for `software` benchmarks.
    pub fn primitive(&self) -> Option<&str> {
        self.text("primitive")
    }

    /// Implementation variant of a software primitive (`rust`, `rv32i`, `zbb`).
    pub fn variant(&self) -> Option<&str> {
        self.text("variant")
    }

    /// Limbs per operand, for multi-precision primitives.
    pub fn limbs(&self) -> Option<u32> {
        self.number("limbs").and_then(|n| u32::try_from(n).ok())
    }

    /// Deepest stack use of a software primitive's call, in bytes.
    pub fn stack_bytes(&self) -> Option<u32> {
        self.number("stack_bytes").and_then(|n| u32::try_from(n).ok())
    }
}

/// A JSON value as text, strings without their quotes.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
