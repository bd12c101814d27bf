//! The image of a run with implementations from outside the tree: the C sources compiled
//! (`compile.rs`), the crate generated under `target/firmware/impl/` (`generate.rs`) built with
//! the kinds the run uses, and the result kept by the digest of everything it was built from.
//! Nothing in the tree is edited. Cargo rebuilds only what changed: an edited implementation
//! costs its own compile and the final link.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{Benchmark, BenchmarkKind, LeakOperation};
use sha2::{Digest, Sha256};

use super::compile::{c_flags, compile_c, compiler_version, functions_of, CC, PROVIDED};
use super::generate::{build_script, link_sources, main_rs, manifest, package_name};
use super::manifest::{Code, Folder};
use super::vectors::{self, Vector};
use crate::firmware;
use crate::firmware::layout::rules::OBJECTS_DIR;
use crate::firmware::layout::Layout;
use crate::firmware::layout_check::Measured;

/// What the records of an implementation say about how it was built.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Facts {
    /// Its name.
    pub name: String,
    /// `c` or `rust`.
    pub language: String,
    /// Its interface.
    pub interface: String,
    /// The compiler and its version.
    pub compiler: String,
    /// The flags it was compiled with.
    pub flags: String,
    /// Its folder.
    pub folder: PathBuf,
}

/// An image carrying implementations.
pub struct Image {
    /// The ELF.
    pub elf: PathBuf,
    /// One per implementation, in `--impl` order.
    pub facts: Vec<Facts>,
}

/// The suite's optional parts (its cargo features) a request needs. The image of a run with
/// implementations holds only these, which leaves room for the implementations in the flash
/// a chip model loads.
fn parts(b: &Benchmark) -> Option<&'static str> {
    const PUBLIC_KEY: &str = "public-key";
    match b {
        Benchmark::Pubkey(_) => Some(PUBLIC_KEY),
        // The suite names the feature of an optional kind after the kind.
        Benchmark::Offload(_) => Some(BenchmarkKind::Offload.name()),
        Benchmark::Software(s) if s.primitive.public_key() => Some(PUBLIC_KEY),
        Benchmark::Leakage(l) if matches!(l.operation, LeakOperation::Primitive(p) if p.public_key()) => {
            Some(PUBLIC_KEY)
        }
        _ => None,
    }
}

/// Builds (or finds) the image of the suite for `features` (`zbb`: the Zbb core) carrying
/// `folders`, laid out as `layout` says.
pub fn build<'a>(
    features: &str,
    zbb: bool,
    folders: &[Folder],
    requests: impl Iterator<Item = &'a Benchmark>,
    layout: Layout,
) -> Result<Image> {
    layout.check_platform(features)?;
    let parts: BTreeSet<&str> = requests.filter_map(parts).collect();
    build_parts(features, zbb, folders, &parts, layout)
}

/// [`build`] with the suite's optional parts `parts`.
fn build_parts(features: &str, zbb: bool, folders: &[Folder], parts: &BTreeSet<&str>, layout: Layout) -> Result<Image> {
    // The image another layout is checked against, built first: the lock below is taken once.
    let default = match layout == Layout::default() {
        true => None,
        false => Some(build_parts(features, zbb, folders, parts, Layout::default())?.elf),
    };
    let mut names = BTreeSet::new();
    for f in folders {
        if !names.insert(f.manifest.name.as_str()) {
            bail!(
                "two --impl folders are named {}: give one of them another name in its impl.toml",
                f.manifest.name
            );
        }
    }
    let root = firmware::repo_root();
    let isa = if zbb { "-zbb" } else { "" };
    let work = root
        .join("target/firmware/impl")
        .join(format!("{}{isa}", features.replace(',', "+")));
    let generated = work.join("crate");
    std::fs::create_dir_all(generated.join("src")).with_context(|| format!("creating {}", generated.display()))?;
    // Every run for these features writes the same generated crate and objects: without the
    // lock, a run started beside another builds (and measures) the other's implementations.
    // Held until the image is copied out under its digest, which no later build overwrites.
    let _lock = lock(&work.join("lock"))?;
    let compiler = compiler_version(CC)?;
    let rustc = compiler_version("rustc")?;
    let mut objects = Vec::new();
    // What each C implementation uses and does not define, to name it if the link misses it.
    let mut undefined = BTreeMap::new();
    let mut facts = Vec::new();
    for f in folders {
        let m = &f.manifest;
        let fact = match &m.code {
            Code::C(c) => {
                let flags = c_flags(c, zbb);
                let mut compiled = compile_c(f, c, &flags, &work.join(OBJECTS_DIR).join(&m.name))?;
                // Linked by name, not in the order impl.toml lists the sources: sections of one
                // name (static functions) then keep their order whatever that list says.
                compiled.objects.sort();
                objects.extend(compiled.objects);
                undefined.insert(m.name.as_str(), compiled.undefined);
                Facts {
                    name: m.name.clone(),
                    language: String::from(m.language().name()),
                    interface: String::from(m.interface().name()),
                    compiler: compiler.clone(),
                    flags: flags.join(" "),
                    folder: f.dir.clone(),
                }
            }
            Code::Rust(_) => Facts {
                name: m.name.clone(),
                language: String::from(m.language().name()),
                interface: String::from(m.interface().name()),
                compiler: rustc.clone(),
                flags: format!(
                    "--target riscv32imc-unknown-none-elf{}, release: opt-level 3, lto, codegen-units 1, panic abort",
                    if zbb { " -C target-feature=+zbb" } else { "" }
                ),
                folder: f.dir.clone(),
            },
        };
        facts.push(fact);
    }
    let vectors: Vec<Vec<Vector>> = folders
        .iter()
        .map(|f| match &f.manifest.vectors {
            Some(v) => vectors::read(&f.dir.join(v)),
            None => Ok(Vec::new()),
        })
        .collect::<Result<_>>()?;
    link_sources(&generated, &root, folders)?;
    write_if_changed(
        &generated.join("Cargo.toml"),
        &manifest(&root, features, parts, folders)?,
    )?;
    write_if_changed(&generated.join("build.rs"), &build_script(&objects, folders)?)?;
    write_if_changed(&generated.join("src/main.rs"), &main_rs(folders, &vectors))?;
    let config = std::fs::read_to_string(root.join("firmware/.cargo/config.toml"))
        .context("reading firmware/.cargo/config.toml")?;
    write_if_changed(&generated.join(".cargo/config.toml"), &config)?;
    // The tree's lock, so the suite is built from the same crate versions as its own image.
    let lock = std::fs::read(root.join("firmware/Cargo.lock")).context("reading firmware/Cargo.lock")?;
    let copied = generated.join("Cargo.lock.tree");
    if std::fs::read(&copied).ok().as_deref() != Some(&lock[..]) {
        std::fs::write(generated.join("Cargo.lock"), &lock)?;
        std::fs::write(&copied, &lock)?;
    }
    let images = work.join("images");
    std::fs::create_dir_all(&images)?;
    let layout_facts = format!("layout{}", layout.suffix());
    let key = input_key(
        &root,
        &generated,
        &objects,
        folders,
        &[&compiler, &rustc, &layout_facts],
    )?;
    let elf = images.join(format!("{key}.elf"));
    if elf.exists() {
        return Ok(Image { elf, facts });
    }
    let target_dir = work.join("target");
    let crates: Vec<String> = folders
        .iter()
        .filter_map(Folder::crate_dir)
        .map(|dir| package_name(&dir).map(|name| name.replace('-', "_")))
        .collect::<Result<_>>()?;
    let mut cargo = firmware::cargo_for_target(&root, zbb);
    layout.apply(&mut cargo, &crates);
    let output = cargo
        .current_dir(&generated)
        .args(["build", "--release", "--quiet"])
        .arg("--target-dir")
        .arg(&target_dir)
        .output()
        .context("running cargo to build the image (is Rust installed? run scripts/setup.sh)")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("will not fit in region") || stderr.contains("overflowed") {
            String::from(
                "\nthe image does not fit the platform's memory with these implementations: the linker's \
                 message above says which region and by how many bytes",
            )
        } else {
            missing(&stderr, &undefined)
        };
        bail!(
            "building the image with {} ({features}) failed:\n{stderr}{hint}",
            Folder::names(folders)
        );
    }
    let built = target_dir.join("riscv32imc-unknown-none-elf/release/cyclebench-suite");
    let partial = elf.with_extension("elf.new");
    std::fs::copy(&built, &partial).with_context(|| format!("copying the image to {}", partial.display()))?;
    // Checked before it is cached under its inputs' digest: an image that failed stays out.
    let measured = Measured::new(&crates, functions_of(&objects)?);
    firmware::verify_layout(&partial, features, layout, &measured, || {
        default.context("no image of the default layout to check against")
    })?;
    std::fs::rename(&partial, &elf)?;
    Ok(Image { elf, facts })
}

/// For every symbol the link of the image found nowhere (`undefined symbol: NAME` in the
/// linker's `stderr`), the C implementations that call it: a function neither their sources nor
/// the suite define, which only the list of what the suite gives C explains.
fn missing(stderr: &str, undefined: &BTreeMap<&str, BTreeSet<String>>) -> String {
    let symbols: BTreeSet<&str> = stderr
        .lines()
        .filter_map(|line| line.split_once("undefined symbol: "))
        .map(|(_, symbol)| symbol.trim())
        .collect();
    let mut text = String::new();
    for symbol in symbols {
        let callers: Vec<&str> = undefined
            .iter()
            .filter(|(_, u)| u.contains(symbol))
            .map(|(name, _)| *name)
            .collect();
        if !callers.is_empty() {
            text.push_str(&format!(
                "\n{} {} {symbol}, which neither {} sources nor the suite define: the suite gives C only {} \
                 (docs/implementations.md, \"Freestanding C\")",
                callers.join(", "),
                if callers.len() == 1 { "calls" } else { "call" },
                if callers.len() == 1 { "its" } else { "their" },
                PROVIDED.join(", ")
            ));
        }
    }
    text
}

/// The digest of everything an image is built from: the suite's sources and the protocol's
/// (the firmware workspace and `protocol/`), the generated crate, the C objects, every file of
/// the Rust implementations' crates, the compilers' versions and the layout. An image of the same inputs
/// is taken from the cache without running cargo, whichever other sets of implementations
/// were built in between.
fn input_key(
    root: &Path,
    generated: &Path,
    objects: &[PathBuf],
    folders: &[Folder],
    compilers: &[&str],
) -> Result<String> {
    let mut hasher = Sha256::new();
    let add_tree = |dir: &Path, hasher: &mut Sha256| -> Result<()> {
        let mut files = Vec::new();
        sources(dir, &mut files)?;
        files.sort();
        for f in files {
            hasher.update(f.strip_prefix(dir).unwrap_or(&f).to_string_lossy().as_bytes());
            hasher.update(std::fs::read(&f).with_context(|| format!("reading {}", f.display()))?);
        }
        Ok(())
    };
    add_tree(&root.join("firmware"), &mut hasher)?;
    add_tree(&root.join("protocol"), &mut hasher)?;
    for name in ["Cargo.toml", "build.rs", "src/main.rs", ".cargo/config.toml"] {
        hasher.update(std::fs::read(generated.join(name)).unwrap_or_default());
    }
    for o in objects {
        hasher.update(std::fs::read(o).with_context(|| format!("reading {}", o.display()))?);
    }
    for dir in folders.iter().filter_map(Folder::crate_dir) {
        add_tree(&dir, &mut hasher)?;
    }
    for c in compilers {
        hasher.update(c.as_bytes());
    }
    Ok(hasher.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect())
}

/// Every file under `dir`, leaving out build output (`target/`) and version control.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if path.is_dir() {
            if name != "target" && name != ".git" {
                sources(&path, out)?;
            }
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// An exclusive lock on `path` (created if missing), released when the file is dropped; says
/// so when it has to wait for another run.
fn lock(path: &Path) -> Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            eprintln!(
                "waiting for another run building an image in {} ...",
                path.parent().unwrap_or(path).display()
            );
            file.lock().with_context(|| format!("locking {}", path.display()))?;
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("locking {}", path.display()));
        }
    }
    Ok(file)
}

fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_the_link_found_nowhere_is_named_with_who_calls_it() {
        let stderr = "rust-lld: error: undefined symbol: malloc\n>>> referenced by a.c\n\
                      rust-lld: error: undefined symbol: _ZN4core9panicking5panic17h0123456789abcdefE\n";
        let undefined = BTreeMap::from([
            ("a-c", BTreeSet::from([String::from("malloc"), String::from("memcpy")])),
            ("b-c", BTreeSet::from([String::from("memcpy")])),
        ]);
        let text = missing(stderr, &undefined);
        assert!(
            text.contains("a-c calls malloc, which neither its sources nor the suite define"),
            "{text}"
        );
        assert!(text.contains("memcpy, memmove, memset, memcmp, strlen"), "{text}");
        // A symbol no C implementation calls is the suite's own business.
        assert!(!text.contains("panicking") && !text.contains("b-c"), "{text}");
    }
}
