# The two 16-byte comparisons that control the leakage test (compare/mod.rs), in RV32I so that
# their timing is what the code says whatever the compiler would make of a Rust loop.
# Standard ilp32 calls: a in a0, b in a1; returns 1 when the 16 bytes are equal, else 0.
#
# Assembled without compressed instructions, so every loop head is 4-byte aligned: a taken
# branch costs the same on every iteration, and only the data decides how many there are.

    .option push
    .option norvc

# ---------------------------------------------------------------------------------------------
# u32 cb_compare_leaky_rv32i(const u8 *a, const u8 *b): byte by byte, returning at the first
# difference. The number of iterations, and so the time, is the length of the common prefix.
    .section .text.cb_compare_leaky_rv32i,"ax",@progbits
    .globl cb_compare_leaky_rv32i
    .type cb_compare_leaky_rv32i,@function
    .balign 4
cb_compare_leaky_rv32i:
    addi  a2, a0, 16
1:  lbu   t0, 0(a0)
    lbu   t1, 0(a1)
    bne   t0, t1, 2f
    addi  a0, a0, 1
    addi  a1, a1, 1
    bne   a0, a2, 1b
    li    a0, 1
    ret
2:  li    a0, 0
    ret
    .size cb_compare_leaky_rv32i, . - cb_compare_leaky_rv32i

# ---------------------------------------------------------------------------------------------
# u32 cb_compare_ct_rv32i(const u8 *a, const u8 *b): ORs the XOR of all 16 byte pairs and tests
# the result once. The loop runs 16 times whatever the data; no branch depends on it.
    .section .text.cb_compare_ct_rv32i,"ax",@progbits
    .globl cb_compare_ct_rv32i
    .type cb_compare_ct_rv32i,@function
    .balign 4
cb_compare_ct_rv32i:
    addi  a2, a0, 16
    li    a3, 0
1:  lbu   t0, 0(a0)
    lbu   t1, 0(a1)
    xor   t0, t0, t1
    or    a3, a3, t0
    addi  a0, a0, 1
    addi  a1, a1, 1
    bne   a0, a2, 1b
    seqz  a0, a3
    ret
    .size cb_compare_ct_rv32i, . - cb_compare_ct_rv32i

    .option pop
