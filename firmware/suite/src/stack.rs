//! Stack use of a measured call: paint the stack below the stack pointer with a pattern
//! before the call, and find the deepest overwritten word after it.

use core::arch::asm;

/// Bytes below the stack pointer that are painted; deeper use is reported as this much.
pub const PAINT_BYTES: usize = 4096;

/// The paint pattern; a call that stores exactly this word at its deepest slot would be
/// under-reported by one word, which the odd pattern makes unlikely.
const PAINT: u32 = 0x5ac3_3ca5;

/// Paints [`PAINT_BYTES`] below the current stack pointer and returns that pointer. The loop
/// is assembly so that painting itself puts nothing on the stack it is painting.
#[inline(always)]
pub fn paint() -> usize {
    let sp: usize;
    // SAFETY: writes only the free stack below `sp`, which every platform's linker script
    // leaves at least PAINT_BYTES deep, and which no live data occupies.
    unsafe {
        asm!(
            "mv {sp}, sp",
            "li {p}, {bytes}",
            "sub {p}, sp, {p}",
            "2:",
            "sw {pattern}, 0({p})",
            "addi {p}, {p}, 4",
            "bltu {p}, {sp}, 2b",
            sp = out(reg) sp,
            p = out(reg) _,
            pattern = in(reg) PAINT,
            bytes = const PAINT_BYTES,
            options(nostack),
        );
    }
    sp
}

/// Bytes of stack used below `sp` since [`paint`] returned it.
#[inline(always)]
pub fn used(sp: usize) -> u32 {
    let bottom = sp - PAINT_BYTES;
    let mut address = bottom;
    while address < sp {
        // SAFETY: reads the painted region below `sp`, which is valid RAM; volatile because
        // the compiler cannot know the measured call wrote there.
        let word = unsafe { core::ptr::read_volatile(address as *const u32) };
        if word != PAINT {
            break;
        }
        address += 4;
    }
    (sp - address) as u32
}
