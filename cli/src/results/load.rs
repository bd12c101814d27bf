//! Reading `results.jsonl` back.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::Record;

/// The records of one results directory.
#[derive(Clone, Debug)]
pub struct Results {
    /// The directory.
    pub dir: PathBuf,
    /// The file read, `results.jsonl` in [`Self::dir`] unless named on its own.
    pub file: PathBuf,
    /// Every readable record in file order.
    pub records: Vec<Record>,
    /// Lines of `results.jsonl` that hold no readable record (a run cut off mid-write, a
    /// hand edit), in file order.
    pub skipped: Vec<SkippedLine>,
}

/// A line of `results.jsonl` that was left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    /// 1-based line number.
    pub line: usize,
    /// Why it is not a record.
    pub reason: String,
}

impl Results {
    /// Results of JSON records, as a run in `.` would have written them (for tests).
    #[cfg(test)]
    pub fn of_values(records: &[serde_json::Value]) -> Self {
        Self {
            dir: PathBuf::from("."),
            file: PathBuf::from("results.jsonl"),
            records: records.iter().map(|r| super::parse(&r.to_string()).unwrap()).collect(),
            skipped: Vec::new(),
        }
    }

    /// A warning naming every skipped line, or `None` when every line was read.
    pub fn skipped_warning(&self) -> Option<String> {
        if self.skipped.is_empty() {
            return None;
        }
        let file = &self.file;
        let mut text = format!(
            "warning: {} line(s) of {} hold no readable record and were left out ({} records read):",
            self.skipped.len(),
            file.display(),
            self.records.len()
        );
        for skipped in &self.skipped {
            text.push_str(&format!("\n  line {}: {}", skipped.line, skipped.reason));
        }
        Some(text)
    }

    /// Prints [`Self::skipped_warning`] on stderr, if there is one.
    pub fn warn_about_skipped(&self) {
        if let Some(warning) = self.skipped_warning() {
            eprintln!("{warning}");
        }
    }
}

/// Distinct non-empty values (of one field across records) in order of first appearance,
/// joined with commas; `None` when there are none.
pub fn distinct<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for v in values {
        if !v.is_empty() && !seen.contains(&v) {
            seen.push(v);
        }
    }
    (!seen.is_empty()).then(|| seen.join(", "))
}

/// Reads `results.jsonl` from `path`, a results directory or the file itself. Lines that hold
/// no record are left out and listed in [`Results::skipped`]; a file without a single record
/// is an error.
pub fn load(path: &Path) -> Result<Results> {
    let (dir, file) = if path.is_dir() {
        (path.to_path_buf(), path.join("results.jsonl"))
    } else {
        (
            path.parent().unwrap_or(Path::new(".")).to_path_buf(),
            path.to_path_buf(),
        )
    };
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let (records, skipped) = parse_lines(&bytes);
    if records.is_empty() {
        match skipped.first() {
            None => bail!("{} holds no records", file.display()),
            Some(first) => bail!(
                "{} holds no readable record ({} line(s) skipped; line {}: {})",
                file.display(),
                skipped.len(),
                first.line,
                first.reason
            ),
        }
    }
    Ok(Results {
        dir,
        file,
        records,
        skipped,
    })
}

/// The records of the lines of a `results.jsonl`, and the lines that hold none. A line that is
/// not UTF-8 (a write cut inside a character) is skipped like any other broken line.
fn parse_lines(bytes: &[u8]) -> (Vec<Record>, Vec<SkippedLine>) {
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let outcome = std::str::from_utf8(line)
            .map_err(|e| format!("not UTF-8 (byte {} of the line)", e.valid_up_to() + 1))
            .and_then(|text| match text.trim() {
                "" => Ok(None),
                text => parse(text).map(Some).map_err(|e| format!("{e:#}")),
            });
        match outcome {
            Ok(Some(record)) => records.push(record),
            Ok(None) => {}
            Err(reason) => skipped.push(SkippedLine { line: i + 1, reason }),
        }
    }
    (records, skipped)
}

/// Parses one line of `results.jsonl`.
pub fn parse(text: &str) -> Result<Record> {
    serde_json::from_str(text).context("not a results record")
}

#[cfg(test)]
mod tests {
    use cyclebench_protocol::{BenchmarkKind, ImplementationKind, Module, Primitive};

    use super::*;

    /// `text` with `AES_MODULE` and `SOFTWARE_IMPLEMENTATION` replaced by the names of that
    /// module and implementation kind, and `HASH`, `LEAKAGE`, `SOFTWARE`, `AES`, `CHACHA20`
    /// and `KECCAK` by the names of those benchmark kinds and primitives.
    fn named(text: &str) -> String {
        [
            ("AES_MODULE", Module::Aes.name()),
            ("SOFTWARE_IMPLEMENTATION", ImplementationKind::Software.name()),
            ("HASH", BenchmarkKind::Hash.name()),
            ("LEAKAGE", BenchmarkKind::Leakage.name()),
            ("SOFTWARE", BenchmarkKind::Software.name()),
            ("AES", BenchmarkKind::Aes.name()),
            ("CHACHA20", Primitive::Chacha20.name()),
            ("KECCAK", Primitive::KeccakF1600.name()),
        ]
        .into_iter()
        .fold(text.to_owned(), |t, (from, to)| t.replace(from, to))
    }

    fn parse_named(text: &str) -> Result<Record> {
        parse(&named(text))
    }

    const RECORD: &str = r#"{"status":"ok","benchmark":"HASH","file":"f.bench","line":3,"phases":{"init":9}}"#;

    #[test]
    fn a_record_cut_in_half_is_skipped_and_the_others_are_read() {
        let record = named(RECORD);
        let cut = &record[..record.len() / 2];
        let text = format!("{record}\n\n{record}\n{cut}");
        let (records, skipped) = parse_lines(text.as_bytes());
        assert_eq!(records.len(), 2);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].line, 4);
        assert!(skipped[0].reason.contains("not a results record"), "{:?}", skipped[0]);

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("results.jsonl"), &text).unwrap();
        let results = load(dir.path()).unwrap();
        assert_eq!((results.records.len(), results.skipped.len()), (2, 1));
        let warning = results.skipped_warning().unwrap();
        assert!(
            warning.contains("1 line(s) of") && warning.contains("results.jsonl"),
            "{warning}"
        );
        assert!(
            warning.contains("\n  line 4: not a results record: EOF while parsing"),
            "{warning}"
        );
    }

    #[test]
    fn a_result_without_phases_reads_as_its_result_fields() {
        let record = parse_named(
            r#"{"status":"ok","benchmark":"LEAKAGE","file":"f.bench","line":1,"seed":1,
               "measurements":100,"max_abs_t":12.5,"verdict":"leak","class0_count":50,
               "result_fields":["measurements","max_abs_t","verdict","class0_count"]}"#,
        )
        .unwrap();
        assert_eq!(
            record.result_summary(usize::MAX),
            "measurements 100, max_abs_t 12.5, verdict leak, class0_count 50"
        );
        assert_eq!(record.result_summary(2), "measurements 100, max_abs_t 12.5, …");
    }

    #[test]
    fn an_unbounded_value_reads_as_such_and_is_never_a_number() {
        let fields = r#""result_fields":["measurements","max_abs_t","t_unbounded","t_unbounded_reason","max_abs_t_test","verdict","class0_count"]"#;
        let record = parse_named(&format!(
            r#"{{"status":"ok","benchmark":"LEAKAGE","measurements":100,"max_abs_t":null,"t_unbounded":true,
               "t_unbounded_reason":"both classes have zero variance","max_abs_t_test":0,"verdict":"leak",
               "class0_count":50,{fields}}}"#
        ))
        .unwrap();
        let shown = "max_abs_t ∞ (zero variance)";
        assert_eq!(
            record.result_summary(usize::MAX),
            format!("measurements 100, {shown}, max_abs_t_test 0, verdict leak, class0_count 50")
        );
        assert_eq!(
            record.headline(),
            format!("measurements 100, {shown}, max_abs_t_test 0, verdict leak, …")
        );
        assert!(record.unbounded("max_abs_t").is_some() && record.decimal("max_abs_t").is_none());
        assert!(record.unbounded("verdict").is_none());

        // Records written before the flag carried a sentinel number.
        let old = parse_named(&format!(
            r#"{{"status":"ok","benchmark":"LEAKAGE","measurements":100,"max_abs_t":42949672.95,
               "max_abs_t_test":0,"verdict":"leak","class0_count":50,{}}}"#,
            fields.replace(r#""t_unbounded","t_unbounded_reason","#, "")
        ))
        .unwrap();
        assert_eq!(old.result_summary(2), format!("measurements 100, {shown}, …"));
        assert_eq!(
            (old.unbounded("max_abs_t").map(|u| u.shown), old.decimal("max_abs_t")),
            (Some("∞ (zero variance)"), None)
        );
        let bounded =
            parse_named(r#"{"status":"ok","benchmark":"LEAKAGE","max_abs_t":12.5,"t_unbounded":false}"#).unwrap();
        assert_eq!(
            (bounded.unbounded("max_abs_t"), bounded.decimal("max_abs_t")),
            (None, Some(12.5))
        );

        // A kind that declares no headline shows its first few result fields.
        let mut plain = old.clone();
        plain.benchmark = BenchmarkKind::Hash.name().to_owned();
        plain.result_fields = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        for name in &plain.result_fields {
            plain.details.insert(name.clone(), serde_json::Value::from(1));
        }
        assert_eq!(plain.headline(), "a 1, b 1, c 1, d 1, …");
    }

    #[test]
    fn a_line_cut_inside_a_character_is_skipped() {
        let mut bytes = format!("{}\n{{\"status\":\"error\",\"error\":\"é", named(RECORD)).into_bytes();
        bytes.pop();
        let (records, skipped) = parse_lines(&bytes);
        assert_eq!(records.len(), 1);
        assert_eq!(skipped[0].line, 2);
        assert!(skipped[0].reason.starts_with("not UTF-8"), "{:?}", skipped[0]);
    }

    #[test]
    fn a_file_without_a_record_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("results.jsonl");
        std::fs::write(&file, "").unwrap();
        let e = load(&file).unwrap_err();
        assert!(format!("{e:#}").contains("holds no records"), "{e:#}");
        std::fs::write(&file, "{\"status\":\n\ngarbage\n").unwrap();
        let e = load(dir.path()).unwrap_err();
        assert!(
            format!("{e:#}").contains("holds no readable record (2 line(s) skipped; line 1:"),
            "{e:#}"
        );
    }

    #[test]
    fn phases_keep_their_order_and_pick_up_statistics() {
        let r = parse_named(
            r#"{"status":"ok","benchmark":"HASH","phases":{"init":9,"input":20,"await_digest":5},
            "statistics":{"input":{"n":3,"min":19,"median":20,"max":25,"mean":21.33}},"total_cycles":34}"#,
        )
        .unwrap();
        let phases = r.phases();
        let names: Vec<&str> = phases.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["init", "input", "await_digest"]);
        assert_eq!(phases[1].stats.map(|s| (s.min, s.max)), Some((19, 25)));
        assert!(phases[0].stats.is_none());
        assert!(r.is_measurement() && r.repeated());
    }

    #[test]
    fn kind_details_load_and_are_absent_on_other_records() {
        let r = parse_named(
            r#"{"status":"ok","benchmark":"SOFTWARE","phases":{"run":2097},"total_cycles":2097,
            "bytes":1,"cycles_per_byte":2097.0,"primitive":"CHACHA20","variant":"rv32i","limbs":null,
            "stack_bytes":208,"code_symbol":"cb_chacha20_rv32i","code_bytes":3146}"#,
        )
        .unwrap();
        assert_eq!(
            (r.primitive(), r.variant()),
            (Some(Primitive::Chacha20.name()), Some("rv32i"))
        );
        assert_eq!(
            (r.limbs(), r.stack_bytes(), r.code_bytes),
            (None, Some(208), Some(3146))
        );
        assert_eq!(r.code_symbol.as_deref(), Some("cb_chacha20_rv32i"));
        let mp = parse_named(r#"{"status":"ok","benchmark":"SOFTWARE","phases":{"run":65},"limbs":2}"#).unwrap();
        assert_eq!(mp.limbs(), Some(2));
        let old = parse_named(r#"{"status":"ok","benchmark":"HASH","phases":{"init":9}}"#).unwrap();
        assert!(old.primitive().is_none() && old.variant().is_none() && old.limbs().is_none());
        assert!(old.stack_bytes().is_none() && old.code_symbol.is_none() && old.code_bytes.is_none());
    }

    #[test]
    fn raw_phases_load() {
        let r = parse_named(
            r#"{"status":"ok","benchmark":"SOFTWARE","file":"benchmarks/swcrypto/lengths.bench",
            "request":"{\"SOFTWARE\": {\"primitive\": \"CHACHA20\", \"variant\": \"rv32i\", \"length\": 64}}",
            "phases":{"run":2098,"tail":3},"raw_phases":{"run":2102,"tail":7}}"#,
        )
        .unwrap();
        let raw: Vec<(&str, u64)> = r.raw_phases.iter().map(|(n, c)| (n.as_str(), *c)).collect();
        assert_eq!(raw, [("run", 2102), ("tail", 7)]);
        assert_eq!(
            (r.raw_phases.get("tail"), r.raw_phases.get("init"), r.raw_total()),
            (Some(&7), None, 2109)
        );
        assert_eq!(r.file_stem(), "lengths");
        let fixed = parse_named(
            r#"{"status":"error","benchmark":"SOFTWARE","raw_phases":null,
            "request":"{\"SOFTWARE\": {\"primitive\": \"KECCAK\", \"variant\": \"rv32i\"}}"}"#,
        )
        .unwrap();
        assert!(fixed.raw_phases.is_empty());
        assert_eq!(fixed.raw_total(), 0);
        let e = parse_named(r#"{"status":"ok","benchmark":"HASH","raw_phases":{"init":-1}}"#).unwrap_err();
        assert!(
            format!("{e:#}").contains("'init' has a value that does not fit"),
            "{e:#}"
        );
    }

    #[test]
    fn a_phase_that_is_not_a_count_is_an_error() {
        let e = parse_named(r#"{"status":"ok","benchmark":"HASH","phases":{"init":"x"}}"#).unwrap_err();
        assert!(
            format!("{e:#}").contains("'init' has a value that does not fit"),
            "{e:#}"
        );
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let text = r#"{"status":"ok","target":"qemu-virt","platform":"qemu-virt","file":"f.bench","line":3,"request":"x","benchmark":"AES","dataset":"ecb-128","config":"encrypt total automatic","module":"AES_MODULE","implementation":"SOFTWARE_IMPLEMENTATION","implementation_name":"rustcrypto-aes","verified":true,"check":"known_answer","cycle_accurate":false,"repetitions":1,"overhead":4,"phases":{"init":1,"process":2,"deinit":3},"raw_phases":{"init":5,"process":6,"deinit":7},"statistics":null,"total_cycles":6,"bytes":16,"cycles_per_byte":0.38,"code_symbol":null,"code_bytes":null,"reason":null,"error":null,"attempts":1,"firmware_revision":"r","timestamp":"t","blocks":1}"#;
        let text = named(text);
        let r = parse(&text).unwrap();
        assert_eq!(r.category("init"), cyclebench_protocol::PhaseCategory::Initialisation);
        assert_eq!(r.number("blocks"), Some(1));
        assert_eq!(serde_json::to_string(&r).unwrap(), text);
    }
}
