/* Bitsliced AES-128-CTR, two blocks at once, RV32I + Zbb (layout, round keys: see mod.rs).
 * The RV32I routine with its 16 rotations a round (MixColumns) as rori and the counters'
 * byte swaps as rev8. rori takes 2 cycles on Ibex, so a rotation saves one cycle of three,
 * not the two a one-cycle rori would: MixColumns 43 ops, 59 cycles; 306 cycles a round.
 * Measured on Ibex (RTL): 3215 cycles a pair of blocks, 100.5 cycles/byte on 4096 bytes.
 * The key schedule gains nothing from Zbb: the Zbb variant uses the RV32I one. */

/* Registers in the rounds: planes 0-7 in s0, s1, a1-a6; temporaries t0-t6, s2-s11, ra;
 * round keys a0; counter a7. Stack frame 144 bytes: keystream buffer 0-31, first-state
 * constant 32-63, data pointer 64, remaining length 68, saved ra and s0-s11 from 80. */

    .option push
    .option arch, +zbb

/* SubBytes without its constant, planes in place. The circuit numbers bits from the
   most significant: U0 is plane 7 (a6), U7 plane 0 (s0), and likewise S0..S7. */
.macro aesbsz_sbox
    xor     t0,  a3,  a1    # y14 = U3 ^ U5
    xor     t1,  a6,  s1    # y13 = U0 ^ U6
    xor     t2,  t1,  t0    # y12 = y13 ^ y14
    xor     t3,  a2,  t2    # t1 = U4 ^ y12
    xor     t4,  t3,  a1    # y15 = t1 ^ U5
    and     t5,  t2,  t4    # t2 = y12 & y15
    xor     t6,  t4,  s0    # y6 = y15 ^ U7
    xor     t3,  t3,  a5    # y20 = t1 ^ U1
    xor     s2,  a6,  a3    # y9 = U0 ^ U3
    xor     s3,  t3,  s2    # y11 = y20 ^ y9
    and     s4,  s2,  s3    # t12 = y9 & y11
    xor     s5,  s0,  s3    # y7 = U7 ^ y11
    xor     s6,  a6,  a1    # y8 = U0 ^ U5
    xor     s7,  a5,  a4    # t0 = U1 ^ U2
    xor     s8,  t4,  s7    # y10 = y15 ^ t0
    xor     s9,  s8,  s3    # y17 = y10 ^ y11
    and     s10, t0,  s9    # t13 = y14 & y17
    xor     s10, s10, s4    # t14 = t13 ^ t12
    xor     s11, s8,  s6    # y19 = y10 ^ y8
    and     ra,  s6,  s8    # t15 = y8 & y10
    xor     s4,  ra,  s4    # t16 = t15 ^ t12
    xor     ra,  s7,  s3    # y16 = t0 ^ y11
    xor     a1,  t1,  ra    # y21 = y13 ^ y16
    and     a2,  t1,  ra    # t7 = y13 & y16
    xor     a4,  a6,  ra    # y18 = U0 ^ y16
    xor     s7,  s7,  s0    # y1 = t0 ^ U7
    xor     a3,  s7,  a3    # y4 = y1 ^ U3
    and     a5,  a3,  s0    # t5 = y4 & U7
    xor     a5,  a5,  t5    # t6 = t5 ^ t2
    xor     a5,  a5,  s4    # t18 = t6 ^ t16
    xor     s11, a5,  s11   # t22 = t18 ^ y19
    xor     a5,  s7,  a6    # y2 = y1 ^ U0
    and     a6,  a5,  s5    # t10 = y2 & y7
    xor     a6,  a6,  a2    # t11 = t10 ^ t7
    xor     s4,  a6,  s4    # t20 = t11 ^ t16
    xor     s4,  s4,  a4    # t24 = t20 ^ y18
    xor     s1,  s7,  s1    # y5 = y1 ^ U6
    and     a4,  s1,  s7    # t8 = y5 & y1
    xor     a2,  a4,  a2    # t9 = t8 ^ t7
    xor     a2,  a2,  s10   # t19 = t9 ^ t14
    xor     a1,  a2,  a1    # t23 = t19 ^ y21
    xor     a2,  s1,  s6    # y3 = y5 ^ y8
    and     a4,  a2,  t6    # t3 = y3 & y6
    xor     t5,  a4,  t5    # t4 = t3 ^ t2
    xor     t3,  t5,  t3    # t17 = t4 ^ y20
    xor     t3,  t3,  s10   # t21 = t17 ^ t14
    and     t5,  t3,  a1    # t26 = t21 & t23
    xor     s10, s4,  t5    # t27 = t24 ^ t26
    xor     t5,  s11, t5    # t31 = t22 ^ t26
    xor     t3,  t3,  s11   # t25 = t21 ^ t22
    and     a4,  t3,  s10   # t28 = t25 & t27
    xor     s11, a4,  s11   # t29 = t28 ^ t22
    and     a4,  s11, a5    # z14 = t29 & y2
    and     s5,  s11, s5    # z5 = t29 & y7
    xor     a5,  a1,  s4    # t30 = t23 ^ t24
    and     t5,  t5,  a5    # t32 = t31 & t30
    xor     t5,  t5,  s4    # t33 = t32 ^ t24
    xor     a5,  s10, t5    # t35 = t27 ^ t33
    and     s4,  s4,  a5    # t36 = t24 & t35
    xor     s10, s10, s4    # t38 = t27 ^ t36
    and     s10, s11, s10   # t39 = t29 & t38
    xor     t3,  t3,  s10   # t40 = t25 ^ t39
    xor     s10, s11, t3    # t43 = t29 ^ t40
    and     ra,  s10, ra    # z3 = t43 & y16
    xor     s5,  ra,  s5    # tc12 = z3 ^ z5
    and     t1,  s10, t1    # z12 = t43 & y13
    and     s10, t3,  s1    # z13 = t40 & y5
    and     s7,  t3,  s7    # z4 = t40 & y1
    xor     s7,  ra,  s7    # tc6 = z3 ^ z4
    xor     ra,  a1,  t5    # t34 = t23 ^ t33
    xor     s4,  s4,  ra    # t37 = t36 ^ t34
    xor     t3,  t3,  s4    # t41 = t40 ^ t37
    and     s8,  t3,  s8    # z8 = t41 & y10
    and     s6,  t3,  s6    # z17 = t41 & y8
    xor     ra,  t5,  s4    # t44 = t33 ^ t37
    and     t4,  ra,  t4    # z0 = t44 & y15
    and     t2,  ra,  t2    # z9 = t44 & y12
    and     ra,  s4,  a2    # z10 = t37 & y3
    and     t6,  s4,  t6    # z1 = t37 & y6
    xor     t6,  t6,  t4    # tc5 = z1 ^ z0
    xor     t6,  s7,  t6    # tc11 = tc6 ^ tc5
    and     s4,  t5,  a3    # z11 = t33 & y4
    xor     s11, s11, t5    # t42 = t29 ^ t33
    xor     t3,  s11, t3    # t45 = t42 ^ t41
    and     s9,  t3,  s9    # z7 = t45 & y17
    xor     s7,  s9,  s7    # tc8 = z7 ^ tc6
    and     t0,  t3,  t0    # z16 = t45 & y14
    and     t3,  s11, s3    # z6 = t42 & y11
    xor     t3,  t3,  s7    # tc16 = z6 ^ tc8
    and     s2,  s11, s2    # z15 = t42 & y9
    xor     s3,  s2,  t3    # tc20 = z15 ^ tc16
    xor     t0,  s2,  t0    # tc1 = z15 ^ z16
    xor     s2,  ra,  t0    # tc2 = z10 ^ tc1
    xor     s4,  s2,  s4    # tc21 = tc2 ^ z11
    xor     t2,  t2,  s2    # tc3 = z9 ^ tc2
    xor     a6,  t2,  t3    # S0 = tc3 ^ tc16
    xor     a3,  t2,  t6    # S3 = tc3 ^ tc11
    xor     a5,  a3,  t3    # S1 = S3 ^ tc16
    xor     t0,  s10, t0    # tc13 = z13 ^ tc1
    and     t2,  t5,  s0    # z2 = t33 & U7
    xor     t2,  t4,  t2    # tc4 = z0 ^ z2
    xor     t3,  t1,  t2    # tc7 = z12 ^ tc4
    xor     t3,  s8,  t3    # tc9 = z8 ^ tc7
    xor     t3,  s7,  t3    # tc10 = tc8 ^ tc9
    xor     t4,  a4,  t3    # tc17 = z14 ^ tc10
    xor     a1,  s4,  t4    # S5 = tc21 ^ tc17
    xor     t4,  t4,  s3    # tc26 = tc17 ^ tc20
    xor     a4,  t4,  s6    # S2 = tc26 ^ z17
    xor     t2,  t2,  s5    # tc14 = tc4 ^ tc12
    xor     t0,  t0,  t2    # tc18 = tc13 ^ tc14
    xor     s1,  t3,  t0    # S6 = tc10 ^ tc18
    xor     s0,  t1,  t0    # S7 = z12 ^ tc18
    xor     a2,  t2,  a3    # S4 = tc14 ^ S3
.endm

/* ShiftRows: row r (byte r of a plane) rotated right by 2r bits: nibble swap of rows 2
   and 3 as a delta swap, then rows 1 and 3 rotated right by 2 within their bytes. */
.macro aesbsz_shiftrows
    li      t0, 0x0f0f0000
    li      t1, 0x00ff00ff
    li      t2, 0x3f003f00
    li      t3, 0xc000c000
    srli    t4, s0, 4
    xor     t4, t4, s0
    and     t4, t4, t0
    xor     s0, s0, t4
    slli    t4, t4, 4
    xor     s0, s0, t4
    srli    t4, s0, 2
    and     t4, t4, t2
    slli    t5, s0, 6
    and     t5, t5, t3
    and     s0, s0, t1
    or      s0, s0, t4
    or      s0, s0, t5
    srli    t4, s1, 4
    xor     t4, t4, s1
    and     t4, t4, t0
    xor     s1, s1, t4
    slli    t4, t4, 4
    xor     s1, s1, t4
    srli    t4, s1, 2
    and     t4, t4, t2
    slli    t5, s1, 6
    and     t5, t5, t3
    and     s1, s1, t1
    or      s1, s1, t4
    or      s1, s1, t5
    srli    t4, a1, 4
    xor     t4, t4, a1
    and     t4, t4, t0
    xor     a1, a1, t4
    slli    t4, t4, 4
    xor     a1, a1, t4
    srli    t4, a1, 2
    and     t4, t4, t2
    slli    t5, a1, 6
    and     t5, t5, t3
    and     a1, a1, t1
    or      a1, a1, t4
    or      a1, a1, t5
    srli    t4, a2, 4
    xor     t4, t4, a2
    and     t4, t4, t0
    xor     a2, a2, t4
    slli    t4, t4, 4
    xor     a2, a2, t4
    srli    t4, a2, 2
    and     t4, t4, t2
    slli    t5, a2, 6
    and     t5, t5, t3
    and     a2, a2, t1
    or      a2, a2, t4
    or      a2, a2, t5
    srli    t4, a3, 4
    xor     t4, t4, a3
    and     t4, t4, t0
    xor     a3, a3, t4
    slli    t4, t4, 4
    xor     a3, a3, t4
    srli    t4, a3, 2
    and     t4, t4, t2
    slli    t5, a3, 6
    and     t5, t5, t3
    and     a3, a3, t1
    or      a3, a3, t4
    or      a3, a3, t5
    srli    t4, a4, 4
    xor     t4, t4, a4
    and     t4, t4, t0
    xor     a4, a4, t4
    slli    t4, t4, 4
    xor     a4, a4, t4
    srli    t4, a4, 2
    and     t4, t4, t2
    slli    t5, a4, 6
    and     t5, t5, t3
    and     a4, a4, t1
    or      a4, a4, t4
    or      a4, a4, t5
    srli    t4, a5, 4
    xor     t4, t4, a5
    and     t4, t4, t0
    xor     a5, a5, t4
    slli    t4, t4, 4
    xor     a5, a5, t4
    srli    t4, a5, 2
    and     t4, t4, t2
    slli    t5, a5, 6
    and     t5, t5, t3
    and     a5, a5, t1
    or      a5, a5, t4
    or      a5, a5, t5
    srli    t4, a6, 4
    xor     t4, t4, a6
    and     t4, t4, t0
    xor     a6, a6, t4
    slli    t4, t4, 4
    xor     a6, a6, t4
    srli    t4, a6, 2
    and     t4, t4, t2
    slli    t5, a6, 6
    and     t5, t5, t3
    and     a6, a6, t1
    or      a6, a6, t4
    or      a6, a6, t5
.endm

/* MixColumns: out = 2 t + ror8(a) + ror16(t), t = a + ror8(a); 2 t is a shift across
   planes with t7 folded into planes 0, 1, 3, 4. ror8(a) goes to t0, t1, t2, t3, t4, t5, t6, s2. */
.macro aesbsz_mixcolumns
    rori    t0, s0, 8
    xor     s0, s0, t0
    rori    t1, s1, 8
    xor     s1, s1, t1
    rori    t2, a1, 8
    xor     a1, a1, t2
    rori    t3, a2, 8
    xor     a2, a2, t3
    rori    t4, a3, 8
    xor     a3, a3, t4
    rori    t5, a4, 8
    xor     a4, a4, t5
    rori    t6, a5, 8
    xor     a5, a5, t6
    rori    s2, a6, 8
    xor     a6, a6, s2
    rori    s3, s1, 16
    xor     t1, t1, s3
    rori    s3, a1, 16
    xor     t2, t2, s3
    rori    s3, a2, 16
    xor     t3, t3, s3
    rori    s3, a3, 16
    xor     t4, t4, s3
    rori    s3, a4, 16
    xor     t5, t5, s3
    rori    s3, a5, 16
    xor     t6, t6, s3
    rori    s3, a6, 16
    xor     s2, s2, s3
    xor     t0, t0, a6
    xor     t1, t1, a6
    xor     t3, t3, a6
    xor     t4, t4, a6
    xor     a6, s2, a5
    xor     a5, t6, a4
    xor     a4, t5, a3
    xor     a3, t4, a2
    xor     a2, t3, a1
    xor     a1, t2, s1
    xor     s1, t1, s0
    rori    s0, s0, 16
    xor     s0, s0, t0
.endm

/* AddRoundKey with the round key at \off(a0). */
.macro aesbsz_ark off
    lw      t0, \off + 0(a0)
    lw      t1, \off + 4(a0)
    xor     s0, s0, t0
    xor     s1, s1, t1
    lw      t2, \off + 8(a0)
    lw      t3, \off + 12(a0)
    xor     a1, a1, t2
    xor     a2, a2, t3
    lw      t4, \off + 16(a0)
    lw      t5, \off + 20(a0)
    xor     a3, a3, t4
    xor     a4, a4, t5
    lw      t6, \off + 24(a0)
    lw      s2, \off + 28(a0)
    xor     a5, a5, t6
    xor     a6, a6, s2
.endm

.macro aesbsz_round off
    aesbsz_sbox
    aesbsz_shiftrows
    aesbsz_mixcolumns
    aesbsz_ark \off
.endm

.macro aesbsz_last_round off
    aesbsz_sbox
    aesbsz_shiftrows
    aesbsz_ark \off
.endm

/* void cb_aes128_bitsliced_ctr_zbb(const u32 rk[88], const u8 iv[16], u8 *data, usize len) */
    .pushsection .text.cb_aes128_bitsliced_ctr_zbb, "ax", @progbits
    .globl  cb_aes128_bitsliced_ctr_zbb
    .type   cb_aes128_bitsliced_ctr_zbb, @function
    .balign 4
cb_aes128_bitsliced_ctr_zbb:
    beqz    a3, .Laesbsz_empty
    addi    sp, sp, -144
    sw      ra, 80(sp)
    sw      s0, 84(sp)
    sw      s1, 88(sp)
    sw      s2, 92(sp)
    sw      s3, 96(sp)
    sw      s4, 100(sp)
    sw      s5, 104(sp)
    sw      s6, 108(sp)
    sw      s7, 112(sp)
    sw      s8, 116(sp)
    sw      s9, 120(sp)
    sw      s10, 124(sp)
    sw      s11, 128(sp)
    sw      a2, 64(sp)
    sw      a3, 68(sp)
    /* The nonce columns (any alignment), twice; the counter column zero. */
    lbu     t0, 3(a1)
    lbu     s8, 2(a1)
    slli    t0, t0, 8
    or      t0, t0, s8
    lbu     s8, 1(a1)
    slli    t0, t0, 8
    or      t0, t0, s8
    lbu     s8, 0(a1)
    slli    t0, t0, 8
    or      t0, t0, s8
    lbu     t2, 7(a1)
    lbu     s8, 6(a1)
    slli    t2, t2, 8
    or      t2, t2, s8
    lbu     s8, 5(a1)
    slli    t2, t2, 8
    or      t2, t2, s8
    lbu     s8, 4(a1)
    slli    t2, t2, 8
    or      t2, t2, s8
    lbu     t4, 11(a1)
    lbu     s8, 10(a1)
    slli    t4, t4, 8
    or      t4, t4, s8
    lbu     s8, 9(a1)
    slli    t4, t4, 8
    or      t4, t4, s8
    lbu     s8, 8(a1)
    slli    t4, t4, 8
    or      t4, t4, s8
    /* The counter, big-endian. */
    lbu     a7, 12(a1)
    lbu     s8, 13(a1)
    slli    a7, a7, 8
    or      a7, a7, s8
    lbu     s8, 14(a1)
    slli    a7, a7, 8
    or      a7, a7, s8
    lbu     s8, 15(a1)
    slli    a7, a7, 8
    or      a7, a7, s8
    mv      s0, t0
    mv      s1, t0
    mv      a1, t2
    mv      a2, t2
    mv      a3, t4
    mv      a4, t4
    li      a5, 0
    li      a6, 0
    li      s5, 0x0f0f0f0f
    li      s6, 0x33333333
    li      s7, 0x55555555
    srli    s8, s0, 4
    xor     s8, s8, a3
    and     s8, s8, s5
    xor     a3, a3, s8
    slli    s8, s8, 4
    xor     s0, s0, s8
    srli    s8, s1, 4
    xor     s8, s8, a4
    and     s8, s8, s5
    xor     a4, a4, s8
    slli    s8, s8, 4
    xor     s1, s1, s8
    srli    s8, a1, 4
    xor     s8, s8, a5
    and     s8, s8, s5
    xor     a5, a5, s8
    slli    s8, s8, 4
    xor     a1, a1, s8
    srli    s8, a2, 4
    xor     s8, s8, a6
    and     s8, s8, s5
    xor     a6, a6, s8
    slli    s8, s8, 4
    xor     a2, a2, s8
    srli    s8, s0, 2
    xor     s8, s8, a1
    and     s8, s8, s6
    xor     a1, a1, s8
    slli    s8, s8, 2
    xor     s0, s0, s8
    srli    s8, s1, 2
    xor     s8, s8, a2
    and     s8, s8, s6
    xor     a2, a2, s8
    slli    s8, s8, 2
    xor     s1, s1, s8
    srli    s8, a3, 2
    xor     s8, s8, a5
    and     s8, s8, s6
    xor     a5, a5, s8
    slli    s8, s8, 2
    xor     a3, a3, s8
    srli    s8, a4, 2
    xor     s8, s8, a6
    and     s8, s8, s6
    xor     a6, a6, s8
    slli    s8, s8, 2
    xor     a4, a4, s8
    srli    s8, s0, 1
    xor     s8, s8, s1
    and     s8, s8, s7
    xor     s1, s1, s8
    slli    s8, s8, 1
    xor     s0, s0, s8
    srli    s8, a1, 1
    xor     s8, s8, a2
    and     s8, s8, s7
    xor     a2, a2, s8
    slli    s8, s8, 1
    xor     a1, a1, s8
    srli    s8, a3, 1
    xor     s8, s8, a4
    and     s8, s8, s7
    xor     a4, a4, s8
    slli    s8, s8, 1
    xor     a3, a3, s8
    srli    s8, a5, 1
    xor     s8, s8, a6
    and     s8, s8, s7
    xor     a6, a6, s8
    slli    s8, s8, 1
    xor     a5, a5, s8
    /* ... plus round key 0: the part of the first state that no counter changes. */
    aesbsz_ark 0
    sw      s0, 32(sp)
    sw      s1, 36(sp)
    sw      a1, 40(sp)
    sw      a2, 44(sp)
    sw      a3, 48(sp)
    sw      a4, 52(sp)
    sw      a5, 56(sp)
    sw      a6, 60(sp)
    .balign 4
.Laesbsz_pair:
    /* Counter columns c and c + 1 (little-endian words of the big-endian counters), as
       words 6 and 7 of the pair; the transpose of words that are all zero but those two
       needs half swapmoves in its first two stages. */
    addi    t0, a7, 1
    rev8    a5, a7
    rev8    a6, t0
    li      s5, 0x0f0f0f0f
    li      s6, 0x33333333
    li      s7, 0x55555555
    and     a1, a5, s5
    xor     a5, a5, a1
    slli    a1, a1, 4
    and     a2, a6, s5
    xor     a6, a6, a2
    slli    a2, a2, 4
    and     s0, a1, s6
    xor     a1, a1, s0
    slli    s0, s0, 2
    and     s1, a2, s6
    xor     a2, a2, s1
    slli    s1, s1, 2
    and     a3, a5, s6
    xor     a5, a5, a3
    slli    a3, a3, 2
    and     a4, a6, s6
    xor     a6, a6, a4
    slli    a4, a4, 2
    srli    s8, s0, 1
    xor     s8, s8, s1
    and     s8, s8, s7
    xor     s1, s1, s8
    slli    s8, s8, 1
    xor     s0, s0, s8
    srli    s8, a1, 1
    xor     s8, s8, a2
    and     s8, s8, s7
    xor     a2, a2, s8
    slli    s8, s8, 1
    xor     a1, a1, s8
    srli    s8, a3, 1
    xor     s8, s8, a4
    and     s8, s8, s7
    xor     a4, a4, s8
    slli    s8, s8, 1
    xor     a3, a3, s8
    srli    s8, a5, 1
    xor     s8, s8, a6
    and     s8, s8, s7
    xor     a6, a6, s8
    slli    s8, s8, 1
    xor     a5, a5, s8
    lw      t0, 32(sp)
    lw      t1, 36(sp)
    xor     s0, s0, t0
    xor     s1, s1, t1
    lw      t2, 40(sp)
    lw      t3, 44(sp)
    xor     a1, a1, t2
    xor     a2, a2, t3
    lw      t4, 48(sp)
    lw      t5, 52(sp)
    xor     a3, a3, t4
    xor     a4, a4, t5
    lw      t6, 56(sp)
    lw      s2, 60(sp)
    xor     a5, a5, t6
    xor     a6, a6, s2
    aesbsz_round 32
    aesbsz_round 64
    aesbsz_round 96
    aesbsz_round 128
    aesbsz_round 160
    aesbsz_round 192
    aesbsz_round 224
    aesbsz_round 256
    aesbsz_round 288
    aesbsz_last_round 320
    /* Back to column words: word 2c + b is column c of block b. */
    li      s5, 0x0f0f0f0f
    li      s6, 0x33333333
    li      s7, 0x55555555
    srli    s8, s0, 4
    xor     s8, s8, a3
    and     s8, s8, s5
    xor     a3, a3, s8
    slli    s8, s8, 4
    xor     s0, s0, s8
    srli    s8, s1, 4
    xor     s8, s8, a4
    and     s8, s8, s5
    xor     a4, a4, s8
    slli    s8, s8, 4
    xor     s1, s1, s8
    srli    s8, a1, 4
    xor     s8, s8, a5
    and     s8, s8, s5
    xor     a5, a5, s8
    slli    s8, s8, 4
    xor     a1, a1, s8
    srli    s8, a2, 4
    xor     s8, s8, a6
    and     s8, s8, s5
    xor     a6, a6, s8
    slli    s8, s8, 4
    xor     a2, a2, s8
    srli    s8, s0, 2
    xor     s8, s8, a1
    and     s8, s8, s6
    xor     a1, a1, s8
    slli    s8, s8, 2
    xor     s0, s0, s8
    srli    s8, s1, 2
    xor     s8, s8, a2
    and     s8, s8, s6
    xor     a2, a2, s8
    slli    s8, s8, 2
    xor     s1, s1, s8
    srli    s8, a3, 2
    xor     s8, s8, a5
    and     s8, s8, s6
    xor     a5, a5, s8
    slli    s8, s8, 2
    xor     a3, a3, s8
    srli    s8, a4, 2
    xor     s8, s8, a6
    and     s8, s8, s6
    xor     a6, a6, s8
    slli    s8, s8, 2
    xor     a4, a4, s8
    srli    s8, s0, 1
    xor     s8, s8, s1
    and     s8, s8, s7
    xor     s1, s1, s8
    slli    s8, s8, 1
    xor     s0, s0, s8
    srli    s8, a1, 1
    xor     s8, s8, a2
    and     s8, s8, s7
    xor     a2, a2, s8
    slli    s8, s8, 1
    xor     a1, a1, s8
    srli    s8, a3, 1
    xor     s8, s8, a4
    and     s8, s8, s7
    xor     a4, a4, s8
    slli    s8, s8, 1
    xor     a3, a3, s8
    srli    s8, a5, 1
    xor     s8, s8, a6
    and     s8, s8, s7
    xor     a6, a6, s8
    slli    s8, s8, 1
    xor     a5, a5, s8
    lw      t0, 64(sp)
    lw      t1, 68(sp)
    andi    t2, t0, 3
    bnez    t2, .Laesbsz_bytes
    li      t2, 32
    bltu    t1, t2, .Laesbsz_bytes
    lw      t2, 0(t0)
    lw      t3, 4(t0)
    xor     t2, t2, s0
    xor     t3, t3, a1
    sw      t2, 0(t0)
    sw      t3, 4(t0)
    lw      t2, 8(t0)
    lw      t3, 12(t0)
    xor     t2, t2, a3
    xor     t3, t3, a5
    sw      t2, 8(t0)
    sw      t3, 12(t0)
    lw      t2, 16(t0)
    lw      t3, 20(t0)
    xor     t2, t2, s1
    xor     t3, t3, a2
    sw      t2, 16(t0)
    sw      t3, 20(t0)
    lw      t2, 24(t0)
    lw      t3, 28(t0)
    xor     t2, t2, a4
    xor     t3, t3, a6
    sw      t2, 24(t0)
    sw      t3, 28(t0)
.Laesbsz_next:
    li      t2, 32
    bgeu    t2, t1, .Laesbsz_done
    addi    t0, t0, 32
    addi    t1, t1, -32
    sw      t0, 64(sp)
    sw      t1, 68(sp)
    addi    a7, a7, 2
    j       .Laesbsz_pair
.Laesbsz_done:
    lw      ra, 80(sp)
    lw      s0, 84(sp)
    lw      s1, 88(sp)
    lw      s2, 92(sp)
    lw      s3, 96(sp)
    lw      s4, 100(sp)
    lw      s5, 104(sp)
    lw      s6, 108(sp)
    lw      s7, 112(sp)
    lw      s8, 116(sp)
    lw      s9, 120(sp)
    lw      s10, 124(sp)
    lw      s11, 128(sp)
    addi    sp, sp, 144
.Laesbsz_empty:
    ret
.Laesbsz_bytes:
    /* Tail or unaligned data: keystream to the stack, then byte by byte. */
    sw      s0, 0(sp)
    sw      a1, 4(sp)
    sw      a3, 8(sp)
    sw      a5, 12(sp)
    sw      s1, 16(sp)
    sw      a2, 20(sp)
    sw      a4, 24(sp)
    sw      a6, 28(sp)
    mv      t3, t1
    li      t2, 32
    bgeu    t2, t1, 1f
    mv      t3, t2
1:  add     t3, t3, t0
    mv      t4, t0
    mv      t5, sp
2:  lbu     t2, 0(t4)
    lbu     t6, 0(t5)
    addi    t5, t5, 1
    xor     t2, t2, t6
    sb      t2, 0(t4)
    addi    t4, t4, 1
    bne     t4, t3, 2b
    j       .Laesbsz_next
    .size   cb_aes128_bitsliced_ctr_zbb, . - cb_aes128_bitsliced_ctr_zbb
    .popsection

    .option pop

.purgem aesbsz_sbox
.purgem aesbsz_shiftrows
.purgem aesbsz_mixcolumns
.purgem aesbsz_ark
.purgem aesbsz_round
.purgem aesbsz_last_round
