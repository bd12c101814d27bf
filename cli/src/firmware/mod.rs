//! Building the suite firmware for a platform, and naming the revision it was built from.

pub mod layout;
pub mod layout_check;
pub mod memory_image;
pub mod symbols;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use layout::Layout;
use layout_check::Measured;

/// A checkout of cyclebench whose firmware (and models' build scripts) the tool builds instead
/// of its own: how one tool shows that the same commit in another folder, or with unrelated
/// changes, builds an image that measures the same.
pub const TREE_VAR: &str = "CYCLEBENCH_TREE";

/// Root of the cyclebench repository this tool was built from, or the one [`TREE_VAR`] names.
pub fn repo_root() -> PathBuf {
    if let Some(tree) = std::env::var_os(TREE_VAR).filter(|t| !t.is_empty()) {
        return PathBuf::from(tree);
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Builds the suite with `features` (e.g. `qemu-virt`, `earlgrey,aes-unmasked`), for a core
/// with Zbb when `zbb` (the compiler may then use rotations in portable code too), optionally
/// as the self-test build, with `layout`, and returns the ELF. Cargo makes this a no-op when
/// nothing changed. Every layout shares the default's build directory, since they differ only
/// in the suite's own crate and the link; each image is copied out under its layout's name
/// (`layouts/default.elf`, `layouts/pad1234-at6.elf`), so the next build does not overwrite it.
pub fn build(features: &str, zbb: bool, selftest: bool, layout: Layout) -> Result<PathBuf> {
    layout.check_platform(features)?;
    let root = repo_root();
    let manifest = root.join("firmware/Cargo.toml");
    if !manifest.exists() {
        bail!(
            "firmware sources not found at {}; run cyclebench from its repository or pass --firmware",
            manifest.display()
        );
    }
    let variant = if selftest { "selftest" } else { "suite" };
    let isa = if zbb { "-zbb" } else { "" };
    let target_dir = root
        .join("target/firmware")
        .join(format!("{}{isa}-{variant}", features.replace(',', "+")));
    let mut cargo_features = String::from(features);
    if selftest {
        cargo_features.push_str(",selftest");
    }
    let mut cargo = cargo_for_target(&root, zbb);
    layout.apply(&mut cargo, &[]);
    let output = cargo
        .current_dir(root.join("firmware"))
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "cyclebench-suite",
            "--features",
            &cargo_features,
        ])
        .arg("--target-dir")
        .arg(&target_dir)
        .output()
        .context("running cargo to build the firmware (is Rust installed? run scripts/setup.sh)")?;
    if !output.status.success() {
        bail!(
            "building the {variant} firmware ({cargo_features}) failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let elf = target_dir.join("riscv32imc-unknown-none-elf/release/cyclebench-suite");
    if !elf.exists() {
        bail!("firmware build succeeded but {} is missing", elf.display());
    }
    // Copied out at once, every layout under its own name: a build of another layout for the
    // same features (a run beside this one) relinks the file cargo wrote.
    let name = match layout.suffix().trim_start_matches('-') {
        "" => String::from("default"),
        suffix => suffix.to_owned(),
    };
    let copy = target_dir.join("layouts").join(format!("{name}.elf"));
    std::fs::create_dir_all(copy.parent().unwrap_or(&target_dir))?;
    // Copied beside it and renamed over it: a simulator another run started on the previous
    // copy keeps reading that whole file, never one half rewritten.
    let partial = copy.with_extension(format!("elf.{}", std::process::id()));
    std::fs::copy(&elf, &partial).with_context(|| format!("copying the image to {}", partial.display()))?;
    std::fs::rename(&partial, &copy).with_context(|| format!("renaming the image to {}", copy.display()))?;
    verify_layout(&copy, features, layout, &Measured::suite(), || {
        build(features, zbb, selftest, Layout::default())
    })?;
    Ok(copy)
}

/// Checks the layout of `elf`, an image for `features` of `layout` measuring `measured` (the
/// suite's own code and the run's implementations): every measured function in the block and,
/// for another layout than the default, moved against the default's image (`default`, built
/// when needed) as that layout says.
pub fn verify_layout(
    elf: &Path,
    features: &str,
    layout: Layout,
    measured: &Measured,
    default: impl FnOnce() -> Result<PathBuf>,
) -> Result<()> {
    let ram = !features.starts_with("earlgrey");
    let block = layout_check::check(elf, measured, ram).context("the image's layout check failed")?;
    if layout != Layout::default() {
        let default_elf = default()?;
        let default_block = layout_check::check(&default_elf, measured, ram)?;
        layout_check::check_moved(&default_block, &block, layout).with_context(|| {
            format!(
                "the layout check of {} against {} failed",
                elf.display(),
                default_elf.display()
            )
        })?;
    }
    Ok(())
}

/// Cargo, set to build for the suite's target core (with Zbb when `zbb`) with the paths of this
/// checkout and of the crate registry replaced in what it builds.
pub fn cargo_for_target(root: &Path, zbb: bool) -> Command {
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| String::from("cargo")));
    // The checkout's path (and the crate registry's) would otherwise end up in the firmware's
    // panic locations, changing the size of its read-only data and with it where code and
    // tables land: the same source would give other cycle counts from another directory.
    for (from, to) in path_remaps(root) {
        cargo.args([
            "--config",
            &format!(
                "target.riscv32imc-unknown-none-elf.rustflags=[\"--remap-path-prefix\", {}]",
                toml::Value::String(format!("{}={to}", from.display()))
            ),
        ]);
    }
    if zbb {
        // Arrays given with --config are appended to the ones in .cargo/config.toml, so the
        // linker script arguments there stay.
        cargo.args([
            "--config",
            "target.riscv32imc-unknown-none-elf.rustflags=[\"-C\", \"target-feature=+zbb\"]",
        ]);
    }
    cargo
}

/// The directories whose paths the firmware must not carry, with what replaces them.
fn path_remaps(root: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut remaps = vec![(root.to_path_buf(), "/cyclebench")];
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")));
    if let Some(cargo_home) = cargo_home {
        remaps.push((cargo_home, "/cargo"));
    }
    remaps
}

/// `git describe` of the repository (with `-dirty` for local changes), or "unknown".
pub fn revision() -> String {
    Command::new("git")
        .current_dir(repo_root())
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| String::from("unknown"))
}
