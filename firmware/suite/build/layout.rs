//! Where the measured code sits: `$OUT_DIR/layout.x`, which the platform's `memory.x`
//! includes, and `$OUT_DIR/layout_pad.rs`, which the suite's `lib.rs` includes. The rules
//! themselves (which crates, the alignments, the settings) are in `layout_rules.rs`, which the
//! host tool shares.
//!
//! On the targets that run from RAM (`ibex-sim`, QEMU) the block sits at the top of a region of
//! its own, every input section in it aligned to 16 bytes: a function's address then depends
//! on the block's contents alone, and its alignment on nothing (Ibex fetches 32-bit words, so a
//! function at 2 mod 4 costs other cycles than one at 0 mod 4).
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
//! Three settings, from the environment of the build (the CLI sets them):
//! - `CYCLEBENCH_LAYOUT_PAD=N`: `N` bytes of never-run code (`c.nop`s) at the start of flash,
//!   before every other function: the experiment that shows unrelated code moves nothing
//!   measured.
//! - `CYCLEBENCH_MEASURED_CRATES=a,b`: more crates to measure, the Rust implementations of
//!   `run --impl`.
//! - `CYCLEBENCH_PLACEMENT=P`: the measured block starts `P` bytes past its 2 KiB boundary. Its
//!   input sections are packed at 2-byte alignment, so the block moves as a whole and `P` is
//!   one placement of the same code, what `"placements": N` measures.
//!
//! The padding and the placements exist on Earl Grey only.
//!
//! A board image (`board-nexysvideo`) starts flash with the snapshot's boot-ROM flash header,
//! one 8-byte flash word (`platform/earlgrey.rs`); everything after it in flash moves by that
//! word, the measured block at the top of the bank does not. The simulation's images have no
//! header: their script is the same as before boards existed.

use std::path::Path;

use crate::layout_rules::{
    even_bytes, measured_crates, section_groups, BLOCK_ALIGN, END_SYMBOL, MEASURED_CRATES_VAR, OBJECTS_DIR, PAD_LIMIT,
    PAD_VAR, PLACEMENT_VAR, RAM_FUNCTION_ALIGN, START_SYMBOL,
};

/// Where the measured block may end on Earl Grey: the top of flash bank 0, the one the
/// simulation loads.
const BANK_END: &str = "ORIGIN(FLASH_MEASURED) + LENGTH(FLASH_MEASURED)";

/// Where it ends on the targets that run from RAM: the top of their `MEASURED` region.
const RAM_BLOCK_END: &str = "ORIGIN(MEASURED) + LENGTH(MEASURED)";

/// Bytes left free below the block's end.
const SLACK: u32 = 16;

/// Size of a board image's flash header: one flash word (`platform/earlgrey.rs`).
const FLASH_HEADER: u32 = 8;

/// Writes `layout.x` and `layout_pad.rs` for Earl Grey from the environment, with the boot
/// ROM's flash header at the start of flash when `flash_header` (a board image).
pub fn generate(out: &Path, flash_header: bool) {
    let pad = setting(PAD_VAR, PAD_LIMIT);
    let placement = setting(PLACEMENT_VAR, BLOCK_ALIGN - 2);
    let crates = crates();
    let header = if flash_header { FLASH_HEADER } else { 0 };
    std::fs::write(out.join("layout.x"), flash_script(pad, placement, header, &crates)).expect("write layout.x");
    std::fs::write(out.join("layout_pad.rs"), pad_code(pad)).expect("write layout_pad.rs");
}

/// Writes them for a target that runs from RAM: the block at the top of its `MEASURED`
/// region, no padding, one placement.
pub fn generate_ram(out: &Path) {
    for name in [PAD_VAR, PLACEMENT_VAR] {
        println!("cargo:rerun-if-env-changed={name}");
        if std::env::var(name).is_ok_and(|v| v.trim() != "0") {
            panic!(
                "{name} applies to Earl Grey only: the other platforms run from RAM, where the measured block \
                 sits at a fixed address with every function {RAM_FUNCTION_ALIGN}-byte aligned"
            );
        }
    }
    let crates = crates();
    std::fs::write(out.join("layout.x"), ram_script(&crates)).expect("write layout.x");
    std::fs::write(out.join("layout_pad.rs"), pad_code(0)).expect("write layout_pad.rs");
}

/// The measured crates, with those the environment adds.
fn crates() -> Vec<String> {
    println!("cargo:rerun-if-env-changed={MEASURED_CRATES_VAR}");
    measured_crates(&std::env::var(MEASURED_CRATES_VAR).unwrap_or_default())
}

/// An even number of bytes from the environment variable `name`, at most `limit`; 0 if unset.
fn setting(name: &str, limit: u32) -> u32 {
    println!("cargo:rerun-if-env-changed={name}");
    match std::env::var(name) {
        Err(_) => 0,
        Ok(text) => even_bytes(name, &text, limit).unwrap_or_else(|e| panic!("{e}")),
    }
}

/// The padding as code: `pad / 2` compressed no-ops in a section the script places first.
fn pad_code(pad: u32) -> String {
    if pad == 0 {
        return String::from("// No layout padding in this build.\n");
    }
    format!(
        "// {pad} bytes of unrelated code at the start of flash ({PAD_VAR}).\n\
         core::arch::global_asm!(\n    \".section .text.cyclebench_layout_pad, \\\"ax\\\", @progbits\",\n    \
         \".option push\",\n    \".option rvc\",\n    \".rept {}\",\n    \"c.nop\",\n    \".endr\",\n    \
         \".option pop\",\n);\n",
        pad / 2
    )
}

/// The two output sections of the block, ending below `end` in `region`, its text sections
/// aligned to `subalign` and starting `placement` bytes past the block's boundary.
fn block(end: &str, region: &str, subalign: u32, placement: u32, crates: &[String]) -> String {
    let text = patterns(".text", crates);
    let rodata = [patterns(".rodata", crates), patterns(".srodata", crates)].concat();
    format!(
        "  .measured_text (({end} - (SIZEOF(.measured_text) + SIZEOF(.measured_rodata) + {SLACK})) & ~({BLOCK_ALIGN} - 1)) : SUBALIGN({subalign})\n  {{\n\
    {START_SYMBOL} = .;\n\
    . += {placement};\n\
{text}  }} > {region}\n\
\n\
  .measured_rodata : ALIGN(8)\n  {{\n\
{rodata}    {END_SYMBOL} = .;\n  }} > {region}\n"
    )
}

/// Earl Grey's linker script: the measured block at the top of the bank; then, from the start
/// of flash (after a board image's flash header of `header` bytes), every other piece of
/// read-only data, the padding, and riscv-rt's `.text` with the rest of the code. Read-only
/// data before all code: what the measured code reads and no pattern names (constants the
/// compiler made anonymous) is out of reach of a change in the code.
fn flash_script(pad: u32, placement: u32, header: u32, crates: &[String]) -> String {
    // Without a header the script is exactly the one of an image for the model.
    let (note, header_section, rodata_start, header_check) = if header == 0 {
        (
            String::new(),
            String::new(),
            String::from("ORIGIN(FLASH)"),
            String::new(),
        )
    } else {
        (
            format!(", flash header {header}"),
            String::from("  .flash_header ORIGIN(FLASH) :\n  {\n    KEEP(*(.earlgrey_flash_header));\n  } > FLASH\n\n"),
            format!("ORIGIN(FLASH) + {header}"),
            format!(
                "ASSERT(SIZEOF(.flash_header) == {header}, \"\n\
ERROR(cyclebench): the boot ROM's flash header must be one flash word of {header} bytes\");\n"
            ),
        )
    };
    format!(
        "/* Generated by the suite's build script (build/layout.rs): layout padding {pad}, placement {placement}{note}. */\n\
SECTIONS\n{{\n\
{block}\
\n\
{header_section}\
  .rodata_first {rodata_start} :\n  {{\n\
    *(.srodata .srodata.* .rodata .rodata.*);\n\
    . = ALIGN(8);\n  }} > FLASH\n\
\n\
  .layout_pad :\n  {{\n    KEEP(*(.text.cyclebench_layout_pad));\n  }} > FLASH\n\
}}\n\
_stext = ALIGN(ADDR(.rodata_first) + SIZEOF(.rodata_first) + {pad}, 4);\n\
ASSERT(LOADADDR(.data) + SIZEOF(.data) <= {START_SYMBOL}, \"\n\
ERROR(cyclebench): the suite's code and data reach into the measured block at the top of flash bank 0: the image is too large\");\n\
{header_check}",
        block = block(BANK_END, "FLASH_MEASURED", 2, placement, crates),
    )
}

/// The linker script of a target that runs from RAM: the measured block at the top of the
/// `MEASURED` region, which nothing else uses.
fn ram_script(crates: &[String]) -> String {
    format!(
        "/* Generated by the suite's build script (build/layout.rs). */\nSECTIONS\n{{\n{}}}\n",
        block(RAM_BLOCK_END, "MEASURED", RAM_FUNCTION_ALIGN, 0, crates)
    )
}

/// Input section descriptions for `kind` (`.text`, `.rodata`) of every measured crate, module
/// and object, each sorted by name so the block's order does not depend on the link's.
fn patterns(kind: &str, crates: &[String]) -> String {
    let mut lines = String::new();
    for group in section_groups(kind, crates) {
        lines.push_str(&format!("    *(SORT_BY_NAME({}))\n", group.join(" ")));
    }
    lines.push_str(&format!("    */{OBJECTS_DIR}/*(SORT_BY_NAME({kind} {kind}.*))\n"));
    lines
}
