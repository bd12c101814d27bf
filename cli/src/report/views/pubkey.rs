//! Public-key operations on a big-number accelerator, each beside the same operation in
//! software on the same core: the phases, the share outside the accelerator's computation,
//! and the speed-up. A hardware record names its software counterpart
//! (`software_counterpart`); the baseline is that primitive's verified record on the same
//! platform, when the results hold one, and the speed-up is never worked out across
//! platforms.

use serde::Serialize;

use super::section::{Section, Templates, View};
use crate::report::records::{counterpart, same_operation};
use crate::report::stats;
use crate::results::Record;
use cyclebench_protocol::{BenchmarkKind, ImplementationKind, Module, PubkeyOperation};

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

/// A row of the secure-boot table: one image's digest and one signature check, in hardware
/// and in software.
#[derive(Clone, Debug, Serialize)]
pub struct BootRow {
    /// Image size in bytes.
    pub image_bytes: Option<u64>,
    /// The signature check (`ecdsa_p256_verify 256 reload`).
    pub signature: String,
    /// The digest on the hash accelerator.
    pub hash_hardware: u64,
    /// The signature check on OTBN.
    pub signature_hardware: u64,
    /// The digest in software, when measured.
    pub hash_software: Option<u64>,
    /// The signature check in software, when measured.
    pub signature_software: Option<u64>,
    /// Both in hardware.
    pub total_hardware: u64,
    /// Both in software, when both were measured.
    pub total_software: Option<u64>,
    /// total_software / total_hardware.
    pub speedup: Option<f64>,
}

#[derive(Serialize)]
struct Body {
    rows: Vec<PubkeyRow>,
    boot: Vec<BootRow>,
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
        let boot = secure_boot(records, measured);
        (!rows.is_empty()).then(|| Section::new(Body { rows, boot, unmeasured }))
    }
}

/// Whether a record is the same request as `of` run the other way (in software instead of on
/// the accelerator, or the reverse) in the same file.
fn same_request(r: &Record, of: &Record) -> bool {
    r.file == of.file && same_operation(r, of)
}

/// The secure-boot composite: every SHA-256 digest on the accelerator in a file with every
/// signature check (a valid verification, an RSA encryption) of the same file, each beside
/// the same two operations in software. A file that holds both is a secure-boot set
/// (`benchmarks/otbn/secure_boot.bench`).
fn secure_boot(records: &[&Record], measured: &[&Record]) -> Vec<BootRow> {
    let mut boot = Vec::new();
    let checks = records.iter().filter(|p| {
        let operation = p.text("operation");
        (operation == Some(PubkeyOperation::EcdsaP256Verify.name()) && p.text("expected") == Some("accept"))
            || operation == Some(PubkeyOperation::RsaEncrypt.name())
    });
    for check in checks {
        let Some(signature_hardware) = check.total_cycles else {
            continue;
        };
        let signature_software = counterpart(check, measured).map(|(_, _, software)| software);
        let digests = measured.iter().filter(|h| {
            h.file == check.file
                && h.benchmark_kind() == Some(BenchmarkKind::Hash)
                && h.module.as_deref() == Some(Module::Sha2.name())
                && h.implementation == Some(ImplementationKind::Hardware)
        });
        for digest in digests {
            let Some(hash_hardware) = digest.total_cycles else {
                continue;
            };
            let hash_software = stats::representative(measured.iter().copied().filter(|s| {
                s.implementation == Some(ImplementationKind::Software) && s.verified && same_request(s, digest)
            }))
            .and_then(|s| s.total_cycles);
            let total_hardware = hash_hardware + signature_hardware;
            let total_software = hash_software.zip(signature_software).map(|(h, s)| h + s);
            boot.push(BootRow {
                image_bytes: digest.bytes,
                signature: check.config.clone().unwrap_or_default(),
                hash_hardware,
                signature_hardware,
                hash_software,
                signature_software,
                total_hardware,
                total_software,
                speedup: total_software.map(|s| s as f64 / total_hardware as f64),
            });
        }
    }
    boot.sort_by_key(|b| b.image_bytes);
    boot
}

fn row(r: &Record, measured: &[&Record]) -> PubkeyRow {
    let phase = |name: &str| r.phases.get(name).copied();
    let counterpart_name = r.text("software_counterpart").unwrap_or_default().to_owned();
    let software = counterpart(r, measured).map(|(_, _, software)| software);
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
        counterpart: counterpart_name,
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
    use cyclebench_protocol::Primitive;

    fn hardware(platform: &str, compute: u64) -> Record {
        parse(&format!(
            r#"{{"status":"ok","target":"{platform}","platform":"{platform}","file":"benchmarks/otbn/ecdsa.bench","line":2,
            "benchmark":"{kind}","config":"ecdsa_p256_verify 256 reload","module":"bignum","implementation":"hardware",
            "verified":true,"phases":{{"load":100,"input":10,"compute":{compute},"output":5,"cleanup":5}},
            "total_cycles":{},"operation":"ecdsa_p256_verify","expected":"accept","software_counterpart":"{primitive}","accepted":true}}"#,
            120 + compute,
            kind = BenchmarkKind::Pubkey.name(),
            primitive = Primitive::EcdsaP256Verify.name(),
        ).replace('\n', ""))
        .expect("a record")
    }

    fn software(platform: &str, total: u64) -> Record {
        parse(&format!(
            r#"{{"status":"ok","target":"{platform}","platform":"{platform}","file":"benchmarks/otbn/software.bench","line":2,
            "benchmark":"{kind}","module":"cpu","implementation":"{implementation}","verified":true,"phases":{{"run":{total}}},
            "total_cycles":{total},"primitive":"{primitive}","variant":"rust"}}"#,
            kind = BenchmarkKind::Software.name(),
            implementation = ImplementationKind::Software.name(),
            primitive = Primitive::EcdsaP256Verify.name(),
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
        assert_eq!(section.body["unmeasured"][0], Primitive::EcdsaP256Verify.name());
    }

    fn digest(implementation: &str, total: u64) -> Record {
        parse(&format!(
            r#"{{"status":"ok","target":"earlgrey","platform":"earlgrey","file":"benchmarks/otbn/ecdsa.bench","line":1,
            "benchmark":"{kind}","config":"sha2 tight 4096 B seed 7","module":"sha2","implementation":"{implementation}",
            "verified":true,"phases":{{"input":{total}}},"total_cycles":{total},"bytes":4096}}"#,
            kind = BenchmarkKind::Hash.name(),
        ).replace('\n', ""))
        .expect("a record")
    }

    #[test]
    fn a_file_with_digests_and_signature_checks_adds_them_up_in_both_worlds() {
        let (hw, sw) = (hardware("earlgrey", 880), software("earlgrey", 20_000));
        let (hash_hw, hash_sw) = (
            digest(ImplementationKind::Hardware.name(), 500),
            digest(ImplementationKind::Software.name(), 9_500),
        );
        let measured = [&hash_hw, &hash_sw, &hw, &sw];
        let boot = secure_boot(&[&hw], &measured);
        assert_eq!(boot.len(), 1);
        let b = &boot[0];
        assert_eq!(
            (b.image_bytes, b.total_hardware, b.total_software),
            (Some(4096), 1500, Some(29_500))
        );
        assert_eq!(b.speedup.map(|s| (s * 100.0).round()), Some(1967.0));
        // Without the software digest the row stays, with no software total and no speed-up.
        let boot = secure_boot(&[&hw], &[&hash_hw, &hw, &sw]);
        assert_eq!(
            (boot[0].hash_software, boot[0].total_software, boot[0].speedup),
            (None, None, None)
        );
    }
}
