# Self-check of the Ibex testbench (see ../selfcheck.sh).
#
# 1. prints "ibex-selfcheck", then echoes one line from the host link uppercased;
#    the first byte of that line picks an action afterwards:
#      'w' wfi (the simulator must stop with status 4), 'j' jump to 0x0 (status 4),
#      'd' double fault (status 4), 'x' EXIT 7 (status 7), 'l' a 2M-iteration loop (about
#      20M cycles, to measure simulation speed) then EXIT 0, anything else: continue;
# 2. prints RXDATA read with nothing to read (expected FFFFFFFF at EOF);
# 3. prints mcycle deltas around blocks of 10 instructions ("add=0000000B" = 11 cycles
#    = 10 adds + the 1-cycle cost of reading mcycle, see "empty");
# 4. probes for Zbb (rori; the trap handler skips it if illegal) and times the bit-manipulation
#    instructions if present;
# 5. writes EXIT 0.

    .equ HL_TX,       0x0
    .equ HL_RXSTATUS, 0x4
    .equ HL_RXDATA,   0x8
    .equ HL_EXIT,     0xc

    .option arch, +m
    .option norvc

    .section .text.vectors, "ax"
    .globl _vectors
_vectors:                       # mtvec after reset: 0x0010_0000 (vectored; exceptions land here)
    j trap

    .section .text.start, "ax"
    .globl _start
_start:                         # reset PC: 0x0010_0080
    li s0, 0x20000              # host link
    la s1, data_word
    li s11, 0                   # 1 while probing for an instruction (trap handler skips it)
    la a0, s_hello
    jal ra, puts

    # --- echo one line, uppercased
    li s10, 0                   # first byte of the line
echo:
    lw t0, HL_RXSTATUS(s0)
    andi t0, t0, 1
    beqz t0, echo
    lw t0, HL_RXDATA(s0)
    bnez s10, 1f
    mv s10, t0
1:  li t1, 'a'
    blt t0, t1, 2f
    li t1, 'z'
    bgt t0, t1, 2f
    addi t0, t0, -32
2:  sw t0, HL_TX(s0)
    li t1, 10
    bne t0, t1, echo

    li t1, 'w'
    bne s10, t1, 1f
    wfi
1:  li t1, 'j'
    bne s10, t1, 1f
    jalr x0, 0(x0)
1:  li t1, 'd'
    bne s10, t1, 1f
    ecall                       # the trap handler faults again inside: double fault
1:  li t1, 'x'
    bne s10, t1, 1f
    li t1, 0x107                # EXIT takes the low byte: status 7
    sw t1, HL_EXIT(s0)
1:  li t1, 'l'
    bne s10, t1, 1f
    li t2, 2000000
2:  lw t0, 0(s1)
    add t0, t0, t2
    sw t0, 0(s1)
    mul t0, t0, t2
    xor t3, t3, t0
    addi t2, t2, -1
    bnez t2, 2b
    sw zero, HL_EXIT(s0)
1:

    lw a1, HL_RXDATA(s0)
    la a0, s_rxempty
    jal ra, put_named_hex

    # --- timings
    li a3, 0x12345678
    li a4, 7

    .macro T10 name, insn:vararg
    .pushsection .rodata
9:  .asciz "\name"
    .popsection
    .balign 4
    csrr t5, mcycle
    .rept 10
    \insn
    .endr
    csrr t6, mcycle
    sub a1, t6, t5
    la a0, 9b
    jal ra, put_named_hex
    .endm

    .balign 4
    csrr t5, mcycle
    csrr t6, mcycle
    sub a1, t6, t5
    la a0, s_empty
    jal ra, put_named_hex

    T10 add, add a2, a3, a4
    T10 lw, lw a2, 0(s1)
    T10 sw, sw a3, 0(s1)

    .balign 4                   # 10 x (lw + an add that uses the loaded value)
    csrr t5, mcycle
    .rept 10
    lw a2, 0(s1)
    add a5, a2, a2
    .endr
    csrr t6, mcycle
    sub a1, t6, t5
    la a0, s_lw_use
    jal ra, put_named_hex

    T10 mul, mul a2, a3, a4
    T10 mulh, mulh a2, a3, a4
    T10 div, div a2, a3, a4
    T10 slli, slli a2, a3, 7
    T10 beq_taken, beq x0, x0, .+4
    T10 bne_not_taken, bne x0, x0, .+4
    T10 jal, jal x0, .+4

    # --- Zbb probe
    li s11, 1
    .option push
    .option arch, +zba, +zbb, +zbs
    rori t3, t3, 1
    .option pop
    li t1, 1
    beq s11, t1, have_zbb
    la a0, s_nozbb
    jal ra, puts
    j finish

have_zbb:
    li s11, 0
    la a0, s_zbb
    jal ra, puts
    .option push
    .option arch, +zba, +zbb, +zbs
    T10 ror, ror a2, a3, a4
    T10 rori, rori a2, a3, 7
    T10 rol, rol a2, a3, a4
    T10 andn, andn a2, a3, a4
    T10 orn, orn a2, a3, a4
    T10 xnor, xnor a2, a3, a4
    T10 rev8, rev8 a2, a3
    T10 zext.h, zext.h a2, a3
    T10 sext.b, sext.b a2, a3
    T10 clz, clz a2, a3
    T10 ctz, ctz a2, a3
    T10 cpop, cpop a2, a3
    T10 min, min a2, a3, a4
    T10 orc.b, orc.b a2, a3
    T10 sh2add, sh2add a2, a3, a4
    T10 bset, bset a2, a3, a4
    T10 bext, bext a2, a3, a4

    # the results must be right too: ror(0x12345678, 7), rev8(0x12345678), andn, zext.h
    ror a1, a3, a4
    la a0, s_ror_value
    jal ra, put_named_hex
    rev8 a1, a3
    la a0, s_rev8_value
    jal ra, put_named_hex
    not t0, a4
    and t0, a3, t0
    andn a1, a3, a4
    xor a1, a1, t0              # 0 if andn agrees with and+not
    la a0, s_andn_check
    jal ra, put_named_hex
    zext.h a1, a3
    la a0, s_zexth_value
    jal ra, put_named_hex
    .option pop

finish:
    la a0, s_done
    jal ra, puts
    sw zero, HL_EXIT(s0)
1:  j 1b

# --- trap handler: skips a probed instruction, otherwise reports and exits with status 1
    .balign 4
trap:
    li t3, 1
    bne s11, t3, 1f
    li s11, 2
    csrr t3, mepc
    addi t3, t3, 4
    csrw mepc, t3
    mret
1:  li t3, 'd'
    bne s10, t3, 2f
    .word 0                     # illegal instruction inside the handler: double fault
2:  csrr a1, mcause
    la a0, s_mcause
    jal ra, put_named_hex
    csrr a1, mepc
    la a0, s_mepc
    jal ra, put_named_hex
    li t3, 1
    sw t3, HL_EXIT(s0)
3:  j 3b

# --- output helpers (use t0..t2, a0..a2; return via ra, nest via s9)
# puts: the zero-terminated string at a0
puts:
    lbu t0, 0(a0)
    beqz t0, 1f
    sw t0, HL_TX(s0)
    addi a0, a0, 1
    j puts
1:  ret

# put_named_hex: "<string a0>=<a1 as 8 hex digits>\n"
put_named_hex:
    mv s9, ra
    jal ra, puts
    li t0, '='
    sw t0, HL_TX(s0)
    li t1, 28
1:  srl t0, a1, t1
    andi t0, t0, 15
    li t2, 10
    blt t0, t2, 2f
    addi t0, t0, 'A' - '0' - 10
2:  addi t0, t0, '0'
    sw t0, HL_TX(s0)
    addi t1, t1, -4
    bgez t1, 1b
    li t0, 10
    sw t0, HL_TX(s0)
    mv ra, s9
    ret

    .section .rodata
s_hello:      .asciz "ibex-selfcheck\n"
s_rxempty:    .asciz "rxempty"
s_empty:      .asciz "empty"
s_lw_use:     .asciz "lw+use"
s_nozbb:      .asciz "zbb=no\n"
s_zbb:        .asciz "zbb=yes\n"
s_ror_value:  .asciz "ror_value"
s_rev8_value: .asciz "rev8_value"
s_andn_check: .asciz "andn_check"
s_zexth_value: .asciz "zexth_value"
s_mcause:     .asciz "trap mcause"
s_mepc:       .asciz "trap mepc"
s_done:       .asciz "done\n"

    .section .data
    .balign 4
data_word:    .word 0x5a5a5a5a
