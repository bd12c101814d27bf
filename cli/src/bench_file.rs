//! `.bench` files: one request per line as JSON, `#` comments and blank lines kept.
//!
//! A line is one of
//! - a benchmark: `{"hash": {"algorithm": "sha2", "dataset": "abc"}}`;
//! - a control request: `"get_status"`, `"done"`, `"suspend"`, `"hello"`;
//! - a raw wire line for robustness tests: `{"raw_line": "B hash 9 x"}` (sent verbatim,
//!   no checksum added).

use std::path::Path;

use anyhow::{Context, Result};
use cyclebench_protocol::{
    Benchmark, Granularity, LengthUnit, Primitive, Request, SoftwareBenchmark, MAX_INIT_WAIT, MAX_LIMBS,
    MAX_REPETITIONS, MAX_RNG_BLOCKS, MAX_SOFTWARE_BYTES, MAX_STATUS_PAD,
};
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
            format!("not a benchmark (one of \"aes\", \"rng_seeded\", \"rng_true_random\", \"hash\", \"micro\", \"software\"): {e}")
        })?
    };
    validate(&benchmark)?;
    Ok(Action::Request(Request::Benchmark(benchmark)))
}

fn software_length_error(s: &SoftwareBenchmark) -> String {
    let name = s.primitive.name();
    match s.primitive.length_unit() {
        LengthUnit::Fixed => format!("{name} works on a fixed size: remove \"length\""),
        LengthUnit::Bytes => format!("{name} needs \"length\": 1 to {MAX_SOFTWARE_BYTES} bytes"),
        LengthUnit::Limbs
            if matches!(
                s.primitive,
                Primitive::MpMulKaratsuba | Primitive::MpMulKaratsubaReduced
            ) =>
        {
            format!("{name} needs \"length\": an even number of limbs, 2 to {MAX_LIMBS}")
        }
        LengthUnit::Limbs => format!("{name} needs \"length\": 2 to {MAX_LIMBS} limbs"),
    }
}

/// Range checks the suite would also reject, caught here with a file:line.
fn validate(b: &Benchmark) -> Result<(), String> {
    let reps = b.repetitions();
    if reps == 0 || reps > MAX_REPETITIONS {
        return Err(format!("repetitions must be 1 to {MAX_REPETITIONS}, got {reps}"));
    }
    let init_wait = match b {
        Benchmark::RngTrueRandom(r) => {
            if r.blocks == 0 || r.blocks > MAX_RNG_BLOCKS {
                return Err(format!("blocks must be 1 to {MAX_RNG_BLOCKS}, got {}", r.blocks));
            }
            r.init_wait
        }
        Benchmark::RngSeeded(r) => r.init_wait,
        Benchmark::Aes(a) => {
            if let Some(pad) = a.status_pad {
                if pad > MAX_STATUS_PAD {
                    return Err(format!("status_pad must be 0 to {MAX_STATUS_PAD}, got {pad}"));
                }
                if a.granularity != Granularity::PerBlock {
                    return Err(String::from("status_pad needs \"granularity\": \"per_block\""));
                }
            }
            None
        }
        Benchmark::Software(s) => {
            if !s.primitive.accepts(s.length) {
                return Err(software_length_error(s));
            }
            None
        }
        Benchmark::Hash(_) | Benchmark::Micro(_) => None,
    };
    match init_wait {
        Some(w) if w > MAX_INIT_WAIT => Err(format!("init_wait must be at most {MAX_INIT_WAIT} cycles, got {w}")),
        _ => Ok(()),
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
