#!/usr/bin/env python3
"""Generates rv32i.S and zbb.S (Keccak-f[1600] on a bit-interleaved state) next to this file.

Usage: python3 gen_asm.py [--check-only] [--out-dir DIR]  (DIR defaults to this directory)
Standard library only.

The round code is straight-line and too regular to write by hand without mistakes, so it is
generated here from a description of the schedule, then run on a small word-level model of
the instructions against a 64-bit reference Keccak-f[1600] before anything is written.

Design (see mod.rs for the representation):
- one pass per round: load each word once, XOR theta's D, rotate (rho), gather rows (pi),
  chi, store; the column parities of the next round's theta are accumulated from chi's outputs
  as they are stored, so they never need a second pass;
- rounds alternate between the caller's buffer (a0) and a 200-byte buffer on the stack;
- lane 0 lives in gp/tp for the whole permutation (row 0 reads and writes it in place);
- a few outputs of the last row halves of a round stay in registers because the first row
  halves of the next round read them ("kept" lanes);
- Rv32i: lane complementing (lanes 1, 2, 8, 12, 17, 20 stored inverted) so that chi needs one
  NOT per row half; rotations are slli + srli + or;
- Zbb: chi with andn, rotations with rori.
Registers: a0 state, a1 round constants, gp/tp lane 0, s2..s11 theta's D, a2..a7/t3..t6 the
column parities (accumulated), s0 s1 t1 t2 ra the five operands of chi, t0 scratch.
"""
import argparse
import random
import sys
from pathlib import Path

MASK = 0xFFFFFFFF

# ---------------------------------------------------------------------------------------------
# Reference Keccak-f[1600] (FIPS 202) on 64-bit lanes A[x + 5y].
RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
      0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
      0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
      0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
      0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
      0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008]
RHO = [[0] * 5 for _ in range(5)]          # RHO[x][y]
_x, _y = 1, 0
for _t in range(24):
    RHO[_x][_y] = ((_t + 1) * (_t + 2) // 2) % 64
    _x, _y = _y, (2 * _x + 3 * _y) % 5


def rol64(v, n):
    n %= 64
    return ((v << n) | (v >> (64 - n))) & ((1 << 64) - 1) if n else v


def f1600(lanes):
    a = list(lanes)
    for rc in RC:
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ rol64(c[(x + 1) % 5], 1) for x in range(5)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rol64(a[x + 5 * y] ^ d[x], RHO[x][y])
        m = (1 << 64) - 1
        a = [b[i] ^ (~b[(i + 1) % 5 + i // 5 * 5] & m & b[(i + 2) % 5 + i // 5 * 5]) for i in range(25)]
        a[0] ^= rc
    return a


def split(v):
    even = sum(((v >> (2 * j)) & 1) << j for j in range(32))
    odd = sum(((v >> (2 * j + 1)) & 1) << j for j in range(32))
    return even, odd


def join(even, odd):
    return sum((((even >> j) & 1) << (2 * j)) | (((odd >> j) & 1) << (2 * j + 1)) for j in range(32))


RC_INTERLEAVED = [split(c) for c in RC]
COMPLEMENTED = {1, 2, 8, 12, 17, 20}


def to_internal(lanes, complemented):
    words = []
    for i, v in enumerate(lanes):
        if complemented and i in COMPLEMENTED:
            v ^= (1 << 64) - 1
        words += split(v)
    return words


def from_internal(words, complemented):
    lanes = [join(words[2 * i], words[2 * i + 1]) for i in range(25)]
    return [v ^ ((1 << 64) - 1) if complemented and i in COMPLEMENTED else v for i, v in enumerate(lanes)]


# ---------------------------------------------------------------------------------------------
# Registers.
STATE, RCP, T = 'a0', 'a1', 't0'
LANE0 = ['gp', 'tp']                                       # lane 0: even, odd half
D = [['s2', 's3'], ['s4', 's5'], ['s6', 's7'], ['s8', 's9'], ['s10', 's11']]
C = [['a2', 'a3'], ['a4', 'a5'], ['a6', 'a7'], ['t3', 't4'], ['t5', 't6']]
POOL = ['s0', 's1', 't1', 't2', 'ra']


def operand(Y, X, h):
    """Operand X of chi row Y, output half h: (lane, source half, column, 32-bit left rotation).
    pi: B[X, Y] = rho(A[x, y]) with y = X, x = 3Y + X (mod 5). An odd 64-bit rotation moves
    the odd bits to even positions, so it reads the other half."""
    x, y = (3 * Y + X) % 5, X
    r = RHO[x][y]
    if r % 2 == 0:
        hs, k = h, r // 2
    elif h == 0:
        hs, k = 1, (r + 1) // 2
    else:
        hs, k = 0, (r - 1) // 2
    return x + 5 * y, hs, x, k % 32


def consumer(lane, h):
    """The row half that reads half h of `lane` next round, and its operand index."""
    x, y = lane % 5, lane // 5
    Y = (2 * x + 3 * y) % 5
    ho = h if RHO[x][y] % 2 == 0 else 1 - h
    assert operand(Y, y, ho)[:2] == (lane, h)
    return (Y, ho), y


# Chi programs, one per row. ('E', X, op, (i, not_i), (j, not_j)): E_X = b_X ^ (b_i' op b_j')
# where a set not_ flag means the operand's complement (computed into t0); ('NOT', i)
# complements operand i in place. With lane complementing the stored polarities make
# b_X ^ (~b_{X+1} & b_{X+2}) come out as these AND/OR forms; rows 2, 3, 4 share one NOT
# between two outputs. Derived by exhaustive search over the polarities, checked by the model.
CHI_RV32I = {
    0: [('E', 1, 'or', (2, 1), (3, 0)), ('E', 2, 'and', (3, 0), (4, 0)), ('E', 3, 'or', (4, 0), (0, 0)),
        ('E', 4, 'and', (0, 0), (1, 0)), ('E', 0, 'or', (1, 0), (2, 0))],
    1: [('E', 0, 'or', (1, 0), (2, 0)), ('E', 1, 'and', (2, 0), (3, 0)), ('E', 2, 'or', (3, 0), (4, 1)),
        ('E', 3, 'or', (4, 0), (0, 0)), ('E', 4, 'and', (0, 0), (1, 0))],
    2: [('E', 0, 'or', (1, 0), (2, 0)), ('E', 1, 'and', (2, 0), (3, 0)), ('NOT', 3),
        ('E', 2, 'and', (3, 0), (4, 0)), ('E', 3, 'or', (4, 0), (0, 0)), ('E', 4, 'and', (0, 0), (1, 0))],
    3: [('E', 0, 'and', (1, 0), (2, 0)), ('E', 1, 'or', (2, 0), (3, 0)), ('NOT', 3),
        ('E', 2, 'or', (3, 0), (4, 0)), ('E', 3, 'and', (4, 0), (0, 0)), ('E', 4, 'or', (0, 0), (1, 0))],
    4: [('E', 4, 'and', (0, 0), (1, 0)), ('NOT', 1), ('E', 0, 'and', (1, 0), (2, 0)),
        ('E', 1, 'or', (2, 0), (3, 0)), ('E', 2, 'and', (3, 0), (4, 0)), ('E', 3, 'or', (4, 0), (0, 0))],
}
# Zbb: E_X = b_X ^ andn(b_{X+2}, b_{X+1}); row 0 computes E_0 last, into lane 0's register.
CHI_ZBB = {Y: [('Z', X) for X in ((1, 2, 3, 4, 0) if Y == 0 else range(5))] for Y in range(5)}


def uses(step):
    if step[0] == 'NOT':
        return {step[1]}
    if step[0] == 'Z':
        return {step[1], (step[1] + 1) % 5, (step[1] + 2) % 5}
    return {step[1], step[3][0], step[4][0]}


class Gen:
    def __init__(self, zbb):
        self.zbb = zbb
        self.out = []                      # ('i', instruction tuple) or ('c', comment)

    def i(self, *ins):
        self.out.append(('i', ins))

    def c(self, text):
        self.out.append(('c', text))

    def instructions(self):
        return [a for kind, a in self.out if kind == 'i']

    def rotl(self, reg, k):
        if k == 0:
            return
        if self.zbb:
            self.i('rori', reg, reg, 32 - k)
        else:
            self.i('slli', T, reg, k)
            self.i('srli', reg, reg, 32 - k)
            self.i('or', reg, reg, T)

    def theta_d(self):
        self.c('theta: D[x] = C[x-1] ^ rotl64(C[x+1], 1); interleaved, the odd half rotates by 1 into the even')
        for x in range(5):
            ce_prev, co_prev = C[(x - 1) % 5]
            ce_next, co_next = C[(x + 1) % 5]
            de, do = D[x]
            if self.zbb:
                self.i('rori', de, co_next, 31)
            else:
                self.i('slli', T, co_next, 1)
                self.i('srli', de, co_next, 31)
                self.i('or', de, de, T)
            self.i('xor', de, de, ce_prev)
            self.i('xor', do, co_prev, ce_next)

    def round(self, src, dst, order, keep_in, keep_out, accumulate, rc_off):
        """One round from buffer `src` to `dst`, row halves in `order`.
        keep_in: {(lane, half): register} read from registers instead of `src`.
        keep_out: {(lane, half)} outputs left in registers instead of stored.
        Returns {(lane, half): register} of the kept outputs."""
        self.theta_d()
        live = dict(keep_in)               # (lane, half) -> register, values held in the pool
        kept = {}
        parity = [['empty', 'empty'] for _ in range(5)]
        for Y, h in order:
            self.c(f'row {Y}, {"odd" if h else "even"} halves')
            busy = set(live.values()) | set(kept.values())
            free = [r for r in POOL if r not in busy]
            b = [None] * 5
            for X in range(5):
                lane, hs, x, k = operand(Y, X, h)
                if lane == 0:
                    reg = LANE0[hs]
                    self.i('xor', reg, reg, D[x][hs])
                elif (lane, hs) in live:
                    reg = live.pop((lane, hs))
                    self.i('xor', reg, reg, D[x][hs])
                else:
                    reg = free.pop(0)
                    self.i('lw', reg, 8 * lane + 4 * hs, src)
                    self.i('xor', reg, reg, D[x][hs])
                self.rotl(reg, k)
                b[X] = reg
            prog = (CHI_ZBB if self.zbb else CHI_RV32I)[Y]
            for n, step in enumerate(prog):
                later = set().union(*(uses(s) for s in prog[n + 1:]))
                if step[0] == 'NOT':
                    self.i('not', b[step[1]], b[step[1]])
                    continue
                X = step[1]
                if step[0] == 'Z':
                    self.i('andn', T, b[(X + 2) % 5], b[(X + 1) % 5])
                else:
                    _, _, op, (ia, na), (ib, nb) = step
                    ra, rb = b[ia], b[ib]
                    if na:
                        self.i('not', T, ra)
                        ra = T
                    if nb:
                        self.i('not', T, rb)
                        rb = T
                    self.i(op, T, ra, rb)
                lane = X + 5 * Y
                base = b[X]
                if lane == 0:
                    assert base == LANE0[h] and not later
                    dest = base
                elif (lane, h) in keep_out:
                    assert X not in later and base in POOL, f'kept output {lane} not in place'
                    dest = base
                elif accumulate and parity[X][h] == 'empty':
                    dest = C[X][h]                 # the first output of a column starts its parity
                elif X not in later:
                    dest = base
                else:
                    dest = T
                self.i('xor', dest, base, T)
                if lane == 0:
                    self.i('lw', T, rc_off + 4 * h, RCP)           # iota
                    self.i('xor', dest, dest, T)
                elif (lane, h) in keep_out:
                    kept[(lane, h)] = dest
                else:
                    self.i('sw', dest, 8 * lane + 4 * h, dst)
                if accumulate:
                    state = parity[X][h]
                    if state == 'empty':
                        if dest != C[X][h]:
                            parity[X][h] = ('in', dest)
                            assert lane == 0 or (lane, h) in keep_out
                            if (lane, h) in keep_out:
                                self.i('mv', C[X][h], dest)
                                parity[X][h] = 'valid'
                        else:
                            parity[X][h] = 'valid'
                    elif state == 'valid':
                        self.i('xor', C[X][h], C[X][h], dest)
                    else:                                    # lane 0 started it, in gp/tp
                        self.i('xor', C[X][h], state[1], dest)
                        parity[X][h] = 'valid'
        assert not live, f'kept lanes never read: {live}'
        assert set(kept) == set(keep_out)
        if accumulate:
            assert all(s == 'valid' for row in parity for s in row), parity
        return kept

    def column_parities(self, keep):
        """Before round 1: C from the caller's state; lane 0 into gp/tp; `keep` lanes into their
        registers."""
        self.c('column parities of the input state; lane 0 stays in gp/tp')
        self.i('lw', LANE0[0], 0, STATE)
        self.i('lw', LANE0[1], 4, STATE)
        for x in range(5):
            for h in range(2):
                lanes = [x + 5 * y for y in range(5) if x + 5 * y != 0]
                lanes.sort(key=lambda lane: (lane, h) in keep)       # kept ones after a plain load
                acc = LANE0[h] if x == 0 else None
                for lane in lanes:
                    off = 8 * lane + 4 * h
                    if (lane, h) in keep:
                        reg = keep[(lane, h)]
                    elif acc is None:
                        self.i('lw', C[x][h], off, STATE)
                        acc = C[x][h]
                        continue
                    else:
                        reg = T
                    self.i('lw', reg, off, STATE)
                    self.i('xor', C[x][h], acc, reg)
                    acc = C[x][h]


# ---------------------------------------------------------------------------------------------
# The schedule: row halves in this order in every round. Row 0 odd first and row 0 even last
# need only four operand registers (lane 0 is in gp/tp), which is what lets two outputs of
# each round stay in registers: the kept outputs below are read by the first two row halves
# of the next round.
ORDER = [(0, 1), (1, 0), (3, 0), (4, 0), (1, 1), (2, 1), (3, 1), (4, 1), (2, 0), (0, 0)]
KEEP = {(12, 0), (3, 0)}      # lane 12 even half (row 2 even, read by row 0 odd); lane 3 even half
                              # (row 0 even, read by row 1 even)


def parts(zbb):
    """The code pieces: column parities, round A (a0 -> stack), round B (stack -> a0),
    final round F (stack -> a0, no parities, nothing kept)."""
    kept = {}
    for _ in range(4):                    # the kept registers settle after one or two tries
        a, b, f = Gen(zbb), Gen(zbb), Gen(zbb)
        kept_a = a.round('a0', 'sp', ORDER, kept, KEEP, True, 0)
        kept_b = b.round('sp', 'a0', ORDER, kept_a, KEEP, True, 8)
        if kept_a == kept_b == kept:
            break
        kept = kept_b
    else:
        raise AssertionError('kept registers do not settle')
    f.round('sp', 'a0', ORDER, kept_a, set(), False, 8)
    init = Gen(zbb)
    init.column_parities(kept_b)
    return init, a, b, f


def whole(zbb):
    """The permutation as one straight line: parities, 11 x (A, B), A, F."""
    init, a, b, f = parts(zbb)
    ins = init.instructions()
    for it in range(12):
        ins += a.instructions() + (f if it == 11 else b).instructions()
        ins.append(('addi', RCP, RCP, 16))
    return ins + [('sw', LANE0[0], 0, STATE), ('sw', LANE0[1], 4, STATE)]


def simulate(instrs, words):
    """Runs straight-line code on a word model; returns the state and Ibex cycles
    (lw/sw 2, rori 2, else 1)."""
    mem = {0x1000 + 4 * i: w for i, w in enumerate(words)}
    for i, (e, o) in enumerate(RC_INTERLEAVED):
        mem[0x3000 + 8 * i], mem[0x3004 + 8 * i] = e, o
    regs = {'a0': 0x1000, 'sp': 0x2000, 'a1': 0x3000}
    cycles = 0
    for op, *a in instrs:
        r = regs.get
        if op == 'lw':
            regs[a[0]] = mem[regs[a[2]] + a[1]]
        elif op == 'sw':
            mem[regs[a[2]] + a[1]] = regs[a[0]]
        elif op == 'xor':
            regs[a[0]] = r(a[1]) ^ r(a[2])
        elif op == 'and':
            regs[a[0]] = r(a[1]) & r(a[2])
        elif op == 'or':
            regs[a[0]] = r(a[1]) | r(a[2])
        elif op == 'andn':
            regs[a[0]] = r(a[1]) & ~r(a[2]) & MASK
        elif op == 'not':
            regs[a[0]] = ~r(a[1]) & MASK
        elif op == 'mv':
            regs[a[0]] = r(a[1])
        elif op == 'slli':
            regs[a[0]] = (r(a[1]) << a[2]) & MASK
        elif op == 'srli':
            regs[a[0]] = r(a[1]) >> a[2]
        elif op == 'rori':
            regs[a[0]] = ((r(a[1]) >> a[2]) | (r(a[1]) << (32 - a[2]))) & MASK
        elif op == 'addi':
            regs[a[0]] = r(a[1]) + a[2]
        else:
            raise ValueError(op)
        cycles += 2 if op in ('lw', 'sw', 'rori') else 1
    return [mem[0x1000 + 4 * i] for i in range(50)], cycles


def check(zbb):
    ins = whole(zbb)
    rng = random.Random(2019)
    for t in range(4):
        lanes = [0] * 25 if t == 0 else [rng.getrandbits(64) for _ in range(25)]
        out, cycles = simulate(ins, to_internal(lanes, not zbb))
        if from_internal(out, not zbb) != f1600(lanes):
            sys.exit(f'{"zbb" if zbb else "rv32i"}: the generated code is wrong (test {t})')
    counts = {}
    for op, *_ in ins:
        counts[op] = counts.get(op, 0) + 1
    return cycles, counts


# ---------------------------------------------------------------------------------------------
# Assembly text.
SAVED = ['ra', 'gp', 'tp'] + [f's{i}' for i in range(12)]
FRAME = 272                   # 200-byte state buffer at 0(sp), then the saved registers


def text(gen):
    lines = []
    for kind, a in gen.out:
        if kind == 'c':
            lines.append(f'    # {a}')
            continue
        op, *args = a
        if op in ('lw', 'sw'):
            lines.append(f'    {op:<5}{args[0]}, {args[1]}({args[2]})')
        else:
            lines.append(f'    {op:<5}' + ', '.join(str(x) for x in args))
    return lines


def function(zbb):
    name = 'cb_keccak_f1600_' + ('zbb' if zbb else 'rv32i')
    init, a, b, f = parts(zbb)
    head = [
        f'# {name}(uint32_t state[50]): Keccak-f[1600], 24 rounds, on the bit-interleaved',
        '# state of mod.rs' + (' (plain).' if zbb else ' with lanes 1, 2, 8, 12, 17, 20 complemented.'),
        '# GENERATED by gen_asm.py (edit that, not this); the script checks the code against a',
        '# reference model before writing it.',
        f'# Stack: {FRAME} bytes (200-byte state buffer, saved ra gp tp s0..s11). gp and tp are',
        '# used as data registers (lane 0) and restored on return; nothing may use them meanwhile.',
        '# Registers: a0 state, a1 round constants, gp/tp lane 0, s2..s11 theta D[x] (even, odd),',
        '# a2..a7 t3..t6 column parities C[x] (even, odd), s0 s1 t1 t2 ra chi operands, t0 scratch.',
    ]
    lines = head + [f'    .section .text.{name}, "ax", @progbits', f'    .globl {name}',
                    f'    .type {name}, @function', '    .balign 4', f'{name}:', f'    addi sp, sp, -{FRAME}']
    lines += [f'    sw   {r}, {200 + 4 * i}(sp)' for i, r in enumerate(SAVED)]
    lines += ['    la   a1, cb_keccak_rc_interleaved']
    lines += text(init)
    lines += ['    # rounds 2i+1 (a0 -> stack) and 2i+2 (stack -> a0), i = 0..10, then 23 and 24',
              '    .balign 4', '1:  # round 2i+1: a0 -> stack']
    lines += text(a)
    lines += ['    la   t0, cb_keccak_rc_interleaved + 176', '    beq  a1, t0, 2f', '    # round 2i+2: stack -> a0']
    lines += text(b)
    lines += ['    addi a1, a1, 16', '    j    1b', '    .balign 4', '2:  # round 24: stack -> a0; no parities, nothing kept']
    lines += text(f)
    lines += [f'    sw   {LANE0[0]}, 0(a0)', f'    sw   {LANE0[1]}, 4(a0)']
    lines += [f'    lw   {r}, {200 + 4 * i}(sp)' for i, r in enumerate(SAVED)]
    lines += [f'    addi sp, sp, {FRAME}', '    ret', f'    .size {name}, . - {name}']
    return lines


def rc_table():
    lines = ['# Iota round constants, interleaved: (even half, odd half) per round. zbb.S uses it too.',
             '    .section .rodata.cb_keccak_rc_interleaved, "a", @progbits', '    .balign 4',
             '    .type cb_keccak_rc_interleaved, @object', 'cb_keccak_rc_interleaved:']
    lines += [f'    .word 0x{e:08x}, 0x{o:08x}' for e, o in RC_INTERLEAVED]
    return lines + ['    .size cb_keccak_rc_interleaved, . - cb_keccak_rc_interleaved', '']


def main():
    parser = argparse.ArgumentParser(description='Checks, then writes, rv32i.S and zbb.S of Keccak-f[1600].')
    parser.add_argument('--check-only', action='store_true', help='check the generated code, write nothing')
    parser.add_argument('--out-dir', type=Path, default=Path(__file__).resolve().parent,
                        help='where to write the files (default: %(default)s)')
    args = parser.parse_args()
    for zbb in (False, True):
        cycles, counts = check(zbb)
        print(f'{"zbb" if zbb else "rv32i"}: ok, {cycles} cycles (model), {counts}')
    if args.check_only:
        return
    rv32i = rc_table() + function(False)
    zbb = ['    .option push', '    .option arch, +zbb'] + function(True) + ['    .option pop']
    (args.out_dir / 'rv32i.S').write_text('\n'.join(rv32i) + '\n')
    (args.out_dir / 'zbb.S').write_text('\n'.join(zbb) + '\n')


if __name__ == '__main__':
    main()
