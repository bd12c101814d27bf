//! The table printed at the end of a run.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};

use cyclebench_protocol::Check;

use crate::results::{Record, Status};

/// Renders one row per record.
pub fn table(records: &[Record]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header([
        "where",
        "benchmark",
        "dataset",
        "config",
        "hw/sw",
        "status",
        "total cycles",
        "phases (corrected) / reason",
    ]);
    for r in records {
        let status = match (r.status, r.check) {
            (Status::Ok, Some(Check::KnownAnswer)) => "ok, verified",
            (Status::Ok, Some(Check::Plausibility)) => "ok, plausible",
            (Status::Ok, Some(Check::Unverifiable)) => "ok, unverifiable",
            (Status::Ok, Some(Check::Unverified)) => "ok, UNVERIFIED",
            (Status::Ok, None) => "ok",
            (Status::Unsupported, _) => "unsupported",
            (Status::Error, _) => "ERROR",
        };
        let detail = match r.status {
            Status::Ok if r.phases.is_empty() => r.result_summary(usize::MAX),
            Status::Ok => r
                .phases
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            Status::Unsupported => r.reason.clone().unwrap_or_default(),
            Status::Error => r.error.clone().unwrap_or_default(),
        };
        table.add_row(vec![
            Cell::new(format!("{}:{}", file_name(&r.file), r.line_label())),
            Cell::new(&r.benchmark),
            Cell::new(r.dataset.as_deref().unwrap_or("")),
            Cell::new(r.config.as_deref().unwrap_or("")),
            Cell::new(r.implementation.map_or("", |k| k.name())),
            Cell::new(status),
            Cell::new(r.total_cycles.map(|c| c.to_string()).unwrap_or_default()).set_alignment(CellAlignment::Right),
            Cell::new(truncate(&detail, 90)),
        ]);
    }
    table
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}
