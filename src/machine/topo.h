/* topo.h: the node's topology from hwloc (and CPUID): caches, cores, memory, thread placement */
#ifndef RT_TOPO_H
#define RT_TOPO_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "base/vocab.h"

#define RT_TOPO_MAX_CACHES 8


struct rt_cache_info {
	int level;              /* 1, 2, 3, ... */
	uint64_t size;          /* bytes of one instance */
	unsigned line;          /* line size in bytes (0 if unknown) */
	unsigned shared_by;     /* cores sharing one instance */
	unsigned count;         /* instances in the machine */
	const char *source;     /* who named it: "hwloc" (sysfs), "cpuid", "curve" (measured) */
	uint64_t cpuid_size;    /* the size CPUID gives this level (0: CPUID names none) */
};

struct rt_topo;

/* Load a topology. source NULL: this machine; "synthetic:DESC": an hwloc synthetic description;
 * anything else: an hwloc XML file. Caller owns *out; free with rt_topo_destroy(). */
int rt_topo_create(struct rt_topo **out, const char *source, struct rt_err *err);
void rt_topo_destroy(struct rt_topo *t);

unsigned rt_topo_packages(const struct rt_topo *t);
unsigned rt_topo_numa_nodes(const struct rt_topo *t);
unsigned rt_topo_cores(const struct rt_topo *t);
unsigned rt_topo_pus(const struct rt_topo *t);
/* True when the topology describes the machine we run on (binding is possible). */
bool rt_topo_is_this_system(const struct rt_topo *t);

/* Keep only the PUs of set (and what holds them): every count, placement and thread limit
 * then sees those alone; the caches keep what they were found to be (their sharing is the
 * machine's). -EINVAL when set holds none of the topology's PUs. */
int rt_topo_restrict(struct rt_topo *t, const cpu_set_t *set, struct rt_err *err);
/* rt_topo_restrict to the CPUs this process may run on (rt_cpu_usable: its affinity, as
 * taskset, a job's binding or a launcher's leave it; hwloc already keeps to a cpuset cgroup),
 * for the topology of this machine; nothing for another. */
int rt_topo_restrict_usable(struct rt_topo *t, struct rt_err *err);
/* Whether the topology was cut to fewer PUs than the machine has; when so, in buf the words
 * "1 of the machine's 2 CPUs (CPU 1)". */
bool rt_topo_usable(const struct rt_topo *t, char *buf, size_t size);

/* Data (or unified) caches, sorted by level: L1d, L2, L3. Borrowed. hwloc's where it names any;
 * else, for this machine (or a test's ROOFTRAJ_SYSROOT), CPUID's (a VM's sysfs may describe no
 * cache, and hwloc's own CPUID backend moves the threads' binding): each says its source, and
 * hwloc's carry CPUID's size of their level beside theirs. */
size_t rt_topo_ncaches(const struct rt_topo *t);
const struct rt_cache_info *rt_topo_cache(const struct rt_topo *t, size_t i);

/* Memory in bytes: hwloc's total for the NUMA nodes, and what the OS says is available now
 * (MemAvailable; hwloc's total when not this system). */
uint64_t rt_topo_memory_total(const struct rt_topo *t);
uint64_t rt_topo_memory_available(const struct rt_topo *t);

/* OS indices of the PUs for threads 0..n-1 under the given placement (n <= number of PUs).
 * RT_AFFINITY_NONE fills pus with -1. */
int rt_topo_placement(const struct rt_topo *t, enum rt_affinity aff, unsigned n, int *pus,
		      struct rt_err *err);

/* Bind the calling thread to the PU with OS index pu (pu < 0: leave it); 0 or an errno. */
int rt_topo_bind_thread(int pu);
/* Pin the n threads of an OpenMP team: thread i to the PU pus[i]; pus NULL (or -1 entries):
 * back to the process's CPU set as it was at the first call. Later parallel regions of n
 * threads run on the same threads (the runtime keeps its pool), so they keep the pinning. */
int rt_topo_pin_team(const int *pus, unsigned n, struct rt_err *err);

/* What pinning a team changes, saved and given back: the calling thread's CPU set, restored
 * on it and on the n threads of an OpenMP team (the pool's threads keep their pinning
 * between parallel regions, and a child process inherits the calling thread's set). */
struct rt_topo_affinity {
	unsigned char set[128];         /* a cpu_set_t: 1024 CPUs */
	bool saved;
};
int rt_topo_affinity_save(struct rt_topo_affinity *a, struct rt_err *err);
int rt_topo_affinity_restore(const struct rt_topo_affinity *a, unsigned n, struct rt_err *err);

/* "none", "compact", "scatter" and back. */

/* The version of the hwloc library in use, "2.9.0". */
void rt_topo_hwloc_version(char *buf, size_t size);

#endif
