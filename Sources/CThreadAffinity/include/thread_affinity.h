#ifndef TAPTRACE_THREAD_AFFINITY_H
#define TAPTRACE_THREAD_AFFINITY_H

/* sched_getaffinity and sched_setaffinity need _GNU_SOURCE, which Swift's Glibc module does
 * not define, and CPU_SET is a macro: these two functions are what TapTraceHTTP's
 * ThreadAffinity needs of them. */

/* Writes the processors the calling thread may run on, ascending, into `processors` (at most
 * `capacity`); returns how many there are, or -1 when unknown. */
int taptrace_allowed_processors(int *processors, int capacity);

/* Binds the calling thread to `processor`; 0 on success, -1 when refused. */
int taptrace_pin_current_thread(int processor);

#endif
