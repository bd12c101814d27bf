/*
 * cyclebench: <stdlib.h> for an implementation measured from outside the tree. The suite gives
 * C no heap, no process to end and no C library beyond <string.h>: malloc, calloc, realloc,
 * free, abort, exit, qsort, rand, abs, atoi and the rest are not there, and a call to one fails
 * the image's link, which names it. What the header gives is <stddef.h>'s size_t, wchar_t and
 * NULL, so that code which includes it for those compiles as it is.
 */
#ifndef CYCLEBENCH_STDLIB_H
#define CYCLEBENCH_STDLIB_H

#include <stddef.h>

#endif
