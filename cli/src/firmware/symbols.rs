//! Function symbols of the suite's ELF, to turn an entry address the suite reports into the
//! name and code size of the function it called.

use std::path::Path;

use anyhow::{Context, Result};
use object::{Object, ObjectSymbol, SymbolKind};

/// A function symbol: name, first address and size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Symbol name (demangled where the compiler mangled it is not attempted: Rust names
    /// stay mangled, assembly names are plain).
    pub name: String,
    /// First address.
    pub address: u64,
    /// Size in bytes as recorded by the compiler or the assembler's `.size`.
    pub size: u64,
}

/// The function symbols of one ELF.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    functions: Vec<Function>,
}

impl Symbols {
    /// Reads the function symbols of `elf`.
    pub fn load(elf: &Path) -> Result<Self> {
        let data = std::fs::read(elf).with_context(|| format!("reading {}", elf.display()))?;
        let file = object::File::parse(&*data).with_context(|| format!("{} is not an ELF", elf.display()))?;
        let functions = file
            .symbols()
            .filter(|s| s.kind() == SymbolKind::Text && s.size() > 0)
            .filter_map(|s| {
                Some(Function {
                    name: s.name().ok()?.to_owned(),
                    // Compressed-ISA code never sets bit 0, but strip it as a Thumb-style
                    // marker would be stripped, so a lookup by call address always matches.
                    address: s.address() & !1,
                    size: s.size(),
                })
            })
            .collect();
        Ok(Self { functions })
    }

    /// The function whose code starts at `address`.
    pub fn at(&self, address: u64) -> Option<&Function> {
        self.functions.iter().find(|f| f.address == address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_functions_of_a_real_elf() {
        // The host test binary itself is an ELF with function symbols.
        let me = std::env::current_exe().expect("test binary path");
        let symbols = Symbols::load(&me).expect("readable ELF");
        let main = symbols
            .functions
            .iter()
            .find(|f| f.name == "main")
            .expect("a main symbol");
        assert_eq!(symbols.at(main.address).map(|f| f.name.as_str()), Some("main"));
        assert!(symbols.at(u64::MAX).is_none());
    }

    #[test]
    fn a_missing_file_is_an_error() {
        assert!(Symbols::load(Path::new("/nonexistent/suite.elf")).is_err());
    }
}
