//! The table printed at the end of a run.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};

use cyclebench_protocol::Check;

use crate::results::{Record, Status};

/// Renders one row per record. Each row names what ran (the block or the software by name,
/// an implementation from outside the tree by its name): the platform's line and one that
/// asked for another library's software share a configuration and differ only there.
pub fn table(records: &[Record]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header([
        "where",
        "benchmark",
        "dataset",
        "config",
        "implementation",
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
            Cell::new(r.ran()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::parse;

    /// The records of a real run on `earlgrey-sim-unmasked` (`fixtures/README.md`): a C
    /// SHA-256 given with `--impl` (line 3), the platform's SHA-256, the HMAC block (line 9),
    /// and RustCrypto's on the same core (line 10), each at 0, 64, 256 and 1024 bytes.
    fn earlgrey() -> Vec<Record> {
        include_str!("../tests/fixtures/earlgrey-sha256-c/results.jsonl")
            .lines()
            .map(|l| parse(l).unwrap())
            .collect()
    }

    /// The table's row of the record at `location`, its cells trimmed.
    fn row(table: &str, location: &str) -> Vec<String> {
        let line = table
            .lines()
            .find(|l| cells(l).nth(1).as_deref() == Some(location))
            .unwrap_or_else(|| panic!("no row {location} in:\n{table}"));
        cells(line).collect()
    }

    /// The cells of a line of the table, the first one empty (before the left border).
    fn cells(line: &str) -> impl Iterator<Item = String> + '_ {
        line.split(['│', '┆']).map(|c| c.trim().to_owned())
    }

    #[test]
    fn the_platforms_hash_and_rustcryptos_read_apart_by_what_ran() {
        let table = table(&earlgrey()).to_string();
        let column = |location: &str| row(&table, location)[5].clone();
        for k in 1..=4 {
            assert_eq!(column(&format!("sha256-c.bench:3[{k}]")), "sha256-c (--impl)");
            assert_eq!(column(&format!("sha256-c.bench:9[{k}]")), "hmac (hardware)");
            assert_eq!(column(&format!("sha256-c.bench:10[{k}]")), "rustcrypto-sha2 (software)");
        }
        // The same request but for its library: without the location, the rows still differ.
        let (hardware, software) = (row(&table, "sha256-c.bench:9[2]"), row(&table, "sha256-c.bench:10[2]"));
        assert_eq!(hardware[2..5], software[2..5], "benchmark, dataset and configuration");
        assert_ne!(hardware[2..6], software[2..6]);
    }

    #[test]
    fn the_suites_own_code_and_a_request_the_platform_lacks_are_named_too() {
        let record = |json: &str| parse(json).unwrap();
        let table = table(&[
            record(&format!(
                r#"{{"status":"ok","file":"s.bench","line":1,"benchmark":"{software}","config":"{chacha} rv32i 64 B",
                "module":"cpu","implementation":"{software}","phases":{{"run":2123}},"total_cycles":2123,
                "primitive":"{chacha}","variant":"rv32i"}}"#,
                software = cyclebench_protocol::BenchmarkKind::Software.name(),
                chacha = cyclebench_protocol::Primitive::Chacha20.name(),
            )),
            record(&format!(
                r#"{{"status":"unsupported","file":"s.bench","line":2,"benchmark":"{rng}",
                "module":"entropy","implementation_name":"ctr-drbg-aes256","reason":"no entropy source"}}"#,
                rng = cyclebench_protocol::BenchmarkKind::RngTrueRandom.name(),
            )),
        ])
        .to_string();
        assert_eq!(row(&table, "s.bench:1")[5], "suite's own (software)");
        assert_eq!(row(&table, "s.bench:2")[5], "ctr-drbg-aes256");
    }
}
