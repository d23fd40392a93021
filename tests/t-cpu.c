/* t-cpu.c: /proc/cpuinfo parsing (vendor, family, the ISA flags that matter), the
 * operations per cycle behind each theoretical peak, against hand-computed values, and the
 * process named when another one takes this process's CPUs, the CPUs this process may use */
#define _GNU_SOURCE
#include "config.h"
#include "machine/cpu.h"
#include "tap.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Spin until this process has used `seconds` of CPU time, say so on fd, then wait to be
 * killed (a process that exits leaves /proc: it would not be there to be named). */
static void spin_then_wait(double seconds, int fd)
{
	struct timespec ts;

	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	while ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 < seconds);
	if (write(fd, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* A process that is not ours (its parent exits: it is adopted), named `name`, spinning until
 * it has used `seconds` of CPU time on the CPUs it inherits or on `cpu` (>= 0); its pid comes
 * back on the pipe. With go: first named "worker-a", it spins 0.5 s and says so, then waits
 * for a byte on go and renames itself (as a kernel worker does) before it spins on. */
static pid_t orphan(const char *name, double seconds, int cpu, int fd[2], const int *go)
{
	pid_t mid = fork(), pid = -1;

	if (mid == 0) {
		pid_t g = fork();

		if (g == 0) {
			pid_t self = getpid();
			char c;

			if (cpu >= 0) {
				cpu_set_t one;

				CPU_ZERO(&one);
				CPU_SET(cpu, &one);
				if (sched_setaffinity(0, sizeof(one), &one))
					_exit(1);
			}
			prctl(PR_SET_NAME, go ? "worker-a" : name, 0, 0, 0);
			if (write(fd[1], &self, sizeof(self)) != sizeof(self))
				_exit(1);
			if (go) {
				struct timespec ts;

				do
					clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
				while ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 < 0.5);
				if (write(fd[1], "x", 1) != 1 || read(go[0], &c, 1) != 1)
					_exit(1);
				prctl(PR_SET_NAME, name, 0, 0, 0);
			}
			spin_then_wait(seconds, fd[1]);
		}
		_exit(g > 0 ? 0 : 1);
	}
	if (mid > 0) {
		waitpid(mid, NULL, 0);
		if (read(fd[0], &pid, sizeof(pid)) != sizeof(pid))
			pid = -1;
	}
	return pid;
}

/* The culprit: among the processes that used CPU time between two takes, the busiest that may
 * run on this process's CPUs, neither this process nor a child of it, named safely. */
static void culprit(void)
{
	struct rt_cpu_tasks a, b;
	cpu_set_t mine, zero;
	int fd[2], go[2];
	pid_t child, named, far = -1, old;
	int rc;
	char why[512], want[96], done;
	const bool two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;

	if (sched_getaffinity(0, sizeof(mine), &mine) || pipe(fd) || pipe(go)) {
		skip("no affinity or pipe");
		return;
	}
	if (two && CPU_ISSET(0, &mine) && CPU_ISSET(1, &mine)) {
		CPU_ZERO(&zero);
		CPU_SET(0, &zero);
		(void)sched_setaffinity(0, sizeof(zero), &zero);   /* ours: CPU 0 only */
	} else {
		CPU_ZERO(&zero);
	}
	/* a process that used 0.5 s before the first take and renames itself after it */
	old = orphan("worker-b", 0.55, -1, fd, go);
	if (old > 0 && read(fd[0], &done, 1) != 1)     /* its 0.5 s spun */
		old = -1;
	rc = rt_cpu_tasks_take(&a, NULL, 0);
	ok(!rc && a.n > 1, "every process's CPU time taken (%zu processes)", a.n);
	if (write(go[1], "x", 1) != 1)
		old = -1;
	/* a child of ours spinning longest: not a culprit (roofline-run's command is its child) */
	if ((child = fork()) == 0)
		spin_then_wait(0.4, fd[1]);
	named = orphan("spin (x) \"q\"", 0.2, -1, fd, NULL);
	/* another spinning longer still, but only where this process may not run (CPU 1; with
	 * one CPU there is no such place) */
	if (CPU_COUNT(&zero))
		far = orphan("far", 0.6, 1, fd, NULL);
	for (int k = 0; k < 2 + (far > 0) + (old > 0); k++)
		if (read(fd[0], &done, 1) != 1)
			break;
	rc = rt_cpu_tasks_take_like(&b, &a);
	ok(!rc && b.n > 1, "taken again (%zu processes)", b.n);
	rt_cpu_culprit(&a, &b, why, sizeof(why));
	ok(strstr(why, "another process ran on them; the busiest allowed there: ") == why,
	   "a process named: %s", why);
	{
		/* the busiest few: the adopted spinner among them, unless other processes on the
		 * machine used more CPU time meanwhile; never the child, the process pinned
		 * elsewhere, one renamed meanwhile, or us; most first */
		const char *p = why;
		int pid[RT_CPU_CULPRITS + 1] = { 0 }, n = 0;
		double s[RT_CPU_CULPRITS + 1] = { 0 };
		bool clean = true, sorted = true;

		while (n <= RT_CPU_CULPRITS && (p = strstr(p, ", pid ")) &&
		       sscanf(p, ", pid %d, %lf CPU s", &pid[n], &s[n]) == 2) {
			/* the renamed one may be named, for the little it ran meanwhile */
			clean &= pid[n] > 0 && pid[n] != child && pid[n] != far &&
				 pid[n] != getpid() && (pid[n] != old || s[n] < 0.3);
			sorted &= !n || s[n] <= s[n - 1];
			n++;
			p++;
		}
		ok(n >= 1 && n <= RT_CPU_CULPRITS, "%d process%s named, at most %d", n,
		   n == 1 ? "" : "es", RT_CPU_CULPRITS);
		ok(clean && old > 0, "... neither our child, nor one pinned where we may not run, nor "
		   "one renamed meanwhile (by its life's CPU time), nor us");
		/* (/proc counts in clock ticks: a tick or two under the time it spun) */
		ok(sorted && s[0] >= 0.15 && s[0] < 10, "... the busiest first, at least as busy as "
		   "the spinner (%.2f CPU s; it spun 0.2)", s[0]);
		snprintf(want, sizeof(want), "spin (x) ?q?, pid %d, ", named);
		if (strstr(why, want))
			ok(true, "... the spinner among them, its name made safe");
		else
			skip("%d other processes on the machine were busier than the spinner",
			     RT_CPU_CULPRITS);
	}
	rt_cpu_tasks_free(&a);
	rt_cpu_tasks_free(&b);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	kill(named, SIGKILL);
	if (old > 0)
		kill(old, SIGKILL);
	close(go[0]);
	close(go[1]);
	if (far > 0)
		kill(far, SIGKILL);
	(void)sched_setaffinity(0, sizeof(mine), &mine);
	close(fd[0]);
	close(fd[1]);
}

static const char spr[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
	"model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
	"flags\t\t: fpu sse2 avx avx2 fma avx512f avx512bw avx512_bf16 avx512_fp16 amx_tile "
	"amx_bf16 amx_int8 avx512_vnni avx_vnni hypervisor\n\nprocessor\t: 1\n";
static const char zen4[] =
	"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
	"model name\t: AMD EPYC 9654\nflags\t\t: fpu sse2 avx avx2 fma avx512f avx512_bf16 "
	"avx512_vnni\n";

/* rt_cpu_ops_per_cycle, short enough for a table's lines */
static double ops(const char *vendor, int family, bool avx512, enum rt_precision p,
		  const char *isa, const char *method)
{
	return rt_cpu_ops_per_cycle(vendor, family, avx512, p, isa, method);
}

/* The CPU set counted by rt_cpu_usable: the whole mask, then a mask of one CPU set here. */
static void usable(void)
{
	cpu_set_t mine, one, got;
	int first = -1;

	if (sched_getaffinity(0, sizeof(mine), &mine)) {
		skip("no affinity");
		return;
	}
	is_int(rt_cpu_usable(NULL), CPU_COUNT(&mine), "the usable CPUs: the affinity mask's %d",
	       CPU_COUNT(&mine));
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &mine))
			first = c;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		skip("cannot narrow the affinity mask");
		return;
	}
	CPU_ZERO(&got);
	is_int(rt_cpu_usable(&got), 1, "narrowed to CPU %d: one usable CPU", first);
	ok(CPU_EQUAL(&got, &one), "and the mask given back is that CPU alone");
	ok(!sched_setaffinity(0, sizeof(mine), &mine), "the mask restored");
}

int main(void)
{
	struct rt_cpu c;
	struct rt_err err;

	is_int(rt_cpu_parse_cpuinfo(&c, spr, &err), 0, "an Intel cpuinfo parses");
	is_str(c.vendor, "GenuineIntel", "vendor");
	is_int(c.family, 6, "family 6");
	is_int(c.model_number, 143, "model 143 (0x8f: Sapphire Rapids), not the model name");
	ok(c.hypervisor, "a hypervisor flag");
	is_int(rt_cpu_parse_cpuinfo(&c, zen4, &err), 0, "an AMD cpuinfo parses");
	is_str(c.vendor, "AuthenticAMD", "vendor");
	is_int(c.family, 25, "family 0x19 (Zen 4)");
	is_int(c.model_number, 17, "model 17 (0x11)");
	is_int(rt_cpu_parse_cpuinfo(&c, "vendor_id : x\n", &err), -EINVAL, "no flags: refused");

	/* Intel with AVX-512: two 512-bit FMA pipes */
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_FP64, "avx512", "fma-chains"), 32, 0,
		  "Intel fp64 avx512: 2 pipes x 8 lanes x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_FP32, "avx512", "fma-chains"), 64, 0,
		  "Intel fp32 avx512: 2 x 16 x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_FP32, "avx2", "fma-chains"), 32, 0,
		  "Intel fp32 avx2: 2 x 8 x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_FP64, "scalar", "mul-add-chains"),
		  4, 0, "scalar mul-add: 2 multiplies + 2 adds");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_FP32, "sse", "mul-add-chains"), 16,
		  0, "fp32 sse mul-add: 4 x 4 lanes");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_BF16, "avx512_bf16", "instruction"),
		  128, 0, "VDPBF16PS: 2 pipes x 16 lanes x 2 pairs x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_FP16, "avx512_fp16", "instruction"),
		  128, 0, "VFMADD231PH: 2 x 32 x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_INT8, "avx512_vnni", "instruction"),
		  256, 0, "VPDPBUSD zmm: 2 x 16 lanes x 4 pairs x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_INT8, "avx_vnni", "instruction"),
		  128, 0, "VPDPBUSD ymm: 2 x 8 x 4 x 2");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_BF16, "amx_bf16", "instruction"),
		  1024, 0, "TDPBF16PS: 16x16x32 x 2 every 16 cycles");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_INT8, "amx_int8", "instruction"),
		  2048, 0, "TDPBSSD: 16x16x64 x 2 every 16 cycles");
	/* Zen 4: 512-bit instructions on 256-bit pipes */
	is_double(ops("AuthenticAMD", 25, true, RT_PRECISION_FP32, "avx512", "fma-chains"), 32, 0,
		  "Zen 4 fp32 avx512: the same as avx2");
	is_double(ops("AuthenticAMD", 25, true, RT_PRECISION_BF16, "avx512_bf16", "instruction"),
		  64, 0, "Zen 4 VDPBF16PS: half of Intel's");
	is_double(ops("AuthenticAMD", 26, true, RT_PRECISION_FP32, "avx512", "fma-chains"), 64, 0,
		  "Zen 5: full 512-bit pipes");
	is_double(ops("GenuineIntel", 6, false, RT_PRECISION_FP32, "avx2", "fma-chains"), 32, 0,
		  "no AVX-512: 256-bit pipes");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_BF16, "avx512_core_bf16",
		      "onednn-matmul"), 0, 0, "oneDNN's rates have no theoretical peak");
	is_double(ops("GenuineIntel", 6, true, RT_PRECISION_COUNT, "avx512", "fma-chains"), 0, 0,
		  "no precision named: no peak");
	usable();
	culprit();
	return done_testing();
}
