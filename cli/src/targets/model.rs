//! Simulator models built by the project's own scripts under `sim/`, cached by them in
//! ~/.cache/cyclebench: the script prints progress on stderr and the model's path last.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::firmware;

/// Tells a build script which `cyclebench` is running, so that a script training its model's
/// compiler profile with the tool uses this one rather than building another.
const CLI_FOR_SCRIPTS: &str = "CYCLEBENCH_CLI";

/// Runs `script` (relative to the repository) with `config` and returns the model path it
/// printed last. A cached model costs a second; a fresh build shows the script's progress.
pub fn build(script: &str, config: &str, what: &str) -> Result<PathBuf> {
    let script = firmware::repo_root().join(script);
    let start = Instant::now();
    let mut command = Command::new("bash");
    if let Ok(exe) = std::env::current_exe() {
        command.env(CLI_FOR_SCRIPTS, exe);
    }
    let mut child = command
        .arg(&script)
        .arg(config)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("running {}", script.display()))?;
    let stdout = child.stdout.take().context("build script stdout")?;
    let last = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .filter(|l| !l.trim().is_empty())
        .last();
    let status = child.wait()?;
    if !status.success() {
        bail!("building the {what} ({config}) failed ({status}); see the messages above");
    }
    let path = PathBuf::from(last.context("the model build printed no model path")?.trim());
    if !path.is_file() {
        bail!("the {what} build reported {} but it does not exist", path.display());
    }
    if start.elapsed() > Duration::from_secs(10) {
        eprintln!(
            "{what} ({config}) ready after {:.0} s: {}",
            start.elapsed().as_secs_f64(),
            path.display()
        );
    }
    Ok(path)
}
