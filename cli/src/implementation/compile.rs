//! C implementations compiled with clang for the target's core: their flags, their objects,
//! the checks that they define the interface's functions and no name twice, and their names
//! put in the implementation's namespace.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::manifest::{CSources, Folder};
use super::namespace::{self, ObjectSymbols};
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

/// The Rust identifier the generated registry declares an interface function of
/// implementation `name` by; its symbol is [`namespace::local`]'s.
pub(super) fn renamed(name: &str, symbol: &str) -> String {
    format!("cyclebench_{}_{symbol}", ident(name))
}

/// The functions the suite gives C: what `include/string.h` declares, the only C library an
/// implementation has. A call to anything else that the folder does not define fails the
/// image's link, which names it.
pub(super) const PROVIDED: [&str; 5] = ["memcpy", "memmove", "memset", "memcmp", "strlen"];

/// The flags of one C implementation: the target's, the headers' folder (after the folder's
/// own `-I` paths, so that a header of the folder's takes precedence), then its own.
pub(super) fn c_flags(c: &CSources, zbb: bool) -> Vec<String> {
    let include = firmware::repo_root().join("firmware/impl/include");
    let mut flags = target_cflags(zbb);
    flags.push(String::from("-isystem"));
    flags.push(include.display().to_string());
    flags.extend(c.cflags.iter().cloned());
    flags
}

/// The objects of a C implementation, every name in them its own ([`namespace`]).
pub(super) struct Compiled {
    /// The objects, by name.
    pub objects: Vec<PathBuf>,
    /// What they use that the folder does not define: the suite's functions, the compiler's
    /// run-time helpers, or a function that is nowhere.
    pub undefined: BTreeSet<String>,
}

/// Compiles every source of `c`, the C of folder `f`, into `out`; a compiler error comes back
/// as the compiler wrote it, with the folder's file and line. Then checks that the interface's
/// functions are defined and no global name is defined twice, and puts every name of the
/// folder in its namespace.
pub(super) fn compile_c(f: &Folder, c: &CSources, flags: &[String], out: &Path) -> Result<Compiled> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let name = &f.manifest.name;
    let mut compiled = Vec::new();
    for source in &c.sources {
        let object = out.join(format!("{}.o", source.display().to_string().replace(['/', '\\'], "_")));
        let raw = object.with_extension("o.raw");
        let output = Command::new(CC)
            .current_dir(&f.dir)
            .args(flags)
            .arg("-c")
            .arg(source)
            .arg("-o")
            .arg(&raw)
            .output()
            .with_context(|| format!("running {CC} (run scripts/setup.sh, which installs it)"))?;
        if !output.status.success() {
            bail!(
                "{name}: {} failed on {} in {}:\n{}",
                CC,
                source.display(),
                f.dir.display(),
                String::from_utf8_lossy(&output.stderr).trim_end()
            );
        }
        let symbols = ObjectSymbols::read(&raw)?;
        compiled.push((source, raw, object, symbols));
    }
    let defined: BTreeSet<String> = compiled
        .iter()
        .flat_map(|(.., symbols)| symbols.functions.iter().cloned())
        .collect();
    let interface = c.interface.interface();
    for symbol in interface.functions().iter().map(|function| function.symbol) {
        if !defined.contains(symbol) {
            bail!(
                "{name}: interface {} needs the function {symbol}, which {} {} not define (defined: {}); \
                 its prototype is in cyclebench.h",
                interface.name(),
                c.sources
                    .iter()
                    .map(|s| s.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if c.sources.len() == 1 { "does" } else { "do" },
                if defined.is_empty() {
                    String::from("nothing global")
                } else {
                    defined.iter().cloned().collect::<Vec<_>>().join(", ")
                }
            );
        }
    }
    // Two definitions of one name would meet only at the image's link, in the renamed form.
    let mut globals = BTreeSet::new();
    for (i, (source, .., symbols)) in compiled.iter().enumerate() {
        for symbol in &symbols.strong {
            if let Some((other, ..)) = compiled[..i].iter().find(|(.., s)| s.strong.contains(symbol)) {
                bail!(
                    "{name}: {symbol} is defined in both {} and {}: define it in one, declare it `extern` in the \
                     other, or give both `static` linkage",
                    other.display(),
                    source.display()
                );
            }
        }
        globals.extend(symbols.globals.iter().cloned());
    }
    let mut objects = Vec::new();
    let mut undefined = BTreeSet::new();
    for (_, raw, object, symbols) in &compiled {
        // Renamed beside the last object and put in its place only when it differs: an object
        // that did not change keeps its time, and cargo then neither relinks nor rebuilds.
        let fresh = object.with_extension("o.new");
        namespace::rename(name, raw, &fresh, &globals, symbols)?;
        std::fs::remove_file(raw).ok();
        if std::fs::read(&fresh).ok() != std::fs::read(object).ok() {
            std::fs::rename(&fresh, object).with_context(|| format!("writing {}", object.display()))?;
        } else {
            std::fs::remove_file(&fresh).ok();
        }
        undefined.extend(symbols.undefined.iter().filter(|s| !globals.contains(*s)).cloned());
        objects.push(object.clone());
    }
    Ok(Compiled { objects, undefined })
}

/// The functions `objects` define, static ones too (which the layout check looks for in the
/// image).
pub(super) fn functions_of(objects: &[PathBuf]) -> Result<BTreeSet<String>> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let mut defined = BTreeSet::new();
    for path in objects {
        let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let file = object::File::parse(&*data).with_context(|| format!("parsing {}", path.display()))?;
        for symbol in file.symbols() {
            if symbol.is_definition() && symbol.kind() == SymbolKind::Text {
                if let Ok(name) = symbol.name() {
                    defined.insert(name.to_owned());
                }
            }
        }
    }
    Ok(defined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_h_declares_what_the_suite_provides_and_nothing_else() {
        let header = firmware::repo_root().join("firmware/impl/include/string.h");
        let text = std::fs::read_to_string(&header).expect("string.h");
        // Every prototype's name: the word before its opening parenthesis.
        let declared: BTreeSet<&str> = text
            .lines()
            .filter(|line| line.trim_end().ends_with(");"))
            .filter_map(|line| line.split('(').next()?.rsplit([' ', '*']).next())
            .collect();
        assert_eq!(declared, BTreeSet::from(PROVIDED), "{}", header.display());
    }
}
