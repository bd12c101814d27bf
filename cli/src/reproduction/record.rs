//! The record fields the reproduction reads that have no accessor on the results type.
//!
//! Every direct field access of the reproduction is in this one impl, so that a change of the
//! record's layout touches only this file; everything else goes through the record's own
//! accessors (`raw_phase`, `raw_total`, `file_stem`, `cycles_per_byte`, `phases`,
//! `primitive`, `variant`, `software_length`, `stack_bytes`).

pub(super) use crate::results::{Record, Status};

/// Reads of a [`Record`] beyond its own accessors.
pub(super) trait Fields {
    /// Outcome class.
    fn outcome(&self) -> Status;
    /// Benchmark kind (`micro`, `software`, ...).
    fn kind(&self) -> &str;
    /// Dataset, where the benchmark has one.
    fn dataset_name(&self) -> Option<&str>;
    /// Configuration in words.
    fn config_words(&self) -> Option<&str>;
    /// Calibrated overhead of one measurement window.
    fn window_overhead(&self) -> Option<u32>;
    /// The error, or why the benchmark is unsupported.
    fn failure(&self) -> Option<&str>;
    /// Raw phases in execution order.
    fn raw_phases_in_order(&self) -> Vec<(&str, u64)>;
    /// Sum of the corrected phases.
    fn corrected_total(&self) -> Option<u64>;
    /// Code size of a software primitive, in bytes.
    fn code_size(&self) -> Option<u64>;
    /// One corrected phase.
    fn corrected_phase(&self, name: &str) -> Option<u64>;
}

impl Fields for Record {
    fn outcome(&self) -> Status {
        self.status
    }

    fn kind(&self) -> &str {
        &self.benchmark
    }

    fn dataset_name(&self) -> Option<&str> {
        self.dataset.as_deref()
    }

    fn config_words(&self) -> Option<&str> {
        self.config.as_deref()
    }

    fn window_overhead(&self) -> Option<u32> {
        self.overhead
    }

    fn failure(&self) -> Option<&str> {
        self.error.as_deref().or(self.reason.as_deref())
    }

    fn raw_phases_in_order(&self) -> Vec<(&str, u64)> {
        self.raw_phases.iter().map(|(n, c)| (n.as_str(), *c)).collect()
    }

    fn corrected_total(&self) -> Option<u64> {
        self.total_cycles
    }

    fn code_size(&self) -> Option<u64> {
        self.code_bytes
    }

    fn corrected_phase(&self, name: &str) -> Option<u64> {
        self.phases.get(name).copied()
    }
}
