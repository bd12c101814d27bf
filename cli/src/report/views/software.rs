//! Software primitives: a line chart per family of multi-precision operations against limbs,
//! one of the primitives that process bytes against length, and a table of every call with
//! its stack use and code size.

use cyclebench_protocol::{BenchmarkKind, Primitive};
use serde::Serialize;

use super::section::{demangle, length, Section, Templates, View};
use crate::report::charts::{slug, SoftwareAxes, SoftwareChart, SoftwarePoint, SoftwareSeries};
use crate::report::stats;
use crate::results::Record;

/// The software view.
pub struct Primitives;

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

#[derive(Serialize)]
struct Body {
    charts: Vec<SoftwareChart>,
    rows: Vec<SoftwareRow>,
}

impl View for Primitives {
    fn templates(&self) -> Templates {
        Templates {
            markdown: include_str!("software.md.j2"),
            html: include_str!("software.html.j2"),
        }
    }

    fn section(&self, records: &[&Record], _measured: &[&Record]) -> Option<Section> {
        let rows: Vec<SoftwareRow> = records.iter().filter_map(|r| row(r)).collect();
        if rows.is_empty() {
            return None;
        }
        let charts = charts(records);
        let mut section = Section::new(Body {
            charts: charts.clone(),
            rows,
        });
        // The line break keeps the note's paragraph wrapped as the templates wrap the rest.
        section.charted_elsewhere = Some("software primitives are charted under\nSoftware primitives");
        section.line_charts = charts;
        Some(section)
    }
}

/// The chart a primitive measured against limbs belongs to: its family (additions together,
/// multiplications together, whatever the radix or algorithm), or a chart of its own. Records
/// written before software records named their family find it by the primitive's name.
fn family(r: &Record) -> Option<&str> {
    r.text("family")
        .or_else(|| Primitive::from_name(r.primitive()?)?.family())
        .or_else(|| r.primitive())
}

fn charts(records: &[&Record]) -> Vec<SoftwareChart> {
    // A series is one primitive in one variant; only the limbs or the length vary.
    type Key<'a> = (SoftwareAxes, &'a str, &'a str);
    let mut series: Vec<(Key, Vec<&Record>)> = Vec::new();
    for r in records {
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
        let Some(points) = sweep(axes, &members) else {
            continue;
        };
        let (name, title) = match axes {
            SoftwareAxes::CyclesAgainstLimbs => {
                let family = family(members[0]).unwrap_or(primitive);
                (
                    slug(&[BenchmarkKind::Software.name(), "mp", family]),
                    format!("Multi-precision {family}: cycles against limbs"),
                )
            }
            SoftwareAxes::CyclesPerByteAgainstLength => (
                slug(&[BenchmarkKind::Software.name(), "cycles-per-byte"]),
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

/// The points of a series when it is a sweep: at least two limb counts or lengths.
/// Repeated measurements of one size count once, by their representative.
fn sweep(axes: SoftwareAxes, members: &[&Record]) -> Option<Vec<SoftwarePoint>> {
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

fn row(r: &Record) -> Option<SoftwareRow> {
    let primitive = r.primitive()?.to_owned();
    Some(SoftwareRow {
        location: r.location(),
        primitive,
        variant: r.variant().unwrap_or_default().to_owned(),
        length: length(r.limbs(), r.bytes),
        repetitions: r.runs(),
        verified: r.verified,
        total: r.total_cycles,
        cycles_per_byte: r.cycles_per_byte(),
        stack_bytes: r.stack_bytes(),
        code_symbol: r.code_symbol.as_deref().map(demangle).unwrap_or_default(),
        code_bytes: r.code_bytes,
    })
}
