/* t-busy.c: the one rule for a disturbed run (machine/busy): the threshold at its edge on
 * each measure, and the reason's words from takes the test builds */
#include "config.h"
#include "machine/busy.h"
#include "machine/cpu.h"
#include "tap.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool put(const char *dir, const char *file, const char *text)
{
	char path[1200];
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!(fp = fopen(path, "w")))
		return false;
	ok = fputs(text, fp) >= 0;
	return (fclose(fp) == 0) && ok;
}

/* Where this host puts the test under no CPU quota, one of its own: a child cgroup of 1.5
 * cores per 100 ms (root and a v1 cpu controller); home and mine set, true; else false, errno */
static bool enter_quota(char *home, char *mine, size_t size)
{
	char pid[32];
	bool v2;

	if (!rt_cpu_cgroup_dir(home, size, &v2) || v2 ||
	    snprintf(mine, size, "%s/rt-t-busy-%ld", home, (long)getpid()) >= (int)size)
		return false;
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (mkdir(mine, 0755) && errno != EEXIST)
		return false;
	if (put(mine, "cpu.cfs_period_us", "100000\n") && put(mine, "cpu.cfs_quota_us", "150000\n") &&
	    put(mine, "cgroup.procs", pid))
		return true;
	rmdir(mine);
	return false;
}

static void leave_quota(const char *home, const char *mine)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	(void)put(home, "cgroup.procs", pid);
	rmdir(mine);
}

int main(void)
{
	const long hz = sysconf(_SC_CLK_TCK);
	/* a pid past the kernel's limit (PID_MAX_LIMIT, 4194304): never a process of this host */
	struct rt_cpu_task was = { .pid = 4194305, .ppid = 1, .ticks = 0, .start = 7,
				   .comm = "spinner" };
	struct rt_cpu_task now = was;
	struct rt_cpu_tasks a = { .t = &was, .n = 1, .cpus = { 1 }, .ok = true };
	struct rt_cpu_tasks b = { .t = &now, .n = 1, .cpus = { 1 }, .ok = true };
	char why[640], want[640];
	double cores, period;
	unsigned long long throttled;
	char home[1024], mine[1100];
	bool entered = false;

	is_double(RT_BUSY_LOST_MAX, 0.10, 0, "one threshold: a tenth of the time owed");
	ok(!rt_busy_lost(0.10), "10%% lost: not disturbed");
	ok(rt_busy_lost(0.1001), "10.01%% lost: disturbed");
	ok(rt_busy_lost(1 - 0.85), "a run that got 85%% of its threads' time: disturbed");
	ok(!rt_busy_lost(1 - 0.95), "one that got 95%%: not");
	ok(!rt_busy_lost(NAN), "nothing measured: not disturbed");
	ok(!rt_busy_lost(1 - 2.0), "more than its threads' time (a share of 2): not");
	ok(rt_busy_others(0.25, 0.5), "others used 25%% of the CPUs, 0.5 CPU s: disturbed");
	ok(!rt_busy_others(0.10, 0.5), "10%%: not");
	ok(!rt_busy_others(0.25, RT_BUSY_GRAIN_S), "25%% but %.2f CPU s, the ticks' grain: not",
	   RT_BUSY_GRAIN_S);
	ok(!rt_busy_others(NAN, 1), "/proc/stat unread (NAN): not");

	/* the reason: the figures as given, the busiest other process as the takes say */
	now.ticks = (unsigned long long)hz;     /* 1.00 CPU s between the takes */
	ok(!rt_busy_reason(why, sizeof(why), "the run got 45% of its cores' time", false, 2, 0, &a,
			   &b), "no quota asked about: not throttled");
	snprintf(want, sizeof(want), "busy: the run got 45%% of its cores' time (another process "
		 "ran on them; the busiest allowed there: spinner, pid 4194305, 1.00 CPU s)");
	is_str(why, want, "the busy reason names the process and its CPU seconds");
	/* not held back by a quota: no throttled period past the count before, no thread past
	 * the cores, whatever this host's cgroup is */
	ok(!rt_busy_throttled(0, ULLONG_MAX, &cores, &period), "no quota's throttling for 0 threads");
	ok(!rt_busy_reason(why, sizeof(why), "figures", true, 0, ULLONG_MAX, &a, &b),
	   "a quota asked about but not reached: busy");
	like(why, "busy: figures (another process", "... said busy");
	/* the throttled words under a quota: this host's, else one the test makes (as root) */
	if (!rt_cpu_quota(&cores, &period, &throttled) ||
	    ((entered = enter_quota(home, mine, sizeof(home))) &&
	     !rt_cpu_quota(&cores, &period, &throttled))) {
		if (entered)
			is_double(cores, 1.5, 1e-9, "the test's own cgroup: a quota of 1.5 cores read");
		else
			ok(cores > 0, "this host's quota: %.2f cores", cores);
		ok(rt_busy_reason(why, sizeof(why), "figures", true, UINT_MAX, 0, &a, &b),
		   "under a quota of %.2f cores, more threads than that: throttled", cores);
		snprintf(want, sizeof(want), "throttled: figures (the cgroup's CPU quota: %.2f cores "
			 "per %.0f ms)", cores, period * 1e3);
		is_str(why, want, "... in the throttled words");
	} else {
		skip("no CPU quota here and no cgroup v1 cpu controller this user may divide");
		skip("no CPU quota here and no cgroup v1 cpu controller this user may divide");
		skip("no CPU quota here and no cgroup v1 cpu controller this user may divide");
	}
	if (entered)
		leave_quota(home, mine);
	return done_testing();
}
