//! Seed 3's offload study (OpenTitan as a security co-processor, Table I) re-measured on the
//! Earl Grey model: Table I's shape from our records beside the paper's rows, where the
//! remaining cycles go, direct against indirect-L1 addressing, and the overhead share and the
//! speed-up against payload size as plots.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use super::record::{Fields, Record, Status};
use super::reference::{self, OffloadRow, OFFLOAD_OVERHEAD_GOAL_PERCENT, TABLE_I_AES_CBC_256, TABLE_I_SHA256};
use super::results::{short_error, Run};
use crate::report::{line_plot, Line, LineChart};

/// The operations in table order, with their names in prose and the paper's rows.
const OPERATIONS: [(&str, &str, &[OffloadRow]); 3] = [
    ("sha256", "SHA-256", &TABLE_I_SHA256),
    ("aes-cbc-256", "AES-CBC-256", &TABLE_I_AES_CBC_256),
    ("sha3-256", "SHA3-256", &[]),
];

/// The designs, the paper's first.
const DESIGNS: [&str; 2] = ["staging", "streaming"];

/// Phases in the order the breakdown table shows them.
const PHASES: [(&str, &str); 8] = [
    ("host_submit", "host submit"),
    ("mailbox", "mailbox"),
    ("payload", "payload copy"),
    ("operation", "operation"),
    ("result_copy", "result copy"),
    ("handover", "hand-over"),
    ("completion", "completion"),
    ("host_drain", "host drain"),
];

/// One offload record's figures.
struct Offload<'a> {
    record: &'a Record,
    host: u64,
    device: u64,
    operation: u64,
    total: u64,
    overhead: f64,
    overhead_with_host: f64,
    software: u64,
    speedup: f64,
}

impl<'a> Offload<'a> {
    fn of(record: &'a Record) -> Option<Self> {
        Some(Self {
            record,
            host: record.number("host_cycles")?,
            device: record.number("device_overhead_cycles")?,
            operation: record.number("operation_cycles")?,
            total: record.number("offload_cycles")?,
            overhead: record.decimal("overhead_percent")?,
            overhead_with_host: record.decimal("overhead_with_host_percent")?,
            software: record.number("software_cycles")?,
            speedup: record.decimal("speedup")?,
        })
    }
}

/// What the run holds for one job: its figures, or why there are none.
enum Job<'a> {
    Measured(Offload<'a>),
    Failed(String),
    Missing,
}

fn job<'a>(run: &'a Run, operation: &str, bytes: u64, addressing: &str, design: &str) -> Job<'a> {
    let found = run.records.iter().find(|r| {
        r.kind() == "offload"
            && r.text("operation") == Some(operation)
            && r.number("payload_bytes") == Some(bytes)
            && r.text("addressing") == Some(addressing)
            && r.text("design") == Some(design)
    });
    match found {
        None => Job::Missing,
        Some(r) if r.outcome() != Status::Ok => Job::Failed(short_error(r)),
        Some(r) => Offload::of(r).map_or(Job::Failed(String::from("fields missing")), Job::Measured),
    }
}

/// Payload sizes the run measured for `operation`, ascending.
fn sizes(run: &Run, operation: &str) -> Vec<u64> {
    let mut sizes: Vec<u64> = run
        .records
        .iter()
        .filter(|r| r.kind() == "offload" && r.text("operation") == Some(operation))
        .filter_map(|r| r.number("payload_bytes"))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// Writes the section; draws its plots into `figures` when given (the document links them as
/// `figures/<name>.svg`).
pub(super) fn write(w: &mut String, run: &Run, figures: Option<&Path>) -> Result<()> {
    let _ = writeln!(
        w,
        "## Seed 3's offload study on the Earl Grey model\n\n\
         Results: `{}`. The paper measured {}; we measure {}, with the host's steps played by \
         the same Ibex and the mailbox, host memory and SPM carved out of the chip's RAM \
         ([offload.md](offload.md) defines every phase and says what stands in for what). \
         Cycles are corrected medians. *Host* is our host stand-in (the paper's CVA6 column: its \
         cycles have no counterpart on this chip), *chip overhead* the firmware's mailbox, \
         payload copy, result copy, hand-over and completion (the paper's IBEX column), \
         *operation* the accelerator driven from configuration to last output. *Overhead* is \
         chip overhead over chip overhead plus operation; *with host* adds the host to both, as \
         the paper's overhead column does. *Software* is the same job by RustCrypto on the same \
         Ibex (instruction cache on and warm); the speed-up is software over host plus chip \
         overhead plus operation. Paper rows quote Table I; its chip-side overhead share is \
         computed from its columns.\n",
        run.dir.display(),
        reference::OFFLOAD_PLATFORM,
        reference::EARLGREY_MODEL,
    );
    for (operation, name, paper) in OPERATIONS {
        table(w, run, operation, name, paper);
    }
    breakdown(w, run);
    addressing(w, run);
    goal(w, run);
    if let Some(dir) = figures {
        plots(w, run, dir)?;
    }
    Ok(())
}

fn table(w: &mut String, run: &Run, operation: &str, name: &str, paper: &[OffloadRow]) {
    let _ = writeln!(
        w,
        "### Table I — {name}, direct addressing\n\n\
         | payload (B) | design | host | chip overhead | operation | total | overhead | with host | software | speed-up |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let mut sizes = sizes(run, operation);
    sizes.extend(paper.iter().map(|p| p.bytes));
    sizes.sort_unstable();
    sizes.dedup();
    for bytes in sizes {
        if let Some(p) = paper.iter().find(|p| p.bytes == bytes) {
            let chip_share = p.ibex as f64 * 100.0 / (p.ibex + p.operation) as f64;
            let _ = writeln!(
                w,
                "| {bytes} | paper | {} | {} | {} | {} | {chip_share:.1} % | {:.1} % | {} | {:.1} |",
                p.cva6, p.ibex, p.operation, p.total, p.overhead_percent, p.software, p.speedup
            );
        }
        for design in DESIGNS {
            match job(run, operation, bytes, "direct", design) {
                Job::Measured(o) => {
                    let _ = writeln!(
                        w,
                        "| {bytes} | {design} | {} | {} | {} | {} | {:.1} % | {:.1} % | {}{} | {:.1} |",
                        o.host,
                        o.device,
                        o.operation,
                        o.total,
                        o.overhead,
                        o.overhead_with_host,
                        o.software,
                        if o.record.number("software_reused") == Some(1) {
                            "¹"
                        } else {
                            ""
                        },
                        o.speedup
                    );
                }
                Job::Failed(why) => {
                    let _ = writeln!(w, "| {bytes} | {design} | error: {why} | | | | | | | |");
                }
                Job::Missing => {}
            }
        }
    }
    let _ = writeln!(
        w,
        "\n¹ software cycles of an earlier run of the same job on the same model instance.\n"
    );
}

/// Where the cycles go at the paper's largest size.
fn breakdown(w: &mut String, run: &Run) {
    let _ = writeln!(w, "### Where the cycles go — 4096 B, direct addressing\n");
    let mut header = String::from("| job | design |");
    let mut rule = String::from("|---|---|");
    for (_, label) in PHASES {
        let _ = write!(header, " {label} |");
        rule.push_str("---:|");
    }
    let _ = writeln!(w, "{header}\n{rule}");
    for (operation, name, _) in OPERATIONS {
        for design in DESIGNS {
            if let Job::Measured(o) = job(run, operation, 4096, "direct", design) {
                let mut row = format!("| {name} | {design} |");
                for (phase, _) in PHASES {
                    let _ = write!(
                        row,
                        " {} |",
                        o.record
                            .corrected_phase(phase)
                            .map_or(String::from("—"), |c| c.to_string())
                    );
                }
                let _ = writeln!(w, "{row}");
            }
        }
    }
    let _ = writeln!(w);
}

/// Direct against indirect-L1 addressing: the mailbox phase, where the index page is read.
fn addressing(w: &mut String, run: &Run) {
    let mut rows = Vec::new();
    for (operation, name, _) in OPERATIONS {
        for bytes in sizes(run, operation) {
            for design in DESIGNS {
                let (Job::Measured(direct), Job::Measured(indirect)) = (
                    job(run, operation, bytes, "direct", design),
                    job(run, operation, bytes, "indirect-l1", design),
                ) else {
                    continue;
                };
                let mailbox = |o: &Offload| o.record.corrected_phase("mailbox").unwrap_or(0);
                rows.push(format!(
                    "| {name} | {bytes} | {design} | {} | {} | {} | {} |",
                    mailbox(&direct),
                    mailbox(&indirect),
                    direct.total,
                    indirect.total
                ));
            }
        }
    }
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "### Direct and indirect-L1 addressing\n\n\
         | job | payload (B) | design | mailbox, direct | mailbox, indirect-L1 | total, direct | total, indirect-L1 |\n\
         |---|---:|---|---:|---:|---:|---:|\n{}\n",
        rows.join("\n")
    );
}

/// The streaming design at 4 KiB against the goal and the paper.
fn goal(w: &mut String, run: &Run) {
    let _ = writeln!(w, "### The streaming design at 4096 B\n");
    let goals = [
        ("sha256", "SHA-256", OFFLOAD_OVERHEAD_GOAL_PERCENT.0, &TABLE_I_SHA256[2]),
        (
            "aes-cbc-256",
            "AES-CBC-256",
            OFFLOAD_OVERHEAD_GOAL_PERCENT.1,
            &TABLE_I_AES_CBC_256[2],
        ),
    ];
    for (operation, name, limit, paper) in goals {
        let sentence = match (
            job(run, operation, 4096, "direct", "streaming"),
            job(run, operation, 4096, "direct", "staging"),
        ) {
            (Job::Measured(s), staged) => {
                let versus = match staged {
                    Job::Measured(c) => format!(" (staging: {:.1} %)", c.overhead),
                    _ => String::new(),
                };
                format!(
                    "- {name}: chip-side overhead {:.1} %{versus}, goal at most {limit:.0} %: {}; \
                     with the host stand-in {:.1} % (paper, with its host: {:.1} %). Speed-up \
                     against software on the same Ibex {:.1}×, paper {:.1}×: {}.",
                    s.overhead,
                    if s.overhead <= limit { "met" } else { "not met" },
                    s.overhead_with_host,
                    paper.overhead_percent,
                    s.speedup,
                    paper.speedup,
                    if s.speedup >= paper.speedup {
                        "at least the paper's"
                    } else {
                        "below the paper's"
                    },
                )
            }
            (Job::Failed(why), _) => format!("- {name}: error: {why}"),
            (Job::Missing, _) => format!("- {name}: not run"),
        };
        let _ = writeln!(w, "{sentence}");
    }
    let _ = writeln!(w);
}

/// Overhead share and speed-up against payload size, one line per job and design.
fn plots(w: &mut String, run: &Run, dir: &Path) -> Result<()> {
    let series = |value: fn(&Offload) -> f64| {
        let mut lines = Vec::new();
        for (operation, name, _) in OPERATIONS {
            for design in DESIGNS {
                let points: Vec<(f64, f64)> = sizes(run, operation)
                    .into_iter()
                    .filter_map(|bytes| match job(run, operation, bytes, "direct", design) {
                        Job::Measured(o) => Some((bytes as f64 / 1024.0, value(&o))),
                        _ => None,
                    })
                    .collect();
                if !points.is_empty() {
                    lines.push(Line {
                        label: format!("{name}, {design}"),
                        points,
                    });
                }
            }
        }
        lines
    };
    let charts = [
        LineChart {
            name: String::from("offload-overhead"),
            title: String::from("Chip-side overhead share against payload size (direct addressing)"),
            x_desc: String::from("payload (KiB)"),
            y_desc: String::from("overhead (% of chip-side cycles)"),
            lines: series(|o| o.overhead),
        },
        LineChart {
            name: String::from("offload-speedup"),
            title: String::from("Speed-up against software on the same Ibex (direct addressing)"),
            x_desc: String::from("payload (KiB)"),
            y_desc: String::from("speed-up (software / offload)"),
            lines: series(|o| o.speedup),
        },
    ];
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for chart in charts {
        if chart.lines.is_empty() {
            continue;
        }
        let plot = line_plot(&chart)?;
        let path = dir.join(format!("{}.svg", plot.name));
        std::fs::write(&path, &plot.svg).with_context(|| format!("writing {}", path.display()))?;
        let _ = writeln!(w, "![{}](figures/{}.svg)\n", chart.title, plot.name);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::reproduction::testdata::{line, run_of};

    /// An offload record with the fields the writer computes, from corrected phases.
    fn record(operation: &str, bytes: u64, design: &str, phases: [u64; 8], software: u64) -> Value {
        let names = PHASES.map(|(n, _)| n);
        let device = phases[1] + phases[2] + phases[4] + phases[5] + phases[6];
        let host = phases[0] + phases[7];
        let total: u64 = phases.iter().sum();
        let share = |part: u64, whole: u64| (part as f64 * 10000.0 / whole as f64).round() / 100.0;
        let mut r = json!({"status": "ok", "target": "earlgrey-sim-unmasked", "platform": "earlgrey",
            "file": "benchmarks/offload/table1.bench", "line": 1, "request": "{}",
            "benchmark": "offload", "dataset": null, "config": format!("{operation} direct {design}"),
            "module": "sha2", "implementation": "hardware", "verified": true, "check": "known_answer",
            "cycle_accurate": true, "repetitions": 1, "overhead": 1, "statistics": null,
            "total_cycles": total, "bytes": bytes, "firmware_revision": "test",
            "timestamp": "2026-11-24T06:00:00+00:00",
            "operation": operation, "payload_bytes": bytes, "addressing": "direct", "design": design,
            "operation_cycles": phases[3], "device_overhead_cycles": device, "host_cycles": host,
            "offload_cycles": total, "overhead_percent": share(device, device + phases[3]),
            "overhead_with_host_percent": share(device + host, total), "software_cycles": software,
            "software_reused": 0, "speedup": (software as f64 * 100.0 / total as f64).round() / 100.0,
            "handovers": 0});
        for (name, cycles) in names.iter().zip(phases) {
            r["phases"][*name] = json!(cycles);
            r["raw_phases"][*name] = json!(cycles + 1);
        }
        r
    }

    #[test]
    fn table_i_sits_beside_the_paper_and_the_goal_is_judged_from_the_records() {
        let records = [
            record("sha256", 4096, "staging", [30, 80, 4600, 5900, 17, 0, 11, 47], 352_000),
            record("sha256", 4096, "streaming", [30, 80, 0, 5900, 0, 0, 11, 47], 352_000),
            record(
                "aes-cbc-256",
                4096,
                "streaming",
                [30, 80, 0, 15000, 0, 0, 4000, 4500],
                1_200_000,
            ),
        ];
        let (_dir, run) = run_of(&records, None);
        let figures = tempfile::tempdir().unwrap();
        let mut out = String::new();
        write(&mut out, &run, Some(figures.path())).unwrap();
        // The paper's row, with its chip-side share computed from its columns: 801 / 41195.
        assert_eq!(
            line(&out, "### Table I — SHA-256", "| 4096 | paper |"),
            "| 4096 | paper | 1263 | 801 | 40394 | 42458 | 1.9 % | 4.9 % | 541516 | 12.8 |"
        );
        // Ours: chip overhead 80 + 4600 + 17 + 11 of 10608 cycles; total 10685.
        assert_eq!(
            line(&out, "### Table I — SHA-256", "| 4096 | staging |"),
            "| 4096 | staging | 77 | 4708 | 5900 | 10685 | 44.4 % | 44.8 % | 352000 | 32.9 |"
        );
        // Streaming SHA-256: 91 of 5991 chip-side cycles is within 5 %; AES's 4080 of 19080
        // is not within 20 %.
        let sha = line(&out, "### The streaming design", "- SHA-256");
        assert!(
            sha.contains("chip-side overhead 1.5 % (staging: 44.4 %), goal at most 5 %: met"),
            "{sha}"
        );
        let aes = line(&out, "### The streaming design", "- AES-CBC-256");
        assert!(
            aes.contains("chip-side overhead 21.4 %, goal at most 20 %: not met"),
            "{aes}"
        );
        assert!(aes.contains("at least the paper's"), "{aes}");
        assert!(figures.path().join("offload-overhead.svg").exists());
        assert!(out.contains(
            "![Speed-up against software on the same Ibex (direct addressing)](figures/offload-speedup.svg)"
        ));
    }

    #[test]
    fn a_failed_job_shows_its_error_and_sizes_without_results_are_left_out() {
        let mut failed = record("aes-cbc-256", 2048, "staging", [0; 8], 0);
        failed["status"] = json!("error");
        failed["error"] = json!("suite error (Timeout): aes: timed out waiting for output");
        let (_dir, run) = run_of(&[failed], None);
        let mut out = String::new();
        write(&mut out, &run, None).unwrap();
        assert_eq!(
            line(&out, "### Table I — AES-CBC-256", "| 2048 | staging |"),
            "| 2048 | staging | error: suite error (Timeout) | | | | | | | |"
        );
        assert!(!out.contains("| 8192 |"), "{out}");
        assert!(out.contains("- AES-CBC-256: not run"), "{out}");
    }
}
