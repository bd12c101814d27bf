# ChaCha20 (RFC 8439) for RV32I: the whole 16-word state lives in registers.
#
#   void cb_chacha20_rv32i(const uint32_t state[16], uint8_t *data, size_t len);
#
# `state` is the RFC 8439 input block (constants, key, counter, nonce) as native words; the
# routine XORs len bytes of keystream into data, counting blocks from state[12] (wrapping).
# Whole blocks go word by word when data is 4-byte aligned; a partial final block, or every
# block of unaligned data, goes through a 64-byte keystream buffer on the stack.
#
# Registers inside the block loop:
#   x0..x3  s2 s3 s4 s5    x4..x7  s0 s1 a0 a1    x8..x11 s6 s7 s8 s9    x12..x15 a2 a3 a4 a5
#   t0 rotation temporary, t1 round-loop counter (both reused as load temporaries outside the
#   rounds), t2 &state, a6 data, a7 bytes left, s10 threshold below which a block takes the
#   buffered path (64, or all ones for unaligned data), s11 block counter,
#   ra t3 t4 t5 t6 the input words 0..4 (saves a load in the set-up and in the feed-forward).
# b and d words sit in x8..x15 so that most of their xor/srli/or get compressed encodings;
# the loop heads are 4-byte aligned (a taken branch to a misaligned 32-bit instruction costs
# Ibex a cycle). Stack frame: 64-byte keystream buffer, then ra and s0..s11.

# Quarter-round with rotations as slli + srli + or: 20 instructions.
.macro cb_chacha_qr_rv32i a, b, c, d, t
    add  \a, \a, \b
    xor  \d, \d, \a
    slli \t, \d, 16
    srli \d, \d, 16
    or   \d, \d, \t
    add  \c, \c, \d
    xor  \b, \b, \c
    slli \t, \b, 12
    srli \b, \b, 20
    or   \b, \b, \t
    add  \a, \a, \b
    xor  \d, \d, \a
    slli \t, \d, 8
    srli \d, \d, 24
    or   \d, \d, \t
    add  \c, \c, \d
    xor  \b, \b, \c
    slli \t, \b, 7
    srli \b, \b, 25
    or   \b, \b, \t
.endm

# Feed-forward of word i (byte offset 4i in the input block) using a loaded temporary.
.macro cb_chacha_ff x, off, t
    lw   \t, \off(t2)
    add  \x, \x, \t
.endm

# XOR word x into data at byte offset off (aligned path).
.macro cb_chacha_xor x, off, t
    lw   \t, \off(a6)
    xor  \x, \x, \t
    sw   \x, \off(a6)
.endm

# The whole function; `qr` names the quarter-round macro (this file's or zbb.S's).
.macro cb_chacha20_body name, qr
    .section .text.\name, "ax", @progbits
    .globl \name
    .type \name, @function
    .balign 4
\name:
    beqz a2, 9f
    addi sp, sp, -128
    sw   ra, 64(sp)
    sw   s0, 68(sp)
    sw   s1, 72(sp)
    sw   s2, 76(sp)
    sw   s3, 80(sp)
    sw   s4, 84(sp)
    sw   s5, 88(sp)
    sw   s6, 92(sp)
    sw   s7, 96(sp)
    sw   s8, 100(sp)
    sw   s9, 104(sp)
    sw   s10, 108(sp)
    sw   s11, 112(sp)
    mv   t2, a0
    mv   a6, a1
    mv   a7, a2
    li   s10, 64
    andi t0, a6, 3
    beqz t0, 1f
    li   s10, -1
1:  lw   ra, 0(t2)
    lw   t3, 4(t2)
    lw   t4, 8(t2)
    lw   t5, 12(t2)
    lw   t6, 16(t2)
    lw   s11, 48(t2)

    .balign 4
2:  # One block: load the input block.
    mv   s2, ra
    mv   s3, t3
    mv   s4, t4
    mv   s5, t5
    mv   s0, t6
    lw   s1, 20(t2)
    lw   a0, 24(t2)
    lw   a1, 28(t2)
    lw   s6, 32(t2)
    lw   s7, 36(t2)
    lw   s8, 40(t2)
    lw   s9, 44(t2)
    mv   a2, s11
    lw   a3, 52(t2)
    lw   a4, 56(t2)
    lw   a5, 60(t2)
    li   t1, 2

    .balign 4
3:  # Two passes of five double rounds.
    .rept 5
    \qr  s2, s0, s6, a2, t0
    \qr  s3, s1, s7, a3, t0
    \qr  s4, a0, s8, a4, t0
    \qr  s5, a1, s9, a5, t0
    \qr  s2, s1, s8, a5, t0
    \qr  s3, a0, s9, a2, t0
    \qr  s4, a1, s6, a3, t0
    \qr  s5, s0, s7, a4, t0
    .endr
    addi t1, t1, -1
    bnez t1, 3b

    # Feed-forward, loads interleaved with the adds.
    add  s2, s2, ra
    add  s3, s3, t3
    add  s4, s4, t4
    add  s5, s5, t5
    add  s0, s0, t6
    add  a2, a2, s11
    cb_chacha_ff s1, 20, t0
    cb_chacha_ff a0, 24, t1
    cb_chacha_ff a1, 28, t0
    cb_chacha_ff s6, 32, t1
    cb_chacha_ff s7, 36, t0
    cb_chacha_ff s8, 40, t1
    cb_chacha_ff s9, 44, t0
    cb_chacha_ff a3, 52, t1
    cb_chacha_ff a4, 56, t0
    cb_chacha_ff a5, 60, t1
    bltu a7, s10, 5f

    # Whole aligned block: XOR word by word.
    cb_chacha_xor s2, 0, t0
    cb_chacha_xor s3, 4, t1
    cb_chacha_xor s4, 8, t0
    cb_chacha_xor s5, 12, t1
    cb_chacha_xor s0, 16, t0
    cb_chacha_xor s1, 20, t1
    cb_chacha_xor a0, 24, t0
    cb_chacha_xor a1, 28, t1
    cb_chacha_xor s6, 32, t0
    cb_chacha_xor s7, 36, t1
    cb_chacha_xor s8, 40, t0
    cb_chacha_xor s9, 44, t1
    cb_chacha_xor a2, 48, t0
    cb_chacha_xor a3, 52, t1
    cb_chacha_xor a4, 56, t0
    cb_chacha_xor a5, 60, t1
    addi a6, a6, 64
    addi a7, a7, -64
    addi s11, s11, 1
    bnez a7, 2b

4:  lw   ra, 64(sp)
    lw   s0, 68(sp)
    lw   s1, 72(sp)
    lw   s2, 76(sp)
    lw   s3, 80(sp)
    lw   s4, 84(sp)
    lw   s5, 88(sp)
    lw   s6, 92(sp)
    lw   s7, 96(sp)
    lw   s8, 100(sp)
    lw   s9, 104(sp)
    lw   s10, 108(sp)
    lw   s11, 112(sp)
    addi sp, sp, 128
9:  ret

5:  # Partial block or unaligned data: keystream to the stack, then byte by byte.
    sw   s2, 0(sp)
    sw   s3, 4(sp)
    sw   s4, 8(sp)
    sw   s5, 12(sp)
    sw   s0, 16(sp)
    sw   s1, 20(sp)
    sw   a0, 24(sp)
    sw   a1, 28(sp)
    sw   s6, 32(sp)
    sw   s7, 36(sp)
    sw   s8, 40(sp)
    sw   s9, 44(sp)
    sw   a2, 48(sp)
    sw   a3, 52(sp)
    sw   a4, 56(sp)
    sw   a5, 60(sp)
    mv   a3, a7
    li   a4, 64
    bgeu a4, a7, 6f
    mv   a3, a4
6:  sub  a7, a7, a3              # bytes left after this block
    mv   a0, sp
    add  a1, sp, a3
7:  lbu  a2, 0(a0)
    lbu  a3, 0(a6)
    addi a0, a0, 1
    xor  a2, a2, a3
    sb   a2, 0(a6)
    addi a6, a6, 1
    bne  a0, a1, 7b
    addi s11, s11, 1
    bnez a7, 2b
    j    4b
    .size \name, . - \name
.endm

    cb_chacha20_body cb_chacha20_rv32i, cb_chacha_qr_rv32i
