//! Proves the example frames of `docs/protocol.md`.
//!
//! Every line of a ```` ```frames ```` block must decode with the real decoder (so its CRC is
//! right) and re-encode to exactly itself (or, shown as damaged, be rejected by both), and together the examples must show every request
//! kind and every result shape. The reference therefore cannot drift from the code, nor lose
//! its examples, without this test failing.

use std::collections::BTreeSet;

use cyclebench_protocol::wire::{decode_reply, decode_request, encode_reply, encode_request, frame};
use cyclebench_protocol::{Benchmark, BenchmarkResults, Phases, Reply, Request};

/// What the examples must show between them; see [`request_features`] and [`reply_features`].
const REQUIRED: &[&str] = &[
    "H",
    "S",
    "D",
    "Z",
    "L",
    "B aes",
    "B aes pPAD",
    "B rng",
    "B rng wWAIT",
    "B trng",
    "B hash",
    "B micro",
    "B sw",
    "B sw lLENGTH xN",
    "< H",
    "< S",
    "< E",
    "< U",
    "< R hash",
    "< R hash fifo",
    "< R aest",
    "< R aesb",
    "< R rng",
    "< R micro",
    "< R sw",
    "< R MIN/MEDIAN/MAX/MEAN",
    "damaged",
];

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
fn round_trip(example: &Example) -> Result<Vec<&'static str>, String> {
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
            return Ok(vec!["damaged"]);
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

/// Coverage labels of a request. The matches are exhaustive so that a new request kind fails
/// to compile here until it gets a label (and then an example).
fn request_features(request: &Request) -> Vec<&'static str> {
    let benchmark = match request {
        Request::Hello => return vec!["H"],
        Request::GetStatus => return vec!["S"],
        Request::Done => return vec!["D"],
        Request::Suspend => return vec!["Z"],
        Request::Repeat => return vec!["L"],
        Request::Benchmark(b) => b,
    };
    match benchmark {
        Benchmark::Aes(a) if a.status_pad.is_some() => vec!["B aes", "B aes pPAD"],
        Benchmark::Aes(_) => vec!["B aes"],
        Benchmark::RngSeeded(r) if r.init_wait.is_some() => vec!["B rng", "B rng wWAIT"],
        Benchmark::RngSeeded(_) => vec!["B rng"],
        Benchmark::RngTrueRandom(_) => vec!["B trng"],
        Benchmark::Hash(_) => vec!["B hash"],
        Benchmark::Micro(_) => vec!["B micro"],
        Benchmark::Software(s) if s.length.is_some() && s.repetitions.is_some() => {
            vec!["B sw", "B sw lLENGTH xN"]
        }
        Benchmark::Software(_) => vec!["B sw"],
    }
}

/// Coverage labels of a reply; exhaustive for the same reason as [`request_features`].
fn reply_features(reply: &Reply) -> Vec<&'static str> {
    let measured = match reply {
        Reply::Hello(_) => return vec!["< H"],
        Reply::Status(_) => return vec!["< S"],
        Reply::Error(_) => return vec!["< E"],
        Reply::BenchmarkResults(BenchmarkResults::Unsupported { .. }) => return vec!["< U"],
        Reply::BenchmarkResults(BenchmarkResults::Measured(m)) => m,
    };
    let mut features = match &measured.phases {
        Phases::Hash(h) if h.fifo.is_some() => vec!["< R hash", "< R hash fifo"],
        Phases::Hash(_) => vec!["< R hash"],
        Phases::AesTotal(_) => vec!["< R aest"],
        Phases::AesPerBlock(_) => vec!["< R aesb"],
        Phases::Rng(_) => vec!["< R rng"],
        Phases::Micro(_) => vec!["< R micro"],
        Phases::Software(_) => vec!["< R sw"],
    };
    if measured.phases.named().iter().any(|p| !p.cycles.is_constant()) {
        features.push("< R MIN/MEDIAN/MAX/MEAN");
    }
    features
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
    let missing: Vec<&str> = REQUIRED.iter().copied().filter(|f| !seen.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "docs/protocol.md has no `frames` example of: {}",
        missing.join(", ")
    );
}
