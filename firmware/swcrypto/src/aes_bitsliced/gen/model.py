"""Model of the bitsliced AES-128 (2 blocks, 8 planes) and of the table AES, to pin down layouts.
Standard library only, so the generated assembly can be checked anywhere python3 runs."""
import os, random

M32 = 0xffffffff

def sbox_table():
    s = [0] * 256
    p = q = 1
    while True:
        p = (p ^ (p << 1) ^ (0x1b if p & 0x80 else 0)) & 0xff
        q ^= q << 1; q &= 0xff
        q ^= q << 2; q &= 0xff
        q ^= q << 4; q &= 0xff
        if q & 0x80:
            q ^= 0x09
        rotl = lambda x, n: ((x << n) | (x >> (8 - n))) & 0xff
        x = q ^ rotl(q, 1) ^ rotl(q, 2) ^ rotl(q, 3) ^ rotl(q, 4)
        s[p] = x ^ 0x63
        if p == 1:
            break
    s[0] = 0x63
    return s

SBOX = sbox_table()
assert SBOX[0x53] == 0xed and SBOX[1] == 0x7c

# The 113-gate circuit: (dst, op, a, b); U0 is the most significant input bit, S0 the most
# significant output bit; outputs S1, S2, S6, S7 are complemented (XNOR) in the real S-box.
CIRCUIT_TEXT = """
y14 = U3 ^ U5
y13 = U0 ^ U6
y12 = y13 ^ y14
t1 = U4 ^ y12
y15 = t1 ^ U5
t2 = y12 & y15
y6 = y15 ^ U7
y20 = t1 ^ U1
y9 = U0 ^ U3
y11 = y20 ^ y9
t12 = y9 & y11
y7 = U7 ^ y11
y8 = U0 ^ U5
t0 = U1 ^ U2
y10 = y15 ^ t0
y17 = y10 ^ y11
t13 = y14 & y17
t14 = t13 ^ t12
y19 = y10 ^ y8
t15 = y8 & y10
t16 = t15 ^ t12
y16 = t0 ^ y11
y21 = y13 ^ y16
t7 = y13 & y16
y18 = U0 ^ y16
y1 = t0 ^ U7
y4 = y1 ^ U3
t5 = y4 & U7
t6 = t5 ^ t2
t18 = t6 ^ t16
t22 = t18 ^ y19
y2 = y1 ^ U0
t10 = y2 & y7
t11 = t10 ^ t7
t20 = t11 ^ t16
t24 = t20 ^ y18
y5 = y1 ^ U6
t8 = y5 & y1
t9 = t8 ^ t7
t19 = t9 ^ t14
t23 = t19 ^ y21
y3 = y5 ^ y8
t3 = y3 & y6
t4 = t3 ^ t2
t17 = t4 ^ y20
t21 = t17 ^ t14
t26 = t21 & t23
t27 = t24 ^ t26
t31 = t22 ^ t26
t25 = t21 ^ t22
t28 = t25 & t27
t29 = t28 ^ t22
z14 = t29 & y2
z5 = t29 & y7
t30 = t23 ^ t24
t32 = t31 & t30
t33 = t32 ^ t24
t35 = t27 ^ t33
t36 = t24 & t35
t38 = t27 ^ t36
t39 = t29 & t38
t40 = t25 ^ t39
t43 = t29 ^ t40
z3 = t43 & y16
tc12 = z3 ^ z5
z12 = t43 & y13
z13 = t40 & y5
z4 = t40 & y1
tc6 = z3 ^ z4
t34 = t23 ^ t33
t37 = t36 ^ t34
t41 = t40 ^ t37
z8 = t41 & y10
z17 = t41 & y8
t44 = t33 ^ t37
z0 = t44 & y15
z9 = t44 & y12
z10 = t37 & y3
z1 = t37 & y6
tc5 = z1 ^ z0
tc11 = tc6 ^ tc5
z11 = t33 & y4
t42 = t29 ^ t33
t45 = t42 ^ t41
z7 = t45 & y17
tc8 = z7 ^ tc6
z16 = t45 & y14
z6 = t42 & y11
tc16 = z6 ^ tc8
z15 = t42 & y9
tc20 = z15 ^ tc16
tc1 = z15 ^ z16
tc2 = z10 ^ tc1
tc21 = tc2 ^ z11
tc3 = z9 ^ tc2
S0 = tc3 ^ tc16
S3 = tc3 ^ tc11
S1 = S3 ^ tc16
tc13 = z13 ^ tc1
z2 = t33 & U7
tc4 = z0 ^ z2
tc7 = z12 ^ tc4
tc9 = z8 ^ tc7
tc10 = tc8 ^ tc9
tc17 = z14 ^ tc10
S5 = tc21 ^ tc17
tc26 = tc17 ^ tc20
S2 = tc26 ^ z17
tc14 = tc4 ^ tc12
tc18 = tc13 ^ tc14
S6 = tc10 ^ tc18
S7 = z12 ^ tc18
S4 = tc14 ^ S3
"""

def parse_circuit():
    gates = []
    for line in CIRCUIT_TEXT.strip().splitlines():
        dst, rhs = [x.strip() for x in line.split('=')]
        a, op, b = rhs.split()
        gates.append((dst, op, a, b))
    return gates

CIRCUIT = parse_circuit()

def eval_circuit(u, mask=1):
    """u: list of 8 values U0..U7; returns S0..S7 (without the complements)."""
    env = {f'U{i}': u[i] for i in range(8)}
    for dst, op, a, b in CIRCUIT:
        env[dst] = env[a] ^ env[b] if op == '^' else env[a] & env[b]
    return [env[f'S{i}'] for i in range(8)]

def check_circuit():
    assert len(CIRCUIT) == 113, len(CIRCUIT)
    for x in range(256):
        u = [(x >> (7 - i)) & 1 for i in range(8)]
        s = eval_circuit(u)
        y = sum(s[i] << (7 - i) for i in range(8))
        assert y ^ 0x63 == SBOX[x], (x, y)
    print('circuit ok:', len(CIRCUIT), 'gates,', sum(1 for g in CIRCUIT if g[1] == '&'), 'AND')

check_circuit()

# ---- bitsliced layout: plane i (bit i of each byte, 0 = LSB) bit 8r + 2c + blk ----

def swapmove(a, b, shift, mask):
    t = ((a >> shift) ^ b) & mask
    return a ^ ((t << shift) & M32), b ^ t

def transpose(w):
    """w: 8 words (k = 2c + blk; LE column words). Returns 8 planes. Self-inverse."""
    w = list(w)
    for s, m in ((4, 0x0f0f0f0f), (2, 0x33333333), (1, 0x55555555)):
        for k in range(8):
            if k & s == 0:
                # word k's bits with index bit s set trade places with word k+s's bits without
                w[k], w[k + s] = swapmove(w[k], w[k + s], s, m)
    return w

def words_le(block):
    return [int.from_bytes(block[4 * c:4 * c + 4], 'little') for c in range(4)]

def pack(b0, b1):
    w0, w1 = words_le(b0), words_le(b1)
    return transpose([w0[0], w1[0], w0[1], w1[1], w0[2], w1[2], w0[3], w1[3]])

def unpack(p):
    w = transpose(p)
    b0 = b''.join(w[2 * c].to_bytes(4, 'little') for c in range(4))
    b1 = b''.join(w[2 * c + 1].to_bytes(4, 'little') for c in range(4))
    return b0, b1

def check_layout():
    b0, b1 = os.urandom(16), os.urandom(16)
    p = pack(b0, b1)
    for blk, b in ((0, b0), (1, b1)):
        for r in range(4):
            for c in range(4):
                byte = b[4 * c + r]
                for i in range(8):
                    assert (p[i] >> (8 * r + 2 * c + blk)) & 1 == (byte >> i) & 1
    assert unpack(p) == (b0, b1)
    print('layout ok')

check_layout()

def ror(x, n):
    return ((x >> n) | (x << (32 - n))) & M32

def sub_bytes(p):
    u = [p[7 - i] for i in range(8)]
    s = eval_circuit(u)
    return [s[7 - i] for i in range(8)]  # no complements: folded into the round keys

def shift_rows_plane(x):
    # stage A: rows 2 and 3, swap nibbles (rotate by two columns)
    t = ((x >> 4) ^ x) & 0x0f0f0000
    x ^= t ^ (t << 4)
    # stage B: rows 1 and 3, rotate right by one column (2 bits) within the byte
    return (x & 0x00ff00ff) | ((x >> 2) & 0x3f003f00) | ((x << 6) & 0xc000c000)

def mix_columns(p):
    r1 = [ror(x, 8) for x in p]
    t = [x ^ y for x, y in zip(p, r1)]
    xt = [t[7], t[0] ^ t[7], t[1], t[2] ^ t[7], t[3] ^ t[7], t[4], t[5], t[6]]
    return [xt[i] ^ r1[i] ^ ror(t[i], 16) for i in range(8)]

def key_expand_words(key):
    rcon = [1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36]
    w = words_le(key)
    for i in range(4, 44):
        t = w[i - 1]
        if i % 4 == 0:
            t = (SBOX[(t >> 8) & 0xff] | SBOX[(t >> 16) & 0xff] << 8 | SBOX[t >> 24] << 16 | SBOX[t & 0xff] << 24)
            t ^= rcon[i // 4 - 1]
        w.append(w[i - 4] ^ t)
    return w

def bitsliced_round_keys(key):
    w = key_expand_words(key)
    rk = []
    for r in range(11):
        cols = w[4 * r:4 * r + 4]
        planes = transpose([cols[0], cols[0], cols[1], cols[1], cols[2], cols[2], cols[3], cols[3]])
        if r > 0:
            for i in (0, 1, 5, 6):
                planes[i] ^= M32
        rk.append(planes)
    return rk

def encrypt_pair(rk, b0, b1):
    p = pack(b0, b1)
    p = [x ^ k for x, k in zip(p, rk[0])]
    for r in range(1, 10):
        p = sub_bytes(p)
        p = [shift_rows_plane(x) for x in p]
        p = mix_columns(p)
        p = [x ^ k for x, k in zip(p, rk[r])]
    p = sub_bytes(p)
    p = [shift_rows_plane(x) for x in p]
    p = [x ^ k for x, k in zip(p, rk[10])]
    return unpack(p)

def xtime(b):
    return ((b << 1) ^ (0x1b if b & 0x80 else 0)) & 0xff

def ref_ecb(key, block):
    """AES-128 as FIPS 197 writes it: byte state s[r + 4c], byte-wise key expansion. Shares
    only the S-box with the bitsliced model, and is itself checked against FIPS 197 C.1."""
    w = [list(key[4 * i:4 * i + 4]) for i in range(4)]
    rcon = 1
    for i in range(4, 44):
        t = list(w[i - 1])
        if i % 4 == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= rcon
            rcon = xtime(rcon)
        w.append([a ^ b for a, b in zip(w[i - 4], t)])
    s = list(block)

    def add_round_key(r):
        for c in range(4):
            for row in range(4):
                s[row + 4 * c] ^= w[4 * r + c][row]

    add_round_key(0)
    for r in range(1, 11):
        s = [SBOX[b] for b in s]
        s = [s[row + 4 * ((c + row) % 4)] for c in range(4) for row in range(4)]
        if r < 10:
            mixed = []
            for c in range(4):
                a = s[4 * c:4 * c + 4]
                total = a[0] ^ a[1] ^ a[2] ^ a[3]
                mixed += [a[row] ^ total ^ xtime(a[row] ^ a[(row + 1) % 4]) for row in range(4)]
            s = mixed
        add_round_key(r)
    return bytes(s)

assert ref_ecb(bytes(range(16)), bytes.fromhex('00112233445566778899aabbccddeeff')) == \
    bytes.fromhex('69c4e0d86a7b0430d8cdb78070b4c55a')

def check_bitsliced():
    for _ in range(20):
        key = os.urandom(16)
        rk = bitsliced_round_keys(key)
        b0, b1 = os.urandom(16), os.urandom(16)
        c0, c1 = encrypt_pair(rk, b0, b1)
        assert c0 == ref_ecb(key, b0) and c1 == ref_ecb(key, b1)
    print('bitsliced model ok')

check_bitsliced()
