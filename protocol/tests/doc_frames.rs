//! Proves the example frames of `docs/protocol.md`.
//!
//! Every line of a ```` ```frames ```` block must decode with the real decoder (so its CRC is
//! right) and re-encode to exactly itself (or, shown as damaged, be rejected by both), and together the examples must show every request
//! kind and every result shape. The reference therefore cannot drift from the code, nor lose
//! its examples, without this test failing.

use std::collections::BTreeSet;

use cyclebench_protocol::wire::{decode_reply, decode_request, encode_reply, encode_request, frame};
use cyclebench_protocol::{Benchmark, BenchmarkKind, BenchmarkResults, Phases, Reply, Request};

/// What the examples must show between them besides every request kind (`B TAG`) and every
/// result shape (`< R TAG`); see [`request_features`] and [`reply_features`].
const REQUIRED: &[&str] = &[
    "H",
    "S",
    "D",
    "Z",
    "L",
    "B aes pPAD",
    "B rng wWAIT",
    "B sw lLENGTH xN",
    "< H",
    "< A",
    "< S",
    "< E",
    "< U",
    "< R hash fifo",
    "< R MIN/MEDIAN/MAX/MEAN",
    "damaged",
];

/// Everything the examples must show: [`REQUIRED`], every kind and every shape.
fn required() -> Vec<String> {
    let kinds = BenchmarkKind::ALL.iter().map(|k| format!("B {}", k.tag()));
    let shapes = Phases::TAGS.iter().map(|t| format!("< R {t}"));
    REQUIRED
        .iter()
        .map(|s| s.to_string())
        .chain(kinds)
        .chain(shapes)
        .collect()
}

/// One example frame and the document line it came from.
struct Example {
    line: usize,
    direction: Direction,
    frame: String,
}

/// Which way an example frame travels.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// `> `: host to suite.
    ToSuite,
    /// `< `: suite to host.
    ToHost,
    /// `! `: damaged on the way; both decoders must reject it.
    Damaged,
}

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Every line of every `frames` fence, with its direction prefix removed.
fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    // `None` outside a fence, else whether the fence is a `frames` one. Fences inside list
    // items are indented, so only leading whitespace is ignored.
    let mut fence: Option<bool> = None;
    for (index, text) in doc.lines().enumerate() {
        let line = index + 1;
        if let Some(info) = text.trim_start().strip_prefix("```") {
            fence = match fence {
                None => Some(info.trim() == "frames"),
                Some(_) => None,
            };
            continue;
        }
        if fence != Some(true) {
            continue;
        }
        let (direction, frame) = match text.split_at_checked(2) {
            Some(("> ", frame)) => (Direction::ToSuite, frame),
            Some(("< ", frame)) => (Direction::ToHost, frame),
            Some(("! ", frame)) => (Direction::Damaged, frame),
            _ => panic!("docs/protocol.md:{line}: a frames line must start with `> `, `< ` or `! `: {text:?}"),
        };
        out.push(Example {
            line,
            direction,
            frame: frame.to_owned(),
        });
    }
    assert!(fence.is_none(), "docs/protocol.md: unterminated code block");
    out
}

/// Decodes an example and re-encodes it; returns what the example shows, or what went wrong.
fn round_trip(example: &Example) -> Result<Vec<String>, String> {
    let bytes = example.frame.as_bytes();
    let (again, features) = match example.direction {
        Direction::ToSuite => {
            let (id, request) = decode_request(bytes).map_err(|e| describe(example, &e.error))?;
            (encode_request(id, &request), request_features(&request))
        }
        Direction::ToHost => {
            let (id, reply) = decode_reply(bytes).map_err(|e| describe(example, &e))?;
            (encode_reply(id, &reply), reply_features(&reply))
        }
        Direction::Damaged if decode_request(bytes).is_err() && decode_reply(bytes).is_err() => {
            return Ok(vec!["damaged".into()]);
        }
        Direction::Damaged => {
            return Err(format!(
                "docs/protocol.md:{}: shown as damaged but decodes: {}",
                example.line, example.frame
            ))
        }
    };
    if again != example.frame {
        return Err(format!(
            "docs/protocol.md:{}: re-encodes differently\n  doc:  {}\n  code: {again}",
            example.line, example.frame
        ));
    }
    Ok(features)
}

/// A decode failure, with the frame the code would send for the same payload so that a stale
/// CRC is easy to fix.
fn describe(example: &Example, error: &dyn std::fmt::Display) -> String {
    let suggestion = example
        .frame
        .rsplit_once('*')
        .map(|(payload, _)| format!("\n  with its CRC: {}", frame(payload.to_owned())))
        .unwrap_or_default();
    format!(
        "docs/protocol.md:{}: {error}: {}{suggestion}",
        example.line, example.frame
    )
}

/// Coverage labels of a request.
fn request_features(request: &Request) -> Vec<String> {
    let benchmark = match request {
        Request::Hello => return vec!["H".into()],
        Request::GetStatus => return vec!["S".into()],
        Request::Done => return vec!["D".into()],
        Request::Suspend => return vec!["Z".into()],
        Request::Repeat => return vec!["L".into()],
        Request::Benchmark(b) => b,
    };
    let mut features = vec![format!("B {}", benchmark.kind().tag())];
    match benchmark {
        Benchmark::Aes(a) if a.status_pad.is_some() => features.push("B aes pPAD".into()),
        Benchmark::RngSeeded(r) if r.init_wait.is_some() => features.push("B rng wWAIT".into()),
        Benchmark::Software(s) if s.length.is_some() && s.repetitions.is_some() => {
            features.push("B sw lLENGTH xN".into())
        }
        _ => {}
    }
    features
}

/// Coverage labels of a reply.
fn reply_features(reply: &Reply) -> Vec<String> {
    let measured = match reply {
        Reply::Hello(_) => return vec!["< H".into()],
        Reply::Accepted => return vec!["< A".into()],
        Reply::Status(_) => return vec!["< S".into()],
        Reply::Error(_) => return vec!["< E".into()],
        Reply::BenchmarkResults(BenchmarkResults::Unsupported { .. }) => return vec!["< U".into()],
        Reply::BenchmarkResults(BenchmarkResults::Measured(m)) => m,
    };
    let mut features = vec![format!("< R {}", measured.phases.tag())];
    if matches!(&measured.phases, Phases::Hash(h) if h.fifo.is_some()) {
        features.push("< R hash fifo".into());
    }
    if measured.phases.named().iter().any(|p| !p.cycles.is_constant()) {
        features.push("< R MIN/MEDIAN/MAX/MEAN".into());
    }
    features
}

/// Each request example followed by the reply that answers it: the reply must fit the
/// request, and every phase it names must be one its kind declares (and so gets a report
/// category).
/// Each benchmark request example with the reply that answers it (the next frame to the
/// host with its identifier that is not the acknowledgement).
fn answered(examples: &[Example]) -> Vec<(Benchmark, Reply, usize)> {
    let mut pairs = Vec::new();
    for (i, example) in examples.iter().enumerate() {
        let Ok((id, Request::Benchmark(b))) = decode_request(example.frame.as_bytes()) else {
            continue;
        };
        let reply = examples[i + 1..]
            .iter()
            .filter(|e| e.direction == Direction::ToHost)
            .filter_map(|e| decode_reply(e.frame.as_bytes()).ok().map(|r| (r, e.line)))
            .find(|((reply_id, reply), _)| *reply_id == Some(id) && *reply != Reply::Accepted);
        if let Some(((_, reply), line)) = reply {
            pairs.push((b, reply, line));
        }
    }
    pairs
}

/// Each request example with the reply that answers it: the reply must fit the request, and
/// every phase it names must be one its kind declares (and so gets a report category).
#[test]
fn every_example_reply_fits_its_request_and_names_declared_phases() {
    let pairs = answered(&examples(&doc()));
    let mut measured_kinds = BTreeSet::new();
    for (b, reply, line) in &pairs {
        match reply {
            Reply::BenchmarkResults(BenchmarkResults::Measured(m)) => {
                assert!(
                    b.accepts(&m.phases),
                    "docs/protocol.md:{line}: result does not fit its request"
                );
                for phase in m.phases.named() {
                    assert!(
                        b.kind().phases().iter().any(|p| p.matches(&phase.name)),
                        "docs/protocol.md:{line}: phase '{}' is not declared by kind {}",
                        phase.name,
                        b.kind().name()
                    );
                }
                measured_kinds.insert(b.kind().name());
            }
            Reply::BenchmarkResults(BenchmarkResults::Unsupported { kind, .. }) => {
                assert_eq!(*kind, b.kind(), "docs/protocol.md:{line}");
            }
            _ => {}
        }
    }
    for kind in BenchmarkKind::ALL {
        assert!(
            measured_kinds.contains(kind.name()),
            "docs/protocol.md has no measured result example for kind {}",
            kind.name()
        );
    }
}

#[test]
fn every_example_frame_round_trips() {
    let examples = examples(&doc());
    let failures: Vec<String> = examples.iter().filter_map(|e| round_trip(e).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn examples_cover_every_request_kind_and_result_shape() {
    let mut seen = BTreeSet::new();
    for example in examples(&doc()) {
        // A broken frame is reported by the round-trip test; here it just shows nothing.
        if let Ok(features) = round_trip(&example) {
            seen.extend(features);
        }
    }
    let missing: Vec<String> = required().into_iter().filter(|f| !seen.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "docs/protocol.md has no `frames` example of: {}",
        missing.join(", ")
    );
}
