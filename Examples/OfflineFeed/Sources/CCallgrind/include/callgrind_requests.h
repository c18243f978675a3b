#ifndef CALLGRIND_REQUESTS_H
#define CALLGRIND_REQUESTS_H

/// Callgrind's client requests as functions (Swift cannot expand the macros of
/// valgrind/callgrind.h). Each is a no-op when the program does not run under valgrind.

/// Whether the program runs under valgrind.
int callgrind_running_on_valgrind(void);
/// Sets callgrind's counters to zero.
void callgrind_zero_stats(void);
/// Starts counting instructions (`CALLGRIND_START_INSTRUMENTATION`).
void callgrind_start_instrumentation(void);
/// Stops counting instructions (`CALLGRIND_STOP_INSTRUMENTATION`).
void callgrind_stop_instrumentation(void);

#endif
