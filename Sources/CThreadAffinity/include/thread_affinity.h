#ifndef TAPTRACE_THREAD_AFFINITY_H
#define TAPTRACE_THREAD_AFFINITY_H

/* sched_getaffinity, sched_setaffinity, SCHED_IDLE and SCHED_BATCH need _GNU_SOURCE, which
 * Swift's Glibc module does not define, and CPU_SET is a macro: these functions are what
 * TapTraceHTTP's ThreadAffinity, TapTraceStore's Checkpointer and TapTraceService's RunWriter
 * need of them. */

/* Writes the processors the calling thread may run on, ascending, into `processors` (at most
 * `capacity`); returns how many there are, or -1 when unknown. */
int taptrace_allowed_processors(int *processors, int capacity);

/* Binds the calling thread to `processor`; 0 on success, -1 when refused. */
int taptrace_pin_current_thread(int processor);

/* Puts the calling thread in the SCHED_IDLE class: it runs when a processor has nothing else
 * to run (and for a small share otherwise). Any thread may lower itself so; going back needs
 * a privilege. 0 on success, -1 when refused or not Linux. */
int taptrace_run_current_thread_when_idle(void);

/* Puts the calling thread in the SCHED_BATCH class: it gets its fair share as before, but its
 * wake-ups do not preempt the thread running on its processor; it runs when that one blocks,
 * yields or uses up its slice. Any thread may do so and go back. 0 on success, -1 when refused
 * or not Linux. */
int taptrace_run_current_thread_as_batch(void);

#endif
