//! The report's rows for lines measured at several placements of the measured code
//! (`"placements": N`): the default placement's cycles beside the spread of all of them.

use serde::Serialize;

use crate::results::{Placements, Record};

/// One line measured at several placements.
#[derive(Clone, Debug, Serialize)]
pub struct PlacementRow {
    /// `file.bench:line`.
    pub location: String,
    /// Benchmark kind.
    pub benchmark: String,
    /// Dataset and configuration.
    pub description: String,
    /// What ran ([`Record::ran`]).
    pub implementation: String,
    /// The number compared (`total_cycles`, or an offload record's `software_cycles`).
    pub field: String,
    /// Cycles at the default placement, which every other record of the run was measured at.
    pub default: Option<u64>,
    /// Fewest, median and most cycles over the placements, when every one was measured.
    pub min: Option<u64>,
    pub median: Option<u64>,
    pub max: Option<u64>,
    /// (max − min) / min, percent.
    pub spread_percent: Option<f64>,
    /// `offset: cycles` for every placement, offsets in bytes.
    pub each: String,
    /// Placements that gave no number, and why.
    pub errors: Vec<String>,
}

/// The rows of the records that carry placements.
pub fn rows(measured: &[&Record]) -> Vec<PlacementRow> {
    measured.iter().filter_map(|r| row(r)).collect()
}

fn row(r: &Record) -> Option<PlacementRow> {
    let p = Placements::of(r)?;
    let each = p
        .offsets
        .iter()
        .zip(&p.cycles)
        .map(|(offset, c)| match c {
            Some(c) => format!("+{offset}: {c}"),
            None => format!("+{offset}: not measured"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    Some(PlacementRow {
        location: r.location(),
        benchmark: r.benchmark.clone(),
        description: r.description(),
        implementation: r.ran(),
        field: p.field.name().to_owned(),
        default: p.cycles.first().copied().flatten(),
        min: p.min,
        median: p.median,
        max: p.max,
        spread_percent: p
            .min
            .zip(p.max)
            .filter(|&(min, _)| min > 0)
            .map(|(min, max)| 100.0 * (max - min) as f64 / min as f64),
        each,
        errors: p.errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::PlacedField;

    #[test]
    fn a_record_with_placements_gives_its_default_and_spread() {
        let kind = cyclebench_protocol::BenchmarkKind::Software.name();
        let mut record: Record = serde_json::from_value(serde_json::json!({
            "status": "ok", "target": "earlgrey-sim-unmasked", "file": "x.bench", "line": 3,
            "request": "{}", "benchmark": kind, "verified": true, "firmware_revision": "r"
        }))
        .unwrap();
        Placements::new(
            PlacedField::TotalCycles,
            2,
            vec![Some(100), Some(110), Some(105)],
            vec![],
        )
        .insert_into(&mut record);
        let found = rows(&[&record]);
        let [row] = &found[..] else { panic!("{found:?}") };
        assert_eq!(
            (row.default, row.min, row.median, row.max),
            (Some(100), Some(100), Some(105), Some(110))
        );
        assert_eq!(row.each, "+0: 100, +2: 110, +4: 105");
        assert!((row.spread_percent.unwrap() - 10.0).abs() < 1e-9);
        let plain: Record = serde_json::from_value(serde_json::json!({
            "status": "ok", "target": "t", "file": "x.bench", "line": 4,
            "request": "{}", "benchmark": kind, "verified": true, "firmware_revision": "r"
        }))
        .unwrap();
        assert!(rows(&[&plain]).is_empty());
    }
}
