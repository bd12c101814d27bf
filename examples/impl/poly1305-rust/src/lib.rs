//! Poly1305, the one-time authenticator of RFC 8439 section 2.5, in portable Rust: the
//! 26-bit-limb structure of poly1305-donna-32, whose 32 x 32 -> 64-bit products are what an
//! RV32IM core multiplies natively (`mul` and `mulhu`).
//!
//! Measured by cyclebench through [`cyclebench_impl::Function`]: the key is the 32-byte
//! one-time key `r || s` (the secret the constant-time test varies), the input the message of
//! any length, the output the 16-byte tag.
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

use cyclebench_impl::{Function, Output, Secret};

/// Poly1305 as a cyclebench [`Function`].
pub struct Poly1305;

impl Function for Poly1305 {
    const OUTPUT_BYTES: Output = Output::Fixed(TAG_BYTES);
    const KEY_BYTES: usize = KEY_BYTES;
    const SECRET: Secret = Secret::Key;

    fn call(out: &mut [u8], input: &[u8], key: &[u8]) {
        // The suite passes exactly KEY_BYTES and TAG_BYTES; copying through `zip` rather than
        // slicing means a caller that does not can get a wrong tag but never a panic.
        let mut k = [0u8; KEY_BYTES];
        copy(&mut k, key);
        copy(out, &tag(&k, input));
    }
}

/// Bytes of the one-time key, `r || s`.
pub const KEY_BYTES: usize = 32;
/// Bytes of the tag.
pub const TAG_BYTES: usize = 16;

const BLOCK_BYTES: usize = 16;
const MASK26: u32 = 0x03ff_ffff;

/// The tag of `message` under the one-time `key`.
pub fn tag(key: &[u8; KEY_BYTES], message: &[u8]) -> [u8; TAG_BYTES] {
    let mut state = State::new(key);
    let mut blocks = message.chunks_exact(BLOCK_BYTES);
    for chunk in &mut blocks {
        let mut block = [0u8; BLOCK_BYTES];
        copy(&mut block, chunk);
        // A whole block is read as a 17-byte number whose top byte is 1: bit 128, which is
        // bit 24 of the top limb.
        state.block(&block, 1 << 24);
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        // A partial block carries its 1 byte right after the message bytes instead, inside the
        // 16 bytes, and no bit 128.
        let mut block = [0u8; BLOCK_BYTES];
        copy(&mut block, rest);
        if let Some(one) = block.get_mut(rest.len()) {
            *one = 1;
        }
        state.block(&block, 0);
    }
    state.finish(key)
}

/// The accumulator h and the clamped r, both as five 26-bit limbs (130 bits), and 5 r for the
/// reduction.
struct State {
    r: [u32; 5],
    /// `5 * r[1..5]`: a product's part at 2^130 and above comes back at 2^0 times 5, since
    /// 2^130 = 5 modulo p = 2^130 - 5.
    s: [u32; 4],
    h: [u32; 5],
}

impl State {
    fn new(key: &[u8; KEY_BYTES]) -> Self {
        // r's clamp (section 2.5.1) folded into the limb masks: the top four bits of bytes 3,
        // 7, 11 and 15 and the bottom two of bytes 4, 8 and 12 are cleared.
        let r = [
            le32(key, 0) & 0x03ff_ffff,
            (le32(key, 3) >> 2) & 0x03ff_ff03,
            (le32(key, 6) >> 4) & 0x03ff_c0ff,
            (le32(key, 9) >> 6) & 0x03f0_3fff,
            (le32(key, 12) >> 8) & 0x000f_ffff,
        ];
        // Every limb of r is below 2^26, so 5 r fits 29 bits; with h's limbs below 2^27 each
        // product in `block` is below 2^56 and a sum of five below 2^59: it fits a u64.
        let s = [r[1] * 5, r[2] * 5, r[3] * 5, r[4] * 5];
        Self { r, s, h: [0; 5] }
    }

    /// h = (h + block) * r, partly reduced modulo 2^130 - 5.
    fn block(&mut self, block: &[u8; BLOCK_BYTES], high_bit: u32) {
        let [r0, r1, r2, r3, r4] = self.r.map(u64::from);
        let [s1, s2, s3, s4] = self.s.map(u64::from);
        let h = &mut self.h;

        // Limbs stay below 2^26 plus a small carry between blocks, so adding a 26-bit limb
        // cannot overflow.
        let h0 = u64::from(h[0] + (le32(block, 0) & MASK26));
        let h1 = u64::from(h[1] + ((le32(block, 3) >> 2) & MASK26));
        let h2 = u64::from(h[2] + ((le32(block, 6) >> 4) & MASK26));
        let h3 = u64::from(h[3] + ((le32(block, 9) >> 6) & MASK26));
        let h4 = u64::from(h[4] + ((le32(block, 12) >> 8) | high_bit));

        // Schoolbook product; the limbs that fall at 2^130 and above are taken times 5 back
        // into the low ones (the s terms).
        let d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
        let d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
        let d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
        let d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
        let d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;

        // Carry each limb into the next, and the top's overflow times 5 into the bottom: every
        // limb ends below 2^26 but h[1], which may hold a carry of a few bits, left for the
        // next block (or `finish`) to absorb.
        let mut c: u64;
        c = d0 >> 26;
        h[0] = d0 as u32 & MASK26;
        let d1 = d1 + c;
        c = d1 >> 26;
        h[1] = d1 as u32 & MASK26;
        let d2 = d2 + c;
        c = d2 >> 26;
        h[2] = d2 as u32 & MASK26;
        let d3 = d3 + c;
        c = d3 >> 26;
        h[3] = d3 as u32 & MASK26;
        let d4 = d4 + c;
        c = d4 >> 26;
        h[4] = d4 as u32 & MASK26;
        // The top limb's product sum is below 2^56 (r4 has 20 bits), so c < 2^30 and the
        // carry out of h[0] + 5 c is a few bits.
        let t = u64::from(h[0]) + c * 5;
        h[0] = t as u32 & MASK26;
        h[1] += (t >> 26) as u32;
    }

    /// The tag: h fully reduced modulo 2^130 - 5, plus s, modulo 2^128.
    fn finish(self, key: &[u8; KEY_BYTES]) -> [u8; TAG_BYTES] {
        let [mut h0, mut h1, mut h2, mut h3, mut h4] = self.h;

        // Propagate h[1]'s leftover carry: afterwards every limb is below 2^26.
        let mut c;
        c = h1 >> 26;
        h1 &= MASK26;
        h2 += c;
        c = h2 >> 26;
        h2 &= MASK26;
        h3 += c;
        c = h3 >> 26;
        h3 &= MASK26;
        h4 += c;
        c = h4 >> 26;
        h4 &= MASK26;
        h0 += c * 5;
        c = h0 >> 26;
        h0 &= MASK26;
        h1 += c;

        // h < 2^130 now, but may still be p or more: g = h - p = h + 5 - 2^130. The top limb of
        // g underflows exactly when h < p; its sign bit chooses between h and g as a mask, not
        // a branch, so the time does not say which.
        let mut g0 = h0 + 5;
        c = g0 >> 26;
        g0 &= MASK26;
        let mut g1 = h1 + c;
        c = g1 >> 26;
        g1 &= MASK26;
        let mut g2 = h2 + c;
        c = g2 >> 26;
        g2 &= MASK26;
        let mut g3 = h3 + c;
        c = g3 >> 26;
        g3 &= MASK26;
        let g4 = (h4 + c).wrapping_sub(1 << 26);

        let take_g = (g4 >> 31).wrapping_sub(1);
        let take_h = !take_g;
        h0 = (h0 & take_h) | (g0 & take_g);
        h1 = (h1 & take_h) | (g1 & take_g);
        h2 = (h2 & take_h) | (g2 & take_g);
        h3 = (h3 & take_h) | (g3 & take_g);
        h4 = (h4 & take_h) | (g4 & take_g);

        // h modulo 2^128 as four 32-bit words (the bits above 128 fall off the shifts).
        let w0 = h0 | (h1 << 26);
        let w1 = (h1 >> 6) | (h2 << 20);
        let w2 = (h2 >> 12) | (h3 << 14);
        let w3 = (h3 >> 18) | (h4 << 8);

        // + s, with the carries between words; the one out of the top word is dropped.
        let mut tag = [0u8; TAG_BYTES];
        let mut carry = 0u64;
        for (i, (w, out)) in [w0, w1, w2, w3].into_iter().zip(tag.chunks_exact_mut(4)).enumerate() {
            let f = u64::from(w) + u64::from(le32(key, 16 + 4 * i)) + carry;
            copy(out, &(f as u32).to_le_bytes());
            carry = f >> 32;
        }
        tag
    }
}

/// The little-endian 32-bit word at `bytes[at..at + 4]`, with zeros past the end.
fn le32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    copy(&mut word, bytes.get(at..).unwrap_or(&[]));
    u32::from_le_bytes(word)
}

/// As many bytes as both have, from `src` into `dst`.
fn copy(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }

    fn through_function(key: &[u8], input: &[u8]) -> [u8; TAG_BYTES] {
        let mut out = [0u8; TAG_BYTES];
        Poly1305::call(&mut out, input, key);
        out
    }

    #[test]
    fn rfc_8439_section_2_5_2() {
        let key = unhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        let tag = through_function(&key, b"Cryptographic Forum Research Group");
        assert_eq!(tag.to_vec(), unhex("a8061dc1305136c6c22b8baf0c0127a9"));
    }

    /// Every record of the folder's own vectors.txt, the file the suite checks too.
    #[test]
    fn vectors_file() {
        let mut checked = 0;
        for record in include_str!("../vectors.txt").split("\n\n") {
            let (mut input, mut key, mut out) = (None, None, None);
            for line in record.lines().filter(|l| !l.starts_with('#')) {
                let (name, value) = line.split_once(" = ").expect("a `name = HEX` line");
                match name {
                    "in" => input = Some(unhex(value)),
                    "key" => key = Some(unhex(value)),
                    "out" => out = Some(unhex(value)),
                    _ => panic!("unknown field {name}"),
                }
            }
            let (Some(input), Some(key), Some(out)) = (input, key, out) else {
                continue;
            };
            assert_eq!(
                through_function(&key, &input).to_vec(),
                out,
                "input of {} bytes",
                input.len()
            );
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} records");
    }

    /// With no message the polynomial is zero and the tag is s.
    #[test]
    fn empty_message() {
        let key: Vec<u8> = (0..32).collect();
        assert_eq!(through_function(&key, &[]).to_vec(), key[16..]);
    }

    /// Lengths around and beyond what the suite passes, with keys of every size: no panic.
    #[test]
    fn no_panic_at_any_length() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i * 131 + 7) as u8).collect();
        for len in (0..=80).chain([255, 256, 257, 1023, 1024, 1025, 4095, 4096, 4097, 5000]) {
            through_function(&data[..32], &data[..len]);
        }
        for key_len in 0..=40 {
            let mut out = [0u8; TAG_BYTES];
            Poly1305::call(&mut out, &data[..100], &data[..key_len]);
        }
        let mut short = [0u8; 3];
        Poly1305::call(&mut short, &data[..100], &data[..32]);
    }

    /// A second message of each length differs in its last byte: the last (partial) block
    /// must count.
    #[test]
    fn last_byte_counts() {
        let key: Vec<u8> = (100..132).collect();
        for len in 1..=48 {
            let a = vec![0x5a; len];
            let mut b = a.clone();
            b[len - 1] ^= 1;
            assert_ne!(through_function(&key, &a), through_function(&key, &b), "length {len}");
        }
    }
}
