/* t-probe-plan.c: the probe's plan on given topologies (hwloc synthetic): the thread counts
 * it measures, chosen from the node's structure; its theoretical peaks from a given clock */
#include "config.h"
#include "node/probe.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The list rt_probe_topo_threads gives for a synthetic topology, "1,8,16". */
static void check(const char *synth, size_t cap, const char *want, const char *name)
{
	struct rt_topo *t = NULL;
	struct rt_err err;
	unsigned list[RT_PROBE_MAX_THREADS_LIST];
	char got[256] = "";
	size_t n, len = 0;

	if (rt_topo_create(&t, synth, &err)) {
		ok(0, "%s: %s", name, err.msg);
		return;
	}
	n = rt_probe_topo_threads(t, list, cap);
	for (size_t i = 0; i < n && len < sizeof(got); i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%u", i ? "," : "", list[i]);
	is_str(got, want, "%s", name);
	rt_topo_destroy(t);
}

/* A Zen 5's fp32 avx512 ceiling (64 FLOP a cycle) of gflops at one thread under a clock of ghz:
 * its theoretical peak as rt_probe_set_theoretical sets it, the clock it leaves, its notes. */
static void theoretical(double ghz, double gflops, double want_th, double want_clock,
			size_t want_notes, const char *name)
{
	struct rt_profile *p = NULL;
	struct rt_err err;
	const struct rt_profile_flops f = { .precision = "fp32", .isa = "avx512", .threads = 1,
					    .gflops = gflops, .method = "fma-chains" };

	if (rt_profile_create(&p, &err) || rt_profile_add_flops(p, &f)) {
		ok(0, "%s: no profile", name);
		rt_profile_destroy(p);
		return;
	}
	snprintf(p->cpu.vendor, sizeof(p->cpu.vendor), "AuthenticAMD");
	p->cpu.family = 26;
	snprintf(p->cpu.isa[p->cpu.nisa++], sizeof(p->cpu.isa[0]), "avx512f");
	p->cpu.clock_ghz = ghz;
	rt_probe_set_theoretical(p);
	ok(fabs(p->flops[0].theoretical - want_th) < 1e-9 && p->cpu.clock_ghz == want_clock &&
	   p->nnotes == want_notes, "%s (theoretical %.2f, clock %.2f, %zu notes%s%s)", name,
	   p->flops[0].theoretical, p->cpu.clock_ghz, p->nnotes, p->nnotes ? ": " : "",
	   p->nnotes ? p->notes[0] : "");
	rt_profile_destroy(p);
}

/* A guest's 1-thread ceilings as a probe measured them while something unseen slowed its
 * chains (this Sapphire Rapids guest, 4.17 GHz: fp32 avx512 69.7 GFLOP/s, scalar 4.5), beside
 * ones it measured right: only the chains under RT_PROBE_FAR_UNDER of their theoretical peak are
 * flagged, each with a warning; AMX's instruction rate and a 2-thread ceiling are not judged. */
static void far_under(void)
{
	static const struct {
		const char *isa, *method;
		unsigned threads;
		double gflops;
		bool flagged;
	} c[] = {
		{ "avx512", "fma-chains", 1, 69.7, true },      /* 26% of 266.8 */
		{ "avx2", "fma-chains", 1, 119.1, false },      /* 89% of 133.4 */
		{ "scalar", "mul-add-chains", 1, 4.5, true },   /* 27% of 16.7 */
		{ "sse", "mul-add-chains", 1, 43.8, false },    /* 66% of 66.7 */
		{ "avx512", "fma-chains", 2, 136.4, false },    /* 26%, at 2 threads */
		{ "amx_bf16", "instruction", 1, 90, false },
	};
	struct rt_profile *p = NULL;
	struct rt_err err;
	size_t warns = 0;

	if (rt_profile_create(&p, &err)) {
		ok(0, "far under: no profile");
		return;
	}
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rt_profile_flops f = { .precision = "fp32", .threads = c[i].threads,
					      .gflops = c[i].gflops };

		snprintf(f.isa, sizeof(f.isa), "%s", c[i].isa);
		snprintf(f.method, sizeof(f.method), "%s", c[i].method);
		if (!strcmp(c[i].isa, "amx_bf16"))
			snprintf(f.precision, sizeof(f.precision), "bf16");
		if (rt_profile_add_flops(p, &f)) {
			ok(0, "far under: out of memory");
			rt_profile_destroy(p);
			return;
		}
	}
	snprintf(p->cpu.vendor, sizeof(p->cpu.vendor), "GenuineIntel");
	p->cpu.family = 6;
	snprintf(p->cpu.isa[p->cpu.nisa++], sizeof(p->cpu.isa[0]), "avx512f");
	p->cpu.clock_ghz = 4.169;
	rt_probe_set_theoretical(p);
	rt_probe_check_theoretical(p);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct rt_profile_flops *f = &p->flops[i];
		char want[160];

		snprintf(want, sizeof(want), "%.0f%% of its theoretical peak %.1f GFLOP/s, under 40%%: "
			 "the probe's chains run at most of it on a core of their own",
			 100 * f->gflops / f->theoretical, f->theoretical);
		ok(c[i].flagged ? !strncmp(f->flag, want, strlen(want)) : !f->flag[0],
		   "%s %s at %u thread%s, %.1f of %.1f GFLOP/s: %s", f->isa, f->method, f->threads,
		   f->threads > 1 ? "s" : "", f->gflops, f->theoretical,
		   f->flag[0] ? f->flag : "not flagged");
	}
	for (size_t i = 0; i < p->nnotes; i++)
		warns += p->notes_warns[i] && strstr(p->notes[i], "at 1 thread") &&
			 strstr(p->notes[i], "is flagged: ") && strstr(p->notes[i], "; probe again");
	ok(warns == 2, "... a warning for each of the 2 (%zu)", warns);
	is_double(p->cpu.clock_ghz, 4.169, 0, "... the clock kept");
	rt_profile_destroy(p);
}

/* The same guest's 1-thread bandwidth ceilings from that probe: the copies and triads of L1
 * and L2 at 8-22% of their level's load are flagged; L3's and DRAM's, at 90-98%, are not; a
 * copy without a load at its level is not judged. */
static void stores_under(void)
{
	static const struct {
		const char *level, *kernel;
		double gbs;
		bool flagged;
	} c[] = {
		{ "L1", "load", 466.1, false }, { "L1", "copy", 38.9, true },
		{ "L1", "triad", 36.1, true }, { "L2", "load", 180.6, false },
		{ "L2", "copy", 38.9, true }, { "L2", "triad", 36.0, true },
		{ "L3", "load", 28.3, false }, { "L3", "copy", 27.4, false },
		{ "DRAM", "load", 14.0, false }, { "DRAM", "triad", 14.4, false },
		{ "DRAM", "copy_nt", 22.0, false },
	};
	struct rt_profile *p = NULL;
	struct rt_err err;
	size_t warns = 0, want_warns = 0;

	if (rt_profile_create(&p, &err)) {
		ok(0, "stores under: no profile");
		return;
	}
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rt_profile_bw b = { .isa = "avx512", .threads = 1, .gbytes_per_s = c[i].gbs };

		snprintf(b.level, sizeof(b.level), "%s", c[i].level);
		snprintf(b.kernel, sizeof(b.kernel), "%s", c[i].kernel);
		if (rt_profile_add_bw(p, &b)) {
			ok(0, "stores under: out of memory");
			rt_profile_destroy(p);
			return;
		}
		want_warns += c[i].flagged;
	}
	rt_probe_check_bw(p);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct rt_profile_bw *b = &p->bw[i];
		char want[160] = "(no load at its level)";

		for (size_t j = 0; j < sizeof(c) / sizeof(c[0]); j++)
			if (!strcmp(c[j].level, b->level) && !strcmp(c[j].kernel, "load"))
				snprintf(want, sizeof(want), "under 25%% of %s load's %.1f GB/s at as "
					 "many threads: ", b->level, c[j].gbs);
		ok(c[i].flagged ? !strncmp(b->flag, want, strlen(want)) : !b->flag[0],
		   "%s %s %.1f GB/s: %s", b->level, b->kernel, b->gbytes_per_s,
		   b->flag[0] ? b->flag : "not flagged");
	}
	for (size_t i = 0; i < p->nnotes; i++)
		warns += p->notes_warns[i] && strstr(p->notes[i], " is flagged: under 25% of ");
	ok(warns == want_warns, "... a warning for each of the %zu (%zu)", want_warns, warns);
	rt_profile_destroy(p);
}

int main(void)
{
	far_under();
	stores_under();
	theoretical(3.7, 224, 3.7 * 64, 3.7, 0, "a clock of 3.7 GHz: 236.8 GFLOP/s at one thread");
	theoretical(3.7, 245, 3.7 * 64, 3.7, 0,
		    "a ceiling a little past it (a clock that wandered up): kept");
	theoretical(0.229, 224, 0, 0, 1, "a clock read at 0.229 GHz that a 224 GFLOP/s ceiling "
		    "outran 15x: not known, said");
	check("synthetic:pack:1 core:2 pu:1", RT_PROBE_MAX_THREADS_LIST, "1,2",
	      "2 cores, one socket (this kind of VM): 1 and all; half a socket is 1");
	check("synthetic:pack:1 core:16 pu:2", RT_PROBE_MAX_THREADS_LIST, "1,8,16",
	      "16 cores with SMT: 1, half, all cores; not 2 and 4");
	check("synthetic:pack:2 core:64 pu:2", RT_PROBE_MAX_THREADS_LIST, "1,32,64,128",
	      "2 sockets of 64: 1, half a socket, a socket, all");
	check("synthetic:pack:2 core:4 pu:1", RT_PROBE_MAX_THREADS_LIST, "1,2,4,8",
	      "2 sockets of 4: 1, 2, 4, 8");
	check("synthetic:pack:1 core:1 pu:2", RT_PROBE_MAX_THREADS_LIST, "1", "one core: 1 alone");
	check("synthetic:pack:2 core:64 pu:2", 2, "1,32", "the list stops at its room");
	return done_testing();
}
