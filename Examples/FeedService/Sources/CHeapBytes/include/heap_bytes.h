#ifndef HEAP_BYTES_H
#define HEAP_BYTES_H

#include <stddef.h>

/// Bytes of heap in use (glibc `mallinfo2().uordblks`, chunk overhead included); 0 where glibc
/// is not the allocator. Counts every arena only when MALLOC_ARENA_MAX=1.
size_t heap_bytes_in_use(void);

#endif
