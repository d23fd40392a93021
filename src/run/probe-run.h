/* probe-run.h: what roofline-probe does once its options are read: this node probed into its
 * profile, its chart and its page, the tables printed; under mpirun every node, the network
 * and the cluster profile (cluster-probe.h) */
#ifndef RT_PROBE_RUN_H
#define RT_PROBE_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include "cluster/cluster.h"
#include "machine/topo.h"
#include "node/probe.h"
#include "node/profile.h"

struct rt_probe_run_opts {
	const char *prog;               /* the tool's name, for its messages */
	struct rt_probe_opts probe;     /* what to measure (progress is set here) */
	const char *output;             /* --profile-out, %h the host name (NULL:
					 * machine-profiles/HOST.cfg) */
	const char *host;               /* --host, a safe name (NULL: this node's) */
	bool chart, all_roofs, verbose;
	/* under mpirun */
	const char *cluster_path;
	double threshold;               /* a fraction: 0.1 = 10% */
	const char *reference;          /* a node profile known to be good (NULL: none) */
	bool sustain_given, one_at_a_time;
	FILE *out;                      /* the tables and the paths written */
};

/* Probe this node (or, under mpirun, every node into the cluster profile) and print. The exit
 * status: 0, or 1 with the reason said on stderr. */
int rt_probe_run_tool(const struct rt_probe_run_opts *o, const struct rt_cluster *cl,
		      const struct rt_topo *topo);

/* The tables of a profile: its FLOP ceilings by thread count, its bandwidth ceilings, its
 * memory levels against hwloc's sizes; a flagged ceiling marked !. */
void rt_probe_print(FILE *out, const struct rt_profile *p);

#endif
