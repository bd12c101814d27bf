//! The check every image build ends with, made on the linked ELF: every measured function lies
//! in the measured block, on the targets that run from RAM at the alignment the rules give it,
//! and an image of another layout (padding, placement) moved what that layout says it moves and
//! nothing else. A cycle count is only worth gating on if the code it measured sat where the
//! layout says; the linker script alone could not tell a pattern that stopped matching.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{bail, Context, Result};
use object::{Object, ObjectSymbol, SymbolKind};

use super::layout::rules::{self, BLOCK_ALIGN, END_SYMBOL, RAM_FUNCTION_ALIGN, START_SYMBOL};
use super::layout::Layout;

/// What is measured in an image: the crates of the block's patterns, and the C functions of
/// `run --impl` (known by name from their objects, as the block takes their objects whole).
#[derive(Clone, Debug)]
pub struct Measured {
    /// Measured crates, the suite's own list and the Rust implementations'.
    pub crates: Vec<String>,
    /// Functions the C implementations' objects define.
    pub c_functions: BTreeSet<String>,
}

impl Measured {
    /// The suite's own measured code.
    pub fn suite() -> Self {
        Self::new(&[], BTreeSet::new())
    }

    /// The suite's own measured code plus the Rust crates `extra_crates` and the C functions
    /// `c_functions`.
    pub fn new(extra_crates: &[String], c_functions: BTreeSet<String>) -> Self {
        Self {
            crates: rules::measured_crates(&extra_crates.join(",")),
            c_functions,
        }
    }

    fn contains(&self, symbol: &str) -> bool {
        self.c_functions.contains(symbol) || rules::is_measured_function(symbol, &self.crates)
    }
}

/// Where a function lies: its address and size.
type Span = (u64, u64);

/// The measured block of an image, as its ELF says.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// First address.
    pub start: u64,
    /// Address past its end.
    pub end: u64,
    /// Every measured function in it, by name.
    pub inside: BTreeMap<String, Span>,
    /// Every other function of the image, by name.
    pub outside: BTreeMap<String, Span>,
}

/// Reads the block of `elf` and checks that every function `measured` names lies in it, and,
/// when `ram` (a target that runs from RAM), starts on a [`RAM_FUNCTION_ALIGN`] boundary. A
/// violation is an error naming the functions.
pub fn check(elf: &Path, measured: &Measured, ram: bool) -> Result<Block> {
    let data = std::fs::read(elf).with_context(|| format!("reading {}", elf.display()))?;
    let file = object::File::parse(&*data).with_context(|| format!("{} is not an ELF", elf.display()))?;
    let mut start = None;
    let mut end = None;
    let mut functions = Vec::new();
    for symbol in file.symbols() {
        let Ok(name) = symbol.name() else { continue };
        match name {
            START_SYMBOL => start = Some(symbol.address()),
            END_SYMBOL => end = Some(symbol.address()),
            _ if symbol.kind() == SymbolKind::Text && symbol.size() > 0 && symbol.is_definition() => {
                functions.push((name.to_owned(), (symbol.address() & !1, symbol.size())));
            }
            _ => {}
        }
    }
    let (Some(start), Some(end)) = (start, end) else {
        bail!(
            "{}: no measured block ({START_SYMBOL} and {END_SYMBOL} are missing): the image was not linked with \
             the suite's layout",
            elf.display()
        );
    };
    let mut block = Block {
        start,
        end,
        inside: BTreeMap::new(),
        outside: BTreeMap::new(),
    };
    let mut misplaced = Vec::new();
    let mut misaligned = Vec::new();
    for (name, (address, size)) in functions {
        let within = address >= start && address + size <= end;
        if measured.contains(&name) {
            if !within {
                misplaced.push(format!("{} at {address:#x}", demangled(&name)));
            } else if ram && address % u64::from(RAM_FUNCTION_ALIGN) != 0 {
                misaligned.push(format!("{} at {address:#x}", demangled(&name)));
            }
        }
        let side = if within { &mut block.inside } else { &mut block.outside };
        side.insert(name, (address, size));
    }
    if !misplaced.is_empty() {
        bail!(
            "{}: {} measured function(s) outside the measured block ({start:#x}..{end:#x}), where other code can \
             move them and their cycles: {}",
            elf.display(),
            misplaced.len(),
            listed(&misplaced)
        );
    }
    if !misaligned.is_empty() {
        bail!(
            "{}: {} measured function(s) not on a {RAM_FUNCTION_ALIGN}-byte boundary: {}",
            elf.display(),
            misaligned.len(),
            listed(&misaligned)
        );
    }
    Ok(block)
}

/// Checks that `other`, an image of `layout`, differs from the default layout's image `default`
/// only as that layout says: the measured block moved by the placement and not otherwise (every
/// function at the same offset in it, plus the placement), and the code outside it by the padding (to within
/// the functions' alignment of 16 bytes), all of it by the same amount.
pub fn check_moved(default: &Block, other: &Block, layout: Layout) -> Result<()> {
    let placement = u64::from(layout.placement);
    // A placement that does not fit below the block's boundary starts it one boundary lower:
    // the same place to the fetch path, whose periods all divide the boundary.
    let lowered = default.start.checked_sub(other.start);
    let as_placed = match lowered {
        Some(0) => true,
        Some(d) => layout.placement != 0 && d % u64::from(BLOCK_ALIGN) == 0,
        None => false,
    };
    if !as_placed {
        bail!(
            "the measured block starts at {:#x} with {} bytes of padding and placement {}, at {:#x} without: \
             unrelated code moved it",
            other.start,
            layout.pad,
            layout.placement,
            default.start
        );
    }
    let mut wrong = Vec::new();
    for (name, &(address, size)) in &default.inside {
        match other.inside.get(name) {
            Some(&(a, s)) if a - other.start == address - default.start + placement && s == size => {}
            Some(&(a, s)) => wrong.push(format!(
                "{}: {size} B at {address:#x} without, {s} B at {a:#x} with",
                demangled(name)
            )),
            None => wrong.push(format!("{}: not in the block", demangled(name))),
        }
    }
    if !wrong.is_empty() {
        bail!(
            "the measured block changed with {} bytes of padding and placement {} (each function should sit \
             {placement} bytes further, unchanged): {}",
            layout.pad,
            layout.placement,
            listed(&wrong)
        );
    }
    let pad = u64::from(layout.pad);
    // Code outside the block that sits after the padding (riscv-rt's .text): how far it moved.
    let shifts: BTreeSet<u64> = default
        .outside
        .iter()
        .filter_map(|(name, &(address, _))| {
            let &(a, _) = other.outside.get(name)?;
            a.checked_sub(address).filter(|&d| d > 0)
        })
        .collect();
    // The code after the padding starts on an aligned address, so it moves by the padding give
    // or take that alignment (riscv-rt's `.text` after the padding is 4-aligned, the functions
    // in it 16-aligned).
    let expected = if pad == 0 {
        0..=0
    } else {
        pad.saturating_sub(16)..=pad + 16
    };
    match (shifts.len(), shifts.first()) {
        (0, _) if pad == 0 => Ok(()),
        (1, Some(shift)) if expected.contains(shift) => Ok(()),
        _ => bail!(
            "the code outside the measured block should move by {} bytes of padding as a whole, it moved by {:?} \
             bytes: the padding did not reach the image as laid out",
            layout.pad,
            shifts
        ),
    }
}

fn demangled(name: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(name))
}

/// The first few of `items`, and how many more.
fn listed(items: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut text = items.iter().take(SHOWN).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > SHOWN {
        text.push_str(&format!("; and {} more", items.len() - SHOWN));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firmware::symbols::test_elf;

    /// An ELF holding the block's two symbols and `functions` (name, address, size).
    fn elf(block: Span, functions: &[(&str, u64, u64)]) -> tempfile::NamedTempFile {
        let sized: Vec<_> = functions.iter().map(|&(n, a, s)| (n, a, s, SymbolKind::Text)).collect();
        test_elf::with_block(block, &sized, &[])
    }

    const SHA2: &str = "_ZN4sha26sha2568compress17h0123456789abcdefE";
    const MAIN: &str = "_ZN16cyclebench_suite5serve4loop17h0123456789abcdefE";

    #[test]
    fn a_measured_function_outside_the_block_is_an_error_naming_it() {
        let image = elf((0x800, 0x900), &[(SHA2, 0x100, 0x40), (MAIN, 0x200, 0x20)]);
        let error = check(image.path(), &Measured::new(&[], BTreeSet::new()), false).unwrap_err();
        let text = format!("{error:#}");
        assert!(text.contains("sha2::sha256::compress at 0x100"), "{text}");
        assert!(!text.contains("serve"), "{text}");
    }

    #[test]
    fn the_block_holding_every_measured_function_passes() {
        let image = elf((0x800, 0x900), &[(SHA2, 0x800, 0x40), (MAIN, 0x200, 0x20)]);
        let block = check(image.path(), &Measured::new(&[], BTreeSet::new()), true).expect("laid out");
        assert_eq!(block.inside.len(), 1);
        assert_eq!(block.outside.len(), 1);
    }

    #[test]
    fn c_functions_and_extra_crates_are_measured_too() {
        let image = elf((0x800, 0x900), &[("sha256_transform", 0x100, 0x40)]);
        let c = BTreeSet::from([String::from("sha256_transform")]);
        assert!(check(image.path(), &Measured::new(&[], c), false).is_err());
        let user = elf((0x800, 0x900), &[("_ZN7my_hash6update17h0123456789abcdefE", 0x100, 8)]);
        assert!(check(user.path(), &Measured::new(&[], BTreeSet::new()), false).is_ok());
        assert!(check(
            user.path(),
            &Measured::new(&[String::from("my_hash")], BTreeSet::new()),
            false
        )
        .is_err());
    }

    #[test]
    fn on_ram_targets_a_measured_function_off_its_boundary_is_an_error() {
        let image = elf((0x800, 0x900), &[(SHA2, 0x802, 0x40)]);
        let measured = Measured::new(&[], BTreeSet::new());
        assert!(check(image.path(), &measured, false).is_ok());
        let text = format!("{:#}", check(image.path(), &measured, true).unwrap_err());
        assert!(text.contains("16-byte boundary"), "{text}");
    }

    fn block(inside: &[(&str, u64)], outside: &[(&str, u64)]) -> Block {
        let map = |items: &[(&str, u64)]| items.iter().map(|&(n, a)| (n.to_owned(), (a, 8))).collect();
        Block {
            start: 0x800,
            end: 0x900,
            inside: map(inside),
            outside: map(outside),
        }
    }

    #[test]
    fn padding_must_move_the_other_code_and_nothing_measured() {
        let default = block(
            &[("a", 0x800), ("b", 0x820)],
            &[("boot", 0x10), ("main", 0x100), ("f", 0x120)],
        );
        let pad = Layout { pad: 6, placement: 0 };
        let padded = block(
            &[("a", 0x800), ("b", 0x820)],
            &[("boot", 0x10), ("main", 0x110), ("f", 0x130)],
        );
        check_moved(&default, &padded, pad).expect("moved as laid out");
        // The code after the padding starts on the next aligned address, which may lie a
        // little before the padding's end as well as after it.
        let pad = Layout {
            pad: 1234,
            placement: 0,
        };
        let near = block(
            &[("a", 0x800), ("b", 0x820)],
            &[("boot", 0x10), ("main", 0x100 + 1232), ("f", 0x120 + 1232)],
        );
        check_moved(&default, &near, pad).expect("moved by 1232 bytes for 1234");
        let far = block(
            &[("a", 0x800), ("b", 0x820)],
            &[("boot", 0x10), ("main", 0x100 + 2000), ("f", 0x120 + 2000)],
        );
        assert!(check_moved(&default, &far, pad).is_err());
        // The padding never reached the image.
        let unmoved = default.clone();
        assert!(check_moved(&default, &unmoved, pad).is_err());
        // A measured function moved.
        let moved = block(
            &[("a", 0x800), ("b", 0x822)],
            &[("boot", 0x10), ("main", 0x110), ("f", 0x130)],
        );
        assert!(check_moved(&default, &moved, pad).is_err());
    }

    #[test]
    fn a_placement_moves_the_whole_block_and_nothing_else() {
        let default = block(&[("a", 0x800), ("b", 0x820)], &[("main", 0x100)]);
        let placed = block(&[("a", 0x806), ("b", 0x826)], &[("main", 0x100)]);
        check_moved(&default, &placed, Layout { pad: 0, placement: 6 }).expect("placed");
        assert!(check_moved(&default, &placed, Layout { pad: 0, placement: 4 }).is_err());
    }
}
