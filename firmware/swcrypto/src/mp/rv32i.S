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
# One-level Karatsuba. Frame: 0..63 first half operand (|a_lo - a_hi| or a_lo + a_hi), 64..127
# the b one, 128..255 their product, 256.. saved registers. s0 r, s1 a, s2 b, s3 m = n / 2,
# s4 4n, s5 sign mask, s6 carry word of the middle term.

    .equ KS_DA, 0
    .equ KS_DB, 64
    .equ KS_T, 128
    .equ KS_FRAME, 288

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
    mv    s0, a0
    mv    s1, a1
    mv    s2, a2
    srli  s3, a3, 1
    slli  s4, a3, 2
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
    addi  sp, sp, KS_FRAME
    ret
.endm

# The three half products z0 -> r[0..n], z2 -> r[n..2n], (half operands) -> frame T.
.macro KS_PRODUCTS kernel
    mv    a0, s0
    mv    a1, s1
    mv    a2, s2
    mv    a3, s3
    call  \kernel
    slli  t0, s3, 2
    add   a0, s0, s4
    add   a1, s1, t0
    add   a2, s2, t0
    mv    a3, s3
    call  \kernel
    addi  a0, sp, KS_T
    addi  a1, sp, KS_DA
    addi  a2, sp, KS_DB
    mv    a3, s3
    call  \kernel
.endm

# d = |x - y| over m (s3) limbs at frame offset doff; x in register xr, y = x + 4m. Leaves the
# sign mask (all-ones if x < y) in a7. Both passes run whatever the sign.
.macro ABS_DIFF doff, xr
    addi  t0, sp, \doff
    mv    t1, \xr
    slli  t2, s3, 2
    add   t2, t2, \xr
    mv    t3, s3
    li    t6, 0                     # borrow
1:  lw    a4, 0(t1)
    lw    a5, 0(t2)
    addi  t1, t1, 4
    addi  t2, t2, 4
    sltu  a6, a4, a5
    sub   a4, a4, a5
    sltu  a5, a4, t6
    sub   a4, a4, t6
    or    t6, a6, a5
    sw    a4, 0(t0)
    addi  t0, t0, 4
    addi  t3, t3, -1
    bnez  t3, 1b
    neg   a7, t6                    # negate if x < y: (d ^ mask) + 1, carried
    addi  t0, sp, \doff
    mv    t3, s3
2:  lw    a4, 0(t0)
    addi  t0, t0, 4
    addi  t3, t3, -1
    xor   a4, a4, a7
    add   a4, a4, t6
    sltu  t6, a4, t6
    sw    a4, -4(t0)
    bnez  t3, 2b
.endm

# void cb_mp_mul_karatsuba_rv32i(u32 *r, const u32 *a, const u32 *b, usize n): subtractive.
    .section .text.cb_mp_mul_karatsuba_rv32i,"ax",@progbits
    .globl cb_mp_mul_karatsuba_rv32i
    .type cb_mp_mul_karatsuba_rv32i,@function
    .balign 4
cb_mp_mul_karatsuba_rv32i:
    KS_PROLOGUE 8f
    ABS_DIFF KS_DA, s1
    mv    s5, a7
    ABS_DIFF KS_DB, s2
    xor   s5, s5, a7
    not   s5, s5                    # all-ones: same signs, subtract the product
    KS_PRODUCTS cb_mp_mul_rv32i
    # T = z0 + z2 + (T ^ s5) + (s5 & 1): the middle term in two's complement, n limbs plus a
    # top word s5 + carry (0 or 1 in the end). n is even: two limbs per iteration.
    andi  t6, s5, 1
    mv    t0, s0
    add   t1, s0, s4
    addi  t2, sp, KS_T
    add   t3, t2, s4
1:  lw    a0, 0(t0)
    lw    a1, 0(t1)
    lw    a2, 0(t2)
    lw    a3, 4(t0)
    lw    a4, 4(t1)
    lw    a5, 4(t2)
    addi  t0, t0, 8
    addi  t1, t1, 8
    add   a0, a0, t6                # t6 is a carry count, 0..2
    sltu  t6, a0, t6
    add   a0, a0, a1
    sltu  a1, a0, a1
    add   t6, t6, a1
    xor   a2, a2, s5
    add   a0, a0, a2
    sltu  a2, a0, a2
    add   t6, t6, a2
    sw    a0, 0(t2)
    add   a3, a3, t6
    sltu  t6, a3, t6
    add   a3, a3, a4
    sltu  a4, a3, a4
    add   t6, t6, a4
    xor   a5, a5, s5
    add   a3, a3, a5
    sltu  a5, a3, a5
    add   t6, t6, a5
    sw    a3, 4(t2)
    addi  t2, t2, 8
    bne   t2, t3, 1b
    add   s6, t6, s5
    # r[m..m+n] += T, carrying on through r[m+n..2n] with the top word added in.
    slli  t0, s3, 2
    add   t0, t0, s0
    addi  t2, sp, KS_T
    li    t6, 0
2:  lw    a4, 0(t0)
    lw    a5, 0(t2)
    lw    a6, 4(t0)
    lw    a7, 4(t2)
    addi  t2, t2, 8
    ADC   a4, a5
    sw    a4, 0(t0)
    ADC   a6, a7
    sw    a6, 4(t0)
    addi  t0, t0, 8
    bne   t2, t3, 2b
    add   t6, t6, s6
    slli  t3, s4, 1
    add   t3, t3, s0                # end of r
3:  lw    a4, 0(t0)
    addi  t0, t0, 4
    add   a4, a4, t6
    sltu  t6, a4, t6
    sw    a4, -4(t0)
    bne   t0, t3, 3b
    KS_EPILOGUE
8:  tail  cb_mp_mul_rv32i
    .size cb_mp_mul_karatsuba_rv32i, . - cb_mp_mul_karatsuba_rv32i

# Half sums: d = x + y limb-wise over m (s3) limbs at frame offset doff, y = x + 4m.
.macro HALF_SUM doff, xr
    addi  t0, sp, \doff
    mv    t1, \xr
    slli  t2, s3, 2
    add   t2, t2, \xr
    mv    t3, s3
1:  lw    a4, 0(t1)
    lw    a5, 0(t2)
    addi  t1, t1, 4
    addi  t2, t2, 4
    add   a4, a4, a5
    sw    a4, 0(t0)
    addi  t0, t0, 4
    addi  t3, t3, -1
    bnez  t3, 1b
.endm

# void cb_mp_mul_karatsuba_reduced_rv32i(u32 *r, const u32 *a, const u32 *b, usize n):
# additive, canonical radix-2^28 in and out.
    .section .text.cb_mp_mul_karatsuba_reduced_rv32i,"ax",@progbits
    .globl cb_mp_mul_karatsuba_reduced_rv32i
    .type cb_mp_mul_karatsuba_reduced_rv32i,@function
    .balign 4
cb_mp_mul_karatsuba_reduced_rv32i:
    KS_PROLOGUE 8f
    HALF_SUM KS_DA, s1
    HALF_SUM KS_DB, s2
    KS_PRODUCTS cb_mp_mul_reduced_rv32i
    # T -= z0 + z2, limb-wise: signed limbs in (-2^29, 2^30).
    mv    t0, s0
    add   t1, s0, s4
    addi  t2, sp, KS_T
    add   t3, t2, s4
1:  lw    a0, 0(t2)
    lw    a1, 0(t0)
    lw    a2, 0(t1)
    lw    a3, 4(t2)
    lw    a4, 4(t0)
    lw    a5, 4(t1)
    addi  t0, t0, 8
    addi  t1, t1, 8
    sub   a0, a0, a1
    sub   a0, a0, a2
    sub   a3, a3, a4
    sub   a3, a3, a5
    sw    a0, 0(t2)
    sw    a3, 4(t2)
    addi  t2, t2, 8
    bne   t2, t3, 1b
    # r[m..2n] += T with a signed carry (arithmetic shift), masking every limb back to 28 bits.
    li    t5, (1 << 28) - 1
    slli  t0, s3, 2
    add   t0, t0, s0
    addi  t2, sp, KS_T
    li    t6, 0
2:  lw    a4, 0(t0)
    lw    a5, 0(t2)
    lw    a6, 4(t0)
    lw    a7, 4(t2)
    addi  t2, t2, 8
    add   a4, a4, a5
    add   a4, a4, t6
    and   a5, a4, t5
    srai  t6, a4, 28
    sw    a5, 0(t0)
    add   a6, a6, a7
    add   a6, a6, t6
    and   a7, a6, t5
    srai  t6, a6, 28
    sw    a7, 4(t0)
    addi  t0, t0, 8
    bne   t2, t3, 2b
    slli  t3, s4, 1
    add   t3, t3, s0
3:  lw    a4, 0(t0)
    addi  t0, t0, 4
    add   a4, a4, t6
    and   a5, a4, t5
    srai  t6, a4, 28
    sw    a5, -4(t0)
    bne   t0, t3, 3b
    KS_EPILOGUE
8:  tail  cb_mp_mul_reduced_rv32i
    .size cb_mp_mul_karatsuba_reduced_rv32i, . - cb_mp_mul_karatsuba_reduced_rv32i

    .option pop
