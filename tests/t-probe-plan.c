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

int main(void)
{
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
