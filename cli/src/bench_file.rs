//! `.bench` files: one request per line as JSON, `#` comments and blank lines kept.
//!
//! A line is one of
//! - a benchmark: `{"hash": {"algorithm": "sha2", "dataset": "abc"}}`;
//! - a control request: `"get_status"`, `"done"`, `"suspend"`, `"hello"`;
//! - a raw wire line for robustness tests: `{"raw_line": "B hash 9 x"}` (sent verbatim,
//!   no checksum added).

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
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(parse(&text))
}

/// Parses the text of a `.bench` file.
pub fn parse(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, raw)| {
            let number = i + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                return Line::Comment(raw.to_owned());
            }
            match parse_action(trimmed) {
                Ok(action) => Line::Action {
                    number,
                    text: raw.to_owned(),
                    action,
                },
                Err(error) => Line::Invalid {
                    number,
                    text: raw.to_owned(),
                    error,
                },
            }
        })
        .collect()
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
    benchmark.check()?;
    Ok(Action::Request(Request::Benchmark(benchmark)))
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
        let text = "# sha\n\n{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\", \"style\": \"tight\"}}\n\"suspend\"\n{\"raw_line\": \"x\"}\nnonsense\n";
        let lines = parse(text);
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
            (h.algorithm, h.style, h.dataset.as_str()),
            (HashAlgorithm::Sha2, HashStyle::Tight, "abc")
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

    #[test]
    fn rejects_bad_fields_and_ranges_with_a_reason() {
        for (line, needle) in [
            (
                r#"{"hash": {"algorithm": "sha2", "dataset": "abc", "colour": 1}}"#,
                "unknown field",
            ),
            (r#"{"hash": {"algorithm": "md5", "dataset": "abc"}}"#, "unknown variant"),
            (r#"{"micro": {"repetitions": 0}}"#, "repetitions must be"),
            (r#"{"rng_true_random": {"blocks": 9}}"#, "blocks must be"),
            (r#"{"aes": {"dataset": "Not Valid"}}"#, "dataset id"),
            (r#"{"teleport": {}}"#, "not a benchmark"),
            (r#"{"aes": {"dataset": "ecb-128", "status_pad": 3}}"#, "per_block"),
            (
                r#"{"rng_seeded": {"dataset": "x", "init_wait": 2000000}}"#,
                "init_wait must be",
            ),
            ("\"reboot\"", "not a control request"),
        ] {
            let lines = parse(line);
            let Line::Invalid { error, .. } = &lines[0] else {
                panic!("{line} accepted")
            };
            assert!(error.contains(needle), "{line}: {error}");
        }
    }
}
