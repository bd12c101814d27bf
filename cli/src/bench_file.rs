//! `.bench` files: one request per line as JSON, `#` comments and blank lines kept.
//!
//! A line is one of
//! - a benchmark: `{"<kind>": {<its fields>}}`, the kind's name and request as the protocol
//!   crate declares them (`benchmarks/sha2.bench` has examples);
//! - a sweep: a benchmark in which the value of one or more of the kind's fields is a list
//!   (`"length": [16, 64, 256]`), one request per combination of the listed values, the first
//!   listed field outermost and the last varying fastest;
//! - a control request: `"get_status"`, `"done"`, `"suspend"`, `"hello"`;
//! - a raw wire line for robustness tests: `{"raw_line": "B hash 9 x"}` (sent verbatim,
//!   no checksum added; printable ASCII only, so that it is exactly one line on the wire).
//!
//! Every line stands alone: one that cannot be read (not UTF-8, not a request) is an invalid
//! line with its reason, and the others still run; so does every request of a sweep.
//!
//! A file is read in two steps, [`read`] then [`BenchFile::expand`], so that how many requests
//! its sweeps ask for is known ([`BenchFile::swept_requests`]) before any is made.

use std::path::Path;

use anyhow::{Context, Result};
use cyclebench_protocol::{Benchmark, BenchmarkKind, Request};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::firmware::layout::MAX_PLACEMENTS;

/// The most requests the sweeps of one file may expand to unless the run is told to go on
/// (`cyclebench run --yes`): more is more likely a slip than a plan, and costs hours.
pub const SWEEP_REQUESTS_WITHOUT_YES: usize = 5000;

/// What one line of a `.bench` file asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A protocol request.
    Request(Request),
    /// A line sent to the suite verbatim.
    Raw(String),
}

/// Where a request of a swept line stands in its sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// 1-based position among the line's requests, in expansion order.
    pub index: usize,
    /// How many requests the line expands to.
    pub of: usize,
    /// The swept fields with this request's values, in the order the line lists them.
    pub values: Vec<(String, Value)>,
}

impl SweepPoint {
    /// The swept values in words: `variant rust, length 5000`.
    pub fn describe(&self) -> String {
        let pairs: Vec<String> = self
            .values
            .iter()
            .map(|(field, value)| match value {
                Value::String(s) => format!("{field} {s}"),
                other => format!("{field} {other}"),
            })
            .collect();
        pairs.join(", ")
    }

    /// The point as results record it: `{"index": 3, "of": 10, "values": {"length": 256}}`.
    pub fn to_json(&self) -> Value {
        let values: Map<String, Value> = self.values.iter().cloned().collect();
        serde_json::json!({ "index": self.index, "of": self.of, "values": values })
    }
}

/// One line of a `.bench` file; a swept line is one of these per request.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// Comment or blank line, copied to the output as is.
    Comment(String),
    /// A valid line (or request of a swept line: `text` is then the expanded request).
    Action {
        number: usize,
        text: String,
        action: Action,
        sweep: Option<SweepPoint>,
        /// How many placements of the measured code the line asks for (`"placements": N`; 1,
        /// the default placement only, when it does not say): the tool's option, no field of
        /// the request.
        placements: u32,
    },
    /// A line (or request of a swept line) that is neither; says why.
    Invalid {
        number: usize,
        text: String,
        error: String,
        sweep: Option<SweepPoint>,
    },
}

/// A `.bench` file read, its sweeps not yet expanded.
#[derive(Clone, Debug)]
pub struct BenchFile {
    entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
enum Entry {
    Line(Line),
    Sweep { number: usize, text: String, sweep: Sweep },
}

impl BenchFile {
    /// How many requests the file's sweeps expand to (saturating).
    pub fn swept_requests(&self) -> usize {
        self.entries
            .iter()
            .filter_map(|e| match e {
                Entry::Sweep { sweep, .. } => Some(sweep.len()),
                Entry::Line(_) => None,
            })
            .fold(0, usize::saturating_add)
    }

    /// The file's lines, each swept line replaced by a comment that shows it as written and
    /// one line per request.
    pub fn expand(self) -> Vec<Line> {
        let mut lines = Vec::with_capacity(self.entries.len());
        for entry in self.entries {
            match entry {
                Entry::Line(line) => lines.push(line),
                Entry::Sweep { number, text, sweep } => {
                    lines.push(Line::Comment(format!(
                        "# sweep of {} requests: {}",
                        sweep.len(),
                        text.trim()
                    )));
                    lines.extend(sweep.expand(number));
                }
            }
        }
        lines
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLine {
    raw_line: String,
}

/// Reads a `.bench` file; [`BenchFile::expand`] gives its lines.
pub fn read(path: &Path) -> Result<BenchFile> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(scan(&bytes))
}

/// Parses the contents of a `.bench` file, line by line (`\n` or `\r\n` endings), sweeps
/// expanded.
#[cfg(test)]
pub fn parse(bytes: &[u8]) -> Vec<Line> {
    scan(bytes).expand()
}

/// Parses the contents of a `.bench` file, line by line (`\n` or `\r\n` endings).
fn scan(bytes: &[u8]) -> BenchFile {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    // A final newline ends the last line; it does not start another.
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    BenchFile {
        entries: lines
            .into_iter()
            .enumerate()
            .map(|(i, raw)| parse_line(i + 1, raw.strip_suffix(b"\r").unwrap_or(raw)))
            .collect(),
    }
}

fn parse_line(number: usize, raw: &[u8]) -> Entry {
    let text = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(e) => {
            // A comment is only copied, so any stray byte in it is harmless.
            let lossy = String::from_utf8_lossy(raw).into_owned();
            if lossy.trim_start().starts_with('#') {
                return Entry::Line(Line::Comment(lossy));
            }
            let valid = e.valid_up_to();
            let column = String::from_utf8_lossy(&raw[..valid]).chars().count() + 1;
            let error = format!("line is not UTF-8 (byte 0x{:02X} at column {column})", raw[valid]);
            return Entry::Line(Line::Invalid {
                number,
                text: lossy,
                error,
                sweep: None,
            });
        }
    };
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Entry::Line(Line::Comment(text.to_owned()));
    }
    let text = text.to_owned();
    match parse_text(trimmed) {
        Ok(Parsed::Action(action, placements)) => Entry::Line(Line::Action {
            number,
            text,
            action,
            sweep: None,
            placements,
        }),
        Ok(Parsed::Sweep(sweep)) => Entry::Sweep { number, text, sweep },
        Err(error) => Entry::Line(Line::Invalid {
            number,
            text,
            error,
            sweep: None,
        }),
    }
}

enum Parsed {
    /// A request or raw line, and the placements it asks for.
    Action(Action, u32),
    Sweep(Sweep),
}

fn parse_text(line: &str) -> Result<Parsed, String> {
    if line.starts_with('"') {
        return serde_json::from_str::<Request>(line)
            .map(|r| Parsed::Action(Action::Request(r), 1))
            .map_err(|e| {
                let names: Vec<String> = Request::control_names().iter().map(|n| format!("\"{n}\"")).collect();
                format!("not a control request ({}): {e}", names.join(", "))
            });
    }
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    match Sweep::find(&value)? {
        Some(sweep) => Ok(Parsed::Sweep(sweep)),
        None => parse_action(value).map(|(action, placements)| Parsed::Action(action, placements)),
    }
}

/// The tool's own option of a benchmark line, `"placements": N` among the kind's fields: the
/// measurement is made again with the measured code at N placements in flash, and the record
/// carries every placement's cycles (`docs/analysis.md`). It is no field of the request.
pub const PLACEMENTS_FIELD: &str = "placements";

/// The kind's object of a benchmark line (`{"<kind>": {...}}` or the same inside
/// `{"benchmark": ...}`).
fn kind_object(value: &mut Value) -> Option<&mut Map<String, Value>> {
    let request = match value.get("benchmark") {
        Some(_) => value.get_mut("benchmark")?,
        None => value,
    };
    let request = request.as_object_mut().filter(|r| r.len() == 1)?;
    request.values_mut().next()?.as_object_mut()
}

/// Takes the placements option out of a benchmark line: how many placements it asks for (1,
/// the default one only, when it does not say), or why the value is not a count.
fn take_placements(value: &mut Value) -> Result<u32, String> {
    let Some(taken) = kind_object(value).and_then(|body| body.remove(PLACEMENTS_FIELD)) else {
        return Ok(1);
    };
    match taken.as_u64() {
        Some(n) if (1..=u64::from(MAX_PLACEMENTS)).contains(&n) => Ok(n as u32),
        _ => Err(format!(
            "{PLACEMENTS_FIELD} is {taken}: expected a number of placements from 1 to {MAX_PLACEMENTS}"
        )),
    }
}

/// A line's action and the placements it asks for.
fn parse_action(mut value: Value) -> Result<(Action, u32), String> {
    let placements = take_placements(&mut value)?;
    if value.get("raw_line").is_some() {
        let raw: RawLine = serde_json::from_value(value).map_err(|e| format!("raw line: {e}"))?;
        check_raw_line(&raw.raw_line)?;
        return Ok((Action::Raw(raw.raw_line), placements));
    }
    let benchmark: Benchmark = if value.get("benchmark").is_some() {
        match serde_json::from_value::<Request>(value).map_err(|e| e.to_string())? {
            Request::Benchmark(b) => b,
            other => return Ok((Action::Request(other), placements)),
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
    Ok((Action::Request(Request::Benchmark(benchmark)), placements))
}

/// A benchmark line with lists among its kind's fields: the line as written, and per swept
/// field (in the line's order) the values it takes.
#[derive(Clone, Debug)]
struct Sweep {
    line: Value,
    /// Whether the kind sits inside `{"benchmark": ...}`, the request's own JSON form.
    wrapped: bool,
    kind: String,
    axes: Vec<(String, Vec<Value>)>,
}

const SWEEP_FORM: &str = "a sweep lists the values of a field inside the kind's object, \
                          as {\"<kind>\": {\"length\": [16, 64, 256]}}";

impl Sweep {
    /// The sweep of a benchmark line, `None` when no field of it is a list, or why the lists
    /// in it make no sweep.
    fn find(line: &Value) -> Result<Option<Self>, String> {
        Self::find_with(line, &|value| parse_action(value).is_ok())
    }

    /// [`Self::find`] with `accepts` saying whether a line is a request of its kind.
    fn find_with(line: &Value, accepts: &dyn Fn(Value) -> bool) -> Result<Option<Self>, String> {
        let object = match line {
            Value::Array(_) => return Err(format!("a list at the top level: a line is one request; {SWEEP_FORM}")),
            Value::Object(object) => object,
            _ => return Ok(None),
        };
        if let Some(raw) = object.get("raw_line") {
            if raw.is_array() {
                return Err(String::from(
                    "raw_line is a list: a raw line is sent verbatim, so it cannot be swept",
                ));
            }
            return Ok(None);
        }
        let (wrapped, request) = match object.get("benchmark") {
            Some(inner) => (true, inner),
            None => (false, line),
        };
        let request = match request {
            Value::Array(_) => return Err(format!("the benchmark is a list; {SWEEP_FORM}")),
            Value::Object(request) if request.len() == 1 => request,
            _ => return Ok(None),
        };
        let (kind, body) = request.iter().next().expect("one entry");
        let body = match body {
            Value::Array(_) => return Err(format!("the request of {kind} is a list, not an object; {SWEEP_FORM}")),
            Value::Object(body) => body,
            _ => return Ok(None),
        };
        let mut axes = Vec::new();
        for (field, value) in body {
            let Value::Array(values) = value else {
                continue;
            };
            if values.is_empty() {
                return Err(format!("{field} is an empty list: a sweep needs at least one value"));
            }
            if values.iter().any(Value::is_array) {
                return Err(format!(
                    "{field} holds a list inside a list: a sweep lists single values"
                ));
            }
            axes.push((field.clone(), values.clone()));
        }
        if axes.is_empty() {
            return Ok(None);
        }
        let sweep = Self {
            line: line.clone(),
            wrapped,
            kind: kind.clone(),
            axes,
        };
        // A field whose own type is a list would read a list as one value: which was meant
        // cannot be told, so such a line is refused rather than guessed at. The request type
        // decides, by whether it accepts the list as the field's value.
        for (i, (field, _)) in sweep.axes.iter().enumerate() {
            if accepts(sweep.at(|j| (j != i).then_some(0))) {
                return Err(format!(
                    "{field} takes a list as its value, so a list of its values cannot be a sweep: \
                     write one line per value"
                ));
            }
        }
        Ok(Some(sweep))
    }

    /// How many requests it expands to (saturating).
    fn len(&self) -> usize {
        self.axes.iter().fold(1usize, |n, (_, v)| n.saturating_mul(v.len()))
    }

    fn body_mut<'a>(&self, line: &'a mut Value) -> &'a mut Value {
        let request = if self.wrapped { &mut line["benchmark"] } else { line };
        &mut request[self.kind.as_str()]
    }

    /// The line with each swept field set to the value `choice` picks by its axis index (a
    /// field it picks nothing for keeps its list).
    fn at(&self, choice: impl Fn(usize) -> Option<usize>) -> Value {
        let mut line = self.line.clone();
        let body = self.body_mut(&mut line);
        for (i, (field, values)) in self.axes.iter().enumerate() {
            if let Some(k) = choice(i) {
                body[field] = values[k].clone();
            }
        }
        line
    }

    /// One line per combination, the first axis outermost and the last varying fastest, each
    /// checked on its own.
    fn expand(&self, number: usize) -> Vec<Line> {
        let of = self.len();
        (0..of)
            .map(|n| {
                // The combination's index per axis: `n` in the mixed radix of the axes' lengths.
                let mut digits = vec![0; self.axes.len()];
                let mut rest = n;
                for (i, (_, values)) in self.axes.iter().enumerate().rev() {
                    digits[i] = rest % values.len();
                    rest /= values.len();
                }
                let value = self.at(|i| Some(digits[i]));
                let sweep = Some(SweepPoint {
                    index: n + 1,
                    of,
                    values: self
                        .axes
                        .iter()
                        .zip(&digits)
                        .map(|((field, values), &k)| (field.clone(), values[k].clone()))
                        .collect(),
                });
                let text = spaced(&value);
                match parse_action(value) {
                    Ok((action, placements)) => Line::Action {
                        number,
                        text,
                        action,
                        sweep,
                        placements,
                    },
                    // The error names the combination, which the line alone does not.
                    Err(error) => Line::Invalid {
                        number,
                        text,
                        error: format!(
                            "{}: {error}",
                            sweep.as_ref().map_or_else(String::new, SweepPoint::describe)
                        ),
                        sweep,
                    },
                }
            })
            .collect()
    }
}

/// JSON on one line as `.bench` files are written: `{"a": 1, "b": [2, 3]}`.
fn spaced(value: &Value) -> String {
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Spaced);
    value.serialize(&mut serializer).expect("a JSON value serialises");
    String::from_utf8(out).expect("JSON is UTF-8")
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
    use cyclebench_protocol::{HashAlgorithm, HashStyle, Primitive};

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
                    let lines = read(&path).expect("readable").expand();
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
        let Line::Invalid {
            number: 3, text, error, ..
        } = &lines[2]
        else {
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

    /// A software line of ChaCha20 with `fields` after its primitive.
    fn chacha(fields: &str) -> String {
        request(
            BenchmarkKind::Software,
            &format!(r#"{{"primitive": "{}", {fields}}}"#, Primitive::Chacha20.name()),
        )
    }

    #[test]
    fn a_swept_line_expands_in_order_the_last_field_fastest() {
        let swept = chacha(r#""variant": ["rust", "rv32i"], "length": [16, 64, 256], "repetitions": 2"#);
        let file = scan(format!("# lengths\n{swept}\n\"done\"\n").as_bytes());
        assert_eq!(file.swept_requests(), 6);
        let lines = file.expand();
        assert_eq!(lines.len(), 1 + 1 + 6 + 1, "{lines:?}");
        assert_eq!(lines[1], Line::Comment(format!("# sweep of 6 requests: {swept}")));
        let mut seen = Vec::new();
        for (i, line) in lines[2..8].iter().enumerate() {
            let Line::Action {
                number: 2,
                text,
                action: Action::Request(Request::Benchmark(Benchmark::Software(b))),
                sweep: Some(sweep),
                ..
            } = line
            else {
                panic!("{line:?}")
            };
            assert_eq!((sweep.index, sweep.of), (i + 1, 6));
            let variant = sweep.values[0].1.as_str().unwrap().to_owned();
            assert_eq!(sweep.values[0].0, "variant");
            assert_eq!(
                sweep.values[1],
                (String::from("length"), Value::from(b.length.unwrap()))
            );
            assert_eq!(b.repetitions, Some(2));
            // The .out file shows the request as if it had been written alone.
            assert_eq!(
                *text,
                chacha(&format!(
                    r#""variant": "{variant}", "length": {}, "repetitions": 2"#,
                    b.length.unwrap()
                ))
            );
            seen.push((variant, b.length.unwrap()));
        }
        let expected: Vec<(String, u32)> = ["rust", "rv32i"]
            .iter()
            .flat_map(|v| [16, 64, 256].map(|l| (v.to_string(), l)))
            .collect();
        assert_eq!(seen, expected);
        assert!(matches!(
            lines[8],
            Line::Action {
                number: 3,
                sweep: None,
                ..
            }
        ));
        let point = SweepPoint {
            index: 4,
            of: 6,
            values: vec![
                (String::from("variant"), Value::from("rv32i")),
                (String::from("length"), Value::from(16)),
            ],
        };
        assert_eq!(
            point.to_json().to_string(),
            r#"{"index":4,"of":6,"values":{"variant":"rv32i","length":16}}"#
        );
    }

    #[test]
    fn a_bad_value_in_a_sweep_fails_alone_and_a_line_without_lists_is_no_sweep() {
        // ChaCha20 takes 1 to 4096 bytes: the second request is refused, the others run.
        let lines = parse(chacha(r#""variant": "rust", "length": [64, 5000, 128]"#).as_bytes());
        assert_eq!(lines.len(), 4);
        assert!(matches!(&lines[1], Line::Action { sweep: Some(s), .. } if s.index == 1));
        let Line::Invalid {
            number: 1,
            error,
            sweep: Some(s),
            ..
        } = &lines[2]
        else {
            panic!("{:?}", lines[2])
        };
        assert_eq!(s.index, 2);
        assert!(error.starts_with("length 5000: "), "{error}");
        assert!(matches!(&lines[3], Line::Action { sweep: Some(s), .. } if s.index == 3));
        let file = scan(chacha(r#""variant": "rust", "length": 64"#).as_bytes());
        assert_eq!(file.swept_requests(), 0);
        assert!(matches!(&file.expand()[..], [Line::Action { sweep: None, .. }]));
    }

    #[test]
    fn lists_where_a_list_makes_no_sweep_are_refused_with_a_reason() {
        let kind = BenchmarkKind::Software.name();
        for (line, needle) in [
            (chacha(r#""variant": "rust", "length": []"#), "length is an empty list"),
            (
                chacha(r#""variant": "rust", "length": [16, [64, 128]]"#),
                "list inside a list",
            ),
            (
                format!("[{}]", chacha(r#""variant": "rust""#)),
                "a list at the top level",
            ),
            (
                format!(r#"{{"{kind}": [{{"variant": "rust"}}]}}"#),
                "is a list, not an object",
            ),
            (
                format!(r#"{{"benchmark": [{{"{kind}": {{}}}}]}}"#),
                "the benchmark is a list",
            ),
            (String::from(r#"{"raw_line": ["S", "B"]}"#), "raw_line is a list"),
        ] {
            let file = scan(line.as_bytes());
            assert_eq!(file.swept_requests(), 0, "{line}");
            let lines = file.expand();
            let [Line::Invalid {
                number: 1,
                error,
                sweep: None,
                ..
            }] = &lines[..]
            else {
                panic!("{line}: {lines:?}")
            };
            assert!(error.contains(needle), "{line}: {error}");
        }
    }

    #[test]
    fn a_field_whose_type_is_a_list_is_not_swept() {
        // No request field is a list today: a request type of this test's own has one.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)] // read only to decide whether a line fits the type
        struct Body {
            messages: Vec<u32>,
            length: u32,
        }
        let accepts = |value: Value| {
            value
                .get("k")
                .is_some_and(|body| serde_json::from_value::<Body>(body.clone()).is_ok())
        };
        let refused = serde_json::json!({"k": {"messages": [1, 2], "length": [16, 64]}});
        let error = Sweep::find_with(&refused, &accepts).unwrap_err();
        assert!(error.starts_with("messages takes a list as its value"), "{error}");
        let swept = serde_json::json!({"k": {"length": [16, 64, 256]}});
        assert_eq!(Sweep::find_with(&swept, &accepts).unwrap().unwrap().len(), 3);
    }

    #[test]
    fn a_sweep_is_counted_before_it_is_expanded() {
        let list = |n: u32| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        let line = chacha(&format!(
            r#""variant": ["rust", "rv32i", "zbb"], "length": [{}], "repetitions": [{}]"#,
            list(16),
            list(105)
        ));
        let file = scan(format!("{line}\n{line}\n").as_bytes());
        assert_eq!(file.swept_requests(), 2 * 3 * 16 * 105);
        assert!(file.swept_requests() > SWEEP_REQUESTS_WITHOUT_YES);
    }

    #[test]
    fn a_sweep_in_the_requests_own_json_form_expands_too() {
        let body = format!(
            r#"{{"primitive": "{}", "variant": ["rust", "rv32i"], "length": 64}}"#,
            Primitive::Chacha20.name()
        );
        let line = format!(r#"{{"benchmark": {}}}"#, request(BenchmarkKind::Software, &body));
        let lines = parse(line.as_bytes());
        assert_eq!(lines.len(), 3, "{lines:?}");
        for (i, variant) in ["rust", "rv32i"].into_iter().enumerate() {
            let Line::Action {
                text,
                action: Action::Request(Request::Benchmark(Benchmark::Software(b))),
                sweep: Some(s),
                ..
            } = &lines[i + 1]
            else {
                panic!("{:?}", lines[i + 1])
            };
            assert_eq!((s.index, b.variant.name()), (i + 1, variant));
            assert!(text.starts_with(r#"{"benchmark": {"#), "{text}");
        }
    }

    #[test]
    fn placements_are_the_tools_option_not_the_requests() {
        let body = format!(
            r#"{{"primitive": "{}", "variant": "rv32i", "length": 64, "placements": 8}}"#,
            Primitive::Chacha20.name()
        );
        let line = request(BenchmarkKind::Software, &body);
        let placements_of = |line: &str| match &parse(line.as_bytes())[0] {
            Line::Action {
                action: Action::Request(Request::Benchmark(_)),
                placements,
                ..
            } => *placements,
            other => panic!("{other:?}"),
        };
        assert_eq!(placements_of(&line), 8);
        let plain = format!(
            r#"{{"primitive": "{}", "variant": "rv32i", "length": 64}}"#,
            Primitive::Chacha20.name()
        );
        assert_eq!(placements_of(&request(BenchmarkKind::Software, &plain)), 1);
        for bad in ["0", "-1", "1025", "\"eight\""] {
            let body = format!(
                r#"{{"primitive": "{}", "placements": {bad}}}"#,
                Primitive::Chacha20.name()
            );
            let lines = parse(request(BenchmarkKind::Software, &body).as_bytes());
            let Line::Invalid { error, .. } = &lines[0] else {
                panic!("placements {bad} was accepted: {lines:?}")
            };
            assert!(error.contains(PLACEMENTS_FIELD), "{error}");
        }
    }
}
