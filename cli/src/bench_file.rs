//! `.bench` files: one request per line as JSON, `#` comments and blank lines kept.
//!
//! A line is one of
//! - a benchmark: `{"<kind>": {<its fields>}}`, the kind's name and request as the protocol
//!   crate declares them (`benchmarks/sha2.bench` has examples);
//! - a control request: `"get_status"`, `"done"`, `"suspend"`, `"hello"`;
//! - a raw wire line for robustness tests: `{"raw_line": "B hash 9 x"}` (sent verbatim,
//!   no checksum added; printable ASCII only, so that it is exactly one line on the wire).
//!
//! Every line stands alone: one that cannot be read (not UTF-8, not a request) is an invalid
//! line with its reason, and the others still run.

use std::path::Path;

use anyhow::{Context, Result};
use cyclebench_protocol::{Benchmark, BenchmarkKind, Request};
use serde::Deserialize;

/// What one line of a `.bench` file asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A protocol request.
    Request(Request),
    /// A line sent to the suite verbatim.
    Raw(String),
}

/// One line of a `.bench` file.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// Comment or blank line, copied to the output as is.
    Comment(String),
    /// A valid line.
    Action {
        number: usize,
        text: String,
        action: Action,
    },
    /// A line that is neither; says why.
    Invalid { number: usize, text: String, error: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLine {
    raw_line: String,
}

/// Reads and parses a `.bench` file.
pub fn read(path: &Path) -> Result<Vec<Line>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(parse(&bytes))
}

/// Parses the contents of a `.bench` file, line by line (`\n` or `\r\n` endings).
pub fn parse(bytes: &[u8]) -> Vec<Line> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    // A final newline ends the last line; it does not start another.
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, raw)| parse_line(i + 1, raw.strip_suffix(b"\r").unwrap_or(raw)))
        .collect()
}

fn parse_line(number: usize, raw: &[u8]) -> Line {
    let text = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(e) => {
            // A comment is only copied, so any stray byte in it is harmless.
            let lossy = String::from_utf8_lossy(raw).into_owned();
            if lossy.trim_start().starts_with('#') {
                return Line::Comment(lossy);
            }
            let valid = e.valid_up_to();
            let column = String::from_utf8_lossy(&raw[..valid]).chars().count() + 1;
            let error = format!("line is not UTF-8 (byte 0x{:02X} at column {column})", raw[valid]);
            return Line::Invalid {
                number,
                text: lossy,
                error,
            };
        }
    };
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Line::Comment(text.to_owned());
    }
    match parse_action(trimmed) {
        Ok(action) => Line::Action {
            number,
            text: text.to_owned(),
            action,
        },
        Err(error) => Line::Invalid {
            number,
            text: text.to_owned(),
            error,
        },
    }
}

fn parse_action(line: &str) -> Result<Action, String> {
    if line.starts_with('"') {
        return serde_json::from_str::<Request>(line)
            .map(Action::Request)
            .map_err(|e| format!("not a control request (\"hello\", \"get_status\", \"done\", \"suspend\"): {e}"));
    }
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("raw_line").is_some() {
        let raw: RawLine = serde_json::from_value(value).map_err(|e| format!("raw line: {e}"))?;
        check_raw_line(&raw.raw_line)?;
        return Ok(Action::Raw(raw.raw_line));
    }
    let benchmark: Benchmark = if value.get("benchmark").is_some() {
        match serde_json::from_value::<Request>(value).map_err(|e| e.to_string())? {
            Request::Benchmark(b) => b,
            other => return Ok(Action::Request(other)),
        }
    } else {
        serde_json::from_value(value).map_err(|e| {
            let kinds: Vec<String> = BenchmarkKind::ALL.iter().map(|k| format!("\"{}\"", k.name())).collect();
            format!("not a benchmark (one of {}): {e}", kinds.join(", "))
        })?
    };
    let mut benchmark = benchmark;
    benchmark.check()?;
    benchmark.complete()?;
    Ok(Action::Request(Request::Benchmark(benchmark)))
}

/// A raw line must reach the suite as exactly one non-empty line: the suite skips an empty
/// one (the reply would never come), a line break would split it, and the wire carries
/// printable ASCII only.
fn check_raw_line(line: &str) -> Result<(), String> {
    if line.is_empty() {
        return Err(String::from(
            "raw_line is empty: the suite skips empty lines, so no reply would come",
        ));
    }
    if let Some(at) = line.find(['\n', '\r']) {
        return Err(format!(
            "raw_line holds a line break at character {}: it must be one line",
            line[..at].chars().count() + 1
        ));
    }
    match line.char_indices().find(|(_, c)| !matches!(c, ' '..='~')) {
        Some((at, c)) => Err(format!(
            "raw_line holds {c:?} (U+{:04X}) at character {}: only printable ASCII can be sent",
            u32::from(c),
            line[..at].chars().count() + 1
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cyclebench_protocol::{HashAlgorithm, HashStyle};

    #[test]
    fn every_shipped_benchmark_file_parses() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks");
        let mut dirs = vec![root];
        let mut checked = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("benchmarks directory") {
                let path = entry.expect("directory entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "bench") {
                    let lines = read(&path).expect("readable");
                    let invalid: Vec<_> = lines.iter().filter(|l| matches!(l, Line::Invalid { .. })).collect();
                    assert!(invalid.is_empty(), "{}: {invalid:?}", path.display());
                    checked += 1;
                }
            }
        }
        assert!(checked >= 10, "only {checked} benchmark files found");
    }

    #[test]
    fn parses_every_line_kind() {
        let hash = request(
            BenchmarkKind::Hash,
            r#"{"algorithm": "sha2", "dataset": "abc", "style": "tight"}"#,
        );
        let text = format!("# sha\n\n{hash}\n\"suspend\"\n{{\"raw_line\": \"x\"}}\nnonsense\n");
        let lines = parse(text.as_bytes());
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[0], Line::Comment("# sha".into()));
        assert_eq!(lines[1], Line::Comment(String::new()));
        let Line::Action {
            number: 3,
            action: Action::Request(Request::Benchmark(Benchmark::Hash(h))),
            ..
        } = &lines[2]
        else {
            panic!("{:?}", lines[2])
        };
        assert_eq!(
            (h.algorithm, h.style, h.dataset.as_ref().map(|d| d.as_str())),
            (HashAlgorithm::Sha2, HashStyle::Tight, Some("abc"))
        );
        assert!(matches!(
            lines[3],
            Line::Action {
                action: Action::Request(Request::Suspend),
                ..
            }
        ));
        assert!(matches!(&lines[4], Line::Action { action: Action::Raw(r), .. } if r == "x"));
        assert!(matches!(&lines[5], Line::Invalid { number: 6, error, .. } if error.starts_with("not JSON")));
    }

    /// A request line of `kind` with the given body.
    fn request(kind: BenchmarkKind, body: &str) -> String {
        format!("{{\"{}\": {body}}}", kind.name())
    }

    #[test]
    fn rejects_bad_fields_and_ranges_with_a_reason() {
        use BenchmarkKind::{Aes, Hash, Micro, RngSeeded, RngTrueRandom};
        for (line, needle) in [
            (
                request(Hash, r#"{"algorithm": "sha2", "dataset": "abc", "colour": 1}"#),
                "unknown field",
            ),
            (
                request(Hash, r#"{"algorithm": "md5", "dataset": "abc"}"#),
                "unknown variant",
            ),
            (request(Micro, r#"{"repetitions": 0}"#), "repetitions must be"),
            (request(RngTrueRandom, r#"{"blocks": 9}"#), "blocks must be"),
            (request(Aes, r#"{"dataset": "Not Valid"}"#), "dataset id"),
            (String::from(r#"{"teleport": {}}"#), "not a benchmark"),
            (request(Aes, r#"{"dataset": "ecb-128", "status_pad": 3}"#), "per_block"),
            (
                request(RngSeeded, r#"{"dataset": "x", "init_wait": 2000000}"#),
                "init_wait must be",
            ),
            (String::from("\"reboot\""), "not a control request"),
        ] {
            let lines = parse(line.as_bytes());
            let Line::Invalid { error, .. } = &lines[0] else {
                panic!("{line} accepted")
            };
            assert!(error.contains(needle), "{line}: {error}");
        }
    }

    #[test]
    fn a_line_that_is_not_utf8_is_invalid_alone() {
        let mut bytes = b"# caf\xe9 latin-1 comment\r\n".to_vec();
        let micro = BenchmarkKind::Micro.name().as_bytes();
        let hash = request(BenchmarkKind::Hash, r#"{"algorithm": "sha2", "dataset": "abc"}"#);
        bytes.extend_from_slice(format!("{hash}\n").as_bytes());
        bytes.extend_from_slice(&[b"{\"", micro, b"\": \"caf\xe9\"}\n"].concat());
        bytes.extend_from_slice(request(BenchmarkKind::Micro, "{} # \u{e9}t\u{e9} ").as_bytes());
        bytes.extend_from_slice(b"\xff\xff\n\"get_status\"");
        let lines = parse(&bytes);
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert_eq!(lines[0], Line::Comment(String::from("# caf\u{fffd} latin-1 comment")));
        assert!(matches!(lines[1], Line::Action { number: 2, .. }), "{:?}", lines[1]);
        let Line::Invalid { number: 3, text, error } = &lines[2] else {
            panic!("{:?}", lines[2])
        };
        assert_eq!(error, "line is not UTF-8 (byte 0xE9 at column 15)");
        assert_eq!(text, &request(BenchmarkKind::Micro, "\"caf\u{fffd}\""));
        // Columns count characters, so the two é before the stray byte are one column each.
        let Line::Invalid { number: 4, error, .. } = &lines[3] else {
            panic!("{:?}", lines[3])
        };
        assert_eq!(error, "line is not UTF-8 (byte 0xFF at column 21)");
        assert!(matches!(
            lines[4],
            Line::Action {
                number: 5,
                action: Action::Request(Request::GetStatus),
                ..
            }
        ));
    }

    #[test]
    fn line_endings_and_blank_lines() {
        assert!(parse(b"").is_empty());
        assert_eq!(parse(b"\n"), [Line::Comment(String::new())]);
        let lines = parse(b"\"done\"\r\n\r\n\"hello\"");
        assert_eq!(lines.len(), 3);
        assert!(matches!(&lines[0], Line::Action { text, .. } if text == "\"done\""));
        assert_eq!(lines[1], Line::Comment(String::new()));
        assert!(matches!(lines[2], Line::Action { number: 3, .. }));
    }

    #[test]
    fn raw_lines_must_be_one_printable_ascii_line() {
        for (line, needle) in [
            (r#"{"raw_line": ""}"#, "raw_line is empty"),
            (r#"{"raw_line": "S\n*1234"}"#, "line break at character 2"),
            (r#"{"raw_line": "S*1234\r"}"#, "line break at character 7"),
            (r#"{"raw_line": "B\thash"}"#, "'\\t' (U+0009) at character 2"),
            (r#"{"raw_line": "B hash é"}"#, "'é' (U+00E9) at character 8"),
            (r#"{"raw_line": "\u007f"}"#, "U+007F"),
        ] {
            let lines = parse(line.as_bytes());
            let Line::Invalid { error, .. } = &lines[0] else {
                panic!("{line} accepted: {:?}", lines[0])
            };
            assert!(error.contains(needle), "{line}: {error}");
        }
        assert!(matches!(
            &parse(br#"{"raw_line": " B hash 9 x~ "}"#)[0],
            Line::Action { action: Action::Raw(r), .. } if r == " B hash 9 x~ "
        ));
    }
}
