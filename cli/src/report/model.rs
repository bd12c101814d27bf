//! What a report says, worked out from the records: header, tables and the charts to draw.
//! Both the Markdown and the HTML template render this one model, so they show the same
//! numbers; nothing here is formatted for one of them.

use std::collections::BTreeSet;

use serde::Serialize;

use super::stats;
use crate::results::{distinct, Record, Results, Status};
use cyclebench_protocol::ImplementationKind as Kind;

/// The kind of work a phase does, as the benchmark kind declares it; phases of one category
/// share a colour in the charts.
pub use cyclebench_protocol::PhaseCategory as Category;

/// Legend text of a category.
pub fn category_label(category: Category) -> &'static str {
    match category {
        Category::Initialisation => "initialisation",
        Category::Input => "input",
        Category::Computation => "computation / await",
        Category::Output => "output",
        Category::Deinitialisation => "deinitialisation",
        Category::Other => "other",
    }
}

/// Who measured what, when: the report's header.
#[derive(Clone, Debug, Serialize)]
pub struct Header {
    /// Target(s) as named on the command line.
    pub target: String,
    /// Platform(s) the suite announced.
    pub platform: String,
    /// `module: implementation (hardware|software)`, in order of first use.
    pub implementations: Vec<String>,
    /// Whether the counts are cycles, in words.
    pub cycle_accuracy: String,
    /// Calibrated overhead of one measurement window, in words.
    pub overhead: String,
    /// Firmware revision(s).
    pub firmware_revision: String,
    /// When the replies arrived.
    pub date: String,
    /// Measured records.
    pub measured: usize,
    /// Unsupported records.
    pub unsupported: usize,
    /// Failed records.
    pub errors: usize,
    /// Control requests answered (hello, status, done, suspend): no cycle counts.
    pub control: usize,
}

/// One phase of a measurement.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseCycles {
    /// Phase name.
    pub name: String,
    /// Corrected median cycles.
    pub cycles: u64,
}

/// A row of the results table.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// `file.bench:line`.
    pub location: String,
    /// Benchmark kind.
    pub benchmark: String,
    /// Dataset and configuration.
    pub description: String,
    /// `name (kind)`.
    pub implementation: String,
    /// Repetitions on the device.
    pub repetitions: u16,
    /// Whether the output matched a known answer.
    pub verified: bool,
    /// Phases in execution order.
    pub phases: Vec<PhaseCycles>,
    /// Sum of the phases.
    pub total: Option<u64>,
    /// Bytes processed.
    pub bytes: Option<u64>,
    /// Total cycles per byte.
    pub cycles_per_byte: Option<f64>,
}

/// A row of the statistics table: one phase of a repeated benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct StatRow {
    /// `file.bench:line`.
    pub location: String,
    /// Benchmark kind.
    pub benchmark: String,
    /// Dataset and configuration.
    pub description: String,
    /// Phase name.
    pub phase: String,
    /// Repetitions.
    pub n: u16,
    /// Shortest corrected window.
    pub min: u64,
    /// Median corrected window.
    pub median: u64,
    /// Longest corrected window.
    pub max: u64,
    /// Mean corrected window, shown where the target is not cycle-accurate.
    pub mean: Option<f64>,
}

/// A request that has no cycle counts, and why.
#[derive(Clone, Debug, Serialize)]
pub struct NotMeasured {
    /// `file.bench:line`.
    pub location: String,
    /// Benchmark kind.
    pub benchmark: String,
    /// Dataset and configuration.
    pub description: String,
    /// `unsupported` or `error`.
    pub status: &'static str,
    /// The reason or the error.
    pub why: String,
}

/// One stretch of a stacked bar.
#[derive(Clone, Debug, Serialize)]
pub struct Segment {
    /// Phase name.
    pub phase: String,
    /// Its kind of work.
    pub category: Category,
    /// Corrected median cycles.
    pub cycles: u64,
}

/// One stacked bar: a benchmark's phases.
#[derive(Clone, Debug, Serialize)]
pub struct Bar {
    /// Axis label.
    pub label: String,
    /// Phases in execution order.
    pub segments: Vec<Segment>,
    /// Sum of the segments.
    pub total: u64,
}

/// A phase-breakdown chart: the benchmarks of one file that share a phase list.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseChart {
    /// File stem of the plot under `plots/`.
    pub name: String,
    /// Caption.
    pub title: String,
    /// One bar per benchmark.
    pub bars: Vec<Bar>,
    /// Categories present, for the legend.
    pub categories: Vec<Category>,
}

/// A point of a cycles-per-byte series.
#[derive(Clone, Debug, Serialize)]
pub struct CpbPoint {
    /// `file.bench:line` of the record the point comes from.
    pub location: String,
    /// Dataset.
    pub dataset: String,
    /// Message size.
    pub bytes: u64,
    /// Total cycles.
    pub total: u64,
    /// `total / bytes`.
    pub cycles_per_byte: f64,
}

/// One configuration measured at several message sizes.
#[derive(Clone, Debug, Serialize)]
pub struct CpbSeries {
    /// Legend text: configuration and implementation.
    pub label: String,
    /// Points by growing size.
    pub points: Vec<CpbPoint>,
}

/// Cycles per byte against message size for one benchmark kind.
#[derive(Clone, Debug, Serialize)]
pub struct CpbChart {
    /// File stem of the plot under `plots/`.
    pub name: String,
    /// Caption.
    pub title: String,
    /// Its series.
    pub series: Vec<CpbSeries>,
}

/// One side of a hardware/software pair.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// `file.bench:line`.
    pub location: String,
    /// Implementation name.
    pub name: String,
    /// Total cycles.
    pub total: u64,
}

/// The same operation in hardware and in software.
#[derive(Clone, Debug, Serialize)]
pub struct Speedup {
    /// Benchmark, dataset and configuration.
    pub operation: String,
    /// The operation and the software implementation, for the chart's rows.
    pub label: String,
    /// The software run.
    pub software: Side,
    /// The hardware run.
    pub hardware: Side,
    /// Software cycles over hardware cycles.
    pub factor: f64,
}

/// What a software chart plots against what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SoftwareAxes {
    /// Corrected total cycles against limbs per operand (multi-precision arithmetic).
    CyclesAgainstLimbs,
    /// Cycles per byte against the length processed (stream ciphers).
    CyclesPerByteAgainstLength,
}

/// A point of a software series.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwarePoint {
    /// `file.bench:line` of the record the point comes from.
    pub location: String,
    /// Limbs or bytes.
    pub x: u64,
    /// Corrected total cycles.
    pub total: u64,
    /// Cycles per byte, where bytes were processed.
    pub cycles_per_byte: Option<f64>,
}

/// One primitive in one variant at several sizes.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwareSeries {
    /// Primitive (`mp-mul`, `chacha20`).
    pub primitive: String,
    /// Variant (`rust`, `rv32i`, `zbb`); empty when the record does not say.
    pub variant: String,
    /// Points by growing size.
    pub points: Vec<SoftwarePoint>,
}

impl SoftwareSeries {
    /// Legend text.
    pub fn label(&self) -> String {
        format!("{} {}", self.primitive, self.variant).trim().to_owned()
    }
}

/// A line chart of software primitives: one line per primitive and variant.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwareChart {
    /// File stem of the plot under `plots/`.
    pub name: String,
    /// Caption.
    pub title: String,
    /// What is plotted.
    pub axes: SoftwareAxes,
    /// Primitives in order of first appearance (one colour each).
    pub primitives: Vec<String>,
    /// Its series.
    pub series: Vec<SoftwareSeries>,
}

/// A row of the software table: one measured primitive call.
#[derive(Clone, Debug, Serialize)]
pub struct SoftwareRow {
    /// `file.bench:line`.
    pub location: String,
    /// Primitive.
    pub primitive: String,
    /// Variant.
    pub variant: String,
    /// `4096 B` or `32 limbs`; empty for fixed-size operations without bytes (key schedules).
    pub length: String,
    /// Repetitions on the device.
    pub repetitions: u16,
    /// Whether the output matched a known answer.
    pub verified: bool,
    /// Corrected total cycles.
    pub total: Option<u64>,
    /// Total cycles per byte.
    pub cycles_per_byte: Option<f64>,
    /// Deepest stack use of the call.
    pub stack_bytes: Option<u32>,
    /// Function called (Rust names demangled); empty when the firmware's symbols were unknown.
    pub code_symbol: String,
    /// Its code size.
    pub code_bytes: Option<u64>,
}

/// A row of the leakage table: one constant-time test.
#[derive(Clone, Debug, Serialize)]
pub struct LeakageRow {
    /// `file.bench:line`.
    pub location: String,
    /// Primitive or control timed.
    pub operation: String,
    /// Variant.
    pub variant: String,
    /// The input that was random in class 1 (`key` or `data`).
    pub secret: String,
    /// `64 B` or `8 limbs`; empty for fixed-size operations.
    pub length: String,
    /// Timed calls, both classes.
    pub measurements: Option<u64>,
    /// The largest |t| of the tests.
    pub max_abs_t: Option<f64>,
    /// Whether that |t| is the suite's sentinel for two constant classes with different times
    /// (or a larger |t| saturated at it).
    pub unbounded: bool,
    /// Which test gave it: `uncropped` or `crop k`.
    pub test: String,
    /// `leak` or `no-leak-detected`.
    pub verdict: String,
    /// Mean cycles of class 0 (fixed input).
    pub class0_mean: Option<f64>,
    /// Variance of class 0.
    pub class0_variance: Option<f64>,
    /// Mean cycles of class 1 (random input).
    pub class1_mean: Option<f64>,
    /// Variance of class 1.
    pub class1_variance: Option<f64>,
    /// Function timed (Rust names demangled).
    pub code_symbol: String,
}

/// Everything a report shows.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Heading.
    pub title: String,
    /// Header facts.
    pub header: Header,
    /// Whether some measured record came from a target that is not (known to be)
    /// cycle-accurate: the report then warns that its counts are not clock cycles.
    pub not_cycle_accurate: bool,
    /// Whether the statistics table has a mean column (targets that are not cycle-accurate).
    pub show_mean: bool,
    /// Phase-breakdown charts.
    pub phase_charts: Vec<PhaseChart>,
    /// Benchmarks left out of the phase charts, and why.
    pub not_charted: Vec<String>,
    /// Cycles-per-byte charts.
    pub cpb_charts: Vec<CpbChart>,
    /// Software primitives against limbs or length.
    pub software_charts: Vec<SoftwareChart>,
    /// Every measured software primitive.
    pub software: Vec<SoftwareRow>,
    /// Every constant-time (leakage) test.
    pub leakage: Vec<LeakageRow>,
    /// Hardware/software pairs.
    pub speedups: Vec<Speedup>,
    /// File stem of the speed-up plot, when there are pairs.
    pub speedup_chart: Option<String>,
    /// Every measurement.
    pub measurements: Vec<Measurement>,
    /// Per-phase statistics of repeated measurements.
    pub statistics: Vec<StatRow>,
    /// Unsupported and failed requests.
    pub not_measured: Vec<NotMeasured>,
}

/// Benchmarks left out of the phase charts, and why: `micro`'s "phases" are independent
/// instruction blocks, so stacking them would suggest a sequence that is not there; a software
/// primitive is a single phase, which a stacked bar would only show as one block of "other".
fn not_stacked(benchmark: &str) -> Option<&'static str> {
    match benchmark {
        "micro" => Some("its blocks are independent instruction sequences, not phases of one operation"),
        "software" => Some("each primitive is a single phase (run), charted under Software primitives"),
        "leakage" => Some("its result is timing statistics of many calls, not phases, tabled under Leakage tests"),
        _ => None,
    }
}

impl Report {
    /// Works the report out from a results directory.
    pub fn build(results: &Results) -> Self {
        let records = &results.records;
        let measured: Vec<&Record> = records.iter().filter(|r| measured(r)).collect();
        let not_cycle_accurate = measured.iter().any(|r| r.cycle_accurate != Some(true));
        let show_mean = measured.iter().any(|r| r.cycle_accurate != Some(true) && r.repeated());
        let header = header(records, &measured);
        let title = format!("cyclebench report: {} on {}", header.platform, header.target);
        let speedups = speedups(&measured);
        Self {
            title,
            header,
            not_cycle_accurate,
            show_mean,
            phase_charts: phase_charts(&measured),
            not_charted: not_charted(&measured),
            cpb_charts: cpb_charts(&measured),
            software_charts: software_charts(&measured),
            software: measured.iter().filter_map(|r| software_row(r)).collect(),
            leakage: measured.iter().filter_map(|r| leakage_row(r)).collect(),
            speedup_chart: (!speedups.is_empty()).then(|| String::from("speedup")),
            speedups,
            measurements: measured.iter().map(|r| measurement(r)).collect(),
            statistics: statistics(&measured),
            not_measured: records.iter().filter_map(not_measured).collect(),
        }
    }
}

/// Whether a record reports a measurement: cycle counts, or the result of a kind that declares
/// no phases (a leakage test's statistics), which would otherwise read as a control request.
fn measured(r: &Record) -> bool {
    r.is_measurement() || (r.status == Status::Ok && r.benchmark_kind().is_some_and(|k| k.phases().is_empty()))
}

fn unknown() -> String {
    String::from("unknown")
}

fn header(records: &[Record], measured: &[&Record]) -> Header {
    let mut implementations: Vec<String> = Vec::new();
    let mut modules: Vec<&str> = Vec::new();
    for r in measured {
        let Some(module) = r.module.as_deref() else {
            continue;
        };
        let entry = match (&r.implementation_name, r.implementation) {
            (Some(name), Some(kind)) => Some(format!("{module}: {name} ({})", kind.name())),
            // Software primitives run on the CPU and have no inventory name.
            _ if r.primitive().is_some() => Some(format!("{module}: software primitives")),
            _ => None,
        };
        if let Some(entry) = entry.filter(|e| !implementations.contains(e)) {
            implementations.push(entry);
        }
        // A module that measured something is not unsupported, even where a variant was.
        if !modules.contains(&module) {
            modules.push(module);
        }
    }
    for r in records.iter().filter(|r| r.status == Status::Unsupported) {
        if let Some(module) = r.module.as_deref().filter(|m| !modules.contains(m)) {
            implementations.push(format!("{module}: unsupported"));
            modules.push(module);
        }
    }
    let accuracy: BTreeSet<Option<bool>> = records.iter().map(|r| r.cycle_accurate).collect();
    let cycle_accuracy = match accuracy.into_iter().collect::<Vec<_>>().as_slice() {
        [Some(true)] => "yes: counts are clock cycles",
        [Some(false)] => "no: counts are functional indications, not clock cycles",
        [] | [None] => "unknown (no reply from the suite)",
        _ => "mixed: the records come from targets that differ",
    };
    let overheads: Vec<String> = measured
        .iter()
        .filter_map(|r| r.overhead.map(|o| o.to_string()))
        .collect();
    let overhead = match distinct(overheads.iter().map(String::as_str)) {
        Some(o) => format!("{o} cycles per measurement window, subtracted from every phase"),
        None => String::from("unknown (nothing measured)"),
    };
    let count = |s: Status| records.iter().filter(|r| r.status == s).count();
    Header {
        target: distinct(records.iter().map(|r| r.target.as_str())).unwrap_or_else(unknown),
        platform: distinct(records.iter().filter_map(|r| r.platform.as_deref())).unwrap_or_else(unknown),
        implementations,
        cycle_accuracy: String::from(cycle_accuracy),
        overhead,
        firmware_revision: distinct(records.iter().map(|r| r.firmware_revision.as_str())).unwrap_or_else(unknown),
        date: date(records),
        measured: measured.len(),
        unsupported: count(Status::Unsupported),
        errors: count(Status::Error),
        control: count(Status::Ok) - measured.len(),
    }
}

/// The span of the reply timestamps.
fn date(records: &[Record]) -> String {
    let times: Vec<_> = records
        .iter()
        .filter_map(|r| chrono::DateTime::parse_from_rfc3339(&r.timestamp).ok())
        .collect();
    let (Some(first), Some(last)) = (times.iter().min(), times.iter().max()) else {
        return unknown();
    };
    let day = "%Y-%m-%d %H:%M:%S";
    let to = if first.date_naive() == last.date_naive() {
        "%H:%M:%S"
    } else {
        day
    };
    format!("{} to {} ({})", first.format(day), last.format(to), first.format("%:z"))
}

fn implementation(r: &Record) -> String {
    match (&r.implementation_name, r.implementation) {
        (Some(name), Some(kind)) => format!("{name} ({})", kind.name()),
        (None, Some(kind)) => kind.name().to_owned(),
        (Some(name), None) => name.clone(),
        (None, None) => String::new(),
    }
}

fn measurement(r: &Record) -> Measurement {
    Measurement {
        location: r.location(),
        benchmark: r.benchmark.clone(),
        description: r.description(),
        implementation: implementation(r),
        repetitions: r.runs(),
        verified: r.verified,
        phases: r
            .phases
            .iter()
            .map(|(name, cycles)| PhaseCycles {
                name: name.clone(),
                cycles: *cycles,
            })
            .collect(),
        // A result without phases (a leakage test's statistics) has no total to show.
        total: r.total_cycles.filter(|_| !r.phases.is_empty()),
        bytes: r.bytes,
        cycles_per_byte: r.cycles_per_byte(),
    }
}

fn statistics(measured: &[&Record]) -> Vec<StatRow> {
    let mut rows = Vec::new();
    for r in measured {
        for p in &r.phases() {
            if let Some(s) = p.stats {
                rows.push(StatRow {
                    location: r.location(),
                    benchmark: r.benchmark.clone(),
                    description: r.description(),
                    phase: p.name.clone(),
                    n: s.n,
                    min: s.min,
                    median: s.median,
                    max: s.max,
                    mean: (r.cycle_accurate != Some(true)).then_some(s.mean),
                });
            }
        }
    }
    rows
}

fn not_measured(r: &Record) -> Option<NotMeasured> {
    let (status, why) = match r.status {
        Status::Ok => return None,
        Status::Unsupported => ("unsupported", r.reason.clone()),
        Status::Error => ("error", r.error.clone()),
    };
    Some(NotMeasured {
        location: r.location(),
        benchmark: r.benchmark.clone(),
        description: r.description(),
        status,
        why: why.unwrap_or_default(),
    })
}

/// File stem for a plot: lower-case letters, digits and dashes.
fn slug(parts: &[&str]) -> String {
    let joined = parts.join("-");
    let mut slug = String::new();
    for c in joined.chars() {
        let c = if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '-'
        };
        if !(c == '-' && slug.ends_with('-')) {
            slug.push(c);
        }
    }
    slug.trim_matches('-').to_owned()
}

fn phase_charts(measured: &[&Record]) -> Vec<PhaseChart> {
    // One chart per file and phase list: the thesis's figures compare the configurations of
    // one study, and bars with different phases would not share a legend order.
    type Key<'a> = (&'a str, &'a str, Vec<String>);
    let mut groups: Vec<(Key, Vec<&Record>)> = Vec::new();
    for r in measured
        .iter()
        .filter(|r| not_stacked(&r.benchmark).is_none() && !r.phases.is_empty())
    {
        let key = (
            r.file.as_str(),
            r.benchmark.as_str(),
            r.phases().iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    groups
        .into_iter()
        .enumerate()
        .map(|(i, ((_, benchmark, phases), members))| {
            let file = members[0].file_name();
            let stem = file.strip_suffix(".bench").unwrap_or(file);
            // Name the implementation only where the chart mixes hardware and software.
            let mixed = members.iter().any(|r| r.implementation != members[0].implementation);
            let bars: Vec<Bar> = members
                .iter()
                .map(|r| Bar {
                    label: match (&r.implementation_name, mixed) {
                        (Some(name), true) => format!("{} on {name} (line {})", r.description(), r.line),
                        _ => format!("{} (line {})", r.description(), r.line),
                    },
                    segments: r
                        .phases
                        .iter()
                        .map(|(name, cycles)| Segment {
                            phase: name.clone(),
                            category: r.category(name),
                            cycles: *cycles,
                        })
                        .collect(),
                    total: r.phases.iter().map(|(_, c)| c).sum(),
                })
                .collect();
            let categories: BTreeSet<Category> = phases.iter().map(|p| members[0].category(p)).collect();
            PhaseChart {
                name: slug(&["phases", &format!("{:02}", i + 1), stem, benchmark]),
                title: format!("{file}: {benchmark} ({})", phases.join(", ")),
                bars,
                categories: categories.into_iter().collect(),
            }
        })
        .collect()
}

fn not_charted(measured: &[&Record]) -> Vec<String> {
    let kinds: BTreeSet<(&str, &str)> = measured
        .iter()
        .filter_map(|r| Some((r.benchmark.as_str(), not_stacked(&r.benchmark)?)))
        .collect();
    kinds.into_iter().map(|(b, why)| format!("{b}: {why}")).collect()
}

fn cpb_charts(measured: &[&Record]) -> Vec<CpbChart> {
    // A series is one configuration on one implementation; only message size may vary.
    type Key<'a> = (&'a str, Option<&'a str>, Option<Kind>, Option<&'a str>);
    let mut series: Vec<(Key, Vec<&Record>)> = Vec::new();
    for r in measured
        .iter()
        .filter(|r| r.cycles_per_byte().is_some() && r.dataset.is_some())
    {
        let key = (
            r.benchmark.as_str(),
            r.config.as_deref(),
            r.implementation,
            r.implementation_name.as_deref(),
        );
        match series.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(r),
            None => series.push((key, vec![r])),
        }
    }
    let mut charts: Vec<(&str, CpbChart)> = Vec::new();
    for ((benchmark, config, kind, name), members) in series {
        let Some(points) = size_sweep(&members) else {
            continue;
        };
        let who = match (name, kind) {
            (Some(n), _) => n,
            (None, Some(k)) => k.name(),
            (None, None) => "unknown implementation",
        };
        let s = CpbSeries {
            label: format!("{} ({who})", config.unwrap_or(benchmark)),
            points,
        };
        match charts.iter_mut().find(|(b, _)| *b == benchmark) {
            Some((_, c)) => c.series.push(s),
            None => charts.push((
                benchmark,
                CpbChart {
                    name: slug(&["cpb", benchmark]),
                    title: format!("{benchmark}: cycles per byte against message size"),
                    series: vec![s],
                },
            )),
        }
    }
    charts.into_iter().map(|(_, c)| c).collect()
}

/// The points of a series when it is a size sweep: at least two message sizes, each size
/// from one dataset (AES modes of equal length differ in more than size, so they are no
/// sweep). Repeated measurements of a dataset count once, by their representative.
fn size_sweep(members: &[&Record]) -> Option<Vec<CpbPoint>> {
    let mut datasets: Vec<&str> = Vec::new();
    for r in members {
        let d = r.dataset.as_deref()?;
        if !datasets.contains(&d) {
            datasets.push(d);
        }
    }
    let mut points: Vec<CpbPoint> = Vec::new();
    for d in datasets {
        let r = stats::representative(members.iter().copied().filter(|r| r.dataset.as_deref() == Some(d)))?;
        let (bytes, total, cycles_per_byte) = (r.bytes?, r.total_cycles?, r.cycles_per_byte()?);
        // The chart's axes are logarithmic: a zero count has no place on them.
        if points.iter().any(|p| p.bytes == bytes) || cycles_per_byte <= 0.0 {
            return None;
        }
        points.push(CpbPoint {
            location: r.location(),
            dataset: d.to_owned(),
            bytes,
            total,
            cycles_per_byte,
        });
    }
    points.sort_by_key(|p| p.bytes);
    (points.len() >= 2).then_some(points)
}

/// The chart a multi-precision primitive belongs to: additions together, multiplications
/// (schoolbook and Karatsuba) together, reduced or not.
fn mp_family(primitive: &str) -> &str {
    let base = primitive.strip_prefix("mp-").unwrap_or(primitive);
    match base.strip_suffix("-reduced").unwrap_or(base) {
        "add" => "addition",
        "mul" | "karatsuba" => "multiplication",
        other => other,
    }
}

fn software_charts(measured: &[&Record]) -> Vec<SoftwareChart> {
    // A series is one primitive in one variant; only the limbs or the length vary.
    type Key<'a> = (SoftwareAxes, &'a str, &'a str);
    let mut series: Vec<(Key, Vec<&Record>)> = Vec::new();
    for r in measured {
        let Some(primitive) = r.primitive() else {
            continue;
        };
        let axes = if r.limbs().is_some() {
            SoftwareAxes::CyclesAgainstLimbs
        } else if r.cycles_per_byte().is_some() {
            SoftwareAxes::CyclesPerByteAgainstLength
        } else {
            continue;
        };
        let key = (axes, primitive, r.variant().unwrap_or(""));
        match series.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(r),
            None => series.push((key, vec![r])),
        }
    }
    let mut charts: Vec<SoftwareChart> = Vec::new();
    // The limb charts first, then the cycles-per-byte chart, whatever the order of the files.
    series.sort_by_key(|((axes, ..), _)| *axes == SoftwareAxes::CyclesPerByteAgainstLength);
    for ((axes, primitive, variant), members) in series {
        let Some(points) = software_sweep(axes, &members) else {
            continue;
        };
        let (name, title) = match axes {
            SoftwareAxes::CyclesAgainstLimbs => {
                let family = mp_family(primitive);
                (
                    slug(&["software", "mp", family]),
                    format!("Multi-precision {family}: cycles against limbs"),
                )
            }
            SoftwareAxes::CyclesPerByteAgainstLength => (
                String::from("software-cycles-per-byte"),
                String::from("Software stream ciphers: cycles per byte against length"),
            ),
        };
        let s = SoftwareSeries {
            primitive: primitive.to_owned(),
            variant: variant.to_owned(),
            points,
        };
        let chart = match charts.iter_mut().position(|c| c.name == name) {
            Some(i) => &mut charts[i],
            None => {
                charts.push(SoftwareChart {
                    name,
                    title,
                    axes,
                    primitives: Vec::new(),
                    series: Vec::new(),
                });
                charts.last_mut().expect("just pushed")
            }
        };
        if !chart.primitives.contains(&s.primitive) {
            chart.primitives.push(s.primitive.clone());
        }
        chart.series.push(s);
    }
    charts
}

/// The points of a software series when it is a sweep: at least two limb counts or lengths.
/// Repeated measurements of one size count once, by their representative.
fn software_sweep(axes: SoftwareAxes, members: &[&Record]) -> Option<Vec<SoftwarePoint>> {
    let x_of = |r: &Record| match axes {
        SoftwareAxes::CyclesAgainstLimbs => r.limbs().map(u64::from),
        SoftwareAxes::CyclesPerByteAgainstLength => r.bytes,
    };
    let mut sizes: Vec<u64> = members.iter().filter_map(|r| x_of(r)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut points = Vec::new();
    for x in sizes {
        let r = stats::representative(members.iter().copied().filter(|r| x_of(r) == Some(x)))?;
        let Some(total) = r.total_cycles else {
            continue;
        };
        let cycles_per_byte = r.cycles_per_byte();
        // The cycles-per-byte chart has logarithmic axes: zero has no place on them.
        if axes == SoftwareAxes::CyclesPerByteAgainstLength && !cycles_per_byte.is_some_and(|c| c > 0.0) {
            continue;
        }
        points.push(SoftwarePoint {
            location: r.location(),
            x,
            total,
            cycles_per_byte,
        });
    }
    (points.len() >= 2).then_some(points)
}

fn software_row(r: &Record) -> Option<SoftwareRow> {
    let primitive = r.primitive()?.to_owned();
    let length = match (r.limbs(), r.bytes) {
        (Some(limbs), _) => format!("{limbs} limbs"),
        (None, Some(bytes)) => format!("{bytes} B"),
        (None, None) => String::new(),
    };
    Some(SoftwareRow {
        location: r.location(),
        primitive,
        variant: r.variant().unwrap_or_default().to_owned(),
        length,
        repetitions: r.runs(),
        verified: r.verified,
        total: r.total_cycles,
        cycles_per_byte: r.cycles_per_byte(),
        stack_bytes: r.stack_bytes(),
        code_symbol: r.code_symbol.as_deref().map(demangle).unwrap_or_default(),
        code_bytes: r.code_bytes,
    })
}

fn leakage_row(r: &Record) -> Option<LeakageRow> {
    if r.benchmark != "leakage" {
        return None;
    }
    let decimal = |field: &str| r.details.get(field).and_then(serde_json::Value::as_f64);
    let text = |field: &str| r.text(field).unwrap_or_default().to_owned();
    let length = match (r.limbs(), r.number("length_bytes")) {
        (Some(limbs), _) => format!("{limbs} limbs"),
        (None, Some(bytes)) => format!("{bytes} B"),
        (None, None) => String::new(),
    };
    let max_abs_t = decimal("max_abs_t");
    Some(LeakageRow {
        location: r.location(),
        operation: text("operation"),
        variant: text("variant"),
        secret: text("secret"),
        length,
        measurements: r.number("measurements"),
        unbounded: r.details.get("t_unbounded").and_then(serde_json::Value::as_bool) == Some(true),
        max_abs_t,
        test: match r.number("max_abs_t_test") {
            Some(0) => String::from("uncropped"),
            Some(k) => format!("crop {k}"),
            None => String::new(),
        },
        verdict: text("verdict"),
        class0_mean: decimal("class0_mean"),
        class0_variance: decimal("class0_variance"),
        class1_mean: decimal("class1_mean"),
        class1_variance: decimal("class1_variance"),
        code_symbol: r.code_symbol.as_deref().map(demangle).unwrap_or_default(),
    })
}

/// A mangled Rust symbol (legacy `_ZN...17h<hash>E` or v0 `_R...`) as a path without its
/// hash (`cyclebench_swcrypto::chacha20::chacha20_rust`); any other name unchanged.
fn demangle(symbol: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(symbol))
}

fn speedups(measured: &[&Record]) -> Vec<Speedup> {
    // The same operation: benchmark, dataset, configuration and module all equal.
    type Key<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Option<&'a str>);
    let mut operations: Vec<Key> = Vec::new();
    for r in measured {
        let key = (
            r.benchmark.as_str(),
            r.dataset.as_deref(),
            r.config.as_deref(),
            r.module.as_deref(),
        );
        if !operations.contains(&key) {
            operations.push(key);
        }
    }
    let mut pairs = Vec::new();
    for key in operations {
        let of = |kind: Kind, name: Option<&str>| {
            stats::representative(measured.iter().copied().filter(|r| {
                (
                    r.benchmark.as_str(),
                    r.dataset.as_deref(),
                    r.config.as_deref(),
                    r.module.as_deref(),
                ) == key
                    && r.implementation == Some(kind)
                    && name.is_none_or(|n| r.implementation_name.as_deref() == Some(n))
            }))
        };
        let Some(hw) = of(Kind::Hardware, None) else {
            continue;
        };
        let Some(hw_total) = hw.total_cycles.filter(|&c| c > 0) else {
            continue;
        };
        // One pair per software implementation of the operation (RustCrypto, the suite's own).
        let mut names: Vec<Option<&str>> = Vec::new();
        for r in measured.iter().filter(|r| r.implementation == Some(Kind::Software)) {
            let name = r.implementation_name.as_deref();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        for name in names {
            let Some(sw) = of(Kind::Software, name) else {
                continue;
            };
            let Some(sw_total) = sw.total_cycles else {
                continue;
            };
            let side = |r: &Record, total: u64| Side {
                location: r.location(),
                name: r.implementation_name.clone().unwrap_or_default(),
                total,
            };
            let operation = format!("{} {}", key.0, sw.description());
            pairs.push(Speedup {
                label: format!(
                    "{operation} ({})",
                    sw.implementation_name.as_deref().unwrap_or("software")
                ),
                operation,
                software: side(sw, sw_total),
                hardware: side(hw, hw_total),
                factor: sw_total as f64 / hw_total as f64,
            });
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A measured software record, as `cyclebench run` writes it.
    fn software(
        line: usize,
        primitive: &str,
        variant: &str,
        limbs: Option<u32>,
        bytes: Option<u64>,
        total: u64,
    ) -> String {
        let cpb = bytes.map_or(String::from("null"), |b| format!("{:.2}", total as f64 / b as f64));
        let json = |v: Option<u64>| v.map_or(String::from("null"), |v| v.to_string());
        format!(
            r#"{{"status":"ok","target":"ibex-sim","platform":"ibex-sim","file":"benchmarks/sw.bench","line":{line},
            "benchmark":"software","module":"cpu","implementation":"software","verified":true,"cycle_accurate":true,
            "repetitions":1,"overhead":4,"phases":{{"run":{total}}},"total_cycles":{total},"bytes":{},
            "cycles_per_byte":{cpb},"primitive":"{primitive}","variant":"{variant}","limbs":{},"stack_bytes":{},
            "code_symbol":"cb_{}_{variant}","code_bytes":{}}}"#,
            json(bytes),
            json(limbs.map(u64::from)),
            line * 4,
            primitive.replace('-', "_"),
            1000 + line,
        )
        .replace('\n', "")
    }

    fn build(lines: &[String]) -> Report {
        let records = lines.iter().map(|l| crate::results::parse(l).unwrap()).collect();
        Report::build(&Results {
            dir: std::path::PathBuf::from("."),
            file: std::path::PathBuf::from("results.jsonl"),
            records,
            skipped: Vec::new(),
        })
    }

    #[test]
    fn multi_precision_and_stream_ciphers_get_their_own_charts() {
        let mut lines = vec![
            // An older hardware record without any of the software fields.
            String::from(
                r#"{"status":"ok","file":"hash.bench","line":1,"benchmark":"hash","dataset":"msg-256",
                "config":"sha2 tight","module":"sha2","implementation":"hardware","implementation_name":"hmac",
                "cycle_accurate":true,"phases":{"init":9,"input":200},"total_cycles":209,"bytes":256}"#,
            ),
            software(2, "chacha20", "rv32i", None, Some(64), 2123),
            software(3, "chacha20", "rv32i", None, Some(4096), 112814),
            software(4, "chacha20", "rust", None, Some(64), 2347),
            software(5, "chacha20", "rust", None, Some(4096), 129229),
            // Only one length: no line.
            software(6, "keccak-f1600", "rv32i", None, Some(200), 13597),
            software(7, "aes-table-ks", "rust", None, None, 975),
        ];
        for (i, limbs) in [2u32, 4, 8].into_iter().enumerate() {
            let l = 10 + 10 * i;
            let n = u64::from(limbs);
            lines.push(software(l, "mp-add", "rust", Some(limbs), None, 20 * n));
            lines.push(software(l + 1, "mp-add-reduced", "rv32i", Some(limbs), None, 15 * n));
            lines.push(software(l + 2, "mp-mul", "rv32i", Some(limbs), None, 30 * n * n));
            lines.push(software(
                l + 3,
                "mp-karatsuba-reduced",
                "zbb",
                Some(limbs),
                None,
                40 * n * n,
            ));
        }
        // A second measurement of one size is one point, not two.
        lines.push(software(40, "mp-mul", "rv32i", Some(8), None, 1921));
        let r = build(&lines);

        let names: Vec<&str> = r.software_charts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "software-mp-addition",
                "software-mp-multiplication",
                "software-cycles-per-byte"
            ]
        );
        let labels = |i: usize| -> Vec<String> { r.software_charts[i].series.iter().map(|s| s.label()).collect() };
        assert_eq!(labels(0), ["mp-add rust", "mp-add-reduced rv32i"]);
        assert_eq!(labels(1), ["mp-mul rv32i", "mp-karatsuba-reduced zbb"]);
        assert_eq!(labels(2), ["chacha20 rv32i", "chacha20 rust"]);
        assert_eq!(r.software_charts[1].axes, SoftwareAxes::CyclesAgainstLimbs);
        assert_eq!(r.software_charts[2].axes, SoftwareAxes::CyclesPerByteAgainstLength);
        assert_eq!(r.software_charts[2].primitives, ["chacha20"]);
        let mul = &r.software_charts[1].series[0].points;
        assert_eq!(
            mul.iter().map(|p| (p.x, p.total)).collect::<Vec<_>>(),
            [(2, 120), (4, 480), (8, 1920)]
        );
        let chacha = &r.software_charts[2].series[0].points;
        assert_eq!(chacha.iter().map(|p| p.x).collect::<Vec<_>>(), [64, 4096]);
        assert_eq!(chacha[1].cycles_per_byte, Some(27.54));

        // Software sets have no phase chart; the hash record still has its own.
        assert_eq!(r.phase_charts.len(), 1);
        assert_eq!(r.phase_charts[0].bars.len(), 1);
        assert!(
            r.not_charted.iter().any(|n| n.starts_with("software: ")),
            "{:?}",
            r.not_charted
        );
        assert!(r.cpb_charts.is_empty());
        assert_eq!(
            r.header.implementations,
            ["sha2: hmac (hardware)", "cpu: software primitives"]
        );

        // Every measured software record is a row, with its stack and code size.
        assert_eq!(r.software.len(), lines.len() - 1);
        let keccak = r.software.iter().find(|s| s.primitive == "keccak-f1600").unwrap();
        assert_eq!(keccak.length, "200 B");
        assert_eq!((keccak.stack_bytes, keccak.code_bytes), (Some(24), Some(1006)));
        assert_eq!(keccak.code_symbol, "cb_keccak_f1600_rv32i");
        let ks = r.software.iter().find(|s| s.primitive == "aes-table-ks").unwrap();
        assert_eq!((ks.length.as_str(), ks.cycles_per_byte), ("", None));
        assert_eq!(
            r.software.iter().find(|s| s.primitive == "mp-add").unwrap().length,
            "2 limbs"
        );
    }

    #[test]
    fn records_without_software_fields_make_no_software_content() {
        let r = build(&[String::from(
            r#"{"status":"ok","file":"m.bench","line":1,"benchmark":"micro","module":"cpu",
            "implementation":"software","phases":{"nop10":12}}"#,
        )]);
        assert!(r.software_charts.is_empty() && r.software.is_empty());
        assert_eq!(r.not_charted.len(), 1);
        assert!(r.not_charted[0].starts_with("micro: "));
    }

    #[test]
    fn rust_symbols_are_demangled_and_others_kept() {
        assert_eq!(
            demangle("_ZN19cyclebench_swcrypto8chacha2013chacha20_rust17h27e33e21b8d2f431E"),
            "cyclebench_swcrypto::chacha20::chacha20_rust"
        );
        assert_eq!(
            demangle("_ZN4core3ptr42drop_in_place$LT$alloc..string..String$GT$17h0123456789abcdefE"),
            "core::ptr::drop_in_place<alloc::string::String>"
        );
        assert_eq!(
            demangle("_RNvNtCs1234_19cyclebench_swcrypto8chacha2013chacha20_rust"),
            "cyclebench_swcrypto::chacha20::chacha20_rust"
        );
        assert_eq!(demangle("cb_chacha20_rv32i"), "cb_chacha20_rv32i");
        assert_eq!(demangle("_ZN3fooE"), "foo");
        assert_eq!(demangle("_ZN99fooE"), "_ZN99fooE");
    }

    #[test]
    fn multi_precision_primitives_chart_by_operation() {
        assert_eq!(mp_family("mp-add"), "addition");
        assert_eq!(mp_family("mp-add-reduced"), "addition");
        assert_eq!(mp_family("mp-mul-reduced"), "multiplication");
        assert_eq!(mp_family("mp-karatsuba"), "multiplication");
        assert_eq!(mp_family("mp-sub"), "sub");
    }

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(slug(&["phases", "01", "aes_modes", "aes"]), "phases-01-aes-modes-aes");
        assert_eq!(slug(&["cpb", "rng_seeded"]), "cpb-rng-seeded");
    }
}
