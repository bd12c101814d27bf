"""Emits ../rv32i.S and ../zbb.S (the bitsliced AES-128 assembly), after checking the S-box
register allocation and the round against a bit-level model (model.py). Standard library only.
Run: python3 gen_bs.py [--out-dir DIR]  (DIR defaults to the directory of the committed files)"""
import argparse
import os
import random
import sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from alloc import allocate
from model import CIRCUIT, sub_bytes

OUT = os.path.join(HERE, '..') + os.sep

P = ['s0', 's1', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6']
T = ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10', 's11', 'ra']
RK = 'a0'
CTR = 'a7'

code, moves = allocate(CIRCUIT, 18)
assert not moves


def regname(r):
    return P[int(r[1:])] if r[0] == 'P' else T[int(r[1:])]


def check_allocation():
    rng = random.Random(5)
    for _ in range(20):
        planes = [rng.getrandbits(32) for _ in range(8)]
        regs = {f'P{i}': planes[i] for i in range(8)}
        for rd, op, ra, rb, *_ in code:
            regs[rd] = regs[ra] ^ regs[rb] if op == '^' else regs[ra] & regs[rb]
        assert [regs[f'P{i}'] for i in range(8)] == sub_bytes(planes)


check_allocation()


def sbox_body():
    lines = []
    for rd, op, ra, rb, dst, a, b in code:
        ins = 'xor' if op == '^' else 'and'
        lines.append(f'    {ins:<7} {regname(rd) + ",":<4} {regname(ra) + ",":<4} {regname(rb):<4}  # {dst} = {a} {op} {b}')
    return '\n'.join(lines)


def li(reg, value):
    return f'    li      {reg}, {value:#010x}'


def swapmove(a, b, shift, mask, tmp):
    """Exchange a's bits at mask << shift with b's bits at mask."""
    return [
        f'    srli    {tmp}, {a}, {shift}',
        f'    xor     {tmp}, {tmp}, {b}',
        f'    and     {tmp}, {tmp}, {mask}',
        f'    xor     {b}, {b}, {tmp}',
        f'    slli    {tmp}, {tmp}, {shift}',
        f'    xor     {a}, {a}, {tmp}',
    ]


def transpose(w, m4, m2, m1, tmp):
    out = []
    for shift, m in ((4, m4), (2, m2), (1, m1)):
        for k in range(8):
            if k & shift == 0:
                out += swapmove(w[k], w[k + shift], shift, m, tmp)
    return out


def ror(dst, src, n, s1, s2, zbb):
    if zbb:
        return [f'    rori    {dst}, {src}, {n}']
    return [f'    srli    {s1}, {src}, {n}', f'    slli    {s2}, {src}, {32 - n}', f'    or      {dst}, {s1}, {s2}']


def shiftrows():
    ma, k, m1, m2, u, v = T[0], T[1], T[2], T[3], T[4], T[5]
    out = [li(ma, 0x0f0f0000), li(k, 0x00ff00ff), li(m1, 0x3f003f00), li(m2, 0xc000c000)]
    for x in P:
        out += [
            f'    srli    {u}, {x}, 4',
            f'    xor     {u}, {u}, {x}',
            f'    and     {u}, {u}, {ma}',
            f'    xor     {x}, {x}, {u}',
            f'    slli    {u}, {u}, 4',
            f'    xor     {x}, {x}, {u}',
            f'    srli    {u}, {x}, 2',
            f'    and     {u}, {u}, {m1}',
            f'    slli    {v}, {x}, 6',
            f'    and     {v}, {v}, {m2}',
            f'    and     {x}, {x}, {k}',
            f'    or      {x}, {x}, {u}',
            f'    or      {x}, {x}, {v}',
        ]
    return out


def mixcolumns(zbb):
    r = T[:8]
    s1, s2 = T[8], T[9]
    out = []
    for i in range(8):  # r_i = ror8(a_i); a_i <- t_i = a_i ^ r_i
        out += ror(r[i], P[i], 8, s1, s2, zbb)
        out += [f'    xor     {P[i]}, {P[i]}, {r[i]}']
    for i in range(1, 8):  # r_i ^= ror16(t_i)
        out += ror(s1, P[i], 16, s1, s2, zbb)
        out += [f'    xor     {r[i]}, {r[i]}, {s1}']
    for i in (0, 1, 3, 4):  # reduction of 2 t: t_7 into bits 0, 1, 3, 4
        out += [f'    xor     {r[i]}, {r[i]}, {P[7]}']
    for i in range(7, 0, -1):  # out_i = r_i ^ t_(i-1); t_(i-1) is still intact
        out += [f'    xor     {P[i]}, {r[i]}, {P[i - 1]}']
    if zbb:
        out += [f'    rori    {P[0]}, {P[0]}, 16']
    else:
        out += [f'    srli    {s1}, {P[0]}, 16', f'    slli    {P[0]}, {P[0]}, 16', f'    or      {P[0]}, {P[0]}, {s1}']
    out += [f'    xor     {P[0]}, {P[0]}, {r[0]}']
    return out


def ark(off):
    out = []
    for i in range(0, 8, 2):
        out += [
            f'    lw      {T[i]}, \\off + {4 * i}({RK})',
            f'    lw      {T[i + 1]}, \\off + {4 * i + 4}({RK})',
            f'    xor     {P[i]}, {P[i]}, {T[i]}',
            f'    xor     {P[i + 1]}, {P[i + 1]}, {T[i + 1]}',
        ]
    return out


def bswap(dst, src, mask, tmp, zbb):
    if zbb:
        return [f'    rev8    {dst}, {src}']
    return [
        f'    slli    {dst}, {src}, 24',
        f'    srli    {tmp}, {src}, 24',
        f'    or      {dst}, {dst}, {tmp}',
        f'    srli    {tmp}, {src}, 8',
        f'    and     {tmp}, {tmp}, {mask}',
        f'    or      {dst}, {dst}, {tmp}',
        f'    and     {tmp}, {src}, {mask}',
        f'    slli    {tmp}, {tmp}, 8',
        f'    or      {dst}, {dst}, {tmp}',
    ]


def load_le(dst, base, off, tmp):
    return [
        f'    lbu     {dst}, {off + 3}({base})',
        f'    lbu     {tmp}, {off + 2}({base})',
        f'    slli    {dst}, {dst}, 8',
        f'    or      {dst}, {dst}, {tmp}',
        f'    lbu     {tmp}, {off + 1}({base})',
        f'    slli    {dst}, {dst}, 8',
        f'    or      {dst}, {dst}, {tmp}',
        f'    lbu     {tmp}, {off}({base})',
        f'    slli    {dst}, {dst}, 8',
        f'    or      {dst}, {dst}, {tmp}',
    ]


def body(lines):
    return '\n'.join(lines)


FRAME = 144
SAVED = ['ra'] + [f's{i}' for i in range(12)]


def ctr_function(name, pfx, zbb):
    L = f'.L{pfx}'
    m4, m2, m1, tmp = T[10], T[11], T[12], T[13]
    out = []
    out += [
        f'    .pushsection .text.{name}, "ax", @progbits',
        f'    .globl  {name}',
        f'    .type   {name}, @function',
        '    .balign 4',
        f'{name}:',
        f'    beqz    a3, {L}_empty',
        f'    addi    sp, sp, -{FRAME}',
    ]
    out += [f'    sw      {r}, {80 + 4 * i}(sp)' for i, r in enumerate(SAVED)]
    # a1 (IV) and a2, a3 are plane registers: park data and length first.
    out += ['    sw      a2, 64(sp)', '    sw      a3, 68(sp)']
    out += ['    /* The nonce columns (any alignment), twice; the counter column zero. */']
    out += load_le(T[0], 'a1', 0, tmp) + load_le(T[2], 'a1', 4, tmp) + load_le(T[4], 'a1', 8, tmp)
    out += ['    /* The counter, big-endian. */']
    out += [
        f'    lbu     {CTR}, 12(a1)',
        f'    lbu     {tmp}, 13(a1)',
        f'    slli    {CTR}, {CTR}, 8',
        f'    or      {CTR}, {CTR}, {tmp}',
        f'    lbu     {tmp}, 14(a1)',
        f'    slli    {CTR}, {CTR}, 8',
        f'    or      {CTR}, {CTR}, {tmp}',
        f'    lbu     {tmp}, 15(a1)',
        f'    slli    {CTR}, {CTR}, 8',
        f'    or      {CTR}, {CTR}, {tmp}',
    ]
    out += [
        f'    mv      {P[0]}, {T[0]}',
        f'    mv      {P[1]}, {T[0]}',
        f'    mv      {P[2]}, {T[2]}',
        f'    mv      {P[3]}, {T[2]}',
        f'    mv      {P[4]}, {T[4]}',
        f'    mv      {P[5]}, {T[4]}',
        f'    li      {P[6]}, 0',
        f'    li      {P[7]}, 0',
        li(m4, 0x0f0f0f0f), li(m2, 0x33333333), li(m1, 0x55555555),
    ]
    out += transpose(P, m4, m2, m1, tmp)
    out += ['    /* ... plus round key 0: the part of the first state that no counter changes. */']
    out += [f'    {pfx}_ark 0']
    out += [f'    sw      {P[i]}, {32 + 4 * i}(sp)' for i in range(8)]
    out += ['    .balign 4', f'{L}_pair:']
    out += ['    /* Counter columns c and c + 1 (little-endian words of the big-endian counters), as',
            '       words 6 and 7 of the pair; the transpose of words that are all zero but those two',
            '       needs half swapmoves in its first two stages. */']
    if zbb:
        out += [f'    addi    {T[0]}, {CTR}, 1'] + bswap(P[6], CTR, None, None, True) + bswap(P[7], T[0], None, None, True)
    else:
        out += [li(T[1], 0xff00), f'    addi    {T[0]}, {CTR}, 1']
        out += bswap(P[6], CTR, T[1], T[2], False) + bswap(P[7], T[0], T[1], T[2], False)
    out += [li(m4, 0x0f0f0f0f), li(m2, 0x33333333), li(m1, 0x55555555)]
    for lo, hi, shift, m in ((2, 6, 4, m4), (3, 7, 4, m4), (0, 2, 2, m2), (1, 3, 2, m2), (4, 6, 2, m2), (5, 7, 2, m2)):
        out += [
            f'    and     {P[lo]}, {P[hi]}, {m}',
            f'    xor     {P[hi]}, {P[hi]}, {P[lo]}',
            f'    slli    {P[lo]}, {P[lo]}, {shift}',
        ]
    for k in range(0, 8, 2):
        out += swapmove(P[k], P[k + 1], 1, m1, tmp)
    for i in range(0, 8, 2):
        out += [
            f'    lw      {T[i]}, {32 + 4 * i}(sp)',
            f'    lw      {T[i + 1]}, {36 + 4 * i}(sp)',
            f'    xor     {P[i]}, {P[i]}, {T[i]}',
            f'    xor     {P[i + 1]}, {P[i + 1]}, {T[i + 1]}',
        ]
    for r in range(1, 10):
        out += [f'    {pfx}_round {32 * r}']
    out += [f'    {pfx}_last_round 320']
    out += ['    /* Back to column words: word 2c + b is column c of block b. */']
    out += [li(m4, 0x0f0f0f0f), li(m2, 0x33333333), li(m1, 0x55555555)]
    out += transpose(P, m4, m2, m1, tmp)
    d, n, t0, t1 = T[0], T[1], T[2], T[3]
    memory_order = [0, 2, 4, 6, 1, 3, 5, 7]
    out += [
        f'    lw      {d}, 64(sp)',
        f'    lw      {n}, 68(sp)',
        f'    andi    {t0}, {d}, 3',
        f'    bnez    {t0}, {L}_bytes',
        f'    li      {t0}, 32',
        f'    bltu    {n}, {t0}, {L}_bytes',
    ]
    for j in range(0, 8, 2):
        out += [
            f'    lw      {t0}, {4 * j}({d})',
            f'    lw      {t1}, {4 * j + 4}({d})',
            f'    xor     {t0}, {t0}, {P[memory_order[j]]}',
            f'    xor     {t1}, {t1}, {P[memory_order[j + 1]]}',
            f'    sw      {t0}, {4 * j}({d})',
            f'    sw      {t1}, {4 * j + 4}({d})',
        ]
    out += [
        f'{L}_next:',
        f'    li      {t0}, 32',
        f'    bgeu    {t0}, {n}, {L}_done',
        f'    addi    {d}, {d}, 32',
        f'    addi    {n}, {n}, -32',
        f'    sw      {d}, 64(sp)',
        f'    sw      {n}, 68(sp)',
        f'    addi    {CTR}, {CTR}, 2',
        f'    j       {L}_pair',
        f'{L}_done:',
    ]
    out += [f'    lw      {r}, {80 + 4 * i}(sp)' for i, r in enumerate(SAVED)]
    out += [f'    addi    sp, sp, {FRAME}', f'{L}_empty:', '    ret']
    out += [f'{L}_bytes:', '    /* Tail or unaligned data: keystream to the stack, then byte by byte. */']
    out += [f'    sw      {P[k]}, {4 * j}(sp)' for j, k in enumerate(memory_order)]
    out += [
        f'    mv      {t1}, {n}',
        f'    li      {t0}, 32',
        f'    bgeu    {t0}, {n}, 1f',
        f'    mv      {t1}, {t0}',
        f'1:  add     {t1}, {t1}, {d}',
        f'    mv      {T[4]}, {d}',
        f'    mv      {T[5]}, sp',
        f'2:  lbu     {t0}, 0({T[4]})',
        f'    lbu     {T[6]}, 0({T[5]})',
        f'    addi    {T[5]}, {T[5]}, 1',
        f'    xor     {t0}, {t0}, {T[6]}',
        f'    sb      {t0}, 0({T[4]})',
        f'    addi    {T[4]}, {T[4]}, 1',
        f'    bne     {T[4]}, {t1}, 2b',
        f'    j       {L}_next',
        f'    .size   {name}, . - {name}',
        '    .popsection',
    ]
    return out


def expand_key_function(name, pfx):
    L = f'.L{pfx}'
    w = ['a4', 'a5', 'a6', 'a7']
    x = ['t0', 't1', 't2', 't3']
    m4, m2, m1, tmp, y = 't4', 't5', 't6', 'a3', 'a0'
    out = [
        f'    .pushsection .text.{name}, "ax", @progbits',
        f'    .globl  {name}',
        f'    .type   {name}, @function',
        '    .balign 4',
        f'{name}:',
        '    andi    t0, a0, 3',
        f'    bnez    t0, {L}_key_bytes',
    ] + [f'    lw      {w[c]}, {4 * c}(a0)' for c in range(4)] + [
        f'{L}_key_loaded:',
        li(m4, 0x0f0f0f0f), li(m2, 0x33333333), li(m1, 0x55555555),
    ]
    rcon = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36]
    for r in range(11):
        out += [f'    {pfx}_key_planes {32 * r}, {int(r > 0)}']
        if r < 10:
            out += [f'    {pfx}_key_round {rcon[r]:#04x}']
    out += ['    ret', f'{L}_key_bytes:']
    for c in range(4):
        out += load_le(w[c], 'a0', 4 * c, 't0')
    out += [f'    j       {L}_key_loaded', f'    .size   {name}, . - {name}', '    .popsection']
    return out


def key_macros(pfx):
    w = ['a4', 'a5', 'a6', 'a7']
    x = ['t0', 't1', 't2', 't3']
    m4, m2, m1, tmp, y = 't4', 't5', 't6', 'a3', 'a0'
    planes = []
    # Stages 4 and 2 on the four distinct columns (k = 2c), writing x from w.
    for lo, hi in ((0, 2), (1, 3)):
        planes += [
            f'    srli    {tmp}, {w[lo]}, 4',
            f'    xor     {tmp}, {tmp}, {w[hi]}',
            f'    and     {tmp}, {tmp}, {m4}',
            f'    xor     {x[hi]}, {w[hi]}, {tmp}',
            f'    slli    {tmp}, {tmp}, 4',
            f'    xor     {x[lo]}, {w[lo]}, {tmp}',
        ]
    planes += swapmove(x[0], x[1], 2, m2, tmp) + swapmove(x[2], x[3], 2, m2, tmp)
    # Stage 1 on the identical pair (column c in both block positions): planes 2c and 2c + 1.
    for c in range(4):
        planes += [
            f'    srli    {tmp}, {x[c]}, 1',
            f'    xor     {tmp}, {tmp}, {x[c]}',
            f'    and     {tmp}, {tmp}, {m1}',
            f'    xor     {y}, {x[c]}, {tmp}',
            f'    slli    {tmp}, {tmp}, 1',
            f'    xor     {x[c]}, {x[c]}, {tmp}',
        ]
        even, odd = 2 * c, 2 * c + 1
        for reg, plane in ((x[c], even), (y, odd)):
            if plane in (0, 1, 5, 6):
                planes += ['.if \\complement', f'    not     {reg}, {reg}', '.endif']
        planes += [f'    sw      {x[c]}, \\off + {4 * even}(a1)', f'    sw      {y}, \\off + {4 * odd}(a1)']
    rnd = [
        f'    srli    t1, a7, 8',
        f'    andi    t1, t1, 0xff',
        f'    srli    t2, a7, 16',
        f'    andi    t2, t2, 0xff',
        f'    add     t1, t1, a2',
        f'    add     t2, t2, a2',
        f'    lbu     t1, 0(t1)',
        f'    lbu     t2, 0(t2)',
        f'    srli    t3, a7, 24',
        f'    andi    t0, a7, 0xff',
        f'    add     t3, t3, a2',
        f'    add     t0, t0, a2',
        f'    xor     a4, a4, t1',
        f'    lbu     t3, 0(t3)',
        f'    lbu     t0, 0(t0)',
        f'    slli    t2, t2, 8',
        f'    xori    a4, a4, \\rcon',
        f'    xor     a4, a4, t2',
        f'    slli    t3, t3, 16',
        f'    slli    t0, t0, 24',
        f'    xor     a4, a4, t3',
        f'    xor     a4, a4, t0',
        f'    xor     a5, a5, a4',
        f'    xor     a6, a6, a5',
        f'    xor     a7, a7, a6',
    ]
    return (
        f'/* Round key (columns a4-a7) to planes at \\off(a1); \\complement: planes 0, 1, 5, 6\n'
        f'   inverted (the S-box constant). Masks t4-t6, temporaries t0-t3, a3, a0. */\n'
        f'.macro {pfx}_key_planes off, complement\n{body(planes)}\n.endm\n\n'
        f'/* Next round key in a4-a7 (FIPS 197 5.2; S-box at a2, table lookups: key schedule only). */\n'
        f'.macro {pfx}_key_round rcon\n{body(rnd)}\n.endm\n'
    )


def file_text(zbb):
    pfx = 'aesbsz' if zbb else 'aesbsi'
    isa = 'zbb' if zbb else 'rv32i'
    ctr_name = f'cb_aes128_bitsliced_ctr_{isa}'
    regs = f"""/* Registers in the rounds: planes 0-7 in s0, s1, a1-a6; temporaries t0-t6, s2-s11, ra;
 * round keys a0; counter a7. Stack frame {FRAME} bytes: keystream buffer 0-31, first-state
 * constant 32-63, data pointer 64, remaining length 68, saved ra and s0-s11 from 80. */
"""
    if zbb:
        head = """/* Bitsliced AES-128-CTR, two blocks at once, RV32I + Zbb (layout, round keys: see mod.rs).
 * GENERATED by gen/gen_bs.py (edit that, not this).
 * The RV32I routine with MixColumns' rotations as rori instead of two shifts and an or, and
 * the counters' byte swaps as rev8. The key schedule gains nothing from Zbb: the Zbb
 * variant uses the RV32I one. */
"""
    else:
        head = """/* Bitsliced AES-128-CTR, two blocks at once, RV32I (layout, round keys: see mod.rs).
 * GENERATED by gen/gen_bs.py (edit that, not this).
 *
 * Rounds are straight-line, fully unrolled as in the paper: the S-box circuit (its XNORs
 * are folded into the round keys), ShiftRows as a delta swap and masked shifts on each
 * plane, MixColumns with rotations of three instructions, AddRoundKey. Per pair of blocks
 * only the counter columns are transposed (the rest of the first state is constant and
 * waits on the stack with round key 0 added), then the back-transpose and the XOR into the
 * data.
 *
 * The S-box's register allocation (no moves) came from a small search over the circuit's
 * gate order; each line names the gate it computes. */
"""
    head += '\n' + regs
    sbox = f'/* SubBytes without its constant, planes in place. The circuit numbers bits from the\n   most significant: U0 is plane 7 ({P[7]}), U7 plane 0 ({P[0]}), and likewise S0..S7. */\n.macro {pfx}_sbox\n{sbox_body()}\n.endm\n'
    sr = f'/* ShiftRows: row r (byte r of a plane) rotated right by 2r bits: nibble swap of rows 2\n   and 3 as a delta swap, then rows 1 and 3 rotated right by 2 within their bytes. */\n.macro {pfx}_shiftrows\n{body(shiftrows())}\n.endm\n'
    mc = f'/* MixColumns: out = 2 t + ror8(a) + ror16(t), t = a + ror8(a); 2 t is a shift across\n   planes with t7 folded into planes 0, 1, 3, 4. ror8(a) goes to {", ".join(T[:8])}. */\n.macro {pfx}_mixcolumns\n{body(mixcolumns(zbb))}\n.endm\n'
    ak = f'/* AddRoundKey with the round key at \\off(a0). */\n.macro {pfx}_ark off\n{body(ark(None))}\n.endm\n'
    rd = f'.macro {pfx}_round off\n    {pfx}_sbox\n    {pfx}_shiftrows\n    {pfx}_mixcolumns\n    {pfx}_ark \\off\n.endm\n\n.macro {pfx}_last_round off\n    {pfx}_sbox\n    {pfx}_shiftrows\n    {pfx}_ark \\off\n.endm\n'
    fn = f'''/* void {ctr_name}(const u32 rk[88], const u8 iv[16], u8 *data, usize len) */
{body(ctr_function(ctr_name, pfx, zbb))}
'''
    macros = [f'{pfx}_sbox', f'{pfx}_shiftrows', f'{pfx}_mixcolumns', f'{pfx}_ark', f'{pfx}_round', f'{pfx}_last_round']
    parts = [head]
    if zbb:
        parts += ['    .option push\n    .option arch, +zbb\n']
    parts += [sbox, sr, mc, ak, rd, fn]
    if not zbb:
        ek = 'cb_aes128_bitsliced_expand_key_rv32i'
        parts += [key_macros(pfx),
                  f'/* void {ek}(const u8 key[16], u32 rk[88], const u8 sbox[256])\n   FIPS 197 key expansion with the byte S-box, each round key bitsliced as it is made\n   (half of the transpose is skipped because both block positions hold the same key).\n   Caller-saved registers only. */\n'
                  + body(expand_key_function(ek, pfx)) + '\n']
        macros += [f'{pfx}_key_planes', f'{pfx}_key_round']
    if zbb:
        parts += ['    .option pop\n']
    parts += [''.join(f'.purgem {m}\n' for m in macros)]
    return '\n'.join(parts)


def main():
    parser = argparse.ArgumentParser(description='Writes rv32i.S and zbb.S of the bitsliced AES-128.')
    parser.add_argument('--out-dir', default=OUT, help='where to write them (default: %(default)s)')
    out_dir = parser.parse_args().out_dir
    for zbb in (False, True):
        path = os.path.join(out_dir, 'zbb.S' if zbb else 'rv32i.S')
        with open(path, 'w') as f:
            f.write(file_text(zbb))
        print('wrote', path)


if __name__ == '__main__':
    main()
