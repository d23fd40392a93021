/* cluster-profile.h: the cluster profile of a probe under mpirun: each node's ceilings (best,
 * median and spread of the runs, a sustained run of the headline ones), their min / median /
 * max over the nodes, the nodes that fall more than a threshold below a reference (a known-good
 * node's profile, else the best node, or the median of the nodes from 5 nodes up) on any of
 * them, with the figures, the ceilings that were disturbed while measured (reported, never
 * ranked), and the network between the nodes */
#ifndef RT_CLUSTER_PROFILE_H
#define RT_CLUSTER_PROFILE_H

#include <stddef.h>
#include <stdio.h>
#include "cluster/cluster.h"
#include "base/err.h"
#include "node/profile.h"

#define RT_CLUSTER_MAX_CEILINGS 48

/* What a node is judged on, for each ceiling. */
enum rt_cluster_statistic { RT_CLUSTER_BEST, RT_CLUSTER_MEDIAN, RT_CLUSTER_SUSTAINED,
			    RT_CLUSTER_NSTATISTICS };
/* "best", "median", "sustained" */
const char *rt_cluster_statistic_name(enum rt_cluster_statistic s);

struct rt_cluster_ceiling {
	char name[48];                  /* "flops fp32 avx512", "bw DRAM" */
	double value;                   /* the best run: GFLOP/s, GOP/s (int8) or GB/s */
	double median, spread;          /* of the runs (0: not recorded) */
	double sustained;               /* a run of seconds (NAN: not measured) */
	char flag[256];                 /* "": trusted; else why not (the probe's flag) */
	/* a statistic the cluster found below the reference at its first look, before the node
	 * measured it again (its value then; 0: measured once) */
	double first[RT_CLUSTER_NSTATISTICS];
};

/* A ceiling a node measures again before it is called slow on it: its short runs or its
 * sustained run, and why (the finding, in words). */
struct rt_cluster_again {
	char ceiling[48];
	bool sustained;
	char why[160];
};

struct rt_cluster_node {
	char host[256];
	char status[256];               /* "ok", or why the probe failed */
	char profile[1024];             /* the node's profile path */
	unsigned threads;               /* the thread count of its ceilings */
	struct rt_cluster_ceiling c[RT_CLUSTER_MAX_CEILINGS];
	size_t nc;
};

/* A node's ceilings from its profile, at `threads` (0: its largest thread count): every FLOP
 * ceiling (precision and ISA; a trusted one before a flagged one) and each memory level's
 * best bandwidth (its best trusted kernel; flagged only when all are), with the sustained
 * runs the profile holds at that count. */
void rt_cluster_node_from_profile(struct rt_cluster_node *n, const struct rt_profile *p,
				  unsigned threads);
/* The ceilings of a node that can be a reference: trusted, measured. */
size_t rt_cluster_node_usable(const struct rt_cluster_node *n);

/* One line of text per field, for the gather to rank 0, and back. -EINVAL on a malformed
 * text. The encoded text is malloc'd (caller frees). */
char *rt_cluster_node_encode(const struct rt_cluster_node *n);
int rt_cluster_node_decode(const char *text, struct rt_cluster_node *n, struct rt_err *err);

/* The reference a node is held against: a known-good node (--reference: its profile), else
 * per ceiling and statistic the best node's value, or from 5 nodes up the median of the
 * nodes'. Disturbed (flagged) ceilings are never a reference nor held against one. */
struct rt_cluster_reference {
	const struct rt_cluster_node *node;     /* NULL: from the nodes themselves; its
						 * ceilings at the nodes' thread count */
	const char *what;               /* for the reports: the reference profile's path */
	const char *note;               /* how it was taken (NULL: nothing to say) */
	/* the nodes as the first look found them, as many as those judged (NULL: the nodes
	 * judged are the first look): the references are theirs, and a finding must have been
	 * theirs too, so that a second look (a found node's better run kept) may clear a
	 * finding, never make one (a found node's better run as the best node's reference
	 * would put the healthy nodes below it) */
	const struct rt_cluster_node *first;
};

/* Per ceiling over the nodes that have it trusted: min, median, max of the best runs, the
 * reference's best, and the hosts more than threshold (a fraction: 0.1 = 10%) below it. */
struct rt_cluster_stat {
	char name[48];
	double min, median, max;
	double reference;               /* NAN: none */
	size_t count;
	size_t below[64];               /* node indices */
	size_t nbelow;
};
size_t rt_cluster_stats(const struct rt_cluster_node *nodes, size_t n,
			const struct rt_cluster_reference *ref, double threshold,
			struct rt_cluster_stat *out, size_t cap);

/* A node below its reference on one statistic of one ceiling by more than the threshold. */
struct rt_cluster_finding {
	size_t node;
	char ceiling[48];
	enum rt_cluster_statistic statistic;
	double value, reference;
};
/* Room for every finding a judgement can make (64 nodes below on each statistic of each
 * ceiling, as rt_cluster_stats keeps them). */
#define RT_CLUSTER_MAX_FINDINGS (64 * RT_CLUSTER_NSTATISTICS * RT_CLUSTER_MAX_CEILINGS)
/* Every finding (at most cap), nodes in order, then ceilings, then statistics. A median is a
 * finding only when the node's best run is below the reference's median by the threshold too
 * (a median pulled down by runs that met the host's noise is not the node's speed). */
size_t rt_cluster_judge(const struct rt_cluster_node *nodes, size_t n,
			const struct rt_cluster_reference *ref, double threshold,
			struct rt_cluster_finding *out, size_t cap);

/* Write the cluster profile (libconfig, atomically) and print its summary on also (NULL: no
 * summary). */
int rt_cluster_profile_write(const char *path, const struct rt_cluster_node *nodes, size_t n,
			     int ranks, const struct rt_cluster_reference *ref, double threshold,
			     const struct rt_network *net, FILE *also, struct rt_err *err);

#endif
