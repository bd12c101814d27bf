/*
 * Compares a 16-byte input with the secret reference value (a MAC tag, say) in time that does
 * not depend on either: every byte pair is read, and the answer is computed rather than
 * branched on.
 */
#include "cyclebench.h"

#define TAG_BYTES 16

int crypto_function(unsigned char *out, const unsigned char *in, size_t inlen, const unsigned char *key)
{
    uint32_t diff = 0;
    size_t i;

    /* inlen is public (the caller's buffer size), so this branch leaks nothing. */
    if (inlen != TAG_BYTES)
        return -1;
    /* OR keeps every differing bit; nothing in the loop looks at the running value, so there
     * is no point at which an early exit would be the same function. */
    for (i = 0; i < TAG_BYTES; i++)
        diff |= (uint32_t)(in[i] ^ key[i]);
    /* diff is at most 0xff: diff - 1 wraps to all ones exactly when diff is 0, so bit 8 is
     * the answer, taken with a shift instead of a comparison a compiler might branch on. */
    out[0] = (unsigned char)(1 & ((diff - 1) >> 8));
    return 0;
}
