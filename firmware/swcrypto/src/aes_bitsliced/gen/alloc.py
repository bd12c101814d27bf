"""Register allocation for the 113-gate S-box: inputs U0..U7 in plane registers P7..P0, outputs
S0..S7 back in P7..P0, temporaries from a pool. Searches gate orders for zero moves and few temps."""
import random, sys
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from model import CIRCUIT

def plane_reg(i):
    return f'P{i}'

def allocate(order, ntemps, prefer_seed=None):
    rng = random.Random(prefer_seed)
    last_use = {}
    for idx, (dst, op, a, b) in enumerate(order):
        last_use[a] = idx
        last_use[b] = idx
    loc = {f'U{i}': plane_reg(7 - i) for i in range(8)}
    out_reg = {f'S{i}': plane_reg(7 - i) for i in range(8)}
    reg_val = {plane_reg(i): None for i in range(8)}
    for i in range(8):
        reg_val[plane_reg(7 - i)] = f'U{i}'
    for t in range(ntemps):
        reg_val[f'T{t}'] = None
    # inputs never used again are dead from the start (none here)
    pending_out = set(out_reg)
    code = []
    for idx, (dst, op, a, b) in enumerate(order):
        ra, rb = loc[a], loc[b]
        # free operands at their last use
        for v in (a, b):
            if last_use[v] == idx and v not in out_reg:
                if reg_val[loc[v]] == v:
                    reg_val[loc[v]] = None
        free = [r for r, v in reg_val.items() if v is None]
        if dst in out_reg and reg_val[out_reg[dst]] is None:
            rd = out_reg[dst]
        else:
            reserved = {out_reg[s] for s in pending_out if s != dst}
            cand = [r for r in free if r not in reserved]
            if not cand:
                cand = free
            if not cand:
                return None
            temps = [r for r in cand if r.startswith('T')]
            pool = temps if temps else cand
            rd = pool[0] if prefer_seed is None else rng.choice(pool)
        reg_val[rd] = dst
        loc[dst] = rd
        pending_out.discard(dst)
        code.append((rd, op, ra, rb, dst, a, b))
        if dst not in out_reg and last_use.get(dst) is None:
            reg_val[rd] = None
    moves = [(out_reg[s], loc[s]) for s in out_reg if loc[s] != out_reg[s]]
    return code, moves

def topo_orders(seed):
    rng = random.Random(seed)
    deps = {}
    producers = {g[0]: g for g in CIRCUIT}
    remaining = list(CIRCUIT)
    done = {f'U{i}' for i in range(8)}
    order = []
    while remaining:
        ready = [g for g in remaining if g[2] in done and g[3] in done]
        # bias: prefer the gate appearing earliest in the original order most of the time
        g = ready[0] if rng.random() < 0.7 else rng.choice(ready)
        remaining.remove(g)
        done.add(g[0])
        order.append(g)
    return order

def best(ntemps, tries=20000):
    found = None
    for s in range(tries):
        order = CIRCUIT if s == 0 else topo_orders(s)
        for ps in (None, s):
            r = allocate(order, ntemps, ps)
            if r is None:
                continue
            code, moves = r
            if not moves:
                return order, code, (s, ps)
            if found is None or len(moves) < len(found[1][1]):
                found = (order, r, (s, ps))
    return found

if __name__ == '__main__':
    for n in range(14, 19):
        res = best(n, 3000)
        if res and len(res) == 3 and isinstance(res[1], list):
            print(n, 'temps: zero moves, seed', res[2])
        else:
            print(n, 'temps:', None if res is None else f'{len(res[1][1])} moves')
