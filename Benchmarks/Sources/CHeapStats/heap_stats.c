#define _GNU_SOURCE
#include "heap_stats.h"

#include <dlfcn.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

size_t heap_stats_bytes_in_use(void) {
#if defined(__GLIBC__)
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}

typedef void (*toggle_fn)(void);
typedef void (*stats_fn)(int64_t *, int64_t *, int64_t *, int64_t *, int64_t *, int64_t *);

static toggle_fn lookup_toggle(const char *name) { return (toggle_fn)dlsym(RTLD_DEFAULT, name); }

int heap_stats_can_count(void) {
    return dlsym(RTLD_DEFAULT, "malloc_interposer_get_stats") != NULL;
}

void heap_stats_start_counting(void) {
    toggle_fn reset = lookup_toggle("malloc_interposer_reset");
    toggle_fn enable = lookup_toggle("malloc_interposer_enable");
    if (reset && enable) {
        reset();
        enable();
    }
}

int64_t heap_stats_stop_counting(void) {
    toggle_fn disable = lookup_toggle("malloc_interposer_disable");
    stats_fn stats = (stats_fn)dlsym(RTLD_DEFAULT, "malloc_interposer_get_stats");
    if (!disable || !stats) return -1;
    disable();
    int64_t count = 0, bytes = 0, small = 0, large = 0, freed = 0, freed_bytes = 0;
    stats(&count, &bytes, &small, &large, &freed, &freed_bytes);
    return count;
}
