/*
 * Compares a 16-byte input with the secret reference value (a MAC tag, say) and returns at the
 * first byte that differs, the way memcmp is usually written. Its running time therefore tells
 * how many leading bytes of a guess are right, which is what the constant-time test is meant
 * to catch: a control that must be flagged, beside compare-ct-c, which must not.
 */
#include "cyclebench.h"

#define TAG_BYTES 16

int crypto_function(unsigned char *out, const unsigned char *in, size_t inlen, const unsigned char *key)
{
    size_t i;

    if (inlen != TAG_BYTES)
        return -1;
    for (i = 0; i < TAG_BYTES; i++) {
        if (in[i] != key[i]) {
            out[0] = 0;
            return 0;
        }
    }
    out[0] = 1;
    return 0;
}
