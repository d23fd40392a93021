/* t-topo.c: topology queries, working-set sizing and placement on synthetic and saved
 * topologies, so the results do not depend on the machine running the test */
#define _GNU_SOURCE
#include "config.h"
#include "machine/topo.h"
#include "tap.h"

#include <errno.h>
#include <stdint.h>

#define KiB ((uint64_t)1024)
#define MiB (KiB * 1024)
#define SYNTH "synthetic:pack:2 numa:1(memory=8GiB) l3:1(size=32MiB) core:4 l2:1(size=1MiB) " \
	      "l1d:1(size=48KiB) pu:2"

static int core_of(int pu)
{
	return pu / 2; /* synthetic: PUs numbered in order, 2 per core */
}

int main(void)
{
	struct rt_topo *t = NULL;
	struct rt_err err;
	char path[4096];
	int pus[16];
	const char *srcdir = getenv("top_srcdir");

	if (!ok(rt_topo_create(&t, SYNTH, &err) == 0, "synthetic topology loads"))
		printf("# %s\n", err.msg);
	is_int(rt_topo_packages(t), 2, "2 packages");
	is_int(rt_topo_numa_nodes(t), 2, "2 NUMA nodes");
	is_int(rt_topo_cores(t), 8, "8 cores");
	is_int(rt_topo_pus(t), 16, "16 PUs");
	ok(!rt_topo_is_this_system(t), "synthetic is not this system");
	is_int((long long)rt_topo_ncaches(t), 3, "3 data cache levels");
	is_int(rt_topo_cache(t, 0)->level, 1, "first is L1");
	is_int((long long)rt_topo_cache(t, 0)->size, (long long)(48 * KiB), "L1 48 KiB");
	is_int(rt_topo_cache(t, 0)->shared_by, 1, "L1 private");
	is_int(rt_topo_cache(t, 0)->count, 8, "8 L1 instances");
	is_int((long long)rt_topo_cache(t, 1)->size, (long long)MiB, "L2 1 MiB");
	is_int(rt_topo_cache(t, 2)->level, 3, "third is L3");
	is_int((long long)rt_topo_cache(t, 2)->size, (long long)(32 * MiB), "L3 32 MiB");
	is_int(rt_topo_cache(t, 2)->shared_by, 4, "L3 shared by 4 cores");
	is_int(rt_topo_cache(t, 2)->count, 2, "2 L3 instances");
	ok(rt_topo_cache(t, 3) == NULL, "no fourth level");
	is_int((long long)rt_topo_memory_total(t), (long long)(16 * 1024 * MiB), "16 GiB memory");

	/* placement */
	is_int(rt_topo_placement(t, RT_AFFINITY_COMPACT, 4, pus, &err), 0, "compact 4");
	ok(pus[0] == 0 && pus[1] == 2 && pus[2] == 4 && pus[3] == 6,
	   "compact: one PU per core, cores in order (%d %d %d %d)", pus[0], pus[1], pus[2],
	   pus[3]);
	rt_topo_placement(t, RT_AFFINITY_COMPACT, 10, pus, &err);
	ok(pus[7] == 14 && pus[8] == 1 && pus[9] == 3,
	   "compact past the cores: second PUs after all cores (%d %d %d)", pus[7], pus[8],
	   pus[9]);
	is_int(rt_topo_placement(t, RT_AFFINITY_SCATTER, 2, pus, &err), 0, "scatter 2");
	ok(pus[0] < 8 && pus[1] >= 8, "scatter 2: one per package (%d %d)", pus[0], pus[1]);
	rt_topo_placement(t, RT_AFFINITY_SCATTER, 4, pus, &err);
	{
		int per_pkg[2] = { 0, 0 }, distinct = 1;

		for (int i = 0; i < 4; i++) {
			per_pkg[pus[i] >= 8]++;
			for (int j = 0; j < i; j++)
				distinct &= core_of(pus[i]) != core_of(pus[j]);
		}
		ok(per_pkg[0] == 2 && per_pkg[1] == 2 && distinct,
		   "scatter 4: 2 per package on 4 distinct cores");
	}
	rt_topo_placement(t, RT_AFFINITY_NONE, 3, pus, &err);
	ok(pus[0] == -1 && pus[2] == -1, "none: no binding");
	ok(rt_topo_placement(t, RT_AFFINITY_COMPACT, 17, pus, &err) == -EINVAL,
	   "17 threads do not fit 16 PUs: %s", err.msg);
	rt_topo_destroy(t);

	/* the KVM machine this project grew up on, saved with lstopo --of xml */
	snprintf(path, sizeof(path), "%s/tests/data/kvm-spr.xml", srcdir ? srcdir : ".");
	t = NULL;
	if (!ok(rt_topo_create(&t, path, &err) == 0, "saved XML loads"))
		printf("# %s\n", err.msg);
	if (t) {
		is_int(rt_topo_cores(t), 2, "xml: 2 cores");
		is_int(rt_topo_pus(t), 2, "xml: 2 PUs");
		is_int((long long)rt_topo_ncaches(t), 3, "xml: 3 levels");
		is_int((long long)rt_topo_cache(t, 2)->size, 110100480LL, "xml: L3 105 MiB (hwloc)");
		is_int(rt_topo_cache(t, 2)->shared_by, 2, "xml: L3 shared by both cores");
		is_int((long long)rt_topo_cache(t, 1)->size, (long long)(2 * MiB), "xml: L2 2 MiB");
		is_int(rt_topo_cache(t, 0)->line, 64, "xml: 64-byte lines");
		rt_topo_destroy(t);
	}

	/* where the topology comes from: the Zen 5 guest whose sysfs has no cache folder, as
	 * hwloc's Linux backend sees it (no cache object), then with its CPUID given */
	{
		const char *dir = srcdir ? srcdir : ".";
		char root[4096];

		snprintf(path, sizeof(path), "%s/tests/data/zen5-vm-no-cache/hwloc-sysfs-only.xml",
			 dir);
		snprintf(root, sizeof(root), "%s/tests/data/zen5-vm-no-cache", dir);
		unsetenv("ROOFTRAJ_SYSROOT");
		t = NULL;
		if (!ok(rt_topo_create(&t, path, &err) == 0, "no cache in sysfs: loads"))
			printf("# %s\n", err.msg);
		is_int((long long)(t ? rt_topo_ncaches(t) : 9), 0,
		       "no cache in sysfs, no CPUID given: no cache named");
		rt_topo_destroy(t);
		setenv("ROOFTRAJ_SYSROOT", root, 1);
		t = NULL;
		if (!ok(rt_topo_create(&t, path, &err) == 0, "caches from CPUID only: loads"))
			printf("# %s\n", err.msg);
		if (t && is_int((long long)rt_topo_ncaches(t), 3, "caches from CPUID only: 3 levels")) {
			static const long long want[] = { 49152, 1048576, 532676608 };

			for (size_t i = 0; i < 3; i++) {
				const struct rt_cache_info *c = rt_topo_cache(t, i);

				is_int(c->level, (int)i + 1, "CPUID: level %zu", i + 1);
				is_int((long long)c->size, want[i], "CPUID: L%zu's size", i + 1);
				is_str(c->source, "cpuid", "CPUID: L%zu labelled cpuid", i + 1);
				is_int(c->shared_by, 1, "CPUID: L%zu one core's", i + 1);
				is_int(c->count, 2, "CPUID: L%zu one a core", i + 1);
				is_int(c->line, 64, "CPUID: L%zu 64-byte lines", i + 1);
			}
		}
		rt_topo_destroy(t);
		/* hwloc's sizes (here the x86 backend's 508 MiB L3) keep hwloc's label, CPUID's
		 * size beside them */
		snprintf(path, sizeof(path), "%s/tests/data/zen5-vm-no-cache/hwloc-with-cpuid.xml",
			 dir);
		t = NULL;
		if (!ok(rt_topo_create(&t, path, &err) == 0, "hwloc and CPUID: loads"))
			printf("# %s\n", err.msg);
		if (t && is_int((long long)rt_topo_ncaches(t), 3, "hwloc and CPUID: 3 levels")) {
			is_str(rt_topo_cache(t, 2)->source, "hwloc", "hwloc's L3 labelled hwloc");
			is_int((long long)rt_topo_cache(t, 2)->cpuid_size, 532676608LL,
			       "CPUID's L3 size beside it");
		}
		rt_topo_destroy(t);
		/* Intel's leaf 4: an L3 whose sharing field (128) is more than the 16 cores */
		snprintf(root, sizeof(root), "%s/tests/data/cpuid-emr16", dir);
		setenv("ROOFTRAJ_SYSROOT", root, 1);
		t = NULL;
		if (!ok(rt_topo_create(&t, "synthetic:pack:1 core:16 pu:1", &err) == 0,
			"Intel leaf 4: loads"))
			printf("# %s\n", err.msg);
		if (t && is_int((long long)rt_topo_ncaches(t), 3, "Intel leaf 4: 3 data levels")) {
			is_int((long long)rt_topo_cache(t, 0)->size, 49152, "Intel: L1d 48 KiB");
			is_int((long long)rt_topo_cache(t, 1)->size, 2 << 20, "Intel: L2 2 MiB");
			is_int((long long)rt_topo_cache(t, 2)->size, 300LL << 20, "Intel: L3 300 MiB");
			is_int(rt_topo_cache(t, 2)->shared_by, 16, "Intel: L3 shared by all 16 cores");
			is_int(rt_topo_cache(t, 2)->count, 1, "Intel: one L3");
			is_int(rt_topo_cache(t, 1)->count, 16, "Intel: 16 L2s");
		}
		rt_topo_destroy(t);
		/* a dump that is not `cpuid -r`'s: the file and line */
		snprintf(root, sizeof(root), "%s/tests/data/cpuid-bad", dir);
		setenv("ROOFTRAJ_SYSROOT", root, 1);
		t = NULL;
		ok(rt_topo_create(&t, "synthetic:pack:1 core:2 pu:1", &err) == -EINVAL,
		   "a malformed CPUID dump is refused");
		like(err.msg, "cpuid-bad/cpuid:2: not a line of", "naming its file and line");
		rt_topo_destroy(t);
		unsetenv("ROOFTRAJ_SYSROOT");
	}

	ok(rt_topo_create(&t, "synthetic:pack:x", &err) == -EINVAL, "bad synthetic rejected");
	like(err.msg, "not a valid hwloc synthetic topology", "message says why");
	ok(rt_topo_create(&t, "/nonexistent/topo.xml", &err) != 0, "missing XML rejected");
	like(err.msg, "/nonexistent/topo.xml", "message names the file");

	/* a process given CPUs 3 and 9 of the 16 (taskset, a job's binding): counts, placements
	 * and the thread limit see those two alone; the caches stay the machine's */
	if (rt_topo_create(&t, SYNTH, &err) == 0) {
		cpu_set_t set;
		char words[128] = "";
		int rc;

		CPU_ZERO(&set);
		CPU_SET(3, &set);
		CPU_SET(9, &set);
		CPU_SET(200, &set);     /* not in the topology: ignored */
		ok(!rt_topo_usable(t, words, sizeof(words)), "not cut before: nothing to say");
		is_int(rt_topo_restrict(t, &set, &err), 0, "cut to CPUs 3 and 9");
		is_int(rt_topo_pus(t), 2, "... 2 PUs");
		is_int(rt_topo_cores(t), 2, "... 2 cores");
		is_int(rt_topo_cache(t, 2)->shared_by, 4, "... the L3 still shared by 4 cores");
		pus[0] = pus[1] = -1;
		rc = rt_topo_placement(t, RT_AFFINITY_COMPACT, 2, pus, &err);
		ok(!rc && pus[0] == 3 && pus[1] == 9, "compact places 2 threads on 3 and 9 (%d, %d)",
		   pus[0], pus[1]);
		pus[0] = pus[1] = -1;
		rc = rt_topo_placement(t, RT_AFFINITY_SCATTER, 2, pus, &err);
		ok(!rc && ((pus[0] == 3 && pus[1] == 9) || (pus[0] == 9 && pus[1] == 3)),
		   "scatter too (%d, %d)", pus[0], pus[1]);
		ok(rt_topo_placement(t, RT_AFFINITY_COMPACT, 3, pus, &err) == -EINVAL,
		   "3 threads do not fit: %s", err.msg);
		ok(rt_topo_usable(t, words, sizeof(words)) &&
		   !strcmp(words, "2 of the machine's 16 CPUs (CPUs 3,9)"), "said: %s", words);
		CPU_ZERO(&set);
		CPU_SET(200, &set);
		ok(rt_topo_restrict(t, &set, &err) == -EINVAL && rt_topo_pus(t) == 2,
		   "a set of none of its CPUs refused, nothing cut: %s", err.msg);
		rt_topo_destroy(t);
	} else {
		ok(0, "synthetic topology: %s", err.msg);
	}

	/* this machine: whatever it is, it has cores and the sizes are sane */
	if (rt_topo_create(&t, NULL, &err) == 0) {
		ok(rt_topo_is_this_system(t), "this machine's topology is this system");
		ok(rt_topo_cores(t) >= 1 && rt_topo_pus(t) >= rt_topo_cores(t), "cores <= PUs");
		ok(rt_topo_memory_available(t) > 0, "available memory known");
		rt_topo_destroy(t);
	} else {
		ok(0, "this machine's topology: %s", err.msg);
	}
	{
		enum rt_affinity a;

		ok(rt_affinity_parse(&a, "scatter") == 0 && a == RT_AFFINITY_SCATTER, "parse scatter");
		ok(rt_affinity_parse(&a, "spread") == -EINVAL, "unknown affinity rejected");
	}
	/* the one precision enum: its names, parsed back, the trainer's two among them */
	{
		static const char *const names[] = { "fp64", "fp32", "bf16", "fp16", "int8" };
		enum rt_precision p = RT_PRECISION_COUNT;

		is_int(RT_PRECISION_COUNT, 5, "five precisions");
		for (int i = 0; i < RT_PRECISION_COUNT; i++) {
			is_str(rt_precision_name((enum rt_precision)i), names[i], "precision %d: %s", i,
			       names[i]);
			ok(rt_precision_parse(names[i], &p) == 0 && p == (enum rt_precision)i &&
			   rt_precision_of(names[i]) == p, "... parsed back");
		}
		ok(rt_precision_parse("f32", &p) == -EINVAL && rt_precision_of("f32") ==
		   RT_PRECISION_COUNT, "oneDNN's 'f32' is not rooftraj's name");
		is_str(rt_precision_name(RT_PRECISION_COUNT), "unknown", "out of range: unknown");
		ok(RT_TRAIN_NPRECISIONS == 2 && rt_vocab_train_precisions[0] == RT_PRECISION_FP32 &&
		   rt_vocab_train_precisions[1] == RT_PRECISION_BF16, "the trainer's: fp32, bf16");
		ok(rt_precision_trains(RT_PRECISION_FP32) && rt_precision_trains(RT_PRECISION_BF16) &&
		   !rt_precision_trains(RT_PRECISION_FP64) && !rt_precision_trains(RT_PRECISION_FP16) &&
		   !rt_precision_trains(RT_PRECISION_INT8), "... and only those train");
	}
	return done_testing();
}
