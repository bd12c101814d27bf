//! The rules of the measured block, in one place for both sides: the suite's build script
//! (`build/layout.rs`) writes them into the linker script, and the host tool
//! (`cli/src/firmware/layout.rs`, which includes this file) sets a build's layout from them and
//! checks every linked image against them. A rule changed here changes both.
//!
//! The measured block holds the code and read-only data of everything a software window runs:
//! the suite's primitives and software modules, the crypto crates they call, core's memory
//! functions and the implementations of `run --impl`. Its input sections are sorted by name,
//! so its layout depends on its own contents only, never on the code outside it.

// Each includer uses its own part of the rules.
#![allow(dead_code)]

/// Bytes of never-run code before all other code in flash (Earl Grey): the experiment that
/// shows unrelated code moves nothing measured.
pub const PAD_VAR: &str = "CYCLEBENCH_LAYOUT_PAD";
/// Bytes the measured block starts past its boundary (Earl Grey): one placement of the block.
pub const PLACEMENT_VAR: &str = "CYCLEBENCH_PLACEMENT";
/// More crates to measure, comma-separated: the Rust implementations of `run --impl`.
pub const MEASURED_CRATES_VAR: &str = "CYCLEBENCH_MEASURED_CRATES";

/// The largest padding a build accepts (bytes).
pub const PAD_LIMIT: u32 = 65536;

/// The block's alignment: a multiple of every period of Earl Grey's fetch path (8-byte flash
/// words and fill lines, 2 KiB per way of the 4 KiB two-way instruction cache).
pub const BLOCK_ALIGN: u32 = 2048;

/// Where a measured function starts on the targets that run from RAM (`ibex-sim`, QEMU): the
/// alignment every Rust function of the suite gets (`firmware/.cargo/config.toml`) and every C
/// function of `run --impl` (`-falign-functions`), forced on every input section of the block so
/// that hand-written assembly follows it too. On Earl Grey the block is packed at 2 bytes
/// instead and moves only as a whole (placements).
pub const RAM_FUNCTION_ALIGN: u32 = 16;

/// The folder the C objects of `run --impl` are compiled into: the linker script knows them by
/// it, since their sections carry the names of C functions (in the implementation's namespace,
/// `.text.NAME::compress`), which no crate's pattern matches.
pub const OBJECTS_DIR: &str = "cyclebench-impl-objects";

/// The symbols the linker script defines at the block's two ends.
pub const START_SYMBOL: &str = "cyclebench_measured_start";
/// See [`START_SYMBOL`].
pub const END_SYMBOL: &str = "cyclebench_measured_end";

/// Crates whose code and read-only data are measured: the suite's primitives, the crypto
/// crates the suite and a user's implementations call.
pub const MEASURED_CRATES: &[&str] = &[
    "cyclebench_swcrypto",
    "cyclebench_impl",
    "aes",
    "block_buffer",
    "chacha20",
    "cipher",
    "crypto_bigint",
    "crypto_common",
    "ctr",
    "digest",
    "ecdsa",
    "elliptic_curve",
    "ff",
    "group",
    "inout",
    "keccak",
    "num_bigint_dig",
    "num_integer",
    "num_traits",
    "p256",
    "poly1305",
    "primeorder",
    "rfc6979",
    "rsa",
    "sha2",
    "sha3",
    "signature",
    "subtle",
    "universal_hash",
];

/// The suite's own software modules (what stands in for an accelerator): the module path as
/// an item's mangled name spells it, and as an impl's does.
const MEASURED_SUITE_PATHS: &[(&str, &str)] = &[("16cyclebench_suite8software", "cyclebench_suite..software..")];

/// The measured crates: [`MEASURED_CRATES`] and the comma-separated `extra` (the value of
/// [`MEASURED_CRATES_VAR`]).
pub fn measured_crates(extra: &str) -> Vec<String> {
    MEASURED_CRATES
        .iter()
        .map(|c| (*c).to_owned())
        .chain(
            extra
                .split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_owned),
        )
        .collect()
}

/// The block's input section patterns for `kind` (`.text`, `.rodata`, `.srodata`), one group
/// per line of the linker script, each group sorted by name there. The C objects, known by
/// their folder rather than by name, are not among them (see [`OBJECTS_DIR`]).
pub fn section_groups(kind: &str, crates: &[String]) -> Vec<Vec<String>> {
    let mut groups = Vec::new();
    if kind == ".text" {
        // The assembly primitives, and the memory and string functions of compiler_builtins,
        // which core calls and a C implementation's <string.h> declares.
        groups.push(vec![String::from(".text.cb_*")]);
        groups.push(
            ["memcpy", "memmove", "memset", "memcmp", "bcmp", "strlen"]
                .iter()
                .map(|f| format!(".text.{f}"))
                .collect(),
        );
        groups.push(vec![String::from(".text._R*17compiler_builtins3mem*")]);
    } else {
        groups.push(vec![format!("{kind}.cb_*")]);
    }
    for (item, path) in MEASURED_SUITE_PATHS {
        groups.push(vec![format!("{kind}._ZN{item}*"), format!("{kind}._ZN*{path}*")]);
    }
    for krate in crates {
        groups.push(crate_items(krate).iter().map(|item| format!("{kind}.{item}")).collect());
    }
    groups
}

/// The symbols of crate `krate`'s code and data, as patterns: an item of the crate
/// (`_ZN4sha2...`), and an impl that names one of its paths
/// (`_ZN.._$LT$sha2..Sha256VarCore$u20$as$u20$...`).
fn crate_items(krate: &str) -> [String; 2] {
    [format!("_ZN{}{krate}*", krate.len()), format!("_ZN*{krate}..*")]
}

/// Whether the symbol `symbol` is of crate `krate`, as the block's patterns take it.
pub fn is_crate_item(symbol: &str, krate: &str) -> bool {
    crate_items(krate).iter().any(|pattern| glob_match(pattern, symbol))
}

/// Whether the function `symbol` belongs in the block: whether the section the compiler put it
/// in (`.text.<symbol>`, every function in a section of its own) matches a `.text` pattern.
pub fn is_measured_function(symbol: &str, crates: &[String]) -> bool {
    let section = format!(".text.{symbol}");
    section_groups(".text", crates)
        .iter()
        .flatten()
        .any(|pattern| glob_match(pattern, &section))
}

/// A linker script's wildcard match: `*` is any run of characters, everything else itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and the text position it is matched up to.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// An even number of bytes, at most `limit`, from the value `text` of the setting `name`.
pub fn even_bytes(name: &str, text: &str, limit: u32) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n % 2 == 0 && n <= limit => Ok(n),
        _ => Err(format!(
            "{name}={text:?}: expected an even number of bytes up to {limit} (code is made of 2-byte instructions)"
        )),
    }
}
