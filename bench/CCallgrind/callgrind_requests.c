#include "callgrind_requests.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TAPTRACE_HAVE_CALLGRIND 1
#endif
#endif

#ifdef TAPTRACE_HAVE_CALLGRIND
int taptrace_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
void taptrace_callgrind_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void taptrace_callgrind_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void taptrace_callgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void taptrace_callgrind_dump_stats_at(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
#else
int taptrace_running_on_valgrind(void) { return 0; }
void taptrace_callgrind_start_instrumentation(void) {}
void taptrace_callgrind_stop_instrumentation(void) {}
void taptrace_callgrind_zero_stats(void) {}
void taptrace_callgrind_dump_stats_at(const char *label) { (void)label; }
#endif
