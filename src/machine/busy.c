/* busy.c: the one rule for a disturbed run and the words of its reason */
#include "config.h"
#include "machine/busy.h"

#include <stdio.h>

bool rt_busy_lost(double lost)
{
	return lost > RT_BUSY_LOST_MAX;
}

bool rt_busy_others(double share, double others_s)
{
	return share > RT_BUSY_LOST_MAX && others_s > RT_BUSY_GRAIN_S;
}

bool rt_busy_throttled(unsigned threads, unsigned long long throttled_before, double *cores,
		       double *period_s)
{
	unsigned long long throttled = 0;

	return !rt_cpu_quota(cores, period_s, &throttled) &&
	       (throttled > throttled_before || *cores < threads);
}

bool rt_busy_reason(char *out, size_t size, const char *figures, bool quota, unsigned threads,
		    unsigned long long throttled_before, const struct rt_cpu_tasks *before,
		    const struct rt_cpu_tasks *after)
{
	struct rt_cpu_tasks now = { 0 };
	char cause[RT_CPU_CAUSE_MAX];
	double cores, period;

	if (quota && rt_busy_throttled(threads, throttled_before, &cores, &period)) {
		snprintf(out, size, "throttled: %s (the cgroup's CPU quota: %.2f cores per %.0f ms)",
			 figures, cores, period * 1e3);
		return true;
	}
	if (!after) {
		(void)rt_cpu_tasks_take_like(&now, before);
		after = &now;
	}
	rt_cpu_culprit(before, after, cause, sizeof(cause));
	rt_cpu_tasks_free(&now);
	snprintf(out, size, "busy: %s (%s)", figures, cause);
	return false;
}
