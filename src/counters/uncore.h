/* uncore.h: DRAM traffic from the memory controllers' PMUs that the kernel describes in sysfs
 * (bus/event_source/devices/<pmu>/: type, cpumask, format/<term> "config:0-7", events/<name>
 * "event=0x04,umask=0x03" with .scale and .unit): Intel's uncore_imc_N cas_count_read and
 * cas_count_write as the kernel names them, AMD's amd_umc_N umc_cas_cmd.rd and .wr from the
 * kernel's amdzen4/amdzen5 memory-controller lists (EventCode 0x0a, RdWrMask 0x1 and 0x2, a
 * 64-byte burst each), Zen 2/3's amd_df dram_channel_data_controller_0 to _7 from its
 * amdzen2/amdzen3 data-fabric lists (64-byte beats, the eight sharing 4 counters). Counted for
 * the whole node on each controller's CPU (root or perf_event_paranoid <= 0), and trusted
 * only after a DRAM triad whose bytes are known read right (rt_pmu_dram_check). */
#ifndef RT_UNCORE_H
#define RT_UNCORE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/err.h"
#include "counters/events.h"

#define RT_UNCORE_MAX 256

struct rt_uncore_event {
	char pmu[64];                   /* "uncore_imc_0" */
	char name[48];                  /* "cas_count_read" */
	unsigned type;                  /* perf_event_attr.type (the PMU's sysfs type) */
	unsigned long long config[3];   /* config, config1, config2 */
	int cpu;                        /* counted there (a CPU of the PMU's cpumask: one event
					 * per CPU in it; 0 without one) */
	double bytes_per_count;
};
struct rt_uncore_set {
	struct rt_uncore_event ev[RT_UNCORE_MAX];
	size_t n;
	int fd[RT_UNCORE_MAX];          /* open: each event's descriptor (-1 closed) */
};

/* An event's sysfs terms ("event=0x0a,rdwrmask=0x1"; a term without a value is 1) placed in
 * the config words by the PMU's format files (pmudir/format/<term>: "config:0-7",
 * "config1:0-15", "config:0-7,32-35"). -EINVAL naming the term that has no format or a value
 * that does not fit its bits. */
int rt_uncore_encode(const char *pmudir, const char *terms, unsigned long long config[3],
		     struct rt_err *err);

/* The DRAM events of u's memory-controller PMU under devroot (normally
 * /sys/bus/event_source/devices): every instance (<u->dram_pmu>N for a name ending in '_',
 * else the name itself) with every one of its events (read and write, or the data fabric's
 * eight channels), each on every CPU of the instance's cpumask. -ENOENT with why when there is
 * none (a VM, a kernel without the PMU) or a controller lacks an event. */
int rt_uncore_find(const char *devroot, const struct rt_uarch *u, struct rt_uncore_set *s,
		   struct rt_err *why);

/* Count: open every event (disabled), enable (from zero), disable and read the bytes (each
 * count x its bytes; where the events outnumber the PMU's counters and took turns, each scaled
 * by the share of the time it ran, *scale the largest factor: 1 when none was), close. */
int rt_uncore_open(struct rt_uncore_set *s, struct rt_err *err);
void rt_uncore_enable(struct rt_uncore_set *s);
int rt_uncore_read(struct rt_uncore_set *s, double *bytes, double *scale, struct rt_err *err);
void rt_uncore_close(struct rt_uncore_set *s);

#endif
