# Multi-precision arithmetic for RV32IM (Ibex), the assembly side of mp/mod.rs: full- and
# reduced-radix (2^28) addition, schoolbook product scanning and one-level Karatsuba.
# Standard ilp32 calls: r in a0, a in a1, b in a2, n (limbs) in a3.
#
# Everything is assembled without compressed instructions: every instruction is 4 bytes, so
# every loop head is 4-byte aligned (no extra fetch cycle on a taken branch) and the
# multiplication units have a fixed size the computed jump into them relies on.
#
# RISC-V has no carry flag: a carry out of x + y is (x + y) < y, one sltu. Karatsuba keeps its
# temporaries in its own stack frame, sized for n <= 32 limbs; larger or odd n go to the
# schoolbook routine, as does n = 0 (which every routine handles by doing nothing).

    .option push
    .option norvc
    .option arch, +m                # module-level asm does not inherit the target's M

    .equ MP_MAX_LIMBS, 32

# ---------------------------------------------------------------------------------------------
# Add with carry: x = x + y + carry, carry (t6) = carry out; y is clobbered.
.macro ADC x, y
    add   \x, \x, t6
    sltu  t6, \x, t6
    add   \x, \x, \y
    sltu  \y, \x, \y
    or    t6, t6, \y
.endm

# ---------------------------------------------------------------------------------------------
# u32 cb_mp_add_rv32i(u32 *r, const u32 *a, const u32 *b, usize n): r = a + b, returns carry.
    .section .text.cb_mp_add_rv32i,"ax",@progbits
    .globl cb_mp_add_rv32i
    .type cb_mp_add_rv32i,@function
    .balign 4
cb_mp_add_rv32i:
    li    t6, 0
    andi  t5, a3, 3                 # n mod 4 limbs one at a time, then 4 per iteration
    beqz  t5, 2f
1:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    addi  a1, a1, 4
    addi  a2, a2, 4
    ADC   t0, t1
    sw    t0, 0(a0)
    addi  a0, a0, 4
    addi  t5, t5, -1
    bnez  t5, 1b
2:  andi  a3, a3, -4
    beqz  a3, 4f
    slli  a3, a3, 2
    add   a3, a3, a1                # end of a
3:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    lw    t2, 4(a1)
    lw    t3, 4(a2)
    lw    t4, 8(a1)
    lw    t5, 8(a2)
    lw    a4, 12(a1)
    lw    a5, 12(a2)
    ADC   t0, t1
    sw    t0, 0(a0)
    ADC   t2, t3
    sw    t2, 4(a0)
    ADC   t4, t5
    sw    t4, 8(a0)
    ADC   a4, a5
    sw    a4, 12(a0)
    addi  a1, a1, 16
    addi  a2, a2, 16
    addi  a0, a0, 16
    bne   a1, a3, 3b
4:  mv    a0, t6
    ret
    .size cb_mp_add_rv32i, . - cb_mp_add_rv32i

# ---------------------------------------------------------------------------------------------
# u32 cb_mp_add_reduced_rv32i(u32 *r, const u32 *a, const u32 *b, usize n): limb-wise r = a + b
# (radix 2^28, carries stay in the spare top bits), returns 0.
    .section .text.cb_mp_add_reduced_rv32i,"ax",@progbits
    .globl cb_mp_add_reduced_rv32i
    .type cb_mp_add_reduced_rv32i,@function
    .balign 4
cb_mp_add_reduced_rv32i:
    andi  t5, a3, 3
    beqz  t5, 2f
1:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    addi  a1, a1, 4
    addi  a2, a2, 4
    add   t0, t0, t1
    sw    t0, 0(a0)
    addi  a0, a0, 4
    addi  t5, t5, -1
    bnez  t5, 1b
2:  andi  a3, a3, -4
    beqz  a3, 4f
    slli  a3, a3, 2
    add   a3, a3, a1
3:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    lw    t2, 4(a1)
    lw    t3, 4(a2)
    lw    t4, 8(a1)
    lw    t5, 8(a2)
    lw    a4, 12(a1)
    lw    a5, 12(a2)
    add   t0, t0, t1
    add   t2, t2, t3
    add   t4, t4, t5
    add   a4, a4, a5
    sw    t0, 0(a0)
    sw    t2, 4(a0)
    sw    t4, 8(a0)
    sw    a4, 12(a0)
    addi  a1, a1, 16
    addi  a2, a2, 16
    addi  a0, a0, 16
    bne   a1, a3, 3b
4:  li    a0, 0
    ret
    .size cb_mp_add_reduced_rv32i, . - cb_mp_add_reduced_rv32i

# ---------------------------------------------------------------------------------------------
# Schoolbook product scanning, shared by both radices, two columns per pass.
#
# Columns k and k + 1 are summed together: for each i in the range both share, a[i] is loaded
# once and multiplied by b[k + 1 - i] (column k + 1) and by b[k - i] (column k), and b[k - i]
# is kept for the next i, where it is the column k + 1 operand. So each product costs one load
# instead of two. The pairs are (0, 1), (2, 3), ..., then a single last column 2n - 2.
#
# Phase A (k <= n - 2): the shared range is i = 0..k (count k + 1), and column k + 1 has one
# more product, a[k + 1] * b[0] (the tail). Phase B (k >= n - 1): the shared range is
# i = k - n + 2..n - 1 (count 2n - 2 - k), and column k has one more, a[k - n + 1] * b[n - 1]
# (the head). The shared range runs as four "units" per loop iteration; a range of `count`
# steps enters at unit s = (-count) mod 4 (a computed jump, Duff's device) with the first
# column k + 1 operand loaded in both of the registers the units alternate between. A unit
# loads a[i] two instructions before it is used, and b[k - i] eight, so there is no load-use
# stall even on a core with a writeback stage.
#
# Registers: a0 r (advancing by two limbs per pair), a1 a + 4 i0, a2 b + 4 (k - i0), a3 count,
# a4 pairs left in the phase, s0 unit 0, s4 n, s5 b, s6 a, t0 t1 inner a/b pointers, t2 end of
# a, t3 a[i], t4 t5 b[k - i] and b[k + 1 - i] (alternating), t6 s3 product low/high.
# Full radix: a 128-bit window a5 a6 a7 s1 holds column k at weight 1 and column k + 1 at
# weight 2^32; column k's carries out of a6 are counted in s2 (weight 2^64, like a7), so each
# product still takes six instructions. Reduced radix: a6:a5 column k, s1:a7 column k + 1,
# s2 the limb mask.

# Column k += t6 (low), s3 (high).
.macro ACC_LO reduced
  .if \reduced
    add   a5, a5, t6
    sltu  t6, a5, t6
    add   a6, a6, s3
    add   a6, a6, t6
  .else
    add   a5, a5, t6
    sltu  t6, a5, t6
    add   s3, s3, t6                # s3 <= 2^32 - 2: cannot wrap
    add   a6, a6, s3
    sltu  s3, a6, s3
    add   s2, s2, s3
  .endif
.endm

# Column k + 1 += t6 (low), s3 (high).
.macro ACC_HI reduced
  .if \reduced
    add   a7, a7, t6
    sltu  t6, a7, t6
    add   s1, s1, s3
    add   s1, s1, t6
  .else
    add   a6, a6, t6
    sltu  t6, a6, t6
    add   s3, s3, t6
    add   a7, a7, s3
    sltu  s3, a7, s3
    add   s1, s1, s3
  .endif
.endm

.macro PAIR_UNIT aoff, boff, ycur, yprev, reduced
    lw    t3, \aoff(t0)
    lw    \ycur, \boff(t1)
    mul   t6, t3, \yprev
    mulhu s3, t3, \yprev
    ACC_HI \reduced
    mul   t6, t3, \ycur
    mulhu s3, t3, \ycur
    ACC_LO \reduced
.endm

# Runs the shared range of one pair: enters the units below at the right one and falls out of
# the loop with t0 = a1 + 4 count, t1 = a2 - 4 count. Expects the column k + 1 operand of the
# first step in t4 and t5.
.macro PAIR_RANGE reduced
    neg   t3, a3
    andi  t3, t3, 3                 # units skipped
    slli  t6, t3, 2
    sub   t0, a1, t6
    add   t1, a2, t6
    slli  t2, a3, 2
    add   t2, t2, a1
  .if \reduced
    slli  t6, t3, 6                 # 56-byte units
    slli  t3, t3, 3
    sub   t3, t6, t3
  .else
    slli  t6, t3, 6                 # 72-byte units
    slli  t3, t3, 3
    add   t3, t6, t3
  .endif
    add   t3, t3, s0
    jr    t3
.endm

.macro PAIR_UNITS reduced
    PAIR_UNIT 0, 0, t4, t5, \reduced
    PAIR_UNIT 4, -4, t5, t4, \reduced
    PAIR_UNIT 8, -8, t4, t5, \reduced
    PAIR_UNIT 12, -12, t5, t4, \reduced
    addi  t0, t0, 16
    addi  t1, t1, -16
.endm

# Stores limbs k and k + 1 and moves the carry into column k (of the next pair).
.macro PAIR_END reduced
  .if \reduced
    and   t3, a5, s2
    sw    t3, 0(a0)
    srli  t3, a5, 28                # column k >> 28 into column k + 1
    slli  t4, a6, 4
    or    t3, t3, t4
    srli  t4, a6, 28
    add   a7, a7, t3
    sltu  t3, a7, t3
    add   s1, s1, t4
    add   s1, s1, t3
    and   t3, a7, s2
    sw    t3, 4(a0)
    srli  a5, a7, 28                # column k + 1 >> 28 is the next carry
    slli  t4, s1, 4
    or    a5, a5, t4
    srli  a6, s1, 28
    li    a7, 0
    li    s1, 0
  .else
    sw    a5, 0(a0)
    sw    a6, 4(a0)
    add   a5, a7, s2                # carry = (s1:a7) + s2
    sltu  t6, a5, s2
    add   a6, s1, t6
    li    a7, 0
    li    s1, 0
    li    s2, 0
  .endif
    addi  a0, a0, 8
.endm

# The product proper, for n = a3 >= 1: clobbers a0-a7, t0-t6 and s0-s6 without saving them,
# so Karatsuba can run it three times under one save of its own.
.macro MUL_CORE reduced
    mv    s4, a3
    mv    s5, a2
    mv    s6, a1
    li    a5, 0
    li    a6, 0
    li    a7, 0
    li    s1, 0
  .if \reduced
    li    s2, (1 << 28) - 1
  .else
    li    s2, 0
  .endif
    # Phase A: floor(n / 2) pairs, k = 0, 2, ...; count = k + 1, a1 = a, a2 = b + 4k.
    srli  a4, s4, 1
    beqz  a4, 3f
    la    s0, 2f
    li    a3, 1
1:  lw    t4, 4(a2)                 # b[k + 1]
    mv    t5, t4
    PAIR_RANGE \reduced
2:  PAIR_UNITS \reduced
    bne   t0, t2, 2b
    lw    t3, 0(t0)                 # tail: a[k + 1] * b[0] into column k + 1
    lw    t4, 0(s5)
    mul   t6, t3, t4
    mulhu s3, t3, t4
    ACC_HI \reduced
    PAIR_END \reduced
    addi  a2, a2, 8
    addi  a3, a3, 2
    addi  a4, a4, -1
    bnez  a4, 1b
    # Phase B: ceil(n / 2) - 1 pairs from k = 2 floor(n / 2): i0 = 2 (n even) or 1 (n odd),
    # count = n - i0, a1 = a + 4 i0, a2 = b + 4 (n - 2).
3:  addi  a4, s4, 1
    srli  a4, a4, 1
    addi  a4, a4, -1
    beqz  a4, 6f
    andi  t3, s4, 1
    li    t4, 2
    sub   t4, t4, t3
    sub   a3, s4, t4
    slli  t4, t4, 2
    add   a1, s6, t4
    slli  a2, s4, 2
    add   a2, a2, s5
    addi  a2, a2, -8
    la    s0, 5f
4:  lw    t3, -4(a1)                # head: a[i0 - 1] * b[n - 1] into column k
    lw    t4, 4(a2)                 # b[n - 1], also the first column k + 1 operand
    mul   t6, t3, t4
    mulhu s3, t3, t4
    mv    t5, t4
    ACC_LO \reduced
    PAIR_RANGE \reduced
5:  PAIR_UNITS \reduced
    bne   t0, t2, 5b
    PAIR_END \reduced
    addi  a1, a1, 8
    addi  a3, a3, -2
    addi  a4, a4, -1
    bnez  a4, 4b
    # The last column, 2n - 2: a[n - 1] * b[n - 1] plus the carry, into the top two limbs.
6:  slli  t0, s4, 2
    add   t1, t0, s5
    add   t0, t0, s6
    lw    t3, -4(t0)
    lw    t4, -4(t1)
    mul   t6, t3, t4
    mulhu s3, t3, t4
    add   a5, a5, t6
    sltu  t6, a5, t6
    add   a6, a6, s3
    add   a6, a6, t6
  .if \reduced
    and   t3, a5, s2
    srli  a5, a5, 28
    slli  a6, a6, 4
    or    a5, a5, a6
    sw    t3, 0(a0)
    sw    a5, 4(a0)
  .else
    sw    a5, 0(a0)
    sw    a6, 4(a0)
  .endif
.endm

.macro MUL_SCHOOLBOOK reduced
    beqz  a3, 9f
    addi  sp, sp, -32
    sw    s0, 0(sp)
    sw    s1, 4(sp)
    sw    s2, 8(sp)
    sw    s3, 12(sp)
    sw    s4, 16(sp)
    sw    s5, 20(sp)
    sw    s6, 24(sp)
    MUL_CORE \reduced
    lw    s0, 0(sp)
    lw    s1, 4(sp)
    lw    s2, 8(sp)
    lw    s3, 12(sp)
    lw    s4, 16(sp)
    lw    s5, 20(sp)
    lw    s6, 24(sp)
    addi  sp, sp, 32
9:  ret
.endm

# void cb_mp_mul_rv32i(u32 *r, const u32 *a, const u32 *b, usize n): r[0..2n] = a * b.
    .section .text.cb_mp_mul_rv32i,"ax",@progbits
    .globl cb_mp_mul_rv32i
    .type cb_mp_mul_rv32i,@function
    .balign 4
cb_mp_mul_rv32i:
    MUL_SCHOOLBOOK 0
    .size cb_mp_mul_rv32i, . - cb_mp_mul_rv32i

# void cb_mp_mul_reduced_rv32i(u32 *r, const u32 *a, const u32 *b, usize n): canonical radix-2^28
# inputs, r[0..2n] = a * b canonical (the top limb takes whatever the last column leaves).
    .section .text.cb_mp_mul_reduced_rv32i,"ax",@progbits
    .globl cb_mp_mul_reduced_rv32i
    .type cb_mp_mul_reduced_rv32i,@function
    .balign 4
cb_mp_mul_reduced_rv32i:
    MUL_SCHOOLBOOK 1
    .size cb_mp_mul_reduced_rv32i, . - cb_mp_mul_reduced_rv32i


# ---------------------------------------------------------------------------------------------
# One-level Karatsuba, m = n / 2 (n even, 2..32). Frame: 0..63 first half operand
# (|a_lo - a_hi| or a_lo + a_hi), 64..127 the b one, 128..255 their product T, 256.. saved
# registers. Across the three products: s7 r, s8 a, s9 b, s10 m, s11 sign mask (full radix).
#
# Each Karatsuba function carries its own copy of the schoolbook core (MUL_CORE, a local
# subroutine), so the callee-saved registers are saved once for all three half products
# instead of once per product.
#
# Loops over the m half limbs are unrolled by two; for odd m every pointer starts one limb
# early and the loop is entered at its second half. With B = 2^(32m) (limb blocks of m),
# z0 = L0 + B H0, z2 = L2 + B H2 and T = Tl + B Th, the product is
#   r = L0 + B (H0 + L0 + L2 -/+ Tl) + B^2 (H0 + H2 + L2 -/+ Th) + B^3 H2
# so one pass over i < m reads L0 H0 L2 H2 Tl Th at limb i of each block and writes blocks 1
# and 2; the carries out of blocks 1 and 2 are then run through blocks 2 and 3.

    .equ KS_DA, 0
    .equ KS_DB, 64
    .equ KS_T, 128
    .equ KS_FRAME, 320

.macro KS_PROLOGUE fallback
    andi  t0, a3, 1
    bnez  t0, \fallback
    beqz  a3, \fallback
    li    t0, MP_MAX_LIMBS
    bltu  t0, a3, \fallback
    addi  sp, sp, -KS_FRAME
    sw    ra, 256(sp)
    sw    s0, 260(sp)
    sw    s1, 264(sp)
    sw    s2, 268(sp)
    sw    s3, 272(sp)
    sw    s4, 276(sp)
    sw    s5, 280(sp)
    sw    s6, 284(sp)
    sw    s7, 288(sp)
    sw    s8, 292(sp)
    sw    s9, 296(sp)
    sw    s10, 300(sp)
    sw    s11, 304(sp)
    mv    s7, a0
    mv    s8, a1
    mv    s9, a2
    srli  s10, a3, 1
.endm

.macro KS_EPILOGUE
    lw    ra, 256(sp)
    lw    s0, 260(sp)
    lw    s1, 264(sp)
    lw    s2, 268(sp)
    lw    s3, 272(sp)
    lw    s4, 276(sp)
    lw    s5, 280(sp)
    lw    s6, 284(sp)
    lw    s7, 288(sp)
    lw    s8, 292(sp)
    lw    s9, 296(sp)
    lw    s10, 300(sp)
    lw    s11, 304(sp)
    addi  sp, sp, KS_FRAME
    ret
.endm

# Pointers for a pass over the half operands: t0 frame DA (t5 its end), t1 a_lo, t2 a_hi, t3
# b_lo, t4 b_hi; all one limb early for odd m (then a4 = 4, else 0).
.macro KS_HALF_POINTERS
    slli  t5, s10, 2
    andi  a4, s10, 1
    slli  a4, a4, 2
    sub   t0, sp, a4
    sub   t1, s8, a4
    add   t2, t1, t5
    sub   t3, s9, a4
    add   t4, t3, t5
    add   t5, sp, t5
.endm

# The three half products z0 -> r[0..n], z2 -> r[n..2n], (half operands) -> frame T.
.macro KS_PRODUCTS core
    mv    a0, s7
    mv    a1, s8
    mv    a2, s9
    mv    a3, s10
    jal   \core
    slli  t0, s10, 2
    add   a1, s8, t0
    add   a2, s9, t0
    slli  t0, t0, 1
    add   a0, s7, t0
    mv    a3, s10
    jal   \core
    addi  a0, sp, KS_T
    addi  a1, sp, KS_DA
    addi  a2, sp, KS_DB
    mv    a3, s10
    jal   \core
.endm

# Pointers for the middle-term pass: t0 L0, t1 H0 (block 1 out), t2 L2 (block 2 out), t3 H2,
# t4 Tl, s0 Th, s1 end of t0 (r + 4m); all one limb early for odd m (then a4 = 4).
.macro KS_MID_POINTERS
    slli  t5, s10, 2
    andi  a4, s10, 1
    slli  a4, a4, 2
    add   s1, s7, t5
    sub   t0, s7, a4
    add   t1, t0, t5
    add   t2, t1, t5
    add   t3, t2, t5
    addi  t4, sp, KS_T
    sub   t4, t4, a4
    add   s0, t4, t5
.endm

.macro KS_MID_STEP off
    addi  t0, t0, \off
    addi  t1, t1, \off
    addi  t2, t2, \off
    addi  t3, t3, \off
    addi  t4, t4, \off
    addi  s0, s0, \off
.endm

# Full radix, limb i of blocks 1 and 2: u = H0 + L2 (carry a7), block 1 = L0 + u + (Tl ^ S)
# (carry count a6, 0..2), block 2 = H2 + u + (Th ^ S) (carry count s2). S = s11.
.macro KS_MID_FULL o
    lw    a0, \o(t1)                # H0
    lw    a1, \o(t2)                # L2
    lw    a2, \o(t0)                # L0
    lw    a3, \o(t4)                # Tl
    lw    a4, \o(t3)                # H2
    lw    a5, \o(s0)                # Th
    add   a0, a0, a7
    sltu  a7, a0, a7
    add   a0, a0, a1
    sltu  a1, a0, a1
    or    a7, a7, a1
    xor   a3, a3, s11
    add   a2, a2, a0
    sltu  t6, a2, a0
    add   a2, a2, a6
    sltu  a6, a2, a6
    add   a6, a6, t6
    add   a2, a2, a3
    sltu  a3, a2, a3
    add   a6, a6, a3
    xor   a5, a5, s11
    add   a4, a4, a0
    sltu  t6, a4, a0
    add   a4, a4, s2
    sltu  s2, a4, s2
    add   s2, s2, t6
    add   a4, a4, a5
    sltu  a5, a4, a5
    add   s2, s2, a5
    sw    a2, \o(t1)
    sw    a4, \o(t2)
.endm

# |x - y| for a (borrow a6) and b (borrow a7) at limb offset o.
.macro KS_DIFF o
    lw    a0, \o(t1)
    lw    a1, \o(t2)
    lw    a2, \o(t3)
    lw    a3, \o(t4)
    sltu  a4, a0, a1
    sub   a0, a0, a1
    sltu  a1, a0, a6
    sub   a0, a0, a6
    or    a6, a4, a1
    sltu  a4, a2, a3
    sub   a2, a2, a3
    sltu  a3, a2, a7
    sub   a2, a2, a7
    or    a7, a4, a3
    sw    a0, \o(t0)
    sw    a2, KS_DB + \o(t0)
.endm

# Conditional negation (d ^ mask) + borrow, carried, for both operands at limb offset o.
.macro KS_NEG o
    lw    a0, \o(t0)
    lw    a2, KS_DB + \o(t0)
    xor   a0, a0, a4
    add   a0, a0, a6
    sltu  a6, a0, a6
    xor   a2, a2, a5
    add   a2, a2, a7
    sltu  a7, a2, a7
    sw    a0, \o(t0)
    sw    a2, KS_DB + \o(t0)
.endm

# x += carry count a6 over the limbs [t1, t2), their count in a4 (its parity picks the entry).
.macro KS_CARRY
    andi  a4, a4, 1
    beqz  a4, 1f
    lw    a0, 0(t1)
    addi  t1, t1, 4
    add   a0, a0, a6
    sltu  a6, a0, a6
    sw    a0, -4(t1)
1:  beq   t1, t2, 3f
2:  lw    a0, 0(t1)
    lw    a2, 4(t1)
    add   a0, a0, a6
    sltu  a6, a0, a6
    add   a2, a2, a6
    sltu  a6, a2, a6
    sw    a0, 0(t1)
    sw    a2, 4(t1)
    addi  t1, t1, 8
    bne   t1, t2, 2b
3:
.endm

# void cb_mp_mul_karatsuba_rv32i(u32 *r, const u32 *a, const u32 *b, usize n): subtractive.
    .section .text.cb_mp_mul_karatsuba_rv32i,"ax",@progbits
    .globl cb_mp_mul_karatsuba_rv32i
    .type cb_mp_mul_karatsuba_rv32i,@function
    .balign 4
cb_mp_mul_karatsuba_rv32i:
    KS_PROLOGUE 8f
    # DA = a_lo - a_hi, DB = b_lo - b_hi (borrows a6, a7), both in one pass.
    KS_HALF_POINTERS
    li    a6, 0
    li    a7, 0
    bnez  a4, 2f
1:  KS_DIFF 0
2:  KS_DIFF 4
    addi  t0, t0, 8
    addi  t1, t1, 8
    addi  t2, t2, 8
    addi  t3, t3, 8
    addi  t4, t4, 8
    bne   t0, t5, 1b
    # Negate where x < y: (d ^ mask) + 1, carried; both run whatever the signs.
    xor   s11, a6, a7
    addi  s11, s11, -1              # all-ones: same signs, subtract the product
    andi  t1, s10, 1
    slli  t1, t1, 2
    sub   t0, sp, t1
    neg   a4, a6
    neg   a5, a7
    bnez  t1, 4f
3:  KS_NEG 0
4:  KS_NEG 4
    addi  t0, t0, 8
    bne   t0, t5, 3b
    KS_PRODUCTS 7f
    # Blocks 1 and 2 of the middle term in one pass; the two's-complement +1 of -T is the
    # carry into block 1, its sign word s11 goes into block 3.
    KS_MID_POINTERS
    andi  a6, s11, 1
    li    a7, 0
    li    s2, 0
    bnez  a4, 2f
1:  KS_MID_FULL 0
2:  KS_MID_FULL 4
    KS_MID_STEP 8
    bne   t0, s1, 1b
    # Block 2 (from r + 8m) takes block 1's carries: a6 and u's carry a7.
    add   t1, s7, t5
    add   t1, t1, t5
    add   t2, t1, t5
    add   a6, a6, a7
    mv    a4, s10
    KS_CARRY
    # Block 3 takes block 2's carries (s2, u's a7 again) and the sign word s11. The sum is a
    # carry count, never negative: everything added into blocks 1 and 2 totals
    # M + H0 + B L2 + B^2 (M the middle term, >= 0) when subtracting, so at least B^2 carries.
    add   a6, a6, s2
    add   a6, a6, a7
    add   a6, a6, s11
    add   t2, t1, t5
    mv    a4, s10
    KS_CARRY
    KS_EPILOGUE
7:  MUL_CORE 0
    ret
8:  tail  cb_mp_mul_rv32i
    .size cb_mp_mul_karatsuba_rv32i, . - cb_mp_mul_karatsuba_rv32i

# Reduced radix, limb i of blocks 1 and 2: block 1 = H0 + Tl - L0 - L2 plus the signed carry
# a6, stored masked to 28 bits; block 2 = L2 + Th - H0 - H2, stored as a signed limb for the
# carry pass. All within (-2^30, 2^31).
.macro KS_MID_REDUCED o
    lw    a0, \o(t1)                # H0
    lw    a1, \o(t2)                # L2
    lw    a2, \o(t0)                # L0
    lw    a3, \o(t4)                # Tl
    lw    a4, \o(t3)                # H2
    lw    a5, \o(s0)                # Th
    add   a3, a3, a0
    sub   a3, a3, a2
    sub   a3, a3, a1
    add   a3, a3, a6
    and   a2, a3, s3
    srai  a6, a3, 28
    add   a5, a5, a1
    sub   a5, a5, a0
    sub   a5, a5, a4
    sw    a2, \o(t1)
    sw    a5, \o(t2)
.endm

.macro KS_SUM o
    lw    a0, \o(t1)
    lw    a1, \o(t2)
    lw    a2, \o(t3)
    lw    a3, \o(t4)
    add   a0, a0, a1
    add   a2, a2, a3
    sw    a0, \o(t0)
    sw    a2, KS_DB + \o(t0)
.endm

# void cb_mp_mul_karatsuba_reduced_rv32i(u32 *r, const u32 *a, const u32 *b, usize n):
# additive, canonical radix-2^28 in and out.
    .section .text.cb_mp_mul_karatsuba_reduced_rv32i,"ax",@progbits
    .globl cb_mp_mul_karatsuba_reduced_rv32i
    .type cb_mp_mul_karatsuba_reduced_rv32i,@function
    .balign 4
cb_mp_mul_karatsuba_reduced_rv32i:
    KS_PROLOGUE 8f
    # Half sums for a and b in one pass.
    KS_HALF_POINTERS
    bnez  a4, 2f
1:  KS_SUM 0
2:  KS_SUM 4
    addi  t0, t0, 8
    addi  t1, t1, 8
    addi  t2, t2, 8
    addi  t3, t3, 8
    addi  t4, t4, 8
    bne   t0, t5, 1b
    KS_PRODUCTS 7f
    KS_MID_POINTERS
    li    s3, (1 << 28) - 1
    li    a6, 0
    bnez  a4, 2f
1:  KS_MID_REDUCED 0
2:  KS_MID_REDUCED 4
    KS_MID_STEP 8
    bne   t0, s1, 1b
    # Blocks 2 and 3 (r + 8m .. r + 16m, 2m limbs): signed carry, every limb masked.
    add   t1, s7, t5
    add   t1, t1, t5
    slli  t2, t5, 2
    add   t2, t2, s7
3:  lw    a0, 0(t1)
    lw    a2, 4(t1)
    add   a0, a0, a6
    and   a1, a0, s3
    srai  a6, a0, 28
    add   a2, a2, a6
    and   a3, a2, s3
    srai  a6, a2, 28
    sw    a1, 0(t1)
    sw    a3, 4(t1)
    addi  t1, t1, 8
    bne   t1, t2, 3b
    KS_EPILOGUE
7:  MUL_CORE 1
    ret
8:  tail  cb_mp_mul_reduced_rv32i
    .size cb_mp_mul_karatsuba_reduced_rv32i, . - cb_mp_mul_karatsuba_reduced_rv32i

    .option pop
