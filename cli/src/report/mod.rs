//! `cyclebench report`: turns a results directory into `report.md` and `report.html`, with
//! the plots under `plots/` (SVG, and PNG for Markdown viewers that do not show SVG).
//!
//! One job per module: [`load`] reads `results.jsonl`, [`stats`] says what the numbers
//! mean, `records` what the model and the views both ask of a record, `model` works out
//! the report (`charts` holds the line charts' data, `growth` the cost growth of swept lines
//! with its fits), `plots` draws it and `render` fills the templates.
//! A kind with a section of its own (a chart or table only it has) has a module under
//! `views`, registered in `views/mod.rs`.

mod charts;
mod growth;
mod model;
mod placements;
mod plots;
mod records;
pub mod render;
pub mod stats;
mod views;

pub use plots::{lines as line_plot, register_font, Line, LineChart, FONT};

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Arguments of `cyclebench report`.
#[derive(clap::Args)]
pub struct Args {
    /// Results directory written by `cyclebench run` (or its results.jsonl).
    dir: PathBuf,
}

/// Files a report consists of.
#[derive(Debug)]
pub struct Written {
    /// `report.md`.
    pub markdown: PathBuf,
    /// `report.html`.
    pub html: PathBuf,
    /// Plots drawn (each as SVG and PNG).
    pub plots: usize,
}

/// Runs `cyclebench report`.
pub fn run(args: Args) -> Result<bool> {
    let written = write(&args.dir)?;
    println!(
        "report: {} and {} ({} plots)",
        written.markdown.display(),
        written.html.display(),
        written.plots
    );
    Ok(true)
}

/// Writes the report of the results in `dir` into `dir`.
pub fn write(dir: &Path) -> Result<Written> {
    let results = crate::results::load(dir)?;
    results.warn_about_skipped();
    let report = model::Report::build(&results);

    let mut drawn = Vec::new();
    for chart in &report.phase_charts {
        drawn.push(plots::phases(chart)?);
    }
    for chart in &report.cpb_charts {
        drawn.push(plots::cycles_per_byte(chart)?);
    }
    for chart in &report.growth_charts {
        drawn.push(plots::growth(chart)?);
    }
    for chart in report.views.iter().flat_map(|v| &v.line_charts) {
        drawn.push(plots::software(chart)?);
    }
    if let Some(name) = &report.speedup_chart {
        drawn.push(plots::speedups(name, &report.speedups)?);
    }

    let dir = &results.dir;
    let plot_dir = dir.join("plots");
    std::fs::create_dir_all(&plot_dir).with_context(|| format!("creating {}", plot_dir.display()))?;
    remove_old_plots(&plot_dir)?;
    for plot in &drawn {
        write_file(&plot_dir.join(format!("{}.svg", plot.name)), plot.svg.as_bytes())?;
        write_file(&plot_dir.join(format!("{}.png", plot.name)), &plot.png)?;
    }
    let markdown = dir.join("report.md");
    write_file(&markdown, render::markdown(&report)?.as_bytes())?;
    let html = dir.join("report.html");
    write_file(&html, render::html(&report, &drawn)?.as_bytes())?;
    Ok(Written {
        markdown,
        html,
        plots: drawn.len(),
    })
}

/// Plots of an earlier report of the same directory would be referenced by nothing and
/// mislead whoever browses `plots/`; only the report's own file types are removed.
fn remove_old_plots(plot_dir: &Path) -> Result<()> {
    for entry in std::fs::read_dir(plot_dir).with_context(|| format!("reading {}", plot_dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "svg" || e == "png") {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
        }
    }
    Ok(())
}

fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use cyclebench_protocol::{BenchmarkKind, ImplementationKind, LeakOperation, Primitive};

    use super::*;

    /// A software record as `cyclebench run` writes it (unused fields left out).
    fn software(line: usize, primitive: Primitive, variant: &str, size: &str, total: u64) -> String {
        format!(
            r#"{{"status":"ok","target":"ibex-sim","platform":"ibex-sim","file":"sw.bench","line":{line},"benchmark":"{kind}","module":"cpu","implementation":"{implementation}","verified":true,"cycle_accurate":true,"repetitions":1,"overhead":4,"phases":{{"run":{total}}},"total_cycles":{total},{size},"primitive":"{primitive}","variant":"{variant}","stack_bytes":{},"code_symbol":"cb_{primitive}_{variant}","code_bytes":{},"firmware_revision":"abc","timestamp":"2026-11-22T03:19:21+00:00"}}"#,
            300 + line,
            7000 + line,
            kind = BenchmarkKind::Software.name(),
            implementation = ImplementationKind::Software.name(),
            primitive = primitive.name(),
        )
    }

    /// A record of a kind without a view of its own, written before records carried most
    /// of their fields.
    fn old(line: usize, kind: BenchmarkKind, rest: &str) -> String {
        format!(
            r#"{{"file":"old.bench","line":{line},"benchmark":"{}",{rest}}}"#,
            kind.name()
        )
    }

    #[test]
    fn software_results_get_their_plots_and_table() {
        use Primitive::{Chacha20, MpAddFull, MpMulSchoolbook};
        let dir = tempfile::tempdir().unwrap();
        let lines = [
            software(1, MpAddFull, "rust", r#""limbs":2"#, 65),
            software(2, MpAddFull, "rust", r#""limbs":4"#, 108),
            software(3, MpMulSchoolbook, "rv32i", r#""limbs":2"#, 176),
            software(4, MpMulSchoolbook, "rv32i", r#""limbs":4"#, 470),
            software(5, Chacha20, "zbb", r#""bytes":64,"cycles_per_byte":28.17"#, 1803),
            software(6, Chacha20, "zbb", r#""bytes":4096,"cycles_per_byte":22.54"#, 92334),
            // Older records: none of the software fields.
            old(
                1,
                BenchmarkKind::Hash,
                r#""status":"ok","phases":{"init":9,"input":20}"#,
            ),
            old(2, BenchmarkKind::Aes, r#""status":"unsupported","reason":"no AES""#),
        ];
        std::fs::write(dir.path().join("results.jsonl"), lines.join("\n")).unwrap();
        let written = write(dir.path()).unwrap();
        assert_eq!(written.plots, 4);
        for name in [
            "software-mp-addition",
            "software-mp-multiplication",
            "software-cycles-per-byte",
        ] {
            for ext in ["svg", "png"] {
                let path = dir.path().join(format!("plots/{name}.{ext}"));
                assert!(path.is_file(), "{} missing", path.display());
            }
        }
        let md = std::fs::read_to_string(&written.markdown).unwrap();
        assert!(md.contains("## Software primitives"), "{md}");
        assert!(md.contains("![Multi-precision addition: cycles against limbs](plots/software-mp-addition.png)"));
        assert!(md.contains("| where | primitive | variant | length | runs | verified | cycles | cycles/byte | stack bytes | code | code bytes |"));
        let (chacha, mul) = (Chacha20.name(), MpMulSchoolbook.name());
        let row = format!(
            "| sw.bench:6 | {chacha} | zbb | 4096 B | 1 | yes | 92334 | 22.54 | 306 | cb_{chacha}_zbb | 7006 |"
        );
        assert!(md.contains(&row), "{md}");
        let row = format!("| sw.bench:3 | {mul} | rv32i | 2 limbs | 1 | yes | 176 |  | 303 | cb_{mul}_rv32i | 7003 |");
        assert!(md.contains(&row), "{md}");
        // No cycles-per-byte chart of datasets: the note says where the primitives are.
        assert!(
            md.contains("software primitives are charted under\nSoftware primitives."),
            "{md}"
        );
        let html = std::fs::read_to_string(&written.html).unwrap();
        let cells = format!("<td class=\"n\">306</td><td><code>cb_{chacha}_zbb</code></td><td class=\"n\">7006</td>");
        assert!(html.contains(&cells));
        // The software set draws no phase chart; the old hash record does.
        assert!(dir.path().join("plots/phases-01-old-hash.svg").is_file());
        assert!(!md.contains("phases-02"), "{md}");
    }

    /// A leakage record as `cyclebench run` writes it (unused fields left out); `t` is the
    /// JSON of `max_abs_t` and the fields beside it.
    fn leakage(line: usize, operation: LeakOperation, t: &str, test: u64, verdict: &str, means: (f64, f64)) -> String {
        format!(
            r#"{{"status":"ok","target":"ibex-sim","platform":"ibex-sim","file":"leak.bench","line":{line},"benchmark":"{kind}","module":"cpu","implementation":"{implementation}","verified":true,"cycle_accurate":true,"repetitions":1,"overhead":4,"phases":{{}},"total_cycles":0,"operation":"{operation}","variant":"rv32i","secret":"data","seed":1,"measurements":10000,"max_abs_t":{t},"max_abs_t_test":{test},"verdict":"{verdict}","class0_count":5000,"class0_mean":{},"class0_variance":0.0,"class1_count":5000,"class1_mean":{},"class1_variance":0.25,"entry":1234,"code_symbol":"cb_{operation}_rv32i","code_bytes":66,"firmware_revision":"abc","timestamp":"2026-11-22T03:19:21+00:00"}}"#,
            means.0,
            means.1,
            kind = BenchmarkKind::Leakage.name(),
            implementation = ImplementationKind::Software.name(),
            operation = operation.name(),
        )
    }

    #[test]
    fn leakage_results_get_their_table_and_no_phase_chart() {
        let dir = tempfile::tempdir().unwrap();
        let (leaky, ct) = (LeakOperation::CompareLeaky, LeakOperation::CompareConstantTime);
        let mul = LeakOperation::Primitive(Primitive::MpMulSchoolbook);
        let unbounded = r#"null,"t_unbounded":true,"t_unbounded_reason":"both classes have zero variance""#;
        let lines = [
            leakage(1, leaky, unbounded, 0, "leak", (183.0, 32.5)),
            leakage(2, ct, "0.0", 0, "no-leak-detected", (199.0, 199.0)),
            leakage(3, mul, "39.46", 3, "leak", (2224.0, 2221.95)),
            // Written before the flag: the sentinel number stands for unbounded.
            leakage(4, leaky, "42949672.95", 0, "leak", (183.0, 32.5)),
        ];
        std::fs::write(dir.path().join("results.jsonl"), lines.join("\n")).unwrap();
        let written = write(dir.path()).unwrap();
        assert_eq!(written.plots, 0);
        let md = std::fs::read_to_string(&written.markdown).unwrap();
        assert!(md.contains("## Leakage tests"), "{md}");
        let (leaky, ct, mul) = (leaky.name(), ct.name(), mul.name());
        for row in [
            format!("| leak.bench:1 | {leaky} | rv32i | data |  | 10000 | ∞ (zero variance) | uncropped | **leak** | 183.00 (0.00) | 32.50 (0.25) | cb_{leaky}_rv32i |"),
            format!("| leak.bench:2 | {ct} | rv32i | data |  | 10000 | 0.00 | uncropped | **no-leak-detected** | 199.00 (0.00) | 199.00 (0.25) | cb_{ct}_rv32i |"),
            format!("| leak.bench:3 | {mul} | rv32i | data |  | 10000 | 39.46 | crop 3 | **leak** |"),
            format!("| leak.bench:4 | {leaky} | rv32i | data |  | 10000 | ∞ (zero variance) | uncropped | **leak** |"),
        ] {
            assert!(md.contains(&row), "{row}\n{md}");
        }
        assert!(!md.contains("42949672"), "{md}");
        // No phases: no chart and no total of zero cycles in the results table.
        assert!(
            md.contains(&format!("Not charted: {}: ", BenchmarkKind::Leakage.name())),
            "{md}"
        );
        assert!(!md.contains("| 0 |  |  |"), "{md}");
        let html = std::fs::read_to_string(&written.html).unwrap();
        assert!(html.contains("<td class=\"n\">∞ (zero variance)</td><td>uncropped</td><td><strong>leak</strong></td>"));
    }

    #[test]
    fn results_without_software_have_no_software_section() {
        let dir = tempfile::tempdir().unwrap();
        let line = old(
            1,
            BenchmarkKind::Hash,
            r#""status":"ok","phases":{"init":9,"input":20}"#,
        );
        std::fs::write(dir.path().join("results.jsonl"), line).unwrap();
        let written = write(dir.path()).unwrap();
        assert_eq!(written.plots, 1);
        let md = std::fs::read_to_string(&written.markdown).unwrap();
        assert!(!md.contains("Software primitives"), "{md}");
    }

    #[test]
    fn a_swept_line_gets_its_cost_growth_with_the_fit() {
        let dir = tempfile::tempdir().unwrap();
        let mut lines = Vec::new();
        for (i, variant) in ["rust", "rv32i"].into_iter().enumerate() {
            for (j, length) in [16u64, 64, 256, 1024].into_iter().enumerate() {
                let (fixed, slope) = if i == 0 { (900, 25) } else { (400, 18) };
                let total = fixed + slope * length;
                let sweep = format!(
                    r#""sweep":{{"index":{},"of":8,"values":{{"variant":"{variant}","length":{length}}}}}"#,
                    4 * i + j + 1
                );
                lines.push(software(
                    2,
                    Primitive::Chacha20,
                    variant,
                    &format!(r#""bytes":{length},{sweep}"#),
                    total,
                ));
            }
        }
        std::fs::write(dir.path().join("results.jsonl"), lines.join("\n")).unwrap();
        let written = write(dir.path()).unwrap();
        let md = std::fs::read_to_string(&written.markdown).unwrap();
        assert!(md.contains("## Cost growth"), "{md}");
        let name = format!("growth-01-sw-2-{}", BenchmarkKind::Software.name());
        assert!(md.contains(&format!("](plots/{name}.png)")), "{md}");
        assert!(dir.path().join(format!("plots/{name}.svg")).is_file());
        assert!(
            md.contains("| variant rust | 900.0 | 25.000 | 1.000000 | 0.00 % at "),
            "{md}"
        );
        assert!(
            md.contains("| variant rv32i | 400.0 | 18.000 | 1.000000 | 0.00 % at "),
            "{md}"
        );
        assert!(
            md.contains("| variant rv32i | 1024 | 1024 | 18832 | 18.39 | 18832 | 0.00 % | sw.bench:2[8] |"),
            "{md}"
        );
        let html = std::fs::read_to_string(&written.html).unwrap();
        assert!(
            html.contains("<td>variant rust</td><td class=\"n\">900.0</td><td class=\"n\">25.000</td>"),
            "{html}"
        );
    }

    #[test]
    fn without_a_swept_line_the_cost_growth_says_what_would_give_one() {
        let dir = tempfile::tempdir().unwrap();
        let line = old(
            1,
            BenchmarkKind::Hash,
            r#""status":"ok","phases":{"init":9,"input":20}"#,
        );
        std::fs::write(dir.path().join("results.jsonl"), line).unwrap();
        let written = write(dir.path()).unwrap();
        let md = std::fs::read_to_string(&written.markdown).unwrap();
        assert!(md.contains("## Cost growth\n\nNo `.bench` line swept the field that sets the bytes processed over 3 or\nmore sizes"), "{md}");
    }
}
