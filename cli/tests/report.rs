//! `cyclebench report` and `cyclebench compare` on stored results: `fixtures/qemu-virt` is a
//! real qemu-virt run of `fixtures/qemu-virt.bench`, `fixtures/qemu-virt-edited` the same
//! hand-edited (see `fixtures/README.md`), `fixtures/hw-sw` hand-made hardware/software pairs.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};

use serde_json::Value;

use common::{cyclebench, text};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A copy of a fixture directory: the report is written next to the results.
fn copy_of(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture(name).join("results.jsonl"), dir.path().join("results.jsonl")).unwrap();
    dir
}

fn report(dir: &Path) -> String {
    let o = cyclebench(&["report", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::read_to_string(dir.join("report.md")).unwrap()
}

fn assert_has(haystack: &str, needle: &str) {
    assert!(haystack.contains(needle), "missing {needle:?} in:\n{haystack}");
}

/// Plot names referenced by `report.md`, each checked to exist as SVG and PNG.
fn plots(dir: &Path, markdown: &str) -> Vec<String> {
    let names: Vec<String> = markdown
        .lines()
        .filter_map(|l| l.strip_prefix("!["))
        .filter_map(|l| l.split("](plots/").nth(1))
        .map(|l| l.trim_end_matches(".png)").to_owned())
        .collect();
    for name in &names {
        let svg = std::fs::read_to_string(dir.join(format!("plots/{name}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<rect"), "{name}.svg");
        let decoder = png::Decoder::new(std::io::BufReader::new(
            File::open(dir.join(format!("plots/{name}.png"))).unwrap(),
        ));
        let info = decoder.read_info().unwrap().info().clone();
        assert!(
            info.width >= 1000 && info.height >= 150,
            "{name}.png is {}x{}",
            info.width,
            info.height
        );
    }
    names
}

#[test]
fn report_of_a_qemu_run_shows_its_numbers() {
    let dir = copy_of("qemu-virt");
    let md = report(dir.path());
    // Header.
    assert_has(&md, "| target | qemu-virt |");
    assert_has(&md, "| platform | qemu-virt |");
    assert_has(
        &md,
        "| module implementations | sha2: rustcrypto-sha2 (software), sha3: rustcrypto-sha3 (software), \
         aes: rustcrypto-aes (software), rng: ctr-drbg-aes256 (software), entropy: unsupported |",
    );
    assert_has(
        &md,
        "| cycle-accurate | no: counts are functional indications, not clock cycles |",
    );
    assert_has(
        &md,
        "| calibrated overhead | 4 cycles per measurement window, subtracted from every phase |",
    );
    assert_has(&md, "| firmware revision | 2e89b5911a38-dirty |");
    assert_has(&md, "| requests | 11 measured, 1 unsupported, 1 failed |");
    assert_has(&md, "> **Not cycle-accurate.**");
    // Results, corrected medians in execution order.
    assert_has(
        &md,
        "| qemu-virt.bench:6 | hash | msg-256 sha2 api-conform | rustcrypto-sha2 (software) | 1 | yes | \
         init 93, input 25786, await_digest 6401, read_digest 123 | 32403 | 256 | 126.57 |",
    );
    assert_has(
        &md,
        "| qemu-virt.bench:12 | rng_seeded | seed384-3x128 seeded | ctr-drbg-aes256 (software) | 1 | yes | \
         init 40130, generate1 35486, read1 304, generate2 35501, read2 105, generate3 35501, read3 105 | \
         147132 | 48 | 3065.25 |",
    );
    // The empty message has no cycles per byte: the cell stays empty.
    assert_has(&md, "| 6631 | 0 |  |");
    // Cycles per byte for both hash algorithms; the 0-byte message has none.
    assert_has(
        &md,
        "| sha2 api-conform (rustcrypto-sha2) | abc | 3 | 6701 | 2233.67 | qemu-virt.bench:4 |",
    );
    assert_has(
        &md,
        "| sha2 api-conform (rustcrypto-sha2) | abc-448 | 56 | 12977 | 231.73 | qemu-virt.bench:5 |",
    );
    assert_has(
        &md,
        "| sha2 api-conform (rustcrypto-sha2) | msg-256 | 256 | 32403 | 126.57 | qemu-virt.bench:6 |",
    );
    assert_has(
        &md,
        "| sha3 api-conform (rustcrypto-sha3) | abc | 3 | 17793 | 5931.00 | qemu-virt.bench:8 |",
    );
    assert!(!md.contains("| empty | 0 |"), "{md}");
    // Statistics with the mean (not cycle-accurate), and why there is no σ.
    assert_has(&md, "| phase | n | min | median | max | mean |");
    assert_has(
        &md,
        "| qemu-virt.bench:7 | hash | msg-256 sha2 tight | input | 5 | 25851 | 25851 | 25851 | 25851.00 |",
    );
    assert_has(
        &md,
        "| qemu-virt.bench:11 | aes | ecb-128-5b encrypt total manual | process | 4 | 27047 | 27047 | 27047 | 27047.00 |",
    );
    assert_has(&md, "σ cannot be computed from what was measured");
    // Unsupported and failed requests: their reason and error, no numbers.
    assert_has(
        &md,
        "| qemu-virt.bench:13 | rng_true_random | entropy-seeded 3 blocks | unsupported | qemu-virt has no entropy source |",
    );
    assert_has(
        &md,
        "| qemu-virt.bench:15 | invalid |  | error | invalid line: not JSON: expected ident at line 1 column 2 |",
    );
    assert_eq!(md.matches("| qemu-virt.bench:13 |").count(), 1, "{md}");
    assert_has(&md, "Not charted: micro");
    assert_has(&md, "No operation was run both in hardware and in software here");
    // Four phase charts (hash, AES per block, AES total, RNG) and one cycles-per-byte chart.
    let names = plots(dir.path(), &md);
    assert_eq!(
        names,
        [
            "phases-01-qemu-virt-hash",
            "phases-02-qemu-virt-aes",
            "phases-03-qemu-virt-aes",
            "phases-04-qemu-virt-rng-seeded",
            "cpb-hash"
        ]
    );
    let svg = std::fs::read_to_string(dir.path().join("plots/phases-01-qemu-virt-hash.svg")).unwrap();
    assert_has(&svg, "msg-256 sha2 api-conform (line 6)");
    assert_has(&svg, "32403");
}

#[test]
fn report_of_hardware_and_software_runs_shows_the_speed_up() {
    let dir = copy_of("hw-sw");
    let md = report(dir.path());
    assert_has(&md, "| cycle-accurate | yes: counts are clock cycles |");
    assert_has(
        &md,
        "| calibrated overhead | 8 cycles per measurement window, subtracted from every phase |",
    );
    assert_has(&md, "| date | 2026-11-30 10:00:03 to 10:00:08 (+01:00) |");
    assert!(!md.contains("Not cycle-accurate"), "{md}");
    assert_has(
        &md,
        "| hash msg-256 sha2 api-conform | rustcrypto-sha2 (hw_sw.bench:4) | 62060 | hmac (hw_sw.bench:3) | 1640 | 37.84x |",
    );
    assert_has(
        &md,
        "| aes ecb-128-5b encrypt total manual | rustcrypto-aes (hw_sw.bench:6) | 40010 | aes (hw_sw.bench:5) | 1070 | 37.39x |",
    );
    // Cycle-accurate: n/min/median/max, no mean column.
    assert_has(&md, "| phase | n | min | median | max |\n");
    assert_has(
        &md,
        "| hw_sw.bench:7 | hash | msg-256 sha2 tight | input | 10 | 1205 | 1210 | 1290 |\n",
    );
    assert_has(
        &md,
        "| hw_sw.bench:8 | rng_true_random | entropy-seeded 3 blocks | error | suite error (Timeout): entropy_src did not become ready |",
    );
    assert_eq!(
        plots(dir.path(), &md),
        ["phases-01-hw-sw-hash", "phases-02-hw-sw-aes", "speedup"]
    );
    let svg = std::fs::read_to_string(dir.path().join("plots/speedup.svg")).unwrap();
    assert_has(&svg, "37.84x");
    // Bars of one chart that mix implementations name them.
    let phases = std::fs::read_to_string(dir.path().join("plots/phases-01-hw-sw-hash.svg")).unwrap();
    assert_has(&phases, "msg-256 sha2 api-conform on hmac (line 3)");
}

/// The rows of the table under the `## ` heading `title` of a report, each a line.
fn table_rows<'a>(markdown: &'a str, title: &str) -> Vec<&'a str> {
    let heading = format!("## {title}\n");
    let section = &markdown[markdown
        .find(&heading)
        .unwrap_or_else(|| panic!("no {title:?} in:\n{markdown}"))..];
    section
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .collect()
}

#[test]
fn beside_an_implementation_of_its_own_each_hardware_and_software_pair_is_shown_once() {
    // A real run on earlgrey-sim-unmasked (fixtures/README.md): a C SHA-256 given with
    // `--impl` (line 3), the HMAC block (line 9) and RustCrypto (line 10) at four sizes.
    let dir = copy_of("earlgrey-sha256-c");
    let md = report(dir.path());
    let pairs = table_rows(&md, "Hardware against software");
    assert_eq!(
        pairs,
        [
            "| hash sha2 api-conform 0 B seed 0 | rustcrypto-sha2 (sha256-c.bench:10[1]) | 5893 | hmac (sha256-c.bench:9[1]) | 162 | 36.38x |",
            "| hash sha2 api-conform 64 B seed 0 | rustcrypto-sha2 (sha256-c.bench:10[2]) | 11946 | hmac (sha256-c.bench:9[2]) | 393 | 30.40x |",
            "| hash sha2 api-conform 256 B seed 0 | rustcrypto-sha2 (sha256-c.bench:10[3]) | 29319 | hmac (sha256-c.bench:9[3]) | 933 | 31.42x |",
            "| hash sha2 api-conform 1024 B seed 0 | rustcrypto-sha2 (sha256-c.bench:10[4]) | 99208 | hmac (sha256-c.bench:9[4]) | 3093 | 32.08x |",
        ],
        "{md}"
    );
    // The chart has a bar per pair.
    let svg = std::fs::read_to_string(dir.path().join("plots/speedup.svg")).unwrap();
    for factor in ["36.38x", "30.40x", "31.42x", "32.08x"] {
        assert_eq!(svg.matches(factor).count(), 1, "{factor} in speedup.svg");
    }
    // The implementation is set beside each of the two once, and every result names what ran.
    for row in table_rows(&md, "Your implementations") {
        assert_eq!(row.matches("hmac (hardware) at sha256-c.bench:9[").count(), 1, "{row}");
        assert_eq!(
            row.matches("rustcrypto-sha2 (software) at sha256-c.bench:10[").count(),
            1,
            "{row}"
        );
    }
    let results = table_rows(&md, "Results");
    assert_eq!(results.len(), 12, "{md}");
    for row in results {
        let what = row.split(" | ").nth(3).unwrap();
        let expected = match row.split(['[', ':']).nth(1) {
            Some("3") => "sha256-c (--impl)",
            Some("9") => "hmac (hardware)",
            _ => "rustcrypto-sha2 (software)",
        };
        assert_eq!(what, expected, "{row}");
    }
}

/// The rows of the public-key table of a report: (location, software cell, speed-up cell).
fn pubkey_rows(markdown: &str) -> Vec<(String, String, String)> {
    let table = &markdown[markdown
        .find("## Public-key operations against software")
        .expect("the pubkey section")..];
    table
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let n = cells.len();
            (cells[1].to_owned(), cells[n - 3].to_owned(), cells[n - 2].to_owned())
        })
        .collect()
}

#[test]
fn report_of_the_otbn_sets_pairs_every_suite_vector_and_says_why_a_users_vector_has_no_pair() {
    // A real run of benchmarks/otbn/*.bench on earlgrey-sim-unmasked (fixtures/README.md).
    let dir = copy_of("studies/otbn");
    let markdown = report(dir.path());
    let rows = pubkey_rows(&markdown);
    assert!(rows.len() >= 20, "{markdown}");
    for (location, software, speedup) in &rows {
        if location.starts_with("vectors.bench") {
            assert_eq!(software, "none: a vector of your own", "{location}");
            assert_eq!(speedup, "", "{location}");
        } else if location.starts_with("rsa_decrypt_2048.bench") {
            // Its counterpart is measured on ibex-sim only.
            assert_eq!(software, "not measured here", "{location}");
        } else {
            assert!(speedup.ends_with('×'), "{location}: {speedup:?}");
        }
    }
    assert_has(&markdown, "No software record on this platform for: rsa-2048-decrypt");
}

#[test]
fn a_directory_without_results_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = cyclebench(&["report", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_has(&text(&o), "results.jsonl");
}

/// The Chromium binary; the test that renders the HTML report cannot do without it.
fn chromium() -> PathBuf {
    common::chromium().expect(
        "chromium is not installed: the HTML report test renders the page in headless Chromium. \
         Install it with scripts/setup.sh (Debian package `chromium`).",
    )
}

/// Runs headless Chromium on `page` with `action` (`--dump-dom` or `--screenshot=FILE`) and
/// returns what it printed; fails after two minutes.
fn headless(page: &Path, action: &str, work: &Path) -> String {
    common::headless(&chromium(), page, action, 2000, work)
}

#[test]
fn the_html_report_renders_its_plots_in_chromium() {
    let dir = copy_of("qemu-virt");
    let md = report(dir.path());
    let plot_count = plots(dir.path(), &md).len();
    let page = dir.path().join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: the only address in the page is the SVG namespace, which is not fetched.
    assert_eq!(
        html.matches("http").count(),
        html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count(),
        "the report refers to something outside itself"
    );
    assert!(!html.contains("<img") && !html.contains("<script"), "{html}");

    let dom = headless(&page, "--dump-dom", dir.path());
    assert_has(&dom, "cyclebench report: qemu-virt on qemu-virt");
    assert_eq!(
        dom.matches("<svg").count(),
        plot_count,
        "inline plots in the rendered DOM"
    );
    assert!(dom.matches("<rect").count() > 40, "the plots' bars are in the DOM");
    assert_has(&dom, "25851.00");

    let shot = dir.path().join("report.png");
    headless(&page, &format!("--screenshot={}", shot.display()), dir.path());
    let (rgb, width, height) = common::screenshot_pixels(&shot);
    assert_eq!((width, height), (1280, 2000));
    let near = |p: &[u8], c: [u8; 3]| p.iter().zip(c).all(|(&a, b)| a.abs_diff(b) <= 12);
    let white = rgb.iter().filter(|p| near(p, [255, 255, 255])).count();
    assert!(white < rgb.len() * 97 / 100, "the screenshot is blank");
    // The first chart's bars, in the colours of initialisation and computation, were painted.
    for (phase, colour) in [
        ("initialisation", [0x56, 0xB4, 0xE9]),
        ("computation", [0xD5, 0x5E, 0x00]),
    ] {
        let painted = rgb.iter().filter(|p| near(p, colour)).count();
        assert!(painted > 2000, "{phase} bars cover {painted} pixels of the screenshot");
    }
}

fn compare(a: &Path, b: &Path, format: &str) -> String {
    let o = cyclebench(&["compare", a.to_str().unwrap(), b.to_str().unwrap(), "--format", format]);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn row(json: &Value, line: u64) -> &Value {
    json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["line_a"] == line)
        .unwrap_or_else(|| panic!("no row for line {line}: {json:#}"))
}

#[test]
fn compare_flags_changes_beyond_the_measured_spread() {
    let json: Value =
        serde_json::from_str(&compare(&fixture("qemu-virt"), &fixture("qemu-virt-edited"), "json")).unwrap();
    let lines: Vec<u64> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line_a"].as_u64().unwrap())
        .collect();
    // Sorted by the change of the total: -5.5 %, -0.47 %, +0.04 %, then the unchanged, then
    // the rows without counts.
    assert_eq!(&lines[..3], [6, 7, 11]);
    assert_eq!(&lines[lines.len() - 2..], [13, 15]);

    // Single runs on a target that is not cycle-accurate: not judged.
    let single = &row(&json, 6)["total"];
    assert_eq!((single["a"].as_u64(), single["b"].as_u64()), (Some(32403), Some(30617)));
    assert!((single["ratio"].as_f64().unwrap() - 30617.0 / 32403.0).abs() < 1e-9);
    assert_eq!(single["verdict"], "not_judged");
    // Repeated on both sides, ranges apart: changed; the total's range is Σmin..Σmax.
    let apart = row(&json, 7);
    assert_eq!(apart["total"]["verdict"], "changed");
    assert_eq!(apart["total"]["a_range"], serde_json::json!([32468, 32468]));
    assert_eq!(apart["total"]["b_range"], serde_json::json!([32267, 32407]));
    let input = apart["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["phase"] == "input")
        .unwrap();
    assert_eq!((input["a"].as_u64(), input["b"].as_u64()), (Some(25851), Some(25700)));
    assert_eq!(input["b_range"], serde_json::json!([25650, 25790]));
    assert_eq!(input["verdict"], "changed");
    // Ranges that overlap: within the spread.
    let overlapping = &row(&json, 11)["total"];
    assert_eq!(
        (overlapping["a"].as_u64(), overlapping["b"].as_u64()),
        (Some(35047), Some(35060))
    );
    assert_eq!(overlapping["verdict"], "within_spread");
    // The same request with its keys in another order still matches.
    assert_eq!(row(&json, 4)["total"]["verdict"], "unchanged");
    // No counts on either side: the reason, and nothing else.
    let unsupported = row(&json, 13);
    assert!(unsupported["total"].is_null() && unsupported["phases"].as_array().unwrap().is_empty());
    assert_eq!(
        unsupported["note"],
        "A and B: unsupported (qemu-virt has no entropy source)"
    );
    // Benchmarks in one run only.
    assert_eq!(json["only_a"][0]["line"], 9);
    assert_eq!(json["only_a"][0]["key"]["config"], "sha3 api-conform");
    assert_eq!(json["only_b"][0]["line"], 16);
    assert_eq!(json["only_b"][0]["key"]["dataset"], "abc-448");
    let notes = json["notes"].to_string();
    assert!(notes.contains("A and B (qemu-virt) are not cycle-accurate"), "{notes}");
}

#[test]
fn on_a_cycle_accurate_target_any_change_of_a_single_run_is_real() {
    // The same fixtures as if both runs had come from a cycle-accurate target.
    let dirs: Vec<tempfile::TempDir> = ["qemu-virt", "qemu-virt-edited"]
        .iter()
        .map(|name| {
            let dir = tempfile::tempdir().unwrap();
            let text = std::fs::read_to_string(fixture(name).join("results.jsonl")).unwrap();
            let accurate: String = text
                .lines()
                .map(|l| {
                    let mut r: Value = serde_json::from_str(l).unwrap();
                    r["cycle_accurate"] = Value::Bool(true);
                    r.to_string() + "\n"
                })
                .collect();
            std::fs::write(dir.path().join("results.jsonl"), accurate).unwrap();
            dir
        })
        .collect();
    let json: Value = serde_json::from_str(&compare(dirs[0].path(), dirs[1].path(), "json")).unwrap();
    assert_eq!(row(&json, 6)["total"]["verdict"], "changed");
    assert_eq!(row(&json, 7)["total"]["verdict"], "changed");
    assert_eq!(row(&json, 11)["total"]["verdict"], "within_spread");
    assert!(
        !json["notes"].to_string().contains("not cycle-accurate"),
        "{}",
        json["notes"]
    );
}

#[test]
fn compare_prints_markdown_csv_and_a_terminal_table() {
    let (a, b) = (fixture("qemu-virt"), fixture("qemu-virt-edited"));
    let md = compare(&a, &b, "markdown");
    assert_has(
        &md,
        "| where | benchmark | dataset, configuration | phase | A | B | B/A | verdict |",
    );
    assert_has(
        &md,
        "| qemu-virt.bench:7 | hash | msg-256 sha2 tight | **total** | 32468 | 32317 [32267..32407] | 0.995 | CHANGED |",
    );
    assert_has(
        &md,
        "|  |  |  | input | 25851 | 25700 [25650..25790] | 0.994 | CHANGED |",
    );
    assert_has(
        &md,
        "| qemu-virt.bench:6 | hash | msg-256 sha2 api-conform | **total** | 32403 | 30617 | 0.945 | not judged |",
    );
    assert_has(&md, "- only in A: qemu-virt.bench:9 hash msg-256 sha3 api-conform");
    assert_has(&md, "- only in B: qemu-virt.bench:16 hash abc-448 sha3 api-conform");

    let csv = compare(&a, &b, "csv");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let get = |r: &csv::StringRecord, column: &str| r[header.iter().position(|h| h == column).unwrap()].to_owned();
    let input = rows
        .iter()
        .find(|r| get(r, "line_a") == "7" && get(r, "phase") == "input")
        .unwrap();
    assert_eq!(
        ["a", "b", "ratio", "a_min", "a_max", "b_min", "b_max", "verdict"].map(|c| get(input, c)),
        ["25851", "25700", "0.9942", "25851", "25851", "25650", "25790", "changed"]
    );
    let unsupported = rows.iter().find(|r| get(r, "line_a") == "13").unwrap();
    assert_eq!(get(unsupported, "a"), "");
    assert_eq!(
        get(unsupported, "note"),
        "A and B: unsupported (qemu-virt has no entropy source)"
    );

    let table = compare(&a, &b, "table");
    assert_has(&table, "CHANGED");
    assert_has(&table, "within spread");
    assert_has(&table, "32317 [32267..32407]");
    assert_has(
        &table,
        "12 benchmarks matched: 1 changed beyond the spread, 1 within the spread, 1 not judged, 7 unchanged",
    );
    assert_has(&table, "note: A and B (qemu-virt) are not cycle-accurate");
}

#[test]
fn run_writes_the_report_unless_told_not_to_and_a_failed_report_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec!["run", "--target", "qemu-virt", "--out", out.to_str().unwrap()];
        args.extend(extra);
        args.push("benchmarks/micro.bench");
        cyclebench(&args)
    };
    let with = dir.path().join("with");
    let o = run(&with, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_has(&text(&o), "report: ");
    assert!(with.join("report.md").is_file() && with.join("report.html").is_file());

    let without = dir.path().join("without");
    let o = run(&without, &["--no-report"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(without.join("results.jsonl").is_file() && !without.join("report.md").exists());

    // A file where the plots directory goes: the report fails, the run does not.
    let blocked = dir.path().join("blocked");
    std::fs::create_dir_all(&blocked).unwrap();
    std::fs::write(blocked.join("plots"), "not a directory").unwrap();
    let o = run(&blocked, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_has(&text(&o), "warning: no report written");
    assert_eq!(
        std::fs::read_to_string(blocked.join("results.jsonl"))
            .unwrap()
            .lines()
            .count(),
        2
    );
}

#[test]
fn a_record_cut_off_mid_write_is_skipped_with_a_warning() {
    // As a run killed (or out of disk space) in the middle of its last write leaves it.
    let dir = copy_of("qemu-virt");
    let file = dir.path().join("results.jsonl");
    let whole = std::fs::read_to_string(&file).unwrap();
    let last = whole.trim_end().rfind('\n').unwrap() + 1;
    let cut = last + (whole.len() - last) / 2;
    std::fs::write(&file, &whole[..cut]).unwrap();

    let o = cyclebench(&["report", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_has(&stderr, "warning: 1 line(s) of ");
    assert_has(
        &stderr,
        "(12 records read):\n  line 13: not a results record: EOF while parsing",
    );
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    // Every complete record is in the report, the cut one (the failed line) is not.
    assert_has(&md, "| requests | 11 measured, 1 unsupported, 0 failed |");

    let o = cyclebench(&[
        "compare",
        fixture("qemu-virt").to_str().unwrap(),
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_has(&String::from_utf8_lossy(&o.stderr), "line 13: not a results record");
}

#[test]
fn a_results_file_without_one_readable_record_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("results.jsonl"), "{\"status\":\"ok\",\n").unwrap();
    let o = cyclebench(&["report", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_has(
        &text(&o),
        "holds no readable record (1 line(s) skipped; line 1: not a results record",
    );
}
