//! Helpers shared by the integration tests: the `cyclebench` binary run from the repository
//! root, and what it printed or wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Root of the repository: benchmark files are named relative to it.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// Runs `cyclebench` with `args` in the repository root and waits for it.
pub fn cyclebench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cyclebench"))
        .current_dir(repo())
        .args(args)
        .output()
        .expect("run cyclebench")
}

/// Everything the run printed, stdout then stderr, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The records of the results directory `dir`.
#[allow(dead_code)] // each test file is its own crate, and the report tests read no run's records
pub fn records(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .expect("results.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("record is JSON"))
        .collect()
}

/// Runs `files` on `target` without a report, into `out`, and returns the records after
/// checking that the run succeeded.
#[allow(dead_code)] // each test file is its own crate; not every one runs sets this way
pub fn run_records(target: &str, out: &Path, files: &[&str]) -> Vec<Value> {
    run_logged(target, out, &["--no-report"], files).1
}

/// Runs `files` on `target` into `out` with the further `options`, and returns the run's
/// output and its records after checking that the run succeeded.
#[allow(dead_code)] // each test file is its own crate; not every one runs sets this way
pub fn run_logged(target: &str, out: &Path, options: &[&str], files: &[&str]) -> (String, Vec<Value>) {
    let mut args = vec!["run", "--target", target, "--out", out.to_str().expect("UTF-8 path")];
    args.extend_from_slice(options);
    args.extend_from_slice(files);
    let o = cyclebench(&args);
    let log = text(&o);
    assert!(o.status.success(), "{options:?} {files:?}: {log}");
    (log, records(out))
}

/// Each record of a request for a software library with the last record before it whose
/// request asked for none (how `benchmarks/on_chip/hardware_and_software.bench` lays them out).
#[allow(dead_code)] // each test file is its own crate; only the hardware/software tests pair
pub fn software_pairs(records: &[Value]) -> Vec<(&Value, &Value)> {
    let asks_software = |r: &Value| r["request"].as_str().is_some_and(|q| q.contains("\"software\""));
    let mut pairs = Vec::new();
    let mut platform_record = None;
    for r in records {
        if asks_software(r) {
            pairs.push((platform_record.expect("a platform line comes first"), r));
        } else {
            platform_record = Some(r);
        }
    }
    pairs
}

/// Copies `from` into `to`, leaving out what a build of a Rust folder leaves behind.
#[allow(dead_code)] // each test file is its own crate; only those that copy example folders use it
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == "Cargo.lock" {
            continue;
        }
        let (source, dest) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&source, &dest);
        } else {
            std::fs::copy(&source, &dest).unwrap();
        }
    }
}
