//! How cost grows with the work: for a swept `.bench` line whose requests differ in the field
//! that sets the bytes a record processes, cycles and cycles per byte against those bytes,
//! one series per combination of the line's other swept values, each with a least-squares
//! fit of a fixed per-call cost and a per-byte slope.
//!
//! Generic over kinds: it reads only what every record carries (`file`, `line`, `bytes`,
//! `total_cycles`, `request` for the line's fixed fields, and the sweep's values), so any kind
//! whose records process bytes gets it.

use linregress::{FormulaRegressionBuilder, RegressionDataBuilder};
use serde::Serialize;
use serde_json::Value;

use super::charts::slug;
use super::stats;
use crate::results::Record;

/// The fewest distinct byte counts a series needs for its fit to say anything: two points
/// always lie on a line.
pub const MIN_SIZES: usize = 3;

/// `total = fixed + per_byte * bytes`, fitted by ordinary least squares, and how well it fits.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// The fixed per-call cost, in cycles (the intercept).
    pub fixed: f64,
    /// The cost of one more byte, in cycles (the slope).
    pub per_byte: f64,
    /// Coefficient of determination of the fit on the totals.
    pub r_squared: f64,
    /// The largest |measured − fitted| / measured over the points.
    pub max_relative_residual: f64,
    /// Bytes of the point with that residual.
    pub worst_bytes: u64,
}

impl Fit {
    /// The fit of `points` (bytes, total cycles); `None` with fewer than [`MIN_SIZES`] distinct
    /// byte counts, or when the regression fails.
    pub fn of(points: &[(u64, u64)]) -> Option<Self> {
        let mut sizes: Vec<u64> = points.iter().map(|p| p.0).collect();
        sizes.sort_unstable();
        sizes.dedup();
        if sizes.len() < MIN_SIZES {
            return None;
        }
        let x: Vec<f64> = points.iter().map(|p| p.0 as f64).collect();
        let y: Vec<f64> = points.iter().map(|p| p.1 as f64).collect();
        let data = RegressionDataBuilder::new()
            .build_from(vec![("cycles", y.clone()), ("bytes", x.clone())])
            .ok()?;
        let parameters = FormulaRegressionBuilder::new()
            .data(&data)
            .data_columns("cycles", ["bytes"])
            .fit_without_statistics()
            .ok()?;
        let (fixed, per_byte) = (*parameters.first()?, *parameters.get(1)?);
        let fitted = |x: f64| fixed + per_byte * x;
        let mean = y.iter().sum::<f64>() / y.len() as f64;
        let ss_res: f64 = x.iter().zip(&y).map(|(x, y)| (y - fitted(*x)).powi(2)).sum();
        let ss_tot: f64 = y.iter().map(|y| (y - mean).powi(2)).sum();
        // Totals that do not vary at all are fitted exactly by a flat line.
        let r_squared = if ss_tot > 0.0 { 1.0 - ss_res / ss_tot } else { 1.0 };
        let (worst_bytes, max_relative_residual) = points
            .iter()
            .filter(|p| p.1 > 0)
            .map(|&(bytes, total)| (bytes, ((total as f64 - fitted(bytes as f64)) / total as f64).abs()))
            .fold((0, 0.0), |best, p| if p.1 > best.1 { p } else { best });
        Some(Self {
            fixed,
            per_byte,
            r_squared,
            max_relative_residual,
            worst_bytes,
        })
    }

    /// The fitted total at `bytes`.
    pub fn at(&self, bytes: f64) -> f64 {
        self.fixed + self.per_byte * bytes
    }
}

/// A measured point of a series.
#[derive(Clone, Debug, Serialize)]
pub struct GrowthPoint {
    /// `file.bench:line[k]` of the record.
    pub location: String,
    /// The swept field's value, as written.
    pub value: String,
    /// Bytes processed.
    pub bytes: u64,
    /// Corrected total cycles.
    pub total: u64,
    /// `total / bytes`.
    pub cycles_per_byte: f64,
    /// The fit's total at these bytes.
    pub fitted: f64,
    /// (measured − fitted) / measured.
    pub relative_residual: f64,
}

/// One configuration of a swept line: its other swept values fixed.
#[derive(Clone, Debug, Serialize)]
pub struct GrowthSeries {
    /// Legend text: the other swept values, or the implementation when nothing else varies.
    pub label: String,
    /// Points by growing size.
    pub points: Vec<GrowthPoint>,
    /// The fit of its totals.
    pub fit: Fit,
}

/// The cost growth of one swept line.
#[derive(Clone, Debug, Serialize)]
pub struct GrowthChart {
    /// File stem of the plot under `plots/`.
    pub name: String,
    /// Caption.
    pub title: String,
    /// `file.bench:line`.
    pub location: String,
    /// The swept field that sets the bytes (`length`).
    pub field: String,
    /// Its series.
    pub series: Vec<GrowthSeries>,
}

/// The cost-growth charts of the measured records, one per swept line that has a series of
/// at least [`MIN_SIZES`] byte counts, in file order.
pub fn charts(measured: &[&Record]) -> Vec<GrowthChart> {
    let mut lines: Vec<((&str, usize), Vec<&Record>)> = Vec::new();
    for r in measured.iter().copied().filter(|r| usable(r)) {
        let key = (r.file.as_str(), r.line);
        match lines.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(r),
            None => lines.push((key, vec![r])),
        }
    }
    lines
        .into_iter()
        .filter_map(|(_, members)| chart(&members))
        .enumerate()
        .map(|(i, mut c)| {
            c.name = slug(&["growth", &format!("{:02}", i + 1), &c.name]);
            c
        })
        .collect()
}

/// A record that can be a point: measured, of a swept line, with bytes and a total.
fn usable(r: &Record) -> bool {
    r.is_measurement()
        && r.swept_values().is_some()
        && r.bytes.is_some_and(|b| b > 0)
        && r.total_cycles.is_some_and(|t| t > 0)
}

/// A configuration of a swept line: its other swept fields with their values, in the line's
/// order.
type Configuration = Vec<(String, Value)>;

fn chart(members: &[&Record]) -> Option<GrowthChart> {
    let first = members.first()?;
    let swept: Vec<&String> = first.swept_values()?.keys().collect();
    let field = swept.iter().copied().find(|f| sets_bytes(members, f))?;
    let others = |r: &Record| -> Configuration {
        r.swept_values()
            .map(|values| {
                values
                    .iter()
                    .filter(|(k, _)| *k != field)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut configurations: Vec<(Configuration, Vec<&Record>)> = Vec::new();
    for r in members {
        let key = others(r);
        match configurations.iter_mut().find(|(k, _)| *k == key) {
            Some((_, rs)) => rs.push(r),
            None => configurations.push((key, vec![r])),
        }
    }
    let series: Vec<GrowthSeries> = configurations
        .into_iter()
        .filter_map(|(values, records)| series(field, &swept, &values, &records))
        .collect();
    if series.is_empty() {
        return None;
    }
    Some(GrowthChart {
        name: slug(&[first.file_stem(), &first.line.to_string(), &first.benchmark]),
        title: format!(
            "{}:{} {} ({}): cycles and cycles per byte against {field}",
            first.file_name(),
            first.line,
            first.benchmark,
            fixed_fields(first, &swept)
        ),
        location: format!("{}:{}", first.file_name(), first.line),
        field: field.clone(),
        series,
    })
}

/// Whether `field` alone sets the bytes of the line's records (records that agree on it
/// process the same bytes) and they take at least [`MIN_SIZES`] byte counts.
fn sets_bytes(members: &[&Record], field: &str) -> bool {
    let mut seen: Vec<(&Value, u64)> = Vec::new();
    for r in members {
        let (Some(value), Some(bytes)) = (r.swept_values().and_then(|v| v.get(field)), r.bytes) else {
            return false;
        };
        match seen.iter().find(|(v, _)| *v == value) {
            Some((_, b)) if *b != bytes => return false,
            Some(_) => {}
            None => seen.push((value, bytes)),
        }
    }
    let mut sizes: Vec<u64> = seen.iter().map(|(_, b)| *b).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes.len() >= MIN_SIZES
}

/// The series of one configuration (`values`, the line's other swept values) of the line
/// whose fields `swept` are swept, `field` setting the bytes.
fn series(field: &str, swept: &[&String], values: &[(String, Value)], records: &[&Record]) -> Option<GrowthSeries> {
    let mut sizes: Vec<u64> = records.iter().filter_map(|r| r.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    // Repeated measurements of one size count once, by their representative.
    let points: Vec<&Record> = sizes
        .iter()
        .filter_map(|&b| stats::representative(records.iter().copied().filter(|r| r.bytes == Some(b))))
        .collect();
    let pairs: Vec<(u64, u64)> = points
        .iter()
        .filter_map(|r| Some((r.bytes?, r.total_cycles?)))
        .collect();
    let fit = Fit::of(&pairs)?;
    let label = if values.is_empty() {
        fixed_fields(records.first()?, swept)
    } else {
        words(values.iter().map(|(k, v)| (k.as_str(), v)))
    };
    Some(GrowthSeries {
        label,
        points: points
            .iter()
            .filter_map(|r| {
                let (bytes, total) = (r.bytes?, r.total_cycles?);
                let fitted = fit.at(bytes as f64);
                Some(GrowthPoint {
                    location: r.location(),
                    value: plain(r.swept_values()?.get(field)?),
                    bytes,
                    total,
                    cycles_per_byte: total as f64 / bytes as f64,
                    fitted,
                    relative_residual: (total as f64 - fitted) / total as f64,
                })
            })
            .collect(),
        fit,
    })
}

/// The fields of a record's request that its line did not sweep, in words (`primitive x,
/// variant rust`); the kind's name when the request does not read as one.
fn fixed_fields(r: &Record, swept: &[&String]) -> String {
    let request: Option<Value> = serde_json::from_str(&r.request).ok();
    let request = request.as_ref().map(|q| q.get("benchmark").unwrap_or(q));
    let body = request
        .and_then(Value::as_object)
        .filter(|o| o.len() == 1)
        .and_then(|o| o.values().next())
        .and_then(Value::as_object);
    let text = body.map_or_else(String::new, |fields| {
        words(
            fields
                .iter()
                .filter(|(k, _)| !swept.contains(k))
                .map(|(k, v)| (k.as_str(), v)),
        )
    });
    if text.is_empty() {
        r.benchmark.clone()
    } else {
        text
    }
}

/// `name value` pairs joined by commas, strings without their quotes.
fn words<'a>(pairs: impl Iterator<Item = (&'a str, &'a Value)>) -> String {
    pairs
        .map(|(k, v)| format!("{k} {}", plain(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A JSON value as text, strings without their quotes.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use cyclebench_protocol::{BenchmarkKind, ImplementationKind, Primitive};

    use super::*;

    #[test]
    fn a_fit_finds_a_known_fixed_cost_and_slope() {
        let exact: Vec<(u64, u64)> = [16u64, 64, 256, 1024, 4096]
            .iter()
            .map(|&b| (b, 1200 + 27 * b / 2))
            .collect();
        let fit = Fit::of(&exact).unwrap();
        assert!((fit.fixed - 1200.0).abs() < 1e-6, "{fit:?}");
        assert!((fit.per_byte - 13.5).abs() < 1e-9, "{fit:?}");
        assert!((fit.r_squared - 1.0).abs() < 1e-12, "{fit:?}");
        assert!(fit.max_relative_residual < 1e-9, "{fit:?}");

        // A point 10 % above the line: the fit leans towards it, and it has the largest
        // relative residual.
        let mut bent = exact.clone();
        bent[1].1 = (bent[1].1 as f64 * 1.1) as u64;
        let fit = Fit::of(&bent).unwrap();
        assert!(fit.r_squared < 1.0 && fit.r_squared > 0.99, "{fit:?}");
        assert_eq!(fit.worst_bytes, 64);
        assert!(fit.max_relative_residual > 0.05, "{fit:?}");
        assert!((fit.per_byte - 13.5).abs() < 0.1, "{fit:?}");
    }

    #[test]
    fn two_sizes_are_no_fit() {
        assert!(Fit::of(&[(16, 100), (64, 300), (16, 101)]).is_none());
        assert!(Fit::of(&[]).is_none());
    }

    /// A measured record of line `line` of a swept software line (`variant`, `length`).
    fn record(line: usize, index: usize, variant: &str, length: u64, total: u64) -> Record {
        let mut r = crate::results::parse(&format!(
            r#"{{"status":"ok","file":"benchmarks/lengths.bench","line":{line},"benchmark":"{kind}",
            "implementation":"{implementation}","phases":{{"run":{total}}},"total_cycles":{total},"bytes":{length},
            "primitive":"{primitive}","variant":"{variant}",
            "sweep":{{"index":{index},"of":6,"values":{{"variant":"{variant}","length":{length}}}}}}}"#,
            kind = BenchmarkKind::Software.name(),
            implementation = ImplementationKind::Software.name(),
            primitive = Primitive::Chacha20.name(),
        ))
        .unwrap();
        r.request = format!(
            r#"{{"{}": {{"primitive": "{}", "variant": "{variant}", "length": {length}}}}}"#,
            BenchmarkKind::Software.name(),
            Primitive::Chacha20.name()
        );
        r
    }

    #[test]
    fn a_swept_line_gives_one_series_per_other_value_fitted() {
        let mut records = Vec::new();
        for (i, (variant, fixed, slope)) in [("rust", 300u64, 30u64), ("rv32i", 200, 20)].into_iter().enumerate() {
            for (j, length) in [64u64, 256, 1024].into_iter().enumerate() {
                records.push(record(4, 3 * i + j + 1, variant, length, fixed + slope * length));
            }
        }
        // A line swept at two lengths only, and a record of no sweep: neither is charted.
        records.push(record(7, 1, "rust", 64, 2000));
        records.push(record(7, 2, "rust", 128, 4000));
        let mut alone = record(9, 1, "rust", 64, 2000);
        alone.details.remove(crate::results::SWEEP);
        records.push(alone);
        let measured: Vec<&Record> = records.iter().collect();
        let charts = charts(&measured);
        assert_eq!(charts.len(), 1, "{charts:?}");
        let c = &charts[0];
        assert_eq!(c.field, "length");
        assert_eq!(c.location, "lengths.bench:4");
        assert_eq!(
            c.name,
            format!("growth-01-lengths-4-{}", BenchmarkKind::Software.name())
        );
        let labels: Vec<&str> = c.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["variant rust", "variant rv32i"]);
        let (kind, chacha) = (BenchmarkKind::Software.name(), Primitive::Chacha20.name());
        assert_eq!(
            c.title,
            format!("lengths.bench:4 {kind} (primitive {chacha}): cycles and cycles per byte against length")
        );
        let rv32i = &c.series[1];
        assert!((rv32i.fit.fixed - 200.0).abs() < 1e-6 && (rv32i.fit.per_byte - 20.0).abs() < 1e-9);
        let bytes: Vec<u64> = rv32i.points.iter().map(|p| p.bytes).collect();
        assert_eq!(bytes, [64, 256, 1024]);
        assert_eq!(rv32i.points[0].location, "lengths.bench:4[4]");
        assert_eq!(rv32i.points[2].value, "1024");
    }

    #[test]
    fn a_field_that_does_not_set_the_bytes_is_a_configuration() {
        // Swept over variant only, at one length: nothing grows.
        let records: Vec<Record> = ["rust", "rv32i", "zbb"]
            .iter()
            .enumerate()
            .map(|(i, v)| record(2, i + 1, v, 64, 2000 + i as u64))
            .collect();
        let measured: Vec<&Record> = records.iter().collect();
        assert!(charts(&measured).is_empty());
    }
}
