//! Function symbols of the suite's ELF, to turn an entry address the suite reports into the
//! name and code size of the function it called.
//!
//! The suite calls assembly primitives through thin Rust wrappers (safe signature around an
//! `extern "C"` symbol), so the code behind an entry is the wrapper plus the `cb_*` assembly
//! functions it jumps or calls to directly; those are found by decoding the wrapper's jumps.
//!
//! The measured block's functions and tables are kept too, by name, for the size of what a
//! group of them makes up (an implementation from outside the tree: `implementation::sizes`).

use std::path::Path;

use anyhow::{Context, Result};
use object::{Object, ObjectSection, ObjectSymbol, SymbolKind, SymbolSection};

use super::layout::rules::{END_SYMBOL, START_SYMBOL};

/// A function symbol: name, first address and size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Symbol name as in the ELF: Rust names mangled, assembly names plain.
    pub name: String,
    /// First address.
    pub address: u64,
    /// Size in bytes as recorded by the compiler or the assembler's `.size`.
    pub size: u64,
}

/// The code behind an entry address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// The assembly function a wrapper leads to, else the entry function itself.
    pub symbol: String,
    /// Bytes of the entry function plus the assembly functions it leads to.
    pub bytes: u64,
}

/// The function symbols of one ELF, with the bytes of its code sections.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    functions: Vec<Function>,
    /// (address, bytes) of every executable section.
    text: Vec<(u64, Vec<u8>)>,
    /// Every function and data object (table) of the measured block with a size: (name, bytes).
    measured: Vec<(String, u64)>,
    /// The names of the absolute symbols: no code, no data, values the link defined.
    absolute: Vec<String>,
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
        let text = file
            .sections()
            .filter(|s| s.kind() == object::SectionKind::Text)
            .filter_map(|s| Some((s.address(), s.data().ok()?.to_vec())))
            .collect();
        let address = |name: &str| file.symbols().find(|s| s.name() == Ok(name)).map(|s| s.address());
        let measured = match (address(START_SYMBOL), address(END_SYMBOL)) {
            (Some(start), Some(end)) => file
                .symbols()
                .filter(|s| matches!(s.kind(), SymbolKind::Text | SymbolKind::Data) && s.size() > 0)
                .filter(|s| (start..end).contains(&(s.address() & !1)))
                .filter_map(|s| Some((s.name().ok()?.to_owned(), s.size())))
                .collect(),
            _ => Vec::new(),
        };
        let absolute = file
            .symbols()
            .filter(|s| s.section() == SymbolSection::Absolute)
            .filter_map(|s| Some(s.name().ok()?.to_owned()))
            .collect();
        Ok(Self {
            functions,
            text,
            measured,
            absolute,
        })
    }

    /// The bytes of the functions and tables in the measured block whose names `owns` accepts;
    /// `None` when it accepts none.
    pub fn measured_bytes(&self, owns: impl Fn(&str) -> bool) -> Option<u64> {
        let mut owned = self.measured.iter().filter(|(name, _)| owns(name)).peekable();
        owned.peek()?;
        Some(owned.map(|(_, size)| size).sum())
    }

    /// The names of the absolute symbols, which stand for no code or data.
    pub fn absolute(&self) -> impl Iterator<Item = &str> {
        self.absolute.iter().map(String::as_str)
    }

    /// The code behind `address`: the function there, plus the `cb_*` assembly functions it
    /// jumps to or calls directly.
    pub fn code(&self, address: u64) -> Option<Code> {
        let entry = self.at(address)?;
        let bytes = self.bytes(entry.address, entry.size)?;
        let mut code = Code {
            symbol: entry.name.clone(),
            bytes: entry.size,
        };
        let mut seen = Vec::new();
        for target in jump_targets(entry.address, bytes) {
            if let Some(f) = self.at(target).filter(|f| f.name.starts_with("cb_")) {
                if !seen.contains(&f.address) {
                    seen.push(f.address);
                    code.symbol = f.name.clone();
                    code.bytes += f.size;
                }
            }
        }
        Some(code)
    }

    fn bytes(&self, address: u64, size: u64) -> Option<&[u8]> {
        self.text.iter().find_map(|(start, data)| {
            let offset = usize::try_from(address.checked_sub(*start)?).ok()?;
            data.get(offset..offset.checked_add(usize::try_from(size).ok()?)?)
        })
    }

    /// The function whose code starts at `address`.
    pub fn at(&self, address: u64) -> Option<&Function> {
        self.functions.iter().find(|f| f.address == address)
    }
}

/// Targets of the direct jumps and calls in RISC-V code at `address`: `jal`, `c.j`, `c.jal`
/// (RV32), and `auipc` + `jalr` pairs on the same register.
fn jump_targets(address: u64, code: &[u8]) -> Vec<u64> {
    let mut targets = Vec::new();
    let mut pc = 0usize;
    let mut auipc: Option<(u32, u64)> = None; // (rd, pc + upper immediate)
    while pc + 2 <= code.len() {
        let low = u16::from_le_bytes([code[pc], code[pc + 1]]);
        let here = address + pc as u64;
        if low & 0b11 != 0b11 {
            // Compressed: c.j (funct3 101) and c.jal (001) in quadrant 1.
            let funct3 = low >> 13;
            if low & 0b11 == 0b01 && (funct3 == 0b101 || funct3 == 0b001) {
                let b = |bit: u16| u32::from((low >> bit) & 1);
                let imm = (b(12) << 11)
                    | (b(8) << 10)
                    | (b(10) << 9)
                    | (b(9) << 8)
                    | (b(6) << 7)
                    | (b(7) << 6)
                    | (b(2) << 5)
                    | (b(11) << 4)
                    | (b(5) << 3)
                    | (b(4) << 2)
                    | (b(3) << 1);
                let offset = ((imm << 20) as i32) >> 20;
                targets.push(here.wrapping_add_signed(i64::from(offset)));
            }
            auipc = None;
            pc += 2;
            continue;
        }
        if pc + 4 > code.len() {
            break;
        }
        let word = u32::from_le_bytes([code[pc], code[pc + 1], code[pc + 2], code[pc + 3]]);
        let rd = (word >> 7) & 0x1f;
        match word & 0x7f {
            0x6f => {
                let imm = ((word >> 31) << 20)
                    | (((word >> 12) & 0xff) << 12)
                    | (((word >> 20) & 1) << 11)
                    | (((word >> 21) & 0x3ff) << 1);
                let offset = ((imm << 11) as i32) >> 11;
                targets.push(here.wrapping_add_signed(i64::from(offset)));
                auipc = None;
            }
            0x17 => auipc = Some((rd, here.wrapping_add_signed(i64::from((word & 0xffff_f000) as i32)))),
            0x67 => {
                let rs1 = (word >> 15) & 0x1f;
                if let Some((_, base)) = auipc.filter(|(reg, _)| *reg == rs1) {
                    targets.push(base.wrapping_add_signed(i64::from((word as i32) >> 20)));
                }
                auipc = None;
            }
            _ => auipc = None,
        }
        pc += 4;
    }
    targets
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
    fn decodes_direct_jumps() {
        // jal x0, +8 ; c.j -4 ; auipc t1, 0x1 ; jalr x0, 16(t1) ; jal ra, -2048
        let mut code = Vec::new();
        code.extend(0x0080_006fu32.to_le_bytes());
        code.extend(0xbff5u16.to_le_bytes());
        code.extend(0x0000_1317u32.to_le_bytes());
        code.extend(0x0103_0067u32.to_le_bytes());
        code.extend(0x801f_f0efu32.to_le_bytes());
        let t = jump_targets(0x1000, &code);
        assert_eq!(t, vec![0x1008, 0x1000, 0x1006 + 0x1000 + 16, 0x100e - 2048]);
    }

    #[test]
    fn a_missing_file_is_an_error() {
        assert!(Symbols::load(Path::new("/nonexistent/suite.elf")).is_err());
    }
}

/// Synthetic ELF files for the tests of what reads the measured block.
#[cfg(test)]
pub mod test_elf {
    use object::write::{Object as Writer, StandardSection, Symbol, SymbolSection};
    use object::{Architecture, BinaryFormat, Endianness, SymbolFlags, SymbolKind, SymbolScope};

    use crate::firmware::layout::rules::{END_SYMBOL, START_SYMBOL};

    /// An RV32 ELF whose 4 KiB text section holds a measured block from `block.0` to
    /// `block.1`, the symbols `sized` (name, address, size, kind) and the absolute symbols
    /// `absolute`.
    pub fn with_block(
        block: (u64, u64),
        sized: &[(&str, u64, u64, SymbolKind)],
        absolute: &[&str],
    ) -> tempfile::NamedTempFile {
        let mut obj = Writer::new(BinaryFormat::Elf, Architecture::Riscv32, Endianness::Little);
        let text = obj.section_id(StandardSection::Text);
        obj.append_section_data(text, &[0; 0x1000], 16);
        let mut add = |name: &str, value: u64, size: u64, kind: SymbolKind, section: SymbolSection| {
            obj.add_symbol(Symbol {
                name: name.as_bytes().to_vec(),
                value,
                size,
                kind,
                scope: SymbolScope::Linkage,
                weak: false,
                section,
                flags: SymbolFlags::None,
            });
        };
        let in_text = SymbolSection::Section(text);
        add(START_SYMBOL, block.0, 0, SymbolKind::Label, in_text);
        add(END_SYMBOL, block.1, 0, SymbolKind::Label, in_text);
        for &(name, address, size, kind) in sized {
            add(name, address, size, kind, in_text);
        }
        for name in absolute {
            add(name, 0, 0, SymbolKind::Label, SymbolSection::Absolute);
        }
        let mut file = tempfile::NamedTempFile::new().expect("temporary file");
        std::io::Write::write_all(&mut file, &obj.write().expect("an ELF")).expect("written");
        file
    }
}
