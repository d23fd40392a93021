/* cluster-probe.h: roofline-probe under mpirun: each node probed by its first rank (all at
 * once, or one node at a time while the others wait idle), the records gathered at rank 0,
 * the network measured, the cluster profile written with every node judged against the
 * reference; every rank ends with rank 0's verdict */
#ifndef RT_CLUSTER_PROBE_H
#define RT_CLUSTER_PROBE_H

#include <stdbool.h>
#include <stdio.h>
#include "cluster/cluster.h"
#include "cluster/cluster-profile.h"
#include "base/err.h"
#include "node/profile.h"

struct rt_cluster_probe_opts {
	const char *host;               /* the host name to record (NULL: the node's) */
	const char *path;               /* this node's profile, as written */
	const char *cluster_path;       /* rank 0's cluster profile */
	double threshold;               /* a fraction: 0.1 = 10% */
	bool one_at_a_time;
	const struct rt_profile *reference;     /* --reference (rank 0; NULL: from the nodes) */
	const char *reference_path;
	/* probe this node into *p (err on failure): the caller's, which prints as it goes;
	 * `report` is true on rank 0 */
	int (*probe_node)(void *ctx, bool report, struct rt_profile **p, struct rt_err *err);
	/* the second look: measure the ceilings a[0..n) of this node again into p (the profile
	 * probe_node made), keep the better runs and write the node's files again; 0, or err */
	int (*again_node)(void *ctx, struct rt_profile *p, const struct rt_cluster_again *a,
			  size_t n, struct rt_err *err);
	void *ctx;
	/* what goes wrong on a rank (NULL: silent) */
	void (*say)(void *ctx, const char *msg);
	FILE *out;                      /* rank 0's summary (NULL: none) */
};

/* 0 when every node was probed and the cluster profile written, else 1 (on every rank). A
 * node that fails is recorded with why ($ROOFTRAJ_PROBE_FAIL=NODE makes node NODE fail: the
 * tests use it). A node found below the reference on a ceiling measures it again (again_node,
 * at once or in turn as it was probed) before the cluster is judged: a node is called slow
 * only when two looks say so (a healthy node on a shared host meets moments of its
 * neighbours' load that no counter here shows: a second look does not meet the same one). */
int rt_cluster_probe(const struct rt_cluster *cl, const struct rt_cluster_probe_opts *o);

#endif
