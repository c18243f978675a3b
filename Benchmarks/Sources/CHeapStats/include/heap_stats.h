#ifndef HEAP_STATS_H
#define HEAP_STATS_H

#include <stddef.h>
#include <stdint.h>

/// Bytes of heap in use (glibc `mallinfo2().uordblks`, chunk overhead included); 0 where
/// glibc is not the allocator. Counts every arena only when MALLOC_ARENA_MAX=1.
size_t heap_stats_bytes_in_use(void);

/// Whether the malloc-interposer library is loaded (LD_PRELOAD), so that allocations can be
/// counted.
int heap_stats_can_count(void);
/// Starts counting allocations from zero.
void heap_stats_start_counting(void);
/// Stops counting and returns the number of allocations since the start.
int64_t heap_stats_stop_counting(void);

#endif
