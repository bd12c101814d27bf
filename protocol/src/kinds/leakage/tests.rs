//! Statistics, names, wire form and fields of the leakage kind.
extern crate std;

use super::*;
use crate::wire::{decode_reply, decode_request, encode_reply, encode_request, frame, Rejected};
use crate::{Benchmark, BenchmarkResults, Check, ImplementationKind, Measured, Reply, Request};

fn moments(samples: &[u32]) -> Moments {
    let mut m = Moments::default();
    samples.iter().for_each(|&x| m.add(x));
    m
}

fn timing(samples: &[u32]) -> ClassTiming {
    let m = moments(samples);
    ClassTiming {
        count: m.count,
        min: samples.iter().copied().min().unwrap_or(0),
        max: samples.iter().copied().max().unwrap_or(0),
        sum: m.sum,
        sum_squares: m.sum_squares,
    }
}

fn request(operation: LeakOperation, secret: Secret, length: Option<u32>) -> LeakageBenchmark {
    LeakageBenchmark {
        implementation: None,
        operation,
        variant: LeakVariant::Software(SoftwareVariant::Rv32i),
        secret,
        length,
        measurements: 10_000,
        seed: 7,
    }
}

fn result(class0: &[u32], class1: &[u32]) -> LeakagePhases {
    let (class0, class1) = (timing(class0), timing(class1));
    LeakagePhases {
        class0,
        class1,
        abs_t_x100: [welch_abs_t_x100(&class0.moments(), &class1.moments()), 0, 3, 0, 0, 0],
        thresholds: [98, 98, 150, 150, 151],
        entry: 0x8000_1234,
    }
}

#[test]
fn welch_t_matches_the_textbook_formula() {
    let a = [10, 12, 11, 13, 12, 10, 11];
    let b = [14, 15, 13, 16, 15];
    let mean = |s: &[u32]| s.iter().map(|&x| f64::from(x)).sum::<f64>() / s.len() as f64;
    let var = |s: &[u32]| {
        let m = mean(s);
        s.iter().map(|&x| (f64::from(x) - m).powi(2)).sum::<f64>() / (s.len() - 1) as f64
    };
    let t = (mean(&a) - mean(&b)).abs() / (var(&a) / 7.0 + var(&b) / 5.0).sqrt();
    assert_eq!(welch_abs_t_x100(&moments(&a), &moments(&b)), (t * 100.0) as u32);
    assert_eq!(moments(&a).mean(), Some(mean(&a)));
    assert!((moments(&b).variance().unwrap() - var(&b)).abs() < 1e-12);
    // Symmetric.
    assert_eq!(
        welch_abs_t_x100(&moments(&a), &moments(&b)),
        welch_abs_t_x100(&moments(&b), &moments(&a))
    );
}

#[test]
fn constant_classes_are_decided_by_their_means() {
    let same = welch_abs_t_x100(&moments(&[103; 50]), &moments(&[103; 60]));
    assert_eq!(same, 0);
    let different = welch_abs_t_x100(&moments(&[103; 50]), &moments(&[104; 60]));
    assert_eq!(different, LEAK_T_UNBOUNDED);
    // One constant class is enough for a finite statistic.
    let finite = welch_abs_t_x100(&moments(&[103; 50]), &moments(&[103, 104, 103, 105]));
    assert!(finite > 0 && finite < LEAK_T_UNBOUNDED, "{finite}");
    // Too few samples say nothing.
    assert_eq!(welch_abs_t_x100(&moments(&[1]), &moments(&[5, 6, 7])), 0);
    assert_eq!(welch_abs_t_x100(&Moments::default(), &moments(&[5, 6])), 0);
}

#[test]
fn huge_statistics_saturate_and_sums_do_not_overflow() {
    let mut a = Moments::default();
    let mut b = Moments::default();
    for i in 0..MAX_LEAK_MEASUREMENTS / 2 {
        a.add(MAX_LEAK_SAMPLE - (i & 1));
        b.add(i & 1);
    }
    assert_eq!(welch_abs_t_x100(&a, &b), LEAK_T_UNBOUNDED);
    let mut merged = a;
    merged.merge(&b);
    assert_eq!(merged.count, MAX_LEAK_MEASUREMENTS);
}

#[test]
fn crop_percentiles_follow_dudect() {
    let indices: Vec<usize> = (1..=LEAK_CROPS).map(|k| crop_index(k, 1000)).collect();
    assert_eq!(indices, [750, 937, 984, 996, 999]);
    assert_eq!(crop_index(1, 100), 75);
    assert_eq!(crop_index(5, 100), 99);
    assert_eq!(crop_index(3, 1), 0);
}

#[test]
fn verdict_and_fields_come_from_the_largest_t() {
    let mut r = result(&[150; 40], &[20, 22, 20, 20, 35, 20, 20, 150]);
    assert!(r.leaks());
    assert_eq!(r.verdict(), "leak");
    let fields = r.fields();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
    assert_eq!(get("measurements"), Some(Field::Number(48)));
    assert_eq!(get("verdict"), Some(Field::Text("leak".into())));
    assert_eq!(get("max_abs_t_test"), Some(Field::Number(0)));
    assert_eq!(get("class0_mean"), Some(Field::Decimal(150.0)));
    assert_eq!(get("class0_variance"), Some(Field::Decimal(0.0)));
    assert_eq!(get("class1_min"), Some(Field::Number(20)));
    assert_eq!(get("class1_max"), Some(Field::Number(150)));

    r = result(&[103; 40], &[103; 40]);
    r.abs_t_x100 = [0, 450, 12, 450, 0, 0];
    assert_eq!(r.max_abs_t_x100(), (450, 1));
    assert_eq!(r.verdict(), "no-leak-detected");
    r.abs_t_x100[4] = 451;
    assert_eq!((r.max_abs_t_x100(), r.verdict()), ((451, 4), "leak"));
    let fields = r.fields();
    assert!(fields.contains(&("max_abs_t", Field::Decimal(4.51))));
    assert!(fields.contains(&("t_unbounded", Field::Flag(false))));
    assert!(!fields.iter().any(|(n, _)| *n == "t_unbounded_reason"));
}

#[test]
fn an_unbounded_t_is_null_with_its_reason_never_a_number() {
    let get = |fields: &[(&str, Field)], name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
    // Both classes constant, different means: the timing is a function of the class.
    let r = result(&[183; 40], &[32; 40]);
    assert_eq!(r.abs_t_x100[0], LEAK_T_UNBOUNDED);
    let fields = r.fields();
    assert_eq!(get(&fields, "max_abs_t"), Some(Field::Null));
    assert_eq!(get(&fields, "t_unbounded"), Some(Field::Flag(true)));
    assert_eq!(
        get(&fields, "t_unbounded_reason"),
        Some(Field::Text(
            "both classes have zero variance and different means".into()
        ))
    );
    assert_eq!(r.verdict(), "leak");
    // A crop that saturates: its moments are not on the wire, so both causes are named.
    let mut r = result(&[150; 40], &[20, 22, 20, 20, 35, 20, 20, 150]);
    r.abs_t_x100[3] = LEAK_T_UNBOUNDED;
    let fields = r.fields();
    assert_eq!(get(&fields, "max_abs_t"), Some(Field::Null));
    assert_eq!(get(&fields, "max_abs_t_test"), Some(Field::Number(3)));
    assert!(matches!(get(&fields, "t_unbounded_reason"), Some(Field::Text(t)) if t.contains("crop threshold")));
    // No field carries the wire's saturated value.
    for (name, field) in &fields {
        assert!(
            !matches!(field, Field::Decimal(d) if *d >= f64::from(LEAK_T_UNBOUNDED) / 100.0),
            "{name}"
        );
    }
}

#[test]
fn requests_round_trip_and_are_range_checked() {
    let cases = [
        request(LeakOperation::CompareLeaky, Secret::Data, None),
        request(LeakOperation::CompareConstantTime, Secret::Data, None),
        request(LeakOperation::Primitive(Primitive::AesTableEncrypt), Secret::Key, None),
        request(LeakOperation::Primitive(Primitive::Chacha20), Secret::Data, Some(64)),
        request(
            LeakOperation::Primitive(Primitive::MpMulKaratsuba),
            Secret::Data,
            Some(32),
        ),
        LeakageBenchmark {
            implementation: None,
            variant: LeakVariant::Hardware,
            ..request(LeakOperation::Aes, Secret::Data, Some(64))
        },
        LeakageBenchmark {
            implementation: None,
            variant: LeakVariant::Hardware,
            ..request(LeakOperation::Hmac, Secret::Key, None)
        },
        LeakageBenchmark {
            implementation: None,
            variant: LeakVariant::Hardware,
            ..request(LeakOperation::Kmac, Secret::Key, None)
        },
        LeakageBenchmark {
            implementation: None,
            measurements: MAX_LEAK_MEASUREMENTS,
            seed: u32::MAX,
            ..request(LeakOperation::Primitive(Primitive::KeccakF1600), Secret::Data, None)
        },
    ];
    for (i, r) in cases.into_iter().enumerate() {
        let request = Request::Benchmark(Benchmark::Leakage(r));
        let line = encode_request(i as u16, &request);
        assert_eq!(decode_request(line.as_bytes()), Ok((i as u16, request)), "{line}");
    }
    assert!(encode_request(
        1,
        &Request::Benchmark(Benchmark::Leakage(request(
            LeakOperation::Primitive(Primitive::Chacha20),
            Secret::Key,
            Some(64),
        )))
    )
    .starts_with("1 B leak chacha20 rv32i key 10000 7 l64*"));
    for payload in [
        "B leak compare-leaky rv32i data 99 1",
        "B leak compare-leaky rv32i data 1000001 1",
        "B leak compare-leaky rv32i key 1000 1",
        "B leak compare-leaky rv32i data 1000 1 l16",
        "B leak compare-leaky rv32i data 1000 1 x3",
        "B leak compare rv32i data 1000 1",
        "B leak keccak-f1600 rust key 1000 1",
        "B leak aes-table-ks rust data 1000 1",
        "B leak chacha20 rust key 1000 1",
        "B leak mp-karatsuba rust data 1000 1 l7",
        "B leak compare-ct rust data 1000",
        "B leak compare-ct rust data 1000 4294967296",
        "B leak compare-ct rust secret 1000 1",
        "B leak compare-ct hardware data 1000 1",
        "B leak aes rv32i key 1000 1 l16",
        "B leak aes hardware key 1000 1",
        "B leak aes hardware key 1000 1 l20",
        "B leak aes hardware key 1000 1 l80",
        "B leak hmac hardware data 1000 1",
        "B leak kmac hardware key 1000 1 l16",
        "B leak kmac software key 1000 1",
    ] {
        let line = frame(format!("3 {payload}"));
        assert!(
            matches!(
                decode_request(line.as_bytes()),
                Err(Rejected {
                    id: Some(3),
                    error: WireError::Malformed(_)
                })
            ),
            "{payload}"
        );
    }
}

#[test]
fn results_round_trip_and_are_checked() {
    let r = result(
        &[150; 5000],
        &[20; 4990].iter().chain(&[28; 10]).copied().collect::<Vec<_>>(),
    );
    let reply = Reply::BenchmarkResults(BenchmarkResults::Measured(Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        overhead: 4,
        repetitions: 1,
        phases: Phases::Leakage(r.clone()),
    }));
    let line = encode_reply(Some(9), &reply);
    assert!(line.len() <= crate::MAX_LINE_LEN, "{line}");
    assert_eq!(decode_reply(line.as_bytes()), Ok((Some(9), reply)), "{line}");
    let fits = request(LeakOperation::CompareLeaky, Secret::Data, None);
    assert!(Benchmark::Leakage(fits.clone()).accepts(&Phases::Leakage(r.clone())));
    let other = LeakageBenchmark {
        implementation: None,
        measurements: 10_001,
        ..fits
    };
    assert!(!Benchmark::Leakage(other).accepts(&Phases::Leakage(r)));

    for payload in [
        // The uncropped t does not follow from the classes.
        "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 0/0/0/0/0/0 5/5/6/6/6 0",
        // Sums no samples between min and max have.
        "R s k 4 1 leak 2/5/5/11/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6 0",
        "R s k 4 1 leak 2/5/6/11/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6 0",
        "R s k 4 1 leak 0/1/0/0/0 2/6/6/12/72 0/0/0/0/0/0 5/5/6/6/6 0",
        // Thresholds out of order, too few tests, too many thresholds.
        "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/6/5/6/6 0",
        "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0 5/5/6/6/6 0",
        "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6/7 0",
        "R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6",
    ] {
        let line = frame(format!("1 {payload}"));
        assert!(decode_reply(line.as_bytes()).is_err(), "{payload}");
    }
    let good = frame(String::from(
        "1 R s k 4 1 leak 2/5/5/10/50 2/6/6/12/72 4294967295/0/0/0/0/0 5/5/6/6/6 0",
    ));
    assert!(decode_reply(good.as_bytes()).is_ok());
}

#[cfg(feature = "serde")]
#[test]
fn json_names_are_wire_names() {
    let r = request(
        LeakOperation::Primitive(Primitive::AesBitslicedCtr),
        Secret::Key,
        Some(64),
    );
    let json = serde_json::to_value(Benchmark::Leakage(r.clone())).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"leakage": {"operation": "aes-bs-ctr", "variant": "rv32i", "secret": "key",
            "length": 64, "measurements": 10000, "seed": 7}})
    );
    assert_eq!(
        serde_json::from_value::<Benchmark>(json).unwrap(),
        Benchmark::Leakage(r)
    );
    let control: LeakageBenchmark = serde_json::from_str(
        r#"{"operation": "compare-ct", "variant": "rust", "secret": "data", "measurements": 100, "seed": 0}"#,
    )
    .unwrap();
    assert_eq!(control.operation, LeakOperation::CompareConstantTime);
    let accelerator: LeakageBenchmark = serde_json::from_str(
        r#"{"operation": "hmac", "variant": "hardware", "secret": "key", "measurements": 1000, "seed": 1}"#,
    )
    .unwrap();
    assert_eq!(
        (accelerator.operation, accelerator.variant),
        (LeakOperation::Hmac, LeakVariant::Hardware)
    );
    assert_eq!(accelerator.describe().module, Some(Module::Sha2));
    let error = serde_json::from_str::<LeakageBenchmark>(
        r#"{"operation": "sha1", "variant": "rust", "secret": "data", "measurements": 100, "seed": 0}"#,
    )
    .unwrap_err();
    let error = format!("{error}");
    assert!(
        error.contains("unknown operation 'sha1' (known: aes-table-ks,"),
        "{error}"
    );
}

#[test]
fn operation_and_variant_names_are_unique_and_round_trip() {
    let names: Vec<&str> = LeakOperation::all().map(LeakOperation::name).collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    for o in LeakOperation::all() {
        assert_eq!(LeakOperation::from_name(o.name()), Some(o));
        assert!(!o.secrets().is_empty(), "{o:?}");
        assert_eq!(o.accelerator(), o.module().is_some());
    }
    for v in LeakVariant::all() {
        assert_eq!(LeakVariant::from_name(v.name()), Some(v));
    }
    assert_eq!(LeakOperation::all().count(), Primitive::ALL.len() + 6);
}
