use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::*;

fn ds(id: &str) -> DatasetId {
    DatasetId::new(id).unwrap()
}

fn stats(min: u64) -> Cycles {
    Cycles {
        min,
        median: min + 1,
        max: min + 7,
        mean_x100: min * 100 + 233,
    }
}

fn every_request() -> Vec<Request> {
    let mut all = vec![
        Request::Hello,
        Request::GetStatus,
        Request::Done,
        Request::Suspend,
        Request::Repeat,
    ];
    for (direction, granularity, trigger, tight, repetitions) in [
        (Direction::Encrypt, Granularity::Total, Trigger::Automatic, false, None),
        (
            Direction::Decrypt,
            Granularity::PerBlock,
            Trigger::Manual,
            true,
            Some(MAX_REPETITIONS),
        ),
    ] {
        all.push(Request::Benchmark(Benchmark::Aes(AesBenchmark {
            dataset: Some(ds("cbc-256")),
            mode: None,
            key_bits: None,
            length: None,
            repeated_block: None,
            seed: None,
            key_hex: None,
            iv_hex: None,
            message_hex: None,
            expected: None,
            direction,
            granularity,
            trigger,
            tight,
            status_pad: tight.then_some(MAX_STATUS_PAD),
            software: tight.then_some(SoftwareLibrary::RustCrypto),
            repetitions,
        })));
    }
    // Data the request describes, with the digest of its output.
    for (mode, key_bits, length, key_hex, iv_hex, message_hex) in [
        (CipherMode::Ctr, Some(256), Some(16384), None, None, None),
        (
            CipherMode::Cbc,
            None,
            None,
            Some("00".repeat(24)),
            Some("ff".repeat(16)),
            Some("ab".repeat(64)),
        ),
        (CipherMode::Ecb, Some(128), Some(32), None, None, None),
    ] {
        all.push(Request::Benchmark(Benchmark::Aes(AesBenchmark {
            dataset: None,
            mode: Some(mode),
            key_bits,
            length,
            repeated_block: None,
            seed: Some(9),
            key_hex,
            iv_hex,
            message_hex,
            expected: Some([0x5a; 32]),
            direction: Direction::Decrypt,
            granularity: Granularity::PerBlock,
            trigger: Trigger::Manual,
            tight: false,
            status_pad: None,
            software: None,
            repetitions: Some(3),
        })));
    }
    all.push(Request::Benchmark(Benchmark::RngSeeded(RngSeededBenchmark {
        dataset: ds("nist_0"),
        init_wait: Some(MAX_INIT_WAIT),
        repetitions: Some(3),
    })));
    all.push(Request::Benchmark(Benchmark::RngTrueRandom(RngTrueRandomBenchmark {
        blocks: MAX_RNG_BLOCKS,
        init_wait: None,
        repetitions: None,
    })));
    for (algorithm, style, track_fifo) in [
        (HashAlgorithm::Sha2, HashStyle::ApiConform, false),
        (HashAlgorithm::Sha3, HashStyle::Tight, true),
    ] {
        all.push(Request::Benchmark(Benchmark::Hash(HashBenchmark {
            algorithm,
            dataset: Some(ds("msg-256")),
            length: None,
            seed: None,
            repeated_block: None,
            message_hex: None,
            expected: None,
            style,
            track_fifo,
            software: track_fifo.then_some(SoftwareLibrary::Own),
            repetitions: Some(10),
        })));
    }
    // Messages the request describes, each with its digest.
    for (length, seed, repeated_block, message_hex) in [
        (Some(16384), Some(7), None, None),
        (Some(1 << 20), None, Some(4096), None),
        (None, None, None, Some(String::from("00ff10"))),
        // NIST's first ShortMsg vector: the empty message.
        (None, None, None, Some(String::new())),
    ] {
        all.push(Request::Benchmark(Benchmark::Hash(HashBenchmark {
            algorithm: HashAlgorithm::Sha2,
            dataset: None,
            length,
            seed,
            repeated_block,
            message_hex,
            expected: Some([0xa5; 32]),
            style: HashStyle::ApiConform,
            track_fifo: false,
            software: None,
            repetitions: Some(2),
        })));
    }
    all.push(Request::Benchmark(Benchmark::Micro(MicroBenchmark {
        repetitions: Some(7),
    })));
    all.push(Request::Benchmark(Benchmark::Micro(MicroBenchmark::default())));
    for primitive in Primitive::ALL {
        let length = match primitive.length_unit() {
            LengthUnit::Fixed => None,
            LengthUnit::Bytes => Some(MAX_SOFTWARE_BYTES),
            LengthUnit::Limbs => Some(2),
        };
        for variant in SoftwareVariant::ALL {
            all.push(Request::Benchmark(Benchmark::Software(SoftwareBenchmark {
                primitive,
                variant,
                length,
                repetitions: Some(3),
            })));
        }
    }
    for operation in OffloadOperation::ALL {
        for (addressing, design) in [
            (Addressing::Direct, OffloadDesign::Staging),
            (Addressing::IndirectL1, OffloadDesign::Streaming),
        ] {
            for payload_bytes in [OFFLOAD_SIZE_STEP, MAX_OFFLOAD_BYTES] {
                all.push(Request::Benchmark(Benchmark::Offload(OffloadBenchmark {
                    operation,
                    payload_bytes,
                    addressing,
                    design,
                    repetitions: (payload_bytes == MAX_OFFLOAD_BYTES).then_some(2),
                })));
            }
        }
    }
    all
}

fn every_reply() -> Vec<Reply> {
    let measured = |phases: Phases, repetitions| {
        Reply::BenchmarkResults(BenchmarkResults::Measured(Measured {
            implementation: ImplementationKind::Hardware,
            check: Check::KnownAnswer,
            overhead: 5,
            repetitions,
            phases,
        }))
    };
    let once = Cycles::once;
    vec![
        Reply::Hello(Hello {
            protocol_version: PROTOCOL_VERSION,
            platform: String::from("qemu-virt"),
            cpu_hz: 10_000_000,
            cycle_accurate: false,
            overhead: 3,
            max_message: 16384,
            modules: vec![
                ModuleInfo {
                    module: Module::Sha2,
                    implementation: Implementation::Hardware("hmac".into()),
                },
                ModuleInfo {
                    module: Module::Sha3,
                    implementation: Implementation::Software("rustcrypto-sha3".into()),
                },
                ModuleInfo {
                    module: Module::Entropy,
                    implementation: Implementation::Absent,
                },
            ],
        }),
        Reply::Accepted,
        Reply::Status(Status {
            last_request: Some(77),
            state: SuiteState::Ready,
            served: 12,
            errors: 0,
            cycles: 123_456_789,
        }),
        Reply::Status(Status {
            state: SuiteState::Suspended,
            served: 0,
            errors: 4,
            cycles: 0,
            last_request: None,
        }),
        Reply::Error(ErrorReply {
            kind: ErrorKind::UnknownDataset,
            detail: "aes has no dataset 'x'".into(),
        }),
        Reply::Error(ErrorReply {
            kind: ErrorKind::Panic,
            detail: "panicked at src/main.rs:1:2".into(),
        }),
        Reply::BenchmarkResults(BenchmarkResults::Unsupported {
            kind: BenchmarkKind::RngTrueRandom,
            reason: "no entropy source on qemu-virt".into(),
        }),
        measured(
            Phases::Hash(HashPhases {
                init: once(21),
                input: once(1694),
                await_digest: once(154),
                read_digest: once(74),
                fifo: None,
            }),
            1,
        ),
        measured(
            Phases::Hash(HashPhases {
                init: stats(21),
                input: once(911),
                await_digest: stats(159),
                read_digest: once(77),
                fifo: Some(FifoTrace {
                    max_depth: 1,
                    full_waits: 0,
                }),
            }),
            10,
        ),
        measured(
            Phases::AesTotal(AesTotalPhases {
                init: once(306),
                process: stats(491),
                deinit: once(44),
                blocks: 5,
            }),
            4,
        ),
        measured(
            Phases::AesPerBlock(AesPerBlockPhases {
                init: once(306),
                write: once(24),
                compute: once(41),
                read: once(37),
                deinit: once(44),
                blocks: 1,
            }),
            1,
        ),
        measured(
            Phases::Rng(RngPhases {
                init: once(55),
                generates: vec![
                    GeneratePhases {
                        generate: stats(100),
                        read: once(20),
                    },
                    GeneratePhases {
                        generate: once(50),
                        read: once(20),
                    },
                ],
            }),
            2,
        ),
        measured(
            Phases::Rng(RngPhases {
                init: once(1),
                generates: vec![],
            }),
            1,
        ),
        measured(
            Phases::Micro(MicroPhases {
                empty: once(5),
                nop: once(6),
                nop10: once(15),
                add10: once(15),
                load10: stats(25),
                store10: once(25),
                mul10: once(35),
                div: once(42),
                loop10: u64::MAX.into_cycles(),
            }),
            1,
        ),
        measured(
            Phases::Software(SoftwarePhases {
                run: stats(114_365),
                stack_bytes: 40,
                entry: u32::MAX,
            }),
            9,
        ),
        measured(
            Phases::Offload(OffloadPhases {
                host_submit: once(22),
                mailbox: once(65),
                payload: stats(1234),
                operation: once(40_394),
                result_copy: once(19),
                handover: once(0),
                completion: once(9),
                host_drain: once(28),
                software: 541_516.into_cycles(),
                software_reused: true,
                fastest_software: None,
                windows: [1, 1, 4, 7, 1, 0, 2, 1],
                handovers: 0,
                window_overhead: 1,
                host_memory_address: 0x1000_4000,
                spm_address: u32::MAX,
                mailbox_address: 0,
            }),
            2,
        ),
        measured(
            Phases::Offload(OffloadPhases {
                host_submit: once(22),
                mailbox: once(65),
                payload: stats(1234),
                operation: once(40_394),
                result_copy: once(19),
                handover: once(0),
                completion: once(9),
                host_drain: once(28),
                software: 541_516.into_cycles(),
                software_reused: false,
                fastest_software: Some(stats(98_765)),
                windows: [1, 1, 4, 7, 1, 0, 2, 1],
                handovers: 0,
                window_overhead: 1,
                host_memory_address: 0x1000_4000,
                spm_address: u32::MAX,
                mailbox_address: 0,
            }),
            2,
        ),
    ]
}

trait IntoCycles {
    fn into_cycles(self) -> Cycles;
}
impl IntoCycles for u64 {
    fn into_cycles(self) -> Cycles {
        Cycles {
            min: self,
            median: self,
            max: self,
            mean_x100: self,
        }
    }
}

#[test]
fn every_request_round_trips() {
    for (i, request) in every_request().into_iter().enumerate() {
        let id = (i as u16).wrapping_mul(9973);
        let line = encode_request(id, &request);
        assert!(line.len() <= MAX_LINE_LEN, "{line}");
        assert_eq!(decode_request(line.as_bytes()), Ok((id, request)), "{line}");
    }
}

#[test]
fn every_reply_round_trips() {
    for (i, reply) in every_reply().into_iter().enumerate() {
        let id = (i % 3 != 0).then_some(u16::MAX - i as u16);
        let line = encode_reply(id, &reply);
        assert!(line.len() <= MAX_LINE_LEN, "{line}");
        let decoded = decode_reply(line.as_bytes());
        // A constant window with an unusual mean is canonicalised; compare encodings instead.
        assert_eq!(
            decoded.as_ref().map(|(id, r)| encode_reply(*id, r)),
            Ok(line.clone()),
            "{line}"
        );
        assert_eq!(decoded.map(|(decoded_id, _)| decoded_id), Ok(id), "{line}");
    }
}

#[test]
fn typical_results_fit_the_64_byte_budget() {
    for reply in every_reply() {
        let single_run = matches!(&reply, Reply::BenchmarkResults(BenchmarkResults::Measured(m)) if m.repetitions == 1
            && !matches!(m.phases, Phases::Micro(_)));
        if single_run {
            let line = encode_reply(Some(999), &reply);
            assert!(line.len() < 64, "{} bytes: {line}", line.len());
        }
    }
}

#[test]
fn known_frame_layout() {
    let line = encode_request(7, &Request::GetStatus);
    assert_eq!(&line[..4], "7 S*");
    assert_eq!(line.len(), 8);
    let rejected = |error| Err(Rejected { id: None, error });
    assert_eq!(decode_request(b"7 S"), rejected(WireError::MissingChecksum));
    assert_eq!(decode_request(b"7 S*0000"), rejected(WireError::Checksum));
    // A readable identifier is kept so the error reply can echo it.
    let bad = frame(String::from("12 Q"));
    assert_eq!(
        decode_request(bad.as_bytes()),
        Err(Rejected {
            id: Some(12),
            error: WireError::Malformed("unknown message tag")
        })
    );
    for payload in ["S", "07 S", "65536 S", "- S", "x S"] {
        let line = frame(String::from(payload));
        assert_eq!(
            decode_request(line.as_bytes()).map_err(|r| r.id),
            Err(None),
            "{payload}"
        );
    }
}

#[test]
fn rejects_out_of_range_parameters() {
    for payload in [
        "B trng 0",
        "B trng 9",
        "B micro x0",
        "B micro x256",
        "B micro p3",
        "B rng a w1 w2",
        "B rng a x2 w1",
        "B trng 1 w1000001",
        "B aes a e b m c p257",
        "B micro 5",
        "B rng BAD",
        "B hash 4 m a -",
        "B sw chacha20 rust",
        "B sw chacha20 rust l0",
        "B sw chacha20 rust l4097",
        "B sw keccak-f1600 rv32i l200",
        "B sw mp-add rv32i l1",
        "B sw mp-add rv32i l33",
        "B sw mp-karatsuba zbb l7",
        "B sw chacha20 asm l64",
        "B sw sha1 rust",
        "B sw chacha20 rust x2 l64",
        "B hash 2 abc a - s1",
        "B hash 2 abc a - s",
        "B hash 2 abc a - sx",
        "B hash 2 abc a - sr so",
        "B hash 2 abc a - x2 sr",
        "B aes a e b m c p3 so",
        "B micro sr",
        "B offload s2 0 d c",
        "B offload s2 21 d c",
        "B offload s2 4 x c",
        "B offload s2 4 d c l4",
        "B offload aes 4 d c",
        "B offload s3 4 i",
    ] {
        let line = frame(alloc::format!("3 {payload}"));
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
fn rejects_overlong_lines_and_other_versions() {
    let long = vec![b'a'; MAX_LINE_LEN + 1];
    assert_eq!(
        decode_request(&long),
        Err(Rejected {
            id: None,
            error: WireError::TooLong
        })
    );
    let hello = frame(String::from("- H 99 qemu-virt 1 a 3"));
    assert_eq!(decode_reply(hello.as_bytes()), Err(WireError::Version(99)));
    // A version-1 suite's hello has no identifier.
    let old = frame(String::from("H 1 qemu-virt 10000000 n 4"));
    assert_eq!(decode_reply(old.as_bytes()), Err(WireError::Version(1)));
}

#[test]
fn free_text_is_sanitised_and_bounded() {
    let detail: String = "x\ty\u{e9}  z".chars().chain(core::iter::repeat_n('w', 1000)).collect();
    let line = encode_reply(
        Some(65535),
        &Reply::Error(ErrorReply {
            kind: ErrorKind::Malformed,
            detail,
        }),
    );
    assert!(line.len() <= MAX_LINE_LEN);
    let Ok((Some(65535), Reply::Error(e))) = decode_reply(line.as_bytes()) else {
        panic!("{line}")
    };
    assert!(e.detail.starts_with("x?y? z"), "{}", e.detail);
}

#[test]
fn free_text_decodes_only_in_its_canonical_form() {
    for payload in ["- E malformed a  b", "- E malformed a ", "- E malformed", "- U aes  x"] {
        let line = frame(String::from(payload));
        assert!(decode_reply(line.as_bytes()).is_err(), "{payload}");
    }
    let empty = encode_reply(
        None,
        &Reply::Error(ErrorReply {
            kind: ErrorKind::Timeout,
            detail: String::new(),
        }),
    );
    assert!(empty.starts_with("- E timeout -*"), "{empty}");
    let Ok((None, Reply::Error(e))) = decode_reply(empty.as_bytes()) else {
        panic!("{empty}")
    };
    assert_eq!(e.detail, "");
}

#[test]
fn inconsistent_statistics_are_rejected() {
    for cycles in ["9/5/7/6.00", "5/6/7/9.00", "5/5/5/5.00", "5/6/7/6.0", "5/6/7"] {
        let line = frame(alloc::format!("1 R h k 5 2 aest {cycles} 1 1 1"));
        assert!(decode_reply(line.as_bytes()).is_err(), "{cycles}");
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = decode_request(&bytes);
        let _ = decode_reply(&bytes);
    }

    #[test]
    fn random_printable_frames_never_panic(payload in "[ -~]{0,300}") {
        let line = frame(payload);
        let _ = decode_request(line.as_bytes());
        let _ = decode_reply(line.as_bytes());
    }

    #[test]
    fn corrupted_request_frames_are_rejected(
        index in any::<prop::sample::Index>(),
        which in 0usize..1000,
        replacement in any::<u8>(),
    ) {
        let requests = every_request();
        let line = encode_request(which as u16, &requests[which % requests.len()]);
        let mut bytes = line.clone().into_bytes();
        let i = index.index(bytes.len());
        prop_assume!(bytes[i] != replacement);
        bytes[i] = replacement;
        prop_assert!(decode_request(&bytes).is_err(), "{} accepted", String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn corrupted_reply_frames_are_rejected(
        index in any::<prop::sample::Index>(),
        which in 0usize..1000,
        replacement in any::<u8>(),
    ) {
        let replies = every_reply();
        let line = encode_reply(Some(which as u16), &replies[which % replies.len()]);
        let mut bytes = line.into_bytes();
        let i = index.index(bytes.len());
        prop_assume!(bytes[i] != replacement);
        bytes[i] = replacement;
        prop_assert!(decode_reply(&bytes).is_err());
    }

    #[test]
    fn truncated_frames_are_rejected(cut in 1usize..64, which in 0usize..1000) {
        let replies = every_reply();
        let line = encode_reply(None, &replies[which % replies.len()]);
        let keep = line.len().saturating_sub(cut);
        prop_assert!(decode_reply(&line.as_bytes()[..keep]).is_err());
    }
}

#[cfg(feature = "serde")]
#[test]
fn every_message_round_trips_through_json() {
    for request in every_request() {
        let json = serde_json::to_string(&request).unwrap();
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), request, "{json}");
    }
    for reply in every_reply() {
        let json = serde_json::to_string(&reply).unwrap();
        assert_eq!(serde_json::from_str::<Reply>(&json).unwrap(), reply, "{json}");
    }
}

#[test]
fn tokens_split_exactly_as_str_split_on_a_space() {
    for payload in [
        "",
        " ",
        "a",
        "a b",
        "a  b",
        " a",
        "a ",
        "ab cd  e ",
        "é b",
        "x\u{a0}y z",
    ] {
        let ours: alloc::vec::Vec<&str> = super::SpaceSplit { rest: Some(payload) }.collect();
        let std: alloc::vec::Vec<&str> = payload.split(' ').collect();
        assert_eq!(ours, std, "{payload:?}");
    }
}

proptest! {
    #[test]
    fn tokens_split_any_text_as_str_split_does(payload in "[ a-zé\u{a0}]{0,40}") {
        let ours: Vec<&str> = super::SpaceSplit { rest: Some(&payload) }.collect();
        let std: Vec<&str> = payload.split(' ').collect();
        prop_assert_eq!(ours, std);
    }
}
