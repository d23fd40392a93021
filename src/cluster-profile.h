/* cluster-profile.h: the cluster profile of a probe under mpirun: each node's headline
 * ceilings, their min / median / max over the nodes, the nodes that fall more than a threshold
 * below the median (a sick node), and the network between the nodes */
#ifndef RT_CLUSTER_PROFILE_H
#define RT_CLUSTER_PROFILE_H

#include <stddef.h>
#include <stdio.h>
#include "cluster.h"
#include "err.h"
#include "profile.h"

#define RT_CLUSTER_MAX_CEILINGS 48

struct rt_cluster_ceiling {
	char name[48];                  /* "flops fp32 avx512", "bw DRAM" */
	double value;                   /* GFLOP/s, GOP/s (int8) or GB/s */
};

struct rt_cluster_node {
	char host[256];
	char status[256];               /* "ok", or why the probe failed */
	char profile[1024];             /* the node's profile path */
	unsigned threads;               /* the thread count of its ceilings */
	struct rt_cluster_ceiling c[RT_CLUSTER_MAX_CEILINGS];
	size_t nc;
};

/* A node's headline ceilings from its profile, at its largest thread count: every FLOP
 * ceiling (precision and ISA) and each memory level's best bandwidth. */
void rt_cluster_node_from_profile(struct rt_cluster_node *n, const struct rt_profile *p);

/* One line of text per field, for the gather to rank 0, and back. -EINVAL on a malformed
 * text. The encoded text is malloc'd (caller frees). */
char *rt_cluster_node_encode(const struct rt_cluster_node *n);
int rt_cluster_node_decode(const char *text, struct rt_cluster_node *n, struct rt_err *err);

/* Per ceiling over the nodes that have it: min, median, max, and the hosts more than
 * threshold (a fraction: 0.1 = 10%) below the median. */
struct rt_cluster_stat {
	char name[48];
	double min, median, max;
	size_t count;
	size_t below[64];               /* node indices */
	size_t nbelow;
};
size_t rt_cluster_stats(const struct rt_cluster_node *nodes, size_t n, double threshold,
			struct rt_cluster_stat *out, size_t cap);

/* Write the cluster profile (libconfig, atomically) and print its summary on also (NULL: no
 * summary). */
int rt_cluster_profile_write(const char *path, const struct rt_cluster_node *nodes, size_t n,
			     int ranks, double threshold, const struct rt_network *net, FILE *also,
			     struct rt_err *err);

#endif
