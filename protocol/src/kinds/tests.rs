//! Registry-wide checks; that every kind's results fit it and name declared phases is shown
//! on the examples of `docs/protocol.md` (`protocol/tests/doc_frames.rs`).

extern crate std;

use super::*;
use crate::Cycles;

#[test]
fn names_and_tags_are_unique() {
    for (i, a) in BenchmarkKind::ALL.iter().enumerate() {
        for b in &BenchmarkKind::ALL[i + 1..] {
            assert_ne!(a.name(), b.name());
            assert_ne!(a.tag(), b.tag());
        }
        assert_eq!(BenchmarkKind::from_name(a.name()), Some(*a));
        assert_eq!(BenchmarkKind::from_tag(a.tag()), Some(*a));
    }
}

#[test]
fn categories_follow_the_declared_phases() {
    assert_eq!(BenchmarkKind::Hash.category("init"), PhaseCategory::Initialisation);
    assert_eq!(BenchmarkKind::Aes.category("write"), PhaseCategory::Input);
    assert_eq!(BenchmarkKind::Hash.category("await_digest"), PhaseCategory::Computation);
    assert_eq!(
        BenchmarkKind::RngSeeded.category("generate2"),
        PhaseCategory::Computation
    );
    assert_eq!(BenchmarkKind::Hash.category("read_digest"), PhaseCategory::Output);
    assert_eq!(BenchmarkKind::RngTrueRandom.category("read3"), PhaseCategory::Output);
    assert_eq!(BenchmarkKind::Aes.category("deinit"), PhaseCategory::Deinitialisation);
    assert_eq!(BenchmarkKind::Micro.category("nop10"), PhaseCategory::Other);
    // A numbered phase needs its number, and only digits may follow the name.
    assert_eq!(BenchmarkKind::RngSeeded.category("generate"), PhaseCategory::Other);
    assert_eq!(BenchmarkKind::RngSeeded.category("readx"), PhaseCategory::Other);
}

#[cfg(feature = "serde")]
#[test]
fn json_names_are_kind_names() {
    for kind in BenchmarkKind::ALL {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.name(), "{kind:?}");
    }
}

#[test]
fn offload_fields_use_corrected_counts() {
    let c = |n| Cycles::once(n);
    let p = OffloadPhases {
        host_submit: c(11),
        mailbox: c(21),
        payload: c(101),
        operation: c(1007),
        result_copy: c(31),
        handover: c(0),
        completion: c(12),
        host_drain: c(41),
        software: c(10_001),
        software_reused: false,
        fastest_software: None,
        windows: [1, 1, 1, 7, 1, 0, 2, 1],
        handovers: 0,
        window_overhead: 1,
        host_memory_address: 0,
        spm_address: 0,
        mailbox_address: 0,
    };
    // Device overhead 20 + 100 + 30 + 10 = 160 over 160 + 1000; host 10 + 40.
    assert_eq!(p.device_overhead_cycles(), 160);
    assert_eq!(p.operation_cycles(), 1000);
    assert_eq!(p.host_cycles(), 50);
    let fields = p.fields();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
    assert_eq!(get("overhead_percent"), Some(Field::Decimal(13.79)));
    assert_eq!(get("overhead_with_host_percent"), Some(Field::Decimal(17.36)));
    assert_eq!(get("software_cycles"), Some(Field::Number(10_000)));
    assert_eq!(get("speedup"), Some(Field::Decimal(8.26)));
    // Without a faster implementation the fastest software is RustCrypto's own run.
    assert_eq!(get("fastest_software_cycles"), Some(Field::Number(10_000)));
    assert_eq!(get("fastest_speedup"), Some(Field::Decimal(8.26)));
    // With one, its corrected run and its own speed-up, RustCrypto's figures unchanged.
    let faster = OffloadPhases {
        fastest_software: Some(c(2_611)),
        ..p.clone()
    };
    let fields = faster.fields();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
    assert_eq!(get("software_cycles"), Some(Field::Number(10_000)));
    assert_eq!(get("fastest_software_cycles"), Some(Field::Number(2_610)));
    assert_eq!(get("fastest_speedup"), Some(Field::Decimal(2.16)));
    // The paper's overhead, its host included, comes before the chip-side share.
    let position = |name: &str| fields.iter().position(|(n, _)| *n == name);
    assert!(position("overhead_with_host_percent") < position("overhead_percent"));
}

#[test]
fn an_offload_result_must_carry_the_fastest_software_its_job_has() {
    let request = |operation| OffloadBenchmark {
        operation,
        payload_bytes: 1024,
        addressing: Addressing::Direct,
        design: OffloadDesign::Staging,
        repetitions: None,
    };
    let result = |fastest_software| {
        Phases::Offload(OffloadPhases {
            host_submit: Cycles::once(1),
            mailbox: Cycles::once(1),
            payload: Cycles::once(1),
            operation: Cycles::once(1),
            result_copy: Cycles::once(1),
            handover: Cycles::once(1),
            completion: Cycles::once(1),
            host_drain: Cycles::once(1),
            software: Cycles::once(1),
            software_reused: false,
            fastest_software,
            windows: [1; 8],
            handovers: 0,
            window_overhead: 1,
            host_memory_address: 0,
            spm_address: 0,
            mailbox_address: 0,
        })
    };
    let (with, without) = (result(Some(Cycles::once(1))), result(None));
    assert!(request(OffloadOperation::AesCbc256).accepts(&with));
    assert!(!request(OffloadOperation::AesCbc256).accepts(&without));
    assert!(request(OffloadOperation::Sha3_256).accepts(&with));
    assert!(request(OffloadOperation::Sha256).accepts(&without));
    assert!(!request(OffloadOperation::Sha256).accepts(&with));
    // Every record names both implementations, and says whether the fastest is constant time.
    let fields = request(OffloadOperation::AesCbc256).describe().fields;
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
    assert_eq!(get("fastest_software_constant_time"), Some(Field::Flag(false)));
    assert!(matches!(get("fastest_software_implementation"), Some(Field::Text(t)) if t.contains("not constant time")));
    assert!(matches!(get("software_implementation"), Some(Field::Text(t)) if t.starts_with("rustcrypto")));
}

#[test]
fn offload_sizes_are_whole_kib_up_to_five_pages() {
    let request = |payload_bytes| OffloadBenchmark {
        operation: OffloadOperation::Sha256,
        payload_bytes,
        addressing: Addressing::Direct,
        design: OffloadDesign::Staging,
        repetitions: None,
    };
    assert!(request(1024).check().is_ok());
    assert!(request(MAX_OFFLOAD_BYTES).check().is_ok());
    for bad in [0, 1000, 1536, MAX_OFFLOAD_BYTES + 1024] {
        assert!(request(bad).check().is_err(), "{bad}");
    }
}

#[test]
fn a_kind_without_phases_says_how_it_is_shown_instead() {
    for kind in BenchmarkKind::ALL {
        let presentation = kind.presentation();
        // A result without phases has nothing to stack: the report must say why.
        if kind.phases().is_empty() {
            assert!(presentation.not_stacked.is_some(), "{}", kind.name());
        }
        for u in presentation.unbounded {
            assert!(u.field != u.flag && u.flag != u.reason, "{}", kind.name());
        }
    }
    assert_eq!(BenchmarkKind::Hash.presentation(), &Presentation::PHASES);
    let leakage = BenchmarkKind::Leakage.presentation();
    let t = leakage.unbounded("max_abs_t").expect("|t| can be unbounded");
    assert_eq!(t.legacy_sentinel, Some(42_949_672.95));
    assert!(leakage.unbounded("verdict").is_none());
}

#[test]
fn multi_precision_primitives_describe_their_family() {
    let family = |primitive: Primitive, length: Option<u32>| {
        let b = SoftwareBenchmark {
            primitive,
            variant: SoftwareVariant::Rust,
            length,
            repetitions: None,
        };
        b.describe()
            .fields
            .into_iter()
            .find(|(name, _)| *name == "family")
            .map(|(_, f)| f)
    };
    let text = |s: &str| Some(Field::Text(String::from(s)));
    assert_eq!(family(Primitive::MpAddReduced, Some(8)), text("addition"));
    assert_eq!(family(Primitive::MpMulKaratsuba, Some(8)), text("multiplication"));
    assert_eq!(
        family(Primitive::MpMulSchoolbookReduced, Some(8)),
        text("multiplication")
    );
    assert_eq!(family(Primitive::Chacha20, Some(64)), None);
    assert_eq!(family(Primitive::KeccakF1600, None), None);
}

#[cfg(feature = "serde")]
#[test]
fn a_request_names_the_block_it_drives_unless_it_asks_for_software() {
    use crate::Module;
    let cases = [
        (
            r#"{"hash": {"algorithm": "sha2", "dataset": "abc"}}"#,
            Some(Module::Sha2),
        ),
        (
            r#"{"hash": {"algorithm": "sha3", "dataset": "abc"}}"#,
            Some(Module::Sha3),
        ),
        (
            r#"{"hash": {"algorithm": "sha3", "dataset": "abc", "software": "own"}}"#,
            None,
        ),
        (r#"{"aes": {"dataset": "ecb-128-1b"}}"#, Some(Module::Aes)),
        (r#"{"aes": {"dataset": "ecb-128-1b", "software": "rustcrypto"}}"#, None),
        (r#"{"rng_seeded": {"dataset": "nist-ctr-drbg-0"}}"#, Some(Module::Rng)),
        (r#"{"rng_true_random": {"blocks": 3}}"#, Some(Module::Entropy)),
        (
            r#"{"pubkey": {"operation": "ecdsa_p256_verify"}}"#,
            Some(Module::BigNum),
        ),
        (
            r#"{"offload": {"operation": "sha3-256", "payload_bytes": 1024}}"#,
            Some(Module::Sha3),
        ),
        (
            r#"{"leakage": {"operation": "hmac", "variant": "hardware", "secret": "key", "measurements": 200, "seed": 1}}"#,
            Some(Module::Sha2),
        ),
        (
            r#"{"leakage": {"operation": "compare-ct", "variant": "rv32i", "secret": "data", "measurements": 100, "seed": 1}}"#,
            None,
        ),
        (
            r#"{"software": {"primitive": "ecdsa-p256-verify", "variant": "rust"}}"#,
            None,
        ),
        (r#"{"micro": {}}"#, None),
    ];
    for (json, module) in cases {
        let b: Benchmark = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(b.accelerator(), module, "{json}");
        // Results files name the same module, unless the request asks for software.
        if b.software().is_none() {
            assert_eq!(b.describe().module, module, "{json}");
        }
    }
}
