//! Micro-benchmarks: fixed instruction blocks between two counter reads. They show the
//! measurement overhead itself (the empty window) and the CPU's basic instruction costs that
//! every driver phase is built from.

use core::arch::asm;

use cyclebench_protocol::{Check, ImplementationKind, MicroPhases, Phases};

use super::{BenchError, Outcome, Samples};
use crate::cycles::stamp;

/// Times `block` between two counter reads.
macro_rules! window {
    ($($block:tt)*) => {{
        let start = stamp();
        $($block)*
        stamp().since(start)
    }};
}

/// 3 squared ten times (mod 2^32): what the `mul` block computes.
const MUL_ANSWER: u32 = {
    let mut x: u32 = 3;
    let mut i = 0;
    while i < 10 {
        x = x.wrapping_mul(x);
        i += 1;
    }
    x
};

/// What each block computed, checked against known answers after timing.
#[derive(PartialEq, Eq, Debug)]
struct Answers {
    add: u32,
    load: u32,
    stored: u32,
    mul: u32,
    div: u32,
    loop_counter: u32,
}

const EXPECTED: Answers = Answers {
    add: 1 << 10,
    load: 7,
    stored: 5,
    mul: MUL_ANSWER,
    div: 1_000_000 / 7,
    loop_counter: 0,
};

/// One run of every block: empty, nop, nop×10, add×10, lw×10, sw×10, mul×10, div, 10-step loop.
#[link_section = crate::placement::measured_section!()]
#[inline(never)]
fn once() -> ([u64; 9], Answers) {
    let mut word: u32 = 7;
    let target = core::ptr::addr_of_mut!(word);
    let (mut add, mut load, mut mul, mut div, mut loop_counter) = (1u32, 0u32, 3u32, 0u32, 0u32);
    // SAFETY (all asm blocks below): they only touch registers and, for lw/sw, the local
    // `word` through `target`; no stack use.
    let row = [
        window! {},
        window! { unsafe { asm!("nop", options(nostack)) } },
        window! { unsafe { asm!(".rept 10", "nop", ".endr", options(nostack)) } },
        window! { unsafe { asm!(".rept 10", "add {x}, {x}, {x}", ".endr", x = inout(reg) add, options(nostack)) } },
        window! { unsafe { asm!(".rept 10", "lw {t}, 0({p})", ".endr", t = out(reg) load, p = in(reg) target, options(nostack)) } },
        window! { unsafe { asm!(".rept 10", "sw {v}, 0({p})", ".endr", v = in(reg) 5u32, p = in(reg) target, options(nostack)) } },
        window! { unsafe { asm!(".rept 10", "mul {x}, {x}, {x}", ".endr", x = inout(reg) mul, options(nostack)) } },
        window! { unsafe { asm!("div {x}, {a}, {b}", x = out(reg) div, a = in(reg) 1_000_000u32, b = in(reg) 7u32, options(nostack)) } },
        window! { unsafe { asm!("li {c}, 10", "3:", "addi {c}, {c}, -1", "bnez {c}, 3b", c = out(reg) loop_counter, options(nostack)) } },
    ];
    // SAFETY: `target` points at the live local `word`; the asm above has finished with it.
    let stored = unsafe { core::ptr::read_volatile(target) };
    (
        row,
        Answers {
            add,
            load,
            stored,
            mul,
            div,
            loop_counter,
        },
    )
}

/// Runs the micro-benchmarks `repetitions` times; every block's result is checked.
pub fn run(repetitions: u16) -> Result<Outcome, BenchError> {
    let mut samples = Samples::new(9, repetitions)?;
    for _ in 0..repetitions {
        let (row, answers) = once();
        if answers != EXPECTED {
            return Err(BenchError::wrong_answer(
                "micro",
                "instruction-blocks",
                &alloc::format!("{answers:?}"),
            ));
        }
        samples.push(&row);
    }
    let s = samples.summary();
    Ok(Outcome::Measured {
        implementation: ImplementationKind::Software,
        check: Check::KnownAnswer,
        phases: Phases::Micro(MicroPhases {
            empty: s[0],
            nop: s[1],
            nop10: s[2],
            add10: s[3],
            load10: s[4],
            store10: s[5],
            mul10: s[6],
            div: s[7],
            loop10: s[8],
        }),
    })
}
