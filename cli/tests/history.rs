//! `cyclebench history` end to end: real runs on QEMU `virt`, one more made slower by hand to
//! stand for a regression, and the page the real binary writes of them, rendered in headless
//! Chromium where it is installed.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{cyclebench, records, text};

/// Requests that QEMU answers at once, of three kinds, one repeated.
const BENCH: &str = "# The requests of the history test.\n\
{\"hash\": {\"algorithm\": \"sha2\", \"dataset\": \"abc\"}}\n\
{\"aes\": {\"dataset\": \"ecb-128-1b\", \"trigger\": \"manual\"}}\n\
{\"micro\": {\"repetitions\": 3}}\n";

/// The line of [`BENCH`] the regression is made on, and the phase it slows.
const SLOWED_LINE: u64 = 2;
const SLOWED_PHASE: &str = "await_digest";

/// Runs `bench` on QEMU into `out` (with its report), which must succeed.
fn run(bench: &Path, out: &Path) {
    let o = cyclebench(&[
        "run",
        "--target",
        "qemu-virt",
        "--out",
        out.to_str().unwrap(),
        bench.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Copies the results directory `from` to `to` (files only; the report's plots are not
/// needed, the report is written anew).
fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// Simulates a regression: the results of `dir` as a later run would write them had the
/// code measured on line [`SLOWED_LINE`] become slower. `SLOWED_PHASE` takes 10 % more
/// cycles (the total with it) in `results.jsonl` and `results.csv`, and the run starts a
/// minute after the run it was copied from. Returns the phase's cycles before and after, and
/// the total's.
fn slow_down(dir: &Path) -> ((u64, u64), (u64, u64)) {
    let file = dir.join("results.jsonl");
    let mut changed = None;
    let lines: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|line| {
            let mut r: Value = serde_json::from_str(line).unwrap();
            if r["line"] == SLOWED_LINE {
                let phase = r["phases"][SLOWED_PHASE].as_u64().unwrap();
                let total = r["total_cycles"].as_u64().unwrap();
                let slower = phase + phase / 10;
                let more = slower - phase;
                r["phases"][SLOWED_PHASE] = slower.into();
                r["raw_phases"][SLOWED_PHASE] = (r["raw_phases"][SLOWED_PHASE].as_u64().unwrap() + more).into();
                r["total_cycles"] = (total + more).into();
                let bytes = r["bytes"].as_u64().unwrap();
                r["cycles_per_byte"] = (((total + more) as f64 / bytes as f64 * 100.0).round() / 100.0).into();
                changed = Some(((phase, slower), (total, total + more)));
            }
            r.to_string()
        })
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let ((phase, slower), (total, new_total)) = changed.expect("the slowed line has a record");

    // results.csv: the same record's row, as the writer writes it from the record.
    let csv_path = dir.join("results.csv");
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let mut writer = csv::Writer::from_path(&csv_path).unwrap();
    writer.write_record(&header).unwrap();
    for row in rows {
        let mut fields: Vec<String> = row.iter().map(str::to_owned).collect();
        if fields[column("line")] == SLOWED_LINE.to_string() {
            fields[column("total_cycles")] = new_total.to_string();
            fields[column("phases")] = fields[column("phases")]
                .replace(&format!("{SLOWED_PHASE}={phase}"), &format!("{SLOWED_PHASE}={slower}"));
            let bytes: f64 = fields[column("bytes")].parse().unwrap();
            fields[column("cycles_per_byte")] = format!("{:.2}", new_total as f64 / bytes);
        }
        writer.write_record(&fields).unwrap();
    }
    writer.flush().unwrap();

    let meta_path = dir.join("run.json");
    let mut meta: Value = serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    let started = chrono::DateTime::parse_from_rfc3339(meta["started"].as_str().unwrap()).unwrap();
    meta["started"] = (started + chrono::Duration::minutes(1)).to_rfc3339().into();
    std::fs::write(&meta_path, serde_json::to_string_pretty(&meta).unwrap()).unwrap();
    let o = cyclebench(&["report", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    ((phase, slower), (total, new_total))
}

fn history(runs: &[&PathBuf], out: &Path, options: &[&str]) -> (String, String) {
    let mut args = vec!["history", "--out", out.to_str().unwrap()];
    args.extend(runs.iter().map(|r| r.to_str().unwrap()));
    args.extend_from_slice(options);
    let o = cyclebench(&args);
    assert!(o.status.success(), "{}", text(&o));
    let page = std::fs::read_to_string(out.join("history.html")).unwrap();
    (String::from_utf8(o.stdout).unwrap(), page)
}

fn position(page: &str, needle: &str) -> usize {
    page.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} missing in:\n{page}"))
}

#[test]
fn the_slower_step_is_marked_on_the_history_page() {
    let root = tempfile::tempdir().unwrap();
    let bench = root.path().join("history.bench");
    std::fs::write(&bench, BENCH).unwrap();
    let [first, second, third] = ["run-1", "run-2", "run-3"].map(|name| root.path().join(name));
    run(&bench, &first);
    run(&bench, &second);
    copy_run(&second, &third);
    let ((phase, slower), (total, new_total)) = slow_down(&third);
    let measured = records(&first).len();

    // Given out of order: the page orders the runs by when they started.
    let out = root.path().join("page");
    let (printed, page) = history(&[&third, &first, &second], &out, &[]);
    assert!(
        printed.contains(&format!(
            "(3 runs, {measured} benchmarks; 1 of 2 steps the gate would fail)"
        )),
        "{printed}"
    );
    for (i, name) in ["run-1", "run-2", "run-3"].iter().enumerate() {
        let link = format!(
            "<td class=\"n\">{}</td><td><a href=\"../{name}/report.html\">{name}</a></td>",
            i + 1
        );
        assert!(page.contains(&link), "{link} missing in:\n{page}");
    }
    // The list at the top names the step and the counts that grew, with the gate's words and
    // the numbers of the runs.
    let grew = |name: &str, from: u64, to: u64| {
        let percent = (to - from) as f64 * 100.0 / from as f64;
        format!("history.bench:{SLOWED_LINE}: {name} grew from {from} to {to} cycles (+{percent:.2}%)")
    };
    let steps = &page[position(&page, "<h2 id=\"failing\">")..position(&page, "<h2>Benchmarks</h2>")];
    for line in [grew("total", total, new_total), grew(SLOWED_PHASE, phase, slower)] {
        assert!(
            steps.contains(&format!(
                "<span class=\"marker\">✗ FAILS</span> run 2 → 3: <a href=\"#b1\">{line}</a>"
            )),
            "{line} missing in:\n{steps}"
        );
    }
    assert_eq!(steps.matches("✗ FAILS").count(), 2, "{steps}");
    // The benchmark's section and its cells are marked; no other benchmark is.
    assert_eq!(page.matches("<section id=\"b").count(), measured);
    assert_eq!(page.matches(" class=\"fails\"").count(), 1, "{page}");
    assert!(page.contains("<section id=\"b1\" class=\"fails\">"), "{page}");
    let cell = format!("<td class=\"n fail\">{slower}<br><small>+");
    assert!(page.contains(&cell), "{cell} missing");
    assert_eq!(page.matches("<br><span class=\"marker\">✗ gate</span></td>").count(), 2);
    // Offline: the only address is the SVG namespace, which is not fetched.
    assert_eq!(
        page.matches("http").count(),
        page.matches("xmlns=\"http://www.w3.org/2000/svg\"").count(),
        "the page refers to something outside itself"
    );
    assert!(!page.contains("<script") && !page.contains("<img"));

    // A limit above the growth marks nothing.
    let (printed, calm) = history(
        &[&first, &second, &third],
        &root.path().join("calm"),
        &["--fail-above", "20"],
    );
    assert!(printed.contains("0 of 2 steps the gate would fail"), "{printed}");
    assert!(calm.contains("<h2 id=\"failing\">Steps the gate would fail</h2>"));
    assert!(
        !calm.contains("✗ FAILS") && !calm.contains(" class=\"fails\""),
        "{calm}"
    );

    render_in_chromium(
        &out.join("history.html"),
        root.path(),
        measured,
        &grew("total", total, new_total),
    );
}

/// The page as a person sees it: every chart in the DOM, the failing step listed, and the
/// failing step's colour on the screen. Skipped, saying so, where Chromium is not installed.
fn render_in_chromium(page: &Path, work: &Path, benchmarks: usize, failing_line: &str) {
    let Some(browser) = common::chromium() else {
        eprintln!(
            "skipped: rendering history.html in headless Chromium (not installed; scripts/setup.sh installs \
             the Debian package `chromium`)"
        );
        return;
    };
    let dom = common::headless(&browser, page, "--dump-dom", 2400, work);
    assert!(dom.contains(failing_line), "{failing_line} missing in the DOM");
    assert_eq!(dom.matches("<svg").count(), benchmarks, "one chart per benchmark");
    let shot = work.join("history.png");
    common::headless(&browser, page, &format!("--screenshot={}", shot.display()), 2400, work);
    let (rgb, width, height) = common::screenshot_pixels(&shot);
    assert_eq!((width, height), (1280, 2400));
    let near = |p: &[u8], c: [u8; 3]| p.iter().zip(c).all(|(&a, b)| a.abs_diff(b) <= 12);
    let white = rgb.iter().filter(|p| near(p, [255, 255, 255])).count();
    assert!(white < rgb.len() * 97 / 100, "the screenshot is blank");
    // The failing benchmark comes first: its failing segments, markers and the border of its
    // section are painted in the failing colour.
    let failing = rgb.iter().filter(|p| near(p, [0xD5, 0x5E, 0x00])).count();
    assert!(
        failing > 1000,
        "the failing colour covers {failing} pixels of the screenshot"
    );
}
