//! End-to-end on QEMU `virt`: a run cut into shards and merged, and a run killed outright and
//! resumed, each against an uninterrupted run on one machine; and the bad inputs of both.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{cyclebench, records, repo, text};
use serde_json::Value;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn meta(dir: &Path) -> Value {
    serde_json::from_str(&read(&dir.join("run.json"))).unwrap()
}

/// Asserts that `b` holds what `a` holds, as the tool's one identity check judges it
/// (`compare --identical`: records but for their timestamps and attempts, in order, the CSV
/// and every input file's `.out`).
fn same_results(a: &Path, b: &Path) {
    let o = cyclebench(&["compare", &a.to_string_lossy(), &b.to_string_lossy(), "--identical"]);
    assert!(
        o.status.success(),
        "{} against {}: {}",
        b.display(),
        a.display(),
        text(&o)
    );
}

/// Runs to the end: exit status 0, or 1 when a line failed (the set's line that is no request).
fn run(args: &[&str]) -> String {
    let o = cyclebench(args);
    let log = text(&o);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{args:?}: {log}");
    log
}

fn fails(args: &[&str]) -> String {
    let o = cyclebench(args);
    let log = text(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {log}");
    log
}

/// A set of every shape of line: shipped sets, a sweep, a line that is no request, and a file
/// whose lines run in order (one unit).
fn set(dir: &Path) -> Vec<String> {
    let mixed = dir.join("mixed.bench");
    std::fs::write(
        &mixed,
        "# a sweep, a broken line and plain lines\n\
         {\"software\": {\"primitive\": \"chacha20\", \"variant\": [\"rust\", \"rv32i\"], \"length\": [16, 64, 256]}}\n\
         not a request\n\
         {\"hash\": {\"algorithm\": \"sha3\", \"length\": 300, \"seed\": 4}}\n\
         {\"aes\": {\"mode\": \"ctr\", \"key_bits\": 256, \"length\": 100}}\n",
    )
    .unwrap();
    let ordered = dir.join("ordered.bench");
    std::fs::write(
        &ordered,
        "{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\"}}\n\"hello\"\n{\"micro\": {}}\n",
    )
    .unwrap();
    let mut files: Vec<String> = [
        "benchmarks/sha2.bench",
        "benchmarks/aes_modes.bench",
        "benchmarks/micro.bench",
    ]
    .map(String::from)
    .to_vec();
    files.push(mixed.display().to_string());
    files.push(ordered.display().to_string());
    files
}

/// `run --target qemu-virt --no-report --out OUT`, the further `options`, then `files`.
fn qemu_run<'a>(out: &'a str, options: &[&'a str], files: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["run", "--target", "qemu-virt", "--no-report", "--out", out];
    args.extend_from_slice(options);
    args.extend_from_slice(files);
    args
}

#[test]
fn three_shards_merged_are_what_one_machine_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let files = set(tmp.path());
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let dir = |name: &str| tmp.path().join(name).display().to_string();
    let one = dir("one");
    run(&qemu_run(&one, &["--jobs", "2"], &files));
    let shards: Vec<String> = (0..3).map(|i| dir(&format!("shard-{i}"))).collect();
    for (i, out) in shards.iter().enumerate() {
        let shard = format!("{i}/3");
        run(&qemu_run(out, &["--jobs", "1", "--shard", &shard], &files));
        let m = meta(Path::new(out));
        assert_eq!(
            (m["shard"]["index"].as_u64(), m["shard"]["count"].as_u64()),
            (Some(i as u64), Some(3))
        );
        assert_eq!(m["finished"], true);
    }
    // Each shard holds a part, and the parts are disjoint.
    let parts: Vec<usize> = shards.iter().map(|s| records(Path::new(s)).len()).collect();
    assert!(parts.iter().all(|&n| n > 0), "{parts:?}");
    assert_eq!(parts.iter().sum::<usize>(), records(Path::new(&one)).len());

    let merged = dir("merged");
    // Any order of the shard directories.
    run(&[
        "merge",
        &shards[2],
        &shards[0],
        &shards[1],
        "--no-report",
        "--out",
        &merged,
    ]);
    same_results(Path::new(&one), Path::new(&merged));
    let m = meta(Path::new(&merged));
    assert!(m["shard"].is_null() && m["finished"] == true, "{m}");
    assert_eq!(m["merged_from"].as_array().unwrap().len(), 3);
    assert_eq!(m["requests"], meta(Path::new(&one))["requests"]);

    // Neither a shard nor a merge writes over results.
    let e = fails(&qemu_run(&shards[0], &["--shard", "0/3"], &files));
    assert!(e.contains("already holds a run; continue it with --resume"), "{e}");
    let again = fails(&["merge", &shards[0], &shards[1], &shards[2], "--out", &merged]);
    assert!(again.contains("already holds results"), "{again}");

    // A missing shard is summed up: how many requests of each file it lacks, and the command
    // that runs it.
    let gap = fails(&["merge", &shards[0], &shards[2], "--out", &dir("gap")]);
    let lost = records(Path::new(&shards[1]));
    assert!(gap.contains(&format!("shard 1/3: {} requests (", lost.len())), "{gap}");
    assert!(gap.contains("--shard 1/3 --out "), "{gap}");
    assert!(gap.contains("shard-1"), "{gap}");
    for file in &files {
        let lacking = lost.iter().filter(|r| r["file"] == *file).count();
        if lacking > 0 {
            assert!(gap.contains(&format!("{lacking} of {file}")), "{file}: {gap}");
        }
    }
    for r in &lost {
        let location = format!("{}:{}", r["file"].as_str().unwrap(), r["line"]);
        assert!(!gap.contains(&location), "a count, not a list of lines: {gap}");
    }

    // Shards of one run only, each once.
    let twice = fails(&["merge", &shards[0], &shards[0], "--out", &dir("twice")]);
    assert!(twice.contains("are both shard 0/3"), "{twice}");
    let other = dir("other-cut");
    run(&qemu_run(&other, &["--shard", "0/2"], &files));
    let cut = fails(&["merge", &shards[0], &other, "--out", &dir("cut")]);
    assert!(cut.contains("parts of runs cut differently"), "{cut}");
    // Shard 1 as if measured elsewhere.
    let forge = |name: &str, field: &str, value: &str| {
        let mut m = meta(Path::new(&shards[1]));
        m[field] = Value::from(value);
        let forged = dir(name);
        std::fs::create_dir_all(&forged).unwrap();
        std::fs::write(Path::new(&forged).join("run.json"), m.to_string()).unwrap();
        forged
    };
    for (name, field, value, needle) in [
        ("zbb", "target", "qemu-virt-zbb", "shards of different targets"),
        (
            "old",
            "firmware_revision",
            "0123456789ab",
            "shards of different firmware",
        ),
    ] {
        let message = fails(&[
            "merge",
            &shards[0],
            &forge(name, field, value),
            "--out",
            &dir(&format!("{name}-out")),
        ]);
        assert!(message.contains(needle), "{message}");
    }
    let none = fails(&["merge", &shards[0], tmp.path().to_str().unwrap(), "--out", &dir("none")]);
    assert!(none.contains("is not a results directory"), "{none}");
}

#[test]
fn a_shard_out_of_range_or_of_nothing_is_refused_before_anything_starts() {
    for (shard, needle) in [("3/3", "0 to 2"), ("0/0", "0 parts"), ("x/2", "not a whole number")] {
        let o = cyclebench(&[
            "run",
            "--target",
            "qemu-virt",
            "--shard",
            shard,
            "benchmarks/sha2.bench",
        ]);
        let log = text(&o);
        assert_eq!(o.status.code(), Some(2), "{log}");
        assert!(log.contains(needle) && log.contains("--shard"), "{shard}: {log}");
    }
}

/// A generated file long enough to be killed in the middle of, with comments between lines.
fn long_set(dir: &Path) -> PathBuf {
    let path = dir.join("long.bench");
    let mut text = String::from("# long\n");
    for i in 0..1500 {
        if i % 50 == 0 {
            text.push_str(&format!("# from {i}\n"));
        }
        let algorithm = ["sha2", "sha3"][i % 2];
        text.push_str(&format!(
            "{{\"hash\": {{\"algorithm\": \"{algorithm}\", \"length\": {}, \"seed\": {i}}}}}\n",
            64 * (1 + i % 7)
        ));
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_run_killed_outright_resumes_to_what_an_uninterrupted_run_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let long = long_set(tmp.path());
    let long = long.to_str().unwrap();
    let whole = tmp.path().join("whole");
    let files = [long, "benchmarks/micro.bench"];
    run(&qemu_run(whole.to_str().unwrap(), &["--jobs", "2"], &files));

    let killed = tmp.path().join("killed");
    let written = || {
        std::fs::read_to_string(killed.join("results.jsonl"))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    // SIGKILL once `results.jsonl` has `records` lines: no chance to finish a line or write
    // run.json.
    let kill_at = |args: &[&str], records: usize| {
        let log = std::fs::File::create(tmp.path().join("killed.log")).unwrap();
        let mut cli = std::process::Command::new(env!("CARGO_BIN_EXE_cyclebench"))
            .current_dir(repo())
            .args(args)
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let start = Instant::now();
        while written() < records && start.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(20));
        }
        cli.kill().unwrap();
        cli.wait().unwrap();
        written()
    };
    let killed_s = killed.to_str().unwrap();
    let cut = kill_at(&qemu_run(killed_s, &["--jobs", "2"], &files), 200);
    assert!((200..1500).contains(&cut), "killed after {cut} records");
    assert_eq!(meta(&killed)["finished"], false);

    // A resumed run killed in turn: the next resume reads its files and the earlier ones.
    let again = kill_at(&["run", "--resume", killed_s, "--jobs", "2", "--no-report"], cut + 200);
    assert!((cut + 200..1500).contains(&again), "killed again after {again} records");
    assert!(killed.join(".earlier/1").is_dir());

    // The files and target come from the directory.
    let log = run(&[
        "run",
        "--resume",
        killed.to_str().unwrap(),
        "--jobs",
        "2",
        "--no-report",
    ]);
    same_results(&whole, &killed);
    let m = meta(&killed);
    assert_eq!(
        (m["finished"].as_bool(), m["requests"].as_u64()),
        (Some(true), Some(1502)),
        "{m}\n{log}"
    );
    assert!(!killed.join(".earlier").exists());

    // A finished run resumed measures nothing and stays as it is.
    run(&["run", "--resume", killed.to_str().unwrap(), "--no-report"]);
    same_results(&whole, &killed);
}

#[test]
fn a_resume_against_other_firmware_target_or_inputs_is_refused_and_keeps_the_results() {
    let tmp = tempfile::tempdir().unwrap();
    let bench = tmp.path().join("a.bench");
    std::fs::write(&bench, "{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\"}}\n").unwrap();
    let out = tmp.path().join("out");
    let (bench, out_s) = (bench.to_str().unwrap(), out.to_str().unwrap());
    run(&["run", "--target", "qemu-virt", "--no-report", "--out", out_s, bench]);
    let before = read(&out.join("results.jsonl"));

    let e = fails(&["run", "--resume", out_s, "--target", "qemu-virt-zbb"]);
    assert!(e.contains("was measured on qemu-virt, not qemu-virt-zbb"), "{e}");
    let e = fails(&["run", "--resume", out_s, "benchmarks/sha2.bench"]);
    assert!(
        e.contains("is a run of") && e.contains("not of benchmarks/sha2.bench"),
        "{e}"
    );

    let good = read(&out.join("run.json"));
    let mut m: Value = serde_json::from_str(&good).unwrap();
    m["firmware_revision"] = Value::from("0123456789ab");
    std::fs::write(out.join("run.json"), m.to_string()).unwrap();
    let e = fails(&["run", "--resume", out_s]);
    assert!(e.contains("firmware revision 0123456789ab"), "{e}");
    std::fs::write(out.join("run.json"), &good).unwrap();

    std::fs::write(bench, "{\"hash\": {\"algorithm\": \"sha3\", \"dataset\": \"abc\"}}\n").unwrap();
    let e = fails(&["run", "--resume", out_s]);
    assert!(e.contains("has changed since"), "{e}");

    let e = fails(&["run", "--resume", tmp.path().to_str().unwrap()]);
    assert!(e.contains("is not a results directory"), "{e}");
    assert_eq!(read(&out.join("results.jsonl")), before);
}

#[test]
fn a_slurm_submission_carries_the_run_options_into_every_shard_command() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let cache = tmp.path().join("cache");
    let log = run(&[
        "submit",
        "slurm",
        "benchmarks/otbn/ecdsa.bench",
        "--timeout",
        "7200",
        "--attempts",
        "3",
        "--yes",
        "--shards",
        "4",
        "--cache",
        cache.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(log.contains("shards"), "{log}");
    let script = read(&out.join("slurm/shards.sbatch"));
    // A task's first run and its resumption when Slurm runs it again.
    let commands: Vec<&str> = script.lines().filter(|l| l.contains("\"$cli\" run ")).collect();
    assert_eq!(commands.len(), 2, "{script}");
    for command in commands {
        for option in ["--timeout 7200", "--attempts 3", "--yes"] {
            assert!(command.contains(option), "{option} missing from: {command}");
        }
    }
    let refused = fails(&[
        "submit",
        "slurm",
        "benchmarks/otbn/ecdsa.bench",
        "--shards",
        "2",
        "--cache",
        cache.to_str().unwrap(),
        "--impl",
        "no/such/folder",
    ]);
    assert!(refused.contains("no/such/folder"), "{refused}");
}
