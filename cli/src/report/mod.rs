//! `cyclebench report`: turns a results directory into `report.md` and `report.html`, with
//! the plots under `plots/` (SVG, and PNG for Markdown viewers that do not show SVG).
//!
//! One job per module: [`load`] reads `results.jsonl`, [`stats`] says what the numbers
//! mean, `model` works out the report, `plots` draws it and `render` fills the templates.

pub mod load;
mod model;
mod plots;
mod render;
pub mod stats;

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
    let results = load::load(dir)?;
    let report = model::Report::build(&results);

    let mut drawn = Vec::new();
    for chart in &report.phase_charts {
        drawn.push(plots::phases(chart)?);
    }
    for chart in &report.cpb_charts {
        drawn.push(plots::cycles_per_byte(chart)?);
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
