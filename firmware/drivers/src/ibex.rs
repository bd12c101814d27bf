//! Ibex core controls the suite uses that are CSRs rather than MMIO registers.

use core::arch::asm;

/// `cpuctrl`, Ibex's custom control CSR; bit 0 enables the instruction cache on cores built
/// with one (Earl Grey's is) and reads as zero on cores without.
const CPUCTRL_ICACHE_ENABLE: usize = 1;

/// Turns the instruction cache on or off.
///
/// Off, every fetch goes to memory as on a core without a cache: no lookups, no fills
/// (`ibex_icache.sv`), whatever the cache holds. No `fence.i` is needed on the way back: the
/// cache invalidates itself at reset and the suite never writes instructions.
#[inline(always)]
pub fn set_instruction_cache(enabled: bool) {
    if enabled {
        // SAFETY: sets a core control bit; touches no memory, registers or stack.
        unsafe { asm!("csrs 0x7c0, {0}", in(reg) CPUCTRL_ICACHE_ENABLE, options(nomem, nostack)) };
    } else {
        // SAFETY: clears a core control bit; touches no memory, registers or stack.
        unsafe { asm!("csrc 0x7c0, {0}", in(reg) CPUCTRL_ICACHE_ENABLE, options(nomem, nostack)) };
    }
}

/// A probe line: `c.li a0, 0; c.jr ra`. Rewritten to `c.li a0, 1` after the fills, it tells a
/// copy from the cache (the old `0`) from one fetched anew (`1`).
const LINE_CODE: [u16; 2] = [0x4501, 0x8082];
const C_LI_A0_1: u16 = 0x4505;
/// `c.nop`, and `c.jr ra` closing the spacer.
const C_NOP: u16 = 0x0001;
const C_RET: u16 = 0x8082;
/// The instruction cache's geometry in this snapshot (`ibex_icache.sv`: 4 KiB, two ways, 8-byte
/// lines): one way spans 2 KiB, so addresses 2 KiB apart share a set.
const WAY_BYTES: usize = 2048;
const LINE_BYTES: usize = 8;
const SETS: usize = WAY_BYTES / LINE_BYTES;
/// The cache invalidates one set per cycle after a `fence.i` and fills nothing meanwhile
/// (`inval_prog_q`), while fetches go on around it: the probe waits this many iterations of a
/// two-instruction loop (at least two cycles each) for all of its sets.
const INVALIDATION_LOOPS: usize = SETS;
/// Straight-line code the probe may run first, in lines: each line more is one lookup more.
const SPACER_LINES: usize = 8;
/// Halfwords of scratch [`reset_instruction_cache`] needs.
pub const CACHE_SCRATCH_HALFWORDS: usize = (WAY_BYTES + 2 * WAY_BYTES + 2 * LINE_BYTES * SPACER_LINES + 64) / 2;

/// Empties the instruction cache and sets its choice of way to one state, whatever ran before;
/// `false` if the probe never saw that state (then the cache is empty, its way choice unknown).
///
/// With both ways of a set valid, the cache fills the way a single bit names, and that bit
/// toggles on every lookup since reset (`round_robin_way_q`): which lines a warmed-up run keeps
/// depends on the parity of every lookup made by whatever ran with the cache on before it. No
/// register resets the bit. The probe reads it instead: after an invalidation it fills one set
/// with two lines (the two ways, in order) and a third line of that set (the bit picks the
/// victim), rewrites the first line in RAM and calls it: the cache, which does not see stores,
/// runs the old copy if the first line survived, and fetches the new one if it was evicted.
/// Run after a different number of lookups (`k` lines of straight-line code before the fills),
/// it sees the other state; it stops at the first survival. The cache is on only inside the
/// probe's one asm block, so nothing outside it moves the bit, and it ends invalidated again,
/// the invalidation finished, so the first lines after it are kept as any later ones.
///
/// `scratch` (at least [`CACHE_SCRATCH_HALFWORDS`], in RAM) receives the probe's code.
pub fn reset_instruction_cache(scratch: &mut [u16]) -> bool {
    assert!(
        scratch.len() >= CACHE_SCRATCH_HALFWORDS,
        "instruction cache probe: scratch too small"
    );
    let probe_set = (probe as *const () as usize / LINE_BYTES) % SETS;
    let start = scratch.as_ptr() as usize;
    // The probe lines' set, half the cache away from the probe's own code.
    let wanted = (probe_set + SETS / 2) % SETS;
    let first_line = start.div_ceil(LINE_BYTES) * LINE_BYTES;
    let skip = (wanted + SETS - (first_line / LINE_BYTES) % SETS) % SETS;
    let base = (first_line + skip * LINE_BYTES - start) / 2;
    let step = WAY_BYTES / 2;
    let probe_lines = [base, base + step, base + 2 * step];
    // The spacer: straight-line `c.nop`s, entered `k` lines before its closing return.
    let spacer = base + 2 * step + LINE_BYTES;
    let spacer_len = SPACER_LINES * LINE_BYTES / 2;
    scratch[spacer..spacer + spacer_len].fill(C_NOP);
    scratch[spacer + spacer_len] = C_RET;
    let lines = probe_lines.map(|h| start + 2 * h);
    let spacer_end = start + 2 * (spacer + spacer_len);
    for k in 0..=SPACER_LINES {
        for line in probe_lines {
            scratch[line..line + 2].copy_from_slice(&LINE_CODE);
        }
        if probe(lines, spacer_end - k * LINE_BYTES) {
            return true;
        }
    }
    false
}

/// One probe (see [`reset_instruction_cache`]): whether the first line survived the third's
/// fill. Invalidates the cache before and after.
#[inline(never)]
fn probe(lines: [usize; 3], spacer: usize) -> bool {
    let fetched_anew: usize;
    // SAFETY: calls only the code the caller wrote into RAM (returns, no-ops, `c.li a0`), with
    // the cache on between the block's own `csrs` and `csrc`; the one store rewrites the first
    // probe line, which the load after it waits for; `fence.i` (encoded, as the target lacks
    // the mnemonic) makes the core fetch fresh code; a0 and ra are declared clobbered.
    unsafe {
        asm!(
            ".word 0x0000100f",
            "li {tmp}, {wait}",
            "2: addi {tmp}, {tmp}, -1",
            "bnez {tmp}, 2b",
            "csrs 0x7c0, {on}",
            "jalr ra, 0({spacer})",
            "jalr ra, 0({l1})",
            "jalr ra, 0({l2})",
            "jalr ra, 0({l3})",
            "sh {rewrite}, 0({l1})",
            "lh {tmp}, 0({l1})",
            "jalr ra, 0({l1})",
            "csrc 0x7c0, {on}",
            ".word 0x0000100f",
            "li {tmp}, {wait}",
            "3: addi {tmp}, {tmp}, -1",
            "bnez {tmp}, 3b",
            on = in(reg) CPUCTRL_ICACHE_ENABLE,
            spacer = in(reg) spacer,
            l1 = in(reg) lines[0],
            l2 = in(reg) lines[1],
            l3 = in(reg) lines[2],
            rewrite = in(reg) usize::from(C_LI_A0_1),
            wait = const INVALIDATION_LOOPS,
            tmp = out(reg) _,
            out("a0") fetched_anew,
            out("ra") _,
            options(nostack),
        );
    }
    fetched_anew == 0
}
