//! The Ibex calibration check: instruction blocks whose cost the Ibex documentation states
//! (doc/03_reference/pipeline_details.rst, "small" configuration: 2-stage pipeline, fast
//! multiplier, single-cycle RAM), timed with the suite's own counter-read sequence. After
//! subtracting the boot calibration's overhead each must read exactly its documented count,
//! every time. If it does, every other number on this target is cycle-exact too.

use core::arch::asm;

/// Repetitions of every block; all must agree.
pub const REPETITIONS: usize = 16;

/// One documented block: what it is, its documented cycles, and a runner that returns the raw
/// window around it.
pub struct Block {
    /// Name in the self-test report.
    pub name: &'static str,
    /// Cycles per the Ibex documentation.
    pub documented: u32,
    /// Times the block once; raw cycles of the window.
    pub run: fn() -> u32,
}

/// Emits one 4-byte-aligned window: the suite's counter read, `$block`, the counter read
/// again; returns the low-word difference. Compressed instructions are off inside so every
/// instruction (and every branch target) keeps 4-byte alignment.
macro_rules! window {
    ($($block:literal),* $(; $($operands:tt)*)?) => {{
        let start: u32;
        let end: u32;
        // SAFETY: reads the cycle counter and runs the given block, which only touches the
        // scratch registers and memory passed to it.
        unsafe {
            asm!(
                ".balign 4",
                ".option push",
                ".option norvc",
                "csrr {start}, mcycle",
                $($block,)*
                "csrr {end}, mcycle",
                ".option pop",
                start = out(reg) start,
                end = out(reg) end,
                $($($operands)*)?
            );
        }
        end.wrapping_sub(start)
    }};
}

static WORDS: [u32; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

fn empty() -> u32 {
    window!(; options(nostack))
}

fn add16() -> u32 {
    // Dependent adds: the result forwards, no stall (1 cycle each).
    window!(".rept 16", "addi {x}, {x}, 1", ".endr"; x = inout(reg) 0u32 => _, options(nostack))
}

fn load8() -> u32 {
    // Loads whose results nothing uses: one stall cycle each for the memory response.
    window!(".rept 4", "lw {a}, 0({p})", "lw {b}, 4({p})", ".endr";
        p = in(reg) WORDS.as_ptr(), a = out(reg) _, b = out(reg) _, options(nostack, readonly))
}

fn store4() -> u32 {
    let mut sink = [0u32; 2];
    // One stall cycle each for the store response.
    window!(".rept 2", "sw {v}, 0({p})", "sw {v}, 4({p})", ".endr";
        p = in(reg) sink.as_mut_ptr(), v = in(reg) 7u32, options(nostack))
}

fn mul8() -> u32 {
    // Fast multi-cycle multiplier: two stall cycles per MUL.
    window!(".rept 8", "mul {x}, {x}, {y}", ".endr"; x = inout(reg) 3u32 => _, y = in(reg) 5u32, options(nostack))
}

fn mulhu4() -> u32 {
    // Three stall cycles per MULHU.
    window!(".rept 4", "mulhu {x}, {x}, {y}", ".endr"; x = inout(reg) 3u32 => _, y = in(reg) 5u32, options(nostack))
}

fn branch4() -> u32 {
    // Taken branches to the next (aligned) instruction: two stall cycles each.
    window!(".rept 4", "beq zero, zero, 4f", "4:", ".endr"; options(nostack))
}

fn jal4() -> u32 {
    // Jumps: one stall cycle each.
    window!(".rept 4", "jal zero, 5f", "5:", ".endr"; options(nostack))
}

/// The documented blocks, the empty window first.
pub const BLOCKS: [Block; 8] = [
    Block {
        name: "empty",
        documented: 0,
        run: empty,
    },
    Block {
        name: "addi_x16",
        documented: 16,
        run: add16,
    },
    Block {
        name: "lw_x8",
        documented: 16,
        run: load8,
    },
    Block {
        name: "sw_x4",
        documented: 8,
        run: store4,
    },
    Block {
        name: "mul_x8",
        documented: 24,
        run: mul8,
    },
    Block {
        name: "mulhu_x4",
        documented: 16,
        run: mulhu4,
    },
    Block {
        name: "branch_taken_x4",
        documented: 12,
        run: branch4,
    },
    Block {
        name: "jal_x4",
        documented: 8,
        run: jal4,
    },
];
