//! What a report says, worked out from the records: header, tables and the charts to draw.
//! Both the Markdown and the HTML template render this one model, so they show the same
//! numbers; nothing here is formatted for one of them.

use std::collections::BTreeSet;

use serde::Serialize;

use super::charts::slug;
use super::growth::{self, GrowthChart};
use super::placements::{self, PlacementRow};
use super::records::{counterpart, operation_key, OperationKey};
use super::stats;
use super::views::{self, Section};
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
    /// What ran ([`Record::ran`]).
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

/// A measurement whose counts differ between runs of the same image, with its spread.
#[derive(Clone, Debug, Serialize)]
pub struct VaryingRow {
    /// `file.bench:line`.
    pub location: String,
    /// Benchmark kind.
    pub benchmark: String,
    /// Dataset and configuration.
    pub description: String,
    /// Total cycles (the median repetition's).
    pub total: Option<u64>,
    /// Repetitions.
    pub n: u16,
    /// `[min, max]` of the total over the repetitions, when repeated.
    pub range: Option<[u64; 2]>,
    /// Why its counts vary.
    pub why: String,
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
    /// Cost growth of swept lines, with the fitted fixed cost and per-byte slope.
    pub growth_charts: Vec<GrowthChart>,
    /// The fewest sizes a swept line needs for its cost growth to be fitted.
    pub growth_min_sizes: usize,
    /// Sections of the kinds with a view of their own, in registration order.
    pub views: Vec<Section>,
    /// Hardware/software pairs.
    pub speedups: Vec<Speedup>,
    /// File stem of the speed-up plot, when there are pairs.
    pub speedup_chart: Option<String>,
    /// Every measurement.
    pub measurements: Vec<Measurement>,
    /// Lines measured at several placements of the measured code.
    pub placements: Vec<PlacementRow>,
    /// Per-phase statistics of repeated measurements.
    pub statistics: Vec<StatRow>,
    /// Measurements whose counts vary between runs of the same image.
    pub varying: Vec<VaryingRow>,
    /// Unsupported and failed requests.
    pub not_measured: Vec<NotMeasured>,
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
            growth_charts: growth::charts(&measured),
            growth_min_sizes: growth::MIN_SIZES,
            views: views::sections(&measured),
            speedup_chart: (!speedups.is_empty()).then(|| String::from("speedup")),
            speedups,
            measurements: measured.iter().map(|r| measurement(r)).collect(),
            placements: placements::rows(&measured),
            statistics: statistics(&measured),
            varying: measured.iter().filter_map(|r| varying(r)).collect(),
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

fn measurement(r: &Record) -> Measurement {
    Measurement {
        location: r.location(),
        benchmark: r.benchmark.clone(),
        description: r.description(),
        implementation: r.ran(),
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

fn varying(r: &Record) -> Option<VaryingRow> {
    let why = r.varies_between_runs()?;
    let range = match stats::total_spread(r) {
        stats::Spread::Range { min, max } => Some([min, max]),
        _ => None,
    };
    Some(VaryingRow {
        location: r.location(),
        benchmark: r.benchmark.clone(),
        description: r.description(),
        total: r.total_cycles,
        n: r.runs(),
        range,
        why: why.to_owned(),
    })
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

fn phase_charts(measured: &[&Record]) -> Vec<PhaseChart> {
    // One chart per file and phase list: the thesis's figures compare the configurations of
    // one study, and bars with different phases would not share a legend order.
    type Key<'a> = (&'a str, &'a str, Vec<String>);
    let mut groups: Vec<(Key, Vec<&Record>)> = Vec::new();
    for r in measured
        .iter()
        .filter(|r| r.presentation().not_stacked.is_none() && !r.phases.is_empty())
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
                        (Some(name), true) => format!("{} on {name} (line {})", r.description(), r.line_label()),
                        _ => format!("{} (line {})", r.description(), r.line_label()),
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
        .filter_map(|r| Some((r.benchmark.as_str(), r.presentation().not_stacked?)))
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

/// One side of a speed-up: where the record is, what ran, its total.
fn side(r: &Record, total: u64) -> Side {
    Side {
        location: r.location(),
        name: r.implementation_name.clone().unwrap_or_default(),
        total,
    }
}

fn speedups(measured: &[&Record]) -> Vec<Speedup> {
    let mut operations: Vec<OperationKey> = Vec::new();
    for r in measured {
        let key = operation_key(r);
        if !operations.contains(&key) {
            operations.push(key);
        }
    }
    let mut pairs = Vec::new();
    for key in operations {
        let of = |kind: Kind| {
            measured
                .iter()
                .copied()
                .filter(move |r| operation_key(r) == key && r.implementation == Some(kind))
        };
        let Some(hw) = stats::representative(of(Kind::Hardware)) else {
            continue;
        };
        let Some(hw_total) = hw.total_cycles.filter(|&c| c > 0) else {
            continue;
        };
        // One pair per software implementation of this operation (RustCrypto, the suite's
        // own), each the records of its name alone. Software of other operations has no say:
        // a software primitive or an implementation from outside the tree has no name, and
        // taken for one more it paired the same records a second time.
        let mut names: Vec<Option<&str>> = Vec::new();
        for r in of(Kind::Software) {
            let name = r.implementation_name.as_deref();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        for name in names {
            let Some(sw) =
                stats::representative(of(Kind::Software).filter(|r| r.implementation_name.as_deref() == name))
            else {
                continue;
            };
            let Some(sw_total) = sw.total_cycles else {
                continue;
            };
            let operation = format!("{} {}", key.0, sw.description());
            pairs.push(Speedup {
                label: format!(
                    "{operation} ({})",
                    sw.implementation_name.as_deref().unwrap_or(Kind::Software.name())
                ),
                operation,
                software: side(sw, sw_total),
                hardware: side(hw, hw_total),
                factor: sw_total as f64 / hw_total as f64,
            });
        }
    }
    pairs.extend(counterpart_speedups(measured));
    pairs
}

/// Pairs of a hardware record whose software counterpart is a primitive of the `software`
/// kind (`software_counterpart`, a public-key operation on OTBN) with that primitive's record
/// on the same platform.
fn counterpart_speedups(measured: &[&Record]) -> Vec<Speedup> {
    let mut pairs = Vec::new();
    for hw in measured.iter().filter(|r| r.implementation == Some(Kind::Hardware)) {
        let Some((sw, hw_total, sw_total)) = counterpart(hw, measured) else {
            continue;
        };
        let operation = format!("{} {}", hw.benchmark, hw.description());
        pairs.push(Speedup {
            label: format!("{operation} ({})", sw.primitive().unwrap_or_default()),
            operation,
            software: side(sw, sw_total),
            hardware: side(hw, hw_total),
            factor: sw_total as f64 / hw_total as f64,
        });
    }
    pairs
}

#[cfg(test)]
mod tests {
    use cyclebench_protocol::{BenchmarkKind, Primitive};

    use super::*;
    use crate::report::charts::SoftwareAxes;

    /// A measured software record, as `cyclebench run` writes it.
    fn software(
        line: usize,
        primitive: Primitive,
        variant: &str,
        limbs: Option<u32>,
        bytes: Option<u64>,
        total: u64,
    ) -> String {
        let cpb = bytes.map_or(String::from("null"), |b| format!("{:.2}", total as f64 / b as f64));
        let json = |v: Option<u64>| v.map_or(String::from("null"), |v| v.to_string());
        let family = primitive
            .family()
            .map_or(String::new(), |f| format!(r#""family":"{f}","#));
        format!(
            r#"{{"status":"ok","target":"ibex-sim","platform":"ibex-sim","file":"benchmarks/sw.bench","line":{line},
            "benchmark":"{kind}","module":"cpu","implementation":"{implementation}","verified":true,"cycle_accurate":true,
            "repetitions":1,"overhead":4,"phases":{{"run":{total}}},"total_cycles":{total},"bytes":{},
            "cycles_per_byte":{cpb},"primitive":"{}","variant":"{variant}",{family}"limbs":{},"stack_bytes":{},
            "code_symbol":"cb_{}_{variant}","code_bytes":{}}}"#,
            json(bytes),
            primitive.name(),
            json(limbs.map(u64::from)),
            line * 4,
            primitive.name().replace('-', "_"),
            1000 + line,
            kind = BenchmarkKind::Software.name(),
            implementation = Kind::Software.name(),
        )
        .replace('\n', "")
    }

    pub(crate) fn build(lines: &[String]) -> Report {
        let records = lines.iter().map(|l| crate::results::parse(l).unwrap()).collect();
        Report::build(&Results {
            dir: std::path::PathBuf::from("."),
            file: std::path::PathBuf::from("results.jsonl"),
            records,
            skipped: Vec::new(),
        })
    }

    #[test]
    fn counts_that_vary_between_runs_are_listed_with_their_spread() {
        let record = |line: usize, name: &str, stats: &str| {
            format!(
                r#"{{"status":"ok","file":"aes.bench","line":{line},"benchmark":"{}","dataset":"ecb-128-5b",
                "implementation":"hardware","implementation_name":"{name}","cycle_accurate":true,
                "phases":{{"compute":400}},"total_cycles":400,"statistics":{stats}}}"#,
                BenchmarkKind::Aes.name()
            )
            .replace('\n', "")
        };
        let report = build(&[
            record(1, "aes-masked", "null"),
            record(
                2,
                "aes-masked",
                r#"{"compute":{"n":8,"min":394,"median":400,"max":412,"mean":401.0}}"#,
            ),
            record(3, "aes-unmasked", "null"),
        ]);
        let rows: Vec<(&str, Option<[u64; 2]>)> =
            report.varying.iter().map(|v| (v.location.as_str(), v.range)).collect();
        assert_eq!(rows, [("aes.bench:1", None), ("aes.bench:2", Some([394, 412]))]);
        assert!(report.varying[0].why.contains("masked AES"));
    }

    #[test]
    fn multi_precision_and_stream_ciphers_get_their_own_charts() {
        use Primitive::*;
        let mut lines = vec![
            // An older hardware record without any of the software fields.
            format!(
                r#"{{"status":"ok","file":"hash.bench","line":1,"benchmark":"{}","dataset":"msg-256",
                "config":"sha2 tight","module":"sha2","implementation":"hardware","implementation_name":"sha2-block",
                "cycle_accurate":true,"phases":{{"init":9,"input":200}},"total_cycles":209,"bytes":256}}"#,
                BenchmarkKind::Hash.name()
            ),
            software(2, Chacha20, "rv32i", None, Some(64), 2123),
            software(3, Chacha20, "rv32i", None, Some(4096), 112814),
            software(4, Chacha20, "rust", None, Some(64), 2347),
            software(5, Chacha20, "rust", None, Some(4096), 129229),
            // Only one length: no line.
            software(6, KeccakF1600, "rv32i", None, Some(200), 13597),
            software(7, AesTableKeySchedule, "rust", None, None, 975),
        ];
        for (i, limbs) in [2u32, 4, 8].into_iter().enumerate() {
            let l = 10 + 10 * i;
            let n = u64::from(limbs);
            lines.push(software(l, MpAddFull, "rust", Some(limbs), None, 20 * n));
            lines.push(software(l + 1, MpAddReduced, "rv32i", Some(limbs), None, 15 * n));
            lines.push(software(l + 2, MpMulSchoolbook, "rv32i", Some(limbs), None, 30 * n * n));
            // A record written before software records named their family.
            let old = software(l + 3, MpMulKaratsubaReduced, "zbb", Some(limbs), None, 40 * n * n);
            lines.push(old.replace(r#""family":"multiplication","#, ""));
        }
        // A second measurement of one size is one point, not two.
        lines.push(software(40, MpMulSchoolbook, "rv32i", Some(8), None, 1921));
        let r = build(&lines);

        assert_eq!(r.views.len(), 1);
        let view = &r.views[0];
        assert_eq!(view.markdown, format!("views/{}.md.j2", BenchmarkKind::Software.name()));
        let charts = &view.line_charts;
        let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "software-mp-addition",
                "software-mp-multiplication",
                "software-cycles-per-byte"
            ]
        );
        let labels = |i: usize| -> Vec<String> { charts[i].series.iter().map(|s| s.label()).collect() };
        let label = |p: Primitive, variant: &str| format!("{} {variant}", p.name());
        assert_eq!(labels(0), [label(MpAddFull, "rust"), label(MpAddReduced, "rv32i")]);
        assert_eq!(
            labels(1),
            [label(MpMulSchoolbook, "rv32i"), label(MpMulKaratsubaReduced, "zbb")]
        );
        assert_eq!(labels(2), [label(Chacha20, "rv32i"), label(Chacha20, "rust")]);
        assert_eq!(charts[1].axes, SoftwareAxes::CyclesAgainstLimbs);
        assert_eq!(charts[2].axes, SoftwareAxes::CyclesPerByteAgainstLength);
        assert_eq!(charts[2].primitives, [Chacha20.name()]);
        let mul = &charts[1].series[0].points;
        assert_eq!(
            mul.iter().map(|p| (p.x, p.total)).collect::<Vec<_>>(),
            [(2, 120), (4, 480), (8, 1920)]
        );
        let chacha = &charts[2].series[0].points;
        assert_eq!(chacha.iter().map(|p| p.x).collect::<Vec<_>>(), [64, 4096]);
        assert_eq!(chacha[1].cycles_per_byte, Some(27.54));

        // Software sets have no phase chart; the hash record still has its own.
        assert_eq!(r.phase_charts.len(), 1);
        assert_eq!(r.phase_charts[0].bars.len(), 1);
        let reason = format!("{}: ", BenchmarkKind::Software.name());
        assert!(
            r.not_charted.iter().any(|n| n.starts_with(&reason)),
            "{:?}",
            r.not_charted
        );
        assert!(r.cpb_charts.is_empty());
        assert_eq!(
            r.header.implementations,
            ["sha2: sha2-block (hardware)", "cpu: software primitives"]
        );

        // Every measured software record is a row, with its stack and code size.
        let rows = view.body["rows"].as_array().unwrap();
        assert_eq!(rows.len(), lines.len() - 1);
        let row = |p: Primitive| rows.iter().find(|s| s["primitive"] == p.name()).unwrap();
        let keccak = row(KeccakF1600);
        assert_eq!(keccak["length"], "200 B");
        assert_eq!(
            (&keccak["stack_bytes"], &keccak["code_bytes"]),
            (&24.into(), &1006.into())
        );
        assert_eq!(keccak["code_symbol"], "cb_keccak_f1600_rv32i");
        let ks = row(AesTableKeySchedule);
        assert_eq!(
            (&ks["length"], &ks["cycles_per_byte"]),
            (&"".into(), &serde_json::Value::Null)
        );
        assert_eq!(row(MpAddFull)["length"], "2 limbs");
    }

    #[test]
    fn records_without_software_fields_make_no_software_content() {
        let r = build(&[format!(
            r#"{{"status":"ok","file":"m.bench","line":1,"benchmark":"{}","module":"cpu",
            "implementation":"{}","phases":{{"nop10":12}}}}"#,
            BenchmarkKind::Micro.name(),
            Kind::Software.name(),
        )]);
        assert!(r.views.is_empty());
        assert_eq!(r.not_charted.len(), 1);
        assert!(r.not_charted[0].starts_with(&format!("{}: ", BenchmarkKind::Micro.name())));
    }

    #[test]
    fn slugs_are_file_names() {
        let (aes, rng) = (BenchmarkKind::Aes.name(), BenchmarkKind::RngSeeded.name());
        assert_eq!(slug(&["phases", "01", "aes_modes", aes]), "phases-01-aes-modes-aes");
        assert_eq!(slug(&["cpb", rng]), "cpb-rng-seeded");
    }

    #[test]
    fn an_otbn_record_is_paired_with_its_software_counterpart_of_the_same_platform() {
        let otbn = |platform: &str| {
            format!(
                r#"{{"status":"ok","platform":"{platform}","file":"o.bench","line":1,"benchmark":"{}",
                "config":"rsa_encrypt 1024 reload","module":"bignum","implementation":"{}","verified":true,
                "phases":{{"compute":1000}},"total_cycles":1000,"software_counterpart":"{}"}}"#,
                BenchmarkKind::Pubkey.name(),
                Kind::Hardware.name(),
                Primitive::Rsa1024Encrypt.name(),
            )
            .replace('\n', "")
        };
        let software = |platform: &str, total: u64| {
            format!(
                r#"{{"status":"ok","platform":"{platform}","file":"s.bench","line":1,"benchmark":"{}",
                "module":"cpu","implementation":"{}","verified":true,"phases":{{"run":{total}}},
                "total_cycles":{total},"primitive":"{}","variant":"rust"}}"#,
                BenchmarkKind::Software.name(),
                Kind::Software.name(),
                Primitive::Rsa1024Encrypt.name(),
            )
            .replace('\n', "")
        };
        let r = build(&[
            otbn("earlgrey"),
            software("ibex-sim", 5000),
            software("earlgrey", 12_000),
        ]);
        assert_eq!(r.speedups.len(), 1);
        assert_eq!(r.speedups[0].factor, 12.0);
        assert!(
            r.speedups[0].label.ends_with("(rsa-1024-encrypt)"),
            "{}",
            r.speedups[0].label
        );
        // Measured on another platform only: no pair.
        assert!(build(&[otbn("earlgrey"), software("ibex-sim", 5000)])
            .speedups
            .is_empty());
    }

    #[test]
    fn each_library_is_paired_once_with_the_block_whatever_else_ran_in_software() {
        let hash = |line: usize, kind: Kind, name: &str, total: u64| {
            format!(
                r#"{{"status":"ok","platform":"earlgrey","file":"h.bench","line":{line},"benchmark":"{}",
                "config":"sha3 api-conform 64 B seed 0","module":"sha3","implementation":"{}",
                "implementation_name":"{name}","verified":true,"phases":{{"run":{total}}},
                "total_cycles":{total},"bytes":64}}"#,
                BenchmarkKind::Hash.name(),
                kind.name(),
            )
            .replace('\n', "")
        };
        // Software of other operations, none with a library's name: an implementation from
        // outside the tree, a software primitive and the instruction blocks.
        let outside = format!(
            r#"{{"status":"ok","platform":"earlgrey","file":"h.bench","line":1,"benchmark":"{}",
            "config":"sha3-c 64 B","module":"cpu","implementation":"{}","verified":true,
            "phases":{{"run":9000}},"total_cycles":9000,"bytes":64,"{}":"sha3-c","reference":"sha3-256"}}"#,
            BenchmarkKind::Implementation.name(),
            Kind::Software.name(),
            cyclebench_protocol::IMPL_FIELD,
        )
        .replace('\n', "");
        let micro = format!(
            r#"{{"status":"ok","file":"h.bench","line":6,"benchmark":"{}","module":"cpu",
            "implementation":"{}","phases":{{"nop10":12}},"total_cycles":12}}"#,
            BenchmarkKind::Micro.name(),
            Kind::Software.name(),
        )
        .replace('\n', "");
        let r = build(&[
            outside,
            hash(2, Kind::Hardware, "keccak-block", 100),
            hash(3, Kind::Software, "rustcrypto-sha3", 3000),
            hash(4, Kind::Software, "cyclebench-sha3-keccak-asm", 2000),
            software(5, Primitive::Chacha20, "rv32i", None, Some(64), 2123),
            micro,
        ]);
        let pairs: Vec<(&str, &str, &str, &str, f64)> = r
            .speedups
            .iter()
            .map(|p| {
                (
                    p.software.name.as_str(),
                    p.software.location.as_str(),
                    p.hardware.name.as_str(),
                    p.hardware.location.as_str(),
                    p.factor,
                )
            })
            .collect();
        assert_eq!(
            pairs,
            [
                ("rustcrypto-sha3", "h.bench:3", "keccak-block", "h.bench:2", 30.0),
                (
                    "cyclebench-sha3-keccak-asm",
                    "h.bench:4",
                    "keccak-block",
                    "h.bench:2",
                    20.0
                ),
            ]
        );
    }
}
