//! Modular exponentiation with Montgomery multiplication (coarsely integrated operand
//! scanning, Koç et al. 1996) over little-endian 32-bit limbs. Everything the modulus needs —
//! −n⁻¹ mod 2³² and R² mod n — is worked out inside [`power`], as the accelerator's program
//! works out its constants in every operation.

use alloc::vec;
use alloc::vec::Vec;

/// An exponentiation's operands and its result, all as long as the modulus except the
/// exponent. The buffers are allocated once, outside any measurement.
pub struct Operands {
    /// The odd modulus n, its top bit set.
    pub modulus: Vec<u32>,
    /// The exponent.
    pub exponent: Vec<u32>,
    /// The base, below the modulus.
    pub base: Vec<u32>,
    /// base^exponent mod n after [`power`].
    pub result: Vec<u32>,
    scratch: Scratch,
}

/// Working memory of one exponentiation.
struct Scratch {
    product: Vec<u32>,
    table: Vec<Vec<u32>>,
    accumulator: Vec<u32>,
    r_squared: Vec<u32>,
    one: Vec<u32>,
}

/// Bits of the exponent taken at once: 4 for a private exponent (fourteen table products save
/// a quarter of the multiplications), 1 for a short public one.
fn window_bits(exponent: &[u32]) -> usize {
    if exponent.len() > 2 {
        4
    } else {
        1
    }
}

impl Operands {
    /// Buffers for `modulus` and `exponent`; base and result start at zero.
    pub fn new(modulus: &[u32], exponent: Vec<u32>) -> Self {
        let s = modulus.len();
        let entries = 1 << window_bits(&exponent);
        let mut one = vec![0; s];
        one[0] = 1;
        Self {
            modulus: modulus.to_vec(),
            exponent,
            base: vec![0; s],
            result: vec![0; s],
            scratch: Scratch {
                product: vec![0; s + 2],
                table: vec![vec![0; s]; entries],
                accumulator: vec![0; s],
                r_squared: vec![0; s],
                one,
            },
        }
    }
}

/// −n⁻¹ mod 2³² for odd n: Newton's iteration doubles the correct low bits each step.
fn negated_inverse(n0: u32) -> u32 {
    let mut inverse: u32 = 1;
    for _ in 0..5 {
        inverse = inverse.wrapping_mul(2u32.wrapping_sub(n0.wrapping_mul(inverse)));
    }
    inverse.wrapping_neg()
}

/// a − b in place over equal lengths.
fn subtract(a: &mut [u32], b: &[u32]) {
    let mut borrow = false;
    for (x, &y) in a.iter_mut().zip(b) {
        let (d1, b1) = x.overflowing_sub(y);
        let (d2, b2) = d1.overflowing_sub(u32::from(borrow));
        *x = d2;
        borrow = b1 || b2;
    }
}

/// Whether a ≥ b over equal lengths.
fn at_least(a: &[u32], b: &[u32]) -> bool {
    for (x, y) in a.iter().rev().zip(b.iter().rev()) {
        if x != y {
            return x > y;
        }
    }
    true
}

/// out = a b R⁻¹ mod n, R = 2^(32 s); `t` holds s + 2 limbs.
fn multiply(a: &[u32], b: &[u32], n: &[u32], n_inverse: u32, t: &mut [u32], out: &mut [u32]) {
    let s = n.len();
    t.fill(0);
    for &ai in a {
        let mut carry: u64 = 0;
        for (tj, &bj) in t[..s].iter_mut().zip(b) {
            let x = u64::from(*tj) + u64::from(ai) * u64::from(bj) + carry;
            *tj = x as u32;
            carry = x >> 32;
        }
        let x = u64::from(t[s]) + carry;
        t[s] = x as u32;
        t[s + 1] = (x >> 32) as u32;
        // Adding m n makes the lowest limb zero; dropping it divides by 2³².
        let m = t[0].wrapping_mul(n_inverse);
        let mut carry = (u64::from(t[0]) + u64::from(m) * u64::from(n[0])) >> 32;
        for j in 1..s {
            let x = u64::from(t[j]) + u64::from(m) * u64::from(n[j]) + carry;
            t[j - 1] = x as u32;
            carry = x >> 32;
        }
        let x = u64::from(t[s]) + carry;
        t[s - 1] = x as u32;
        t[s] = t[s + 1] + (x >> 32) as u32;
    }
    out.copy_from_slice(&t[..s]);
    if t[s] != 0 || at_least(out, n) {
        subtract(out, n);
    }
}

/// R² mod n. R mod n is R − n (n has its top bit set); doubling it t times gives 2^t R, the
/// Montgomery form of 2^t, and each Montgomery squaring doubles the power, up to 2^(32 s) R:
/// some dozens of doublings and a few products instead of 32 s doublings.
fn r_squared(n: &[u32], n_inverse: u32, t: &mut [u32], scratch: &mut [u32], out: &mut [u32]) {
    let mut power = 32 * n.len();
    let mut squarings = 0;
    while power.is_multiple_of(2) && power > 64 {
        power /= 2;
        squarings += 1;
    }
    out.fill(0);
    subtract(out, n);
    for _ in 0..power {
        let mut carry = 0;
        for limb in out.iter_mut() {
            let next = *limb >> 31;
            *limb = (*limb << 1) | carry;
            carry = next;
        }
        if carry == 1 || at_least(out, n) {
            subtract(out, n);
        }
    }
    for _ in 0..squarings {
        multiply(out, out, n, n_inverse, t, scratch);
        out.copy_from_slice(scratch);
    }
}

/// Bits up to and including the highest set one.
fn bit_length(x: &[u32]) -> usize {
    x.iter()
        .rposition(|&limb| limb != 0)
        .map_or(0, |top| 32 * top + 32 - x[top].leading_zeros() as usize)
}

/// `count` bits of the exponent, the highest being bit `top`.
fn bits(exponent: &[u32], top: usize, count: usize) -> usize {
    (0..count).fold(0, |acc, i| {
        let bit = top - i;
        (acc << 1) | ((exponent[bit / 32] >> (bit % 32)) & 1) as usize
    })
}

/// result = base^exponent mod modulus, left to right over windows of the exponent.
pub fn power(operands: &mut Operands) {
    let Operands {
        modulus: n,
        exponent,
        base,
        result,
        scratch,
    } = operands;
    let Scratch {
        product,
        table,
        accumulator,
        r_squared: r2,
        one,
    } = scratch;
    let n_inverse = negated_inverse(n[0]);
    r_squared(n, n_inverse, product, result, r2);
    // table[i] = base^i in Montgomery form; table[0] = R mod n.
    multiply(r2, one, n, n_inverse, product, &mut table[0]);
    multiply(base, r2, n, n_inverse, product, &mut table[1]);
    for i in 2..table.len() {
        let (done, rest) = table.split_at_mut(i);
        multiply(&done[i - 1], &done[1], n, n_inverse, product, &mut rest[0]);
    }
    let w = window_bits(exponent);
    let mut remaining = bit_length(exponent);
    accumulator.copy_from_slice(&table[0]);
    // The first window is the shorter one when the length is not a multiple of w.
    let mut take = match remaining % w {
        0 => w,
        short => short,
    };
    while remaining > 0 {
        for _ in 0..take {
            multiply(accumulator, accumulator, n, n_inverse, product, result);
            accumulator.copy_from_slice(result);
        }
        let digit = bits(exponent, remaining - 1, take);
        if digit != 0 {
            multiply(accumulator, &table[digit], n, n_inverse, product, result);
            accumulator.copy_from_slice(result);
        }
        remaining -= take;
        take = w;
    }
    multiply(accumulator, one, n, n_inverse, product, result);
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn limbs(x: &BigUint, s: usize) -> Vec<u32> {
        let mut words = x.to_u32_digits();
        words.resize(s, 0);
        words
    }

    #[test]
    fn powers_match_num_bigint() {
        let moduli = [
            "c5a1d3e2f4b6a8c0e2d4f6b8a0c2e4d6f8b0a2c4e6d8f0b2a4c6e8d0f2b4a6c9",
            // Three limbs: a length whose 32 s is not a power of two times 64 or less.
            "ffffffffffffffffffffffffffffffffffffff61",
        ];
        for modulus in moduli {
            let n = BigUint::parse_bytes(modulus.as_bytes(), 16).unwrap();
            let s = n.to_u32_digits().len();
            let base = BigUint::parse_bytes(b"1234567890abcdef1234567890abcdef1234567", 16).unwrap() % &n;
            for exponent in [
                BigUint::from(65537u32),
                BigUint::from(1u32),
                BigUint::from(2u32),
                BigUint::parse_bytes(b"a3f1c2e4b5d6978812345678deadbeef00112233445566778899aabbccddeef1", 16).unwrap(),
            ] {
                let mut operands = Operands::new(&n.to_u32_digits(), exponent.to_u32_digits());
                operands.base.copy_from_slice(&limbs(&base, s));
                power(&mut operands);
                assert_eq!(
                    BigUint::from_slice(&operands.result),
                    base.modpow(&exponent, &n),
                    "{exponent}"
                );
            }
        }
    }

    #[test]
    fn the_inverse_is_the_negated_inverse() {
        for n0 in [1u32, 3, 0xffff_ffff, 0x8000_0001, 0x1234_5677] {
            assert_eq!(n0.wrapping_mul(negated_inverse(n0)), u32::MAX);
        }
    }
}
