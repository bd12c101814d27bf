/* cyclebench: <memory.h>, the old home of the memory functions: <string.h>'s. */
#ifndef CYCLEBENCH_MEMORY_H
#define CYCLEBENCH_MEMORY_H

#include <string.h>

#endif
