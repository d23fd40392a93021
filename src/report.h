/* report.h: sweep points (one per configuration x scope x statistic), their arithmetic
 * (intensity, GFLOP/s, the ceiling that bounds them), points.csv, summary.txt and run.cfg */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "err.h"
#include "profile.h"

struct rt_point {
	char config[64];
	unsigned threads;
	long batch;
	char affinity[16], precision[8];
	unsigned ranks;
	char scope[16];                 /* iteration, phase, layer */
	char name[160];                 /* iteration; forward, backward, update; a layer's name
					 * ("conv1+relu1": a host and the layer fused into it) */
	char stat[8];                   /* median, min, max over the repetitions */
	double seconds, flops, bytes;   /* per iteration */
	char source[16];                /* hw, hw-estimate, model */
	double intensity, gflops, images_per_s;        /* derived */
	double weights, activations, gradients, optimizer, workspace, peak_rss;   /* bytes */
	char status[8];                 /* ok, failed, fused (a layer run inside another's
					 * primitive: no rate; reason says where) */
	char reason[400];
	char impl[64];                  /* oneDNN's implementation of the heaviest layer */
	char run[64];                   /* not in the CSV: which results directory, for overlays */
};

/* Whether a point is a configuration's headline: the whole iteration, the median of the
 * repetitions, measured (status ok). */
bool rt_point_is_headline(const struct rt_point *p);

/* intensity = flops / bytes (FLOP/byte), gflops = flops / seconds / 1e9, images/s =
 * batch / seconds for the iteration scope (0 elsewhere); 0 where a divisor is 0. */
void rt_point_derive(struct rt_point *p);

struct rt_bound {
	char ceiling[96];               /* "DRAM triad 21.4 GB/s" or "fp32 avx512 268.0 GFLOP/s" */
	const char *level;              /* the memory level that holds the point's bytes */
	double attainable;              /* GFLOP/s: min(peak, bandwidth x intensity) */
	double fraction;                /* achieved / attainable */
	bool memory_bound;
};

/* The roofline bound of a point from the profile's ceilings at its thread count (or the
 * nearest count measured below it): the best bandwidth of the memory level that holds its
 * compulsory bytes (rt_profile_holding_level: a layer whose tensors fit in L2 is bounded by
 * L2, not by DRAM; DRAM when no level holds them) and the best FLOP ceiling of its precision.
 * -ENOENT if the profile lacks either. */
int rt_point_bound(const struct rt_point *p, const struct rt_profile *prof, struct rt_bound *b);

/* points.csv: the header line, a row per point (fields quoted where needed). */
void rt_points_csv_header(FILE *fp);
void rt_points_csv_row(FILE *fp, const struct rt_point *p);
/* Read points.csv back (for --resume and the summary); caller frees *pts. A malformed line is
 * an error naming FILE:LINE. A missing file is 0 points. */
int rt_points_csv_read(const char *path, struct rt_point **pts, size_t *n, struct rt_err *err);

/* summary.txt: the best configuration (iteration images/s, median), its speedup over the
 * default one, and each configuration's bound and distance to it. Written atomically. */
int rt_report_summary(const char *path, const struct rt_point *pts, size_t n,
		      const char *default_config, const struct rt_profile *prof, FILE *also,
		      struct rt_err *err);

#endif
