//! Multi-precision integer arithmetic on n = 1..=[`MAX_LIMBS`] limbs of 32 bits: the
//! operations Stoffelen (2019, "Efficient cryptography on the RISC-V architecture", section 6)
//! timed against the number of limbs. RISC-V has no carry flag, so every carry is recomputed
//! with `sltu`; that is what makes the reduced radix interesting.
//!
//! Numbers are little-endian limb vectors, `n = a.len() = b.len()`.
//!
//! * Full radix: limbs are base 2^32. Addition propagates carries and returns the carry out;
//!   multiplication is exact into `2n` limbs.
//! * Reduced radix: limbs are base 2^[`REDUCED_BITS`] = 2^28 and hold the value
//!   `sum(limb[i] << (28 * i))`. Addition is limb-wise with no carry propagation: the carries
//!   pile up in the 4 spare bits of each limb, so up to 15 sums of canonical numbers can be
//!   chained before [`normalize_reduced`]. Multiplication takes canonical inputs (every limb
//!   below 2^28) and returns the exact product as `2n` canonical limbs, i.e. already carried.
//!
//! Why 2^28 and not 2^29: multiplication accumulates a column in a 64-bit pair of registers
//! without checking the low word's carry into a third word. With 28-bit limbs a column of the
//! schoolbook product is at most 32 products below 2^56 plus the carry in, below 2^62; the
//! additive Karatsuba multiplies 29-bit half sums, 16 products below 2^58, still below 2^63.
//! With 29-bit limbs that Karatsuba column would reach 2^64, so 28 bits leave the margin, and 4
//! spare bits also give addition room for 15 unreduced sums.
//!
//! Karatsuba is one level. Full radix is subtractive: `|a_lo - a_hi| * |b_lo - b_hi|` with the
//! sign tracked as a mask (no data-dependent branch). Reduced radix is additive:
//! `(a_lo + a_hi) * (b_lo + b_hi)` needs no carries at all in that radix, and the half sums are
//! fine inputs for the column accumulator (above). Odd `n` and `n > MAX_LIMBS` fall back to
//! the schoolbook product, so every `n` is safe; the benchmark uses even `n`.
//!
//! Variants: portable Rust and RV32IM assembly (`rv32i.S`). The Rust schoolbook is plain product
//! scanning. The assembly product-scans two columns per pass, so each `a[i]` and `b[j]` load
//! feeds two products (one load per product instead of two: on Ibex a load takes longer than
//! an ALU instruction), with the inner loop unrolled by four and entered Duff-style. Operand
//! scanning would also load and store `r` on every product. There is no Zbb variant: Zbb has
//! no add-with-carry and no funnel shift, so nothing in it shortens these loops.
//!
//! Lengths: callers pass `b.len() == a.len()` and `r.len() == n` (addition) or `2 * n`
//! (multiplication); this is debug-asserted. In release builds every variant works on the
//! largest `n` the three slices allow, so a mismatch gives a wrong answer, never an
//! out-of-bounds access, and the measured code holds no panic path.

pub mod harness;

use crate::test_support::Xorshift32;
use crate::{Report, Variant};
use alloc::format;

/// Largest limb count the Karatsuba scratch space is sized for (1024-bit operands).
pub const MAX_LIMBS: usize = 32;
/// Bits per limb in the reduced-radix representation.
pub const REDUCED_BITS: u32 = 28;
/// Mask of the value bits of a canonical reduced-radix limb.
pub const REDUCED_MASK: u32 = (1 << REDUCED_BITS) - 1;

/// `r = a + b`, returning the carry out (full radix: 0 or 1; reduced radix: always 0).
pub type MpAddFn = fn(r: &mut [u32], a: &[u32], b: &[u32]) -> u32;
/// `r = a * b` with `r.len() == 2 * n`.
pub type MpMulFn = fn(r: &mut [u32], a: &[u32], b: &[u32]);

/// Full-radix addition with carry propagation.
pub fn add_full(v: Variant) -> Option<MpAddFn> {
    match v {
        Variant::Rust => Some(add_full_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::add_full),
        _ => None,
    }
}

/// Reduced-radix limb-wise addition (no carry propagation; returns 0).
pub fn add_reduced(v: Variant) -> Option<MpAddFn> {
    match v {
        Variant::Rust => Some(add_reduced_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::add_reduced),
        _ => None,
    }
}

/// Full-radix schoolbook multiplication (product scanning).
pub fn mul_schoolbook(v: Variant) -> Option<MpMulFn> {
    match v {
        Variant::Rust => Some(mul_schoolbook_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::mul_schoolbook),
        _ => None,
    }
}

/// Reduced-radix schoolbook multiplication: canonical inputs, canonical `2n`-limb product.
pub fn mul_schoolbook_reduced(v: Variant) -> Option<MpMulFn> {
    match v {
        Variant::Rust => Some(mul_schoolbook_reduced_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::mul_schoolbook_reduced),
        _ => None,
    }
}

/// Full-radix one-level subtractive Karatsuba (odd `n`: schoolbook).
pub fn mul_karatsuba(v: Variant) -> Option<MpMulFn> {
    match v {
        Variant::Rust => Some(mul_karatsuba_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::mul_karatsuba),
        _ => None,
    }
}

/// Reduced-radix one-level additive Karatsuba (odd `n`: schoolbook); output as
/// [`mul_schoolbook_reduced`].
pub fn mul_karatsuba_reduced(v: Variant) -> Option<MpMulFn> {
    match v {
        Variant::Rust => Some(mul_karatsuba_reduced_rust),
        #[cfg(target_arch = "riscv32")]
        Variant::Rv32i => Some(asm::mul_karatsuba_reduced),
        _ => None,
    }
}

/// Carries a reduced-radix number back to canonical limbs (each below 2^28), in place, and
/// returns what is carried out of the top limb. Accepts any limb values (e.g. after up to 15
/// [`add_reduced`] sums).
pub fn normalize_reduced(limbs: &mut [u32]) -> u32 {
    let mut carry = 0u32;
    for limb in limbs {
        let t = u64::from(*limb) + u64::from(carry);
        *limb = t as u32 & REDUCED_MASK;
        carry = (t >> REDUCED_BITS) as u32;
    }
    carry
}

/// Converts canonical reduced-radix limbs to full-radix limbs. `full` is overwritten; bits that
/// do not fit in it are dropped (`ceil(28 * reduced.len() / 32)` limbs hold them all).
pub fn reduced_to_full(reduced: &[u32], full: &mut [u32]) {
    full.fill(0);
    for (i, &limb) in reduced.iter().enumerate() {
        let bit = i * REDUCED_BITS as usize;
        let (w, s) = (bit / 32, bit % 32);
        let v = u64::from(limb & REDUCED_MASK) << s;
        if let Some(x) = full.get_mut(w) {
            *x |= v as u32;
        }
        if let Some(x) = full.get_mut(w + 1) {
            *x |= (v >> 32) as u32;
        }
    }
}

/// Converts full-radix limbs to canonical reduced-radix limbs; bits beyond what `reduced` holds
/// (`28 * reduced.len()`) are dropped.
pub fn full_to_reduced(full: &[u32], reduced: &mut [u32]) {
    for (i, limb) in reduced.iter_mut().enumerate() {
        let bit = i * REDUCED_BITS as usize;
        let (w, s) = (bit / 32, bit % 32);
        let lo = u64::from(full.get(w).copied().unwrap_or(0));
        let hi = u64::from(full.get(w + 1).copied().unwrap_or(0));
        *limb = (((hi << 32) | lo) >> s) as u32 & REDUCED_MASK;
    }
}

/// A reduced-radix product (`2n` canonical limbs, as the reduced multiplications return it) in
/// full radix, padded to `2n` limbs so it compares directly with a full-radix product.
pub fn reduced_product_to_full(product: &[u32]) -> alloc::vec::Vec<u32> {
    let mut full = alloc::vec![0u32; product.len()];
    reduced_to_full(product, &mut full);
    full
}

/// The operand length every variant actually works on (see the module note on lengths).
fn add_len(r: &[u32], a: &[u32], b: &[u32]) -> usize {
    debug_assert!(a.len() == b.len() && r.len() == a.len(), "mp add: length mismatch");
    a.len().min(b.len()).min(r.len())
}

fn mul_len(r: &[u32], a: &[u32], b: &[u32]) -> usize {
    debug_assert!(a.len() == b.len() && r.len() == 2 * a.len(), "mp mul: length mismatch");
    a.len().min(b.len()).min(r.len() / 2)
}

fn add_full_rust(r: &mut [u32], a: &[u32], b: &[u32]) -> u32 {
    let n = add_len(r, a, b);
    let mut carry = 0u64;
    for ((ri, &ai), &bi) in r[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
        let s = u64::from(ai) + u64::from(bi) + carry;
        *ri = s as u32;
        carry = s >> 32;
    }
    carry as u32
}

fn add_reduced_rust(r: &mut [u32], a: &[u32], b: &[u32]) -> u32 {
    let n = add_len(r, a, b);
    for ((ri, &ai), &bi) in r[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
        // Wrapping only matters for inputs outside the contract; it keeps debug builds from
        // panicking where the assembly silently wraps.
        *ri = ai.wrapping_add(bi);
    }
    0
}

/// Product scanning: column k gathers every `a[i] * b[k - i]` in a 64-bit accumulator plus a
/// count of its overflows (the third word), then emits one limb.
fn mul_schoolbook_rust(r: &mut [u32], a: &[u32], b: &[u32]) {
    let n = mul_len(r, a, b);
    if n == 0 {
        return;
    }
    let (a, b, r) = (&a[..n], &b[..n], &mut r[..2 * n]);
    let mut acc = 0u64;
    for (k, rk) in r[..2 * n - 1].iter_mut().enumerate() {
        let lo = k.saturating_sub(n - 1);
        let hi = k.min(n - 1);
        let mut top = 0u32;
        for (&ai, &bj) in a[lo..=hi].iter().zip(b[k - hi..=k - lo].iter().rev()) {
            let (s, o) = acc.overflowing_add(u64::from(ai) * u64::from(bj));
            acc = s;
            top += u32::from(o);
        }
        *rk = acc as u32;
        acc = (acc >> 32) | (u64::from(top) << 32);
    }
    r[2 * n - 1] = acc as u32;
}

/// Product scanning with one 64-bit accumulator: the radix leaves enough headroom that a
/// column never overflows it (module note). The last limb takes whatever is left, which for
/// canonical inputs is below 2^28 and for Karatsuba's 29-bit half sums below 2^30.
fn mul_schoolbook_reduced_rust(r: &mut [u32], a: &[u32], b: &[u32]) {
    let n = mul_len(r, a, b);
    if n == 0 {
        return;
    }
    let (a, b, r) = (&a[..n], &b[..n], &mut r[..2 * n]);
    let mut acc = 0u64;
    for (k, rk) in r[..2 * n - 1].iter_mut().enumerate() {
        let lo = k.saturating_sub(n - 1);
        let hi = k.min(n - 1);
        for (&ai, &bj) in a[lo..=hi].iter().zip(b[k - hi..=k - lo].iter().rev()) {
            acc = acc.wrapping_add(u64::from(ai) * u64::from(bj));
        }
        *rk = acc as u32 & REDUCED_MASK;
        acc >>= REDUCED_BITS;
    }
    r[2 * n - 1] = acc as u32;
}

/// `d = |x - y|` over full-radix limbs; returns all-ones if `x < y`, else 0. Both passes run
/// over every limb whatever the sign, so timing does not depend on the data.
fn abs_diff(d: &mut [u32], x: &[u32], y: &[u32]) -> u32 {
    let mut borrow = 0u32;
    for ((di, &xi), &yi) in d.iter_mut().zip(x).zip(y) {
        let (s, b1) = xi.overflowing_sub(yi);
        let (s, b2) = s.overflowing_sub(borrow);
        *di = s;
        borrow = u32::from(b1 | b2);
    }
    let mask = borrow.wrapping_neg();
    // Two's-complement negation when x < y: (d ^ mask) + 1, carried.
    let mut carry = borrow;
    for di in d.iter_mut() {
        let (s, o) = (*di ^ mask).overflowing_add(carry);
        *di = s;
        carry = u32::from(o);
    }
    mask
}

/// One-level subtractive Karatsuba. With `m = n / 2`, `z0 = a_lo b_lo` and `z2 = a_hi b_hi` go
/// straight into `r`, and the middle term `a_lo b_hi + a_hi b_lo = z0 + z2 - (a_lo - a_hi)(b_lo -
/// b_hi)` is added in at limb `m`.
fn mul_karatsuba_rust(r: &mut [u32], a: &[u32], b: &[u32]) {
    let n = mul_len(r, a, b);
    if n % 2 == 1 || n > MAX_LIMBS {
        return mul_schoolbook_rust(r, a, b);
    }
    let m = n / 2;
    let (a0, a1) = a[..n].split_at(m);
    let (b0, b1) = b[..n].split_at(m);
    let mut da = [0u32; MAX_LIMBS / 2];
    let mut db = [0u32; MAX_LIMBS / 2];
    let mut t = [0u32; MAX_LIMBS];
    let (da, db, t) = (&mut da[..m], &mut db[..m], &mut t[..n]);
    // The product of the differences is +|..||..| when both have the same sign: then it is
    // subtracted from z0 + z2, otherwise added.
    let sub = !(abs_diff(da, a0, a1) ^ abs_diff(db, b0, b1));
    mul_schoolbook_rust(&mut r[..n], a0, b0);
    mul_schoolbook_rust(&mut r[n..2 * n], a1, b1);
    mul_schoolbook_rust(t, da, db);
    // t = z0 + z2 -/+ t, as n limbs plus a carry limb: the result, a_lo b_hi + a_hi b_lo, is
    // below 2^(32n+1). Signed carries in [-1, 2].
    let neg = i64::from(sub as i32);
    let mut carry = 0i64;
    for (i, ti) in t.iter_mut().enumerate() {
        let s = i64::from(r[i]) + i64::from(r[n + i]) + ((i64::from(*ti) ^ neg) - neg) + carry;
        *ti = s as u32;
        carry = s >> 32;
    }
    let mut c = carry as u64;
    // Add the middle term in at limb m; what carries past it runs through the top m limbs.
    let mut acc = 0u64;
    for (ri, &ti) in r[m..m + n].iter_mut().zip(t.iter()) {
        let s = u64::from(*ri) + u64::from(ti) + acc;
        *ri = s as u32;
        acc = s >> 32;
    }
    c += acc;
    for ri in r[m + n..2 * n].iter_mut() {
        let s = u64::from(*ri) + c;
        *ri = s as u32;
        c = s >> 32;
    }
}

/// One-level additive Karatsuba in the reduced radix: half sums need no carries, the three
/// products come back carried, and the middle term `(a_lo + a_hi)(b_lo + b_hi) - z0 - z2` is
/// added in at limb `m` with signed limb-wise differences and one signed carry pass.
fn mul_karatsuba_reduced_rust(r: &mut [u32], a: &[u32], b: &[u32]) {
    let n = mul_len(r, a, b);
    if n % 2 == 1 || n > MAX_LIMBS {
        return mul_schoolbook_reduced_rust(r, a, b);
    }
    let m = n / 2;
    let (a0, a1) = a[..n].split_at(m);
    let (b0, b1) = b[..n].split_at(m);
    let mut sa = [0u32; MAX_LIMBS / 2];
    let mut sb = [0u32; MAX_LIMBS / 2];
    let mut t = [0u32; MAX_LIMBS];
    let (sa, sb, t) = (&mut sa[..m], &mut sb[..m], &mut t[..n]);
    add_reduced_rust(sa, a0, a1);
    add_reduced_rust(sb, b0, b1);
    mul_schoolbook_reduced_rust(&mut r[..n], a0, b0);
    mul_schoolbook_reduced_rust(&mut r[n..2 * n], a1, b1);
    mul_schoolbook_reduced_rust(t, sa, sb);
    // Limb-wise t - z0 - z2 stays within (-2^29, 2^30): no overflow in i32.
    for (i, ti) in t.iter_mut().enumerate() {
        *ti = ti.wrapping_sub(r[i]).wrapping_sub(r[n + i]);
    }
    let mut carry = 0i32;
    for (ri, &ti) in r[m..m + n].iter_mut().zip(t.iter()) {
        let s = (*ri as i32).wrapping_add(ti as i32).wrapping_add(carry);
        *ri = s as u32 & REDUCED_MASK;
        carry = s >> REDUCED_BITS;
    }
    for ri in r[m + n..2 * n].iter_mut() {
        let s = (*ri as i32).wrapping_add(carry);
        *ri = s as u32 & REDUCED_MASK;
        carry = s >> REDUCED_BITS;
    }
}

#[cfg(target_arch = "riscv32")]
#[allow(unsafe_code)]
mod asm {
    //! Safe wrappers over `rv32i.S`; each clamps `n` exactly as the Rust variant does, so the
    //! assembly never reads or writes past a slice.
    use super::{add_len, mul_len};

    core::arch::global_asm!(include_str!("rv32i.S"));

    extern "C" {
        fn cb_mp_add_rv32i(r: *mut u32, a: *const u32, b: *const u32, n: usize) -> u32;
        fn cb_mp_add_reduced_rv32i(r: *mut u32, a: *const u32, b: *const u32, n: usize) -> u32;
        fn cb_mp_mul_rv32i(r: *mut u32, a: *const u32, b: *const u32, n: usize);
        fn cb_mp_mul_reduced_rv32i(r: *mut u32, a: *const u32, b: *const u32, n: usize);
        fn cb_mp_mul_karatsuba_rv32i(r: *mut u32, a: *const u32, b: *const u32, n: usize);
        fn cb_mp_mul_karatsuba_reduced_rv32i(r: *mut u32, a: *const u32, b: *const u32, n: usize);
    }

    pub(super) fn add_full(r: &mut [u32], a: &[u32], b: &[u32]) -> u32 {
        let n = add_len(r, a, b);
        // SAFETY: r, a, b each hold at least n limbs; the routine touches exactly those.
        unsafe { cb_mp_add_rv32i(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
    }

    pub(super) fn add_reduced(r: &mut [u32], a: &[u32], b: &[u32]) -> u32 {
        let n = add_len(r, a, b);
        // SAFETY: r, a, b each hold at least n limbs; the routine touches exactly those.
        unsafe { cb_mp_add_reduced_rv32i(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
    }

    pub(super) fn mul_schoolbook(r: &mut [u32], a: &[u32], b: &[u32]) {
        let n = mul_len(r, a, b);
        // SAFETY: a, b hold at least n limbs and r at least 2n; only those are touched.
        unsafe { cb_mp_mul_rv32i(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
    }

    pub(super) fn mul_schoolbook_reduced(r: &mut [u32], a: &[u32], b: &[u32]) {
        let n = mul_len(r, a, b);
        // SAFETY: a, b hold at least n limbs and r at least 2n; only those are touched.
        unsafe { cb_mp_mul_reduced_rv32i(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
    }

    pub(super) fn mul_karatsuba(r: &mut [u32], a: &[u32], b: &[u32]) {
        let n = mul_len(r, a, b);
        // SAFETY: as for the schoolbook; the routine itself falls back to it for odd n and for
        // n > MAX_LIMBS, so its stack scratch never overflows.
        unsafe { cb_mp_mul_karatsuba_rv32i(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
    }

    pub(super) fn mul_karatsuba_reduced(r: &mut [u32], a: &[u32], b: &[u32]) {
        let n = mul_len(r, a, b);
        // SAFETY: as for mul_karatsuba.
        unsafe { cb_mp_mul_karatsuba_reduced_rv32i(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
    }
}

// ---------------------------------------------------------------------------------------------
// Self-test
// ---------------------------------------------------------------------------------------------

/// RSA-100 and its published factors (RSA Factoring Challenge, factored 1991), as 32-bit limbs:
/// a product known independently of any code here.
const RSA100_P: [u32; 6] = [0x501f24f7, 0x379c63cd, 0x9a967db3, 0xaa3d8600, 0xfbd41d69, 0x00000019];
const RSA100_Q: [u32; 6] = [0xa07cdf1d, 0x60a5f75e, 0x03602201, 0xeeb619bc, 0x6f141f98, 0x0000001b];
const RSA100: [u32; 12] = [
    0x7c5e58fb, 0x1c7a50ef, 0x55dc0b77, 0xf66489d1, 0x26ed3dfd, 0x85439af7, 0x7e3bf7ab, 0xb472be41, 0x81ab3725,
    0xd59af47c, 0x000002c8, 0x00000000,
];
/// The NIST P-256 prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (FIPS 186-4, D.1.2.3) and
/// 2^256 - p: their sum is exactly 2^256, a carry out of every limb.
const P256: [u32; 8] = [0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0, 1, 0xffffffff];
const P256_NEG: [u32; 8] = [1, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xfffffffe, 0];

/// Limb counts the self-test runs (kept small enough for a slow simulator); 34 is past
/// [`MAX_LIMBS`], where Karatsuba must fall back to the schoolbook product.
const SELF_TEST_SIZES: [usize; 10] = [1, 2, 3, 5, 6, 8, 13, 16, 32, 34];
const TEST_MAX: usize = MAX_LIMBS + 2;

/// Operand pattern: random, all-ones (every carry set), or zero.
#[derive(Clone, Copy)]
enum Fill {
    Random,
    Max,
    Zero,
}

fn fill(out: &mut [u32], how: Fill, mask: u32, rng: &mut Xorshift32) {
    for x in out.iter_mut() {
        *x = match how {
            Fill::Random => rng.next_u32() & mask,
            Fill::Max => mask,
            Fill::Zero => 0,
        };
    }
}

/// Operand-scanning product: a deliberately different algorithm from every variant, used as
/// the oracle on target.
fn oracle_mul(r: &mut [u32], a: &[u32], b: &[u32]) {
    r.fill(0);
    for (i, &ai) in a.iter().enumerate() {
        let mut carry = 0u64;
        for (j, &bj) in b.iter().enumerate() {
            let t = u64::from(ai) * u64::from(bj) + u64::from(r[i + j]) + carry;
            r[i + j] = t as u32;
            carry = t >> 32;
        }
        r[i + b.len()] = carry as u32;
    }
}

/// Full-radix words needed for `limbs` reduced limbs.
const fn full_len(limbs: usize) -> usize {
    (limbs * REDUCED_BITS as usize).div_ceil(32)
}

type Check = Result<(), alloc::string::String>;

fn check_add_full(f: MpAddFn, rng: &mut Xorshift32) -> Check {
    // n = 0 must be a no-op (and not touch memory).
    if f(&mut [], &[], &[]) != 0 {
        return Err("n=0: nonzero carry".into());
    }
    let mut r = [0u32; 8];
    let c = f(&mut r, &P256, &P256_NEG);
    if c != 1 || r != [0; 8] {
        return Err(format!("P-256 p + (2^256 - p): carry {c}, r {r:08x?}"));
    }
    for &n in SELF_TEST_SIZES.iter() {
        for how in [Fill::Random, Fill::Max, Fill::Zero] {
            let (mut a, mut b, mut r) = ([0u32; TEST_MAX], [0u32; TEST_MAX], [0u32; TEST_MAX]);
            fill(&mut a[..n], how, u32::MAX, rng);
            fill(&mut b[..n], how, u32::MAX, rng);
            let c = f(&mut r[..n], &a[..n], &b[..n]);
            let mut want = [0u32; TEST_MAX + 1];
            want[..n].copy_from_slice(&a[..n]);
            add_word_chain(&mut want[..n + 1], &b[..n]);
            if r[..n] != want[..n] || c != want[n] {
                return Err(format!("n={n}: got {:08x?} carry {c}", &r[..n]));
            }
        }
    }
    Ok(())
}

/// `acc += x` limb by limb over `x.len()` limbs, carrying through the rest of `acc`.
fn add_word_chain(acc: &mut [u32], x: &[u32]) -> u32 {
    let mut carry = 0u64;
    for (i, a) in acc.iter_mut().enumerate() {
        let s = u64::from(*a) + u64::from(x.get(i).copied().unwrap_or(0)) + carry;
        *a = s as u32;
        carry = s >> 32;
    }
    carry as u32
}

fn check_add_reduced(f: MpAddFn, rng: &mut Xorshift32) -> Check {
    if f(&mut [], &[], &[]) != 0 {
        return Err("n=0: nonzero return".into());
    }
    for &n in SELF_TEST_SIZES.iter() {
        for how in [Fill::Random, Fill::Max, Fill::Zero] {
            let (mut a, mut b, mut r) = ([0u32; TEST_MAX], [0u32; TEST_MAX], [0u32; TEST_MAX + 1]);
            fill(&mut a[..n], how, REDUCED_MASK, rng);
            fill(&mut b[..n], how, REDUCED_MASK, rng);
            let c = f(&mut r[..n], &a[..n], &b[..n]);
            r[n] = normalize_reduced(&mut r[..n]);
            let (mut fa, mut fb, mut fr) = ([0u32; TEST_MAX + 1], [0u32; TEST_MAX + 1], [0u32; TEST_MAX + 1]);
            let words = full_len(n + 1);
            reduced_to_full(&a[..n], &mut fa[..words]);
            reduced_to_full(&b[..n], &mut fb[..words]);
            reduced_to_full(&r[..n + 1], &mut fr[..words]);
            add_word_chain(&mut fa[..words], &fb[..words]);
            if c != 0 || fr[..words] != fa[..words] {
                return Err(format!("n={n}: returned {c}, normalized sum {:08x?}", &r[..n + 1]));
            }
        }
    }
    Ok(())
}

fn check_mul_full(f: MpMulFn, rng: &mut Xorshift32) -> Check {
    f(&mut [], &[], &[]);
    let mut r = [0u32; 12];
    f(&mut r, &RSA100_P, &RSA100_Q);
    if r != RSA100 {
        return Err(format!("RSA-100 = p * q: got {r:08x?}"));
    }
    for &n in SELF_TEST_SIZES.iter() {
        let kinds: &[Fill] = if n >= 32 {
            &[Fill::Random]
        } else {
            &[Fill::Random, Fill::Max, Fill::Zero]
        };
        for &how in kinds {
            let (mut a, mut b) = ([0u32; TEST_MAX], [0u32; TEST_MAX]);
            let (mut r, mut want) = ([0u32; 2 * TEST_MAX], [0u32; 2 * TEST_MAX]);
            fill(&mut a[..n], how, u32::MAX, rng);
            fill(&mut b[..n], how, u32::MAX, rng);
            f(&mut r[..2 * n], &a[..n], &b[..n]);
            oracle_mul(&mut want[..2 * n], &a[..n], &b[..n]);
            if r[..2 * n] != want[..2 * n] {
                return Err(format!("n={n}: got {:08x?}", &r[..2 * n]));
            }
        }
    }
    Ok(())
}

fn check_mul_reduced(f: MpMulFn, rng: &mut Xorshift32) -> Check {
    f(&mut [], &[], &[]);
    // RSA-100's factors have 165 bits: 6 reduced limbs (168 bits).
    let (mut p, mut q, mut r) = ([0u32; 6], [0u32; 6], [0u32; 12]);
    full_to_reduced(&RSA100_P, &mut p);
    full_to_reduced(&RSA100_Q, &mut q);
    f(&mut r, &p, &q);
    let mut full = [0u32; 12];
    reduced_to_full(&r, &mut full[..full_len(12)]);
    if full != RSA100 || r.iter().any(|&x| x > REDUCED_MASK) {
        return Err(format!("RSA-100 = p * q: got {r:07x?}"));
    }
    for &n in SELF_TEST_SIZES.iter() {
        let kinds: &[Fill] = if n >= 32 {
            &[Fill::Random]
        } else {
            &[Fill::Random, Fill::Max, Fill::Zero]
        };
        for &how in kinds {
            let (mut a, mut b, mut r) = ([0u32; TEST_MAX], [0u32; TEST_MAX], [0u32; 2 * TEST_MAX]);
            fill(&mut a[..n], how, REDUCED_MASK, rng);
            fill(&mut b[..n], how, REDUCED_MASK, rng);
            f(&mut r[..2 * n], &a[..n], &b[..n]);
            let w = full_len(n);
            let (mut fa, mut fb) = ([0u32; TEST_MAX], [0u32; TEST_MAX]);
            let (mut fr, mut want) = ([0u32; 2 * TEST_MAX], [0u32; 2 * TEST_MAX]);
            reduced_to_full(&a[..n], &mut fa[..w]);
            reduced_to_full(&b[..n], &mut fb[..w]);
            reduced_to_full(&r[..2 * n], &mut fr[..2 * w]);
            oracle_mul(&mut want[..2 * w], &fa[..w], &fb[..w]);
            if fr[..2 * w] != want[..2 * w] || r[..2 * n].iter().any(|&x| x > REDUCED_MASK) {
                return Err(format!("n={n}: got {:07x?}", &r[..2 * n]));
            }
        }
    }
    Ok(())
}

/// Checks every function `variant` provides against published numbers (RSA-100 = p * q,
/// P-256's p + (2^256 - p) = 2^256) and, on deterministic random, all-ones and zero operands of
/// 1 to 32 limbs, against an operand-scanning oracle; reduced-radix results are carried and
/// converted to full radix first.
pub fn self_test(variant: Variant, report: Report<'_>) {
    let v = variant.name();
    let mut rng = Xorshift32::new(0x2545_f491);
    if let Some(f) = add_full(variant) {
        report(&format!("mp::{v}::add_full"), check_add_full(f, &mut rng));
    }
    if let Some(f) = add_reduced(variant) {
        report(&format!("mp::{v}::add_reduced"), check_add_reduced(f, &mut rng));
    }
    if let Some(f) = mul_schoolbook(variant) {
        report(&format!("mp::{v}::mul_schoolbook"), check_mul_full(f, &mut rng));
    }
    if let Some(f) = mul_schoolbook_reduced(variant) {
        report(
            &format!("mp::{v}::mul_schoolbook_reduced"),
            check_mul_reduced(f, &mut rng),
        );
    }
    if let Some(f) = mul_karatsuba(variant) {
        report(&format!("mp::{v}::mul_karatsuba"), check_mul_full(f, &mut rng));
    }
    if let Some(f) = mul_karatsuba_reduced(variant) {
        report(
            &format!("mp::{v}::mul_karatsuba_reduced"),
            check_mul_reduced(f, &mut rng),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use num_bigint::BigUint;

    extern crate std;

    fn big(limbs: &[u32]) -> BigUint {
        BigUint::from_slice(limbs)
    }

    /// Value of reduced-radix limbs (any limb size).
    fn big_reduced(limbs: &[u32]) -> BigUint {
        limbs
            .iter()
            .rev()
            .fold(BigUint::default(), |acc, &l| (acc << REDUCED_BITS) + BigUint::from(l))
    }

    fn operands(n: usize, mask: u32, seed: u32) -> Vec<(Vec<u32>, Vec<u32>)> {
        let mut rng = Xorshift32::new(seed.wrapping_mul(0x9e37_79b9) | 1);
        let mut gen = |how| {
            let mut v = alloc::vec![0u32; n];
            fill(&mut v, how, mask, &mut rng);
            v
        };
        let mut out = Vec::new();
        for _ in 0..6 {
            out.push((gen(Fill::Random), gen(Fill::Random)));
        }
        out.push((gen(Fill::Max), gen(Fill::Max)));
        out.push((gen(Fill::Zero), gen(Fill::Random)));
        out.push((gen(Fill::Max), gen(Fill::Zero)));
        out.push((gen(Fill::Max), gen(Fill::Random)));
        out
    }

    #[test]
    fn add_full_matches_num_bigint() {
        let f = add_full(Variant::Rust).unwrap();
        for n in 1..=MAX_LIMBS {
            for (a, b) in operands(n, u32::MAX, n as u32) {
                let mut r = alloc::vec![0u32; n];
                let c = f(&mut r, &a, &b);
                let mut limbs = r.clone();
                limbs.push(c);
                assert_eq!(big(&limbs), big(&a) + big(&b), "n={n}");
                assert!(c <= 1);
            }
        }
    }

    #[test]
    fn add_reduced_matches_num_bigint_after_normalization() {
        let f = add_reduced(Variant::Rust).unwrap();
        for n in 1..=MAX_LIMBS {
            for (a, b) in operands(n, REDUCED_MASK, n as u32 + 100) {
                let mut r = alloc::vec![0u32; n];
                assert_eq!(f(&mut r, &a, &b), 0);
                assert_eq!(
                    big_reduced(&r),
                    big_reduced(&a) + big_reduced(&b),
                    "n={n} (unnormalized)"
                );
                let top = normalize_reduced(&mut r);
                assert!(r.iter().all(|&x| x <= REDUCED_MASK) && top <= 1);
                r.push(top);
                assert_eq!(big_reduced(&r), big_reduced(&a) + big_reduced(&b), "n={n}");
            }
        }
    }

    #[test]
    fn fifteen_chained_reduced_sums_normalize() {
        let f = add_reduced(Variant::Rust).unwrap();
        let x = alloc::vec![REDUCED_MASK; 8];
        let mut acc = x.clone();
        let mut next = alloc::vec![0u32; 8];
        for _ in 0..15 {
            f(&mut next, &acc, &x);
            acc.copy_from_slice(&next);
        }
        let want = big_reduced(&x) * 16u32;
        assert_eq!(big_reduced(&acc), want);
        let top = normalize_reduced(&mut acc);
        acc.push(top);
        assert_eq!(big_reduced(&acc), want);
        assert!(acc.iter().all(|&l| l <= REDUCED_MASK));
    }

    fn check_mul_full(f: MpMulFn, sizes: impl Iterator<Item = usize>) {
        for n in sizes {
            for (a, b) in operands(n, u32::MAX, n as u32 + 200) {
                let mut r = alloc::vec![0u32; 2 * n];
                f(&mut r, &a, &b);
                assert_eq!(big(&r), big(&a) * big(&b), "n={n}");
            }
        }
    }

    fn check_mul_reduced(f: MpMulFn, sizes: impl Iterator<Item = usize>) {
        for n in sizes {
            for (a, b) in operands(n, REDUCED_MASK, n as u32 + 300) {
                let mut r = alloc::vec![0u32; 2 * n];
                f(&mut r, &a, &b);
                // The contract: already canonical, so normalizing changes nothing.
                assert!(r.iter().all(|&x| x <= REDUCED_MASK), "n={n}: not canonical {r:x?}");
                let mut norm = r.clone();
                assert_eq!(normalize_reduced(&mut norm), 0);
                assert_eq!(norm, r);
                assert_eq!(big_reduced(&r), big_reduced(&a) * big_reduced(&b), "n={n}");
            }
        }
    }

    #[test]
    fn mul_schoolbook_matches_num_bigint() {
        check_mul_full(mul_schoolbook(Variant::Rust).unwrap(), 1..=MAX_LIMBS);
    }

    #[test]
    fn mul_karatsuba_matches_num_bigint_even_and_odd_fallback() {
        check_mul_full(mul_karatsuba(Variant::Rust).unwrap(), 1..=MAX_LIMBS);
    }

    #[test]
    fn mul_schoolbook_reduced_matches_num_bigint() {
        check_mul_reduced(mul_schoolbook_reduced(Variant::Rust).unwrap(), 1..=MAX_LIMBS);
    }

    #[test]
    fn mul_karatsuba_reduced_matches_num_bigint_even_and_odd_fallback() {
        check_mul_reduced(mul_karatsuba_reduced(Variant::Rust).unwrap(), 1..=MAX_LIMBS);
    }

    /// Karatsuba's sign handling: every combination of signs of a_lo - a_hi and b_lo - b_hi,
    /// and equal halves (zero difference).
    #[test]
    fn karatsuba_covers_every_difference_sign() {
        let f = mul_karatsuba(Variant::Rust).unwrap();
        let lo_big = [u32::MAX, u32::MAX, 5, 6];
        let hi_big = [7, 8, u32::MAX, u32::MAX];
        let equal = [9, 9, 9, 9];
        for a in [lo_big, hi_big, equal] {
            for b in [lo_big, hi_big, equal] {
                let mut r = [0u32; 8];
                f(&mut r, &a, &b);
                assert_eq!(big(&r), big(&a) * big(&b), "a={a:x?} b={b:x?}");
            }
        }
    }

    /// Beyond MAX_LIMBS Karatsuba has no scratch: it must fall back, not panic.
    #[test]
    fn karatsuba_beyond_max_limbs_falls_back() {
        for (f, mask) in [
            (mul_karatsuba(Variant::Rust).unwrap(), u32::MAX),
            (mul_karatsuba_reduced(Variant::Rust).unwrap(), REDUCED_MASK),
        ] {
            let n = MAX_LIMBS + 2;
            for (a, b) in operands(n, mask, 7) {
                let mut r = alloc::vec![0u32; 2 * n];
                f(&mut r, &a, &b);
                let mut want = alloc::vec![0u32; 2 * n];
                if mask == u32::MAX {
                    oracle_mul(&mut want, &a, &b);
                } else {
                    mul_schoolbook_reduced_rust(&mut want, &a, &b);
                }
                assert_eq!(r, want);
            }
        }
    }

    #[test]
    fn radix_conversions_match_num_bigint() {
        let mut rng = Xorshift32::new(12345);
        for n in 1..=MAX_LIMBS {
            let mut full = alloc::vec![0u32; full_len(n)];
            let mut red = alloc::vec![0u32; n];
            fill(&mut red, Fill::Random, REDUCED_MASK, &mut rng);
            reduced_to_full(&red, &mut full);
            assert_eq!(big(&full), big_reduced(&red));
            let mut back = alloc::vec![0u32; n];
            full_to_reduced(&full, &mut back);
            assert_eq!(back, red);
        }
    }

    #[test]
    fn oracle_matches_num_bigint() {
        for n in [1, 7, 32] {
            for (a, b) in operands(n, u32::MAX, 99) {
                let mut r = alloc::vec![0u32; 2 * n];
                oracle_mul(&mut r, &a, &b);
                assert_eq!(big(&r), big(&a) * big(&b));
            }
        }
    }

    #[test]
    fn published_vectors_hold() {
        assert_eq!(big(&RSA100_P) * big(&RSA100_Q), big(&RSA100));
        assert_eq!(big(&P256) + big(&P256_NEG), BigUint::from(1u8) << 256);
        let rsa100: BigUint =
            "1522605027922533360535618378132637429718068114961380688657908494580122963258952897654000350692006139"
                .parse()
                .unwrap();
        assert_eq!(big(&RSA100), rsa100);
    }

    #[test]
    fn self_test_rust_variant_passes() {
        let mut failures = Vec::new();
        let mut count = 0;
        self_test(Variant::Rust, &mut |name: &str, res| {
            count += 1;
            if let Err(e) = res {
                failures.push(alloc::format!("{name}: {e}"));
            }
        });
        assert_eq!(count, 6);
        assert!(failures.is_empty(), "{failures:?}");
    }
}
