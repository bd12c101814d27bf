//! The `placements` field of a record whose line asked for `"placements": N`: the same
//! measurement with the measured code at N placements, as the run writes it and the report
//! reads it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Record, PLACEMENTS};

/// The number a placement compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlacedField {
    /// The record's total cycles.
    TotalCycles,
    /// The software side of an offload record: what a placement moves (the chip's side runs
    /// from RAM).
    SoftwareCycles,
}

impl PlacedField {
    /// The field a record's placements compare: its software side where it has one.
    pub fn of(record: &Record) -> Self {
        if record.details.contains_key(Self::SoftwareCycles.name()) {
            Self::SoftwareCycles
        } else {
            Self::TotalCycles
        }
    }

    /// The field's name in records.
    pub fn name(self) -> &'static str {
        match self {
            Self::TotalCycles => "total_cycles",
            Self::SoftwareCycles => "software_cycles",
        }
    }

    /// This field of `record`.
    pub fn cycles(self, record: &Record) -> Option<u64> {
        match self {
            Self::TotalCycles => record.total_cycles,
            Self::SoftwareCycles => record.details.get(self.name()).and_then(Value::as_u64),
        }
    }
}

/// Every placement's cycles of one record, and their spread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placements {
    /// The placement every other record was measured at (0).
    pub default: u32,
    /// The placements, in bytes past the measured block's boundary.
    pub offsets: Vec<u32>,
    /// The number compared.
    pub field: PlacedField,
    /// That number at each placement, the first the record's own; `None` where none was
    /// measured (`errors` says why).
    pub cycles: Vec<Option<u64>>,
    /// Fewest cycles, when every placement was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// The lower median of an even count (a count one placement gave), when every placement
    /// was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<u64>,
    /// Most cycles, when every placement was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// One per placement that gave no number, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

impl Placements {
    /// `field`'s `cycles` at placements `step` bytes apart, with the spread stated only when
    /// every placement was measured.
    pub fn new(field: PlacedField, step: u32, cycles: Vec<Option<u64>>, errors: Vec<String>) -> Self {
        let offsets = (0..cycles.len() as u32).map(|k| k * step).collect();
        let mut measured: Vec<u64> = cycles.iter().flatten().copied().collect();
        measured.sort_unstable();
        let whole = measured.len() == cycles.len() && !measured.is_empty();
        let at = |i: usize| whole.then(|| measured[i]);
        Self {
            default: 0,
            offsets,
            field,
            min: at(0),
            median: at(measured.len().saturating_sub(1) / 2),
            max: at(measured.len().saturating_sub(1)),
            cycles,
            errors,
        }
    }

    /// The placements `record` carries, if any.
    pub fn of(record: &Record) -> Option<Self> {
        serde_json::from_value(record.details.get(PLACEMENTS)?.clone()).ok()
    }

    /// Whether every placement was measured.
    pub fn complete(&self) -> bool {
        self.min.is_some()
    }

    /// Writes these placements into `record`.
    pub fn insert_into(&self, record: &mut Record) {
        let value = serde_json::to_value(self).unwrap_or(Value::Null);
        record.details.insert(String::from(PLACEMENTS), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_is_stated_only_when_every_placement_was_measured() {
        let all = Placements::new(
            PlacedField::TotalCycles,
            2,
            vec![Some(10), Some(12), Some(9), Some(12)],
            vec![],
        );
        assert_eq!(all.offsets, [0, 2, 4, 6]);
        assert_eq!((all.min, all.median, all.max), (Some(9), Some(10), Some(12)));
        let json = serde_json::to_value(&all).unwrap();
        assert_eq!(json["field"], "total_cycles");
        assert!(json.get("errors").is_none(), "{json}");
        let partial = Placements::new(
            PlacedField::SoftwareCycles,
            2,
            vec![Some(10), None],
            vec![String::from("+2 B: lost")],
        );
        assert!(!partial.complete());
        let json = serde_json::to_value(&partial).unwrap();
        assert!(json.get("min").is_none(), "{json}");
        assert_eq!(json["errors"], serde_json::json!(["+2 B: lost"]));
        assert_eq!(serde_json::from_value::<Placements>(json).unwrap(), partial);
    }
}
