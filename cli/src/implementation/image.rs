//! The image of a run with implementations from outside the tree: the C sources compiled with
//! clang for the target's core, and a binary crate generated outside the checkout's sources
//! (under `target/firmware/impl/`) that links them, and the Rust crates, to the suite library
//! and starts it with their registry. Nothing in the tree is edited. Cargo rebuilds only what
//! changed (an edited implementation costs its own compile and the final link); the image is
//! kept by the digest of everything it was built from.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use cyclebench_protocol::{Benchmark, BenchmarkKind, LeakOperation};
use sha2::{Digest, Sha256};

use super::manifest::{Folder, Interface, Language, OutputBytes, Secret};
use super::vectors::{self, Vector};
use crate::firmware;

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

/// The flags every C implementation is compiled with for a core with Zbb or without: the
/// suite's ISA and ABI, freestanding, each function in a section of its own (so that the
/// linker keeps only what is called).
fn target_cflags(zbb: bool) -> Vec<String> {
    let march = if zbb { "-march=rv32imc_zbb" } else { "-march=rv32imc" };
    [
        "--target=riscv32-unknown-elf",
        march,
        "-mabi=ilp32",
        "-ffreestanding",
        "-nostdlib",
    ]
    .into_iter()
    .chain(["-ffunction-sections", "-fdata-sections"])
    .map(String::from)
    .collect()
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

/// The interfaces' crate, from the checkout's root.
const IMPL_CRATE: &str = "firmware/impl";

/// The C compiler: clang from Debian, which targets RV32 without a separate toolchain.
const CC: &str = "clang";

/// A C identifier for an implementation's name.
fn ident(name: &str) -> String {
    name.replace('-', "_")
}

/// The name an interface function of implementation `name` is renamed to, so that several
/// implementations of one interface link into one image.
fn renamed(name: &str, symbol: &str) -> String {
    format!("cyclebench_{}_{symbol}", ident(name))
}

/// Builds (or finds) the image of the suite for `features` (`zbb`: the Zbb core) carrying
/// `folders`.
pub fn build<'a>(
    features: &str,
    zbb: bool,
    folders: &[Folder],
    requests: impl Iterator<Item = &'a Benchmark>,
) -> Result<Image> {
    let parts: BTreeSet<&str> = requests.filter_map(parts).collect();
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
    let mut facts = Vec::new();
    for f in folders {
        let m = &f.manifest;
        let fact = match m.language {
            Language::C => {
                let flags = c_flags(f, zbb);
                objects.extend(compile_c(f, &flags, &work.join("objects").join(&m.name))?);
                Facts {
                    name: m.name.clone(),
                    language: String::from("c"),
                    interface: String::from(m.interface.name()),
                    compiler: compiler.clone(),
                    flags: flags.join(" "),
                    folder: f.dir.clone(),
                }
            }
            Language::Rust => Facts {
                name: m.name.clone(),
                language: String::from("rust"),
                interface: String::from(m.interface.name()),
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
    write_if_changed(
        &generated.join("Cargo.toml"),
        &manifest(&root, features, &parts, folders)?,
    )?;
    write_if_changed(&generated.join("build.rs"), &build_script(&objects))?;
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
    let key = input_key(&root, &generated, &objects, folders, &[&compiler, &rustc])?;
    let elf = images.join(format!("{key}.elf"));
    if elf.exists() {
        return Ok(Image { elf, facts });
    }
    let target_dir = work.join("target");
    let output = firmware::cargo_for_target(&root, zbb)
        .current_dir(&generated)
        .args(["build", "--release", "--quiet"])
        .arg("--target-dir")
        .arg(&target_dir)
        .output()
        .context("running cargo to build the image (is Rust installed? run scripts/setup.sh)")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("will not fit in region") || stderr.contains("overflowed") {
            "\nthe image does not fit the platform's memory with these implementations: the linker's \
             message above says which region and by how many bytes"
        } else {
            ""
        };
        bail!(
            "building the image with {} ({features}) failed:\n{stderr}{hint}",
            Folder::names(folders)
        );
    }
    let built = target_dir.join("riscv32imc-unknown-none-elf/release/cyclebench-suite");
    let partial = elf.with_extension("elf.new");
    std::fs::copy(&built, &partial).with_context(|| format!("copying the image to {}", partial.display()))?;
    std::fs::rename(&partial, &elf)?;
    Ok(Image { elf, facts })
}

/// The digest of everything an image is built from: the suite's sources and the protocol's
/// (the firmware workspace and `protocol/`), the generated crate, the C objects, every file of
/// the Rust implementations' crates, and the compilers' versions. An image of the same inputs
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
    for f in folders.iter().filter(|f| f.manifest.language == Language::Rust) {
        add_tree(&f.crate_dir(), &mut hasher)?;
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

fn compiler_version(program: &str) -> Result<String> {
    let output = Command::new(program)
        .arg("--version")
        .output()
        .with_context(|| format!("running {program} (run scripts/setup.sh, which installs it)"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    Ok(text.lines().next().unwrap_or(program).trim().to_owned())
}

/// The flags of one C implementation: the target's, its interface's renaming, the header's
/// folder, then its own.
fn c_flags(f: &Folder, zbb: bool) -> Vec<String> {
    let include = firmware::repo_root().join("firmware/impl/include");
    let mut flags = target_cflags(zbb);
    flags.push(format!("-I{}", include.display()));
    for symbol in f.manifest.interface.symbols() {
        flags.push(format!("-D{symbol}={}", renamed(&f.manifest.name, symbol)));
    }
    flags.extend(f.manifest.cflags.iter().cloned());
    flags
}

/// Compiles every source of `f` into `out`; a compiler error comes back as the compiler wrote
/// it, with the folder's file and line. Then checks that the interface's functions are defined.
fn compile_c(f: &Folder, flags: &[String], out: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut objects = Vec::new();
    for source in &f.manifest.sources {
        let object = out.join(format!("{}.o", source.display().to_string().replace(['/', '\\'], "_")));
        // Compiled beside the last object and put in its place only when it differs: an object
        // that did not change keeps its time, and cargo then neither relinks nor rebuilds.
        let fresh = object.with_extension("o.new");
        let output = Command::new(CC)
            .current_dir(&f.dir)
            .args(flags)
            .arg("-c")
            .arg(source)
            .arg("-o")
            .arg(&fresh)
            .output()
            .with_context(|| format!("running {CC} (run scripts/setup.sh, which installs it)"))?;
        if !output.status.success() {
            bail!(
                "{}: {} failed on {} in {}:\n{}",
                f.manifest.name,
                CC,
                source.display(),
                f.dir.display(),
                String::from_utf8_lossy(&output.stderr).trim_end()
            );
        }
        if std::fs::read(&fresh).ok() != std::fs::read(&object).ok() {
            std::fs::rename(&fresh, &object).with_context(|| format!("writing {}", object.display()))?;
        } else {
            std::fs::remove_file(&fresh).ok();
        }
        objects.push(object);
    }
    let defined = defined_functions(&objects)?;
    for symbol in f.manifest.interface.symbols() {
        if !defined.contains(&renamed(&f.manifest.name, symbol)) {
            let prefix = format!("cyclebench_{}_", ident(&f.manifest.name));
            let others: Vec<String> = defined
                .iter()
                .map(|d| d.strip_prefix(&prefix).unwrap_or(d).to_owned())
                .collect();
            bail!(
                "{}: interface {} needs the function {symbol}, which {} {} not define (defined: {}); \
                 its prototype is in cyclebench.h",
                f.manifest.name,
                f.manifest.interface.name(),
                f.manifest
                    .sources
                    .iter()
                    .map(|s| s.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if f.manifest.sources.len() == 1 { "does" } else { "do" },
                if others.is_empty() {
                    String::from("nothing global")
                } else {
                    others.join(", ")
                }
            );
        }
    }
    Ok(objects)
}

/// The global functions the objects define.
fn defined_functions(objects: &[PathBuf]) -> Result<BTreeSet<String>> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let mut defined = BTreeSet::new();
    for path in objects {
        let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let file = object::File::parse(&*data).with_context(|| format!("parsing {}", path.display()))?;
        for symbol in file.symbols() {
            if symbol.is_definition() && symbol.is_global() && symbol.kind() == SymbolKind::Text {
                if let Ok(name) = symbol.name() {
                    defined.insert(name.to_owned());
                }
            }
        }
    }
    Ok(defined)
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

fn toml_path(path: &Path) -> String {
    toml::Value::String(path.display().to_string()).to_string()
}

/// The package name of the Rust crate in `dir`.
fn package_name(dir: &Path) -> Result<String> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let value: toml::Value = toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
    value
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(str::to_owned)
        .with_context(|| format!("{}: no [package] name", path.display()))
}

/// The generated crate's manifest: the suite library with the target's features, each Rust
/// implementation's crate, the interfaces' crate patched in for them, and the tree's profiles.
fn manifest(root: &Path, features: &str, parts: &BTreeSet<&str>, folders: &[Folder]) -> Result<String> {
    let firmware = root.join("firmware");
    let mut text = String::from(
        "# Generated by cyclebench run --impl; rewritten on every build.\n\
         [package]\nname = \"cyclebench-suite-impl\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [[bin]]\nname = \"cyclebench-suite\"\npath = \"src/main.rs\"\ntest = false\nbench = false\n\n\
         [dependencies]\n",
    );
    let features: Vec<String> = features
        .split(',')
        .chain(["implementations"])
        .chain(parts.iter().copied())
        .filter(|f| !f.is_empty())
        .map(|f| toml::Value::String(f.to_owned()).to_string())
        .collect();
    let _ = writeln!(
        text,
        "cyclebench-suite = {{ path = {}, default-features = false, features = [{}] }}",
        toml_path(&firmware.join("suite")),
        features.join(", ")
    );
    let _ = writeln!(
        text,
        "cyclebench-impl = {{ path = {} }}",
        toml_path(&root.join(IMPL_CRATE))
    );
    text.push_str("riscv-rt = { version = \"0.12\", features = [\"single-hart\"] }\n");
    for f in folders.iter().filter(|f| f.manifest.language == Language::Rust) {
        let dir = f.crate_dir();
        let _ = writeln!(
            text,
            "user_{} = {{ package = \"{}\", path = {} }}",
            ident(&f.manifest.name),
            package_name(&dir)?,
            toml_path(&dir)
        );
    }
    let _ = writeln!(
        text,
        "\n# An implementation's crate depends on cyclebench-impl = \"0.1\"; this is it.\n\
         [patch.crates-io]\ncyclebench-impl = {{ path = {} }}\n",
        toml_path(&root.join(IMPL_CRATE))
    );
    // Profiles are read from the workspace root only: the tree's, so the suite compiles the
    // same here as in its own image.
    let tree: toml::Value =
        toml::from_str(&std::fs::read_to_string(firmware.join("Cargo.toml")).context("reading firmware/Cargo.toml")?)?;
    if let Some(profile) = tree.get("profile") {
        let mut table = toml::map::Map::new();
        table.insert(String::from("profile"), profile.clone());
        text.push_str(&toml::to_string(&toml::Value::Table(table))?);
    }
    text.push_str("\n[workspace]\n");
    Ok(text)
}

/// The build script: links the compiled C objects.
fn build_script(objects: &[PathBuf]) -> String {
    let mut text =
        String::from("//! Generated by cyclebench run --impl: links the C implementations' objects.\nfn main() {\n");
    for o in objects {
        let path = o.display().to_string();
        let _ = writeln!(
            text,
            "    println!(\"cargo:rustc-link-arg={}\");",
            path.escape_default()
        );
        let _ = writeln!(
            text,
            "    println!(\"cargo:rerun-if-changed={}\");",
            path.escape_default()
        );
    }
    text.push_str("}\n");
    text
}

fn bytes(b: &[u8]) -> String {
    let items: Vec<String> = b.iter().map(|x| format!("0x{x:02x}")).collect();
    format!("&[{}]", items.join(", "))
}

/// `main.rs`: the registry of the implementations and the entry point.
fn main_rs(folders: &[Folder], vectors: &[Vec<Vector>]) -> String {
    let mut text = String::from(
        "//! Generated by cyclebench run --impl: the suite, started with the run's implementations.\n\
         #![no_std]\n#![no_main]\n\n\
         use cyclebench_impl::{Implementation, Interface, Output, Reference, Secret, Vector};\n\n",
    );
    let mut externs = String::new();
    for f in folders.iter().filter(|f| f.manifest.language == Language::C) {
        let name = &f.manifest.name;
        let signature = |symbol: &str| match symbol {
            "crypto_hash" => "(out: *mut u8, input: *const u8, len: u64) -> i32",
            "crypto_block_setup" => "(context: *mut u8, key: *const u8) -> i32",
            "crypto_block_encrypt" => "(context: *const u8, out: *mut u8, input: *const u8) -> i32",
            "crypto_stream_xor" => {
                "(out: *mut u8, input: *const u8, len: u64, nonce: *const u8, key: *const u8) -> i32"
            }
            _ => "(out: *mut u8, input: *const u8, len: usize, key: *const u8) -> i32",
        };
        for symbol in f.manifest.interface.symbols() {
            let _ = writeln!(externs, "    fn {}{};", renamed(name, symbol), signature(symbol));
        }
    }
    if !externs.is_empty() {
        let _ = write!(text, "extern \"C\" {{\n{externs}}}\n\n");
    }
    for (i, v) in vectors.iter().enumerate() {
        let _ = writeln!(text, "static VECTORS_{i}: [Vector; {}] = [", v.len());
        for x in v {
            let _ = writeln!(
                text,
                "    Vector {{ key: {}, nonce: {}, input: {}, output: {} }},",
                bytes(&x.key),
                bytes(&x.nonce),
                bytes(&x.input),
                bytes(&x.output)
            );
        }
        text.push_str("];\n");
    }
    let _ = writeln!(
        text,
        "\nstatic IMPLEMENTATIONS: [Implementation; {}] = [",
        folders.len()
    );
    for (i, f) in folders.iter().enumerate() {
        let m = &f.manifest;
        let interface = match m.language {
            Language::Rust => {
                let function = match m.interface {
                    Interface::Hash => "hash_interface",
                    Interface::BlockCipher => "block_cipher_interface",
                    Interface::Stream => "stream_interface",
                    Interface::Function => "function_interface",
                };
                format!(
                    "cyclebench_impl::{function}::<user_{}::{}>()",
                    ident(&m.name),
                    m.rust_type.as_deref().unwrap_or_default()
                )
            }
            Language::C => {
                let r = |s: &str| renamed(&m.name, s);
                match m.interface {
                    Interface::Hash => format!(
                        "Interface::Hash {{ hash: {}, output_bytes: {} }}",
                        r("crypto_hash"),
                        match m.output_bytes {
                            Some(OutputBytes::Fixed(n)) => n,
                            _ => 32,
                        }
                    ),
                    Interface::BlockCipher => format!(
                        "Interface::BlockCipher {{ setup: {}, encrypt: {}, context_bytes: {}, key_bytes: {}, block_bytes: {} }}",
                        r("crypto_block_setup"),
                        r("crypto_block_encrypt"),
                        m.context_bytes.unwrap_or(0),
                        m.key_bytes.unwrap_or(0),
                        m.block_bytes.unwrap_or(16)
                    ),
                    Interface::Stream => format!(
                        "Interface::Stream {{ xor: {}, key_bytes: {}, nonce_bytes: {} }}",
                        r("crypto_stream_xor"),
                        m.key_bytes.unwrap_or(0),
                        m.nonce_bytes.unwrap_or(0)
                    ),
                    Interface::Function => format!(
                        "Interface::Function {{ function: {}, output_bytes: {}, key_bytes: {}, secret: {} }}",
                        r("crypto_function"),
                        match m.output_bytes {
                            Some(OutputBytes::Fixed(n)) => format!("Output::Fixed({n})"),
                            _ => String::from("Output::Input"),
                        },
                        m.key_bytes.unwrap_or(0),
                        match m.secret {
                            Some(Secret::Key) => "Secret::Key",
                            _ => "Secret::Data",
                        }
                    ),
                }
            }
        };
        let reference = m
            .algorithm
            .map_or(String::from("None"), |a| format!("Some(Reference::{})", a.reference()));
        let _ = writeln!(
            text,
            "    Implementation {{ name: \"{}\", interface: {interface}, reference: {reference}, vectors: &VECTORS_{i} }},",
            m.name
        );
    }
    text.push_str(
        "];\n\n\
         #[riscv_rt::entry]\nfn main() -> ! {\n    cyclebench_suite::start(&IMPLEMENTATIONS)\n}\n",
    );
    // Unused imports of a registry without C functions, or without functions, stay quiet.
    text.replace(
        "use cyclebench_impl::{",
        "#[allow(unused_imports)]\nuse cyclebench_impl::{",
    )
}
