#define _GNU_SOURCE
#include <sched.h>
#include "thread_affinity.h"

int taptrace_allowed_processors(int *processors, int capacity) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  int count = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (!CPU_ISSET(cpu, &set)) continue;
    if (count < capacity) processors[count] = cpu;
    count++;
  }
  return count;
#else
  (void)processors; (void)capacity;
  return -1;
#endif
}

int taptrace_pin_current_thread(int processor) {
#ifdef __linux__
  if (processor < 0 || processor >= CPU_SETSIZE) return -1;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(processor, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
#else
  (void)processor;
  return -1;
#endif
}

#ifdef __linux__
/* On Linux the scheduling policy belongs to the thread: 0 is the calling one. */
static int set_current_thread_policy(int policy) {
  struct sched_param parameters = { .sched_priority = 0 };
  return sched_setscheduler(0, policy, &parameters) == 0 ? 0 : -1;
}

int taptrace_run_current_thread_when_idle(void) { return set_current_thread_policy(SCHED_IDLE); }

int taptrace_run_current_thread_as_batch(void) { return set_current_thread_policy(SCHED_BATCH); }
#else
int taptrace_run_current_thread_when_idle(void) { return -1; }

int taptrace_run_current_thread_as_batch(void) { return -1; }
#endif
