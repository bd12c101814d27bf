//! What the report model and the views both ask of a record: whether two records are the
//! same operation run two ways, and the software counterpart a hardware record names. This
//! module sits below both and imports neither.

use super::stats;
use crate::results::Record;

/// What makes two records the same operation run two ways (on the accelerator and in
/// software): benchmark, dataset, configuration and module.
pub type OperationKey<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Option<&'a str>);

/// The key of a record's operation.
pub fn operation_key(r: &Record) -> OperationKey<'_> {
    (
        r.benchmark.as_str(),
        r.dataset.as_deref(),
        r.config.as_deref(),
        r.module.as_deref(),
    )
}

/// Whether two records are the same operation (benchmark, dataset, configuration and module),
/// whichever way each ran.
pub fn same_operation(a: &Record, b: &Record) -> bool {
    operation_key(a) == operation_key(b)
}

/// The software counterpart a record names, measured and verified on the record's platform,
/// with both totals.
pub fn counterpart<'a>(hw: &Record, measured: &[&'a Record]) -> Option<(&'a Record, u64, u64)> {
    let primitive = hw.text("software_counterpart")?;
    let hw_total = hw.total_cycles.filter(|&c| c > 0)?;
    let sw = stats::representative(measured.iter().copied().filter(|s| {
        s.benchmark_kind() == Some(cyclebench_protocol::BenchmarkKind::Software)
            && s.verified
            && s.primitive() == Some(primitive)
            && s.platform == hw.platform
    }))?;
    Some((sw, hw_total, sw.total_cycles?))
}
