/* t-identity.c: the node's counter verdict under a matrix of CPU identities that the test
 * chooses, whatever CPU runs it: each identity (vendor, family, model, flags) with and without
 * a core PMU and with and without its memory controllers' PMU, given to the code as a fake
 * /proc/cpuinfo and sysfs tree under ROOFTRAJ_SYSROOT. A core PMU is a replay that reads the
 * probe's kernels right (the kernels themselves run on this CPU: only what every x86-64 runs,
 * the fp64 and fp32 FMA chains, is asserted of them). */
#include "config.h"
#include "counters/counters.h"
#include "counters/pmu.h"
#include "counters/events.h"
#include "machine/cpu.h"
#include "machine/topo.h"
#include "node/levels.h"
#include "node/profile.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct identity {
	const char *label;
	const char *vendor;
	int family, model;
	const char *name;               /* the model name line */
	const char *flags;
	const char *table;              /* the FLOP event table expected, NULL: none */
	const char *dram_pmu;           /* the memory controller's PMU made when asked */
};

static const struct identity ids[] = {
	{ "Sapphire Rapids", "GenuineIntel", 6, 0x8f, "Intel(R) Xeon(R) Platinum 8480+",
	  "fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_bf16 avx512_fp16 amx_bf16 amx_int8 "
	  "amx_tile", "Intel Sapphire Rapids", "uncore_imc_0" },
	{ "Emerald Rapids", "GenuineIntel", 6, 0xcf, "INTEL(R) XEON(R) PLATINUM 8580",
	  "fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_bf16 avx512_fp16 amx_bf16 amx_int8 "
	  "amx_tile", "Intel Emerald Rapids", "uncore_imc_0" },
	{ "an unknown Intel model with AMX", "GenuineIntel", 6, 0xa7,
	  "Intel Xeon Processor (SapphireRapids)",
	  "fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_bf16 avx512_fp16 amx_bf16 amx_int8 "
	  "amx_tile", NULL, "uncore_imc_0" },
	{ "Skylake-SP", "GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz",
	  "fpu sse sse2 avx fma avx2 avx512f avx512bw", "Intel Skylake-SP / Cascade Lake", "uncore_imc_0" },
	{ "Haswell-EP, no AVX-512", "GenuineIntel", 6, 0x3f,
	  "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz", "fpu sse sse2 avx fma avx2", NULL,
	  "uncore_imc_0" },
	{ "AMD Zen 3", "AuthenticAMD", 0x19, 0x01, "AMD EPYC 7763 64-Core Processor",
	  "fpu sse sse2 avx fma avx2", "AMD Zen 3", "amd_df" },
	{ "AMD Zen 4", "AuthenticAMD", 0x19, 0x11, "AMD EPYC 9654 96-Core Processor",
	  "fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_bf16", "AMD Zen 4", "amd_umc_0" },
	{ "AMD Zen 5", "AuthenticAMD", 0x1a, 0x02, "AMD EPYC 9755 128-Core Processor",
	  "fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_bf16", "AMD Zen 5", "amd_umc_0" },
};

/* root/rel holds text, its directories made */
static void put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	if ((fp = fopen(path, "w"))) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* A memory controller's PMU as the kernel describes it, with a type no kernel gives (so that
 * opening it fails the same way everywhere) */
static void memory_pmu(const char *root, const char *pmu)
{
	char rel[256];
	const char *dev = "sys/bus/event_source/devices";

#define PUT(file, text) (snprintf(rel, sizeof(rel), "%s/%s/%s", dev, pmu, file), \
			 put(root, rel, text))
	PUT("type", "4000000\n");
	PUT("cpumask", "0\n");
	PUT("format/event", "config:0-7,32-35\n");
	PUT("format/umask", "config:8-15\n");
	PUT("format/rdwrmask", "config:8-9\n");
	PUT("events/cas_count_read", "event=0x04,umask=0x03\n");
	PUT("events/cas_count_read.scale", "6.103515625e-5\n");
	PUT("events/cas_count_read.unit", "MiB\n");
	PUT("events/cas_count_write", "event=0x04,umask=0x0c\n");
	PUT("events/cas_count_write.scale", "6.103515625e-5\n");
	PUT("events/cas_count_write.unit", "MiB\n");
#undef PUT
}

/* The tree of one identity: its cpuinfo, a software PMU always, a core PMU and the memory
 * controller's when asked */
static void tree(const char *root, const struct identity *id, bool core, bool memory)
{
	char text[1024];

	snprintf(text, sizeof(text), "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\n"
		 "model\t\t: %d\nmodel name\t: %s\nflags\t\t: %s\n\nprocessor\t: 1\n",
		 id->vendor, id->family, id->model, id->name, id->flags);
	put(root, "proc/cpuinfo", text);
	put(root, "sys/bus/event_source/devices/software/type", "1\n");
	if (core)
		put(root, "sys/bus/event_source/devices/cpu/type", "4\n");
	if (memory)
		memory_pmu(root, id->dram_pmu);
}

/* A replay that reads every kernel right on table u: its first event counts each FLOP of the
 * work once (its weight undone), the others nothing */
static struct rt_replay_event right[RT_EVENTS_MAX];

static struct rt_replay replay_right(const struct rt_uarch *u)
{
	for (size_t i = 0; i < u->nflops; i++)
		right[i] = (struct rt_replay_event){ u->flops[i].raw,
						     i ? 0 : 1.0 / u->flops[i].weight, NULL };
	return (struct rt_replay){ right, u->nflops, 1, 0, 0 };
}

static void one(const char *base, const struct identity *id, bool core, bool memory)
{
	char root[512], buf[2048], note[256], want[256];
	const char *tag = core ? (memory ? "core and memory PMUs" : "core PMU only") :
		(memory ? "memory PMU only" : "no PMU");
	struct rt_pmu_record rec;
	struct rt_err why = { 0 }, err = { 0 };
	struct rt_cpu cpu;
	const struct rt_uarch *u = rt_uarch_find(id->vendor, id->family, id->model);
	struct rt_replay rp = { 0 };
	struct rt_pmu pmu = RT_PMU_REPLAY(&rp);

	snprintf(root, sizeof(root), "%s/%x-%x-%d%d", base, (unsigned)id->family,
		 (unsigned)id->model, core, memory);
	tree(root, id, core, memory);
	setenv("ROOFTRAJ_SYSROOT", root, 1);

	/* the identity is the one given, not this machine's */
	if (!memory && !core) {
		ok(rt_cpu_detect(&cpu, &err) == 0 && !strcmp(cpu.vendor, id->vendor) &&
		   cpu.family == id->family && cpu.model_number == id->model &&
		   !strcmp(cpu.model, id->name), "%s: the CPU read is the one given (%s %d/0x%x)",
		   id->label, cpu.vendor, cpu.family, (unsigned)cpu.model_number);
		ok(u ? id->table && !strcmp(u->name, id->table) : !id->table,
		   "%s: table %s", id->label, u ? u->name : "none");
	}
	ok(rt_pmu_core_present() == core, "%s, %s: a core PMU %s", id->label, tag,
	   core ? "found" : "not found");
	if (core && u)
		rp = replay_right(u);
	rt_pmu_verdict_with(core && u ? &pmu : &rt_pmu_perf, buf, sizeof(buf), note, sizeof(note),
			    &rec, &why);
	printf("# %s\n", buf);
	ok(!strncmp(buf, "hardware counters: ", 19) && strstr(buf, "; DRAM bytes: ") &&
	   !strncmp(rec.dram, "not counted: ", 13), "%s, %s: one sentence, the DRAM verdict "
	   "always (%s)", id->label, tag, rec.dram);
	if (!u) {
		snprintf(want, sizeof(want), "no FLOP event table for this CPU (%s family 0x%x model "
			 "0x%x)", id->vendor, (unsigned)id->family, (unsigned)id->model);
		ok(rec.state == RT_PMU_NO_TABLE && !strncmp(buf, "hardware counters: no table: ", 29) &&
		   strstr(buf, want) && !rec.table[0], "... no table, named by its CPUID");
		/* both reasons when both hold */
		ok(!!strstr(buf, "the kernel exposes no core PMU here") == !core &&
		   !!strstr(note, "no core PMU") == !core, "... %s", core ? "the PMU not blamed" :
		   "and no core PMU, said too");
		ok(strstr(rec.dram, "no table of memory-controller events for this CPU") != NULL,
		   "... DRAM: no table of its memory controllers' events");
		return;
	}
	if (!core) {
		ok(rec.state == RT_PMU_NOT_USED &&
		   !strncmp(buf, "hardware counters: not used: the kernel exposes no core PMU here", 64),
		   "... not used: no core PMU");
		snprintf(want, sizeof(want), "the %s table (", u->name);
		ok(strstr(buf, want) && strstr(buf, "waits for a PMU") && !strcmp(rec.table, u->name) &&
		   rec.groups >= 1 && !rec.nchecks, "... the %s table waits, in %u group%s", u->name,
		   rec.groups, rec.groups == 1 ? "" : "s");
	} else {
		/* "fp64 and fp32" where this CPU's kernels are those two (AVX2: no bf16 kernel to
		 * replay), "fp64, fp32, bf16 ..." where it has more */
		snprintf(want, sizeof(want), "hardware counters: %s table validated for fp64", u->name);
		ok(rec.state == RT_PMU_VALIDATED && !strncmp(buf, want, strlen(want)) &&
		   (!strncmp(buf + strlen(want), ", fp32", 6) ||
		    !strncmp(buf + strlen(want), " and fp32", 9)) &&
		   rec.nchecks >= 2 && rec.check[0].trusted && rec.check[1].trusted,
		   "... validated on the replay for fp64 and fp32 (%s %.3fx, %s %.3fx)",
		   rec.check[0].kernel, rec.check[0].ratio, rec.check[1].kernel, rec.check[1].ratio);
	}
	/* the memory controllers: looked for under the identity's sysfs */
	if (memory) {
		snprintf(want, sizeof(want), "%.*s", (int)strcspn(id->dram_pmu, "0"), id->dram_pmu);
		ok(strstr(rec.dram, want) && strstr(rec.dram, "cannot be counted here"),
		   "... its %s PMU found, and why it cannot be counted said", want);
	} else {
		ok(strstr(rec.dram, "no ") && strstr(rec.dram, "PMU") &&
		   !strstr(rec.dram, "cannot be counted here"), "... no memory-controller PMU: said");
	}
}

/* The identity's CPUID as `cpuid -r` prints it: leaf 0 naming its vendor, then its cache leaves
 * (Intel's leaf 4, AMD's 0x8000001D under the topology extensions): L1d 48 KiB, L2 1 MiB, an
 * L3 of 32 MiB shared by 8 logical processors. */
static unsigned word(const char *s)
{
	unsigned v;

	memcpy(&v, s, sizeof(v));
	return v;
}

static void cpuid_dump(const char *root, const struct identity *id)
{
	static const unsigned cache[][4] = {    /* type | level << 5, ways - 1, sets - 1, shared */
		{ 0x21, 11, 63, 0 }, { 0x22, 7, 63, 0 }, { 0x43, 15, 1023, 0 }, { 0x63, 15, 32767, 7 },
	};
	const bool amd = !strcmp(id->vendor, "AuthenticAMD");
	const unsigned leaf = amd ? 0x8000001du : 4;
	char text[2048];
	int n;

	/* the vendor's twelve bytes in EBX, EDX, ECX */
	n = snprintf(text, sizeof(text), "CPU 0:\n   0x00000000 0x00: eax=0x00000010 ebx=0x%08x "
		     "ecx=0x%08x edx=0x%08x\n", word(id->vendor), word(id->vendor + 8),
		     word(id->vendor + 4));
	if (amd)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "   0x80000000 0x00: eax=0x80000026 "
			      "ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n   0x80000001 0x00: eax=0x00a00f11 ebx=0x00000000 "
			      "ecx=0x00400000 edx=0x00000000\n");
	for (size_t i = 0; i < 4; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "   0x%08x 0x%02zx: eax=0x%08x "
			      "ebx=0x%08x ecx=0x%08x edx=0x00000000\n", leaf, i,
			      cache[i][0] | 0x100 | cache[i][3] << 14, cache[i][1] << 22 | 63,
			      cache[i][2]);
	snprintf(text + n, sizeof(text) - (size_t)n, "   0x%08x 0x04: eax=0x00000000 ebx=0x00000000 "
		 "ecx=0x00000000 edx=0x00000000\n", leaf);
	put(root, "cpuid", text);
}

/* Where the topology comes from, for one identity: hwloc's sysfs naming the caches (the Zen 5
 * guest's with its CPUID backend: a 508 MiB L3), naming none (the same guest as its Linux
 * backend saw it) with the CPUID leaves given, and with none given; the levels then as the
 * guest's recorded curve shows them. */
static void topology(const char *base, const char *srcdir, const struct identity *id,
		     const uint64_t *ws, const double *bw, size_t n)
{
	static const uint64_t want[] = { 48 << 10, 1 << 20, 32 << 20 };
	char root[512], xml[1024], none[1024];
	struct rt_topo *t = NULL;
	struct rt_err err = { 0 };
	struct rt_level_result lv[RT_TOPO_MAX_CACHES + 1];
	uint64_t caps[RT_TOPO_MAX_CACHES];
	size_t nc = 0, good = 0;

	snprintf(root, sizeof(root), "%s/%x-%x-00", base, (unsigned)id->family,
		 (unsigned)id->model);
	snprintf(xml, sizeof(xml), "%s/tests/data/zen5-vm-no-cache/hwloc-with-cpuid.xml", srcdir);
	snprintf(none, sizeof(none), "%s/tests/data/zen5-vm-no-cache/hwloc-sysfs-only.xml",
		 srcdir);
	cpuid_dump(root, id);
	setenv("ROOFTRAJ_SYSROOT", root, 1);

	/* no cache in sysfs, the CPUID given: CPUID's caches, labelled */
	if (rt_topo_create(&t, none, &err) == 0) {
		nc = rt_topo_ncaches(t);
		for (size_t i = 0; i < nc && i < 3; i++)
			good += rt_topo_cache(t, i)->size == want[i] &&
				!strcmp(rt_topo_cache(t, i)->source, "cpuid");
	}
	ok(nc == 3 && good == 3 && rt_topo_cache(t, 2)->shared_by == 2,
	   "%s, no cache in sysfs: L1, L2 and L3 from CPUID (%s leaf), labelled cpuid (%zu of %zu)",
	   id->label, !strcmp(id->vendor, "AuthenticAMD") ? "0x8000001D" : "4", good, nc);
	rt_topo_destroy(t);
	t = NULL;

	/* hwloc's sizes wrong: its 508 MiB L3 kept as hwloc's, CPUID's 32 MiB beside it, and the
	 * level ends where the curve leaves its plateau */
	nc = 0;
	if (rt_topo_create(&t, xml, &err) == 0 && (nc = rt_topo_ncaches(t)) == 3)
		for (size_t i = 0; i < nc; i++)
			caps[i] = rt_topo_cache(t, i)->size;
	ok(nc == 3 && !strcmp(rt_topo_cache(t, 2)->source, "hwloc") &&
	   caps[2] == 532676608 && rt_topo_cache(t, 2)->cpuid_size == want[2],
	   "%s, hwloc's sizes wrong: hwloc's L3 (%.0f MiB) labelled hwloc, CPUID's (%.0f MiB) "
	   "beside it", id->label, nc == 3 ? (double)caps[2] / (1 << 20) : 0,
	   nc == 3 ? (double)rt_topo_cache(t, 2)->cpuid_size / (1 << 20) : 0);
	if (nc == 3) {
		rt_levels_analyze(ws, bw, n, caps, 3, 0.15, lv);
		ok(lv[2].found && !lv[2].agrees && lv[2].end < 32 << 20 && lv[2].end > 8 << 20,
		   "... the curve puts that L3's end at %.1f MiB, disagreeing",
		   (double)lv[2].end / (1 << 20));
	}
	rt_topo_destroy(t);
	t = NULL;

	/* no cache in sysfs and no CPUID leaf: no source names one, the curve alone does */
	unlink(strcat(root, "/cpuid"));
	nc = 9;
	if (rt_topo_create(&t, none, &err) == 0)
		nc = rt_topo_ncaches(t);
	{
		struct rt_plateau pl[8];
		size_t np = rt_levels_plateaus(ws, bw, n, pl, 8);

		ok(nc == 0 && np == 4, "%s, no cache in sysfs nor CPUID: none named, the curve's %zu "
		   "plateaus the levels", id->label, np);
	}
	rt_topo_destroy(t);
}

int main(void)
{
	char base[] = "/tmp/rt-t-identity-XXXXXX", cmd[600];

	if (!mkdtemp(base)) {
		printf("Bail out! no temporary directory\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		for (int core = 0; core < 2; core++)
			for (int memory = 0; memory < 2; memory++)
				one(base, &ids[i], core, memory);

	/* the topology's sources under each identity, against the cache-less guest's curve */
	{
		const char *srcdir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
		char path[1024];
		struct rt_profile *pr = NULL;
		struct rt_err e = { 0 };
		uint64_t ws[512];
		double bw[512];
		size_t n = 0;

		snprintf(path, sizeof(path), "%s/tests/data/zen5-vm-no-cache/profile-no-caches.cfg",
			 srcdir);
		if (!ok(rt_profile_load(&pr, path, &e) == 0, "the cache-less guest's curve loads"))
			printf("# %s\n", e.msg);
		for (; pr && n < pr->ncurve && n < 512; n++) {
			ws[n] = pr->curve[n].working_set;
			bw[n] = pr->curve[n].gbytes_per_s;
		}
		rt_profile_destroy(pr);
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
			topology(base, srcdir, &ids[i], ws, bw, n);
	}

	/* the trainer's hw backend gives the same reasons */
	{
		char root[600];
		void *ctx = NULL;
		struct rt_err e = { 0 };

		snprintf(root, sizeof(root), "%s/%x-%x-00", base, 6u, 0xa7u);
		setenv("ROOFTRAJ_SYSROOT", root, 1);
		ok(rt_counters_hw.open(&ctx, RT_PRECISION_FP32, &e) == -ENOTSUP &&
		   strstr(e.msg, "no core PMU") && strstr(e.msg, "no FLOP event table"),
		   "the hw backend on an unknown Intel model without a PMU: both said: %s", e.msg);
		snprintf(root, sizeof(root), "%s/%x-%x-00", base, 0x1au, 0x02u);
		setenv("ROOFTRAJ_SYSROOT", root, 1);
		ok(rt_counters_hw.open(&ctx, RT_PRECISION_FP32, &e) == -ENOTSUP &&
		   strstr(e.msg, "no core PMU") && !strstr(e.msg, "FP_RET"),
		   "... on a Zen 5 without one: the PMU named, not an event: %s", e.msg);
	}
	unsetenv("ROOFTRAJ_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", base);
	return done_testing();
}
