/*
 * cyclebench: the interfaces an implementation measured from outside the tree provides.
 *
 * An implementation folder holds impl.toml, its sources and, optionally, its known-answer
 * vectors. It provides the functions of exactly one interface below; impl.toml's `interface`
 * says which. Each returns 0 on success; anything else is reported as the call's failure.
 *
 * The functions are compiled for the target's core (RV32IMC, with Zbb on the Zbb targets),
 * freestanding: the compiler's <stdint.h>, <stddef.h>, <stdbool.h>, <limits.h> and the other
 * freestanding headers, and of the C library only what <string.h> declares, which the suite
 * provides (this file includes it). Every name the folder defines is its own: several
 * implementations, two versions of one library among them, link into one image.
 */
#ifndef CYCLEBENCH_H
#define CYCLEBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * interface = "hash" (SUPERCOP's crypto_hash): writes the digest of in[0..inlen) to out
 * (impl.toml's output_bytes, 32 by default).
 */
int crypto_hash(unsigned char *out, const unsigned char *in, unsigned long long inlen);

/*
 * interface = "block-cipher": the key schedule and the encryption of one block are timed
 * apart, as the phases `setup` and `run`. The suite gives a context of impl.toml's
 * context_bytes (4-byte aligned) to both; key_bytes and block_bytes (16 by default) are
 * impl.toml's too.
 */
int crypto_block_setup(void *context, const unsigned char *key);
int crypto_block_encrypt(const void *context, unsigned char *out, const unsigned char *in);

/*
 * interface = "stream" (SUPERCOP's crypto_stream_xor): c = m XOR the keystream of key k and
 * nonce n (impl.toml's key_bytes and nonce_bytes), mlen bytes.
 */
int crypto_stream_xor(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                      const unsigned char *n, const unsigned char *k);

/*
 * interface = "function", for what fits no other: out = f(in[0..inlen), key), with
 * impl.toml's output_bytes (a number, or "input" for as many as the input) and key_bytes (0:
 * key is NULL). impl.toml's `secret` ("key" or "data") is the input the constant-time test
 * varies.
 */
int crypto_function(unsigned char *out, const unsigned char *in, size_t inlen, const unsigned char *key);

#endif
