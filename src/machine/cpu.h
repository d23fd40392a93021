/* cpu.h: what the CPU is (model name, the ISA extensions that matter for FLOPs, clock, the
 * operations a core starts per cycle) and what this process gets of it (the CPUs it may use,
 * its CPU quota, the others that ran on its CPUs) */
#ifndef RT_CPU_H
#define RT_CPU_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "base/vocab.h"

#define RT_CPU_MAX_ISA 24

struct rt_cpu {
	char model[128];
	char isa[RT_CPU_MAX_ISA][16];   /* in the order of the table in cpu.c */
	size_t nisa;
	char vendor[16];                /* GenuineIntel, AuthenticAMD, ... ("" unknown) */
	int family;                     /* cpuinfo's "cpu family" (0 unknown) */
	int model_number;               /* cpuinfo's "model" (-1 unknown) */
	double max_mhz;                 /* cpufreq's maximum, 0 when the OS does not say (VMs) */
	bool hypervisor;
};

/* Where the node's identity is read: the files /proc/cpuinfo, cpufreq's maximum and the PMUs of
 * /sys/bus/event_source/devices, each under the directory ROOFTRAJ_SYSROOT names when it is set
 * (a test gives the code the CPU it asserts about: a vendor, family and model, with or without a
 * core PMU or a memory controller's PMU), else under /. path is absolute ("/proc/cpuinfo");
 * false when the result does not fit. Only identity is read so: the CPU times of /proc/stat and
 * the cgroup are always this machine's. */
bool rt_cpu_identity_path(char *buf, size_t size, const char *path);
/* The whole of the identity file path (absolute, read where rt_cpu_identity_path puts it)
 * into *text (NUL-ended; the caller frees it). A file that is not regular (a FIFO, which
 * would block; a directory; a device) is refused, -EINVAL; an open or read error is its
 * -errno; one past RT_CPU_IDENTITY_MAX bytes -EFBIG: each message names the file. */
#define RT_CPU_IDENTITY_MAX (64 << 20)
int rt_cpu_identity_read(const char *path, char **text, struct rt_err *err);

/* Parse /proc/cpuinfo-formatted text (the first processor's block). */
int rt_cpu_parse_cpuinfo(struct rt_cpu *cpu, const char *text, struct rt_err *err);
/* Read this machine's /proc/cpuinfo and cpufreq (under ROOFTRAJ_SYSROOT when set). */
int rt_cpu_detect(struct rt_cpu *cpu, struct rt_err *err);

/* Whether the CPU's flags hold flag (one of those struct rt_cpu keeps: "avx512f", "amx_bf16") */
bool rt_cpu_has(const struct rt_cpu *cpu, const char *flag);
/* The flag of the instructions that give this CPU bf16 math, "amx_bf16" before "avx512_bf16";
 * NULL when it has neither (or cpu is NULL) */
const char *rt_cpu_bf16_flag(const struct rt_cpu *cpu);

/* The operations (FLOPs; int8: OPs) one core can start per cycle for a FLOP ceiling, by the
 * machine's execution resources: an upper bound that no measured ceiling may pass. The
 * vector datapath is 512 bits on Intel CPUs with AVX-512 and AMD from family 0x1a (Zen 5),
 * 256 bits elsewhere (Zen 4 runs a 512-bit instruction as two halves); two FMA (or dot-product)
 * pipes; mul-add chains at most 2 multiplies and 2 adds a cycle; AMX 1024 bf16 and 2048 int8
 * operations a cycle (a 16x16x32 tile product every 16 cycles). method: fma-chains,
 * mul-add-chains, instruction; isa: scalar, sse, avx2, avx512, avx512_bf16, avx512_fp16,
 * avx512_vnni, avx_vnni, amx_bf16, amx_int8. 0 when unknown (oneDNN's rates have none). */
/* This process's cgroup directory for CPU control: the v1 cpu controller's
 * ("/sys/fs/cgroup/cpu/PATH", *v2 false) where it is mounted, else the v2 one's; false when
 * /proc/self/cgroup names neither. */
bool rt_cpu_cgroup_dir(char *buf, size_t size, bool *v2);

/* The CPU time this process may use, from its cgroup's CFS quota (v1: cpu.cfs_quota_us over
 * cpu.cfs_period_us; v2: cpu.max): *cores of CPU time per period of *period_s seconds, and how
 * many periods so far were throttled (held back at the quota). -ENOENT when there is no
 * quota (or no cgroup to read). */
int rt_cpu_quota(double *cores, double *period_s, unsigned long long *throttled);

/* The CPUs this process may run on (its affinity mask, read once here for every caller): how
 * many, with the mask in *set when set is not NULL; -errno when it cannot be read. */
int rt_cpu_usable(cpu_set_t *set);

/* What else ran on this process's CPUs: a sample now of the busy time of the CPUs it may run
 * on (/proc/stat: user, nice, system, irq, softirq, and steal: a hypervisor's other guests),
 * its own CPU time and its waited-for children's. */
struct rt_cpu_sample {
	double busy;                    /* seconds, summed over the CPUs of the affinity mask */
	double self, children;          /* seconds (getrusage) */
	unsigned ncpus;                 /* in the mask */
	bool ok;
};
void rt_cpu_sample_take(struct rt_cpu_sample *s);
/* Between two samples around a child that ran wall seconds: the CPU time neither this
 * process nor its children used on those CPUs (other processes, the hypervisor), as a share
 * of the CPUs' time; NAN when /proc/stat could not be read. */
double rt_cpu_others_share(const struct rt_cpu_sample *a, const struct rt_cpu_sample *b,
			   double wall, double *others_s);

/* Who else ran there: every process's CPU time (/proc/PID/stat) and the steal time of the
 * CPUs a measurement used, taken before and after a measurement that lost its cores. */
#define RT_CPU_SET_WORDS 16             /* 1024 CPUs */
struct rt_cpu_task {
	int pid, ppid;
	unsigned long long ticks;       /* utime + stime */
	unsigned long long start;       /* starttime: a pid given to another process differs */
	char comm[16];
};
struct rt_cpu_tasks {
	struct rt_cpu_task *t;          /* sorted by pid */
	size_t n;
	unsigned long long cpus[RT_CPU_SET_WORDS];      /* the CPUs the measurement used */
	double steal;                   /* seconds, summed over those CPUs */
	bool ok;
};
/* pus: the npus CPUs the measurement runs on; NULL: every CPU a thread of this process may
 * run on (a pinned thread's own mask is only its CPU) */
int rt_cpu_tasks_take(struct rt_cpu_tasks *s, const int *pus, unsigned npus);
/* Again, on the CPUs of a first take (a measurement's end). */
int rt_cpu_tasks_take_like(struct rt_cpu_tasks *s, const struct rt_cpu_tasks *first);
void rt_cpu_tasks_free(struct rt_cpu_tasks *s);
/* Between two takes: the cause in words, for a flag's parenthesis: the processes (neither this
 * one nor one it started) allowed on those CPUs that used the most CPU time meanwhile, up to
 * RT_CPU_CULPRITS, most first ("another process ran on them; the busiest allowed there: sh,
 * pid 4711, 0.98 CPU s; make, pid 12, 0.31 CPU s"), the hypervisor's steal time when there was
 * some, or that none was found. */
#define RT_CPU_CULPRITS 3
/* Room enough for the cause of RT_CPU_CULPRITS processes and the steal time. */
#define RT_CPU_CAUSE_MAX 400
void rt_cpu_culprit(const struct rt_cpu_tasks *a, const struct rt_cpu_tasks *b, char *out,
		    size_t size);

double rt_cpu_ops_per_cycle(const char *vendor, int family, bool avx512,
			    enum rt_precision precision, const char *isa, const char *method);

#endif
