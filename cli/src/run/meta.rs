//! `run.json`: the facts of a run. It is written when the run starts (marked unfinished, with
//! everything `--resume` and `merge` need: target, link, files and their digests, firmware
//! revision, shard, the suite's hello) and again when it ends. Each write replaces the file
//! whole, so a run killed at any moment leaves a readable one.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use cyclebench_protocol::Hello;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::units::Shard;
use crate::firmware;
use crate::results::Record;

/// `run.json`. The first fields are the ones every run wrote before shards existed, in that
/// order; readers of older files get defaults for the rest.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Meta {
    /// Target label (`qemu-virt`, `serial:/dev/ttyUSB1`).
    pub target: String,
    /// Platform the suite announced.
    #[serde(default)]
    pub platform: Option<String>,
    /// Whether the platform counts real cycles.
    #[serde(default)]
    pub cycle_accurate: Option<bool>,
    /// CPU clock in Hz.
    #[serde(default)]
    pub cpu_hz: Option<u32>,
    /// Calibrated overhead of one measurement window.
    #[serde(default)]
    pub overhead: Option<u32>,
    /// Largest message the suite holds.
    #[serde(default)]
    pub max_message: Option<u32>,
    /// Firmware revision the records were measured with.
    #[serde(default)]
    pub firmware_revision: String,
    /// When the run started (RFC 3339).
    #[serde(default)]
    pub started: String,
    /// Input files as given on the command line.
    #[serde(default)]
    pub files: Vec<PathBuf>,
    /// Instances of the target that ran side by side (summed over shards in a merge).
    #[serde(default)]
    pub instances: Option<usize>,
    /// Host link of a started target that offers a choice.
    #[serde(default)]
    pub link: Option<String>,
    /// Wall time of the run (summed over the sessions of a resumed run).
    #[serde(default)]
    pub wall_seconds: Option<f64>,
    /// The suite's cycle counter at the last status (summed over sessions and shards).
    #[serde(default)]
    pub simulated_cycles: Option<u64>,
    /// Records written.
    #[serde(default)]
    pub requests: usize,
    /// Records measured.
    #[serde(default)]
    pub ok: usize,
    /// Records the platform could not run.
    #[serde(default)]
    pub unsupported: usize,
    /// Records of failed lines.
    #[serde(default)]
    pub failed: usize,
    /// Whether a signal stopped the run.
    #[serde(default)]
    pub interrupted: bool,
    /// Whether every line of the run (or of its shard) has its record: what `merge` needs.
    #[serde(default)]
    pub finished: bool,
    /// The part of the files this run measured; `None` for all of them.
    #[serde(default)]
    pub shard: Option<ShardMeta>,
    /// The implementations from outside the tree the image carried (`run --impl`): name,
    /// folder, language, interface, compiler and flags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub implementations: Vec<crate::implementation::Facts>,
    /// SHA-256 of each input file's contents, in the order of [`Self::files`].
    #[serde(default)]
    pub inputs: Vec<String>,
    /// The suite's hello, when a target answered.
    #[serde(default)]
    pub hello: Option<Hello>,
    /// The shard directories a merged run was put together from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<PathBuf>,
    /// Bytes of unrelated code the image carried before all other code in flash
    /// (`CYCLEBENCH_LAYOUT_PAD`); absent for none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub layout_pad: u32,
    /// The variants of the chip's model the files ran on (`run --model`), in file order; empty
    /// for a target without variants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// The compilers that built the image and its digest.
    #[serde(flatten)]
    pub build: Build,
}

/// What made the image a run measured: a cycle count depends on the code the compilers emit,
/// so `compare` holds two runs built by different compilers apart. In `run.json` every field
/// is written, `null` when unknown, so that a missing clang reads as such rather than as a file
/// from before these fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// The first line of `rustc --version`, when the tool built the image.
    #[serde(default)]
    pub rustc: Option<String>,
    /// The first line of `clang --version` (the C compiler of `run --impl`), when the tool
    /// built the image and clang is installed, whether or not the image holds C.
    #[serde(default)]
    pub clang: Option<String>,
    /// SHA-256 (hex) of the ELF file the run started, which the tool built or was given;
    /// `None` for a board on `--port`, whose image the tool never sees.
    #[serde(default)]
    pub image_sha256: Option<String>,
}

impl Build {
    /// The compilers of this machine when `builds_image` (the tool builds the image it starts),
    /// else none: a board's image, or an ELF given with `--firmware`, was built by whatever
    /// built it, and naming this machine's compilers would be a guess. The digest is added
    /// once the image is known.
    pub fn compilers(builds_image: bool) -> Self {
        if !builds_image {
            return Self::default();
        }
        Self {
            rustc: compiler_version("rustc").ok(),
            clang: compiler_version(CLANG).ok(),
            image_sha256: None,
        }
    }

    /// Names this build on `record`. A record that names a build already (one an earlier
    /// session of a resumed run measured, or a shard's in a merge) keeps its own.
    pub fn stamp(&self, record: &mut Record) {
        if record.rustc.is_none() && record.clang.is_none() && record.image_sha256.is_none() {
            record.rustc.clone_from(&self.rustc);
            record.clang.clone_from(&self.clang);
            record.image_sha256.clone_from(&self.image_sha256);
        }
    }
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each compiler's version begins with its name.
        match (&self.rustc, &self.clang) {
            (Some(rustc), Some(clang)) => write!(f, "{rustc} and {clang}")?,
            (Some(rustc), None) => write!(f, "{rustc} and no clang")?,
            (None, _) => f.write_str("unknown compilers")?,
        }
        match &self.image_sha256 {
            Some(digest) => write!(f, ", image SHA-256 {digest}"),
            None => f.write_str(", image unknown"),
        }
    }
}

/// The C compiler of `run --impl`: clang from Debian, which targets RV32 without a separate
/// toolchain.
pub(crate) const CLANG: &str = "clang";

/// The first line of `program --version`, e.g. `rustc 1.95.0 (59807616e 2026-04-14)`. Run
/// in the repository, as the firmware is built there: rustup then picks the toolchain that
/// `rust-toolchain.toml` pins, not the one of wherever the tool was started.
pub(crate) fn compiler_version(program: &str) -> Result<String> {
    let mut command = Command::new(program);
    let root = firmware::repo_root();
    if root.is_dir() {
        command.current_dir(root);
    }
    let output = command
        .arg("--version")
        .output()
        .with_context(|| format!("running {program} (run scripts/setup.sh, which installs it)"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    match text.lines().next().map(str::trim) {
        Some(line) if output.status.success() && !line.is_empty() => Ok(line.to_owned()),
        _ => bail!(
            "{program} --version failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ),
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A shard as `run.json` names it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShardMeta {
    /// 0-based part.
    pub index: usize,
    /// Parts.
    pub count: usize,
}

impl From<Shard> for ShardMeta {
    fn from(s: Shard) -> Self {
        Self {
            index: s.index,
            count: s.count,
        }
    }
}

impl Meta {
    /// A run's facts before anything is known of it but its target's label and its files.
    pub fn new(target: &str, files: Vec<PathBuf>) -> Self {
        Self {
            target: target.to_owned(),
            platform: None,
            cycle_accurate: None,
            cpu_hz: None,
            overhead: None,
            max_message: None,
            firmware_revision: String::new(),
            started: String::new(),
            files,
            instances: None,
            link: None,
            wall_seconds: None,
            simulated_cycles: None,
            requests: 0,
            ok: 0,
            unsupported: 0,
            failed: 0,
            interrupted: false,
            finished: false,
            shard: None,
            implementations: Vec::new(),
            inputs: Vec::new(),
            hello: None,
            merged_from: Vec::new(),
            layout_pad: 0,
            models: Vec::new(),
            build: Build::default(),
        }
    }

    /// Takes the suite's hello, its facts also in the fields `run.json` has always had.
    pub fn set_hello(&mut self, hello: Option<Hello>) {
        if let Some(hello) = &hello {
            self.platform = Some(hello.platform.clone());
            self.cycle_accurate = Some(hello.cycle_accurate);
            self.cpu_hz = Some(hello.cpu_hz);
            self.overhead = Some(hello.overhead);
            self.max_message = Some(hello.max_message);
        }
        self.hello = hello;
    }

    /// The shard the run measured (the whole run when it was not sharded).
    pub fn shard(&self) -> Shard {
        self.shard.map_or(Shard::WHOLE, |s| Shard {
            index: s.index,
            count: s.count,
        })
    }

    /// Reads `dir/run.json`, naming a directory that holds none.
    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(RUN_JSON);
        if !dir.is_dir() {
            bail!("{} is not a directory", dir.display());
        }
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "{} is not a results directory of `cyclebench run`: it holds no readable {RUN_JSON}",
                dir.display()
            )
        })?;
        let meta: Self = serde_json::from_str(&text)
            .with_context(|| format!("{} is not the {RUN_JSON} of a run", path.display()))?;
        if meta.inputs.len() != meta.files.len() {
            bail!(
                "{} names no digests of its input files (written by an older cyclebench): it cannot be \
                 resumed or merged",
                path.display()
            );
        }
        Ok(meta)
    }

    /// Replaces `dir/run.json` whole: written beside it, then renamed over it.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(RUN_JSON);
        let partial = dir.join(format!("{RUN_JSON}.partial"));
        std::fs::write(&partial, serde_json::to_string_pretty(self)? + "\n")
            .with_context(|| format!("writing {}", partial.display()))?;
        std::fs::rename(&partial, &path).with_context(|| format!("writing {}", path.display()))
    }
}

/// The file name of a run's facts.
pub const RUN_JSON: &str = "run.json";

/// SHA-256 of a file's contents, in hex.
pub fn digest(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_without_a_run_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = format!("{:#}", Meta::read(dir.path()).unwrap_err());
        assert!(
            e.contains("is not a results directory") && e.contains("run.json"),
            "{e}"
        );
        std::fs::write(
            dir.path().join(RUN_JSON),
            "{\"target\": \"t\", \"files\": [\"a.bench\"]}",
        )
        .unwrap();
        let e = format!("{:#}", Meta::read(dir.path()).unwrap_err());
        assert!(e.contains("older cyclebench"), "{e}");
        let e = format!("{:#}", Meta::read(&dir.path().join("absent")).unwrap_err());
        assert!(e.contains("is not a directory"), "{e}");
    }

    #[test]
    fn run_json_is_replaced_whole_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.bench");
        std::fs::write(&file, "abc").unwrap();
        let meta: Meta = serde_json::from_value(serde_json::json!({
            "target": "qemu-virt", "files": [file], "inputs": [digest(&file).unwrap()],
            "shard": {"index": 1, "count": 3}
        }))
        .unwrap();
        assert_eq!(
            meta.inputs[0],
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        meta.write(dir.path()).unwrap();
        let back = Meta::read(dir.path()).unwrap();
        assert_eq!(back.shard(), Shard { index: 1, count: 3 });
        assert!(!back.finished);
        assert!(!dir.path().join("run.json.partial").exists());
    }

    #[test]
    fn run_json_names_the_build_with_nulls_and_older_files_read_without_it() {
        let meta: Meta = serde_json::from_value(serde_json::json!({"target": "qemu-virt"})).unwrap();
        assert_eq!(meta.build, Build::default());
        let json = serde_json::to_value(&meta).unwrap();
        for field in ["rustc", "clang", "image_sha256"] {
            assert_eq!(json.get(field), Some(&serde_json::Value::Null), "{field}");
        }
        let mut meta = meta;
        meta.build.rustc = Some(String::from("rustc 1.95.0 (59807616e 2026-04-14)"));
        let back: Meta = serde_json::from_value(serde_json::to_value(&meta).unwrap()).unwrap();
        assert_eq!(back.build, meta.build);
    }

    #[test]
    fn a_record_is_stamped_with_the_build_unless_it_names_its_own() {
        let build = Build {
            rustc: Some(String::from("rustc 2")),
            clang: None,
            image_sha256: Some(String::from("ab")),
        };
        let kind = cyclebench_protocol::BenchmarkKind::Hash.name();
        let mut fresh = crate::results::parse(&format!(r#"{{"status":"ok","benchmark":"{kind}"}}"#)).unwrap();
        build.stamp(&mut fresh);
        assert_eq!(
            (
                fresh.rustc.as_deref(),
                fresh.clang.as_deref(),
                fresh.image_sha256.as_deref()
            ),
            (Some("rustc 2"), None, Some("ab"))
        );
        let json = serde_json::to_value(&fresh).unwrap();
        assert_eq!(json["rustc"], "rustc 2");
        assert!(
            json.get("clang").is_none(),
            "an unknown compiler is left out of a record"
        );
        let mut earlier = crate::results::parse(&format!(
            r#"{{"status":"ok","benchmark":"{kind}","rustc":"rustc 1","clang":"clang 1"}}"#
        ))
        .unwrap();
        build.stamp(&mut earlier);
        assert_eq!(
            (
                earlier.rustc.as_deref(),
                earlier.clang.as_deref(),
                earlier.image_sha256.as_deref()
            ),
            (Some("rustc 1"), Some("clang 1"), None)
        );
        // Not in `details`: one field, one place.
        assert!(!earlier.details.contains_key("rustc"));
    }

    #[test]
    fn a_compiler_names_its_version_on_its_first_line_and_a_missing_one_is_an_error() {
        let rustc = compiler_version("rustc").unwrap();
        assert!(rustc.starts_with("rustc ") && !rustc.contains('\n'), "{rustc}");
        let e = format!("{:#}", compiler_version("cyclebench-no-such-compiler").unwrap_err());
        assert!(e.contains("cyclebench-no-such-compiler"), "{e}");
        assert_eq!(Build::compilers(false), Build::default());
    }
}
