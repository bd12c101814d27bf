//! Reading a results directory back: `results.jsonl` as the report and `compare` see it.
//!
//! The writer's side is `crate::records::Record`; this is a separate, tolerant reader so that
//! results written by an older or newer `cyclebench` (fields added or missing) still load.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Outcome class of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Measured and checked (or a control request that was answered).
    Ok,
    /// The platform cannot run it.
    Unsupported,
    /// No result.
    Error,
}

/// Hardware block or CPU software.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A hardware accelerator.
    Hardware,
    /// Software on the CPU.
    Software,
}

impl Kind {
    /// The name used in results files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hardware => "hardware",
            Self::Software => "software",
        }
    }
}

/// Corrected statistics of one phase over the repetitions of a benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
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

/// One record of `results.jsonl`, as written by [`crate::records::Record`].
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Outcome class.
    pub status: Status,
    /// Target label (`qemu-virt`, `serial:/dev/ttyUSB1`).
    pub target: String,
    /// Platform the suite announced.
    pub platform: Option<String>,
    /// `.bench` file as given on the command line.
    pub file: String,
    /// 1-based line in that file.
    pub line: usize,
    /// The request as written.
    pub request: String,
    /// Benchmark kind or control request name.
    pub benchmark: String,
    /// Dataset, where the benchmark has one.
    pub dataset: Option<String>,
    /// Configuration in words.
    pub config: Option<String>,
    /// Module exercised.
    pub module: Option<String>,
    /// Hardware or software, for measured records.
    pub implementation: Option<Kind>,
    /// Implementation name from the suite's inventory.
    pub implementation_name: Option<String>,
    /// Whether the output matched a known answer.
    pub verified: bool,
    /// Whether the target counts real cycles; `None` when not known.
    pub cycle_accurate: Option<bool>,
    /// Repetitions run on the device.
    pub repetitions: Option<u16>,
    /// Calibrated overhead of one measurement window.
    pub overhead: Option<u32>,
    /// Corrected phases in execution order, with their statistics when repeated.
    pub phases: Vec<Phase>,
    /// Raw phases (median cycles as measured, overhead included) in execution order.
    pub raw_phases: Vec<(String, u64)>,
    /// Sum of the corrected phase medians.
    pub total_cycles: Option<u64>,
    /// Bytes processed, where meaningful.
    pub bytes: Option<u64>,
    /// `total_cycles / bytes` as recorded (two decimals).
    recorded_cycles_per_byte: Option<f64>,
    /// Software primitive (`chacha20`, `mp-mul`, ...), for `software` benchmarks.
    pub primitive: Option<String>,
    /// Its implementation variant (`rust`, `rv32i`, `zbb`).
    pub variant: Option<String>,
    /// The length a software request asked for (`{"software": {"length": n}}`: bytes, or limbs
    /// for multi-precision primitives); `None` when the request names none.
    pub software_length: Option<u64>,
    /// Limbs per operand, for multi-precision primitives.
    pub limbs: Option<u32>,
    /// Deepest stack use of the primitive's call, in bytes.
    pub stack_bytes: Option<u32>,
    /// Function the suite called, as the firmware's symbol table names it (possibly mangled).
    pub code_symbol: Option<String>,
    /// Its code size in bytes (the function plus the assembly it wraps).
    pub code_bytes: Option<u64>,
    /// Why the benchmark is unsupported.
    pub reason: Option<String>,
    /// What went wrong.
    pub error: Option<String>,
    /// Firmware revision.
    pub firmware_revision: String,
    /// When the reply arrived (RFC 3339).
    pub timestamp: String,
}

/// The fields of a results line this reader uses; everything else is ignored.
#[derive(Deserialize)]
struct Line {
    status: Status,
    #[serde(default)]
    target: String,
    platform: Option<String>,
    #[serde(default)]
    file: String,
    #[serde(default)]
    line: usize,
    #[serde(default)]
    request: String,
    benchmark: String,
    dataset: Option<String>,
    config: Option<String>,
    module: Option<String>,
    implementation: Option<Kind>,
    implementation_name: Option<String>,
    #[serde(default)]
    verified: bool,
    cycle_accurate: Option<bool>,
    repetitions: Option<u16>,
    overhead: Option<u32>,
    #[serde(default)]
    phases: Map<String, Value>,
    raw_phases: Option<Map<String, Value>>,
    statistics: Option<HashMap<String, Stat>>,
    total_cycles: Option<u64>,
    bytes: Option<u64>,
    cycles_per_byte: Option<f64>,
    primitive: Option<String>,
    variant: Option<String>,
    limbs: Option<u32>,
    stack_bytes: Option<u32>,
    code_symbol: Option<String>,
    code_bytes: Option<u64>,
    reason: Option<String>,
    error: Option<String>,
    #[serde(default)]
    firmware_revision: String,
    #[serde(default)]
    timestamp: String,
}

impl Loaded {
    /// Whether this record carries cycle counts (a control request answered `ok` does not).
    pub fn is_measurement(&self) -> bool {
        self.status == Status::Ok && !self.phases.is_empty()
    }

    /// The `.bench` file's name without its directory.
    pub fn file_name(&self) -> &str {
        Path::new(&self.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.file)
    }

    /// `file.bench:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file_name(), self.line)
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
        self.phases.iter().any(|p| p.stats.is_some())
    }

    /// Raw cycles of the phase `name`, when recorded.
    pub fn raw_phase(&self, name: &str) -> Option<u64> {
        self.raw_phases.iter().find(|(n, _)| n == name).map(|&(_, c)| c)
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
        Some(self.recorded_cycles_per_byte.unwrap_or(total as f64 / bytes as f64))
    }
}

/// The records of one results directory.
#[derive(Clone, Debug)]
pub struct Results {
    /// The directory.
    pub dir: PathBuf,
    /// Every record in file order.
    pub records: Vec<Loaded>,
}

/// Distinct non-empty values (of one field across records) in order of first appearance,
/// joined with commas; `None` when there are none.
pub fn distinct<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for v in values {
        if !v.is_empty() && !seen.contains(&v) {
            seen.push(v);
        }
    }
    (!seen.is_empty()).then(|| seen.join(", "))
}

/// Reads `results.jsonl` from `path`, a results directory or the file itself.
pub fn load(path: &Path) -> Result<Results> {
    let (dir, file) = if path.is_dir() {
        (path.to_path_buf(), path.join("results.jsonl"))
    } else {
        (
            path.parent().unwrap_or(Path::new(".")).to_path_buf(),
            path.to_path_buf(),
        )
    };
    let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let records = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse(l).with_context(|| format!("{}:{}", file.display(), i + 1)))
        .collect::<Result<_>>()?;
    Ok(Results { dir, records })
}

/// Parses one line of `results.jsonl`.
pub fn parse(text: &str) -> Result<Loaded> {
    let line: Line = serde_json::from_str(text).context("not a results record")?;
    let mut stats = line.statistics.unwrap_or_default();
    let phases = line
        .phases
        .into_iter()
        .map(|(name, value)| {
            let Some(cycles) = value.as_u64() else {
                bail!("phase {name} is not a cycle count: {value}");
            };
            let stats = stats.remove(&name);
            Ok(Phase { name, cycles, stats })
        })
        .collect::<Result<_>>()?;
    let raw_phases = line
        .raw_phases
        .unwrap_or_default()
        .into_iter()
        .map(|(name, value)| match value.as_u64() {
            Some(cycles) => Ok((name, cycles)),
            None => bail!("raw phase {name} is not a cycle count: {value}"),
        })
        .collect::<Result<_>>()?;
    let software_length = serde_json::from_str::<Value>(&line.request)
        .ok()
        .and_then(|r| r["software"]["length"].as_u64());
    Ok(Loaded {
        status: line.status,
        target: line.target,
        platform: line.platform,
        file: line.file,
        line: line.line,
        request: line.request,
        benchmark: line.benchmark,
        dataset: line.dataset,
        config: line.config,
        module: line.module,
        implementation: line.implementation,
        implementation_name: line.implementation_name,
        verified: line.verified,
        cycle_accurate: line.cycle_accurate,
        repetitions: line.repetitions,
        overhead: line.overhead,
        phases,
        raw_phases,
        total_cycles: line.total_cycles,
        bytes: line.bytes,
        recorded_cycles_per_byte: line.cycles_per_byte,
        primitive: line.primitive,
        variant: line.variant,
        software_length,
        limbs: line.limbs,
        stack_bytes: line.stack_bytes,
        code_symbol: line.code_symbol,
        code_bytes: line.code_bytes,
        reason: line.reason,
        error: line.error,
        firmware_revision: line.firmware_revision,
        timestamp: line.timestamp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_keep_their_order_and_pick_up_statistics() {
        let r = parse(
            r#"{"status":"ok","benchmark":"hash","phases":{"init":9,"input":20,"await_digest":5},
            "statistics":{"input":{"n":3,"min":19,"median":20,"max":25,"mean":21.33}},"total_cycles":34}"#,
        )
        .unwrap();
        let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["init", "input", "await_digest"]);
        assert_eq!(r.phases[1].stats.map(|s| (s.min, s.max)), Some((19, 25)));
        assert!(r.phases[0].stats.is_none());
        assert!(r.is_measurement() && r.repeated());
    }

    #[test]
    fn software_fields_load_and_are_absent_on_older_records() {
        let r = parse(
            r#"{"status":"ok","benchmark":"software","phases":{"run":2097},"total_cycles":2097,
            "bytes":1,"cycles_per_byte":2097.0,"primitive":"chacha20","variant":"rv32i","limbs":null,
            "stack_bytes":208,"code_symbol":"cb_chacha20_rv32i","code_bytes":3146}"#,
        )
        .unwrap();
        assert_eq!(
            (r.primitive.as_deref(), r.variant.as_deref()),
            (Some("chacha20"), Some("rv32i"))
        );
        assert_eq!((r.limbs, r.stack_bytes, r.code_bytes), (None, Some(208), Some(3146)));
        assert_eq!(r.code_symbol.as_deref(), Some("cb_chacha20_rv32i"));
        let mp = parse(r#"{"status":"ok","benchmark":"software","phases":{"run":65},"limbs":2}"#).unwrap();
        assert_eq!(mp.limbs, Some(2));
        let old = parse(r#"{"status":"ok","benchmark":"hash","phases":{"init":9}}"#).unwrap();
        assert!(old.primitive.is_none() && old.variant.is_none() && old.limbs.is_none());
        assert!(old.stack_bytes.is_none() && old.code_symbol.is_none() && old.code_bytes.is_none());
    }

    #[test]
    fn raw_phases_and_the_requested_software_length_load() {
        let r = parse(
            r#"{"status":"ok","benchmark":"software","file":"benchmarks/swcrypto/lengths.bench",
            "request":"{\"software\": {\"primitive\": \"chacha20\", \"variant\": \"rv32i\", \"length\": 64}}",
            "phases":{"run":2098,"tail":3},"raw_phases":{"run":2102,"tail":7}}"#,
        )
        .unwrap();
        assert_eq!(r.raw_phases, [("run".to_owned(), 2102), ("tail".to_owned(), 7)]);
        assert_eq!(
            (r.raw_phase("tail"), r.raw_phase("init"), r.raw_total()),
            (Some(7), None, 2109)
        );
        assert_eq!((r.software_length, r.file_stem()), (Some(64), "lengths"));
        let fixed = parse(
            r#"{"status":"error","benchmark":"software","raw_phases":null,
            "request":"{\"software\": {\"primitive\": \"keccak-f1600\", \"variant\": \"rv32i\"}}"}"#,
        )
        .unwrap();
        assert!(fixed.raw_phases.is_empty() && fixed.software_length.is_none());
        assert_eq!(fixed.raw_total(), 0);
        let e = parse(r#"{"status":"ok","benchmark":"hash","raw_phases":{"init":-1}}"#).unwrap_err();
        assert!(
            format!("{e:#}").contains("raw phase init is not a cycle count"),
            "{e:#}"
        );
    }

    #[test]
    fn a_phase_that_is_not_a_count_is_an_error() {
        let e = parse(r#"{"status":"ok","benchmark":"hash","phases":{"init":"x"}}"#).unwrap_err();
        assert!(format!("{e:#}").contains("phase init is not a cycle count"), "{e:#}");
    }
}
