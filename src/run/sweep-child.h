/* sweep-child.h: one configuration of a sweep as its child measures it, and how its points
 * come back: its measurement written as points.csv rows, and the parent's reading of them
 * (the points.csv reader); what the child measures comes to it as a record (runrec.h) */
#ifndef RT_SWEEP_CHILD_H
#define RT_SWEEP_CHILD_H

#include <stdbool.h>
#include <stdio.h>
#include "base/err.h"
#include "cnn/model.h"
#include "cnn/net.h"
#include "results/summary.h"
#include "sweep/runrec.h"
#include "sweep/sweep.h"
#include "cnn/train.h"

struct rt_sweep_child_opts {
	const char *data, *counters;    /* counters: auto, hw, model, none */
	long iterations, warmup, repeat;
	bool per_layer;
	const struct rt_comm *comm;     /* under MPI: every rank trains it (NULL: one process) */
};

/* Train one configuration `repeat` times and write its points on out as points.csv (a header,
 * then rows; the parent names the configuration): each phase, with per_layer each layer
 * where its primitives run it (rt_model_layer_work), and the iteration (the hardware's counts
 * as well when they were counted), each as median, min and max of the runs, with the lowest
 * share of their cores' time any run got; rows of disturbed runs (check_cores) have status
 * "disturbed" and say why. Under MPI the counts are the whole job's. 0, or -errno with err
 * (the failed run's message, or the counters'). */
int rt_sweep_child_measure(FILE *out, const struct rt_model *m, const struct rt_net_opts *no,
			   const struct rt_sweep_child_opts *o, struct rt_err *err);

/* Read a child's output (len bytes): its points.csv rows, after the header line (whatever a
 * library printed before it is passed over), read by the points.csv reader; the identity
 * columns are the parent's configuration's. *pts (caller frees) and *n, or -1 with why (the
 * reader's FILE:LINE message). */
int rt_sweep_child_parse(const char *out, size_t len, const struct rt_sweep_config *c,
			 struct rt_point **pts, size_t *n, char *why, size_t whysize);

/* The identity columns of a configuration's point (config, threads, global batch, affinity,
 * precision, ranks); the rest zero. */
void rt_sweep_config_point(struct rt_point *p, const struct rt_sweep_config *c);

#endif
