//! How big an implementation is, from the symbol table of the image that carries it: the
//! record of a call to it says `code_bytes`, the whole implementation, and `glue_bytes`, the
//! function the suite called.

use super::namespace;
use crate::firmware::layout::rules;
use crate::firmware::symbols::{Code, Symbols};

/// The sizes of an implementation a record gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Every function and table of the implementation in the image.
    pub code_bytes: u64,
    /// The function the suite called.
    pub glue_bytes: u64,
}

/// The sizes of implementation `name` in the image of `symbols`, for a call that went to
/// `called`; `None` when the image does not carry it. A C implementation is every function
/// and table its objects put in the measured block (its names are its own: [`namespace`]); a
/// Rust one, every item of its crate there, plus the function the suite called: that is a
/// generic adapter of `cyclebench-impl`, named after no crate, into which the compiler may have
/// inlined all of the crate's code.
pub fn sizes(symbols: &Symbols, name: &str, called: &Code) -> Option<Sizes> {
    let krate = symbols.absolute().find_map(|s| namespace::marked_crate(name, s));
    let owns = |symbol: &str| match krate {
        Some(krate) => rules::is_crate_item(symbol, krate),
        None => namespace::is_local(name, symbol),
    };
    let own = match krate {
        // A crate whose every item the adapter took in has none left.
        Some(_) => symbols.measured_bytes(owns).unwrap_or(0),
        None => symbols.measured_bytes(owns)?,
    };
    let glue = called.bytes;
    Some(Sizes {
        code_bytes: if owns(&called.symbol) { own } else { own + glue },
        glue_bytes: glue,
    })
}

#[cfg(test)]
mod tests {
    use object::SymbolKind;

    use super::*;
    use crate::firmware::symbols::test_elf;

    const BLOCK: (u64, u64) = (0x800, 0x900);

    /// The symbols of an ELF with a measured block at [`BLOCK`], holding `sized` (name,
    /// address, size, kind), and the absolute symbols `absolute`.
    fn symbols(sized: &[(&str, u64, u64, SymbolKind)], absolute: &[&str]) -> Symbols {
        let file = test_elf::with_block(BLOCK, sized, absolute);
        Symbols::load(file.path()).expect("symbols")
    }

    fn called(symbol: &str, bytes: u64) -> Code {
        Code {
            symbol: symbol.to_owned(),
            bytes,
        }
    }

    #[test]
    fn a_c_implementation_is_every_function_and_table_of_its_own_in_the_block() {
        let s = symbols(
            &[
                ("sha-c::crypto_hash", 0x800, 0x40, SymbolKind::Text),
                ("sha-c::compress", 0x840, 0x80, SymbolKind::Text),
                ("sha-c::K", 0x8c0, 0x20, SymbolKind::Data),
                // Another implementation's, whose name starts alike.
                ("sha::compress", 0x8e0, 0x10, SymbolKind::Text),
                // Out of the block: writable data, not code.
                ("sha-c::state", 0x100, 0x20, SymbolKind::Data),
            ],
            &[],
        );
        let c = sizes(&s, "sha-c", &called("sha-c::crypto_hash", 0x40)).expect("carried");
        assert_eq!(
            c,
            Sizes {
                code_bytes: 0x40 + 0x80 + 0x20,
                glue_bytes: 0x40
            }
        );
        assert!(sizes(&s, "other-c", &called("x", 1)).is_none());
    }

    #[test]
    fn a_rust_implementation_is_its_crates_items_and_the_adapter_called() {
        let adapter = "_ZN15cyclebench_impl8adapters4hash17h0123456789abcdefE";
        let s = symbols(
            &[
                (
                    "_ZN7my_hash5block17h0123456789abcdefE",
                    0x800,
                    0x100 - 0x80,
                    SymbolKind::Text,
                ),
                (adapter, 0x880, 0x40, SymbolKind::Text),
                (
                    "_ZN4sha26sha2568compress17h0123456789abcdefE",
                    0x8c0,
                    0x30,
                    SymbolKind::Text,
                ),
            ],
            &[&namespace::crate_marker("mine-rust", "my_hash")],
        );
        let rust = sizes(&s, "mine-rust", &called(adapter, 0x40)).expect("carried");
        assert_eq!(
            rust,
            Sizes {
                code_bytes: 0x80 + 0x40,
                glue_bytes: 0x40
            }
        );
    }
}
