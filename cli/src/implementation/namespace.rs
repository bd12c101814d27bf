//! Each implementation in a namespace of its own. Once a C folder's sources are compiled, every
//! symbol its objects define is renamed `NAME::symbol`, NAME the implementation's name: in all
//! of the folder's objects at once, so that a call from one of its sources to a function of
//! another still meets it, while any number of folders defining the same names (two versions
//! of one library) link into one image, and none of them can take a name of the suite's
//! (`memcpy`, `main`). No C identifier and no Rust symbol contains `::`, and no two
//! implementations share a name, so no renamed symbol meets another. The interface's functions
//! are renamed alike; the generated registry calls them by their new names.
//!
//! The objects' code and read-only data sections are renamed the same way (`.text.compress`
//! becomes `.text.NAME::compress`): the measured block sorts its sections by name, and so holds
//! each implementation's code and each one's tables in one piece, in the order of the
//! implementations' names, whichever order `--impl` gave the folders in.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};

/// The tool that renames: LLVM's objcopy, from Debian's `llvm` package (`scripts/setup.sh`).
pub(super) const OBJCOPY: &str = "llvm-objcopy";

/// What sets an implementation's name apart from the names in it.
const SEPARATOR: &str = "::";

/// The name `symbol` of implementation `name` has in the image.
pub(super) fn local(name: &str, symbol: &str) -> String {
    format!("{name}{SEPARATOR}{symbol}")
}

/// Whether the image's symbol `symbol` is one of implementation `name`'s C symbols.
pub(super) fn is_local(name: &str, symbol: &str) -> bool {
    symbol
        .strip_prefix(name)
        .is_some_and(|rest| rest.starts_with(SEPARATOR))
}

/// What a marker names after the implementation: the Rust crate that holds its code.
const CRATE_MARKER: &str = "crate";

/// An absolute symbol (no bytes, no address) the image's link defines for a Rust implementation:
/// it names the crate whose items are implementation `name`'s, which nothing else in the image
/// records (a mangled name carries its crate's name, not the implementation's).
pub(super) fn crate_marker(name: &str, krate: &str) -> String {
    local(name, &format!("{CRATE_MARKER}{SEPARATOR}{krate}"))
}

/// The crate a [`crate_marker`] of implementation `name` names, if `symbol` is one.
pub(super) fn marked_crate<'a>(name: &str, symbol: &'a str) -> Option<&'a str> {
    let rest = symbol.strip_prefix(name)?.strip_prefix(SEPARATOR)?;
    rest.strip_prefix(CRATE_MARKER)?.strip_prefix(SEPARATOR)
}

/// The sections the measured block takes from an object, as the linker script names them: code
/// and read-only data, each either bare or with a suffix (`.text.compress`).
const MEASURED_SECTIONS: [&str; 3] = [".text", ".rodata", ".srodata"];

/// The symbols of one compiled object, as the renaming and the checks before it need them.
#[derive(Debug, Default)]
pub(super) struct ObjectSymbols {
    /// Every symbol it defines that other objects see (functions, tables, assembly labels),
    /// weak and common ones too.
    pub globals: BTreeSet<String>,
    /// Of those, the ones that must be defined once: not weak, not common.
    pub strong: BTreeSet<String>,
    /// The global functions it defines.
    pub functions: BTreeSet<String>,
    /// The functions and data objects only it sees (`static`), and the compiler's named
    /// constants (`.L.str`, switch tables).
    pub locals: BTreeSet<String>,
    /// What it uses and does not define.
    pub undefined: BTreeSet<String>,
    /// Its sections the measured block takes.
    pub sections: Vec<String>,
}

impl ObjectSymbols {
    /// Reads the relocatable object `path`.
    pub fn read(path: &Path) -> Result<Self> {
        let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let file = object::File::parse(&*data).with_context(|| format!("parsing {}", path.display()))?;
        let mut symbols = Self::default();
        for symbol in file.symbols() {
            let Ok(name) = symbol.name() else { continue };
            let kind = symbol.kind();
            if name.is_empty() || matches!(kind, SymbolKind::Section | SymbolKind::File) {
                continue;
            }
            let name = name.to_owned();
            if symbol.is_undefined() {
                symbols.undefined.insert(name);
            } else if symbol.is_local() {
                // Labels (`.LBB0_2`, `.Lpcrel_hi0`) stay as they are: they have no size and
                // nothing outside the object refers to them.
                if matches!(kind, SymbolKind::Text | SymbolKind::Data) {
                    symbols.locals.insert(name);
                }
            } else {
                if !symbol.is_weak() && !symbol.is_common() {
                    symbols.strong.insert(name.clone());
                }
                if kind == SymbolKind::Text {
                    symbols.functions.insert(name.clone());
                }
                symbols.globals.insert(name);
            }
        }
        symbols.sections = file
            .sections()
            .filter_map(|s| s.name().ok().map(str::to_owned))
            .filter(|s| renamed_section("", s).is_some())
            .collect();
        Ok(symbols)
    }
}

/// The name of section `section` of implementation `name`, if the measured block takes it.
fn renamed_section(name: &str, section: &str) -> Option<String> {
    MEASURED_SECTIONS.iter().find_map(|kind| {
        let rest = section.strip_prefix(kind)?;
        let suffix = match rest.strip_prefix('.') {
            Some(suffix) => suffix,
            None if rest.is_empty() => "",
            None => return None,
        };
        Some(format!("{kind}.{}", local(name, suffix)))
    })
}

/// Writes `to`, the object `from` of implementation `name` with its names in the
/// implementation's namespace: the symbols `folder` (every global one the folder's objects
/// define) and the object's own local ones, and its measured sections.
pub(super) fn rename(
    name: &str,
    from: &Path,
    to: &Path,
    folder: &BTreeSet<String>,
    object: &ObjectSymbols,
) -> Result<()> {
    // A reference to a symbol another object of the folder defines is renamed with it: the map
    // holds every global name of the folder, whether this object defines or uses it.
    let mut map = String::new();
    for symbol in folder.iter().chain(&object.locals) {
        let _ = writeln!(map, "{symbol} {}", local(name, symbol));
    }
    let map_file = to.with_extension("symbols");
    std::fs::write(&map_file, map).with_context(|| format!("writing {}", map_file.display()))?;
    let mut command = Command::new(OBJCOPY);
    command.arg(format!("--redefine-syms={}", map_file.display()));
    for section in &object.sections {
        if let Some(renamed) = renamed_section(name, section) {
            command.arg(format!("--rename-section={section}={renamed}"));
        }
    }
    let output = command
        .arg(from)
        .arg(to)
        .output()
        .with_context(|| format!("running {OBJCOPY} (run scripts/setup.sh, which installs it)"))?;
    std::fs::remove_file(&map_file).ok();
    if !output.status.success() {
        bail!(
            "{name}: {OBJCOPY} failed on {}:\n{}",
            from.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_its_implementations_alone() {
        assert_eq!(local("sha256-c", "compress"), "sha256-c::compress");
        assert!(is_local("sha256-c", "sha256-c::compress"));
        // Another implementation whose name starts alike owns nothing of this one.
        assert!(!is_local("sha256", "sha256-c::compress"));
        assert!(!is_local("sha256-c", "compress"));
        let marker = crate_marker("poly-rust", "poly1305_impl");
        assert_eq!(marked_crate("poly-rust", &marker), Some("poly1305_impl"));
        assert_eq!(marked_crate("poly", &marker), None);
        assert_eq!(marked_crate("poly-rust", "poly-rust::compress"), None);
    }

    #[test]
    fn the_measured_sections_are_renamed_and_the_others_kept() {
        assert_eq!(
            renamed_section("a", ".text.compress").as_deref(),
            Some(".text.a::compress")
        );
        assert_eq!(renamed_section("a", ".rodata").as_deref(), Some(".rodata.a::"));
        assert_eq!(
            renamed_section("a", ".srodata.cst8").as_deref(),
            Some(".srodata.a::cst8")
        );
        for kept in [".textual", ".data.x", ".bss", ".rela.text.f", ".comment", ".sdata"] {
            assert_eq!(renamed_section("a", kept), None, "{kept}");
        }
    }
}
