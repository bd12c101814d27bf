//! Public-key operations on a big-number accelerator, each beside the same operation in
//! software on the same core: the phases, the share outside the accelerator's computation,
//! and the speed-up. A hardware record names its software counterpart
//! (`software_counterpart`); the baseline is that primitive's verified record on the same
//! platform, when the results hold one, and the speed-up is never worked out across
//! platforms.

use serde::Serialize;

use super::{Section, Templates, View};
use crate::results::Record;
use cyclebench_protocol::BenchmarkKind;

/// The public-key view.
pub struct HardwareAndSoftware;

/// A row: one hardware record and its baseline.
#[derive(Clone, Debug, Serialize)]
pub struct PubkeyRow {
    /// `file.bench:line`.
    pub location: String,
    /// The configuration in words (`ecdsa_p256_verify 256 corrupted reload`).
    pub config: String,
    /// `accept`/`reject` for a verification (the answer it gave, which was the expected one).
    pub answer: String,
    /// Corrected phase medians: load, input, compute, output, clean-up.
    pub load: Option<u64>,
    /// Operands written.
    pub input: Option<u64>,
    /// Start to done.
    pub compute: Option<u64>,
    /// Result read.
    pub output: Option<u64>,
    /// Wiped (and, for verify, compared).
    pub cleanup: Option<u64>,
    /// Sum of the phases.
    pub total: Option<u64>,
    /// Everything but `compute`, in percent of the total.
    pub outside_compute_percent: Option<f64>,
    /// The software primitive it is set against.
    pub counterpart: String,
    /// Its cycles on the same platform, when measured.
    pub software: Option<u64>,
    /// software / total.
    pub speedup: Option<f64>,
}

#[derive(Serialize)]
struct Body {
    rows: Vec<PubkeyRow>,
    /// Counterparts the results hold for no hardware record's platform.
    unmeasured: Vec<String>,
}

impl View for HardwareAndSoftware {
    fn templates(&self) -> Templates {
        Templates {
            markdown: include_str!("pubkey.md.j2"),
            html: include_str!("pubkey.html.j2"),
        }
    }

    fn section(&self, records: &[&Record], measured: &[&Record]) -> Option<Section> {
        let rows: Vec<PubkeyRow> = records.iter().map(|r| row(r, measured)).collect();
        let mut unmeasured: Vec<String> = Vec::new();
        for r in &rows {
            if r.software.is_none() && !r.counterpart.is_empty() && !unmeasured.contains(&r.counterpart) {
                unmeasured.push(r.counterpart.clone());
            }
        }
        (!rows.is_empty()).then(|| Section::new(Body { rows, unmeasured }))
    }
}

/// The verified software record of `primitive` on `platform`.
fn baseline<'a>(measured: &[&'a Record], primitive: &str, platform: &str) -> Option<&'a Record> {
    measured.iter().copied().find(|s| {
        s.benchmark_kind() == Some(BenchmarkKind::Software)
            && s.verified
            && s.primitive() == Some(primitive)
            && s.platform.as_deref() == Some(platform)
    })
}

fn row(r: &Record, measured: &[&Record]) -> PubkeyRow {
    let phase = |name: &str| r.phases.get(name).copied();
    let counterpart = r.text("software_counterpart").unwrap_or_default().to_owned();
    let software = r
        .platform
        .as_deref()
        .and_then(|platform| baseline(measured, &counterpart, platform))
        .and_then(|s| s.total_cycles);
    let total = r.total_cycles;
    let answer = match r.details.get("accepted").and_then(|v| v.as_bool()) {
        Some(true) => "accept",
        Some(false) => "reject",
        None => "",
    };
    PubkeyRow {
        location: r.location(),
        config: r.config.clone().unwrap_or_default(),
        answer: String::from(answer),
        load: phase("load"),
        input: phase("input"),
        compute: phase("compute"),
        output: phase("output"),
        cleanup: phase("cleanup"),
        total,
        outside_compute_percent: total
            .zip(phase("compute"))
            .filter(|(t, _)| *t > 0)
            .map(|(t, c)| 100.0 * t.saturating_sub(c) as f64 / t as f64),
        counterpart,
        software,
        speedup: software
            .zip(total)
            .filter(|(_, t)| *t > 0)
            .map(|(s, t)| s as f64 / t as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::parse;

    fn hardware(platform: &str, compute: u64) -> Record {
        parse(&format!(
            r#"{{"status":"ok","target":"{platform}","platform":"{platform}","file":"benchmarks/otbn/ecdsa.bench","line":2,
            "benchmark":"pubkey","config":"ecdsa_p256_verify 256 reload","module":"bignum","implementation":"hardware",
            "verified":true,"phases":{{"load":100,"input":10,"compute":{compute},"output":5,"cleanup":5}},
            "total_cycles":{},"operation":"ecdsa_p256_verify","software_counterpart":"ecdsa-p256-verify","accepted":true}}"#,
            120 + compute
        ).replace('\n', ""))
        .expect("a record")
    }

    fn software(platform: &str, total: u64) -> Record {
        parse(&format!(
            r#"{{"status":"ok","target":"{platform}","platform":"{platform}","file":"benchmarks/otbn/software.bench","line":2,
            "benchmark":"software","module":"cpu","implementation":"software","verified":true,"phases":{{"run":{total}}},
            "total_cycles":{total},"primitive":"ecdsa-p256-verify","variant":"rust"}}"#
        ).replace('\n', ""))
        .expect("a record")
    }

    #[test]
    fn a_hardware_record_is_set_against_its_counterpart_on_its_own_platform_only() {
        let (hw, sw_same, sw_other) = (
            hardware("earlgrey", 880),
            software("earlgrey", 20_000),
            software("ibex-sim", 10_000),
        );
        let measured = [&hw, &sw_other, &sw_same];
        let row = row(&hw, &measured);
        assert_eq!(row.total, Some(1000));
        assert_eq!(row.software, Some(20_000));
        assert_eq!(row.speedup, Some(20.0));
        assert_eq!(row.outside_compute_percent, Some(12.0));
        assert_eq!(row.answer, "accept");

        let alone = [&hw, &sw_other];
        let section = HardwareAndSoftware.section(&[&hw], &alone).expect("a section");
        assert_eq!(section.body["rows"][0]["speedup"], serde_json::Value::Null);
        assert_eq!(section.body["unmeasured"][0], "ecdsa-p256-verify");
    }
}
