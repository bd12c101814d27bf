//! Where the measured code sits in Earl Grey's flash: `$OUT_DIR/layout.x`, which the platform's
//! `memory.x` includes, and `$OUT_DIR/layout_pad.rs`, which the suite's `lib.rs` includes.
//!
//! With the instruction cache off (as in every window), Ibex fetches flash code through the
//! flash controller's four read buffers of one 8-byte flash word each: what a software
//! primitive costs depends on where its code and tables fall relative to those words, and on
//! which of them it shares with what runs around it (`docs/analysis.md`). A link puts every
//! function after the code before it, so a build with a few bytes more of unrelated code moved
//! every primitive and changed its cycles. Here the code and read-only data of the measured
//! crates go into one block of their own, `.measured_text` then `.measured_rodata`, sorted by
//! name, ending at the top of the flash bank the image is loaded into: its address depends only
//! on its own size, never on the code outside it. All other read-only data comes first in
//! flash, before any code, so no change of code moves a table the measured code reads either.
//!
//! Two settings, from the environment of the build (the CLI sets them):
//! - `CYCLEBENCH_LAYOUT_PAD=N`: `N` bytes of never-run code (`c.nop`s) at the start of flash,
//!   before every other function: the experiment that shows unrelated code moves nothing
//!   measured.
//! - `CYCLEBENCH_MEASURED_CRATES=a,b`: more crates to measure, the Rust implementations of
//!   `run --impl`.
//! - `CYCLEBENCH_PLACEMENT=P`: the measured block starts `P` bytes past its 2 KiB boundary. Its
//!   input sections are packed at 2-byte alignment, so the block moves as a whole and `P` is
//!   one placement of the same code, what `"placements": N` measures.

use std::path::Path;

/// Crates whose code and read-only data are measured: the suite's primitives, the crypto
/// crates the suite and a user's implementations call, and core's memory functions (which
/// `compiler_builtins` provides).
const MEASURED_CRATES: &[&str] = &[
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
/// an item's name spells it, and as an impl's does.
const MEASURED_SUITE_PATHS: &[(&str, &str)] = &[("16cyclebench_suite8software", "cyclebench_suite..software..")];

/// Input files whose code is measured as a whole: the C objects of `run --impl`.
const MEASURED_OBJECTS: &str = "*/cyclebench-impl-objects/*";

/// Where the measured block may end: the top of flash bank 0, the one the simulation loads.
const BANK_END: &str = "ORIGIN(FLASH_MEASURED) + LENGTH(FLASH_MEASURED)";

/// The block's alignment: a multiple of every period of the fetch path (8-byte flash words
/// and fill lines, 2 KiB per way of the 4 KiB two-way instruction cache).
pub const BLOCK_ALIGN: u32 = 2048;

/// The largest padding a build accepts (bytes).
const PAD_LIMIT: u32 = 65536;

/// Writes `layout.x` and `layout_pad.rs` for Earl Grey from the environment.
pub fn generate(out: &Path) {
    let pad = setting("CYCLEBENCH_LAYOUT_PAD", PAD_LIMIT);
    let placement = setting("CYCLEBENCH_PLACEMENT", BLOCK_ALIGN - 2);
    println!("cargo:rerun-if-env-changed=CYCLEBENCH_MEASURED_CRATES");
    let extra = std::env::var("CYCLEBENCH_MEASURED_CRATES").unwrap_or_default();
    let mut crates: Vec<&str> = MEASURED_CRATES.to_vec();
    crates.extend(extra.split(',').map(str::trim).filter(|c| !c.is_empty()));
    std::fs::write(out.join("layout.x"), script(pad, placement, &crates)).expect("write layout.x");
    std::fs::write(out.join("layout_pad.rs"), pad_code(pad)).expect("write layout_pad.rs");
}

/// What a platform without the block includes: no padding code.
pub fn generate_none(out: &Path) {
    for name in ["CYCLEBENCH_LAYOUT_PAD", "CYCLEBENCH_PLACEMENT"] {
        println!("cargo:rerun-if-env-changed={name}");
        if std::env::var(name).is_ok_and(|v| v.trim() != "0") {
            panic!(
                "{name} applies to Earl Grey only: the other platforms run from RAM, where nothing moves measured code"
            );
        }
    }
    std::fs::write(out.join("layout_pad.rs"), pad_code(0)).expect("write layout_pad.rs");
}

/// An even number of bytes from the environment variable `name`, at most `limit`; 0 if unset.
fn setting(name: &str, limit: u32) -> u32 {
    println!("cargo:rerun-if-env-changed={name}");
    let Ok(text) = std::env::var(name) else {
        return 0;
    };
    let value: u32 = text
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{name}={text:?}: expected a number of bytes"));
    if !value.is_multiple_of(2) || value > limit {
        panic!("{name}={value}: expected an even number of bytes up to {limit} (instructions are 2-byte aligned)");
    }
    value
}

/// The padding as code: `pad / 2` compressed no-ops in a section the script places first.
fn pad_code(pad: u32) -> String {
    if pad == 0 {
        return String::from("// No layout padding in this build.\n");
    }
    format!(
        "// {pad} bytes of unrelated code at the start of flash (CYCLEBENCH_LAYOUT_PAD).\n\
         core::arch::global_asm!(\n    \".section .text.cyclebench_layout_pad, \\\"ax\\\", @progbits\",\n    \
         \".option push\",\n    \".option rvc\",\n    \".rept {}\",\n    \"c.nop\",\n    \".endr\",\n    \
         \".option pop\",\n);\n",
        pad / 2
    )
}

/// The linker script: the measured block at the top of the bank; then, from the start of flash,
/// every other piece of read-only data, the padding, and riscv-rt's `.text` with the rest of
/// the code. Read-only data before all code: what the measured code reads and no pattern names
/// (constants the compiler made anonymous) is out of reach of a change in the code.
fn script(pad: u32, placement: u32, crates: &[&str]) -> String {
    let text = patterns(".text", crates);
    let rodata = [patterns(".rodata", crates), patterns(".srodata", crates)].concat();
    format!(
        "/* Generated by the suite's build script (build/layout.rs): layout padding {pad}, placement {placement}. */\n\
SECTIONS\n{{\n\
  .measured_text (({BANK_END} - (SIZEOF(.measured_text) + SIZEOF(.measured_rodata) + {slack})) & ~({BLOCK_ALIGN} - 1)) : SUBALIGN(2)\n  {{\n\
    cyclebench_measured_start = .;\n\
    . += {placement};\n\
{text}  }} > FLASH_MEASURED\n\
\n\
  .measured_rodata : ALIGN(8)\n  {{\n\
{rodata}    cyclebench_measured_end = .;\n  }} > FLASH_MEASURED\n\
\n\
  .rodata_first ORIGIN(FLASH) :\n  {{\n\
    *(.srodata .srodata.* .rodata .rodata.*);\n\
    . = ALIGN(8);\n  }} > FLASH\n\
\n\
  .layout_pad :\n  {{\n    KEEP(*(.text.cyclebench_layout_pad));\n  }} > FLASH\n\
}}\n\
_stext = ALIGN(ADDR(.rodata_first) + SIZEOF(.rodata_first) + {pad}, 4);\n\
ASSERT(LOADADDR(.data) + SIZEOF(.data) <= cyclebench_measured_start, \"\n\
ERROR(cyclebench): the suite's code and data reach into the measured block at the top of flash bank 0: the image is too large\");\n",
        slack = 16,
    )
}

/// Input section descriptions for `kind` (`.text`, `.rodata`) of every measured crate, module
/// and object, each sorted by name so the block's order does not depend on the link's.
fn patterns(kind: &str, crates: &[&str]) -> String {
    let mut lines = String::new();
    if kind == ".text" {
        // The assembly primitives, and core's memory functions.
        lines.push_str("    *(SORT_BY_NAME(.text.cb_*))\n");
        lines.push_str("    *(SORT_BY_NAME(.text.memcpy .text.memmove .text.memset .text.memcmp .text.bcmp))\n");
        lines.push_str("    *(SORT_BY_NAME(.text._R*17compiler_builtins3mem*))\n");
    } else {
        lines.push_str(&format!("    *(SORT_BY_NAME({kind}.cb_*))\n"));
    }
    for (item, path) in MEASURED_SUITE_PATHS {
        lines.push_str(&format!("    *(SORT_BY_NAME({kind}._ZN{item}* {kind}._ZN*{path}*))\n"));
    }
    for krate in crates {
        // An item of the crate (`_ZN4sha2...`), and an impl that names one of its paths
        // (`_ZN.._$LT$sha2..Sha256VarCore$u20$as$u20$...`).
        let len = krate.len();
        lines.push_str(&format!(
            "    *(SORT_BY_NAME({kind}._ZN{len}{krate}* {kind}._ZN*{krate}..*))\n"
        ));
    }
    lines.push_str(&format!("    {MEASURED_OBJECTS}(SORT_BY_NAME({kind} {kind}.*))\n"));
    lines
}
