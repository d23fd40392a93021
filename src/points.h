/* points.h: a sweep point (one row of points.csv: a configuration x scope x statistic), its
 * arithmetic (intensity, GFLOP/s, images/s), the headline filter, and points.csv written and
 * read with every number and name checked (FILE:LINE on the first that is not right) */
#ifndef RT_POINTS_H
#define RT_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "err.h"

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

/* points.csv: the header line, a row per point (fields quoted where needed). */
void rt_points_csv_header(FILE *fp);
void rt_points_csv_row(FILE *fp, const struct rt_point *p);
/* Read points.csv back (for --resume and the summary); caller frees *pts. A malformed line is
 * an error naming FILE:LINE. A missing file is 0 points. */
int rt_points_csv_read(const char *path, struct rt_point **pts, size_t *n, struct rt_err *err);

#endif
