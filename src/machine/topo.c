/* topo.c: hwloc topology queries (caches, with CPUID's) and the placement rules built on them */
#define _GNU_SOURCE
#include "config.h"
#include "machine/topo.h"
#include "base/util.h"
#include "machine/cpu.h"
#include "machine/cpuid.h"

#include <errno.h>
#include <hwloc.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rt_topo {
	hwloc_topology_t topo;
	bool this_system;
	struct rt_cache_info caches[RT_TOPO_MAX_CACHES];
	size_t ncaches;
	unsigned machine_pus;           /* before rt_topo_restrict; 0: not restricted */
	char usable[256];               /* the PUs kept, as a list ("1,4-7") */
};

static unsigned count_type(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);

	return n > 0 ? (unsigned)n : 0;
}

static int collect_caches(struct rt_topo *t, struct rt_err *err)
{
	static const hwloc_obj_type_t types[] = {
		HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
		HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE,
	};
	unsigned cores = count_type(t->topo, HWLOC_OBJ_CORE);

	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		hwloc_obj_t obj = hwloc_get_next_obj_by_type(t->topo, types[k], NULL);
		unsigned count = count_type(t->topo, types[k]);
		struct rt_cache_info *c;

		if (!obj || !count)
			continue;
		if (obj->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
			continue;
		if (t->ncaches == RT_TOPO_MAX_CACHES)
			break;
		c = &t->caches[t->ncaches++];
		c->level = (int)obj->attr->cache.depth;
		c->size = obj->attr->cache.size;
		c->line = obj->attr->cache.linesize;
		c->count = count;
		c->source = "hwloc";
		c->shared_by = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->topo,
				obj->cpuset, HWLOC_OBJ_CORE);
		if (!c->shared_by)
			c->shared_by = 1;
		if (!c->size)
			return rt_err_set(err, -EINVAL, "hwloc reports an L%d cache of size 0",
					  c->level);
	}
	if (!cores)
		return rt_err_set(err, -EINVAL, "hwloc reports no cores");
	return 0;
}

/* CPUID's caches beside hwloc's: its sizes on hwloc's levels, or its caches where hwloc (a VM's
 * sysfs with no cache folder) names none. Read for this machine, or under a test's sysroot. */
static int cpuid_caches(struct rt_topo *t, bool this_machine, struct rt_err *err)
{
	struct rt_cache_info cc[RT_TOPO_MAX_CACHES];
	const char *root = getenv("ROOFTRAJ_SYSROOT");
	unsigned cores = count_type(t->topo, HWLOC_OBJ_CORE), pus = count_type(t->topo, HWLOC_OBJ_PU);
	size_t n = 0;
	int rc;

	if (!this_machine && !(root && *root))
		return 0;
	if ((rc = rt_cpuid_this(cores && pus >= cores ? pus / cores : 1, cores, cc,
				RT_TOPO_MAX_CACHES, &n, err)))
		return rc;
	if (!t->ncaches) {
		memcpy(t->caches, cc, n * sizeof(cc[0]));
		t->ncaches = n;
		return 0;
	}
	for (size_t i = 0; i < t->ncaches; i++)
		for (size_t j = 0; j < n; j++)
			if (cc[j].level == t->caches[i].level)
				t->caches[i].cpuid_size = cc[j].size;
	return 0;
}

int rt_topo_create(struct rt_topo **out, const char *source, struct rt_err *err)
{
	struct rt_topo *t = calloc(1, sizeof(*t));
	int rc = 0;

	if (!t)
		return rt_err_set(err, -ENOMEM, "out of memory");
	if (hwloc_topology_init(&t->topo)) {
		free(t);
		return rt_err_set(err, -ENOMEM, "hwloc_topology_init failed");
	}
	if (source && !strncmp(source, "synthetic:", 10)) {
		if (hwloc_topology_set_synthetic(t->topo, source + 10)) {
			rc = rt_err_set(err, -EINVAL, "'%s': not a valid hwloc synthetic topology",
					source + 10);
			goto out;
		}
	} else if (source) {
		if (hwloc_topology_set_xml(t->topo, source)) {
			rc = rt_err_set(err, -(errno ? errno : EINVAL),
					"%s: cannot load hwloc XML topology: %s", source,
					strerror(errno ? errno : EINVAL));
			goto out;
		}
	}
#if HWLOC_API_VERSION >= 0x00020500
	/* discovery leaves every thread's binding alone: hwloc's x86 backend binds the thread
	 * to each CPU in turn to read its CPUID, so that a process (a sweep's child) would run
	 * pinned to one CPU for a moment. The Linux backend reads sysfs, which in some VMs has
	 * no cache folder at all: cpuid_caches reads CPUID on this thread alone for those. */
	if (hwloc_topology_set_flags(t->topo, HWLOC_TOPOLOGY_FLAG_DONT_CHANGE_BINDING)) {
		rc = rt_err_set(err, -EINVAL, "hwloc_topology_set_flags failed");
		goto out;
	}
#endif
	if (hwloc_topology_load(t->topo)) {
		rc = rt_err_set(err, -EINVAL, "%s: hwloc cannot load the topology",
				source ? source : "this machine");
		goto out;
	}
	t->this_system = hwloc_topology_is_thissystem(t->topo) && !source;
	rc = collect_caches(t, err);
	if (!rc)
		rc = cpuid_caches(t, !source && hwloc_topology_is_thissystem(t->topo), err);
	if (rc && source)
		rt_err_prefix(err, "%s", source);
out:
	if (rc) {
		rt_topo_destroy(t);
		return rc;
	}
	*out = t;
	return 0;
}

void rt_topo_destroy(struct rt_topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->topo);
	free(t);
}

unsigned rt_topo_packages(const struct rt_topo *t)
{
	unsigned n = count_type(t->topo, HWLOC_OBJ_PACKAGE);

	return n ? n : 1;
}

unsigned rt_topo_numa_nodes(const struct rt_topo *t)
{
	unsigned n = count_type(t->topo, HWLOC_OBJ_NUMANODE);

	return n ? n : 1;
}

unsigned rt_topo_cores(const struct rt_topo *t)
{
	return count_type(t->topo, HWLOC_OBJ_CORE);
}

unsigned rt_topo_pus(const struct rt_topo *t)
{
	return count_type(t->topo, HWLOC_OBJ_PU);
}

bool rt_topo_is_this_system(const struct rt_topo *t)
{
	return t->this_system;
}

size_t rt_topo_ncaches(const struct rt_topo *t)
{
	return t->ncaches;
}

const struct rt_cache_info *rt_topo_cache(const struct rt_topo *t, size_t i)
{
	return i < t->ncaches ? &t->caches[i] : NULL;
}

uint64_t rt_topo_memory_total(const struct rt_topo *t)
{
	hwloc_obj_t root = hwloc_get_root_obj(t->topo);

	return root->total_memory;
}

uint64_t rt_topo_memory_available(const struct rt_topo *t)
{
	uint64_t avail = t->this_system ? rt_mem_available() : 0;

	/* hwloc can under-report memory inside a VM, so MemAvailable wins when present */
	return avail ? avail : rt_topo_memory_total(t);
}

/* compact: cores in logical order, the first PU of each, then the second PUs, ... */
static unsigned compact_order(hwloc_topology_t topo, int *pus, unsigned n)
{
	unsigned cores = count_type(topo, HWLOC_OBJ_CORE), got = 0;

	for (unsigned smt = 0; got < n; smt++) {
		unsigned added = 0;

		for (unsigned c = 0; c < cores && got < n; c++) {
			hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, c);
			hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset,
									     HWLOC_OBJ_PU, smt);

			if (!pu)
				continue;
			pus[got++] = (int)pu->os_index;
			added++;
		}
		if (!added)
			break;
	}
	return got;
}

int rt_topo_placement(const struct rt_topo *t, enum rt_affinity aff, unsigned n, int *pus,
		      struct rt_err *err)
{
	unsigned npu = rt_topo_pus(t);
	hwloc_bitmap_t *sets = NULL;
	hwloc_obj_t root;
	int rc = 0;

	if (n == 0 || n > npu)
		return rt_err_set(err, -EINVAL, "%u threads do not fit on %u processing units", n,
				  npu);
	if (aff == RT_AFFINITY_NONE) {
		for (unsigned i = 0; i < n; i++)
			pus[i] = -1;
		return 0;
	}
	if (aff == RT_AFFINITY_COMPACT) {
		if (compact_order(t->topo, pus, n) != n)
			return rt_err_set(err, -EINVAL, "cannot place %u threads compactly", n);
		return 0;
	}
	/* scatter: hwloc_distrib spreads n sets as far apart as the tree allows; it allocates
	 * the sets itself (we free them) */
	sets = calloc(n, sizeof(*sets));
	if (!sets)
		return rt_err_set(err, -ENOMEM, "out of memory");
	root = hwloc_get_root_obj(t->topo);
	if (hwloc_distrib(t->topo, &root, 1, sets, n, INT_MAX, 0)) {
		rc = rt_err_set(err, -EINVAL, "hwloc_distrib cannot spread %u threads", n);
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!sets[i]) {
			rc = rt_err_set(err, -ENOMEM, "out of memory");
			goto out;
		}
		hwloc_bitmap_singlify(sets[i]);
		pus[i] = hwloc_bitmap_first(sets[i]);
	}
out:
	for (unsigned i = 0; sets && i < n; i++)
		hwloc_bitmap_free(sets[i]);
	free(sets);
	return rc;
}

int rt_topo_restrict(struct rt_topo *t, const cpu_set_t *set, struct rt_err *err)
{
	hwloc_const_bitmap_t all = hwloc_topology_get_topology_cpuset(t->topo);
	hwloc_bitmap_t keep = hwloc_bitmap_alloc();
	const unsigned before = rt_topo_pus(t);
	int rc = 0;

	if (!keep)
		return rt_err_set(err, -ENOMEM, "out of memory");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			hwloc_bitmap_set(keep, (unsigned)c);
	hwloc_bitmap_and(keep, keep, all);
	/* (all is the topology's own set: the restriction changes it) */
	if (hwloc_bitmap_iszero(keep)) {
		rc = rt_err_set(err, -EINVAL, "none of the CPUs this process may run on is in the "
				"topology");
	} else if (!hwloc_bitmap_isequal(keep, all)) {
		if (hwloc_topology_restrict(t->topo, keep, 0)) {
			rc = rt_err_set(err, -(errno ? errno : EINVAL), "hwloc cannot keep only the "
					"CPUs this process may run on: %s",
					strerror(errno ? errno : EINVAL));
		} else {
			t->machine_pus = t->machine_pus ? t->machine_pus : before;
			hwloc_bitmap_list_snprintf(t->usable, sizeof(t->usable), keep);
		}
	}
	hwloc_bitmap_free(keep);
	return rc;
}

int rt_topo_restrict_usable(struct rt_topo *t, struct rt_err *err)
{
	cpu_set_t mine;

	if (!t->this_system || rt_cpu_usable(&mine) <= 0)
		return 0;
	return rt_topo_restrict(t, &mine, err);
}

bool rt_topo_usable(const struct rt_topo *t, char *buf, size_t size)
{
	if (!t->machine_pus)
		return false;
	snprintf(buf, size, "%u of the machine's %u CPUs (%s%s)", rt_topo_pus(t),
		 t->machine_pus, rt_topo_pus(t) > 1 ? "CPUs " : "CPU ", t->usable);
	return true;
}

void rt_topo_hwloc_version(char *buf, size_t size)
{
	unsigned v = hwloc_get_api_version();

	snprintf(buf, size, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
}

int rt_topo_bind_thread(int pu)
{
	cpu_set_t set;

	if (pu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int rt_topo_pin_team(const int *pus, unsigned n, struct rt_err *err)
{
	static cpu_set_t original;
	static bool saved;
	int failed = 0;

	/* the process's CPU set before any pinning: what "none" goes back to */
	if (!saved) {
		int got = rt_cpu_usable(&original);

		if (got < 0)
			return rt_err_set(err, got, "sched_getaffinity: %s", strerror(-got));
		saved = true;
	}
#pragma omp parallel num_threads((int)n) reduction(+ : failed)
	{
		const int tid = omp_get_thread_num();

		if (pus && pus[tid] >= 0)
			failed += rt_topo_bind_thread(pus[tid]) != 0;
		else
			failed += pthread_setaffinity_np(pthread_self(), sizeof(original), &original) != 0;
	}
	return failed ? rt_err_set(err, -EINVAL, "cannot pin %d of %u threads", failed, n) : 0;
}

_Static_assert(sizeof(cpu_set_t) <= sizeof(((struct rt_topo_affinity *)0)->set),
	       "struct rt_topo_affinity holds a cpu_set_t");

int rt_topo_affinity_save(struct rt_topo_affinity *a, struct rt_err *err)
{
	int e = pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), (cpu_set_t *)a->set);

	a->saved = e == 0;
	return e ? rt_err_set(err, -e, "pthread_getaffinity_np: %s", strerror(e)) : 0;
}

int rt_topo_affinity_restore(const struct rt_topo_affinity *a, unsigned n, struct rt_err *err)
{
	const cpu_set_t *set = (const cpu_set_t *)a->set;
	int failed = 0;

	if (!a->saved)
		return 0;
	if (n > 1) {
#pragma omp parallel num_threads((int)n) reduction(+ : failed)
		failed += pthread_setaffinity_np(pthread_self(), sizeof(*set), set) != 0;
	}
	failed += pthread_setaffinity_np(pthread_self(), sizeof(*set), set) != 0;
	return failed ? rt_err_set(err, -EINVAL, "cannot give %d thread%s back its CPU set",
				   failed, failed > 1 ? "s" : "") : 0;
}
