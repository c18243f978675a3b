// The same client requests as Benchmarks/Sources/CCallgrind (a package of its own cannot share that target).
#include "callgrind_requests.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif

#if defined(HAVE_CALLGRIND)
int callgrind_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void callgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void callgrind_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void callgrind_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
#else
// Without valgrind's headers the suite cannot count; instructions.sh says so.
int callgrind_running_on_valgrind(void) { return 0; }
void callgrind_zero_stats(void) {}
void callgrind_start_instrumentation(void) {}
void callgrind_stop_instrumentation(void) {}
#endif
