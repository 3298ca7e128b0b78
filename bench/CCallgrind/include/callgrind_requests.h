#ifndef TAPTRACE_CALLGRIND_REQUESTS_H
#define TAPTRACE_CALLGRIND_REQUESTS_H

/// Valgrind's callgrind client requests, as functions Swift can call (the header's macros are
/// inline assembly). Outside valgrind, or built without valgrind's headers, they do nothing.

/// Whether the program runs under valgrind (any tool).
int taptrace_running_on_valgrind(void);
/// Turns instrumentation on (`valgrind --tool=callgrind --instr-atstart=no` starts with it off,
/// so that setting up a benchmark runs at full speed and is not counted).
void taptrace_callgrind_start_instrumentation(void);
void taptrace_callgrind_stop_instrumentation(void);
/// Sets the event counters to zero.
void taptrace_callgrind_zero_stats(void);
/// Writes the counters since the last zeroing to a profile file whose description names `label`.
void taptrace_callgrind_dump_stats_at(const char *label);

#endif
