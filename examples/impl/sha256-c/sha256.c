/*
 * SHA-256 (FIPS 180-4), written for reading rather than speed: one 64-word message schedule,
 * the round function as the standard states it, no unrolling. A baseline to set faster
 * implementations beside.
 */
#include "cyclebench.h"

/* FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of
 * the first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Section 5.3.3: the initial hash value. */
static const uint32_t H0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* Byte by byte: the input need not be aligned, and the result is the same on any host. */
static uint32_t load_be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void store_be32(unsigned char *p, uint32_t x)
{
    p[0] = (unsigned char)(x >> 24);
    p[1] = (unsigned char)(x >> 16);
    p[2] = (unsigned char)(x >> 8);
    p[3] = (unsigned char)x;
}

/* Section 6.2.2: one 64-byte block into the state. */
static void compress(uint32_t state[8], const unsigned char block[64])
{
    uint32_t w[64];
    uint32_t a, b, c, d, e, f, g, h;
    int t;

    for (t = 0; t < 16; t++)
        w[t] = load_be32(block + 4 * t);
    for (t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }

    a = state[0];
    b = state[1];
    c = state[2];
    d = state[3];
    e = state[4];
    f = state[5];
    g = state[6];
    h = state[7];

    for (t = 0; t < 64; t++) {
        uint32_t sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + sigma1 + ch + K[t] + w[t];
        uint32_t sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = sigma0 + maj;

        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }

    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

int crypto_hash(unsigned char *out, const unsigned char *in, unsigned long long inlen)
{
    uint32_t state[8];
    unsigned char last[128];
    size_t rest, padded;
    /* The message length in bits, as two 32-bit halves: a 64-bit shift by a variable amount
     * would call a compiler helper that a freestanding build does not have. */
    uint32_t bits_high = (uint32_t)(inlen >> 29);
    uint32_t bits_low = (uint32_t)inlen << 3;
    int i;

    memcpy(state, H0, sizeof state);

    /* Whole blocks straight from the input, with no copy. */
    while (inlen >= 64) {
        compress(state, in);
        in += 64;
        inlen -= 64;
    }

    /* Section 5.1.1: the rest, a 1 bit, zeros, and the 64-bit length end the message; they
     * take a second block when fewer than 9 bytes of the first are left. */
    rest = (size_t)inlen;
    padded = rest < 56 ? 64 : 128;
    memset(last, 0, sizeof last);
    memcpy(last, in, rest);
    last[rest] = 0x80;
    store_be32(last + padded - 8, bits_high);
    store_be32(last + padded - 4, bits_low);
    compress(state, last);
    if (padded == 128)
        compress(state, last + 64);

    for (i = 0; i < 8; i++)
        store_be32(out + 4 * i, state[i]);
    return 0;
}
