//! C implementations compiled with clang for the target's core: their flags, their objects,
//! and the check that they define the interface's functions.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::manifest::{CSources, Folder};
use crate::firmware;
use crate::firmware::layout::rules::RAM_FUNCTION_ALIGN;

/// The flags every C implementation is compiled with for a core with Zbb or without: the
/// suite's ISA and ABI, freestanding, each function in a section of its own (so that the
/// linker keeps only what is called) and aligned as the suite's own measured functions.
pub(super) fn target_cflags(zbb: bool) -> Vec<String> {
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
    // Every function on the boundary the suite's own measured functions start on: clang's
    // default (2 bytes with compressed code) leaves a routine at 2 or 0 mod 4 depending on what
    // precedes it, which on Ibex costs cycles.
    .chain([format!("-falign-functions={RAM_FUNCTION_ALIGN}")])
    .collect()
}

/// The C compiler, and the one way to ask a compiler its version: shared with `run.json`,
/// which names the compilers of every image.
pub(super) use crate::run::meta::{compiler_version, CLANG as CC};

/// A C identifier for an implementation's name.
pub(super) fn ident(name: &str) -> String {
    name.replace('-', "_")
}

/// The name an interface function of implementation `name` is renamed to, so that several
/// implementations of one interface link into one image.
pub(super) fn renamed(name: &str, symbol: &str) -> String {
    format!("cyclebench_{}_{symbol}", ident(name))
}

/// The flags of one C implementation `name`: the target's, its interface's renaming, the
/// header's folder, then its own.
pub(super) fn c_flags(name: &str, c: &CSources, zbb: bool) -> Vec<String> {
    let include = firmware::repo_root().join("firmware/impl/include");
    let mut flags = target_cflags(zbb);
    flags.push(format!("-I{}", include.display()));
    for function in c.interface.interface().functions() {
        flags.push(format!("-D{}={}", function.symbol, renamed(name, function.symbol)));
    }
    flags.extend(c.cflags.iter().cloned());
    flags
}

/// Compiles every source of `c`, the C of folder `f`, into `out`; a compiler error comes back
/// as the compiler wrote it, with the folder's file and line. Then checks that the interface's
/// functions are defined.
pub(super) fn compile_c(f: &Folder, c: &CSources, flags: &[String], out: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut objects = Vec::new();
    for source in &c.sources {
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
    let interface = c.interface.interface();
    for symbol in interface.functions().iter().map(|function| function.symbol) {
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
                interface.name(),
                c.sources
                    .iter()
                    .map(|s| s.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if c.sources.len() == 1 { "does" } else { "do" },
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
pub(super) fn defined_functions(objects: &[PathBuf]) -> Result<BTreeSet<String>> {
    functions_of(objects, true)
}

/// The functions `objects` define: the global ones only when `global_only`, else every one
/// (static functions too, which the layout check looks for in the image).
pub(super) fn functions_of(objects: &[PathBuf], global_only: bool) -> Result<BTreeSet<String>> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let mut defined = BTreeSet::new();
    for path in objects {
        let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let file = object::File::parse(&*data).with_context(|| format!("parsing {}", path.display()))?;
        for symbol in file.symbols() {
            if symbol.is_definition() && (symbol.is_global() || !global_only) && symbol.kind() == SymbolKind::Text {
                if let Ok(name) = symbol.name() {
                    defined.insert(name.to_owned());
                }
            }
        }
    }
    Ok(defined)
}
