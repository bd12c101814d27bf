/* Table-based AES-128 and AES-256 for RV32I (see mod.rs for the round-key layout and the
 * tables).
 *
 * A T-table lookup is extract (shift + mask) + add base + lw + xor, and RV32I has no reg+reg
 * addressing, so the add cannot be folded (an aligned table only turns it into an or): a
 * round is 16 lookups and 4 round-key loads, all straight-line. The four tables sit in one
 * 4 KiB block addressed from a single base register pointing 2047 bytes in, so every table
 * is reached through the lw immediate and needs only 4-byte alignment. Stoffelen's figures
 * come from the E31, which issues a load or store every cycle; Ibex's loads and stores take
 * longer, so they do not carry over. */

/* Byte `row` of column \x, times 4, in \t. */
.macro aest_index t, x, row
.if \row == 0
    slli    \t, \x, 2
    andi    \t, \t, 0x3fc
.elseif \row == 3
    srli    \t, \x, 24
    slli    \t, \t, 2
.else
    srli    \t, \x, 8 * \row - 2
    andi    \t, \t, 0x3fc
.endif
.endm

/* One output column: \y = rk ^ T0[\x0.b0] ^ T1[\x1.b1] ^ T2[\x2.b2] ^ T3[\x3.b3].
   a0 = round keys, a3 = tables + 2047; temporaries t4, t5, t6, a1. */
.macro aest_column rk, y, x0, x1, x2, x3
    lw      \y, \rk(a0)
    aest_index t4, \x0, 0
    aest_index t5, \x1, 1
    add     t4, t4, a3
    add     t5, t5, a3
    lw      t4, -2047(t4)
    lw      t5, -1023(t5)
    aest_index t6, \x2, 2
    aest_index a1, \x3, 3
    add     t6, t6, a3
    add     a1, a1, a3
    xor     \y, \y, t4
    lw      t6, 1(t6)
    lw      a1, 1025(a1)
    xor     \y, \y, t5
    xor     \y, \y, t6
    xor     \y, \y, a1
.endm

/* A full round from columns \x0..\x3 into \y0..\y3 (ShiftRows: row r from column c + r). */
.macro aest_round rk, x0, x1, x2, x3, y0, y1, y2, y3
    aest_column \rk,      \y0, \x0, \x1, \x2, \x3
    aest_column \rk + 4,  \y1, \x1, \x2, \x3, \x0
    aest_column \rk + 8,  \y2, \x2, \x3, \x0, \x1
    aest_column \rk + 12, \y3, \x3, \x0, \x1, \x2
.endm

/* Last-round column with the byte S-box: a3 = S-box - 2 here. */
.macro aest_last_column rk, y, x0, x1, x2, x3
    lw      \y, \rk(a0)
    andi    t4, \x0, 0xff
    srli    t5, \x1, 8
    andi    t5, t5, 0xff
    add     t4, t4, a3
    add     t5, t5, a3
    lbu     t4, 2(t4)
    lbu     t5, 2(t5)
    srli    t6, \x2, 16
    andi    t6, t6, 0xff
    srli    a1, \x3, 24
    add     t6, t6, a3
    add     a1, a1, a3
    xor     \y, \y, t4
    lbu     t6, 2(t6)
    lbu     a1, 2(a1)
    slli    t5, t5, 8
    xor     \y, \y, t5
    slli    t6, t6, 16
    slli    a1, a1, 24
    xor     \y, \y, t6
    xor     \y, \y, a1
.endm

/* Little-endian word from 4 bytes at \off(\p), any alignment; clobbers \t. */
.macro aest_load_bytes w, p, off, t
    lbu     \w, \off + 3(\p)
    lbu     \t, \off + 2(\p)
    slli    \w, \w, 8
    or      \w, \w, \t
    lbu     \t, \off + 1(\p)
    slli    \w, \w, 8
    or      \w, \w, \t
    lbu     \t, \off(\p)
    slli    \w, \w, 8
    or      \w, \w, \t
.endm

/* Stores little-endian word \w to \off(\p) byte by byte; clobbers \w. */
.macro aest_store_bytes w, p, off
    sb      \w, \off(\p)
    srli    \w, \w, 8
    sb      \w, \off + 1(\p)
    srli    \w, \w, 8
    sb      \w, \off + 2(\p)
    srli    \w, \w, 8
    sb      \w, \off + 3(\p)
.endm

/* void cb_aes128_table_encrypt_rv32i(const u32 rk[44], const u8 in[16], u8 out[16],
 *                                    const Tables *tables)
 * Caller-saved registers only, no stack. State a4-a7 / t0-t3 alternately. */
    .pushsection .text.cb_aes128_table_encrypt_rv32i, "ax", @progbits
    .globl  cb_aes128_table_encrypt_rv32i
    .type   cb_aes128_table_encrypt_rv32i, @function
    .balign 4
cb_aes128_table_encrypt_rv32i:
    andi    t0, a1, 3
    bnez    t0, .Laest_in_bytes
    lw      a4, 0(a1)
    lw      a5, 4(a1)
    lw      a6, 8(a1)
    lw      a7, 12(a1)
.Laest_in_done:
    lw      t0, 0(a0)
    lw      t1, 4(a0)
    lw      t2, 8(a0)
    lw      t3, 12(a0)
    addi    a3, a3, 2047
    xor     a4, a4, t0
    xor     a5, a5, t1
    xor     a6, a6, t2
    xor     a7, a7, t3
    aest_round  16, a4, a5, a6, a7, t0, t1, t2, t3
    aest_round  32, t0, t1, t2, t3, a4, a5, a6, a7
    aest_round  48, a4, a5, a6, a7, t0, t1, t2, t3
    aest_round  64, t0, t1, t2, t3, a4, a5, a6, a7
    aest_round  80, a4, a5, a6, a7, t0, t1, t2, t3
    aest_round  96, t0, t1, t2, t3, a4, a5, a6, a7
    aest_round 112, a4, a5, a6, a7, t0, t1, t2, t3
    aest_round 128, t0, t1, t2, t3, a4, a5, a6, a7
    aest_round 144, a4, a5, a6, a7, t0, t1, t2, t3
    /* The S-box follows the 4 KiB of T-tables: a3 = tables + 4094 = S-box - 2. */
    addi    a3, a3, 2047
    aest_last_column 160, a4, t0, t1, t2, t3
    aest_last_column 164, a5, t1, t2, t3, t0
    aest_last_column 168, a6, t2, t3, t0, t1
    aest_last_column 172, a7, t3, t0, t1, t2
    andi    t0, a2, 3
    bnez    t0, .Laest_out_bytes
    sw      a4, 0(a2)
    sw      a5, 4(a2)
    sw      a6, 8(a2)
    sw      a7, 12(a2)
    ret
.Laest_out_bytes:
    aest_store_bytes a4, a2, 0
    aest_store_bytes a5, a2, 4
    aest_store_bytes a6, a2, 8
    aest_store_bytes a7, a2, 12
    ret
.Laest_in_bytes:
    aest_load_bytes a4, a1, 0, t0
    aest_load_bytes a5, a1, 4, t0
    aest_load_bytes a6, a1, 8, t0
    aest_load_bytes a7, a1, 12, t0
    j       .Laest_in_done
    .size   cb_aes128_table_encrypt_rv32i, . - cb_aes128_table_encrypt_rv32i
    .popsection

/* void cb_aes128_table_expand_key_rv32i(const u8 key[16], u32 rk[44], const u8 sbox[256])
 * w0-w3 in a4-a7; SubWord(RotWord(w3)): byte 1 lands in byte 0, 2 in 1, 3 in 2, 0 in 3. */
.macro aest_key_round rcon, off
    srli    t1, a7, 8
    andi    t1, t1, 0xff
    srli    t2, a7, 16
    andi    t2, t2, 0xff
    add     t1, t1, a2
    add     t2, t2, a2
    lbu     t1, 0(t1)
    lbu     t2, 0(t2)
    srli    t3, a7, 24
    andi    t0, a7, 0xff
    add     t3, t3, a2
    add     t0, t0, a2
    xor     a4, a4, t1
    lbu     t3, 0(t3)
    lbu     t0, 0(t0)
    slli    t2, t2, 8
    xori    a4, a4, \rcon
    xor     a4, a4, t2
    slli    t3, t3, 16
    slli    t0, t0, 24
    xor     a4, a4, t3
    xor     a4, a4, t0
    xor     a5, a5, a4
    xor     a6, a6, a5
    xor     a7, a7, a6
    sw      a4, \off(a1)
    sw      a5, \off + 4(a1)
    sw      a6, \off + 8(a1)
    sw      a7, \off + 12(a1)
.endm

    .pushsection .text.cb_aes128_table_expand_key_rv32i, "ax", @progbits
    .globl  cb_aes128_table_expand_key_rv32i
    .type   cb_aes128_table_expand_key_rv32i, @function
    .balign 4
cb_aes128_table_expand_key_rv32i:
    andi    t0, a0, 3
    bnez    t0, .Laest_key_bytes
    lw      a4, 0(a0)
    lw      a5, 4(a0)
    lw      a6, 8(a0)
    lw      a7, 12(a0)
.Laest_key_done:
    sw      a4, 0(a1)
    sw      a5, 4(a1)
    sw      a6, 8(a1)
    sw      a7, 12(a1)
    aest_key_round 0x01, 16
    aest_key_round 0x02, 32
    aest_key_round 0x04, 48
    aest_key_round 0x08, 64
    aest_key_round 0x10, 80
    aest_key_round 0x20, 96
    aest_key_round 0x40, 112
    aest_key_round 0x80, 128
    aest_key_round 0x1b, 144
    aest_key_round 0x36, 160
    ret
.Laest_key_bytes:
    aest_load_bytes a4, a0, 0, t0
    aest_load_bytes a5, a0, 4, t0
    aest_load_bytes a6, a0, 8, t0
    aest_load_bytes a7, a0, 12, t0
    j       .Laest_key_done
    .size   cb_aes128_table_expand_key_rv32i, . - cb_aes128_table_expand_key_rv32i
    .popsection

/* void cb_aes256_table_encrypt_rv32i(const u32 rk[60], const u8 in[16], u8 out[16],
 *                                    const Tables *tables)
 * The AES-128 routine's rounds, thirteen of them, run as a loop of two rounds (the state
 * alternates between a4-a7 and t0-t3) over a moving round-key pointer: unrolled, they would
 * take 3.5 KiB more of the Earl Grey flash, which the suite's image nearly fills, to save
 * only the loop's increment and branch per pair of rounds. Every register is in use inside a
 * round, so the output pointer is kept in one stack word while a2 bounds the loop. */
    .pushsection .text.cb_aes256_table_encrypt_rv32i, "ax", @progbits
    .globl  cb_aes256_table_encrypt_rv32i
    .type   cb_aes256_table_encrypt_rv32i, @function
    .balign 4
cb_aes256_table_encrypt_rv32i:
    andi    t0, a1, 3
    bnez    t0, .Laest256_in_bytes
    lw      a4, 0(a1)
    lw      a5, 4(a1)
    lw      a6, 8(a1)
    lw      a7, 12(a1)
.Laest256_in_done:
    lw      t0, 0(a0)
    lw      t1, 4(a0)
    lw      t2, 8(a0)
    lw      t3, 12(a0)
    addi    a3, a3, 2047
    xor     a4, a4, t0
    xor     a5, a5, t1
    xor     a6, a6, t2
    xor     a7, a7, t3
    addi    sp, sp, -16
    sw      a2, 12(sp)
    /* Six passes of two rounds: rounds 1 to 12. */
    addi    a2, a0, 192
.Laest256_rounds:
    aest_round  16, a4, a5, a6, a7, t0, t1, t2, t3
    aest_round  32, t0, t1, t2, t3, a4, a5, a6, a7
    addi    a0, a0, 32
    bne     a0, a2, .Laest256_rounds
    aest_round  16, a4, a5, a6, a7, t0, t1, t2, t3
    lw      a2, 12(sp)
    addi    sp, sp, 16
    addi    a3, a3, 2047
    aest_last_column 32, a4, t0, t1, t2, t3
    aest_last_column 36, a5, t1, t2, t3, t0
    aest_last_column 40, a6, t2, t3, t0, t1
    aest_last_column 44, a7, t3, t0, t1, t2
    andi    t0, a2, 3
    bnez    t0, .Laest256_out_bytes
    sw      a4, 0(a2)
    sw      a5, 4(a2)
    sw      a6, 8(a2)
    sw      a7, 12(a2)
    ret
.Laest256_out_bytes:
    aest_store_bytes a4, a2, 0
    aest_store_bytes a5, a2, 4
    aest_store_bytes a6, a2, 8
    aest_store_bytes a7, a2, 12
    ret
.Laest256_in_bytes:
    aest_load_bytes a4, a1, 0, t0
    aest_load_bytes a5, a1, 4, t0
    aest_load_bytes a6, a1, 8, t0
    aest_load_bytes a7, a1, 12, t0
    j       .Laest256_in_done
    .size   cb_aes256_table_encrypt_rv32i, . - cb_aes256_table_encrypt_rv32i
    .popsection

/* void cb_aes256_table_expand_key_rv32i(const u8 key[32], u32 rk[60], const u8 sbox[256])
 * w0-w7 in a4-a7, t3-t6; temporaries t0-t2, a3; the round constant in a0 once the key is
 * read. Eight new words per pass: the first four from SubWord(RotWord(w7)) and the round
 * constant, the last four from SubWord(w3). A loop of six passes and a last half (as the
 * encryption, for flash: the key is expanded once per key). */
.macro aest256_key_even off
    srli    t1, t6, 8
    andi    t1, t1, 0xff
    srli    t2, t6, 16
    andi    t2, t2, 0xff
    add     t1, t1, a2
    add     t2, t2, a2
    lbu     t1, 0(t1)
    lbu     t2, 0(t2)
    srli    a3, t6, 24
    andi    t0, t6, 0xff
    add     a3, a3, a2
    add     t0, t0, a2
    xor     a4, a4, t1
    lbu     a3, 0(a3)
    lbu     t0, 0(t0)
    slli    t2, t2, 8
    xor     a4, a4, a0
    xor     a4, a4, t2
    slli    a3, a3, 16
    slli    t0, t0, 24
    xor     a4, a4, a3
    xor     a4, a4, t0
    xor     a5, a5, a4
    xor     a6, a6, a5
    xor     a7, a7, a6
    sw      a4, \off(a1)
    sw      a5, \off + 4(a1)
    sw      a6, \off + 8(a1)
    sw      a7, \off + 12(a1)
.endm

.macro aest256_key_odd off
    andi    t0, a7, 0xff
    srli    t1, a7, 8
    andi    t1, t1, 0xff
    add     t0, t0, a2
    add     t1, t1, a2
    lbu     t0, 0(t0)
    lbu     t1, 0(t1)
    srli    t2, a7, 16
    andi    t2, t2, 0xff
    srli    a3, a7, 24
    add     t2, t2, a2
    add     a3, a3, a2
    xor     t3, t3, t0
    lbu     t2, 0(t2)
    lbu     a3, 0(a3)
    slli    t1, t1, 8
    xor     t3, t3, t1
    slli    t2, t2, 16
    slli    a3, a3, 24
    xor     t3, t3, t2
    xor     t3, t3, a3
    xor     t4, t4, t3
    xor     t5, t5, t4
    xor     t6, t6, t5
    sw      t3, \off(a1)
    sw      t4, \off + 4(a1)
    sw      t5, \off + 8(a1)
    sw      t6, \off + 12(a1)
.endm

    .pushsection .text.cb_aes256_table_expand_key_rv32i, "ax", @progbits
    .globl  cb_aes256_table_expand_key_rv32i
    .type   cb_aes256_table_expand_key_rv32i, @function
    .balign 4
cb_aes256_table_expand_key_rv32i:
    andi    t0, a0, 3
    bnez    t0, .Laest256_key_bytes
    lw      a4, 0(a0)
    lw      a5, 4(a0)
    lw      a6, 8(a0)
    lw      a7, 12(a0)
    lw      t3, 16(a0)
    lw      t4, 20(a0)
    lw      t5, 24(a0)
    lw      t6, 28(a0)
.Laest256_key_done:
    sw      a4, 0(a1)
    sw      a5, 4(a1)
    sw      a6, 8(a1)
    sw      a7, 12(a1)
    sw      t3, 16(a1)
    sw      t4, 20(a1)
    sw      t5, 24(a1)
    sw      t6, 28(a1)
    li      a0, 1
    /* Round constants 0x01 to 0x20 in the loop (doubling never reduces below 0x80), 0x40
       for the last half. */
.Laest256_key_loop:
    aest256_key_even 32
    aest256_key_odd 48
    addi    a1, a1, 32
    slli    a0, a0, 1
    srli    t0, a0, 6
    beqz    t0, .Laest256_key_loop
    aest256_key_even 32
    ret
.Laest256_key_bytes:
    aest_load_bytes a4, a0, 0, t0
    aest_load_bytes a5, a0, 4, t0
    aest_load_bytes a6, a0, 8, t0
    aest_load_bytes a7, a0, 12, t0
    aest_load_bytes t3, a0, 16, t0
    aest_load_bytes t4, a0, 20, t0
    aest_load_bytes t5, a0, 24, t0
    aest_load_bytes t6, a0, 28, t0
    j       .Laest256_key_done
    .size   cb_aes256_table_expand_key_rv32i, . - cb_aes256_table_expand_key_rv32i
    .popsection

.purgem aest_index
.purgem aest_column
.purgem aest_round
.purgem aest_last_column
.purgem aest_load_bytes
.purgem aest_store_bytes
.purgem aest_key_round
.purgem aest256_key_even
.purgem aest256_key_odd
