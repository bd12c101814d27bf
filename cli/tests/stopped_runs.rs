//! End-to-end on QEMU `virt` with two instances: a run stopped while one instance works on a
//! slow line and the other has finished the lines after it, by two signals or by SIGKILL,
//! keeps every result it received as whole lines, and `--resume` completes it to what an
//! uninterrupted run writes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{cyclebench, records, repo, text};
use serde_json::Value;

/// Many seconds on QEMU (3 × 64 MiB of SHA-256 in software), well under the request timeout.
const SLOW: &str = r#"{"hash": {"algorithm": "sha2", "software": "rustcrypto", "length": 67108864, "repeated_block": 16384, "repetitions": 3}}"#;

/// Lines of a few milliseconds each, of several kinds.
const FAST: [&str; 8] = [
    r#"{"hash": {"algorithm": "sha2", "dataset": "abc"}}"#,
    r#"{"hash": {"algorithm": "sha3", "length": 300, "seed": 4}}"#,
    r#"{"micro": {}}"#,
    r#"{"aes": {"dataset": "ecb-128"}}"#,
    r#"{"software": {"primitive": "chacha20", "variant": "rust", "length": 64}}"#,
    r#"{"hash": {"algorithm": "sha2", "dataset": "abc"}}"#,
    r#"{"aes": {"mode": "ctr", "key_bits": 256, "length": 100}}"#,
    r#"{"software": {"primitive": "mp-add", "variant": "rv32i", "length": 8}}"#,
];

/// The file: a comment, a fast line, the slow line, then the other fast lines. With two
/// instances one works on the slow line while the other runs every line after it.
fn bench(dir: &Path) -> PathBuf {
    let path = dir.join("slow.bench");
    let mut text = format!("# one slow line among fast ones\n{}\n{SLOW}\n", FAST[0]);
    for line in &FAST[1..] {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// The line number of the slow line in [`bench`].
const SLOW_LINE: u64 = 3;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn meta(dir: &Path) -> Value {
    serde_json::from_str(&read(&dir.join("run.json"))).unwrap()
}

/// The records of `dir`, each a whole line (the file ends in a line break), in the order of
/// the file.
fn whole_records(dir: &Path) -> Vec<Value> {
    let text = read(&dir.join("results.jsonl"));
    assert!(text.is_empty() || text.ends_with('\n'), "a line cut short: {text:?}");
    records(dir)
}

/// Records without what differs from run to run (when each reply arrived).
fn comparable(dir: &Path) -> Vec<Value> {
    let mut records = records(dir);
    for r in &mut records {
        r.as_object_mut().unwrap().remove("timestamp");
    }
    records
}

/// The uninterrupted run of `file` on two instances, into `dir`.
fn whole_run(file: &Path, dir: &Path) {
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--no-report",
        "--jobs",
        "2",
        "--out",
        dir.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Polls `done` every 50 ms for up to `limit`; whether it became true.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

/// A run of [`bench`] on two instances, caught while the slow line is under way and every
/// other line has its record.
struct Stopping {
    cli: Child,
    out: PathBuf,
    log: PathBuf,
}

impl Stopping {
    fn start(file: &Path, out: &Path) -> Self {
        let log = out.with_extension("log");
        let sink = std::fs::File::create(&log).unwrap();
        // Output to a file: a pipe nobody reads would block the CLI once full.
        let mut cli = Command::new(env!("CARGO_BIN_EXE_cyclebench"))
            .current_dir(repo())
            .args(["run", "--target", "qemu-virt", "--no-report", "--jobs", "2", "--out"])
            .arg(out)
            .arg(file)
            .stdin(Stdio::null())
            .stdout(sink.try_clone().unwrap())
            .stderr(sink)
            .spawn()
            .unwrap();
        let written = || std::fs::read_to_string(out.join("results.jsonl")).map_or(0, |t| t.lines().count());
        let caught = within(Duration::from_secs(300), || {
            written() >= FAST.len() || cli.try_wait().unwrap().is_some()
        });
        let run = Self {
            cli,
            out: out.to_path_buf(),
            log,
        };
        assert!(caught && written() == FAST.len(), "not caught:\n{}", run.log());
        // Settled: the last record's reply parked and run.json counting it, so that a kill
        // now finds nothing under way but the slow line.
        let parked = || std::fs::read_to_string(out.join("pending.jsonl")).map_or(0, |t| t.lines().count());
        let settled = within(Duration::from_secs(10), || {
            parked() == FAST.len() - 1 && meta(out)["requests"] == FAST.len()
        });
        assert!(settled, "{} replies parked, run.json {}", parked(), meta(out));
        run
    }

    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &self.cli.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits up to `limit` for the CLI to end.
    fn wait(&mut self, limit: Duration) -> Option<ExitStatus> {
        let mut status = None;
        within(limit, || {
            status = self.cli.try_wait().unwrap();
            status.is_some()
        });
        status
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Stopping {
    fn drop(&mut self) {
        // Whatever the test found, leave nothing running.
        let _ = self.cli.kill();
        let _ = self.cli.wait();
    }
}

/// What a stopped run must have left: every fast line's record, whole, and none of the slow
/// line; each of them shown as it arrived.
fn every_fast_record(run: &Stopping) -> Vec<Value> {
    let records = whole_records(&run.out);
    let mut lines: Vec<u64> = records.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    lines.sort_unstable();
    let expected: Vec<u64> = (2..=FAST.len() as u64 + 2).filter(|&l| l != SLOW_LINE).collect();
    assert_eq!(lines, expected, "{records:?}");
    assert!(records.iter().all(|r| r["status"] == "ok"), "{records:?}");
    let log = run.log();
    for line in expected {
        assert!(
            log.contains(&format!("slow.bench:{line} ")),
            "line {line} not shown:\n{log}"
        );
    }
    records
}

/// Resumes the stopped run and checks that it ends as the uninterrupted one, re-measuring
/// only the slow line: every record the stopped run received is kept as it was.
fn resume_to_whole(stopped: &Path, whole: &Path, kept: &[Value]) {
    let o = cyclebench(&[
        "run",
        "--resume",
        stopped.to_str().unwrap(),
        "--jobs",
        "2",
        "--no-report",
    ]);
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    let (resumed, uninterrupted) = (comparable(stopped), comparable(whole));
    assert_eq!(resumed.len(), uninterrupted.len(), "{log}");
    for (r, u) in resumed.iter().zip(&uninterrupted) {
        assert_eq!(r, u, "line {} resumed, line {} uninterrupted", r["line"], u["line"]);
    }
    assert_eq!(read(&stopped.join("results.csv")), read(&whole.join("results.csv")));
    assert_eq!(read(&stopped.join("slow.out")), read(&whole.join("slow.out")));
    let resumed = records(stopped);
    for before in kept {
        let now = resumed.iter().find(|r| r["line"] == before["line"]).unwrap();
        assert_eq!(
            now["timestamp"], before["timestamp"],
            "line {} was measured again",
            before["line"]
        );
    }
    let m = meta(stopped);
    assert_eq!(
        (&m["requests"], &m["finished"]),
        (&Value::from(FAST.len() + 1), &Value::Bool(true)),
        "{m}"
    );
    assert!(!stopped.join("pending.jsonl").exists() && !stopped.join(".earlier").exists());
}

#[test]
fn two_signals_while_a_slow_line_runs_keep_every_finished_record_and_resume_completes() {
    use std::os::unix::process::ExitStatusExt;

    let tmp = tempfile::tempdir().unwrap();
    let file = bench(tmp.path());
    let whole = tmp.path().join("whole");
    whole_run(&file, &whole);

    let stopped = tmp.path().join("stopped");
    let mut run = Stopping::start(&file, &stopped);
    run.signal("INT");
    // The first signal marks run.json interrupted at once, before any further record.
    assert!(
        within(Duration::from_secs(5), || meta(&stopped)["interrupted"] == true),
        "{}",
        meta(&stopped)
    );
    run.signal("INT");
    let status = run.wait(Duration::from_secs(10));
    let status = status.unwrap_or_else(|| panic!("still running 10 s after the second SIGINT:\n{}", run.log()));
    assert_eq!(status.signal(), Some(2), "{status:?}\n{}", run.log());
    let kept = every_fast_record(&run);
    let m = meta(&stopped);
    assert_eq!(
        (&m["requests"], &m["ok"], &m["interrupted"], &m["finished"]),
        (
            &Value::from(FAST.len()),
            &Value::from(FAST.len()),
            &Value::Bool(true),
            &Value::Bool(false)
        ),
        "{m}"
    );
    // The replies of the lines after the slow one wait for their place in slow.out.
    let parked = read(&stopped.join("pending.jsonl"));
    assert_eq!(parked.lines().count(), FAST.len() - 1, "{parked}");
    assert!(!read(&stopped.join("slow.out")).contains(FAST[1]));

    resume_to_whole(&stopped, &whole, &kept);
}

#[test]
fn a_kill_while_a_slow_line_runs_keeps_every_finished_record_and_resume_completes() {
    use std::os::unix::process::ExitStatusExt;

    let tmp = tempfile::tempdir().unwrap();
    let file = bench(tmp.path());
    let whole = tmp.path().join("whole");
    whole_run(&file, &whole);

    let stopped = tmp.path().join("stopped");
    let mut run = Stopping::start(&file, &stopped);
    run.signal("KILL");
    let status = run.wait(Duration::from_secs(10)).expect("SIGKILL ends the CLI");
    assert_eq!(status.signal(), Some(9));
    let kept = every_fast_record(&run);
    // run.json lags by at most the record being written.
    let m = meta(&stopped);
    let counted = m["requests"].as_u64().unwrap();
    assert!(counted + 1 >= FAST.len() as u64 && counted <= FAST.len() as u64, "{m}");
    assert_eq!(m["finished"], false);

    resume_to_whole(&stopped, &whole, &kept);
}
