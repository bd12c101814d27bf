//! Helpers shared by the integration tests: the `cyclebench` binary run from the repository
//! root, and what it printed or wrote.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// The Chromium binary on the PATH, if one is installed (Debian package `chromium`, which
/// `scripts/setup.sh` installs).
#[allow(dead_code)] // each test file is its own crate; only the tests of HTML pages render them
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium (`browser`) on `page` with `action` (`--dump-dom` or
/// `--screenshot=FILE`) in a window of 1280 by `height` pixels, and returns what it printed;
/// fails after two minutes. `work` holds its profile and output.
#[allow(dead_code)] // each test file is its own crate; only the tests of HTML pages render them
pub fn headless(browser: &Path, page: &Path, action: &str, height: u32, work: &Path) -> String {
    let profile = tempfile::tempdir_in(work).unwrap();
    let stdout_path = work.join(format!(
        "chromium-{}.out",
        action.trim_start_matches('-').replace(['=', '/'], "_")
    ));
    let stdout = File::create(&stdout_path).unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.path().display()),
            &format!("--window-size=1280,{height}"),
            action,
            &format!("file://{}", page.display()),
        ])
        // The page's output goes to a file: a DOM bigger than a pipe's buffer would otherwise
        // stall Chromium while this test waits for it.
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium {action} did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "chromium {action} failed: {status}");
    std::fs::read_to_string(stdout_path).unwrap()
}

/// The pixels of a PNG screenshot, as RGB(A) samples of `channels` each, with its size.
#[allow(dead_code)] // each test file is its own crate; only the tests of HTML pages render them
pub fn screenshot_pixels(path: &Path) -> (Vec<Vec<u8>>, u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(File::open(path).expect("screenshot written")));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let channels = frame.color_type.samples();
    let rgb = pixels[..frame.buffer_size()]
        .chunks(channels)
        .map(|p| p.to_vec())
        .collect();
    (rgb, frame.width, frame.height)
}
