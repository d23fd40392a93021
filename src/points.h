/* points.h: a sweep point (one row of points.csv: a configuration x scope x statistic), its
 * arithmetic (intensity, GFLOP/s, images/s), the headline filter, and points.csv written and
 * read with every number and name checked (FILE:LINE on the first that is not right) */
#ifndef RT_POINTS_H
#define RT_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "err.h"
#include "vocab.h"

/* What a row measures, and how; each with its name table (the CSV's words). */
enum rt_scope { RT_SCOPE_ITERATION, RT_SCOPE_PHASE, RT_SCOPE_LAYER, RT_SCOPE_COUNT };
extern const char *const rt_point_scopes[RT_SCOPE_COUNT];        /* iteration phase layer */
enum rt_stat { RT_STAT_MEDIAN, RT_STAT_MIN, RT_STAT_MAX, RT_STAT_COUNT };
extern const char *const rt_point_stats[RT_STAT_COUNT];          /* median min max */
/* ok: measured; failed: the configuration did not run (reason says why); fused: a layer run
 * inside another's primitive, no rate of its own (reason says where) */
enum rt_status { RT_STATUS_OK, RT_STATUS_FAILED, RT_STATUS_FUSED, RT_STATUS_COUNT };
extern const char *const rt_point_statuses[RT_STATUS_COUNT];     /* ok failed fused */

struct rt_point {
	char config[64];
	unsigned threads;
	long batch;
	enum rt_affinity affinity;
	enum rt_precision precision;
	unsigned ranks;
	enum rt_scope scope;
	char name[160];                 /* iteration; forward, backward, update; a layer's name
					 * ("conv1+relu1": a host and the layer fused into it) */
	enum rt_stat stat;              /* over the repetitions */
	double seconds, flops, bytes;   /* per iteration */
	enum rt_source source;          /* none (written empty) for a failed configuration */
	double intensity, gflops, images_per_s;        /* derived */
	double weights, activations, gradients, optimizer, workspace, peak_rss;   /* bytes */
	enum rt_status status;
	char reason[400];
	char impl[64];                  /* oneDNN's implementation of the heaviest layer */
	long input_h, input_w;          /* the input's height and width (0: not recorded) */
	/* gradients split into the weights' and the activations' (their sum); the bytes a
	 * forward-only pass needs (struct rt_net_memory.inference). NAN: not recorded (a
	 * points.csv of rooftraj 0.2 or earlier); written as an empty field. */
	double weight_gradients, activation_gradients, inference;
	char run[64];                   /* not in the CSV: which results directory, for overlays */
};

/* Whether a point is a configuration's headline: the whole iteration, the median of the
 * repetitions, measured (status ok). */
bool rt_point_is_headline(const struct rt_point *p);

/* The threads a point's work ran on: threads per rank x ranks (its counts are the job's).
 * The roofs a point is held against are those of this many threads. */
unsigned rt_point_threads(const struct rt_point *p);

/* The CSV's words for a point's fields. */
const char *rt_point_scope_name(const struct rt_point *p);
const char *rt_point_stat_name(const struct rt_point *p);
const char *rt_point_status_name(const struct rt_point *p);
const char *rt_point_source_name(const struct rt_point *p);     /* "" for none */
const char *rt_point_affinity_name(const struct rt_point *p);
const char *rt_point_precision_name(const struct rt_point *p);

/* The headline of config, or NULL. */
const struct rt_point *rt_points_headline(const struct rt_point *pts, size_t n,
					  const char *config);
/* The best configuration's headline: the most images/s among the configurations that do the
 * default's work (its input: a smaller image is not a speedup); NULL when none succeeded. */
const struct rt_point *rt_points_best(const struct rt_point *pts, size_t n,
				      const char *default_config);

/* intensity = flops / bytes (FLOP/byte), gflops = flops / seconds / 1e9, images/s =
 * batch / seconds for the iteration scope (0 elsewhere); 0 where a divisor is 0. */
void rt_point_derive(struct rt_point *p);

/* The number of columns of a points.csv header this version reads (today's, or an earlier
 * version's prefix of it), or 0. */
int rt_points_csv_columns(const char *header);
#define RT_POINTS_CSV_COLUMNS 30        /* today's */
/* points.csv: the header line, a row per point (fields quoted where needed). */
void rt_points_csv_header(FILE *fp);
void rt_points_csv_row(FILE *fp, const struct rt_point *p);
/* Read points.csv back (for --resume and the summary); caller frees *pts. A malformed line is
 * an error naming FILE:LINE. A missing file is 0 points. */
int rt_points_csv_read(const char *path, struct rt_point **pts, size_t *n, struct rt_err *err);

#endif
