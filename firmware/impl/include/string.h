/*
 * cyclebench: <string.h> for an implementation measured from outside the tree, declaring the
 * functions the suite provides to C (the memory and string functions it links for its own
 * code) and nothing else: strcpy, strcmp, memchr and the rest of a C library are not there,
 * and a call to one fails the image's link, which names it.
 */
#ifndef CYCLEBENCH_STRING_H
#define CYCLEBENCH_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#endif
