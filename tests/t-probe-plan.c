/* t-probe-plan.c: the probe's plan on given topologies (hwloc synthetic): the thread counts
 * it measures, chosen from the node's structure */
#include "config.h"
#include "node/probe.h"
#include "tap.h"

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

int main(void)
{
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
