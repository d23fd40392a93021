/* summary.h: the roofline bound of a point (the ceiling that limits it, its distance to it) and
 * summary.txt */
#ifndef RT_SUMMARY_H
#define RT_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/err.h"
#include "results/points.h"
#include "node/profile.h"
#include "node/roofs.h"

struct rt_bound {
	char ceiling[96];               /* "DRAM triad 21.4 GB/s" or "fp32 avx512 268.0 GFLOP/s" */
	const char *level;              /* the memory level that holds the point's bytes */
	double attainable;              /* GFLOP/s: min(peak, bandwidth x intensity) */
	double fraction;                /* achieved / attainable */
	bool memory_bound;
	double bandwidth;               /* memory bound: the roof's GB/s (a point without FLOPs,
					 * a reorder, is bounded by it alone) */
	bool above;                     /* fraction past 1: the run went faster than the profile
					 * says the node can (rt_bound_above_why) */
};

/* Why a point above its roof is not read as a distance: what summary.txt and report.html say
 * after their tables. */
extern const char rt_bound_above_why[];

/* The roofline bound of a point from the profile's ceilings at its thread count (or the
 * nearest count measured below it): the best bandwidth of the memory level that holds its
 * compulsory bytes (rt_profile_holding_level: a layer whose tensors fit in L2 is bounded by
 * L2, not by DRAM; DRAM when no level holds them) and the best FLOP ceiling of its precision.
 * -ENOENT if the profile lacks either. */
int rt_point_bound(const struct rt_point *p, const struct rt_roofbook *book, struct rt_bound *b);

/* The sweep's thread scaling, where it has two or more thread counts of one batch (and
 * precision, affinity, input, ranks; undisturbed): each count's parallel efficiency against
 * the fewest threads (GFLOP/s ratio over thread ratio) and the images each thread had; below
 * 3/4 of linear at the most threads, what a larger batch did there (the sweep's batch knob:
 * faster outside both ranges or not, by rt_points_faster), or the sweep that would measure
 * it. Nothing when the sweep has no such pair. */
void rt_summary_scaling(FILE *fp, const struct rt_point *pts, size_t n);
/* summary.txt, of any workload: what body writes (the workload's sections: 0, or -errno with
 * err), then tail (NULL: none) in a paragraph of its own; the same text onto also (NULL:
 * none), and into DIR/summary.txt, created exclusively and renamed into place when whole.
 * 0; -errno with err (nothing of a body that failed is written). */
int rt_summary_write(const char *dir, int (*body)(FILE *fp, void *ctx, struct rt_err *err),
		     void *ctx, const char *tail, FILE *also, struct rt_err *err);
/* The trainer's sections (rt_summary_write's body; ctx a struct rt_summary_points): the best
 * configuration (iteration images/s, median), its speedup over the default one, each
 * configuration's bound and distance to it, the thread scaling. */
struct rt_summary_points {
	const struct rt_point *pts;
	size_t n;
	const char *default_config;
	const struct rt_profile *prof;  /* NULL: no bounds */
};
int rt_summary_points(FILE *fp, void *ctx, struct rt_err *err);

#endif
