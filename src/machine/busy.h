/* busy.h: the one rule for a run that other work took its CPUs from (disturbed): the share
 * of its CPU time it may lose, and the words of the reason */
#ifndef RT_BUSY_H
#define RT_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include "machine/cpu.h"

/* A run is disturbed when more than this share of the CPU time it was owed went elsewhere:
 * of its threads x wall time, to waiting for a CPU (the trainer's runs, the probe's kernels:
 * their threads got less than 90% of it), or of its CPUs' time, to other processes (a
 * user's command, measured from /proc/stat). Below it a run's time is its own within the
 * spread of undisturbed runs. */
#define RT_BUSY_LOST_MAX 0.10

/* /proc/stat counts in clock ticks (10 ms): others' time below this many CPU seconds is the
 * grain of that count, not a process that ran. */
#define RT_BUSY_GRAIN_S 0.05

/* Whether a run that lost this share of the CPU time it was owed (1 - its share of its
 * threads' time, or the share of time its threads waited for a CPU) was disturbed: lost >
 * RT_BUSY_LOST_MAX. false for NAN (nothing measured). */
bool rt_busy_lost(double lost);

/* Whether a run whose CPUs other processes used for this share of their time (others_s CPU
 * seconds, rt_cpu_others_share) was disturbed: the share past RT_BUSY_LOST_MAX and the
 * seconds past RT_BUSY_GRAIN_S. */
bool rt_busy_others(double share, double others_s);

/* Whether this process's CPU quota (its cgroup, rt_cpu_quota) held a run of `threads` back:
 * its throttled periods grew past throttled_before, or it allows fewer cores than threads;
 * *cores and *period_s are the quota's when true. */
bool rt_busy_throttled(unsigned threads, unsigned long long throttled_before, double *cores,
		       double *period_s);

/* The reason of a disturbed run, in out: "throttled: FIGURES (the cgroup's CPU quota: C cores
 * per P ms)" when quota is true and rt_busy_throttled says so, else "busy: FIGURES (CAUSE)",
 * the cause from rt_cpu_culprit between before and after (NULL: a take now on before's
 * CPUs). figures: what the caller measured, in words ("the run got 45% of its cores' time").
 * Returns whether the quota was the cause. */
bool rt_busy_reason(char *out, size_t size, const char *figures, bool quota, unsigned threads,
		    unsigned long long throttled_before, const struct rt_cpu_tasks *before,
		    const struct rt_cpu_tasks *after);

#endif
